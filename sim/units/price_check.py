"""Computed prices checked against the Master Unit List (issue 20 "Checks and goals";
reference-bv.md 27, reference-as-conversion.md 6).

:func:`check_folder` computes Battle Value 2 (:func:`sim.units.bv2.battle_value`) and the
converted Alpha Strike card (:func:`sim.units.as_conversion.alpha_strike_card`) of every
``.mtf`` in a folder, joins each on its ``mul id:`` line with ``mul_mechs.csv`` (BV, PV) and
``alphastrike.csv`` (cards), and lists every disagreement with the step that produced the
value. The MUL is not always right (B14, V10): a mismatch is reported, never tuned away.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import Any

from sim.errors import UserError
from sim.units.as_conversion import ConvertedCard, alpha_strike_card
from sim.units.as_conversion.rules import ConversionRules
from sim.units.bv2 import BVBreakdown, battle_value
from sim.units.bv2.rules import BVRules
from sim.units.bv2.scope import OutOfScope
from sim.units.design.reader import read_design_file

#: card fields compared with alphastrike.csv, and the step of the conversion that makes each
CARD_FIELDS: dict[str, str] = {
    "size": "2.1 size", "move": "2.2 movement", "jump": "2.2 movement", "tmm": "2.2 TMM",
    "armor": "2.3 armor", "structure": "2.4 structure", "dmg_s": "2.5-2.6 damage and heat",
    "dmg_m": "2.5-2.6 damage and heat", "dmg_l": "2.5-2.6 damage and heat",
    "ov": "2.6 OV", "specials": "2.7-2.8 specials", "pv": "2.9 point value",
}


@dataclass(frozen=True)
class MulRow:
    mul_id: int
    name: str
    bv: int | None
    pv: int | None


def read_mul_mechs(path: str | PathLike[str]) -> dict[int, MulRow]:
    """``mul_mechs.csv`` (FORMAT.md): mul_id -> name, BV, PV."""
    out = {}
    with open(path, encoding="utf-8", newline="") as fh:
        for r in csv.DictReader(fh):
            try:
                mid = int(r["mul_id"])
            except (KeyError, ValueError):
                continue
            out[mid] = MulRow(mid, r.get("name", ""),
                              int(r["bv"]) if (r.get("bv") or "").isdigit() else None,
                              int(r["pv"]) if (r.get("pv") or "").isdigit() else None)
    return out


def read_card_rows(path: str | PathLike[str]) -> dict[int, dict[str, Any]]:
    """``alphastrike.csv`` rows by MUL id, fields as :data:`CARD_FIELDS` compares them."""
    out: dict[int, dict[str, Any]] = {}
    with open(path, encoding="utf-8", newline="") as fh:
        for r in csv.DictReader(fh):
            if not (r.get("mul_id") or "").isdigit() or r.get("type") not in ("BM", None):
                continue
            row: dict[str, Any] = {k: r[k] for k in CARD_FIELDS if k in r}
            row["specials"] = sorted(filter(None, (r.get("specials") or "").split(",")))
            row["name"] = r.get("name", "")
            out[int(r["mul_id"])] = row
    return out


def card_differences(computed: dict[str, Any], shipped: dict[str, Any]
                     ) -> list[tuple[str, Any, Any, str]]:
    """``(field, computed, shipped, step)`` for every field that differs."""
    out = []
    for k, step in CARD_FIELDS.items():
        if k not in shipped:
            continue
        a = computed[k]
        b = shipped[k]
        if k == "specials":
            if sorted(a) != sorted(b):
                out.append((k, ",".join(sorted(set(a) - set(b))) or "-",
                            ",".join(sorted(set(b) - set(a))) or "-", step))
        elif str(a) != str(b):
            out.append((k, a, b, step))
    return out


@dataclass
class UnitCheck:
    file: str
    name: str
    mul_id: int | None
    bv: BVBreakdown | None = None
    bv_refused: str | None = None
    card: ConvertedCard | None = None
    card_refused: str | None = None
    mul: MulRow | None = None
    card_diff: list[tuple[str, Any, Any, str]] | None = None

    @property
    def bv_match(self) -> bool | None:
        if self.bv is None or self.mul is None or self.mul.bv is None:
            return None
        return self.bv.bv == self.mul.bv

    @property
    def pv_match(self) -> bool | None:
        if self.card is None or self.mul is None or self.mul.pv is None:
            return None
        return int(self.card.fields["pv"]) == self.mul.pv


@dataclass
class FolderCheck:
    units: list[UnitCheck] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        u = self.units
        return {
            "files": len(u),
            "bv_compared": sum(x.bv_match is not None for x in u),
            "bv_exact": sum(x.bv_match is True for x in u),
            "bv_refused": sum(x.bv_refused is not None for x in u),
            "pv_compared": sum(x.pv_match is not None for x in u),
            "pv_exact": sum(x.pv_match is True for x in u),
            "card_refused": sum(x.card_refused is not None for x in u),
            "cards_compared": sum(x.card_diff is not None for x in u),
            "cards_exact": sum(x.card_diff == [] for x in u),
        }

    def disagreements(self) -> list[str]:
        """One line per disagreement, naming the step that produced the value."""
        out = []
        for x in self.units:
            if x.bv_match is False and x.bv is not None and x.mul is not None:
                out.append(f"{x.name}: BV {x.bv.bv} vs MUL {x.mul.bv} (step: DBR "
                           f"{float(x.bv.defensive.dbr):g} + OBR {float(x.bv.offensive.obr):g},"
                           " see `btsim units bv`)")
            if x.pv_match is False and x.card is not None and x.mul is not None:
                out.append(f"{x.name}: PV {x.card.fields['pv']} vs MUL {x.mul.pv} (step: 2.9 "
                           f"point value; {x.card.derivation.pv_lines[-1]})")
            for k, a, b, step in x.card_diff or []:
                if k == "pv":
                    continue
                out.append(f"{x.name}: card {k} {a} vs alphastrike.csv {b} (step: {step})")
        return out

    def refusals(self) -> list[str]:
        out = []
        for x in self.units:
            if x.bv_refused:
                out.append(f"BV refused: {x.bv_refused}")
            if x.card_refused:
                out.append(f"card refused: {x.card_refused}")
        return out


def check_folder(folder: str | PathLike[str], mul_csv: str | PathLike[str] | None = None,
                 cards_csv: str | PathLike[str] | None = None,
                 bv_rules: BVRules | None = None,
                 as_rules: ConversionRules | None = None) -> FolderCheck:
    """Price every ``.mtf`` under ``folder`` and compare (module doc). ``mul_csv`` /
    ``cards_csv`` default to ``mul_mechs.csv`` / ``alphastrike.csv`` in the folder or its
    parents."""
    root = Path(folder)
    if not root.is_dir():
        raise UserError(f"units check: expected a folder of .mtf files, got {str(root)!r}")
    mul = read_mul_mechs(mul_csv) if mul_csv else _find(root, "mul_mechs.csv", read_mul_mechs)
    cards = (read_card_rows(cards_csv) if cards_csv
             else _find(root, "alphastrike.csv", read_card_rows))
    res = FolderCheck()
    for path in sorted(root.rglob("*.mtf")):
        try:
            d = read_design_file(path)
        except UserError as exc:
            res.units.append(UnitCheck(path.name, path.stem, None, bv_refused=str(exc),
                                       card_refused=str(exc)))
            continue
        u = UnitCheck(path.name, d.name, d.mul_id, mul=mul.get(d.mul_id or -1))
        try:
            u.bv = battle_value(d, bv_rules)
        except OutOfScope as exc:
            u.bv_refused = str(exc)
        try:
            u.card = alpha_strike_card(d, as_rules)
        except OutOfScope as exc:
            u.card_refused = str(exc)
        if u.card is not None and d.mul_id is not None and d.mul_id in cards:
            u.card_diff = card_differences(u.card.fields, cards[d.mul_id])
        res.units.append(u)
    return res


def _find(root: Path, name: str, reader: Any) -> Any:
    for p in (root, *root.resolve().parents[:3]):
        if (p / name).is_file():
            return reader(p / name)
    return {}


def bench_prices(units: int = 4000, folder: str | PathLike[str] | None = None
                 ) -> dict[str, Any]:
    """Time both prices (BV and the converted card, from the file text) for ``units``
    designs: the ``.mtf`` texts of ``folder`` cycled, or, without a folder, the built-in
    catalog's 'Mechs (issue 20 speed goal: 4,000 units in under 30 s). Read by
    ``btsim bench``."""
    import time

    from sim.units.design.reader import read_design

    texts: list[tuple[str, str]] = []
    if folder is not None:
        for p in sorted(Path(folder).rglob("*.mtf")):
            texts.append((p.read_text(encoding="utf-8", errors="replace"), str(p)))
    t0 = time.perf_counter()
    priced = refused = 0
    if texts:
        for k in range(units):
            text, src = texts[k % len(texts)]
            d = read_design(text, src)
            priced, refused = _price(d, priced, refused)
        source = f"{len(texts)} .mtf files of {folder}, cycled"
    else:
        from sim.units.catalog import entries
        from sim.units.design.reader import design_of
        mechs = [e.classic for e in entries() if e.classic is not None]
        for k in range(units):
            priced, refused = _price(design_of(mechs[k % len(mechs)]), priced, refused)
        source = f"the {len(mechs)} built-in catalog 'Mechs, cycled"
    sec = time.perf_counter() - t0
    return {"units": units, "seconds": sec, "units_per_s": units / sec if sec else 0.0,
            "priced": priced, "refused": refused, "source": source}


def _price(d: Any, priced: int, refused: int) -> tuple[int, int]:
    try:
        battle_value(d)
        alpha_strike_card(d)
        return priced + 1, refused
    except OutOfScope:
        return priced, refused + 1
