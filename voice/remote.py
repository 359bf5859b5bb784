"""What a remote OpenAI-style endpoint's failure says, in one line (the LLM, ASR and TTS
clients that send a stage elsewhere by URL share it)."""

from __future__ import annotations

import json
import urllib.error


def failure(url: str, e: Exception) -> str:
    """The line for ``e``, raised by urllib while calling ``url``: the endpoint's own error
    message (an OpenAI-style body) after its HTTP status, or why it could not be reached."""
    if isinstance(e, urllib.error.HTTPError):
        try:
            msg = json.loads(e.read()).get("error", {}).get("message", "")
        except Exception:
            msg = ""
        return f"{url} answered HTTP {e.code} {msg}".strip()
    return f"cannot reach {url}: {getattr(e, 'reason', e)}"
