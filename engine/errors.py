"""Errors a person should read, and nothing else.

Every error whose message is meant for the person running diffvoice — a bad config value, a
model that cannot be loaded, a WAV file that cannot be read, no sound card — subclasses
:class:`UserError` and is raised with the one line that person reads. The command line prints
exactly those as they are; anything else is a bug and is shown with its class name and the hint
to set ``DIFFVOICE_DEBUG=1``. This module imports nothing, so the light parts of ``voice`` can
raise these errors without loading torch.
"""

from __future__ import annotations


class UserError(Exception):
    """A problem the user can fix; ``str(e)`` is the one line they read."""


class ConfigError(UserError, ValueError):
    """A bad config file, key or value (a preset, ``--set``, a training config)."""
