"""Fact tables behind the demo corpus: countries, planets, calendar, words to spell, jokes.

Kept to facts that are stable and uncontroversial, because the demo model will repeat them
verbatim. Country names carry their spoken variants (``"the UK"``, ``"Britain"``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Country:
    """One country: the name used in replies, other names people say, and a few facts."""

    name: str  # as used in replies, e.g. "the United States"
    aliases: tuple[str, ...]
    capital: str
    continent: str
    language: str  # "French", or "Hindi and English"
    currency: str  # with article, as said after "is": "the euro"

    @property
    def surfaces(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)


def _c(name: str, capital: str, continent: str, language: str, currency: str, *aliases: str):
    return Country(name, aliases, capital, continent, language, currency)


EU, AS, AF, NA, SA, OC = (
    "Europe", "Asia", "Africa", "North America", "South America", "Oceania"
)  # fmt: skip

COUNTRIES: tuple[Country, ...] = (
    _c("France", "Paris", EU, "French", "the euro"),
    _c("Germany", "Berlin", EU, "German", "the euro"),
    _c("Italy", "Rome", EU, "Italian", "the euro"),
    _c("Spain", "Madrid", EU, "Spanish", "the euro"),
    _c("Portugal", "Lisbon", EU, "Portuguese", "the euro"),
    _c("the Netherlands", "Amsterdam", EU, "Dutch", "the euro", "Netherlands", "Holland"),
    _c("Greece", "Athens", EU, "Greek", "the euro"),
    _c("Ireland", "Dublin", EU, "English and Irish", "the euro"),
    _c("the United Kingdom", "London", EU, "English", "the pound sterling", "the UK", "Britain"),
    _c("Switzerland", "Bern", EU, "German, French and Italian", "the Swiss franc"),
    _c("Norway", "Oslo", EU, "Norwegian", "the Norwegian krone"),
    _c("Sweden", "Stockholm", EU, "Swedish", "the Swedish krona"),
    _c("Poland", "Warsaw", EU, "Polish", "the zloty"),
    _c("Russia", "Moscow", "both Europe and Asia", "Russian", "the ruble"),
    _c("Turkey", "Ankara", "both Europe and Asia", "Turkish", "the Turkish lira"),
    _c("Egypt", "Cairo", AF, "Arabic", "the Egyptian pound"),
    _c("Kenya", "Nairobi", AF, "Swahili and English", "the Kenyan shilling"),
    _c("Nigeria", "Abuja", AF, "English", "the naira"),
    _c("Morocco", "Rabat", AF, "Arabic and Berber", "the dirham"),
    _c("Japan", "Tokyo", AS, "Japanese", "the yen"),
    _c("China", "Beijing", AS, "Chinese", "the yuan"),
    _c("India", "New Delhi", AS, "Hindi and English", "the Indian rupee"),
    _c("South Korea", "Seoul", AS, "Korean", "the won", "Korea"),
    _c("Thailand", "Bangkok", AS, "Thai", "the baht"),
    _c("the United States", "Washington, D.C.", NA, "English", "the US dollar",
       "the US", "the USA", "America", "the United States of America"),
    _c("Canada", "Ottawa", NA, "English and French", "the Canadian dollar"),
    _c("Mexico", "Mexico City", NA, "Spanish", "the Mexican peso"),
    _c("Brazil", "Brasilia", SA, "Portuguese", "the real"),
    _c("Argentina", "Buenos Aires", SA, "Spanish", "the Argentine peso"),
    _c("Australia", "Canberra", OC, "English", "the Australian dollar"),
)  # fmt: skip


@dataclass(frozen=True)
class Planet:
    name: str
    order: int  # 1 = closest to the Sun
    kind: str  # "a rocky planet", "a gas giant", "an ice giant"
    moons: str  # a whole reply sentence
    moons_answer: str


PLANETS: tuple[Planet, ...] = (
    Planet("Mercury", 1, "a rocky planet", "Mercury has no moons.", "no moons"),
    Planet("Venus", 2, "a rocky planet", "Venus has no moons.", "no moons"),
    Planet("Earth", 3, "a rocky planet", "Earth has one moon, called the Moon.", "one moon"),
    Planet("Mars", 4, "a rocky planet", "Mars has two small moons, Phobos and Deimos.",
           "two small moons"),
    Planet("Jupiter", 5, "a gas giant", "Jupiter has dozens of moons, and the biggest is Ganymede.",
           "Ganymede"),
    Planet("Saturn", 6, "a gas giant", "Saturn has over a hundred moons, and the biggest is Titan.",
           "Titan"),
    Planet("Uranus", 7, "an ice giant", "Uranus has over twenty moons, and the biggest is Titania.",
           "Titania"),
    Planet("Neptune", 8, "an ice giant",
           "Neptune has over a dozen moons, and the biggest is Triton.", "Triton"),
)  # fmt: skip

DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTHS = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)  # fmt: skip
MONTH_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)

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
