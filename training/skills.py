"""What the demo model knows: skills, each a set of question templates and facts.

A :class:`Skill` pairs question templates (``"What is the capital of {country}?"``) with facts:
slot values in every spoken form (``{"country": ("the UK", "Britain", ...)}``), the one canonical
reply the model must give, and the answer strings an evaluation looks for in that reply. One
canonical reply per fact keeps the target unimodal, which parallel decoding needs: when the same
prompt has two good replies, neighbouring positions filled at once can mix them.

Fixed-reply skills (greetings, refusals) have one fact and many wordings; fact skills have a
dozen or more templates crossed with many facts. The corpus (:mod:`training.corpus`)
samples dialogs from these and splits off held-out templates and combinations.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from training.numwords import int_words


@dataclass(frozen=True)
class Fact:
    """One thing to say: slot surfaces for the templates, the reply, answers to check."""

    key: str  # unique within its skill
    slots: dict[str, tuple[str, ...]]
    reply: str
    answers: tuple[str, ...]
    twin: str | None = None  # key of an equivalent fact (7×8 ↔ 8×7): this one may be held out


@dataclass(frozen=True)
class Skill:
    """Templates × facts for one kind of question."""

    name: str
    intent: str
    templates: tuple[str, ...]
    facts: tuple[Fact, ...]
    followups: tuple[str, ...] = ()  # "And {country}?" after a question of this skill
    weight: float = 1.0  # relative sampling weight in the training corpus
    by_key: dict[str, Fact] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "by_key", {f.key: f for f in self.facts})
        if len(self.by_key) != len(self.facts):
            raise ValueError(f"skill {self.name}: duplicate fact keys")


def fixed(
    name: str, intent: str, reply: str, answer: str, templates: str, *, weight: float = 1.0, **slots
) -> Skill:
    """A skill with one reply and many wordings (one template per line of ``templates``)."""
    fact = Fact("-", {k: tuple(v) for k, v in slots.items()}, reply, (answer,))
    return Skill(name, intent, _lines(templates), (fact,), weight=weight)


def _lines(text: str) -> tuple[str, ...]:
    out = tuple(s.strip() for s in text.strip().splitlines() if s.strip())
    if len(set(out)) != len(out):
        raise ValueError(f"duplicate template in {out}")
    return out


def _num(n: int) -> tuple[str, ...]:
    """Spoken and written forms of a small integer: ``("7", "seven")``."""
    words = int_words(n)
    if n < 0:
        return (str(n), f"minus {-n}", words, f"negative {int_words(-n)}")
    return (str(n), words)


FOLLOWUP = _lines(
    """
    And {x}?
    What about {x}?
    How about {x}?
    And what about {x}?
    Okay, and {x}?
    Now {x}.
    Same question for {x}.
    And {x} please.
    What about {x} then?
    Okay, how about {x}?
    """
)


def _follow(slot: str) -> tuple[str, ...]:
    return tuple(t.replace("{x}", "{" + slot + "}") for t in FOLLOWUP)
