"""Hardened armor (issue 19): each armor point stops two points of damage, half points
tracked (MegaMek ``TWDamageManager``), on every door: the rule functions' worked examples,
the damage state of ``btsim hit`` (armor shown rounded up; a start state in points), and the
compiled duel against the scalar oracle by distribution."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from classic_duel_helpers import HBK, WVR
from test_classic_duel_oracle import _compare

from sim.classic import equipment_rules as ER
from sim.classic import hit_api
from sim.classic.damage_state import state as st
from sim.classic.damage_state.layout import build_layout
from sim.classic.duel.scenario import build
from sim.classic.engine import compile as C
from sim.units.catalog import get_classic
from sim.units.usable import not_simulated


def _hardened(name: str = HBK):
    return replace(get_classic(name), armor_type="Hardened")


def test_hardened_armor_rule_worked_examples() -> None:
    """A 10-point location takes a 5: 7.5 points left (shown 8), nothing through; 7.5
    points stop 15 of a 20, 5 go on to the structure."""
    assert ER.armor_per_point("Hardened(Inner Sphere)") == 2
    assert ER.armor_per_point("Standard(Inner Sphere)") == ER.armor_per_point("") == 1
    assert ER.hardened_absorb(20, 5) == (15, 0)
    assert ER.hardened_absorb(15, 20) == (0, 5)
    assert [ER.armor_points_left(h, 2) for h in (15, 14, 1, 0)] == [8, 7, 1, 0]


def test_layout_and_hit_model_count_half_points() -> None:
    std, hard = get_classic(HBK), _hardened()
    assert build_layout(hard).armor_per_point == 2
    assert (build_layout(hard).armor == 2 * build_layout(std).armor).all()
    # 5 on the head (9 points): 6.5 left, shown 7; the MechWarrior is hit all the same
    r = hit_api.hit(hard, damage=5, location="HD")
    assert r["expected_armor_left"]["HD"] == 7 and r["expected_pilot_damage"] == 1
    assert hit_api.hit(std, damage=5, location="HD")["expected_armor_left"]["HD"] == 4
    # 20 on the left arm (16 points): 6 left, no structure damage (a standard arm: 0 left)
    r = hit_api.hit(hard, damage=20, location="LA")
    assert (r["expected_armor_left"]["LA"], r["expected_structure_left"]["LA"]) == (6, 8)
    assert hit_api.hit(std, damage=20, location="LA")["expected_armor_left"]["LA"] == 0
    # a start state names whole points: 3 points stop 6 damage, a 7 reaches the structure
    r = hit_api.hit(hard, damage=6, location="LA", state={"armor": {"LA": 3}})
    assert (r["expected_armor_left"]["LA"], r["expected_structure_left"]["LA"]) == (0, 8)
    r = hit_api.hit(hard, damage=7, location="LA", state={"armor": {"LA": 3}})
    assert abs(r["expected_structure_left"]["LA"] - 7 * 35 / 36) < 1e-9  # a 12 blows it off
    mc = hit_api.hit(hard, damage=5, location="HD", method="mc", trials=2000)
    assert mc["expected_armor_left"]["HD"] == 7


def test_compiled_duel_starts_with_half_points() -> None:
    scn = build({"unit_a": _hardened(), "unit_b": WVR, "range": 1})
    keys = C.situations(scn)[0]
    a = C._unit(scn.a, scn.b, scn, keys, 0, 0, 0)
    assert list(a["S0"][:3]) == [18, 52, 40]            # HD, CT, LT: twice the points
    # its damage, running MP, piloting modifier and TAC rule are all simulated (issue 19)
    assert not [i for i in not_simulated(_hardened()) if i.kind == "construction"]


def test_engine_matches_oracle_hardened_armor() -> None:
    """The hardened Hunchback against the Wolverine at 3 hexes: the same distribution of
    the turn each dies in (and causes) in the compiled engine and the scalar oracle; the
    hardened Hunchback outlives the standard one."""
    p = {"unit_a": _hardened(), "unit_b": WVR, "range": 3}
    _compare(p, 1200, 12000)
    from sim.oracles.classic_duel import scalar
    hard = scalar({**p, "turns": 12}, np.random.default_rng(5), 600)["dead_turn"][0]
    std = scalar({**p, "unit_a": HBK, "turns": 12}, np.random.default_rng(5), 600)[
        "dead_turn"][0]
    assert np.mean(hard == 0) > np.mean(std == 0)       # alive after 12 turns more often


def test_hardened_armor_costs_a_running_mp() -> None:
    """MegaMek ``Mek.getRunMP``: max(0, run - 1) with hardened armor, MASC's sprint too; the
    compiled engine reads it per unit (the oracle alike: the test below)."""
    assert ER.run_mp_loss("Hardened") == 1 and ER.run_mp_loss("Standard") == 0
    scn = build({"unit_a": _hardened(), "unit_b": WVR, "range": 3})
    keys = C.situations(scn)[0]
    assert C._unit(scn.a, scn.b, scn, keys, 0, 0, 0)["UP"][C.P_RUN_LESS] == 1
    assert C._unit(scn.b, scn.a, scn, keys, 1, 0, 0)["UP"][C.P_RUN_LESS] == 0
    sprint = C.sprint_table(scn)
    assert sprint[0, 1, 4] == ER.sprint_mp(4, True, False) - 1 == 7
    assert sprint[1, 1, 4] == 8


def test_engine_matches_oracle_hardened_running() -> None:
    p = {"unit_a": _hardened(), "unit_b": WVR, "range": 3, "moved_a": "run"}
    _compare(p, 1000, 10000)


def test_hardened_armor_adds_one_to_every_piloting_roll() -> None:
    """MegaMek ``Mek.addEntityBonuses``: +1 "Hardened Armor" on every PSR, read alike by the
    compiled engine, the NumPy duel kernel and the scalar oracle."""
    from sim.classic.duel import kernel as nk
    from sim.classic.engine import layout as L
    from sim.classic.engine.arrays import v2
    from sim.classic.engine.psr import pre_psr
    from sim.oracles.classic_duel import Mech, _pre

    scn = build({"unit_a": _hardened(), "unit_b": WVR, "range": 3, "turns": 1})
    comp = C.compile_scenario(scn)
    S0 = v2(comp.M, L.M_S0)
    assert [pre_psr(S0[u].copy(), comp.M, u) for u in (0, 1)] == [1, 0]
    fresh = S0[:, :st.n_columns(scn.a.layout)]
    assert int(nk.pre_psr(scn.a, fresh[:1].copy())[0]) == 1
    assert int(nk.pre_psr(scn.b, fresh[1:2, :st.n_columns(scn.b.layout)].copy())[0]) == 0
    assert _pre(Mech(scn.a, scn.duel_rules)) == 1 and _pre(Mech(scn.b, scn.duel_rules)) == 0


def test_a_tac_stopped_by_hardened_armor_is_rolled_at_minus_two() -> None:
    """MegaMek ``TWDamageManager``: 1 damage from the front, a 2 on the location roll (1/36)
    is a TAC on the CT; hardened armor stops the point, so the determination needs 10+
    (6/36) instead of 8+ (15/36). With the CT armor gone the point reaches the structure:
    no -2, two determinations (C9), beside the plain hits of a 7 (6/36)."""
    from fractions import Fraction

    hard = hit_api.hit(_hardened(), damage=1, side="front")["p_critical"]["CT"]
    std = hit_api.hit(get_classic(HBK), damage=1, side="front")["p_critical"]["CT"]
    assert abs(hard - float(Fraction(1, 36) * Fraction(6, 36))) < 1e-12
    assert abs(std - float(Fraction(1, 36) * Fraction(15, 36))) < 1e-12
    bare = hit_api.hit(_hardened(), damage=1, side="front", state={"armor": {"CT": 0}})
    want = Fraction(6, 36) * Fraction(15, 36) + Fraction(1, 36) * (1 - Fraction(21, 36) ** 2)
    assert abs(bare["p_critical"]["CT"] - float(want)) < 1e-12
