"""Ferro-lamellor armor, composite and reinforced structure (issue 19; MegaMek
``TWDamageManager.damageEntity``): a group striking a location with ferro-lamellor armor
deals floor(4/5) of its damage (cut to 0: nothing, no through-armor critical); composite
structure takes twice the damage, reinforced half of it rounded up, the rest converted back
when the location goes. Every door: the rule functions' worked examples, the damage state of
``btsim hit``, and the compiled duel against the scalar oracle by distribution."""

from __future__ import annotations

from dataclasses import replace

import pytest
from classic_duel_helpers import HBK, WVR
from test_classic_duel_oracle import _compare

from sim.classic import equipment_rules as ER
from sim.classic import hit_api
from sim.classic.damage_state.layout import build_layout
from sim.classic.duel.scenario import build
from sim.classic.engine import compile as C
from sim.units.catalog import get_classic
from sim.units.usable import completeness


def _unit(armor: str = "", structure: str = ""):  # noqa: ANN202 - an edited Hunchback
    m = get_classic(HBK)
    return replace(m, armor_type=armor or m.armor_type,
                   structure_type=structure or m.structure_type)


def test_rule_worked_examples() -> None:
    assert [ER.lamellor_damage(d, 5) for d in (1, 2, 5, 10, 12)] == [0, 1, 4, 8, 9]
    assert ER.lamellor_damage(10, 0) == 10
    # composite: 2 on 5 structure takes 4; 4 destroys it and 3 of the doubled 8 are left,
    # halved back to 1; reinforced: 9 takes 5 of 5 exactly (nothing left), 13 leaves 2 of
    # its halved 7, doubled back less the odd point: 3
    assert ER.structure_take(1, 5, 2) == (4, 0) and ER.structure_take(1, 5, 4) == (5, 1)
    assert ER.structure_take(2, 5, 9) == (5, 0) and ER.structure_take(2, 5, 13) == (5, 3)
    assert ER.structure_take(2, 3, 1) == (1, 0) and ER.structure_take(0, 5, 7) == (5, 2)
    assert ER.structure_take(1, 0, 6) == (0, 6)        # a location already gone: it all goes on
    assert [ER.structure_kind(t) for t in ("IS Composite", "IS Reinforced",
                                            "IS Endo-Composite", "Standard")] == [1, 2, 0, 0]
    assert ER.has_ferro_lamellor("Ferro-Lamellor(Clan)")


@pytest.mark.parametrize("armor,structure", [("Ferro-Lamellor(Clan)", ""),
                                             ("", "IS Composite"), ("", "IS Reinforced")])
def test_units_are_complete_and_layouts_carry_the_rule(armor: str, structure: str) -> None:
    m = _unit(armor, structure)
    assert completeness(m) == "complete"
    lay = build_layout(m)
    assert lay.lamellor == bool(armor) and lay.structure_kind == ER.structure_kind(structure)


def test_hit_model_ferro_lamellor() -> None:
    """The Hunchback's left arm (16 armor): a 5 leaves 12 (standard: 11); a 1 does nothing;
    with the armor gone the whole 5 reaches the structure (8: 3 left, a 12 on the
    determination, 1/36, blows the arm off)."""
    lam = _unit("Ferro-Lamellor(Clan)")
    assert hit_api.hit(lam, damage=5, location="LA")["expected_armor_left"]["LA"] == 12
    assert hit_api.hit(_unit(), damage=5, location="LA")["expected_armor_left"]["LA"] == 11
    r = hit_api.hit(lam, damage=1, location="LA")
    assert r["expected_armor_left"]["LA"] == 16 and r["p_any_critical"] == 0
    r = hit_api.hit(lam, damage=5, location="LA", state={"armor": {"LA": 0}})
    assert abs(r["expected_structure_left"]["LA"] - 3 * 35 / 36) < 1e-9
    # the head: a 1 is cut to nothing, the MechWarrior is not hurt
    assert hit_api.hit(lam, damage=1, location="HD")["expected_pilot_damage"] == 0
    assert hit_api.hit(_unit(), damage=1, location="HD")["expected_pilot_damage"] == 1


def test_hit_model_composite_and_reinforced_structure() -> None:
    """The bare left arm (8 structure): a 3 takes 6 of composite structure, 2 of
    reinforced (standard: 3), each arm blown off by a 12 (1/36); 20 on a bare reinforced
    arm: halved to 10, 8 destroy it, the 2 left doubled back: 4 reach the left torso's
    armor."""
    bare = {"armor": {"LA": 0}}
    left = {k: hit_api.hit(_unit(structure=k), damage=3, location="LA", state=bare)[
        "expected_structure_left"]["LA"] for k in ("IS Composite", "IS Reinforced", "")}
    assert abs(left["IS Composite"] - 2 * 35 / 36) < 1e-9
    assert abs(left["IS Reinforced"] - 6 * 35 / 36) < 1e-9
    assert abs(left[""] - 5 * 35 / 36) < 1e-9
    lt = get_classic(HBK).armor["LT"]
    r = hit_api.hit(_unit(structure="IS Reinforced"), damage=20, location="LA", state=bare)
    assert r["expected_structure_left"]["LA"] == 0 and r["expected_armor_left"]["LT"] == lt - 4
    # composite: doubled to 40, 8 destroy the arm, the 32 left halved back: 16 go on
    r = hit_api.hit(_unit(structure="IS Composite"), damage=20, location="LA", state=bare)
    assert lt >= 16 and r["expected_armor_left"]["LT"] == lt - 16


def test_compiled_duel_reads_the_rules() -> None:
    scn = build({"unit_a": _unit("Ferro-Lamellor(Clan)", "IS Reinforced"), "unit_b": WVR,
                 "range": 3})
    keys = C.situations(scn)[0]
    up = C._unit(scn.a, scn.b, scn, keys, 0, 0, 0)["UP"]
    assert (up[C.P_LAMELLOR], up[C.P_STRUCTURE]) == (1, 2)
    up = C._unit(scn.b, scn.a, scn, keys, 1, 0, 0)["UP"]
    assert (up[C.P_LAMELLOR], up[C.P_STRUCTURE]) == (0, 0)


@pytest.mark.parametrize("armor,structure", [("Ferro-Lamellor(Clan)", ""),
                                             ("", "IS Composite"), ("", "IS Reinforced")])
def test_engine_matches_oracle(armor: str, structure: str) -> None:
    """The edited Hunchback against the Wolverine at 3 hexes: the same distribution of the
    turn each dies in (and causes) in the compiled engine and the scalar oracle."""
    _compare({"unit_a": _unit(armor, structure), "unit_b": WVR, "range": 3}, 700, 12000)


def test_numpy_kernel_matches_oracle_lamellor() -> None:
    _compare({"unit_a": _unit("Ferro-Lamellor(Clan)", "IS Composite"), "unit_b": WVR,
              "range": 3, "tactic_a": "stand-and-fire", "tactic_b": "stand-and-fire"},
             1000, 6000, numpy_kernel=True)


def test_composite_dies_sooner_reinforced_later() -> None:
    """Against the same Wolverine (oracle, 12 turns): a composite Hunchback survives less
    often than the standard one, a reinforced one more often."""
    import numpy as np

    from sim.oracles.classic_duel import scalar

    def alive(structure: str) -> float:
        p = {"unit_a": _unit(structure=structure), "unit_b": WVR, "range": 3, "turns": 12}
        return float(np.mean(scalar(p, np.random.default_rng(5), 300)["dead_turn"][0] == 0))

    assert alive("IS Composite") < alive("") < alive("IS Reinforced")
