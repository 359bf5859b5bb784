"""The rest of the world's countries (words/world.py): none repeats one the demo model learned,
every name says one country, the facts are written as :mod:`words.facts` writes them, and a
table of facts checked by hand."""

from __future__ import annotations

import re

import pytest

from words.facts import AF, AS, COUNTRIES, EU, NA, OC, SA
from words.world import ALL_COUNTRIES, NATIONS, WORLD

CONTINENTS = {EU, AS, AF, NA, SA, OC, "both Europe and Asia"}
LEARNED = ("Kenya", "Nigeria", "Egypt", "the Netherlands", "Holland", "the United States",
           "Turkey", "Russia", "Australia", "Brazil", "Korea")  # fmt: skip


def _key(name: str) -> str:
    """A name as the facts tool reads it: lower case, punctuation as spaces, no leading "the"."""
    s = " ".join(re.sub(r"[^a-z0-9]+", " ", name.lower()).split())
    return s.removeprefix("the ")


def test_all_countries_is_both_tables_and_the_four_nations():
    assert ALL_COUNTRIES == COUNTRIES + WORLD + NATIONS
    # every UN member state (193) plus Vatican City, Kosovo, Taiwan and Palestine
    assert len(COUNTRIES + WORLD) == 197
    assert [c.name for c in NATIONS] == ["England", "Scotland", "Wales", "Northern Ireland"]


def test_no_country_of_the_demo_model_is_repeated():
    learned = {_key(s) for c in COUNTRIES for s in c.surfaces}
    again = [s for c in WORLD for s in c.surfaces if _key(s) in learned]
    assert not again
    for name in LEARNED:
        assert not [c for c in WORLD if _key(name) in map(_key, c.surfaces)], name


def test_every_name_says_one_country():
    surfaces = [s.lower() for c in ALL_COUNTRIES for s in c.surfaces]
    assert len(surfaces) == len(set(surfaces))
    country_of: dict[str, str] = {}  # also "Netherlands" and "the Netherlands" as the tool reads
    for c in ALL_COUNTRIES:
        for s in c.surfaces:
            assert country_of.setdefault(_key(s), c.name) == c.name, (s, country_of[_key(s)])


def test_the_facts_are_written_as_words_facts_writes_them():
    for c in ALL_COUNTRIES:
        assert c.continent in CONTINENTS, c.name
        assert c.currency.startswith("the "), c.name
        assert c.name and c.capital and c.language, c.name
        for text in (c.name, *c.aliases, c.capital, c.language, c.currency):
            assert text.isascii(), text
            assert text == text.strip() and "  " not in text, text
        # "French", "Hindi and English", "German, French and Italian"
        parts = re.split(r", | and ", c.language)
        assert all(p[:1].isupper() for p in parts), c.language


WORLD_FACTS = [  # name, capital, continent, language, currency
    ("Peru", "Lima", SA, "Spanish", "the sol"),
    ("Chile", "Santiago", SA, "Spanish", "the Chilean peso"),
    ("Colombia", "Bogota", SA, "Spanish", "the Colombian peso"),
    ("Ecuador", "Quito", SA, "Spanish", "the US dollar"),
    ("Vietnam", "Hanoi", AS, "Vietnamese", "the dong"),
    ("the Philippines", "Manila", AS, "Filipino and English", "the Philippine peso"),
    ("Indonesia", "Jakarta", AS, "Indonesian", "the rupiah"),
    ("Pakistan", "Islamabad", AS, "Urdu and English", "the Pakistani rupee"),
    ("Saudi Arabia", "Riyadh", AS, "Arabic", "the Saudi riyal"),
    ("the United Arab Emirates", "Abu Dhabi", AS, "Arabic", "the UAE dirham"),
    ("Kazakhstan", "Astana", "both Europe and Asia", "Kazakh and Russian", "the tenge"),
    ("Myanmar", "Naypyidaw", AS, "Burmese", "the kyat"),
    ("Ghana", "Accra", AF, "English", "the cedi"),
    ("Ethiopia", "Addis Ababa", AF, "Amharic", "the birr"),
    ("South Africa", "Pretoria", AF, "Zulu, Xhosa, Afrikaans and English", "the rand"),
    ("Tanzania", "Dodoma", AF, "Swahili and English", "the Tanzanian shilling"),
    ("the Ivory Coast", "Yamoussoukro", AF, "French", "the West African CFA franc"),
    ("Iceland", "Reykjavik", EU, "Icelandic", "the Icelandic krona"),
    ("Austria", "Vienna", EU, "German", "the euro"),
    ("Denmark", "Copenhagen", EU, "Danish", "the Danish krone"),
    ("the Czech Republic", "Prague", EU, "Czech", "the Czech koruna"),
    ("Hungary", "Budapest", EU, "Hungarian", "the forint"),
    ("Ukraine", "Kyiv", EU, "Ukrainian", "the hryvnia"),
    ("Cyprus", "Nicosia", EU, "Greek and Turkish", "the euro"),
    ("Cuba", "Havana", NA, "Spanish", "the Cuban peso"),
    ("Jamaica", "Kingston", NA, "English", "the Jamaican dollar"),
    ("Panama", "Panama City", NA, "Spanish", "the balboa and the US dollar"),
    ("New Zealand", "Wellington", OC, "English and Maori", "the New Zealand dollar"),
    ("Fiji", "Suva", OC, "English, Fijian and Hindi", "the Fijian dollar"),
]


@pytest.mark.parametrize(("name", "capital", "continent", "language", "currency"), WORLD_FACTS)
def test_facts_checked_by_hand(name, capital, continent, language, currency):
    (c,) = [c for c in WORLD if c.name == name]
    assert (c.capital, c.continent, c.language, c.currency) == (capital, continent, language,
                                                                currency)  # fmt: skip


ALIASES = [
    ("Czechia", "the Czech Republic"), ("the UAE", "the United Arab Emirates"),
    ("Burma", "Myanmar"), ("Swaziland", "Eswatini"), ("East Timor", "Timor-Leste"),
    ("the DRC", "the Democratic Republic of the Congo"),
    ("Congo-Kinshasa", "the Democratic Republic of the Congo"),
    ("Congo-Brazzaville", "the Republic of the Congo"), ("Cote d'Ivoire", "the Ivory Coast"),
    ("Cabo Verde", "Cape Verde"), ("the DPRK", "North Korea"), ("the Vatican", "Vatican City"),
]  # fmt: skip


@pytest.mark.parametrize(("alias", "name"), ALIASES)
def test_the_names_people_say(alias, name):
    assert [c.name for c in WORLD if alias in c.aliases] == [name]


def test_the_congos_and_the_koreas_stay_apart():
    by_name = {c.name: c for c in ALL_COUNTRIES}
    assert by_name["the Democratic Republic of the Congo"].capital == "Kinshasa"
    assert by_name["the Republic of the Congo"].capital == "Brazzaville"
    assert by_name["North Korea"].capital == "Pyongyang"
    assert by_name["South Korea"].capital == "Seoul"
    assert by_name["Niger"].capital == "Niamey" and by_name["Nigeria"].capital == "Abuja"
