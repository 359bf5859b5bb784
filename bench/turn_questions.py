"""The held-out question set of ``bench/turns.py``: what the end-of-turn model must never have
seen, written by hand, not drawn from the model's grammar (``training/turn_corpus.py``).

How it differs from the training corpus. The corpus samples ~80 sentence shapes from a slot
grammar and cuts each after every word; these questions are everyday requests typed one by one,
of the assistant's kinds (arithmetic, units, facts, timers, messages) and beyond them (advice,
trivia, word play, small talk, household questions), mostly in shapes the grammar lacks:

- facts about named things: "How tall is the … Eiffel Tower?", "Who painted the … Mona Lisa?",
  "When was the … Declaration of Independence signed?", "What's the chemical symbol for … gold?"
- comparisons and choices: "Which is heavier, a kilogram of feathers or … a kilogram of steel?"
- lists inside other requests: "What do cats, dogs and … rabbits have in common?"
- conditions and complements: "If I leave at five, … when will I get to the airport?",
  "I'd like to know whether … tomatoes are a fruit."
- how/why explanations: "Why is the sky … blue during the day?", "How do airplanes … stay up?"
- numbers said in pieces: "Set the thermostat to sixty … eight degrees.", "What is two
  hundred … and fifty minus ninety?"
- disfluent restarts: "What's the, um, … the word for a baby kangaroo?"
- word play and small talk: "What rhymes with … orange?", "Stop talking.", "Who built you?"

A few follow a grammar shape with words it never samples ("What is the population of …
Canada?": the grammar's population shape takes a city), because the brief asked for them. The
four questions of issue 25 are included as the user reports they are (``ISSUE``); bench/turns.py's
own 16 questions are not. ``tests/test_turn_questions.py`` checks against the generated corpus
that no question, and no first part except those in ``SEEN_FIRST_PARTS``, is a corpus row.

A two-part question is ``(first, second, pause_ms, where)``: ``where`` names the place of the
pause (``opener``, ``filler``, ``mid-np``, ``number``, ``list``, ``clause``: after a first
clause that could stand alone, ``mid-clause``, ``preposition``, ``wh-word``). A complete
question is said in one go. Each question gets a voice (``bench/turn_voices.py``) by its place
in its list, round robin, so each voice says a third of each kind.
"""

from __future__ import annotations

from dataclasses import dataclass

# The user reports of issue 25, kept as they were said.
ISSUE = frozenset(
    [
        "How many planets are in the solar system?",
        "What is seven times six?",
        "Which planet is the largest?",
        "Tell me, um, what is the capital of Spain?",
    ]
)

# fmt: off
TWO_PART: list[tuple[str, str, int, str]] = [
    ("So,", "how tall is Mount Everest?", 600, "opener"),
    ("Okay, so", "what's the boiling point of water in Fahrenheit?", 450, "opener"),
    ("Well,", "how many days until Christmas?", 700, "opener"),
    ("Alright,", "what should I name my goldfish?", 350, "opener"),
    ("Actually,", "can you make that twenty minutes instead?", 800, "opener"),
    ("Hey, quick question,", "how do I get red wine out of a carpet?", 500, "opener"),
    ("Tell me, um,", "what is the capital of Spain?", 650, "filler"),
    ("Um,", "what's the square root of eighty one?", 550, "filler"),
    ("Could you, uh,", "read that back to me?", 400, "filler"),
    ("What's the, um,", "the word for a baby kangaroo?", 750, "filler"),
    ("I need, uh,", "a recipe that uses leftover rice.", 600, "filler"),
    ("How do you say, um,", "good night in Italian?", 850, "filler"),
    ("Is it, like,", "safe to eat raw cookie dough?", 450, "filler"),
    ("What is the population of", "Canada?", 600, "mid-np"),
    ("How tall is the", "Eiffel Tower?", 500, "mid-np"),
    ("Who painted the", "Mona Lisa?", 700, "mid-np"),
    ("What's the speed of", "light in a vacuum?", 400, "mid-np"),
    ("How long is the", "Great Wall of China?", 650, "mid-np"),
    ("What's the chemical symbol for", "gold?", 800, "mid-np"),
    ("Where is the nearest", "gas station?", 550, "mid-np"),
    ("How deep is the", "Pacific Ocean?", 900, "mid-np"),
    ("What's the distance between the Earth and the", "Moon?", 350, "mid-np"),
    ("When was the", "Declaration of Independence signed?", 750, "mid-np"),
    ("Can you explain how a", "rainbow forms?", 550, "mid-np"),
    ("What is seven", "times six?", 550, "number"),
    ("What's twelve", "divided by four?", 600, "number"),
    ("Multiply nineteen", "by three.", 700, "number"),
    ("Add a fifteen percent tip to", "a forty two dollar bill.", 450, "number"),
    ("What is two hundred", "and fifty minus ninety?", 500, "number"),
    ("Is one hundred and one", "a prime number?", 650, "number"),
    ("What's three squared", "plus four squared?", 800, "number"),
    ("Set the thermostat to sixty", "eight degrees.", 400, "number"),
    ("Divide one thousand", "by eight.", 600, "number"),
    ("What's nine", "plus nine plus nine?", 350, "number"),
    ("Add eggs, flour and", "baking soda to my shopping list.", 600, "list"),
    ("I need to pack socks, a toothbrush and", "my charger.", 700, "list"),
    ("Which is heavier, a kilogram of feathers or", "a kilogram of steel?", 500, "list"),
    ("Name three fruits that are red and", "three that are yellow.", 450, "list"),
    ("What do cats, dogs and", "rabbits have in common?", 800, "list"),
    ("Remind me to buy stamps and", "envelopes tomorrow morning.", 550, "list"),
    ("Compare the population of Spain and", "Italy.", 650, "list"),
    ("What time is it", "in Tokyo?", 500, "clause"),
    ("Which planet", "is the largest?", 600, "clause"),
    ("How many planets", "are in the solar system?", 700, "clause"),
    ("Is it going to snow", "in Denver this weekend?", 600, "clause"),
    ("What's the weather", "going to be like on Saturday?", 450, "clause"),
    ("Can you help me", "write a birthday message for my aunt?", 800, "clause"),
    ("Who won", "the last World Cup?", 550, "clause"),
    ("How far can a horse run", "in one day?", 650, "clause"),
    ("Play something", "by Ella Fitzgerald.", 400, "clause"),
    ("What's a good name", "for a black cat?", 750, "clause"),
    ("Wake me up", "at six thirty.", 500, "clause"),
    ("Where did I park", "the car yesterday?", 600, "clause"),
    ("Do I have anything", "on my calendar for Friday?", 850, "clause"),
    ("If I leave at five,", "when will I get to the airport?", 900, "clause"),
    ("Why is the sky", "blue during the day?", 650, "mid-clause"),
    ("How do airplanes", "stay in the air?", 450, "mid-clause"),
    ("How much should I", "tip on a sixty dollar bill?", 400, "mid-clause"),
    ("What does the fox", "say?", 600, "mid-clause"),
    ("I'd like to know whether", "tomatoes are a fruit.", 500, "mid-clause"),
    ("What's the best way to", "learn to play the guitar?", 700, "mid-clause"),
    ("Send a message to", "Jamie saying I'm stuck in traffic.", 600, "preposition"),
    ("What rhymes with", "orange?", 800, "preposition"),
    ("How many bones are in", "the human body?", 350, "preposition"),
    ("Give me a word that means", "happy.", 450, "preposition"),
    ("Who", "wrote the song Imagine?", 500, "wh-word"),
]

COMPLETE: list[str] = [
    "Thanks a bunch.", "Who built you?", "Stop talking.", "Good night.", "Wait a minute.",
    "Never mind that.", "What's today's date?", "How tall is Mount Kilimanjaro?",
    "Why do cats purr?", "What is the boiling point of water?", "How many seconds are in a day?",
    "Can dogs eat grapes?", "Who was the first person on the moon?",
    "What's the tallest building in the world?", "Read me a short poem.", "Flip a coin.",
    "Roll two dice.", "What's fifteen percent of eighty?", "Is a tomato a fruit?",
    "How do I boil an egg?", "What should I have for lunch?", "Give me a synonym for big.",
    "Hold on a second.", "Louder, please.", "Say that again.", "I didn't catch that.",
    "You're funny.", "How old are you?", "Are you smarter than me?",
    "What languages do you speak?", "Start a stopwatch.", "How many days are in February?",
    "What's the square root of sixty four?", "Which is bigger, the sun or the moon?",
    "Who discovered gravity?", "Spell Mississippi.", "What's the opposite of ancient?",
    "Explain photosynthesis simply.", "Where do penguins live?", "How fast can a cheetah run?",
    "What year did World War Two end?", "What's the plural of mouse?", "Is it a leap year?",
    "Count to five.", "Give me a tongue twister.", "What's the freezing point of water?",
    "How many hours is ninety minutes?", "What's heavier, gold or silver?",
    "Tell me something interesting about octopuses.", "Do you dream?",
    "Good morning, how did you sleep?", "Do you have any pets?",
    "What can I cook with potatoes?", "Why is the ocean salty?", "How do bees make honey?",
    "Name a famous painter.", "That's not what I asked.", "Let's play a game.",
    "What's the time in London right now?", "Is the moon a planet?",
]
# fmt: on

# First parts that are corpus rows too (compared without fillers, so "Is it, like," is "is it"):
# openers, short starts any grammar of questions produces as a prefix, and first parts the
# brief and issue 25 asked for. At these pauses the model has seen the very words; at the other
# 49 it has not.
SEEN_FIRST_PARTS = frozenset(
    ["So,", "Okay, so", "Well,", "Alright,", "Who", "Tell me, um,", "Could you, uh,",
     "What's the, um,", "I need, uh,", "Is it, like,", "What is the population of",
     "What is seven", "What time is it", "What's the weather", "Can you help me",
     "Play something", "Wake me up"]
)  # fmt: skip


@dataclass(frozen=True)
class HeldOut:
    """One question as the bench says it: its parts (one or two), the pause between them,
    where the pause falls, and the voice that says it."""

    parts: tuple[str, ...]
    pause_ms: int
    where: str  # "" for a complete question
    voice: str

    @property
    def text(self) -> str:
        return " ".join(self.parts)


def held_out(voices: tuple[str, ...] = ("joe", "joe-fast-noisy", "joe-low-slow")) -> list[HeldOut]:
    """The set: two-part questions, then complete ones; voices round robin within each."""
    out = [
        HeldOut((a, b), ms, where, voices[i % len(voices)])
        for i, (a, b, ms, where) in enumerate(TWO_PART)
    ]
    out += [HeldOut((t,), 0, "", voices[i % len(voices)]) for i, t in enumerate(COMPLETE)]
    return out
