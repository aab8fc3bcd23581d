"""Weapons and equipment known under MegaMek names btsim's tables lacked (issue 19): the Clan
Rotary AC/2 and its rounds, Clan improved heavy lasers (no to-hit modifier, explosive),
hyper-assault Gauss ammunition as 'Hyper-Assault Gauss Rifle/NN Ammo', 'Supercharger
(Clan)'. Synthetic units: the catalog Hunchback's text with slots edited."""

from __future__ import annotations

from pathlib import Path

from units_helpers import mtf_text

from sim.classic.damage_state.layout import build_layout
from sim.classic.fire.unit import fire_unit
from sim.classic.weapons import lookup_ammo, lookup_equipment, lookup_weapon
from sim.units.catalog import get_classic
from sim.units.mtf import read_mtf
from sim.units.usable import completeness, not_simulated

ARM = "Hand Actuator\nMedium Laser\n-Empty-\n-Empty-\n-Empty-\n"


def _unit(tmp_path: Path, slot: str, lines: int, listed: str) -> Path:
    """The Hunchback with its left-arm medium laser replaced by ``lines`` slots of ``slot``
    (listed as ``listed`` in its Weapons: block)."""
    text = mtf_text(get_classic("Hunchback HBK-4G"))
    assert ARM in text
    arm = "Hand Actuator\n" + f"{slot}\n" * lines + "-Empty-\n" * (4 - lines)
    text = text.replace(ARM, arm, 1).replace("Medium Laser, Left Arm", f"{listed}, Left Arm")
    p = tmp_path / "u.mtf"
    p.write_text(text)
    return p


def test_clan_improved_heavy_medium_laser_fires_and_explodes(tmp_path: Path) -> None:
    mech = read_mtf(_unit(tmp_path, "CLImprovedMediumHeavyLaser", 2,
                          "Improved Heavy Medium Laser"))
    assert completeness(mech) == "complete", not_simulated(mech)
    w = lookup_weapon("CLImprovedMediumHeavyLaser")
    assert w is not None and (w.damage, w.heat, w.to_hit_mod, w.explosion_damage) == (10, 7, 0, 5)
    assert w.key in {m.weapon.key for m in fire_unit(mech).mounts if m.weapon is not None}
    lay = build_layout(mech)
    assert [lay.items[i].explosion for i in lay.gauss_items] == [5]


def test_clan_rotary_ac2_and_its_rounds(tmp_path: Path) -> None:
    text = _unit(tmp_path, "CLRotaryAC2", 4, "Rotary AC/2").read_text().replace(
        "Left Torso:\nIS Ammo AC/20\n", "Left Torso:\nCLRotaryAC2 Ammo\n")
    (tmp_path / "u.mtf").write_text(text)
    mech = read_mtf(tmp_path / "u.mtf")
    assert completeness(mech) == "complete", not_simulated(mech)
    w = lookup_weapon("Rotary AC/2", "Clan", display=True)
    assert w is not None and (w.key, w.short, w.medium, w.long, w.slots, w.rate) == (
        "Clan Rotary AC/2", 8, 17, 25, 4, 6)
    assert [b.shots for b in mech.ammo_bins if b.ammo == "Clan Ammo Rotary AC/2"] == [45]


def test_hag_ammo_and_clan_supercharger_names() -> None:
    for n in (20, 30, 40):
        a = lookup_ammo(f"Hyper-Assault Gauss Rifle/{n} Ammo", "Clan")
        assert a is not None and a.key == f"Clan Ammo HAG {n}"
    eq = lookup_equipment("Supercharger (Clan)", "Clan")
    assert eq is not None and eq.kind == "supercharger"
