"""Held-out labelled set for structured (JSON-schema) answers: ``HELD_OUT``.

Written by an independent helper who did not see the implementation (``engine/fill.py``,
``engine/grammar.py``, ``engine/engine.py``) nor the other labelled set, ``LABELLED`` in
``bench/constrained.py`` (which runs both: ``diffvoice bench --constrained``); only
``training/facts.py`` was read, to pick the facts.

Each entry is ``(question, schema, want)``: a request as an API integrator or an ordinary person
would type it, a JSON Schema object (``"type": "object"``, ``"properties"``, ``"required"``,
``"additionalProperties": false``), and the correct value for every *required* property
(strings graded case-insensitively as substrings, e.g. ``"peso"`` for "the Mexican peso";
integers graded by equality). One schema carries an optional property that is deliberately left
out of ``want``.

How it differs from ``LABELLED``:

- **Wordings.** Written here, not drawn from the training templates: imperatives ("Tell me...",
  "Look up...", "Name..."), indirect requests ("I need to know...", "Could you find out..."),
  terse fragments ("thailand capital?"), filler ("So, um, ..."), all-caps, and two items with
  typos ("februray", "whats the capitol").
- **Key names.** Chosen independently and mixed in style: snake_case (``currency_name``),
  camelCase (``capitalCity``, ``planetName``), single words (``lang``, ``sum``, ``region``).
- **JSON mentions.** About a third of the questions mention JSON the way integrators do
  ("respond in JSON", "Return JSON.", "as a JSON object"); the rest rely on the schema alone.
- **Shape mix.** 14 single string fields, 5 single integer fields, 2 string enums (continent),
  3 multi-field objects (country + capital, continent + capital, a + b + product).

The facts are the demo model's training facts (countries' capitals, continents, languages and
currencies; planets; calendar counts and months/weekdays) or small whole-number arithmetic, so
the set measures whether the constrained fields hold what the model already knows in prose, not
the model's knowledge.
"""

from __future__ import annotations


def _obj(props: dict, required: list[str] | None = None) -> dict:
    """A closed object schema; every property required unless ``required`` says otherwise."""
    return {
        "type": "object",
        "properties": props,
        "required": list(props) if required is None else required,
        "additionalProperties": False,
    }


_S = {"type": "string"}
_I = {"type": "integer"}
_CONTINENTS = {
    "type": "string",
    "enum": ["Europe", "Asia", "Africa", "North America", "South America", "Oceania"],
}

HELD_OUT: tuple[tuple[str, dict, dict], ...] = (
    # --- single string field (14) ---
    ("thailand capital?", _obj({"capital": _S}), {"capital": "Bangkok"}),
    ("Tell me the capital of Australia, respond in JSON.",
     _obj({"capitalCity": _S}), {"capitalCity": "Canberra"}),
    ("I need to know what language they speak in Greece.",
     _obj({"lang": _S}), {"lang": "Greek"}),
    ("Look up the currency used in Switzerland and return it as a JSON object.",
     _obj({"currency_name": _S, "symbol": _S}, required=["currency_name"]),
     {"currency_name": "franc"}),
    ("Could you find out which planet is closest to the sun?",
     _obj({"planet": _S}), {"planet": "Mercury"}),
    ("what month comes after februray", _obj({"month": _S}), {"month": "March"}),
    ("Name the day that comes right before Sunday. Return JSON.",
     _obj({"day": _S}), {"day": "Saturday"}),
    ("whats the capitol of egypt", _obj({"city": _S}), {"city": "Cairo"}),
    ("Which language is spoken in the Netherlands? Answer in JSON.",
     _obj({"language": _S}), {"language": "Dutch"}),
    ("Hey, quick question, what money do they use over in Mexico?",
     _obj({"currency": _S}), {"currency": "peso"}),
    ("EIGHTH PLANET FROM THE SUN", _obj({"planetName": _S}), {"planetName": "Neptune"}),
    ("So, um, what's the capital city of South Korea, if you don't mind?",
     _obj({"capital_city": _S}), {"capital_city": "Seoul"}),
    ("Tell me the month before October.",
     _obj({"previousMonth": _S}), {"previousMonth": "September"}),
    ("Give me the main language of Portugal as a JSON object.",
     _obj({"officialLanguage": _S}), {"officialLanguage": "Portuguese"}),
    # --- string enum (2) ---
    ("Which continent is Nigeria in?", _obj({"continent": _CONTINENTS}),
     {"continent": "Africa"}),
    ("I'd like to know what continent Canada is on. JSON please.",
     _obj({"region": _CONTINENTS}), {"region": "North America"}),
    # --- single integer field (5) ---
    ("What is 23 plus 48? Respond in JSON.", _obj({"sum": _I}), {"sum": 71}),
    ("Could you work out 15 times 6 for me?", _obj({"product": _I}), {"product": 90}),
    ("how many days in a fortnight", _obj({"days": _I}), {"days": 14}),
    ("Subtract 19 from 64 and give me the result.",
     _obj({"difference": _I}), {"difference": 45}),
    ("How many planets are there in the solar system? Return JSON.",
     _obj({"count": _I}), {"count": 8}),
    # --- several fields (3) ---
    ("Tell me the capital of Sweden, and name the country in the answer too.",
     _obj({"country": _S, "capital": _S}), {"country": "Sweden", "capital": "Stockholm"}),
    ("Where is Argentina, and what's its capital?",
     _obj({"continent": _S, "capital": _S}),
     {"continent": "South America", "capital": "Buenos Aires"}),
    ("What's 8 times 7? Give both numbers and the product as JSON.",
     _obj({"a": _I, "b": _I, "product": _I}), {"a": 8, "b": 7, "product": 56}),
)
