"""The built-in catalog (issue 5): shipped data equals what the readers give for the shared
files, the generator reproduces it, lookups by name/alias/prefix, list_units and find."""

from __future__ import annotations

import importlib.util
from dataclasses import replace
from pathlib import Path

import pytest
from units_helpers import AS_CSV, BV_CSV, MTF_FILES, SHARED_UNITS, mtf_text, needs_shared

from sim.errors import UserError
from sim.units import catalog
from sim.units.bv import read_bv_csv, with_bv
from sim.units.catalog import (
    card_from_record,
    card_to_record,
    catalog_view,
    find,
    get_alphastrike,
    get_classic,
    list_units,
    mech_from_record,
    mech_to_record,
    with_catalog_bv,
)
from sim.units.mtf import read_mtf
from sim.units.mul import MUL_FILE, read_alphastrike_csv
from sim.units.tables import internal_structure, max_armor
from sim.units.types import LOCATIONS

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "sim" / "units" / "data"


def _load_tool():
    spec = importlib.util.spec_from_file_location("build_catalog",
                                                  REPO / "tools" / "build_catalog.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# ------------------------------------------------------------------ shipped == readers

@needs_shared
@pytest.mark.parametrize("path", MTF_FILES, ids=[p.stem for p in MTF_FILES])
def test_catalog_classic_equals_reader(path: Path) -> None:
    """Every .mtf unit is in the catalog with the same facts (all fields but the slot lists,
    line numbers and the source, which the catalog does not store), including the weapon
    mounts, ammunition bins, engine, heat sinks, equipment and the bv.csv Battle Value (and
    the Point Value of its MUL record, issue 19)."""
    from_file = with_bv(read_mtf(path), read_bv_csv(BV_CSV))
    shipped = get_classic(from_file.name)
    assert shipped == catalog_view(with_catalog_bv(from_file))
    assert shipped.pv is not None and shipped.pv_source == f"MUL record {shipped.mul_id}"
    assert shipped.weapon_mounts and all(m.line is None for m in shipped.weapon_mounts)
    assert [(m.weapon, m.location, m.rear) for m in shipped.weapon_mounts] == [
        (m.weapon, m.location, m.rear) for m in from_file.weapon_mounts]
    assert shipped.ammo_bins == tuple(replace(b, line=None) for b in from_file.ammo_bins)


@needs_shared
def test_catalog_cards_equal_reader() -> None:
    """Every alphastrike.csv row is in the catalog with the same card values, and the
    catalog has no card the CSV lacks."""
    cards = read_alphastrike_csv(AS_CSV)
    for card in cards:
        assert get_alphastrike(card.name) == replace(card, source=catalog.CATALOG_SOURCE)
    shipped = {e.card.name for e in catalog.entries() if e.card is not None}
    assert shipped == {c.name for c in cards}


@needs_shared
def test_catalog_bv_equals_bv_csv() -> None:
    """Issue 9: every bv.csv row is carried by its catalog 'Mech (value, source record, MUL
    id), and every catalog 'Mech with a row has it."""
    rows = read_bv_csv(BV_CSV)
    assert {r.name for r in rows} <= {e.classic.name for e in catalog.entries() if e.classic}
    for row in rows:
        mech = get_classic(row.name)
        assert (mech.bv, mech.bv_source, mech.bv_record) == (row.bv, row.source, row.mul_id)
        assert mech.mul_id == row.mul_id


@needs_shared
def test_generator_reproduces_shipped_files() -> None:
    """tools/build_catalog.py regenerates the shipped files byte for byte (run it after the
    shared data changes)."""
    files = _load_tool().build(SHARED_UNITS)
    assert set(files) == {catalog.CLASSIC_FILE, catalog.ALPHASTRIKE_FILE, MUL_FILE}
    for name, text in files.items():
        assert (DATA / name).read_text("utf-8") == text, f"{name} is stale; rerun the tool"


def test_generator_check_mode(tmp_path: Path) -> None:
    """--check exits 1 for missing/stale files and 0 once written (synthetic source)."""
    src = tmp_path / "units"
    (src / "mtf").mkdir(parents=True)
    mech = get_classic("Hatchetman HCT-3F")
    (src / "mtf" / "Hatchetman HCT-3F.mtf").write_text(mtf_text(mech))
    header = ("name,type,size,move,jump,tmm,armor,structure,dmg_s,dmg_m,dmg_l,ov,specials,"
              "pv,dmg_e,mul_move,mul_id,source_file\n")
    (src / "alphastrike.csv").write_text(header + 'X X-1,BM,1,16,0,3,2,2,1,1,0,0,,18,0,'
                                                  '"16""",1,x\n')
    tool = _load_tool()
    out = tmp_path / "out"
    args = ["--source", str(src), "--out", str(out)]
    assert tool.main([*args, "--check"]) == 1
    assert tool.main(args) == 0
    assert tool.main([*args, "--check"]) == 0
    text = (out / catalog.CLASSIC_FILE).read_text()
    assert "Synthetic fluff" not in text and "#" in text and 'name = "Hatchetman HCT-3F"' in text


def test_shipped_files_hold_no_mtf_text() -> None:
    """The catalog stores facts in its own schema: no licence header, fluff or slot lists."""
    text = (DATA / catalog.CLASSIC_FILE).read_text("utf-8")
    for banned in ("overview:", "capabilities:", "uuid:", "Fusion Engine", "-Empty-",
                   "systemmanufacturer", "<p>"):
        assert banned not in text


# ------------------------------------------------------------------ catalog contents

def test_catalog_covers_issue_units() -> None:
    """Every Classic 'Mech of the catalog also has its own Alpha Strike card (issue 9: every
    canonical 'Mech has one), joined on the MUL id, and a Battle Value."""
    frame = list_units()
    for name in ("Atlas AS7-D", "Hatchetman HCT-3F", "Loki (Hellbringer) Prime",
                 "Mad Cat (Timber Wolf) Prime", "Wolverine WVR-6R", "Locust LCT-1V"):
        assert get_classic(name).name == name
    classic = frame.loc[frame["classic"], "name"]
    assert len(classic) > 0 and bool(frame.loc[frame["classic"], "alphastrike"].all())
    for entry in catalog.entries():
        if entry.classic is not None:
            assert entry.card is not None and entry.card.mul_id == entry.classic.mul_id
            assert entry.classic.bv is not None and entry.classic.bv > 0
            assert entry.classic.bv_source
    assert get_classic("Hatchetman HCT-3F").bv == 854  # SOURCES.md 3 spot check (Sarna)


def test_catalog_armor_and_structure_sane() -> None:
    """Reference 5.1 on every catalog 'Mech: IS from the table, armor <= 2 x IS (head 9)."""
    for entry in catalog.entries():
        m = entry.classic
        if m is None:
            continue
        assert m.internal == internal_structure(m.tons)
        for loc in LOCATIONS:
            assert m.armor[loc] + m.armor.get(loc + "R", 0) <= max_armor(m.tons)[loc]


def test_loki_prime_card_from_catalog() -> None:
    """Issue 5: Loki (Hellbringer) Prime comes back with OV 3 and CASE (by any of its
    names)."""
    for name in ("Loki (Hellbringer) Prime", "Hellbringer Prime", "loki prime"):
        card = get_alphastrike(name)
        assert card.ov == 3 and card.has("CASE") and card.mul_id == 1929


def test_records_roundtrip() -> None:
    for entry in catalog.entries():
        if entry.classic:
            assert mech_from_record(mech_to_record(entry.classic)) == entry.classic
        if entry.card:
            assert card_from_record(card_to_record(entry.card)) == entry.card


# ------------------------------------------------------------------ lookup

@pytest.mark.parametrize("query,name", [
    ("Atlas AS7-D", "Atlas AS7-D"), ("atlas as7-d", "Atlas AS7-D"),
    ("  ATLAS   as7-D ", "Atlas AS7-D"), ("Timber Wolf Prime", "Mad Cat (Timber Wolf) Prime"),
    ("Mad Cat Prime", "Mad Cat (Timber Wolf) Prime"),
    ("Hellbringer Prime", "Loki (Hellbringer) Prime"), ("hatchet", "Hatchetman HCT-3F"),
    ("atlas", "Atlas AS7-D"),  # unique among units with Classic data
])
def test_get_classic_lookup(query: str, name: str) -> None:
    assert get_classic(query).name == name


def test_lookup_errors_name_candidates() -> None:
    with pytest.raises(UserError, match=r"ambiguous.*'Atlas AS7-D', 'Atlas AS7-K'"):
        get_alphastrike("atlas")
    with pytest.raises(UserError, match=r"did you mean 'Atlas AS7-D'"):
        get_classic("Atlsa AS7-D")
    with pytest.raises(UserError, match=r"no Classic data for 'Assassin ASN-101'"):
        get_classic("Assassin")
    with pytest.raises(UserError, match=r"ambiguous"):
        get_alphastrike("Loki")
    with pytest.raises(UserError, match=r"unknown Classic unit 'zzz'"):
        get_classic("zzz")
    with pytest.raises(UserError):
        get_classic("")


def test_paths(tmp_path: Path) -> None:
    """A name ending in .mtf is read from disk; get_alphastrike finds the catalog card by the
    file's MUL id; a one-row CSV gives its card."""
    mech = get_classic("Loki Prime")
    path = tmp_path / "My Loki.mtf"
    path.write_text(mtf_text(mech))
    from_file = get_classic(str(path))
    assert from_file.source == str(path) and from_file.slots["LA"][0] == "Shoulder"
    assert get_classic(path).tons == 65
    assert get_alphastrike(str(path)).ov == 3
    path.write_text(mtf_text(replace(mech, mul_id=None)))
    # no shipped card: the card converted from the file (issue 20)
    assert get_alphastrike(path).source == "converted"
    csv_path = tmp_path / "one.csv"
    csv_path.write_text("name,type,size,move,jump,tmm,armor,structure,dmg_s,dmg_m,dmg_l,ov,"
                        "specials,pv\nMy Unit,BM,2,10,0,2,4,4,3,3,1,1,\"HT1/1/-\",30\n")
    card = get_alphastrike(str(csv_path))
    assert card.name == "My Unit" and card.specials["HT"].values == (1, 1, None)


def test_list_units_and_find() -> None:
    frame = list_units()
    for col in ("name", "classic", "alphastrike", "tons", "walk_mp", "jump_mp", "as_size",
                "as_move", "as_armor", "as_structure", "as_dmg", "as_ov", "as_pv",
                "as_specials"):
        assert col in frame.columns
    assert frame["name"].is_unique and len(frame) >= 38
    row = frame.set_index("name").loc["Loki (Hellbringer) Prime"]
    assert (row["tons"], row["as_ov"], row["as_dmg"], row["as_move"]) == (65, 3, "4/4/4", '10"')
    assert frame.set_index("name").loc["Assassin ASN-101", "as_move"] == '14"/10"j'
    assert find("timber wolf") == ["Mad Cat (Timber Wolf) Prime", "Mad Cat (Timber Wolf) S"]
    assert list(list_units("LOKI")["name"]) == find("loki")
    assert len(find("")) == len(frame)


def test_generator_refuses_bv_rows_without_a_unit(tmp_path: Path) -> None:
    """A bv.csv row naming no .mtf file stops the generator (nothing silently dropped)."""
    src = tmp_path / "units"
    (src / "mtf").mkdir(parents=True)
    mech = get_classic("Hatchetman HCT-3F")
    (src / "mtf" / "Hatchetman HCT-3F.mtf").write_text(mtf_text(mech))
    (src / "alphastrike.csv").write_text(
        "name,type,size,move,jump,tmm,armor,structure,dmg_s,dmg_m,dmg_l,ov,specials,pv\n")
    (src / "bv.csv").write_text("name,mul_id,bv,source,second_source,agrees\n"
                                "Hatchetman HCT-3F,1410,854,s,,\nNobody X-1,5,100,s,,\n")
    with pytest.raises(SystemExit, match="no .mtf file for Nobody X-1"):
        _load_tool().build(src)
    (src / "bv.csv").write_text("name,mul_id,bv,source,second_source,agrees\n"
                                "Hatchetman HCT-3F,1410,854,s,,\n")
    text = _load_tool().build(src)[catalog.CLASSIC_FILE]
    assert "bv = 854" in text and 'bv_source = "s"' in text
