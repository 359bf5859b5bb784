"""The assistant's built-in tools: clock, timers and reminders, calculator, units, spelling.

A :class:`Toolbox` belongs to one conversation (its timers and the calculator's last result live
there). The language model chooses a tool by writing a call (OpenAI ``tool_calls`` through
:mod:`engine.tools`); :meth:`Toolbox.run` executes it locally and returns a short sentence that
goes back to the model as a ``tool`` message, which the model then says in its own words
(:func:`answer`, the tool loop). Tools touch no files, no network and no processes: they read the
clock, do arithmetic and keep timers in memory.
"""

from __future__ import annotations

import contextlib
import functools
import json
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date

from voice.reply_check import (
    DIDNT_GET_IT,
    Holdback,
    finished_part,
    garbled,
    sentences,
    with_full_stop,
)
from voice.tools.calculator import Calculator
from voice.tools.clock import ELSEWHERE, Clock, parse_date
from voice.tools.facts import NOT_ASKED, Facts, asks_known, beside_the_point, named, unasked
from voice.tools.request import (
    OTHER_ACT,
    OTHER_TOOLS,
    SPELL_ASKED,
    WORD_TASK,
    UnitsReader,
    acknowledged,
    another_asked,
    claimed,
    clock_asked,
    clock_read,
    contact_asked,
    date_named,
    dated_asked,
    heard_again,
    one_more_asked,
    read_arguments,
    repeat_asked,
    spelling_variety,
    timer_args,
    timer_asked,
    timer_cancel_asked,
    timers_asked,
    typed_text,
    units_asked,
)
from voice.tools.spell import spell
from voice.tools.timers import Timer, Timers
from voice.tools.units import EXAMPLE, convert, find_unit
from words.calendar import MONTHS
from words.quantity import read_ordinal
from words.spoken import ordinal_words

TOOL_SPECS: list[dict] = [
    {"type": "function", "function": {
        "name": "clock",
        "description": "The local time, date, weekday or time zone, or the days until a date.",
        "parameters": {"type": "object", "properties": {
            "what": {"type": "string", "enum": ["time", "date", "day", "until", "zone"]},
            "date": {"type": "string",
                     "description": "for until: a date or holiday, e.g. 'christmas', 'march 3'"},
        }, "required": ["what"]}}},
    {"type": "function", "function": {
        "name": "timer",
        "description": "Timers and reminders: set one, remind of something after a while, "
                       "list them, cancel one (or 'all'), or tell the time left.",
        "parameters": {"type": "object", "properties": {
            "action": {"type": "string", "enum": ["set", "remind", "list", "cancel", "left"]},
            "duration": {"type": "string", "description": "e.g. 'five minutes', '1 hour'"},
            "label": {"type": "string",
                      "description": "the timer's name, or what to remind of"},
        }, "required": ["action"]}}},
    {"type": "function", "function": {
        "name": "calculator",
        "description": "Exact arithmetic on a spoken or written expression: + - × ÷, percent, "
                       "powers, roots; 'that' is the last result.",
        "parameters": {"type": "object", "properties": {
            "expression": {"type": "string",
                           "description": "e.g. 'seventeen times twenty three', '15% of 80'"},
        }, "required": ["expression"]}}},
    {"type": "function", "function": {
        "name": "units",
        "description": "Convert lengths, weights, volumes, temperatures, speeds and durations.",
        "parameters": {"type": "object", "properties": {
            "value": {"type": "string", "description": "the amount, e.g. 'five' or '2.5'"},
            "from": {"type": "string", "description": "the unit it is in, e.g. 'kilograms'"},
            "to": {"type": "string", "description": "the unit wanted, e.g. 'pounds'"},
        }, "required": ["value", "from", "to"]}}},
    {"type": "function", "function": {
        "name": "spell",
        "description": "Spell a word letter by letter.",
        "parameters": {"type": "object", "properties": {
            "word": {"type": "string"},
        }, "required": ["word"]}}},
]  # fmt: skip
TOOL_NAMES = tuple(t["function"]["name"] for t in TOOL_SPECS)
# A tool's answer to a request that says nothing it acts on (see Toolbox._asked).
_NOT_ITS = "sorry, I can't do that; " + NOT_ASKED[NOT_ASKED.index("I can "):].rstrip(".")
# A timer word with a length says more than the two units in "2 minutes 30 seconds".
CLAIM_ORDER = ("timer", "spell", "calculator", "units", "clock")
# A reply that only acknowledges, after a tool did something the user should hear about.
_ACK = re.compile(r"\W*(?:okay|ok|sure|done|alright|all right|right|got it|will do)\W*",
                  re.IGNORECASE)  # fmt: skip
_POINTING = {"it", "that", "this", "that one", "that word", "them", "those", "the answer"}
CANT_CONTACT = "sorry, I can't call or message anyone; I can set timers and reminders"
# A sum asked in so many words, in a request that acts on something else ("turn it up by 5 and
# tell me what 5 times 7 is").
_COMPUTE = re.compile(r"\b(?:plus|minus|times|divided|multipl\w*|add|subtract|sum|total|of|"
                      r"squared|cubed|root|calculate|work out|how much|how many|what's|what is)\b",
                      re.IGNORECASE)  # fmt: skip
# Tool answers that are final: no other reading or words of the model can answer better.
_FINAL = frozenset({_NOT_ITS, CANT_CONTACT, ELSEWHERE})
KEPT_MARKS = 16  # recent answers that can still be undone (a take-back comes within ~1 s)
MAX_ROUNDS = 2  # model → tools → model ... at most this many tool rounds per turn


@dataclass
class ToolRun:
    """One executed call: what was asked, what the tool said, how long it took."""

    id: str
    name: str
    arguments: dict
    result: str
    ok: bool
    ms: float
    read: dict | None = None  # arguments the tool read from the user's words (a bare call)

    def to_json(self) -> dict:
        out = {"id": self.id, "name": self.name, "arguments": self.arguments,
               "result": self.result, "ok": self.ok, "ms": round(self.ms, 2)}  # fmt: skip
        if self.read is not None:
            out["read"] = self.read
        return out


class Toolbox:
    """The tools of one conversation. ``on_timer(timer, sentence)`` is called when a timer or
    reminder is due (from the conversation's loop, or a timer thread without one)."""

    def __init__(
        self,
        on_timer: Callable[[Timer, str], None] | None = None,
        loop=None,
        clock: Clock | None = None,
    ) -> None:
        self.clock = clock or Clock()
        self.timers = Timers(on_timer, loop)
        self.calculator = Calculator()
        self.units = UnitsReader()
        self.facts = Facts()
        self.specs = TOOL_SPECS
        self.turn = 0  # the conversation's turns with the tools on offer (counted by answer)
        self.last_ok: tuple[str, int] = ("", -1)  # the last tool that worked, and its turn
        self.counted = -1  # the turn the clock last counted the days to a date (or named its
        self.dated: dict = {}  # weekday), and what it was asked
        self.spelled = ""  # the last word spelled
        # what the tools remembered before each recent answer, for undo
        self._marks: dict[str, tuple[int, tuple]] = {}
        self._begun = 0  # answers begun
        self._undo_lock = threading.Lock()

    @contextlib.contextmanager
    def answering(self, answer: str):
        """The tools used inside the block (by this thread) serve ``answer``: what they change
        can be taken back with :meth:`undo` if nobody hears it."""
        with self._undo_lock:
            self._marks = {**dict(list(self._marks.items())[-(KEPT_MARKS - 1):]),
                           answer: (self._begun, self._state())}  # fmt: skip
            self._begun += 1
        with self.timers.by(answer):
            yield

    def undo(self, answer: str) -> None:
        """``answer`` was never heard (a speculation given up when the user went on, a reply
        taken back): the timers it set are gone and the ones it cancelled run again; what the
        conversation's tools remember ("that", the word last spelled, the turn count) is as
        before it, unless another answer has begun since (that one has built on it)."""
        self.timers.undo(answer)
        with self._undo_lock:
            mark = self._marks.pop(answer, None)
            if mark is not None and mark[0] == self._begun - 1:
                self._restore(mark[1])

    def _state(self) -> tuple:
        return (self.turn, self.last_ok, self.counted, dict(self.dated), self.spelled,
                self.calculator.last, self.calculator.asked, self.units.last,
                list(self.facts.log))  # fmt: skip

    def _restore(self, state: tuple) -> None:
        (self.turn, self.last_ok, self.counted, self.dated, self.spelled, self.calculator.last,
         self.calculator.asked, self.units.last, self.facts.log) = state  # fmt: skip

    def forget(self) -> None:
        """The conversation was reset: "that" and "and in pounds?" refer to nothing any more
        (timers keep running: they were set in the world, not in the conversation)."""
        self.calculator.last = None
        self.units.last = None
        self.facts.forget()
        self.last_ok = ("", -1)

    def run(
        self, name: str, arguments: dict | str, call_id: str = "", request: str | None = None
    ) -> ToolRun:
        """Execute one call; never raises (a bad call gets a sentence saying so). A call with
        no arguments (the demo model's) reads them from ``request``, the user's words."""
        t0 = time.perf_counter()
        args = arguments
        if isinstance(args, str):
            try:
                args = json.loads(args) if args.strip() else {}
            except json.JSONDecodeError:
                args = None
        if not isinstance(args, dict):
            return ToolRun(call_id, name, {}, "sorry, the tool call was not readable", False,
                           1000 * (time.perf_counter() - t0))  # fmt: skip
        read = None
        try:
            if not args and request:
                read = read_arguments(name, request, self.units, self.calculator)
                unasked_tool = not self._asked(name, request)
            if name == "spell":  # "can you spell that?" right after a fact: its answer;
                got = read if read is not None else args  # "spell it again": the same word
                word = str(got.get("word", "")).lower().strip(" ?.!")
                again = self.spelled if self.last_ok == ("spell", self.turn - 1) else ""
                if word in _POINTING | {"again"} and (said := again or (
                        word != "again" and self.facts.answer_before(self.turn))):  # fmt: skip
                    read = {**got, "word": said}
            if name == "spell" and read is None and request and "variety" not in args and \
                    (variety := spelling_variety(request)):  # fmt: skip
                args = {**args, "variety": variety}  # "neighbor the British way"
            if read is not None and name == "timer" and contact_asked(request) and not (
                    self.timers.active() and read.get("action") == "cancel"):  # fmt: skip
                # ("never mind, the call got moved, cancel it" cancels the timer)
                result, ok = CANT_CONTACT, False  # "text Sam I'm ten minutes behind"
            elif read is not None and unasked_tool:
                # a bare call to a tool the request says nothing to is the model's wrong
                # route: what the assistant can do, not that tool's own complaint ("put Radio
                # 2 on" → the clock, "what is the boiling point of water" → the timers)
                result, ok = _NOT_ITS, False
            elif read is not None and name == "units" and read.get("from") and \
                    find_unit(read["from"]) == find_unit(read.get("to", "")):  # fmt: skip
                # "1,200 a month, how much in seven months": no conversion asked (another
                # tool may read it)
                result, ok = f"sorry, I need two different units, {EXAMPLE}", False
            else:
                result, ok = self._dispatch(name, args if read is None else read)
            if read is not None and not ok:  # another tool may read what this one cannot
                for other in OTHER_TOOLS:
                    if other == name or self.last_ok == (other, self.turn):
                        continue  # a tool that already worked this turn (a timer set) runs once
                    alt = claimed(other, request, self.units, self.calculator) \
                        if self._asked(other, request) else None  # fmt: skip
                    if alt is not None and (got := self._dispatch(other, alt))[1]:
                        (result, ok), name, read = got, other, alt
                        break
        except Exception as e:  # a tool bug must not end the conversation
            result, ok = f"sorry, the {name} tool failed ({type(e).__name__})", False
        if ok:
            self.last_ok = (name, self.turn)
            if name == "spell":
                self.spelled = (args if read is None else read).get("word", "")
            asked = args if read is None else read
            if name == "clock" and asked.get("what") in ("until", "when", "weekday of"):
                self.counted, self.dated = self.turn, asked
        return ToolRun(call_id, name, args, result, ok, 1000 * (time.perf_counter() - t0), read)

    def _asked(self, name: str, request: str) -> bool:
        """Whether ``request`` says anything tool ``name`` acts on (its words, a length, an
        amount); a follow-up of the tool of the turn before, or a running timer, counts."""
        if WORD_TASK.search(request) and not re.search(r"\bspell", request, re.IGNORECASE):
            return False  # "what rhymes with timer": no tool's (and no spelling)
        if name == "spell":  # "ring my sister": nothing asks for a spelling
            spelling = self.last_ok[0] == "spell" and self.last_ok[1] >= self.turn - 1
            return spelling or bool(SPELL_ASKED.search(request))
        if name == "clock":  # "put Radio 2 on": nothing asks the time
            return clock_asked(request)
        if name == "timer":  # (with a timer running, also a question about it, or a cancel)
            return timer_asked(request) or bool(self.timers.active()) and (
                timers_asked(request) or timer_args(request).get("action") in ("cancel", "left"))
        if name == "calculator":  # "dim the bedroom lights to 80%": no sum asked
            return not OTHER_ACT.search(request) or bool(_COMPUTE.search(request))
        if name == "units":
            return self.last_ok[0] == "units" or units_asked(request)
        return True

    def elliptical(self, request: str) -> str:
        """A follow-up that names only a date right after the clock counted the days to one
        ("and the Fourth of July?" after "how long till New Year's Eve") asks the same of it:
        "how long until the Fourth of July"; any other request is returned as it is."""
        if self.counted != self.turn - 1 or self.last_ok != ("clock", self.counted):
            return request
        first = re.split(r"[?.!](?:\s|$)", request.strip())[0]  # "..., I'm counting down."
        said = re.sub(r"^\W*(?:(?:and|what about|how about|then|ok|okay|so|same question|but|"
                      r"asked|about|the one|for|to|till|until|how many|how long|days|"
                      r"are there|is it)\b\W*)+", "",
                      first, flags=re.IGNORECASE).strip(" ?.!,")  # fmt: skip
        ask = "what day of the week is" if self.dated.get("what") == "weekday of" else \
            "how long until"  # fmt: skip
        if said and parse_date(said, date.today()) is not None:
            return f"{ask} {said}"
        named = date_named(said) if said and len(said.split()) <= 8 else ""
        if named:  # "and my birthday on june 27"
            return f"{ask} {named}"
        day = re.match(r"^(?:the |on the )?(\d{1,2})(?:st|nd|rd|th)\b|^(?:the |on the )?"
                       r"(\w+(?: \w+)?)$", re.sub(r"^.*?\b(?:on|the) (?=the |\d)", "", said))
        n = None
        if day and day[1]:
            n = int(day[1])
        elif day and (got := read_ordinal(day[2].split(), 0)) and got[1] == len(day[2].split()):
            n = int(got[0])
        got = parse_date(str(self.dated.get("date", "")), date.today())
        if n and got is not None and 1 <= n <= 31:  # "and the return on the 14th?": that month
            return f"{ask} {MONTHS[got[1].month - 1]} {ordinal_words(n)} {got[1].year}"
        return request

    def claims(self, request: str, offered: set[str]) -> tuple[str, ...]:
        """The tools among ``offered`` that plainly read the whole request (a timer word with a
        length, a word asked to be spelled, a whole sum, an amount and two units, a date to
        count to; :func:`voice.tools.request.claimed`), the one that says most about what is
        asked first. What the conversation remembers ("that", the last conversion) counts only
        for the tool of the turn before ("and in yards?" right after a conversion), and is
        kept as it was."""
        memory = self.units.last, self.calculator.last
        before = self.last_ok if self.last_ok[1] == self.turn - 1 else ("", -1)
        if before[0] != "units":
            self.units.last = None
        if before[0] != "calculator":
            self.calculator.last = None
        try:
            got = tuple(name for name in CLAIM_ORDER if name in offered and self._asked(
                name, request) and claimed(name, request, self.units, self.calculator))  # fmt: skip
            if "clock" in got and "units" in got and dated_asked(request):
                got = ("clock", *(x for x in got if x not in ("clock", "units")))  # "what day
                # of the week is 18 march 2028" is no conversion of days to weeks
            if not got and "timer" in offered and self.timers.active() and timers_asked(request):
                return ("timer",)  # "how long has my pie got to go", with the pie timer running
            if not got and "timer" in offered and self.timers.active() and \
                    timer_cancel_asked(request):  # fmt: skip
                return ("timer",)  # "cancel the bottle timer", with the bottle timer running
            if not got and "spell" in offered and before[0] == "spell" and \
                    another_asked(request):  # fmt: skip
                return ("spell",)  # "what about electron", right after a spelling
            if not got and "timer" in offered and before[0] == "timer" and one_more_asked(
                    request) and timer_args(request).get("duration"):  # fmt: skip
                return ("timer",)  # "and a 6 minute one for the burgers", right after a timer
            return got
        except Exception:  # a reader's bug must not end the turn: no claim
            return ()
        finally:
            self.units.last, self.calculator.last = memory

    def _dispatch(self, name: str, a: dict) -> tuple[str, bool]:
        if name == "clock":
            return self.clock.ask(a.get("what", "time"), a.get("date"))
        if name == "timer":
            return self.timers.call(a.get("action", "set"), a.get("duration"), a.get("label"))
        if name == "calculator":
            c = self.calculator.calculate(str(a.get("expression", "")))
            return c.text, c.ok
        if name == "units":
            return convert(a.get("value"), a.get("from", ""), a.get("to", ""))
        if name == "spell":
            return spell(a.get("word", ""), a.get("variety"))
        return f"sorry, there is no tool called {str(name)[:40]}", False

    def close(self) -> None:
        """The conversation is over: cancel its timers."""
        self.timers.close()


def tools_supported(llm) -> bool:
    """Whether to offer the tools to this LLM back-end: a local model whose chat template
    renders tools (a template without tool support would get the long generic fallback, which
    the small context cannot hold). Remote endpoints get none: many OpenAI-compatible servers
    answer a request with ``tools`` with HTTP 400."""
    tok = getattr(getattr(llm, "worker", None), "tokenizer", None)
    if tok is None:
        return False
    support = getattr(tok, "template_support", None)
    return bool(support and support.tools)


@dataclass
class Answer:
    """A turn's final reply, the tool calls made on the way and the messages to remember.

    ``calls``: calls to the conversation's own functions (the client's tools), in OpenAI
    shape; when there are any the turn ends with them (``finish_reason`` ``tool_calls``) and
    their results come later, from the client."""

    text: str
    finish_reason: str
    stats: dict
    tools: list[ToolRun] = field(default_factory=list)
    messages: list[dict] = field(default_factory=list)  # assistant tool calls + tool results
    tool_ms: float = 0.0  # time in tools plus the model's tool-calling passes
    calls: list[dict] = field(default_factory=list)


def answer(
    llm,
    messages: list[dict],
    toolbox: Toolbox | None,
    on_text: Callable[[str], None],
    request_id: str | None = None,
    on_tool: Callable[[ToolRun], None] | None = None,
    *,
    functions: list[dict] | None = None,
    tool_choice: str | dict = "auto",
) -> Answer:
    """The tool loop (runs in a worker thread): the model, with the tools on offer, either
    answers or calls tools; calls are executed here and their results sent back as ``tool``
    messages, until the model answers (at most :data:`MAX_ROUNDS` rounds of calls; a reply with
    no words says the last tool's own sentence). Text the model writes reaches ``on_text`` as
    it is committed; calls never do. ``on_tool`` hears each executed call.

    ``functions`` (OpenAI function tools) are the client's own: they are offered beside the
    built-in tools (one of them replaces a built-in tool of the same name), and a round in which
    the model calls any of them ends the turn with those calls in :attr:`Answer.calls` (built-in
    calls of that round still run here). ``tool_choice`` (``auto``, ``none``, ``required`` or a
    named function) rules the first round, whose forced call (``required``, a name) is one of
    ``functions``; later rounds, after built-in results, are ``auto``; ``none`` offers no tool
    at all."""
    functions = functions or []
    theirs = {f["function"]["name"] for f in functions}
    ours = [s for s in (toolbox.specs if toolbox else []) if s["function"]["name"] not in theirs]
    specs = functions + ours
    stats: dict = {}
    hold = Holdback(on_text)  # the reply is checked before its unfinished tail goes out

    def decode(msgs: list[dict], **kw):
        """One round of the model; a garbled reply, or a call that did not parse (bad JSON, a
        tool that is not on offer) with no call that did, is decoded once more, carefully."""
        hold.begin()
        r = llm.stream(msgs, hold.feed, request_id, **kw)
        careful = getattr(llm, "careful_mode", None)
        unparsed = bool(r.stats.get("invalid_tool_calls")) and not r.tool_calls
        if careful and not hold.sent and (
                unparsed or r.finish_reason == "stop" and garbled(r.text)):
            key = "tool_retried" if unparsed else "redecoded"
            stats[key] = stats.get(key, 0) + 1
            hold.begin()
            fast, r = r, llm.stream(msgs, hold.feed, request_id, mode=careful, **kw)
            for k in ("nfe", "tokens"):  # both decodings' passes count
                r.stats[k] = r.stats.get(k, 0) + fast.stats.get(k, 0)
        return r

    if not specs or tool_choice == "none":
        r = decode(messages)
        text = hold.release(_sayable(r.text, stats, r.finish_reason))
        return Answer(text, r.finish_reason, {**r.stats, **stats})
    convo = list(messages)
    request = next((m.get("content") for m in reversed(messages) if m.get("role") == "user"
                    and isinstance(m.get("content"), str)), None)  # fmt: skip
    request = typed_text(request) if request else request  # "date 2day?": the tools read "today"
    # A tool that plainly reads the whole request (a word to spell, a whole sum, an amount and
    # two units, a timer with its length, a date to count to) is called even when the model
    # answers in words or calls another tool: the tools' strict readers vouch for the route.
    # The first round's words are held until then (they may not be said).
    # An acknowledgement ("ty", "ok, thanks") is not a turn the next one refers past: "36 times
    # 11?" "ty" "now halve that" halves 396.
    aside = bool(request) and acknowledged(request)
    if toolbox and not aside:
        toolbox.turn += 1
        request = toolbox.elliptical(request) if request else request
    if toolbox and aside and not functions and tool_choice == "auto":  # no tool, no fact
        text = "You're welcome." if re.search(r"\b(?:thank|thanks|thx|ty|tysm|cheers|ta|"
                                              r"appreciated?)\b", request, re.I) else "Okay."
        hold.release(text)
        return Answer(text, "stop", {"acknowledged": 1})
    said_last = next((m.get("content") for m in reversed(messages[:-1])
                      if m.get("role") == "assistant" and m.get("content")), None)  # fmt: skip
    if toolbox and request and said_last and isinstance(said_last, str) and not functions \
            and repeat_asked(request):  # "could you repeat that, please?": the same words
        hold.release(said_last)
        return Answer(said_last, "stop", {"repeated": 1})
    claims = toolbox.claims(request, {s["function"]["name"] for s in ours}) \
        if toolbox and request and not aside and tool_choice == "auto" and messages \
        and messages[-1].get("role") == "user" else ()  # fmt: skip
    # A fact the request plainly asks (a country's capital, the planet after Mars...), when no
    # tool claims it: the model answers, and its reply is said only if it says the fact
    # (voice.tools.facts); the words are held until then.
    # ("after January. which month." names a month: the fact, not the clock's month now; a
    # timer, a word to spell or a conversion said with a fact's words stays the tool's)
    # (nor a request to act on something else, "order the turkey for the day before", nor one
    # that counts the days to a date, "how many days from today is the 4th of June")
    dated = "clock" in claims and clock_read(request).get("what") in ("until", "when",
                                                                      "weekday of")  # fmt: skip
    fact = toolbox.facts.read(request, toolbox.turn) \
        if toolbox and request and not aside and not {"timer", "spell", "units"} & set(claims) \
        and not dated and not OTHER_ACT.search(request) and not functions \
        and tool_choice == "auto" and messages and messages[-1].get("role") == "user" \
        else None  # fmt: skip
    if fact is not None:
        claims = ()
    hold.hold_all = bool(claims) or fact is not None
    # A sentence stating a fact about a country or planet nobody named or asked about is the
    # model's wrong route ("order 2 masala dosa" → "The eighth planet from the Sun is
    # Neptune."): held, and left out of the reply (voice.tools.facts.unasked).
    said_so_far = " ".join(m["content"] for m in messages if m.get("role") in ("user", "assistant")
                           and isinstance(m.get("content"), str))  # fmt: skip
    said_so_far += " " + (request or "")
    unasked_of = functools.partial(unasked, conversation=said_so_far, request=request or "")
    checked = bool(toolbox and request and not functions and tool_choice == "auto")
    # A request whose first word Whisper may have misheard ("It's about definitely for me"):
    # if it gets no answer as heard, it is read again with the command it may have been.
    again = heard_again(request) if checked and request else ""
    if checked:  # (and a greeting, or live news, held until the whole reply is checked; and a
        # sorry, while the request may yet be read again)
        hold.suspect = lambda sentence: unasked_of(sentence) or \
            _honest(sentence, request, {}) != sentence or \
            bool(again) and bool(_SORRY.match(sentence))  # fmt: skip
    extra: list[dict] = []
    runs: list[ToolRun] = []
    tool_s = 0.0
    for round_ in range(MAX_ROUNDS + 1):
        t0 = time.perf_counter()
        # The tools stay on offer in every round (the prompt reads as the model learned it);
        # built-in calls in the last round are not run.
        choice = tool_choice if round_ == 0 else "auto"
        # A forced call (required, or a named function) is one of the client's functions.
        offer = functions if choice not in ("auto", "none") and functions else specs
        r = decode(convo + extra, tools=offer, tool_choice=choice)
        for k, v in r.stats.items():
            stats[k] = stats.get(k, 0) + v if k in ("nfe", "tokens") else v
        calls = r.tool_calls if r.finish_reason == "tool_calls" else []
        client = [c for c in calls if c["function"]["name"] in theirs]
        done: list[ToolRun] = []  # built-in calls of this round already run (by the retry)
        careful = getattr(llm, "careful_mode", None)
        if fact is not None:  # round 0, no client function on offer
            said = "" if calls else _sayable(r.text, stats, r.finish_reason)
            kept = bool(said) and "tool_call" not in said and "{" not in said \
                and said != DIDNT_GET_IT and fact.said_in(said)  # fmt: skip
            text = said if kept else fact.sentence  # a call the model made is not run
            stats["fact"] = "model" if kept else "table"
            hold.hold_all = False
            hold.release(text)
            _tool_stats(stats, runs, tool_s)
            return Answer(text, "stop", stats)
        vouched = False
        # (a call with arguments of its own is the model's reading, and stands)
        # (a bare call to a tool that claims less than the first claim gives way to it: the
        # units tool reads "1 hr 15 mins" as two units, the timer reads the whole request)
        if round_ == 0 and claims and not client and all(map(_bare, calls)) and \
                claims[0] not in {c["function"]["name"] for c in calls}:  # fmt: skip
            run = toolbox.run(claims[0], {}, "call_claimed", request)  # bare, as the model's
            if run.ok:
                vouched, done = True, [run]
                calls = [{"id": run.id, "type": "function",
                          "function": {"name": run.name, "arguments": "{}"}}]  # fmt: skip
                stats["tool_claimed"] = run.name
        hold.hold_all = False
        if vouched:
            hold.begin()  # the model's own words of this round are not said
        elif careful and calls and not client and round_ < MAX_ROUNDS and toolbox:
            # A round whose every call the tools reject (the wrong tool, arguments they cannot
            # read) is decoded once more with the careful decoder before anyone says sorry.
            # Only then: a call that ran (a timer set) is never run twice.
            first = [_run(toolbox, c, request) for c in calls]
            done = first
            if not any(x.ok for x in first):
                stats["tool_retried"] = stats.get("tool_retried", 0) + 1
                pieces: list[str] = []  # said only if this decoding is taken
                again = llm.stream(convo + extra, pieces.append, request_id, mode=careful,
                                   tools=offer, tool_choice=choice)
                for k in ("nfe", "tokens"):
                    stats[k] = stats.get(k, 0) + again.stats.get(k, 0)
                calls2 = again.tool_calls if again.finish_reason == "tool_calls" else []
                runs2 = [_run(toolbox, c, request) for c in calls2
                         if c["function"]["name"] not in theirs]  # fmt: skip
                said = again.text.strip()
                if (calls2 and all(x.ok for x in runs2)) or (
                        not calls2 and said and not garbled(said) and "tool_call" not in said):
                    r, calls, done = again, calls2, runs2
                    client = [c for c in calls if c["function"]["name"] in theirs]
                    hold.begin()
                    for piece in pieces:
                        hold.feed(piece)
        if not client and (not calls or round_ == MAX_ROUNDS):
            text = r.text.strip()
            if "tool_call" in text or "{" in text:  # stray call markup is never said
                text = ""
            text = _sayable(text, stats, r.finish_reason)
            if checked and text and not any(x.ok for x in runs):  # (no tool answered)
                text = _honest(text, request, stats)
            if checked and text:
                text = _asked_part(text, unasked_of, stats)
            if runs and runs[-1].ok and _ACK.fullmatch(text):
                text = ""  # "Okay." says nothing of the reminder set: the tool's sentence does
            if any(x.ok for x in runs) and _REFUSES.match(text):
                text = ""  # a sorry after a tool answered (a later call failed): the answer
            if not text:
                # No words: say the last tool's own sentence, or admit it.
                worked = [x for x in runs if x.ok] or runs  # a later failed call is not said
                text = _sentence(worked[-1].result) if runs else "Sorry, I couldn't work that out."
            if again and not any(x.ok for x in runs) and _SORRY.match(text) and \
                    (run := _read_again(toolbox, again, ours, stats)) is not None:  # fmt: skip
                runs.append(run)
                text = _sentence(run.result)
            hold.release(text)
            _tool_stats(stats, runs, tool_s)
            reason = r.finish_reason if r.finish_reason != "tool_calls" else "stop"
            return Answer(text, reason, stats, runs, extra, 1000 * tool_s)
        call_msg = {"role": "assistant", "content": None if vouched else r.text or None,
                    "tool_calls": calls}  # fmt: skip
        results = []
        ran = {x.id: x for x in done}
        for c in calls:
            if c["function"]["name"] in theirs:
                continue
            run = ran.get(c["id"]) or (_run(toolbox, c, request) if toolbox else ToolRun(
                c["id"], c["function"]["name"], {},
                f"sorry, there is no tool called {c['function']['name'][:40]}", False, 0.0))
            runs.append(run)
            results.append({"role": "tool", "tool_call_id": c["id"], "content": run.result})
            if on_tool is not None:
                on_tool(run)
        extra += [call_msg, *results]
        tool_s += time.perf_counter() - t0
        ran_now = runs[len(runs) - len(results):] if results else []
        if ran_now and not client and all(x.result in _FINAL for x in ran_now) and \
                not any(x.ok for x in runs):  # fmt: skip
            # every call went to a tool the request says nothing to, or asks what no tool does
            # (a call, the time in another city), and the careful decoding found no better:
            # the sorry that says what the assistant can do, not the model's words on it
            said = next((x.result for x in ran_now if x.result != _NOT_ITS), NOT_ASKED)
            text = LIVE if _LIVE.search(request or "") else _sentence(said)
            if again and (run := _read_again(toolbox, again, ours, stats)) is not None:
                runs.append(run)
                text = _sentence(run.result)
            hold.begin()
            hold.release(text)
            stats["honest"] = "no tool asked"
            _tool_stats(stats, runs, tool_s)
            return Answer(text, "stop", stats, runs, extra, 1000 * tool_s)
        if client:  # the client runs these: the turn ends here, waiting for their output
            _tool_stats(stats, runs, tool_s)
            stats["function_calls"] = len(client)
            hold.release(r.text.strip())
            return Answer(r.text.strip(), "tool_calls", stats, runs, extra, 1000 * tool_s, client)
    raise AssertionError("unreachable")


def _read_again(toolbox: Toolbox, said: str, ours: list[dict], stats: dict) -> ToolRun | None:
    """The answer of the tool that plainly reads ``said`` (the request read again with the
    command Whisper may have misheard), or None."""
    claims = toolbox.claims(said, {s["function"]["name"] for s in ours})
    if not claims:
        return None
    run = toolbox.run(claims[0], {}, "call_heard_again", said)
    if not run.ok:
        return None
    stats["heard_again"] = run.name
    return run


def _bare(call: dict) -> bool:
    """Whether a call leaves its arguments to be read from the request (the demo model's)."""
    a = call["function"].get("arguments") or "{}"
    try:
        return (json.loads(a) if isinstance(a, str) else a) == {}
    except json.JSONDecodeError:
        return False


def _run(toolbox: Toolbox, call: dict, request: str | None) -> ToolRun:
    f = call["function"]
    return toolbox.run(f["name"], f["arguments"], call["id"], request)


def _sayable(text: str, stats: dict, reason: str = "") -> str:
    """A garbled reply (after the careful decoding) loses its unfinished tail, or, with no
    finished sentence, becomes an honest "didn't get that"; an empty one stays empty. One the
    model ended itself (``reason`` "stop") without an end mark gets a full stop."""
    text = text.strip()
    if not garbled(text):
        return with_full_stop(text) if reason == "stop" else text
    stats["unfinished"] = 1
    kept = finished_part(text)
    return kept if kept and not garbled(kept) else DIDNT_GET_IT


# Live information an offline assistant can never know: any answer to it is made up.
_LIVE = re.compile(r"\b(?:weather|forecast|raining|going to rain|will it rain|snowing|"
                   r"going to snow|news|headlines|scores?|stock prices?|share price|traffic|"
                   r"exchange rate)\b", re.IGNORECASE)  # fmt: skip
# A refusal said whole ("Sorry, I can't check the weather, ..."), not "Sorry, I Saturday".
_REFUSES = re.compile(r"^\W*(?:sorry,? )?i (?:can't|cannot|can not|don't|do not|am not|'m not|"
                      r"am unable|'m unable)\b", re.IGNORECASE)  # fmt: skip
# Any sorry: a refusal, or a tool's ("Sorry, I need two units, like five kilos in pounds.").
_SORRY = re.compile(rf"{_REFUSES.pattern}|^\W*(?:i'?m )?sorry\b", re.IGNORECASE)
_GREETS = re.compile(r"^\W*(?:hello|hi|hey|good (?:morning|afternoon|evening))\b", re.IGNORECASE)
# A question about something other than the facts the tables know, and a request for anything
# about a country or planet.
_ASKS_OTHER = re.compile(r"^\W*(?:(?:um|uh|so|okay|ok|hey|and|but),? )*(?:what|what's|whats|which|"
                         r"how|when|who|who's|why)\b(?! about\b)", re.IGNORECASE)  # fmt: skip
_TELL_ABOUT = re.compile(r"\b(?:tell me (?:about|something)|facts?|anything about|what do you know|"
                         r"interesting)\b", re.IGNORECASE)  # fmt: skip


# A goodbye, and a request that says one; a month's place in the year, and a request that names
# a month or asks of months.
_FAREWELL = re.compile(r"^\W*(?:good ?bye|bye|good night|night night|talk to you (?:soon|later)|"
                       r"see you)\b", re.IGNORECASE)  # fmt: skip
_FAREWELL_ASKED = re.compile(r"\b(?:good ?bye|bye|good ?night|night|see (?:you|ya)|that's all|"
                             r"i'?m done|later|cheerio|ciao|ta-?ta|sleep|bed)\b",
                             re.IGNORECASE)  # fmt: skip
_MONTH_FACT = re.compile(r"\b(?:" + "|".join(MONTHS) + r") is the \w+ month\b")
_MONTHS_NAMED = re.compile(r"\b(?:months?|" + "|".join(MONTHS) + r"|jan|feb|mar|apr|jun|jul|aug|"
                           r"sept?|oct|nov|dec)\b", re.IGNORECASE)  # fmt: skip
_CONTACT_VERB = re.compile(r"\b(?:call|ring|phone|text|message|send|reply|e-?mail)$", re.IGNORECASE)
# The assistant on itself, and a request about it.
_ABOUT_ME = re.compile(r"^\W*(?:I was (?:trained|made|built|created)|I'?m diffvoice|I am diffvoice|"
                       r"I run |I'm a voice assistant|I am a voice assistant)", re.IGNORECASE)
_ASKS_ME = re.compile(r"\b(?:you|your|yourself|u|ur|diffvoice)\b", re.IGNORECASE)
# What the assistant can do, said as the answer to "what can you do?"; and such questions.
_CAN_DO = re.compile(r"^\W*I can (?:answer|help with|help you with|tell you|do)\b", re.IGNORECASE)
_ASKS_CAN_DO = re.compile(r"\b(?:what (?:else )?(?:can|could|do|are) (?:you|u)|help|able|capable|"
                          r"abilit(?:y|ies)|skills?|good at|who are (?:you|u)|what are (?:you|u) "
                          r"for|what do you know)\b", re.IGNORECASE)  # fmt: skip
LIVE = ("Sorry, I can't check live information like the weather, the news or scores, because I "
        "work offline.")


def _honest(text: str, request: str, stats: dict) -> str:
    """A reply that cannot be right for the request says so instead: live information (the
    weather, the news, scores) answered without a refusal ("weather this weekend" → "The, is
    Saturday and Sunday."), or a greeting for a request that greeted no one ("Tune to Kiss FM."
    → "Hello! How can I help you?")."""
    if _LIVE.search(request) and not _REFUSES.match(text):
        stats["honest"] = "live"
        return LIVE
    if _ASKS_OTHER.search(request) and not _TELL_ABOUT.search(request) and \
            not asks_known(request) and len(things := named(request)) == 1 and \
            things & named(text):  # fmt: skip
        # "what's the national dish of sweden" → "Sweden is in Europe.": true, and beside the
        # point (a fact the tables know was read before the model was asked)
        stats["honest"] = "beside the point"
        return beside_the_point(things.pop())
    if _FAREWELL.match(text) and not _FAREWELL_ASKED.search(request):
        stats["honest"] = "farewell"  # "when's my next meeting" → "Goodbye! Talk to you soon."
        return NOT_ASKED
    if _MONTH_FACT.search(text) and not _MONTHS_NAMED.search(request):
        stats["honest"] = "month"  # "pick a random number" → "November is the ninth month ..."
        return NOT_ASKED
    act = OTHER_ACT.search(request)
    if act and not _REFUSES.match(text):  # "call Grandma on speaker" → a joke
        stats["honest"] = "act"
        return _sentence(CANT_CONTACT) if _CONTACT_VERB.search(act[0]) else NOT_ASKED
    if _ABOUT_ME.match(text) and not _ASKS_ME.search(request):
        stats["honest"] = "about me"  # "what year did the Berlin Wall come down" → "I was
        return NOT_ASKED  # trained by the diffvoice project ..."
    if _CAN_DO.match(text) and not _ASKS_CAN_DO.search(request):
        stats["honest"] = "can do"  # "ring Jim now" → "I can answer simple questions about
        return NOT_ASKED  # countries, ...": no answer, and no sorry either
    if _GREETS.match(text) and not _GREETS.match(request) and len(request.split()) >= 3 and \
            not re.search(r"\bhow are you\b", request, re.IGNORECASE):  # fmt: skip
        stats["honest"] = "greeting"
        return NOT_ASKED
    return text


def _asked_part(text: str, unasked_: Callable[[str], bool], stats: dict) -> str:
    """The reply without its sentences that state a fact nobody asked about; with none left,
    what the assistant can do instead."""
    said = sentences(text)
    kept = [x for x in said if not unasked_(x)]
    if len(kept) == len(said):
        return text
    stats["unasked"] = len(said) - len(kept)
    return " ".join(kept) if kept else NOT_ASKED


def _tool_stats(stats: dict, runs: list[ToolRun], tool_s: float) -> None:
    stats["tool_calls"] = len(runs)
    if runs:
        stats["tool_ms"] = round(1000 * tool_s, 1)
        stats["tools"] = [x.to_json() for x in runs]


def _sentence(text: str) -> str:
    text = text.strip()
    return (text[:1].upper() + text[1:]).rstrip(".") + "."
