"""Monte Carlo against the exact chain over catalog pairs (within 4 SE), small trial counts."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from duel_helpers import card
from scipy.stats import binom

from sim import engine
from sim.alphastrike.duel.model import MODEL
from sim.units.catalog import entries

NAMES = [e.name for e in entries() if e.card is not None]
PAIRS = list(itertools.permutations(NAMES, 2))
BANDS = ("short", "medium", "long")
#: 100+ pairs without crits (every 1-vs-1 of the catalog fits the chain without crits), over
#: all three bands; a smaller set with crits, overheat and movement variants.
SWEEP = [dict(a=a, b=b, range=BANDS[i % 3], crits=False, tactic_a="stand-and-fire",
              tactic_b="stand-and-fire") for i, (a, b) in
         enumerate(PAIRS[::7])]
WITH_CRITS = [
    dict(a="Locust LCT-1V", b="Commando COM-1B", range="short"),
    dict(a="Atlas AS7-D", b="Loki (Hellbringer) Prime", range="medium", policy_b="max"),
    dict(a="Loki (Hellbringer) A", b="Grand Titan T-IT-N10M", range="medium", policy_a="max"),
    dict(a="Assassin ASN-101", b="Grendel (Mongrel) B", ranges="long,medium,short",
         moved_a="jump"),
    dict(a="Atlas AS7-K", b="Mad Cat (Timber Wolf) S", closing="close", policy_a="below:2"),
    dict(a="Locust LCT-1L", b="Linebacker C", range="short", terrain_a="woods"),
    dict(a="Atlas AS7-D", b="Catapult CPLT-C1", closing="hold-band", hold_band="own"),
    dict(a="Commando COM-1B", b="Griffin GRF-2N", closing="hold-band", start_distance=50),
    dict(a="Lynx LNX-9R", b="Griffin GRF-2N", range="medium", policy_a="max",
         moved_b="still", terrain_b="water"),
    # crit-table and damage specials on custom cards: CASEP (216-outcome crit table), CR,
    # IRA, BAR, ARM, BHJ2, RFA, MAS against an ENE/IF attacker
    dict(a=card("P", armor=1, structure=6, damage=(3, 3, 2, 0), specials="CASEP,CR,BHJ2"),
         b=card("Q", armor=2, structure=5, damage=(3, 2, 2, 0), specials="IRA,BAR,ARM,ENE"),
         range="short"),
    dict(a=card("R", armor=3, structure=5, damage=(4, 3, 2, 0), specials="IF1,RFA,MAS"),
         b=card("S", armor=3, structure=4, damage=(3, 3, 2, 0), ov=2, specials="ENE,BRA"),
         range="short", moved_a="still", policy_b="max"),
]
METRICS = ("p_win_a", "p_win_b", "p_draw", "expected_turns")


#: Family-wise false-alarm level of one ``_check`` call (Bonferroni over its comparisons).
FAMILY_ALPHA = 1e-3


def _binomial_ok(k: int, n: int, p: float, alpha: float) -> bool:
    """Exact two-sided binomial test: is ``k`` successes in ``n`` plausible under ``p`` at
    level ``alpha``? (Each tail at ``alpha / 2``; a rare event seen a few times too often is
    judged by its true tail, not by a normal approximation that the small count breaks.)"""
    if p <= 0.0:
        return k == 0
    if p >= 1.0:
        return k == n
    return bool(binom.sf(k - 1, n, p) > alpha / 2 and binom.cdf(k, n, p) > alpha / 2)


def _check(params_list: list[dict], trials: int, seed: int) -> int:
    """Compare MC with the exact chain for every scenario: probabilities by an exact binomial
    test on the count (family-wise level :data:`FAMILY_ALPHA`), ``expected_turns`` within
    4 SE of the exact law of the end turn (SE from the exact variance, plus 3/n for counts
    that small)."""
    frame = engine.simulate(MODEL, params_list, trials=trials, seed=seed, progress=False)
    groups = list(frame.groupby(["a", "b", "range"], sort=False))
    alpha = FAMILY_ALPHA / (len(groups) * (len(METRICS) - 1))
    checked = 0
    for _, g in groups:
        r = g.iloc[0]
        turns = g["turn"].to_numpy()
        pmf = g["p_end_exact"].to_numpy()
        limit = turns[-1]
        mean_sq = (turns ** 2 * pmf).sum() + limit ** 2 * r["p_timeout_exact"]
        for m in METRICS:
            ex, mc = r[m + "_exact"], r[m]
            if m == "expected_turns":          # SE from the exact law of the end turn
                se = np.sqrt(max(mean_sq - ex ** 2, 0.0) / trials)
                assert abs(mc - ex) <= 4 * se + 3 / trials, (r["a"], r["b"], r["range"], m,
                                                               mc, ex, se)
            else:                              # exact binomial tail from the exact p
                k = round(mc * trials)
                assert abs(k - mc * trials) < 1e-6
                assert _binomial_ok(k, trials, float(ex), alpha), (
                    r["a"], r["b"], r["range"], m, mc, ex)
            checked += 1
    return checked


def test_sweep_without_crits() -> None:
    assert len(SWEEP) >= 100
    assert _check(SWEEP, trials=600, seed=12) == 4 * len(SWEEP)


@pytest.mark.parametrize("params", WITH_CRITS, ids=lambda p: f"{p['a']}-{p['b']}"[:40])
def test_with_crits(params: dict) -> None:
    assert _check([params], trials=4000, seed=5) == 4


def test_per_turn_curves_agree() -> None:
    params = dict(a="Catapult CPLT-C1", b="Griffin GRF-2N", range="medium")
    frame = engine.simulate(MODEL, [params], trials=20000, seed=2, progress=False)
    for m in ("p_end", "p_a_destroyed_by", "p_b_destroyed_by", "expected_damage_a",
              "expected_damage_b", "p_shutdown_a"):
        ex = frame[m + "_exact"].to_numpy()
        se = np.maximum(frame[m + "_se"].to_numpy(), np.sqrt(ex * (1 - ex) / 20000)
                        if m.startswith("p_") else 1e-3)
        assert np.all(np.abs(frame[m].to_numpy() - ex) <= 4 * se + 1e-9), m


@pytest.mark.parametrize("spec", ["RHS", "ECS", "EE"])
def test_end_phase_roll_specials(spec: str) -> None:
    # an overheating unit with the special against a steady opponent: exact vs MC, and the
    # special changes the result
    hot = card("Hot", armor=3, structure=4, damage=(3, 3, 2, 0), ov=2, specials=spec)
    foe = card("Foe", armor=4, structure=4, damage=(2, 2, 2, 0))
    params = dict(a=hot, b=foe, range="short", policy_a="max")
    assert _check([params], trials=6000, seed=3) == 4
    plain = MODEL.exact(MODEL.scenario({**params, "a": card("Hot", armor=3, structure=4,
                                                            damage=(3, 3, 2, 0), ov=2)}))
    ex = MODEL.exact(MODEL.scenario(params))
    assert plain is not None and ex is not None
    assert abs(ex["p_win_a"][0] - plain["p_win_a"][0]) > 1e-6
