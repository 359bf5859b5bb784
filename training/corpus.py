"""The demo model's corpus: short voice-assistant dialogs, with a held-out evaluation split.

Every dialog ends with one canonical spoken reply (≤ 30 words, numbers in words, no markdown).
The prompt is the user's question as speech recognition would transcribe it, sometimes after a
system message or an earlier exchange, and sometimes a follow-up ("and of Germany?") that only
makes sense with that earlier exchange.

Held out for evaluation, chosen with the seed:

- ``template``: ~15% of the wordings of every skill with eight or more (never seen in training);
- ``combo``: ~6% of (wording, fact) pairs of skills with eight or more facts — both parts are
  seen in training, never together ("What's the capital of Peru?" with Lima taught elsewhere);
- ``fact``: ~12% of the arithmetic pairs whose mirror pair is trained (7 + 8 held out, 8 + 7
  trained);
- ``followup``: held-out follow-up wordings after an earlier exchange.

Run ``python -m training.corpus --out DIR`` to write train.jsonl / heldout.jsonl and
print statistics.
"""

from __future__ import annotations

import argparse
import json
import random
import re
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path

from training import requests
from training.skills import Fact, Skill
from training.skills_facts import (
    calendar_skills,
    country_skills,
    planet_skills,
    spelling_skill,
    world_skills,
)
from training.skills_numbers import arithmetic_skills, conversion_skills
from training.skills_talk import (
    identity_skills,
    joke_skills,
    refusal_skills,
    small_talk_skills,
)
from training.skills_tools import (
    TOOL_NAMES,
    TOOLS_LINE,
    ToolSampler,
    choose_tool_heldout,
    json_call,
    tool_refusal_skills,
    turns,
)
from training.speech import speak

SYSTEM_PROMPTS = (
    "You are diffvoice, a helpful voice assistant. Keep replies short.",
    "You are a voice assistant. Answer in one or two short sentences.",
    "You are diffvoice. Speak naturally and briefly.",
    "You are a friendly assistant that runs offline. Reply in plain spoken English.",
)
MAX_REPLY_WORDS = 30


def all_skills() -> list[Skill]:
    """Every skill of the demo model, in a fixed order."""
    skills = [
        *small_talk_skills(), *identity_skills(), *country_skills(), *world_skills(),
        *planet_skills(), *arithmetic_skills(), *conversion_skills(), *calendar_skills(),
        spelling_skill(), *joke_skills(), *refusal_skills(),
    ]  # fmt: skip
    # One-fact trivia is easy to learn from few examples; keep it from crowding the rest out.
    return [
        replace(s, weight=0.6) if len(s.facts) == 1 and s.intent in ("world", "planets") else s
        for s in skills
    ]


@dataclass(frozen=True)
class Dialog:
    """A conversation ending in the assistant reply to learn or to check."""

    messages: tuple[tuple[str, str], ...]  # (role, content); the last one is the reply
    skill: str
    answers: tuple[str, ...]  # any of these in the reply counts as right
    split: str  # "train" or the held-out kind: template, combo, fact, followup
    template: int = -1  # index of the last question's template (in followups if followup)
    fact: str = ""  # key of the fact the reply states
    followup: bool = False

    @property
    def prompt(self) -> list[dict[str, str]]:
        """The messages before the reply, as chat-template dicts."""
        return [{"role": r, "content": c} for r, c in self.messages[:-1]]

    @property
    def reply(self) -> str:
        return self.messages[-1][1]

    def to_json(self) -> dict:
        return {
            "messages": [{"role": r, "content": c} for r, c in self.messages],
            "skill": self.skill,
            "answers": list(self.answers),
            "split": self.split,
            "template": self.template,
            "fact": self.fact,
            "followup": self.followup,
        }

    @classmethod
    def from_json(cls, d: dict) -> Dialog:
        msgs = tuple((m["role"], m["content"]) for m in d["messages"])
        return cls(msgs, d["skill"], tuple(d["answers"]), d["split"], d.get("template", -1),
                   d.get("fact", ""), d.get("followup", False))  # fmt: skip


@dataclass
class HeldOut:
    """What evaluation keeps from training, per skill name."""

    templates: dict[str, set[int]] = field(default_factory=dict)
    followups: dict[str, set[int]] = field(default_factory=dict)
    facts: dict[str, set[str]] = field(default_factory=dict)
    combos: dict[str, set[tuple[int, str]]] = field(default_factory=dict)

    def trainable(self, skill: Skill, t: int, fact: Fact) -> bool:
        return (
            t not in self.templates[skill.name]
            and fact.key not in self.facts[skill.name]
            and (t, fact.key) not in self.combos[skill.name]
        )


def choose_heldout(skills: list[Skill], rng: random.Random) -> HeldOut:
    """Pick held-out wordings, facts and (wording, fact) pairs for every skill."""
    h = HeldOut()
    for s in skills:
        n = len(s.templates)
        # Wordings of a fact skill are paraphrases around slots; those of a one-reply skill are
        # often different requests ("Call mom", "Order a pizza"), so hold out fewer of them.
        k = (max(1, round(0.15 * n)) if len(s.facts) > 1 else 1) if n >= 8 else 0
        h.templates[s.name] = set(rng.sample(range(n), k))
        nf = len(s.followups)
        h.followups[s.name] = set(rng.sample(range(nf), max(1, round(0.15 * nf)))) if nf else set()
        facts: set[str] = set()
        for f in s.facts:
            if f.twin and f.twin not in facts and rng.random() < 0.12:
                facts.add(f.key)
        h.facts[s.name] = facts
        combos: set[tuple[int, str]] = set()
        if len(s.facts) >= 8:
            for t in range(n):
                if t in h.templates[s.name]:
                    continue
                for f in s.facts:
                    if f.key not in facts and rng.random() < 0.06:
                        combos.add((t, f.key))
        h.combos[s.name] = combos
    return h


def render(template: str, fact: Fact, rng: random.Random) -> str:
    """Fill a template's slots with one spoken form each."""
    text = template
    for slot, forms in fact.slots.items():
        text = text.replace("{" + slot + "}", rng.choice(forms))
    if "{" in text:
        raise ValueError(f"unfilled slot in {text!r}")
    return text[:1].upper() + text[1:]


class Sampler:
    """Draws dialogs for one split, deterministically from its own random stream."""

    def __init__(self, skills: list[Skill], heldout: HeldOut, rng: random.Random) -> None:
        self.skills = skills
        self.heldout = heldout
        self.rng = rng
        self.weights = [s.weight for s in skills]

    def skill(self) -> Skill:
        return self.rng.choices(self.skills, self.weights)[0]

    def train_pair(self, skill: Skill) -> tuple[int, Fact]:
        """A trainable (template, fact) of ``skill``."""
        for _ in range(1000):
            t = self.rng.randrange(len(skill.templates))
            f = self.rng.choice(skill.facts)
            if self.heldout.trainable(skill, t, f):
                return t, f
        raise RuntimeError(f"skill {skill.name} has no trainable pair")

    def question(self, skill: Skill, t: int, fact: Fact) -> str:
        return speak(render(skill.templates[t], fact, self.rng), self.rng)

    def context(self, exclude: Skill | None = None) -> list[tuple[str, str]]:
        """Optional system message and earlier exchanges to put before the question."""
        msgs: list[tuple[str, str]] = []
        if self.rng.random() < 0.08:
            msgs.append(("system", self.rng.choice(SYSTEM_PROMPTS)))
        # The voice pipeline keeps a few hundred tokens of history: mostly short, sometimes long.
        r = self.rng.random()
        turns = 0 if r < 0.8 else 1 if r < 0.91 else 2 if r < 0.96 else self.rng.randint(3, 4)
        for _ in range(turns):
            s = self.skill()
            t, f = self.train_pair(s)
            msgs += [("user", self.question(s, t, f)), ("assistant", f.reply)]
        return msgs

    def train_dialog(self) -> Dialog:
        s = self.skill()
        if s.followups and self.rng.random() < 0.12:
            return self.followup(s, held=False)
        t, f = self.train_pair(s)
        msgs = [*self.context(), ("user", self.question(s, t, f)), ("assistant", f.reply)]
        return Dialog(tuple(msgs), s.name, f.answers, "train", t, f.key)

    def followup(self, s: Skill, held: bool) -> Dialog:
        """An exchange about one fact, then a follow-up wording naming another fact."""
        t, first = self.train_pair(s)
        pool = [i for i in range(len(s.followups)) if (i in self.heldout.followups[s.name]) == held]
        f_t = self.rng.choice(pool)
        unseen = self.heldout.facts[s.name]
        second = self.rng.choice([f for f in s.facts if f.key not in (first.key, *unseen)])
        msgs = [
            ("user", self.question(s, t, first)),
            ("assistant", first.reply),
            ("user", speak(render(s.followups[f_t], second, self.rng), self.rng, noise=0.5)),
            ("assistant", second.reply),
        ]
        kind = "followup" if held else "train"
        return Dialog(tuple(msgs), s.name, second.answers, kind, f_t, second.key, True)

    def heldout_dialogs(self, per_template: int = 2, per_skill: int = 12) -> list[Dialog]:
        """Evaluation dialogs of every held-out kind, some after an earlier exchange."""
        out: list[tuple[Skill, str, int, list[tuple[str, str]], Fact]] = []
        h = self.heldout
        for s in self.skills:
            known = [f for f in s.facts if f.key not in h.facts[s.name]]
            for t in sorted(h.templates[s.name]):
                for _ in range(per_template):
                    f = self.rng.choice(known)
                    out.append((s, "template", t, [("user", self.question(s, t, f))], f))
            for t, key in self.rng.sample(
                sorted(h.combos[s.name]), min(per_skill, len(h.combos[s.name]))
            ):
                f = s.by_key[key]
                out.append((s, "combo", t, [("user", self.question(s, t, f))], f))
            held_facts = sorted(h.facts[s.name])
            for key in self.rng.sample(held_facts, min(3 * per_skill, len(held_facts))):
                f = s.by_key[key]
                t = self.rng.choice(
                    [i for i in range(len(s.templates)) if i not in h.templates[s.name]]
                )
                out.append((s, "fact", t, [("user", self.question(s, t, f))], f))
        dialogs = []
        for s, kind, t, msgs, f in out:
            if self.rng.random() < 0.15:
                msgs = self.context() + msgs
            msgs = [*msgs, ("assistant", f.reply)]
            dialogs.append(Dialog(tuple(msgs), s.name, f.answers, kind, t, f.key))
        for s in self.skills:
            if s.followups:
                dialogs += [self.followup(s, held=True) for _ in range(per_template)]
        return dialogs


@dataclass(frozen=True)
class Corpus:
    train: list[Dialog]
    heldout: list[Dialog]
    skills: list[Skill]
    plan: HeldOut | None = None  # which templates, facts and pairs the held-out rows use


def build_corpus(seed: int = 0, size: int = 100_000) -> Corpus:
    """``size`` training dialogs and the held-out evaluation set, fully determined by ``seed``.

    Held-out prompts that happen to equal a training prompt are dropped, so the two are disjoint.
    """
    skills = all_skills()
    heldout = choose_heldout(skills, random.Random(f"heldout-{seed}"))
    train_s = Sampler(skills, heldout, random.Random(f"train-{seed}"))
    train = [train_s.train_dialog() for _ in range(size)]
    seen = {d.messages[:-1] for d in train}
    eval_s = Sampler(skills, heldout, random.Random(f"eval-{seed}"))
    held, unique = [], set()
    for d in eval_s.heldout_dialogs():
        if d.messages[:-1] not in seen and d.messages[:-1] not in unique:
            unique.add(d.messages[:-1])
            held.append(d)
    for d in train[:2000] + held:
        if len(d.reply.split()) > MAX_REPLY_WORDS:
            raise ValueError(f"reply longer than {MAX_REPLY_WORDS} words: {d.reply!r}")
    return Corpus(train, held, skills, heldout)


def texts_for_tokenizer(corpus: Corpus, fact_weight: int = 40) -> list[str]:
    """Every message text of the training split, plus every canonical reply and slot value
    ``fact_weight`` times in the cases speech recognition produces.

    BPE merges the most frequent pairs first, and template words outnumber any one country or
    word to spell by far; without the extra weight "Vienna" stays four pieces ("V", "i", "en",
    "na") that the model must predict together, which a small diffusion model does badly.
    """
    out = [c for d in corpus.train for _, c in d.messages]
    extra = [f.reply for s in corpus.skills for f in s.facts]
    values = {v for s in corpus.skills for f in s.facts for vs in f.slots.values() for v in vs}
    for v in sorted(values):
        extra += [f"{v} {v.lower()} {v.capitalize()}", f"{v}?", f"{v.lower()}."]
    out += extra * fact_weight
    out += SYSTEM_PROMPTS
    return out


def write_jsonl(dialogs: list[Dialog], path: Path) -> None:
    with path.open("w") as fh:
        for d in dialogs:
            fh.write(json.dumps(d.to_json(), ensure_ascii=False) + "\n")


def read_jsonl(path: Path) -> list[Dialog]:
    with path.open() as fh:
        return [Dialog.from_json(json.loads(line)) for line in fh if line.strip()]


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description="Write the demo corpus as JSONL and print statistics.")
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--size", type=int, default=100_000)
    a = p.parse_args(argv)
    c = build_corpus(a.seed, a.size)
    a.out.mkdir(parents=True, exist_ok=True)
    write_jsonl(c.train, a.out / "train.jsonl")
    write_jsonl(c.heldout, a.out / "heldout.jsonl")
    uniq = len({d.messages for d in c.train})
    print(f"train: {len(c.train)} dialogs ({uniq} unique); held out: {len(c.heldout)}")
    print("held out by kind:", dict(Counter(d.split for d in c.heldout)))
    intent = {s.name: s.intent for s in c.skills}
    print("train by intent:", dict(Counter(intent[d.skill] for d in c.train)))


if __name__ == "__main__":
    main()


# ---------------------------------------------------------------------------------------------
# Tool skills (see training.skills_tools): the corpus above, plus requests for the built-in
# tools, all with the tools on offer at the top of the prompt.

TOOLS_TURN = ("tools", TOOLS_LINE)
# Skills whose question, with tools on offer, goes to a tool instead of the model's own reply.
TOOL_INTENTS = ("arithmetic", "units")
TOOL_SKILLS = ("no_clock", "no_timer", "spell")
OLD_SPLITS = ("template", "combo", "fact", "followup")


def tool_skill(d: Dialog) -> bool:
    """Whether, with tools on offer, this old dialog's question (or one in its history) is a
    tool's job."""
    if not _TOOL_JOBS:
        _TOOL_JOBS.update(s.name for s in all_skills() if s.intent in TOOL_INTENTS)
    text = " ".join(c.lower() for r, c in d.messages if r == "user")
    return d.skill in TOOL_SKILLS or d.skill in _TOOL_JOBS or "root" in text


_TOOL_JOBS: set[str] = set()


def with_tools(d: Dialog, split: str | None = None) -> Dialog:
    return replace(d, messages=(TOOLS_TURN, *d.messages), split=split or d.split)


def tool_dialogs(s: ToolSampler, n: int, kind: str, context: list[Dialog]) -> list[Dialog]:
    """About ``n`` dialogs of tool requests: each exchange gives a call row and a reply row."""
    out: list[Dialog] = []
    while len(out) < n:
        skill, ex, history = s.exchange()
        if not history and context and s.rng.random() < 0.12:  # after anything else
            c = s.rng.choice(context)
            history = [m for m in c.messages if m[0] != "tools"][-2:]
        base = [TOOLS_TURN, *history, ("user", ex.question)]
        calls = json_call(ex.demo_call)
        out.append(Dialog(tuple([*base, ("assistant", ex.demo_call)]), skill,
                          (json.dumps(calls),), kind + "_call"))  # fmt: skip
        msgs = [
            *base,
            ("assistant", ex.demo_call),
            ("tool", ex.result),
            ("assistant", ex.demo_reply),
        ]
        out.append(Dialog(tuple(msgs), skill, ex.answers, kind + "_reply"))
    return out


def grammar_fact_dialogs(skills: list[Skill], heldout: HeldOut, rng: random.Random,
                         n: int) -> list[Dialog]:  # fmt: skip
    """``n`` training dialogs of the model's own facts (capitals, continents, planets, days...)
    asked in the shapes of :mod:`training.requests` instead of the skills' templates; a quarter
    are elliptical follow-ups ("Peru too", "same for Mars"). Held-out facts stay out."""
    by_name = {s.name: s for s in skills if s.name in requests.FACT_CORES}
    names = sorted(by_name)
    weights = [by_name[k].weight for k in names]
    out: list[Dialog] = []
    while len(out) < n:
        s = by_name[rng.choices(names, weights)[0]]
        unseen = heldout.facts.get(s.name, set())
        facts = [f for f in s.facts if f.key not in unseen]
        first = rng.choice(facts)
        q = speak(render(requests.frame(requests.FACT_CORES[s.name], rng), first, rng), rng, 0.5)
        if s.name in requests.FACT_FOLLOW_SLOT and rng.random() < 0.25 and len(facts) > 1:
            second = rng.choice([f for f in facts if f.key != first.key])
            slot = requests.FACT_FOLLOW_SLOT[s.name]
            again = speak(render(requests.follow(slot, rng), second, rng), rng, 0.5)
            msgs = (("user", q), ("assistant", first.reply), ("user", again),
                    ("assistant", second.reply))  # fmt: skip
            out.append(Dialog(msgs, s.name, second.answers, "train", -1, second.key, True))
        else:
            out.append(Dialog((("user", q), ("assistant", first.reply)), s.name, first.answers,
                              "train", -1, first.key))  # fmt: skip
    return out


_STEPPED = {"day_after": "after", "month_after": "after", "day_before": "before",
            "month_before": "before", "planet_nth": "out"}  # the order each follow-up steps


def fact_turns(skills: list[Skill], heldout: HeldOut, rng: random.Random, n: int,
               header_p: float = 0.5) -> list[Dialog]:  # fmt: skip
    """``n`` training dialogs of the model's own facts said as people say them (a third each):

    - a value corrected as it is said ("what's the capital of Sweden, no hang on, Norway"):
      the reply is about the value meant;
    - a follow-up that steps along an order from the last answer ("what comes after
      September?" "October." "And the one after that?"; planets out from the Sun and back in);
    - the planets at either end asked by where they are ("the planet closest to the sun").

    The wordings are :func:`training.requests.frame` shapes; held-out facts stay out."""
    by_name = {s.name: s for s in skills if s.name in requests.FACT_CORES}
    fixable = sorted(k for k in by_name if k in requests.FACT_FOLLOW_SLOT or k == "planet_nth")
    stepped = sorted(k for k in _STEPPED if k in by_name)
    out: list[Dialog] = []

    def usable(name: str) -> list:
        unseen = heldout.facts.get(name, set())
        return [f for f in by_name[name].facts if f.key not in unseen]

    while len(out) < n:
        kind = len(out) % 3
        if kind == 0:  # a correction
            name = rng.choice(fixable)
            facts = usable(name)
            first, meant = rng.sample(facts, 2)
            slot = requests.FACT_FOLLOW_SLOT.get(name, "nth")
            t = requests.frame(requests.FACT_CORES[name], rng)
            at = t.find("{" + slot + "}")
            if at < 0:
                continue
            end = at + len(slot) + 2
            t = t[:end] + requests.repair(rng).replace("{x}", rng.choice(meant.slots[slot])) \
                + t[end:]  # fmt: skip
            q = speak(render(t, first, rng), rng, 0.5)
            d = Dialog((("user", q), ("assistant", meant.reply)), name, meant.answers, "train",
                       -1, meant.key)  # fmt: skip
        elif kind == 1:  # a step along the order
            name = rng.choice(stepped)
            facts = list(by_name[name].facts)  # the order of the skill: days, months, planets
            direction = _STEPPED[name]
            i = rng.randrange(len(facts))
            if direction == "out":  # planets: out from the Sun, now and then back in
                direction = rng.choice(("out", "out", "in"))
                j = i + (1 if direction == "out" else -1)
                if not 0 <= j < len(facts):
                    continue
                second = facts[j]
            else:  # the next question is about the day or month just named
                second = next(f for f in facts if f.key == facts[i].answers[0])
            first = facts[i]
            unseen = heldout.facts.get(name, set())
            if first.key in unseen or second.key in unseen:
                continue
            q = speak(render(requests.frame(requests.FACT_CORES[name], rng), first, rng), rng,
                      0.5)  # fmt: skip
            msgs = (("user", q), ("assistant", first.reply),
                    ("user", requests.step(direction, rng)), ("assistant", second.reply))
            d = Dialog(msgs, name, second.answers, "train", -1, second.key, True)
        else:  # a planet at either end
            facts = list(by_name["planet_nth"].facts)
            end = rng.choice(("first", "last"))
            fact = facts[0] if end == "first" else facts[-1]
            near, adj = requests.PLANET_ENDS[end]
            t = requests.frame(requests.PLANET_END, rng)
            t = t.replace("{near}", rng.choice(near)).replace("{adj}", rng.choice(adj))
            d = Dialog((("user", speak(t, rng, 0.5)), ("assistant", fact.reply)), "planet_nth",
                       fact.answers, "train", -1, fact.key)  # fmt: skip
        out.append(with_tools(d) if rng.random() < header_p else d)
    return out


def build_tool_corpus(
    seed: int, base: Corpus, tool_dialogs_n: int, old_dialogs_n: int, header_p: float = 0.5,
    grammar_dialogs_n: int = 0, grammar_history_p: float = 0.0, refusal_dialogs_n: int = 0,
    fewer_tools_p: float = 0.0, unknown_dialogs_n: int = 0, follow_asides_n: int = 0,
    old_asides_n: int = 0, fact_turns_n: int = 0,
) -> Corpus:
    """``base`` (the corpus of the skills without tools, held-out split untouched) mixed with
    tool dialogs and new refusals, for a model that learns the tools.

    Training: ``old_dialogs_n`` dialogs of ``base`` (each, unless its question is a tool's job,
    with the tools on offer with probability ``header_p``), ``tool_dialogs_n`` tool rows and
    refusals with the tools on offer. Held out: all of ``base``'s rows unchanged (so old
    skills are scored as before), tool rows from held-out wordings (``tools_call``,
    ``tools_reply``), new refusal wordings, and old held-out rows with tools on offer
    (``voice``).

    ``grammar_dialogs_n`` more training rows ask in the shapes of :mod:`training.requests`:
    half tool requests, half the model's own facts (the held-out split is the same either way).
    ``grammar_history_p`` of those that ask one question with nothing before it are asked after
    earlier exchanges, as the assistant hears them in a conversation (:func:`with_history`).

    ``refusal_dialogs_n`` more training rows are refusals: the tool refusals' trainable
    wordings, the old refusal skills' rows and grammar refusals, a third each. With
    ``fewer_tools_p``, that share of the training rows with tools on offer offers fewer of them
    (:func:`fewer_tools`), as a client that leaves a tool out does.

    ``unknown_dialogs_n`` more training rows ask about the world beyond the model's facts
    (:func:`unknown_refusals`); ``follow_asides_n`` more are old conversations of two or more
    questions with asides said around their turns (:func:`asides` with ``turns=True``), and
    ``old_asides_n`` more old single questions with an aside (:func:`asides`).
    ``fact_turns_n`` more are the model's facts corrected as they are said, followed up along
    their order, or asked by position (:func:`fact_turns`).
    """
    rng = random.Random(f"tools-{seed}")
    old = rng.sample(base.train, min(old_dialogs_n, len(base.train)))
    old = [with_tools(d) if not tool_skill(d) and rng.random() < header_p else d for d in old]
    held_t = choose_tool_heldout(random.Random(f"tools-heldout-{seed}"))
    train_s = ToolSampler(random.Random(f"tools-train-{seed}"), False, held_t)
    refusals = tool_refusal_skills()
    h = choose_heldout(refusals, random.Random(f"tools-refusal-heldout-{seed}"))
    ref_s = Sampler(refusals, h, random.Random(f"tools-refusal-{seed}"))
    n_ref = tool_dialogs_n // 8
    tools = tool_dialogs(train_s, tool_dialogs_n - n_ref, "train", base.train[:5000])
    tools = [replace(d, split="train") for d in tools]
    ref = []
    for _ in range(n_ref):
        d = ref_s.train_dialog()
        ref.append(with_tools(d) if rng.random() < 0.85 else d)
    train = old + tools + ref
    rng.shuffle(train)
    eval_s = ToolSampler(random.Random(f"tools-eval-{seed}"), True, held_t)
    held_tools = tool_dialogs(eval_s, 360, "tools", [])
    held_ref = [with_tools(d, "refusal") for d in
                Sampler(refusals, h, random.Random(f"tools-refusal-eval-{seed}"))
                .heldout_dialogs(per_template=8)]
    voice = [with_tools(d, "voice") for d in base.heldout if not tool_skill(d)]
    voice = random.Random(f"voice-{seed}").sample(voice, min(160, len(voice)))
    seen = {d.messages[:-1] for d in train}
    extra = [d for d in held_tools + held_ref + voice if d.messages[:-1] not in seen]
    held = {_bare(d) for d in base.heldout + extra}  # no wording added below asks one of these
    if grammar_dialogs_n:
        g_rng = random.Random(f"grammar-{seed}")
        g_tools = tool_dialogs(ToolSampler(g_rng, False, held_t, grammar=1.0),
                               grammar_dialogs_n // 2, "train", base.train[:5000])  # fmt: skip
        g_facts = grammar_fact_dialogs(base.skills, base.plan, g_rng,
                                       grammar_dialogs_n - len(g_tools))  # fmt: skip
        g_facts = [with_tools(d) if g_rng.random() < header_p else d for d in g_facts]
        skills = base.skills + refusals
        g_facts += asides(old + ref, skills, g_rng, grammar_dialogs_n // 4)
        g_facts += grammar_refusals(skills, g_rng, grammar_dialogs_n // 8, header_p)
        # a grammar wording that happens to be a held-out prompt is not trained on
        grammar = [replace(d, split="train") for d in g_tools + g_facts if _bare(d) not in held]
        if grammar_history_p:
            h_s = ToolSampler(random.Random(f"grammar-history-{seed}"), False, held_t)
            chat = [d for d in old if not tool_skill(d)]  # with tools, tool jobs call a tool
            grammar = [with_history(d, chat, h_s) if g_rng.random() < grammar_history_p else d
                       for d in grammar]  # fmt: skip
        train = train + grammar
        g_rng.shuffle(train)
    if refusal_dialogs_n:
        r_rng = random.Random(f"refusals-more-{seed}")
        more_s = Sampler(refusals, h, random.Random(f"tools-refusal-more-{seed}"))
        third = refusal_dialogs_n // 3
        more = [with_tools(more_s.train_dialog()) for _ in range(third)]
        intents = {s.name: s.intent for s in base.skills}
        said = [d for d in base.train if intents.get(d.skill) == "refusals" and not tool_skill(d)]
        more += [with_tools(d) for d in r_rng.sample(said, min(third, len(said)))]
        more += grammar_refusals(base.skills + refusals, r_rng, refusal_dialogs_n - len(more))
        train = train + [replace(d, split="train") for d in more if _bare(d) not in held]
        r_rng.shuffle(train)
    if unknown_dialogs_n or follow_asides_n or old_asides_n:
        u_rng = random.Random(f"unknown-{seed}")
        more = unknown_refusals(base.skills + refusals, u_rng, unknown_dialogs_n)
        chat = [d for d in old if not tool_skill(d)]
        more += asides(chat, base.skills, u_rng, follow_asides_n, turns=True)
        if old_asides_n:
            more += asides(chat, base.skills, random.Random(f"old-asides-{seed}"), old_asides_n)
        train = train + [replace(d, split="train") for d in more if _bare(d) not in held]
        u_rng.shuffle(train)
    if fact_turns_n:
        t_rng = random.Random(f"fact-turns-{seed}")
        more = fact_turns(base.skills, base.plan, t_rng, fact_turns_n, header_p)
        train = train + [replace(d, split="train") for d in more if _bare(d) not in held]
        t_rng.shuffle(train)
    if fewer_tools_p:
        f_rng = random.Random(f"fewer-tools-{seed}")
        train = [fewer_tools(d, f_rng) if f_rng.random() < fewer_tools_p else d for d in train]
    return Corpus(train, base.heldout + extra, base.skills + refusals, base.plan)


def fewer_tools(d: Dialog, rng: random.Random) -> Dialog:
    """``d`` with one or two of the tools it does not call left out of its tools turn (a
    dialog without that turn, or that calls every tool, comes back unchanged)."""
    if not d.messages or d.messages[0] != TOOLS_TURN:
        return d
    called = {call["name"] for r, c in d.messages if r == "assistant"
              and c.startswith("<tool_call>") for call in json_call(c)}  # fmt: skip
    spare = [n for n in TOOL_NAMES if n not in called]
    if not spare:
        return d
    gone = set(rng.sample(spare, min(len(spare), rng.choice((1, 1, 2)))))
    line = ", ".join(n for n in TOOL_NAMES if n not in gone)
    return replace(d, messages=(("tools", line), *d.messages[1:]))


def with_history(d: Dialog, old: list[Dialog], tools: ToolSampler) -> Dialog:
    """``d`` asked after one or two earlier exchanges, as a conversation's prompt holds them:
    the last exchange of an old training dialog (a question of any skill and its reply) or a
    tool exchange (question, call, result, the reply as said), or one of each. A dialog that
    already has history comes back unchanged; the reply does not change (the new question does
    not refer to the earlier ones)."""
    head = [m for m in d.messages if m[0] in ("tools", "system")]
    rest = d.messages[len(head):]
    if [r for r, _ in rest] not in (["user", "assistant"], ["user", "assistant", "tool",
                                                            "assistant"]):  # fmt: skip
        return d
    rng = tools.rng

    def earlier() -> list[tuple[str, str]]:
        if rng.random() < 0.5:
            c = rng.choice(old).messages
            last = max(i for i, (r, _) in enumerate(c) if r == "user")
            return list(c[last:])
        return turns(tools.exchange()[1])

    history = earlier() + (earlier() if rng.random() < 0.3 else [])
    return replace(d, messages=(*head, *history, *rest))


def grammar_refusals(skills: list[Skill], rng: random.Random, n: int, header_p: float = 0.5
                     ) -> list[Dialog]:  # fmt: skip
    """``n`` requests the assistant has no tool or answer for (calls, messages, music, devices,
    shopping, bookings, weather, news, live data, search), in the shapes of
    :mod:`training.requests`, with the refusal skill's reply; most with the tools on offer."""
    by_name = {s.name: s for s in skills}
    names = sorted(requests.REFUSAL_CORES)
    out = []
    for _ in range(n):
        name = rng.choices(names, [4 if k == "no_actions" else 1 for k in names])[0]
        q = speak(requests.refusal_question(name, rng), rng, 0.5)
        out.append(_refused(q, by_name[name], rng, max(header_p, 0.85)))
    return out


def _refused(q: str, skill: Skill, rng: random.Random, tools_p: float) -> Dialog:
    """``q`` answered with refusal skill ``skill``'s reply; with the tools on offer with
    probability ``tools_p``."""
    fact = skill.facts[0]
    d = Dialog((("user", q), ("assistant", fact.reply)), skill.name, fact.answers, "train", -1,
               fact.key)  # fmt: skip
    return with_tools(d) if rng.random() < tools_p else d


def unknown_refusals(skills: list[Skill], rng: random.Random, n: int) -> list[Dialog]:
    """``n`` questions about the world beyond the model's facts (history, people, how-to,
    cooking, health, television, sport; :func:`training.requests.unknown_question`) with
    out_of_domain_wide's reply, most with the tools on offer: what the model does not know it
    says so, rather than calling a tool or answering with a fact it does know."""
    skill = next(s for s in skills if s.name == "out_of_domain_wide")
    return [_refused(speak(requests.unknown_question(rng), rng, 0.5), skill, rng, 0.85)
            for _ in range(n)]  # fmt: skip


# Skills whose questions are asked with an aside in training (not greetings and thanks, where
# "it's for my homework" would make no sense).
ASIDE_INTENTS = ("countries", "world", "planets", "calendar", "jokes", "refusals", "identity")


def asides(dialogs: list[Dialog], skills: list[Skill], rng: random.Random, n: int,
           turns: bool = False) -> list[Dialog]:  # fmt: skip
    """``n`` one-question dialogs of ``dialogs`` (the old skills' and the refusals' training
    rows) asked again with an aside around the question ("..., I'm writing a card", "my son
    wants to know, ..."): the reply does not change.

    With ``turns``, conversations of two or more questions instead (a question and its
    follow-ups, "and Peru?"), each question with an aside or not, at least one with."""
    intents = {s.name: s.intent for s in skills}
    pool = []
    for d in dialogs:
        roles = [r for r, _ in d.messages if r != "tools"]
        asked = len(roles) // 2  # questions, each answered
        if intents.get(d.skill) in ASIDE_INTENTS and roles == ["user", "assistant"] * asked \
                and asked and (asked > 1) == turns:  # fmt: skip
            pool.append(d)
    out = []
    for d in rng.sample(pool, min(n, len(pool))):
        users = [i for i, (r, _) in enumerate(d.messages) if r == "user"]
        said = ({i for i in users if rng.random() < 0.6} or {users[-1]}) if turns else set(users)
        msgs = tuple((r, requests.aside_around(c, rng) if i in said else c)
                     for i, (r, c) in enumerate(d.messages))  # fmt: skip
        out.append(replace(d, messages=msgs))
    return out


def _bare(d: Dialog) -> tuple:
    """A dialog's prompt without the tools turn, in lower case without punctuation."""
    return tuple((r, _PLAIN.sub("", c.lower())) for r, c in d.messages[:-1] if r != "tools")


_PLAIN = re.compile(r"[^\w\s']")
