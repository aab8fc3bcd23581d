"""Issue 19 (every 'Mech a player fields): slot entries real MegaMek files carry that the
held-out import found unknown, each read into btsim's tables with its MegaMek facts: the
variable-speed pulse lasers (damage and to-hit by range bracket), the Magshot Gauss rifle
and its ammunition, one-shot and improved one-shot launchers (known, declared not
simulated), communications equipment written with its tons and variable-size cargo
(``Cargo:size:0.5``: no effect in a duel). Synthetic text: a built-in unit's file, edited."""

from __future__ import annotations

from units_helpers import mtf_text

from sim.classic.fire.scenario import build_scenario
from sim.classic.fire.unit import fire_unit
from sim.units import usable
from sim.units.catalog import get_classic
from sim.units.mtf import parse_mtf

_LT = "Left Torso:\nIS Ammo AC/20\nIS Ammo AC/20\n" + "-Empty-\n" * 10
_NEW_LT = ("Left Torso:\nIS Ammo AC/20\nIS Ammo AC/20\nISMediumVSPLaser\nISMediumVSPLaser\n"
           "ISMagshotGR\nISMagshotGR\nISMagshotGR Ammo\nCommunications Equipment (1 ton)\n"
           "Cargo:size:0.5\nISSRM6IOS\nISSRM6IOS\n-Empty-\n")


def _text() -> str:
    text = mtf_text(get_classic("Hunchback HBK-4G"))
    assert _LT in text
    text = text.replace(_LT, _NEW_LT, 1)
    return text.replace("Weapons:4\n", "Weapons:7\nMedium VSP Laser, Left Torso\n"
                        "Magshot, Left Torso\nSRM 6 (I-OS), Left Torso\n", 1)


def test_items_read_into_the_tables() -> None:
    mech = parse_mtf(_text(), "hbk.mtf")
    keys = [m.weapon for m in mech.weapon_mounts if m.location == "LT"]
    assert keys == ["IS Medium VSP Laser", "IS Magshot", "IS SRM 6 I-OS"]
    assert mech.unknown_equipment == ()
    assert [b.ammo for b in mech.ammo_bins if b.location == "LT"][-1] == "IS Ammo Magshot Gauss"
    assert ("Communications Equipment", "LT") in mech.equipment
    assert ("Cargo", "LT") in mech.equipment
    # the comms gear and the cargo have no effect in a duel (the unit stays complete for
    # them); the improved one-shot launcher is known and declared not simulated
    none = {i.name for i in usable.no_effect(mech)}
    assert {"Communications Equipment", "Cargo"} <= none
    [ios] = [i for i in usable.not_simulated(mech) if i.kind in usable.INCOMPLETE_KINDS]
    assert ios.name == "SRM 6 (I-OS)" and "one-shot" in ios.reason
    assert "weapon table" not in ios.reason


def _guns(r: int) -> dict[str, object]:
    mech = parse_mtf(_text(), "hbk.mtf")
    scn = build_scenario({"unit": fire_unit(mech), "gunnery": 4, "range": r, "turns": 1})
    return {g.key: g for g in scn.guns}


def test_vsp_laser_damage_and_to_hit_by_bracket() -> None:
    """MegaMek ISVariableSpeedPulseLaserMedium: 9/7/5 damage at 2/5/9; to-hit -3/-2/-1
    (ComputeToHit: -4 + the bracket's 1/2/3). Gunnery 4, target standing: TN 4 + range
    modifier 0/2/4 + the laser's own; the Magshot (2 damage, 3/6/9) fires beside it."""
    for r, dmg, tn in ((1, 9, 4 - 3), (4, 7, 4 + 2 - 2), (8, 5, 4 + 4 - 1)):
        guns = _guns(r)
        vsp = guns["IS Medium VSP Laser"]
        assert vsp.max_damage() == dmg, r
        assert int(vsp.tn_uncapped[0, 0]) == tn, r
    guns = _guns(1)
    assert guns["IS Magshot"].max_damage() == 2
    assert "IS SRM 6 I-OS" not in guns  # declared not simulated: never fires
