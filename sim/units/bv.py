"""Classic Battle Value facts: the reader of ``shared/data/units/bv.csv`` (FORMAT.md 2.4).

Columns: ``name`` (the ``.mtf`` file name without ``.mtf``), ``mul_id``, ``bv`` (BV 2.0 at
gunnery 4 / piloting 5), ``source`` (the MUL record it was read from), ``second_source``,
``agrees``. :func:`with_bv` puts a row's value, source and record id on a
:class:`~sim.units.types.ClassicMech`; the catalog generator does that for every row.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from dataclasses import dataclass, replace
from os import PathLike
from pathlib import Path

from sim.units.mul import UnitDataError
from sim.units.types import ClassicMech

BV_COLUMNS = ("name", "mul_id", "bv", "source", "second_source", "agrees")


@dataclass(frozen=True)
class BVRecord:
    """One row of ``bv.csv``."""

    name: str
    mul_id: int
    bv: int
    source: str
    second_source: str = ""
    agrees: str = ""


def _positive(text: str, file: str, row: int, col: str) -> int:
    try:
        val = int(text)
    except ValueError:
        raise UnitDataError(f"expected a positive integer, got {text!r}", file, row,
                            col) from None
    if val <= 0:
        raise UnitDataError(f"expected a positive integer, got {text!r}", file, row, col)
    return val


def read_bv_csv(path: str | PathLike[str]) -> tuple[BVRecord, ...]:
    """Read ``bv.csv``. Raises :class:`UnitDataError` naming the file, row and field for a
    missing column, a bad number, an empty name or source, or a name given twice."""
    p = Path(path)
    try:
        text = p.read_text("utf-8")
    except OSError as exc:
        raise UnitDataError(f"cannot read: {exc.strerror or exc}", p.name) from None
    reader = csv.DictReader(text.splitlines())
    missing = [c for c in BV_COLUMNS[:4] if c not in (reader.fieldnames or ())]
    if missing:
        raise UnitDataError(f"missing column(s) {', '.join(missing)} (expected "
                            f"{', '.join(BV_COLUMNS)})", p.name)
    out: list[BVRecord] = []
    seen: set[str] = set()
    for k, row in enumerate(reader, 1):
        name = (row.get("name") or "").strip()
        source = (row.get("source") or "").strip()
        if not name:
            raise UnitDataError("expected a unit name", p.name, k, "name")
        if name in seen:
            raise UnitDataError(f"unit {name!r} given twice", p.name, k, "name")
        if not source:
            raise UnitDataError("expected the record the BV was read from", p.name, k,
                                "source")
        seen.add(name)
        out.append(BVRecord(name, _positive(row.get("mul_id") or "", p.name, k, "mul_id"),
                            _positive(row.get("bv") or "", p.name, k, "bv"), source,
                            (row.get("second_source") or "").strip(),
                            (row.get("agrees") or "").strip()))
    return tuple(out)


def with_bv(mech: ClassicMech, records: Iterable[BVRecord], file: str = "bv.csv"
            ) -> ClassicMech:
    """``mech`` with the BV of its row (matched by name; the row's MUL id must equal the
    'Mech's). Unchanged when no row names it."""
    for rec in records:
        if rec.name == mech.name:
            if mech.mul_id is not None and rec.mul_id != mech.mul_id:
                raise UnitDataError(f"MUL id {rec.mul_id} of {rec.name!r} differs from the "
                                    f"unit file's {mech.mul_id}", file, None, "mul_id")
            return replace(mech, bv=rec.bv, bv_source=rec.source, bv_record=rec.mul_id)
    return mech
