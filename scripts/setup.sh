#!/usr/bin/env bash
# Set up a fresh Debian machine for diffvoice: system libraries, then .venv with everything.
# Idempotent: re-running only installs what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

# System packages: PortAudio for sounddevice; Chromium for the browser tests.
need=()
[ -e /usr/lib/x86_64-linux-gnu/libportaudio.so.2 ] || [ -e /usr/lib/aarch64-linux-gnu/libportaudio.so.2 ] \
  || need+=(libportaudio2)
if [ "${DIFFVOICE_BROWSER_TESTS:-1}" = 1 ] && ! command -v chromium >/dev/null; then need+=(chromium); fi
if [ ${#need[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  echo "installing system packages: ${need[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

PY="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
stamp=.venv/.diffvoice-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  .venv/bin/python -m pip install -q --upgrade pip
  # torch first, pinned: on this kind of machine the CPU wheel on disk; elsewhere PyPI's build.
  .venv/bin/python -m pip install -q "torch==2.13.0"
  .venv/bin/python -m pip install -q -e ".[test]"
  touch "$stamp"
fi
