"""Arguments read from the user's own words, for calls that name a tool and nothing else.

The demo model's calls carry no arguments (``{"name": "units", "arguments": {}}``, see
docs/tools.md): a model that small names the right tool reliably but copies values badly. The
tool then reads the request itself: :func:`read_arguments` turns the user's last utterance
("how many pounds is five kilos", "remind me to call mum in ten minutes") into the arguments a
model that copies them would have written. Calls that carry arguments never come here.
"""

from __future__ import annotations

import re

from voice.tools.timers import parse_duration
from voice.tools.units import find_unit, read_value, unit_at
from words.quantity import read_number, read_quantity, spoken_text

_FILLERS = {"um", "uh", "hmm", "er", "erm", "hey", "okay", "ok", "so", "well", "alright",
            "please", "pls", "diffvoice"}  # fmt: skip
_ASKING = re.compile(
    r"^(?:(?:i was wondering|can you tell me|could you tell me|do you know|you know|tell me|"
    r"excuse me|quick question|hey there|hey diff ?voice|hey div voice)\s*,?\s*)+",
    re.IGNORECASE,
)


_DIGIT_WORDS = {"zero", "oh", "one", "two", "three", "four", "five", "six", "seven", "eight",
                "nine"}  # fmt: skip


def _words(text: str, keep_case: bool = False) -> list[str]:
    """The words of a request, lower case, fillers and stutters ("ft ft") out."""
    t = _ASKING.sub("", text.strip())
    t = re.sub(r"[,!?;:\"“”]|\.(?!\d)", " ", t if keep_case else spoken_text(t))
    out: list[str] = []
    decimals = False  # "point eight eight" repeats a digit on purpose
    for w in t.split():
        if decimals or not out or out[-1].lower() != w.lower():
            out.append(w)
        decimals = w.lower() == "point" or (decimals and w.lower() in _DIGIT_WORDS)
    n = len(out)
    for k in range(n // 2, 1, -1):  # a phrase said twice at the end: "six times two six times two"
        if [x.lower() for x in out[n - 2 * k : n - k]] == [x.lower() for x in out[n - k :]]:
            out = out[: n - k]
            break
    return out


def _trim(words: list[str]) -> list[str]:
    while words and words[0] in _FILLERS:
        words = words[1:]
    while words and words[-1] in _FILLERS | {"for", "me", "then", "now"}:
        words = words[:-1]
    return words


# -- calculator --------------------------------------------------------------------------------
_CALC_HEAD = re.compile(
    r"^(?:(?:and|now|then|ok|okay|so|um|uh|well)\s+)*(?:(?:can|could|would) (?:you|u|ya)\s+)?"
    r"(?:(?:please|pls)\s+)?"
    r"(?:what(?:'s| is|s) the answer to|what(?:'s| is|s| does| do)? ?(?:you get (?:for|if you)|"
    r"it come to)?|how much is|how much are|what are|calculate|compute|work out|figure out|"
    r"solve|tell me|what do you get (?:for|when you)|give me|find)?\s*",
    re.IGNORECASE,
)


_OPERATOR_START = ("minus", "plus", "times", "divided", "multiplied", "add", "subtract",
                   "take", "multiply", "divide", "double", "half", "that")  # fmt: skip


_LEAD = {"you", "if", "me", "with", "does", "do", "math", "the", "help", "what", "what's", "how",
         "much", "is", "a", "quick", "now", "and", "then", "i", "want", "to", "know"}  # fmt: skip


def calculator_args(text: str, calc=None) -> dict:
    """The expression: the request without its asking words ("what's", "can you work
    out", "help me with"); a follow-up that starts with an operator applies to "that"."""
    words = _trim(_words(text))
    w = " ".join(words)
    e = _CALC_HEAD.sub("", w, count=1)
    e = (
        re.sub(
            r"\s*\b(?:for me|please|pls|is|equal to|equals what|equals|equal|come to|comes to|"
            r"make|makes|what)\s*$",
            "",
            e,
        ).strip()
        or w
    )
    e = re.sub(r"\s*\b(?:equal to|equals|come to|make|is)\s*$", "", e).strip() or e
    if calc is not None:
        ws = e.split()
        for i in range(min(len(ws), 5)):  # drop leading words the calculator can't read
            if calc.readable(" ".join(ws[i:])):
                e = " ".join(ws[i:])
                break
    ws = e.split()
    while len(ws) > 1 and ws[0] in _LEAD and read_number(ws, 0) is None:  # not "a thousand"
        ws = ws[1:]
    e = " ".join(ws)
    if calc is not None and calc.last is not None and ws and ws[0] in ("minus", "plus", "take") \
            and "that" not in ws:  # fmt: skip
        e = "that " + e
    return {"expression": e}


# -- units ------------------------------------------------------------------------------------
def _unit_spans(words: list[str]) -> list[tuple[int, int, str]]:
    """Non-overlapping unit mentions (longest first at each place): (start, end, what was said)."""
    out, i = [], 0
    while i < len(words):
        got = unit_at(words, i)
        if got is not None:
            out.append((i, got[1], " ".join(words[i : got[1]])))
            i = got[1]
        else:
            i += 1
    return out


def _quantity(words: list[str]) -> tuple[str, int, int, int] | None:
    """The first amount with its unit ("five kilos", "an ounce", "half a cup", "a mile and a
    half"): (the value as said, where it starts, where its unit starts, where it ends); else the
    first number alone, its unit unknown ("and ten?")."""
    for i in range(len(words)):
        got = read_quantity(words, i, unit_at)
        if got is not None:
            value, _, at, end = got
            said = " ".join(words[i:at])
            if read_value(said) != value:  # "a mile and a half": the value in digits
                exact = value.denominator == 1 or (value * 10**6).denominator > 1
                said = str(value) if exact else str(float(value))
            return said, i, at, end
    for i in range(len(words)):
        got = read_number(words, i)
        if got is not None:
            return " ".join(words[i : got[1]]), i, got[1], got[1]
    return None


class UnitsReader:
    """Reads conversions and remembers the last one, for "and in pounds?" and "what about ten?"."""

    def __init__(self) -> None:
        self.last: dict | None = None

    def args(self, text: str) -> dict:
        # "30°C", "5kg": the number and the unit as two words
        text = re.sub(r"(\d)\s*(°|[a-zA-Z])", r"\1 \2", text.replace("°", " degrees "))
        words = _trim(_words(text))
        q = _quantity(words)
        spans = _unit_spans(words)
        args: dict = {}
        if q is not None:
            args["value"], start, at, end = q
            src = next((s for s in spans if s[0] == at), None)
            if src is not None:
                args["from"] = src[2]
            rest = [s for s in spans if s is not src and not start <= s[0] < end]
            if rest:
                args["to"] = rest[0][2]
        elif spans:
            args["to"] = spans[-1][2]
        last = self.last or {}
        if q is not None and "from" not in args and "to" in args and last:
            args["from"], args["to"] = args["to"], last.get("to", "")
            if find_unit(args["from"]) != find_unit(last.get("from", "")):
                args["to"] = last.get("to", "")
        for k in ("value", "from", "to"):
            args.setdefault(k, last.get(k, ""))
        self.last = dict(args)
        return args


# -- clock ------------------------------------------------------------------------------------
def clock_args(text: str) -> dict:
    w = " ".join(_trim(_words(text)))
    if "zone" in w:
        return {"what": "zone"}
    if re.search(r"\b(until|till|til|sleeps|days to|long is it to|far away|count the days)\b", w) \
            or re.match(r"^(when is|is .+ soon)", w):  # fmt: skip
        m = re.search(r"\b(?:until|till|til|to|before)\s+(.+)$", w)
        if m is None:
            m = re.search(r"^(?:when is|how far away is|is)\s+(.+?)(?:\s+soon)?$", w)
        d = m.group(1) if m else w
        d = re.sub(r"\s+(?:soon|from now|from today)$", "", d).strip()
        return {"what": "until", "date": d}
    if "date" in w or "month" in w or "year" in w:
        return {"what": "date"}
    if (
        re.search(
            r"\b(day|weekday|today|weekend|monday|tuesday|wednesday|thursday|friday|"
            r"saturday|sunday)\b",
            w,
        )
        and "time" not in w
    ):
        return {"what": "day"}
    return {"what": "time"}


# -- timers -----------------------------------------------------------------------------------
def _duration_span(words: list[str]) -> tuple[int, int] | None:
    best = None
    for i in range(len(words)):
        for j in range(min(len(words), i + 8), i, -1):
            if best is not None and j - i <= best[1] - best[0]:
                break
            if parse_duration(" ".join(words[i:j])) is not None:
                best = (i, j)
                break
    return best


_TIMER_WORDS = {"set", "start", "a", "an", "timer", "for", "the", "called", "put", "on", "can",
                "could", "you", "please", "i", "need", "my", "time", "countdown", "me", "of",
                "cancel", "stop", "delete", "turn", "off", "never", "mind", "kill", "get", "rid",
                "how", "long", "is", "left", "much", "longer", "until", "done", "when",
                "remove", "clear", "timers", "time's", "it", "up", "check", "what", "what's",
                "named", "labelled", "labeled", "and", "u", "ya", "would", "to", "go",
                "does", "goes", "doing", "how's", "hows", "have", "got", "i've", "any", "are",
                "there", "running", "show", "list", "which", "do", "timer's",
                "reminder", "actually", "that", "this", "one", "just", "now", "oh", "wait",
                "no", "instead", "last"}  # fmt: skip


def _label(words: list[str]) -> str:
    return " ".join(w for w in words if w not in _TIMER_WORDS)


def timer_args(text: str) -> dict:
    words = _trim(_words(text))
    w = " ".join(words)
    span = _duration_span(words)
    if span and words[span[0]] in ("for", "in") and span[1] - span[0] > 1:
        span = (span[0] + 1, span[1])
    while span and span[1] - span[0] > 1 and words[span[1] - 1] in ("for", "to", "in", "and"):
        span = (span[0], span[1] - 1)
    dur = " ".join(words[span[0] : span[1]]) if span else None
    rest = words[: span[0]] + ["|"] + words[span[1] :] if span else words
    if re.search(r"\b(remind|reminder|forget)\b", w) and dur is not None:
        m = re.search(r"\b(?:that i have to|to)\s+(.+)$", " ".join(words[: span[0]]))
        task = m.group(1) if m else None
        if task is None or not task.strip():
            m = re.search(r"\b(?:that i have to|to)\s+(.+)$", " ".join(words[span[1] :]))
            task = m.group(1) if m else ""
        task = re.sub(r"\s*(?:,?\s*remind me|in)\s*$", "", task.strip())
        if not task:
            m = re.search(r"\bneed to\s+(.+)$", " ".join(words[: span[0]]))
            task = re.sub(r"\s+in$", "", m.group(1)) if m else ""
        return {"action": "remind", "duration": dur, "label": task}
    if re.search(r"\b(cancel|stop|delete|turn off|never mind|kill|get rid|remove|clear)\b", w):
        if re.search(r"\b(all|every|everything)\b", w):
            return {"action": "cancel", "label": "all"}
        lab = _label(words)
        return {"action": "cancel", **({"label": lab} if lab else {})}
    if dur is None and re.search(r"\b(left|longer|how long|until|when|check|how's|done)\b", w):
        lab = _label(words)
        return {"action": "left", **({"label": lab} if lab else {})}
    if dur is None:
        return {"action": "list"}
    lab = _label([x for x in rest if x != "|"])
    return {"action": "set", "duration": dur, **({"label": lab} if lab else {})}


# -- spelling ---------------------------------------------------------------------------------
def spell_args(text: str) -> dict:
    orig = _trim(_words(text, keep_case=True))
    words = [x.lower() for x in orig]
    w = " ".join(words)
    m = re.search(r"\b(?:spell|spel)(?: out)?(?: the word)?\s+([a-z'-]+)", w) \
        or re.search(r"\b(?:is|how's|hows)\s+([a-z'-]+)\s+spelled", w) \
        or re.search(r"\bspelling of\s+([a-z'-]+)", w) \
        or re.search(r"\bwrite\s+([a-z'-]+)", w)  # fmt: skip
    if m:
        low = m.group(1)
        return {"word": next((o for o in orig if o.lower() == low), low)}
    rest = [o for o in orig if o.lower() not in {"and", "what", "about", "how", "now", "letter",
                                                   "by"}]  # fmt: skip
    return {"word": rest[-1] if rest else ""}


def read_arguments(name: str, text: str, units: UnitsReader, calc=None) -> dict:
    """The arguments for a call to ``name`` that carried none, from the user's words."""
    if name == "calculator":
        return calculator_args(text, calc)
    if name == "units":
        return units.args(text)
    if name == "clock":
        return clock_args(text)
    if name == "timer":
        return timer_args(text)
    if name == "spell":
        return spell_args(text)
    return {}
