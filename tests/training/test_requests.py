"""The grammar of request shapes (training/requests.py): its wordings fit the samplers' slots,
vary in form, reach the tools intact, and never copy a held-out prompt into training."""

from __future__ import annotations

import random
import re
from collections import Counter

from training import requests
from training.corpus import _bare, build_tool_corpus
from training.skills_facts import calendar_skills, country_skills, planet_skills
from training.skills_tools import ToolSampler, choose_tool_heldout, json_call
from voice.tools import Toolbox

SLOT = re.compile(r"\{(\w+)\}")


def _slots(text: str) -> set[str]:
    return set(SLOT.findall(text))


def test_tool_cores_name_the_samplers_lists_and_fill_their_slots():
    """Every core stands in for one of the tool sampler's template lists, with its slots."""
    lists = dict(choose_tool_heldout.__globals__.items())
    names = {"calc": "CALC", "calc_follow": "CALC_FOLLOW", "units": "UNITS_Q",
             "units_follow_value": "UNITS_FOLLOW_VALUE", "units_follow_unit": "UNITS_FOLLOW_UNIT",
             "clock_time": "CLOCK_TIME", "clock_date": "CLOCK_DATE", "clock_day": "CLOCK_DAY",
             "clock_until": "CLOCK_UNTIL", "clock_zone": "CLOCK_ZONE", "timer_set": "TIMER_SET",
             "timer_label": "TIMER_SET_LABEL", "timer_remind": "TIMER_REMIND",
             "timer_list": "TIMER_LIST", "timer_cancel": "TIMER_CANCEL",
             "timer_cancel_label": "TIMER_CANCEL_LABEL", "timer_cancel_all": "TIMER_CANCEL_ALL",
             "timer_left": "TIMER_LEFT", "timer_left_label": "TIMER_LEFT_LABEL",
             "spell": "SPELL_Q", "spell_follow": "SPELL_FOLLOW"}  # fmt: skip
    assert set(requests.TOOL_CORES) <= set(names)
    rng = random.Random(0)
    for name, c in requests.TOOL_CORES.items():
        allowed = set().union(*(_slots(t) for t in lists[names[name]]))
        for _ in range(60):
            assert _slots(requests.frame(c, rng)) <= allowed, name


def test_fact_cores_fill_the_skills_slots():
    skills = {s.name: s for s in country_skills() + planet_skills() + calendar_skills()}
    rng = random.Random(1)
    for name, c in requests.FACT_CORES.items():
        fact_slots = set(skills[name].facts[0].slots)
        for _ in range(40):
            text = requests.frame(c, rng)
            assert _slots(text) and _slots(text) <= fact_slots, (name, text)
        if name in requests.FACT_FOLLOW_SLOT:
            assert requests.FACT_FOLLOW_SLOT[name] in fact_slots


def test_a_request_takes_many_shapes():
    """One core gives questions, statements and commands, framed many ways."""
    rng = random.Random(2)
    said = [requests.frame(requests.TOOL_CORES["spell"], rng) for _ in range(400)]
    assert len(set(said)) > 300
    ends = Counter(s.endswith("?") for s in said)
    assert ends[True] > 60 and ends[False] > 60  # questions and statements both
    firsts = Counter(s.split()[0].lower() for s in said)
    assert len(firsts) > 40  # not one opening word
    assert sum(s.lower().startswith("{w}") for s in said) > 5  # the object first too
    assert requests.frame(requests.TOOL_CORES["spell"], random.Random(5)) == requests.frame(
        requests.TOOL_CORES["spell"], random.Random(5)
    )


def test_the_tools_read_grammar_requests_as_the_corpus_says():
    """A bare call on a grammar wording (openers, reasons and closers around the request)
    gives the result the corpus expects, nearly always: the tools read the request, not the
    frame around it."""
    s = ToolSampler(random.Random(7), False, {}, grammar=1.0)
    same = total = 0
    misses = []
    for _ in range(900):
        skill, ex, history = s.exchange()
        if history or skill not in ("tool_calculator", "tool_units", "tool_spell", "tool_timer"):
            continue
        (call,) = json_call(ex.call)
        if skill == "tool_timer" and call["arguments"].get("action") not in ("set", "remind"):
            continue
        box = Toolbox()
        try:
            got = box.run(ex.name, {}, request=ex.question).result
        finally:
            box.close()
        # a reminder's task as said keeps its case in the corpus, the tool writes lower case
        ok = got.lower() == ex.result.lower()
        same += ok
        total += 1
        if not ok:
            misses.append((ex.question, got, ex.result))
    assert total > 400
    assert same / total >= 0.95, misses[:10]


def test_grammar_rows_leave_the_heldout_set_alone(small_corpus):
    """The held-out rows are the same with or without grammar rows, and no grammar row asks a
    held-out prompt (in any case or punctuation)."""
    plain = build_tool_corpus(3, small_corpus, 2000, 2000)
    more = build_tool_corpus(3, small_corpus, 2000, 2000, grammar_dialogs_n=3000)
    assert [d.messages for d in plain.heldout] == [d.messages for d in more.heldout]
    assert len(more.train) > len(plain.train) + 2500
    held = {_bare(d) for d in more.heldout}
    old = {d.messages for d in plain.train}
    assert not [d for d in more.train if _bare(d) in held and d.messages not in old]
    calls = Counter(json_call(d.messages[-1][1])[0]["name"] for d in more.train
                    if d.messages[-1][1].startswith("<tool_call>"))  # fmt: skip
    assert set(calls) == {"clock", "timer", "calculator", "units", "spell"}


def test_refusals_and_asides_fill_every_slot():
    """The requests the assistant must refuse come out whole (no slot left), in many shapes,
    and an aside never changes the question it is said around."""
    rng = random.Random(4)
    for name in requests.REFUSAL_CORES:
        said = {requests.refusal_question(name, rng) for _ in range(80)}
        assert len(said) > 40, name
        assert not [s for s in said if "{" in s or "}" in s], name
    q = "What is the capital of Peru?"
    around = [requests.aside_around(q, rng) for _ in range(200)]
    assert all("capital of Peru" in a for a in around)
    assert len({a for a in around}) > 120
    assert sum(a.startswith("What is the capital of Peru,") for a in around) > 60  # after it
    assert sum(a.endswith(", what is the capital of Peru?") for a in around) > 40  # before it


def test_grammar_rows_are_also_asked_after_earlier_exchanges(small_corpus):
    """With ``grammar_history_p`` some grammar rows come after one or two earlier exchanges (an
    old question and its reply, or a tool exchange with its call and result) and keep their own
    reply; without it none do, and the held-out rows are the same either way."""
    alone = build_tool_corpus(3, small_corpus, 2000, 2000, grammar_dialogs_n=3000)
    after = build_tool_corpus(3, small_corpus, 2000, 2000, grammar_dialogs_n=3000,
                              grammar_history_p=0.5)  # fmt: skip
    assert [d.messages for d in alone.heldout] == [d.messages for d in after.heldout]
    assert len(alone.train) == len(after.train)

    def asked(d):
        return sum(r == "user" for r, _ in d.messages)

    more = sum(asked(d) > 1 for d in after.train) - sum(asked(d) > 1 for d in alone.train)
    assert 1000 < more < 2000  # about half of the 3,000 grammar rows (those asked alone)
    # a question straight after a tool exchange (call, result, the reply as said)
    assert [d for d in after.train
            if d.messages[-2][0] == "user" and any(r == "tool" for r, _ in d.messages[:-2])]
    replies = {d.messages[:1] + d.messages[-2:] for d in alone.train}
    kept = [d for d in after.train if (d.messages[:1] + d.messages[-2:]) in replies]
    assert len(kept) > 0.9 * len(after.train)  # the same questions with the same replies


def test_more_refusals_and_fewer_tools_on_offer(small_corpus):
    """``refusal_dialogs_n`` adds refusal rows (never a held-out prompt, never "set a timer"
    refused with the tools on offer); ``fewer_tools_p`` offers fewer tools on some rows but
    never leaves out the tool a row calls. The held-out rows do not change."""
    from training.corpus import TOOLS_TURN, fewer_tools, tool_skill
    from training.skills_tools import TOOL_NAMES

    plain = build_tool_corpus(3, small_corpus, 2000, 2000, grammar_dialogs_n=1000)
    more = build_tool_corpus(3, small_corpus, 2000, 2000, grammar_dialogs_n=1000,
                             refusal_dialogs_n=900, fewer_tools_p=0.3)  # fmt: skip
    assert [d.messages for d in plain.heldout] == [d.messages for d in more.heldout]
    refusing = ("no_", "out_of_domain")

    def count(c):
        return sum(d.skill.startswith(refusing) for d in c.train)

    assert count(more) - count(plain) > 800
    held = {_bare(d) for d in more.heldout}
    assert not [d for d in more.train if d.skill.startswith(refusing) and _bare(d) in held
                and d.messages not in {x.messages for x in plain.train}]  # fmt: skip
    offered = [d for d in more.train if d.messages[0][0] == "tools"]
    assert not [d for d in offered if tool_skill(d) and d.skill.startswith(refusing)]
    fewer = [d for d in offered if d.messages[0] != TOOLS_TURN]
    assert 0.2 < len(fewer) / len(offered) < 0.35
    for d in fewer:
        names = d.messages[0][1].split(", ")
        assert 3 <= len(names) < len(TOOL_NAMES) and set(names) < set(TOOL_NAMES)
        for r, c in d.messages:
            if r == "assistant" and c.startswith("<tool_call>"):
                assert json_call(c)[0]["name"] in names, d.messages
    bare = next(d for d in more.train if d.messages[0][0] != "tools")
    assert fewer_tools(bare, random.Random(0)) is bare  # no tools offered: nothing to leave out


def test_questions_beyond_the_facts_are_refused_and_follow_ups_get_asides(small_corpus):
    """``unknown_dialogs_n`` adds questions about the world beyond the model's facts, whole and
    in many shapes, each with out_of_domain_wide's reply and never a held-out prompt;
    ``follow_asides_n`` adds old conversations of two or more questions where some question
    has an aside and every reply is as before. The held-out rows do not change."""
    rng = random.Random(6)
    said = {requests.unknown_question(rng) for _ in range(300)}
    assert len(said) > 250
    assert not [s for s in said if "{" in s or "}" in s]
    plain = build_tool_corpus(3, small_corpus, 2000, 2000, grammar_dialogs_n=1000)
    more = build_tool_corpus(3, small_corpus, 2000, 2000, grammar_dialogs_n=1000,
                             unknown_dialogs_n=600, follow_asides_n=400)  # fmt: skip
    assert [d.messages for d in plain.heldout] == [d.messages for d in more.heldout]
    before = Counter(d.messages for d in plain.train)
    added = list((Counter(d.messages for d in more.train) - before).elements())
    held = {_bare(d) for d in more.heldout}
    assert not [m for m in added if _bare(_Row(m)) in held]
    reply = next(s for s in more.skills if s.name == "out_of_domain_wide").facts[0].reply
    unknown = [m for m in added if m[-1] == ("assistant", reply)
               and sum(r == "user" for r, _ in m) == 1]  # fmt: skip
    assert 550 <= len(unknown) <= 600
    assert 0.75 < sum(m[0][0] == "tools" for m in unknown) / len(unknown) < 0.95
    follow = [m for m in added if sum(r == "user" for r, _ in m) >= 2]
    assert len(follow) > 150  # the small corpus holds few conversations of aside skills
    by_reply: dict[tuple, list[list[str]]] = {}
    for d in plain.train:
        replies = tuple(c for r, c in d.messages if r == "assistant")
        by_reply.setdefault(replies, []).append([c for r, c in d.messages if r == "user"])
    aside_seen = 0
    for m in follow:
        asked = [c for r, c in m if r == "user"]
        was = by_reply.get(tuple(c for r, c in m if r == "assistant"), [])
        if not was:  # an old conversation the plain corpus did not sample
            continue
        assert any(len(asked) == len(w) and asked != w and all(
            q.rstrip("?.!")[1:] in a for a, q in zip(asked, w, strict=True))
            for w in was), asked
        aside_seen += 1
    assert aside_seen > 100
    single = build_tool_corpus(3, small_corpus, 2000, 2000, grammar_dialogs_n=1000,
                               old_asides_n=300)  # fmt: skip
    added = list((Counter(d.messages for d in single.train) - before).elements())
    assert 150 < len(added) <= 300
    assert all(sum(r == "user" for r, _ in m) == 1 and ", " in m[-2][1] for m in added)


class _Row:
    def __init__(self, messages):
        self.messages = messages



def test_fact_turns_correct_step_and_ask_by_position(small_corpus):
    """The fact rows people say differently: a corrected value is answered for the value meant
    (named after the correction), a follow-up that steps along an order answers for the item
    after the last answer, and the planets at either end are Mercury and Neptune."""
    from training.corpus import fact_turns
    from training.requests import REPAIRS

    rows = fact_turns(small_corpus.skills, small_corpus.plan, random.Random(5), 300, 0.0)
    assert len(rows) == 300
    facts = {s.name: {f.key: f for f in s.facts} for s in small_corpus.skills}
    repairs, steps, ends = rows[0::3], rows[1::3], rows[2::3]
    heads = [r.split("{x}")[0].strip(", ") for r in REPAIRS]
    for d in repairs:
        q = d.messages[0][1]
        found = [m.start() for h in heads
                 for m in re.finditer(r"\b" + re.escape(h.lower()) + r"\b", q.lower())]
        at = min((p for p in found if p > 0), default=-1)  # "No idea which ..." opens
        assert at > 0 and d.messages[1][1] == facts[d.skill][d.fact].reply, q
        meant = facts[d.skill][d.fact].slots
        slot = "nth" if d.skill == "planet_nth" else next(iter(meant))
        last_words = {v.split()[-1].lower() for v in meant[slot]}
        assert any(w in q[at:].lower() for w in last_words), q  # named after the correction
    for d in steps:
        assert len(d.messages) == 4 and d.followup
        said = facts[d.skill]
        first = next(f for f in said.values() if f.reply == d.messages[1][1])
        if d.skill in ("month_after", "day_after", "month_before", "day_before"):
            assert d.fact == first.answers[0]  # the item the last answer named
        else:
            order = list(said)
            assert abs(order.index(d.fact) - order.index(first.key)) == 1
    assert {d.answers[0] for d in ends} == {"Mercury", "Neptune"}
    assert all(("Mercury" in d.messages[1][1]) == any(
        w in d.messages[0][1].lower() for w in ("closest", "nearest", "innermost", "first"))
        for d in ends)  # fmt: skip


def test_fact_turns_join_the_mix_without_held_out_prompts(small_corpus):
    plain = build_tool_corpus(3, small_corpus, 2000, 2000)
    more = build_tool_corpus(3, small_corpus, 2000, 2000, fact_turns_n=600)
    added = list((Counter(d.messages for d in more.train)
                  - Counter(d.messages for d in plain.train)).elements())  # fmt: skip
    assert 550 < len(added) <= 600
    held = {_bare(d) for d in more.heldout}
    assert not [m for m in added if _bare(_Row(m)) in held]
