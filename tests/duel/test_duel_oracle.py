"""The vectorized kernel against the scalar oracle (sim/oracles/duel.py): the distribution of
the turn the fight ends, bin by bin, within 4 SE of the difference (fixed seeds)."""

from __future__ import annotations

import numpy as np
import pytest

from sim import engine
from sim.alphastrike.duel.model import MODEL
from sim.oracles.duel import scalar

CASES = [
    dict(a="Locust LCT-1V", b="Commando COM-1B", range="short"),
    dict(a="Atlas AS7-D", b="Loki (Hellbringer) Prime", range="medium", policy_b="max"),
    dict(a="Loki (Hellbringer) A", b="Grand Titan T-IT-N10M", range="medium", policy_a="max"),
    dict(a="Assassin ASN-101", b="Grendel (Mongrel) B", ranges="long,medium,short",
         moved_a="jump"),
    dict(a="Mad Cat (Timber Wolf) S", b="Atlas AS7-K", range="long", policy_b="below:2",
         moved_a="still"),
]


@pytest.mark.parametrize("params", CASES, ids=lambda p: f"{p['a']}-{p['b']}")
def test_end_turn_histogram(params: dict) -> None:
    n_or, n_k = 1500, 30000
    orc = scalar(params, np.random.default_rng(7), n_or)
    frame = engine.simulate(MODEL, [params], trials=n_k, seed=7, progress=False,
                            with_exact=False)
    p_k = frame["p_end"].to_numpy()
    p_o = orc["end_turn_hist"][1:31] / n_or
    for t in range(30):
        p = 0.5 * (p_k[t] + p_o[t])
        se = np.sqrt(max(p * (1 - p), 1e-4) * (1 / n_or + 1 / n_k))
        assert abs(p_k[t] - p_o[t]) <= 4 * se, (t + 1, p_k[t], p_o[t])
    for key, m in (("win_a", "p_win_a"), ("win_b", "p_win_b"), ("draw", "p_draw")):
        p_mc = frame[m].iloc[0]
        p = 0.5 * (p_mc + orc[key] / n_or)
        se = np.sqrt(max(p * (1 - p), 1e-4) * (1 / n_or + 1 / n_k))
        assert abs(p_mc - orc[key] / n_or) <= 4 * se, m


def test_bench_case_linked_to_its_oracle_and_unit_turns() -> None:
    """``btsim bench`` times the duel in unit-turns against the scalar oracle; the declared
    unit-turns per duel is 2 x E[turns] of the case, rounded down (a lower bound)."""
    import sim
    from sim.alphastrike.duel.model import BENCH_PARAMS, BENCH_UNIT_TURNS
    from sim.oracles import scalar_baseline

    assert scalar_baseline("duel") is scalar
    from sim.alphastrike.duel.model import BENCH_COMPETENT, BENCH_COMPETENT_UNIT_TURNS

    case, comp = MODEL.bench_cases
    assert case.unit == "unit-turns" and case.per_trial == BENCH_UNIT_TURNS
    per_duel = 2 * sim.duel(**BENCH_PARAMS)["expected_turns"]
    assert BENCH_UNIT_TURNS <= per_duel < BENCH_UNIT_TURNS + 1
    assert comp.unit == "unit-turns" and comp.per_trial == BENCH_COMPETENT_UNIT_TURNS
    per_duel = 2 * sim.duel(**BENCH_COMPETENT)["expected_turns"]
    assert BENCH_COMPETENT_UNIT_TURNS <= per_duel < BENCH_COMPETENT_UNIT_TURNS + 1
