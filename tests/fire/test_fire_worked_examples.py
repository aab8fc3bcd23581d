"""Reference part 2, section 17: every worked example the fire model covers, exactly.

Examples 10, 11, 15 (engine critical heat) and 17 are damage-to-destruction and critical-hit
examples (section 14), outside this model; the fire model never damages the firing 'Mech."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from fire_helpers import hbk, timber_wolf

from sim.classic.fire import cluster as C
from sim.classic.fire import heat as H
from sim.classic.fire import markov
from sim.classic.fire import to_hit as TH
from sim.classic.fire.scenario import build_scenario
from sim.classic.fire.synthetic import synthetic_unit
from sim.classic.weapons import WEAPONS
from sim.dice import p_2d6_at_least_exact as P


def _gun(key: str, rng: int = 6, **params):
    ammo = WEAPONS[key].ammo
    unit = synthetic_unit([(key, "RA")], [(ammo, "RA", 100)] if ammo else [], sinks=30)
    scn = build_scenario({"unit": unit, "range": rng, **params})
    return scn, scn.guns[0]


def _mean(pmf: dict[int, Fraction]) -> Fraction:
    return sum((d * p for d, p in pmf.items()), Fraction(0))


def test_e1_lrm20_tn7() -> None:
    dist = C.distribution(20)
    assert {k: p for k, p in enumerate(dist) if p} == {
        6: Fraction(1, 12), 9: Fraction(1, 12), 12: Fraction(5, 9), 16: Fraction(7, 36),
        20: Fraction(1, 12)}
    assert C.expected_hits(20) == Fraction(457, 36)
    _, g = _gun("IS LRM 20")
    assert _mean(g.damage_pmf(7)) == Fraction(3199, 432)
    assert C.groups(16, 1, 5) == (5, 5, 5, 1)
    assert C.groups(9, 1, 5) == (5, 4)


def test_e2_artemis() -> None:
    dist = C.distribution(20, 2)
    assert {k: p for k, p in enumerate(dist) if p} == {
        9: Fraction(1, 36), 12: Fraction(7, 18), 16: Fraction(11, 36), 20: Fraction(5, 18)}
    assert P(7) * C.expected_hits(20, 2) == Fraction(3871, 432)


def test_e3_srm6_tn8() -> None:
    _, g = _gun("IS SRM 6")
    assert _mean(g.damage_pmf(8)) == Fraction(10, 3)
    assert C.expected_hits(6) == 4
    assert g.groups[1][5] == (2, 2, 2, 2, 2)


def test_e4_streak_all_or_nothing_no_heat_no_ammo_on_miss() -> None:
    _, g = _gun("IS Streak SRM 6")
    assert g.damage_pmf(8) == {0: Fraction(7, 12), 12: Fraction(5, 12)}
    unit = synthetic_unit([("IS Streak SRM 6", "RA")], [("IS Ammo Streak SRM-6", "RA", 15)],
                          sinks=0)
    # TN 8: gunnery 4 + medium range 2 + target moved 3 hexes (+1) + terrain light woods (+1)
    scn = build_scenario({"unit": unit, "range": 5, "target_hexes": 3,
                          "terrain": "light-woods", "turns": 1})
    assert int(scn.guns[0].tn[0, 0]) == 8
    ex = markov.curves(scn)
    assert abs(ex["expected_damage"][0] - 5) < 1e-12
    assert abs(ex["mean_heat"][0] - 4 * 5 / 12) < 1e-12          # heat only on a hit
    assert abs(ex["expected_ammo_left"][0] - (15 - 5 / 12)) < 1e-12


def test_e5_ultra_ac5() -> None:
    _, g = _gun("IS Ultra AC/5")
    assert g.rate == 2 and g.heat_of(2) == 2
    assert _mean(g.damage_pmf(7)) == Fraction(595, 144)
    assert g.jam_le[2] == 2                                    # natural 2: P = 1/36
    unit = synthetic_unit([("IS Ultra AC/5", "RA")], [("IS Ammo Ultra AC/5", "RA", 20)],
                          sinks=30)
    ex = markov.curves(build_scenario({"unit": unit, "range": 7, "turns": 2}))
    assert abs(ex["expected_ammo_left"][0] - 18) < 1e-12       # 2 rounds per turn


def test_e6_rotary_ac5() -> None:
    _, g = _gun("IS Rotary AC/5")
    assert g.rate == 6 and g.heat_of(6) == 6
    assert _mean(g.damage_pmf(6)) == Fraction(130, 9)
    assert g.jam_le[6] == 4                                    # P(roll <= 4) = 1/6


def test_e7_lbx_cluster_and_slug() -> None:
    w = WEAPONS["IS LB 10-X AC"]
    tn, _ = TH.weapon_base_tn(w, gunnery=4, distance=8, target_hexes=3, target_jumped=False,
                              terrain="clear", lbx_cluster=True)
    assert tn == 6
    scn, g = _gun("IS LB 10-X AC", rng=8, target_hexes=3, lbx_ammo="cluster")
    assert int(g.tn[0, 0]) == 6
    assert _mean(g.damage_pmf(6)) == Fraction(2951, 648)
    assert C.expected_hits(10) == Fraction(227, 36)
    assert g.groups[1][7] == (1,) * 7                          # 1-point pellets
    _, slug = _gun("IS LB 10-X AC", rng=8, target_hexes=3)
    assert int(slug.tn[0, 0]) == 7
    assert _mean(slug.damage_pmf(7)) == Fraction(35, 6)


def test_e8_shutdown_odds() -> None:
    def p_fail(avoid: int) -> Fraction:
        return 1 - P(avoid)

    assert p_fail(int(H.shutdown_avoid(18))) == Fraction(5, 18)
    assert p_fail(int(H.shutdown_avoid(26))) == Fraction(5, 6)
    assert int(H.shutdown_avoid(30)) == 13 and p_fail(13) == 1
    assert int(H.shutdown_avoid(13)) == 0
    assert p_fail(int(H.shutdown_avoid(18, True, 5))) == 0
    assert p_fail(int(H.shutdown_avoid(26, True, 5))) == Fraction(1, 6)
    assert p_fail(int(H.shutdown_avoid(26, True, 3))) == Fraction(1, 12)


def test_e9_hunchback_running_alpha() -> None:
    scn = build_scenario({"unit": hbk(), "range": 3, "moved": "run", "turns": 5})
    assert sum(g.heat_of(g.rate) for g in scn.guns) == 14
    assert scn.dissipation == 13
    ex = markov.curves(scn)
    np.testing.assert_allclose(ex["mean_heat"], [3, 6, 9, 12, 15])
    assert abs(ex["p_shutdown"][4] - 1 / 12) < 1e-12
    # at 15 the next turn has to-hit +2 and MP -3
    assert int(H.to_hit_mod(15)) == 2 and int(H.mp_loss(15)) == 3
    for moved, net in (("stand", 1), ("walk", 2)):
        e = markov.curves(build_scenario({"unit": hbk(), "range": 3, "moved": moved,
                                          "turns": 1}))
        assert e["mean_heat"][0] == net


def test_e12_heat_17_walk_4() -> None:
    assert int(H.to_hit_mod(17)) == 3
    walk = 4 - int(H.mp_loss(17))
    assert walk == 1 and (3 * walk + 1) // 2 == 2
    assert int(H.shutdown_avoid(17)) == 4 and int(H.ammo_avoid(17)) == 0


def test_e13_lrm10_at_3_hexes() -> None:
    unit = synthetic_unit([("IS LRM 10", "LT")], [("IS Ammo LRM-10", "LT", 12)], sinks=20)
    scn = build_scenario({"unit": unit, "range": 3, "moved": "walk", "target_hexes": 4,
                          "turns": 1})
    g = scn.guns[0]
    assert int(g.tn[0, 0]) == 10
    assert _mean(g.damage_pmf(10)) == Fraction(227, 216)


def test_e14_hunchback_in_water() -> None:
    scn = build_scenario({"unit": hbk(), "range": 3, "water": True, "turns": 1})
    assert scn.dissipation == 17
    ex = markov.curves(scn)
    assert ex["mean_heat"][0] == 0                       # 14 - 17 < 0
    assert H.dissipation(13, False, True, 4, "all") == 19  # C17 alternative: 13 + min(13, 6)


def test_e16_timber_wolf_alpha() -> None:
    scn = build_scenario({"unit": timber_wolf(), "range": 6, "turns": 1})
    assert sum(g.heat_of(g.rate) for g in scn.guns) == 50
    assert scn.dissipation == 34
    ex = markov.curves(scn)
    assert ex["mean_heat"][0] == 16
    assert abs(ex["p_shutdown"][0] - 1 / 12) < 1e-12
    assert int(H.to_hit_mod(16)) == 2 and int(H.mp_loss(16)) == 3
