"""Alpha Strike readers (FORMAT.md 2.2, 2.3): alphastrike.csv, MUL JSON records, move strings,
damage values and specials with nested parentheses (reference 6.1 TMM table, 6.6 specials)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from units_helpers import AS_CSV, SHARED_UNITS, needs_shared

from sim.errors import UserError
from sim.units.mul import (
    UnitDataError,
    parse_damage,
    parse_move,
    parse_specials,
    read_alphastrike_csv,
    read_mul_json,
)
from sim.units.tables import tmm_from_move
from sim.units.types import Special

# ------------------------------------------------------------------ the shared CSV


@needs_shared
def test_every_csv_row_loads() -> None:
    """Issue 5 proof: every row of alphastrike.csv loads (one card per row, names unique);
    move/jump agree with the MUL move string and TMM with the AS table (SOURCES.md 2;
    reference 6.1); size, armor, structure, OV and PV equal the row."""
    cards = read_alphastrike_csv(AS_CSV)
    with AS_CSV.open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert rows and len(cards) == len(rows)
    assert len({c.name for c in cards}) == len(rows)
    for card, row in zip(cards, rows, strict=True):
        assert card.name == row["name"]
        assert (card.size, card.armor, card.structure, card.ov, card.pv) == tuple(
            int(row[k]) for k in ("size", "armor", "structure", "ov", "pv"))
        assert (card.move, card.jump) == parse_move(row["mul_move"])
        assert card.tmm == tmm_from_move(card.move)
        assert card.specials_raw == row["specials"]
        assert card.mul_id == int(row["mul_id"])


@needs_shared
def test_loki_prime_card() -> None:
    """Issue 5 proof / reference 6.5: Loki (Hellbringer) Prime has OV 3 and CASE."""
    cards = {c.name: c for c in read_alphastrike_csv(AS_CSV)}
    loki = cards["Loki (Hellbringer) Prime"]
    assert loki.ov == 3 and loki.has("CASE")
    assert (loki.size, loki.move, loki.tmm, loki.armor, loki.structure) == (3, 10, 2, 4, 4)
    assert loki.damage == (4, 4, 4, 0) and loki.pv == 45
    assert set(loki.specials) == {"AMS", "CASE", "ECM", "OMNI", "PRB", "RCN"}
    atlas = cards["Atlas AS7-D"]
    assert atlas.specials["AC"].values == (2, 2, None)
    assert atlas.specials["REAR"] == Special("REAR", "REAR1/1/-", (1, 1, None))
    assassin = cards["Assassin ASN-101"]
    assert assassin.minimal == (False, False, True, False) and assassin.damage[2] == 0
    assert assassin.specials["IF"].values == ("0*",)


# ------------------------------------------------------------------ small parsers

@pytest.mark.parametrize("text,expected", [
    ('6"', (6, 0)), ('8"j', (8, 8)), ('14"/10"j', (14, 10)), ('12"t', (12, 0)),
    ('10" / 6"j', (10, 6)), ("2", (2, 0)),
])
def test_parse_move(text: str, expected: tuple[int, int]) -> None:
    """FORMAT.md 2.2 BFMove: '8"j' = 8" that may be jumped; 'X"/Y"j' = ground X, jump Y."""
    assert parse_move(text) == expected


@pytest.mark.parametrize("text", ["", "fast", '6"/x', None, '-4"'])
def test_parse_move_errors(text) -> None:
    with pytest.raises(UnitDataError):
        parse_move(text)


@pytest.mark.parametrize("text,expected", [
    ("0*", (0, True)), ("3", (3, False)), (2, (2, False)), ("-", (0, False)),
])
def test_parse_damage(text, expected) -> None:
    """FORMAT.md 2.2: 0* is minimal damage, kept distinct from 0."""
    assert parse_damage(text) == expected


@pytest.mark.parametrize("text", ["x", "1.5", "-2", True])
def test_parse_damage_errors(text) -> None:
    with pytest.raises(UnitDataError):
        parse_damage(text)


def test_parse_specials_tokens() -> None:
    """FORMAT.md 2.2 / reference 6.6: values ints, '0*', None for '-'; nested turrets;
    spaces of live records; artillery and C3 codes."""
    sp = parse_specials("HT1/1/-,IF0*,TUR(2/2/1,IF1),CT 3,ARTAIS-1,C3BSS,I-TSM,CASEII,"
                        "FLK0*/0*/0*,MHQ2,OVL")
    assert sp["HT"] == Special("HT", "HT1/1/-", (1, 1, None))
    assert sp["IF"] == Special("IF", "IF0*", ("0*",))
    assert sp["TUR"] == Special("TUR", "TUR(2/2/1,IF1)", (2, 2, 1),
                                (Special("IF", "IF1", (1,)),))
    assert sp["CT"] == Special("CT", "CT3", (3,))
    assert sp["ARTAIS"].values == (1,)
    assert sp["C3BSS"].values == () and sp["I-TSM"].values == ()
    assert sp["CASEII"].code == "CASEII"
    assert sp["FLK"].values == ("0*", "0*", "0*")
    assert sp["MHQ"].values == (2,) and sp["OVL"].values == ()
    assert list(sp) == ["HT", "IF", "TUR", "CT", "ARTAIS", "C3BSS", "I-TSM", "CASEII",
                        "FLK", "MHQ", "OVL"]
    assert parse_specials("TUR (4/5/5)")["TUR"].values == (4, 5, 5)
    assert parse_specials("") == {} == parse_specials(None)


@pytest.mark.parametrize("text", ["TUR(2/2/1", "IF1)", "3IF", "AC2/2/-,,(x)"])
def test_parse_specials_errors(text: str) -> None:
    with pytest.raises(UnitDataError):
        parse_specials(text)


_CODES = st.sampled_from(["AC", "LRM", "SRM", "HT", "FLK", "REAR", "IF", "MHQ", "CAR"])
_VALUES = st.lists(st.one_of(st.integers(0, 12), st.just("0*"), st.just(None)),
                   min_size=1, max_size=3)


def _fmt(v) -> str:
    return "-" if v is None else str(v)


@settings(max_examples=100, deadline=None)
@given(st.dictionaries(_CODES, _VALUES, min_size=1, max_size=5), st.booleans())
def test_parse_specials_roundtrip(tokens: dict, turret: bool) -> None:
    """Tokens written with ``/`` values parse back to the same codes and values, also inside
    a turret's parentheses."""
    body = ",".join(code + "/".join(_fmt(v) for v in vals) for code, vals in tokens.items())
    if turret:
        parsed = parse_specials(f"ECM,TUR(1/2/0*,{body}),OMNI")
        assert list(parsed) == ["ECM", "TUR", "OMNI"]
        assert parsed["TUR"].values == (1, 2, "0*")
        inner = {s.code: s.values for s in parsed["TUR"].nested}
    else:
        inner = {c: s.values for c, s in parse_specials(body).items()}
    assert inner == {c: tuple(v) for c, v in tokens.items()}


# ------------------------------------------------------------------ MUL JSON

LEGACY = {  # FORMAT.md 2.2 example record (trimmed), legacy QuickList chunk
    "Id": 140, "Name": "Atlas AS7-D", "Class": "Atlas", "Variant": "AS7-D", "Tonnage": 100,
    "Type": {"Id": 18, "Name": "BattleMech"}, "BFType": "BM", "BFSize": 4, "BFMove": '6"',
    "BFTMM": 0, "BFArmor": 10, "BFStructure": 8, "BFThreshold": 0, "BFDamageShort": 5,
    "BFDamageMedium": 5, "BFDamageLong": 2, "BFDamageExtreme": 0,
    "BFDamageShortMin": False, "BFDamageMediumMin": False, "BFDamageLongMin": False,
    "BFDamageExtemeMin": False, "BFOverheat": 0, "BFPointValue": 52,
    "BFAbilities": "AC2/2/-,IF1,LRM1/1/1,REAR1/1/-", "Skill": 0,
}
LIVE = {  # newer live record: chassis in Name, model in Variant, real BFTMM, spaced specials
    "MulUnitKey": "abcdefghij", "Id": 9999, "Name": "Test Chassis", "Class": "BattleMech",
    "Variant": "TC-1", "BFType": "BM", "BFSize": 2, "BFMove": '14"/10"j', "BFTMM": 3,
    "BFArmor": 3, "BFStructure": 3, "BFDamageShort": 0, "BFDamageShortMin": True,
    "BFDamageMedium": 1, "BFDamageLong": 0, "BFDamageLongMin": False,
    "BFDamageExtreme": 0, "BFDamageExtremeMin": True, "BFOverheat": 1,
    "BFPointValue": 20, "BFAbilities": "CT 3,TUR (4/5/5),CASE",
}
DETAIL = {"Id": 141, "Title": "Atlas AS7-K", "Fields": {}, "AvailabilityTables": []}


def test_read_mul_json_records(tmp_path: Path) -> None:
    """FORMAT.md 2.2: objects without BFType are skipped; legacy BFTMM 0 is derived from the
    ground Move (6" -> 1, reference 6.1); live BFTMM kept; *Min flags -> 0*."""
    path = tmp_path / "mul.json"
    path.write_text(json.dumps([LEGACY, DETAIL, LIVE]))
    atlas, live = read_mul_json(path)
    assert (atlas.name, atlas.tmm, atlas.move, atlas.jump, atlas.pv) == ("Atlas AS7-D", 1, 6,
                                                                        0, 52)
    assert atlas.damage == (5, 5, 2, 0) and atlas.mul_id == 140
    assert atlas.specials["REAR"].values == (1, 1, None)
    assert (live.name, live.move, live.jump, live.tmm) == ("Test Chassis TC-1", 14, 10, 3)
    assert live.minimal == (True, False, False, True) and live.damage[1] == 1
    assert live.specials["CT"].values == (3,) and live.specials["TUR"].values == (4, 5, 5)
    assert read_mul_json({"Units": [LEGACY]}) == read_mul_json([LEGACY])
    assert read_mul_json(LEGACY)[0].name == "Atlas AS7-D"


@needs_shared
def test_mul_json_matches_csv_for_atlas() -> None:
    """The CSV row and the MUL record of FORMAT.md 2.2 give the same card (SOURCES.md
    cross-check of Atlas AS7-D)."""
    csv_card = {c.name: c for c in read_alphastrike_csv(AS_CSV)}["Atlas AS7-D"]
    json_card = read_mul_json([LEGACY])[0]
    assert json_card.__dict__ | {"source": ""} == csv_card.__dict__ | {"source": ""}


def test_read_mul_json_bad_record() -> None:
    bad = dict(LEGACY, BFMove="fast")
    with pytest.raises(UnitDataError) as info:
        read_mul_json([DETAIL, bad])
    assert (info.value.file, info.value.row, info.value.field) == ("<json>", 2, "BFMove")
    with pytest.raises(UnitDataError, match="row 1, field 'BFArmor': expected an integer armor"):
        read_mul_json([dict(LEGACY, BFArmor="x")])
    with pytest.raises(UnitDataError, match="expected a JSON list"):
        read_mul_json(42)


def test_read_mul_json_unreadable(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text("{not json")
    with pytest.raises(UnitDataError, match=r"^broken\.json: cannot read MUL JSON"):
        read_mul_json(path)


# ------------------------------------------------------------------ bad CSV rows

HEADER = ("name,type,size,move,jump,tmm,armor,structure,dmg_s,dmg_m,dmg_l,ov,specials,pv,"
          "dmg_e,mul_move,mul_id,source_file")
GOOD = 'Locust LCT-1V,BM,1,16,0,3,2,2,1,1,0,0,,18,0,"16""",1901,x'


def _csv(tmp_path: Path, *rows: str, header: str = HEADER) -> Path:
    path = tmp_path / "cards.csv"
    path.write_text("\n".join([header, *rows]) + "\n", encoding="utf-8")
    return path


def test_csv_good_row(tmp_path: Path) -> None:
    (card,) = read_alphastrike_csv(_csv(tmp_path, GOOD))
    assert (card.name, card.size, card.move, card.tmm, card.pv) == ("Locust LCT-1V", 1, 16,
                                                                   3, 18)
    assert card.source == "cards.csv:1"


@pytest.mark.parametrize("row,field", [
    (GOOD.replace(",2,2,1,1,", ",x,2,1,1,"), "armor"),
    (GOOD.replace(",2,2,1,1,0,0,", ",2,2,1,1,0*x,0,"), "dmg_l"),
    (GOOD.replace(",0,,18,", ",0,TUR(1,18,"), "specials"),
    (GOOD.replace(",BM,", ",battlemech,"), "type"),
    (GOOD.replace(",3,2,2,", ",-1,2,2,"), "tmm"),
])
def test_csv_bad_rows_name_file_row_field(tmp_path: Path, row: str, field: str) -> None:
    """Bad rows raise UnitDataError (a UserError) naming file, row and field."""
    with pytest.raises(UnitDataError) as info:
        read_alphastrike_csv(_csv(tmp_path, GOOD, row))
    assert (info.value.file, info.value.row, info.value.field) == ("cards.csv", 2, field)
    assert str(info.value).startswith(f"cards.csv, row 2, field {field!r}: expected")
    assert isinstance(info.value, UserError)


def test_csv_structure_errors(tmp_path: Path) -> None:
    with pytest.raises(UnitDataError, match="missing ov"):
        read_alphastrike_csv(_csv(tmp_path, GOOD, header=HEADER.replace(",ov,", ",ovx,")))
    with pytest.raises(UnitDataError, match="row 1: expected 18 columns; got more"):
        read_alphastrike_csv(_csv(tmp_path, GOOD + ",extra"))
    with pytest.raises(UnitDataError, match="row 1: expected 18 columns; got fewer"):
        read_alphastrike_csv(_csv(tmp_path, "Locust,BM,1"))
    with pytest.raises(UnitDataError, match="cannot read"):
        read_alphastrike_csv(tmp_path / "missing.csv")


def test_shared_folder_location_documented() -> None:
    """The tests look for shared data beside the repository (COMMON.md)."""
    assert SHARED_UNITS.parts[-3:] == ("shared", "data", "units")
