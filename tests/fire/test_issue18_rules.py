"""Issue 18 rule fixes in the fire model, with worked examples from
reference-classic-combat.md (10.3, 11.2, 16) and Monte Carlo within 4 SE of exact:

* one cluster-roll modifier (:func:`cluster.cluster_modifier`): ATM +2, Artemis IV/V, MRM
  Core -1, AMS -4 (a Streak the AMS engages rolls on the table);
* the target's anti-missile systems (``target_ams``; ``ams_engages``);
* C8: a heat-induced explosion behind CASE empties one bin, not the whole pool."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from fire_helpers import timber_wolf

from sim.classic.fire import cluster as C
from sim.classic.fire import kernel, markov
from sim.classic.fire.scenario import build_scenario
from sim.classic.fire.synthetic import synthetic_unit
from sim.classic.weapons import WEAPONS
from sim.dice import p_2d6_at_least_exact as P
from sim.oracles.fire import scalar

N = 60000


def _mc(scn, name: str, n: int = N, seed: int = 18) -> tuple[np.ndarray, np.ndarray]:
    """Monte Carlo mean and its standard error per turn."""
    st = kernel.simulate(scn, np.random.default_rng(seed), n).stats[name]
    m = st[:, 1] / st[:, 0]
    return m, np.sqrt(np.maximum(st[:, 2] / st[:, 0] - m * m, 0) / st[:, 0])


def _within(scn, name: str, exact: float, turn: int = 0) -> None:
    m, se = _mc(scn, name)
    assert se[turn] > 0
    assert abs(m[turn] - exact) <= 4 * se[turn], (name, m[turn], exact, se[turn])


def test_cluster_modifier_is_one_mechanism() -> None:
    W = WEAPONS
    assert C.cluster_modifier(W["Clan ATM 6"]) == 2
    assert C.cluster_modifier(W["Clan ATM 6"], ams=True) == -2
    assert C.cluster_modifier(W["IS LRM 20"]) == 0
    assert C.cluster_modifier(W["IS LRM 20"], artemis="iv") == 2
    assert C.cluster_modifier(W["IS LRM 20"], artemis="v") == 3
    assert C.cluster_modifier(W["IS LRM 20"], artemis="iv", ams=True) == -2
    assert C.cluster_modifier(W["Clan ATM 6"], artemis="iv") == 2       # C23: no stacking
    assert C.cluster_modifier(W["IS Streak SRM 6"], artemis="iv") == 0  # no effect on Streaks
    assert C.cluster_modifier(W["IS Streak SRM 6"], ams=True) == -4
    assert C.cluster_modifier(W["IS MRM 10"], mrm_to_hit="core") == -1
    with pytest.raises(ValueError, match="artemis"):
        C.cluster_modifier(W["IS LRM 20"], artemis="vi")
    # E2 (Artemis IV on an LRM 20 at TN 7) through the hook
    assert P(7) * C.expected_hits(20, C.cluster_modifier(W["IS LRM 20"], artemis="iv")) \
        == Fraction(3871, 432)


def test_atm6_at_tn4_is_473_54() -> None:
    """ATM built-in +2 (10.3, 11.2): rack 6 at +2 hits 43/9 on average (the 11.2 list), 2
    points per missile; TN 4 hits 11/12: 11/12 x 43/9 x 2 = 473/54."""
    assert C.expected_hits(6, 2) == Fraction(43, 9)
    unit = synthetic_unit([("CLATM6", "RA")], [("CLATM6 Ammo", "RA", 10)], sinks=30,
                          tech_base="Clan")
    scn = build_scenario({"unit": unit, "range": 5, "turns": 1})   # short range, no minimum
    g = scn.guns[0]
    assert int(g.tn[0, 0]) == 4
    exact = sum((d * p for d, p in g.damage_pmf(4).items()), Fraction(0))
    assert exact == Fraction(473, 54)
    assert abs(markov.curves(scn)["expected_damage"][0] - 473 / 54) < 1e-12
    _within(scn, "expected_damage", 473 / 54)


def _catapult():
    """Catapult CPLT-C1's weapons: 2 LRM 15 (arms), 4 Medium Laser; 15 single sinks."""
    return synthetic_unit([("LRM 15", "LA"), ("LRM 15", "RA"), ("Medium Laser", "LT"),
                           ("Medium Laser", "RT"), ("Medium Laser", "CT"),
                           ("Medium Laser", "CT")],
                          [("IS Ammo LRM-15", "LT", 8), ("IS Ammo LRM-15", "RT", 8)], sinks=15)


def _catapult_at_9(ams: int = 0, engages: str = "hit") -> Fraction:
    """Expected turn-1 damage at 9 hexes against a target with ``ams`` AMS: LRM 15 at TN 6
    (13/18), 19/2 hits, 25/4 when an AMS engages (11.2 list, -4); Medium Lasers at TN 8."""
    p_lrm, p_ml = P(6), P(8)
    base = 2 * p_lrm * Fraction(19, 2) + 4 * p_ml * 5
    cut = Fraction(19, 2) - Fraction(25, 4)
    if ams == 0:
        return base
    if ams >= 2:
        return base - 2 * p_lrm * cut
    if engages == "hit":          # the first LRM that hits (either one)
        return base - (1 - (1 - p_lrm) ** 2) * cut
    return base - p_lrm * cut      # the declared one, wasted on a miss


@pytest.mark.parametrize(("ams", "engages"), [(0, "hit"), (1, "hit"), (1, "declared"),
                                              (2, "hit")])
def test_catapult_against_ams_at_9_hexes(ams: int, engages: str) -> None:
    """The issue's worked check: 22.06 without AMS; one AMS: 19.06 (it engages an LRM that
    hits, MegaMek) or 19.71 (the declared one); two: 17.36."""
    exact = _catapult_at_9(ams, engages)
    assert float(_catapult_at_9(1, "hit")) == pytest.approx(19.056, abs=1e-3)
    assert float(_catapult_at_9(1, "declared")) == pytest.approx(19.708, abs=1e-3)
    scn = build_scenario({"unit": _catapult(), "range": 9, "turns": 1, "target_ams": ams,
                          "ams_engages": engages})
    assert abs(markov.curves(scn)["expected_damage"][0] - float(exact)) < 1e-9
    _within(scn, "expected_damage", float(exact))


def test_ams_forces_a_streak_onto_the_cluster_table() -> None:
    """Streak SRM 6 at TN 8: 5 without AMS (E4); an AMS engaging it: 5/12 x 2 x E[hits of
    rack 6 at -4] = 5/12 x 2 x 31/12; heat and ammunition still only on a hit."""
    unit = synthetic_unit([("IS Streak SRM 6", "RA")], [("IS Ammo Streak SRM-6", "RA", 15)],
                          sinks=30)
    p = {"unit": unit, "range": 5, "target_hexes": 3, "terrain": "light-woods", "turns": 1}
    assert C.expected_hits(6, -4) == Fraction(31, 12)
    exact = P(8) * 2 * Fraction(31, 12)
    scn = build_scenario({**p, "target_ams": 1})
    ex = markov.curves(scn)
    assert abs(ex["expected_damage"][0] - float(exact)) < 1e-12
    assert abs(ex["expected_ammo_left"][0] - (15 - 5 / 12)) < 1e-12
    _within(scn, "expected_damage", float(exact))
    assert abs(markov.curves(build_scenario(p))["expected_damage"][0] - 5) < 1e-12


def test_c8_one_bin_explodes_timber_wolf() -> None:
    """C8: the Timber Wolf's two 6-round LRM 20 bins (CASE) fed in slot order hold 4 and 6
    after a turn of fire (10 left); a heat explosion takes the fuller bin, 6 rounds (before:
    all 10). Heat 4 + 50 - 34 = 20 after turn 1: the bin explodes on 2D6 < 4 (1/12); the MGs
    are out of reach at 6 hexes, so the MG bin keeps its 100 rounds."""
    u = timber_wolf()
    lrm = next(p for p in u.pools if "LRM" in p.key)
    assert lrm.bins == (6, 6)
    assert (lrm.explosion_loss(10), lrm.explosion_loss(5), lrm.explosion_loss(12)) == (6, 5, 6)
    scn = build_scenario({"unit": u, "range": 6, "turns": 1, "start_heat": 4})
    ex = markov.curves(scn)
    assert ex["mean_heat"][0] == 20
    assert abs(ex["p_ammo_explosion_by"][0] - 1 / 12) < 1e-12
    exact = 100 + 10 - Fraction(1, 12) * 6
    assert abs(ex["expected_ammo_left"][0] - float(exact)) < 1e-12
    _within(scn, "expected_ammo_left", float(exact))


def test_oracle_matches_exact_with_ams_atm_and_case() -> None:
    """The scalar oracle (its own cluster reading, AMS choice and C8 bins) against the
    chain on a hot missile boat with ATM, Streak and CASE, firing at a target with AMS."""
    unit = synthetic_unit(
        [("LRM 15", "LA"), ("LRM 15", "RA"), ("Streak SRM 6", "LT"), ("CLATM6", "CT"),
         ("Medium Laser", "RT")],
        [("IS Ammo LRM-15", "LT", 8), ("IS Ammo LRM-15", "LT", 8),
         ("IS Ammo Streak SRM-6", "RT", 2), ("CLATM6 Ammo", "CT", 3)],
        sinks=10, case=("LT",))
    for engages in ("hit", "declared"):
        params = {"unit": unit, "range": 5, "turns": 4, "target_ams": 1,
                  "ams_engages": engages, "start_heat": 10}
        n = 1500
        got = scalar(params, np.random.default_rng(7), n)
        ex = markov.curves(build_scenario(params))
        for name, hist in (("expected_damage", "damage_hist"), ("mean_heat", "heat_hist")):
            v = np.arange(ex[hist].shape[1])
            var = ex[hist] @ v**2 - (ex[hist] @ v) ** 2
            assert np.all(np.abs(got[name] - ex[name]) <= 4 * np.sqrt(var / n) + 1e-9), name
        p = np.clip(ex["p_ammo_explosion_by"], 0, 1)
        assert np.all(np.abs(got["p_ammo_explosion_by"] - p)
                      <= 4 * np.sqrt(p * (1 - p) / n) + 1e-9)


def test_cli_target_ams(capsys: pytest.CaptureFixture[str]) -> None:
    """``btsim fire --target-ams N`` (the catalog Catapult CPLT-C1 at 9 hexes: 19.06)."""
    import json

    from sim.cli import main

    rc = main(["fire", "Catapult CPLT-C1", "--range", "9", "--turns", "1", "--target-ams",
               "1", "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert rc == 0 and doc["params"]["target_ams"] == 1
    assert abs(doc["turns"][0]["expected_damage"] - float(_catapult_at_9(1))) < 1e-9
    assert main(["fire", "Catapult CPLT-C1", "--target-ams", "9"]) == 2
    assert "target_ams" in capsys.readouterr().err
