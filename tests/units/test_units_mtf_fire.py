"""What weapon fire needs from an .mtf file (issue 11; reference-classic-combat.md 10.1, 13.3,
14.4): weapon mounts from the critical slots with location and rear flag, ammunition bins,
engine, heat sinks in the engine and in slots, equipment, unknown entries never guessed."""

from __future__ import annotations

from collections import Counter

import pytest
from units_helpers import MTF_FILES, mtf_text, needs_shared

from sim.classic.weapons import AMMO, WEAPONS, lookup_weapon, require
from sim.errors import UserError
from sim.units.catalog import get_classic
from sim.units.mtf import MtfError, parse_mtf, read_mtf

ML, R = "IS Medium Laser", True

#: Weapon mounts per unit: (weapon key, location, rear), in file order. Written from the
#: designs' published loadouts (TRO 3039 / 3050), not from the reader's output.
EXPECTED = {
    "Atlas AS7-D": [(ML, "LA", False), (ML, "RA", False), ("IS LRM 20", "LT", False),
                    ("IS SRM 6", "LT", False), ("IS AC/20", "RT", False), (ML, "CT", R),
                    (ML, "CT", R)],
    "Awesome AWS-8Q": [("IS PPC", "RA", False), ("IS PPC", "LT", False),
                       ("IS PPC", "RT", False), ("Small Laser", "HD", False)],
    "Axman AXM-1N": [("IS Large Pulse Laser", "LA", False)] + [(ML, "RA", False)] * 3
    + [("IS AC/20", "CT", False)],
    "Banshee BNC-3E": [("IS AC/5", "LT", False), ("IS PPC", "RT", False),
                       ("Small Laser", "HD", False)],
    "Catapult CPLT-C1": [("IS LRM 15", "LA", False), ("IS LRM 15", "RA", False),
                         (ML, "LT", False), (ML, "RT", False), (ML, "CT", False),
                         (ML, "CT", False)],
    "Commando COM-2D": [(ML, "LA", False), ("IS SRM 4", "RA", False),
                        ("IS SRM 6", "CT", False)],
    "Grasshopper GHR-5H": [(ML, "LA", False), (ML, "RA", False), (ML, "LT", False),
                           (ML, "RT", False), ("IS Large Laser", "CT", False),
                           ("IS LRM 5", "HD", False)],
    "Hatchetman HCT-3F": [(ML, "LA", False), (ML, "RA", False), ("IS AC/10", "RT", False)],
    "Hunchback HBK-4G": [(ML, "LA", False), (ML, "RA", False), ("IS AC/20", "RT", False),
                         ("Small Laser", "HD", False)],
    "JagerMech JM6-S": [("IS AC/5", "LA", False), ("IS AC/2", "LA", False),
                        ("IS AC/5", "RA", False), ("IS AC/2", "RA", False), (ML, "LT", False),
                        (ML, "RT", False)],
    "Locust LCT-1V": [("IS Machine Gun", "LA", False), ("IS Machine Gun", "RA", False),
                      (ML, "CT", False)],
    "Loki (Hellbringer) Prime": [("Clan ER PPC", "LA", False), ("Clan ER PPC", "RA", False)]
    + [("Clan ER Medium Laser", "LT", False)] * 3
    + [("Clan Streak SRM 6", "RT", False), ("Clan Machine Gun", "RT", False),
       ("Clan Machine Gun", "RT", False), ("Clan AMS", "HD", False)],
    "Mad Cat (Timber Wolf) Prime": [
        ("Clan ER Large Laser", "LA", False), ("Clan ER Medium Laser", "LA", False),
        ("Clan ER Large Laser", "RA", False), ("Clan ER Medium Laser", "RA", False),
        ("Clan LRM 20", "LT", False), ("Clan Medium Pulse Laser", "LT", False),
        ("Clan LRM 20", "RT", False), ("Clan Machine Gun", "RT", False),
        ("Clan Machine Gun", "CT", False)],
    "Wolverine WVR-6R": [("IS AC/5", "RA", False), ("IS SRM 6", "LT", False),
                         (ML, "HD", False)],
}

#: (engine rating, type, Clan engine, heat sinks, type, in the engine, slot locations)
ENGINES = {
    "Atlas AS7-D": (300, "Fusion", False, 20, "Single", 12, 8),
    "Awesome AWS-8Q": (240, "Fusion", False, 28, "Single", 9, 19),
    "Axman AXM-1N": (260, "XL", False, 10, "Double", 10, 0),
    "Hunchback HBK-4G": (200, "Fusion", False, 13, "Single", 8, 5),
    "Loki (Hellbringer) Prime": (325, "XL", True, 13, "Double", 13, 0),
    "Mad Cat (Timber Wolf) Prime": (375, "XL", True, 17, "Double", 15, 2),
    "Locust LCT-1V": (160, "Fusion", False, 10, "Single", 6, 4),
}

STEMS = [p.stem for p in MTF_FILES]


@pytest.fixture(params=["file", "catalog"])
def unit(request):
    """Run on the shared files (when present) and on the shipped catalog."""
    def get(name: str):
        if request.param == "file":
            path = next((p for p in MTF_FILES if p.stem == name), None)
            if path is None:
                pytest.skip("shared unit data not found")
            return read_mtf(path)
        return get_classic(name)
    return get


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_weapon_mounts_per_unit(unit, name: str) -> None:
    """Issue 11: all 14 files read with their weapons (slots, not the Weapons: list): the
    Atlas's two CT lasers are rear mounts, the Timber Wolf's LRM 20s are Clan launchers (no
    minimum range), the Catapult carries two LRM 15s, the Axman's split AC/20 is one gun."""
    mech = unit(name)
    assert [(m.weapon, m.location, m.rear) for m in mech.weapon_mounts] == EXPECTED[name]
    assert mech.unknown_equipment == () and mech.notes == ()
    assert all(m.weapon in WEAPONS for m in mech.weapon_mounts)
    assert len(require(mech)) == len(EXPECTED[name])


@needs_shared
def test_every_shared_file_is_covered() -> None:
    assert sorted(STEMS) == sorted(EXPECTED)


@needs_shared
@pytest.mark.parametrize("path", MTF_FILES, ids=STEMS)
def test_slots_agree_with_weapons_list(path) -> None:
    """The Weapons: list, resolved by tech base (C20), names the same weapons in the same
    locations as the critical slots (it only lacks the rear flag)."""
    mech = read_mtf(path)
    listed = Counter((lookup_weapon(w, mech.tech_base, display=True).key, loc)
                     for w, loc in mech.weapons)
    assert listed == Counter((m.weapon, m.location) for m in mech.weapon_mounts)


def test_atlas_rear_lasers_and_timber_wolf_clan_lrms(unit) -> None:
    atlas = unit("Atlas AS7-D")
    rear = [m for m in atlas.weapon_mounts if m.rear]
    assert [(m.name, m.location) for m in rear] == [("Medium Laser", "CT")] * 2
    forward_heat = sum(WEAPONS[m.weapon].heat for m in atlas.weapon_mounts if not m.rear)
    assert forward_heat == 3 + 3 + 6 + 4 + 7  # 10.1: the rear pair adds no forward heat
    tw = unit("Mad Cat (Timber Wolf) Prime")
    lrms = [WEAPONS[m.weapon] for m in tw.weapon_mounts if "LRM" in (m.weapon or "")]
    assert [(w.key, w.min_range) for w in lrms] == [("Clan LRM 20", 0)] * 2
    assert [m.name for m in tw.weapon_mounts][4] == "CLLRM20"
    ax = unit("Axman AXM-1N")
    ac = ax.weapon_mounts[-1]
    assert (ac.weapon, ac.location, ac.split_location) == ("IS AC/20", "CT", "RT")


def test_ammo_bins(unit) -> None:
    """10.1/14.4: one bin per slot with its full shots; half-ton MG bins 100."""
    atlas = unit("Atlas AS7-D")
    assert [(b.ammo, b.location, b.shots) for b in atlas.ammo_bins] == [
        ("IS Ammo LRM-20", "LT", 6), ("IS Ammo LRM-20", "LT", 6), ("IS Ammo SRM-6", "LT", 15),
        ("IS Ammo AC/20", "RT", 5), ("IS Ammo AC/20", "RT", 5)]
    loki = unit("Loki (Hellbringer) Prime")
    assert [(b.ammo, b.location, b.shots) for b in loki.ammo_bins] == [
        ("Clan Ammo Streak SRM-6", "RT", 15), ("Clan Ammo MG", "RT", 100),
        ("Clan Ammo AMS", "CT", 24)]
    assert [(b.ammo, b.shots) for b in unit("Locust LCT-1V").ammo_bins] == [
        ("IS Ammo MG", 200)]
    for name in EXPECTED:
        mech = unit(name)
        for b in mech.ammo_bins:
            assert b.ammo in AMMO
            assert any(AMMO[b.ammo].feeds(WEAPONS[m.weapon]) for m in mech.weapon_mounts)


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_engine_and_heat_sinks_reference_13_3(unit, name: str) -> None:
    """13.3: engine-integrated sinks = min(rating / 25, the rest); HBK-4G 13 = 8 engine + 4
    legs + 1 CT; Loki 13 double all in the engine; Timber Wolf 17 = 15 + 1 per arm."""
    mech = unit(name)
    rating, etype, clan, total, kind, engine, slotted = ENGINES[name]
    assert (mech.engine_rating, mech.engine_type, mech.engine_clan) == (rating, etype, clan)
    assert (mech.heat_sinks, mech.heat_sink_type, mech.engine_heat_sinks) == (total, kind,
                                                                             engine)
    assert len(mech.heat_sink_locations) == slotted
    assert mech.engine_heat_sinks + len(mech.heat_sink_locations) == mech.heat_sinks
    assert mech.heat_dissipation == total * (2 if kind == "Double" else 1)
    if name == "Hunchback HBK-4G":
        assert Counter(mech.heat_sink_locations) == {"LL": 2, "RL": 2, "CT": 1}
    if name == "Mad Cat (Timber Wolf) Prime":
        assert mech.heat_sink_locations == ("LA", "RA")


def test_loki_equipment(unit) -> None:
    """10.2: the Loki's targeting computer, ECM and probe (LT) and A-Pods (legs) are known,
    hittable non-weapons; the TC is what 10.3's -1 needs."""
    loki = unit("Loki (Hellbringer) Prime")
    assert loki.has_equipment("Clan Targeting Computer")
    assert Counter(loki.equipment) == {("Clan Active Probe", "LT"): 1,
                                       ("Clan ECM Suite", "LT"): 1,
                                       ("Clan Targeting Computer", "LT"): 1,
                                       ("IS A-Pod", "LL"): 2, ("IS A-Pod", "RL"): 2}
    assert not unit("Atlas AS7-D").has_equipment("Clan Targeting Computer")
    assert unit("Axman AXM-1N").equipment == (("IS CASE", "LT"),)


# ------------------------------------------------------------------ never guessed

def _hunchback() -> str:
    return mtf_text(get_classic("Hunchback HBK-4G"))


def _line(text: str, value: str) -> int:
    return text.split("\n").index(value) + 1


def test_unknown_equipment_listed_with_line() -> None:
    """Issue 11: an unknown slot entry goes into unknown_equipment with its line and a note;
    the rest of the unit still reads."""
    text = _hunchback().replace("Left Arm:\nShoulder", "Left Arm:\nShoulder\nISWhizzBang", 1)
    mech = parse_mtf(text, "hbk.mtf")
    n = _line(text, "ISWhizzBang")
    assert mech.unknown_equipment == (("ISWhizzBang", "LA", n),)
    assert f"hbk.mtf:{n}: unknown equipment 'ISWhizzBang' in LA" in mech.notes[0]
    assert len(mech.weapon_mounts) == 4 and len(require(mech)) == 4


def test_weapon_missing_from_table_is_an_error_only_when_fired() -> None:
    """A slot entry the Weapons: list names but the table lacks is a mount with weapon=None:
    reading works, require() raises naming it."""
    text = _hunchback().replace("Left Arm:\nShoulder",
                                "Left Arm:\nShoulder\nISHeavyLargeLaser\nISHeavyLargeLaser", 1)
    text = text.replace("Weapons:4\n", "Weapons:5\nHeavy Large Laser, Left Arm\n", 1)
    mech = parse_mtf(text, "hbk.mtf")
    odd = [m for m in mech.weapon_mounts if m.weapon is None]
    assert [(m.name, m.location, m.line) for m in odd] == [
        ("ISHeavyLargeLaser", "LA", _line(text, "ISHeavyLargeLaser"))]
    assert mech.unknown_equipment == ()
    with pytest.raises(UserError, match=r"weapon 'ISHeavyLargeLaser' \(LA, line \d+\) is not"):
        require(mech)
    fine = tuple(m for m in mech.weapon_mounts if m.weapon is not None)
    assert len(require(mech, fine)) == 4


def test_partial_multi_slot_weapon_is_an_error() -> None:
    """Two PPC lines where a PPC takes three slots (and no neighbour holds the rest)."""
    text = _hunchback().replace("Left Arm:\nShoulder", "Left Arm:\nShoulder\nPPC\nPPC", 1)
    with pytest.raises(MtfError, match=r"IS PPC \(3 critical slots\).*got '2 lines of PPC'"
                       ) as info:
        parse_mtf(text, "hbk.mtf")
    assert info.value.line == _line(text, "PPC")


def test_split_weapon_pairs_with_a_neighbour() -> None:
    """An AC/20 with 8 slots in RT and 2 in CT is one gun (MegaMek split weapons)."""
    mech = get_classic("Axman AXM-1N")
    again = parse_mtf(mtf_text(mech), "ax.mtf")
    assert [(m.weapon, m.location, m.split_location) for m in again.weapon_mounts][-1] == (
        "IS AC/20", "CT", "RT")


@pytest.mark.parametrize("value,pattern", [
    ("abc", r"engine line '<rating> <type> Engine'"),
    ("999 Fusion Engine", r"engine rating in 10\.\.500"),
    ("300 Warp Engine", r"engine type \(Fusion, XL"),
    ("300 Warp Fusion Engine", r"engine type \(Fusion, XL"),
])
def test_engine_line_errors(value: str, pattern: str) -> None:
    text = _hunchback().replace("engine:200 Fusion Engine", f"engine:{value}", 1)
    with pytest.raises(MtfError, match=pattern) as info:
        parse_mtf(text, "hbk.mtf")
    assert info.value.line == _line(text, f"engine:{value}")


def test_engine_spellings() -> None:
    """FORMAT.md 1.2: ``180 Fusion Engine(IS)`` (old), ``325 XL (Clan) Engine`` (new)."""
    for value, expected in [("200 Fusion Engine(IS)", (200, "Fusion", False)),
                            ("200 XL (Clan) Engine", (200, "XL", True)),
                            ("200 Light Engine", (200, "Light", False)),
                            ("200 XL Engine(IS)", (200, "XL", False)),
                            # the kind before "Fusion" (a real file: Red Shift RDS-3A)
                            ("200 XL Fusion Engine", (200, "XL", False)),
                            ("200 Light Fusion Engine(IS)", (200, "Light", False)),
                            ("200 Fusion XXL Engine", (200, "XXL", False))]:
        mech = parse_mtf(_hunchback().replace("engine:200 Fusion Engine", f"engine:{value}"),
                         "hbk.mtf")
        assert (mech.engine_rating, mech.engine_type, mech.engine_clan) == expected
    text = "\n".join(ln for ln in _hunchback().split("\n") if not ln.startswith("engine:"))
    with pytest.raises(MtfError, match=r"a 'engine:' line"):
        parse_mtf(text, "hbk.mtf")


def test_heat_sink_count_the_slots_cannot_explain_is_a_note() -> None:
    """13.3: 13 single sinks in a 200-rated engine need 5 in slots; with one removed the
    reader keeps the header count and says so in a note with file and line."""
    text = _hunchback().replace("Heat Sink\n", "-Empty-\n", 1)
    mech = parse_mtf(text, "hbk.mtf")
    assert mech.heat_sinks == 13 and mech.engine_heat_sinks == 8
    assert len(mech.heat_sink_locations) == 4
    n = _line(text, "heat sinks:13 Single")
    assert mech.notes == (f"hbk.mtf:{n}: heat sinks: the header says 13 Single, but the slots "
                          "hold 4 and a 200-rated engine at most 8; counted as written (13)",)


def test_heat_sink_slots_of_the_other_type_are_a_note() -> None:
    """A single sink slot on a 'Mech whose header says double sinks is kept as written
    (header type) and reported, never silently reconciled."""
    text = _hunchback().replace("heat sinks:13 Single", "heat sinks:13 IS Double")
    mech = parse_mtf(text, "hbk.mtf")
    assert mech.heat_sink_type == "Double" and mech.heat_dissipation == 26
    assert any("a heat sink slot on a 'Mech whose header says Double" in n for n in mech.notes)
