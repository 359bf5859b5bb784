"""Fact skills: countries, world facts, planets, the calendar and spelling."""

from __future__ import annotations

from training import facts as F
from training.numwords import capitalize, int_words, ordinal_words
from training.skills import Fact, Skill, _follow, _lines, _num, fixed

CAPITAL = _lines(
    """
    What is the capital of {country}?
    What's the capital of {country}?
    What's the capital city of {country}?
    What is the capital city of {country}?
    Capital of {country}?
    Tell me the capital of {country}.
    Do you know the capital of {country}?
    Which city is the capital of {country}?
    What city is the capital of {country}?
    Can you tell me the capital of {country}?
    What is {country}'s capital?
    Name the capital of {country}.
    {country} capital
    What's the capital of {country} called?
    I need the capital of {country}.
    Which city is {country}'s capital?
    Could you tell me what the capital of {country} is?
    Do you happen to know the capital of {country}?
    What's {country}'s capital city?
    The capital of {country} is what?
    I forgot the capital of {country}.
    Remind me what the capital of {country} is.
    In {country}, what is the capital?
    Which city is the seat of government in {country}?
    """
)
CONTINENT = _lines(
    """
    Which continent is {country} in?
    What continent is {country} on?
    What continent is {country} in?
    Where is {country}?
    Where is {country} located?
    On which continent is {country}?
    {country} is on which continent?
    What continent does {country} belong to?
    Where in the world is {country}?
    Which part of the world is {country} in?
    Tell me which continent {country} is on.
    Do you know what continent {country} is in?
    What continent is {country} part of?
    Where's {country}?
    Can you tell me where {country} is?
    Continent of {country}?
    Which continent do you find {country} on?
    Is {country} in Europe?
    """
)
LANGUAGE = _lines(
    """
    What language do they speak in {country}?
    What language is spoken in {country}?
    What do people speak in {country}?
    What's the language of {country}?
    Which language do people in {country} speak?
    What language do people speak in {country}?
    What is the official language of {country}?
    What's the main language in {country}?
    What language would I need in {country}?
    Language of {country}?
    What do they speak in {country}?
    Tell me the language of {country}.
    If I go to {country}, what language will I hear?
    Which language is used in {country}?
    Do you know what language they speak in {country}?
    What languages are spoken in {country}?
    What language should I learn for {country}?
    What's spoken in {country}?
    """
)
CURRENCY = _lines(
    """
    What currency does {country} use?
    What is the currency of {country}?
    What money do they use in {country}?
    Which currency is used in {country}?
    What's the currency in {country}?
    What do they pay with in {country}?
    What kind of money does {country} have?
    {country} currency
    What is {country}'s currency?
    What money should I bring to {country}?
    Currency of {country}?
    What do people pay with in {country}?
    Tell me the currency of {country}.
    What's the money called in {country}?
    Which money do they use in {country}?
    Do you know the currency of {country}?
    What currency should I take to {country}?
    What's the official currency of {country}?
    """
)


def _country_skill(name: str, templates: tuple[str, ...], reply, answer, weight: float) -> Skill:
    facts = tuple(
        Fact(c.name, {"country": c.surfaces}, reply(c), (answer(c),)) for c in F.COUNTRIES
    )
    return Skill(name, "countries", templates, facts, _follow("country"), weight)


def _language_reply(c: F.Country) -> str:
    plural = " and " in c.language
    noun = "languages" if plural else "language"
    verb = "are" if plural else "is"
    return f"The main {noun} of {c.name} {verb} {c.language}."


def country_skills() -> list[Skill]:
    return [
        _country_skill(
            "capital", CAPITAL, lambda c: f"The capital of {c.name} is {c.capital}.",
            lambda c: c.capital, 3.0,
        ),
        _country_skill(
            "continent", CONTINENT, lambda c: capitalize(f"{c.name} is in {c.continent}."),
            lambda c: c.continent, 1.5,
        ),
        _country_skill("language", LANGUAGE, _language_reply, lambda c: c.language, 1.5),
        _country_skill(
            "currency", CURRENCY, lambda c: f"The currency of {c.name} is {c.currency}.",
            lambda c: c.currency.removeprefix("the "), 1.5,
        ),
    ]  # fmt: skip


def world_skills() -> list[Skill]:
    return [
        fixed("largest_country", "world", "Russia is the largest country in the world.", "Russia",
              """
              What is the biggest country in the world?
              What's the largest country?
              Which country is the biggest?
              Which country is the largest by area?
              What's the biggest country on Earth?
              Biggest country in the world?
              Which country covers the most land?
              Tell me the largest country in the world.
              What country is the biggest?
              Do you know the largest country in the world?
              """),
        fixed("most_people", "world", "India has the most people, followed closely by China.",
              "India",
              """
              Which country has the most people?
              What's the most populated country?
              Which country has the biggest population?
              What country has the largest population?
              Most populous country?
              Where do the most people live?
              Which country has the most people in the world?
              What is the most populous country in the world?
              Tell me which country has the most people.
              Which nation has the largest population?
              """),
        fixed("largest_ocean", "world", "The Pacific is the largest ocean on Earth.", "Pacific",
              """
              What is the largest ocean?
              What's the biggest ocean?
              Which ocean is the biggest?
              Which ocean is the largest in the world?
              Biggest ocean on Earth?
              What's the largest ocean on the planet?
              Tell me the biggest ocean.
              Which is the largest ocean?
              Name the largest ocean.
              What ocean is the biggest?
              """),
        fixed("highest_mountain", "world", "Mount Everest is the highest mountain on Earth.",
              "Everest",
              """
              What is the highest mountain in the world?
              What's the tallest mountain?
              Which mountain is the highest?
              Tallest mountain on Earth?
              What's the highest mountain on Earth?
              Which is the tallest mountain in the world?
              Tell me the highest mountain.
              Name the tallest mountain in the world.
              What mountain is the highest?
              Which peak is the highest in the world?
              """),
        fixed("continents", "world", "There are seven continents.", "seven continents",
              """
              How many continents are there?
              How many continents are there in the world?
              What's the number of continents?
              How many continents does the world have?
              Number of continents?
              How many continents are on Earth?
              Tell me how many continents there are.
              How many continents exist?
              Count the continents for me.
              Do you know how many continents there are?
              """),
        fixed("largest_continent", "world", "Asia is the largest continent.", "Asia",
              """
              What is the largest continent?
              What's the biggest continent?
              Which continent is the biggest?
              Which continent is the largest?
              Biggest continent in the world?
              Tell me the largest continent.
              Name the biggest continent.
              What continent is the largest?
              Which is the biggest continent on Earth?
              What's the largest continent in the world?
              """),
        fixed("smallest_country", "world", "Vatican City is the smallest country in the world.",
              "Vatican",
              """
              What is the smallest country in the world?
              What's the smallest country?
              Which country is the smallest?
              Tiniest country in the world?
              Which is the smallest country on Earth?
              Tell me the smallest country.
              What country is the smallest?
              Name the smallest country in the world.
              Which country is the tiniest?
              What's the littlest country in the world?
              """),
    ]  # fmt: skip


PLANET_ORDER = _lines(
    """
    What number planet is {planet}?
    Which planet from the sun is {planet}?
    Where is {planet} in the solar system?
    What position is {planet} from the sun?
    {planet} is which planet from the sun?
    In order from the sun, where is {planet}?
    What's {planet}'s position from the sun?
    Which number is {planet} from the sun?
    What place is {planet} from the sun?
    Counting from the sun, which planet is {planet}?
    How far out is {planet}, in order from the sun?
    Where does {planet} come in the order of the planets?
    Is {planet} the third planet from the sun?
    Tell me where {planet} is in the solar system.
    """
)
PLANET_NTH = _lines(
    """
    Which planet is {nth} from the sun?
    What is the {nth} planet from the sun?
    What's the {nth} planet?
    Name the {nth} planet from the sun.
    Which is the {nth} planet?
    What planet comes {nth} from the sun?
    Tell me the {nth} planet from the sun.
    The {nth} planet from the sun is what?
    Which planet is number {n} from the sun?
    What's planet number {n}?
    What is the {nth} planet in the solar system?
    Which planet is {nth} in line from the sun?
    """
)
PLANET_KIND = _lines(
    """
    What kind of planet is {planet}?
    Is {planet} a gas giant?
    Is {planet} rocky?
    What is {planet} made of?
    What type of planet is {planet}?
    Is {planet} a rocky planet or a gas giant?
    What's {planet} like?
    Describe {planet}.
    Is {planet} made of rock or gas?
    Tell me what kind of planet {planet} is.
    What sort of planet is {planet}?
    Is {planet} solid?
    """
)
PLANET_MOONS = _lines(
    """
    How many moons does {planet} have?
    Does {planet} have moons?
    Does {planet} have any moons?
    How many moons has {planet} got?
    What are the moons of {planet}?
    Number of moons of {planet}?
    Tell me about {planet}'s moons.
    How many moons are there around {planet}?
    Does {planet} have a moon?
    What moons does {planet} have?
    How many moons orbit {planet}?
    Has {planet} got any moons?
    """
)


def planet_skills() -> list[Skill]:
    ps = F.PLANETS
    sfx = "from the Sun"
    return [
        Skill("planet_order", "planets", PLANET_ORDER, tuple(
            Fact(p.name, {"planet": (p.name,)},
                 f"{p.name} is the {ordinal_words(p.order)} planet {sfx}.",
                 (ordinal_words(p.order),)) for p in ps), _follow("planet"), 1.0),
        Skill("planet_nth", "planets", PLANET_NTH, tuple(
            Fact(p.name, {"nth": (ordinal_words(p.order),), "n": _num(p.order)},
                 f"The {ordinal_words(p.order)} planet {sfx} is {p.name}.", (p.name,))
            for p in ps), (), 1.0),
        Skill("planet_kind", "planets", PLANET_KIND, tuple(
            Fact(p.name, {"planet": (p.name,)}, f"{p.name} is {p.kind}.",
                 (p.kind.split(" ", 1)[1],)) for p in ps), _follow("planet"), 0.8),
        Skill("planet_moons", "planets", PLANET_MOONS, tuple(
            Fact(p.name, {"planet": (p.name,)}, p.moons, (p.moons_answer,)) for p in ps),
            _follow("planet"), 0.8),
        fixed("planet_count", "planets", "There are eight planets in the solar system.",
              "eight planets",
              """
              How many planets are there?
              How many planets are in the solar system?
              How many planets does the solar system have?
              Number of planets?
              How many planets go around the sun?
              Tell me how many planets there are.
              How many planets are there in our solar system?
              Count the planets for me.
              What's the number of planets in the solar system?
              How many planets orbit the sun?
              """),
        fixed("largest_planet", "planets", "Jupiter is the largest planet.", "Jupiter",
              """
              What is the largest planet?
              What's the biggest planet?
              Which planet is the biggest?
              Which planet is the largest in the solar system?
              Biggest planet?
              Tell me the largest planet.
              Name the biggest planet in the solar system.
              What planet is the biggest?
              Which is the largest planet?
              What's the largest planet in our solar system?
              """),
        fixed("smallest_planet", "planets", "Mercury is the smallest planet.", "Mercury",
              """
              What is the smallest planet?
              What's the smallest planet?
              Which planet is the smallest?
              Smallest planet in the solar system?
              Tell me the smallest planet.
              Which is the tiniest planet?
              Name the smallest planet.
              What planet is the smallest?
              Which planet is the littlest?
              What's the smallest planet in our solar system?
              """),
        fixed("hottest_planet", "planets", "Venus is the hottest planet.", "Venus",
              """
              What is the hottest planet?
              Which planet is the hottest?
              What's the hottest planet in the solar system?
              Hottest planet?
              Which planet has the highest temperature?
              Tell me the hottest planet.
              What planet is the hottest?
              Which is the warmest planet?
              Name the hottest planet.
              Which planet is hottest?
              """),
        fixed("red_planet", "planets", "Mars is called the red planet.", "Mars",
              """
              Which planet is the red planet?
              What is the red planet?
              What's called the red planet?
              Which planet is red?
              The red planet is which one?
              Which planet is known as the red planet?
              Tell me which planet is the red planet.
              What planet looks red?
              Name the red planet.
              Which planet is reddish?
              """),
        fixed("pluto", "planets", "Pluto is a dwarf planet, so it is not one of the eight planets.",
              "dwarf planet",
              """
              Is Pluto a planet?
              Is Pluto still a planet?
              What is Pluto?
              What happened to Pluto?
              Is Pluto the ninth planet?
              Why isn't Pluto a planet?
              Is Pluto a real planet?
              Tell me about Pluto.
              What kind of thing is Pluto?
              Does Pluto count as a planet?
              """),
        fixed("rings", "planets", "Saturn has the biggest and brightest rings.", "Saturn",
              """
              Which planet has rings?
              What planet has the rings?
              Which planet has the biggest rings?
              Which planet is famous for its rings?
              What's the planet with rings?
              Tell me which planet has rings.
              Which planet has the brightest rings?
              Name the planet with the rings.
              Which planet has beautiful rings?
              What planet is known for rings?
              """),
        fixed("home_planet", "planets", "We live on Earth, the third planet from the Sun.",
              "Earth",
              """
              Which planet do we live on?
              What planet are we on?
              What's our planet called?
              What is the name of our planet?
              Which planet is home?
              What planet do people live on?
              Where do we live in the solar system?
              Which planet is ours?
              What planet is this?
              Tell me the name of our planet.
              """),
    ]  # fmt: skip


DAY_AFTER = _lines(
    """
    What day comes after {day}?
    What day is after {day}?
    Which day follows {day}?
    What's the day after {day}?
    After {day} comes what?
    If today is {day}, what day is tomorrow?
    If it's {day} today, what's tomorrow?
    What comes after {day}?
    Day after {day}?
    What day follows {day}?
    Tell me the day after {day}.
    Which day of the week comes after {day}?
    If today were {day}, what would tomorrow be?
    What is the next day after {day}?
    """
)
DAY_BEFORE = _lines(
    """
    What day comes before {day}?
    What day is before {day}?
    Which day is just before {day}?
    What's the day before {day}?
    Before {day} comes what?
    If today is {day}, what day was yesterday?
    If it's {day} today, what was yesterday?
    What comes before {day}?
    Day before {day}?
    What day precedes {day}?
    Tell me the day before {day}.
    Which day of the week comes before {day}?
    If today were {day}, what would yesterday be?
    What is the day right before {day}?
    """
)
MONTH_AFTER = _lines(
    """
    What month comes after {month}?
    What month is after {month}?
    Which month follows {month}?
    What's the month after {month}?
    After {month} comes which month?
    What comes after {month}?
    Month after {month}?
    Tell me the month after {month}.
    If it's {month} now, what's next month?
    Which month is next after {month}?
    What is the next month after {month}?
    What month follows {month}?
    """
)
MONTH_BEFORE = _lines(
    """
    What month comes before {month}?
    What month is before {month}?
    Which month is just before {month}?
    What's the month before {month}?
    Before {month} comes which month?
    What comes before {month}?
    Month before {month}?
    Tell me the month before {month}.
    If it's {month} now, what was last month?
    Which month precedes {month}?
    What is the month right before {month}?
    What month was before {month}?
    """
)
MONTH_DAYS = _lines(
    """
    How many days are in {month}?
    How many days does {month} have?
    How long is {month}?
    Days in {month}?
    Number of days in {month}?
    How many days has {month} got?
    Tell me how many days are in {month}.
    How many days in the month of {month}?
    What's the number of days in {month}?
    How many days long is {month}?
    How many days are there in {month}?
    Is {month} thirty or thirty one days?
    """
)
MONTH_NUMBER = _lines(
    """
    What number month is {month}?
    Which month of the year is {month}?
    What month number is {month}?
    {month} is which month of the year?
    Where does {month} come in the year?
    Which number month is {month}?
    What's {month}'s number?
    Is {month} the sixth month?
    How many months into the year is {month}?
    Tell me what number month {month} is.
    """
)
NTH_MONTH = _lines(
    """
    What is the {nth} month?
    Which month is the {nth} month of the year?
    What's month number {n}?
    What is the {nth} month of the year?
    Name the {nth} month.
    Which month is month {n}?
    What month is number {n}?
    Tell me the {nth} month of the year.
    What's the {nth} month called?
    Month {n} is which month?
    """
)
TIME_COUNT = _lines(
    """
    How many {unit} are in a {period}?
    How many {unit} are there in a {period}?
    How many {unit} in a {period}?
    How many {unit} does a {period} have?
    Number of {unit} in a {period}?
    How many {unit} make a {period}?
    A {period} has how many {unit}?
    Tell me how many {unit} are in a {period}.
    How many {unit} is one {period}?
    What's the number of {unit} in a {period}?
    How many {unit} are in one {period}?
    In a {period}, how many {unit} are there?
    """
)


def calendar_skills() -> list[Skill]:
    d, m = F.DAYS, F.MONTHS

    def seq(name: str, items, templates, slot: str, step: int, word: str, w: float) -> Skill:
        return Skill(
            name,
            "calendar",
            templates,
            tuple(
                Fact(
                    x,
                    {slot: (x,)},
                    f"The {slot} {word} {x} is {items[(i + step) % len(items)]}.",
                    (items[(i + step) % len(items)],),
                )
                for i, x in enumerate(items)
            ),
            _follow(slot),
            w,
        )

    def month_days(i: int, x: str) -> tuple[str, str]:
        if x == "February":
            return "February has twenty eight days, or twenty nine in a leap year.", "twenty eight"
        n = int_words(F.MONTH_DAYS[i])
        return f"{x} has {n} days.", f"{n} days"

    counts = []
    for unit, period, n, extra in F.TIME_COUNTS:
        counts.append(
            Fact(
                f"{unit}/{period}",
                {"unit": (unit,), "period": (period,)},
                f"There are {int_words(n)} {unit} in a {period}{extra}.",
                (f"{int_words(n)} {unit}",),
            )
        )
    return [
        seq("day_after", d, DAY_AFTER, "day", 1, "after", 0.8),
        seq("day_before", d, DAY_BEFORE, "day", -1, "before", 0.8),
        seq("month_after", m, MONTH_AFTER, "month", 1, "after", 0.8),
        seq("month_before", m, MONTH_BEFORE, "month", -1, "before", 0.8),
        Skill("month_days", "calendar", MONTH_DAYS, tuple(
            Fact(x, {"month": (x,)}, *month_days(i, x)[:1], (month_days(i, x)[1],))
            for i, x in enumerate(m)), _follow("month"), 1.0),
        Skill("month_number", "calendar", MONTH_NUMBER, tuple(
            Fact(x, {"month": (x,)}, f"{x} is the {ordinal_words(i + 1)} month of the year.",
                 (ordinal_words(i + 1),)) for i, x in enumerate(m)), _follow("month"), 0.8),
        Skill("nth_month", "calendar", NTH_MONTH, tuple(
            Fact(x, {"nth": (ordinal_words(i + 1),), "n": _num(i + 1)},
                 f"The {ordinal_words(i + 1)} month of the year is {x}.", (x,))
            for i, x in enumerate(m)), (), 0.8),
        Skill("time_count", "calendar", TIME_COUNT, tuple(counts), (), 1.0),
        fixed("weekend", "calendar", "The weekend is Saturday and Sunday.", "Saturday and Sunday",
              """
              What days are the weekend?
              Which days are the weekend?
              What days make up the weekend?
              When is the weekend?
              Which days of the week are the weekend?
              What are the weekend days?
              Tell me the weekend days.
              Is Friday part of the weekend?
              Which two days are the weekend?
              What days is the weekend on?
              """),
    ]  # fmt: skip


SPELL = _lines(
    """
    How do you spell {word}?
    Spell {word}.
    Can you spell {word}?
    Can you spell {word} for me?
    How is {word} spelled?
    What's the spelling of {word}?
    Spell the word {word}.
    Spell out {word}.
    How do I spell {word}?
    How do you spell the word {word}?
    Please spell {word}.
    What is the spelling of {word}?
    Could you spell {word}?
    How would you spell {word}?
    Spell {word} for me.
    What letters are in {word}?
    Give me the spelling of {word}.
    How's {word} spelled?
    Tell me how to spell {word}.
    I don't know how to spell {word}.
    """
)


def spelling_skill() -> Skill:
    facts = []
    for w in F.SPELL_WORDS:
        letters = ", ".join(w.upper())
        facts.append(Fact(w, {"word": (w,)}, f"{capitalize(w)} is spelled {letters}.", (letters,)))
    return Skill("spell", "spelling", SPELL, tuple(facts), _follow("word"), 4.0)
