"""Items that cannot act in a one-on-one duel on land (issue 19): torpedoes (water only),
UMUs, cargo, the C3 emergency master and turrets are declared ``none: ...`` with their
reason, so a unit carrying them stays complete. Synthetic units: the catalog Hunchback's
text with slots edited (``units_helpers.mtf_text``)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from units_helpers import mtf_text

from sim.classic.fire.unit import fire_unit
from sim.classic.weapons import lookup_equipment, lookup_weapon
from sim.units.catalog import get_classic
from sim.units.mtf import read_mtf
from sim.units.usable import completeness, no_effect, not_simulated

LT = "Left Torso:\nIS Ammo AC/20\nIS Ammo AC/20\n-Empty-\n-Empty-\n-Empty-\n-Empty-\n"


def _unit(tmp_path: Path, lt: list[str], arm_weapon: str | None = None) -> Path:
    """The Hunchback with its left torso's first six slots replaced by ``lt`` (padded with
    -Empty-) and, with ``arm_weapon``, its left-arm medium laser replaced by it."""
    text = mtf_text(get_classic("Hunchback HBK-4G"))
    assert LT in text
    text = text.replace(LT, "Left Torso:\n" + "".join(
        f"{s}\n" for s in (lt + ["-Empty-"] * 6)[:6]))
    if arm_weapon:
        text = text.replace("Medium Laser, Left Arm", f"{arm_weapon}, Left Arm").replace(
            "Hand Actuator\nMedium Laser\n", f"Hand Actuator\n{arm_weapon}\n", 1)
    p = tmp_path / "u.mtf"
    p.write_text(text)
    return p


def test_a_torpedo_launcher_never_fires_and_keeps_the_unit_complete(tmp_path: Path) -> None:
    mech = read_mtf(_unit(tmp_path, ["IS Ammo SRTorpedo-4", "IS Ammo AC/20"], "SRT 4"))
    assert completeness(mech) == "complete", not_simulated(mech)
    (item,) = [i for i in no_effect(mech) if i.kind == "weapon"]
    assert item.name == "SRT 4" and "underwater" in item.reason
    fu = fire_unit(mech)
    assert "SRT 4" not in {m.weapon.name for m in fu.mounts if m.weapon is not None}
    torp = [b for b in mech.ammo_bins if b.ammo == "IS Ammo SRTorpedo-4"]
    assert len(torp) == 1 and torp[0].shots == 25  # its bin still explodes (14.4)
    clan = lookup_weapon("LRT 15", "Clan", display=True)
    assert clan is not None and clan.key == "Clan LRT 15" and not clan.fires


@pytest.mark.parametrize("slot,kind", [
    ("ISUMU", "umu"), ("CLUMU", "umu"), ("Cargo:size:0.5", "cargo"), ("Cargo:SIZE:1.0", "cargo"),
    ("ISC3EmergencyMaster", "c3"), ("Liquid Storage (1 ton)", "cargo"), ("ISShoulderTurret", "turret"), ("ISQuadTurret", "turret")])
def test_no_effect_equipment_keeps_the_unit_complete(tmp_path: Path, slot: str,
                                                     kind: str) -> None:
    eq = lookup_equipment(slot, "Clan" if slot.startswith("CL") else "Inner Sphere")
    assert eq is not None and eq.kind == kind and eq.simulated.startswith("none:")
    mech = read_mtf(_unit(tmp_path, [slot]))
    assert completeness(mech) == "complete", not_simulated(mech)
    assert [i.name for i in no_effect(mech) if i.kind == "equipment"] == [eq.key]


def test_a_ppc_capacitor_is_read_and_named_not_simulated(tmp_path: Path) -> None:
    """Issue 19 item: the capacitor is a known item, not simulated (its reason says why)."""
    mech = read_mtf(_unit(tmp_path, ["PPC Capacitor"]))
    assert completeness(mech) == "incomplete"
    (item,) = [i for i in not_simulated(mech) if i.kind == "equipment"]
    assert item.name == "PPC Capacitor" and "+5 damage" in item.reason
    assert not mech.unknown_equipment


@pytest.mark.parametrize("structure,complete", [
    ("IS Endo-Composite", True), ("Clan Endo-Composite", True), ("Endo-Composite", True),
    ("IS Composite", True), ("IS Reinforced", True)])   # both simulated (test_structure_armor)
def test_endo_composite_structure_is_standard_structure(tmp_path: Path, structure: str,
                                                         complete: bool) -> None:
    text = _unit(tmp_path, []).read_text().replace("structure:IS Standard",
                                                   f"structure:{structure}")
    (tmp_path / "u.mtf").write_text(text)
    mech = read_mtf(tmp_path / "u.mtf")
    assert mech.internal == get_classic("Hunchback HBK-4G").internal
    assert (completeness(mech) == "complete") is complete, not_simulated(mech)


def test_laser_heat_sinks_are_double_heat_sinks(tmp_path: Path) -> None:
    """MegaMek's laser heat sink dissipates 2 like a double heat sink (2 Clan slots); its
    differences (water, darkness) do not arise in a land duel. The reader takes the header
    type ``Laser`` and its slots."""
    eq = lookup_equipment("Laser Heat Sink", "Clan")
    assert eq is not None and eq.kind == "double_heat_sink" and eq.slots == 2
    assert lookup_equipment("CLLaserHeatSink", "Clan") == eq
    base = get_classic("Hunchback HBK-4G")
    laser = fire_unit(replace(base, heat_sink_type="Laser"))
    assert laser.double_sinks and not fire_unit(base).double_sinks
