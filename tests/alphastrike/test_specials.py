"""Specials of the seed page (rules reference 6.6: HT, MEL, OVL; CASE family in
test_crits.py), physical attacks (6.7, D13, D14) and minimal damage (6.2)."""

from __future__ import annotations

import numpy as np
import pytest
from as_helpers import card, exact, scenario


# -- HT: at most 2 heat per turn; no heat scale -> extra damage (test vector 7.19) ---------
def test_ht_cap_two_per_turn() -> None:
    ex = exact(unit=card(armor=20, structure=10), policy="never", turns=1,
               incoming=["tn=2,dmg=0,ht=2", "tn=2,dmg=0,ht=2"])
    assert ex["p_heat_2"][0] == 1.0                 # +2 total, not +4
    ex = exact(unit=card(armor=20, structure=10), policy="never", turns=1,
               incoming=["tn=2,dmg=0,ht=1"])
    assert ex["p_heat_1"][0] == 1.0


def test_ht_without_heat_scale_becomes_damage() -> None:
    """A combat vehicle hit by two HT2 attacks: each attack's damage +2, no cap."""
    cv = card(type="CV", armor=6, structure=2, ov=0)
    one = exact(unit=cv, policy="never", turns=1, incoming=["tn=2,dmg=1,ht=2"] * 2)
    assert one["p_destroyed_by"][0] == 0.0           # 3 + 3 = 6: armor only
    assert one["p_heat_0"][0] == 1.0                 # no heat scale: heat stays 0
    two = exact(unit=card(type="CV", armor=4, structure=2, ov=0), policy="never", turns=1,
                incoming=["tn=2,dmg=1,ht=2"] * 2)
    assert two["p_destroyed_by"][0] == 1.0           # 6 = armor 4 + structure 2
    scn = scenario(unit=cv, incoming=["tn=2,dmg=1,ht=2"])
    assert scn.incoming[0].hit_dmg == 3 and scn.incoming[0].hit_heat == 0
    assert scn.ov_cap == 0


def test_ht_only_on_successful_attacks() -> None:
    ex = exact(unit=card(armor=20, structure=10), policy="never", turns=1,
               incoming=["tn=8,dmg=0,ht=2"])
    assert ex["p_heat_2"][0] == pytest.approx(15 / 36)


def test_fire_resistant_ignores_ht_heat() -> None:
    scn = scenario(unit=card(specials="FR"), incoming=["tn=2,dmg=1,ht=2"])
    assert scn.incoming[0].hit_heat == 0 and scn.incoming[0].hit_dmg == 1


# -- OVL: OV also at Long (6.2) ------------------------------------------------------------
@pytest.mark.parametrize("band,ovl,usable", [("short", False, 3), ("medium", False, 3),
                                             ("long", False, 0), ("long", True, 3),
                                             ("extreme", True, 0)])
def test_ovl_bands(band, ovl, usable) -> None:
    scn = scenario(unit=card(specials="OVL" if ovl else "", damage=(4, 4, 4, 2)), range=band)
    assert scn.ov_cap == usable


def test_ovl_damage_and_heat_at_long() -> None:
    plain = exact(unit=card(), policy="max", range="long", turns=1)
    ovl = exact(unit=card(specials="OVL"), policy="max", range="long", turns=1)
    p = 6 / 36                                        # TN 4 + 4 + 2 = 10
    assert plain["expected_damage"][0] == pytest.approx(p * 4)
    assert plain["p_heat_0"][0] == 1.0                # fired without OV: holds 0
    assert ovl["expected_damage"][0] == pytest.approx(p * 7)
    assert ovl["p_heat_3"][0] == 1.0


# -- MEL and physical attacks (6.7, D13, D14) ----------------------------------------------
def test_melee_needs_mel_and_adds_one() -> None:
    from sim.errors import ConfigError

    with pytest.raises(ConfigError):
        scenario(unit=card(), physical="melee")
    mel = scenario(unit=card(size=3, specials="MEL"), physical="melee")
    std = scenario(unit=card(size=3, specials="MEL"), physical="standard")
    assert (mel.phys_dmg, std.phys_dmg) == (4, 3)


def test_physical_attack_when_holding_fire_cools_to_zero() -> None:
    """A physical-only turn is no weapon attack: heat drops to 0 (ref 6.4 edge case)."""
    ex = exact(unit=card(size=3, specials="MEL"), policy="hold", physical="melee",
               start_heat=3, turns=2, range="short")
    # TN: skill 4 + melee +0 (ASCE) + target 2 = 6 -> 26/36; heat does not apply (D14)
    np.testing.assert_allclose(ex["expected_damage"], [26 / 36 * 4] * 2)
    np.testing.assert_allclose(ex["p_heat_0"], [1.0, 1.0])


def test_d13_melee_modifier_and_d14_heat_on_physical() -> None:
    as13 = exact(unit=card(specials="MEL"), policy="hold", physical="melee", turns=1,
                 physical_mods="as2013")
    assert as13["expected_damage"][0] == pytest.approx(21 / 36 * 4)   # TN 7
    hot = exact(unit=card(specials="MEL"), policy="hold", physical="melee", turns=1,
                start_heat=2, physical_heat=True)
    assert hot["expected_damage"][0] == pytest.approx(15 / 36 * 4)    # TN 6 + 2


def test_shut_down_unit_makes_no_physical_attack() -> None:
    ex = exact(unit=card(specials="MEL"), policy="hold", physical="melee", turns=1,
               start_heat=4)
    assert ex["expected_damage"][0] == 0.0


# -- 0* minimal damage (6.2) ---------------------------------------------------------------
def test_minimal_damage_roll_expectation() -> None:
    c = card(damage=(1, 0, 0, 0), minimal=(False, True, False, False), ov=0)
    roll = exact(unit=c, policy="never", turns=1)
    assert roll["expected_damage"][0] == pytest.approx(15 / 36 * 0.5)   # 1D6 4+ deals 1
    one = exact(unit=c, policy="never", turns=1, minimal_damage="one")
    assert one["expected_damage"][0] == pytest.approx(15 / 36)
    zero = exact(unit=c, policy="never", turns=1, minimal_damage="zero")
    assert zero["expected_damage"][0] == 0.0
    assert zero["p_heat_0"][0] == 1.0


def test_unknown_specials_are_listed_not_simulated() -> None:
    scn = scenario(unit=card(specials="CASE,IF1,REAR1/1/-,XYZ"))
    assert scn.not_simulated == ("IF1", "REAR1/1/-", "XYZ")
    assert scn.ammo_mode == "case"


def test_protection_parameter_overrides_card_specials():
    """Reference 6.6 Ammo Hit: `protection` forces none / CASE / CASEII / ENE on any card."""
    from sim.alphastrike.model import MODEL

    base = {"ov": 0, "policy": "never", "turns": 6, "incoming": ["tn=2,dmg=3"]}
    modes = {p: MODEL.scenario({**base, "protection": p}).ammo_mode
             for p in ("card", "none", "CASE", "CASEII", "ENE")}
    assert modes == {"card": "destroy", "none": "destroy", "CASE": "case",
                     "CASEII": "immune", "ENE": "immune"}
    survived = {p: float(MODEL.exact(MODEL.scenario({**base, "protection": p}))
                         ["expected_turns_survived"][0]) for p in ("none", "CASE", "CASEII")}
    assert survived["none"] < survived["CASE"] <= survived["CASEII"]
    from sim.errors import ConfigError

    with pytest.raises(ConfigError, match="protection"):
        MODEL.scenario({**base, "protection": "XL"})
