"""Strangers set for ``bench/skills.py --requests strangers``: 228 held-out requests from six
people who have never used the assistant, each with an answer worked out here.

A third held-out set, written by a different author with a different generator from the
paraphrase set (``bench/paraphrases.py``) and the everyday set (``bench/everyday.py``), to test
whether what was tuned on those two carries over. The author read neither the assistant's
parsers nor its training wordings, only the fact tables of ``training/facts.py``.

Eight kinds, the everyday set's: clock (time, date, year, weekday, days until a holiday, a date
or a weekday), timer (set, remind, what's left, list, cancel), arithmetic, units (length,
weight, volume, temperature, speed, time), spelling, facts (capital, continent, language and
currency of the 30 countries, planets by order, size, heat and moons, the day or month before
and after, days in a month, a month's number), follow-up (two turns, the second elliptical),
refusal (weather, news, prices, calls, messages, bookings, smart home, music, TV...). The same
seed gives the same requests; the clock's answers follow the real clock (or ``now``).

How it is written — six speakers at one kitchen speaker:

- **Personas, not scenes or frames.** Every request is said by one of six people, and each kind
  is spread over all six (every kind has each of them at least three times):

  ``terse``
      fragments and commands, full stops between them, corrections with a dash: "timer.
      twenty min", "capital, Peru-- no, Kenya", "15 km. miles?", "weather. tomorrow."
  ``elder``
      a chatty older person: long preambles, "dear", "would you be so kind", the reason for
      asking before the question, numbers said in words ("what are seven nines").
  ``learner``
      a non-native speaker with calqued, slightly unidiomatic grammar: "how much is 36 divide on
      4?", "which language they are speaking in Brazil", "Mars is the how many planet from the
      sun?", "how many percents from", "you can remind me after 20 minutes to ...?".
  ``child``
      short questions, numbers in words, lower case, a child's reasons ("we're going to the
      zoo", "my brother says"): "what comes after wednesday", "what's the littlest planet".
  ``us``
      a US speaker with US units and words: fahrenheit, quarts, cups, gallons, liters, "$45
      check", "checkbook", "social studies", the Fourth of July, thousands with commas.
  ``texter``
      types like a text message: lower case, no apostrophes, abbreviations and symbols ("whats
      15% of 80", "cap of japan?", "wats 7*8", "lbs in 3 kg?", "2" for "to", "&", "pls", "rn").

  The everyday set writes one sentence per everyday *scene* in one (British) voice; the
  paraphrase set puts noun-phrase *cores* inside statement *frames* ("I need ...", "..., please").
  Here the wording comes from *who* is speaking, and the vocabulary is kept away from both
  sets' (no "stick a timer on", "nudge me", "figure out", "lots of", "split four ways", "letter
  by letter", "pub quiz", "homework sheet"...); ``tests/test_strangers.py`` checks that no
  request equals one of theirs or of the base set.
- **The speaker says the numbers.** A sentence is a template whose numeric slots are rendered by
  its speaker's habit: the elder and the child say them in words, the others type digits, the
  US speaker with thousands commas (a template may force a form: ``{n:w}`` words, ``{n:d}``
  digits, ``{n:nth}`` "4th", ``{n:ord}`` "fourth", ``{n:s}`` "sevens").
- **Values drawn from ranges.** Each slot is a range or a small list written here, drawn by the
  seeded generator; a sentence whose values do not suit it (an uneven division, a tip that is
  not whole dollars, two countries with the same answer in a follow-up) is drawn again, as is
  one whose answer's words appear among the numbers the request says (its operands, and in a
  follow-up the first answer too), so a reply that only repeats the question never counts.
  Countries are dealt without replacement within a kind; the country's name or, now and then,
  another name for it ("Holland", "the UK", "America"). A follow-up that asks another fact of
  the same country ("and the money there?") draws a country whose fact no other country
  shares, so a reply about the wrong country cannot hold it; numbers said in words are never a
  round hundred before "and" ("add one hundred and forty nine" would read as 149).
- **Checks worked out here**, as ``bench/everyday.py`` does and with its helpers: arithmetic
  with :class:`fractions.Fraction`; conversions from exact unit definitions (1 inch = 2.54 cm,
  1 lb = 0.45359237 kg, 1 US gallon = 3.785411784 l, a quart a quarter of it); calendar
  counts with :mod:`datetime`; spelled letters from the word; facts from
  ``training/facts.py``'s tables (only its facts). The expected text is what ``useful()`` in
  ``bench/skills.py`` looks for: numbers in words as the assistant says them (decimals digit by
  digit, an inexact result to about three significant figures or one decimal fewer), currency
  names without "the", a year as "twenty twenty six" or "two thousand and twenty six", a day
  count of one as "tomorrow" or "one day". A refusal expects nothing (``expect == ()``).
- **Timers are cleared**: every timer request is followed, unscored, by "cancel all my timers".

``tests/test_strangers.py`` checks the counts per kind and persona, the checks, determinism,
and that no request is one of the other sets' or a training prompt.
"""

from __future__ import annotations

import random
import re
import string
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from fractions import Fraction as F

from bench.everyday import (
    BIGGEST,
    BY_ORDER,
    CLEAR,
    CM,
    CUP,
    FOOT,
    GALLON,
    GRAM,
    INCH,
    KINDS,
    KM,
    KMH,
    MILE,
    ML,
    MPH,
    OUNCE,
    POUND,
    SMALLEST,
    TABLESPOON,
    c_to_f,
    capital,
    continent,
    currency,
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

SEED = 6
HOTTEST = "Venus"
QUART = GALLON / 4  # US liquid quart, in litres
ORDER = {p.name: p.order for p in PLANETS}
MOONS = {p.name: p.moons_answer for p in PLANETS}


# --- the six speakers -------------------------------------------------------------------------
@dataclass(frozen=True)
class Persona:
    key: str
    words: bool  # says numbers in words ("twenty five"); else types digits ("25")
    lower: bool  # types everything in lower case
    commas: bool = False  # thousands with a comma ("1,250")


TERSE = Persona("terse", words=False, lower=False)
ELDER = Persona("elder", words=True, lower=False)
LEARNER = Persona("learner", words=False, lower=False)
CHILD = Persona("child", words=True, lower=True)
US = Persona("us", words=False, lower=False, commas=True)
TEXTER = Persona("texter", words=False, lower=True)
PERSONAS = (TERSE, ELDER, LEARNER, CHILD, US, TEXTER)


def _digits(x: F | int, commas: bool) -> str:
    q = F(x)
    if q.denominator == 1:
        return f"{int(q):,}" if commas else str(int(q))
    places = next(p for p in range(1, 7) if (q * 10**p).denominator == 1)
    return f"{float(q):.{places}f}"


class _Voice(string.Formatter):
    """Fills a template as ``who`` says it: numbers in words or digits, a country by its name
    or now and then another of its names."""

    def __init__(self, who: Persona, rng: random.Random) -> None:
        self.who, self.rng = who, rng

    def format_field(self, value, spec: str) -> str:
        if isinstance(value, Country):
            if value.aliases and self.rng.random() < 0.3:
                return self.rng.choice(value.aliases)
            return value.name
        if isinstance(value, int | F) and not isinstance(value, bool):
            if spec == "nth":
                return nth(int(value))
            if spec == "ord":
                return ordinal_words(int(value))
            if spec == "s":  # "sevens", "sixes"
                w = int_words(int(value))
                return w + ("es" if w.endswith("x") else "s")
            if spec == "w" or (spec == "" and self.who.words):
                return said(value)
            return _digits(value, self.who.commas)
        return format(value, spec)


# --- the generator ----------------------------------------------------------------------------
class Deck:
    """Values dealt without replacement (shuffled again when used up), in the seed's order."""

    def __init__(self, rng: random.Random, values: Sequence) -> None:
        self.rng, self.values, self.left = rng, list(values), []

    def refill(self, need: int) -> None:
        if len(self.left) < need:
            fresh = list(self.values)
            self.rng.shuffle(fresh)
            self.left += [v for v in fresh if v not in self.left]


Answer = F | int | str | tuple[str, ...]


@dataclass
class Ask:
    """One sentence (or conversation) as one person says it, with its slots to draw."""

    who: Persona
    turns: str | tuple[str, ...]
    answer: Callable[..., Answer]  # of the slot values, by name
    slots: dict[str, Sequence | Deck]
    keep: Callable[..., bool] | None = None  # the values suit the sentence
    steps: Callable[..., Sequence[F | int]] | None = None  # results said on the way (follow-ups)


def ask(who: Persona, turns: str | tuple[str, ...], answer: Callable[..., Answer], *,
        keep: Callable[..., bool] | None = None,
        steps: Callable[..., Sequence[F | int]] | None = None, **slots) -> Ask:  # fmt: skip
    return Ask(who, turns, answer, slots, keep, steps)


def _expect(value: Answer) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if isinstance(value, tuple):
        return value
    return number(value)


def _numbers(vals: dict) -> list[F | int]:
    return [v for v in vals.values() if isinstance(v, int | F) and not isinstance(v, bool)]


def _in_text(expect: tuple[str, ...], turns: tuple[str, ...]) -> bool:
    """Whether a numeric answer is in the request's own words, or its digits said back."""
    text = " ".join(turns)
    digits = [F(d.replace(",", "")) for d in re.findall(r"\d[\d,]*(?:\.\d+)?", text)]
    back = _norm(text + " " + " ".join(said(d) for d in digits))
    return any(_norm(e) in back for e in expect)


class _Builder:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.out: list[tuple[str, Request]] = []

    def add(self, kind: str, a: Ask, after: tuple[str, ...] = ()) -> None:
        rng = self.rng
        decks = {id(d): d for d in a.slots.values() if isinstance(d, Deck)}
        for d in decks.values():
            d.refill(sum(s is d for s in a.slots.values()))
        for attempt in range(1000):
            if attempt == 500:  # the values left in a deck do not suit: deal the others again
                for d in decks.values():
                    d.left += [v for v in d.values if v not in d.left]
            vals, dealt = {}, []
            for name, opts in a.slots.items():
                if isinstance(opts, Deck):
                    v = rng.choice([x for x in opts.left if x not in dealt])
                    dealt.append(v)
                else:
                    v = rng.choice(opts)
                vals[name] = v
            if a.keep and not a.keep(**vals):
                continue
            expect = _expect(a.answer(**vals))
            spoken = _numbers(vals) + list(a.steps(**vals) if a.steps else ())
            back = _norm(" ".join(said(x) for x in spoken))
            if any(_norm(e) in back for e in expect):
                continue
            voice = _Voice(a.who, rng)
            turns = (a.turns,) if isinstance(a.turns, str) else a.turns
            said_turns = tuple(voice.format(t, **vals) for t in turns)
            if a.who.lower:
                said_turns = tuple(t.lower() for t in said_turns)
            if not isinstance(a.answer(**vals), str | tuple) and _in_text(expect, said_turns):
                continue
            for d in decks.values():
                d.left = [x for x in d.left if x not in dealt]
            self.out.append((a.who.key, Request(said_turns, kind, expect, after)))
            return
        raise ValueError(f"no values suit {a.turns!r}")


def spoken_by(seed: int = SEED, now: datetime | None = None) -> list[tuple[str, Request]]:
    """Each request with the key of the persona who says it."""
    rng = random.Random(seed)
    now = now or datetime.now()
    b = _Builder(rng)
    for kind, asks in (
        ("clock", _clock(now)),
        ("timer", _timers()),
        ("arithmetic", _arithmetic()),
        ("units", _units()),
        ("spelling", _spelling()),
        ("facts", _facts(rng)),
        ("follow-up", _follow_ups(rng, now)),
        ("refusal", _refusals()),
    ):
        for a in asks:
            b.add(kind, a, CLEAR if kind == "timer" else ())
    return b.out


def strangers(seed: int = SEED, now: datetime | None = None) -> list[Request]:
    """The strangers set: the same ``seed`` gives the same requests; clock answers are for
    ``now`` (default: the real clock)."""
    return [q for _, q in spoken_by(seed, now)]


# --- clock --------------------------------------------------------------------------------------
def _until(today: date, d: date) -> tuple[str, ...]:
    n = (d - today).days
    return ("today",) if n == 0 else ("tomorrow", "one day") if n == 1 else (
        f"{int_words(n)} days",)  # fmt: skip


def _next(today: date, month: int, day: int) -> date:
    d = date(today.year, month, day)
    return d if d >= today else date(today.year + 1, month, day)


BIRTHDAYS = ("the 9th of June", "March the 3rd", "the 21st of September", "April 30th",
             "the 2nd of August", "November the 14th", "January 27th")  # fmt: skip
BIRTHDAY_DATES = {"the 9th of June": (6, 9), "March the 3rd": (3, 3),
                  "the 21st of September": (9, 21), "April 30th": (4, 30),
                  "the 2nd of August": (8, 2), "November the 14th": (11, 14),
                  "January 27th": (1, 27)}  # fmt: skip


def _clock(now: datetime) -> list[Ask]:
    today = now.date()
    hours = [int_words(now.hour % 12 or 12)]
    if now.minute >= 45:  # the hour may turn before the request is asked
        hours.append(int_words((now.hour + 1) % 12 or 12))
    if now.hour == 0:
        hours.append("midnight")
    hour = tuple(hours)
    day = (f"{MONTHS[now.month - 1]} {ordinal_words(now.day)}",)
    weekday = (WEEKDAYS[now.weekday()],)
    y = now.year
    year = (f"twenty {int_words(y - 2000)}", int_words(y)) if 2010 <= y < 2100 else (int_words(y),)

    def until(month: int, d: int) -> Callable[..., tuple[str, ...]]:
        return lambda: _until(today, _next(today, month, d))

    def until_weekday(d: str) -> tuple[str, ...]:
        ahead = (WEEKDAYS.index(d) - today.weekday()) % 7
        return _until(today, today + timedelta(days=ahead)) if ahead else ("seven days", "today")

    def birthday(d: str) -> tuple[str, ...]:
        return _until(today, _next(today, *BIRTHDAY_DATES[d]))

    def fixed(value: tuple[str, ...]) -> Callable[..., tuple[str, ...]]:
        return lambda: value

    return [
        # terse
        ask(TERSE, "time. now.", fixed(hour)),
        ask(TERSE, "date, today's.", fixed(day)),
        ask(TERSE, "day of the week. today.", fixed(weekday)),
        ask(TERSE, "christmas. how many days", until(12, 25)),
        # elder
        ask(ELDER, "Hello dear, I've just woken up from my nap and I'm all in a muddle, would "
            "you tell me what time it is?", fixed(hour)),
        ask(ELDER, "I'm writing to my sister in Australia and I never know the date these "
            "days, what is today's date, if you'd be so kind?", fixed(day)),
        ask(ELDER, "Now, I've lost track entirely since I retired, which day of the week have "
            "we got to?", fixed(weekday)),
        ask(ELDER, "Could you tell me how many days there are now until New Year's Day, I like "
            "to have my cards written well before", until(1, 1)),
        # learner
        ask(LEARNER, "please, what is the hour now?", fixed(hour)),
        ask(LEARNER, "which date we have today?", fixed(day)),
        ask(LEARNER, "what day of week is today?", fixed(weekday)),
        ask(LEARNER, "how many days it remains until Halloween?", until(10, 31)),
        # child
        ask(CHILD, "is it bedtime yet? what time is it", fixed(hour)),
        ask(CHILD, "what day is it today, is it a school day", fixed(weekday)),
        ask(CHILD, "my birthday is {d}, how many days until my birthday", birthday,
            d=BIRTHDAYS),
        ask(CHILD, "how many days till {d}, we're going to the zoo on {d}", until_weekday,
            d=WEEKDAYS),
        # us
        ask(US, "hey what's the date today, I've got to sign this lease", fixed(day)),
        ask(US, "how many days till the Fourth of July, we're planning the cookout",
            until(7, 4)),
        ask(US, "what year is it now, for the date on this permission slip", fixed(year)),
        ask(US, "got the time? I gotta pick up my kid from practice", fixed(hour)),
        # texter
        ask(TEXTER, "wat time is it", fixed(hour)),
        ask(TEXTER, "date 2day?", fixed(day)),
        ask(TEXTER, "wat day is it 2day lol", fixed(weekday)),
        ask(TEXTER, "how many days til xmas", until(12, 25)),
    ]  # fmt: skip


# --- timers -------------------------------------------------------------------------------------
LEFT = ("left", "remaining", "to go")
CANCELLED = ("cancelled", "canceled")


def _timers() -> list[Ask]:
    def mins(n: int) -> str:
        return duration(60 * n)

    return [
        # terse
        ask(TERSE, "timer. {n:w} min", mins, n=(20, 25, 30)),
        ask(TERSE, "eggs. {n} minutes. go", mins, n=(6, 7, 8, 9)),
        ask(TERSE, "timer 8 min-- make it {n}", mins, n=(9, 10, 11)),
        ask(TERSE, ("timer, {n} minutes.", "cancel. not needed"), lambda n: CANCELLED,
            n=(12, 14, 16)),
        # elder
        ask(ELDER, "Would you be a dear and set a timer for {n} minutes, I've just put a fruit "
            "cake in and my memory's not what it was", mins, n=(40, 45, 50, 55)),
        ask(ELDER, "I'd be ever so grateful if you'd remind me in {n} minutes to take my "
            "tablets, I always forget otherwise", mins, n=(10, 15, 20, 30)),
        ask(ELDER, ("I've put a pie in the oven, could you time {n} minutes for me please",
                    "Oh, and how long has my pie got to go now, dear?"), lambda n: LEFT,
            n=(25, 35)),
        ask(ELDER, ("could you set a timer for {n} minutes for the tea to brew, dear",
                    "and how many timers have I got going now? I do lose count"),
            lambda n: "one timer", n=(4, 5)),
        # learner
        ask(LEARNER, "please make a timer of {n} minutes for the tea", mins, n=(3, 4, 5)),
        ask(LEARNER, "you can remind me after {n} minutes to call my brother?", mins,
            n=(10, 20, 30)),
        ask(LEARNER, ("put timer on {n} minutes please", "how many time is still remaining?"),
            lambda n: LEFT, n=(7, 9, 13)),
        ask(LEARNER, ("make timer for {n} minutes for rice", "no, is not needed, delete the "
                      "timer"), lambda n: CANCELLED, n=(17, 18, 19)),
        # child
        ask(CHILD, "can you count down {n} seconds, i'm gonna hold my breath",
            lambda n: duration(n), n=(30, 40, 50)),
        ask(CHILD, "mum says i can play for {n} more minutes, can you do a timer", mins,
            n=(10, 15, 20)),
        ask(CHILD, "make a timer for one minute, me and my brother are having a race",
            lambda: duration(60)),
        ask(CHILD, ("can you do a timer for {n} minutes for my cookies",
                    "how long until my cookies are ready"), lambda n: LEFT, n=(11, 12)),
        # us
        ask(US, "set a timer for {n} minutes, the cookies are in", mins, n=(10, 12, 14)),
        ask(US, "I need a timer for 1 hour and {n} minutes, the pot roast is in",
            lambda n: duration(3600 + 60 * n), n=(10, 20, 40)),
        ask(US, "remind me to switch the laundry over to the dryer in {n} minutes", mins,
            n=(35, 45, 50)),
        ask(US, ("timer for {a} minutes for the fries", "and a {b} minute one for the burgers",
                 "how many timers do I have going"), lambda a, b: "two timers",
            keep=lambda a, b: a != b, a=(15, 18, 20), b=(6, 8, 10)),
        # texter
        ask(TEXTER, "timer {n} mins pls", mins, n=(3, 4, 5)),
        ask(TEXTER, "remind me 2 call the vet in {n} min", mins, n=(10, 15, 25)),
        ask(TEXTER, "set timer {n} sec for popcorn", lambda n: duration(n), n=(90, 120, 150)),
        ask(TEXTER, ("timer {n} min", "nvm cancel it"), lambda n: CANCELLED, n=(6, 8, 22)),
    ]  # fmt: skip


# --- arithmetic ---------------------------------------------------------------------------------
SQUARES = (169, 196, 256, 289, 361, 441, 529, 576, 625, 729)


def _root(n: int) -> F:
    r = round(n**0.5)
    assert r * r == n
    return F(r)


def _arithmetic() -> list[Ask]:
    r = range
    return [
        # terse
        ask(TERSE, "{a} times {b}.", lambda a, b: F(a * b), a=r(12, 20), b=r(13, 30)),
        ask(TERSE, "{a} over {b}", lambda a, b: F(a, b), keep=lambda a, b: a % b == 0,
            a=r(100, 400), b=r(4, 10)),
        ask(TERSE, "{a} minus {b}, quick", lambda a, b: F(a - b), a=r(500, 1000),
            b=r(101, 500)),
        ask(TERSE, "square root, {n}", lambda n: _root(n), n=SQUARES),
        ask(TERSE, "percent: {p}. of {a}.", lambda p, a: F(p * a, 100),
            keep=lambda p, a: p * a % 100 == 0, p=(10, 20, 25, 30, 40), a=r(40, 401, 20)),
        # elder
        ask(ELDER, "I'm doing the accounts for the church flower rota, dear, would you add "
            "{a} and {b} together for me?", lambda a, b: F(a + b), keep=not_hundreds,
            a=r(100, 500), b=r(100, 500)),
        ask(ELDER, "My grandson lent me {a} pounds and I've paid him back {b} of it, how much "
            "do I still owe him, do you know?", lambda a, b: F(a - b), a=r(40, 91, 5),
            b=r(10, 36, 5)),
        ask(ELDER, "Could you remind me what {a} {b:s} are, dear? We chanted them at school "
            "but it's all gone", lambda a, b: F(a * b), keep=lambda a, b: a != b, a=r(6, 10),
            b=r(6, 10)),
        ask(ELDER, "I'm sharing the bingo winnings with my sister, would you halve {a} for me, "
            "dear?", lambda a: F(a, 2), a=r(150, 500, 2)),
        ask(ELDER, "My grandson set me a puzzle, what would {a} to the power of three be, dear?",
            lambda a: F(a**3), a=r(4, 10)),
        # learner
        ask(LEARNER, "how much makes {a} multiply {b}?", lambda a, b: F(a * b), a=r(6, 16),
            b=r(11, 26)),
        ask(LEARNER, "how much is {a} divide on {b}?", lambda a, b: F(a, b),
            keep=lambda a, b: a % b == 0, a=r(60, 300), b=r(3, 10)),
        ask(LEARNER, "please calculate {a} plus {b} plus {c}", lambda a, b, c: F(a + b + c),
            a=r(10, 100), b=r(10, 100), c=r(10, 100)),
        ask(LEARNER, "what is {a} in the power {b}?", lambda a, b: F(a**b), a=r(2, 6),
            b=r(3, 6)),
        ask(LEARNER, "how many is {p} percents from {a}?", lambda p, a: F(p * a, 100),
            keep=lambda p, a: p * a % 100 == 0, p=(10, 15, 20, 25, 30), a=r(60, 501, 20)),
        # child
        ask(CHILD, "what's {a} plus {a} plus {a}", lambda a: F(3 * a), a=r(6, 16)),
        ask(CHILD, "what is a hundred take away {a}", lambda a: F(100 - a), a=(1, 3, 7, 11)),
        ask(CHILD, "my teacher says {a} times {b} is easy but i forgot it", lambda a, b: F(a * b),
            keep=lambda a, b: a != b, a=r(6, 13), b=r(6, 13)),
        ask(CHILD, "if {b} of us share {a} sweets how many do we get each", lambda a, b: F(a, b),
            keep=lambda a, b: a % b == 0 and a > b, a=r(12, 61), b=r(2, 7)),
        ask(CHILD, "what is {a} add {b}", lambda a, b: F(a + b), a=r(20, 61), b=r(20, 61)),
        # us
        ask(US, "what's a {p}% tip on a ${a} check", lambda p, a: F(p * a, 100),
            keep=lambda p, a: p * a % 100 == 0, p=(15, 18, 20, 25), a=r(20, 121)),
        ask(US, "we owe ${a} for the utilities, how much is that for each of {b} roommates",
            lambda a, b: F(a, b), keep=lambda a, b: a % b == 0, a=r(90, 400), b=(3, 4, 5)),
        ask(US, "I need {a} boxes at ${b} each, what's the total", lambda a, b: F(a * b),
            a=r(3, 10), b=r(12, 41)),
        ask(US, "what's {a} minus {b}, I'm balancing my checkbook", lambda a, b: F(a - b),
            a=r(1000, 3000, 5), b=r(100, 900)),
        ask(US, "what's {a} to the second power", lambda a: F(a * a), a=r(11, 17)),
        # texter
        ask(TEXTER, "whats {p}% of {a}", lambda p, a: F(p * a, 100),
            keep=lambda p, a: p * a % 100 == 0, p=r(5, 31, 5), a=r(40, 201, 10)),
        ask(TEXTER, "wats {a}*{b}", lambda a, b: F(a * b), a=r(11, 31), b=r(3, 10)),
        ask(TEXTER, "sqrt {n}", lambda n: _root(n), n=SQUARES),
        ask(TEXTER, "{a}/{b} pls", lambda a, b: F(a, b), keep=lambda a, b: a % b == 0,
            a=r(50, 200), b=r(3, 9)),
        ask(TEXTER, "{a}+{b}+{c}=?", lambda a, b, c: F(a + b + c), a=r(10, 100), b=r(10, 100),
            c=r(10, 100)),
    ]  # fmt: skip


# --- units --------------------------------------------------------------------------------------
def _units() -> list[Ask]:
    r = range
    return [
        # terse
        ask(TERSE, "{a} km. miles?", lambda a: a * KM / MILE, a=(5, 8, 15, 20, 42)),
        ask(TERSE, "{a} pounds. kilos.", lambda a: a * POUND, a=r(2, 13)),
        ask(TERSE, "fahrenheit, {a} c", lambda a: c_to_f(a), a=r(15, 41)),
        ask(TERSE, "inches in {a} feet", lambda a: F(12 * a), a=r(2, 10)),
        ask(TERSE, "{a} ml. cups.", lambda a: a * ML / CUP, a=(300, 400, 600, 700)),
        # elder
        ask(ELDER, "In my day everything was pounds and ounces, so what would {a} kilograms be "
            "in pounds, dear?", lambda a: a / POUND, a=r(2, 7)),
        ask(ELDER, "My new thermometer is in Celsius and it says {a} degrees, what would that "
            "be in the old Fahrenheit, dear?", lambda a: c_to_f(a), a=r(16, 31)),
        ask(ELDER, "The grandchildren say the new fence is {a} metres high, what's that in "
            "feet, dear? I can't picture metres at all", lambda a: a / FOOT, a=(2, 3, 4)),
        ask(ELDER, "They've put up a sign saying the village fete is {a} kilometres away, now "
            "how far is that in miles, dear?", lambda a: a * KM / MILE, a=r(3, 13)),
        ask(ELDER, "The kitchen scales only show grams now, dear, so how many ounces is {a} "
            "grams of sugar?", lambda a: a * GRAM / OUNCE, a=r(100, 501, 50)),
        # learner
        ask(LEARNER, "how much is the kilometers in {a} miles?", lambda a: a * MILE / KM,
            a=r(3, 31)),
        ask(LEARNER, "how many kilo is {a} pounds?", lambda a: a * POUND, a=r(5, 51)),
        ask(LEARNER, "{a} degrees of Fahrenheit, how much it is in Celsius?",
            lambda a: f_to_c(a), a=r(40, 101)),
        ask(LEARNER, "how many centimeter have {a} inches?", lambda a: a * INCH / CM,
            a=r(3, 21)),
        ask(LEARNER, "how many minutes are in {a} hours and half?", lambda a: (a * 2 + 1) * 30,
            a=r(1, 6)),
        # child
        ask(CHILD, "how many grams are in {a} kilograms", lambda a: F(1000 * a), a=r(2, 6)),
        ask(CHILD, "how many centimetres are in {a} metres", lambda a: F(100 * a), a=r(2, 10)),
        ask(CHILD, "how many seconds are in {a} minutes", lambda a: F(60 * a), a=r(2, 10)),
        ask(CHILD, "how many hours are in {a} days", lambda a: F(24 * a), a=r(2, 7)),
        ask(CHILD, "how many days are in {a} weeks", lambda a: F(7 * a), a=r(2, 10)),
        # us
        ask(US, "it's {a} degrees fahrenheit out, what's that in celsius for my friend in Spain",
            lambda a: f_to_c(a), a=r(60, 96)),
        ask(US, "how many ounces are in {a} pounds", lambda a: F(16 * a), a=r(2, 7)),
        ask(US, "how many cups in {a} quarts", lambda a: a * QUART / CUP, a=r(2, 6)),
        ask(US, "how many feet are in {a} miles", lambda a: a * MILE / FOOT, a=(2, 3)),
        ask(US, "convert {a} liters to gallons", lambda a: F(a) / GALLON, a=r(5, 41)),
        # texter
        ask(TEXTER, "{a}k in miles?", lambda a: a * KM / MILE, a=(5, 10)),
        ask(TEXTER, "lbs in {a} kg?", lambda a: a / POUND, a=r(2, 21)),
        ask(TEXTER, "whats {a}f in c", lambda a: f_to_c(a), a=r(40, 111)),
        ask(TEXTER, "{a} tbsp in ml?", lambda a: a * TABLESPOON / ML, a=r(2, 7)),
        ask(TEXTER, "{a}mph in km/h?", lambda a: a * MPH / KMH, a=r(20, 71, 5)),
    ]  # fmt: skip


# --- spelling -----------------------------------------------------------------------------------
def _spelling() -> list[Ask]:
    def spell(w: str | tuple[str, str]) -> str:
        return letters(w if isinstance(w, str) else w[1])

    return [
        # terse
        ask(TERSE, "{w}. letters.", spell, w=("yacht", "quinoa", "gnome")),
        ask(TERSE, "{w}. spelling?", spell, w=("knight", "wrist", "psalm")),
        ask(TERSE, "{w}-- spell it", spell, w=("biscuit", "cupboard", "sieve")),
        ask(TERSE, "spelling, {w}, go", spell, w=("squirrel", "walrus", "pharmacy")),
        # elder
        ask(ELDER, "I'm writing a letter of complaint to the council about the bins, how on "
            "earth do you spell {w}?", spell, w=("inconvenience", "disappointed",
                                                  "unacceptable")),
        ask(ELDER, "My friend Joan is in hospital and I'm writing her a card, would you spell "
            "{w} for me, dear?", spell, w=("recovery", "thinking", "convalescence")),
        ask(ELDER, "I'm labelling my jams for the church fete, how do you spell {w}?", spell,
            w=("marmalade", "raspberry", "gooseberry", "blackcurrant")),
        ask(ELDER, "The man at the garden centre said to plant {w}, but how is that spelt, "
            "dear?", spell, w=("chrysanthemum", "rhododendron", "fuchsia", "hydrangea")),
        # learner
        ask(LEARNER, "how to write the word {w}, letter for letter?", spell,
            w=("comfortable", "vegetable", "knowledge")),
        ask(LEARNER, "{w} -- which letters it has, please?", spell,
            w=("receipt", "foreign", "through")),
        ask(LEARNER, "please spell for me {w}", spell, w=("schedule", "environment",
                                                          "government")),
        ask(LEARNER, "I am always making mistake in the word {w}, how it is spelled?", spell,
            w=("business", "language", "height")),
        # child
        ask(CHILD, "how do you spell {w}, it's my favourite animal", spell,
            w=("elephant", "octopus", "penguin", "hedgehog")),
        ask(CHILD, "what letters is {w}", spell, w=("dinosaur", "pterodactyl", "volcano")),
        ask(CHILD, "spell {w}, i'm writing to father christmas", spell,
            w=("reindeer", "sleigh", "chimney", "stocking")),
        ask(CHILD, "how do you spell {w} i keep getting it wrong at school", spell,
            w=("because", "answer", "quiet", "laugh")),
        # us
        ask(US, "how do you spell {w}, the state", spell,
            w=("Connecticut", "Tennessee", "Pennsylvania", "Arkansas")),
        ask(US, "spell {w} for me, I'm making the grocery list", spell,
            w=("mayonnaise", "cinnamon", "oregano", "jalapeno")),
        ask(US, "how do you spell {w}, the American way", spell,
            w=("favorite", "theater", "center")),
        ask(US, "how's {w} spelled, I'm texting my landlord", spell,
            w=("thermostat", "plumbing", "apartment")),
        # texter
        ask(TEXTER, "how 2 spell {w}", spell, w=("vacuum", "caffeine", "weird")),
        ask(TEXTER, "spell {w} pls", spell, w=("occurrence", "tongue", "colleague")),
        ask(TEXTER, "{w[0]} or {w[1]}?? spell it right", spell,
            w=(("calender", "calendar"), ("begining", "beginning"), ("accross", "across"),
               ("beleive", "believe"))),
        ask(TEXTER, "wats the spelling of {w}", spell, w=("sincerely", "recommend", "address")),
    ]  # fmt: skip


# --- facts --------------------------------------------------------------------------------------
def _lang(c: Country) -> str:
    return c.language


def only(fact: Callable[[Country], str]) -> Callable[[Country], bool]:
    """The country's ``fact`` is said of no other country (not "Spanish", which a reply about
    Argentina would hold for Mexico too), so only a reply about this country holds it."""
    return lambda a: not any(_norm(fact(a)) in _norm(fact(c)) for c in COUNTRIES if c != a)


def not_hundreds(*xs: int, **named: int) -> bool:
    """No number said in words ends in "hundred": "add one hundred and forty nine" is 149."""
    return all(x % 100 for x in (*xs, *named.values()))


def _facts(rng: random.Random) -> list[Ask]:
    deck = Deck(rng, COUNTRIES)
    days, months, orders = Deck(rng, WEEKDAYS), Deck(rng, MONTHS), Deck(rng, range(2, 9))
    planets = [p.name for p in PLANETS]

    def month_after(m: str) -> str:
        return MONTHS[(MONTHS.index(m) + 1) % 12]

    def month_before(m: str) -> str:
        return MONTHS[(MONTHS.index(m) - 1) % 12]

    def day_after(d: str) -> str:
        return WEEKDAYS[(WEEKDAYS.index(d) + 1) % 7]

    def day_before(d: str) -> str:
        return WEEKDAYS[(WEEKDAYS.index(d) - 1) % 7]

    def moons(p: str) -> tuple[str, ...]:
        return (MOONS[p], "two moons") if p == "Mars" else (MOONS[p],)

    def month_number(m: str) -> tuple[str, ...]:
        n = MONTHS.index(m) + 1
        return (ordinal_words(n), f"month {int_words(n)}", f"number {int_words(n)}")

    def month_days(m: str) -> str:
        return int_words(MONTH_DAYS[MONTHS.index(m)])

    def by_order(n: int) -> str:
        return BY_ORDER[n]

    def place(p: str) -> tuple[str, ...]:
        return (ordinal_words(ORDER[p]), f"number {int_words(ORDER[p])}")

    def south_of_the_border(c: Country) -> bool:
        return c.continent == "South America" or c.name == "Mexico"

    return [
        # terse
        ask(TERSE, "capital, Peru-- no, {c}", capital, c=deck),
        ask(TERSE, "{c}. currency name.", currency, c=deck),
        ask(TERSE, "planet number {n:w}. name.", by_order, n=orders),
        ask(TERSE, "{c}. continent?", continent, c=deck),
        ask(TERSE, "after {m}. which month.", month_after, m=months),
        ask(TERSE, "{m}. how many days.", month_days, m=months),
        # elder
        ask(ELDER, "My granddaughter has gone off to {c} on her gap year and I forgot to ask, "
            "what do they use for money over there?", currency, c=deck),
        ask(ELDER, "I wonder if you could tell me, dear, what the capital of {c} is, it came up "
            "on the quiz programme last night and it's been bothering me", capital, c=deck),
        ask(ELDER, "My neighbour and I can't agree, which continent would {c} be in, dear?",
            continent, c=deck),
        ask(ELDER, "Which planet is the hottest, dear? My grandson says it isn't the one "
            "closest to the sun", lambda: HOTTEST),
        ask(ELDER, "Now remind me, dear, which day comes before {d}? I've muddled up my weekly "
            "pill box", day_before, d=days),
        ask(ELDER, "What language do they speak in {c}, dear? The new family next door have "
            "come from there", _lang, c=deck),
        # learner
        ask(LEARNER, "which language they are speaking in {c}", _lang, c=deck),
        ask(LEARNER, "what is the money of {c}?", currency, c=deck),
        ask(LEARNER, "in which continent is {c}?", continent, c=deck),
        ask(LEARNER, "the capital of {c} is which city?", capital, c=deck),
        ask(LEARNER, "{p} is the how many planet from the sun?", place,
            p=[p for p in planets if p != "Earth"]),
        ask(LEARNER, "which month is coming before {m}?", month_before, m=months),
        # child
        ask(CHILD, "what comes after {d} in the week", day_after, d=days),
        ask(CHILD, "what's the littlest planet", lambda: SMALLEST),
        ask(CHILD, "has {p} got any moons? how many", moons,
            p=("Mercury", "Venus", "Earth", "Mars")),
        ask(CHILD, "what month is it after {m}", month_after, m=months),
        ask(CHILD, "when we count the months what number is {m}", month_number,
            m=months),
        ask(CHILD, "my brother says {p} is the biggest planet, which one really is",
            lambda p: BIGGEST, p=("Saturn", "Neptune", "Uranus", "Earth")),
        # us
        ask(US, "what's the capital of {c}, it's for my kid's social studies", capital, c=deck),
        ask(US, "what do they speak down in {c}", _lang, keep=south_of_the_border, c=deck),
        ask(US, "what currency do they use in {c}, we're going on a cruise", currency, c=deck),
        ask(US, "what planet is {n:nth} closest to the sun", by_order, n=orders),
        ask(US, "how many days does {m} have, I'm doing the rent calendar", month_days,
            m=months),
        ask(US, "which continent is {c} on, I was never good at geography", continent, c=deck),
        # texter
        ask(TEXTER, "cap of {c}?", capital, c=deck),
        ask(TEXTER, "currency in {c}?", currency, c=deck),
        ask(TEXTER, "lang spoken in {c}?", _lang, c=deck),
        ask(TEXTER, "{n:nth} planet from sun?", by_order, n=orders),
        ask(TEXTER, "day b4 {d}?", day_before, d=days),
        ask(TEXTER, "wat continent is {c} in", continent, c=deck),
    ]  # fmt: skip


# --- follow-ups ---------------------------------------------------------------------------------
def _follow_ups(rng: random.Random, now: datetime) -> list[Ask]:
    today = now.date()
    deck = Deck(rng, COUNTRIES)
    r = range

    def differ(fact: Callable[[Country], str]) -> Callable[..., bool]:
        return lambda a, b: fact(a) != fact(b)

    def holiday(month: int, day: int) -> Callable[..., tuple[str, ...]]:
        return lambda: _until(today, _next(today, month, day))

    def two(fact: Callable[[Country], str]) -> Callable[..., str]:
        return lambda a, b: fact(b)

    def second(w1: str, w2: str) -> str:
        return letters(w2)

    def distinct(w1: str, w2: str) -> bool:
        return w1 != w2

    def months_on(m: str) -> str:
        return MONTHS[(MONTHS.index(m) + 2) % 12]

    return [
        # terse
        ask(TERSE, ("{a}. capital city.", "{b}."), two(capital), keep=differ(capital), a=deck,
            b=deck),
        ask(TERSE, ("{a}. currency name.", "language?"), lambda a: _lang(a), keep=only(_lang),
            a=deck),
        ask(TERSE, ("{x} km, miles.", "{y}."), lambda x, y: y * KM / MILE,
            keep=lambda x, y: x != y, steps=lambda x, y: [x * KM / MILE],
            x=(3, 6, 12), y=(25, 30, 50)),
        ask(TERSE, ("{a} times {b}.", "plus {c}."), lambda a, b, c: F(a * b + c),
            steps=lambda a, b, c: [a * b], a=r(11, 20), b=r(4, 10), c=r(13, 40)),
        ask(TERSE, ("planet {n:w}.", "next."), lambda n: BY_ORDER[n + 1], n=r(1, 8)),
        ask(TERSE, ("spell {w1}.", "{w2}."), second, keep=distinct,
            w1=("ankle", "elbow", "shoulder"), w2=("stomach", "eyebrow", "knuckle")),
        # elder
        ask(ELDER, ("Would you remind me what the capital of {a} is, dear?",
                    "And what about {b}, while you're at it?"), two(capital),
            keep=differ(capital), a=deck, b=deck),
        ask(ELDER, ("My son's off to {a} next week, what language do they speak there, dear?",
                    "And what sort of money will he need?"), lambda a: currency(a),
            keep=only(currency), a=deck),
        ask(ELDER, ("How many days is it till Christmas now, dear?",
                    "And how long till Valentine's Day? My husband always forgets it"),
            holiday(2, 14)),
        ask(ELDER, ("Could you tell me what {x} pounds would be in kilos, dear? That's what "
                    "the scales said this morning", "And {y} pounds? That was last year"),
            lambda x, y: y * POUND, keep=lambda x, y: x != y,
            steps=lambda x, y: [x * POUND], x=r(130, 171, 5), y=r(140, 181, 5)),
        ask(ELDER, ("Could you add {a} and {b} for me, dear, it's the gas and the electric",
                    "And now take off {c}, that's what I've paid already"),
            lambda a, b, c: F(a + b - c), keep=lambda a, b, c: c < a + b and not_hundreds(a, b),
            steps=lambda a, b, c: [a + b], a=r(40, 120), b=r(40, 120), c=r(20, 60)),
        ask(ELDER, ("What month comes after {m}, dear? I've mislaid my calendar",
                    "And the month following, dear?"), months_on, m=MONTHS),
        # learner
        ask(LEARNER, ("which language they speak in {a}?", "and in {b}?"), two(_lang),
            keep=differ(_lang), a=deck, b=deck),
        ask(LEARNER, ("what is capital of {a}?", "and the money of this country?"),
            lambda a: currency(a), keep=only(currency), a=deck),
        ask(LEARNER, ("how much is the centimeters in {x} inches?", "and for {y} inches?"),
            lambda x, y: y * INCH / CM, keep=lambda x, y: x != y,
            steps=lambda x, y: [x * INCH / CM], x=r(2, 13), y=r(14, 40)),
        ask(LEARNER, ("how much is {a} plus {b}?", "now multiply it on {c}"),
            lambda a, b, c: F((a + b) * c), steps=lambda a, b, c: [a + b], a=r(10, 40),
            b=r(10, 40), c=r(3, 7)),
        ask(LEARNER, ("how to write {w1} in letters?", "and the word {w2}?"), second,
            keep=distinct, w1=("kitchen", "window", "pillow"),
            w2=("neighbourhood", "photograph", "temperature")),
        ask(LEARNER, ("which planet is number {n} from sun?", "and which is after it?"),
            lambda n: BY_ORDER[n + 1], n=r(1, 8)),
        # child
        ask(CHILD, ("which day is after {d}, i forget", "and then what comes after that"),
            lambda d: WEEKDAYS[(WEEKDAYS.index(d) + 2) % 7], d=WEEKDAYS),
        ask(CHILD, ("how many days till halloween", "what about till christmas"),
            holiday(12, 25)),
        ask(CHILD, ("what's {a} and {b} put together", "and if you take away {c}?"),
            lambda a, b, c: F(a + b - c),
            keep=lambda a, b, c: c < a + b, steps=lambda a, b, c: [a + b], a=r(5, 20),
            b=r(5, 20), c=r(2, 10)),
        ask(CHILD, ("how do you spell {w1}", "now do {w2}"), second, keep=distinct,
            w1=("kitten", "puppy", "pony"), w2=("dolphin", "hamster", "tortoise", "parrot")),
        ask(CHILD, ("which planet is the biggest one", "and which one is the hottest"),
            lambda: HOTTEST),
        ask(CHILD, ("what's the capital of {a}, we're doing it at school",
                    "what do they speak there"), lambda a: _lang(a), keep=only(_lang), a=deck),
        # us
        ask(US, ("what's {x} degrees fahrenheit in celsius", "ok and {y}?"),
            lambda x, y: f_to_c(y), keep=lambda x, y: x != y, steps=lambda x, y: [f_to_c(x)],
            x=r(50, 80), y=r(80, 106)),
        ask(US, ("how many ounces are in {x} pounds", "and in {y} pounds?"),
            lambda x, y: F(16 * y), keep=lambda x, y: x != y, steps=lambda x, y: [16 * x],
            x=r(2, 6), y=r(7, 13)),
        ask(US, ("what currency do they use in {a}", "ok and {b}, what do they use there"),
            two(currency),
            keep=differ(currency), a=deck, b=deck),
        ask(US, ("what's {a} times {b}", "now divide that by {c}"), lambda a, b, c: F(a * b, c),
            keep=lambda a, b, c: a * b % c == 0 and c not in (a, b),
            steps=lambda a, b, c: [a * b], a=r(12, 30), b=r(4, 13), c=r(3, 9)),
        ask(US, ("how long till New Year's Eve", "and the Fourth of July?"), holiday(7, 4)),
        ask(US, ("what continent is {a} on, for my kid's map quiz",
                 "and {b}, which one is that on"), two(continent),
            keep=differ(continent), a=deck, b=deck),
        # texter
        ask(TEXTER, ("cap of {a}?", "& {b}?"), two(capital), keep=differ(capital), a=deck,
            b=deck),
        ask(TEXTER, ("{x} kg in lbs?", "{y}?"), lambda x, y: y / POUND, keep=lambda x, y: x != y,
            steps=lambda x, y: [x / POUND], x=r(2, 10), y=r(11, 30)),
        ask(TEXTER, ("{a}*{b} pls", "then minus {c}"), lambda a, b, c: F(a * b - c),
            steps=lambda a, b, c: [a * b], a=r(6, 15), b=r(6, 15), c=r(10, 30)),
        ask(TEXTER, ("wats the month after {m}", "& after that?"), months_on, m=MONTHS),
        ask(TEXTER, ("currency in {a}?", "wat do they speak there"), lambda a: _lang(a),
            keep=only(_lang), a=deck),
        ask(TEXTER, ("spell {w1} pls", "now {w2}"), second, keep=distinct,
            w1=("awkward", "rhyme", "scissors"), w2=("jealous", "gorgeous", "nuisance")),
    ]  # fmt: skip


# --- refusals -----------------------------------------------------------------------------------
REFUSALS = (
    (TERSE, "weather. tomorrow."),
    (TERSE, "lights. off."),
    (TERSE, "ring Jim. now."),
    (TERSE, "news. headlines."),
    (ELDER, "Could you ring my son Peter for me, dear? His number's in the phone somewhere"),
    (ELDER, "I'd love to hear a bit of Vera Lynn, would you put some on for me?"),
    (ELDER, "Would you be a love and tell me whether it'll be dry enough to hang the sheets "
            "out tomorrow"),
    (ELDER, "My friend Margaret says there's a sale on at Marks and Spencer, could you find out "
            "when it finishes?"),
    (LEARNER, "please, you can book for me one table in restaurant for saturday?"),
    (LEARNER, "what is the exchange of dollar to euro today?"),
    (LEARNER, "send please a message to my wife that I am coming late"),
    (LEARNER, "turn on please the air condition in bedroom"),
    (CHILD, "can you play the baby shark song"),
    (CHILD, "can you call my grandma"),
    (CHILD, "can you turn on the tv i want cartoons"),
    (CHILD, "can you buy me a lego set"),
    (US, "what's the score of the Yankees game"),
    (US, "order me an Uber to the airport"),
    (US, "how much is gas at the Shell on Main Street"),
    (US, "open the garage door, I'm pulling in"),
    (TEXTER, "whats trending on tiktok rn"),
    (TEXTER, "txt jess im omw"),
    (TEXTER, "play my workout playlist"),
    (TEXTER, "hows traffic on the 405 rn"),
)  # fmt: skip


def _refusals() -> list[Ask]:
    return [ask(who, text, lambda: ()) for who, text in REFUSALS]


if __name__ == "__main__":
    _rows = spoken_by()
    for _who, _q in _rows:
        print(f"{_q.kind:<11} {_who:<8} {' / '.join(_q.turns)}  →  {_q.expect}")
    print(len(_rows), "requests;", {k: sum(q.kind == k for _, q in _rows) for k in KINDS})
