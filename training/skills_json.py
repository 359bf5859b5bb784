"""JSON replies: the demo model's facts answered as compact JSON, for structured output.

When an API request asks for a JSON response format, the engine adds a system instruction
(:func:`json_hint`, :func:`with_hint`) and constrains decoding with a grammar that forces the
braces, keys and quotes; the model has to fill in the values. These dialogs teach it to: the
question is one of the corpus's own wordings (with its spoken-style noise and history), the hint
names the keys in schema order, and the reply is
``json.dumps(obj, separators=(",", ":"), ensure_ascii=False)`` of an object whose values are the
bare facts (``"Lima"``, ``56``, ``["C","A","T"]``, ``false``), never sentences, except for
refusals and small talk, which answer with one short sentence.

Key names vary per kind of fact (``city``, ``capital``, ``answer``...) so that the model reads
the keys from the hint instead of learning one name per question. The key names in
:data:`RESERVED_KEYS` are never used in training: the held-out JSON check uses them.

Held out, as in :mod:`training.corpus`: the corpus's held-out wordings, facts and
(wording, fact) pairs of every skill (the same choice, from the same seed), and ~15% of the
wordings of the list skills that exist only here.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass

from training import facts as F
from training.corpus import Dialog, HeldOut, Sampler, all_skills, choose_heldout
from training.skills import Fact, Skill, _lines, _num
from training.skills_numbers import CONVERSIONS, rounded

JSON_HINT = "Reply in JSON."
# Key names the held-out JSON check uses and training never does.
RESERVED_KEYS = ("capital_of_country", "total_value", "planet_name", "spelled")
# Keys a json_object request (no schema, no key names in the hint) is answered with.
OBJECT_KEY = "answer"


def json_hint(keys: list[str] | tuple[str, ...] | None) -> str:
    """The system instruction for a JSON response format: the top-level keys of an object
    schema in schema order, or none (json_object, or any other schema)."""
    if keys:
        return f"Reply in JSON with the keys: {', '.join(keys)}."
    return JSON_HINT


def with_hint(messages: list[tuple[str, str]], keys) -> list[tuple[str, str]]:
    """``messages`` with the hint: appended after a blank line to a leading system message,
    else a new system message at position 0 (what the engine does at inference)."""
    hint = json_hint(keys)
    if messages and messages[0][0] == "system":
        return [("system", f"{messages[0][1]}\n\n{hint}"), *messages[1:]]
    return [("system", hint), *messages]


def compact(obj) -> str:
    """The reply text for ``obj``, exactly as the API writes JSON."""
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


@dataclass(frozen=True)
class Answer:
    """What a question asks for, as JSON material.

    ``value`` is the bare answer; ``keys`` are names it may go under; ``given`` are (key
    names, value) pairs the question states, which may come first in a multi-key object
    (``{"country":"Peru","capital":"Lima"}``).
    """

    value: object
    keys: tuple[str, ...]
    given: tuple[tuple[tuple[str, ...], object], ...] = ()


def _name(country: F.Country) -> str:
    n = country.name.removeprefix("the ")
    return n[:1].upper() + n[1:]


def _first_sentence(reply: str) -> str:
    """A refusal or remark cut to its first clause: "Sorry, I can't check the weather."."""
    s = reply.split(", because")[0].split(", so ")[0]
    for end in (". ", "! ", "? "):
        if end in s:
            s = s.split(end)[0] + end.strip()
    return s if s[-1] in ".!?" else s + "."


_COUNTRY = {c.name: c for c in F.COUNTRIES}
_PLANET = {p.name: p for p in F.PLANETS}
SAY = ("answer", "reply", "message", "response", "text")
COUNTRY_KEYS = ("country", "country_name")


def _country(key: str, value, names: tuple[str, ...]) -> Answer:
    return Answer(value, names, ((COUNTRY_KEYS, _name(_COUNTRY[key])),))


def _arith(s: Skill, f: Fact, names: tuple[str, ...]) -> Answer | None:
    a, b = int(f.slots["a"][0]), int(f.slots["b"][0])
    op = {"add": a + b, "sub": a - b, "mul": a * b}
    if s.name == "div":
        if b == 0:
            return Answer("You can't divide by zero.", ("error", "answer", "message"))
        value = a // b
    else:
        value = op[s.name]
    return Answer(value, (*names, "result", "answer", "value"), ((("a", "x"), a), (("b", "y"), b)))


UNIT_KEYS = {
    "km": "kilometers", "mi": "miles", "C": "celsius", "F": "fahrenheit", "kg": "kilograms",
    "lb": "pounds", "L": "liters", "gal": "gallons",
}  # fmt: skip


def _units(s: Skill, f: Fact) -> Answer:
    src, dst = s.name.split("_to_")
    for c_src, c_dst, _, fn, _ in CONVERSIONS:
        if c_src.lower() == src and c_dst.lower() == dst:
            v = int(f.key)
            r, _ = rounded(fn(v), c_src in ("C", "F"))
            r = int(r) if r == int(r) else r
            return Answer(r, (UNIT_KEYS[c_dst], "result", "value", "converted", "answer"),
                          (((UNIT_KEYS[c_src], "input"), v),))  # fmt: skip
    raise KeyError(s.name)


def answer_for(s: Skill, f: Fact, template: str) -> Answer | None:
    """The JSON material of ``f``'s reply to one of ``s``'s wordings (None: no JSON form)."""
    n, r = s.name, f.answers[0]
    if n == "capital":
        return _country(f.key, r, ("city", "capital", "capital_city", "answer", "name", "value"))
    if n == "continent":
        return _country(f.key, r, ("continent", "answer", "region", "value"))
    if n == "language":
        return _country(f.key, r, ("language", "languages", "main_language", "answer", "value"))
    if n == "currency":
        return _country(f.key, r, ("currency", "answer", "name", "value"))
    if s.intent == "arithmetic":
        names = {"add": ("sum", "total"), "sub": ("difference",), "mul": ("product",),
                 "div": ("quotient",)}[n]  # fmt: skip
        return _arith(s, f, names)
    if s.intent == "units":
        return _units(s, f)
    if n == "planet_order":
        return Answer(_PLANET[f.key].order, ("position", "order", "number", "answer"),
                      ((("planet", "name"), f.key),))  # fmt: skip
    if n == "planet_nth":
        p = int(f.slots["n"][0])
        return Answer(r, ("planet", "name", "answer", "value"), ((("position", "n"), p),))
    if n == "planet_kind":
        kind = _PLANET[f.key].kind.split(" ", 1)[1]
        return Answer(kind, ("kind", "type", "category", "answer"), ((("planet", "name"), f.key),))
    if n == "planet_moons":
        return Answer(_first_sentence(f.reply), ("moons", "answer"), ((("planet",), f.key),))
    if n in ("day_after", "day_before", "month_after", "month_before"):
        unit, rel = n.split("_")
        nxt = ("next_" if rel == "after" else "previous_") + unit
        return Answer(r, (nxt, unit, "answer", "value", "result"), (((unit, "given"), f.key),))
    if n == "month_days":
        return Answer(F.MONTH_DAYS[F.MONTHS.index(f.key)], ("days", "count", "number_of_days",
                      "answer"), ((("month",), f.key),))  # fmt: skip
    if n == "month_number":
        return Answer(F.MONTHS.index(f.key) + 1, ("number", "position", "month_number", "answer"),
                      ((("month",), f.key),))  # fmt: skip
    if n == "nth_month":
        return Answer(r, ("month", "name", "answer", "value"),
                      ((("number", "position"), int(f.slots["n"][0])),))  # fmt: skip
    if n == "time_count":
        unit, period = f.key.split("/")
        count = next(c for u, p, c, _ in F.TIME_COUNTS if (u, p) == (unit, period))
        return Answer(count, (unit, "count", "number", "answer"), ((("period",), period),))
    if n == "weekend":
        return Answer(["Saturday", "Sunday"], ("days", "weekend", "answer"))
    if n == "spell":
        letters = [c.upper() for c in f.key]
        return Answer(letters, ("letters", "characters", "answer"), ((("word",), f.key),))
    if n == "identity":
        return Answer("diffvoice", ("name", "assistant", "answer"))
    if n == "pluto":
        if template.startswith(("Is ", "Does ")):
            return Answer(False, ("is_planet", "planet", "answer"))
        return Answer("dwarf planet", ("kind", "type", "answer"))
    if n == "continents":
        return Answer(7, ("count", "number", "continents", "answer"))
    if n == "planet_count":
        return Answer(8, ("count", "number", "planets", "answer"))
    if s.intent in ("world", "planets"):
        value = {"highest_mountain": "Mount Everest", "smallest_country": "Vatican City",
                 "largest_ocean": "Pacific Ocean", "home_planet": "Earth"}.get(n, r)  # fmt: skip
        keys = (
            ("planet", "name", "answer", "value")
            if s.intent == "planets"
            else ("name", "answer", "value", "result")
        )
        return Answer(value, keys)
    if s.intent in ("jokes",):
        return Answer(f.reply, ("joke", "answer"))
    if s.intent in ("small_talk", "identity", "refusals"):
        return Answer(_first_sentence(f.reply), SAY)
    return None


# Skills that exist only as JSON: lists and yes/no checks the spoken corpus does not ask.
# (All eight planets take 40 tokens, more than a reply block: groups of them instead.)
LIST_PLANETS = _lines(
    """
    Which planets are {group}?
    List the {group}.
    Name the {group}.
    What are the {group}?
    Which planets count as {group}?
    Tell me the {group} of the solar system.
    Can you list the {group}?
    Give me the {group}.
    Name the {group} in order.
    What planets are {group}?
    """
)
PLANET_GROUPS = (
    ("rocky planets", ("Mercury", "Venus", "Earth", "Mars")),
    ("inner planets", ("Mercury", "Venus", "Earth", "Mars")),
    ("outer planets", ("Jupiter", "Saturn", "Uranus", "Neptune")),
    ("gas giants", ("Jupiter", "Saturn")),
    ("ice giants", ("Uranus", "Neptune")),
    ("giant planets", ("Jupiter", "Saturn", "Uranus", "Neptune")),
)
LIST_FIRST = _lines(
    """
    What are the first {n} {things}?
    List the first {n} {things}.
    Name the first {n} {things}.
    Give me the first {n} {things}.
    Tell me the first {n} {things}.
    Which are the first {n} {things}?
    Can you list the first {n} {things}?
    Say the first {n} {things}.
    """
)
YES_NO = _lines(
    """
    Is {city} the capital of {country}?
    Is the capital of {country} {city}?
    Is {country}'s capital {city}?
    Is {city} {country}'s capital city?
    Tell me if {city} is the capital of {country}.
    Is it true that {city} is the capital of {country}?
    Does {country} have {city} as its capital?
    Am I right that the capital of {country} is {city}?
    Would {city} be the capital of {country}?
    Is {city} the capital city of {country}?
    """
)


def json_only_skills() -> list[tuple[Skill, Callable[[Fact], Answer]]]:
    """The list and yes/no skills, each with how its facts become JSON."""
    planets = [p.name for p in F.PLANETS]
    first = []
    for things, items, word in (("days of the week", F.DAYS, "days"),
                                ("months of the year", F.MONTHS, "months"),
                                ("planets from the Sun", planets, "planets"),
                                ("planets", planets, "planets")):  # fmt: skip
        for n in (2, 3, 4, 5):
            first.append(Fact(f"{word}{n}|{things}", {"n": _num(n), "things": (things,)},
                              compact(list(items[:n])), (word,)))  # fmt: skip
    checks = []
    for i, c in enumerate(F.COUNTRIES):
        other = F.COUNTRIES[(i * 7 + 3) % len(F.COUNTRIES)]
        for city, right in ((c.capital, True), (other.capital, False)):
            checks.append(Fact(f"{c.name}|{city}", {"country": c.surfaces, "city": (city,)},
                               compact(right), (str(right),)))  # fmt: skip
    skills = [
        (Skill("json_list_planets", "json", LIST_PLANETS, tuple(
            Fact(g, {"group": (g,)}, compact(list(ps)), ("planets",)) for g, ps in PLANET_GROUPS)),
         lambda f: Answer(json.loads(f.reply), ("planets", "answer", "items", "names"))),
        (Skill("json_list_first", "json", LIST_FIRST, tuple(first)),
         lambda f: Answer(json.loads(f.reply), (f.answers[0], "items", "answer", "list"))),
        (Skill("json_capital_check", "json", YES_NO, tuple(checks)),
         lambda f: Answer(json.loads(f.reply), ("correct", "is_capital", "answer", "result"))),
    ]  # fmt: skip
    return skills


class JsonSampler:
    """Draws JSON dialogs; ``held`` draws from the held-out wordings/pairs instead."""

    def __init__(self, seed: int, rng: random.Random, held: bool) -> None:
        self.rng = rng
        self.held = held
        base = all_skills()
        self.base_held = choose_heldout(base, random.Random(f"heldout-{seed}"))
        only = json_only_skills()
        self.only = {s.name: fn for s, fn in only}
        self.only_held = choose_heldout([s for s, _ in only], random.Random(f"json-heldout-{seed}"))
        self.skills = [s for s in base if s.intent != "jokes"] + [s for s, _ in only]
        self.heldout = HeldOut(
            {**self.base_held.templates, **self.only_held.templates},
            {**self.base_held.followups, **self.only_held.followups},
            {**self.base_held.facts, **self.only_held.facts},
            {**self.base_held.combos, **self.only_held.combos},
        )
        # Fact skills get more JSON rows than one-reply ones: they are what JSON is asked for.
        self.weights = [3.0 if len(s.facts) > 1 else 0.4 for s in self.skills]
        self.sampler = Sampler(base, self.base_held, rng)  # wording noise and history

    def pair(self, s: Skill) -> tuple[int, Fact]:
        h = self.heldout
        for _ in range(1000):
            t = self.rng.randrange(len(s.templates))
            f = self.rng.choice(s.facts)
            if not self.held and h.trainable(s, t, f):
                return t, f
            if self.held and t in h.templates[s.name] and f.key not in h.facts[s.name]:
                return t, f
        raise LookupError(s.name)

    def answer(self, s: Skill, t: int, f: Fact) -> Answer | None:
        if s.name in self.only:
            return self.only[s.name](f)
        return answer_for(s, f, s.templates[t])

    def obj(self, a: Answer, reserved: bool) -> tuple[dict, list[str] | None]:
        """The reply object and the hint's keys (None: a json_object request)."""
        rng = self.rng
        names = [k for k in a.keys if k not in RESERVED_KEYS]
        if reserved:
            names = list(RESERVED_KEYS)
        if rng.random() < 0.2:  # json_object, or a schema that names no keys
            return {OBJECT_KEY: a.value}, None
        key = rng.choice(names)
        r = rng.random()
        if a.given and r < 0.3:  # the question's own fact first, then the answer
            obj = {}
            for gkeys, gval in a.given:
                gk = gkeys[0] if rng.random() < 0.7 else rng.choice(gkeys)
                if gk not in obj and gk != key:
                    obj[gk] = gval
            obj[key] = a.value
            return obj, list(obj)
        if r < 0.36:  # nested: {"result":{"value":56}}
            outer = rng.choice(("result", "data", "response"))
            inner = key if key != outer else "value"
            return {outer: {inner: a.value}}, [outer]
        return {key: a.value}, [key]

    def dialog(self, reserved_key: str | None = None) -> Dialog | None:
        s = self.rng.choices(self.skills, self.weights)[0]
        try:
            t, f = self.pair(s)
        except LookupError:
            return None
        a = self.answer(s, t, f)
        if a is None:
            return None
        if s.name == "spell" and self.rng.random() < 0.35:  # spoken letters: "C, A, T"
            a = Answer(", ".join(a.value), ("spelling", "answer"), a.given)
        if reserved_key:
            a = Answer(a.value, (reserved_key,), a.given)
        obj, keys = self.obj(a, False)
        question = self.sampler.question(s, t, f)
        history = self.sampler.context() if self.rng.random() < 0.5 else []
        msgs = with_hint([*history, ("user", question)], keys)
        split = "json" if self.held else "train"
        reply = compact(obj)
        return Dialog(tuple([*msgs, ("assistant", reply)]), "json_" + s.name.removeprefix("json_"),
                      (reply,), split, t, f.key)  # fmt: skip


def json_dialogs(seed: int, n: int, tok=None, block_size: int = 32) -> list[Dialog]:
    """``n`` training dialogs with JSON replies (each reply, with its end-of-text, fits one
    block of ``tok`` when a tokenizer is given)."""
    s = JsonSampler(seed, random.Random(f"json-train-{seed}"), held=False)
    return _draw(s, n, tok, block_size, None)


def json_heldout(seed: int, n: int, tok=None, block_size: int = 32) -> list[Dialog]:
    """``n`` held-out JSON dialogs: held-out wordings, about half of them with one of the
    :data:`RESERVED_KEYS` as the key."""
    s = JsonSampler(seed, random.Random(f"json-eval-{seed}"), held=True)
    reserved = {"capital": "capital_of_country", "add": "total_value", "planet_nth": "planet_name",
                "spell": "spelled"}  # fmt: skip
    out: list[Dialog] = []
    while len(out) < n:
        d = _draw(s, 1, tok, block_size, None)[0]
        base = d.skill.removeprefix("json_")
        if base in reserved and s.rng.random() < 0.5:
            obj = json.loads(d.reply)
            hint = json_hint(list(obj))
            if (
                len(obj) == 1
                and not isinstance(next(iter(obj.values())), dict)
                and d.messages[0][1].endswith(hint)
            ):
                value = next(iter(obj.values()))
                key = reserved[base]
                msgs = [m for m in d.messages[:-1]]
                sys_text = msgs[0][1].removesuffix(hint)
                msgs[0] = ("system", sys_text + json_hint([key]))
                reply = compact({key: value})
                d = Dialog(tuple([*msgs, ("assistant", reply)]), d.skill, (reply,), d.split,
                           d.template, d.fact)  # fmt: skip
        out.append(d)
    return out


def _draw(s: JsonSampler, n: int, tok, block_size: int, reserved: str | None) -> list[Dialog]:
    out: list[Dialog] = []
    while len(out) < n:
        d = s.dialog(reserved)
        if d is None:
            continue
        if tok is not None and len(tok.encode(d.reply).ids) + 1 > block_size:
            continue
        out.append(d)
    return out


def build_json_corpus(seed: int, base, n: int, tok=None, block_size: int = 32):
    """``base`` (a :class:`training.corpus.Corpus`) with ``n`` JSON dialogs mixed into its
    training split. The held-out split is left as it is: its scoring is for spoken replies
    (:func:`json_heldout` is the JSON check)."""
    from dataclasses import replace

    train = base.train + json_dialogs(seed, n, tok, block_size)
    random.Random(f"json-mix-{seed}").shuffle(train)
    return replace(base, train=train)
