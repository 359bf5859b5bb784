"""A diffvoice server started as a user starts it: ``python -m cli <command> --port 0 ...``
in a subprocess, its banner read for the address it took (tests of the real clients: the
official ``openai`` client, Pipecat, LiveKit, the ``wyoming`` library)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@contextmanager
def cli_server(args: list[str], banner: str, timeout_s: float = 180) -> Iterator[re.Match]:
    """Run ``cli`` with ``args`` until the context ends; yields the match of the regex
    ``banner`` in its output (a test fails if it exits or prints none in ``timeout_s``)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli", *args], cwd=ROOT, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    lines: list[str] = []
    try:
        deadline = time.monotonic() + timeout_s
        found = None
        while found is None and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                pytest.fail(f"diffvoice {args[0]} exited: {''.join(lines)}")
            lines.append(line)
            found = re.search(banner, line)
        if found is None:
            pytest.fail(f"diffvoice {args[0]} did not start in {timeout_s:.0f} s: "
                        f"{''.join(lines)}")
        threading.Thread(target=proc.stdout.read, daemon=True).start()  # keep the pipe drained
        yield found
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
