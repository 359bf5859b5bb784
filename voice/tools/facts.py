"""The facts the assistant knows by heart, read from the request and checked in the reply.

The demo model learned the countries, planets, days and months of :mod:`words.facts` and
:mod:`words.calendar`, but a small model recalls them by the wordings it was trained on: asked
"Thailand, which continent?" or "which city is Japan governed from" it may name the wrong
country's fact or another skill's. :class:`Facts` reads such a question the way the tools read
theirs — by what it names (a country, a planet, a day, a month, an ordinal, a superlative) and
what it asks of it (a capital, the money, the language, the continent, the order, the moons,
the day after), in any word order and with any words around them — and answers it from the
tables. The tool loop (:func:`voice.tools.answer`) keeps the model's own reply when it says
the fact, and says the table's sentence when it does not.

A question that names nothing but asks the same again ("and Argentina?", "and what money do
they use there?", "and the one after that?") reads against the fact of the turn before.

Nothing is read from a request that asks for an action (set, remind, book, call, play...) or
counts days to a date ("how many days until the 3rd of May" is the clock's): those are the
other tools' and the model's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from voice.tools.request import _words
from words.calendar import MONTH_DAYS, MONTHS, WEEKDAYS
from words.facts import PLANETS, Country, Planet
from words.quantity import read_number, read_ordinal
from words.spoken import int_words, ordinal_words
from words.world import ALL_COUNTRIES


@dataclass(frozen=True)
class Fact:
    """One fact read from a request: what was asked of what, the sentence that answers it, the
    words a correct reply says (all of them), and the thing named in the answer (a planet, a
    day, a month) that "the one after that" steps from."""

    relation: str
    subject: str
    sentence: str
    keys: tuple[str, ...]
    answer: str = ""

    def said_in(self, reply: str) -> bool:
        """Whether ``reply`` says this fact (every key, as whole words)."""
        text = " " + _plain(reply) + " "
        return all(" " + _plain(k) + " " in text for k in self.keys)


def _plain(text: str) -> str:
    return " ".join(re.sub(r"[^a-z0-9]+", " ", text.lower()).split())


# -- what is asked ---------------------------------------------------------------------------------
_COUNTRY_ASKS = (
    ("capital", r"capital|governed from|seat of (?:the )?government|government (?:is )?based"),
    ("currency", r"currenc(?:y|ies)|money|cash|pay (?:with|in)|notes and coins|dollars?|euros?|"
                 r"pesos?|yen|yuan|rupees?|francs?|kron[ae]|lira|rubles?|naira|shillings?|zloty|"
                 r"dirhams?|baht"),
    ("language", r"languages?|speak|spoken|talk in|mother tongue"),
    ("continent", r"continent|part of the world"),
)
_COUNTRY_ASK = tuple((name, re.compile(rf"\b(?:{p})\b")) for name, p in _COUNTRY_ASKS)
_PLANET_WORD = re.compile(r"\bplanets?\b|\bfrom the sun\b")
_PLANET_ORDER = re.compile(r"\bfrom the sun\b|\bin order\b|\bnumber\b|\bposition\b|\bplace\b|"
                           r"\bin line\b")  # fmt: skip
_MOONS = re.compile(r"\bmoons?\b")
_KIND = re.compile(r"\bgas giant\b|\bice giant\b|\brocky\b|\bmade of\b|\b(?:kind|type|sort) of "
                   r"planet\b|\bsolid\b")  # fmt: skip
# superlative → (planet, sentence); closest and furthest only measured from the Sun
_MOST = (
    (re.compile(r"\b(?:biggest|largest)\b"), "Jupiter", "Jupiter is the largest planet."),
    (re.compile(r"\b(?:smallest|tiniest|littlest)\b"), "Mercury",
     "Mercury is the smallest planet."),
    (re.compile(r"\b(?:hottest|warmest)\b"), "Venus", "Venus is the hottest planet."),
    (re.compile(r"\b(?:closest|nearest)\b(?!.*\bearth\b)"), "Mercury",
     "Mercury is the closest planet to the Sun."),
    (re.compile(r"\b(?:furthest|farthest|most distant|outermost)\b"), "Neptune",
     "Neptune is the furthest planet from the Sun."),
)  # fmt: skip
_DAYS_IN = re.compile(r"\bhow many days\b|\bdays (?:are )?(?:there )?in\b|\bdays does\b|"
                      r"\bdays has\b|\bhow long is\b")  # fmt: skip
_MONTH_NUMBER = re.compile(r"\bnumber\b|\bwhich month of the year\b|\bwhat month of the year\b")
_MONTH_WORD = re.compile(r"\bmonths?\b")
_FORWARD = re.compile(r"\b(?:after that|next one|the next|one after|following one|and then|"
                      r"further out|farther out|beyond that|after it|next (?:planet|month|day)|"
                      r"comes next|is next|goes next)\b"
                      r"|^(?:and |then |so )?(?:what about )?next\b")  # fmt: skip
_BACKWARD = re.compile(r"\b(?:before that|one before|previous|closer in|nearer in|before it)\b")
# A request for an action, or a count to a date: never a fact to recall.
_NOT_A_QUESTION = re.compile(
    r"\b(?:remind(?! me (?:\w+ )?(?:what|which|how|who|where|when))|reminder|set|timer|alarm|"
    r"book(?= (?:me|us|him|her|them|a|an|the|my|our|it|tickets?|flights?|tables?|taxis?|cabs?|"
    r"rooms?|appointments?|in|for)\b)|"
    r"schedule|call|ring|text|message|email|play|"
    r"(?<!in )order|add|cancel|start|stop|turn|until|till|til|(?:days|weeks|months|years) since|"
    r"ago|left|away|from now|to go|days to|days till|"
    r"date|weather|forecast|time is it|flights?|tickets?)\b"
)


def _variants(name: str) -> set[str]:
    s = _plain(name)
    out = {s, " ".join(re.sub(r"[^a-z0-9']+", " ", name.lower()).split())}  # "cote d'ivoire"
    if s.startswith("the "):
        bare = s[4:]
        if len(bare) > 2 or bare == "uk":  # "us" alone is the pronoun
            out.add(bare)
    return out


_COUNTRY_NAMES = sorted(((v, c) for c in ALL_COUNTRIES for s in c.surfaces for v in _variants(s)),
                        key=lambda x: -len(x[0]))  # fmt: skip
_COUNTRY_RE = re.compile(r"\b(" + "|".join(re.escape(v) for v, _ in _COUNTRY_NAMES) + r")\b")
_COUNTRY_BY = dict(_COUNTRY_NAMES)
# A capital or a currency only one country has, to ask the country back: "Canberra", "zloty".
_OWNED = [(name, c) for c in ALL_COUNTRIES
          for name in (_plain(c.capital), _plain(c.currency.removeprefix("the ")))]
_OWNED = [(name, c) for name, c in _OWNED if sum(n == name for n, _ in _OWNED) == 1
          and name not in ("won", "real", "male", "victoria", "kingston", "sol", "rand", "lek",
                           "kip", "dram", "tala", "lari", "leone", "dong", "birr", "som",
                           "pula", "loti", "kina")]  # fmt: skip
# ("which country won the cup" asks no currency; "Male", "Victoria", "the rand" are words first)
_WHICH_COUNTRY = re.compile(r"\b(?:which|what|whose) (?:country|nation)\b|\bcountry is it\b")
_PLANET_BY = {p.name.lower(): p for p in PLANETS}
_PLANET_NAMES = "|".join(_PLANET_BY)
_PLANET_RE = re.compile(rf"\b({_PLANET_NAMES})\b")
_MONTH_NAMES = "|".join(m.lower() for m in MONTHS)
_DAY_NAMES = "|".join(d.lower() for d in WEEKDAYS)
_MONTH_RE = re.compile(rf"\b({_MONTH_NAMES})\b")
_DAY_RE = re.compile(rf"\b({_DAY_NAMES})\b")


def _text(request: str) -> tuple[str, list[str]]:
    """The request's words, lower case, corrections made, letters said one by one joined
    ("u k" → "uk"), possessive 's off ("planet's" → "planet")."""
    out: list[str] = []
    for w in (part for word in _words(request) for part in word.split("-")):  # "Timor-Leste"
        w = re.sub(r"'s$", "", re.sub(r"[^a-z0-9']+", "", w.lower()))
        if not w:
            continue
        if len(w) == 1 and w.isalpha() and w not in ("a", "i") and out and \
                re.fullmatch(r"[a-z]+", out[-1]) and len(out[-1]) <= 2 and out[-1] != "a":
            out[-1] += w  # "u k", "u s a"
        else:
            out.append(w)
    return " ".join(out), out


def _ordinal(ws: list[str]) -> int | None:
    """The one place asked for: an ordinal ("3rd", "third"), or a number after "number",
    "planet" or "month" ("planet number six", "planet three", "month 10")."""
    found = {got[0] for i in range(len(ws)) if (got := read_ordinal(ws, i)) is not None}
    for i, w in enumerate(ws[:-1]):
        if w in ("number", "no", "planet", "month") and (got := read_number(ws, i + 1)):
            if got[0].denominator == 1 and got[0] > 0:
                found.add(int(got[0]))
    return found.pop() if len(found) == 1 else None


def _one(pattern: re.Pattern, text: str) -> str | None:
    found = set(pattern.findall(text))
    return found.pop() if len(found) == 1 else None


def _months(text: str) -> set[str]:
    found = set(_MONTH_RE.findall(text))
    if len(found) > 1:
        found.discard("may")  # "may I ask what comes after June"
    return found


# -- the answers -----------------------------------------------------------------------------------
def country_fact(relation: str, c: Country) -> Fact:
    if relation == "capital":
        return Fact(relation, c.name, f"The capital of {c.name} is {c.capital}.",
                    (c.capital.split(",")[0],))  # fmt: skip
    if relation == "currency":
        return Fact(relation, c.name, f"The currency of {c.name} is {c.currency}.",
                    (c.currency.removeprefix("the "),))  # fmt: skip
    if relation == "language":
        plural = " and " in c.language
        noun, verb = ("languages", "are") if plural else ("language", "is")
        return Fact(relation, c.name, f"The main {noun} of {c.name} {verb} {c.language}.",
                    tuple(re.split(r", | and ", c.language)))  # fmt: skip
    name = c.name[:1].upper() + c.name[1:]
    return Fact("continent", c.name, f"{name} is in {c.continent}.", (c.continent,))


def planet_fact(relation: str, p: Planet) -> Fact:
    nth = ordinal_words(p.order)
    if relation == "planet_order":
        return Fact(relation, p.name, f"{p.name} is the {nth} planet from the Sun.",
                    (p.name, nth), p.name)  # fmt: skip
    if relation == "moons":
        return Fact(relation, p.name, p.moons, (p.moons_answer,), p.name)
    if relation == "kind":
        return Fact(relation, p.name, f"{p.name} is {p.kind}.", (p.kind.split(" ", 1)[1],),
                    p.name)  # fmt: skip
    return Fact("nth_planet", nth, f"The {nth} planet from the Sun is {p.name}.", (p.name,),
                p.name)  # fmt: skip


def calendar_fact(relation: str, name: str) -> Fact:
    if relation in ("day_after", "day_before"):
        i = [d.lower() for d in WEEKDAYS].index(name.lower())
        step = 1 if relation == "day_after" else -1
        x, y = WEEKDAYS[i], WEEKDAYS[(i + step) % 7]
        word = "after" if step == 1 else "before"
        return Fact(relation, x, f"The day {word} {x} is {y}.", (y,), y)
    i = [m.lower() for m in MONTHS].index(name.lower())
    x = MONTHS[i]
    if relation in ("month_after", "month_before"):
        step = 1 if relation == "month_after" else -1
        y = MONTHS[(i + step) % 12]
        word = "after" if step == 1 else "before"
        return Fact(relation, x, f"The month {word} {x} is {y}.", (y,), y)
    if relation == "month_days":
        n = int_words(MONTH_DAYS[i])
        if x == "February":
            return Fact(relation, x, "February has twenty eight days, or twenty nine in a leap "
                        "year.", ("twenty eight",), x)  # fmt: skip
        return Fact(relation, x, f"{x} has {n} days.", (n,), x)
    if relation == "month_number":
        nth = ordinal_words(i + 1)
        return Fact(relation, x, f"{x} is the {nth} month of the year.", (nth,), x)
    nth = ordinal_words(i + 1)
    return Fact("nth_month", nth, f"The {nth} month of the year is {x}.", (x,), x)


def _after_before(text: str, names: str) -> tuple[str, str] | None:
    """("after", "thursday") for "what comes after Thursday", "which day follows Thursday";
    ("before", ...) for "before", "precedes". ``names``: the alternatives, "monday|tuesday..."."""
    name = rf"({names})"
    named = set(re.findall(rf"\b{name}\b", text))
    pointed = re.search(r"\b(after|before) (?:it|that|this one)\b", text)
    if pointed and len(named) == 1:  # "Friday, what comes after it?"
        return pointed.group(1), named.pop()
    for word, p in (("after", rf"\b(?:after|follows?|following)\s+{name}\b"),
                    ("before", rf"\b(?:before|precedes?|preceding)\s+{name}\b"),
                    ("after", rf"\b{name}\s+(?:is\s+)?followed\s+by\b"),
                    ("before", rf"\b{name}\s+(?:is\s+)?preceded\s+by\b")):  # fmt: skip
        found = set(re.findall(p, text))
        if len(found) == 1:
            return word, found.pop()
    return None


# -- reading ---------------------------------------------------------------------------------------
def read_fact(request: str) -> Fact | None:
    """The fact ``request`` asks, when it plainly names one thing and one thing asked of it."""
    text, ws = _text(request)
    if not text or _NOT_A_QUESTION.search(text):
        return None
    asks = [name for name, p in _COUNTRY_ASK if p.search(text)]
    countries = {_COUNTRY_BY[m] for m in _COUNTRY_RE.findall(text)}
    if countries:
        if len(countries) == 1 and len(asks) == 1:
            return country_fact(asks[0], countries.pop())
        return None
    if _WHICH_COUNTRY.search(text):  # "which country's money is the zloty"
        owned = {c for name, c in _OWNED if re.search(rf"\b{re.escape(name)}\b", text)}
        if len(owned) == 1:
            c = owned.pop()
            thing = next(name for name, x in _OWNED if x is c and name in text)
            what = "capital" if _plain(c.capital) == thing else "currency"
            said = c.capital if what == "capital" else c.currency
            return Fact(f"{what}_of", said, f"{said[:1].upper() + said[1:]} is the {what} of "
                        f"{c.name}.", (c.name.removeprefix("the "),))  # fmt: skip
    planet = _one(_PLANET_RE, text)
    n = _ordinal(ws)
    months, day = _months(text), _one(_DAY_RE, text)
    if _PLANET_WORD.search(text) or planet:
        for p, name, sentence in _MOST:
            if p.search(text) and _PLANET_WORD.search(text) and n is None:
                return Fact("planet_most", name, sentence, (name,), name)
        if n is not None and 1 <= n <= len(PLANETS) and not months and not day:
            return planet_fact("nth_planet", PLANETS[n - 1])
        if planet and len(set(_PLANET_RE.findall(text))) == 1:
            p = _PLANET_BY[planet]
            got = _after_before(text, _PLANET_NAMES)
            if got and n is None:  # "which planet comes after Earth, going outwards"
                k = p.order - 1 + (1 if got[0] == "after" else -1)
                return planet_fact("nth_planet", PLANETS[k]) if 0 <= k < len(PLANETS) else None
            if _MOONS.search(text):
                return planet_fact("moons", p)
            if _KIND.search(text):
                return planet_fact("kind", p)
            if _PLANET_ORDER.search(text) and n is None:
                return planet_fact("planet_order", p)
        return None
    days = set(_DAY_RE.findall(text))
    if days and not months:  # "is the day after Wednesday Thursday or Friday?"
        got = _after_before(text, _DAY_NAMES)
        if got:
            return calendar_fact(f"day_{got[0]}", got[1])
        return None
    got = _after_before(text, _MONTH_NAMES) if months and not days else None
    if got:
        return calendar_fact(f"month_{got[0]}", got[1])
    if len(months) == 1 and not day:
        month = next(iter(months))
        got = _after_before(text, _MONTH_NAMES)
        if got:
            return calendar_fact(f"month_{got[0]}", got[1])
        if _DAYS_IN.search(text):
            return calendar_fact("month_days", month)
        if _MONTH_NUMBER.search(text) and n is None:
            return calendar_fact("month_number", month)
        return None
    if not months and not day and n is not None and 1 <= n <= 12 and _MONTH_WORD.search(text):
        return calendar_fact("nth_month", MONTHS[n - 1])
    return None


def follow_fact(request: str, last: Fact) -> Fact | None:
    """The fact an elliptical follow-up asks, read against ``last`` (the fact of the turn
    before): a new name for the same question, a new question of the same name, or a step
    along the order ("and the one after that?")."""
    text, ws = _text(request)
    if not text or _NOT_A_QUESTION.search(text):
        return None
    rel = last.relation
    if rel in ("capital", "currency", "language", "continent"):
        asks = [name for name, p in _COUNTRY_ASK if p.search(text)]
        countries = {_COUNTRY_BY[m] for m in _COUNTRY_RE.findall(text)}
        if len(countries) == 1 and len(asks) <= 1:
            return country_fact(asks[0] if asks else rel, countries.pop())
        if not countries and len(asks) == 1:
            c = next(c for c in ALL_COUNTRIES if c.name == last.subject)
            return country_fact(asks[0], c)
        return None
    step = 1 if _FORWARD.search(text) else -1 if _BACKWARD.search(text) else 0
    if rel in ("planet_order", "nth_planet", "planet_most", "moons", "kind"):
        planet = _one(_PLANET_RE, text)
        n = _ordinal(ws)
        for p, name, sentence in _MOST:
            if p.search(text) and n is None:
                return Fact("planet_most", name, sentence, (name,), name)
        if n is not None and 1 <= n <= len(PLANETS):
            return planet_fact("nth_planet", PLANETS[n - 1])
        if planet:
            again = rel if rel in ("planet_order", "moons", "kind") else "planet_order"
            if _MOONS.search(text):
                again = "moons"
            return planet_fact(again, _PLANET_BY[planet])
        if not step and last.answer.lower() in _PLANET_BY:  # "how many moons has it got?"
            p = _PLANET_BY[last.answer.lower()]
            for asked, relation in ((_MOONS, "moons"), (_KIND, "kind"),
                                    (_PLANET_ORDER, "planet_order")):  # fmt: skip
                if asked.search(text) and relation != rel:
                    return planet_fact(relation, p)
        if step and last.answer:
            k = _PLANET_BY[last.answer.lower()].order - 1 + step
            if 0 <= k < len(PLANETS):  # the same question of the next one ("and the next planet?"
                again = rel if rel in ("moons", "kind") else "nth_planet"  # after its moons)
                return planet_fact(again, PLANETS[k])
        return None
    if rel.startswith(("day_", "month_")) or rel == "nth_month":
        kind = "day" if rel.startswith("day_") else "month"
        names = {_one(_DAY_RE, text)} - {None} if kind == "day" else _months(text)
        if len(names) == 1:
            got = _after_before(text, _DAY_NAMES if kind == "day" else _MONTH_NAMES)
            again = f"{kind}_{got[0]}" if got else rel if rel != "nth_month" else "month_number"
            return calendar_fact(again, got[1] if got else names.pop())
        if kind == "month" and rel == "nth_month" and (n := _ordinal(ws)) and 1 <= n <= 12:
            return calendar_fact("nth_month", MONTHS[n - 1])
        if step and last.answer:
            return calendar_fact(f"{kind}_{'after' if step > 0 else 'before'}", last.answer)
    return None


# -- a fact nobody asked for ----------------------------------------------------------------------
# Words that ask for facts in general: a reply naming a country or a planet answers them.
_ASKS_FACTS = re.compile(
    r"\b(?:countr(?:y|ies)|nations?|capitals?|cit(?:y|ies)|currenc(?:y|ies)|money|languages?|"
    r"speak|spoken|continents?|world|geography|planets?|sun|moons?|space|solar|orbits?|stars?|"
    r"facts?|trivia|quiz|interesting|random|surprise|know)\b")
# A question answered yes or no: "is the moon a planet", "does mars have rings", "can you see
# venus tonight".
# ("is there a planet bigger than earth" and "do you know the capital of peru" ask for one)
_YES_NO = re.compile(r"^(?:(?:um|uh|so|okay|ok|hey|well|and|but) )*(?:is|are|was|were|does|do|"
                     r"did|can|could|has|have|had|will|would)\b(?! there\b| (?:you|u) (?:know|"
                     r"tell|name|list|say|give|remember|think)\b)")
NOT_ASKED = ("Sorry, I can't help with that. I can tell the time, set timers, do sums, convert "
             "units, spell words and answer questions about countries and planets.")


# What the tables know of a planet: its place, its size or heat, its moons.
_PLANET_ASKS = re.compile(r"\b(?:moons?|satellites?|biggest|largest|smallest|hottest|coldest|"
                          r"closest|nearest|farthest|furthest|order|first|second|third|fourth|"
                          r"fifth|sixth|seventh|eighth|last|after|before|next|from the sun)\b")


def asks_known(text: str) -> bool:
    """Whether ``text`` asks something the tables know of a country or planet (its capital,
    money, language, continent; its place from the Sun, its size or heat, its moons)."""
    plain = _plain(text)
    return any(p.search(plain) for _, p in _COUNTRY_ASK) or bool(_PLANET_ASKS.search(plain))


def beside_the_point(thing: str) -> str:
    """What the assistant can say about ``thing`` (a country or a planet), for a question about
    it that the tables do not answer."""
    if thing.lower() in _PLANET_BY:
        return (f"Sorry, I don't know that about {thing}. I can tell you where it is from the Sun, "
                "how big it is and how many moons it has.")
    return (f"Sorry, I don't know that about {thing}. I can tell you its capital, its money, its "
            "language and its continent.")


def named(text: str) -> set[str]:
    """The countries (by name, or by a capital or currency only one has) and planets that
    ``text`` names."""
    plain = " " + _plain(text) + " "
    out = {_COUNTRY_BY[m].name for m in _COUNTRY_RE.findall(plain)}
    out |= {c.name for name, c in _OWNED if f" {name} " in plain}
    return out | {p.title() for p in _PLANET_RE.findall(plain)}


def unasked(sentence: str, conversation: str, request: str = "") -> bool:
    """Whether ``sentence`` states a fact about a country or planet that nothing in the
    ``conversation`` (the user's words and the replies so far) named or asked about: "The
    eighth planet from the Sun is Neptune." to "order 2 masala dosa", "The currency of Thailand
    is the zloty." to a misheard sum. The model's wrong route, never the answer. A yes-or-no
    ``request`` (the turn's own words: "is the moon a planet?") asks about what it names, so
    facts words in it ("planet") allow no other planet or country ("The sixth planet from the
    Sun is Saturn.")."""
    things = named(sentence)
    if not things:
        return False
    if _YES_NO.match(_plain(request)):
        return not things & named(conversation)
    plain = _plain(conversation)
    if _ASKS_FACTS.search(plain) or any(p.search(plain) for _, p in _COUNTRY_ASK):
        return False  # ("who pays in the Australian dollar" asks of a currency)
    return not things & named(conversation)


class Facts:
    """The facts of one conversation: reads a request, on its own or after the fact of the turn
    before (:meth:`read`), and remembers what it read for the next turn.

    The voice pipeline may answer the same utterance more than once (a speculation at a pause,
    then the whole turn): a request that extends the one read the turn before reads as that one
    would have, against the fact before it ("and the one after" then "and the one after that"
    steps once, not twice). The same request again is asked again (it steps again)."""

    def __init__(self) -> None:
        self.log: list[tuple[int, str, Fact | None]] = []  # (turn, request said, fact read)

    def read(self, request: str, turn: int) -> Fact | None:
        """The fact ``request`` asks at ``turn`` (remembered for ``turn + 1``), or None."""
        said, at = _plain(request), turn
        while self.log and self.log[-1][0] == at - 1 and said.startswith(self.log[-1][1] + " "):
            at = self.log.pop()[0]  # an answer to this utterance up to a pause
        before = self.log[-1] if self.log and self.log[-1][0] == at - 1 else None
        fact = read_fact(request)
        if fact is None:  # "Which planet is the hottest? Not the weather here, in space."
            found = [f for part in re.split(r"(?<=[?.!])\s+", request.strip())
                     if (f := read_fact(part)) is not None]  # fmt: skip
            fact = found[0] if len(found) == 1 else None
        if fact is None and before is not None and before[2] is not None:
            fact = follow_fact(request, before[2])
        if fact is None and before is not None and re.search(r"\bthere\b", said) and \
                len(places := named(before[1]) - {p.name for p in PLANETS}) == 1:
            # "what's the weather like in thailand" ... "okay, what's the capital there"
            fact = read_fact(re.sub(r"\bthere\b", f"of {places.pop()}", request, count=1))
        self.log = [*self.log[-7:], (turn, said, fact)]
        return fact

    def answer_before(self, turn: int) -> str:
        """What the fact of the turn before ``turn`` answered ("Ankara" after the capital of
        Turkey, "Jupiter" after the biggest planet), for "spell that"; "" if none."""
        for t, _, fact in reversed(self.log):
            if t == turn - 1 and fact is not None:
                return fact.answer or fact.keys[0]
        return ""

    def forget(self) -> None:
        self.log = []
