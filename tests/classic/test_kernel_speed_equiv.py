"""The fast classic kernel stays exact in distribution (reference 0-4): every Monte Carlo
metric of a dozen varied scenarios lies within 4 SE of the exact twin, including every bin of
``damage_dist``; and the kernel's building blocks (byte dice, 16-bit words, counted PSRs) are
exact uniform choices."""

from __future__ import annotations

import numpy as np
import pytest

from sim import engine
from sim.aggregate import Aggregate
from sim.classic import fastdice as F
from sim.classic import kernel
from sim.classic.model import MODEL
from sim.dice import P2D6
from sim.testing import assert_mc_matches_exact

#: Scenarios covering every kernel path: single-group strikes (one / both arms, 1D6 and 2D6
#: tables, damage >= 20 PSRs, counter-push), multi-group strikes (charge 20+, DFA hit / miss,
#: self damage with head hits, 16-bit damage lanes, falls of more than two groups), prone and
#: immobile targets, TSM, damaged legs, aimed clubs, MegaMek rules, no pilot damage.
SCENARIOS: list[dict] = [
    {"attack": "punch", "tons": 70, "piloting": 4},
    {"attack": "punch", "tons": 100, "arm": "both", "tsm": True, "piloting": 3,
     "target_piloting": 6, "target_damaged": ["gyro"]},
    {"attack": "punch", "tons": 60, "arm": "both", "target_level": 1, "target_prone": True,
     "damaged": ["left-upper-arm"]},
    {"attack": "kick", "tons": 75, "piloting": 6, "damaged": ["upper-leg"],
     "target_damaged": ["gyro", "lower-leg"]},
    {"attack": "kick", "tons": 100, "tsm": True, "side": "rear", "target_prone": True,
     "rules": "megamek", "piloting": 7},
    {"attack": "kick", "tons": 50, "target_immobile": True, "target_piloting": 7},
    {"attack": "club", "tons": 80, "rules": "megamek", "side": "left", "tsm": True},
    {"attack": "hatchet", "tons": 60, "arm": "left", "terrain": "light-woods"},
    {"attack": "push", "tons": 45, "mutual_push": True, "target_piloting": 3},
    {"attack": "charge", "tons": 65, "hexes": 6, "target_tons": 70, "moved": "run"},
    {"attack": "charge", "tons": 90, "hexes": 3, "target_partial_cover": True,
     "target_tons": 100, "piloting": 2},
    {"attack": "dfa", "tons": 55, "target_tons": 50, "piloting": 3},
    {"attack": "dfa", "tons": 80, "target_prone": True, "piloting": 4, "target_piloting": 8},
    {"attack": "dfa", "tons": 30, "piloting": 5, "target_hexes": 5, "rules": "megamek"},
    {"attack": "dfa", "tons": 80, "piloting": 5, "target_hexes": 5},
    {"attack": "charge", "tons": 100, "hexes": 30, "target_tons": 100, "moved": "run",
     "pilot_damage": False, "side": "right"},
    {"attack": "club", "tons": 95, "club_table": "kick", "piloting": 2},
    {"attack": "punch", "tons": 20, "damaged": ["upper-arm", "lower-arm"], "piloting": 1,
     "rules": "megamek", "target_level": 1, "target_prone": True},   # 0-point punch, 2D6
]


def test_mc_matches_exact_on_varied_scenarios() -> None:
    """Every MC metric (and damage_dist bin) within 4 SE of the exact twin at 200k trials."""
    frame = engine.simulate(MODEL, SCENARIOS, trials=200_000, seed=2024, n_jobs=1)
    assert (frame["impossible"].isna()).all(), frame.loc[frame["impossible"].notna(),
                                                         "impossible"].tolist()
    table = assert_mc_matches_exact(frame)
    assert len(table) > 50 * len(SCENARIOS)


def test_kernel_paths_are_both_exercised() -> None:
    """The scenarios above reach the one-strike, the joint-code and the multi-group paths."""
    kinds = {type(kernel._prepared(MODEL.scenario(p))).__name__ for p in SCENARIOS}
    assert kinds == {"_One", "_Single", "_Multi"}


def test_byte_dice_are_exact_uniform_maps() -> None:
    """Section 0 (dice): the monotone byte maps give the exact 1D6 / 2D6 laws, and
    ``b >= THR_2D6[t]`` is exactly the event 2D6 >= t."""
    faces = np.bincount(F.FACE_1D6, minlength=7)[1:]
    assert (faces == F.ACCEPT // 6).all()
    totals = np.bincount(F.SORTED_2D6, minlength=13) / F.ACCEPT
    assert np.allclose(totals, P2D6)
    assert (np.diff(F.SORTED_2D6.astype(int)) >= 0).all()
    for t in range(15):
        assert F.thr_2d6(t) == np.count_nonzero(F.SORTED_2D6 < t)


def test_word_table_is_uniform_over_joint_outcomes() -> None:
    """A 16-bit word table maps equally many accepted words to every joint outcome."""
    sizes = [36, 6, 36]
    maps = [np.arange(36), np.arange(6), np.arange(36)]
    weights = [216, 36, 1]
    tab, accept = F.word_table(sizes, maps, weights, sentinel=7776)
    assert accept == 65536 // 7776 * 7776
    counts = np.bincount(tab[:accept], minlength=7776)
    assert (counts == accept // 7776).all()
    assert (tab[accept:] == 7776).all()


@pytest.mark.parametrize("tn", [2, 5, 8, 12, 13])
def test_count_below_matches_binomial(tn: int) -> None:
    """Counted PSR failures follow Binomial(n, P(2D6 < TN)) (4 SE)."""
    rng = np.random.default_rng(tn)
    n = 400_000
    k = F.count_below(rng, n, F.thr_2d6(tn))
    p = float(P2D6[:tn].sum()) if tn <= 12 else 1.0
    se = np.sqrt(n * p * (1 - p))
    assert abs(k - n * p) <= 4 * se + 1e-9


def _oracle_values(o: dict) -> dict[str, float]:
    """Per-trial metric values of one scalar-oracle trial (sim.oracles.classic)."""
    from sim.oracles.classic import LOCS

    v = {"expected_hits": o["hits"], "expected_damage": o["damage"],
         "expected_self_damage": o["self"],
         "expected_fall_damage_target": sum(o["t_fall"].values()),
         "expected_fall_damage_attacker": sum(o["a_fall"].values()),
         "expected_pilot_damage_target": o["t_pilot"],
         "expected_pilot_damage_attacker": o["a_pilot"]}
    for x in LOCS:
        v[f"expected_damage_{x}"] = o["loc"].get(x, 0)
        v[f"expected_fall_damage_target_{x}"] = o["t_fall"].get(x, 0)
        v[f"expected_fall_damage_attacker_{x}"] = o["a_fall"].get(x, 0)
    return v


@pytest.mark.parametrize("params", [
    {"attack": "charge", "tons": 65, "hexes": 6, "target_tons": 70, "moved": "run"},
    {"attack": "dfa", "tons": 30, "piloting": 5, "target_hexes": 5, "rules": "megamek"},
    {"attack": "dfa", "tons": 80, "piloting": 5, "target_hexes": 5},
    {"attack": "charge", "tons": 100, "hexes": 30, "target_tons": 100, "moved": "run"},
    {"attack": "punch", "tons": 100, "arm": "both", "tsm": True, "piloting": 3,
     "target_piloting": 6, "target_damaged": ["gyro"]},
    {"attack": "kick", "tons": 100, "tsm": True, "target_prone": True, "rules": "megamek",
     "piloting": 7},
], ids=["charge", "dfa-miss", "dfa-miss-5-groups", "charge-16-bit-lanes", "punch-both",
        "kick-2psr"])
def test_second_moments_match_scalar_oracle(params: dict) -> None:
    """Sections 2-4: the kernel's sums of squares (hence its standard errors) match the scalar
    oracle's per-trial E[X^2]: the joint of the groups at one location, and of the pilot's
    head hits with its fall (fallers taken from exchangeable trials), are exact."""
    import random

    from sim.oracles.classic import one_trial, strikes

    plan = MODEL.scenario(params)
    n_k, n_o = 400_000, 40_000
    agg = Aggregate.merge_all([kernel.sample(plan, engine.chunk_rng(5, 0, c), n_k // 4)
                               for c in range(4)])
    rnd = random.Random(11)
    sts = strikes(plan.scenario)
    rows = [_oracle_values(one_trial(plan.scenario, rnd, sts)) for _ in range(n_o)]
    checked = 0
    for name in rows[0]:
        x2 = np.array([r[name] for r in rows], dtype=np.float64) ** 2
        count, _, sq = agg.stats[name][0]
        k2 = sq / count
        se = np.sqrt(x2.var() / n_o * (1 + n_o / n_k))
        if se == 0:
            assert k2 == pytest.approx(x2.mean(), abs=1e-9) or k2 < 1e-3, name
            continue
        assert abs(k2 - x2.mean()) <= 5 * se, (name, k2, x2.mean(), se)
        checked += 1
    assert checked >= 10
