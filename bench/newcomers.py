"""Newcomers set for ``bench/skills.py --requests newcomers``: a fourth held-out set, 220+
requests as they reach a real assistant through a speech recogniser or a phone keyboard in the
course of a working day, each with an answer worked out here.

Eight kinds, the same as ``bench/everyday.py``: clock (time, date, year, weekday, days until a
holiday, a date or a weekday), timer (set, remind, correct, list, cancel), arithmetic, units
(length, weight, temperature, speed, time), spelling, facts (capital, continent, language and
currency of the 30 countries of ``training/facts.py``, planets by order, size, heat and moons,
the day or month before or after, days in a month, a month's number), follow-up (two turns, the
second elliptical: another country, another fact of the same country, the next planet, month
or day, another amount, another operation on the last result, another word, another holiday,
the time left on the timer just set) and refusal (what an offline assistant without internet,
phone, smart home or music cannot do). The same seed gives the same requests; the clock's
answers follow the real clock (or ``now``).

How it is written — situations of a working day, heard or typed:

- **Eight people at work, not personas or scenes.** Every request belongs to one of eight
  situations: a nurse on a night shift, a builder on site, a shop cashier, a teacher marking, a
  parent cooking with children, a student revising, a commuter on the bus and a gardener, and
  each situation asks in every kind. The sentence is what that person would say or type there
  and then: a question inside a statement ("I reckon it's about 200 quid, but what's ...
  exactly?"), a hedge ("just to check", "roughly", "probably"), a reason or afterthought after
  the question ("... I need it for the drug chart"), a self-correction whose answer is the
  corrected value ("actually make that 25", "sorry, I meant divided by 6"), run-on turns of two
  clauses, indirect questions ("I was wondering whether you could work out ..."), a wrong guess
  to put right ("someone on the ward reckons it's Madrid").
- **Two channels, drawn per request.** Each situation has its own share of spoken requests
  (the builder and the gardener have their hands full: mostly spoken; the student and the
  commuter: mostly typed). A spoken request is written as Whisper transcribes it: sentence case
  and punctuation, numbers up to ten in words and above ten in digits, thousands with a comma
  ("1,500"), "15%", "£4.99", "27th". A typed one as a phone keyboard sends it: digits throughout,
  no thousands comma, the keyboard's capital at the start, no closing full stop, a question
  mark often left off, and on some phones curly apostrophes ("what’s").
- **Different from the other three sets.** ``bench/paraphrases.py`` puts noun-phrase cores
  inside statement frames; ``bench/everyday.py`` writes one British sentence per everyday
  scene (kitchen, car, homework, pub quiz); ``bench/strangers.py`` gives six personas (terse,
  elder, non-native, child, US, texter) their own wording. Here the wording comes from the job
  being done, and the surface form from the input channel (recogniser or keyboard) rather than
  from the speaker. They were written without reading the other sets' sentences (beyond a line
  or two beside everyday's helpers), the assistant's parsers or the training wordings.
- **Only the values are slotted**, from small lists written with each sentence: numbers,
  countries, planets, days, months, dates and words. Countries are drawn without replacement
  within the facts and within the follow-ups, and so are the facts' planets, days and months.
- **Checks worked out here**, not taken from any tool: arithmetic with
  :class:`fractions.Fraction`; conversions from the exact unit definitions of
  ``bench/everyday.py`` (1 inch = 2.54 cm, 1 lb = 0.45359237 kg); calendar counts with
  :mod:`datetime`; spelled letters from the word; facts from the tables of ``words/facts.py``
  and ``words/calendar.py`` (via ``training/facts.py``). The expected text is what ``useful()``
  in ``bench/skills.py`` looks for: numbers in words as the assistant says them
  (``bench.everyday.said`` / ``number``: exact up to two decimals, else about three significant
  figures or one decimal fewer; "and a half" also taken; an amount of money also as "six pounds
  fifty three"; a conversion with two decimals also to one, and one over a hundred also to a
  whole number), capitals, planets, months, continents, languages and currencies without "the".
  The time left on a timer just set expects its length or one or two minutes under it
  ("twenty five", "twenty four" or "twenty three minute" of a 25-minute timer). (As first
  written it expected only the one or two minutes under; the first run showed the benchmark
  asks within seconds, when the whole length is the true answer, and the check was widened.)
  Because ``useful()`` matches a substring, a numeric answer is drawn again when its words are
  among the request's own numbers said back (every turn's), and an option whose answer could be
  the start of a longer number ("forty" of "forty two") is taken only when every option's is.
  A follow-up that asks another fact of the same country draws a country whose answer no other
  country's contains, so only the right country gives it. A refusal expects nothing.
- **Timers are cleared**: every request that sets a timer is followed, unscored, by "cancel all
  my timers".

``tests/test_newcomers.py`` checks the counts, the checks (some re-derived in floating point
from the request's own text), determinism and that no request equals a training prompt or a
request of the base, paraphrase, everyday or strangers sets.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal
from fractions import Fraction as F

from bench.everyday import (
    CLEAR,
    CM,
    FOOT,
    GRAM,
    INCH,
    KINDS,
    KM,
    KMH,
    MILE,
    MM,
    MPH,
    OUNCE,
    POUND,
    YARD,
    c_to_f,
    duration,
    f_to_c,
    letters,
    nth,
    number,
    said,
)
from bench.skills import MONTHS, WEEKDAYS, Request, _norm
from training.facts import COUNTRIES, MONTH_DAYS, PLANETS, Country
from words.spoken import int_words, ordinal_words

__all__ = ["KINDS", "CLEAR", "SITUATIONS", "newcomers", "situated"]

# situation → (who, share of requests spoken rather than typed)
SITUATIONS: dict[str, tuple[str, float]] = {
    "nurse": ("a nurse on a night shift", 0.6),
    "builder": ("a builder on site", 0.9),
    "cashier": ("a shop cashier", 0.5),
    "teacher": ("a teacher marking", 0.3),
    "parent": ("a parent cooking with children", 0.85),
    "student": ("a student revising", 0.2),
    "commuter": ("a commuter on the bus", 0.2),
    "gardener": ("a gardener", 0.9),
}


# --- the two channels -------------------------------------------------------------------------
def _decimal(x: F | int | str, commas: bool) -> str:
    q = F(x)
    if q.denominator == 1:
        return f"{int(q):,}" if commas else str(int(q))
    d = (Decimal(q.numerator) / Decimal(q.denominator)).normalize()
    return f"{d:,f}" if commas else f"{d:f}"


_ASKING = {"what", "what's", "how", "which", "can", "could", "is", "when", "who", "do"}


@dataclass(frozen=True)
class Channel:
    """How a request's text arrives: from Whisper (``spoken``) or a phone keyboard."""

    spoken: bool
    drop_question_mark: bool = False
    curly: bool = False

    def n(self, x: F | int | str) -> str:
        """A number as written: Whisper says up to ten in words, the keyboard types digits."""
        q = F(x)
        if self.spoken and q.denominator == 1 and 0 <= q <= 10:
            return int_words(int(q))
        return _decimal(q, commas=self.spoken)

    def pct(self, x: F | int | str) -> str:
        return f"{_decimal(x, commas=self.spoken)}%"

    def money(self, x: F | int | str) -> str:
        """An amount of money, as both write it: "£20", "£4.99"."""
        pounds, pence = divmod(round(F(x) * 100), 100)
        return f"£{pounds}.{pence:02d}" if pence else f"£{pounds}"

    def ord(self, n: int) -> str:
        """A day of the month or a rank: "fourth" / "27th" from Whisper, "4th" typed."""
        return ordinal_words(n) if self.spoken and n <= 10 else nth(n)

    def text(self, s: str) -> str:
        s = s[0].upper() + s[1:]
        if self.spoken:  # Whisper's spelling and end mark
            s = re.sub(r"\b([Ww]hat|[Tt]hat)s\b", r"\1's", s)
            if s[-1] in ".?!":
                return s
            return s + ("?" if s.split()[0].lower() in _ASKING else ".")
        s = s.rstrip(".")
        if self.drop_question_mark:
            s = s.rstrip("?")
        return s.replace("'", "’") if self.curly else s


# --- answers as the assistant says them ---------------------------------------------------------
def answer(x: F | int) -> tuple[str, ...]:
    """``bench.everyday.number``, and "... and a half" for a half."""
    q = F(x)
    out = list(number(q))
    if q.denominator == 2 and q > 1:
        out.append(f"{int_words(int(q))} and a half")
    return tuple(out)


def approx(x: F | int) -> tuple[str, ...]:
    """A conversion: as :func:`answer`, and an exact one with two decimals also to one (30.48 cm
    said as "thirty point five"), or over a hundred to a whole number (152.4 cm as "one hundred
    and fifty two"), since a spoken conversion is rounded."""
    q = F(x)
    out = list(answer(q))
    if (q * 100).denominator == 1 and (q * 10).denominator != 1:
        out.append(said(q, 1))
    elif (q * 10).denominator == 1 and q.denominator != 1 and abs(q) >= 100:
        out.append(said(q, 0))
    return tuple(dict.fromkeys(out))


def cash(x: F | int) -> tuple[str, ...]:
    """An amount of money: "six point five three", "six pounds fifty three"."""
    q = F(x)
    pounds, pence = divmod(round(q * 100), 100)
    unit = "pound" if pounds == 1 else "pounds"
    out = list(answer(q))
    if pence:
        out += [f"{int_words(pounds)} {unit} {int_words(pence)}",
                f"{int_words(pounds)} {unit} and {int_words(pence)}"]  # fmt: skip
    else:
        out.append(f"{int_words(pounds)} {unit}")
    return tuple(dict.fromkeys(out))


_OPEN_ENDS = ("ty", "hundred", "thousand")


def open_ended(expect: Sequence[str]) -> bool:
    """True when the first answer could be the start of a longer number ("forty" of "forty
    two"), so that a wrong reply might contain it."""
    return _norm(expect[0]).endswith(_OPEN_ENDS)


# --- facts from the tables ----------------------------------------------------------------------
def capital(c: Country) -> str:
    return c.capital.split(",")[0]  # "Washington, D.C." → "Washington"


def continent(c: Country) -> str:
    return c.continent.removeprefix("both ")


def currency(c: Country) -> str:
    return c.currency.removeprefix("the ")


def language(c: Country) -> str:
    return c.language


def unique(field: Callable[[Country], str], c: Country) -> bool:
    """No other country's answer contains this one's (so only this country gives it)."""
    mine = _norm(field(c))
    return not any(mine in _norm(field(o)) for o in COUNTRIES if o is not c)


def names(c: Country) -> tuple[str, ...]:
    """The country as a reply may name it, without "the"."""
    return tuple(dict.fromkeys(s.removeprefix("the ") for s in c.surfaces))


BY_ORDER = {p.order: p for p in PLANETS}
BIGGEST, SMALLEST, HOTTEST = "Jupiter", "Mercury", "Venus"


def moons(name: str) -> tuple[str, ...]:
    p = next(p for p in PLANETS if p.name == name)
    extra = {"no moons": ("any moons", "zero moons"), "two small moons": ("two moons",)}
    return (p.moons_answer, *extra.get(p.moons_answer, ()))


def month_days(m: int) -> tuple[str, ...]:
    """Days in month ``m`` (0-based): "thirty days" (not inside "thirty one days")."""
    n = MONTH_DAYS[m]
    return ("twenty eight",) if m == 1 else (f"{int_words(n)} days",)


def month_number(m: int) -> tuple[str, ...]:
    """Month ``m`` (0-based) by its number: "ninth", "month nine", "number nine"."""
    return (ordinal_words(m + 1), f"number {int_words(m + 1)}", f"month {int_words(m + 1)}")


HOLIDAYS = (("Christmas", 12, 25), ("Halloween", 10, 31), ("Valentine's Day", 2, 14),
            ("New Year's Eve", 12, 31), ("Christmas Eve", 12, 24), ("Boxing Day", 12, 26),
            ("St Patrick's Day", 3, 17))  # fmt: skip


def _until(today: date, d: date) -> str:
    n = (d - today).days
    return "today" if n == 0 else "tomorrow" if n == 1 else f"{int_words(n)} days"


def _next(today: date, month: int, day: int) -> date:
    d = date(today.year, month, day)
    return d if d >= today else date(today.year + 1, month, day)


# --- the builder ------------------------------------------------------------------------------
class _Pool:
    """Values drawn without replacement (refilled when used up), in the seed's order."""

    def __init__(self, rng: random.Random, values: Sequence) -> None:
        self.rng, self.values, self.left = rng, list(values), []

    def take(self, ok: Callable[[object], bool] = lambda v: True):
        if not any(ok(v) for v in self.left):
            self.left = [v for v in self.values if v not in self.left] + self.left
            self.rng.shuffle(self.left)
        v = next(v for v in self.left if ok(v))
        self.left.remove(v)
        return v


Turns = str | tuple[str, ...]


class _Set:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.rows: list[tuple[str, str, Request]] = []

    def channel(self, who: str) -> Channel:
        spoken = self.rng.random() < SITUATIONS[who][1]
        return Channel(spoken, self.rng.random() < 0.5, not spoken and self.rng.random() < 0.3)

    def _add(self, kind: str, who: str, w: Channel, turns: Turns, expect: Sequence[str],
             after: tuple[str, ...]) -> None:  # fmt: skip
        turns = (turns,) if isinstance(turns, str) else turns
        req = Request(tuple(w.text(t) for t in turns), kind, tuple(expect), after)
        self.rows.append((who, "spoken" if w.spoken else "typed", req))

    def say(self, kind: str, who: str, make: Callable[[Channel], Turns],
            expect: Sequence[str] = (), after: tuple[str, ...] = ()) -> None:  # fmt: skip
        """One request from ``make(channel)`` → its turns."""
        w = self.channel(who)
        self._add(kind, who, w, make(w), expect, after)

    def num(self, kind: str, who: str, options: Sequence, make: Callable,
            after: tuple[str, ...] = (), say: Callable = answer) -> None:  # fmt: skip
        """One request from ``make(channel, *option)`` → (turns, value, operands), expecting
        ``say(value)`` (or ``value`` when it is already the words), with an option drawn whose
        answer is not among the request's own numbers said back, nor words of its text; one whose
        answer is not open-ended when there is one."""
        w = self.channel(who)
        opts = [o if isinstance(o, tuple) else (o,) for o in options]
        self.rng.shuffle(opts)
        fallback = None
        for o in opts:
            turns, value, operands = make(w, *o)
            turns = (turns,) if isinstance(turns, str) else turns
            expect = value if isinstance(value, tuple) else say(value)
            back = _norm(" ".join(said(x) for x in operands) + " " + " ".join(turns))
            if any(_norm(e) in back for e in expect):
                continue
            if not open_ended(expect):
                return self._add(kind, who, w, turns, expect, after)
            fallback = fallback or (turns, expect)
        if fallback is None:
            raise ValueError(f"every option of {make} repeats its answer: {options}")
        self._add(kind, who, w, fallback[0], fallback[1], after)


def situated(seed: int = 0, now: datetime | None = None) -> list[tuple[str, str, Request]]:
    """(situation, "spoken" or "typed", request) for each request of :func:`newcomers`."""
    rng = random.Random(seed)
    now = now or datetime.now()
    s = _Set(rng)
    _clock(s, now)
    _timers(s)
    _arithmetic(s)
    _units(s)
    _spelling(s)
    _facts(s)
    _follow_ups(s, now)
    _refusals(s)
    return s.rows


def newcomers(seed: int = 0, now: datetime | None = None) -> list[Request]:
    """The newcomers set: the same ``seed`` gives the same requests; clock answers are for
    ``now`` (default: the real clock)."""
    return [req for _, _, req in situated(seed, now)]


# --- clock --------------------------------------------------------------------------------------
def _clock(s: _Set, now: datetime) -> None:
    k, rng, today = "clock", s.rng, now.date()
    hours = [int_words(now.hour % 12 or 12)]
    if now.minute >= 45:  # the hour may turn before the request is asked
        hours.append(int_words((now.hour + 1) % 12 or 12))
    if now.hour == 0:
        hours.append("midnight")
    month, day = MONTHS[now.month - 1], now.day
    the_date = (f"{month} {ordinal_words(day)}", f"{ordinal_words(day)} of {month}")
    weekday = (WEEKDAYS[now.weekday()],)
    y = now.year
    year = (f"twenty {int_words(y - 2000)}" if 2010 <= y < 2100 else int_words(y),)

    def until(m: int, d: int) -> tuple[str]:
        return (_until(today, _next(today, m, d)),)

    def on(w: Channel, m: int, d: int) -> str:
        return f"the {w.ord(d)} of {MONTHS[m - 1]}"

    # the nurse
    s.say(k, "nurse", lambda w: "Just to check before I sign the chart, what's the time now?",
          hours)  # fmt: skip
    s.say(k, "nurse", lambda w: "I've lost track on this shift, what's today's date? "
          "It's for the drug chart.", the_date)  # fmt: skip
    s.say(k, "nurse", lambda w: "Has midnight gone yet? What day is it now?", weekday)
    s.say(k, "nurse", lambda w: "How many days till New Year's Eve? I'm on nights over it.",
          until(12, 31))  # fmt: skip
    # the builder
    s.say(k, "builder", lambda w: "What time is it? Are we near tea break yet?", hours)
    s.say(k, "builder", lambda w: "How many days till Christmas? The site shuts for it.",
          until(12, 25))  # fmt: skip
    s.say(k, "builder", lambda w: "What's the date? I'm filling in the delivery note.",
          the_date)  # fmt: skip
    s.say(k, "builder", lambda w: "What year is it, I'm dating the safety certificate.", year)
    # the cashier
    s.say(k, "cashier", lambda w: "Quick one, what year is it? I'm checking someone's ID.", year)
    m, d = rng.choice(((12, 1), (11, 28), (12, 8)))
    s.say(k, "cashier", lambda w: f"How many days until {on(w, m, d)}? That's when the "
          "Christmas rota starts.", until(m, d))  # fmt: skip
    s.say(k, "cashier", lambda w: "Can you tell me the time? The clock on the till is wrong "
          "again.", hours)  # fmt: skip
    # the teacher
    m2, d2 = rng.choice(((10, 27), (10, 20), (2, 16), (5, 26)))
    s.say(k, "teacher", lambda w: f"How many days until half term? It starts on "
          f"{on(w, m2, d2)}.", until(m2, d2))  # fmt: skip
    s.say(k, "teacher", lambda w: "What's today's date? It needs to go at the top of the "
          "marking.", the_date)  # fmt: skip
    s.say(k, "teacher", lambda w: "What day is it today? I've marked so much I've lost track.",
          weekday)  # fmt: skip
    # the parent
    s.say(k, "parent", lambda w: "What time is it now? I need to know if the kids can still "
          "have a snack.", hours)  # fmt: skip
    s.say(k, "parent", lambda w: "How many days is it till Halloween now? The kids keep "
          "asking.", until(10, 31))  # fmt: skip
    # the student
    m3, d3 = rng.choice(((6, 12), (5, 19), (6, 3), (1, 14)))
    s.say(k, "student", lambda w: f"how many days until my exam on {on(w, m3, d3)}",
          until(m3, d3))  # fmt: skip
    s.say(k, "student", lambda w: "whats the date today, I have to date my revision notes",
          the_date)  # fmt: skip
    # the commuter
    s.say(k, "commuter", lambda w: "What time is it? I think my watch is slow.", hours)
    wd = rng.choice((4, 5))
    ahead = (wd - today.weekday()) % 7 or 7
    s.say(k, "commuter", lambda w: f"How many days until {WEEKDAYS[wd]}? Honestly, this week "
          "is dragging.", (_until(today, today + timedelta(days=ahead)),))  # fmt: skip
    s.say(k, "commuter", lambda w: "what day is it today, the bus timetable changes at "
          "weekends", weekday)  # fmt: skip
    # the gardener
    s.say(k, "gardener", lambda w: "What's the date? I want to write it on the seed labels.",
          the_date)  # fmt: skip
    d4 = rng.choice((1, 15, 20))
    s.say(k, "gardener", lambda w: f"How many days until {on(w, 3, d4)}? That's when I sow the "
          "tomatoes.", until(3, d4))  # fmt: skip
    s.say(k, "gardener", lambda w: "Roughly what time is it? My hands are too muddy to look at "
          "my watch.", hours)  # fmt: skip


# --- timers -------------------------------------------------------------------------------------
def _timers(s: _Set) -> None:
    k, rng = "timer", s.rng
    done = ("cancelled", "canceled")

    def t(who: str, make: Callable[[Channel], Turns], expect: str | tuple[str, ...]) -> None:
        s.say(k, who, make, (expect,) if isinstance(expect, str) else expect, CLEAR)

    def mins(n: int) -> str:
        return duration(60 * n)

    # the nurse
    n1 = rng.choice((15, 20, 30))
    t("nurse", lambda w: f"Set a timer for {w.n(n1)} minutes, I need to recheck his obs.",
      mins(n1))  # fmt: skip
    n2, b2 = rng.choice((25, 40, 45)), rng.choice((3, 4, 6))
    t("nurse", lambda w: f"Remind me in {w.n(n2)} minutes to check the drip in bay {w.n(b2)}.",
      mins(n2))  # fmt: skip
    t("nurse", lambda w: f"Start a timer for {w.n(30)} seconds, I'm counting his breathing.",
      "thirty seconds")  # fmt: skip
    n3, b3 = rng.choice((10, 15)), rng.choice((7, 9, 12))
    t("nurse", lambda w: (f"Set a timer for {w.n(n3)} minutes for bed {w.n(b3)}.",
                          "Sorry, wrong patient, cancel it."), done)  # fmt: skip
    # the builder
    n4 = rng.choice((25, 35, 40))
    t("builder", lambda w: f"Set a timer for {w.n(n4)} minutes, the plaster's starting to go "
      "off.", mins(n4))  # fmt: skip
    a5, b5 = rng.choice(((20, 25), (30, 35), (15, 20)))
    t("builder", lambda w: f"Set a timer for {w.n(a5)} minutes, actually make that {w.n(b5)}, "
      "the mortar's slow today.", mins(b5))  # fmt: skip
    t("builder", lambda w: "Remind me in an hour to ring the scaffolders back.",
      ("one hour", "sixty minutes"))  # fmt: skip
    # the cashier
    n6 = rng.choice((15, 20, 30))
    t("cashier", lambda w: f"Set a {w.n(n6)} minute timer for my break.", mins(n6))
    t("cashier", lambda w: "Remind me in half an hour to empty the till.",
      ("thirty minutes", "half an hour"))  # fmt: skip
    # the teacher
    n7 = rng.choice((35, 45, 50))
    t("teacher", lambda w: f"Set a timer for {w.n(n7)} minutes, they're starting the test now.",
      mins(n7))  # fmt: skip
    t("teacher", lambda w: f"Can you time {w.n(90)} seconds? It's the quick-fire round.",
      ("one minute and thirty seconds", "ninety seconds", "a minute and a half"))  # fmt: skip
    a8, b8 = rng.choice(((12, 15), (10, 20), (8, 14)))
    t("teacher", lambda w: (f"Set a timer for {w.n(a8)} minutes for group one.",
                            f"And another one for {w.n(b8)} minutes for group two.",
                            "How many timers are running now?"), "two timers")  # fmt: skip
    # the parent
    n9 = rng.choice((12, 14, 16))
    t("parent", lambda w: f"Set a timer for {w.n(n9)} minutes, the fish fingers have just gone "
      "in.", mins(n9))  # fmt: skip
    a10, b10 = rng.choice(((7, 8), (6, 9), (8, 10)))
    t("parent", lambda w: f"Timer for {w.n(a10)} minutes for the eggs, no wait, {w.n(b10)}, "
      "they like them hard.", mins(b10))  # fmt: skip
    t("parent", lambda w: "Can you set a timer for an hour and a quarter? It's for the roast.",
      ("one hour and fifteen minutes", "seventy five minutes"))  # fmt: skip
    n11 = rng.choice((11, 12, 18))
    t("parent", lambda w: (f"Set a timer for {w.n(n11)} minutes for the rice.",
                           "Oh, the rice is done already, cancel that timer."), done)  # fmt: skip
    # the student
    t("student", lambda w: f"set a timer for {w.n(25)} minutes, doing a pomodoro",
      "twenty five minutes")  # fmt: skip
    n12 = rng.choice((40, 45, 50))
    t("student", lambda w: f"remind me in {w.n(n12)} minutes to take a break from revising",
      mins(n12))  # fmt: skip
    n13 = rng.choice((20, 30, 60))
    t("student", lambda w: (f"set a timer for {w.n(n13)} minutes, one more chapter",
                            "actually scrap that timer, I'm going to bed"), done)  # fmt: skip
    # the commuter
    n14 = rng.choice((17, 19, 23))
    t("commuter", lambda w: f"Set a timer for {w.n(n14)} minutes, that's when my stop is.",
      mins(n14))  # fmt: skip
    n15 = rng.choice((12, 14))
    t("commuter", lambda w: f"remind me in {w.n(n15)} minutes to get off at the hospital",
      mins(n15))  # fmt: skip
    # the gardener
    n16 = rng.choice((20, 30))
    t("gardener", lambda w: f"Set a timer for {w.n(n16)} minutes, I'm watering the beds at the "
      "back.", mins(n16))  # fmt: skip
    t("gardener", lambda w: f"Remind me in {w.n(2)} hours to move the sprinkler.",
      ("two hours", "one hundred and twenty minutes"))  # fmt: skip
    a17, b17 = rng.choice(((15, 25), (10, 40), (20, 45)))
    t("gardener", lambda w: (f"Set a timer for {w.n(a17)} minutes for the sprinkler.",
                             f"And one for {w.n(b17)} minutes for the greenhouse vents.",
                             "Right, which timers are running at the moment?"),
      "two timers")  # fmt: skip


# --- arithmetic ---------------------------------------------------------------------------------
def _arithmetic(s: _Set) -> None:
    k, P = "arithmetic", F  # P("4.99"): a price or decimal, exact

    # the nurse
    s.num(k, "nurse", [(1000, 8), (500, 6), (750, 6), (1000, 12)], lambda w, a, b: (
        f"I've got {w.n(a)} ml to run over {w.n(b)} hours, what's {w.n(a)} divided by "
        f"{w.n(b)}?", F(a, b), (a, b)))  # fmt: skip
    s.num(k, "nurse", [(250, 175, 320), (200, 150, 275), (330, 180, 245), (125, 240, 310)],
          lambda w, a, b, c: (f"What's {w.n(a)} plus {w.n(b)} plus {w.n(c)}? I'm totting up "
                              "his fluids for the night.", F(a + b + c), (a, b, c)))  # fmt: skip
    s.num(k, "nurse", [(P("1.5"), 72), (P("2.5"), 64), (P("0.5"), 86), (P("1.5"), 58)],
          lambda w, a, b: (f"Just to check the dose, what's {w.n(a)} times {w.n(b)}?", a * b,
                           (a, b)))  # fmt: skip
    # the builder
    s.num(k, "builder", [(14, 23), (18, 27), (16, 35), (13, 29)], lambda w, a, b: (
        f"What's {w.n(a)} times {w.n(b)}? That's the blocks for the back wall, roughly.",
        F(a * b), (a, b)))  # fmt: skip
    s.num(k, "builder", [(P("12.50"), 17), (P("8.75"), 24), (P("14.40"), 12), (P("6.35"), 36)],
          lambda w, a, b: (f"I reckon it's about {w.n(_guess(a * b))} quid, but what's "
                           f"{w.money(a)} times {w.n(b)} exactly?", cash(a * b),
                           (a, b, _guess(a * b))))  # fmt: skip
    s.num(k, "builder", [(1200, 785), (1500, 1137), (2000, 1364), (900, 487)], lambda w, a, b: (
        f"We had {w.n(a)} bricks and we've used {w.n(b)}, so what's {w.n(a)} minus {w.n(b)}?",
        F(a - b), (a, b)))  # fmt: skip
    s.num(k, "builder", [P("4.5"), P("3.8"), P("5.2"), P("6.5")], lambda w, a: (
        f"The room's square, {w.n(a)} metres a side, so what's {w.n(a)} squared?", a * a,
        (a,)))  # fmt: skip
    s.num(k, "builder", [(P("3.45"), P("2.8"), P("4.15")), (P("2.65"), P("3.9"), P("1.75")),
                         (P("4.2"), P("3.35"), P("2.95"))],
          lambda w, a, b, c: (f"{w.n(a)} plus {w.n(b)} plus {w.n(c)}, what does that come to? "
                              "It's the skirting lengths.", a + b + c, (a, b, c)))  # fmt: skip
    # the cashier
    s.num(k, "cashier", [(20, 45), (15, 60), (30, 85), (25, 38)], lambda w, p, x: (
        f"If it's {w.pct(p)} off, what does a {w.money(x)} coat come to?",
        cash(F(x) * (100 - p) / 100), (p, x)))  # fmt: skip
    s.num(k, "cashier", [(20, P("13.47")), (50, P("37.85")), (10, P("6.29")), (20, P("11.62"))],
          lambda w, a, b: (f"Customer's given me {w.money(a)} for {w.money(b)}, what's the "
                           "change?", cash(a - b), (a, b)))  # fmt: skip
    s.num(k, "cashier", [(3, P("4.99")), (4, P("2.35")), (6, P("1.85")), (3, P("7.49"))],
          lambda w, n, p: (f"What's {w.n(n)} times {w.money(p)}? She's buying {w.n(n)} of "
                           "them.", cash(n * p), (n, p)))  # fmt: skip
    s.num(k, "cashier", [(15, 80), (P("12.5"), 64), (35, 140), (12, 75)], lambda w, p, x: (
        f"What's {w.pct(p)} of {w.n(x)}? It's for the staff discount.", F(p) * x / 100,
        (p, x)))  # fmt: skip
    s.num(k, "cashier", [(250, P("187.35")), (300, P("212.80")), (175, P("96.45"))],
          lambda w, a, b: (f"Hang on, what's {w.money(a)} minus {w.money(b)}? I'm cashing up "
                           "and the float's off.", cash(a - b), (a, b)))  # fmt: skip
    # the teacher
    s.num(
        k,
        "teacher",
        [(34, 40), (41, 50), (18, 25), (57, 60), (21, 24)],
        lambda w, a, b: (
            f"{w.n(a)} out of {w.n(b)}, what's that as a percentage?",
            F(a * 100, b),
            (a, b),
        ),
    )
    s.num(k, "teacher", [(32, 4), (30, 5), (27, 3), (28, 4)], lambda w, a, b: (
        f"What's {w.n(a)} divided by {w.n(b)}? It's {w.n(a)} kids into {w.n(b)} groups.",
        F(a, b), (a, b)))  # fmt: skip
    s.num(k, "teacher", [(14, 17, 12, 19), (18, 15, 16, 13), (23, 19, 21, 17), (11, 16, 14, 18)],
          lambda w, a, b, c, d: (f"Add up {w.n(a)}, {w.n(b)}, {w.n(c)} and {w.n(d)} for me, "
                                 "that's her four test scores.", F(a + b + c + d),
                                 (a, b, c, d, 4)))  # fmt: skip
    s.num(k, "teacher", [(24, 32), (26, 28), (35, 27)], lambda w, a, b: (
        f"I was wondering whether you could work out {w.n(a)} times {w.n(b)} for me, I've got a "
        "pile of marking.", F(a * b), (a, b)))  # fmt: skip
    # the parent
    s.num(k, "parent", [175, 225, 350, 130], lambda w, a: (
        f"I'm making one and a half times the recipe, so what's {w.n(a)} times {w.n(P('1.5'))}?",
        a * P("1.5"), (a, P("1.5"))))  # fmt: skip
    s.num(k, "parent", [(7, 8, 54), (6, 9, 56), (8, 12, 94), (9, 7, 64)], lambda w, a, b, g: (
        f"My son's asking what {w.n(a)} times {w.n(b)} is, I said {w.n(g)}, but I'm probably "
        "wrong.", F(a * b), (a, b, g)))  # fmt: skip
    s.num(k, "parent", [(500, 175, 450), (400, 135, 350), (250, 85, 300)], lambda w, a, b, c: (
        f"What's {w.n(a)} minus {w.n(b)}, I meant {w.n(c)} minus {w.n(b)}, sorry.", F(c - b),
        (a, b, c)))  # fmt: skip
    # the student
    s.num(k, "student", [196, 289, 324, 361], lambda w, a: (
        f"whats the square root of {w.n(a)}, my calculator app keeps crashing",
        F(round(a**0.5)), (a,)))  # fmt: skip
    s.num(
        k,
        "student",
        [(3, 5), (2, 10), (5, 4), (7, 3)],
        lambda w, a, b: (
            f"{w.n(a)} to the power of {w.n(b)}? It's for the maths revision.",
            F(a**b),
            (a, b),
        ),
    )
    s.num(k, "student", [(437, 19), (391, 17), (598, 26), (667, 23)], lambda w, a, b: (
        f"I think it's about {w.n(_guess(F(a, b)))}, but what's {w.n(a)} divided by {w.n(b)} "
        "exactly?", F(a, b), (a, b, _guess(F(a, b)))))  # fmt: skip
    # the commuter
    s.num(k, "commuter", [(P("3.85"), 5), (P("4.60"), 5), (P("2.75"), 22), (P("5.20"), 4)],
          lambda w, a, b: (f"My fare's {w.money(a)} a day, so what's that times {w.n(b)}?",
                           cash(a * b), (a, b)))  # fmt: skip
    s.num(k, "commuter", [(20, P("2.5")), (30, P("1.75")), (15, P("1.65"))], lambda w, a, b: (
        f"I've got {w.money(a)} on my card and each trip is {w.money(b)}, what's {w.n(a)} "
        f"divided by {w.n(b)}?", F(a) / b, (a, b)))  # fmt: skip
    # the gardener
    s.num(k, "gardener", [(12, 18), (14, 15), (16, 24), (11, 13)], lambda w, a, b: (
        f"What's {w.n(a)} times {w.n(b)}? I'm planting {w.n(a)} rows of {w.n(b)}.", F(a * b),
        (a, b)))  # fmt: skip
    s.num(k, "gardener", [(3, 4500), (P("2.5"), 5000), (P("1.5"), 9000), (4, 2250)],
          lambda w, p, x: (f"What's {w.pct(p)} of {w.n(x)}? That's how much feed goes in the "
                           "can.", F(p) * x / 100, (p, x)))  # fmt: skip
    s.num(k, "gardener", [P("27"), P("32.4"), P("19.8"), P("23.4")], lambda w, a: (
        f"I've got {w.n(a)} metres of fence and the panels are {w.n(P('1.8'))} metres, so what's "
        f"{w.n(a)} divided by {w.n(P('1.8'))}?", a / P("1.8"), (a, P("1.8"))))  # fmt: skip


def _guess(x: F) -> int:
    """A rough guess at ``x``: to the nearest 10 (nearest 5 under 50), never ``x`` itself."""
    step = 5 if x < 50 else 10
    g = int(round(x / step) * step)
    return g if g != x else g + step


# --- units --------------------------------------------------------------------------------------
def _units(s: _Set) -> None:
    k, P = "units", F  # P("100.4"): a decimal, exact

    def conv(*args, **kw) -> None:
        s.num(*args, **kw, say=approx)

    # the nurse
    conv(k, "nurse", [P("100.4"), P("101.3"), P("102.2"), P("99.5")], lambda w, f: (
        f"What's {w.n(f)} Fahrenheit in Celsius? The old thermometer only does Fahrenheit.",
        f_to_c(f), (f,)))  # fmt: skip
    conv(k, "nurse", [(12, 4), (11, 9), (13, 2), (10, 11)], lambda w, st, lb: (
        f"How many kilos is {w.n(st)} stone {w.n(lb)}? I need his weight for the chart.",
        (14 * st + lb) * POUND, (st, lb)))  # fmt: skip
    conv(k, "nurse", [P("7.5"), P("8.25"), P("6.75"), 9], lambda w, lb: (
        f"The mum says the baby was {w.n(lb)} pounds, what's that in kilos?", lb * POUND,
        (lb,)))  # fmt: skip
    conv(k, "nurse", [68, 74, 82], lambda w, kg: (
        f"What's {w.n(kg)} kilos in pounds? His family only think in pounds.", kg / POUND,
        (kg,)))  # fmt: skip
    # the builder
    conv(k, "builder", [(7, 6), (6, 8), (5, 10), (8, 3)], lambda w, ft, inch: (
        f"How many millimetres is {w.n(ft)} foot {w.n(inch)}?", (12 * ft + inch) * INCH / MM,
        (ft, inch)))  # fmt: skip
    conv(
        k,
        "builder",
        [P("3.6"), P("4.2"), P("2.7"), P("5.5")],
        lambda w, m: (
            f"What's {w.n(m)} metres in feet? The client only thinks in feet.",
            m / FOOT,
            (m,),
        ),
    )
    conv(k, "builder", [25, 40, 15, 60], lambda w, m: (
        f"Roughly how many yards is {w.n(m)} metres? I've only got the old tape.", m / YARD,
        (m,)))  # fmt: skip
    conv(k, "builder", [220, 180, 150, 265], lambda w, lb: (
        f"The old boy says the beam weighs {w.n(lb)} pounds, what's that in kilos?", lb * POUND,
        (lb,)))  # fmt: skip
    # the cashier
    conv(k, "cashier", [250, 200, 150, 400], lambda w, g: (
        f"What's {w.n(g)} grams in ounces? A customer's asking about the sweets.",
        g * GRAM / OUNCE, (g,)))  # fmt: skip
    conv(
        k,
        "cashier",
        [P("2.5"), 3, P("1.5"), 4],
        lambda w, kg: (
            f"How many pounds is {w.n(kg)} kilos? I mean weight, not money.",
            kg / POUND,
            (kg,),
        ),
    )
    conv(k, "cashier", [45, 60, 75, 90], lambda w, cm: (
        f"She wants {w.n(cm)} centimetres of ribbon, what's that in inches?", cm * CM / INCH,
        (cm,)))  # fmt: skip
    # the teacher
    conv(k, "teacher", [150, 210, 390, 135], lambda w, sec: (
        f"The kids ran it in {w.n(sec)} seconds, how many minutes is that?", F(sec, 60),
        (sec,)))  # fmt: skip
    conv(k, "teacher", [37, 18, 23, 42], lambda w, c: (
        f"What's {w.n(c)} degrees Celsius in Fahrenheit? The kids want to know how hot that is.",
        c_to_f(c), (c,)))  # fmt: skip
    conv(k, "teacher", [4, 5, 6], lambda w, ft: (
        f"How many centimetres in {w.n(ft)} feet? I'm doing the height chart.", ft * FOOT / CM,
        (ft,)))  # fmt: skip
    conv(k, "teacher", [10, 15, 8, 12], lambda w, km: (
        f"The sponsored walk is {w.n(km)} kilometres, how far is that in miles?",
        km * KM / MILE, (km,)))  # fmt: skip
    # the parent
    conv(k, "parent", [4, 6, 8, 3], lambda w, oz: (
        f"The recipe's American, how many grams is {w.n(oz)} ounces of butter?",
        oz * OUNCE / GRAM, (oz,)))  # fmt: skip
    conv(k, "parent", [180, 200, 220, 190], lambda w, c: (
        f"The oven's on {w.n(c)}, what's that in Fahrenheit? The recipe's in Fahrenheit.",
        c_to_f(c), (c,)))  # fmt: skip
    conv(k, "parent", [350, 375, 425, 400], lambda w, f: (
        f"The old cookbook says {w.n(f)} degrees Fahrenheit, what's that in Celsius?",
        f_to_c(f), (f,)))  # fmt: skip
    conv(k, "parent", [1, P("1.5"), 2], lambda w, lb: (
        f"How many grams is {w.n(lb)} {'pound' if lb == 1 else 'pounds'} of mince? The "
        "butcher still works in pounds.", lb * POUND / GRAM, (lb,)))  # fmt: skip
    # the student
    conv(
        k,
        "student",
        [13, 21, 17],
        lambda w, km: (
            f"how many miles is {w.n(km)} km, thats my cycle ride",
            km * KM / MILE,
            (km,),
        ),
    )
    conv(
        k,
        "student",
        [70, 30, 50, 45],
        lambda w, mph: (
            f"convert {w.n(mph)} mph to km/h for my physics homework",
            mph * MPH / KMH,
            (mph,),
        ),
    )
    conv(
        k,
        "student",
        [100, 72, 90, 54],
        lambda w, kmh: (f"whats {w.n(kmh)} km/h in metres per second", kmh * KMH, (kmh,)),
    )
    # the commuter
    conv(k, "commuter", [7, 12, 18, 9], lambda w, mi: (
        f"How far is {w.n(mi)} miles in kilometres? That's the bus route, I think.",
        mi * MILE / KM, (mi,)))  # fmt: skip
    conv(k, "commuter", [80, 90, 110], lambda w, kmh: (
        f"The sign on the coach says {w.n(kmh)} km/h, what's that in miles an hour?",
        kmh * KMH / MPH, (kmh,)))  # fmt: skip
    conv(k, "commuter", [("an hour and three quarters", P("1.75"), 1, 3),
                          ("two and a quarter hours", P("2.25"), 2),
                          ("three and a half hours", P("3.5"), 3)],
          lambda w, said_h, h, *ns: (f"The journey's {said_h}, how many minutes is that?",
                                     h * 60, ns))  # fmt: skip
    # the gardener
    conv(
        k,
        "gardener",
        [40, 25, 65, 33],
        lambda w, ft: (
            f"The hedge is about {w.n(ft)} feet long, how many metres is that?",
            ft * FOOT,
            (ft,),
        ),
    )
    conv(k, "gardener", [40, 25, 50, 60], lambda w, kg: (
        f"What's {w.n(kg)} kilos of compost in pounds? My dad only does pounds.", kg / POUND,
        (kg,)))  # fmt: skip
    conv(k, "gardener", [9, 15, 18, 12], lambda w, inch: (
        f"My gran's notes say plant them {w.n(inch)} inches apart, what's that in centimetres?",
        inch * INCH / CM, (inch,)))  # fmt: skip


# --- spelling -----------------------------------------------------------------------------------
SPELLING: tuple[tuple[str, str, tuple], ...] = (
    ("nurse", "How do you spell {}? I'm writing up the notes before handover.",
     ("paracetamol", "ibuprofen", "stethoscope")),
    ("nurse", "Can you spell {}? I think the handover sheet's got it wrong.",
     ("pneumonia", "catheter", "thrombosis")),
    ("nurse", "Spell {} for me, sorry, I meant {}.",
     (("heparin", "warfarin"), ("oxygen", "saturation"), ("insulin", "glucose"))),
    ("builder", "Spell {} for me, I'm writing the invoice.",
     ("scaffolding", "plasterboard", "insulation")),
    ("builder", "How do you spell {}? The foreman's note is all smudged.",
     ("joist", "lintel", "guttering")),
    ("cashier", "How do you spell {}? It's for the refund slip.",
     ("receipt", "voucher", "discount")),
    ("cashier", "What's the spelling of {}? I'm writing a sign for the window.",
     ("clearance", "unfortunately", "discontinued")),
    ("cashier", "How do you spell {}, I'm putting it on the board out front.",
     ("delicious", "strawberries", "raspberries")),
    ("teacher", "Just to check before I mark it wrong, how do you spell {}?",
     ("occurrence", "parallel", "environment")),
    ("teacher", "I was wondering how you spell {}, a kid's written it three different ways.",
     ("rhyme", "independent", "beginning")),
    ("teacher", "I think it's i before e, but how do you spell {}?",
     ("weird", "ceiling", "seize")),
    ("parent", "How do you spell {}? My daughter's writing out the menu.",
     ("spaghetti", "cinnamon", "pineapple")),
    ("parent", "Spell {} please, I'm labelling the freezer bags.",
     ("mozzarella", "bolognese", "casserole")),
    ("parent", "My son's asking how to spell {}, he's making a birthday card.",
     ("dinosaur", "triceratops", "tyrannosaurus")),
    ("student", "how is {} spelt, it's for my biology essay",
     ("photosynthesis", "chlorophyll", "mitochondria")),
    ("student", "can you spell {}, I keep getting it wrong in my history notes",
     ("parliament", "Renaissance", "guillotine")),
    ("student", "is {} with a ph or an f? how do you spell it",
     ("phosphorus", "sphere", "phenomenon")),
    ("student", "spell {}, I think there's a silent letter in it somewhere",
     ("psychology", "rhetoric", "subtle")),
    ("commuter", "How do you spell {}? I'm texting my mum which station.",
     ("Marylebone", "Leicester", "Gloucester")),
    ("commuter", "spell {} for me, I'm emailing my landlord",
     ("sincerely", "inconvenience", "temporarily")),
    ("commuter", "How do you spell {}? I'm stuck on the crossword.",
     ("labyrinth", "xylophone", "rhapsody")),
    ("gardener", "How do you spell {}? I'm doing the plant labels.",
     ("chrysanthemum", "rhododendron", "fuchsia")),
    ("gardener", "What's the spelling of {}? It's for the seed order.",
     ("nasturtium", "geranium", "begonia")),
    ("gardener", "How's {} spelt? I'm writing it on the greenhouse door.",
     ("lavender", "clematis", "wisteria")),
)  # fmt: skip


def _spelling(s: _Set) -> None:
    for who, text, words in SPELLING:
        word = s.rng.choice(words)
        pair = word if isinstance(word, tuple) else (word,)
        s.say("spelling", who, lambda w, text=text, pair=pair: text.format(*pair),
              (letters(pair[-1]),))  # fmt: skip


# --- facts --------------------------------------------------------------------------------------
def _surface(rng: random.Random, c: Country) -> str:
    return rng.choice(c.aliases) if c.aliases and rng.random() < 0.3 else c.name


# capital not the biggest city
NOT_BIGGEST = ("Australia", "Canada", "Brazil", "Turkey", "Nigeria", "Switzerland",
               "the United States", "Morocco")  # fmt: skip
# currencies whose name does not give the country away, used by one country only
PLAIN_MONEY = ("the yen", "the won", "the baht", "the zloty", "the naira", "the ruble",
               "the yuan")  # fmt: skip
CONTINENTS = ("Europe", "Asia", "Africa", "North America", "South America", "Oceania")


def _facts(s: _Set) -> None:
    k, rng = "facts", s.rng
    pool = _Pool(rng, COUNTRIES)

    def c_ask(who: str, make: Callable[[Channel, str, Country], str],
              field: Callable[[Country], str], ok=lambda c: True) -> None:  # fmt: skip
        c = pool.take(ok)
        name = _surface(rng, c)
        s.say(k, who, lambda w: make(w, name, c), (field(c),))

    def other_capital(c: Country) -> str:
        near = [o for o in COUNTRIES if o is not c and o.continent == c.continent]
        return capital(rng.choice(near or [o for o in COUNTRIES if o is not c]))

    def wrong_continent(c: Country) -> str:
        return rng.choice([x for x in CONTINENTS if x not in continent(c)])

    def wrong_language(c: Country) -> str:
        langs = sorted({o.language for o in COUNTRIES if "," not in o.language
                        and " and " not in o.language})  # fmt: skip
        return rng.choice([x for x in langs if x not in c.language])

    spoken_lang = lambda c: "," not in c.language  # noqa: E731

    # the nurse
    c_ask("nurse", lambda w, n, c: f"We're doing the quiz on our break, what's the capital of "
          f"{n}?", capital)  # fmt: skip
    c_ask("nurse", lambda w, n, c: f"Someone on the ward reckons it's {other_capital(c)}, but "
          f"what's the capital of {n}, really?", capital)  # fmt: skip
    c_ask("nurse", lambda w, n, c: f"A patient's just come in from {n}, what language do they "
          "speak there? I need to book an interpreter.", language,
          lambda c: spoken_lang(c) and "English" not in c.language)  # fmt: skip
    # the builder
    c_ask("builder", lambda w, n, c: f"The new lad's from {n}, which continent's that in?",
          continent)  # fmt: skip
    c_ask("builder", lambda w, n, c: f"What currency do they use in {n}? I might be working out "
          "there in the spring.", currency)  # fmt: skip
    c_ask("builder", lambda w, n, c: f"Settle something for us, the capital of {n} isn't the "
          "biggest city, is it? What is the capital?", capital,
          lambda c: c.name in NOT_BIGGEST)  # fmt: skip
    # the cashier
    money = rng.choice(PLAIN_MONEY)
    c = next(c for c in COUNTRIES if c.currency == money)
    s.say(k, "cashier", lambda w: f"A tourist's trying to pay in {money.removeprefix('the ')}, "
          "which country's money is that?", names(c))  # fmt: skip
    c_ask("cashier", lambda w, n, c: f"What's the money called in {n}? A customer's asking if "
          "we take it.", currency)  # fmt: skip
    # the teacher
    c_ask("teacher", lambda w, n, c: f"Which continent is {n} in? I'm marking the geography "
          "homework and want to be sure.", continent)  # fmt: skip
    c_ask("teacher", lambda w, n, c: f"I think it's {wrong_continent(c)}, but which continent "
          f"is {n} actually in?", continent)  # fmt: skip
    c_ask("teacher", lambda w, n, c: f"What's the capital of {n}? I'm writing out the answers "
          "for the quiz.", capital)  # fmt: skip
    # the parent
    c_ask("parent", lambda w, n, c: f"We're cooking food from {n} tonight, what language do "
          "they speak there? The kids want to say thank you in it.", language,
          spoken_lang)  # fmt: skip
    c_ask("parent", lambda w, n, c: f"The kids are asking what the capital of {n} is, any "
          "idea?", capital)  # fmt: skip
    # the student
    c_ask("student", lambda w, n, c: f"what's the capital of {n} again, I always forget that "
          "one", capital)  # fmt: skip
    c_ask("student", lambda w, n, c: f"what currency does {n} use, need it for my economics "
          "notes", currency)  # fmt: skip
    c_ask("student", lambda w, n, c: f"is it {wrong_language(c)} they speak in {n}? probably "
          "not, what language is it", language, spoken_lang)  # fmt: skip
    # the commuter
    c_ask("commuter", lambda w, n, c: f"I'm reading about {n} on the bus, which continent is it "
          "on?", continent)  # fmt: skip
    c_ask("commuter", lambda w, n, c: f"Quick one before my stop, what's the capital of {n}?",
          capital)  # fmt: skip
    c_ask("commuter", lambda w, n, c: f"I was wondering whether you know the capital of {n}, "
          "I'm going there next month.", capital)  # fmt: skip
    # the gardener
    c_ask("gardener", lambda w, n, c: f"These seeds came all the way from {n}, which "
          "continent's that?", continent)  # fmt: skip
    c_ask("gardener", lambda w, n, c: f"What do they speak in {n}? The label on these bulbs "
          "isn't in English.", language,
          lambda c: spoken_lang(c) and "English" not in c.language)  # fmt: skip

    # planets
    orders = _Pool(rng, range(1, 9))
    n = orders.take(lambda o: 2 <= o <= 7)
    s.say(k, "student", lambda w: f"which planet is {w.ord(n)} from the sun, I need it for the "
          "physics quiz", (BY_ORDER[n].name,))  # fmt: skip
    s.say(k, "parent", lambda w: "The kids want to know which planet's the biggest, is it "
          "Saturn?", (BIGGEST,))  # fmt: skip
    s.say(k, "teacher", lambda w: "Which planet's the smallest? I'm checking the science "
          "worksheet.", (SMALLEST,))  # fmt: skip
    s.say(k, "commuter", lambda w: "Which planet is the hottest? I read somewhere it isn't the "
          "closest one to the sun.", (HOTTEST,))  # fmt: skip
    p1 = BY_ORDER[orders.take(lambda o: o <= 4)].name
    s.say(k, "gardener", lambda w: f"How many moons has {p1} got? We're looking at the sky "
          "tonight.", moons(p1))  # fmt: skip
    p2 = BY_ORDER[orders.take(lambda o: o >= 5)].name
    s.say(k, "nurse", lambda w: f"What's the biggest moon of {p2}? We're on the space round "
          "now.", moons(p2))  # fmt: skip
    o3 = orders.take()
    s.say(k, "student", lambda w: f"what number planet is {BY_ORDER[o3].name} from the sun",
          (ordinal_words(o3),))  # fmt: skip
    o4 = orders.take(lambda o: o <= 7)
    s.say(k, "builder", lambda w: f"Which planet comes after {BY_ORDER[o4].name}, going "
          "outwards from the sun?", (BY_ORDER[o4 + 1].name,))  # fmt: skip

    # days and months
    days, months = _Pool(rng, range(7)), _Pool(rng, range(12))
    d = days.take()
    s.say(k, "parent", lambda w: f"My little one's learning her days, what comes after "
          f"{WEEKDAYS[d]}?", (WEEKDAYS[(d + 1) % 7],))  # fmt: skip
    d2 = days.take()
    s.say(k, "teacher", lambda w: f"What's the day before {WEEKDAYS[d2]}? Just checking the "
          "timetable.", (WEEKDAYS[(d2 - 1) % 7],))  # fmt: skip
    m = months.take()
    s.say(k, "nurse", lambda w: f"What month comes after {MONTHS[m]}? I'm doing next month's "
          "rota and my brain's gone.", (MONTHS[(m + 1) % 12],))  # fmt: skip
    m2 = months.take()
    s.say(k, "gardener", lambda w: f"What's the month before {MONTHS[m2]}? The packet says to "
          "sow a month before.", (MONTHS[(m2 - 1) % 12],))  # fmt: skip
    m3 = months.take()
    s.say(k, "student", lambda w: f"how many days has {MONTHS[m3]} got, I'm planning my "
          "revision timetable", month_days(m3))  # fmt: skip
    m4 = months.take()
    s.say(k, "cashier", lambda w: f"Which number month is {MONTHS[m4]}? The form wants it as a "
          "number.", month_number(m4))  # fmt: skip
    m5 = months.take(lambda x: MONTH_DAYS[x] != MONTH_DAYS[m3])
    s.say(k, "builder", lambda w: f"How many days are in {MONTHS[m5]}? I'm working out the "
          "scaffold hire.", month_days(m5))  # fmt: skip


# --- follow-ups ---------------------------------------------------------------------------------
def _follow_ups(s: _Set, now: datetime) -> None:
    k, rng, today = "follow-up", s.rng, now.date()
    pool = _Pool(rng, COUNTRIES)

    def ask(who: str, make: Callable[[Channel], Turns], expect: Sequence[str],
            after: tuple[str, ...] = ()) -> None:  # fmt: skip
        s.say(k, who, make, expect, after)

    def pair(field: Callable[[Country], str]) -> tuple[Country, Country]:
        """Two countries for the same question, the second's answer not inside the first's."""
        a = pool.take()
        b = pool.take(lambda o: _norm(field(o)) not in _norm(field(a)))
        return a, b

    def sn(c: Country) -> str:
        return _surface(rng, c)

    # countries: the same question of another one
    a, b = pair(capital)
    na, nb = sn(a), sn(b)
    ask(
        "nurse",
        lambda w: (
            f"We're doing the quiz on our break, what's the capital of {na}?",
            f"Okay, and {nb}? That's the next one.",
        ),
        (capital(b),),
    )
    a, b = pair(currency)
    na, nb = sn(a), sn(b)
    ask("builder", lambda w: (f"What currency do they use in {na}? I'm working there in the "
                              "spring.", f"What about {nb}? We might go on there after."),
        (currency(b),))  # fmt: skip
    a, b = pair(language)
    na, nb = sn(a), sn(b)
    ask("parent", lambda w: (f"What language do they speak in {na}? The kids are doing a project.",
                             f"What about in {nb}, where Grandma lives?"),
        (language(b),))  # fmt: skip
    a, b = pair(continent)
    na, nb = sn(a), sn(b)
    ask("commuter", lambda w: (f"Which continent is {na} on? I'm reading about it on the bus.",
                               f"And {nb}, same question."),
        (continent(b),))  # fmt: skip
    # countries: another fact of the same one, whose answer is that country's alone
    c = pool.take(lambda o: unique(currency, o))
    nc = sn(c)
    ask("cashier", lambda w: (f"Which continent is {nc} in? A customer's just back from there.",
                              "And what's the money called there?"), (currency(c),))  # fmt: skip
    c = pool.take(lambda o: unique(language, o))
    nc = sn(c)
    ask("teacher", lambda w: (f"What's the capital of {nc}? It's on the quiz sheet.",
                              "And what language do they speak there?"),
        (language(c),))  # fmt: skip
    c = pool.take(lambda o: unique(currency, o))
    nc = sn(c)
    ask("student", lambda w: (f"whats the capital of {nc}, for my geography notes",
                              "and the currency?"),
        (currency(c),))  # fmt: skip
    c = pool.take()
    nc = sn(c)
    ask("gardener", lambda w: (f"What's the currency in {nc}? My neighbour's just back from "
                               "there.", "And what's its capital?"), (capital(c),))  # fmt: skip
    c = pool.take()
    nc = sn(c)
    ask("nurse", lambda w: (f"What do they speak in {nc}? A patient's family has just arrived.",
                            "And the capital?"), (capital(c),))  # fmt: skip

    # planets
    n = rng.randrange(1, 8)
    ask("student", lambda w: (f"which planet is {w.ord(n)} from the sun, revising for physics",
                              "and the one after it?"), (BY_ORDER[n + 1].name,))  # fmt: skip
    ask("parent", lambda w: ("Which planet is the biggest? The kids are arguing about it.",
                             "Okay, and which one's the smallest, then?"), (SMALLEST,))  # fmt: skip
    ask("teacher", lambda w: ("Which planet is closest to the sun? It's for the science display.",
                              "Right, and which one comes next out from there?"),
        (BY_ORDER[2].name,))  # fmt: skip
    p1, p2 = rng.sample([p.name for p in PLANETS[:4]], 2)
    ask("commuter", lambda w: (f"How many moons does {p1} have? Random question, I know.",
                               f"And {p2}, how many has that got?"),
        moons(p2))  # fmt: skip
    p3, p4 = rng.sample([p.name for p in PLANETS[4:]], 2)
    ask("gardener", lambda w: (f"What's the biggest moon of {p3}? I can see it tonight.",
                               f"And of {p4}?"), moons(p4))  # fmt: skip

    # days and months
    m = rng.randrange(12)
    ask("parent", lambda w: (f"What month comes after {MONTHS[m]}? My daughter's learning them.",
                             "And which one comes after that?"),
        (MONTHS[(m + 2) % 12],))  # fmt: skip
    d = rng.randrange(7)
    ask("nurse", lambda w: (f"What day comes after {WEEKDAYS[d]}, just to check the rota?",
                            "And the one after that? I've lost track on nights."),
        (WEEKDAYS[(d + 2) % 7],))  # fmt: skip
    m1 = rng.randrange(12)
    m2 = rng.choice([x for x in range(12) if MONTH_DAYS[x] != MONTH_DAYS[m1]])
    ask("gardener", lambda w: (f"How many days are there in {MONTHS[m1]}? I'm planning the "
                               "watering.", f"And {MONTHS[m2]}, how many has that got?"),
        month_days(m2))  # fmt: skip
    m3, m4 = rng.sample(range(12), 2)
    ask("teacher", lambda w: (f"Which number month is {MONTHS[m3]}? The form wants numbers.",
                              f"And what about {MONTHS[m4]}, what number's that?"),
        month_number(m4))  # fmt: skip
    d2 = rng.randrange(7)
    ask("builder", lambda w: (f"What's the day before {WEEKDAYS[d2]}? I'm sorting the deliveries.",
                              "And the day before that?"), (WEEKDAYS[(d2 - 2) % 7],))  # fmt: skip

    # another operation on the last result
    s.num(k, "builder", [(12, 14, 15), (16, 13, 20), (11, 17, 25)], lambda w, a, b, c: (
        (f"What's {w.n(a)} times {w.n(b)}? That's the tiles for the kitchen.",
         f"Add {w.n(c)} to that for breakages."), F(a * b + c), (a, b, c)))  # fmt: skip
    s.num(k, "cashier", [(F("12.40"), F("7.85"), 10), (F("23.50"), F("8.99"), 20),
                         (F("15.20"), F("9.30"), 10)], lambda w, a, b, p: (
        (f"What's {w.money(a)} plus {w.money(b)}? That's her two things.",
         f"Now take {w.pct(p)} off that, she's got a staff card."),
        cash((a + b) * (100 - p) / 100), (a, b, p)))  # fmt: skip
    s.num(k, "teacher", [(14, 17, 20), (23, 18, 25), (12, 19, 26)], lambda w, a, b, c: (
        (f"Add up {w.n(a)}, {w.n(b)} and {w.n(c)} for me, they're his three marks.",
         "And divide that by three."),
        F(a + b + c, 3), (a, b, c, 3)))  # fmt: skip
    s.num(k, "parent", [(12, 7), (14, 6), (9, 13), (8, 17)], lambda w, a, b: (
        (f"What's {w.n(a)} times {w.n(b)}? That's the flapjack squares for the class.",
         "Double it, the other class wants some too."), F(2 * a * b), (a, b, 2)))  # fmt: skip
    s.num(
        k,
        "student",
        [(13, 3), (17, 4), (12, 7)],
        lambda w, a, b: (
            (f"whats {w.n(a)} squared, doing my maths homework", f"now times that by {w.n(b)}"),
            F(a * a * b),
            (a, b),
        ),
    )
    s.num(k, "nurse", [(450, 5, 6), (600, 8, 9), (300, 4, 7)], lambda w, a, b, c: (
        (f"What's {w.n(a)} divided by {w.n(b)}? It's for the fluid chart.",
         f"Sorry, I meant divided by {w.n(c)}."),
        F(a, c), (a, b, c)))  # fmt: skip
    s.num(k, "commuter", [(85, 37), (120, 46), (73, 29)], lambda w, a, b: (
        (f"What's {w.n(a)} minus {w.n(b)}? I'm working out my journey times.",
         "And halve that."), F(a - b, 2), (a, b, 2)))  # fmt: skip

    # another amount for the same conversion
    def conv(*args, **kw) -> None:
        s.num(*args, **kw, say=approx)

    conv(
        k,
        "parent",
        [(4, 6), (8, 3), (6, 10)],
        lambda w, a, b: (
            (
                f"How many grams is {w.n(a)} ounces? The recipe's American.",
                f"And {w.n(b)} ounces, for the sugar?",
            ),
            b * OUNCE / GRAM,
            (a, b),
        ),
    )
    conv(k, "commuter", [(7, 11), (12, 5), (9, 14)], lambda w, a, b: (
        (f"How many kilometres is {w.n(a)} miles? That's my way into work.",
         f"What about {w.n(b)}? That's the way home."), b * MILE / KM, (a, b)))  # fmt: skip
    conv(k, "nurse", [(F("100.4"), F("101.8")), (F("99.9"), F("102.6")),
                       (F("101.1"), F("100.2"))], lambda w, a, b: (
        (f"What's {w.n(a)} Fahrenheit in Celsius? It's the old thermometer again.",
         f"And {w.n(b)}? That's the next reading."),
        f_to_c(b), (a, b)))  # fmt: skip
    conv(k, "builder", [(F("2.4"), F("3.1")), (F("4.5"), F("1.8")), (F("3.3"), F("5.2"))],
          lambda w, a, b: ((f"How many feet is {w.n(a)} metres? The client wants feet.",
                            f"And {w.n(b)} metres?"),
                           b / FOOT, (a, b)))  # fmt: skip
    conv(k, "gardener", [(20, 35), (15, 40), (25, 12)], lambda w, a, b: (
        (f"How many pounds is {w.n(a)} kilos? It's for my dad's feed chart.",
         f"OK, make that {w.n(b)}."), b / POUND,
        (a, b)))  # fmt: skip

    # another word to spell
    for who, first, then, words in (
        ("teacher", "How do you spell {}? I'm marking the spelling test.",
         "And {}, while you're at it?",
         (("February", "Wednesday"), ("library", "separate"), ("grammar", "vocabulary"))),
        ("gardener", "Spell {} for me, it's going on a label.", "Now {}, for the next label.",
         (("dahlia", "peony"), ("lupin", "foxglove"), ("hollyhock", "honeysuckle"))),
        ("student", "can you spell {}, it's in my notes", "what about {}",
         (("hypothesis", "analysis"), ("algebra", "equation"), ("molecule", "electron"))),
    ):  # fmt: skip
        w1, w2 = rng.choice(words)
        ask(who, lambda w, f=first, t=then, w1=w1, w2=w2: (f.format(w1), t.format(w2)),
            (letters(w2),))  # fmt: skip

    # days until another holiday
    for who, first, then in (
        ("parent", "How many days until {}? The kids keep asking.", "And until {}?"),
        ("teacher", "How many days is it to {}? I'm planning the lessons.", "What about {}?"),
        ("commuter", "days till {}? need to book time off", "and {}"),
    ):  # fmt: skip
        (h1, _, _), (h2, m2_, d2_) = rng.sample(HOLIDAYS, 2)
        ask(who, lambda w, f=first, t=then, h1=h1, h2=h2: (
            f.format(_typed_name(w, h1)), t.format(_typed_name(w, h2))),
            (_until(today, _next(today, m2_, d2_)),))  # fmt: skip

    # the time left on the timer just set (asked within seconds, or a minute or two later)
    for who, first, then in (
        ("parent", "Set a timer for {} minutes for the pizza.", "How long's it got left?"),
        ("builder", "Put a timer on for {} minutes, the glue's drying.",
         "How much longer on that?"),
        ("student", "set a timer for {} minutes, starting the past paper",
         "how long have I got left on it"),
    ):  # fmt: skip
        n = rng.choice((12, 18, 25, 35))
        ask(who, lambda w, f=first, t=then, n=n: (f.format(w.n(n)), t),
            (f"{int_words(n)} minute", f"{int_words(n - 1)} minute",
             f"{int_words(n - 2)} minute"), CLEAR)  # fmt: skip


def _typed_name(w: Channel, name: str) -> str:
    """A holiday as written: "Boxing Day" by Whisper, "boxing day" typed in a hurry."""
    return name if w.spoken else name.lower().replace("'", "")


# --- refusals -----------------------------------------------------------------------------------
REFUSALS: tuple[tuple[str, str], ...] = (
    ("nurse", "Can you page the on-call doctor for bay three?"),
    ("nurse", "Look up the latest sepsis guidance online for me, would you?"),
    ("nurse", "Could you text the night manager that we're two staff short?"),
    ("builder", "What's the weather doing this afternoon? We've got the roof off."),
    ("builder", "Order another pallet of blocks from the merchant for tomorrow, would you?"),
    ("builder", "Ring the skip company and tell them we're ready for collection."),
    ("cashier", "Can you check the stock system for size ten trainers?"),
    ("cashier", "What's the exchange rate for euros today? A customer's asking."),
    ("cashier", "Turn the shop lights down, we're closing up."),
    ("teacher", "Email the parents of 8B about Friday's trip, please."),
    ("teacher", "Can you print 30 copies of the worksheet for period two?"),
    ("teacher", "What's in the news this morning? I haven't had a chance to look."),
    ("parent", "Play some songs the kids can sing along to while we cook."),
    ("parent", "Can you book a supermarket delivery for tomorrow morning?"),
    ("parent", "Turn the oven on to 180, I'll be in there in a minute."),
    ("student", "find me some past papers online for chemistry"),
    ("student", "whats the score in the match right now"),
    ("student", "can you send my essay to my tutor before midnight"),
    ("commuter", "Is the 73 bus running late? It should've been here by now."),
    ("commuter", "What's the traffic like on the ring road this morning?"),
    ("commuter", "Call my boss and tell her I'm running late."),
    ("gardener", "Is it going to rain tonight? I don't want to water if it is."),
    ("gardener", "How much is a bag of compost at the garden centre these days?"),
    ("gardener", "Switch the greenhouse heater on from here, could you?"),
)


def _refusals(s: _Set) -> None:
    for who, text in REFUSALS:
        s.say("refusal", who, lambda w, text=text: text)
