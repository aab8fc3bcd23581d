"""Options C15 (TacOps advanced determining critical hits) and C30 (Core-rules explosion
size), hand-worked on the Hunchback HBK-4G (reference-classic-combat.md 14.2, 14.4, 16)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest

from sim.classic.damage_rules import DamageRules, damage_rules
from sim.classic.damage_state import DamageModel, ExactChooser, build_layout, explode, fresh
from sim.classic.damage_state import state as st
from sim.classic.damage_state.apply import DETERMINING_BY_MOD, determining_probs
from sim.classic.hit_api import hit
from sim.errors import ConfigError
from sim.units.catalog import get_classic

HBK = "Hunchback HBK-4G"


def close(a: float, b: Fraction | float) -> bool:
    return abs(a - float(b)) < 1e-12


def test_determination_table_with_modifier() -> None:
    assert np.allclose(determining_probs(0), np.array([21, 9, 5, 1]) / 36)
    assert np.allclose(DETERMINING_BY_MOD[4], np.array([3, 7, 11, 15]) / 36)
    # +4: rolls 2-3 none, 4-5 one, 6-7 two, 8-12 the 12 result
    assert np.allclose(determining_probs(4), np.array([3, 7, 11, 15]) / 36)


def test_c15_advanced_criticals_on_an_arm() -> None:
    """17 points on the RA (armor 16): 1 reaches structure; +min((17-1)//5, 4) = +3, so a
    critical on 5+ (30/36) and the arm is blown off on 9+ (10/36); off: 15/36 and 1/36."""
    a = get_classic(HBK).armor["RA"]
    plain = hit(HBK, damage=a + 1, location="RA")
    adv = hit(HBK, damage=a + 1, location="RA", rules={"advanced_criticals": True})
    assert close(plain["p_critical"]["RA"], Fraction(15, 36))
    assert close(adv["p_critical"]["RA"], Fraction(30, 36))
    assert close(adv["p_blown_off"]["RA"], Fraction(10, 36))
    # a 1-point group gets no modifier
    one = hit(HBK, groups=[a, 1], location="RA", rules={"advanced_criticals": True})
    assert close(one["p_critical"]["RA"], Fraction(15, 36))


def _explode_lt_bin(rules: DamageRules, case: bool) -> tuple[np.ndarray, np.ndarray]:
    mech = get_classic(HBK)
    if case:
        mech = replace(mech, case_locations=("LT",))
    lay = build_layout(mech)
    b = next(i for i, bin_ in enumerate(lay.bins) if bin_[0] == 2)   # an LT bin
    dm = DamageModel.build(lay, rules)
    return explode(fresh(lay, 1), np.ones(1), dm, b, np.array([True]),
                   ExactChooser(lambda s: st.canonical(s, lay)))


def test_c30_core_explosion_with_case_keeps_the_torso() -> None:
    """A full AC/20 bin (5 x 20 = 100) behind CASE: TW destroys the LT (structure 12); the
    Core rules put 10 into its structure (2 left) and strip 10 of armor from the back (rear
    armor 4 -> 0): the front armor stays 20 unless a critical sets off the other bin."""
    S, w = _explode_lt_bin(damage_rules(), case=True)
    assert close(float(w @ (S[:, st.IS0 + 2] == 0)), 1)
    S, w = _explode_lt_bin(damage_rules(explosion_size="core"), case=True)
    standing = S[:, st.IS0 + 2] > 0
    assert standing.any()
    assert (S[standing, st.IS0 + 2] == 2).all()
    assert (S[standing, 2] == 20).all() and (S[:, 9] == 0).all()
    assert (S[:, st.CAUSE] == st.C_NONE).all()


def test_c30_core_explosion_without_case_spares_the_centre_torso() -> None:
    """Without CASE: TW 100 points destroy the HBK (E11); Core caps the structure damage at
    20: 12 destroy the LT and 8 reach the CT (structure 16), which survives the first bin."""
    S, w = _explode_lt_bin(damage_rules(), case=False)
    assert close(float(w @ (S[:, st.CAUSE] == st.C_AMMO)), 1)
    S, w = _explode_lt_bin(damage_rules(explosion_size="core"), case=False)
    p_dead = float(w @ (S[:, st.CAUSE] != st.C_NONE))
    assert 0 < p_dead < 1
    # the CT took the 8 points (more only when the second bin went off too)
    ct = S[:, st.IS0 + 1]
    assert (ct <= 8).all() and float(w @ (ct == 8)) > 0.5


def test_bad_values() -> None:
    with pytest.raises(ConfigError, match="explosion_size"):
        damage_rules(explosion_size="huge")


def test_c15_keeps_the_hits_own_damage_through_transfer() -> None:
    """11 points on a bare left arm with 5 structure left and a bare left torso: the arm goes,
    6 move on into the torso's structure. The torso's determination gets the hit's +2
    (min((11 - 1) // 5, 4)), not +1 for the 6 points that arrived: a critical on 6+."""
    from sim.classic.damage_state import apply_group

    lay = build_layout(get_classic(HBK))
    dm = DamageModel.build(lay, damage_rules(advanced_criticals=True))
    S = fresh(lay, 1)
    S[:, 4] = 0                      # LA armor
    S[:, st.IS0 + 4] = 5             # LA structure 5 of 8
    S[:, 2] = S[:, 9] = 0            # LT armor, front and rear
    S2, w = apply_group(S, np.ones(1), dm, np.array([4]), np.array([False]), np.array([11]),
                        np.array([False]), ExactChooser(lambda s: st.canonical(s, lay)))
    assert (S2[:, st.IS0 + 2] <= 6).all()        # the 6 points reached the structure
    lt_crit = float(w @ ((S2[:, st.CRIT] >> 2) & 1))
    assert close(lt_crit, Fraction(26, 36))
