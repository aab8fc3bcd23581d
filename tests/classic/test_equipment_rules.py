"""Issue 19: rule functions of equipment the Classic duel does not read yet
(:mod:`sim.classic.equipment_rules`) and the physical-weapon declarations
(:data:`sim.classic.attacks.PHYSICAL_WEAPONS`), each against a worked example."""

from __future__ import annotations

from fractions import Fraction

import pytest

from sim.classic import attacks
from sim.classic import equipment_rules as E


def test_masc_failure_table_and_levels() -> None:
    """MegaMek: fails on 2D6 below 3, 5, 7, 11, then always; one level up per turn used,
    one down per turn without."""
    assert [E.masc_failure_target(k) for k in range(7)] == [3, 5, 7, 11, 13, 13, 13]
    assert E.p_masc_failure(0) == Fraction(1, 36)          # only a 2
    assert E.p_masc_failure(1) == Fraction(6, 36)          # 2, 3, 4
    assert E.p_masc_failure(3) == Fraction(33, 36)         # 2..10
    assert E.p_masc_failure(4) == 1
    levels, lvl = [], 0
    for used in (True, True, False, True, False, False, False):
        lvl = E.next_masc_level(lvl, used)
        levels.append(lvl)
    assert levels == [1, 2, 1, 2, 1, 0, 0]
    assert (E.sprint_mp(5, False, False), E.sprint_mp(5, True, False),
            E.sprint_mp(5, False, True), E.sprint_mp(5, True, True)) == (8, 10, 10, 13)
    with pytest.raises(ValueError):
        E.masc_failure_target(-1)


def test_tsm_heat_window() -> None:
    assert [E.tsm_active(h) for h in (0, 8, 9, 20)] == [False, False, True, True]
    assert [E.tsm_walk_bonus(h) for h in (8, 9)] == [0, 2]
    assert [E.tsm_damage_factor(h) for h in (8, 9)] == [1, 2]
    # a 70-ton hatchet at heat 9 with TSM: 14 x 2
    assert attacks.physical_weapon_damage("hatchet", 70, tsm=E.tsm_active(9)) == 28


@pytest.mark.parametrize("mode,after,extra", [
    ("dump", 4, 4), ("dump", 20, 12), ("safe", 13, 0), ("safe", 14, 12),
    ("efficient", 11, 0), ("efficient", 12, 12)])
def test_coolant_pod(mode: str, after: int, extra: int) -> None:
    """12 heat sinks: the pod removes up to 12 points, never below 0 heat."""
    assert E.coolant_pod_sinking(12, after, mode) == extra


def test_coolant_pod_bad_mode() -> None:
    with pytest.raises(ValueError, match="mode must be one of"):
        E.coolant_pod_sinking(10, 5, "later")


def test_coolant_pod_use_and_safe_heat() -> None:
    """MegaMek's heat phase: dump spends the pod at any heat (sinking nothing at -3 left);
    safe above 13 (9 with Inferno rounds aboard); efficient once the whole effect is used."""
    assert E.coolant_pod_used(12, -3, "dump") and E.coolant_pod_sinking(12, -3, "dump") == 0
    assert [E.coolant_safe_heat(False), E.coolant_safe_heat(True)] == [13, 9]
    assert not E.coolant_pod_used(12, 10, "safe")
    assert E.coolant_pod_used(12, 10, "safe", E.coolant_safe_heat(True))
    assert E.coolant_pod_sinking(14, 20, "efficient") == 14
    assert set(E.COOLANT_USE) == set(E.COOLANT_MODES) | {"never"}


def test_hardened_armor_piloting_and_tac_modifiers() -> None:
    """MegaMek ``Mek.addEntityBonuses`` (+1 "Hardened Armor" on piloting rolls) and
    ``TWDamageManager`` (-2 on the TAC of a group the hardened armor stopped whole)."""
    assert [E.armor_psr_mod(a) for a in ("Hardened(Inner Sphere)", "Standard", "")] == [1, 0, 0]
    assert E.unit_psr_mod("Small Cockpit", "Hardened") == 2
    assert E.unit_psr_mod("Standard Cockpit", "Ferro-Fibrous") == 0
    assert E.hardened_tac_mod("Hardened", True, True) == E.HARDENED_TAC_MOD == -2
    assert E.hardened_tac_mod("Hardened", True, False) == 0      # damage went through
    assert E.hardened_tac_mod("Hardened", False, True) == 0      # no TAC
    assert E.hardened_tac_mod("Standard", True, True) == 0


def test_plasma_heat_on_the_target() -> None:
    rifle, cannon = E.plasma_heat_pmf("IS Plasma Rifle"), E.plasma_heat_pmf("Clan Plasma Cannon")
    assert rifle == {k: Fraction(1, 6) for k in range(1, 7)}
    assert sum(cannon.values()) == 1 and cannon[7] == Fraction(6, 36) and min(cannon) == 2
    assert sum(h * p for h, p in cannon.items()) == 7
    assert [E.external_heat(x) for x in (-1, 9, 15, 24)] == [0, 9, 15, 15]


def test_narc_stealth_cockpit_gyro() -> None:
    assert E.narc_cluster_bonus(True, True) == 2
    assert E.narc_cluster_bonus(False, True) == E.narc_cluster_bonus(True, False) == 0
    assert E.narc_cluster_bonus(True, True, other_bonus=2) == 0  # C23: no stacking
    assert [E.stealth_to_hit(b, True, True) for b in ("short", "medium", "long")] == [0, 1, 2]
    assert E.stealth_to_hit("long", True, False) == 0 and E.stealth_heat(True, True) == 10
    assert E.stealth_heat(False, True) == 0
    assert E.cockpit_psr_mod("Small Cockpit") == 1 and E.cockpit_psr_mod("Standard") == 0
    assert [E.gyro_psr_mod("Standard", h) for h in (0, 1, 2)] == [0, 3, None]
    assert [E.gyro_psr_mod("Heavy Duty Gyro", h) for h in (0, 1, 2, 3)] == [0, 1, 3, None]


def test_physical_weapon_declarations() -> None:
    """MegaMek ClubAttackAction: hatchet -1, floor(W/5); sword -2, ceil(W/10) + 1;
    retractable blade -2, ceil(W/10)."""
    pw = attacks.PHYSICAL_WEAPONS
    assert {k: w.base_mod for k, w in pw.items()} == {"hatchet": -1, "sword": -2,
                                                      "retractable_blade": -2, "claws": 1}
    assert [attacks.physical_weapon_damage("sword", t) for t in (55, 60, 65)] == [7, 7, 8]
    assert [attacks.physical_weapon_damage("retractable_blade", t) for t in (55, 60)] == [6, 6]
    assert attacks.physical_weapon_damage("hatchet", 55) == 11
    assert attacks.spec("hatchet").base_mod == pw["hatchet"].base_mod


def test_layout_carries_the_gyro_kind() -> None:
    from dataclasses import replace

    from sim.classic.damage_state.layout import build_layout
    from sim.units.catalog import get_classic

    hbk = get_classic("Hunchback HBK-4G")
    assert build_layout(hbk).gyro_destroyed_at == 2
    assert build_layout(replace(hbk, gyro="Heavy Duty Gyro")).gyro_destroyed_at == 3
