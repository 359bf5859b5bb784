"""Timers and reminders that live in one conversation.

``set`` (a duration, an optional label), ``remind`` (a duration and what to remind of), ``list``,
``cancel`` (one by label, the next one, or ``all``) and ``left``. When one is due, ``on_fire``
gets it with the sentence to speak ("Your pasta timer is done."). Closing the conversation
(:meth:`Timers.close`) cancels every timer it still has.

Timers run on the conversation's asyncio loop when it has one (``run``, ``serve``), else on
daemon threads (``chat``). Tool calls arrive from the LLM's worker thread, so every change to
the table holds a lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import math
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

from voice.tools.units import find_unit
from words.quantity import read_quantity, spoken_text
from words.spoken import int_words

MAX_SECONDS = 24 * 3600
MAX_TIMERS = 20
_SECONDS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}  # a day: to say it's too long


def _time_unit_at(words: list[str], j: int) -> tuple[int, int] | None:
    """Seconds in the time unit named at ``words[j]`` ("minutes", "hrs", "m") and the index
    after it; the names are the units tool's."""
    if j >= len(words):
        return None
    if words[j] in ("m", "men's", "mens", "men"):  # "5m": minutes here, meters to the units
        return 60, j + 1  # tool; Whisper writes a spoken "mins" as "men's" or "men" ("in four
        # men": "remind me to flip the steaks in 4 mins", in both tiny.en and base)
    if words[j] in ("a", "an", "the", "and"):
        return None
    seconds = _SECONDS.get(find_unit(words[j]) or "")
    return (seconds, j + 1) if seconds else None


def duration_words(seconds: int) -> str:
    """``330 → "five minutes and thirty seconds"``, ``3600 → "one hour"``."""
    h, rest = divmod(int(seconds), 3600)
    m, s = divmod(rest, 60)
    parts = [
        f"{int_words(n)} {unit}{'' if n == 1 else 's'}"
        for n, unit in ((h, "hour"), (m, "minute"), (s, "second"))
        if n
    ]
    if not parts:
        return "zero seconds"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def parse_duration(text: object) -> int | None:
    """Seconds in "five minutes", "an hour and a half", "2 minutes 30 seconds", "half an hour",
    "a quarter of an hour", "90 seconds", "1:30" (minutes:seconds); None if unreadable."""
    if isinstance(text, int | float) and not isinstance(text, bool):
        return int(text) if text > 0 else None
    if not isinstance(text, str):
        return None
    t = spoken_text(text).strip(" .?!")
    m = re.fullmatch(r"(\d{1,2}):(\d{2})(?::(\d{2}))?", t)
    if m:
        a, b, c = (int(x) if x else None for x in m.groups())
        return a * 3600 + b * 60 + c if c is not None else a * 60 + b
    t = t.replace("-", " ").replace(",", " ")
    words = [w for w in t.split()
             if w not in ("for", "about", "just", "only", "more", "extra", "whole", "full")]
    if words and words[0] in ("hour", "minute", "second"):  # "hour and a half": "an" unsaid
        words.insert(0, "a")
    total, i, n = Fraction(0), 0, len(words)
    while i < n:
        if words[i] == "and":
            i += 1
            continue
        got = read_quantity(words, i, _time_unit_at)  # "an hour and a half", "90 seconds"
        if got is None:
            return None
        value, unit, _, i = got
        total += value * unit
    if total <= 0:
        return None
    return math.ceil(total)


KEPT_CHANGES = 64  # an answer's changes are kept this long for undo (a take-back is within ~1 s)
REPEAT_S = 15  # a timer of the same length set again within this is the same timer


@dataclass
class Timer:
    id: int
    seconds: int
    label: str  # "" for an unnamed timer; what to remind of for a reminder
    reminder: bool
    due: float  # monotonic clock
    handle: object = field(default=None, repr=False)

    def left(self, now: float) -> int:
        return max(0, math.ceil(self.due - now))

    def name(self) -> str:
        """"the pasta timer", "the timer", "the reminder to call mom"."""
        if self.reminder:
            return f"the reminder to {self.label}"
        return f"the {self.label + ' ' if self.label else ''}timer"

    def announcement(self) -> str:
        if self.reminder:
            return f"Here's your reminder to {self.label}."
        if self.label:
            return f"Your {self.label} timer is done."
        return f"Your {duration_words(self.seconds)} timer is done."

    def to_json(self, now: float) -> dict:
        return {"id": self.id, "label": self.label, "reminder": self.reminder,
                "seconds": self.seconds, "left_s": self.left(now)}  # fmt: skip


class Timers:
    """One conversation's timers."""

    def __init__(
        self,
        on_fire: Callable[[Timer, str], None] | None = None,
        loop: asyncio.AbstractEventLoop | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.on_fire = on_fire
        self.loop = loop
        self.clock = clock
        self._timers: dict[int, Timer] = {}
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self.closed = False
        # What each answer did to the table, so that an answer nobody heard can be undone
        # (:meth:`undo`): (answer, timer set or None, timers it took off), oldest first.
        self._done: list[tuple[str, Timer | None, list[Timer]]] = []
        self._answer = threading.local()  # the answer this thread is writing (:meth:`by`)

    # --- what an answer did -------------------------------------------------------------------
    @contextlib.contextmanager
    def by(self, answer: str):
        """Changes made by this thread inside the block are ``answer``'s (see :meth:`undo`)."""
        self._answer.id = answer
        try:
            yield
        finally:
            self._answer.id = None

    def _did(self, added: Timer | None, removed: list[Timer]) -> None:
        """Note a change (under the lock) for the answer this thread is writing, if any."""
        answer = getattr(self._answer, "id", None)
        if answer is not None and (added is not None or removed):
            self._done = [*self._done[-(KEPT_CHANGES - 1):], (answer, added, removed)]

    def undo(self, answer: str) -> None:
        """Take back what ``answer`` did to the table (it was never heard: a speculation given
        up, a reply taken back): the timers it set are gone, the ones it cancelled or replaced
        run again (a timer that has rung since stays rung)."""
        gone: list[Timer] = []
        back: list[Timer] = []
        with self._lock:
            mine = [d for d in self._done if d[0] == answer]
            self._done = [d for d in self._done if d[0] != answer]
            for _, added, removed in reversed(mine):
                if added is not None and self._timers.pop(added.id, None) is not None:
                    gone.append(added)
                for t in removed if not self.closed else ():
                    self._timers[t.id] = t
                    back.append(t)
        for t in gone:
            self._unschedule(t)
        for t in back:
            self._schedule(t)

    # --- the table ----------------------------------------------------------------------------
    def active(self) -> list[Timer]:
        with self._lock:
            return sorted(self._timers.values(), key=lambda t: t.due)

    def _schedule(self, t: Timer) -> None:
        if self.loop is not None:
            def arm() -> None:
                if t.id in self._timers:
                    t.handle = self.loop.call_later(max(0.0, t.due - self.clock()), self._fire, t)

            self.loop.call_soon_threadsafe(arm)
        else:
            th = threading.Timer(max(0.0, t.due - self.clock()), self._fire, (t,))
            th.daemon = True
            t.handle = th
            th.start()

    def _unschedule(self, t: Timer) -> None:
        h = t.handle
        if h is None:
            return
        if self.loop is not None:
            self.loop.call_soon_threadsafe(h.cancel)
        else:
            h.cancel()

    def _fire(self, t: Timer) -> None:
        with self._lock:
            if self.closed or self._timers.pop(t.id, None) is None:
                return
        if self.on_fire is not None:
            self.on_fire(t, t.announcement())

    def close(self) -> None:
        """Cancel every timer (the conversation is over)."""
        with self._lock:
            self.closed = True
            timers, self._timers = list(self._timers.values()), {}
        for t in timers:
            self._unschedule(t)

    # --- the tool -----------------------------------------------------------------------------
    def call(
        self, action: str = "set", duration: object = None, label: object = None
    ) -> tuple[str, bool]:
        """(what to say, ok) for one tool call."""
        action = str(action or "set").lower().strip()
        label = re.sub(r"\s+", " ", str(label)).strip(" .?!")[:60] if label else ""
        if action in ("set", "start", "add", "remind", "reminder"):
            return self.set(duration, label, reminder=action in ("remind", "reminder"))
        if action in ("list", "show"):
            return self.list(), True
        if action in ("cancel", "stop", "delete", "remove", "clear"):
            return self.cancel(label)
        if action in ("left", "remaining", "status", "time left", "check"):
            return self.left(label)
        return f"sorry, timers can't {action[:30]}", False

    def set(self, duration: object, label: str, reminder: bool = False) -> tuple[str, bool]:
        secs = parse_duration(duration)
        if secs is None:
            said = re.sub(r"\s+", " ", str(duration or "")).strip()[:40]
            if not said:
                return "sorry, I need a length for that, like five minutes", False
            return f"sorry, I couldn't tell how long {said} is; I need a number, like five " \
                "minutes", False
        if secs > MAX_SECONDS:
            return "sorry, timers can be at most one day long", False
        if reminder and not label:
            return "sorry, what should I remind you of", False
        with self._lock:
            if self.closed:
                return "sorry, this conversation has ended", False
            now = self.clock()
            # The same length asked again a moment later is the same timer ("Timer for 8
            # minutes please." answered at a pause, then the whole utterance once the user went
            # on): it starts again, with the later name; it is not a second one.
            # (Two names are two timers: "10 minutes for the pasta", "and 10 for the sauce".)
            again = [t for t in self._timers.values() if t.seconds == secs and not reminder
                     and not t.reminder and now - (t.due - t.seconds) < REPEAT_S
                     and (not t.label or not label or t.label == label.lower())]  # fmt: skip
            for t in again:
                self._timers.pop(t.id, None)
            if len(self._timers) >= MAX_TIMERS:
                return f"sorry, you already have {int_words(MAX_TIMERS)} timers", False
            t = Timer(next(self._ids), secs, label.lower() if not reminder else label,
                      reminder, self.clock() + secs)  # fmt: skip
            self._timers[t.id] = t
            self._did(t, again)
        for old in again:
            self._unschedule(old)
        self._schedule(t)
        dw = duration_words(secs)
        if reminder:
            return f"I'll remind you to {label} in {dw}", True
        return f"{t.label + ' ' if t.label else ''}timer set for {dw}", True

    def list(self) -> str:
        timers = self.active()
        now = self.clock()
        if not timers:
            return "you have no timers"

        def one(t: Timer) -> str:
            return f"{t.label + ' ' if t.label else ''}with {duration_words(t.left(now))} left"

        if len(timers) == 1:
            return f"you have one timer, {one(timers[0])}"
        if len(timers) == 2:
            return f"you have two timers, {one(timers[0])}, and {one(timers[1])}"
        return f"you have {int_words(len(timers))} timers, the next is {one(timers[0])}"

    def _find(self, label: str) -> list[Timer]:
        timers = self.active()
        if not label:
            return timers[:1]
        key = label.lower().removeprefix("the ").removesuffix(" timer").removesuffix(" reminder")
        key = key.removesuffix("'s")  # "the lasagne's done, stop the timer"
        exact = [t for t in timers if t.label.lower() == key]
        found = exact or [t for t in timers if key and key in t.label.lower()]
        if not found and len(timers) == 1 and not timers[0].label:
            return timers  # "timer for 8 minutes, the bread's in" ... "how long on the bread?"
        return found

    def cancel(self, label: str) -> tuple[str, bool]:
        if label.lower() in ("all", "everything", "all timers", "all of them"):
            with self._lock:
                timers, self._timers = list(self._timers.values()), {}
                self._did(None, timers)
            for t in timers:
                self._unschedule(t)
            if not timers:
                return "there's no timer to cancel", False
            n = len(timers)
            return f"cancelled {int_words(n)} timer{'s' if n > 1 else ''}", True
        found = self._find(label)
        if not found:
            if label:
                return f"there's no {label.lower()} timer", False
            return "there's no timer to cancel", False
        t = found[0]
        with self._lock:
            if self._timers.pop(t.id, None) is not None:
                self._did(None, [t])
        self._unschedule(t)
        return f"{t.name()} is cancelled", True

    def left(self, label: str) -> tuple[str, bool]:
        found = self._find(label)
        if not found and len(self.active()) == 1:
            found = self.active()  # "popping out to the garden, how much is left on that timer"
        if not found:
            if label:
                return f"there's no {label.lower()} timer", False
            return "you have no timers", False
        t = found[0]
        return f"{duration_words(t.left(self.clock()))} left on {t.name()}", True
