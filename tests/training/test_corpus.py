"""The generated corpus: deterministic, well-formed replies, held-out split kept out of training."""

from __future__ import annotations

import re

from training.corpus import MAX_REPLY_WORDS, build_corpus, choose_heldout
from training.numwords import int_words, number_words, ordinal_words
from training.scoring import contains_answer, well_formed


def test_same_seed_same_corpus(small_corpus):
    again = build_corpus(seed=3, size=3000)
    assert again.train == small_corpus.train
    assert again.heldout == small_corpus.heldout


def test_other_seed_other_corpus(small_corpus):
    other = build_corpus(seed=4, size=3000)
    assert other.train != small_corpus.train
    assert {d.messages for d in other.heldout} != {d.messages for d in small_corpus.heldout}


def test_heldout_prompts_never_in_training(small_corpus):
    train_prompts = {d.messages[:-1] for d in small_corpus.train}
    assert small_corpus.heldout
    assert not any(d.messages[:-1] in train_prompts for d in small_corpus.heldout)


def test_heldout_templates_facts_and_pairs_not_trained(small_corpus):
    import random

    h = choose_heldout(small_corpus.skills, random.Random("heldout-3"))
    for d in small_corpus.train:
        if d.followup:
            assert d.template not in h.followups[d.skill]
            continue
        assert d.template not in h.templates[d.skill], d
        assert d.fact not in h.facts[d.skill], d
        assert (d.template, d.fact) not in h.combos[d.skill], d
    kinds = {d.split for d in small_corpus.heldout}
    assert {"template", "combo", "fact", "followup"} <= kinds
    for d in small_corpus.heldout:
        if d.split == "template":
            assert d.template in h.templates[d.skill]
        elif d.split == "combo":
            assert (d.template, d.fact) in h.combos[d.skill]
        elif d.split == "fact":
            assert d.fact in h.facts[d.skill]
        else:
            assert d.followup and d.template in h.followups[d.skill]


def test_every_skill_has_many_wordings_and_is_evaluated(small_corpus):
    held_skills = {d.skill for d in small_corpus.heldout}
    for s in small_corpus.skills:
        assert len(s.templates) >= 10, s.name
        if len(s.facts) == 1 and s.intent in ("small_talk", "identity", "refusals", "jokes"):
            assert len(s.templates) >= 12, s.name
        assert s.name in held_skills, s.name


def test_replies_are_spoken_and_short(small_corpus):
    for s in small_corpus.skills:
        for f in s.facts:
            assert len(f.reply.split()) <= MAX_REPLY_WORDS, f.reply
            assert not re.search(r"\d|[*#_`]", f.reply), f.reply  # no digits, no markdown
            assert well_formed(f.reply), f.reply
            assert contains_answer(f.reply, f.answers), (f.reply, f.answers)


def test_reply_answers_the_last_question(small_corpus):
    multi = [d for d in small_corpus.train if sum(r == "user" for r, _ in d.messages) > 1]
    assert len(multi) > len(small_corpus.train) // 10
    follow = [d for d in small_corpus.train if d.followup]
    assert follow
    for d in follow[:50]:
        assert d.messages[-3][1] != d.reply  # the follow-up is about another fact


def test_numbers_in_words():
    assert int_words(56) == "fifty six"
    assert int_words(105) == "one hundred and five"
    assert int_words(1440) == "one thousand four hundred and forty"
    assert int_words(-40) == "minus forty"
    assert number_words(6.21) == "six point two"
    assert number_words(4.0) == "four"
    assert ordinal_words(4) == "fourth" and ordinal_words(12) == "twelfth"


def test_arithmetic_reply_example(small_corpus):
    mul = next(s for s in small_corpus.skills if s.name == "mul")
    f = mul.by_key["7times8"]
    assert f.reply == "Seven times eight is fifty six."
    assert "7" in f.slots["a"] and "seven" in f.slots["a"]


def test_catch_all_refusal_did_not_learn_the_bench_questions():
    """`diffvoice bench`'s questions outside the skills are not wordings of the catch-all refusal.

    In-domain bench questions ("What is the capital of France?") are asked in the skills' own
    wordings; the out-of-domain ones must be refused by generalisation, not recall.
    """
    from bench.decoding import PROMPTS, normalise
    from training.corpus import all_skills

    bench = [normalise(q) for q in PROMPTS]
    found = []
    for skill in all_skills():
        slots: dict[str, set[str]] = {}
        for fact in skill.facts:
            for name, forms in fact.slots.items():
                slots.setdefault(name, set()).update(normalise(f) for f in forms)
        for template in skill.templates:
            parts = re.split(r"\{(\w+)\}", template)
            pattern = r"\s*".join(
                "(?:" + "|".join(map(re.escape, sorted(slots[p]))) + ")"
                if i % 2
                else re.escape(normalise(p))
                for i, p in enumerate(parts)
            )
            found += [(skill.name, q) for q in bench if re.fullmatch(pattern, q)]
    assert ("capital", "what is the capital of france") in found  # the matcher does match
    assert not [q for name, q in found if name == "out_of_domain"]
