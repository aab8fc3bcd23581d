"""Alpha Strike card readers: the ``alphastrike.csv`` schema (FORMAT.md 2.3) and Master Unit
List JSON records (``BF*`` fields, FORMAT.md 2.2), plus the small parsers both need: move
strings (``14"/10"j``), damage values (``0*``) and special-ability strings with nested
parentheses (``TUR(2/2/1,IF1)``).

Bad data raises :class:`UnitDataError` (a :class:`~sim.errors.UserError`) naming the file,
the row and the field.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterable, Mapping
from functools import cache
from os import PathLike
from pathlib import Path
from typing import Any, NamedTuple

from sim.errors import UserError
from sim.fileio import read_regular_bytes
from sim.units.tables import tmm_from_move
from sim.units.types import ASCard, Special


class UnitDataError(UserError):
    """Bad Alpha Strike data: ``file``, ``row`` (1-based data row, or record index for JSON)
    and ``field`` say where; any of them may be None for a bare value parser."""

    def __init__(self, message: str, file: str | None = None, row: int | None = None,
                 field: str | None = None) -> None:
        self.file = file
        self.row = row
        self.field = field
        self.detail = message
        where = []
        if file is not None:
            where.append(file)
        if row is not None:
            where.append(f"row {row}")
        if field is not None:
            where.append(f"field {field!r}")
        super().__init__((": ".join([", ".join(where), message])) if where else message)


#: Core columns of the CSV schema (FORMAT.md 2.3); ``dmg_e``, ``mul_id`` and the rest are
#: optional.
CSV_COLUMNS = ("name", "type", "size", "move", "jump", "tmm", "armor", "structure",
               "dmg_s", "dmg_m", "dmg_l", "ov", "specials", "pv")

_MOVE_PART = re.compile(r"\s*([0-9]{1,3})\s*(?:\"|'')?\s*([a-z]*)\s*", re.IGNORECASE)
_CODE_RE = re.compile(r"C3[A-Z]*|[A-Z]+(?:-[A-Z]+)*")
_VALUE_RE = re.compile(r"[0-9]{1,6}")


def parse_move(text: object) -> tuple[int, int]:
    """Parse an Alpha Strike Move string into (ground inches, jump inches) (FORMAT.md 2.2).

    ``6"`` -> (6, 0); ``8"j`` -> (8, 8) (8" that may be jumped); ``14"/10"j`` -> (14, 10).
    Other mode letters (``t`` tracked, ``w``, ``h``, ``v``, ``g``, ``f``, ``m``, ``a``...) mark
    ground/flight Move and count as ground. Raises :class:`UnitDataError` if unreadable."""
    if not isinstance(text, str) or not text.strip():
        raise UnitDataError(f"expected a Move string like 6\" or 14\"/10\"j; got {text!r}")
    ground: int | None = None
    jump = 0
    for part in text.split("/"):
        m = _MOVE_PART.fullmatch(part)
        if not m:
            raise UnitDataError(f"expected a Move string like 6\" or 14\"/10\"j; got {text!r}")
        inches, mode = int(m.group(1)), m.group(2).lower()
        if mode == "j":
            jump = max(jump, inches)
        elif ground is None:
            ground = inches
    if ground is None:
        ground = jump
    return ground, jump


def parse_damage(text: str | int) -> tuple[int, bool]:
    """Parse one damage value: ``"3"`` -> (3, False); ``"0*"`` (minimal damage) -> (0, True);
    ``"-"`` or ``""`` -> (0, False). Raises :class:`UnitDataError` otherwise."""
    if isinstance(text, bool):
        raise UnitDataError(f"expected a damage value (integer or 0*); got {text!r}")
    if isinstance(text, int):
        if text < 0:
            raise UnitDataError(f"expected a damage value >= 0; got {text!r}")
        return text, False
    s = str(text).strip()
    if s in ("0*", "*"):
        return 0, True
    if s in ("-", ""):
        return 0, False
    if _VALUE_RE.fullmatch(s):
        return int(s), False
    raise UnitDataError(f"expected a damage value (integer or 0*); got {text!r}")


def _split_top(text: str) -> list[str]:
    """Split at commas outside parentheses; raise on unbalanced parentheses."""
    parts: list[str] = []
    depth = 0
    cur: list[str] = []
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                raise UnitDataError(
                    f"expected balanced parentheses in specials; got {text!r}")
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    if depth != 0:
        raise UnitDataError(f"expected balanced parentheses in specials; got {text!r}")
    parts.append("".join(cur))
    return parts


def _value(text: str) -> int | str | None:
    """One slash-separated value: int, ``"0*"`` (minimal), None for ``-``, else the text
    (e.g. decimal cargo tonnage ``2.5``)."""
    t = text.strip()
    if t == "-":
        return None
    if t == "0*":
        return "0*"
    if _VALUE_RE.fullmatch(t):
        return int(t)
    return t


def _values(text: str) -> tuple[int | str | None, ...]:
    return tuple(_value(v) for v in text.split("/")) if text.strip() else ()


def _special(token: str) -> Special:
    """Parse one special token, e.g. ``HT1/1/-``, ``IF0*``, ``CT 3``, ``TUR(2/2/1,IF1)``,
    ``ARTAIS-1``, ``C3M``, ``I-TSM``."""
    tok = " ".join(token.split())
    compact = re.sub(r"\s+", "", tok)
    m = _CODE_RE.match(compact)
    if not m:
        raise UnitDataError(f"expected a special ability code (letters first); got {token!r}")
    code = m.group(0)
    rest = compact[m.end():]
    art = re.fullmatch(r"(ART[A-Z]+)-([0-9]+)", compact)
    if art:  # artillery: ARTAIS-1 = one Arrow IV
        return Special(art.group(1), compact, (int(art.group(2)),))
    if rest.startswith("("):
        if not rest.endswith(")"):
            raise UnitDataError(f"expected ')' to close {token!r}")
        inner = _split_top(rest[1:-1])
        values: tuple[int | str | None, ...] = ()
        nested: list[Special] = []
        for k, part in enumerate(inner):
            p = part.strip()
            if not p:
                continue
            if k == 0 and not p[0].isalpha():
                values = _values(p)
            else:
                nested.append(_special(p))
        return Special(code, compact, values, tuple(nested))
    if "(" in rest or ")" in rest:
        raise UnitDataError(f"expected a special like CODE1/2/3 or CODE(...); got {token!r}")
    return Special(code, compact, _values(rest))


def parse_specials(text: str | None) -> dict[str, Special]:
    """Parse a specials string into ``{code: Special}`` (FORMAT.md 2.2).

    Commas inside parentheses do not split (``TUR(2/2/1,IF1)`` is one token whose ``nested``
    holds ``IF1``); spaces are dropped (live MUL records write ``CT 3``, ``TUR (4/5/5)``).
    Values are ints, ``"0*"`` or None for ``-``: ``HT1/1/-`` ->
    ``Special("HT", "HT1/1/-", (1, 1, None))``. A repeated code keeps its first token.
    Raises :class:`UnitDataError` for unbalanced parentheses or a token without a code."""
    if text is None:
        return {}
    if not isinstance(text, str):
        raise UnitDataError(f"expected a specials string; got {text!r}")
    out: dict[str, Special] = {}
    for tok in _split_top(text):
        if not tok.strip():
            continue
        sp = _special(tok)
        out.setdefault(sp.code, sp)
    return out


def _specials_raw(specials: Mapping[str, Special]) -> str:
    return ",".join(s.raw for s in specials.values())


def _check_int(value: Any, what: str, lo: int = 0, hi: int | None = None) -> int:
    if isinstance(value, bool):
        raise UnitDataError(f"expected an integer {what}; got {value!r}")
    if isinstance(value, int):
        iv = value
    elif isinstance(value, float) and value.is_integer():
        iv = int(value)
    elif isinstance(value, str) and _VALUE_RE.fullmatch(value.strip()):
        iv = int(value.strip())
    else:
        raise UnitDataError(f"expected an integer {what}; got {value!r}")
    if iv < lo or (hi is not None and iv > hi):
        rng = f"{lo}..{hi}" if hi is not None else f">= {lo}"
        raise UnitDataError(f"expected an integer {what} in {rng}; got {value!r}")
    return iv


def card_from_fields(name: str, fields: Mapping[str, Any], file: str, row: int) -> ASCard:
    """Build and check a card from raw field values (CSV text, JSON values or catalog
    records): keys ``type size move jump tmm armor structure dmg_s dmg_m dmg_l dmg_e ov
    specials`` and optional ``pv``, ``mul_id``. Errors name ``file``, ``row`` and the field."""
    def get(field: str, fn: Any, *args: Any) -> Any:
        try:
            return fn(fields[field], *args)
        except UnitDataError as exc:
            raise UnitDataError(exc.detail, file, row, field) from None

    damage: list[int] = []
    minimal: list[bool] = []
    for f in ("dmg_s", "dmg_m", "dmg_l", "dmg_e"):
        d, mn = get(f, parse_damage)
        damage.append(d)
        minimal.append(mn)
    specials = get("specials", parse_specials)
    pv_raw = fields.get("pv")
    pv = None if pv_raw in (None, "") else get("pv", _check_int, "point value")
    mid_raw = fields.get("mul_id")
    mul_id = None if mid_raw in (None, "") else get("mul_id", _check_int, "MUL id")
    if not name or not str(name).strip():
        raise UnitDataError("expected a unit name", file, row, "name")
    typ = str(fields["type"]).strip()
    if not re.fullmatch(r"[A-Z]{2,3}", typ):
        raise UnitDataError(f"expected a unit type code like BM; got {fields['type']!r}",
                            file, row, "type")
    return ASCard(
        name=str(name).strip(), type=typ,
        size=get("size", _check_int, "size", 0, 15),
        move=get("move", _check_int, "Move in inches", 0, 999),
        jump=get("jump", _check_int, "jump Move in inches", 0, 999),
        tmm=get("tmm", _check_int, "TMM", 0, 10),
        armor=get("armor", _check_int, "armor", 0, 999),
        structure=get("structure", _check_int, "structure", 0, 999),
        damage=(damage[0], damage[1], damage[2], damage[3]),
        minimal=(minimal[0], minimal[1], minimal[2], minimal[3]),
        ov=get("ov", _check_int, "overheat value", 0, 10),
        specials=specials, specials_raw=_specials_raw(specials), pv=pv, mul_id=mul_id,
        source=f"{file}:{row}",
    )


def read_alphastrike_csv(path: str | PathLike[str]) -> list[ASCard]:
    """Read cards from a CSV in the ``alphastrike.csv`` schema (FORMAT.md 2.3).

    Columns are found by header name (order free); ``dmg_e`` and ``mul_id`` are optional.
    Rows are numbered from 1 (the first data row). Raises :class:`UnitDataError`."""
    p = Path(path)
    try:
        text = read_regular_bytes(p, "unit file").decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise UnitDataError(f"cannot read the file ({exc})", p.name) from None
    reader = csv.DictReader(text.splitlines())
    header = [h.strip() for h in (reader.fieldnames or [])]
    missing = [c for c in CSV_COLUMNS if c not in header]
    if missing:
        raise UnitDataError("expected the columns " + ", ".join(CSV_COLUMNS)
                            + "; missing " + ", ".join(missing), p.name, None, missing[0])
    reader.fieldnames = header
    cards = []
    for row_no, row in enumerate(reader, start=1):
        if None in row:
            raise UnitDataError(f"expected {len(header)} columns; got more", p.name, row_no)
        if any(v is None for v in row.values()):
            raise UnitDataError(f"expected {len(header)} columns; got fewer", p.name, row_no)
        fields: dict[str, Any] = dict(row)
        if not fields.get("dmg_e"):
            fields["dmg_e"] = "0"
        cards.append(card_from_fields(fields["name"], fields, p.name, row_no))
    return cards


def _records(obj: Any) -> Iterable[Any]:
    if isinstance(obj, Mapping):
        for key in ("Units", "units", "Data", "data"):
            if isinstance(obj.get(key), list):
                return obj[key]
        return [obj]
    if isinstance(obj, list):
        return obj
    raise UnitDataError(f"expected a JSON list of MUL records; got {type(obj).__name__}")


#: Card field -> MUL record field, for error messages.
_MUL_FIELDS = {
    "name": "Name", "type": "BFType", "size": "BFSize", "tmm": "BFTMM", "armor": "BFArmor",
    "structure": "BFStructure", "ov": "BFOverheat", "specials": "BFAbilities",
    "pv": "BFPointValue", "mul_id": "Id", "dmg_s": "BFDamageShort",
    "dmg_m": "BFDamageMedium", "dmg_l": "BFDamageLong", "dmg_e": "BFDamageExtreme",
}


def _mul_name(rec: Mapping[str, Any]) -> str:
    """Legacy records hold the full name in ``Name``; live ones the chassis in ``Name`` and the
    model in ``Variant``."""
    name = str(rec.get("Name") or "").strip()
    variant = str(rec.get("Variant") or "").strip()
    if variant and not name.endswith(variant):
        name = f"{name} {variant}".strip()
    return name


def read_mul_json(path_or_obj: str | PathLike[str] | Any) -> list[ASCard]:
    """Read Alpha Strike cards from Master Unit List JSON (QuickList or live records).

    Accepts a path, or already-decoded JSON (a list, or a dict with ``Units``). Objects without
    ``BFType`` (scraped detail pages) are skipped. ``BFDamage*Min`` flags (including the
    legacy ``BFDamageExtemeMin`` spelling) mark minimal damage ``0*``. ``BFTMM`` 0 is the
    legacy MUL quirk: the TMM is then derived from the ground Move with the AS table
    (reference 6.1); a non-zero ``BFTMM`` is kept."""
    if isinstance(path_or_obj, str | PathLike):
        p = Path(path_or_obj)
        file = p.name
        try:
            obj = json.loads(read_regular_bytes(p, "unit file").decode("utf-8-sig"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise UnitDataError(f"cannot read MUL JSON ({exc})", file) from None
    else:
        obj, file = path_or_obj, "<json>"
    try:
        records = list(_records(obj))
    except UnitDataError as exc:
        raise UnitDataError(exc.detail, file) from None
    cards = []
    for idx, rec in enumerate(records, start=1):
        if not isinstance(rec, Mapping) or not rec.get("BFType"):
            continue
        try:
            ground, jump = parse_move(rec.get("BFMove"))
        except UnitDataError as exc:
            raise UnitDataError(exc.detail, file, idx, "BFMove") from None
        tmm_raw = rec.get("BFTMM")
        tmm = tmm_from_move(ground) if tmm_raw in (None, 0, "0", "") else tmm_raw
        fields: dict[str, Any] = {
            "type": rec.get("BFType"), "size": rec.get("BFSize"), "move": ground,
            "jump": jump, "tmm": tmm, "armor": rec.get("BFArmor"),
            "structure": rec.get("BFStructure"), "ov": rec.get("BFOverheat") or 0,
            "specials": rec.get("BFAbilities"), "pv": rec.get("BFPointValue"),
            "mul_id": rec.get("Id"),
        }
        for short, long_ in (("s", "Short"), ("m", "Medium"), ("l", "Long"),
                             ("e", "Extreme")):
            val = rec.get(f"BFDamage{long_}")
            mins = (rec.get(f"BFDamage{long_}Min"),
                    rec.get("BFDamageExtemeMin") if long_ == "Extreme" else None)
            fields[f"dmg_{short}"] = "0*" if any(m is True for m in mins) else (val or 0)
        try:
            cards.append(card_from_fields(_mul_name(rec), fields, file, idx))
        except UnitDataError as exc:
            raise UnitDataError(exc.detail, file, idx,
                                _MUL_FIELDS.get(exc.field or "", exc.field)) from None
    return cards


# ---------------------------------------------------------------------------------------
# Master Unit List values of BattleMechs (issue 19): the product's own copy of the facts
# ---------------------------------------------------------------------------------------

#: The shipped copy (``sim/units/data/``), generated by ``tools/build_catalog.py`` from
#: ``shared/data/units/mul_mechs.csv``; its ``#`` header names the source and capture date.
MUL_FILE = "mul_mechs.csv"
MUL_COLUMNS = ("mul_id", "name", "tons", "bv", "pv", "role", "rules", "intro")


class MulRecord(NamedTuple):
    """One Master Unit List BattleMech: MUL id, MUL name, tons, BV (BV 2.0, gunnery 4 /
    piloting 5), Alpha Strike PV (skill 4), role, rules level, introduction year (None
    when the MUL gives none)."""

    mul_id: int
    name: str
    tons: int | None
    bv: int | None
    pv: int | None
    role: str
    rules: str
    intro: int | None


def _opt_int(text: str) -> int | None:
    t = text.strip()
    return int(t) if t.isdigit() else None


def parse_mul_csv(text: str, file: str = MUL_FILE) -> tuple[MulRecord, ...]:
    """The rows of a MUL values file (``#`` lines are comments). Raises
    :class:`UnitDataError` naming the row for a bad MUL id or a missing column."""
    lines = [ln for ln in text.splitlines() if ln and not ln.startswith("#")]
    reader = csv.DictReader(lines)
    missing = [c for c in MUL_COLUMNS if c not in (reader.fieldnames or ())]
    if missing:
        raise UnitDataError(f"missing column(s) {', '.join(missing)}", file)
    out = []
    for k, row in enumerate(reader, 1):
        mid = _opt_int(row["mul_id"] or "")
        if mid is None or not row["name"]:
            raise UnitDataError("expected a MUL id and a name", file, k, "mul_id")
        out.append(MulRecord(mid, row["name"], _opt_int(row["tons"] or ""),
                             _opt_int(row["bv"] or ""), _opt_int(row["pv"] or ""),
                             row["role"] or "", row["rules"] or "",
                             _opt_int(row["intro"] or "")))
    return tuple(out)


@cache
def _mul_index() -> tuple[dict[int, MulRecord], dict[str, MulRecord]]:
    from importlib import resources

    text = resources.files("sim.units").joinpath("data", MUL_FILE).read_text("utf-8")
    rows = parse_mul_csv(text)
    return ({r.mul_id: r for r in rows},
            {" ".join(r.name.replace("\u2019", "'").split()).lower(): r for r in rows})


def mul_records() -> tuple[MulRecord, ...]:
    """Every record of the shipped MUL values file, by MUL id."""
    return tuple(sorted(_mul_index()[0].values()))


def mul_by_id(mul_id: int | None) -> MulRecord | None:
    """The MUL record with that id, or None."""
    return _mul_index()[0].get(mul_id) if mul_id is not None else None


def mul_by_name(*names: str) -> MulRecord | None:
    """The MUL record whose name equals one of ``names`` (case-insensitive, single spaces,
    straight apostrophes), first name first; None when none matches."""
    index = _mul_index()[1]
    for n in names:
        hit = index.get(" ".join(n.replace("\u2019", "'").split()).lower())
        if hit is not None:
            return hit
    return None
