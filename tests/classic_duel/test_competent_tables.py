"""The ``competent`` decision tables made cheap (issues 21/22): firing decisions shared
between scenarios by content (:func:`sim.classic.fire.policies.shared_decider`), a state's
movement decisions made at once (:func:`sim.classic.duel.tactics.choose`) -- each checked
against a plain re-coding of the rule it replaces."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest
from classic_duel_helpers import HBK, WVR

from sim.classic.duel import scenario as DS
from sim.classic.duel import tactics as TC
from sim.classic.duel.scenario import build
from sim.classic.fire import policies as P

PARAMS = {"unit_a": HBK, "unit_b": WVR, "range": 3, "turns": 6, "physical_a": "none",
          "physical_b": "none"}


def _count_decisions(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls = [0]
    orig = P.Decider._decide

    def spy(self: P.Decider, r: int, h: int, avail: int) -> int:
        calls[0] += 1
        return orig(self, r, h, avail)

    monkeypatch.setattr(P.Decider, "_decide", spy)
    return calls


def test_a_rebuilt_scenario_decides_nothing_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same duel built afresh (new FireScenario objects: the side cache emptied) finds
    every firing decision in the shared memo: no new Decider decision, the same results."""
    from sim.classic.engine import sampler

    monkeypatch.setattr(P, "_SHARED", type(P._SHARED)(P.SHARED_CAP, P.SHARED_CAP))
    calls = _count_decisions(monkeypatch)
    first = sampler.simulate(build(PARAMS), np.random.default_rng(5), 40)
    made = calls[0]
    assert made > 0
    monkeypatch.setattr(DS, "_SIDES", type(DS._SIDES)(DS.SIDE_CACHE_SIZE, DS.SIDE_CACHE_SITUATIONS))
    monkeypatch.setattr(DS, "_FIRE", type(DS._FIRE)(DS.FIRE_CACHE_SITUATIONS,
                                                    DS.FIRE_CACHE_SITUATIONS))
    scn = build(PARAMS)
    again = sampler.simulate(scn, np.random.default_rng(5), 40)
    assert calls[0] == made
    for k in first.stats:
        assert np.array_equal(first.stats[k], again.stats[k])
    # the table's Deciders are the shared ones, found by content, not by identity
    table = sampler._compiled(scn).table
    new = {id(fs) for s in scn.units for fs in s.fire.values()}
    assert table.deciders and all(id(d.scn) not in new for d in table.deciders.values())


def test_shared_decisions_equal_a_fresh_deciders() -> None:
    """Every decision of a shared Decider equals a fresh Decider's on the same situation,
    over every heat level and random availabilities, for each named policy."""
    rng = np.random.default_rng(3)
    for policy in ("max-expected", "neutral", "below:14", "all"):
        scn = build({**PARAMS, "unit_a": "Catapult CPLT-C1", "policy_a": policy})
        for fs in list(scn.a.fire.values())[::7]:
            shared, fresh = P.shared_decider(fs), P.Decider(fs)
            n = len(fs.guns)
            for _ in range(40):
                h = int(rng.integers(0, 30))
                avail = int(rng.integers(0, 1 << n))
                assert shared.mask(0, h, avail) == fresh.mask(0, h, avail) == \
                    _old_mask(fresh, 0, h, avail)


def _old_items(dec: P.Decider, r: int, h: int, avail: int) -> tuple[list[float], list[int]]:
    """Per gun: expected damage if available and in reach at heat h (capped at 29), heat."""
    hh = min(h, 29)
    vals = [dec.expected(g, int(gun.tn[r, hh])) if (avail >> g) & 1 else 0.0
            for g, gun in enumerate(dec.scn.guns)]
    return vals, [gun.heat_of(gun.rate) for gun in dec.scn.guns]


def _old_lookahead(dec: P.Decider, r: int, h: int, avail: int, mv: int) -> int:
    """The ``max-expected`` rule coded plainly, cap by cap (the policy's docstring)."""
    from sim.classic.fire import heat as H
    from sim.dice import P_2D6_AT_LEAST

    scn = dec.scn
    best = (-1.0, 0, 0)
    vals_b, masks_b = P._exact_weights(*_old_items(dec, r, h, avail))
    for cap in range(vals_b.size):
        v, m = float(vals_b[cap]), int(masks_b[cap])
        if v < 0:
            continue
        h2 = max(0, h + mv + cap - scn.dissipation)
        p_ok = 1.0 if h2 < 14 else float(P_2D6_AT_LEAST[min(14, int(
            H.shutdown_avoid(h2, scn.rules.tacops_shutdown, scn.rules.piloting)))])
        if h2 >= H.AUTO_SHUTDOWN:
            p_ok = 0.0
        if dec.explosive and h2 >= H.AMMO_CHECK_FROM:
            p_ok *= float(P_2D6_AT_LEAST[int(H.ammo_avoid(h2))])
        nxt = 0.0
        if p_ok > 0:
            h3 = min(h2, H.AUTO_SHUTDOWN - 1)
            nxt = P._under(*P._exact_weights(*_old_items(dec, r, h3, avail)),
                           scn.dissipation - int(scn.move_heat[h3]))[0]
        value = v + p_ok * nxt
        if value > best[0] + 1e-12:
            best = (value, cap, m)
    return best[2]


def _old_mask(dec: P.Decider, r: int, h: int, avail: int) -> int:
    from sim.classic.fire import heat as H

    if dec.policy.kind != "max-expected":
        return dec.mask(r, h, avail)
    canon = P.canonical_avail(dec.classes, avail) if dec.symmetric else avail
    mv = int(dec.scn.move_heat[min(h, H.AUTO_SHUTDOWN - 1)])
    out = _old_lookahead(dec, r, h, canon, mv)
    return P._map_back(dec.classes, avail, canon, out) if dec.symmetric else out


def test_the_shared_memo_is_bounded_and_keyed_by_content(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(P, "_SHARED", type(P._SHARED)(5, 5))
    scn = build({**PARAMS, "range": 6, "policy_a": "max-expected"})
    fss = list(scn.a.fire.values())
    decs = [P.shared_decider(fs) for fs in fss]
    assert len(P._SHARED) == 5
    # situations whose numbers differ (another range or mode) never share a Decider
    keys = [P.decision_content(fs) for fs in fss]
    for i in range(len(fss)):
        for j in range(i):
            if keys[i] != keys[j]:
                assert decs[i] is not decs[j]


def _old_window(arr: np.ndarray, h: int, op: Any, dmax: int) -> np.ndarray:
    out = arr.copy()
    for k in range(1, min(h, dmax) + 1):
        up = arr.copy()
        up[..., 1:dmax + 1 - k] = arr[..., 1 + k:dmax + 1]
        dn = arr.copy()
        dn[..., 1 + k:dmax + 1] = arr[..., 1:dmax + 1 - k]
        out = op(out, op(up, dn))
    return out


def test_window_equals_the_shifted_copies() -> None:
    rng = np.random.default_rng(11)
    for _ in range(200):
        dmax = int(rng.integers(1, 16))
        h = int(rng.integers(0, 20))
        arr = rng.normal(size=(4, dmax + 1))
        for op in (np.minimum, np.maximum):
            assert np.array_equal(TC.window(arr, h, op, dmax), _old_window(arr, h, op, dmax))


def _old_pick(vals: np.ndarray, reach: np.ndarray, d: int, dmax: int) -> tuple[int, int]:
    """The competent choice coded as a list of candidates (the tie order of the module
    docstring)."""
    cands = [(m, nd, float(vals[m, nd])) for m in range(4) if reach[m] >= 0
             for nd in range(max(d - int(reach[m]), 1), min(d + int(reach[m]), dmax) + 1)]
    top = max(c[2] for c in cands)
    tol = max(1e-12, 1e-9 * abs(top))
    m, nd, _ = min((c for c in cands if c[2] >= top - tol),
                   key=lambda c: (c[0], abs(c[1] - d), c[1]))
    return m, nd


def _old_worst(q: np.ndarray, opp: np.ndarray, dmax: int) -> np.ndarray:
    w = np.full((4, dmax + 1), np.inf)
    for m in range(4):
        for d1 in range(1, dmax + 1):
            w[m, d1] = min(q[m, om, d2] for om in range(4) if opp[om] >= 0
                           for d2 in TC.reach_set(d1, int(opp[om]), dmax))
    return w


def _random_state(rng: np.random.Generator, R: int) -> dict[str, Any]:
    def reach() -> np.ndarray:
        r = np.array([0] + [int(rng.integers(1, R + 3)) if rng.random() < 0.7 else -1
                            for _ in range(3)])
        return r

    # small integers: many exact ties, so the tie order is exercised
    q = rng.integers(-3, 4, size=(4, 4, R + 1)).astype(float)
    if rng.random() < 0.5:
        q = q + rng.normal(scale=1e-13, size=q.shape)      # ties within the tolerance
    z = np.zeros_like(q)
    return {"q": q, "ra": reach(), "rb": reach(), "da": z, "db": z}


@pytest.mark.parametrize("R", [1, 3, 9])
def test_a_states_decisions_equal_the_scalar_competent(R: int) -> None:
    """Planner._decisions (every distance and initiative order at once) against the choice
    made key by key: by the competent rule re-coded plainly (brute-force worst cases, the
    candidate list) and by the scalar View path (a callable wrapping ``competent``)."""
    rng = np.random.default_rng(R)
    plan = TC.Planner.__new__(TC.Planner)
    scn = build({**PARAMS, "range": R})
    plan.scn, plan.R = scn, R
    plan._ok_memo = {}
    scalar = TC.resolve(lambda v: TC.competent(v), "tactic_a")
    for _ in range(60):
        g = _random_state(rng, R)
        got = plan._decisions(g)
        reach = (g["ra"], g["rb"])
        qs = (g["q"], -g["q"].transpose(1, 0, 2))
        for f in (0, 1):
            s = 1 - f
            w = _old_worst(qs[f], reach[s], R)
            for d in range(1, R + 1):
                m1, d1 = _old_pick(w, reach[f], d, R)
                m2, d2 = _old_pick(qs[s][:, m1, :], reach[s], d1, R)
                ma, mb = (m1, m2) if f == 0 else (m2, m1)
                assert got[1 - f, d] == TC.pack_value(ma, mb, d1, d2), (f, d)
        plan.scn = replace(scn, tactics=(scalar, scalar))
        assert np.array_equal(plan._decisions(g), got)
        plan.scn = scn
