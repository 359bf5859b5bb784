"""Structured replies filled from a prose draft: what the model would say, in the schema's shape.

A model can answer well in sentences and never have learnt to write JSON values: the demo
model says "The capital of Norway is Oslo." but, held to ``{"city":"``, writes ``., that that``.
For such a model (``EngineConfig.json_from_draft``, or its checkpoint's
``"diffvoice": {"json_from_draft": true}``) the engine first drafts the reply as the model would
say it, unconstrained, then :func:`propose` turns the draft into a JSON reply for the schema. The
proposal is only that: the grammar checks each of its tokens and commits what it accepts
without a forward pass (``Constraint.propose``); where the draft gives no value for a field
the proposal ends, and the model decodes the rest under the grammar as before. Validity never
depends on the draft.

Values come from the draft's *new* words, those the question did not already say:

- numbers (``integer``, ``number``): the numbers said in the draft, digits or words, the last
  new one first ("give me seven plus five" → "Seven plus five is twelve." → 12);
- strings: runs of the draft's content words the question did not say, names first, then the
  run that ends the sentence ("which planet is the biggest one" → "Jupiter is one largest
  planet." → "Jupiter"; "which currency do they use in japan" → "The currency of Japan is the
  yen." → "yen"). A field whose key the draft or the question mentions chooses first; a field
  left with no new words takes a name the question gave ("capital of italy" with ``country``
  and ``capital`` → "Italy", "Rome");
- ``enum`` and ``const``: the member the draft names, the constant itself; ``boolean``: a
  draft that starts with yes or no; arrays: the remaining new values, within the item bounds;
  nested objects: the same, field by field. Optional fields are left to the model.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from fractions import Fraction

from words.quantity import read_number, spoken_text

_STOP = frozenset(
    "a an the is are was were be been being am it its it's this that these those there here "
    "of in on at to for from by with and or but as about into than then so not no yes "
    "do does did can could would should will shall may might must has have had "
    "i me my we our you your he him his she her they them their what which who whom whose "
    "when where why how please just also very one called named around some".split()
)
_WORD = re.compile(r"[^\W_]+(?:['’.\-][^\W_]+)*")
_REFUSAL = re.compile(r"(?i)\b(?:sorry|can't|cannot|can not|don't know|not sure|unable)\b")
_YES = ("yes", "yeah", "yep", "true", "correct", "right", "sure")
_NO = ("no", "nope", "false", "not", "never", "wrong")


class _Stop(Exception):
    """The draft gives no value here: the proposal ends before it."""


@dataclass
class _Draft:
    """The draft's material: new word runs, names from the question, and numbers."""

    text: str
    runs: list[tuple[int, str]] = field(default_factory=list)  # (place, words), best first
    names: list[str] = field(default_factory=list)  # capitalised words the question also said
    numbers: list[Fraction] = field(default_factory=list)  # best first
    mentioned: set[str] = field(default_factory=set)

    @classmethod
    def read(cls, draft: str, question: str) -> _Draft:
        d = cls(draft)
        if _REFUSAL.search(draft):  # "Sorry, I can't help with that": no values in it
            return d
        asked = {w.lower() for w in _WORD.findall(question)}
        found = list(_WORD.finditer(draft))
        d.mentioned = asked | {m.group().lower() for m in found}
        runs: list[list[str]] = []
        prev_new, end = False, 0
        for m in found:
            w = m.group()
            joined = prev_new and not draft[end:m.start()].strip()  # no punctuation between
            end = m.end()
            word = w.lower() not in _STOP and read_number([w.lower()]) is None  # not a number
            new = word and w.lower() not in asked
            if new:
                if joined:
                    runs[-1].append(w)
                else:
                    runs.append([w])
            elif word and w[:1].isupper():  # a name the question said
                if w not in d.names:
                    d.names.append(w)
            prev_new = new
        last = len(runs) - 1
        order = sorted(range(len(runs)), key=lambda i: (
            not any(w[:1].isupper() and w != "I" for w in runs[i]), i != last, i))
        d.runs = [(i, " ".join(runs[i])) for i in order]
        said, heard = _numbers(draft), _numbers(question)
        fresh = []
        for x in said:
            if x in heard:
                heard.remove(x)
            else:
                fresh.append(x)
        d.numbers = fresh[::-1] + [x for x in said[::-1] if x not in fresh]
        return d

    def take_string(self, in_order: bool = False) -> str:
        """The best string left (an array's items: the next in the draft's order)."""
        if self.runs:
            i = min(range(len(self.runs)), key=lambda j: self.runs[j][0]) if in_order else 0
            return self.runs.pop(i)[1]
        if self.names:
            return self.names.pop(0)
        if self.numbers:  # a string field for a number ("the answer": "12")
            return str(_plain(self.numbers.pop(0)))
        raise _Stop

    def take_number(self, integer: bool) -> int | float:
        for i, x in enumerate(self.numbers):
            if not integer or x.denominator == 1:
                del self.numbers[i]
                return _plain(x)
        raise _Stop


def _plain(x: Fraction) -> int | float:
    return int(x) if x.denominator == 1 else float(x)


def _numbers(text: str) -> list[Fraction]:
    # sentence punctuation off the words' ends, not out of them: "2.5" stays one number
    words = [w.rstrip(".?!;:") for w in spoken_text(text).replace(",", " ").split()]
    out, i = [], 0
    while i < len(words):
        got = None if words[i] in ("a", "an") else read_number(words, i)
        if got is None:
            i += 1
            continue
        out.append(got[0])
        i = max(got[1], i + 1)
    return out


def _key_words(key: str) -> list[str]:
    spaced = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", key).replace("_", " ").replace("-", " ")
    return [w.lower() for w in spaced.split()]


def _types(schema: dict) -> list[str]:
    t = schema.get("type")
    if isinstance(t, list):
        return [x for x in t if x != "null"] or ["null"]
    if t:
        return [t]
    if "properties" in schema:
        return ["object"]
    if "items" in schema:
        return ["array"]
    return []


def _value(schema: dict, d: _Draft, in_order: bool = False) -> object:
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        said = d.text.lower()
        for m in schema["enum"]:
            if isinstance(m, str) and re.search(rf"\b{re.escape(m.lower())}\b", said):
                return m
            if isinstance(m, int | float) and not isinstance(m, bool) and m in d.numbers:
                d.numbers.remove(m)
                return m
        raise _Stop
    for alt in schema.get("anyOf", schema.get("oneOf", [])):
        try:
            return _value(alt, d, in_order)
        except _Stop:
            continue
    for t in _types(schema):
        try:
            if t == "string":
                return d.take_string(in_order)
            if t in ("integer", "number"):
                return d.take_number(t == "integer")
            if t == "boolean":
                first = _WORD.findall(d.text.lower())[:1]
                if first and first[0] in _YES:
                    return True
                if first and first[0] in _NO:
                    return False
                raise _Stop
        except _Stop:
            continue
    raise _Stop


class _Writer:
    """Compact JSON (the grammar's separators: ``JSON_OPTIONS``), written value by value so
    that the text up to a value the draft does not give is still a proposal."""

    def __init__(self, d: _Draft) -> None:
        self.d = d
        self.out: list[str] = []

    def emit(self, schema: dict) -> None:
        types = _types(schema)
        if "object" in types and isinstance(schema.get("properties"), dict):
            self.obj(schema)
        elif "array" in types and isinstance(schema.get("items"), dict):
            self.array(schema)
        else:
            self.out.append(json.dumps(_value(schema, self.d), ensure_ascii=False))

    def obj(self, schema: dict) -> None:
        props: dict = schema["properties"]
        required = [k for k in props if k in schema.get("required", [])]
        # A field the draft or question names picks first ("capital" in "The capital of
        # Italy is Rome."); the text is still written in the schema's order.
        order = sorted(required, key=lambda k: not set(_key_words(k)) & self.d.mentioned)
        values: dict[str, str | None] = {}  # None: the draft gives no value
        for k in order:
            w = _Writer(self.d)
            try:
                w.emit(props[k])
            except _Stop:
                values[k] = None
                continue
            values[k] = "".join(w.out)
        self.out.append("{")
        for i, k in enumerate(required):
            self.out.append(("," if i else "") + json.dumps(k, ensure_ascii=False) + ":")
            if values[k] is None:
                raise _Stop
            self.out.append(values[k])
        self.out.append("}")

    def array(self, schema: dict) -> None:
        item, lo = schema["items"], int(schema.get("minItems", 0))
        hi = int(schema.get("maxItems", 8))
        self.out.append("[")
        n = 0
        while n < hi:
            try:
                v = json.dumps(_value(item, self.d, in_order=True), ensure_ascii=False)
            except _Stop:
                if n < lo:
                    raise
                break
            self.out.append(("," if n else "") + v)
            n += 1
        self.out.append("]")


# A request's words about the reply's format: the grammar's business, not the draft's. OpenAI's
# json mode asks integrators to say "JSON" in the messages, so prompts carry them often:
# "Reply in JSON.", "Respond only with valid JSON", "... as JSON", "... in JSON format".
_SENTENCE = re.compile(r"[^.!?\n]+[.!?\n]*")
_FORMAT_WORDS = frozenset(
    "json reply respond answer output return write give format formatted only valid strict "
    "plain object schema please always must should just your you the a an in as with using into "
    "use and be it all replies responses response answers you are helpful assistant designed to "
    "that outputs returns produces writes only".split()
)
_FORMAT_PHRASE = re.compile(
    r"(?i)[,;]?\s*\b(?:(?:formatted|written|returned|given)\s+)?(?:as|in|into|using|with)\s+"
    r"(?:an?\s+)?(?:valid\s+|strict\s+|plain\s+)?json(?:\s+(?:object|format|form|schema))?\b")


def _without_format(text: str) -> str:
    kept = []
    for sentence in _SENTENCE.findall(text):
        words = {w.lower() for w in _WORD.findall(sentence)}
        if "json" in words and words <= _FORMAT_WORDS:
            continue  # "Reply in JSON only."
        kept.append(_FORMAT_PHRASE.sub("", sentence) if "json" in words else sentence)
    return re.sub(r"\s{2,}", " ", "".join(kept)).strip()


def prose_request(messages: list[dict]) -> list[dict]:
    """The conversation the draft answers: the same, less what it says about JSON (a user
    message keeps its question: "the capital of Kenya as JSON" → "the capital of Kenya"; a
    sentence that is only about the format goes: "Reply in JSON only.")."""
    out = []
    for m in messages:
        text = m.get("content")
        if isinstance(text, str) and re.search(r"(?i)\bjson\b", text):
            text = _without_format(text)
            if not text and m["role"] == "system":
                continue
            m = {**m, "content": text or m["content"]}
        out.append(m)
    return out


def propose(schema: object, question: str, draft: str) -> str:
    """A JSON reply for ``schema`` with the values the draft gives, or its prefix up to the
    first value the draft does not give ("" when it gives nothing usable)."""
    if not isinstance(schema, dict) or not draft.strip():
        return ""
    w = _Writer(_Draft.read(draft, question))
    try:
        w.emit(schema)
    except _Stop:
        pass
    return "".join(w.out)
