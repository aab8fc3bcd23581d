"""Clan Streak LRMs (issue 19; MegaMek ``CLStreakLRM5/15/20``, ``StreakLRMWeapon``): a Streak
launcher with an LRM's rack, ranges and 5-point groups: every missile hits when the attack
hits, a round is spent only on a hit (10.3's Streak rule), read from the MegaMek file names."""

from __future__ import annotations

from fractions import Fraction

from sim import engine, testing
from sim.classic.fire.model import MODEL
from sim.classic.fire.scenario import build_scenario
from sim.classic.fire.synthetic import synthetic_unit
from sim.classic.weapons import lookup_ammo_bin, lookup_weapon


def test_streak_lrm_rows_and_names() -> None:
    w = lookup_weapon("CLStreakLRM15", "Clan")
    assert w is not None and (w.family, w.cluster, w.group, w.long, w.min_range) == (
        "streak", 15, 5, 21, 0)
    found = lookup_ammo_bin("Clan Streak LRM 15 Ammo", "Clan")
    assert found is not None and found[1] == 8 and found[0].feeds(w)


def test_streak_lrm_15_all_or_nothing_in_five_point_groups() -> None:
    """Gunnery 4 at 10 hexes (medium: +2), standing target: TN 6, P(hit) = 26/36; a hit is
    15 damage in three 5-point groups; a miss spends no round (8 rounds: 8 - 26/36 left)."""
    fu = synthetic_unit([("CLStreakLRM15", "LT")], [("Clan Streak LRM 15 Ammo", "LT", 8)],
                        tech_base="Clan")
    scn = build_scenario({"unit": fu, "gunnery": 4, "range": 10, "turns": 1})
    [g] = scn.guns
    assert g.streak and g.max_damage() == 15 and int(g.tn[0, 0]) == 6
    assert g.groups[1][15] == (5, 5, 5)
    frame = engine.simulate(MODEL, [{"unit": fu, "range": 10, "turns": 1}], trials=20_000,
                            seed=5, backend="sequential")
    testing.assert_mc_matches_exact(frame, metrics=["expected_damage", "expected_ammo_left"])
    p = Fraction(26, 36)
    assert abs(float(frame["expected_damage_exact"].iloc[0]) - float(15 * p)) < 1e-9
    assert abs(float(frame["expected_ammo_left_exact"].iloc[0]) - float(8 - p)) < 1e-9
