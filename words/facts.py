"""The world facts the assistant knows by heart and the tools, the training corpus and the
benches share: 30 countries (capital, continent, language, currency, the names people say) and
the eight planets in order. Kept to facts that are stable and uncontroversial, because the demo
model repeats them verbatim and the facts tool (:mod:`voice.tools.facts`) checks its replies
against them."""

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
