"""Damage and critical hits, rules reference 6.6 ('Mech table, every result) and the CASE,
CASEII and ENE specials (ref 6.6 specials, test vector 7.20)."""

from __future__ import annotations

import numpy as np
import pytest
from as_helpers import card, exact, scenario

from sim.alphastrike import tables as T
from sim.alphastrike.crits import apply_crit
from sim.alphastrike.rules import ASRules
from sim.alphastrike.scenario import _mp_tables
from sim.alphastrike.turn import Tables, decide, initial_state


def test_crit_table_probabilities() -> None:
    """'Mech column: ammo 1, engine 4, FC 6, none 8, weapon 10, MP 6, destroyed 1 (/36)."""
    want = np.array([8, 1, 4, 6, 10, 6, 1]) / 36
    np.testing.assert_allclose(T.CRIT_PROB, want)
    assert T.CRIT_MECH[2] == T.CRIT_AMMO and T.CRIT_MECH[12] == T.CRIT_DESTROYED
    assert T.CRIT_MECH[7] == T.CRIT_MP and T.CRIT_MECH[3] == T.CRIT_ENGINE == T.CRIT_MECH[11]


def _tu(n=1, dmg=5, pend=1, **kw):
    tu = {"eng": np.zeros(n, np.uint8), "fc": np.zeros(n, np.uint8),
          "wh": np.zeros(n, np.uint8), "mp": np.zeros(n, np.uint8),
          "dmg": np.full(n, dmg, np.uint8), "pend": np.full(n, pend, np.int16),
          "killed": np.zeros(n, bool)}
    for k, v in kw.items():
        tu[k] = np.full(n, v, tu[k].dtype)
    return tu


def _apply(code, ammo_mode="destroy", tu=None, case_damage=1):
    tu = _tu() if tu is None else tu
    again = apply_crit(np.array([code], np.uint8), np.array([True]), tu, ammo_mode,
                       case_damage, armor=4, total=10, caps=(5, 5, 5))
    return tu, bool(again[0])


def test_ammo_hit_destroys_without_case() -> None:
    tu, again = _apply(T.CRIT_AMMO)
    assert tu["killed"][0] and not again


def test_ammo_hit_case_extra_damage_and_reroll() -> None:
    tu, again = _apply(T.CRIT_AMMO, "case")
    assert not tu["killed"][0] and tu["pend"][0] == 2 and again   # +1 on structure: roll again
    # the extra point destroys the unit: no re-roll needed
    tu, again = _apply(T.CRIT_AMMO, "case", _tu(dmg=8, pend=1))
    assert tu["pend"][0] == 2 and not again


@pytest.mark.parametrize("mode", ["immune"])
def test_ammo_hit_caseii_ene_ignore(mode) -> None:
    tu, again = _apply(T.CRIT_AMMO, mode)
    assert not tu["killed"][0] and tu["pend"][0] == 1 and not again


def test_engine_hit_second_destroys() -> None:
    tu, _ = _apply(T.CRIT_ENGINE)
    assert tu["eng"][0] == 1 and not tu["killed"][0]
    tu, _ = _apply(T.CRIT_ENGINE, tu=tu)
    assert tu["eng"][0] == 2 and tu["killed"][0]


@pytest.mark.parametrize("code,key", [(T.CRIT_FC, "fc"), (T.CRIT_WEAPON, "wh"),
                                      (T.CRIT_MP, "mp")])
def test_counter_crits(code, key) -> None:
    tu, again = _apply(code)
    assert tu[key][0] == 1 and not tu["killed"][0] and not again


def test_unit_destroyed_and_no_crit() -> None:
    assert _apply(T.CRIT_DESTROYED)[0]["killed"][0]
    tu, _ = _apply(T.CRIT_NONE)
    assert not tu["killed"][0] and tu["eng"][0] == tu["fc"][0] == tu["wh"][0] == 0


# -- end to end: exact chain ---------------------------------------------------------------
def _p_dead_after_one_hit(specials: str) -> float:
    """Armor 0, Structure 10, one sure hit of 1 damage: P(destroyed) after turn 1."""
    ex = exact(unit=card(armor=0, structure=10, specials=specials), policy="hold", turns=1,
               incoming=["tn=2,dmg=1"])
    return float(ex["p_destroyed_by"][0])


def test_ammo_outcomes_end_to_end() -> None:
    assert _p_dead_after_one_hit("") == pytest.approx(2 / 36)        # ammo or "destroyed"
    assert _p_dead_after_one_hit("CASEII") == pytest.approx(1 / 36)  # only "destroyed"
    assert _p_dead_after_one_hit("ENE") == pytest.approx(1 / 36)
    # CASE: each ammo hit adds 1 structure damage and rolls again: destroyed on 12 at any
    # roll of the chain, or when 9 ammo hits in a row fill the structure
    q = 1 / 36
    want = q * (1 - q ** 9) / (1 - q) + q ** 9
    assert _p_dead_after_one_hit("CASE") == pytest.approx(want, rel=1e-12)


def test_crit_only_when_structure_is_damaged() -> None:
    ex = exact(unit=card(armor=4, structure=10), policy="hold", turns=5,
               incoming=["tn=2,dmg=1"])
    np.testing.assert_allclose(ex["p_destroyed_by"][:4], 0.0)        # armor absorbs 4 hits
    assert ex["p_destroyed_by"][4] == pytest.approx(2 / 36)


def test_each_structure_damaging_attack_rolls_once() -> None:
    # two sure hits of 1: the first strips the single armor point, the second rolls
    ex = exact(unit=card(armor=1, structure=10), policy="hold", turns=1,
               incoming=["tn=2,dmg=1", "tn=2,dmg=1"])
    assert ex["p_destroyed_by"][0] == pytest.approx(2 / 36)
    ex = exact(unit=card(armor=0, structure=10), policy="hold", turns=1,
               incoming=["tn=2,dmg=1", "tn=2,dmg=1"])
    # two rolls: destroyed by either (ammo or 12: 2/36 each) or by two engine hits
    p_two_engines = (4 / 36) ** 2
    assert ex["p_destroyed_by"][0] == pytest.approx(1 - (34 / 36) ** 2 + p_two_engines)


def test_damage_takes_effect_in_end_phase() -> None:
    """A unit destroyed this turn still makes its attack this turn (ref 6.2, seed)."""
    ex = exact(unit=card(), policy="never", turns=2, incoming=["tn=2,dmg=20"])
    assert ex["p_destroyed_by"][0] == 1.0
    assert ex["expected_damage"][0] == pytest.approx(15 / 36 * 4)
    assert ex["expected_damage"][1] == 0.0


def test_fire_control_adds_two_to_weapon_not_physical() -> None:
    scn = scenario(unit=card(specials="MEL"), physical="melee")
    tab = Tables.of(scn)
    for fc in range(1, scn.fc_cap + 1):
        idx = fc * tab.fc_mult
        assert tab.tn_weapon[idx] == tab.tn_weapon[0] + 2 * fc
        assert tab.tn_phys[idx] == tab.tn_phys[0]


def test_weapon_hits_step_damage_down_to_minimal_then_zero() -> None:
    """Weapon Hit: -1 damage per hit: 2 -> 1 -> 0* -> 0 (ref 6.2, 6.6)."""
    scn = scenario(unit=card(damage=(2, 2, 1, 0), ov=0), policy="never",
                   minimal_damage="one")
    tu = initial_state(scn, 4)
    tu["wh"] = np.array([0, 1, 2, 3], np.uint8)
    dec = decide(tu, scn, 1)
    assert dec.fired.tolist() == [True, True, True, False]   # at 0 it has no attack
    assert dec.dmg.tolist() == [2, 1, 1, 0]                  # 0* counts 1 under "one"
    scn0 = scenario(unit=card(damage=(2, 2, 1, 0), ov=0), policy="never",
                    minimal_damage="zero")
    assert decide(tu, scn0, 1).dmg.tolist() == [2, 1, 0, 0]
    roll = scenario(unit=card(damage=(2, 2, 1, 0), ov=0), policy="never")
    dec = decide(tu, roll, 1)
    assert dec.minimal.tolist() == [False, False, True, False]  # 1D6 4+ adds the point


def test_unit_without_damage_left_cools_to_zero() -> None:
    """No weapon attack possible -> it made no weapon attack -> heat 0 (ref 6.4 4b)."""
    ex = exact(unit=card(damage=(0, 0, 0, 0), ov=2), policy="max", start_heat=3, turns=1)
    assert ex["p_heat_0"][0] == 1.0 and ex["expected_damage"][0] == 0.0


@pytest.mark.parametrize("reading,tmm", [("halve", [5, 2, 1, 0]),
                                         ("minus1", [5, 4, 3, 2, 1, 0]),
                                         ("recompute", [5, 3, 2, 0, 0])])
def test_mp_hit_tmm_d17(reading, tmm) -> None:
    c = card(move=36, tmm=5)
    move, _, got = _mp_tables(c, ASRules().replace(mp_hit_tmm=reading))
    assert move[:5] == [36, 18, 9, 4, 2]   # halved, at least 2" lost
    # recompute (AS 2013): TMM from the remaining Move, 18" -> 3, 9" -> 2, 4" -> 0
    assert got[: len(tmm)] == tmm


def test_mp_hits_to_zero_move_make_the_unit_immobile() -> None:
    scn = scenario(unit=card(move=10, tmm=2))
    assert scn.mp_cap == 3                                    # 10" -> 5" -> 2" -> 0"
    assert [scn.tmod[0][k] for k in range(4)] == [2, 1, 0, -4]
