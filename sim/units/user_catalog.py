"""The user's own unit catalog: 'Mechs imported from a MegaMek data folder with
``btsim units import DIR`` and nameable like built-in catalog units afterwards.

Stored as TOML in ``$BTSIM_HOME/units.toml`` (default ``~/.local/share/btsim/units.toml``):
the catalog record of each unit (:func:`sim.units.catalog.mech_to_record`) plus its critical
slots and the path it was read from. The files stay where they are; only facts are stored.
"""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from sim.errors import UserError
from sim.units.catalog import _key, aliases_for, mech_from_record, mech_to_record
from sim.units.mtf import read_mtf
from sim.units.types import ClassicMech

USER_FILE = "units.toml"
HOME_ENV = "BTSIM_HOME"


def btsim_home() -> Path:
    """``$BTSIM_HOME`` or ``~/.local/share/btsim``."""
    env = os.environ.get(HOME_ENV)
    return Path(env) if env else Path.home() / ".local" / "share" / "btsim"


def user_catalog_path() -> Path:
    """Where imported units are stored."""
    return btsim_home() / USER_FILE


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{json.dumps(str(k))} = {_toml(v)}"
                                for k, v in value.items()) + " }"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} to TOML")


def _record(mech: ClassicMech) -> dict[str, Any]:
    rec = mech_to_record(mech)
    rec["slots"] = {loc: [s if s is not None else "-Empty-" for s in v]
                    for loc, v in mech.slots.items()}
    rec["source"] = mech.source
    return rec


def _from_record(rec: Mapping[str, Any]) -> ClassicMech:
    mech = mech_from_record(rec, source=str(rec.get("source", "user catalog")))
    slots = {loc: tuple(None if s == "-Empty-" else s for s in v)
             for loc, v in dict(rec.get("slots", {})).items()}
    return replace(mech, slots=slots)


def load_user_units(path: Path | None = None) -> tuple[ClassicMech, ...]:
    """Units in the user catalog (none when the file does not exist). UserError for a file
    that is not valid TOML."""
    p = path or user_catalog_path()
    if not p.is_file():
        return ()
    try:
        data = tomllib.loads(p.read_text("utf-8"))
        return tuple(_from_record(r) for r in data.get("mech", []))
    except (tomllib.TOMLDecodeError, KeyError, TypeError, ValueError) as exc:
        raise UserError(f"{p}: not a btsim user catalog ({exc}); import again") from None


def find_user_unit(name: str, path: Path | None = None) -> ClassicMech | None:
    """An imported unit by exact name/alias, else by unique prefix; None when none matches."""
    q = _key(name)
    units = load_user_units(path)
    aliases = [(m, aliases_for(m.name, m.chassis, m.clan_name, m.model)) for m in units]
    exact = [m for m, a in aliases if q in a]
    if len(exact) >= 1:
        return exact[0]
    pref = [m for m, a in aliases if any(x.startswith(q) for x in a)]
    return pref[0] if len(pref) == 1 else None


@dataclass
class ImportReport:
    """What ``units import`` did: names imported, ``(file, reason)`` for each skipped file."""

    imported: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    path: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {"catalog": self.path, "imported": self.imported,
                "skipped": [{"file": f, "reason": r} for f, r in self.skipped]}


def import_dir(folder: str | os.PathLike[str], path: Path | None = None) -> ImportReport:
    """Read every ``.mtf`` under ``folder`` (recursively), keep those the reader supports and
    store them in the user catalog (replacing units of the same name). Never raises for a
    bad file: each one is listed in ``skipped`` with one reason."""
    root = Path(folder)
    if not root.is_dir():
        raise UserError(f"units import: {str(folder)!r} is not a folder")
    out = path or user_catalog_path()
    report = ImportReport(path=str(out))
    kept: dict[str, ClassicMech] = {m.name: m for m in load_user_units(out)}
    for f in sorted(root.rglob("*")):
        if f.suffix.lower() != ".mtf" or not f.is_file():
            continue
        try:
            mech = read_mtf(f)
            _record(mech)  # everything must be storable
        except UserError as exc:
            report.skipped.append((str(f), " ".join(str(exc).split())))
            continue
        except Exception as exc:  # noqa: BLE001 - never crash on one file
            report.skipped.append((str(f), f"unreadable: {type(exc).__name__}: "
                                   + " ".join(str(exc).split())[:200]))
            continue
        kept[mech.name] = mech
        report.imported.append(mech.name)
    out.parent.mkdir(parents=True, exist_ok=True)
    lines = ["# btsim user catalog: units imported with `btsim units import`; facts only.\n"]
    for mech in sorted(kept.values(), key=lambda m: m.name):
        lines.append("\n[[mech]]\n")
        lines.extend(f"{json.dumps(k)} = {_toml(v)}\n" for k, v in _record(mech).items())
    tmp = out.with_suffix(".tmp")
    tmp.write_text("".join(lines), "utf-8")
    tmp.replace(out)
    return report
