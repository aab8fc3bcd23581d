"""The per-process memo of compiled scenarios and the tactics planner's memos (issue 21: a
loky worker unpickles a fresh copy of the scenario with every batch, and used to fill its
decision tables again each time; the per-state payoffs were most of a competent run's CPU).
Same results cold and warm, bounded memory, exact memos."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from sim.classic.duel import tactics as TC
from sim.classic.duel.scenario import build
from sim.classic.engine import sampler
from sim.memo import WeightedLRU

PARAMS = {"unit_a": "Hunchback HBK-4G", "unit_b": "Wolverine WVR-6R", "range": 3,
          "turns": 5}


def _same(a: object, b: object) -> None:
    for k in a.stats:  # type: ignore[attr-defined]
        assert np.array_equal(a.stats[k], b.stats[k]), k  # type: ignore[attr-defined]


def test_a_pickled_copy_finds_the_filled_tables_and_the_same_results(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sampler, "_COMPILED", WeightedLRU(8, 10**9))
    scn = build(PARAMS)
    cold = sampler.simulate(scn, np.random.default_rng(4), 48)
    comp = sampler._compiled(scn)
    filled = comp.table.size
    assert filled > 0 and len(sampler._COMPILED) == 1
    copy = pickle.loads(pickle.dumps(scn))      # what a worker gets with each batch
    assert "_engine_compiled" not in copy.__dict__ or copy._engine_compiled is not comp
    copy.__dict__.pop("_engine_compiled", None)
    assert sampler.scenario_key(copy) == sampler.scenario_key(scn)
    assert sampler._compiled(copy) is comp      # found by content: nothing filled again
    _same(cold, sampler.simulate(copy, np.random.default_rng(4), 48))
    assert comp.table.size == filled
    # a rebuilt scenario (same sides, same fields) shares it too; empty: compiled afresh
    assert sampler._compiled(build(PARAMS)) is comp
    sampler.clear_cache()
    fresh = build(PARAMS)
    assert sampler._compiled(fresh) is not comp
    _same(cold, sampler.simulate(fresh, np.random.default_rng(4), 48))


def test_the_memo_is_bounded_and_keys_by_every_field(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sampler, "_COMPILED", WeightedLRU(2, 10**9))
    scns = [build({**PARAMS, "turns": t}) for t in (2, 3, 4)]
    keys = {sampler.scenario_key(s) for s in scns}
    assert len(keys) == 3 and None not in keys   # the turn limit is part of the key
    for s in scns:
        sampler.simulate(s, np.random.default_rng(1), 8)
    assert len(sampler._COMPILED) == 2           # at most COMPILED_ITEMS entries
    assert sampler.scenario_key(scns[0]) not in sampler._COMPILED
    monkeypatch.setattr(sampler, "_COMPILED", WeightedLRU(8, 3))
    sampler.simulate(build({**PARAMS, "turns": 6}), np.random.default_rng(1), 8)
    assert len(sampler._COMPILED) == 0           # heavier than the weight bound: not kept
    assert sampler.COMPILED_ITEMS >= 1 and sampler.COMPILED_WEIGHT >= 1


def test_a_side_without_a_token_is_not_memoised() -> None:
    scn = build(PARAMS)
    copy = pickle.loads(pickle.dumps(scn))
    del copy.a.__dict__["_btsim_token"]
    assert sampler.scenario_key(copy) is None


def test_the_planner_memos_are_exact_and_read_only() -> None:
    """``_side`` (memoised on the unit's state and SIDE_TARGET_READS of the target's) and
    ``_risk`` equal their plain functions on random states; what they hand out is read-only;
    a decided state keeps only its decisions."""
    scn = build(PARAMS)
    comp = sampler._compiled(scn)
    plan = comp.table.planner
    assert plan is not None
    rng = np.random.default_rng(2)
    top = {name: (1 << bits) - 1 for name, bits in TC.UNIT_FIELDS}
    for _ in range(25):
        s0, s1 = ({k: int(rng.integers(0, v + 1)) for k, v in top.items()} for _ in "ab")
        for u, (su, st) in enumerate(((s0, s1), (s1, s0))):
            got = plan._side(u, su, st)
            want = TC.Planner._side.__wrapped__(plan, u, su, dict(st))  # type: ignore[attr-defined]
            for g, w in zip(got, want, strict=True):
                assert np.array_equal(g, w) and not g.flags.writeable
            risk = plan._risk(u, got[1])
            for g, w in zip(risk, TC.Planner._risk.__wrapped__(plan, u, got[1]),  # type: ignore[attr-defined]
                            strict=True):
                assert np.array_equal(g, w) and not g.flags.writeable
        state = (TC.pack_unit(s0) | (TC.pack_unit(s1) << TC.UNIT_BITS))
        table = plan.table(state)
        assert state not in plan.states and not table.flags.writeable
        assert plan.table(state) is table
    with pytest.raises(KeyError, match="SIDE_TARGET_READS"):
        TC._Reads({"walk": 1})["heat"]


def test_a_fire_situation_is_built_once_and_equals_a_fresh_build(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Sides against opponents with other hexes share their common fire situations (the
    memo :func:`sim.classic.duel.scenario._fire_situation`); a memoised situation decides as
    a freshly built one, and the memo of decision contents is keyed by identity."""
    from sim.classic.duel import scenario as DS
    from sim.classic.fire import policies as P

    monkeypatch.setattr(DS, "_FIRE", WeightedLRU(64, 64))
    monkeypatch.setattr(DS, "_SIDES", WeightedLRU(DS.SIDE_CACHE_SIZE, DS.SIDE_CACHE_SITUATIONS))
    one = build({**PARAMS, "range": 2})
    other = build({**PARAMS, "range": 2, "unit_b": "Locust LCT-1V"})
    assert one.a is not other.a                  # the opponent's hexes differ ...
    shared = [k for k in one.a.fire if one.a.fire[k] is other.a.fire.get(k)]
    assert shared                                # ... yet standing targets are the same
    assert len(DS._FIRE) <= 64
    for k in shared:
        fs = one.a.fire[k]
        assert P._content_of(fs) == P.decision_content(fs)
        assert P._content_of(fs) is P._content_of(fs)


def test_the_melee_memo_is_exact_bounded_and_keys_by_every_field(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """:func:`tactics.melee_memo` (per process, by content) gives what :func:`tactics.melee`
    gives, read-only, within MELEE_ITEMS; :func:`tactics.melee_key` holds every field."""
    import dataclasses

    scn = build({**PARAMS, "range": 2})
    plan = sampler._compiled(scn).table.planner
    assert plan is not None
    rng = np.random.default_rng(3)
    top = {name: (1 << bits) - 1 for name, bits in TC.UNIT_FIELDS}
    states = []
    for _ in range(12):
        s0, s1 = ({k: int(rng.integers(0, v + 1)) for k, v in top.items()} for _ in "ab")
        states += [(0, {**s0, "act": 1, "prone": 0}, s1), (1, {**s1, "act": 1, "prone": 0}, s0)]
    side = TC.Planner._side.__wrapped__  # type: ignore[attr-defined]
    with monkeypatch.context() as m:
        m.setattr(TC, "melee_memo", lambda key, mc, *a: TC.melee(mc, *a))
        plain = [side(plan, u, su, dict(st)) for u, su, st in states]
    for items, size in ((TC.MELEE_ITEMS, TC.MELEE_BYTES), (3, 10**9), (10**6, 5000)):
        monkeypatch.setattr(TC, "_MELEE", TC.WeightedLRU(items, size))
        for _ in range(2):                       # cold, then from the memo
            for (u, su, st), want in zip(states, plain, strict=True):
                for g, w in zip(side(plan, u, su, dict(st)), want, strict=True):
                    assert np.array_equal(g, w)
        assert 0 < len(TC._MELEE) <= items and TC._MELEE.weight <= size
    assert len(TC._MELEE) < 24                   # the byte bound binds
    got = next(iter(TC._MELEE._data.values()))[0]
    assert not any(a.flags.writeable for a in got)
    mc = plan.melee[0]
    keys = {TC.melee_key(mc)}
    for f in dataclasses.fields(mc):
        v = getattr(mc, f.name)
        other = (v + 1 if isinstance(v, np.ndarray) else not v if isinstance(v, bool)
                 else v[::-1] if isinstance(v, tuple) else v + 1)
        keys.add(TC.melee_key(dataclasses.replace(mc, **{f.name: other})))
    assert len(keys) == len(dataclasses.fields(mc)) + 1
