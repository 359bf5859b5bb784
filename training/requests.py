"""A grammar of request shapes: how people ask for something, apart from what they ask for.

The template lists of :mod:`training.skills_tools` and :mod:`training.skills_facts` write whole
questions, one wording per line, and the demo model learnt to route by those wordings: the same
request said as a statement, with the object first or with a reason tacked on went to the wrong
tool. Here a request is built from two independent parts:

- a **core**, what is asked, in up to five syntactic forms (:class:`Core`): a direct question
  (``q``: "what's the capital of {country}"), an embedded clause (``wh``: "what the capital of
  {country} is"), a noun phrase (``np``: "{country}'s capital"), a command (``do``: "spell
  {w}") and a fronted topic with a pronoun (``topic``: "{w}, how do you spell it");
- a **frame**, how it is asked, chosen by the core's form: question openers, "tell me / do you
  know / I need to know / I forgot / remind me ..." before a clause, "I need / give me / I'm
  looking for / just ..." before a noun phrase, "can you / would you / I need you to / go ahead
  and ..." before a command, plus politeness, fillers and a reason at either end ("..., I'm
  cooking", "for my homework, ...").

Slots keep the names the samplers fill (``{e}``, ``{v}``, ``{from}``, ``{to}``, ``{dur}``,
``{label}``, ``{task}``, ``{d}``, ``{w}``, ``{country}``, ``{planet}``, ``{nth}``, ``{day}``,
``{month}``), so a grammar wording is a drop-in for a template wherever one is picked
(``ToolSampler(..., grammar=p)``, :func:`fact_dialogs`). Nothing here was written from an
evaluation set: ``bench/everyday.py`` was written by someone who never saw this file.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

# --- frames ----------------------------------------------------------------------------------
OPENERS = (
    "um", "uh", "so", "okay", "ok so", "hey", "hi", "right", "alright", "quick question",
    "hey diffvoice", "excuse me", "sorry", "listen", "oh", "well", "one more thing",
    "real quick", "hey there", "yeah so", "hmm", "okay um", "hello", "morning",
)  # fmt: skip
CLOSERS = (
    "please", "thanks", "thank you", "if you can", "if you could", "for me", "real quick",
    "quickly", "when you get a chance", "would you", "right now", "now", "cheers", "mate",
    "if that's okay", "ta", "please and thank you", "if you would",
)  # fmt: skip
# Asides: what people say around a request (why they ask, what they are doing, who wants to
# know), built from parts so that their words vary far more than the requests' own.
_DOING = ("cooking", "baking", "writing", "driving", "packing", "cleaning", "fixing", "painting",
          "planning", "reading", "doing", "making", "sorting", "checking", "filling in",
          "building", "tidying", "wrapping", "marking", "revising", "decorating", "sewing",
          "knitting", "gardening", "shopping for", "looking at", "working on", "finishing")
_THINGS = ("a card", "dinner", "a form", "my homework", "the kids' lunches", "a shopping list",
           "the garden", "a cake", "the car", "an essay", "the spare room", "a report", "my notes",
           "the menu", "a poster", "the accounts", "a birthday present", "the fence", "a quiz",
           "the bathroom", "a letter", "the budget", "a jumper", "the shed", "a presentation",
           "the invitations", "a crossword", "the washing", "a spreadsheet", "the barbecue",
           "a school project", "my CV", "the timetable", "a recipe", "the lesson plan")
_PEOPLE = ("my son", "my daughter", "my wife", "my husband", "my mum", "my dad", "my friend",
           "my boss", "the neighbour", "the teacher", "my kid", "my brother", "my sister",
           "my flatmate", "my partner", "grandad", "the kids", "my colleague", "a customer")
_WANTS = ("is asking", "wants to know", "keeps asking", "says I'm wrong", "bet me a fiver",
          "thinks it's easy", "needs it", "is checking", "asked me earlier", "can't remember",
          "is arguing with me", "reckons otherwise", "told me something different")
_FEELINGS = ("I keep getting it wrong", "I always mix it up", "I never remember",
             "my phone's dead", "the kids are going mad", "it's driving me mad",
             "autocorrect keeps changing it", "I've got no signal", "I'm in a rush",
             "my hands are covered in flour", "I can't find my glasses", "I'm half asleep",
             "it's been bugging me", "I've forgotten again", "I'm terrible at this",
             "no rush", "before I forget", "while I think of it", "just checking",
             "just curious", "if you know", "I've got a meeting soon", "I'm on the phone",
             "we're running late", "the shop shuts soon", "I'm stuck")
_PURPOSES = ("my homework", "a quiz", "work", "a recipe", "the kids", "a card", "a crossword",
             "a form", "my essay", "a bet", "school", "the trip", "the party", "a poster",
             "the menu", "my exam", "the club newsletter", "a game", "a sign", "the holiday")


def aside(rng: random.Random) -> str:
    """A clause said around a request that does not change it ("I'm writing a card", "my son
    wants to know", "it's for a quiz"); now and then with a word the model never saw."""
    r = rng.random()
    if r < 0.25:
        subj = rng.choice(("I'm", "we're", "I'm just", "we're just", "I'm trying to finish"))
        text = f"{subj} {rng.choice(_DOING)} {rng.choice(_THINGS)}"
    elif r < 0.45:
        text = f"{rng.choice(_PEOPLE)} {rng.choice(_WANTS)}"
    elif r < 0.65:
        text = f"it's for {rng.choice(_PURPOSES)}"
    elif r < 0.9:
        text = rng.choice(_FEELINGS)
    else:
        text = f"{rng.choice(('the', 'my', 'our'))} {pseudo_word(rng)} {rng.choice(_WANTS)}"
    return text


def aside_around(text: str, rng: random.Random) -> str:
    """``text`` with an aside before it or after it (a comma between, as Whisper writes it)."""
    a = aside(rng)
    if rng.random() < 0.4:
        return f"{a[:1].upper()}{a[1:]}, {text[:1].lower()}{text[1:]}"
    end = text[-1] if text[-1:] in "?.!" else ""
    return f"{text.rstrip('?.!')}, {a}{end}"
# before an embedded clause: "tell me {wh}"
WH_LEADS = (
    "tell me", "do you know", "can you tell me", "could you tell me", "I want to know",
    "I'd like to know", "I need to know", "I wonder", "I was wondering", "any idea",
    "got any idea", "do you happen to know", "I forgot", "I can't remember",
    "I don't remember", "remind me", "let me know", "find out", "check", "please tell me",
    "I'm curious", "I'm not sure", "help me figure out", "work out", "can you check",
    "would you tell me", "I'd love to know", "no idea", "I wanna know", "you know",
    "say", "have you got any idea", "could you find out", "can you work out",
)  # fmt: skip
# before a noun phrase: "give me {np}"
NP_LEADS = (
    "", "", "what's", "what is", "tell me", "give me", "I need", "I want", "I'd like",
    "get me", "can I get", "can I have", "can you give me", "could you give me",
    "I'm looking for", "looking for", "need", "just", "what about", "find me", "I wanna know",
    "let's have", "go on then,", "what would be", "do you know", "any idea of",
)  # fmt: skip
# before a command: "can you {do}"
DO_LEADS = (
    "", "", "", "please", "can you", "could you", "would you", "will you", "can you please",
    "I need you to", "I want you to", "I'd like you to", "go ahead and", "help me",
    "would you please", "could you please", "I'd like to", "I want to", "let's", "quickly",
    "can you just", "just", "you can", "I need to", "I wanna", "do me a favour and",
    "be a dear and", "it'd be great if you could", "is it possible to", "I was hoping you could",
)  # fmt: skip
# follow-ups after an exchange of the same kind: "{x}" is the new value
FOLLOW = (
    "and {x}", "and {x}?", "what about {x}", "how about {x}", "{x} too", "{x} as well",
    "and {x} too", "{x} next", "now {x}", "and for {x}", "same for {x}", "the same for {x}",
    "and {x}, please", "now do {x}", "try {x}", "{x}?", "okay and {x}", "how about {x} then",
    "do {x} now", "and then {x}", "next, {x}", "and also {x}", "{x} now", "same thing, {x}",
    "what if it's {x}", "ok, {x}", "and what about {x}", "then {x}", "also {x}",
    "{x}, same question", "same question, {x}", "and {x} then", "right, and {x}",
)  # fmt: skip


@dataclass(frozen=True)
class Core:
    """One request in every syntactic form it has (an empty form: none)."""

    q: tuple[str, ...] = ()
    wh: tuple[str, ...] = ()
    np: tuple[str, ...] = ()
    do: tuple[str, ...] = ()
    topic: tuple[str, ...] = ()


def _t(text: str) -> tuple[str, ...]:
    return tuple(s.strip() for s in text.split("|") if s.strip())


def core(q: str = "", wh: str = "", np: str = "", do: str = "", topic: str = "") -> Core:
    """A core from ``|``-separated alternatives of each form."""
    return Core(_t(q), _t(wh), _t(np), _t(do), _t(topic))


def _lead(lead: str, body: str) -> str:
    return f"{lead} {body}" if lead else body


def frame(c: Core, rng: random.Random) -> str:
    """One wording of ``c``: a form, a frame for it, and now and then politeness, a filler or a
    reason at either end. Plain text with the slots left in; question marks only on questions."""
    forms = [f for f in ("q", "wh", "np", "do", "topic") if getattr(c, f)]
    form = rng.choice(forms)
    body = rng.choice(getattr(c, form))
    question = False
    if form == "q":
        question = True
        r = rng.random()
        if r < 0.15:
            body = f"{body}, {rng.choice(CLOSERS)}"
    elif form == "wh":
        lead = rng.choice(WH_LEADS)
        question = lead.startswith(("do ", "can ", "could ", "would ", "have ", "got "))
        body = f"{lead} {body}"
    elif form == "np":
        lead = rng.choice(NP_LEADS)
        question = lead.startswith(("what", "can ", "could ", "do ", "any "))
        body = _lead(lead, body)
        if not lead and rng.random() < 0.5:
            body = f"{body}, {rng.choice(('please', 'thanks', 'quick', 'now', 'today'))}"
    elif form == "do":
        lead = rng.choice(DO_LEADS)
        question = lead.startswith(("can ", "could ", "would ", "will ", "is it"))
        body = _lead(lead, body)
        if rng.random() < 0.2:
            body = f"{body} for me"
    else:
        question = "?" in body or body.split(", ")[-1].startswith(("what", "how", "which"))
    r = rng.random()
    if r < 0.25:
        body = f"{rng.choice(OPENERS)}, {body}"
    elif r < 0.45:
        body = f"{aside(rng)}, {body}"
    r = rng.random()
    if r < 0.15 and form != "q":
        body = f"{body}, {rng.choice(CLOSERS)}"
    elif r < 0.4:
        body = f"{body}, {aside(rng)}"
    body = body.replace("?", "")
    return body[:1].upper() + body[1:] + ("?" if question else "")


def follow(slot: str, rng: random.Random) -> str:
    """An elliptical follow-up naming a new ``slot`` value."""
    text = rng.choice(FOLLOW).replace("{x}", "{" + slot + "}")
    if rng.random() < 0.2:
        text = f"{rng.choice(('okay', 'right', 'cool', 'thanks', 'great', 'nice', 'ok'))}, {text}"
    return text[:1].upper() + text[1:]


# --- the tools' requests (slot names as in training.skills_tools) ----------------------------
TOOL_CORES: dict[str, Core] = {
    "calc": core(
        q="what's {e} | what is {e} | what does {e} make | what does {e} come to | "
          "what do you get for {e} | how much is {e} | what's {e} equal to | {e} is what | "
          "what would {e} be | what's the answer to {e} | what do I get if I do {e} | "
          "how much does {e} come out to",
        wh="what {e} is | what {e} makes | what {e} comes to | how much {e} is | "
           "what you get for {e} | what the answer to {e} is | what {e} would be",
        np="{e} | the answer to {e} | the result of {e} | {e} worked out | the total for {e}",
        do="work out {e} | calculate {e} | figure out {e} | compute {e} | do {e} | solve {e} | "
           "tell me {e} | do the sum {e} | run {e} | add it up, {e} | crunch {e}",
        topic="{e}, what's that | {e}, how much is that | {e}, what do you get | "
              "{e}, what does it come to | {e}, can you do that",
    ),
    "calc_follow": core(
        np="{e} | and {e} | now {e} | then {e}",
        do="{e} | now {e} | and {e} | then {e} | okay {e} | next {e}",
        topic="and {e}, what's that now | okay, {e}, what do we get",
    ),
    "units": core(
        q="how many {to} is {v} {from} | how many {to} are in {v} {from} | "
          "what's {v} {from} in {to} | how much is {v} {from} in {to} | "
          "{v} {from} is how many {to} | what is {v} {from} in {to} | "
          "how many {to} make {v} {from} | what does {v} {from} come to in {to} | "
          "how many {to} would {v} {from} be | what's {v} {from} in terms of {to}",
        wh="how many {to} {v} {from} is | what {v} {from} is in {to} | "
           "how many {to} there are in {v} {from} | how much {v} {from} is in {to} | "
           "what {v} {from} comes to in {to}",
        np="{v} {from} in {to} | {v} {from} converted to {to} | {v} {from} to {to} | "
           "{v} {from} into {to} | {v} {from} as {to} | {v} {from} in {to} please",
        do="convert {v} {from} to {to} | change {v} {from} into {to} | "
           "turn {v} {from} into {to} | put {v} {from} in {to} | "
           "convert {v} {from} into {to} | work out {v} {from} in {to} | "
           "give me {v} {from} in {to} | switch {v} {from} to {to}",
        topic="{v} {from}, what's that in {to} | {v} {from}, how many {to} is that | "
              "{v} {from}, in {to} please | I've got {v} {from}, how many {to} is that | "
              "a recipe wants {v} {from}, what's that in {to} | "
              "it says {v} {from}, what's that in {to}",
    ),
    "units_follow_value": core(
        np="{v} | {v} {from} | and {v} | what about {v} | {v} instead | now {v} {from}",
        do="do {v} | try {v} | now {v} | do {v} {from} now | same for {v} | and {v} {from}",
    ),
    "units_follow_unit": core(
        np="in {to} | and in {to} | {to} instead | what about in {to} | now in {to} | "
           "how about {to}",
        do="do it in {to} | now {to} | make it {to} | try {to} | convert that to {to} | "
           "change it to {to} | same in {to}",
    ),
    "clock_time": core(
        q="what time is it | what's the time | what time have you got | what's the time now | "
          "what time do you make it | what time is it right now | have you got the time | "
          "what's the time at the moment | what time's it | is it late",
        wh="what time it is | what the time is | what time it is now | how late it is | "
           "what the time is right now",
        np="the time | the current time | the time right now | the exact time | "
           "the time please | the time now",
        do="check the time | give me the time | read me the time | say the time | "
           "tell me the time | look at the clock",
        topic="the time, what is it | the time, what've we got",
    ),
    "clock_date": core(
        q="what's the date | what's today's date | what date is it | what's the date today | "
          "what's the date again | what is today's date | what's the date of today",
        wh="what the date is | what date it is today | what today's date is | "
           "what the date is today | what date it is",
        np="the date | today's date | the date today | the full date | the current date",
        do="check the date | give me the date | tell me the date | give me today's date | "
           "read me the date",
        topic="today's date, what is it | the date, what is it today",
    ),
    "clock_day": core(
        q="what day is it | what day of the week is it | what's today | which day is it today | "
          "what day is it today | is it the weekend | what day are we on | which weekday is it",
        wh="what day it is | what day of the week it is | which weekday it is | "
           "what day it is today | which day we're on",
        np="the day of the week | today's day | the weekday | what day today is",
        do="check what day it is | tell me the day | tell me what day it is",
        topic="today, what day is it | the day, what is it today",
    ),
    "clock_until": core(
        q="how many days until {d} | how long until {d} | how many days is it to {d} | "
          "how far away is {d} | how many more days till {d} | how long is it till {d} | "
          "how many sleeps until {d} | how soon is {d} | how many days left before {d} | "
          "how many days to go until {d}",
        wh="how many days until {d} | how long it is until {d} | "
           "how many days are left till {d} | how far off {d} is | how soon {d} is | "
           "how many days we have until {d}",
        np="the number of days until {d} | the days left until {d} | a countdown to {d} | "
           "days till {d} | the days to {d}",
        do="count the days until {d} | work out how many days to {d} | "
           "count down the days to {d}",
        topic="{d}, how many days away is it | {d}, how long till then | "
              "{d}, how far off is that",
    ),
    "clock_zone": core(
        q="what time zone am I in | which time zone is this | what's my time zone",
        wh="what time zone I'm in | which time zone this is | what time zone we're in",
        np="my time zone | the time zone here | the local time zone",
    ),
    "timer_set": core(
        np="a timer for {dur} | a {dur} timer | a {dur} countdown | {dur} on the timer | "
           "a countdown of {dur} | {dur} timer",
        do="set a timer for {dur} | start a timer for {dur} | set a {dur} timer | time {dur} | "
           "start a {dur} countdown | count down {dur} | put a timer on for {dur} | "
           "start the timer for {dur} | make a timer for {dur} | run a timer for {dur} | "
           "set the timer to {dur} | time me for {dur} | start counting down {dur} | "
           "set me a timer for {dur} | get a timer going for {dur} | time {dur} for me",
        topic="{dur}, set a timer | {dur} on the timer please | "
              "{dur}, start the countdown | {dur}, time it",
    ),
    "timer_label": core(
        np="a {label} timer for {dur} | a {dur} timer for the {label} | "
           "a timer for the {label}, {dur}",
        do="set a {label} timer for {dur} | start a {dur} timer for the {label} | "
           "time the {label} for {dur} | set a timer for the {label} for {dur} | "
           "put the {label} on a {dur} timer",
        topic="the {label} needs {dur}, set a timer | the {label}, {dur}, time it | "
              "{dur} for the {label}, start a timer",
    ),
    "timer_remind": core(
        np="a reminder to {task} in {dur} | a reminder in {dur} to {task}",
        do="remind me to {task} in {dur} | in {dur} remind me to {task} | "
           "tell me to {task} in {dur} | let me know in {dur} to {task} | "
           "ping me in {dur} to {task} | give me a reminder to {task} in {dur} | "
           "remind me in {dur} to {task} | set a reminder to {task} in {dur} | "
           "don't let me forget to {task} in {dur}",
        topic="I have to {task} in {dur}, remind me | "
              "I need to {task} in {dur}, can you remind me | "
              "in {dur} I've got to {task}, remind me | "
              "{dur} from now I need to {task}, give me a reminder",
    ),
    "timer_list": core(
        q="what timers do I have | do I have any timers | are any timers running | "
          "which timers are on | have I got any timers going | what timers are running",
        wh="what timers I have | if I have any timers running | which timers are on | "
           "whether any timers are running",
        np="my timers | the timers I've got | a list of my timers | all my timers",
        do="list my timers | show my timers | read out my timers | check my timers | "
           "go through my timers",
    ),
    "timer_cancel": core(
        do="cancel the timer | stop the timer | turn off the timer | kill the timer | "
           "get rid of the timer | delete the timer | cancel it | stop it | "
           "forget the timer | switch the timer off | clear the timer | end the timer | "
           "cancel my timer | turn it off | drop the timer | call off the timer",
        topic="that timer, cancel it | the timer, I don't need it anymore | "
              "I don't need the timer anymore | never mind the timer | no more timer",
    ),
    "timer_cancel_label": core(
        do="cancel the {label} timer | stop the {label} timer | turn off the {label} timer | "
           "get rid of the {label} timer | delete the {label} timer | "
           "switch off the timer for the {label} | kill the {label} timer",
        topic="the {label} timer, cancel it | the {label} timer, stop it | "
              "I don't need the {label} timer anymore",
    ),
    "timer_cancel_all": core(
        do="cancel all my timers | clear all timers | stop every timer | "
           "get rid of all the timers | turn off all timers | delete every timer | "
           "cancel all the timers | kill all my timers | stop all of them",
        topic="all the timers, cancel them | every timer, stop them",
    ),
    "timer_left": core(
        q="how much time is left | how long is left on my timer | "
          "how much longer on the timer | how long until the timer goes off | "
          "how much time do I have left | how long's left | how much longer | "
          "when does the timer go off | how long have I got left",
        wh="how much time is left | how long is left on the timer | "
           "how long until the timer's done | how much longer the timer has | "
           "when the timer goes off",
        np="the time left on my timer | the time remaining | the time left | "
           "how long's left on the timer",
        do="check my timer | check the timer | check how long's left",
    ),
    "timer_left_label": core(
        q="how long is left on the {label} timer | how much time does the {label} have left | "
          "when is the {label} done | how long until the {label} timer goes off",
        wh="how long is left on the {label} timer | when the {label} will be done | "
           "how much longer the {label} timer has",
        np="the time left on the {label} timer | the time left for the {label}",
        do="check the {label} timer | check on the {label} timer",
    ),
    "spell": core(
        q="how do you spell {w} | how is {w} spelled | how's {w} spelled | "
          "what's the spelling of {w} | how do I spell {w} | how do you write {w} | "
          "what letters are in {w} | how do you spell the word {w} | is it spelled {w}",
        wh="how to spell {w} | how you spell {w} | how {w} is spelled | how to write {w} | "
           "the spelling of {w} | how you write {w} | how the word {w} is spelled",
        np="the spelling of {w} | the letters in {w} | {w} spelled out | "
           "the spelling for {w} | the spelling of the word {w} | {w}, spelled",
        do="spell {w} | spell out {w} | spell the word {w} | give me the spelling of {w} | "
           "spell {w} for me | spell {w} letter by letter | spell the word {w} out",
        topic="{w}, how do you spell it | the word {w}, spell it | {w}, how's that spelled | "
              "{w}, what are the letters | {w}, spell it out | the word is {w}, spell it",
    ),
    "spell_follow": core(
        np="{w} | and {w} | what about {w} | now {w} | {w} too",
        do="now spell {w} | spell {w} next | and {w} | do {w} | try {w} | now {w} please",
    ),
}


# --- the model's own facts (slot names as in training.skills_facts) --------------------------
FACT_CORES: dict[str, Core] = {
    "capital": core(
        q="what's the capital of {country} | what is {country}'s capital | "
          "which city is the capital of {country} | what city is {country}'s capital | "
          "what's {country}'s capital city | where's the capital of {country} | "
          "what's the main city of {country}",
        wh="what the capital of {country} is | what {country}'s capital is | "
           "which city is the capital of {country} | what the capital city of {country} is",
        np="the capital of {country} | {country}'s capital | the capital city of {country} | "
           "the name of {country}'s capital | {country} capital",
        topic="{country}, what's its capital | {country}, which city is the capital | "
              "{country}, what's the capital there | {country}, capital city",
    ),
    "continent": core(
        q="what continent is {country} in | which continent is {country} on | "
          "what continent is {country} part of | where in the world is {country} | "
          "on which continent is {country} | is {country} in Europe or Asia",
        wh="what continent {country} is in | which continent {country} is on | "
           "what part of the world {country} is in | where in the world {country} is",
        np="the continent of {country} | the continent {country} is on | "
           "{country}'s continent | which continent for {country}",
        topic="{country}, which continent is that in | {country}, what continent | "
              "{country}, where is that",
    ),
    "language": core(
        q="what language do they speak in {country} | what do people speak in {country} | "
          "what's the language of {country} | what language is spoken in {country} | "
          "what do they speak in {country} | what language is {country}",
        wh="what language they speak in {country} | what language people speak in {country} | "
           "what language is spoken in {country} | what they speak in {country}",
        np="the language of {country} | the main language in {country} | "
           "the language spoken in {country} | {country}'s language | "
           "the official language of {country}",
        topic="{country}, what language do they speak there | "
              "{country}, what do they speak | {country}, which language",
    ),
    "currency": core(
        q="what currency does {country} use | what money do they use in {country} | "
          "what's the currency in {country} | what do they spend in {country} | "
          "what's the money called in {country} | which currency is used in {country}",
        wh="what currency {country} uses | what money they use in {country} | "
           "what the currency of {country} is | what they spend in {country}",
        np="the currency of {country} | {country}'s currency | the money in {country} | "
           "the currency they use in {country} | the local currency in {country}",
        topic="{country}, what currency | {country}, what money do they use | "
              "going to {country}, what currency do I need",
    ),
    "planet_order": core(
        q="where is {planet} from the sun | what number planet is {planet} | "
          "which planet from the sun is {planet} | what position is {planet} from the sun | "
          "how far out is {planet} in the order",
        wh="where {planet} is in the order of planets | what position {planet} is from the sun | "
           "which number planet {planet} is | where {planet} comes from the sun",
        np="{planet}'s position from the sun | the order of {planet} from the sun | "
           "{planet}'s place in the solar system",
        topic="{planet}, what number planet is it | {planet}, how far out from the sun is it",
    ),
    "planet_nth": core(
        q="which planet is {nth} from the sun | what's the {nth} planet | "
          "what's the {nth} planet from the sun | which is the {nth} planet | "
          "what planet comes {nth}",
        wh="which planet is {nth} from the sun | what the {nth} planet is | "
           "which planet comes {nth} from the sun",
        np="the {nth} planet | the {nth} planet from the sun | the name of the {nth} planet",
    ),
    "day_after": core(
        q="what day comes after {day} | what's the day after {day} | what follows {day} | "
          "which day is after {day} | what comes after {day}",
        wh="what day comes after {day} | what day follows {day} | what comes after {day}",
        np="the day after {day} | the day following {day} | the next day after {day}",
    ),
    "month_after": core(
        q="what month comes after {month} | what's the month after {month} | "
          "what follows {month} | which month is after {month} | what comes after {month}",
        wh="what month comes after {month} | what month follows {month} | "
           "what comes after {month}",
        np="the month after {month} | the month following {month} | "
           "the next month after {month}",
    ),
    "day_before": core(
        q="what day comes before {day} | what's the day before {day} | "
          "which day is before {day}",
        wh="what day comes before {day} | which day is before {day}",
        np="the day before {day} | the day ahead of {day}",
    ),
    "month_before": core(
        q="what month comes before {month} | what's the month before {month} | "
          "which month is before {month}",
        wh="what month comes before {month} | which month is before {month}",
        np="the month before {month} | the month ahead of {month}",
    ),
}
FACT_FOLLOW_SLOT = {"capital": "country", "continent": "country", "language": "country",
                    "currency": "country", "planet_order": "planet", "day_after": "day",
                    "month_after": "month", "day_before": "day", "month_before": "month"}


# A speaker correcting the value they just said: "the capital of Sweden, no hang on, Norway".
REPAIRS = (
    "no wait, {x}", "no, {x}", "sorry, I mean {x}", "no hang on, {x}", "actually, {x}",
    "I mean {x}", "or rather {x}", "scratch that, {x}", "wait, no, {x}", "no sorry, {x}",
    "sorry, {x}", "make that {x}", "actually make that {x}", "hang on, I mean {x}",
    "no no, {x}", "oops, {x}", "I meant {x}", "sorry, not that, {x}", "no, I mean {x}",
    "wait, {x}", "er, no, {x}", "um, actually {x}", "let me rephrase, {x}",
    "no scratch that, {x}", "I'm wrong, {x}",
)  # fmt: skip


def repair(rng: random.Random) -> str:
    """A correction to put after the value it corrects (``{x}``: the value meant)."""
    return ", " + rng.choice(REPAIRS)


# Follow-ups that step along an order from the last answer: the day after the day just named,
# the planet after the one just named. Keyed by direction: "after" or "before" (a day, a
# month), "out" or "in" (planets).
STEPS = {
    "after": (
        "and the one after that", "and after that", "the one after that", "and the next one",
        "what about the next one", "and what comes after that", "and then", "which one's next",
        "and next", "what's after that", "and the one after", "next one", "and the one that "
        "follows", "and the following one", "what comes next", "and what's next", "after that?",
        "and the one after it", "then what", "what follows that one", "keep going, the next one",
    ),
    "before": (
        "and the one before that", "and before that", "what about the one before",
        "and what comes before that", "the one before that", "and the previous one",
        "what's before that", "and the one before it", "what comes before that one",
        "and going back one", "the one before",
    ),
    "out": (
        "and the next one", "and the one after that", "the next planet", "and the next planet out",
        "what's the next one along", "and after that", "and further out", "the one further out",
        "and the one beyond it", "what comes after it", "next planet along", "and then",
        "which is the one after that", "and the next one out from the sun",
    ),
    "in": (
        "and the one before it", "and closer in", "the one closer to the sun",
        "and the planet before that", "what about the one nearer the sun", "and the one inside it",
        "the previous planet", "and one closer",
    ),
}  # fmt: skip


def step(direction: str, rng: random.Random) -> str:
    """A follow-up stepping along an order ("and the one after that")."""
    text = rng.choice(STEPS[direction])
    if rng.random() < 0.15:
        text = f"{rng.choice(('okay', 'right', 'great', 'ok', 'thanks'))}, {text}"
    text = text[:1].upper() + text[1:]
    return text if text.endswith("?") or rng.random() < 0.4 else text + "?"


# The planets at either end of the order, asked by where they are: {near} "closest to" /
# "furthest from", {adj} "closest" / "furthest".
PLANET_END = core(
    q="which planet is {near} the sun | what planet is {near} the sun | "
      "what's the planet {near} the sun | which is the {adj} planet | "
      "what's the {adj} planet from the sun | which planet's {near} the sun",
    wh="which planet is {near} the sun | what the {adj} planet is | "
       "which planet sits {near} the sun",
    np="the planet {near} the sun | the {adj} planet | the {adj} planet to the sun | "
       "the {adj} planet in the solar system",
)
PLANET_ENDS = {
    "first": (("closest to", "nearest to", "nearest", "closest in to"),
              ("closest", "nearest", "innermost", "first")),
    "last": (("furthest from", "farthest from", "most distant from", "furthest out from"),
             ("furthest", "farthest", "outermost", "most distant", "last")),
}  # fmt: skip


def template(name: str, rng: random.Random) -> str | None:
    """A grammar wording for the template list ``name`` of the tool sampler (None: no core)."""
    c = TOOL_CORES.get(name)
    return frame(c, rng) if c else None


# Words to spell beyond the training list: any word, so that routing does not depend on the
# word's tokens. Made of English-looking syllables, with real words mixed in by the sampler.
_ONSETS = ("b", "br", "c", "ch", "cl", "d", "dr", "f", "fl", "g", "gr", "h", "j", "k", "l", "m",
           "n", "p", "pl", "qu", "r", "s", "sh", "sl", "st", "t", "th", "tr", "v", "w", "wh", "z")
_VOWELS = ("a", "e", "i", "o", "u", "ea", "ou", "ai", "ee", "oo", "y", "ie")
_CODAS = ("", "", "n", "r", "t", "l", "s", "m", "ck", "nd", "st", "ng", "rt", "ll", "ss", "x")


def pseudo_word(rng: random.Random) -> str:
    """An English-looking word ("brindolast"), 1-4 syllables."""
    n = rng.choices((1, 2, 3, 4), (2, 4, 3, 1))[0]
    w = "".join(rng.choice(_ONSETS) + rng.choice(_VOWELS) + rng.choice(_CODAS) for _ in range(n))
    return w + rng.choice(("", "", "", "e", "y", "ing", "ed", "er", "tion", "ous", "ment"))


# --- what the assistant cannot do: the refusal skills' replies, asked in the same shapes -------
# Commands people give a voice assistant that it has no tool for. With tool requests framed as
# commands ("can you ...", "I need you to ...") the model must tell a timer from a text message
# by what is asked, not by the frame.
REFUSAL_CORES: dict[str, Core] = {
    "no_actions": core(
        do="call {person} | phone {person} | ring {person} | give {person} a ring | "
           "text {person} that {message} | message {person} | send {person} a message | "
           "email {person} and say {message} | tell {person} {message} | "
           "play {music} | put on {music} | put {music} on | turn on {device} | "
           "turn off {device} | switch on {device} | switch off {device} | "
           "turn {device} up | turn {device} down | dim {device} | "
           "set the heating to {n} degrees | set the thermostat to {n} | "
           "order {item} | buy {item} online | add {item} to my shopping list | "
           "put {item} on the shopping list | book {booking} | get me {booking} | "
           "find me {service} near here | open {app} | take a photo | lock the front door | "
           "start the {appliance} | read me my messages | read my emails | "
           "navigate to {place} | give me directions to {place} | pay {person} back",
        topic="{person}, call them | {music}, play it | {device}, turn it off | "
              "{item}, order some more",
    ),
    "no_weather": core(
        q="what's the weather like in {city} {when} | is it going to rain {when} | "
          "how hot will it be {when} | do I need an umbrella {when} | "
          "will it snow {when} | what's the forecast for {when} | is it sunny in {city}",
        wh="what the weather's doing {when} | if it's going to rain {when} | "
           "how cold it'll be {when} | whether I need a coat {when}",
        np="the weather {when} | the forecast for {city} | the weather in {city} {when} | "
           "the temperature outside | the pollen count {when}",
        do="check the weather {when} | check the forecast for {city}",
    ),
    "no_news": core(
        q="what's in the news | what's happening in {city} | what are the headlines today | "
          "any news about the election",
        wh="what's in the news today | what's going on in the world | what happened in {city}",
        np="the news | today's headlines | the latest news | the news from {city}",
        do="read me the news | read the headlines | catch me up on the news",
    ),
    "no_live_data": core(
        q="what's the score in the {team} game | did {team} win last night | "
          "how much is {stock} trading at | is the {line} running late | "
          "how's the traffic on the {road} | when's the next train to {city}",
        wh="what the score is in the {team} game | if {team} won | what {stock} is worth now | "
           "whether the {line} is on time | how bad the traffic is on the {road}",
        np="the {team} score | the price of {stock} | the train times to {city} | "
           "the traffic on the {road} | today's exchange rate",
        do="check the {team} score | check the price of {stock} | check the traffic",
    ),
    "no_search": core(
        do="search for {thing} | look up {thing} online | google {thing} | "
           "find {thing} on the internet | search the web for {thing} | "
           "look {thing} up for me",
        np="a search for {thing} | the website for {thing} | the reviews for {thing}",
    ),
}
REFUSAL_SLOTS: dict[str, tuple[str, ...]] = {
    "person": ("mum", "Dave", "my sister", "the office", "Sam", "my boss", "the dentist",
               "grandma", "Priya", "the garage", "my husband", "Tom", "the school", "Aisha"),
    "message": ("I'm running late", "I'll be home at six", "I'm off sick today",
                "the meeting's moved", "dinner's ready", "I'm outside"),
    "music": ("some jazz", "my playlist", "the new Coldplay album", "Radio 2", "some music",
              "something relaxing", "the Beatles", "my workout mix", "a podcast"),
    "device": ("the lights", "the telly", "the heating", "the kitchen light", "the fan",
               "the TV", "the radio", "the porch light", "the volume", "the hallway lights"),
    "item": ("dishwasher tablets", "milk", "eggs", "coffee beans", "dog food", "batteries",
             "toilet roll", "printer ink", "bread"),
    "booking": ("a table for two tonight", "a taxi to the station", "two cinema tickets",
                "a haircut on Friday", "a hotel in Rome", "a flight to Paris"),
    "service": ("a plumber", "a pharmacy", "a petrol station", "a good pizza place",
                "a cash machine", "an electrician"),
    "app": ("the camera", "Spotify", "my calendar", "the maps", "WhatsApp"),
    "place": ("the station", "the nearest hospital", "Mum's house", "the airport", "work"),
    "appliance": ("robot hoover", "washing machine", "dishwasher", "kettle", "car"),
    "n": ("21", "twenty", "eighteen", "22", "nineteen"),
    "city": ("London", "Manchester", "Paris", "New York", "Leeds", "Glasgow", "Sydney",
             "Dublin", "here", "town"),
    "when": ("tomorrow", "today", "this weekend", "tonight", "on Saturday", "later",
             "this afternoon", "next week"),
    "team": ("Arsenal", "Liverpool", "Lakers", "England", "United", "City"),
    "stock": ("Apple", "bitcoin", "Tesla shares", "gold", "the FTSE"),
    "line": ("bus", "9:15 train", "Northern line", "number 38", "tram"),
    "road": ("M25", "ring road", "A1", "motorway", "high street"),
    "thing": ("cheap flights", "pizza places", "the opening times", "that recipe",
              "a good dentist", "bike shops", "the film times"),
}

# Questions about the world beyond the model's facts (history, people, how-to, cooking, health,
# television, sport, organisations), all answered "I don't know about that". Written apart from
# out_of_domain_wide's templates: other shapes, other people, places and things, so that its
# held-out wordings still test whether the model refuses what it was never shown.
UNKNOWN_CORE = core(
    q="when did {era} end | why did {era} start | who won {contest} | who's in {show} | "
      "how tall is {famous} | where was {famous} born | who is {famous} going out with | "
      "what's {famous} up to these days | how much is {famous} worth | "
      "when was {org} set up | who runs {org} | how long do I roast {dish} for | "
      "what goes with {dish} | is {ailment} anything to worry about | "
      "what's good for {ailment} | when's the next series of {show} | "
      "is {show} any good | how does {show} end | what's on {channel} tonight | "
      "how long does it take to {task} | why do {creature} {habit}",
    wh="how to {task} | who won {contest} | what happened to {era} | where {famous} grew up | "
       "who started {org} | how long {dish} takes to cook | what helps with {ailment} | "
       "who's in {show} | what's on {channel} later | why {creature} {habit}",
    np="the history of {org} | the plot of {show} | a recipe for {dish} | "
       "the best way to {task} | {famous}'s birthday | the cast of {show} | "
       "a cure for {ailment} | the winner of {contest} | the story of {era} | "
       "some facts about {creature}",
    do="explain {era} to me | teach me to {task} | talk me through how to {task} | "
       "recommend a {rec} | suggest a {rec} | tell me about {famous} | "
       "sum up {show} | describe {org} | write me a {writing} about {creature}",
    topic="{famous}, how old are they now | {show}, is it worth watching | "
          "{dish}, how long does it need | {era}, what was that about",
)
UNKNOWN_SLOTS: dict[str, tuple[str, ...]] = {
    "era": ("the Vikings", "the Tudors", "the Space Race", "the Gold Rush", "the Black Death",
            "the Wars of the Roses", "the Ming dynasty", "the American Civil War", "the Blitz",
            "prohibition", "the Stone Age", "the Aztec empire"),
    "contest": ("the Grand National", "Bake Off", "the Boat Race", "the Ryder Cup",
                "the darts last night", "the Masters", "Strictly", "the Booker Prize",
                "the snooker", "the Six Nations", "the Ashes"),
    "famous": ("Dolly Parton", "Usain Bolt", "Keanu Reeves", "Rihanna", "David Attenborough",
               "Lewis Hamilton", "Ed Sheeran", "Meryl Streep", "Bill Gates", "Simone Biles",
               "the King", "Shakira", "Harry Styles", "Greta Thunberg"),
    "org": ("the BBC", "Google", "the NHS", "IKEA", "Oxford University", "the Red Cross",
            "Amazon", "Lego", "the United Nations", "Tesco", "the Royal Mail", "NASA"),
    "dish": ("a turkey", "a leg of lamb", "roast potatoes", "a salmon fillet", "carbonara",
             "a Sunday roast", "brownies", "a Victoria sponge", "fried rice", "a shepherd's pie",
             "a gammon joint", "Yorkshire puddings"),
    "ailment": ("a rash", "heartburn", "a sprained ankle", "earache", "a cough that won't go",
                "toothache", "a nosebleed", "feeling dizzy", "a stiff neck", "hiccups",
                "a bee sting", "sunburn"),
    "show": ("Doctor Who", "EastEnders", "Breaking Bad", "The Crown", "Friends",
             "Line of Duty", "Stranger Things", "Coronation Street", "Succession",
             "The Simpsons", "Peppa Pig", "Love Island"),
    "channel": ("BBC One", "ITV", "Netflix", "channel four", "the telly", "TV", "Sky",
                "the radio"),
    "task": ("unblock a sink", "change a tyre", "tie a tie", "get rid of ants",
             "fix a dripping tap", "learn the guitar", "get a stain out", "grow tomatoes",
             "bleed a radiator", "iron a shirt", "train a puppy", "paint a ceiling",
             "start a podcast", "write a CV", "fall asleep faster"),
    "creature": ("cats", "owls", "bees", "dolphins", "dogs", "penguins", "bats", "octopuses",
                 "geese", "hedgehogs"),
    "habit": ("purr", "sleep so much", "dance", "migrate", "hibernate", "howl at night",
              "sing in the morning", "live so long"),
    "rec": ("good book", "film for tonight", "board game", "podcast", "holiday spot",
            "name for a goldfish", "present for my dad", "box set", "wine for dinner"),
    "writing": ("limerick", "short story", "rap", "bedtime story", "joke"),
}


def unknown_question(rng: random.Random) -> str:
    """A question about the world beyond the model's facts (:data:`UNKNOWN_CORE`), filled."""
    return _fill(frame(UNKNOWN_CORE, rng), UNKNOWN_SLOTS, rng)


def _fill(text: str, slots: dict[str, tuple[str, ...]], rng: random.Random) -> str:
    for slot, values in slots.items():
        while "{" + slot + "}" in text:
            text = text.replace("{" + slot + "}", rng.choice(values), 1)
    return text.replace("  ", " ")


def refusal_question(name: str, rng: random.Random) -> str:
    """A request the assistant must refuse with the reply of skill ``name``, its slots filled."""
    return _fill(frame(REFUSAL_CORES[name], rng), REFUSAL_SLOTS, rng)
