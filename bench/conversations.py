"""Conversations set for ``bench/skills.py --requests conversations``: 256 held-out requests,
each the last turn of a short conversation (two to four turns) that a user has with a speaker,
with an answer worked out here.

**The generator: conversations.** The earlier held-out sets wrote single requests (or a request
and one elliptical follow-up) from everyday scenes, frame × core templates, personas at work,
syntactic transformations, language learners, regional households and speakers of different
ages. Here the unit is a conversation. Every scored request is the *last* turn, and the turns
before it are real context of the kinds a speaker hears before a request, not filler:

- small talk that the assistant should answer briefly ("hi", "Hey, you there?", "k thanks",
  "Shh, the baby's asleep.");
- another request of a different kind, whose answer is not scored ("whats 12 times 4", then
  "ok and how do you spell rhythm");
- a false start the user abandons ("What's the... never mind, I found the jar.");
- the user saying what they are doing ("I'm making pancakes for six.", "exam on june 3rd").

The scored turn is asked the way people ask in the middle of a conversation: short and casual
("cool. capital of kenya?", "Right, what's 17 times 12?", "timer 25 min pls"), self-contained
except in the follow-up kind, where it leans on an earlier turn ("and its currency?", "now
double that", "And 40?", "how long left on it"). Earlier turns stay inside what the assistant
can do or are plain small talk; only the refusal conversations ask for something an offline
assistant cannot do, and only in their last turn.

**Eight situations × eight kinds, written literally.** Each situation — a kitchen, a car, a
study desk, a workshop, a garden, a nursery at night, an office, a sickbed — has four
conversations of each kind (clock, timer, arithmetic, units, spelling, facts, follow-up,
refusal): 8 × 8 × 4 = 256, 32 per kind. Every conversation below is written out whole for its
situation; nothing crosses the parts of two conversations. A seeded :class:`random.Random`
draws only the values in them: numbers, countries, planets, words to spell, holidays, dates,
months, timer lengths (and a city, team or name in some refusals). Countries are drawn without
replacement within a kind and words to spell within a kind, so few repeat.

**Two channels.** Each situation's conversations are half ``typed`` (lower case, casual
abbreviations — "whats", "pls", "u", "min", "lbs", "tmrw" — and numbers in digits) and half
``spoken``, as Whisper writes speech: capitals and punctuation, numbers up to ten in words and
larger ones in digits with thousands commas ("1,250"), "%" and "$". The channel is part of the
written conversation, not a rendering of one text two ways; only the drawn values are put in
the channel's form.

**Checks computed here**, from first principles, not from any tool: arithmetic with
:class:`fractions.Fraction`; conversions from exact unit definitions (1 inch = 2.54 cm, 1 lb =
0.45359237 kg, 1 US gallon = 3.785411784 l), said to two decimals; calendar answers with
:mod:`datetime` from ``now`` (default: the real clock) — for the time now the current hour or
the next one (the bench runs for a while), for the date "March fifth" or "fifth of March";
spelled letters from the word; facts from the tables of :mod:`words.facts` (capital, currency,
language, continent of its 30 countries; the planets' order and moons; Jupiter largest, Mercury
smallest, Venus hottest). The expected text is what ``useful()`` in ``bench/skills.py`` looks
for in the normalised reply. A numeric answer is drawn again when its words appear among the
numbers of any turn of the conversation said back (or in any turn's text at all), so a reply
that repeats the conversation never counts; a timer's length is necessarily said back, so
there only the turns' text is checked ("90 seconds" → "one minute and thirty seconds"). Short
currency names that hide in other words ("euro" in "Europe", "won", "real") are expected in a
longer form ("the euro", "the won"). A follow-up that asks another fact of the same country
draws a country whose answer no other country shares, so the answer shows which country was
understood. Clock conversations whose answer depends on ``now`` are written so that no
possible answer (any hour, weekday or date) occurs in their turns. Refusals expect nothing
(``expect == ()``): a short honest one is useful.

**Timers are cleared**: a timer conversation, and any conversation whose earlier turns set a
timer or reminder, is followed (unscored, in ``after``) by ``CLEAR``, so no timer outlives its
conversation in the one chat process.

:func:`built` returns each request with its situation, channel and the record (``calc``) its
answer was computed from; ``tests/test_conversations.py`` derives every answer again from that
record by code of its own.
"""

from __future__ import annotations

import random
import re
from datetime import date, datetime
from fractions import Fraction as F
from math import isqrt
from typing import NamedTuple

from bench.everyday import (
    CLEAR,
    CM,
    CUP,
    FL_OZ,
    FOOT,
    GALLON,
    GRAM,
    INCH,
    KM,
    KMH,
    KNOT,
    MILE,
    ML,
    MPH,
    OUNCE,
    POUND,
    STONE,
    YARD,
    c_to_f,
    capital,
    continent,
    currency,
    duration,
    f_to_c,
    letters,
    nth,
    number,
    said,
)
from bench.skills import MONTHS, WEEKDAYS, Request, _norm
from words.calendar import MONTH_DAYS
from words.facts import COUNTRIES, PLANETS, Country
from words.spoken import int_words, ordinal_words

KINDS = ("clock", "timer", "arithmetic", "units", "spelling", "facts", "follow-up", "refusal")
SITUATIONS = ("kitchen", "car", "study desk", "workshop", "garden", "nursery at night",
              "office", "sickbed")  # fmt: skip
CHANNELS = ("typed", "spoken")

# --- the conversations -------------------------------------------------------------------------
# (kind, op, channel, turns): t = typed, s = spoken. Placeholders take the drawn values:
# {a} {b} {k} numbers ({a_d}: digits, for "%" and "$"), {v} {v2} quantities, {c} {c2}
# countries, {p} a planet, {nth} a planet's place, {w} {w2} words, {len} a timer length,
# {hol} {hol2} holidays, {date}, {month}, {city} {team} {name} (refusals).
SCRIPTS: dict[str, tuple[tuple[str, str, str, tuple[str, ...]], ...]] = {
    "kitchen": (
        ("clock", "time", "t", ("hi", "hands covered in flour lol", "whats the time")),
        ("clock", "until", "s", ("Hey.", "I'm already planning a special menu.",
                                 "So how many days until {hol}?")),
        ("clock", "month_days", "t", ("morning", "how do you spell... nah forget it",
                                      "doing a meal plan for the month",
                                      "ok how many days in {month}")),
        ("clock", "date", "s", ("What's the... actually, never mind, I found the jar.",
                                "Okay, what's today's date? It's for the label.")),
        ("timer", "set", "t", ("making pancakes for 6 this morning",
                               "batter needs to rest, timer for {len} pls")),
        ("timer", "remind", "s", ("Hi there.", "I've just put the dough in to prove.",
                                  "Remind me in {len} to shape the loaves.")),
        ("timer", "cancel", "t", ("set a timer for 20 min for the rice", "thanks",
                                  "oh wait its already cooked, cancel the rice timer")),
        ("timer", "set", "s", ("How do you spell cinnamon?", "Great.",
                               "Now a timer for {len} for the cake, please.")),
        ("arithmetic", "mul", "s", ("I'm making pancakes for a crowd.",
                                    "What's the... hang on, where's the whisk?", "Found it.",
                                    "Right, what's {a} times {b}?")),
        ("arithmetic", "pct", "t", ("hey", "doing the shopping budget", "whats {a_d}% of {b}")),
        ("arithmetic", "div", "t", ("ok so cookies for the bake sale", "whats the... nvm",
                                    "{a} divided by {b}?")),
        ("arithmetic", "split", "s", ("We're chipping in for the groceries.",
                                      "Quick one: ${a_d} split {b} ways?")),
        ("units", "conv:cup>ml", "t", ("recipe's american ugh", "how do you spell tablespoon", "k",
                                       "how many ml in {v} cups")),
        ("units", "conv:f>c:oven", "s", ("The oven dial is in Celsius.",
                                         "What's {v} Fahrenheit in Celsius?")),
        ("units", "conv:oz>g", "t", ("hi", "you there?", "{v} oz to grams?")),
        ("units", "conv:lb>kg", "s", ("I'm roasting a turkey for eight.", "Thanks, sounds fun.",
                                      "How many kilos is {v} pounds?")),
        ("spelling", "spell:kitchen", "t", ("writing a shopping list", "how do u spell {w}")),
        ("spelling", "spell:kitchen", "s", ("Hey, you there?", "Okay. How do you spell {w}?")),
        ("spelling", "spell:kitchen", "t", ("whats 12 times 4", "ok and how do you spell {w}")),
        ("spelling", "spell:kitchen", "s", ("I'm writing out the recipe for my sister.",
                                            "What's 12 times three?", "Thanks.",
                                            "How's {w} spelled?")),
        ("facts", "capital", "t", ("cooking food from {c} tonight",
                                   "whats the capital of {c} anyway")),
        ("facts", "currency", "s", ("My friend brought back snacks from her trip.",
                                    "They're really good.", "What currency do they use in {c}?")),
        ("facts", "planet_at", "s", ("The kids are making planet cupcakes.",
                                     "Which planet is {nth} from the sun?")),
        ("facts", "language", "t", ("hi", "cooking something new tonight",
                                    "what language do they speak in {c}")),
        ("follow-up", "fu:mul>double", "t", ("doubling the recipe", "whats {a} times {b}",
                                             "now double that")),
        ("follow-up", "fu:conv:oz>g>kg", "s", ("How many grams is {v} ounces?", "Thanks.",
                                               "And in kilos?")),
        ("follow-up", "fu:left", "t", ("set a timer for {len} for the pasta", "k thanks",
                                       "how long left on it")),
        ("follow-up", "fu:capital>currency", "s", ("I'm cooking a dish from {c} tonight.",
                                                   "What's the capital of {c}?",
                                                   "And what currency do they use?")),
        ("refusal", "refuse", "t", ("hi", "whats 3 times 12", "thx",
                                    "order me more eggs from the shop")),
        ("refusal", "refuse", "s", ("I'm making pancakes for six.",
                                    "Can you play some music while I cook?")),
        ("refusal", "refuse", "t", ("whats 250 times 3", "cool",
                                    "whats the weather doing later in {city}")),
        ("refusal", "refuse", "s", ("Set a timer for 12 minutes.",
                                    "Thanks. Can you turn the kitchen lights down a bit?")),
    ),
    "car": (
        ("clock", "time", "s", ("Hey, are you on?", "Good.", "What time is it now?")),
        ("clock", "weekday", "t", ("driving to my mums", "how do you spell motorway",
                                   "ok what day is it, lost track")),
        ("clock", "until", "s", ("We're driving up to see my parents for the holidays.",
                                 "How many days is it until {hol}?")),
        ("clock", "until_date", "t", ("hey", "road trip coming up", "how many days till {date}")),
        ("timer", "set", "t", ("parking meter runs out soon", "set a timer for {len}")),
        ("timer", "remind", "s", ("I'm about to head onto the motorway.",
                                  "How many miles is 50 kilometers?", "Thanks.",
                                  "Remind me in {len} to stop for fuel.")),
        ("timer", "remind", "t", ("hey", "remind me in {len} to ring the garage")),
        ("timer", "cancel", "s", ("Set a timer for 30 minutes for the parking.",
                                  "Oh, parking's free today.", "Cancel the parking timer.")),
        ("arithmetic", "split", "s", ("We're splitting the petrol money.",
                                      "${a_d} split {b} ways?")),
        ("arithmetic", "mul", "t", ("gas is cheap here", "whats the... nvm",
                                    "whats {a} times {b}")),
        ("arithmetic", "sub", "s", ("What's the... never mind.", "What's {a} minus {b}?")),
        ("arithmetic", "add", "t", ("odometer said 12000 this morning lol", "{a} plus {b}?")),
        ("units", "conv:mi>km", "t", ("driving in france next wk",
                                      "whats the capital again... nah i know it",
                                      "{v} miles in km?")),
        ("units", "conv:kmh>mph", "s", ("The signs here are in kilometers.",
                                        "What's the... never mind, I'll ask later.",
                                        "Actually, {v} kilometers per hour in miles per hour?")),
        ("units", "conv:gal>l", "t", ("just filled up", "how many litres is {v} gallons")),
        ("units", "conv:km>mi", "s", ("Hi.", "We're nearly there, I think.",
                                      "Okay, how far is {v} kilometers in miles?")),
        ("spelling", "spell:car", "s", ("I'm writing a note for the mechanic.",
                                        "How do you spell {w}?")),
        ("spelling", "spell:car", "t", ("what time is it", "thx", "ok and how do you spell {w}")),
        ("spelling", "spell:car", "s", ("Good morning.", "I'm parked outside the garage.",
                                        "What's 15% of 60?", "Thanks. Spell {w} for me.")),
        ("spelling", "spell:car", "t", ("filling in a car insurance form", "spell {w}")),
        ("facts", "capital", "s", ("We're listening to a podcast about {c}.",
                                   "What's the capital of {c}?")),
        ("facts", "continent", "t", ("kids asking questions in the back", "ok first one",
                                     "what continent is {c} in")),
        ("facts", "smallest", "s", ("The kids want a quiz.", "How do you spell Saturn?",
                                    "Okay. Which planet is the smallest?")),
        ("facts", "currency", "t", ("driving over the border next month",
                                    "what currency do they use in {c}")),
        ("follow-up", "fu:conv:mi>km>again", "s", ("How many kilometers is {v} miles?", "Okay.",
                                                   "And {v2}?")),
        ("follow-up", "fu:capital>other", "t", ("kids doing capitals in the back", "capital of {c}",
                                                "and {c2}?")),
        ("follow-up", "fu:until", "s", ("I'm planning the year's trips.",
                                        "How many days until {hol}?", "And until {hol2}?")),
        ("follow-up", "fu:add>minus", "t", ("whats {a} plus {b}", "now take away {k}")),
        ("refusal", "refuse", "s", ("Hi.", "What's the traffic like on the motorway right now?")),
        ("refusal", "refuse", "t", ("whats 60 mph in km/h", "thanks", "call my wife")),
        ("refusal", "refuse", "s", ("I'm on my way to the game.",
                                    "What's the score in the {team} match?")),
        ("refusal", "refuse", "t", ("hey", "running behind",
                                    "send a text to {name} saying im running late")),
    ),
    "study desk": (
        ("clock", "date", "t", ("hey", "homework due soon", "whats the date today")),
        ("clock", "month_days", "s", ("I'm making a revision timetable.",
                                      "How do you spell revision?", "Thanks.",
                                      "How many days are there in {month}?")),
        ("clock", "until_date", "t", ("exam coming up", "whats 12 times 7... nvm",
                                      "how many days until {date}")),
        ("clock", "time", "s", ("Hi.", "What's the... actually, I've got it.",
                                "Wait, what time is it?")),
        ("timer", "set", "s", ("I'm doing a study sprint.", "No distractions.",
                               "Set a timer for {len}.")),
        ("timer", "set", "t", ("pomodoro time", "timer {len} pls")),
        ("timer", "remind", "s", ("Hi there.", "What's the square root of 81?", "Thanks.",
                                  "Remind me in {len} to take a break.")),
        ("timer", "cancel", "t", ("start a timer for 25 min", "ugh my friend is here",
                                  "cancel the timer")),
        ("arithmetic", "sqrt", "t", ("maths homework", "hey u there", "square root of {a}")),
        ("arithmetic", "pow", "s", ("I'm checking my son's homework.",
                                    "What's {a} to the power of {b}?")),
        ("arithmetic", "pct", "t", ("got 34 out of 40 on the test lol", "whats {a_d}% of {b}")),
        ("arithmetic", "sq", "s", ("Hey, you there?", "Okay. What's {a} squared?")),
        ("units", "conv:c>f", "s", ("I'm doing a science worksheet.",
                                    "How do you spell Fahrenheit?", "Thanks.",
                                    "What's {v} degrees Celsius in Fahrenheit?")),
        ("units", "conv:ft>m", "t", ("physics hw", "{v} feet in meters")),
        ("units", "conv:in>cm", "s", ("Hello.", "Is this thing on?",
                                      "How many centimeters is {v} inches?")),
        ("units", "conv:kg>lb", "t", ("whats the... nvm", "how many pounds is {v} kg")),
        ("spelling", "spell:study", "t", ("essay due tmrw", "whats the date today",
                                          "how do you spell {w}")),
        ("spelling", "spell:study", "s", ("What's 12 times 12?", "Thanks.",
                                          "And how do you spell {w}?")),
        ("spelling", "spell:study", "t", ("hi", "whats the... nvm", "spell {w}")),
        ("spelling", "spell:study", "s", ("I'm writing my history essay.", "Can you spell {w}?")),
        ("facts", "capital", "t", ("geography quiz tmrw", "k quick ones", "capital of {c}?")),
        ("facts", "planet_no", "s", ("I'm revising for a science test.",
                                     "What number planet is {p} from the sun?")),
        ("facts", "language", "t", ("hey", "whats 9 squared", "cool",
                                    "whats the main language in {c}")),
        ("facts", "big_moon", "s", ("Astronomy homework tonight.",
                                    "What's the biggest moon of {p}?")),
        ("follow-up", "fu:planet_next", "s", ("Astronomy homework again.",
                                              "Which planet is {nth} from the sun?",
                                              "And the next one out?")),
        ("follow-up", "fu:spell:study", "t", ("how do you spell {w}", "thx", "and {w2}")),
        ("follow-up", "fu:capital>language", "s", ("What's the capital of {c}?",
                                                   "And what language do they speak there?")),
        ("follow-up", "fu:pct>again", "t", ("whats {a_d}% of {b}", "and {k}%?")),
        ("refusal", "refuse", "t", ("hi", "whats in the news today")),
        ("refusal", "refuse", "s", ("I'm studying for exams.", "What's the date today?", "Thanks.",
                                    "Can you play some lo-fi music?")),
        ("refusal", "refuse", "t", ("how do you spell physics", "thx",
                                    "email my teacher that im sick")),
        ("refusal", "refuse", "s", ("Hi.", "Can you buy the textbook I need online?")),
    ),
    "workshop": (
        ("clock", "time", "s", ("My watch is on the bench over there.", "Hey, you there?",
                                "What time is it?")),
        ("clock", "weekday", "t", ("sanding all day, lost track", "whats 3 times 45", "ta",
                                   "what day is it")),
        ("clock", "until", "s", ("I'm making a present for my wife.",
                                 "How many days until {hol}?")),
        ("clock", "date", "t", ("need to date this invoice", "whats todays date")),
        ("timer", "set", "t", ("glue needs to dry", "u there?", "set timer {len}")),
        ("timer", "set", "s", ("I've just put varnish on the table.",
                               "Start a timer for {len}, please.")),
        ("timer", "remind", "t", ("hey", "remind me in {len} to check the paint")),
        ("timer", "cancel", "s", ("Set a timer for 40 minutes for the glue.",
                                  "Actually, it's the fast kind.", "Cancel the glue timer.")),
        ("arithmetic", "div", "s", ("I'm cutting a board into equal pieces.",
                                    "How many centimeters is a foot?", "Thanks.",
                                    "What's {a} divided by {b}?")),
        ("arithmetic", "mul", "t", ("need screws for the deck", "{a} times {b}?")),
        ("arithmetic", "add", "s", ("Hang on, let me find my pencil.", "Okay, {a} plus {b}?")),
        ("arithmetic", "sub", "t", ("cutting a plank down", "whats the... hang on",
                                    "whats {a} minus {b}")),
        ("units", "conv:in>cm", "t", ("plans are in inches ugh", "whats the date",
                                      "{v} inches to cm")),
        ("units", "conv:ft>m", "s", ("I'm ordering timber.", "How many meters is {v} feet?")),
        ("units", "conv:lb>kg", "t", ("hi", "moving bags of cement", "{v} lbs in kg?")),
        ("units", "conv:yd>m", "s", ("What time is it?", "Thanks.",
                                     "How many meters in {v} yards?")),
        ("spelling", "spell:workshop", "s", ("I'm labelling the drawers.", "What's the time?",
                                             "Thanks.", "How do you spell {w}?")),
        ("spelling", "spell:workshop", "t", ("hey", "how do i spell {w}")),
        ("spelling", "spell:workshop", "s", ("Hello? You there?", "Good. Spell {w}.")),
        ("spelling", "spell:workshop", "t", ("whats 18 times 4", "cool, spell {w} for me")),
        ("facts", "capital", "t", ("podcast going on about {c}", "whats the capital of {c}")),
        ("facts", "currency", "s", ("I'm selling a lathe to a buyer abroad.", "What's 15% of 400?",
                                    "What's the currency in {c}?")),
        ("facts", "biggest", "t", ("random q", "whats the... nah", "biggest planet?")),
        ("facts", "continent", "s", ("Hi.", "Which continent is {c} on?")),
        ("follow-up", "fu:conv:in>cm>again", "t", ("{v} inches in cm", "and {v2}")),
        ("follow-up", "fu:div>times", "s", ("I've got a pile of offcuts.",
                                            "What's {a} divided by {b}?",
                                            "Now times that by {k}.")),
        ("follow-up", "fu:left", "t", ("set a timer for {len} for the glue", "cheers",
                                       "how long left on it")),
        ("follow-up", "fu:currency>capital", "s", ("What currency do they use in {c}?", "Okay.",
                                                   "And what's the capital?")),
        ("refusal", "refuse", "s", ("Hi.", "I'm out of screws.",
                                    "Can you order me a box of screws?")),
        ("refusal", "refuse", "t", ("hey", "whats the time", "thx", "turn on the shed lights")),
        ("refusal", "refuse", "s", ("Set a timer for 20 minutes.", "Thanks.",
                                    "Now put the radio on.")),
        ("refusal", "refuse", "t", ("how many cm in a foot", "k", "call {name}")),
    ),
    "garden": (
        ("clock", "weekday", "t", ("bin day is... hmm", "what day is it")),
        ("clock", "month_days", "s", ("Good morning.", "I'm planning the watering rota.",
                                      "How many days are there in {month}?")),
        ("clock", "time", "t", ("hands all muddy lol", "u there", "what time is it")),
        ("clock", "until", "s", ("I want the garden looking nice for the holidays.",
                                 "How many days until {hol}?")),
        ("timer", "set", "s", ("I'm watering the lawn.", "How many liters is a gallon?", "Thanks.",
                               "Set a timer for {len}.")),
        ("timer", "remind", "t", ("sprinkler's on", "remind me in {len} to move it")),
        ("timer", "remind", "s", ("Hi.", "Remind me in {len} to move the hose.")),
        ("timer", "cancel", "t", ("set a timer for 45 min for the sprinkler",
                                  "actually the lawn's soaked already",
                                  "cancel the sprinkler timer")),
        ("arithmetic", "mul", "t", ("planting bulbs in rows", "whats the... nvm got it",
                                    "{a} times {b}?")),
        ("arithmetic", "pct", "s", ("The compost is on sale.", "How do you spell mulch?", "Thanks.",
                                    "What's {a_d}% of {b}?")),
        ("arithmetic", "div", "t", ("got seeds to share out", "{a} divided by {b}")),
        ("arithmetic", "split", "s", ("The neighbours and I bought a mower together.",
                                      "${a_d} split {b} ways?")),
        ("units", "conv:c>f", "s", ("The seed packet is American.",
                                    "What's {v} degrees Celsius in Fahrenheit?")),
        ("units", "conv:gal>l", "t", ("watering can says gallons", "whats the date today",
                                      "{v} gallons in litres")),
        ("units", "conv:yd>m", "s", ("I'm buying hose.", "How many meters is {v} yards?")),
        ("units", "conv:m>ft", "t", ("fence panels", "ordering them today", "{v} meters in feet")),
        ("spelling", "spell:garden", "t", ("labelling seed trays", "what day is it",
                                           "how do you spell {w}")),
        ("spelling", "spell:garden", "s", ("Hello.", "Are you listening?",
                                           "How do you spell {w}?")),
        ("spelling", "spell:garden", "t", ("whats 20% of 45", "thx", "spell {w}")),
        ("spelling", "spell:garden", "s", ("I'm writing plant labels.",
                                           "Can you spell {w} for me?")),
        ("facts", "language", "s", ("My new neighbours just moved in.", "They seem lovely.",
                                    "What language do they speak in {c}?")),
        ("facts", "capital", "t", ("hi", "pub quiz tonight", "whats 7 times 8", "capital of {c}")),
        ("facts", "moons", "s", ("Clear night tonight.", "How many moons does {p} have?")),
        ("facts", "hottest", "t", ("its boiling out here", "which planet is the hottest")),
        ("follow-up", "fu:conv:c>f>again", "s", ("What's {v} Celsius in Fahrenheit?", "And {v2}?")),
        ("follow-up", "fu:mul>half", "t", ("{a} times {b}?", "ty", "ok now halve that")),
        ("follow-up", "fu:language>capital", "s", ("What language do they speak in {c}?",
                                                   "And what's the capital there?")),
        ("follow-up", "fu:left", "t", ("set a timer for {len} for the sprinkler", "thanks",
                                       "how long left")),
        ("refusal", "refuse", "t", ("hi", "planting tomatoes today",
                                    "will it rain this afternoon")),
        ("refusal", "refuse", "s", ("I'm out in the garden.", "Turn on the garden lights.")),
        ("refusal", "refuse", "t", ("whats 5 feet in cm", "thx", "order more compost")),
        ("refusal", "refuse", "s", ("Good morning.", "What's the date today?", "Thanks.",
                                    "Play some music for me.")),
    ),
    "nursery at night": (
        ("clock", "time", "s", ("Shh, the baby's asleep.", "What time is it?")),
        ("clock", "time", "t", ("up with the baby again", "shes teething", "whats the time")),
        ("clock", "date", "s", ("I'm filling in the feeding log.", "What's the date today?")),
        ("clock", "until", "t", ("baby's first holidays coming up", "how many days till {hol}")),
        ("timer", "set", "t", ("warming a bottle", "how many ml is 4 fl oz", "ok",
                               "timer for {len}")),
        ("timer", "remind", "s", ("The baby's finally settled.",
                                  "Remind me in {len} to check on her.")),
        ("timer", "set", "s", ("Hi. Quietly.", "I'm putting her down now.",
                               "Set a timer for {len}.")),
        ("timer", "cancel", "t", ("set a timer for 15 min for the bottle", "nvm she fell asleep",
                                  "cancel the bottle timer")),
        ("arithmetic", "add", "t", ("logging feeds", "whats the date", "{a} plus {b}")),
        ("arithmetic", "div", "s", ("I'm splitting formula into bottles.",
                                    "What's {a} divided by {b}?")),
        ("arithmetic", "pct", "t", ("hey", "{a_d}% of {b}?")),
        ("arithmetic", "mul", "s", ("You there?", "Sorry, whispering.", "What's {a} times {b}?")),
        ("units", "conv:floz>ml", "t", ("bottle marks are in oz", "{v} fl oz in ml")),
        ("units", "conv:f>c:fever", "s", ("The baby feels warm.", "What's the time?", "Okay.",
                                          "What's {v} Fahrenheit in Celsius?")),
        ("units", "conv:lb>kg:baby", "t", ("baby weighed in today", "{v} lbs in kg")),
        ("units", "conv:in>cm", "s", ("She's growing so fast.",
                                      "How many centimeters is {v} inches?")),
        ("spelling", "spell:nursery", "s", ("I'm writing a note for the babysitter.",
                                            "What's the date today?", "How do you spell {w}?")),
        ("spelling", "spell:nursery", "t", ("hi", "spell {w}")),
        ("spelling", "spell:nursery", "s", ("What's the time?", "Okay.", "How do you spell {w}?")),
        ("spelling", "spell:nursery", "t", ("making flashcards", "for when shes older lol",
                                            "how do u spell {w}")),
        ("facts", "planet_at", "t", ("reading a space book to her",
                                     "which planet is {nth} from the sun")),
        ("facts", "biggest", "s", ("We're reading a space book.", "How do you spell Neptune?",
                                   "Thanks.", "Which is the biggest planet?")),
        ("facts", "capital", "t", ("cant sleep", "u awake?", "whats the capital of {c}")),
        ("facts", "moons", "s", ("She's pointing at the sky.", "How many moons does {p} have?")),
        ("follow-up", "fu:left", "t", ("set a timer for {len}", "for the bottle",
                                       "how long left on it")),
        ("follow-up", "fu:conv:floz>ml>cup", "s", ("How many milliliters is {v} fluid ounces?",
                                                   "And in cups?")),
        ("follow-up", "fu:capital>currency", "t", ("cant sleep, quiz time", "capital of {c}?",
                                                   "and the currency?")),
        ("follow-up", "fu:add>double", "s", ("What's {a} plus {b}?", "Now double that.")),
        ("refusal", "refuse", "s", ("She just won't settle.", "Play a lullaby.")),
        ("refusal", "refuse", "t", ("hi", "shes finally asleep", "dim the nursery lights")),
        ("refusal", "refuse", "s", ("What's the time?", "Okay.", "Call my husband.")),
        ("refusal", "refuse", "t", ("baby's asleep finally", "order more nappies")),
    ),
    "office": (
        ("clock", "date", "t", ("writing a memo", "how do u spell memorandum", "thx",
                                "whats the date")),
        ("clock", "weekday", "s", ("Good morning.", "What day is it today?")),
        ("clock", "until_date", "t", ("deadline coming up", "whats 15% of 300",
                                      "how many days till {date}")),
        ("clock", "month_days", "s", ("I'm doing the payroll.", "How many days in {month}?")),
        ("timer", "set", "s", ("My meeting starts soon.", "What's the time?",
                               "Set a timer for {len}.")),
        ("timer", "remind", "t", ("hey", "remind me in {len} to finish the report")),
        ("timer", "remind", "s", ("Hi.", "I've been at my desk for hours.",
                                  "Remind me in {len} to stretch.")),
        ("timer", "cancel", "t", ("set a timer for 30 min for the meeting", "meeting got moved",
                                  "cancel the meeting timer")),
        ("arithmetic", "pct", "t", ("doing expenses", "whats the date today",
                                    "whats {a_d}% of {b}")),
        ("arithmetic", "split", "s", ("Team lunch today.", "${a_d} split {b} ways?")),
        ("arithmetic", "sub", "t", ("budget stuff", "whats the... nvm", "ok", "{a} minus {b}")),
        ("arithmetic", "mul", "s", ("What's the date?", "Thanks.", "What's {a} times {b}?")),
        ("units", "conv:km>mi", "s", ("I'm filling in the mileage claim.",
                                      "How many miles is {v} kilometers?")),
        ("units", "conv:c>f", "t", ("aircon is set weird", "{v}c in f?")),
        ("units", "conv:kg>lb", "s", ("Hi.", "I'm shipping a parcel to the States.",
                                      "How many pounds is {v} kilograms?")),
        ("units", "conv:mi>km", "t", ("planning a work trip", "{v} miles to km")),
        ("spelling", "spell:office", "t", ("drafting a letter", "how do you spell {w}")),
        ("spelling", "spell:office", "s", ("Hi.", "What's 25% of 80?", "Thanks.",
                                           "How do you spell {w}?")),
        ("spelling", "spell:office", "t", ("whats 15% of 200", "ok and how do you spell {w}")),
        ("spelling", "spell:office", "s", ("I'm typing up the minutes.", "Spell {w}, please.")),
        ("facts", "capital", "s", ("We have a new client abroad.", "What's the capital of {c}?")),
        ("facts", "currency", "t", ("invoicing a client", "whats todays date",
                                    "what currency do they use in {c}")),
        ("facts", "language", "s", ("A colleague is moving abroad.",
                                    "What language do they speak in {c}?")),
        ("facts", "planet_no", "t", ("pub quiz at lunch", "whats the time",
                                     "what number planet is {p}")),
        ("follow-up", "fu:pct>again", "s", ("I'm working out the discounts.",
                                            "What's {a_d}% of {b}?", "And {k}%?")),
        ("follow-up", "fu:currency>other", "t", ("invoicing abroad", "currency in {c}?",
                                                 "and {c2}?")),
        ("follow-up", "fu:conv:kg>lb>again", "s", ("How many pounds is {v} kilos?", "And {v2}?")),
        ("follow-up", "fu:split>ways", "t", ("team lunch", "${a_d} split {b} ways",
                                             "what if its {k} ways")),
        ("refusal", "refuse", "t", ("hi", "book a meeting room for 3pm")),
        ("refusal", "refuse", "s", ("Morning.", "How many days until Christmas?", "Thanks.",
                                    "What's the latest news?")),
        ("refusal", "refuse", "t", ("whats 20% of 80", "thx", "email that to my boss")),
        ("refusal", "refuse", "s", ("I'm on my lunch break.", "Order me a sandwich.")),
    ),
    "sickbed": (
        ("clock", "weekday", "t", ("been in bed for days", "whats the time", "what day is it")),
        ("clock", "time", "s", ("I've been asleep for ages.", "What's the time?")),
        ("clock", "date", "t", ("lost track of everything", "ugh", "whats todays date")),
        ("clock", "until", "s", ("I hope I'm better by the holidays.",
                                 "How many days until {hol}?")),
        ("timer", "remind", "s", ("I just took my medicine.", "What's the time?",
                                  "Remind me in {len} to take the next dose.")),
        ("timer", "set", "t", ("tea's brewing", "timer for {len}")),
        ("timer", "remind", "t", ("hey", "feeling rough", "remind me in {len} to drink water")),
        ("timer", "cancel", "s", ("Set a timer for 20 minutes for my tea.",
                                  "Actually, I'm too tired.", "Cancel the tea timer.")),
        ("arithmetic", "mul", "t", ("counting pills", "whats the... nvm", "{a} times {b}")),
        ("arithmetic", "div", "s", ("I've got a packet of tablets.", "What's {a} divided by {b}?")),
        ("arithmetic", "sqrt", "t", ("bored in bed", "how do you spell bored lol", "ok",
                                     "whats the square root of {a}")),
        ("arithmetic", "pow", "s", ("Hi.", "What's {a} to the power of {b}?")),
        ("units", "conv:f>c:fever", "s", ("I think I've got a fever.",
                                          "What's {v} Fahrenheit in Celsius?")),
        ("units", "conv:c>f:fever_c", "t", ("thermometer's in celsius", "whats the date",
                                            "{v} c in fahrenheit")),
        ("units", "conv:st>kg", "s", ("I've lost weight being ill.",
                                      "How many kilos is {v} stone?")),
        ("units", "conv:floz>ml", "t", ("cough syrup dose", "bottle says fl oz",
                                        "{v} fl oz in ml")),
        ("spelling", "spell:sickbed", "t", ("writing to the gp", "how do you spell {w}")),
        ("spelling", "spell:sickbed", "s", ("Hi.", "I'm stuck in bed.", "What's the date today?",
                                            "How do you spell {w}?")),
        ("spelling", "spell:sickbed", "t", ("what time is it", "how do u spell {w}")),
        ("spelling", "spell:sickbed", "s", ("I'm filling in a sick note.", "Can you spell {w}?")),
        ("facts", "capital", "t", ("bored, doing a quiz", "whats 8 times 9", "capital of {c}?")),
        ("facts", "continent", "s", ("Watching a documentary.", "What continent is {c} in?")),
        ("facts", "smallest", "t", ("random but", "whats 6 squared", "smallest planet?")),
        ("facts", "currency", "s", ("Hi.", "I'm watching a travel show.",
                                    "What currency do they use in {c}?")),
        ("follow-up", "fu:conv:f>c>again:fever", "s", ("What's {v} Fahrenheit in Celsius?",
                                                       "And {v2}?")),
        ("follow-up", "fu:left", "t", ("set a timer for {len} for my tea", "ty",
                                       "how long left on it")),
        ("follow-up", "fu:spell:sickbed", "s", ("How do you spell {w}?", "And {w2}?")),
        ("follow-up", "fu:mul>triple", "t", ("counting tablets", "{a} times {b}",
                                             "now triple that")),
        ("refusal", "refuse", "s", ("I feel awful.", "Call the doctor for me.")),
        ("refusal", "refuse", "t", ("hi", "too sick to cook", "whats 3 times 4",
                                    "order me some soup")),
        ("refusal", "refuse", "s", ("What time is it?", "Can you put the news on?")),
        ("refusal", "refuse", "t", ("how do you spell ibuprofen", "thx",
                                    "text {name} that im sick")),
    ),
}  # fmt: skip

# --- values the generator draws ----------------------------------------------------------------
WORDS = {
    "kitchen": ("cinnamon", "zucchini", "broccoli", "mayonnaise", "cappuccino", "spaghetti",
                "cauliflower", "vinegar", "croissant", "coriander"),
    "car": ("mileage", "exhaust", "vehicle", "diesel", "mechanic", "accelerate", "motorway",
            "junction", "parallel", "ignition"),
    "study": ("necessary", "rhythm", "separate", "definitely", "conscience", "occasion",
              "embarrass", "parliament", "privilege", "Wednesday", "government", "library"),
    "workshop": ("chisel", "plywood", "leverage", "scaffold", "screwdriver", "adhesive",
                 "sandpaper", "ratchet", "wrench", "spirit"),
    "garden": ("fuchsia", "rhododendron", "begonia", "hydrangea", "chrysanthemum", "lavender",
               "wheelbarrow", "compost", "daffodil", "clematis"),
    "nursery": ("lullaby", "bassinet", "teething", "giraffe", "crocodile", "rhinoceros",
                "dinosaur", "pyjamas", "hippopotamus", "blanket"),
    "office": ("receive", "accommodate", "schedule", "colleague", "questionnaire", "liaison",
               "bureaucracy", "occurrence", "committee", "privilege"),
    "sickbed": ("paracetamol", "ibuprofen", "nausea", "antibiotic", "thermometer", "pneumonia",
                "influenza", "prescription", "migraine", "vitamin"),
}  # fmt: skip
HOLIDAYS = {"christmas": (12, 25), "new year": (1, 1), "halloween": (10, 31),
            "valentines": (2, 14)}  # fmt: skip
HOLIDAY_SAID = {  # typed, spoken
    "christmas": ("christmas", "Christmas"), "new year": ("new years", "New Year's Day"),
    "halloween": ("halloween", "Halloween"), "valentines": ("valentines", "Valentine's Day"),
}  # fmt: skip
PERCENTS = (5, 10, 12, 15, 18, 20, 25, 30, 35, 40, 60, 75)
TIMER_SECONDS = (90, 150, 300, 480, 720, 900, 1080, 1200, 1500, 2100, 2400, 2700, 3000, 3600,
                 4500, 5400, 7200)  # fmt: skip
LEFT_MINUTES = (5, 8, 12, 15, 20, 25, 30, 35, 40, 45)
CITIES = ("Leeds", "Denver", "Lyon", "Osaka", "Cork", "Perth", "Austin", "Bristol")
TEAMS = ("Arsenal", "Lakers", "Celtic", "Liverpool", "Yankees", "Chelsea")
NAMES = ("Sam", "Priya", "Tom", "Aisha", "Jack", "Mia")
CANCELLED = ("cancelled", "canceled", "stopped", "removed", "deleted")

# size of one unit in metres, kilograms, litres or metres per second ("c" and "f": degrees)
SIZE = {"mi": MILE, "km": KM, "m": F(1), "cm": CM, "in": INCH, "ft": FOOT, "yd": YARD,
        "kg": F(1), "g": GRAM, "lb": POUND, "oz": OUNCE, "st": STONE,
        "l": F(1), "ml": ML, "gal": GALLON, "cup": CUP, "floz": FL_OZ,
        "kmh": KMH, "mph": MPH, "knot": KNOT}  # fmt: skip
RANGES = {
    "km": range(5, 101), "mi": range(3, 61), "kmh": range(30, 131, 10), "mph": range(20, 81, 5),
    "kg": range(2, 91), "lb": range(2, 201), "g": range(50, 901, 25), "oz": range(2, 33),
    "st": range(7, 19), "l": range(2, 61), "gal": range(2, 21), "cup": range(1, 7),
    "ml": range(100, 1001, 50), "floz": range(2, 13), "in": range(2, 61), "cm": range(10, 201),
    "ft": range(2, 31), "m": range(2, 101), "yd": range(5, 101), "c": range(-10, 41),
    "f": range(20, 111), "oven": range(325, 476, 25), "fever": range(99, 105),
    "fever_c": range(36, 42), "baby": range(6, 23),
}  # fmt: skip
TIMER_SET = re.compile(r"\b(timer|remind)", re.I)
HOUR_WORDS = tuple(int_words(h) for h in range(1, 13)) + ("noon", "midnight")
BY_NAME = {c.name: c for c in COUNTRIES}
PLANET = {p.name: p for p in PLANETS}
PLANET_AT = {p.order: p for p in PLANETS}


# --- answers -----------------------------------------------------------------------------------
def convert(value: F | int, frm: str, to: str) -> F:
    if frm == "c":
        return c_to_f(value)
    if frm == "f":
        return f_to_c(value)
    return F(value) * SIZE[frm] / SIZE[to]


def arith(op: str, args: tuple) -> F:
    a, b = (F(x) for x in (*args, 0)[:2])
    if op == "add":
        return a + b
    if op == "sub":
        return a - b
    if op in ("mul",):
        return a * b
    if op in ("div", "split"):
        return a / b
    if op == "pct":
        return a * b / 100
    if op == "pow":
        return a ** int(b)
    if op == "sq":
        return a * a
    if op == "sqrt":
        return F(isqrt(int(a)))
    raise ValueError(op)


def days_to(today: date, month: int, day: int) -> tuple[str, ...]:
    d = date(today.year, month, day)
    if d < today:
        d = date(today.year + 1, month, day)
    n = (d - today).days
    return ("today",) if n == 0 else ("tomorrow", "one day") if n == 1 else \
        (f"{int_words(n)} days",)  # fmt: skip


def hour_words(h: int) -> tuple[str, ...]:
    extra = ("midnight",) if h == 0 else ("noon",) if h == 12 else ()
    return (int_words(h % 12 or 12), *extra)


def fact_forms(field: str, c: Country) -> tuple[str, ...]:
    """What a reply may say for one fact of ``c``."""
    if field == "capital":
        return (capital(c),)
    if field == "continent":
        return (continent(c),)
    if field == "language":
        return tuple(dict.fromkeys((c.language, re.split(r",| and ", c.language)[0])))
    money = currency(c)
    short = {"euro": ("the euro", "euros"), "won": ("the won", "korean won"),
             "real": ("the real", "brazilian real"),
             "pound sterling": ("pound sterling", "british pound"),
             "ruble": ("ruble", "rouble")}  # fmt: skip
    return short.get(money, (money,))


def unique_fact(field: str, c: Country) -> bool:
    """No other country's answer for ``field`` holds any form of ``c``'s."""
    forms = [_norm(f) for f in fact_forms(field, c)]
    return not any(f in _norm(" / ".join(fact_forms(field, o)))
                   for o in COUNTRIES if o is not c for f in forms)  # fmt: skip


def moons(p: str) -> tuple[str, ...]:
    order = PLANET[p].order
    if order <= 2:
        return ("no moons", "zero moons", "doesn't have any", "does not have any")
    if p == "Earth":
        return ("one moon",)
    if p == "Mars":
        return ("two small moons", "two moons")
    return (PLANET[p].moons_answer,)


def value_of(calc: dict) -> F:
    """The number a numeric calc comes to (for a follow-up that works on it)."""
    if calc["op"] == "convert":
        return convert(calc["value"], calc["from"], calc["to"])
    return arith(calc["op"], calc["args"])


def answer(calc: dict, now: datetime) -> tuple[str, ...]:
    op = calc["op"]
    if op == "follow":
        first, scored = calc["first"], calc["scored"]
        if scored["op"] == "step":
            return number(arith(scored["how"], (value_of(first), scored["by"])))
        return answer(scored, now)
    if op == "time":
        return tuple(dict.fromkeys(hour_words(now.hour) + hour_words((now.hour + 1) % 24)))
    if op == "date":
        m, d = MONTHS[now.month - 1], ordinal_words(now.day)
        return (f"{m} {d}", f"{d} of {m}")
    if op == "weekday":
        return (WEEKDAYS[now.weekday()],)
    if op == "until":
        return days_to(now.date(), calc["month"], calc["day"])
    if op == "month_days":
        return (f"{int_words(MONTH_DAYS[calc['month'] - 1])} days",)
    if op in ("set", "remind"):
        return (duration(calc["seconds"]),)
    if op == "cancel":
        return CANCELLED
    if op == "left":  # right after setting it: the whole length, or a minute less and seconds
        m = calc["seconds"] // 60
        return (f"{int_words(m)} minutes", f"{int_words(m - 1)} minute")
    if op == "convert":  # to two decimals, or about three figures as the assistant says them
        v = value_of(calc)
        return tuple(dict.fromkeys((said(v, 2), *number(v))))
    if op == "spell":
        return (letters(calc["word"]),)
    if op in ("capital", "currency", "language", "continent"):
        return fact_forms(op, BY_NAME[calc["country"]])
    if op == "planet_at":
        return (PLANET_AT[calc["order"]].name,)
    if op == "planet_no":
        return (ordinal_words(PLANET[calc["planet"]].order),)
    if op in ("biggest", "smallest", "hottest"):
        return ({"biggest": "Jupiter", "smallest": "Mercury", "hottest": "Venus"}[op],)
    if op == "moons":
        return moons(calc["planet"])
    if op == "big_moon":
        return (PLANET[calc["planet"]].moons_answer,)
    if op == "refuse":
        return ()
    return number(value_of(calc))


# --- rendering the drawn values in a channel -----------------------------------------------------
def num(x: F | int | float, spoken: bool) -> str:
    """A number as typed (digits) or as Whisper writes it (up to ten in words, commas)."""
    q = F(x)
    if q.denominator == 1:
        n = int(q)
        if spoken and 0 <= n <= 10:
            return int_words(n)
        if spoken and -10 <= n < 0:
            return "minus " + int_words(-n)
        return f"{n:,}" if spoken else str(n)
    return f"{float(q):g}"


def digits(x: int, spoken: bool) -> str:
    return f"{x:,}" if spoken else str(x)


def length(seconds: int, spoken: bool) -> str:
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    if h and not rest:
        return (f"{num(h, True)} hour" if spoken else f"{h} hr") + ("s" if h > 1 else "")
    if h == 1 and rest == 1800:
        return "an hour and a half" if spoken else "1.5 hrs"
    if h == 1:
        return f"an hour and {num(m, True)} minutes" if spoken else f"1 hr {m} min"
    if seconds == 150:
        return "two and a half minutes" if spoken else "2.5 min"
    if s:
        return f"{seconds} seconds" if spoken else f"{seconds} sec"
    return f"{num(m, True)} minutes" if spoken else f"{m} min"


def said_back(turns: tuple[str, ...]) -> str:
    """The turns and every number in them said in words, normalised."""
    found = re.findall(r"\d[\d,]*(?:\.\d+)?", " ".join(turns))
    spoken = [said(F(x.replace(",", "")), 2) for x in found]
    return _norm(" ".join((*turns, *spoken)))


# --- drawing one conversation's values ------------------------------------------------------------
class Draw(NamedTuple):
    values: dict[str, str]  # placeholder → text in the channel
    calc: dict  # what the answer is worked out from
    used: tuple[str, ...] = ()  # countries and words drawn (not drawn again soon)


def _country(rng: random.Random, used: set[str], ok=lambda c: True) -> Country:
    fresh = [c for c in COUNTRIES if ok(c) and c.name not in used]
    if not fresh:  # all drawn: start again
        used.clear()
        fresh = [c for c in COUNTRIES if ok(c)]
    return rng.choice(fresh)


def _arith_args(op: str, rng: random.Random) -> tuple[int, ...]:
    r = rng.randint
    if op == "add":
        return (r(100, 999), r(12, 99))
    if op == "sub":
        return (r(300, 999), r(20, 199))
    if op == "mul":
        return (r(12, 49), r(3, 19))
    if op == "div":
        b = r(3, 12)
        return (b * r(12, 75), b)
    if op == "pct":
        return (rng.choice(PERCENTS), rng.choice(range(20, 501, 5)))
    if op == "split":
        ways = r(3, 8)
        return (ways * r(11, 48), ways)
    if op == "pow":
        return (r(2, 9), r(3, 5))
    if op == "sq":
        return (r(11, 30),)
    if op == "sqrt":
        return (r(11, 30) ** 2,)
    raise ValueError(op)


def _arith_values(args: tuple[int, ...], sp: bool) -> dict[str, str]:
    out = {}
    for key, x in zip("ab", args, strict=False):
        out[key], out[f"{key}_d"] = num(x, sp), digits(x, sp)
    return out


def _draw(op: str, rng: random.Random, sp: bool, used: set[str]) -> Draw:
    def name(s: str) -> str:
        return s if sp else s.lower()

    head, _, rest = op.partition(":")
    if op in ("time", "date", "weekday", "cancel", "refuse", "biggest", "smallest", "hottest"):
        values = {"city": rng.choice(CITIES), "team": rng.choice(TEAMS),
                  "name": rng.choice(NAMES)} if op == "refuse" else {}  # fmt: skip
        return Draw({k: name(v) for k, v in values.items()}, {"op": op})
    if op == "until":
        hol = rng.choice(sorted(HOLIDAYS))
        m, d = HOLIDAYS[hol]
        return Draw({"hol": HOLIDAY_SAID[hol][sp]}, {"op": "until", "month": m, "day": d,
                                                     "holiday": hol})  # fmt: skip
    if op == "until_date":
        m = rng.randint(1, 12)
        d = rng.randint(1, MONTH_DAYS[m - 1] if m != 2 else 28)
        return Draw({"date": f"{name(MONTHS[m - 1])} {nth(d)}"},
                    {"op": "until", "month": m, "day": d})  # fmt: skip
    if op == "month_days":
        m = rng.choice([m for m in range(1, 13) if m != 2])
        return Draw({"month": name(MONTHS[m - 1])}, {"op": "month_days", "month": m})
    if op in ("set", "remind"):
        s = rng.choice(TIMER_SECONDS)
        return Draw({"len": length(s, sp)}, {"op": op, "seconds": s})
    if op in ("add", "sub", "mul", "div", "pct", "split", "pow", "sq", "sqrt"):
        args = _arith_args(op, rng)
        return Draw(_arith_values(args, sp), {"op": op, "args": args})
    if head == "conv":
        pair, _, span = rest.partition(":")
        frm, to = pair.split(">")
        v = rng.choice(RANGES[span or frm])
        return Draw({"v": num(v, sp)}, {"op": "convert", "value": v, "from": frm, "to": to})
    if head == "spell":
        word = rng.choice([w for w in WORDS[rest] if w not in used] or WORDS[rest])
        return Draw({"w": name(word)}, {"op": "spell", "word": word}, (word,))
    if op in ("capital", "currency", "language", "continent"):
        c = _country(rng, used, lambda c: op != "continent" or c.name != "Australia")
        return Draw({"c": name(c.name)}, {"op": op, "country": c.name}, (c.name,))
    if op == "planet_at":
        order = rng.randint(1, 8)
        said_nth = ordinal_words(order) if sp else nth(order)
        return Draw({"nth": said_nth}, {"op": op, "order": order})
    if op in ("planet_no", "moons", "big_moon"):
        pool = {"planet_no": PLANETS, "moons": PLANETS[:4], "big_moon": PLANETS[4:]}[op]
        p = rng.choice(pool).name
        return Draw({"p": name(p)}, {"op": op, "planet": p})
    if op == "fu:left":
        s = 60 * rng.choice(LEFT_MINUTES)
        return Draw({"len": length(s, sp)}, {"op": "left", "seconds": s})
    if op == "fu:planet_next":
        order = rng.randint(1, 7)
        said_nth = ordinal_words(order) if sp else nth(order)
        first = {"op": "planet_at", "order": order}
        return Draw(
            {"nth": said_nth},
            {"op": "follow", "first": first, "scored": {"op": "planet_at", "order": order + 1}},
        )
    if op == "fu:until":
        hol, hol2 = rng.sample(sorted(HOLIDAYS), 2)
        first, scored = ({"op": "until", "month": HOLIDAYS[h][0], "day": HOLIDAYS[h][1],
                          "holiday": h} for h in (hol, hol2))  # fmt: skip
        return Draw({"hol": HOLIDAY_SAID[hol][sp], "hol2": HOLIDAY_SAID[hol2][sp]},
                    {"op": "follow", "first": first, "scored": scored})  # fmt: skip
    if head == "fu" and rest.startswith("spell:"):
        words = [w for w in WORDS[rest[6:]] if w not in used] or list(WORDS[rest[6:]])
        w, w2 = rng.sample(words, 2)
        return Draw(
            {"w": name(w), "w2": name(w2)},
            {
                "op": "follow",
                "first": {"op": "spell", "word": w},
                "scored": {"op": "spell", "word": w2},
            },
            (w, w2),
        )
    if head == "fu" and rest.startswith("conv:"):
        parts = rest[5:].split(":")
        frm, to, then = parts[0].split(">")
        span = RANGES[parts[1] if len(parts) > 1 else frm]
        v, v2 = rng.sample(list(span), 2)
        first = {"op": "convert", "value": v, "from": frm, "to": to}
        scored = {"op": "convert", "value": v2, "from": frm, "to": to} if then == "again" \
            else {"op": "convert", "value": v, "from": frm, "to": then}  # fmt: skip
        return Draw({"v": num(v, sp), "v2": num(v2, sp)},
                    {"op": "follow", "first": first, "scored": scored})  # fmt: skip
    if head == "fu":
        f1, f2 = rest.split(">")
        if f1 in ("capital", "currency", "language"):
            if f2 == "other":  # the same fact of another country, with another answer
                c = _country(rng, used)
                forms = {_norm(x) for x in fact_forms(f1, c)}
                c2 = _country(
                    rng,
                    used | {c.name},
                    lambda o: not forms & {_norm(x) for x in fact_forms(f1, o)},
                )
                return Draw({"c": name(c.name), "c2": name(c2.name)},
                            {"op": "follow", "first": {"op": f1, "country": c.name},
                             "scored": {"op": f1, "country": c2.name}},
                            (c.name, c2.name))  # fmt: skip
            c = _country(rng, used, lambda c: unique_fact(f2, c))
            return Draw({"c": name(c.name)}, {"op": "follow",
                                              "first": {"op": f1, "country": c.name},
                                              "scored": {"op": f2, "country": c.name}},
                        (c.name,))  # fmt: skip
        args = _arith_args(f1, rng)
        values = _arith_values(args, sp)
        first = {"op": f1, "args": args}
        if f2 == "again":  # the same percentage question of another percentage
            k = rng.choice([p for p in PERCENTS if p != args[0]])
            values["k"] = str(k)
            scored = {"op": "pct", "args": (k, args[1])}
        elif f2 == "ways":  # the same bill, split another number of ways
            ways = [w for w in range(2, 11) if w != args[1] and args[0] % w == 0] or [args[1]]
            k = rng.choice(ways)
            values["k"] = num(k, sp)
            scored = {"op": "split", "args": (args[0], k)}
        else:
            how, by = {"double": ("mul", 2), "half": ("div", 2), "triple": ("mul", 3),
                       "minus": ("sub", rng.randint(5, 60)),
                       "times": ("mul", rng.randint(3, 9))}[f2]  # fmt: skip
            values["k"] = num(by, sp)
            scored = {"op": "step", "how": how, "by": by}
        return Draw(values, {"op": "follow", "first": first, "scored": scored})
    raise ValueError(f"unknown op {op!r}")


def _fill(turns: tuple[str, ...], values: dict[str, str], sp: bool) -> tuple[str, ...]:
    out = tuple(t.format_map(values) for t in turns)
    return tuple(t[:1].upper() + t[1:] for t in out) if sp else out


def _clashes(kind: str, expect: tuple[str, ...], turns: tuple[str, ...]) -> bool:
    """Whether an expected answer is already in the turns (or, for a numeric answer, in their
    numbers said back)."""
    text = _norm(" ".join(turns)) if kind == "timer" else said_back(turns)
    return any(_norm(e) in text for e in expect)


def _tie(calc: dict) -> bool:
    """A conversion whose third decimal is exactly 5 (half up and half even round it apart)."""
    if calc["op"] == "follow":
        calc = calc["scored"]
    if calc["op"] != "convert":
        return False
    return (value_of(calc) * 100).denominator == 2


def _now_proof(op: str, turns: tuple[str, ...]) -> None:
    """A clock answer that follows the clock must not occur in the turns at any time."""
    text = said_back(turns)
    if op == "time":
        bad = [w for w in HOUR_WORDS if w in text]
    elif op == "weekday":
        bad = [w for w in WEEKDAYS if _norm(w) in text]
    elif op == "date":
        bad = [w for w in MONTHS if _norm(w) in text] + \
            [w for w in (ordinal_words(d) for d in range(1, 32)) if w in text]  # fmt: skip
    else:
        return
    if bad:
        raise ValueError(f"{turns}: holds {bad}, a possible answer")


class Built(NamedTuple):
    request: Request
    situation: str
    channel: str
    calc: dict


def built(seed: int = 0, now: datetime | None = None) -> list[Built]:
    """Every conversation with its situation, channel and answer record."""
    now = now or datetime.now()
    rng = random.Random(seed)
    used: dict[str, set[str]] = {k: set() for k in KINDS}
    out: list[Built] = []
    for situation in SITUATIONS:
        for kind, op, ch, script in SCRIPTS[situation]:
            sp = ch == "s"
            _now_proof(op, script)
            for _ in range(500):
                d = _draw(op, rng, sp, used[kind])
                turns = _fill(script, d.values, sp)
                expect = answer(d.calc, now)
                if not _clashes(kind, expect, turns) and not _tie(d.calc):
                    break
            else:
                raise ValueError(f"no draw for {situation} {kind} {op}: {script}")
            used[kind].update(d.used)
            clear = kind == "timer" or any(TIMER_SET.search(t) for t in turns[:-1])
            req = Request(turns, kind, expect, CLEAR if clear else ())
            out.append(Built(req, situation, CHANNELS[sp], d.calc))
    return out


def conversations(seed: int = 0, now: datetime | None = None) -> list[Request]:
    """The conversations set: the same ``seed`` and ``now`` give the same requests; clock
    answers are for ``now`` (default: the real clock)."""
    return [b.request for b in built(seed, now)]


if __name__ == "__main__":
    for b in built():
        print(f"{b.situation:<16} {b.channel:<6} {b.request.kind:<10} "
              f"{' / '.join(b.request.turns)} → {b.request.expect}")  # fmt: skip
