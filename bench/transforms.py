"""Transforms set for ``bench/skills.py --requests transforms``: a fifth held-out request set,
written by another author who read neither the assistant's readers nor the other sets' requests.
Every request is a meaning first, then syntactic transformations of it.

Eight kinds, the everyday set's ``KINDS``: clock (time, date, weekday today or tomorrow, year,
days until a holiday or a date), timer (a labelled timer, a reminder), arithmetic (sum,
difference, product, quotient, percentage, square, square root, power, half), units (length,
weight, volume, temperature, speed, time), spelling, facts (capital, continent, language and
currency of the 30 countries of ``training/facts.py`` by name or alias; the planets by order,
size, heat and moons; the day or month after or before one, days in a month, a month's number),
follow-up (two turns, the second elliptical: a new country for the same question, another fact
of the same country, the next planet, month or day, days in another month, another amount for
the same conversion, another operation on the last result, another word to spell, days until
another holiday, the time left on the timer just set) and refusal (what an offline assistant
with no internet, phone, smart home or music cannot do: ``expect == ()``).

How it is written — meaning first, then transformations (not scenes, personas or situations):

1. **A meaning** is drawn: a kind and its values (convert 5 miles to kilometres; the capital of
   Kenya; a 12 minute timer for the bread), and the answer is worked out from the values.
2. **A plain core** says it in a few grammatical shapes written once per meaning: a question
   ("what's the capital of <c>?"), a noun phrase ("the capital of <c>"), an embedded question
   ("what the capital of <c> is"), an imperative ("convert <n> into kilometres") and, where the
   meaning allows them, a fronted, a passive or nominalised, an elided, a reordered and a choice
   shape. Values stay slots (``<c>``, ``<n>``) until the end, so a transformation can work on them.
3. **Two or three transformations** (follow-ups: two or three on the scored turn, one or two on
   the first) are drawn from the eighteen below, among those that fit the meaning and each other
   (at most one reshapes the core; at most one clause goes before or after it; no choice or
   guess on a first turn, which could name the next answer), the least used so far for the times
   it fitted first, and in every turn at least one besides ``nominal``, ``indirect``,
   ``statement``, ``polite``, ``elided``, ``filler``, ``asr`` and ``dialect`` (alone, those can
   leave a sentence the training corpus says too: "I need the capital of Poland"):

   - ``front``: the object or topic first ("Kenya — what's its capital?", "<n> — how many
     kilometres is that?");
   - ``nominal``: passive or nominalised ("what language is spoken in India?", "the conversion
     of 5 miles into kilometres, please", "how is rhubarb spelt?");
   - ``indirect``: embedded in an indirect question ("I was wondering whether you could tell me
     what the capital of Kenya is", "do you know ...?");
   - ``statement``: the question as a statement of need ("I need the capital of Kenya");
   - ``tag``: a tag question, or a confirmation of a wrong guess ("the capital of Kenya is
     Mombasa, isn't it?"; never the right answer alone);
   - ``cleft``: a pseudo-cleft ("what I'd like to know is ...", "what I need is ...");
   - ``elided``: the verb left out ("5 miles in km?", "capital of Kenya?");
   - ``polite``: an imperative with politeness ("kindly convert ...", "be a love and ...");
   - ``reorder``: the adjunct or condition before the main clause ("in kilometres, how far is
     5 miles?", "if you multiply 6 by 7, what do you get?", "for the bread, set a timer ...");
   - ``choice``: a comparison or choice between the right answer and a plausible wrong one ("is
     the capital of Kenya Nairobi or Mombasa?"), only for answers that are names;
   - ``reason_before`` / ``reason_after``: a reason clause before or after ("I'm doing a pub
     quiz, so ...", "... — I'm asking because ...");
   - ``repeat``: a double question whose second asks for the answer again ("... ? And can you
     say it twice?");
   - ``correction``: a value corrected mid-sentence ("5 miles, no, 6 miles"); the check is the
     corrected value's;
   - ``filler``: a filled pause ("um", "uh", "er", "like");
   - ``restart``: a false start repeated ("what's the— what's the capital ...");
   - ``dialect``: British vocabulary and spelling swapped for US ("kilometres" → "kilometers",
     "maths" → "math", "holiday" → "vacation"; never the word to spell);
   - ``asr``: as a speech recogniser writes it: lower case, no punctuation, numbers in digits
     above ten and in words up to ten, abbreviations spoken out, and a homophone Whisper makes
     where it cannot change the meaning ("its" for "it's", "their" for "there", "four" for
     "for" only in a request with no number at all).

- **Checks worked out here**, as ``bench/everyday.py`` does: arithmetic with
  :class:`fractions.Fraction`, conversions from its exact unit definitions, calendar counts with
  :mod:`datetime`, spelled letters from the word, facts from ``training/facts.py``'s tables.
  Expected strings are what ``useful()`` looks for: numbers in words as the assistant says them
  (``bench.everyday.said`` / ``number``), names of capitals, planets, months, weekdays and
  continents, language names, currency names without "the" — except where the bare name is
  inside common words ("the won" not "won", which is in "won't" and "wondering"; "the real";
  "the euro" or "euros", as "euro" is in "Europe"). A numeric answer is drawn again when its
  words are in one of the request's own numbers said back or in its words (for a follow-up,
  also the first turn's numbers and answer). A name answer is in a request only in a choice,
  beside a wrong one (so the language of Germany and of Thailand is never asked: "German" is in
  "Germany"). The clock's answers follow ``now`` (default the real clock); the hour also accepts
  the next hour, as a long run may cross it.
- **Timers are cleared**: every request that sets a timer is followed, unscored, by "cancel all
  my timers". The time left on a timer just set accepts its full length or one or two whole
  minutes under it (the benchmark asks within seconds).
- **Follow-ups are fair**: another fact of the same country is asked only where that fact's
  answer is unique among the 30 countries; a new country for the same question has a different
  answer from the first; a corrected value has a different answer from its correction.
- The same seed gives the same requests (one :class:`random.Random`, no set iteration).

``tests/test_transforms.py`` checks the counts, that every transformation is used and shows in
the text, the checks (re-derived from the request text for arithmetic, conversions, timers, days
until a date and spelling), determinism, and that no turn is a training prompt or a turn of the
other four sets.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from fractions import Fraction as F

from bench.everyday import (
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
    STONE,
    YARD,
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
from words.calendar import year_words
from words.spoken import int_words, ordinal_words

SEED = 5
COUNTS = {"clock": 24, "timer": 24, "arithmetic": 27, "units": 27, "spelling": 24, "facts": 38,
          "follow-up": 40, "refusal": 24}  # fmt: skip

# --- the transformations ----------------------------------------------------------------------
FRAMES = ("front", "nominal", "indirect", "statement", "tag", "cleft", "elided", "polite",
          "reorder", "choice")  # fmt: skip
TRANSFORMS = FRAMES + ("reason_before", "reason_after", "repeat", "correction", "filler",
                       "restart", "dialect", "asr")  # fmt: skip
BOOST = {"choice": 3.0}  # fits few meanings: taken more often when it fits
# Alone, these can leave a sentence the training corpus says too ("I need the capital of
# Poland", "what language is spoken in India?"): every turn has one transformation besides them.
COMMON = ("nominal", "indirect", "statement", "polite", "elided", "filler", "asr", "dialect")

INDIRECT_Q = ("I was wondering whether you could tell me {}.", "do you know {}?", "any idea {}?",
              "could you tell me {}?", "I'd love to know {}.")  # fmt: skip
INDIRECT_ACT = ("I was wondering if you could {}.", "I wonder whether you'd {} for me.",
                "do you think you could {}?")  # fmt: skip
STATEMENT = ("I need {}.", "I'm after {}.", "I'd like {}.", "I want {}.")
TAG_Q = ("you know {}, don't you?", "you'd know {}, wouldn't you?",
         "you can tell me {}, can't you?")  # fmt: skip
TAG_ACT = ("you can {}, can't you?", "you'll {} for me, won't you?")
POLITE = ("kindly {}.", "please {}.", "would you kindly {}?", "be a love and {}.",
          "if you'd be so kind, {}.")  # fmt: skip
CLEFT_NP = ("what I need is {}.", "what I'm after is {}.")
CLEFT_EMB = ("what I'd like to know is {}.", "what I want to know is {}.")
CLEFT_ACT = ("what I need you to do is {}.", "what I'd like you to do is {}.")
MARKERS = ("no", "sorry", "I mean", "no wait", "or rather", "actually")
FILLERS = ("um", "uh", "er", "like")
REPEAT_Q = ("{s} And can you say it twice?", "{s} Could you repeat the answer as well?",
            "{s} Then say it again, slowly?")  # fmt: skip
REPEAT_ACT = ("{b}, and read it back to me.", "{s} Then repeat it back to me?")
BEFORE = ("{r}, so {s}", "since {r}, {s}", "{r} — {s}")
AFTER_Q = ("{s} {R}.", "{s} I'm asking because {r}.", "{b} — {r}.")
AFTER_ACT = ("{b}, because {r}.", "{b} — {r}.", "{s} {R}.")
LEAD = ("what's", "what", "how", "which", "is", "set", "tell", "spell", "convert", "remind", "and",
        "when", "who", "where", "kindly", "please", "so")  # fmt: skip

# British → US, whole words or phrases, longest first where one holds another
DIALECT = (
    ("kilometres", "kilometers"), ("kilometre", "kilometer"), ("centimetres", "centimeters"),
    ("millilitres", "milliliters"), ("metres", "meters"), ("metre", "meter"),
    ("litres", "liters"), ("litre", "liter"), ("spelt", "spelled"), ("maths", "math"),
    ("per cent", "percent"), ("holiday", "vacation"), ("biscuits", "cookies"),
    ("jacket potatoes", "baked potatoes"), ("chips", "fries"), ("porridge", "oatmeal"),
    ("fish fingers", "fish sticks"), ("lasagne", "lasagna"), ("mobile", "cell phone"),
    ("calculator's flat", "calculator's dead"), ("at the weekend", "on the weekend"),
    ("telly", "TV"), ("nan's", "grandma's"), ("paddling pool", "wading pool"),
    ("hiring a car", "renting a car"), ("rota", "schedule"), ("labelling", "labeling"),
    ("cheque", "check"), ("curtains", "drapes"), ("garden", "yard"), ("motorway", "highway"),
    ("taxi", "cab"), ("ring", "call"), ("petrol", "gas"), ("takeaway", "takeout"),
    ("mum", "mom"), ("colour", "color"), ("cash machine", "ATM"), ("lad", "boy"),
    ("give me a shout", "give me a holler"), ("popping out", "heading out"),
    ("washing-up liquid", "dish soap"), ("bins", "trash cans"), ("queue", "line"),
)  # fmt: skip
ABBREVIATIONS = (("km/h", "kilometers per hour"), ("mph", "miles per hour"), ("km", "kilometers"),
                 ("kg", "kilograms"), ("lb", "pounds"), ("cm", "centimeters"),
                 ("ml", "milliliters"), ("oz", "ounces"))  # fmt: skip
HOMOPHONES = (("it's", "its"), ("there", "their"), ("you're", "your"))
NUMBER_WORDS = frozenset(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty "
    "ninety hundred thousand point half".split()
)


# --- meanings and their cores -----------------------------------------------------------------
@dataclass
class Slot:
    """A value said in the request: a number (with the unit after it), an ordinal or a name. A
    ``wrong`` value is what the speaker says first under ``correction``."""

    value: object
    wrong: object = None
    unit: tuple[str, str] = ("", "")  # singular, plural
    ordinal: bool = False


@dataclass
class Core:
    """A meaning in its plain shapes; ``<name>`` marks a slot, ``<x>``/``<y>`` the options of a
    choice and ``<g>`` a wrong guess."""

    expect: tuple[str, ...]
    forms: dict[str, tuple[str, ...]]
    slots: dict[str, Slot] = field(default_factory=dict)
    ask: bool = True  # the plain core is a question; else a command
    reasons: tuple[str, ...] = ()
    options: tuple[str, str] | None = None  # (right, wrong) for a choice or a wrong guess
    numeric: bool = False  # a number: it must not be among the request's own numbers
    numbers: tuple = ()  # numbers the answer must not be, besides the slots'
    protect: str = ""  # a word no swap may touch (the word to spell)
    homophone: bool = False  # "for" → "four" cannot change its meaning
    no_repeat: bool = False
    value: F | None = None  # an arithmetic result, exact (for an operation on it next)


def _c(expect, ask=True, **kw) -> Core:
    forms = {k: (v,) if isinstance(v, str) else tuple(v) for k, v in kw.pop("forms").items()}
    return Core(tuple(expect), forms, ask=ask, **kw)


class _Pool:
    """Values drawn without replacement (refilled, reshuffled, when used up)."""

    def __init__(self, rng: random.Random, values: Sequence) -> None:
        self.rng, self.values, self.left = rng, list(values), []

    def take(self, ok: Callable[[object], bool] = lambda v: True):
        if not any(ok(v) for v in self.left):
            self.left = list(self.values)
            self.rng.shuffle(self.left)
        v = next(v for v in self.left if ok(v))
        self.left.remove(v)
        return v


def _num(v, style: str) -> str:
    """A number as the request says it: in words, in digits, or as ASR writes it."""
    q = F(v)
    if q.denominator == 1:
        n = int(q)
        return int_words(n) if style == "words" or (style == "asr" and n <= 10) else str(n)
    if style == "words":
        return said(q)
    return f"{float(q):g}"


def _ordinal(n: int, style: str) -> str:
    return ordinal_words(n) if style == "words" or (style == "asr" and n <= 10) else nth(n)


def _slot_text(slot: Slot, v, style: str, unit: bool = True) -> str:
    if slot.ordinal:
        return _ordinal(v, style)
    if isinstance(v, (int, F)):
        u = slot.unit[0 if F(v) == 1 else 1]
        return f"{_num(v, style)} {u}".strip() if unit else _num(v, style)
    return str(v)


# --- the builder ------------------------------------------------------------------------------
class _Builder:
    def __init__(self, rng: random.Random, now: datetime) -> None:
        self.rng, self.now, self.today = rng, now, now.date()
        self.used = {t: 0 for t in TRANSFORMS}
        self.offered = {t: 0 for t in TRANSFORMS}
        self.rows: list[tuple[Request, tuple[tuple[str, ...], ...]]] = []
        self.seen: set[tuple[str, ...]] = set()
        self.pools: dict[str, _Pool] = {}
        self.banned: list[str] = []  # transformations that did not fit the request being drawn
        self.reasons: list[str] = []

    def pool(self, name: str, values: Sequence) -> _Pool:
        if name not in self.pools:
            self.pools[name] = _Pool(self.rng, values)
        return self.pools[name]

    # which transformations fit a core, and each other
    def _fits(self, core: Core, t: str, chosen: list[str], first: bool) -> bool:
        f = core.forms
        if t in self.banned or t in chosen or (t in FRAMES and any(c in FRAMES for c in chosen)):
            return False
        if t in ("front", "nominal", "elided", "reorder", "choice") and t not in f:
            return False
        if t == "choice" and ("correction" in chosen or not core.options):
            return False
        if t == "correction" and ("choice" in chosen or not any(
                s.wrong is not None for s in core.slots.values())):  # fmt: skip
            return False
        if t in ("reason_before", "reason_after") and not core.reasons:
            return False
        if t in ("reason_before", "reason_after", "repeat") and any(
                c in ("reason_before", "reason_after", "repeat") for c in chosen):  # fmt: skip
            return False
        if t == "repeat" and (core.no_repeat or not core.expect or first):
            return False
        return True

    def _pick(self, core: Core, n: int, first: bool = False) -> list[str]:
        chosen: list[str] = []
        while len(chosen) < n:
            ok = [t for t in TRANSFORMS if self._fits(core, t, chosen, first)]
            if len(chosen) == n - 1 and all(c in COMMON for c in chosen):
                ok = [t for t in ok if t not in COMMON]
            if not ok:
                break
            self.rng.shuffle(ok)
            for t in ok:
                self.offered[t] += 1
            # the one used least often of the times it could have been (so that one that fits
            # few meanings, like a choice, does not take every one it fits)
            chosen.append(
                min(ok, key=lambda t: (self.used[t] + 1) / self.offered[t] / BOOST.get(t, 1))
            )
        return chosen

    def _render(self, core: Core, chosen: list[str]) -> str | None:
        rng = self.rng
        style = "asr" if "asr" in chosen else rng.choice(("words", "digits"))
        frame = next((t for t in chosen if t in FRAMES), "plain")
        text = self._frame(core, frame, "correction" not in chosen)
        fix = ""
        if "correction" in chosen:
            fix = rng.choice([k for k, s in core.slots.items() if s.wrong is not None])

        def slot(m: re.Match) -> str:
            name = m.group(1)
            s = core.slots[name]
            right = _slot_text(s, s.value, style)
            if name != fix:
                return right
            short = s.unit != ("", "") and rng.random() < 0.5  # "5, no, 6 miles"
            wrong = _slot_text(s, s.wrong, style, unit=not short)
            return f"{wrong}, {rng.choice(MARKERS)}, {right}"

        text = re.sub(r"<(\w+)>", slot, text)
        us = "dialect" in chosen
        swaps = 0  # British words said in US English
        if us:  # before a restart repeats its words; the reasons are swapped as they are said
            swapped = _dialect(text, core.protect)
            swaps += swapped != text
            text = swapped
        if "restart" in chosen:
            text = _restart(text, rng)
            if text is None:
                self.banned.append("restart")
                return None
        if "filler" in chosen:
            text = _filler(text, rng, lead="restart" not in chosen)
        question = text.endswith("?")
        bare = text.rstrip(".?!")
        reasons = [r for r in core.reasons if r not in self.reasons] or core.reasons

        def reason() -> str:
            nonlocal swaps
            r = rng.choice(reasons)
            self.reasons.append(r)
            if us:
                swaps += _dialect(r, "") != r
                r = _dialect(r, "")
            return r

        if "reason_before" in chosen:
            s = text.removeprefix("and ")  # "since I'm ..., and is it ..." reads badly
            text = rng.choice(BEFORE).format(r=reason(), s=s)
        if "reason_after" in chosen:
            r = reason()
            text = rng.choice(AFTER_Q if question else AFTER_ACT).format(
                s=text, b=bare, r=r, R=r[0].upper() + r[1:]
            )
        if "repeat" in chosen:
            text = rng.choice(REPEAT_Q if question and core.ask else REPEAT_ACT).format(
                s=text, b=bare
            )
        text = text[0].upper() + text[1:]
        if us and not swaps:
            self.banned.append("dialect")  # nothing British was said
            return None
        if "asr" in chosen:
            text = _asr(text, core, rng)
        return text

    def _frame(self, core: Core, frame: str, guess: bool) -> str:
        rng, f = self.rng, core.forms
        np_, emb = f.get("np", ()), f.get("emb", ())
        act = f.get("act") or tuple(f"tell me {x}" for x in np_)
        if frame in f and frame not in ("choice",):
            return rng.choice(f[frame])  # a shape written for this meaning
        if frame == "plain":
            return rng.choice(f["q"])
        if frame == "choice":
            a, b = core.options if rng.random() < 0.5 else core.options[::-1]
            return rng.choice(f["choice"]).replace("<x>", a).replace("<y>", b)
        if frame == "indirect":
            if emb and core.ask:
                return rng.choice(INDIRECT_Q).format(rng.choice(emb))
            return rng.choice(INDIRECT_ACT).format(rng.choice(act))
        if frame == "statement":
            return rng.choice(STATEMENT).format(rng.choice(np_))
        if frame == "tag":
            if guess and "guess" in f and core.options and rng.random() < 0.6:
                return rng.choice(f["guess"]).replace("<g>", core.options[1])
            if core.ask and np_:
                return rng.choice(TAG_Q).format(rng.choice(np_))
            return rng.choice(TAG_ACT).format(rng.choice(act))
        if frame == "polite":
            return rng.choice(POLITE).format(rng.choice(act))
        if frame == "cleft":
            if emb and core.ask and rng.random() < 0.5:
                return rng.choice(CLEFT_EMB).format(rng.choice(emb))
            if not core.ask:
                return rng.choice(CLEFT_ACT).format(rng.choice(act))
            return rng.choice(CLEFT_NP).format(rng.choice(np_))
        raise ValueError(frame)

    def add(self, kind: str, make: Callable[[], Core | tuple[Core, Core]],
            after: tuple[str, ...] = ()) -> None:  # fmt: skip
        """One request from ``make()`` (a core, or the two of a follow-up), transformed; drawn
        again while its answer is among its own numbers said back or it repeats a request."""
        self.banned = []
        for attempt in range(400):
            if attempt % 20 == 19:
                self.banned = []
            made = make()
            cores = made if isinstance(made, tuple) else (made,)
            for c in cores[:-1]:
                c.options = None  # a first turn's choice or guess could name the next answer
            picks = [self._pick(c, self.rng.choice((1, 2)), first=True) for c in cores[:-1]]
            picks.append(self._pick(cores[-1], self.rng.choice((2, 2, 3))))
            self.reasons = []  # a reason given once in a conversation is not given again
            turns = [self._render(c, p) for c, p in zip(cores, picks, strict=True)]
            if any(t is None for t in turns):
                continue
            last = cores[-1]
            if last.numeric:
                nums = [x for c in cores for s in c.slots.values() if not s.ordinal
                        for x in (s.value, s.wrong) if isinstance(x, (int, F))]  # fmt: skip
                nums += [x for c in cores for x in c.numbers]
                earlier = [e for c in cores[:-1] for e in c.expect]  # the first turn's answer
                # each number said back on its own ("twelve" is in "twelve times eleven"), the
                # first turn's answer, and the words of the request
                back = [_norm(x) for x in [*(said(F(x)) for x in nums), *earlier, *turns]]
                if any(_norm(e) in b for e in last.expect for b in back):
                    continue
            key = tuple(_norm(t) for t in turns)
            if key in self.seen or any((t,) in self.seen for t in key):
                continue
            self.seen.add(key)
            self.seen.update((t,) for t in key)
            for p in picks:
                for t in p:
                    self.used[t] += 1
            req = Request(tuple(turns), kind, last.expect, after)
            self.rows.append((req, tuple(tuple(p) for p in picks)))
            return
        raise ValueError(f"no fitting {kind} request from {make}")


def _restart(text: str, rng: random.Random) -> str | None:
    """A false start: the first two or three words said twice ("what's the— what's the")."""
    if text.startswith("and "):
        again = _restart(text[4:], rng)
        return again and "and " + again
    words = text.split(" ")
    k = rng.choice((2, 3))
    head = words[:k]
    if len(words) < k + 2 or not all(re.fullmatch(r"[a-zI']+", w) for w in head):
        return None
    if any(w in NUMBER_WORDS for w in head):
        return None
    return " ".join(head) + rng.choice(("— ", "... ", " — ")) + text


def _filler(text: str, rng: random.Random, lead: bool = True) -> str:
    """A filled pause at the start, or after a first question word or verb."""
    f = rng.choice(FILLERS)
    words = text.split(" ")
    first = words[0]
    if lead and first in LEAD and len(words) > 2 and words[1] not in NUMBER_WORDS and \
            not words[1][:1].isdigit() and words[1] not in ("you", "I", "I'd", "I'm", "it") and \
            (f == "like" or rng.random() < 0.5):  # fmt: skip
        return " ".join([first + ",", f + ",", *words[1:]])
    return f"{'um' if f == 'like' else f}, {text}"


def _dialect(text: str, protect: str) -> str:
    out = text
    for uk, us in DIALECT:
        if protect and uk in protect.lower():
            continue

        def swap(m: re.Match, us=us) -> str:
            return us[0].upper() + us[1:] if m.group()[0].isupper() else us

        out = re.sub(rf"\b{re.escape(uk)}\b", swap, out, flags=re.I)
    return out


ORDINALS_SAID = tuple((ordinal_words(n), nth(n)) for n in range(31, 10, -1))


def _asr(text: str, core: Core, rng: random.Random) -> str:
    out = text.lower()
    for words, digits in ORDINALS_SAID:  # "june twenty first" → "june 21st", as numbers above ten
        out = re.sub(rf"\b{words}\b", digits, out)
    for short, full in ABBREVIATIONS:
        out = re.sub(rf"(?<![\w/]){re.escape(short)}(?![\w/])", full, out)
    out = re.sub(r"(?<=\d)\.(?=\d)", "DOT", out)
    out = re.sub(r"[^\w' ]+", " ", out).replace("DOT", ".")
    out = " ".join(w.strip("'") for w in out.split())
    has_number = any(w in NUMBER_WORDS or w[:1].isdigit() for w in out.split())
    swaps = [(a, b) for a, b in HOMOPHONES if re.search(rf"\b{a}\b", out)]
    if core.homophone and not has_number and re.search(r"\bfor\b", out):
        swaps.append(("for", "four"))
    if swaps:
        a, b = rng.choice(swaps)
        out = re.sub(rf"\b{a}\b", b, out)
    return out


# --- clock ------------------------------------------------------------------------------------
HOLIDAYS = (("Christmas", 12, 25), ("Christmas Eve", 12, 24), ("Boxing Day", 12, 26),
            ("New Year's Day", 1, 1), ("New Year's Eve", 12, 31), ("Halloween", 10, 31),
            ("Valentine's Day", 2, 14), ("Bonfire Night", 11, 5), ("St Patrick's Day", 3, 17),
            ("April Fools' Day", 4, 1))  # fmt: skip
DATES = ((5, 3), (6, 21), (8, 15), (9, 9), (3, 28), (7, 12), (11, 23), (2, 7), (4, 18),
         (10, 2))  # fmt: skip
R_TIME = ("my phone's died", "the kitchen clock's stopped", "I've lost track",
          "my watch needs a new battery")  # fmt: skip
R_DATE = ("I'm writing a cheque", "I'm filling in a form", "I've lost track of the days",
          "I'm labelling the jam jars")  # fmt: skip
R_UNTIL = ("I'm counting down", "the kids keep asking", "I need to plan the holiday",
           "I've got things to organise")  # fmt: skip


def _next_date(today: date, month: int, day: int) -> date:
    d = date(today.year, month, day)
    return d if d >= today else date(today.year + 1, month, day)


def _until(today: date, d: date) -> str:
    n = (d - today).days
    return "today" if n == 0 else "tomorrow" if n == 1 else f"{int_words(n)} days"


def _day_names(b: _Builder) -> tuple[str, date]:
    """A holiday or a date, as said, with its next date."""
    if b.rng.random() < 0.6:
        name, m, d = b.pool("holidays", HOLIDAYS).take()
        return name, _next_date(b.today, m, d)
    m, d = b.pool("dates", DATES).take()
    form = b.rng.randrange(3)
    said_ = (f"the {nth(d)} of {MONTHS[m - 1]}", f"{MONTHS[m - 1]} the {nth(d)}",
             f"{MONTHS[m - 1]} {ordinal_words(d)}")[form]  # fmt: skip
    return said_, _next_date(b.today, m, d)


def _clock(b: _Builder, what: str) -> Core:
    now, rng = b.now, b.rng
    if what == "time":
        h, h2 = now.hour % 12 or 12, (now.hour + 1) % 12 or 12
        return _c(
            (int_words(h), int_words(h2)),
            reasons=R_TIME,
            no_repeat=True,
            forms={
                "q": ("what time is it?", "what's the time?"),
                "np": ("the time", "the time right now"),
                "emb": ("what time it is", "what the time is"),
                "elided": ("time?", "the time, quickly?"),
                "front": ("the time — what is it now?", "the time, what've we got?"),
                "nominal": ("the current time, please.", "the time, as it stands, please."),
                "reorder": ("right now, what time is it?", "at the moment, what's the time?"),
            },
        )
    if what == "date":
        m, d = MONTHS[now.month - 1], ordinal_words(now.day)
        return _c(
            (f"{m} {d}", f"{d} of {m}"),
            reasons=R_DATE,
            forms={
                "q": ("what's the date today?", "what's today's date?"),
                "np": ("today's date", "the date today"),
                "emb": ("what the date is today", "what today's date is"),
                "elided": ("date today?", "today's date?"),
                "front": ("today — what's the date?", "today's date — what is it?"),
                "nominal": ("how is today's date written?", "the date, today, please."),
                "reorder": ("today, what's the date?", "for today, what date is it?"),
            },
        )
    if what in ("weekday", "tomorrow"):
        off = 0 if what == "weekday" else 1
        day = WEEKDAYS[(now.weekday() + off) % 7]
        wrong = WEEKDAYS[(now.weekday() + off + rng.choice((-1, 1))) % 7]
        when = "today" if off == 0 else "tomorrow"
        verb = "is it" if off == 0 else "will it be"
        it_is = "it is" if off == 0 else "it will be"
        return _c(
            (day,),
            reasons=R_DATE[1:],
            options=(day, wrong),
            forms={
                "q": (f"what day {verb} {when}?", f"what day of the week {verb} {when}?"),
                "np": (f"the day of the week {when}", f"{when}'s day of the week"),
                "emb": (f"what day {it_is} {when}", f"which day of the week {it_is} {when}"),
                "elided": (f"day of the week {when}?", f"{when}, which day?"),
                "front": (f"{when} — what day of the week is it?",),
                "nominal": (f"{when}'s weekday, please.", f"which weekday is {when} called?"),
                "reorder": (f"{when}, which day of the week is it?",),
                "choice": (f"is {when} <x> or <y>?", f"{verb} <x> {when} or <y>?"),
                "guess": (f"it's <g> {when}, isn't it?", f"{when}'s a <g>, isn't it?"),
            },
        )
    if what == "year":
        return _c(
            (year_words(now.year),),
            reasons=R_DATE[:2],
            no_repeat=True,
            forms={
                "q": ("what year is it?", "which year are we in?"),
                "np": ("the year", "the current year"),
                "emb": ("what year it is", "which year we're in"),
                "elided": ("the year?", "which year, now?"),
                "front": ("the year — what is it again?", "this year — which one is it?"),
                "nominal": ("the current year, please.",),
                "reorder": ("right now, which year are we in?",),
            },
        )
    name, d = _day_names(b)
    wrong, wd = _day_names(b)
    while _until(b.today, wd) == _until(b.today, d):
        wrong, wd = _day_names(b)
    return _c(
        (_until(b.today, d),),
        reasons=R_UNTIL,
        slots={"h": Slot(name, wrong)},
        forms={
            "q": ("how many days until <h>?", "how many days is it till <h>?"),
            "np": ("the number of days until <h>", "the days left until <h>"),
            "emb": ("how many days it is until <h>", "how long it is till <h>, in days"),
            "elided": ("days till <h>?", "<h>, how many days?"),
            "front": ("<h> — how many days away is it?", "<h>, how many days till then?"),
            "nominal": (
                "the number of days left until <h>, please.",
                "how many days are left before <h>?",
            ),
            "reorder": (
                "until <h>, how many days are there?",
                "counting from now, how many days until <h>?",
            ),
        },
    )


# --- timers -----------------------------------------------------------------------------------
# (label, plural)
LABELS = (("bread", False), ("biscuits", True), ("jacket potatoes", True), ("chips", True),
          ("porridge", False), ("fish fingers", True), ("lasagne", False), ("rice", False),
          ("eggs", True), ("crumble", False), ("scones", True), ("flapjacks", True),
          ("roast", False), ("sausages", True))  # fmt: skip
# (do, the thing, do it)
TASKS = (("check on the roast", "the roast", "check on it"),
         ("take the washing out", "the washing", "take it out"),
         ("put the bins out", "the bins", "put them out"),
         ("feed the cat", "the cat", "feed her"),
         ("water the tomatoes", "the tomatoes", "water them"),
         ("move the car", "the car", "move it"),
         ("take my tablets", "my tablets", "take them"),
         ("stir the soup", "the soup", "stir it"),
         ("turn the roast potatoes", "the roast potatoes", "turn them"),
         ("bring the washing in", "the washing", "bring it in"))  # fmt: skip
R_TIMER = ("I'll forget otherwise", "the oven timer's broken", "I'm popping out to the garden",
           "I can't keep an eye on the clock", "I've got my hands full")  # fmt: skip
MINUTE = ("minute", "minutes")


def _length(b: _Builder, unit: str = "") -> tuple[Slot, int]:
    rng = b.rng
    unit = unit or rng.choice(("minute",) * 6 + ("second", "hour"))
    if unit == "second":
        v, w = rng.sample(range(20, 56, 5), 2)
        return Slot(v, w, ("second", "seconds")), v
    if unit == "hour":
        v, w = rng.sample((2, 3, 4), 2)
        return Slot(v, w, ("hour", "hours")), 3600 * v
    v, w = rng.sample(range(4, 46), 2)
    return Slot(v, w, MINUTE), 60 * v


def _timer(b: _Builder, remind: bool = False, unit: str = "") -> tuple[Core, int]:
    slot, seconds = _length(b, unit or ("" if remind else "minute"))
    expect = (duration(seconds),)
    if remind:
        do, thing, do_it = b.pool("tasks", TASKS).take()
        return _c(
            expect,
            ask=False,
            reasons=R_TIMER,
            slots={"n": slot},
            forms={
                "q": (f"remind me in <n> to {do}.", f"can you remind me to {do} in <n>?"),
                "np": (f"a reminder in <n> to {do}",),
                "act": (f"remind me in <n> to {do}", f"give me a shout in <n> to {do}"),
                "elided": (f"reminder, <n>, {do}.", f"in <n>, a reminder to {do}."),
                "front": (f"{thing} — remind me to {do_it} in <n>.",),
                "nominal": (f"I need to be reminded in <n> to {do}.",),
                "reorder": (f"in <n>, remind me to {do}.",),
            },
        ), seconds
    label, plural = b.pool("labels", LABELS).take()
    it, need = ("them", "need") if plural else ("it", "needs")
    return _c(
        expect,
        ask=False,
        reasons=R_TIMER,
        slots={"n": slot},
        forms={
            "q": (
                f"set a timer for <n> for the {label}.",
                f"start a timer for <n> for the {label}.",
            ),
            "np": (f"a timer for <n> for the {label}",)
            + (() if plural else (f"a {label} timer for <n>",)),
            "act": (
                f"set a timer for <n> for the {label}",
                f"put a timer on for <n> for the {label}",
            ),
            "elided": (f"timer for <n>, {label}.", f"<n> on the timer for the {label}."),
            "front": (
                f"the {label} — time {it} for <n>, please.",
                f"the {label} {need} <n> — set a timer.",
            ),
            "nominal": (
                f"a timer needs setting for <n> for the {label}.",
                f"the {label} {need} to be timed for <n>.",
            ),
            "reorder": (
                f"for the {label}, set a timer for <n>.",
                f"for the {label}, a timer for <n>, please.",
            ),
        },
    ), seconds


# --- arithmetic -------------------------------------------------------------------------------
R_SUM = ("I'm checking my son's maths homework", "my calculator's flat",
         "I'm doing the accounts for the club", "I'm checking a receipt",
         "it's for a quiz round", "I can't do it in my head")  # fmt: skip
OPS = ("add", "sub", "mul", "div", "pct", "sq", "root", "pow", "half", "dec")


def _two(rng: random.Random, lo: int, hi: int) -> tuple[int, int]:
    a, w = rng.sample(range(lo, hi), 2)
    return a, w


def _arithmetic(b: _Builder, op: str) -> Core:
    rng = b.rng
    A = lambda v, w: Slot(v, w)  # noqa: E731
    if op == "add":
        a, wa = _two(rng, 12, 99)
        c, wc = _two(rng, 12, 99)
        return _c(number(a + c), value=a + c, numeric=True, reasons=R_SUM,
                  slots={"a": A(a, wa), "b": A(c, wc)}, forms={
            "q": ("what's <a> plus <b>?", "what do <a> and <b> add up to?"),
            "np": ("<a> plus <b>", "the total of <a> and <b>"),
            "emb": ("what <a> plus <b> comes to", "what <a> and <b> add up to"),
            "act": ("add <a> and <b>", "add up <a> and <b>"),
            "elided": ("<a> plus <b>?", "<a> add <b>?"),
            "front": ("<a> — what's that plus <b>?", "<a> and <b> — what's the total?"),
            "nominal": ("the sum of <a> and <b>, please.",
                        "what do you get when <a> is added to <b>?"),
            "reorder": ("if you add <a> and <b> together, what do you get?",
                        "added together, what do <a> and <b> come to?")})  # fmt: skip
    if op == "sub":
        a, wa = _two(rng, 60, 400)
        c, wc = _two(rng, 13, a - 9)
        return _c(number(a - c), value=a - c, numeric=True, reasons=R_SUM,
                  slots={"a": A(a, wa if wa > c else None), "b": A(c, wc)}, forms={
            "q": ("what's <a> minus <b>?", "what's <a> take away <b>?"),
            "np": ("<a> minus <b>", "the difference between <a> and <b>"),
            "emb": ("what <a> minus <b> is", "what's left when you take <b> from <a>"),
            "act": ("subtract <b> from <a>", "take <b> away from <a>"),
            "elided": ("<a> minus <b>?", "<a> take away <b>?"),
            "front": ("<a> — what's that minus <b>?", "<a>, take away <b> — what's left?"),
            "nominal": ("what's left when <b> is taken away from <a>?",
                        "the difference between <a> and <b>, please."),
            "reorder": ("if I take <b> away from <a>, what's left?",
                        "from <a>, take away <b> — what's that?")})  # fmt: skip
    if op in ("mul", "dec"):
        if op == "dec":
            a, wa = rng.sample((F(3, 2), F(5, 2), F(7, 2), F(9, 2), F(5, 4), F(3, 4)), 2)
            c, wc = _two(rng, 6, 41)
        else:
            a, wa = _two(rng, 6, 30)
            c, wc = _two(rng, 3, 20)
        return _c(number(a * c), value=a * c, numeric=True, reasons=R_SUM,
                  slots={"a": A(a, wa), "b": A(c, wc)}, forms={
            "q": ("what's <a> times <b>?", "what's <a> multiplied by <b>?"),
            "np": ("<a> times <b>", "the product of <a> and <b>"),
            "emb": ("what <a> times <b> is", "what you get if you multiply <a> by <b>"),
            "act": ("multiply <a> by <b>", "work out <a> times <b>"),
            "elided": ("<a> times <b>?", "<a> multiplied by <b>?"),
            "front": ("<a> — what's that times <b>?", "<a> lots of <b> — what's that?"),
            "nominal": ("what do you get when <a> is multiplied by <b>?",
                        "the product of <a> and <b>, please."),
            "reorder": ("if you multiply <a> by <b>, what do you get?",
                        "if I multiply <a> by <b>, what's the answer?")})  # fmt: skip
    if op == "div":
        c, wc = _two(rng, 3, 17)
        k = rng.randrange(7, 41)
        a = c * k
        return _c(number(k), value=k, numeric=True, reasons=R_SUM,
                  slots={"a": A(a, a + c), "b": A(c, wc if a % wc == 0 else None)}, forms={
            "q": ("what's <a> divided by <b>?",),
            "np": ("<a> divided by <b>",),
            "emb": ("what <a> divided by <b> is", "what you get if you divide <a> by <b>"),
            "act": ("divide <a> by <b>", "work out <a> divided by <b>"),
            "elided": ("<a> divided by <b>?", "<a> split <b> ways?"),
            "front": ("<a> — what's that divided by <b>?",
                      "<a> shared between <b> — how much each?"),
            "nominal": ("what do you get when <a> is divided by <b>?",
                        "the result of dividing <a> by <b>, please."),
            "reorder": ("if you divide <a> by <b>, what do you get?",
                        "shared equally between <b>, how much is <a> each?")})  # fmt: skip
    if op == "pct":
        p, wp = rng.sample((5, 10, 15, 20, 25, 30, 40, 60, 75), 2)
        y, wy = rng.sample(range(20, 401, 4), 2)
        pc = ("per cent", "per cent")
        return _c(number(F(p * y, 100)), value=F(p * y, 100), numeric=True, reasons=R_SUM,
                  slots={"p": Slot(p, wp, pc), "y": A(y, wy)}, forms={
            "q": ("what's <p> of <y>?", "what is <p> of <y>?"),
            "np": ("<p> of <y>",),
            "emb": ("what <p> of <y> is", "what <p> of <y> comes to"),
            "act": ("work out <p> of <y>", "take <p> of <y>"),
            "elided": ("<p> of <y>?",),
            "front": ("<y> — what's <p> of that?", "<y>, and I want <p> of it — how much?"),
            "nominal": ("<p> of <y> — how much is that?",),
            "reorder": ("of <y>, what's <p>?", "out of <y>, how much is <p>?")})  # fmt: skip
    if op == "sq":
        a, wa = _two(rng, 11, 41)
        return _c(
            number(a * a),
            value=a * a,
            numeric=True,
            reasons=R_SUM,
            slots={"a": A(a, wa)},
            forms={
                "q": ("what's <a> squared?", "what's the square of <a>?"),
                "np": ("<a> squared", "the square of <a>"),
                "emb": ("what <a> squared is", "what the square of <a> is"),
                "act": ("square <a>", "work out <a> squared"),
                "elided": ("<a> squared?",),
                "front": ("<a> — what's that squared?",),
                "nominal": ("what's <a> when it's squared?",),
            },
        )
    if op == "root":
        r, wr = _two(rng, 11, 31)
        return _c(number(r), value=r, numeric=True, reasons=R_SUM,
                  slots={"a": A(r * r, wr * wr)}, forms={
            "q": ("what's the square root of <a>?",),
            "np": ("the square root of <a>",),
            "emb": ("what the square root of <a> is",),
            "act": ("find the square root of <a>", "work out the square root of <a>"),
            "elided": ("square root of <a>?",),
            "front": ("<a> — what's its square root?",),
            "nominal": ("the square root of <a>, please.",)})  # fmt: skip
    if op == "pow":
        a, wa = _two(rng, 2, 7)
        e, we = _two(rng, 3, 8 if a < 4 else 6)
        return _c(number(a**e), value=a**e, numeric=True, reasons=R_SUM,
                  slots={"a": A(a, wa), "e": A(e, we)}, forms={
            "q": ("what's <a> to the power of <e>?",),
            "np": ("<a> to the power of <e>",),
            "emb": ("what <a> to the power of <e> is",),
            "act": ("raise <a> to the power of <e>", "work out <a> to the power of <e>"),
            "elided": ("<a> to the power <e>?",),
            "front": ("<a> — what's that to the power of <e>?",),
            "nominal": ("what's <a> raised to the power of <e>?",),
            })  # fmt: skip
    a, wa = _two(rng, 13, 200)
    return _c(
        number(F(a, 2)),
        value=F(a, 2),
        numeric=True,
        reasons=R_SUM,
        slots={"a": A(a, wa)},
        forms={
            "q": ("what's half of <a>?", "what's half <a>?"),
            "np": ("half of <a>",),
            "emb": ("what half of <a> is",),
            "act": ("halve <a>", "work out half of <a>"),
            "elided": ("half of <a>?",),
            "front": ("<a> — what's half of it?",),
            "nominal": ("what's <a> when it's halved?",),
        },
    )


# --- units ------------------------------------------------------------------------------------
# key: (singular, plural, abbreviation, size in SI, dimension)
UNITS = {
    "mile": ("mile", "miles", "", MILE, "length"),
    "km": ("kilometre", "kilometres", "km", KM, "length"),
    "inch": ("inch", "inches", "", INCH, "length"),
    "cm": ("centimetre", "centimetres", "cm", CM, "length"),
    "foot": ("foot", "feet", "", FOOT, "length"),
    "metre": ("metre", "metres", "", F(1), "length"),
    "yard": ("yard", "yards", "", YARD, "length"),
    "pound": ("pound", "pounds", "lb", POUND, "weight"),
    "kg": ("kilogram", "kilograms", "kg", F(1), "weight"),
    "ounce": ("ounce", "ounces", "oz", OUNCE, "weight"),
    "gram": ("gram", "grams", "", GRAM, "weight"),
    "stone": ("stone", "stone", "", STONE, "weight"),
    "gallon": ("gallon", "gallons", "", GALLON, "volume"),
    "litre": ("litre", "litres", "", F(1), "volume"),
    "cup": ("cup", "cups", "", CUP, "volume"),
    "ml": ("millilitre", "millilitres", "ml", ML, "volume"),
    "mph": ("mile an hour", "miles an hour", "mph", MPH, "speed"),
    "kmh": ("kilometre an hour", "kilometres an hour", "km/h", KMH, "speed"),
    "hour": ("hour", "hours", "", F(3600), "time"),
    "minute": ("minute", "minutes", "", F(60), "time"),
    "second": ("second", "seconds", "", F(1), "time"),
    "day": ("day", "days", "", F(86400), "time"),
    "week": ("week", "weeks", "", F(604800), "time"),
    "C": ("degree Celsius", "degrees Celsius", "", None, "temp"),
    "F": ("degree Fahrenheit", "degrees Fahrenheit", "", None, "temp"),
}
CONVERSIONS = (("mile", "km", range(3, 41)), ("km", "mile", range(5, 101, 5)),
               ("inch", "cm", range(3, 37)), ("cm", "inch", range(10, 101, 5)),
               ("foot", "metre", range(4, 41)), ("metre", "foot", range(2, 31)),
               ("yard", "metre", range(10, 101, 5)), ("pound", "kg", range(3, 61)),
               ("kg", "pound", range(2, 51)), ("ounce", "gram", range(2, 17)),
               ("stone", "kg", range(7, 19)), ("gallon", "litre", range(2, 21)),
               ("cup", "ml", range(2, 7)), ("C", "F", range(5, 41)), ("F", "C", range(41, 105)),
               ("mph", "kmh", range(20, 71, 5)), ("kmh", "mph", range(30, 121, 10)),
               ("hour", "minute", range(2, 13)), ("minute", "second", range(2, 31)),
               ("day", "hour", range(2, 15)), ("week", "day", range(2, 13)))  # fmt: skip
# reasons by the scale of the unit converted from (none says a unit or a number)
R_UNITS = {
    "far": ("I'm planning a walk", "the road signs abroad are different",
            "I'm reading an old map", "I'm training for a race"),
    "near": ("I'm measuring up for new curtains", "I'm putting up shelves",
             "I'm reading a sewing pattern"),
    "heavy": ("I'm weighing a suitcase before the flight", "the bathroom scales are foreign",
              "I'm checking the baggage allowance"),
    "light": ("I'm following my nan's recipe", "the kitchen scales are foreign"),
    "big": ("I'm filling the paddling pool", "I'm topping up the fish tank"),
    "cooking": ("the recipe's American", "I'm following an American recipe"),
    "temp": ("my thermometer's the other kind", "I'm reading an American novel",
             "my cousin in Texas mentioned it"),
    "speed": ("I'm hiring a car abroad", "I'm driving abroad soon",
              "the speed limits abroad confuse me"),
    "time": ("I'm planning a work rota", "I'm timing a project", "it's for a school project"),
}  # fmt: skip
SCALE = {"mile": "far", "km": "far", "yard": "near", "inch": "near", "cm": "near",
         "foot": "near", "metre": "near", "pound": "heavy", "kg": "heavy", "stone": "heavy",
         "ounce": "light", "gram": "light", "gallon": "big", "litre": "big", "cup": "cooking",
         "ml": "cooking", "C": "temp", "F": "temp", "mph": "speed", "kmh": "speed"}  # fmt: skip


def reasons_for(src: str) -> tuple[str, ...]:
    return R_UNITS[SCALE.get(src, "time")]


HOW = {"length": "how far", "weight": "how heavy", "volume": "how much", "temp": "how warm",
       "speed": "how fast", "time": "how long"}  # fmt: skip


def convert(src: str, tgt: str, amount) -> F:
    """``amount`` of unit ``src`` in unit ``tgt``, exactly."""
    if src == "C":
        return c_to_f(amount)
    if src == "F":
        return f_to_c(amount)
    return F(amount) * UNITS[src][3] / UNITS[tgt][3]


def _target(tgt: str, abbreviated: bool = False) -> str:
    u = UNITS[tgt]
    if u[4] == "temp":
        return u[1].split()[-1]
    return u[2] if abbreviated and u[2] else u[1]


def _units(b: _Builder, conv: tuple[str, str, range] | None = None,
           amount=None) -> tuple[Core, tuple]:  # fmt: skip
    rng = b.rng
    src, tgt, amounts = conv or b.pool("conversions", CONVERSIONS).take()
    n, w = rng.sample(list(amounts), 2)
    n = amount if amount is not None else n
    s, t, ts = UNITS[src], _target(tgt), _target(tgt, True)
    dim = s[4]
    many = f"how many {t}" if dim not in ("temp", "speed") else f"what in {t}"
    q = (
        (f"{many} is <n>?", f"what's <n> in {t}?")
        if dim not in ("temp", "speed")
        else (f"what's <n> in {t}?", f"what is <n> in {t}?")
    )
    emb = (
        (f"{many} <n> is", f"what <n> is in {t}")
        if dim not in ("temp", "speed")
        else (f"what <n> is in {t}",)
    )
    front = ((f"<n> — {many} is that?", f"<n>, what's that in {t}?")
             if dim not in ("temp", "speed") else (f"<n> — what's that in {t}?",))  # fmt: skip
    value = convert(src, tgt, n)
    core = _c(number(value), value=value, numeric=True, reasons=reasons_for(src),
              slots={"n": Slot(n, w, (s[0], s[1]))}, forms={
        "q": q, "emb": emb, "front": front,
        "np": (f"<n> in {t}", f"<n> converted into {t}"),
        "act": (f"convert <n> into {t}", f"change <n> to {t}", f"turn <n> into {t}"),
        "elided": (f"<n> in {ts}?", f"<n> to {t}?"),
        "nominal": (f"the conversion of <n> into {t}, please.",
                    f"what's <n> when it's converted into {t}?"),
        "reorder": (f"in {t}, {HOW[dim]} is <n>?", f"in {t}, what does <n> come to?")})  # fmt: skip
    return core, (src, tgt, amounts)


# --- spelling ---------------------------------------------------------------------------------
WORDS = ("rhubarb", "receipt", "questionnaire", "restaurant", "separate", "Wednesday",
         "psychology", "pharmacy", "colleague", "yacht", "bureaucracy", "fluorescent", "liaison",
         "silhouette", "guarantee", "parliament", "handkerchief", "hygiene", "mortgage",
         "lieutenant", "vacuum", "Mediterranean", "foreign", "weird", "occasion", "pneumonia",
         "ukulele", "daffodil", "chrysanthemum", "rhinoceros", "cappuccino", "spaghetti",
         "maintenance", "privilege", "recommend", "occurrence", "camouflage", "leisure",
         "cemetery", "sausage", "hierarchy", "jewellery", "sergeant", "orangutan")  # fmt: skip
R_SPELL = ("I'm writing a birthday card", "it's for a job application", "I'm filling in a form",
           "my son's got a spelling test", "I always get it wrong",
           "I'm labelling some boxes")  # fmt: skip


def _spelling(b: _Builder) -> Core:
    w = b.pool("words", WORDS).take()
    wrong = b.pool("wrong words", WORDS).take(lambda v: v != w)
    return _c(
        (letters(w),),
        reasons=R_SPELL,
        slots={"w": Slot(w, wrong)},
        protect=w,
        forms={
            "q": ("how do you spell <w>?", "how's <w> spelt?"),
            "np": ("the spelling of <w>", "<w> spelt out"),
            "emb": ("how you spell <w>", "how <w> is spelt"),
            "act": ("spell <w>", "spell out <w>", "spell <w> for me"),
            "elided": ("<w>, spelling?", "spelling of <w>?"),
            "front": ("<w> — how do you spell it?", "<w>, how's that spelt?"),
            "nominal": ("how is <w> spelt?", "how's the word <w> spelt?"),
            "reorder": ("letter by letter, how do you spell <w>?", "letter by letter, spell <w>."),
        },
    )


# --- facts ------------------------------------------------------------------------------------
DECOY_CITY = {
    "France": "Lyon", "Germany": "Munich", "Italy": "Milan", "Spain": "Barcelona",
    "Portugal": "Porto", "the Netherlands": "Rotterdam", "Greece": "Thessaloniki",
    "Ireland": "Cork", "the United Kingdom": "Manchester", "Switzerland": "Zurich",
    "Norway": "Bergen", "Sweden": "Gothenburg", "Poland": "Krakow", "Russia": "St Petersburg",
    "Turkey": "Istanbul", "Egypt": "Alexandria", "Kenya": "Mombasa", "Nigeria": "Lagos",
    "Morocco": "Casablanca", "Japan": "Osaka", "China": "Shanghai", "India": "Mumbai",
    "South Korea": "Busan", "Thailand": "Chiang Mai", "the United States": "New York",
    "Canada": "Toronto", "Mexico": "Guadalajara", "Brazil": "Rio de Janeiro",
    "Argentina": "Cordoba", "Australia": "Sydney",
}  # fmt: skip
DECOY_LANGUAGE = {
    "France": "Italian", "Germany": "Dutch", "Italy": "French", "Spain": "Portuguese",
    "Portugal": "Spanish", "the Netherlands": "German", "Greece": "Turkish",
    "the United Kingdom": "French", "Norway": "Swedish", "Sweden": "Norwegian",
    "Poland": "Russian", "Russia": "Polish", "Turkey": "Greek", "Egypt": "French",
    "Nigeria": "French", "Japan": "Chinese", "China": "Japanese", "South Korea": "Japanese",
    "Thailand": "Chinese", "the United States": "Spanish", "Mexico": "Portuguese",
    "Brazil": "Spanish", "Argentina": "Portuguese", "Australia": "French",
}  # fmt: skip
DECOY_CURRENCY = {
    "France": "Swiss franc", "Germany": "Swiss franc", "Italy": "Swiss franc",
    "Spain": "pound sterling", "Portugal": "real", "the Netherlands": "pound sterling",
    "Greece": "Turkish lira", "Ireland": "pound sterling", "the United Kingdom": "euro",
    "Switzerland": "euro", "Norway": "Swedish krona", "Sweden": "Norwegian krone",
    "Poland": "euro", "Russia": "zloty", "Turkey": "euro", "Egypt": "dirham",
    "Kenya": "naira", "Nigeria": "Kenyan shilling", "Morocco": "Egyptian pound", "Japan": "yuan",
    "China": "yen", "India": "baht", "South Korea": "yen", "Thailand": "won",
    "the United States": "Canadian dollar", "Canada": "US dollar", "Mexico": "Argentine peso",
    "Brazil": "Argentine peso", "Argentina": "Mexican peso", "Australia": "US dollar",
}  # fmt: skip
DECOY_CONTINENT = {"Europe": "Asia", "Asia": "Europe", "Africa": "Asia",
                   "North America": "South America", "South America": "North America",
                   "Oceania": "Asia"}  # fmt: skip
R_COUNTRY = ("I'm doing a pub quiz", "my lad's got geography homework",
             "we're thinking of going there on holiday", "a colleague's just moved there",
             "it came up in a crossword", "I'm watching a documentary")  # fmt: skip
R_PLANET = ("my daughter's doing a project on space", "we're off to the planetarium at the weekend",
            "I'm doing a pub quiz", "it came up on a quiz show on the telly")  # fmt: skip
R_CALENDAR = ("my little one is learning them", "I'm sorting out the rota at work",
              "it came up in a crossword", "I'm teaching the kids")  # fmt: skip
ATTRS = ("capital", "continent", "language", "currency")


# A bare name inside a common word would let a reply pass on another word: "won" (won't,
# wondering), "real" (really), "euro" (Europe); these are said with their article or adjective.
SAID_CURRENCY = {"won": ("the won", "Korean won"), "real": ("the real", "Brazilian real"),
                 "euro": ("the euro", "euros")}  # fmt: skip
# Languages named inside the country's own name ("German" in "Germany", "Thai" in "Thailand"):
# the question would hold its answer, so these are not asked.
NO_LANGUAGE = ("Germany", "Thailand")


def expected(c: Country, attr: str) -> tuple[str, ...]:
    """What a reply must hold for ``attr`` of ``c``."""
    a = answer(c, attr)
    return SAID_CURRENCY.get(a, (a,)) if attr == "currency" else (a,)


def asked(c: Country, attr: str) -> bool:
    return not (attr == "language" and c.name in NO_LANGUAGE)


def answer(c: Country, attr: str) -> str:
    return {"capital": capital, "continent": continent, "currency": currency,
            "language": lambda c: c.language}[attr](c)  # fmt: skip


def unique(attr: str, c: Country) -> bool:
    """Whether ``c``'s answer to ``attr`` is no other country's."""
    return sum(answer(o, attr) == answer(c, attr) for o in COUNTRIES) == 1


def _decoy(c: Country, attr: str) -> str | None:
    if attr == "capital":
        return DECOY_CITY[c.name]
    if attr == "continent":
        return None if " and " in continent(c) else DECOY_CONTINENT[continent(c)]
    if attr == "language":
        return DECOY_LANGUAGE.get(c.name)
    return DECOY_CURRENCY[c.name]


def _surface(rng: random.Random, c: Country) -> str:
    return rng.choice(c.surfaces)


COUNTRY_FORMS = {
    "capital": {
        "q": ("what's the capital of <c>?", "which city is the capital of <c>?"),
        "np": ("the capital of <c>", "the capital city of <c>"),
        "emb": ("what the capital of <c> is", "which city is the capital of <c>"),
        "act": ("tell me the capital of <c>", "name the capital of <c>"),
        "elided": ("capital of <c>?", "the capital city of <c>?"),
        "front": ("<c> — what's its capital?", "<c>, what's the capital there?"),
        "nominal": ("what's the capital of <c> called?", "which city is <c> governed from?"),
        "reorder": ("in <c>, which city is the capital?", "for <c>, what's the capital city?"),
        "choice": ("is the capital of <c> <x> or <y>?", "which is the capital of <c>, <x> or <y>?"),
        "guess": ("the capital of <c> is <g>, isn't it?",
                  "it's <g>, isn't it, the capital of <c>?"),
    },
    "continent": {
        "q": ("which continent is <c> in?", "what continent is <c> on?"),
        "np": ("the continent <c> is in", "the continent that <c> is part of"),
        "emb": ("which continent <c> is in", "what continent <c> belongs to"),
        "act": ("tell me which continent <c> is in",),
        "elided": ("<c>, which continent?", "continent for <c>?"),
        "front": ("<c> — which continent is that in?", "<c>, what continent's it on?"),
        "nominal": ("which continent is <c> found in?", "on which continent is <c> located?"),
        "reorder": ("of all the continents, which is <c> in?",
                    "on the map, which continent is <c> in?"),
        "choice": ("is <c> in <x> or <y>?", "would <c> be in <x> or <y>?"),
        "guess": ("<c> is in <g>, isn't it?",),
    },
    "language": {
        "q": ("what language do they speak in <c>?", "what do people speak in <c>?"),
        "np": ("the language of <c>", "the language they speak in <c>"),
        "emb": ("what language they speak in <c>", "what people speak in <c>"),
        "act": ("tell me what language they speak in <c>",),
        "elided": ("language in <c>?", "<c>, language?"),
        "front": ("<c> — what language do they speak there?", "<c>, what do they speak there?"),
        "nominal": ("what language is spoken in <c>?", "which language is used in <c>?"),
        "reorder": ("in <c>, what language do people speak?", "over in <c>, what do they speak?"),
        "choice": ("do they speak <x> or <y> in <c>?", "is it <x> or <y> they speak in <c>?"),
        "guess": ("they speak <g> in <c>, don't they?",),
    },
    "currency": {
        "q": ("what currency does <c> use?", "what's the currency in <c>?"),
        "np": ("the currency of <c>", "the money they use in <c>"),
        "emb": ("what currency <c> uses", "what money they use in <c>"),
        "act": ("tell me the currency of <c>",),
        "elided": ("currency in <c>?", "the money in <c>?"),
        "front": ("<c> — what's the money called there?", "<c>, what currency do they have?"),
        "nominal": ("what currency is used in <c>?", "what money is spent in <c>?"),
        "reorder": ("in <c>, what do they pay with?", "over in <c>, what's the currency?"),
        "choice": ("do they use the <x> or the <y> in <c>?",
                   "is the currency in <c> the <x> or the <y>?"),
        "guess": ("they use the <g> in <c>, don't they?",
                  "the currency of <c> is the <g>, isn't it?"),
    },
}  # fmt: skip


def _country(b: _Builder, attr: str, c: Country | None = None) -> Core:
    rng = b.rng
    c = c or b.pool(f"countries {attr}", COUNTRIES).take(lambda o: asked(o, attr))
    right = answer(c, attr)
    wrong = b.pool("wrong countries", COUNTRIES).take(
        lambda o: o is not c and answer(o, attr) != right
    )
    decoy = _decoy(c, attr)
    forms = dict(COUNTRY_FORMS[attr])
    if decoy is None:
        forms.pop("choice")
    return Core(
        expected(c, attr),
        forms,
        {"c": Slot(_surface(rng, c), _surface(rng, wrong))},
        reasons=R_COUNTRY,
        options=(right, decoy) if decoy else None,
        homophone=True,
    )


# other ways to say the table's answer ("any moons" alone would be in "how many moons")
MOON_ALSO = {"no moons": ("no moons", "no moon", "doesn't have any", "does not have any"),
             "two small moons": ("two small moons", "two moons", "Phobos")}  # fmt: skip
SUPERLATIVES = (("biggest", "Jupiter", "Saturn"), ("largest", "Jupiter", "Saturn"),
                ("smallest", "Mercury", "Mars"), ("hottest", "Venus", "Mercury"))  # fmt: skip


def _planet(b: _Builder, what: str) -> Core:
    rng = b.rng
    if what == "order":
        p = b.pool("planets", PLANETS).take()
        w = rng.choice([o for o in PLANETS if o is not p])
        return _c((ordinal_words(p.order),), reasons=R_PLANET,
                  slots={"p": Slot(p.name, w.name)}, forms={
            "q": ("what number planet is <p> from the sun?",
                  "where does <p> come in order from the sun?"),
            "np": ("the position of <p> counting from the sun",),
            "emb": ("what number planet <p> is from the sun",
                    "where <p> comes in order from the sun"),
            "elided": ("<p>, which number from the sun?",),
            "front": ("<p> — what number planet is it from the sun?",),
            "nominal": ("where is <p> placed in order from the sun?",),
            "reorder": ("counting out from the sun, what number is <p>?",)})  # fmt: skip
    if what == "nth":
        n = b.pool("orders", range(1, 9)).take()
        w = rng.choice([o for o in range(1, 9) if o != n])
        name = BY_ORDER[n]
        decoy = BY_ORDER[n + 1 if n < 8 else n - 1]
        return _c((name,), reasons=R_PLANET, options=(name, decoy),
                  slots={"n": Slot(n, w, ordinal=True)}, forms={
            "q": ("which planet is <n> from the sun?", "what's the <n> planet from the sun?"),
            "np": ("the <n> planet from the sun",),
            "emb": ("which planet is <n> from the sun",),
            "elided": ("<n> planet from the sun?",),
            "front": ("the <n> planet from the sun — which is it?",),
            "nominal": ("which planet is found <n> from the sun?",),
            "reorder": ("out from the sun, which planet comes <n>?",),
            "choice": ("is the <n> planet from the sun <x> or <y>?",),
            "guess": ("the <n> planet from the sun is <g>, isn't it?",)})  # fmt: skip
    if what == "most":
        adj, name, decoy = b.pool("superlatives", SUPERLATIVES).take()
        wrong = next(a for a, n, _ in SUPERLATIVES if n != name)
        return _c((name,), reasons=R_PLANET, options=(name, decoy),
                  slots={"a": Slot(adj, wrong)}, forms={
            "q": ("which is the <a> planet?", "which planet is the <a>?"),
            "np": ("the <a> planet",),
            "emb": ("which planet is the <a>", "which is the <a> planet"),
            "elided": ("<a> planet?",),
            "front": ("the <a> planet — which one's that?",),
            "nominal": ("which planet is known as the <a>?",),
            "reorder": ("of all the planets, which is the <a>?",),
            "choice": ("is the <a> planet <x> or <y>?",),
            "guess": ("the <a> planet is <g>, isn't it?",)})  # fmt: skip
    p = b.pool("moons", PLANETS).take()
    expect = MOON_ALSO.get(p.moons_answer, (p.moons_answer,))
    giants = [o for o in PLANETS if o.order >= 5]
    if p.order < 5:
        wrong = rng.choice([o for o in PLANETS if o.order < 5 and o.moons_answer != p.moons_answer])
        return _c(expect, reasons=R_PLANET, slots={"p": Slot(p.name, wrong.name)}, forms={
            "q": ("how many moons does <p> have?", "how many moons has <p> got?"),
            "np": ("the number of moons <p> has",),
            "emb": ("how many moons <p> has",),
            "elided": ("moons of <p>?", "<p>, how many moons?"),
            "front": ("<p> — how many moons has it got?",),
            "nominal": ("how many moons are found around <p>?",),
            "reorder": ("around <p>, how many moons are there?",)})  # fmt: skip
    wrong = rng.choice(
        [
            o
            for o in giants
            if o is not p  # not Titan for Titania
            and o.moons_answer[:5] != p.moons_answer[:5]
        ]
    )
    return _c(expect, reasons=R_PLANET, slots={"p": Slot(p.name, wrong.name)},
              options=(p.moons_answer, wrong.moons_answer), forms={
        "q": ("what's the biggest moon of <p>?", "which is the biggest moon of <p>?"),
        "np": ("the biggest moon of <p>",),
        "emb": ("what the biggest moon of <p> is",),
        "elided": ("biggest moon of <p>?",),
        "front": ("<p> — what's its biggest moon?",),
        "nominal": ("what's the biggest moon of <p> called?",),
        "reorder": ("of all the moons of <p>, which is the biggest?",),
        "choice": ("is the biggest moon of <p> <x> or <y>?",),
        "guess": ("the biggest moon of <p> is <g>, isn't it?",)})  # fmt: skip


def _calendar(b: _Builder, what: str) -> Core:
    rng = b.rng
    if what in ("day", "month"):
        names = WEEKDAYS if what == "day" else MONTHS
        i = b.pool(f"{what}s", range(len(names))).take()
        step = rng.choice((1, -1))
        right = names[(i + step) % len(names)]
        decoy = names[(i + 2 * step) % len(names)]
        wrong = names[(i + rng.choice((2, 3, 4))) % len(names)]
        rel, verb = ("after", "follows") if step == 1 else ("before", "comes just before")
        passive = "followed by" if step == 1 else "preceded by"
        return _c((right,), reasons=R_CALENDAR, options=(right, decoy),
                  slots={"d": Slot(names[i], wrong)}, forms={
            "q": (f"what {what} comes {rel} <d>?", f"which {what} {verb} <d>?"),
            "np": (f"the {what} {rel} <d>",),
            "emb": (f"what {what} comes {rel} <d>", f"which {what} {verb} <d>"),
            "elided": (f"the {what} {rel} <d>?", f"{rel} <d>?"),
            "front": (f"<d> — what comes {rel} it?", f"<d>, which {what} is {rel} that?"),
            "nominal": (f"what {what} is <d> {passive}?",),
            "reorder": (f"{rel} <d>, which {what} comes?",),
            "choice": (f"is the {what} {rel} <d> <x> or <y>?",),
            "guess": (f"the {what} {rel} <d> is <g>, isn't it?",)})  # fmt: skip
    if what == "days":
        m = b.pool("month days", range(12)).take()
        wrong = rng.choice([o for o in range(12) if MONTH_DAYS[o] != MONTH_DAYS[m]])
        expect = (f"{int_words(MONTH_DAYS[m])} days",) + (("twenty nine days",) if m == 1 else ())
        return _c(expect, reasons=R_CALENDAR[1:], numeric=True,
                  slots={"m": Slot(MONTHS[m], MONTHS[wrong])}, forms={
            "q": ("how many days are there in <m>?", "how many days has <m> got?"),
            "np": ("the number of days in <m>",),
            "emb": ("how many days there are in <m>",),
            "elided": ("days in <m>?", "<m>, how many days?"),
            "front": ("<m> — how many days has it got?",),
            "nominal": ("the number of days in <m>, please.",),
            "reorder": ("in <m>, how many days are there?",)})  # fmt: skip
    m = b.pool("month numbers", range(12)).take()
    wrong = rng.choice([o for o in range(12) if o != m])
    if what == "number":
        n = m + 1
        return _c((ordinal_words(n), f"month {int_words(n)}", f"number {int_words(n)}"),
                  reasons=R_CALENDAR[1:],
                  slots={"m": Slot(MONTHS[m], MONTHS[wrong])}, forms={
            "q": ("what number month is <m>?", "which month of the year is <m>?"),
            "np": ("the number of the month <m>",),
            "emb": ("what number month <m> is", "which month of the year <m> is"),
            "elided": ("<m>, what number month?",),
            "front": ("<m> — which month of the year is that?",),
            "nominal": ("where does <m> fall in the order of the months?",),
            "reorder": ("from the start of the year, what number month is <m>?",)})  # fmt: skip
    decoy = MONTHS[(m + 1) % 12]
    return _c((MONTHS[m],), reasons=R_CALENDAR[1:], options=(MONTHS[m], decoy),
              slots={"n": Slot(m + 1, wrong + 1, ordinal=True)}, forms={
        "q": ("what's the <n> month of the year?", "which month is the <n>?"),
        "np": ("the <n> month of the year",),
        "emb": ("what the <n> month of the year is",),
        "elided": ("<n> month of the year?",),
        "front": ("the <n> month — which is it?",),
        "nominal": ("which month is numbered <n> in the year?",),
        "reorder": ("in the year, which month comes <n>?",),
        "choice": ("is the <n> month <x> or <y>?",),
        "guess": ("the <n> month is <g>, isn't it?",)})  # fmt: skip


# --- follow-ups -------------------------------------------------------------------------------
def _again(expect, slot: str, reasons, numeric=False, numbers=(), slots=None, options=None,
           choice=(), guess=(), homophone=False, protect="", own=None) -> Core:  # fmt: skip
    """The second turn of a follow-up that asks the same again of a new ``<slot>``."""
    s = f"<{slot}>"
    forms = {
        "q": (f"and what about {s}?", f"what about {s}, then?"),
        "np": (f"the same for {s}", f"the answer for {s}"),
        "emb": (f"what it is for {s}", f"what the answer is for {s}"),
        "act": (f"do the same for {s}", f"now do {s}"),
        "elided": (f"and {s}?", f"{s}, then?"),
        "front": (f"{s} — same question.", f"{s}, same again?"),
        "nominal": (f"and the one for {s}?", f"same question, but asked about {s}?"),
        "reorder": (f"for {s}, what's the answer?", f"and for {s}, what is it?"),
        "tag": (f"you'd know it for {s} too, wouldn't you?",),
        "statement": (f"now I need the same for {s}.",),
    }
    forms.update(own or {})
    if choice:
        forms["choice"] = choice
    if guess:
        forms["guess"] = guess
    return Core(
        tuple(expect),
        forms,
        slots or {},
        reasons=reasons,
        numeric=numeric,
        numbers=tuple(numbers),
        options=options,
        homophone=homophone,
        protect=protect,
    )


OTHER_FACT = {
    "capital": {
        "q": ("and what's its capital?", "and which city is the capital there?"),
        "np": ("its capital", "the capital there"),
        "emb": ("what its capital is", "which city is the capital there"),
        "elided": ("and the capital?", "capital there?"),
        "front": ("the capital — which city is it?",),
        "nominal": ("and which city is it governed from?",),
        "reorder": ("there, which city is the capital?",),
        "choice": ("and is its capital <x> or <y>?",),
        "guess": ("and its capital's <g>, isn't it?",),
    },
    "currency": {
        "q": ("and what currency do they use there?", "and what's the money there?"),
        "np": ("the currency there", "its currency"),
        "emb": ("what currency they use there",),
        "elided": ("and the currency?", "currency there?"),
        "front": ("the money there — what's it called?",),
        "nominal": ("and what currency is used there?",),
        "reorder": ("there, what do they pay with?",),
        "choice": ("and is the currency there the <x> or the <y>?",),
        "guess": ("and they pay with the <g> there, don't they?",),
    },
    "language": {
        "q": ("and what language do they speak there?", "and what do people speak there?"),
        "np": ("the language there", "the language they speak there"),
        "emb": ("what language they speak there",),
        "elided": ("and the language?", "language there?"),
        "front": ("the language there — what is it?",),
        "nominal": ("and what's spoken there?",),
        "reorder": ("over there, what language do people speak?",),
        "choice": ("and do they speak <x> or <y> there?",),
        "guess": ("and they speak <g> there, don't they?",),
    },
    "continent": {
        "q": ("and which continent is it in?",),
        "np": ("the continent it's in",),
        "emb": ("which continent it's in",),
        "elided": ("and the continent?",),
        "front": ("the continent — which one is it?",),
        "nominal": ("and which continent is it found in?",),
        "reorder": ("on the map, which continent is it in?",),
        "choice": ("and is it in <x> or <y>?",),
        "guess": ("and it's in <g>, isn't it?",),
    },
}  # fmt: skip
NEXT_FORMS = {  # the next or the one before, of planets, months, days
    1: {"q": ("and which one comes after it?", "and what comes next?"),
        "np": ("the next one", "the one after that"),
        "emb": ("which one comes next", "what comes after that"),
        "elided": ("and the next one?", "and after that?"),
        "front": ("the next one — which is it?", "the one after — what's that?"),
        "nominal": ("and which one is found next?", "and the one that follows, please?"),
        "reorder": ("after that, which one comes?", "and straight after it, what comes?"),
        "choice": ("and is the next one <x> or <y>?",),
        "guess": ("and the next one's <g>, isn't it?",)},
    -1: {"q": ("and which one comes before it?", "and what comes before that?"),
         "np": ("the one before", "the one before that"),
         "emb": ("which one comes before it", "what comes before that"),
         "elided": ("and the one before?", "and before that?"),
         "front": ("the one before — which is it?",),
         "nominal": ("and which one is found before it?", "and the one preceding it?"),
         "reorder": ("before that, which one comes?", "and just before it, what comes?"),
         "choice": ("and is the one before <x> or <y>?",),
         "guess": ("and the one before is <g>, isn't it?",)},
}  # fmt: skip
OP_FORMS = {  # another operation on the last result: (value, forms)
    "times": (lambda r, k: r * k, {
        "q": ("and what's that times <k>?",), "np": ("that times <k>",),
        "emb": ("what that is times <k>",), "act": ("multiply that by <k>",),
        "elided": ("times <k>?",), "front": ("that answer — what's it times <k>?",),
        "nominal": ("and that multiplied by <k>?",)}),
    "plus": (lambda r, k: r + k, {
        "q": ("and what's that plus <k>?",), "np": ("that plus <k>",),
        "emb": ("what that is plus <k>",), "act": ("add <k> to that",),
        "elided": ("plus <k>?",), "front": ("that answer — add <k> to it.",),
        "nominal": ("and that with <k> added?",), "reorder": ("to that, add <k>.",)}),
    "minus": (lambda r, k: r - k, {
        "q": ("and what's that minus <k>?",), "np": ("that minus <k>",),
        "emb": ("what that is minus <k>",), "act": ("take <k> away from that",),
        "elided": ("minus <k>?",), "front": ("that answer — take <k> off it.",),
        "nominal": ("and that with <k> taken away?",), "reorder": ("from that, take away <k>.",)}),
    "divide": (lambda r, k: r / k, {
        "q": ("and what's that divided by <k>?",), "np": ("that divided by <k>",),
        "emb": ("what that is divided by <k>",), "act": ("divide that by <k>",),
        "elided": ("divided by <k>?",), "front": ("that answer — divide it by <k>.",),
        "nominal": ("and that, once it's divided by <k>?",)}),
    "double": (lambda r, k: r * 2, {
        "q": ("and what's double that?",), "np": ("double that",), "emb": ("what double that is",),
        "act": ("double it",), "elided": ("doubled?",), "front": ("that number — double it.",),
        "nominal": ("and that, doubled?",)}),
    "half": (lambda r, k: r / 2, {
        "q": ("and what's half of that?",), "np": ("half of that",),
        "emb": ("what half of that is",), "act": ("halve it",), "elided": ("half that?",),
        "front": ("that answer — halve it.",), "nominal": ("and that, halved?",)}),
    "square": (lambda r, k: r * r, {
        "q": ("and what's that squared?",), "np": ("that squared",),
        "emb": ("what that is squared",), "act": ("square it",), "elided": ("squared?",),
        "front": ("that number — square it.",), "nominal": ("and that, once it's squared?",)}),
}  # fmt: skip
SPELL_AGAIN = {
    "q": ("and how about <w>?", "and what about <w>, then?"),
    "np": ("<w> as well", "<w> spelt out too"),
    "emb": ("how <w> goes", "how you spell <w>, too"),
    "act": ("now do <w>", "spell <w> as well"),
    "front": ("<w> — that one as well?", "<w>, can you do that one too?"),
    "nominal": ("and how's <w> spelt?", "and <w> — how's that one spelt?"),
    "reorder": ("after that, spell <w>.", "next, letter by letter, <w>."),
    "tag": ("you can do <w> too, can't you?",),
    "statement": ("now I need <w> as well.",),
}  # fmt: skip
LEFT_FORMS = {
    "q": ("how much time's left on it?", "how long has it got left?"),
    "np": ("the time left on it", "the time left on that timer"),
    "emb": ("how long is left on it", "how much time that timer has left"),
    "act": ("tell me how long's left on it",),
    "elided": ("time left?", "how long left on it?"),
    "front": ("that timer — how long has it got left?",),
    "nominal": ("the time remaining on it, please.",),
    "reorder": ("on that timer, how much is left?",),
}  # fmt: skip


def _follow_up(b: _Builder, what: str) -> tuple[Core, Core]:
    rng = b.rng
    if what == "country":
        attr = b.pool("follow-up attrs", ATTRS).take()
        c1 = b.pool("follow-up countries", COUNTRIES).take()
        a1 = answer(c1, attr)
        c2 = b.pool("follow-up countries", COUNTRIES).take(
            lambda o: answer(o, attr) != a1 and asked(o, attr)
        )
        a2 = answer(c2, attr)
        w = b.pool("wrong countries", COUNTRIES).take(lambda o: answer(o, attr) not in (a1, a2))
        decoy = _decoy(c2, attr)
        if decoy == a1:
            decoy = None
        choice = ("and for <c>, is it <x> or <y>?",) if decoy else ()
        guess = (f"and for <c> it's {'the ' if attr == 'currency' else ''}<g>, isn't it?",)
        first = _country(b, attr, c1)
        return first, _again(
            expected(c2, attr),
            "c",
            R_COUNTRY,
            options=(a2, decoy) if decoy else None,
            slots={"c": Slot(_surface(rng, c2), _surface(rng, w))},
            choice=choice,
            guess=guess if decoy else (),
            homophone=True,
        )
    if what == "other fact":
        others = ("currency", "language", "continent")
        c = b.pool("other-fact countries", COUNTRIES).take(
            lambda o: any(unique(a, o) and asked(o, a) for a in others)
        )
        a2 = rng.choice([a for a in others if unique(a, c) and asked(c, a)] + ["capital"])
        a1 = rng.choice([a for a in ATTRS if a != a2])
        right, decoy = answer(c, a2), _decoy(c, a2)
        forms = dict(OTHER_FACT[a2])
        if not decoy:
            forms.pop("choice")
            forms.pop("guess")
        return _country(b, a1, c), Core(
            expected(c, a2),
            forms,
            reasons=R_COUNTRY,
            homophone=True,
            options=(right, decoy) if decoy else None,
        )
    if what == "planet":
        n = b.pool("follow-up orders", range(2, 8)).take()
        step = rng.choice((1, -1))
        right, decoy = BY_ORDER[n + step], BY_ORDER[n - step]
        first = _planet(b, "nth")
        first.slots["n"] = Slot(
            n, rng.choice([o for o in range(1, 9) if o not in (n, n + step)]), ordinal=True
        )
        first.expect = (BY_ORDER[n],)
        return first, Core((right,), NEXT_FORMS[step], reasons=R_PLANET, options=(right, decoy))
    if what in ("month", "day"):
        first = _calendar(b, what)
        names = MONTHS if what == "month" else WEEKDAYS
        i = names.index(first.expect[0])
        d = names.index(first.slots["d"].value)
        step = 1 if (d + 1) % len(names) == i else -1
        right, decoy = names[(i + step) % len(names)], names[(i + 2 * step) % len(names)]
        near = {names[(d + k * step) % len(names)] for k in range(4)}  # the first turn's wrong
        first.slots["d"].wrong = rng.choice([n for n in names if n not in near])  # not these
        return first, Core((right,), NEXT_FORMS[step], reasons=R_CALENDAR, options=(right, decoy))
    if what == "days in":
        first = _calendar(b, "days")
        m1 = MONTHS.index(first.slots["m"].value)
        m2 = rng.choice([o for o in range(12) if MONTH_DAYS[o] != MONTH_DAYS[m1]])
        w = rng.choice(
            [o for o in range(12) if MONTH_DAYS[o] not in (MONTH_DAYS[m1], MONTH_DAYS[m2])]
        )
        expect = (f"{int_words(MONTH_DAYS[m2])} days",) + (("twenty nine days",) if m2 == 1 else ())
        return first, _again(
            expect,
            "m",
            R_CALENDAR[1:],
            numeric=True,
            slots={"m": Slot(MONTHS[m2], MONTHS[w])},
        )
    if what == "conversion":
        first, conv = _units(b)
        src, tgt, amounts = conv
        n = first.slots["n"].value
        m, w = rng.sample([a for a in amounts if a != n], 2)
        unit = UNITS[src][:2] if rng.random() < 0.5 else ("", "")
        return first, _again(
            number(convert(src, tgt, m)),
            "n",
            reasons_for(src),
            numeric=True,
            numbers=(convert(src, tgt, n),),
            slots={"n": Slot(m, w, unit)},
        )
    if what == "operation":
        op = b.pool("follow-up ops", tuple(OP_FORMS)).take()
        first = _arithmetic(b, rng.choice(("add", "sub", "mul", "div", "sq")))
        r = first.value
        k, w = rng.sample(range(3, 13), 2)
        if op == "divide":
            ks = [d for d in range(3, 13) if r % d == 0]
            if len(ks) < 2:
                return _follow_up(b, what)
            k, w = rng.sample(ks, 2)
        if (op == "square" and r > 60) or (op == "minus" and r - k < 10):
            return _follow_up(b, what)
        fn, forms = OP_FORMS[op]
        value = fn(r, k)
        slots = {"k": Slot(k, w)} if "<k>" in forms["q"][0] else {}
        return first, Core(
            number(value), dict(forms), slots, ask=True, reasons=R_SUM, numeric=True, numbers=(r,)
        )
    if what == "spell":
        first = _spelling(b)
        w2 = b.pool("words", WORDS).take(
            lambda v: v not in (first.slots["w"].value, first.slots["w"].wrong)
        )
        wrong = b.pool("wrong words", WORDS).take(lambda v: v not in (w2, first.protect))
        return first, _again(
            (letters(w2),), "w", R_SPELL, slots={"w": Slot(w2, wrong)}, protect=w2, own=SPELL_AGAIN
        )
    if what == "until":
        first = _clock(b, "until")
        got = first.expect[0]
        name, d = _day_names(b)
        while _until(b.today, d) == got or name in (first.slots["h"].value,
                                                     first.slots["h"].wrong):  # fmt: skip
            name, d = _day_names(b)
        wrong, wd = _day_names(b)
        while _until(b.today, wd) in (got, _until(b.today, d)):
            wrong, wd = _day_names(b)
        return first, _again((_until(b.today, d),), "h", R_UNTIL, slots={"h": Slot(name, wrong)})
    first, seconds = _timer(b, unit="minute")
    while seconds < 300:
        first, seconds = _timer(b, unit="minute")
    m = seconds // 60
    expect = (duration(seconds), f"{int_words(m - 1)} minutes", f"{int_words(m - 2)} minutes")
    return first, Core(expect, dict(LEFT_FORMS), reasons=R_TIMER, no_repeat=True)


# --- refusals ---------------------------------------------------------------------------------
R_REFUSE = ("I've got my hands full", "I'm in the bath", "I'm about to head out",
            "the baby's asleep", "I'm in a rush")  # fmt: skip
REFUSALS = (
    dict(q=("is it going to rain tomorrow?",), np=("tomorrow's weather forecast",),
         emb=("whether it's going to rain tomorrow",), act=("give me tomorrow's forecast",),
         elided=("rain tomorrow?",), front=("tomorrow — is it going to rain?",),
         nominal=("the forecast for tomorrow, please.",),
         reorder=("tomorrow afternoon, will it be raining?",)),
    dict(ask=False, q=("switch off the lights in the living room.",),
         np=("the living room lights off",), act=("switch the living room lights off",),
         elided=("living room lights off.",), front=("the living room lights — switch them off.",),
         nominal=("could the lights in the living room be switched off?",),
         reorder=("in the living room, switch the lights off.",)),
    dict(ask=False, q=("turn the heating up a bit.",), np=("the heating turned up a bit",),
         act=("turn the heating up a bit",), elided=("heating up a bit.",),
         front=("the heating — turn it up a bit.",), nominal=("could the heating be turned up?",),
         reorder=("a bit warmer in here, please — turn the heating up.",)),
    dict(ask=False, q=("ring my <who>.",), np=("a call to my <who>",), act=("ring my <who>",),
         elided=("call my <who>.",), front=("my <who> — give them a ring.",),
         nominal=("could a call be put through to my <who>?",),
         reorder=("on the mobile, ring my <who>.",), who=("sister", "brother")),
    dict(ask=False, q=("send my <who> a text saying I'm running late.",),
         np=("a text to my <who> saying I'm running late",),
         act=("text my <who> that I'm running late",), elided=("text to my <who>: running late.",),
         front=("my <who> — text them that I'm running late.",),
         nominal=("could a message be sent to my <who> saying I'm running late?",),
         reorder=("saying I'm running late, send my <who> a text.",), who=("dad", "mum")),
    dict(ask=False, q=("play some <who>.",), np=("some <who> on",), act=("put some <who> on",),
         elided=("<who>, please.",), front=("<who> — can you put some on?",),
         nominal=("could some <who> be played in here?",),
         reorder=("in the kitchen, play some <who>.",), who=("jazz", "reggae")),
    dict(ask=False, q=("put the radio on.",), np=("the radio on",), act=("switch the radio on",),
         elided=("radio on.",), front=("the radio — put it on.",),
         nominal=("could the radio be put on?",), reorder=("quietly, put the radio on.",)),
    dict(q=("what's in the news this morning?",), np=("this morning's headlines",),
         emb=("what's in the news this morning",), act=("read me the headlines",),
         elided=("headlines this morning?",), front=("the news — what's happening this morning?",),
         nominal=("the morning headlines, please.",),
         reorder=("this morning, what's in the news?",)),
    dict(q=("what was the score in the football last night?",), np=("last night's football score",),
         emb=("what the score was in the football last night",),
         act=("tell me last night's football score",), elided=("football score from last night?",),
         front=("last night's match — what was the score?",),
         nominal=("who was last night's match won by?",),
         reorder=("last night, who won the football?",)),
    dict(ask=False, q=("order us a curry from the takeaway.",), np=("a curry from the takeaway",),
         act=("order a curry from the takeaway",), elided=("curry from the takeaway, please.",),
         front=("the takeaway — order us a curry from there.",),
         nominal=("could a curry be ordered from the takeaway?",),
         reorder=("from the takeaway, order us a curry.",)),
    dict(ask=False, q=("book a table at the <who> place for tonight.",),
         np=("a table at the <who> place tonight",),
         act=("book us a table at the <who> place tonight",),
         elided=("table at the <who> place tonight.",),
         front=("the <who> place — book us a table tonight.",),
         nominal=("could a table be booked at the <who> place tonight?",),
         reorder=("for tonight, book a table at the <who> place.",), who=("Italian", "Thai")),
    dict(ask=False, q=("get me a taxi to the station.",), np=("a taxi to the station",),
         act=("call me a taxi to the station",), elided=("taxi to the station.",),
         front=("the station — get me a taxi there.",),
         nominal=("could a taxi be sent to take me to the station?",),
         reorder=("to the station, get me a taxi.",)),
    dict(q=("is the motorway busy this morning?",),
         np=("the traffic on the motorway this morning",),
         emb=("whether the motorway's busy this morning",),
         act=("check the traffic on the motorway",), elided=("motorway traffic this morning?",),
         front=("the motorway — is it busy this morning?",),
         nominal=("the traffic report for the motorway, please.",),
         reorder=("this morning, is the motorway busy?",)),
    dict(q=("when's the next train into town?",), np=("the time of the next train into town",),
         emb=("when the next train into town is",), act=("check when the next train into town is",),
         elided=("next train into town?",), front=("the next train into town — when is it?",),
         nominal=("the departure time of the next train into town, please.",),
         reorder=("into town, when's the next train?",)),
    dict(ask=False, q=("read me my latest email.",), np=("my latest email",),
         act=("read out my latest email",), elided=("latest email?",),
         front=("my emails — read me the newest.",),
         nominal=("could my latest email be read out?",),
         reorder=("out loud, read me my latest email.",)),
    dict(ask=False, q=("show me who's at the front door.",), np=("the doorbell camera",),
         act=("show me the doorbell camera",), elided=("who's at the door?",),
         front=("the front door — who's there?",), nominal=("could the doorbell camera be shown?",),
         reorder=("at the front door, who's there?",)),
    dict(ask=False, q=("lock the back door.",), np=("the back door locked",),
         act=("lock the back door",), elided=("back door, lock it.",),
         front=("the back door — lock it for me.",), nominal=("could the back door be locked?",),
         reorder=("before bed, lock the back door.",)),
    dict(q=("what's on the telly tonight?",), np=("the telly listings for tonight",),
         emb=("what's on the telly tonight",), act=("tell me what's on the telly tonight",),
         elided=("telly tonight?",), front=("the telly — anything good on tonight?",),
         nominal=("the telly listings for tonight, please.",),
         reorder=("tonight, what's on the telly?",)),
    dict(q=("how much is petrol at the moment?",), np=("the price of petrol right now",),
         emb=("how much petrol costs at the moment",), act=("check the price of petrol",),
         elided=("petrol prices today?",), front=("petrol — how much is it at the moment?",),
         nominal=("what's petrol being sold for at the moment?",),
         reorder=("at the moment, how much is petrol?",)),
    dict(ask=False, q=("find me a plumber nearby.",), np=("a plumber nearby",),
         act=("find a plumber near here",), elided=("plumber nearby?",),
         front=("a plumber — can you find one near here?",),
         nominal=("could a plumber near here be found for me?",),
         reorder=("near here, find me a plumber.",)),
    dict(q=("how do I get to the nearest cash machine?",),
         np=("directions to the nearest cash machine",),
         emb=("how I get to the nearest cash machine",),
         act=("direct me to the nearest cash machine",), elided=("nearest cash machine?",),
         front=("the nearest cash machine — how do I get there?",),
         nominal=("how is the nearest cash machine reached from here?",),
         reorder=("from here, how do I get to the nearest cash machine?",)),
    dict(ask=False, q=("download the latest episode of my podcast.",),
         np=("the latest episode of my podcast",), act=("download my podcast's newest episode",),
         elided=("newest podcast episode, please.",),
         front=("my podcast — download the new episode.",),
         nominal=("could the latest episode of my podcast be downloaded?",),
         reorder=("onto my phone, download the latest podcast episode.",)),
    dict(q=("how are my shares doing today?",), np=("today's share prices",),
         emb=("how my shares are doing today",), act=("check my shares",),
         elided=("share prices today?",), front=("my shares — how are they doing today?",),
         nominal=("the share prices for today, please.",),
         reorder=("today, how are my shares doing?",)),
    dict(ask=False, q=("search the internet for cheap flights.",),
         np=("a search for cheap flights online",), act=("look up cheap flights online",),
         elided=("cheap flights online?",), front=("cheap flights — can you search online?",),
         nominal=("could cheap flights be looked up online?",),
         reorder=("online, look up cheap flights.",)),
)  # fmt: skip


def _refusal(b: _Builder, i: int) -> Core:
    spec = dict(REFUSALS[i % len(REFUSALS)])
    ask = spec.pop("ask", True)
    slots = {}
    if "who" in spec:
        who = list(spec.pop("who"))
        b.rng.shuffle(who)
        slots["who"] = Slot(who[0], who[1])
    return Core(
        (),
        {k: tuple(v) for k, v in spec.items()},
        slots,
        ask=ask,
        reasons=R_REFUSE,
        homophone=True,
        no_repeat=True,
    )


# --- the set ----------------------------------------------------------------------------------
PLANS = {
    "clock": ("time",) * 4
    + ("date",) * 4
    + ("weekday",) * 3
    + ("tomorrow",) * 2
    + ("year",) * 2
    + ("until",) * 9,
    "timer": ("timer",) * 15 + ("remind",) * 9,
    "arithmetic": (OPS * 3)[:27],
    "units": ("units",) * 27,
    "spelling": ("spell",) * 24,
    "facts": ("capital",) * 5
    + ("continent",) * 4
    + ("language",) * 4
    + ("currency",) * 5
    + ("order", "nth", "most", "moons") * 3
    + ("day", "month") * 3
    + ("days", "number"),
    "follow-up": ("country",) * 9
    + ("other fact",) * 6
    + ("planet",) * 3
    + ("month", "day") * 2
    + ("days in",) * 2
    + ("conversion",) * 4
    + ("operation",) * 5
    + ("spell", "until") * 2
    + ("timer",) * 3,
    "refusal": tuple(range(24)),
}


def _make(b: _Builder, kind: str, what) -> Callable[[], Core | tuple[Core, Core]]:
    if kind == "clock":
        return lambda: _clock(b, what)
    if kind == "timer":
        return lambda: _timer(b, remind=what == "remind")[0]
    if kind == "arithmetic":
        return lambda: _arithmetic(b, what)
    if kind == "units":
        return lambda: _units(b)[0]
    if kind == "spelling":
        return lambda: _spelling(b)
    if kind == "facts":
        if what in ATTRS:
            return lambda: _country(b, what)
        if what in ("order", "nth", "most", "moons"):
            return lambda: _planet(b, what)
        return lambda: _calendar(b, what)
    if kind == "follow-up":
        return lambda: _follow_up(b, what)
    return lambda: _refusal(b, what)


def built(seed: int = SEED, now: datetime | None = None
          ) -> list[tuple[Request, tuple[tuple[str, ...], ...]]]:  # fmt: skip
    """Each request with the transformations drawn for each of its turns."""
    rng = random.Random(seed)
    b = _Builder(rng, now or datetime.now())
    for kind in KINDS:
        plan = list(PLANS[kind])
        assert len(plan) == COUNTS[kind], (kind, len(plan))
        rng.shuffle(plan)
        for what in plan:
            timer = kind == "timer" or (kind == "follow-up" and what == "timer")
            b.add(kind, _make(b, kind, what), CLEAR if timer else ())
    return b.rows


def transforms(seed: int = SEED, now: datetime | None = None) -> list[Request]:
    """The transforms set: the same ``seed`` gives the same requests; clock answers are for
    ``now`` (default: the real clock)."""
    return [q for q, _ in built(seed, now)]
