"""bv.csv (FORMAT.md 2.4, SOURCES.md 3): the reader, its errors, and how a row reaches a
'Mech (issue 9: the catalog carries each 'Mech's Battle Value with its source)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from units_helpers import BV_CSV, needs_shared

from sim.errors import UserError
from sim.units.bv import BVRecord, read_bv_csv, with_bv
from sim.units.catalog import get_classic

HEADER = "name,mul_id,bv,source,second_source,agrees\n"


@needs_shared
def test_every_bv_row_loads() -> None:
    """Every row loads with its values unchanged; names unique; every BV positive."""
    recs = read_bv_csv(BV_CSV)
    with BV_CSV.open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert rows and len(recs) == len(rows)
    for rec, row in zip(recs, rows, strict=True):
        assert (rec.name, rec.mul_id, rec.bv, rec.source) == (
            row["name"], int(row["mul_id"]), int(row["bv"]), row["source"])
        assert rec.second_source == row["second_source"] and rec.agrees == row["agrees"]


@pytest.mark.parametrize("row,field", [
    ("X,1,abc,src,,", "bv"), ("X,1,-5,src,,", "bv"), ("X,zz,100,src,,", "mul_id"),
    (",1,100,src,,", "name"), ("X,1,100,,,", "source"),
])
def test_bad_rows_name_file_row_field(tmp_path: Path, row: str, field: str) -> None:
    path = tmp_path / "bv.csv"
    path.write_text(HEADER + row + "\n")
    with pytest.raises(UserError, match=rf"bv\.csv, row 1, field '{field}'"):
        read_bv_csv(path)


def test_duplicate_and_missing_column(tmp_path: Path) -> None:
    path = tmp_path / "bv.csv"
    path.write_text(HEADER + "X,1,100,s,,\nX,1,100,s,,\n")
    with pytest.raises(UserError, match="given twice"):
        read_bv_csv(path)
    path.write_text("name,mul_id,source\nX,1,s\n")
    with pytest.raises(UserError, match=r"missing column\(s\) bv"):
        read_bv_csv(path)
    with pytest.raises(UserError, match="cannot read"):
        read_bv_csv(tmp_path / "nope.csv")


def test_with_bv_matches_name_and_checks_mul_id() -> None:
    mech = get_classic("Hatchetman HCT-3F")
    rec = BVRecord("Hatchetman HCT-3F", 1410, 854, "somewhere")
    got = with_bv(mech, [rec])
    assert (got.bv, got.bv_source, got.bv_record) == (854, "somewhere", 1410)
    assert with_bv(mech, [BVRecord("Other", 1, 1, "s")]) == mech
    with pytest.raises(UserError, match="MUL id 9 of 'Hatchetman HCT-3F' differs"):
        with_bv(mech, [BVRecord("Hatchetman HCT-3F", 9, 854, "s")])
