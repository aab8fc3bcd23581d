"""The .mtf reader (FORMAT.md section 1; reference 5.1 internal structure, 5.3 slots):
every shared file parses, spot checks from issue 5, the mtf2json oracle field by field,
spellings, unsupported body plans and malformed files with line numbers."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from units_helpers import MTF_FILES, SHARED_UNITS, mtf_text, needs_shared

from sim.errors import UserError
from sim.units import catalog
from sim.units.catalog import get_classic, mech_to_record
from sim.units.mtf import SLOT_COUNT, MtfError, parse_mtf, read_mtf
from sim.units.tables import INTERNAL_STRUCTURE, internal_structure, max_armor
from sim.units.types import LOCATIONS

REFERENCE = SHARED_UNITS.parents[1] / "rules" / "reference.md"


def _file(stem: str) -> Path:
    return SHARED_UNITS / "mtf" / f"{stem}.mtf"


@pytest.fixture(params=["file", "catalog"])
def unit(request):
    """Spot checks run on the shared .mtf files (when present) and on the shipped catalog."""
    def get(stem: str):
        if request.param == "file":
            if not MTF_FILES:
                pytest.skip(f"shared unit data not found at {SHARED_UNITS}")
            return read_mtf(_file(get_classic(stem).name))  # alias -> file name
        return get_classic(stem)
    return get


# ------------------------------------------------------------------ every file, oracle

@needs_shared
@pytest.mark.parametrize("path", MTF_FILES, ids=[p.stem for p in MTF_FILES])
def test_every_shared_file_parses_and_armor_within_max(path: Path) -> None:
    """Issue 5 proof: every file in shared/data/units/mtf parses; armor never exceeds
    2 x IS (head 9), front + rear for torsos (reference 5.1)."""
    mech = read_mtf(path)
    assert path.stem == mech.name or path.stem.replace("(", "").replace(")", "") == (
        mech.name.replace("(", "").replace(")", ""))
    limits = max_armor(mech.tons)
    for loc in LOCATIONS:
        total = mech.armor[loc] + mech.armor.get(loc + "R", 0)
        assert 0 <= total <= limits[loc], (loc, total)
    assert mech.internal == internal_structure(mech.tons)
    assert all(len(mech.slots[loc]) == SLOT_COUNT[loc] for loc in LOCATIONS)


_ORACLE_LOC = {"HD": "head", "CT": "center_torso", "LT": "left_torso", "RT": "right_torso",
               "LA": "left_arm", "RA": "right_arm", "LL": "left_leg", "RL": "right_leg"}


@needs_shared
@pytest.mark.parametrize("path", MTF_FILES, ids=[p.stem for p in MTF_FILES])
def test_matches_mtf2json_oracle(path: Path) -> None:
    """Field-by-field comparison with the independent GPL reader mtf2json (test-only oracle,
    FORMAT.md 3): mass, walk/jump MP, armor front/rear, structure pips, critical slots."""
    mtf2json = pytest.importorskip("mtf2json", reason="test oracle mtf2json not installed")
    ref = mtf2json.read_mtf(path)
    mech = read_mtf(path)
    assert mech.tons == ref["mass"]
    assert mech.walk_mp == ref["walk_mp"]
    assert mech.jump_mp == ref.get("jump_mp", 0)
    for loc, key in _ORACLE_LOC.items():
        arm = ref["armor"][key]
        if "front" in arm:
            assert mech.armor[loc] == arm["front"]["pips"], loc
            assert mech.armor[loc + "R"] == arm["rear"]["pips"], loc
        else:
            assert mech.armor[loc] == arm["pips"], loc
        assert mech.internal[loc] == ref["structure"][key]["pips"], loc
        oracle_slots = ref["critical_slots"][key]
        ours = list(mech.slots[loc]) + [None] * (len(oracle_slots) - SLOT_COUNT[loc])
        assert ours == [oracle_slots[str(k + 1)] for k in range(len(oracle_slots))], loc


# ------------------------------------------------------------------ spot checks (issue 5)

def test_atlas_armor_total_304(unit) -> None:
    """Issue 5 / FORMAT.md 1.3: Atlas AS7-D armor = 304 points."""
    atlas = unit("Atlas AS7-D")
    assert sum(atlas.armor.values()) == 304
    assert atlas.armor["CTR"] == 14 and atlas.armor["HD"] == 9
    assert (atlas.tons, atlas.walk_mp, atlas.run_mp, atlas.jump_mp) == (100, 3, 5, 0)
    assert "battle_fists_la" in atlas.quirks and "battle_fists_ra" in atlas.quirks


def test_hatchets(unit) -> None:
    """Issue 5: Hatchetman HCT-3F has a hatchet in the right arm (FORMAT.md 1.4: Axman too)."""
    hm = unit("Hatchetman HCT-3F")
    assert hm.physical_weapons == (("hatchet", "RA"),)
    assert hm.physical_weapon_location("hatchet") == "RA"
    assert unit("Axman AXM-1N").physical_weapon_location("hatchet") == "RA"
    assert unit("Atlas AS7-D").physical_weapons == ()


@pytest.mark.parametrize("stem", ["Catapult CPLT-C1", "JagerMech JM6-S", "Locust LCT-1V",
                                  "Loki (Hellbringer) Prime"])
def test_no_lower_arm_or_hand(unit, stem: str) -> None:
    """Issue 5 / FORMAT.md 1.4: no lower arm and no hand actuators on both arms."""
    mech = unit(stem)
    for arm in ("LA", "RA"):
        assert mech.missing_actuators(arm) == ("lower_arm", "hand")
        assert mech.has(arm, "shoulder") and mech.has(arm, "upper_arm")


def test_timber_wolf_no_hands_awesome_ra_no_hand(unit) -> None:
    """FORMAT.md 1.4: Timber Wolf has lower arms but no hands; Awesome RA lacks a hand."""
    tw = unit("Timber Wolf Prime")
    assert tw.missing_actuators("LA") == ("hand",) == tw.missing_actuators("RA")
    aw = unit("Awesome AWS-8Q")
    assert aw.missing_actuators("RA") == ("hand",) and aw.missing_actuators("LA") == ()


@pytest.mark.parametrize("stem", ["Atlas AS7-D", "Axman AXM-1N", "Banshee BNC-3E",
                                  "Commando COM-2D", "Grasshopper GHR-5H",
                                  "Hatchetman HCT-3F", "Hunchback HBK-4G", "Wolverine WVR-6R"])
def test_full_arms_and_legs(unit, stem: str) -> None:
    """FORMAT.md 1.4: full arms on these designs; bipeds always have all leg actuators."""
    mech = unit(stem)
    for limb in ("LA", "RA", "LL", "RL"):
        assert mech.missing_actuators(limb) == ()


def test_omni_clan_case_heat_sinks(unit) -> None:
    """Loki Prime: Clan OmniMek, 13 double heat sinks, CASE where its ammo is (Clan 'Mechs
    carry CASE without a slot, MegaMek Mek.addClanCase); Axman: ISCASE slot in LT."""
    loki = unit("Hellbringer Prime")
    assert (loki.omni, loki.tech_base, loki.clan_name) == (True, "Clan", "Hellbringer")
    assert (loki.heat_sinks, loki.heat_sink_type) == (13, "Double")
    assert loki.case_locations == ("CT", "RT")
    assert unit("Axman AXM-1N").case_locations == ("LT",)
    assert unit("Atlas AS7-D").case_locations == ()
    hm = unit("Hatchetman HCT-3F")
    assert (hm.heat_sinks, hm.heat_sink_type, hm.omni, hm.tsm) == (11, "Single", False, False)
    assert hm.mul_id == 1410


def test_weapons_list(unit) -> None:
    """FORMAT.md 1.4: three Medium Lasers in Axman RA are three weapons (Weapons: list)."""
    ax = unit("Axman AXM-1N")
    assert ax.weapons.count(("Medium Laser", "RA")) == 3
    assert len(ax.weapons) == 5
    assert "no_arms" in unit("Catapult CPLT-C1").quirks


# ------------------------------------------------------------------ tables

def _reference_rows() -> list[list[int]]:
    text = REFERENCE.read_text("utf-8")
    sec = text[text.index("### 5.1"):text.index("### 5.2")]
    return [[int(x) for x in m.group(1).split("|")]
            for m in re.finditer(r"^\|\s*(\d+(?:\s*\|\s*\d+){7})\s*\|\s*$", sec, re.M)]


@pytest.mark.skipif(not REFERENCE.is_file(), reason=f"rules reference not found: {REFERENCE}")
def test_internal_structure_table_matches_reference_5_1() -> None:
    """Reference 5.1: every row (HD, CT, side torso, arm, leg, IS total, max armor)."""
    rows = _reference_rows()
    assert [r[0] for r in rows] == list(range(20, 105, 5))
    for tons, hd, ct, st, arm, leg, total, max_total in rows:
        assert INTERNAL_STRUCTURE[tons] == (hd, ct, st, arm, leg)
        assert sum(internal_structure(tons).values()) == total
        assert sum(max_armor(tons).values()) == max_total


def test_ultralight_rows_are_megameks() -> None:
    """Reference 5.1 stops at 20 t; the 10 and 15 t rows (ultralight 'Mechs, real MegaMek
    files such as the 15 t Prey Seeker) are MegaMek ``Mek.autoSetInternal``'s."""
    assert INTERNAL_STRUCTURE[10] == (3, 4, 3, 1, 2)
    assert INTERNAL_STRUCTURE[15] == (3, 5, 4, 2, 3)
    assert sum(internal_structure(15).values()) == 3 + 5 + 2 * 4 + 2 * 2 + 2 * 3
    assert max_armor(15)["HD"] == 9 and max_armor(15)["CT"] == 10
    assert sorted(INTERNAL_STRUCTURE) == list(range(10, 105, 5))


@pytest.mark.parametrize("tons", sorted(INTERNAL_STRUCTURE))
def test_reader_internal_structure_every_tonnage(tons: int) -> None:
    """Reference 5.1: the reader derives IS from the mass line for every table row."""
    base = get_classic("Hatchetman HCT-3F")
    zero = {k: 0 for k in base.armor}
    mech = parse_mtf(mtf_text(replace(base, tons=tons, armor=zero)), "t.mtf")
    row = INTERNAL_STRUCTURE[tons]
    assert mech.internal == {"HD": row[0], "CT": row[1], "LT": row[2], "RT": row[2],
                             "LA": row[3], "RA": row[3], "LL": row[4], "RL": row[4]}


# ------------------------------------------------------------------ spellings

def _facts(mech):
    """The record of a 'Mech without the Battle and Point Value (not part of an .mtf file)."""
    rec = mech_to_record(mech)
    rec["internal"] = mech.internal
    for key in ("bv", "bv_source", "bv_record", "pv", "pv_source"):
        rec.pop(key, None)
    return rec


CATALOG_MECHS = [e.classic.name for e in catalog.entries() if e.classic is not None]


@pytest.mark.parametrize("name", CATALOG_MECHS)
def test_synthetic_roundtrip_new_and_old_spellings(name: str) -> None:
    """FORMAT.md 1.1/1.2: keys are case-insensitive, old (``Mass:``, ``Walk MP:``,
    ``Biped Omnimech``, ``LA Armor:``, CRLF) and new spellings read the same facts; fluff and
    unknown keys are ignored."""
    mech = get_classic(name)
    new = parse_mtf(mtf_text(mech), "new.mtf")
    old = parse_mtf(mtf_text(mech, header_case="old", newline="\r\n"), "old.mtf")
    assert _facts(new) == _facts(old) == _facts(mech)
    shouty = parse_mtf(mtf_text(mech).upper().replace("CHASSIS:" + mech.chassis.upper(),
                                                      "CHASSIS:" + mech.chassis), "u.mtf")
    assert shouty.tons == mech.tons and shouty.armor == mech.armor


def test_tsm_myomer_and_physical_weapon_names() -> None:
    """FORMAT.md 1.2 (myomer Triple-Strength -> TSM) and 1.4 (IS/CL-prefixed names,
    suffixes like (R)/(OMNIPOD) stripped before lookup)."""
    base = get_classic("Hatchetman HCT-3F")
    text = mtf_text(replace(base, myomer="Triple-Strength")).replace(
        "Hatchet\n", "ISHatchet (OMNIPOD)\n", 1)
    text = text.replace("Left Leg:\nHip", "Left Leg:\nHip\nTalons", 1)
    mech = parse_mtf(text, "tsm.mtf")
    assert mech.tsm and mech.myomer == "Triple-Strength"
    assert mech.physical_weapons == (("hatchet", "RA"), ("talons", "LL"))


# ------------------------------------------------------------------ rejected / malformed

@pytest.mark.parametrize("config", ["Tripod", "LAM", "QuadVee"])
def test_other_body_plans_rejected(config: str) -> None:
    """Issue 5: tripod, LAM and QuadVee files are recognised, 'not supported yet' (quads
    are read since issue 19)."""
    text = mtf_text(get_classic("Atlas AS7-D")).replace("Config:Biped", f"Config:{config}")
    with pytest.raises(MtfError, match=r"not supported yet") as info:
        parse_mtf(text, "x.mtf")
    assert info.value.line == text.split("\n").index(f"Config:{config}") + 1
    assert isinstance(info.value, UserError)


@pytest.mark.parametrize("config", ["Quad", "Quad OmniMek"])
def test_quad_config_needs_quad_blocks(config: str) -> None:
    """Issue 19: a quad is read, but a Config:Quad with biped arm blocks (or quad leg blocks
    on a biped) is refused naming the body plan."""
    text = mtf_text(get_classic("Atlas AS7-D")).replace("Config:Biped", f"Config:{config}")
    with pytest.raises(MtfError, match=r"location blocks of the body plan 'Quad'"):
        parse_mtf(text, "x.mtf")


def test_quad_block_on_a_biped_rejected() -> None:
    text = mtf_text(get_classic("Atlas AS7-D")).replace("Left Arm:", "Front Left Leg:")
    with pytest.raises(MtfError, match="body plan 'Biped'"):
        parse_mtf(text, "q.mtf")


def _atlas() -> str:
    return mtf_text(get_classic("Atlas AS7-D"))


def _line_of(text: str, start: str) -> int:
    return next(k for k, ln in enumerate(text.split("\n"), 1) if ln.startswith(start))


def test_unreadable_number_message() -> None:
    """Issue 5 bad input: file name, line number and what was expected."""
    text = _atlas().replace("LA armor:34", "LA armor:x")
    n = _line_of(text, "LA armor:")
    with pytest.raises(MtfError) as info:
        parse_mtf(text, "Atlas.mtf")
    assert str(info.value) == (f"Atlas.mtf:{n}: expected an integer armor value for "
                               "'LA armor', got 'x'")
    assert (info.value.filename, info.value.line) == ("Atlas.mtf", n)


def test_missing_mass() -> None:
    text = "\n".join(ln for ln in _atlas().split("\n") if not ln.startswith("mass:"))
    with pytest.raises(MtfError, match=r"^Atlas\.mtf: expected a 'mass:' line") as info:
        parse_mtf(text, "Atlas.mtf")
    assert info.value.line is None


@pytest.mark.parametrize("line,value", [("LA armor:", "35"), ("HD armor:", "10"),
                                        ("RTC armor:", "20")])
def test_armor_above_max(line: str, value: str) -> None:
    """Reference 5.1: armor <= 2 x IS (head 9); torso front + rear together (CT 47 + 20 >
    62)."""
    text = re.sub(rf"^{re.escape(line)}\d+", line + value, _atlas(), flags=re.M)
    with pytest.raises(MtfError, match=r"at most \d+ \(2 x internal structure") as info:
        parse_mtf(text, "Atlas.mtf")
    assert info.value.line == _line_of(text, line)


def test_too_many_slots_in_head() -> None:
    """Reference 5.3: the head has 6 real slots; a 7th non-empty entry is an error at its
    line (padding -Empty- lines are fine)."""
    text = _atlas()
    lines = text.split("\n")
    head = lines.index("Head:")
    lines[head + 7] = "Medium Laser"
    with pytest.raises(MtfError, match=r"at most 6 critical slots in location HD") as info:
        parse_mtf("\n".join(lines), "Atlas.mtf")
    assert info.value.line == head + 8


def test_too_many_slots_in_arm() -> None:
    lines = _atlas().split("\n")
    arm = lines.index("Left Arm:")
    lines.insert(arm + 1, "Medium Laser")  # 13 entries, the last one not empty
    lines[arm + 13] = "Small Laser"
    with pytest.raises(MtfError, match=r"at most 12 critical slots in location LA"):
        parse_mtf("\n".join(lines), "Atlas.mtf")


@pytest.mark.parametrize("old,new,pattern", [
    ("mass:100", "mass:73", r"mass of 10\.\.100 t"),
    ("mass:100", "mass:150", r"superheavy"),
    ("mass:100", "mass:heavy", r"integer mass"),
    ("walk mp:3", "walk mp:-1", r"walk MP"),
    ("heat sinks:20 Single", "heat sinks:many", r"heat sink line"),
    ("Weapons:7", "Weapons:9", r"9 weapon lines"),
    ("Medium Laser, Left Arm", "Medium Laser", r"weapon line 'Name, Location'"),
    ("Medium Laser, Left Arm", "Medium Laser, Left Wing", r"biped location name"),
    ("Head:", "Hed:", r"a 'Head:' critical-slot block"),
    ("chassis:Atlas", "chassis:", r"'chassis:' line with a value"),
])
def test_malformed(old: str, new: str, pattern: str) -> None:
    text = _atlas().replace(old, new, 1)
    with pytest.raises(MtfError, match=pattern):
        parse_mtf(text, "Atlas.mtf")


def test_duplicate_keys_and_blocks() -> None:
    text = _atlas().replace("mass:100", "mass:100\nmass:95")
    with pytest.raises(MtfError, match=r"one 'mass:' line \(first on line \d+\)"):
        parse_mtf(text, "Atlas.mtf")
    block = "\n".join(["Head:", "Life Support", "", ""])
    with pytest.raises(MtfError, match=r"one 'Head' block"):
        parse_mtf(_atlas() + block, "Atlas.mtf")


def test_read_mtf_missing_file(tmp_path: Path) -> None:
    with pytest.raises(MtfError, match=r"^nope\.mtf: expected a readable \.mtf file"):
        read_mtf(tmp_path / "nope.mtf")


def test_read_mtf_latin1_fluff(tmp_path: Path) -> None:
    """Old files may carry Latin-1 fluff; the reader falls back instead of failing."""
    path = tmp_path / "Old.mtf"
    path.write_bytes(_atlas().replace("notes:ignored", "notes:caf\u00e9").encode("latin-1"))
    assert read_mtf(path).tons == 100
