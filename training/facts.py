"""Fact tables behind the demo corpus: the countries, planets and calendar of
:mod:`words.facts` and :mod:`words.calendar` (shared with the tools), time counts, words to
spell, jokes.

Kept to facts that are stable and uncontroversial, because the demo model will repeat them
verbatim.
"""

from __future__ import annotations

from words.calendar import MONTH_DAYS, MONTHS  # noqa: F401
from words.calendar import WEEKDAYS as DAYS  # noqa: F401
from words.facts import AF, AS, COUNTRIES, EU, NA, OC, PLANETS, SA, Country, Planet  # noqa: F401

# (unit, period, count, extra words after the count or "")
TIME_COUNTS: tuple[tuple[str, str, int, str], ...] = (
    ("days", "week", 7, ""),
    ("days", "year", 365, ", or three hundred and sixty six in a leap year"),
    ("months", "year", 12, ""),
    ("weeks", "year", 52, ""),
    ("hours", "day", 24, ""),
    ("minutes", "hour", 60, ""),
    ("seconds", "minute", 60, ""),
    ("minutes", "day", 1440, ""),
    ("seconds", "hour", 3600, ""),
    ("days", "fortnight", 14, ""),
    ("years", "decade", 10, ""),
    ("years", "century", 100, ""),
    ("hours", "week", 168, ""),
)

# Common words of 3–6 letters for the spelling intent (each is a fact to memorise).
SPELL_WORDS: tuple[str, ...] = tuple(
    """
    cat dog sun car book tree house water apple green yellow orange school friend family
    music garden window paper table chair river ocean planet rocket animal rabbit tiger zebra
    horse mouse bird fish snake doctor banana lemon bread cheese coffee dinner summer winter
    night happy little phone color city cloud rain snow light party piano voice
    """.split()
)
SPELL_WORDS = tuple(dict.fromkeys(w for w in SPELL_WORDS if 3 <= len(w) <= 6))

# topic → (singular words said before "joke", plural words said after "about", joke, answer)
JOKES: dict[str, tuple[tuple[str, ...], tuple[str, ...], str, str]] = {
    "computers": (
        ("computer",), ("computers", "a computer"),
        "Why did the computer go to the doctor? Because it had a virus.", "virus",
    ),
    "cats": (
        ("cat",), ("cats", "a cat"),
        "What do you call a pile of cats? A meowtain.", "meowtain",
    ),
    "dogs": (
        ("dog",), ("dogs", "a dog"),
        "What do you call a dog magician? A labracadabrador.", "labracadabrador",
    ),
    "math": (
        ("math", "number", "maths"), ("math", "numbers", "maths"),
        "Why was six afraid of seven? Because seven ate nine.", "seven ate nine",
    ),
    "space": (
        ("space", "astronomy"), ("space", "astronauts", "the planets"),
        "How do you throw a party in space? You planet.", "you planet",
    ),
    "music": (
        ("music", "piano"), ("music", "musicians"),
        "Why did the music teacher need a ladder? To reach the high notes.", "high notes",
    ),
    "coffee": (
        ("coffee",), ("coffee", "a cup of coffee"),
        "Why did the coffee call the police? It got mugged.", "mugged",
    ),
    "skeletons": (
        ("skeleton", "halloween"), ("skeletons", "a skeleton"),
        "Why don't skeletons fight each other? They don't have the guts.", "the guts",
    ),
    "robots": (
        ("robot",), ("robots", "a robot"),
        "Why did the robot go on holiday? It needed to recharge its batteries.", "recharge",
    ),
}  # fmt: skip

DEFAULT_JOKE = (
    "Why did the scarecrow win an award? Because he was outstanding in his field.",
    "outstanding in his field",
)
