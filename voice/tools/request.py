"""Arguments read from the user's own words, for calls that name a tool and nothing else.

The demo model's calls carry no arguments (``{"name": "units", "arguments": {}}``, see
docs/tools.md): a model that small names the right tool reliably but copies values badly. The
tool then reads the request itself: :func:`read_arguments` turns the user's last utterance
("how many pounds is five kilos", "remind me to call mum in ten minutes") into the arguments a
model that copies them would have written. Calls that carry arguments never come here.
"""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal
from fractions import Fraction

from voice.tools.calculator import added, go_into
from voice.tools.clock import offset_days, parse_date
from voice.tools.timers import parse_duration
from voice.tools.units import convertible, find_unit, read_value, unit_at
from words.calendar import WEEKDAYS
from words.quantity import VAGUE, read_number, read_quantity, spoken_text

_FILLERS = {"um", "uh", "hmm", "er", "erm", "hey", "okay", "ok", "so", "well", "alright",
            "please", "pls", "diffvoice"}  # fmt: skip
_ASKING = re.compile(
    r"^(?:(?:i was wondering|can you tell me|could you tell me|do you know|you know|tell me|"
    r"excuse me|quick question|hey there|hey diff ?voice|hey div voice|"
    r"one (?:more|last|other) (?:thing|question))\s*,?\s*)+",
    re.IGNORECASE,
)


# Words that announce a request and are never part of it, wherever they are said.
_ASIDE = re.compile(r"\bone (?:more|last|other) (?:thing|question)\b", re.IGNORECASE)
_DIGIT_WORDS = {"zero", "oh", "one", "two", "three", "four", "five", "six", "seven", "eight",
                "nine"}  # fmt: skip


# A correction set off by commas: "ten, no, twelve minutes", "3 kilos, sorry, 4 kilos".
_REPAIR = re.compile(r"(?:,\s*(?:no wait|no hang on|no sorry|sorry,? i meant|sorry|no|i meant|"
                     r"i mean|actually|wait|hang on|or rather|scratch that|make that|make it)|"
                     # after a full stop only what can be nothing but a correction: "set a timer
                     # for 5 hours, i'm going to sleep. actually, um, 8 hours" (Whisper ends a
                     # sentence where the speaker paused: "capital of Sweden? No hang on,
                     # Norway."), or a bare "sorry"/"no" before a last word or three ("three
                     # kilos? Sorry, four kilos.")
                     r"\.\s*(?:(?:um|uh|er),?\s+)?(?:actually|no wait|i meant|i mean|or rather|"
                     r"scratch that|make that|make it)|"
                     # (after a question, "I mean" says more: "1.5 kilos? I mean weight")
                     r"[.?!]\s*(?:(?:um|uh|er),?\s+)?(?:no wait|no hang on|hang on|no sorry|"
                     r"(?:sorry|no)(?=,?\s+(?:[\w'-]+\s+){0,2}[\w'-]+[.!]?\s*$)"
                     r"(?!,?\s+(?:what|what's|whats|how|when|where|who|why|which|is|are|can|"
                     r"could|do|does|will|would|tell|set|spell|convert|thanks|thank)\b))"
                     r")\s*[,.]?\s+(?:(?:um|uh|er),?\s+)?"
                     r"(?:make (?:it|that)\s+|i meant\s+|i mean\s+)?",
                     re.IGNORECASE)  # fmt: skip


# Words said around what is corrected, never what a correction replaces.
_AROUND = {"me", "for", "please", "pls", "then", "thanks", "mate", "love", "dear", "us", "now"}


def _repaired(text: str) -> str:
    """The request as the speaker corrected it: what follows the correction takes the place of
    what it corrects, from the last number before it when it starts with a number ("45 plus,
    sorry, 46 plus 19" → "46 plus 19"), else from its own first word's last use ("spell
    receive, I mean, spell receipt"), else the word before it ("Sweden, no, Norway"); words of
    the corrected part past the correction's length stay ("5 minutes, actually, 10" → "10
    minutes")."""
    for _ in range(3):
        m = _REPAIR.search(text)
        if m is None or not text[m.end() :].strip():
            return text
        # the correction runs to its clause's end; what follows is said after it
        core, _, after = re.split(r"([,;.!?](?:\s|$))", text[m.end() :] + " ", maxsplit=1) \
            if re.search(r"[,;.!?](?:\s|$)", text[m.end() :] + " ") else (text[m.end() :], "", "")
        before, repair = text[: m.start()].split(), core.split()
        if not repair:
            return text
        if not before:
            return text
        low = [w.lower().strip(".,?!") for w in before]
        first = repair[0].lower().strip(".,?!")
        nums = [k for k in range(len(before)) if read_number(low, k) is not None
                and not (low[k] in ("minus", "negative") and k and k - 1 in _starts(low))]
        rlow = [w.lower().strip(".,?!") for w in repair]
        if read_number([first], 0) is not None and nums and len(_starts(rlow)) > 1 \
                and len(_starts(low)) > 1:  # fmt: skip
            start = nums[0]  # a whole sum said again: "500 minus 175, I meant 450 minus 175"
        elif read_number([first], 0) is not None and nums:
            # the number the last one is part of: "forty five", "two hundred and seventy two"
            start = min(k for k in nums if read_number(low, k)[1] > nums[-1])
        elif first in low:
            start = len(low) - 1 - low[::-1].index(first)
        else:  # the last word that says something ("spell heparin for me, sorry, warfarin")
            start = next((k for k in range(len(low) - 1, -1, -1) if low[k] not in _AROUND),
                         len(before) - 1)  # fmt: skip
        text = " ".join(before[:start] + repair + before[start + len(repair) :])
        tail = after.strip()
        if tail and tail.strip(" .!?,").lower() not in ("sorry", "thanks", "please", "cheers"):
            text = f"{text}, {tail}"
    return text


def _starts(words: list[str]) -> set[int]:
    """Where the numbers of ``words`` start (a number's own words not counted again)."""
    out, i = set(), 0
    while i < len(words):
        got = read_number(words, i)
        if got is None or (words[i] in ("minus", "negative") and i - 1 in out):
            i += 1
            continue
        out.add(i)
        i = got[1]
    return out


# What a phone keyboard types for a word (Whisper never writes these): "date 2day?", "day b4
# thursday", "wats 13*7", "remind me 2 call the vet", "cap of morocco? & spain?".
_SHORTHAND = {"2day": "today", "2nite": "tonight", "tonite": "tonight", "2moro": "tomorrow",
              "2morrow": "tomorrow", "tmrw": "tomorrow", "tmr": "tomorrow", "b4": "before",
              "wat": "what", "wot": "what", "wats": "whats", "wots": "whats", "u": "you",
              "ur": "your", "plz": "please", "pls": "please", "cuz": "because",
              "coz": "because", "&": "and", "hw": "how", "abt": "about", "thru": "through",
              "nxt": "next", "wk": "week", "yr": "year"}  # fmt: skip
_SHORTHAND_RE = re.compile(r"(?<![\w'])(" + "|".join(map(re.escape, _SHORTHAND)) + r")(?![\w'])",
                           re.IGNORECASE)  # fmt: skip


# Said to the listener, not of the request, at the end of a clause: a name for them set off by a
# comma (", dear?", ", mate", ", young man") or a speaker's particle ("honestly", "fr", "tbh").
_VOCATIVE = re.compile(
    r",\s*(?:my )?(?:dear|love|darling|sweetheart|sweetie|pet|hun|honey|mate|pal|buddy|bro|"
    r"bruh|dude|man|sir|ma'am|madam|young (?:man|lady)|kiddo|boss|chief|lah|po|na|eh|oh|"
    r"innit|ya know|you know)(?=\s*[?.!,]|\s*$)"
    r"|(?<!spell)(?<!spelt)(?<!spelled)(?<!word)\s+(?:honestly|seriously|fr|frfr|tbh|ngl|"
    r"lowkey|bruh|innit|please and thank you)(?=\s*[?.!,]|\s*$)", re.IGNORECASE)


# Another assistant's name, said first out of habit ("Alexa, ...", "hey Google", "OK Google",
# "Hey Siri", "hi Bixby", "hey Cortana"; "hey buddy" on a child's tablet).
_WAKE = re.compile(r"^\W*(?:(?:(?:hey|hi|ok|okay|hello|yo)\W+)?(?:alexa|siri|cortana|bixby)\b|"
                   r"(?:hey|hi|ok|okay|hello|yo)\W+(?:google|buddy|assistant|computer|jarvis)\b|"
                   r"(?:google|assistant|computer)(?=,))[\s,.!:]*", re.IGNORECASE)


# Where a request is read from, said first: a question's number on a sheet ("question 11:",
# "quiz question 1:", "round 3, question 6:", "Q4."), or what says it ("the card says", "number
# ten on the sheet says", "the label reads").
_SOURCE = re.compile(
    r"^\W*(?:(?:quiz |pub quiz |the )?(?:round \w+,?\s+)?(?:(?:question|number|no\.?|item|"
    r"exercise|problem)\b\s*#?\w+|q\s*#?\d+)\s*[:.,-]\s*(?=\S)|"
    r"(?:[\w']+\s+){1,6}?(?:says|reads|said|asks|shows)\b[\s:,]*(?=[\d$£€]))", re.IGNORECASE)


def typed_text(text: str) -> str:
    """A typed request in the words it stands for: texting shorthand spelt out ("2day",
    "b4", "wat", "u", "&", "cap of"), "2" for "to" after "remind me", "tell me", "how" or
    "going" before a word that is not a plural ("remind me 2 call", not "give me 2
    minutes"), a dash that sets off a correction or an afterthought as a comma ("timer 8 min--
    make it 10", "cupboard-- spell it"), a restart said once ("what I— what I need is"), a
    correction before a number set off by commas ("24 minutes i mean 16"), a learner's "and
    half" as "and a half", a name for the listener or a particle at a clause's end off (",
    dear?", "fr"), and a trailing "=?" or "lol" off ("62+20+34=?", "what day is it 2day
    lol")."""
    t = text.replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')
    t = _SHORTHAND_RE.sub(lambda m: _SHORTHAND[m.group(1).lower()], t)
    t = re.sub(r"\b(remind me|tell me|how|going) 2 (?=[a-z]+\b)(?![a-z]+s\b)", r"\1 to ", t,
               flags=re.IGNORECASE)  # fmt: skip
    t = re.sub(r"\b(\w[\w' ]{0,30}?)\s*(?:—|–|--|\.\.\.|…)\s*\1\b", r"\1", t,
               flags=re.IGNORECASE)  # a restart: "what I— what I need is"  # fmt: skip
    t = re.sub(r"\bcap of\b", "capital of", t, flags=re.IGNORECASE)
    t = re.sub(r"\b(multiply|divide|add|times|double|halve|spell|convert|cancel|minus|take)\s+am\b",
               r"\1 it", t, flags=re.IGNORECASE)  # pidgin's "am" for it: "multiply am by five"
    t = re.sub(r"\band half\b", "and a half", t, flags=re.IGNORECASE)  # "3 hours and half"
    t = re.sub(r"(?:[\s,.!]+(?:lol|lmao|haha+|xx+|ty|thx|tia|rn))+[\s.!?]*$", "", t,
               flags=re.IGNORECASE)  # "what day is it 2day lol"  # fmt: skip
    t = _WAKE.sub("", t)  # "Alexa, what's 10% of 40?", "hey google queue spelling"
    t = _SOURCE.sub("", t, count=1) or t  # "question 11: 108 divided by 12", "the card says ..."
    t = re.sub(r"\b(to|from|by|of|on|with|times|plus|minus|off|double|halve) (?:that|the) "
               r"(?:answer|result|total|figure)\b", r"\1 that", t,
               flags=re.IGNORECASE)  # "add 49 to that answer"  # fmt: skip
    for _ in range(3):  # "What's 57 and 61, dear?", "whats the date today fr fr"
        t = _VOCATIVE.sub("", t)
    t = re.sub(r"\s*(?:-{2,}|—|–)\s*", ", ", t)
    t = re.sub(r"(?<=[\w])(?<!actually)(?<!sorry)(?<!\bno)(?<!wait)\s+"
               r"(i mean|i meant|no wait|no sorry|or rather)\s+(?=\d)",
               r", \1, ", t, flags=re.IGNORECASE)  # "24 minutes i mean 16"  # fmt: skip
    return re.sub(r"\s*=\s*\?*\s*$", "", t).strip(" ,")


def _words(text: str, keep_case: bool = False) -> list[str]:
    """The words of a request, lower case, fillers and stutters ("ft ft") out, corrections
    made."""
    t = _ASKING.sub("", _ASIDE.sub(" ", _repaired(text.strip())))
    t = re.sub(r"[,!?;:\"“”]|\.(?!\d)", " ", t if keep_case else spoken_text(t))
    out: list[str] = []
    decimals = False  # "point eight eight" repeats a digit on purpose
    for w in t.split():
        if decimals or not out or out[-1].lower() != w.lower():
            out.append(w)
        decimals = w.lower() == "point" or (decimals and w.lower() in _DIGIT_WORDS)
    n = len(out)
    for k in range(n // 2, 1, -1):  # a phrase said twice at the end: "six times two six times two"
        if [x.lower() for x in out[n - 2 * k : n - k]] == [x.lower() for x in out[n - k :]] \
                and out[n - k].lower() not in _SUM_WORDS:  # "14 plus 14 plus 14" is a sum
            out = out[: n - k]
            break
    return out


_SUM_WORDS = {"plus", "minus", "times", "and", "divided", "multiplied", "over", "x"}


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
    r"solve|tell me|what do you get (?:for|when you|when|if)|what's the result (?:of|when)|"
    r"the result of|give me|find)?\s*",
    re.IGNORECASE,
)


_OPERATOR_START = ("minus", "plus", "times", "divided", "multiplied", "add", "subtract",
                   "take", "multiply", "divide", "double", "half", "that")  # fmt: skip


_LEAD = {"you", "if", "me", "with", "does", "do", "math", "the", "help", "what", "what's", "how",
         "much", "is", "a", "quick", "now", "and", "then", "i", "want", "to", "know"}  # fmt: skip


def _calculation_in(ws: list[str], calc) -> str | None:
    """The longest run of words the calculator reads as a calculation (not a number alone),
    the earliest of equal length: the request's own framing around it ("I need ... worked
    out", "help me with some sums: ...", "..., what does that come out at") is left out
    whatever its words, where a list of asking phrases would only know the ones written."""
    ws = ws[:30]
    for size in range(len(ws), 1, -1):
        for i in range(len(ws) - size + 1):
            span = ws[i : i + size]
            if _has_number(ws[:i]) or _has_number(ws[i + size :]):
                continue  # a number said is never left out of the sum
            if span[-1] in ("square", "cube") and i + size < len(ws):
                continue  # "5 square" of "5 square metres": a unit, not a power
            bare = read_number(span, 0)
            if (bare is None or bare[1] < size) and calc.readable(" ".join(span)):
                while span[0] in _FRAMING and calc.readable(" ".join(span[1:])):
                    span = span[1:]  # "work 16 minus 5 out": the calculator skips "work"
                while span[-1] in _FRAMING and calc.readable(" ".join(span[:-1])):
                    span = span[:-1]
                return " ".join(span)
    return None


def _has_number(words: list[str]) -> bool:
    return any(read_number(words, k) is not None for k in range(len(words)))


# Words the calculator skips that belong to the request's framing, not the sum.
_FRAMING = {"work", "out", "what", "does", "do", "is", "come", "to", "at", "for", "me", "please",
            "the", "answer", "then", "now", "so", "okay", "ok", "tell", "can", "you", "could",
            "make", "makes", "equals", "equal", "exactly"}  # fmt: skip


def _clauses(text: str) -> list[str]:
    """The request's clauses as written (split at commas, semicolons, sentence ends; not at the
    commas of a list of numbers, "add up 18, 15, 16 and 13")."""
    parts = re.split(r"[;!?]\s|\.\s|\s-\s", _repaired(text))
    out: list[str] = []
    for part in parts:
        pieces = part.split(", ")
        for k, piece in enumerate(pieces):
            if k and _ends_number(pieces[k - 1]) and _starts_number(piece):
                out[-1] += ", " + piece  # a list of numbers stays in its clause
            else:
                out.append(piece)
    return [p for p in (x.strip(" ,;.!?") for x in out) if p]


def _starts_number(text: str) -> bool:
    ws = _words(text)
    return bool(ws) and read_number(ws, 0) is not None


def _ends_number(text: str) -> bool:
    ws = _words(text)
    return bool(ws) and any(read_number(ws, k) is not None and read_number(ws, k)[1] == len(ws)
                            for k in range(max(0, len(ws) - 4), len(ws)))  # fmt: skip


_ADD_IN = re.compile(r"\b((?:add|plus|sum of|total of|adding) [\d,.]+) in (?=[\d])", re.IGNORECASE)


def calculator_args(text: str, calc=None) -> dict:
    """The expression: the request without its asking words ("what's", "can you work
    out", "help me with"); a follow-up that starts with an operator applies to "that". When the
    whole request does not read as a sum, the last clause that does ("three coffees at £3.15
    each, so 3.15 times 3"): numbers in the other clauses are what the sum is about."""
    if calc is not None and calc.last is not None and (e := _asked_again(text, calc.asked)):
        return {"expression": e}  # "and 75%?" after "30% of 395": 75% of 395
    # Whisper's "in" for "and" between two numbers to add ("Add 480 in 515 for me": counted 6
    # times on Piper-voiced requests of the training grammar, "25 grams and ounces" the other way)
    text = _ADD_IN.sub(r"\1 and ", text)
    args = _calculator_args(text, calc)
    clauses = _clauses(text)
    if calc is None or _a_sum(args["expression"], calc) and not _pct_alone(args["expression"]):
        return args
    for k in range(len(clauses) - 1, -1, -1) if len(clauses) > 1 else ():
        got = _calculator_args(clauses[k], calc)
        said = [n for c in clauses[:k] for n in _numbers(c)] if calc.last is None else []
        if len(said) == 1:  # what the clause asks of the one number said before it
            e = got["expression"]
            if re.search(r"\b(?:that|it)\b", e):  # "my fare's £5.20 a day, so what's that times 4"
                e = re.sub(r"\b(?:that|it)\b", said[0], e, count=1)
            elif _pct_alone(e):
                e = f"{e} of {said[0]}"  # "of 172, what's ten percent"
            if _a_sum(e, calc):
                return {"expression": e}
        if _a_sum(got["expression"], calc):
            return got
    if (e := story_sum(text)) and _a_sum(e, calc):
        return {"expression": e}  # "given me £20 for £13.47, what's the change"
    if calc.last is not None and (e := _on_last(text)) and _a_sum(e, calc):
        return {"expression": e}  # "and I've already got 250 grams, how much more do I need"
    said = _numbers(text)
    if len(said) > 2 and re.search(r"\b(?:total|altogether|in all|all together)\b", text, re.I) \
            and re.search(r"\b(?:times an?|an? (?:day|week|month)|per|each|every)\b", text, re.I):
        e = " times ".join(said)  # "2 tablets 4 times a day for 5 days, how many altogether"
        if _a_sum(e, calc):
            return {"expression": e}
    if len(said) > 1 and re.search(r"\b(?:total|altogether|in all|all together|sum|add up|adds up|"
                                   r"added up)\b", text, re.I):
        e = "add " + " and ".join(said)  # "212 bales and 139 bales, what's the total?"
        if _a_sum(e, calc):
            return {"expression": e}
    m = re.search(r"\b(?:that|it)\b", text)
    if m and calc.last is None and len(_numbers(text[: m.start()])) == 1:
        # "five what's that to the power of three" (no comma): the number goes where "that" is
        n = _numbers(text[: m.start()])[0]
        head = re.sub(rf"\b{re.escape(n)}\b", "", text[: m.start()], count=1)
        got = _calculator_args(f"{head} {n} {text[m.end():]}", calc)
        if _a_sum(got["expression"], calc):
            return got
    return args


# -- a sum said as a story ("£20 for £13.47, what's the change") --------------------------------
_PCT_WORD = re.compile(r"^([\d.,]+)%$")
_DISCOUNT = re.compile(r"\b(?:off|discount(?:ed)?|sale|reduced|markdown|cheaper|(?:go(?:es|ing)?|"
                       r"went|come?s?|coming|gone) down|down by|drops?|dropping|dropped|falls?|"
                       r"falling|fell|decreas(?:e|es|ed|ing)|cut)\b")  # fmt: skip
_ON_TOP = re.compile(r"\b(?:tip|tax|vat|gst|hst|pst|service(?: charge)?|surcharge|markup|"
                     r"interest|commission|on top|plus|added|extra|rise|raise|increase|up by|"
                     r"(?:go(?:es|ing)?|went|gone) up|grows?|growing|grew)\b")
_TOTAL = re.compile(r"\b(?:total|altogether|all together|in all|overall|combined|come to|comes "
                    r"to|coming to|in total|all up|with|new|after|then be|it be|will be)\b")
# A rate asked of a total: "535 km in five hours, how many kilometres per hour is that"
_RATE_ASKED = re.compile(r"\bhow (?:many|much|fast|far) (?:\w+ ){0,3}(?:per|an|a|each) "
                         r"(?:hour|minute|second|day|week|month|year|person|head|litre|liter|"
                         r"gallon|mile|km|kilometre|kilometer)\b|\bper \w+ (?:is that|on average|"
                         r"does that make|would that be|average)\b")  # fmt: skip
# The years between two years: "built in 1241 and knocked down in 1558, how many years"
_YEARS_ASKED = re.compile(r"\b(?:how many years|how long|how old|years (?:did|was|were|had|"
                          r"between|apart|passed|after|later)|how much time)\b")  # fmt: skip
# A count of everything listed: "12 apples, 15 pears and nine oranges, how many is that?"
_ALL_ASKED = re.compile(r"\bhow (?:many|much) (?:\w+ ){0,3}(?:is that|are there|is it|in total|"
                        r"altogether|all together|do (?:i|we) have|have (?:i|we) got|does that "
                        r"make|in all)\b|\b(?:total|altogether|add (?:them|it|those|these) up)\b")
_LESS = re.compile(
    r"\b(?:change|left|leftover|remaining|remain|remains|still owe|owe|owes|owing|paid back|"
    r"missing|still need|still to|haven't|have not|not yet|"
    r"pay back|paid off|spent|used up|used|difference|short|to go|take away|taken away|less|"
    r"fewer|older|younger|taller|shorter|heavier|lighter|more (?:do|does|will|would|should) "
    r"(?:i|we|you|he|she|they) need|gave (?:him|her|them|away)|give away|ate|eaten|sold|lost)\b")
_SHARED = re.compile(
    r"\b(?:split|splitting|share|shared|sharing|divide|divided|dividing|between|among|amongst|"
    r"ways|each of|per (?:person|head|kid|child)|equally|evenly|"
    r"how (?:much|many) (?:\w+ ){0,4}each|each (?:pay|get|owe|gets|pays|owes|person|one|have))\b")
_RATE = re.compile(r"\b(?:per|each|apiece|every|an? (?:day|week|month|year|kilo|kg|pound|lb|hour|"
                   r"night|head|person|piece|box|pack|bag|bottle|litre|liter|metre|meter|ticket|"
                   r"item)|(?:packs?|packets?|boxes|box|bags?|sets?|rows?|crates?|cartons?|"
                   r"trays?|bundles?|cases?|tins?|cans?|bottles?|jars?|rolls?|sheets?|dozens?) "
                   r"of)\b")
_MORE = re.compile(r"\b(?:then|and|plus|another|more|also|added|add|adds|sum|together)\b")
_COUNTED = re.compile(r"^(?:\w+ )?(?:people|persons|person|of us|of them|of you|ways|friends|kids|"
                      r"children|roommates|flatmates|housemates|guests|students|players|teams|"
                      r"families|members|workers|colleagues|siblings|mates|adults|shares|parts|"
                      r"portions|groups)\b")
_INTO = re.compile(r"\b(?:between|among|amongst|into|by|each of|for each of)$")
# A story asks for a number ("how much is left", "per head?"); "set a timer for 5 minutes and
# 30 seconds" asks none.
_ASKED = re.compile(r"\?|\b(?:how|what|what's|whats|wat|total|each|left|change|owe|per head|"
                    r"comes? to|came to|altogether|in all|add them|add it|add up|split|share|"
                    r"divide|work out|calculate)\b")
_NOT_A_STORY = re.compile(r"\b(?:timers?|remind|reminder|alarm|how long|o'clock|until|till|"
                          r"since|date|weekday|from now|from today|ago)\b"
                          r"|\b\d+ ?(?:am|pm|a\.m\.|p\.m\.)\b")  # fmt: skip


_ONE_OF = {"quick", "this", "that", "the", "which", "last", "next", "another", "each", "every",
           "no", "any", "some", "big", "little", "other", "same", "only", "right", "easy", "hard",
           "tricky", "good", "final", "new", "old"}  # fmt: skip


def _story_numbers(ws: list[str]) -> list[tuple[str, bool, int]]:
    """(the number's words, whether a percent, where) of each number said (not "a", not an
    ordinal)."""
    out, i = [], 0
    while i < len(ws):
        if m := _PCT_WORD.match(ws[i]):
            out.append((m[1], True, i))
            i += 1
            continue
        got = read_number(ws, i)
        if got is None or ws[i] in ("a", "an") or ws[i] == "one" and got[1] == i + 1 and i \
                and ws[i - 1] in _ONE_OF:  # fmt: skip
            i += 1  # ("quick one", "this one": a one that is no number)
            continue
        end = got[1]
        pct = end < len(ws) and (ws[end] in ("%", "percent") or ws[end:end + 2] == ["per", "cent"])
        if end < len(ws) and re.fullmatch(r"(?:st|nd|rd|th)", ws[end]):
            i = end + 1
            continue
        out.append((" ".join(ws[i:end]), pct, i))
        i = end
    return out


def _figure(v) -> str:
    v = Fraction(v)
    if v.denominator == 1:
        return str(v.numerator)
    return format(Decimal(v.numerator) / Decimal(v.denominator), "f")  # "13.47", "1234567.5"


def story_sum(text: str) -> str | None:
    """Two numbers and what a story says to do with them, as an expression the calculator
    reads: "20% off ... a £45 coat" → "45 minus 20%", "given me £20 for £13.47, what's the
    change" → "20 minus 13.47", "$315 ... for each of 3 roommates" → "315 divided by 3",
    "5 milligrams per kilo ... 58 kilos" → "5 times 58"; None for anything else."""
    ws = _words(text)
    low = " ".join(ws).lower()
    nums = _story_numbers([w.lower() for w in ws])
    if len(nums) > 2 and not any(p for _, p, _ in nums) and _ALL_ASKED.search(low) and not (
            _LESS.search(low) or _SHARED.search(low) or _RATE.search(low)
            or _NOT_A_STORY.search(low)):  # fmt: skip
        low_ws = [w.lower() for w in ws]
        return " plus ".join(_figure(read_number(low_ws, i)[0]) for _, _, i in nums)
    if len(nums) != 2 or _NOT_A_STORY.search(low):
        return None
    (a, pa, ia), (b, pb, ib) = nums
    if pa != pb:  # a percent of an amount
        p, amount = (a, b) if pa else (b, a)
        if _DISCOUNT.search(low) and re.search(r"\b(?:save|saving|savings|knock|off is)\b", low):
            return f"{p}% of {amount}"  # "30% off ... £71.80, how much do I save"
        if _DISCOUNT.search(low):
            return f"{amount} minus {p}%"
        if _ON_TOP.search(low) and _TOTAL.search(low):
            return f"{amount} plus {p}%"
        return f"{p}% of {amount}"
    if pa or not _ASKED.search(low):
        return None
    low_ws = [w.lower() for w in ws]
    va, vb = read_number(low_ws, ia)[0], read_number(low_ws, ib)[0]
    wa, wb = a, b  # as said (where they stand); in figures in the sum ("add 300 and 6", not
    a, b = _figure(va), _figure(vb)  # "add three hundred and six")
    big, small = (a, b) if va >= vb else (b, a)

    def counts(i: int, n: str) -> bool:  # "3 roommates", "two of us", "between 12", "5 ways"
        k = i + len(n.split())
        return bool(_COUNTED.match(" ".join(low_ws[k : k + 3]))) or \
            bool(_INTO.search(" ".join(low_ws[max(0, i - 3) : i])))  # fmt: skip

    if _ASKED.search(low) and re.search(rf"\b{re.escape(wa)} \w+s of {re.escape(wb)}\b", low):
        return f"{a} times {b}"  # "13 tables of 8 guests, how many people"
    if all(re.fullmatch(r"1[0-9]\d\d|20\d\d", n) for n in (a, b)) and _YEARS_ASKED.search(low):
        return f"{big} minus {small}"  # the years between two years
    if _RATE_ASKED.search(low):
        return f"{big} divided by {small}"  # "535 km in five hours, how many km per hour"
    if re.search(r"\bhow many \w+[- ]?(?:hours|minutes|days|seconds|miles|kilometres|"
                 r"kilometers|meters|metres)\b", low) and re.search(r"\bfor\b", low):
        return f"{a} times {b}"  # "900 watts for two hours, how many watt hours"
    if re.search(r"\beach (?:\w+ )?(?:is|has|takes|lasts|holds|costs|weighs|contains|needs)\b",
                 low) and re.search(r"\bthere (?:are|were|will be|is)\b", low):  # fmt: skip
        return f"{a} times {b}"  # "each episode is 37 minutes and there are 12 episodes"
    if re.search(r"\bper \w+\W*$|\beach (?:\w+ )?(?:is|holds|takes|has|gets)\b|"
                 r"\bhow many (?:\w+ )?(?:can|could|will|would|do|does) (?:i|we|you|it) "
                 r"(?:fill|make|get|fit)\b", low) and not _TOTAL.search(low):  # fmt: skip
        return f"{big} divided by {small}"  # "how many seeds per row?", "each dose is 15 ml"
    shared = None
    if _SHARED.search(low):
        if counts(ib, wb) and not counts(ia, wa):
            shared = f"{a} divided by {b}"
        elif counts(ia, wa) and not counts(ib, wb):
            shared = f"{b} divided by {a}"
    each = re.search(r"\b(?:how (?:much|many) (?:\w+ ){0,4}each|each (?:pay|get|owe|gets|pays|"
                     r"owes)|per (?:person|head))\b", low)  # fmt: skip
    if shared and (each or not _TOTAL.search(low)):  # ("the receipt total is £70.59 and there
        return shared  # are 5 of us, how much each" asks a share, not a total)
    if re.search(rf"\b(?:{re.escape(wa)}|{re.escape(wb)}) times\b", low):
        return f"{a} times {b}"  # "three times the recipe ... 400 grams of flour"
    if _LESS.search(low):
        return f"{big} minus {small}"
    if _TOTAL.search(low) and _RATE.search(low):
        return f"{a} times {b}"
    if _SHARED.search(low):
        return shared or f"{big} divided by {small}"
    if _RATE.search(low):
        return f"{a} times {b}"
    if _MORE.search(low) or _TOTAL.search(low):  # "130 ml then 60 ml, how much is that"
        return f"add {a} and {b}"
    return None


_NEW_SUM = re.compile(r"\b(?:that|times|plus|minus|multiply|multiplied|add|added|subtract|"
                      r"take away|double|doubled|halve|halved|squared|cubed|root|power)\b",
                      re.IGNORECASE)  # fmt: skip


def _asked_again(text: str, asked: str) -> str:
    """The last sum asked again with a new number: "and 75%?" after "30% of 395" is "75% of
    395", "what about 360?" after "10% of 40" is "10% of 360"; "what if it's 3 ways" after "231
    divided by 7" is "231 divided by 3"; "how about times 7" after "52 times 12" is "52 times
    7"; a re-ask that corrects a number ("I said 70, not 17") puts it in its place; "" if not."""
    ws = [w.lower() for w in _words(text)]
    found = _story_numbers(ws)
    said = [n for n, _, _ in found]
    if len(ws) > 8:
        return ""
    power = re.fullmatch(r"(.+?) (squared|cubed)", asked)
    other = re.fullmatch(r"(?:and|what about|how about|now|ok|okay|so)(?: (?:and|now|what "
                         r"about|how about))* (squared|cubed)", " ".join(ws))  # fmt: skip
    if power and other and other[1] != power[2]:  # "and cubed?" after "9 squared": 9 cubed
        return f"{power[1]} {other[1]}"
    if len(found) == 2 and "not" in ws and found[0][2] < ws.index("not") <= found[1][2]:
        new, old = said  # "I said 70, not 17", "17 not 70"
        return _put_for(asked, old, new)
    again = re.match(r"^(?:and |so |ok |okay )?(?:(?:what|how) about|what if(?: it's| its| it is)?|"
                     r"same (?:for|with)|and for)\b", " ".join(ws))  # fmt: skip
    op = re.search(r"\b(times|plus|minus|divided by|multiplied by|over)\s+\S", " ".join(ws))
    if len(said) != 1 or (_NEW_SUM.search(text) and not (again and op)):
        return ""  # ("now times that by six" is a sum of its own on the last result)
    pct = re.fullmatch(r"(.+?)\s*(?:%|percent|per cent) of (.+)", asked)
    if pct and re.search(r"%|\bper ?cent\b", text, re.IGNORECASE):
        return f"{said[0]}% of {pct[2]}"
    if pct and again:  # "what about 360?", "same for 1,200"
        return f"{pct[1]} percent of {said[0]}"
    two = re.fullmatch(r"(.+?) (times|plus|minus|divided by) (.+)", asked)
    if two and again and op:  # "how about times 7"
        return f"{two[1]} {op[1]} {said[0]}"
    split = re.fullmatch(r"(.+) divided by (\S+)", asked)
    if split and re.search(rf"\b(?:{re.escape(said[0])}\s+(?:ways|people|of us|persons|each)|"
                           rf"(?:between|among|amongst|by|into|for)\s+{re.escape(said[0])})\b",
                           " ".join(ws)):  # fmt: skip
        return f"{split[1]} divided by {said[0]}"
    return ""


_FEWER = re.compile(r"\b(?:already (?:got|have|had|taken|used|paid|done|read)|more do|more does|"
                    r"left|remaining|remain|can't make it|cannot make it|can't come|missing|short|"
                    r"fewer|less|take away|used|spent|gave away|lost|broke|broken|ate|eaten|"
                    r"drop out|drops out|dropped out)\b")  # fmt: skip
_MORE_TOO = re.compile(r"\b(?:too|also|as well|extra|spare|plus|another|add|adds|added|"
                       r"on top|more|join|joins|come|comes|total)\b")  # fmt: skip


def _on_last(text: str) -> str:
    """A story's next step on the last result, with one new number: "and I've already got 250
    grams, so how much more do I need" takes it off; "and the bag has 6 spare ones too, so
    what's the total" adds it; "and if each of us adds a 12% tip" adds the percent; "take 53 off
    that" takes it off; "" if none."""
    ws = [w.lower() for w in _words(text)]
    found = _story_numbers(ws)
    if len(found) != 1 or len(ws) > 16:
        return ""
    n, pct, _ = found[0]
    low = " ".join(ws)
    n = _figure(read_number(n.split(), 0)[0]) if not pct else n
    if pct:
        return f"that plus {n}%" if _MORE_TOO.search(low) or _ON_TOP.search(low) else ""
    if re.search(rf"\btake {re.escape(n)} off\b", low) or _FEWER.search(low):
        return f"that minus {n}"
    if _SHARED.search(low) and re.search(r"\b(?:that|it|this|the total|the bill)\b", low):
        return f"that divided by {n}"  # "split that between four of us"
    if _MORE_TOO.search(low):
        return f"that plus {n}"
    return ""


def _put_for(asked: str, old: str, new: str) -> str:
    """``asked`` (a sum said in words) with the number ``old`` replaced by ``new``, or ""."""
    ws, want = asked.split(), read_number(old.split(), 0)
    if want is None:
        return ""
    for _, _, i in _story_numbers(ws):
        got = read_number(ws, i)
        if got is not None and got[0] == want[0]:
            return " ".join([*ws[:i], new, *ws[got[1]:]])
    return ""


def _pct_alone(expression: str) -> bool:
    """"ten percent", "15%": a percent of nothing said."""
    return bool(re.fullmatch(r"\S+(?: \S+){0,3} ?(?:percent|per cent|%)", expression.strip()))


def _numbers(text: str) -> list[str]:
    """The numbers said in ``text``, as said ("£5.20" → "5.20", "forty five")."""
    ws, out, i = _words(text), [], 0
    while i < len(ws):
        got = read_number(ws, i)
        if got is None:
            i += 1
            continue
        out.append(" ".join(ws[i : got[1]]))
        i = got[1]
    return out


def _a_sum(expression: str, calc) -> bool:
    """Whether the calculator reads ``expression`` whole as a calculation, not a lone number."""
    ws = expression.split()
    lone = (n := read_number(ws, 0)) is not None and n[1] == len(ws) \
        and not re.fullmatch(r"\d+/\d+", ws[0])  # "170/5" typed is a division  # fmt: skip
    return bool(ws) and not lone and calc.readable(expression) and calc.operates(expression)


def _calculator_args(text: str, calc=None) -> dict:
    words = _trim(_words(go_into(text)))
    w = " ".join(words)
    e = added(_CALC_HEAD.sub("", w, count=1))  # "(what do) 5, 6 and 7 come to": "add 5, 6 and 7"
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
    if calc is not None and not calc.readable(e):
        e = _calculation_in(e.split(), calc) or e
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


# An imperial amount said in two units, the second left unsaid: "13 stone 2" (pounds).
_SMALLER = {"stone": ("pound", 14), "foot": ("inch", 12), "pound": ("ounce", 16)}


def _and_smaller(words: list[str], src: tuple[int, int, str], value: str):
    """("13 1/7", end) for "13 stone 2 (pounds)" at ``src`` (the unit's span), else None."""
    small = _SMALLER.get(find_unit(src[2]) or "")
    v = read_value(value)
    got = read_number(words, src[1]) if small and v is not None else None
    if got is None or got[0] < 0 or got[0] >= small[1]:
        return None
    end = got[1]
    if end < len(words) and (u := unit_at(words, end)) is not None:
        if find_unit(u[0]) != small[0]:
            return None  # "5 feet 6 metres": not one amount
        end = u[1]
    total = v + got[0] / small[1]
    whole = int(total)
    frac = total - whole
    return (f"{whole} {frac.numerator}/{frac.denominator}" if frac else str(whole)), end


def _two_units(args: dict) -> bool:
    """An amount and two different units that convert ("160 pounds? that was last year" has
    pounds and a year: not a conversion)."""
    a, b = find_unit(args.get("from", "")), find_unit(args.get("to", ""))
    return bool(args.get("value")) and a is not None and b is not None and a != b \
        and convertible(args["from"], args["to"])  # fmt: skip


# Whisper tiny.en's spellings of unit words said by Piper, counted on 900 requests of the demo
# model's own training grammar (training.skills_tools, not a benchmark set) voiced by the three
# renderings of the bench: "in ounces" heard as "announces" ("7G announces"), "litres" as
# "leaders" (7 times), "pints" as "pines". Read as the units only where an amount is converted.
_HEARD_UNITS = ((re.compile(r"\bannounces?\b", re.IGNORECASE), "in ounces"),
                (re.compile(r"\bleaders?\b", re.IGNORECASE), "liters"),
                (re.compile(r"\bpines\b", re.IGNORECASE), "pints"),
                (re.compile(r"\bcalvins?\b", re.IGNORECASE), "kelvin"),
                # a rate's slash said aloud: "50KM slash H", "M slash S"
                (re.compile(r"(?<=[a-z\d])\s*\bslash\s+(?=[a-z]{1,3}\b)", re.IGNORECASE),
                 "/"))  # fmt: skip


def _heard_units(text: str) -> str:
    """``text`` with Whisper's spellings of unit words as the units, when it says an amount."""
    if not re.search(r"\d|\b(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|half)\b",
                     text, re.IGNORECASE):  # fmt: skip
        return text
    for heard, unit in _HEARD_UNITS:
        text = heard.sub(unit, text)
    return text


class UnitsReader:
    """Reads conversions and remembers the last one, for "and in pounds?" and "what about ten?"."""

    def __init__(self) -> None:
        self.last: dict | None = None

    def args(self, text: str) -> dict:
        """The amount and the two units; when the whole request does not give two different
        units, the last clause with a number that does ("my oven's in celsius, 220 C is what in
        fahrenheit")."""
        before = self.last
        text = _heard_units(text)
        got = self._args(text)
        clauses = _clauses(text)
        if len(clauses) > 1 and not _two_units(got):
            for clause in reversed(clauses):
                self.last = before
                if _has_number(clause.split()) and _two_units(alt := self._args(clause)):
                    return alt
            self.last = dict(got)
        return got

    def _args(self, text: str) -> dict:
        # "30°C", "5kg": the number and the unit as two words
        text = re.sub(r"(\d)\s*(°|[a-zA-Z])", r"\1 \2", text.replace("°", " degrees "))
        text = re.sub(r"\bdegrees? of (?=celsius|fahrenheit|centigrade|kelvin)", "degrees ", text,
                      flags=re.IGNORECASE)  # "72 degrees of Fahrenheit"  # fmt: skip
        words = _trim(_words(text))
        q = _quantity(words)
        spans = _unit_spans(words)
        args: dict = {}
        if q is not None:
            args["value"], start, at, end = q
            src = next((s for s in spans if s[0] == at), None)
            if src is not None:
                args["from"] = src[2]
                more = _and_smaller(words, src, args["value"])
                if more is not None:  # "13 stone 2", "eight foot three", "5 feet 6 inches"
                    args["value"], end = more
                    spans = [s for s in spans if not src[1] <= s[0] < end]
            rest = [s for s in spans if s is not src and not start <= s[0] < end]
            if src is not None:  # "in my day it was pounds, what's 2 kg in pounds": not "day"
                fits = [s for s in rest if convertible(src[2], s[2])]
                last_to = (self.last or {}).get("to", "")
                if not fits and last_to and convertible(src[2], last_to):
                    fits = []  # "and 230 celsius for the last ten minutes": still Fahrenheit
                    rest = []
                rest = fits or rest
                # "miles to kilometers 100 miles": the unit named again is no unit wanted
                rest = [s for s in rest if find_unit(s[2]) != find_unit(src[2])] or rest
            elif len(rest) > 1:  # "it's in celsius and says 24 degrees, what's that in fahrenheit":
                to = next((s for s in rest if s[0] >= end), rest[-1])  # the unit wanted comes
                was = [s for s in rest if find_unit(s[2]) != find_unit(to[2])
                       and convertible(s[2], to[2])]  # after it  # fmt: skip
                if was:
                    args["from"] = was[0][2]
                rest = [to]
            if rest:
                args["to"] = rest[0][2]
        elif spans:
            args["to"] = spans[-1][2]
        other = {"degF": "celsius", "degC": "fahrenheit"}.get(find_unit(args.get("to", "")) or "")
        if q is not None and "from" not in args and other:  # "it's on 220, in Fahrenheit?"
            args["from"] = other
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
_DAY_NAMES = "|".join(d.lower() for d in WEEKDAYS)
# "what day of the week is 18 march 2028", "which day does christmas fall on"
_WEEKDAY_OF = re.compile(r"\b(?:what|which) (?:day|weekday)(?: of the week)?\b|\bday of the week\b"
                         r"|\bwhat day (?:is|was|will|does|did|falls?)\b")  # fmt: skip
# "what's the date 28 days from today", "what will the date be in 54 days", "ten days ago"
_OFFSET_SAID = re.compile(
    r"\b(?:(?:in|after) (?:a |\S+(?: \S+){0,5}? )(?:days?|weeks?|fortnights?)|"
    r"(?:a |\S+(?: \S+){0,5}? )(?:days?|weeks?|fortnights?) (?:from now|from today|from|later|time|"
    r"ahead|hence|ago|back|before today|earlier)|(?:in )?a fortnight|(?:the )?day after tomorrow|"
    r"(?:the )?day before yesterday)\b")  # fmt: skip


def _offset_in(w: str) -> str:
    """The offset from today said in ``w`` ("in 54 days"), read from its shortest form that
    says one, or ""."""
    for m in _OFFSET_SAID.finditer(w):
        ws = m.group(0).split()
        for i in range(len(ws)):  # "in about 54 days": the words that make a number
            if offset_days(" ".join(ws[i:])) is not None:
                return " ".join(ws[i:])
    return ""


# The time in a place: "what time is it in Bangkok", "what's the time over in Tokyo right now"
# (not "in 5 minutes", "in the morning", "in an hour").
_ELSEWHERE = re.compile(r"\btime(?: is it| it is|'s it)?(?: now| right now)? (?:over |out )?"
                        r"(?:in|at) (?!(?:a|an|the|one|two|three|four|five|six|seven|eight|nine|"
                        r"ten|half|\d+|about|around|exactly|here|this|my|our)\b)[a-z]")  # fmt: skip


def clock_args(text: str) -> dict:
    w = " ".join(_trim(_words(text)))
    if "zone" in w:
        return {"what": "zone"}
    if _ELSEWHERE.search(w):
        return {"what": "elsewhere"}
    # (the date is asked besides the offset's own words: "how far can a horse run in one day"
    # and "how many seconds are in a day" ask no date)
    if (off := _offset_in(w)) and offset_days(off) not in (None, 0) and re.search(
            r"\b(?:date|day|weekday|what|when|which)\b", w.replace(off, " ")):  # fmt: skip
        return {"what": "day" if _WEEKDAY_OF.search(w) else "date", "date": off}
    if re.search(r"\bwhat(?:'s| is)? (?:the )?(?:last )?date\b|\bwhich date\b|\bwhat date\b", w) \
            and len(lengths := re.findall(r"\b(\S+(?: \S+){0,3}? (?:days?|weeks?))\b", w)) == 1 \
            and not re.search(r"\b(?:ago|since|before|back)\b", w):  # fmt: skip
        # "needs 20 days to mature, if I jar it today, what date will it be ready"
        got = next((" ".join(lengths[0].split()[k:]) for k in range(len(lengths[0].split()))
                    if offset_days(" ".join(lengths[0].split()[k:])) not in (None, 0)), "")
        if got:
            return {"what": "date", "date": got}
    if _WEEKDAY_OF.search(w) and (d := _date_anywhere(w)) and not re.search(
            r"\b(?:until|till|til|how many|how long)\b", w) and not re.fullmatch(
            rf"(?:the )?(?:next |this )?(?:{_DAY_NAMES})s?|(?:the )?weekend", d):  # fmt: skip
        # (the weekday of a date, not of "sundays")
        year = re.search(r"\b(?:1[6-9]|2\d)\d\d\b", w)  # "december 3rd fall on in 2027"
        if year and year[0] not in d and parse_date(f"{d} {year[0]}", date.today()):
            d = f"{d} {year[0]}"
        return {"what": "weekday of", "date": d}
    if re.search(r"\b(until|till|til|sleeps|days to|long is it to|far away|count the days)\b", w) \
            or re.match(r"^(when is|is .+ soon)", w):  # fmt: skip
        m = re.search(r"\b(?:until|till|til|to|before)\s+(.+)$", w)
        if m is None:
            m = re.search(r"^(?:when is|how far away is|is)\s+(.+?)(?:\s+soon)?$", w)
        d = m.group(1) if m else w
        d = re.sub(r"\s+(?:soon|from now|from today)$", "", _in_clause(d, text)).strip()
        d = _date_in(d)  # not a date after the first "to" ("we need to book ..."): the one named
        what = "when" if re.match(r"^when is", w) else "until"  # "when is easter": its date too
        return {"what": what, "date": d if parse_date(d, date.today()) else
                _date_anywhere(w) or d}  # fmt: skip
    if _UNTIL_ASKED.search(w) and (d := _date_anywhere(w)):  # "how far off halloween is"
        return {"what": "until", "date": d}
    when = re.search(r"\b(tomorrow|yesterday)\b", w)
    if when and not re.search(r"\btime\b", w):  # "what day is it tomorrow"
        what = "date" if re.search(r"\b(date|month|year)\b", w) else "day"
        return {"what": what, "date": when.group(1)}
    if "date" in w or "month" in w or "year" in w:
        return {"what": "date"}
    if (
        re.search(
            r"\b(day|weekday|today|weekend|monday|tuesday|wednesday|thursday|friday|"
            r"saturday|sunday)\b",
            w,
        )
        and not re.search(r"\btime\b", w)
    ):
        return {"what": "day"}
    return {"what": "time"}


# Asking how long until something, when a date is named anywhere in the request ("how many
# days are left before christmas", "how far off halloween is in days").
_UNTIL_ASKED = re.compile(r"\b(?:how many (?:days?|weeks?|sleeps?|nights?)|how long|how far|"
                          r"how soon|how close)\b")  # fmt: skip


# Asking for the time, date, weekday or year as it is now, in a clause of its own: "what's the
# time", "what time is it", "what weekday it is today", "today's date", "tell me the time".
# Anchored at the clause's end, so "what time does the film start", "what's the date of easter"
# and "what's the time in tokyo" are not asked of the clock.
_NOW_WORD = r"(?:time|date|day|weekday|year|month|hour)(?:'s(?= ))?"  # ("what day's tomorrow")
_NOW_TAIL = (r"(?:\s+(?:of the week|is it|it is|it's|is today|are we|we're|are we on|we're on|"
             r"are we in|we're in|today|now|right now|right|please|pls|then|again|have you got|"
             r"'ve you got|you got|do you have|is it now|is it today|tomorrow|is it tomorrow|"
             r"yesterday|was it yesterday|will it be tomorrow))*")
_NOW_ASKED = re.compile(
    r"(?:^|\b(?:what|which)(?:'s|s| is)?\s+|"  # "what's the time", "which weekday ..."
    r"\b(?:tell|give|show|let|remind)\s+(?:me|us)(?:\s+know)?\s+|"  # "let me know the time"
    r"\b(?:know|got|check|need|have|after|need is|want is)\s+)"  # "I need today's date",
    # "have you got the time", "what I need is the day of the week", "I'm after the date"
    r"(?:the\s+|today's\s+)?(?:(?:actual|current|exact|correct|right)\s+)?"
    + _NOW_WORD + r"(?:'ve)?" + _NOW_TAIL + r"$"
    + r"|\btoday's date\b"  # "I need today's date for a form"
    # "is today Monday or Tuesday", "tomorrow's a Monday, isn't it"
    + r"|\b(?:is |was )?(?:today|tomorrow|yesterday)(?:'s| is| was)? (?:a )?"
    r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b"
)


def now_asked(text: str) -> str:
    """The clause that asks for the time, date, weekday or year now, or "" (see
    :data:`_NOW_ASKED`): the clock answers it whatever else the request says ("quick, what's
    the time, I think we're late")."""
    for clause in _clauses(text.replace("\u2019", "'")):
        # Whisper drops the comma before an aside: "what time have you got my phone's in the
        # other room" asks the time and then says why
        for part in re.split(r"\s+(?=(?:my|i'm|i've|we're|we've|it's|this (?:week|month|year|"
                             r"morning|evening))\s)", clause, flags=re.I):  # fmt: skip
            c = " ".join(_trim(part.lower().split()))
            if _NOW_ASKED.search(c):
                return c
    return ""


def _date_anywhere(w: str) -> str:
    """The first date named in ``w`` (the longest words from there that name one), or ""."""
    words, today = w.split(), date.today()
    for i in range(len(words)):
        for k in range(min(len(words), i + 5), i, -1):
            if parse_date(" ".join(words[i:k]), today) is not None:
                return " ".join(words[i:k])
    return ""


def date_named(text: str) -> str:
    """The date ``text`` names anywhere ("my birthday on june 27" → "june 27"), or ""."""
    return _date_anywhere(" ".join(_trim(_words(text))))


def _date_in(said: str) -> str:
    """The longest start of ``said`` that names a date ("christmas eve the kids are going
    mad" → "christmas eve"); all of it when none does (the clock then says what it knows)."""
    words, today = said.split(), date.today()
    for k in range(len(words), 0, -1):
        if parse_date(" ".join(words[:k]), today) is not None:
            return " ".join(words[:k])
    return said


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


def _vague_span(words: list[str]) -> tuple[int, int] | None:
    """Where a length without a number is said ("a few minutes", "several hours"): the timer
    is asked for it, and answers that it needs a number, rather than listing timers."""
    text = " ".join(words)
    for vague in VAGUE:
        m = re.search(rf"(?:^| ){vague} (?:more )?(\S+)", text)
        if m and find_unit(m.group(1)) in ("second", "minute", "hour"):
            start = len(text[: m.start()].split())
            return start, start + len(m.group(0).split())
    return None


_TIMER_WORDS = {"set", "start", "a", "an", "timer", "for", "the", "called", "put", "on", "can",
                "could", "you", "please", "i", "need", "my", "time", "countdown", "me", "of",
                "cancel", "stop", "delete", "turn", "off", "never", "mind", "kill", "get", "rid",
                "how", "long", "is", "left", "much", "longer", "until", "done", "when",
                "remove", "clear", "timers", "time's", "it", "up", "check", "what", "what's",
                "named", "labelled", "labeled", "and", "u", "ya", "would", "to", "go",
                "does", "goes", "doing", "how's", "hows", "have", "got", "i've", "any", "are",
                "there", "running", "show", "list", "which", "do", "timer's",
                "reminder", "actually", "that", "this", "one", "just", "now", "oh", "wait",
                "no", "instead", "last", "count", "counted", "down", "clock", "switch",
                "scrap", "forget", "don't", "more"}  # fmt: skip


# A reminder, when a length is said too: "remind me", "nudge me", "give me a shout", "tell me to".
_REMIND = re.compile(r"\b(remind|reminder|forget|nudge|give me a shout|ping me|tell me to|"
                     r"let me know|alert me|buzz me)\b")
# How a reminder request ends around its task: "..., remind me", "... for me, please".
_TASK_TAIL = re.compile(r"\s*(?:,?\s*(?:so |and )?(?:remind me|nudge me|give me a shout|tell me|"
                        r"give me a reminder|remind|let me know)(?: then)?|in|quick|quickly|"
                        r"today|please|thanks|thank you|for me|for work|now|then|okay|ok)\s*$")
_TASK_HEAD = re.compile(r"^(?:(?:remind|tell|ping|nudge|alert|buzz) me (?:to )?)+")


def _named(w: str) -> bool:
    return w not in _TIMER_WORDS and w != "|" and read_number([w], 0) is None


# Where a timer's name is said, in the order they are tried.
_NAMED_AS = (r"\b(?:called|named|labell?ed) ((?:[^ |]+ ?){1,3})",
             r"\b(?:the|my) ([^ |]+) needs\b", r"\bfor (?:the|my|a|an) ([^ |]+(?: [^ |]+)?)",
             r"\bput (?:the|my) ([^ |]+) on\b", r"\btime (?:the|my) ([^ |]+)")  # fmt: skip


def _label(words: list[str]) -> str:
    """The timer's name where a name is said: the word or two before "timer" ("the pasta
    timer", "a boiled eggs timer"), after "called" / "named", "for the ..." ("a timer for the
    rice"), "time the ..." or "the ... needs" ("the roast needs an hour"), or for asking about
    one, "the ..." ("when will the cake be done"). Other words of the request are its
    framing, not a name ("quickly make a timer", "let's set a timer ..., just curious")."""
    t = " ".join(words)
    for pat in _NAMED_AS:
        m = re.search(pat, t)
        if m:
            said = m.group(1).split()
            if pat.startswith(r"\bfor"):  # "for the roast chicken": a second word that names
                got = [said[0]] + [x for x in said[1:] if _named(x) and x not in _NOT_THE_WORD] \
                    if _named(said[0]) else []  # fmt: skip
            else:
                got = [x for x in said if _named(x)]
            if got:
                return " ".join(got)
    for i, w in enumerate(words):
        if w in ("timer", "timers") and i and _named(words[i - 1]):
            j = i - 1
            while j > 0 and i - j < 2 and _named(words[j - 1]) \
                    and words[j - 1] not in _NOT_LABEL:  # fmt: skip
                j -= 1
            return " ".join(words[j:i])
    return ""


def _asked_label(words: list[str]) -> str:
    """A timer asked about or cancelled: by its name before "timer", else "the X"."""
    lab = _label(words)
    if lab:
        return lab
    m = re.search(r"\b(?:the|my) ([^ |]+)", " ".join(words))
    return m.group(1) if m and _named(m.group(1)) and m.group(1) not in _NOT_LABEL else ""


# Words before "timer" that are not part of a name: verbs and framing.
_NOT_LABEL = {"let's", "make", "quickly", "quick", "set", "start", "new", "another", "give",
              "will", "want", "like", "need", "wanna", "looking", "okay", "then", "please"}


def _in_clause(task: str, text: str) -> str:
    """The task up to the end of its clause as written: "to check the laundry, give me a
    reminder, just curious" names "check the laundry"."""
    head = " ".join(task.split()[:2])
    for part in _clauses(text):
        c = " ".join(_words(part))
        k = c.find(head) if head else -1
        if k >= 0 and (k == 0 or c[k - 1] == " ") and task.startswith(c[k:]) and c[k:]:
            return c[k:]
    return task


def _cased(task: str, text: str) -> str:
    """``task`` (read in lower case) with the capitals its words had in ``text``, where a word
    had them other than for starting a sentence: "call john" → "call John", "i" → "I"."""
    capital = {}
    for m in re.finditer(r"[\w']+", text):
        w = m.group()
        first = not text[: m.start()].strip() or text[: m.start()].rstrip()[-1] in ".?!"
        if w != w.lower() and (not first or w == "I"):
            capital[w.lower()] = w
    return " ".join(capital.get(w, w) for w in task.split())


def timer_args(text: str) -> dict:
    words = _trim(_words(text))
    w = " ".join(words)
    span = _duration_span(words) or _vague_span(words)
    if span and words[span[0]] in ("for", "in") and span[1] - span[0] > 1:
        span = (span[0] + 1, span[1])
    while span and span[1] - span[0] > 1 and words[span[1] - 1] in ("for", "to", "in", "and",
                                                                    "about"):  # fmt: skip
        span = (span[0], span[1] - 1)
    dur = " ".join(words[span[0] : span[1]]) if span else None
    rest = words[: span[0]] + ["|"] + words[span[1] :] if span else words
    if re.search(_REMIND, w) and dur is not None:
        task = ""
        for side in (words[: span[0]], words[span[1] :]):  # before the length, else after it
            m = re.search(r"\b(?:that i have to|to|(?<!what )(?<!how )about)\s+(.+)$",
                          " ".join(side))  # ("remind me in 47 minutes about the meeting")
            task = _TASK_HEAD.sub("", _in_clause(m.group(1).strip(), text)) if m else ""
            while (trimmed := _TASK_TAIL.sub("", task)) != task:
                task = trimmed
            if task:
                break
        if not task:
            m = re.search(r"\bneed to\s+(.+)$", " ".join(words[: span[0]]))
            task = re.sub(r"\s+in$", "", m.group(1)) if m else ""
        return {"action": "remind", "duration": dur, "label": _cased(task, text)}
    cancel = re.search(r"\b(cancel|stop|delete|(?:turn|switch)(?: \w+){0,3} off|never mind|"
                       r"kill|get rid|remove|clear|scrap|forget|don't need|(?:timers?|alarms?) "
                       r"off(?= please| now|$))\b", w)  # "timer off"  # fmt: skip
    if cancel and span and re.search(r"\b(?:set|start|put|timer for)\b", w) \
            and len(w[: cancel.start()].split()) > span[0]:  # fmt: skip
        cancel = None  # "set a timer for 23 minutes, that's when my stop is"
    if cancel:
        if re.search(r"\b(all|every|everything)\b", w):
            return {"action": "cancel", "label": "all"}
        lab = _asked_label(words)
        if re.search(r"\b(?:that|this|the|my|your) (?:timer|reminder)\b", w):
            lab = ""  # "cancel that timer, the rice is done": the one meant, not "rice"
        return {"action": "cancel", **({"label": lab} if lab else {})}
    if dur is None and re.search(r"\b(left|longer|how long|until|when|check|how's|done|"
                                 r"remaining|to go|far along)\b", w):
        lab = _asked_label(words)
        return {"action": "left", **({"label": lab} if lab else {})}
    if dur is None and re.search(r"\b(?:set|start)\b(?: \w+){0,3} timer\b", w):
        return {"action": "set"}  # "set a timer": the timer asks how long
    if dur is None:
        return {"action": "list"}
    lab = _label(rest)
    return {"action": "set", "duration": dur, **({"label": lab} if lab else {})}


# -- spelling ---------------------------------------------------------------------------------
# Words that are never the word to spell in a request to spell one: pronouns standing for it
# ("spell it", "spell me ..."), the request's own words and English's closed classes.
_NOT_THE_WORD = set("""
    it that this these those me you us them him her i i'm i've my your our the a an some any
    they we he she they're we're he's she's
    for of in on to out by with about from at up and or but so now then just too also again
    is are was be do does did can could would will should may might please thanks thank
    spell spelled spelt spelling spel word name letters letter write written writing wrote
    how what which way correct correctly right wrong wrongly properly never always get got need
    want like
    how's what's that's it's there's here's who's
    know tell give show let help try say quick real really once more one um uh okay ok hey well
""".split())  # fmt: skip
_SPELL_AFTER = re.compile(
    r"\b(?:the word|the name|spelling of|letters (?:of|in)|spell?(?: out)?(?: me| us| for me)?"
    r"(?: the word| the name)?|write(?: out)?)\s+([a-z'-]+)"
)
_SPELL_BEFORE = re.compile(
    r"\b([a-z'-]+)\s+(?:(?:is |are )?(?:spelled|spelt)|(?:is|are) written)\b")


def spell_args(text: str) -> dict:
    """The word to spell (:func:`spelled_word`) and the spelling asked for ("the British way":
    :func:`spelling_variety`)."""
    variety = spelling_variety(text)
    if variety:  # its words are not the word ("mum, the English way, how do you spell it")
        text = _BRITISH_WAY.sub(" ", _AMERICAN_WAY.sub(" ", text))
    return {**spelled_word(text), **({"variety": variety} if variety else {})}


def spelled_word(text: str) -> dict:
    """The word after "spell", "the word", "the letters of", or before "spelled" / "is written";
    a pronoun there ("spell it for me") points at the word named elsewhere in the request, the
    longest word that is not the request's own ("I never get millennium right, spell it")."""
    orig = _trim(_words(text, keep_case=True))
    words = [x.lower() for x in orig]
    w = " ".join(words)
    pointed = False  # "spell it": the word is named elsewhere in the request
    for pattern in (_SPELL_AFTER, _SPELL_BEFORE):
        for m in pattern.finditer(w):
            if m.group(1) not in _NOT_THE_WORD:
                low = m.group(1)
                return {"word": next((o for o in orig if o.lower() == low), low)}
            pointed = True
    if pointed:  # "a new puppy, a chihuahua, how d'you spell that": the longest word named
        upto: list[str] = []  # in the clauses up to the one that asks (and in that one, only
        for clause in _clauses(text):  # before "spell it": "how do you spell that i'm doing
            if SPELL_ASKED.search(clause):  # my expenses" asks of the word said before)
                cut = re.search(r"\b(?:spell|spelled|spelt|write)\s+(?:it|that|this)\b", clause,
                                re.IGNORECASE)  # fmt: skip
                upto += _trim(_words(clause[: cut.start()] if cut else clause, keep_case=True))
                break
            upto += _trim(_words(clause, keep_case=True))
        named = [o for o in upto if o.lower() not in _NOT_THE_WORD]
        quoted = re.search(r"\b(?:says|reads|said|called|named|labelled|labeled|marked)\s+"
                           r"([a-z'-]+)", text, re.IGNORECASE)  # "the packet says begonia"
        if quoted and quoted[1].lower() not in _NOT_THE_WORD and quoted[1] in upto:
            return {"word": quoted[1]}
        if named:
            return {"word": max(reversed(named), key=len)}
    for clause in _clauses(text):  # the first clause that names a word ("now peony, for the
        said = _trim(_words(clause, keep_case=True))  # next label": peony, not label)
        named = [o for o in said if o.lower() not in _NOT_THE_WORD]
        if named:
            return {"word": max(reversed(named), key=len)}  # the longest; the last of equals
    rest = [o for o in orig if o.lower() not in {"and", "what", "about", "how", "now", "letter",
                                                   "by"}]  # fmt: skip
    return {"word": rest[-1] if rest else ""}


# "the British way", "in American English", "British spelling", "how is it spelt in the UK"
_SAID_AS = r"(?: english)?(?:'s)? (?:way|spelling|english|version|style|form)"
_SPELT_IN = r"(?:spelt|spelled|written|spell it) (?:in|over in) (?:the )?"
_BRITISH_WAY = re.compile(
    rf"\b(?:(?:british|english|uk|u\.k\.|brit|australian|aussie|kiwi|irish|scottish|welsh)"
    rf"{_SAID_AS}|in (?:british|uk|australian|irish) english|"
    rf"{_SPELT_IN}(?:uk|u\.k|britain|england|scotland|ireland|australia)|"
    r"(?<!out )with (?:the|a|an) (?:u|you)(?: in it)?(?!\w))", re.IGNORECASE)  # "colour with a u"
_AMERICAN_WAY = re.compile(
    rf"\b(?:(?:american|us|u\.s\.|yank|yankee){_SAID_AS}|in (?:american|us) english|"
    rf"{_SPELT_IN}(?:us|u\.s|usa|states|america)|without (?:the|a|an) (?:u|you)(?!\w))\b",
    re.IGNORECASE)  # fmt: skip


def spelling_variety(text: str) -> str | None:
    """"british" or "american" when the request asks for that spelling ("neighbour, the British
    way", "how's it spelled in American English"), else None."""
    if _AMERICAN_WAY.search(text):
        return "american"
    if _BRITISH_WAY.search(text):
        return "british"
    return None


def read_arguments(name: str, text: str, units: UnitsReader, calc=None) -> dict:
    """The arguments for a call to ``name`` that carried none, from the user's words."""
    if name == "calculator":
        return calculator_args(text, calc)
    if name == "units":
        return units.args(text)
    if name == "clock":
        return clock_read(text)
    if name == "timer":
        return timer_args(text)
    if name == "spell":
        return spell_args(text)
    return {}


# A request the clock can answer names a time, a day or a date (or counts to one): a bare clock
# call on "put Radio 2 on" is the model's wrong route, not a question of the time.
_CLOCK_WORDS = re.compile(
    r"\b(time|times|date|dates|day|days|weekday|week|weeks|year|years|month|months|"
    r"o'clock|today|today's|tonight|tomorrow|sleeps?|zone|morning|afternoon|evening|night|noon|"
    r"midnight|weekend|hour|hours|late|early|until|till|til|clock says?|monday|tuesday|wednesday|"
    r"thursday|friday|saturday|sunday)\b", re.IGNORECASE)  # fmt: skip


def clock_asked(text: str) -> bool:
    """Whether the request says anything the clock reads: a time or day word, or a date
    ("these days" and "nowadays" say neither: "how much is compost these days")."""
    text = re.sub(r"\b(?:these|those|in the old|back in the) days\b", " ", text, flags=re.I)
    ws = _trim(_words(text))
    span = _duration_span(ws)
    if span and span[1] - span[0] > 1:  # a length is no time asked: "run in one day" (but
        ws = ws[: span[0]] + ["|"] + ws[span[1] :]  # "what day is it in 3 days" still asks)
        text = " ".join(ws)
    return bool(_CLOCK_WORDS.search(text)) or bool(_date_anywhere(" ".join(ws)))


# -- another tool, when the one named cannot read the request -----------------------------------
SPELL_ASKED = re.compile(r"\b(spell|spel|spelt|spelled|spelling|(?<!-)letters?|(?:is|are) written|"
                         r"how (?:is|are) [a-z'-]+ written|"
                         r"write(?: it)? (?:out|down)|how (?:do|would|should) (?:you|i) write)\b",
                          re.IGNORECASE)  # fmt: skip
_TIMER_ASKED = re.compile(r"\b(timer|timers|remind|reminder|count(?:ed)? ?down|countdown|nudge|"
                          r"alarm|on the clock|time (?:it|that|them|this))\b"
                          r"|^\W*time\b(?!\s+(?:is|it's|zone|now|of|for|to)\b)",  # "time 6 mins"
                          re.IGNORECASE)  # fmt: skip
# A request to reach someone: never a timer, unless a timer or reminder is asked as well
# ("text Sam that I'm running ten minutes behind", "ring Jim. now.").
_CONTACT = re.compile(r"\b(?:text|message|e-?mail|whatsapp|call|ring|phone|dial|facetime)\b",
                      re.IGNORECASE)  # fmt: skip


_STOPWATCH = re.compile(r"\b(?:wake me|stopwatch|count(?:ing)? down|ring me|beep|buzz|give me a "
                        r"(?:holler|yell|heads[- ]up|bell|ring|call))\b",
                        re.IGNORECASE)  # fmt: skip
# A question about a length of time, not a timer: "how many seconds are in a day", "what's 90
# minutes in hours", "is a fortnight two weeks".
_LENGTH_ASKED = re.compile(r"\b(?:how many|how much|how long is|what is|what's|whats|what are|"
                           r"is there|are there|convert|converted|conversion|equal|equals|"
                           r"in (?:seconds|minutes|hours|days|weeks|months|years))\b"
                           r"|^\W*(?:is|are|does|do|did|was|were|will|would|has|have|should|how|"
                           r"what|which|when|where|why|who)\b(?! i (?:need|want|would like|'d "
                           r"like)\b)", re.IGNORECASE)  # ("what I need is a 5 minute timer")
# A request to act on something else, which may name a length or an amount: "skip forward 60
# seconds", "dim the bedroom lights to 80%", "turn the oven off in 20 minutes", "text Sam I'll be
# 10 minutes". Not a timer, nor a sum, unless one is asked in so many words.
OTHER_ACT = re.compile(
    r"^\W*(?:(?:um|uh|so|okay|ok|hey|hi|please|can you|could you|would you|will you|just|now|"
    r"and|then|quickly|go ahead and|i want you to|i need you to),?\s+)*(?:skip|rewind|"
    r"fast[- ]?forward|play|pause|resume|turn|switch|dim|brighten|open|close|lock|unlock|call|"
    r"ring|phone|text|message|send|reply|email|e-mail|order|buy|book|record|stream|watch|sing|"
    r"navigate|drive|vacuum|hoover|preheat|heat|cool|mute|unmute|raise|lower|increase|"
    r"decrease|shuffle|queue|charge|water|feed|put on)\b", re.IGNORECASE)


# A question about words other than their spelling: rhymes, meanings, synonyms, words for a game
# ("what rhymes with timer", "another word for happy", "a five-letter word starting with C").
WORD_TASK = re.compile(r"\b(?:rhymes?|rhyming|synonyms?|antonyms?|opposite of|meaning of|"
                       r"what does \S+ mean|define|definition|(?:another|a|other) words? (?:for|"
                       r"that means?|meaning)|\w+-letter words?|words? (?:starting|beginning|"
                       r"ending) with|anagrams?|translate|in (?:french|spanish|german|italian))\b",
                       re.IGNORECASE)  # fmt: skip


# How Whisper tiny.en writes the first word of a command said by Piper, counted on 240 requests
# of the demo model's training grammar that start with one (training.skills_tools, no
# benchmark's): "spell" 29 of 65 times otherwise ("It's bell ...", "It's about ...", "It's
# now/not the word ...", "Now the word ...", "That's not the word ...", "Bell ...", "Belt
# ...", "Install the word ..."), "add" 9 of 10 ("at 64 and 938"), "timer" 4 of 26 ("Hamer for
# the break, 6 minutes", "Conner for ...", "Time for the pizza 25 minutes"); and on 200 more
# that start with "spell" (another draw), 87 otherwise, adding "It's no ...", "That's how
# the word ...", "That's all the word ...", "Tell/Sell the word ...", "It smells ...".
_ONSETS = (
    (re.compile(r"^(?:it'?s|that'?s) (?:bell|belt|about|now|not|no|well|both|all|how|out)\b|"
                r"^(?:it'?s |that'?s )?(?:now|tell|sell|all)(?= the words?\b)|"
                r"^(?:bell|belt|smell|stell|install|spells|spel|it smells)\b",
                re.IGNORECASE), "spell"),
    (re.compile(r"^at(?= \d)", re.IGNORECASE), "add"),
    (re.compile(r"^(?:hammer|hamer|conner|time)(?= for\b)", re.IGNORECASE), "timer"),
)


def heard_again(text: str) -> str:
    """``text`` with its first word read as the command Whisper may have misheard there ("It's
    about definitely for me" → "spell definitely for me", "At 480 in 550" → "add 480 and 550"),
    or "" when it starts with none of them. Tried only when the request as heard gets no
    answer."""
    t = text.strip()
    for heard, word in _ONSETS:
        if heard.search(t):
            said = heard.sub(word, t, count=1)
            if word == "add":  # "at 480 in 550": Whisper's "in" for "and" between numbers
                said = re.sub(r"^add (\S+) in (?=\d)", r"add \1 and ", said)
            return said
    return ""


def timer_asked(text: str) -> bool:
    """Whether the request asks for something a timer does: a timer, reminder or alarm word,
    or a length of time that is not asked about ("ten minutes for the eggs", "set the oven for
    20 mins"). "What is the boiling point of water?" and "how many seconds are in a day" ask
    none: a bare timer call on them is the model's wrong route, not a list of timers or a
    24-hour timer. (While a timer runs, the toolbox also takes questions about it.)"""
    if _TIMER_ASKED.search(text) or _REMIND.search(text.lower()) or _STOPWATCH.search(text):
        return True
    if OTHER_ACT.search(text):
        return False
    ws = _trim(_words(text))
    return (_duration_span(ws) or _vague_span(ws)) is not None and not _LENGTH_ASKED.search(text)


def units_asked(text: str) -> bool:
    """Whether the request says anything a conversion reads: an amount or a unit ("never mind
    that" says neither)."""
    said = _trim(_words(text))
    return _quantity(said) is not None or bool(_unit_spans(said)) or _has_number(said)


def contact_asked(text: str) -> bool:
    """Whether ``text`` asks to call or message someone and asks no timer or reminder."""
    return bool(_CONTACT.search(text)) and not _TIMER_ASKED.search(text) \
        and not _REMIND.search(text.lower())  # fmt: skip


# A question about running timers: asked only while one runs, it is the timer's.
_TIMERS_ASKED = re.compile(
    r"\b(?:how (?:long|much longer|much time|far along)|time (?:left|remaining)|remaining|"
    r"left on|to go|how many timers|timers? (?:running|going|on|set)|"
    r"(?:minutes|seconds|hours) (?:are )?(?:left|remaining)|"
    r"is (?:it|the \w+|my \w+) (?:done|ready))\b",
    re.IGNORECASE)  # fmt: skip


# A follow-up that only names another: "and accommodate?", "now peony, for the label".
_ANOTHER = re.compile(r"^\W*(?:and|now|what about|how about|then|next|ok|okay|so)\b",
                      re.IGNORECASE)  # fmt: skip


# A question of its own, not another thing to do the same with ("Okay. Which planet is the
# smallest?")
_ASKS_ELSE = re.compile(r"\b(?:which|who|where|when|why|what(?!\s+about)|how(?!\s+about)|"
                        r"whats|what's)\b", re.IGNORECASE)  # fmt: skip


def another_asked(text: str) -> bool:
    """Whether ``text`` is a short follow-up that names another thing to do the same with
    ("and accommodate?", "so vacuum, that one as well?"), not a question of its own or a
    message to someone ("thx" "email my teacher that im sick")."""
    return len(_words(text)) <= 12 and (bool(_ANOTHER.search(text)) or bool(re.search(
        r"\b(?:as well|too|also|same again|that one|this one)\W*$", text, re.IGNORECASE))) \
        and not _ASKS_ELSE.search(text) and not contact_asked(text)  # fmt: skip


# Another of the same, said as such ("and a 6 minute one", "another for 5 minutes"): a length
# said again without it may be the last request heard again (a taken-back turn said whole).
_ONE_MORE = re.compile(r"^\W*(?:and|also|plus|then)\b|\b(?:another|one more|a second)\b",
                       re.IGNORECASE)  # fmt: skip


def one_more_asked(text: str) -> bool:
    """Whether ``text`` asks for one more of the same ("and a 6 minute one for the burgers")."""
    return bool(_ONE_MORE.search(text))


# A turn that only acknowledges ("ty", "ok", "thanks, sounds fun", "cool."): what the
# conversation refers back to is the turn before it.
_ACKNOWLEDGED = re.compile(
    r"^\W*(?:(?:ok(?:ay)?|k+|thanks?|thank you(?: (?:so|very) much)?|thanks a lot|thx|ty|tysm|"
    r"cheers|cool|great|nice(?: one)?|right|alright|all right|good|perfect|awesome|lovely|"
    r"brilliant|ta|got it|gotcha|sure|yes|yeah|yep|yup|hmm+|oh|ah|wow|fine|noted|understood|"
    r"sounds (?:good|great|fun|right)|that's (?:great|helpful|good|fine|perfect|right)|"
    r"that helps|much appreciated|appreciate it|no worries|no problem|"
    # a hold or a dismissal asks nothing either: "hold on a second", "never mind that"
    r"never ?mind(?: that| then| it)?|forget (?:it|that|about it)|(?:hold|hang) on|wait|"
    r"(?:just |give me )?(?:a|one) (?:sec|second|moment|minute|mo)|let me think|please)\W*)+$",
    re.IGNORECASE)  # fmt: skip


def acknowledged(text: str) -> bool:
    """Whether ``text`` only acknowledges the last answer."""
    return bool(_ACKNOWLEDGED.fullmatch(text.strip()))


# Asking to hear the last answer again: "could you repeat that, please?", "say that again",
# "sorry, what was that?", "pardon?", "come again?", "one more time please".
_REPEAT = re.compile(
    r"^\W*(?:(?:sorry|pardon|excuse me|what)\W*)?(?:(?:can|could|would|will) (?:you|u) "
    r"(?:please |just )?)?(?:please )?(?:repeat|say|read)(?: back)? (?:that|it|this|the answer|"
    r"what you (?:just )?said|that (?:last )?(?:bit|part|answer))(?: back)?(?: again| one more "
    r"time| once more)?(?: for me)?(?:,? please|,? pls)?\W*$"
    r"|^\W*(?:(?:sorry|pardon|excuse me)\W*)?(?:repeat|once more|one more time|come again|"
    r"again please|pardon(?: me)?|sorry|what was that|what did you (?:just )?say|"
    r"i didn'?t (?:catch|hear|get) (?:that|it|you)|say again)"
    r"(?:,? please|,? pls)?(?:,? (?:what was that|what did you say))?\W*$", re.IGNORECASE)


def repeat_asked(text: str) -> bool:
    """Whether ``text`` only asks to hear the last answer again."""
    return bool(_REPEAT.search(text.strip()))


# Cancelling a timer, said as such ("cancel the bottle timer", "timer off", "stop").
_CANCEL_TIMER = re.compile(r"\b(?:cancel|stop|delete|remove|kill|turn off|switch off|clear|"
                           r"never ?mind|forget)\b.*\b(?:timers?|alarms?|reminders?|it)\b|"
                           r"\b(?:timers?|alarms?) off(?: please| now)?\W*$|"
                           r"^\W*(?:stop|cancel)(?: it)?\W*$",
                           re.IGNORECASE)  # fmt: skip


def timer_cancel_asked(text: str) -> bool:
    """Whether ``text`` asks to cancel a timer ("cancel the bottle timer"; not "cancel my
    subscription")."""
    return bool(_CANCEL_TIMER.search(text)) and timer_args(text).get("action") == "cancel"


def timers_asked(text: str) -> bool:
    """Whether ``text`` asks how long is left or which timers run (with one running)."""
    return bool(_TIMERS_ASKED.search(text))


# Tried in this order: the strictest readers first.
OTHER_TOOLS = ("spell", "calculator", "units", "timer", "clock")


def claimed(name: str, text: str, units: UnitsReader, calc) -> dict | None:
    """The arguments for ``name`` when that tool plainly reads the whole request, else None: a
    word asked to be spelled, a sum the calculator reads whole, an amount and two different
    units (or a new amount after a conversion), a timer or reminder word with a length, a
    date to count to. Used when the tool the model named cannot read the request."""
    if name == "spell":
        return spell_args(text) if SPELL_ASKED.search(text) else None
    if name == "calculator":
        e = calculator_args(text, calc)["expression"]
        return {"expression": e} if _a_sum(e, calc) else None
    if name == "units":
        said = _trim(_words(text))
        if _quantity(said) is None and not _unit_spans(said):
            return None  # "and what about Italy?": nothing of a conversion is said
        before = units.last
        args = units.args(text)
        if _two_units(args):
            return args
        units.last = before
        return None
    if name == "timer":
        args = timer_args(text)
        ok = args.get("action") in ("set", "remind") and args.get("duration")
        return args if ok and _TIMER_ASKED.search(text) else None
    if name == "clock":
        args = clock_read(text)
        if _dated(args):
            return args
        dated = args.get("what") in ("until", "when")
        ok = not dated or parse_date(args["date"], date.today()) is not None
        return args if ok and (dated or now_asked(text)) else None
    return None


def _dated(args: dict) -> bool:
    """Whether the clock's arguments ask of a date they name: its weekday ("what day is 18
    march 2028") or the date some days from today ("in 54 days")."""
    if args.get("what") == "weekday of":
        return parse_date(args.get("date", ""), date.today()) is not None
    return offset_days(args.get("date")) not in (None, 0) and args.get("date") not in (
        "tomorrow", "yesterday")


def dated_asked(text: str) -> bool:
    """Whether the request asks the weekday of a date it names, the date some days from today
    or the days until a date: the clock's, even where "day" and "week" read as two units of
    time ("it says make it six weeks ahead, how many days is it until christmas")."""
    args = clock_read(text)
    return _dated(args) or args.get("what") in ("until", "when") and \
        parse_date(args.get("date", ""), date.today()) is not None  # fmt: skip


def clock_read(text: str) -> dict:
    """The clock's arguments: a date to count to when one is named, else the clause that asks
    the time, date or day as it is now ("can you tell me the time? the clock on the till is
    wrong": the time, not the days "till is wrong"), else the whole request's words."""
    args = clock_args(text)
    if args.get("what") in ("until", "when") and parse_date(args["date"], date.today()):
        return args
    if _dated(args):  # the weekday of a date, the date some days from today
        return args
    asked = now_asked(text)
    if not asked:
        return args
    args = clock_args(asked)
    when = re.search(r"\b(tomorrow|yesterday)\b", text, re.IGNORECASE)
    if when and "date" not in args and args.get("what") in ("day", "date") \
            and not re.search(r"\b(?:after|before) (?:tomorrow|yesterday)\b", text, re.I):
        args["date"] = when.group(1).lower()  # "tomorrow, what day of the week is it?"
    return args
