"""Issue 19 (every 'Mech a player fields): slot entries real MegaMek files carry that the
held-out import found unknown, each read into btsim's tables with its MegaMek facts: the
variable-speed pulse lasers (damage and to-hit by range bracket), the Magshot Gauss rifle
and its ammunition, one-shot and improved one-shot launchers (known; each fires its one
volley: tests/fire/test_one_shot.py), communications equipment written with its tons and variable-size cargo
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
    # them); the improved one-shot launcher is known and simulated (its one volley)
    none = {i.name for i in usable.no_effect(mech)}
    assert {"Communications Equipment", "Cargo"} <= none
    assert not [i for i in usable.not_simulated(mech) if i.kind in usable.INCOMPLETE_KINDS]


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
    assert guns["IS SRM 6 I-OS"].max_damage() == 12  # its one volley (fed by its own round)


_LA = ("Left Arm:\nShoulder\nUpper Arm Actuator\nLower Arm Actuator\nHand Actuator\n"
       "Medium Laser\n" + "-Empty-\n" * 7)


def _mrm_text(apollo: bool) -> str:
    """The Hunchback with an MRM 10 in the left arm (and its Apollo FCS right after, as
    MegaMek writes it) and a ton of MRM-10 rounds in the left torso."""
    text = mtf_text(get_classic("Hunchback HBK-4G"))
    assert _LA in text and _LT in text
    arm = ("Left Arm:\nShoulder\nUpper Arm Actuator\nLower Arm Actuator\nHand Actuator\n"
           "Medium Laser\nMRM 10\nMRM 10\n" + ("ISApollo\n" if apollo else "-Empty-\n")
           + "-Empty-\n" * 4)
    torso = "Left Torso:\nIS Ammo AC/20\nIS Ammo AC/20\nIS Ammo MRM-10\n" + "-Empty-\n" * 9
    text = text.replace(_LA, arm, 1).replace(_LT, torso, 1)
    return text.replace("Weapons:4\n", "Weapons:5\nMRM 10, Left Arm\n", 1)


def test_apollo_links_to_its_mrm() -> None:
    """Reference 10.3 (MRM row) / 11.2: an Apollo-linked MRM loses its +1 to-hit and rolls
    -1 on the cluster table; the unit is complete."""
    from fractions import Fraction

    from sim.classic.fire import cluster as C
    from sim.classic.fire.scenario import expected_damage

    plain, linked = (parse_mtf(_mrm_text(a), "hbk.mtf") for a in (False, True))
    [mrm] = [m for m in linked.weapon_mounts if m.weapon == "IS MRM 10"]
    assert mrm.artemis == "apollo" and usable.completeness(linked) == "complete"
    assert ("IS Apollo FCS", "LA") in linked.equipment
    guns = []
    for mech in (plain, linked):
        scn = build_scenario({"unit": fire_unit(mech), "gunnery": 4, "range": 3, "turns": 1})
        guns.append(next(g for g in scn.guns if g.key == "IS MRM 10"))
    g0, g1 = guns
    assert int(g1.tn[0, 0]) == int(g0.tn[0, 0]) - 1 == 4  # gunnery 4, short: +1 cancelled
    assert C.expected_hits(10, -1) < C.expected_hits(10, 0)
    assert list(g1.hits[1][2:]) == list(C.hits_by_roll(10, -1)[2:])
    assert list(g0.hits[1][2:]) == list(C.hits_by_roll(10, 0)[2:])
    hits1 = sum((C.PMF_2D6[t] * int(g1.hits[1][t]) for t in range(2, 13)), Fraction(0))
    assert hits1 == C.expected_hits(10, -1)
    assert expected_damage(g1, 4) == sum(
        (p for t, p in enumerate(C.PMF_2D6) if t >= 4), Fraction(0)) * C.expected_hits(10, -1)


def test_declared_items_resolve_with_their_reason() -> None:
    """Slot names of the held-out files resolve to rows that say what the duel does with
    them: torpedoes have no effect on land (they fire only in water), a PPC capacitor and a radical heat sink system
    are not simulated, turrets and a C3 emergency master have no effect in a duel."""
    from sim.classic.weapons import lookup_equipment, lookup_weapon

    for name, tech in (("SRT 4", "Inner Sphere"), ("CLSRT4", "Clan"), ("LRT 15", "Inner Sphere"),
                       ("CLLRT5", "Clan")):
        w = lookup_weapon(name, tech)
        assert w is not None and w.simulated.startswith("none: a torpedo"), name
    for name, prefix in (("PPC Capacitor", "no:"), ("Radical Heat Sink System", "no:"),
                         ("ISShoulderTurret", "none:"), ("ISQuadTurret", "none:"),
                         ("ISC3EmergencyMaster", "none:"),
                         ("Communications Equipment (3 tons)", "none:"),
                         ("Cargo:size:2.0", "none:")):
        eq = lookup_equipment(name)
        assert eq is not None and eq.simulated.startswith(prefix), name


def test_primitive_prototype_ppc_is_a_hot_ppc() -> None:
    """MegaMek ISPPCPrimitive: the PPC's 10 damage, minimum range 3 and 6/12/18, heat 15."""
    from sim.classic.weapons import lookup_weapon

    w, ppc = lookup_weapon("Primitive Prototype PPC"), lookup_weapon("ISPPC")
    assert w is not None and ppc is not None and w.fires
    assert (w.damage, w.min_range, w.short, w.medium, w.long, w.heat) == (
        ppc.damage, ppc.min_range, ppc.short, ppc.medium, ppc.long, 15)


def test_protomech_ac4_fires_with_its_rounds() -> None:
    """MegaMek CLProtoMechAC4: 4 damage, 1 heat, 5/10/15, no minimum range, fed by
    'Clan ProtoMech AC/4 Ammo'."""
    from sim.classic.weapons import AMMO, lookup_ammo_bin, lookup_weapon

    w = lookup_weapon("CLProtoMechAC4", "Clan")
    assert w is not None and w.fires and w.family == "ac"
    assert (w.damage, w.heat, w.min_range, w.short, w.medium, w.long) == (4, 1, 0, 5, 10, 15)
    hit = lookup_ammo_bin("Clan ProtoMech AC/4 Ammo", "Clan")
    assert hit is not None and AMMO[hit[0].key].feeds(w)
