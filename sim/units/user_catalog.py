"""The user's own unit catalog: 'Mechs imported from a MegaMek data folder with
``btsim units import DIR`` and nameable like built-in catalog units afterwards.

Stored as JSON in ``$BTSIM_HOME/units.json`` (default ``~/.local/share/btsim/units.json``;
JSON because every name lookup reads it, and it parses about 25x faster than the TOML of
btsim 0.1, whose ``units.toml`` is still read until the next import replaces it): the
catalog record of each unit (:func:`sim.units.catalog.mech_to_record`) plus its critical
slots and the path it was read from, one unit per line. The files stay where they are; only
facts are stored.
"""

from __future__ import annotations

import functools
import json
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, NamedTuple

from sim.errors import UserError
from sim.units.catalog import aliases_for, mech_from_record, mech_to_record
from sim.units.types import ClassicMech

USER_FILE = "units.json"
#: the store of btsim 0.1 (TOML), read while no ``units.json`` exists
LEGACY_FILE = "units.toml"
HOME_ENV = "BTSIM_HOME"


def btsim_home() -> Path:
    """``$BTSIM_HOME`` or ``~/.local/share/btsim``."""
    env = os.environ.get(HOME_ENV)
    return Path(env) if env else Path.home() / ".local" / "share" / "btsim"


def user_catalog_path() -> Path:
    """Where imported units are read from: ``units.json``, or the ``units.toml`` of btsim
    0.1 while there is no ``units.json``."""
    home = btsim_home()
    new, old = home / USER_FILE, home / LEGACY_FILE
    return old if old.is_file() and not new.is_file() else new


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


def user_catalog_version(path: Path | None = None) -> tuple[str, int, int, int] | None:
    """(path, size, modification time in ns, inode) of the user catalog file; None when there
    is none. Caches of its contents are keyed by it (an import writes a new file, so a new
    inode)."""
    p = path or user_catalog_path()
    try:
        st = p.stat()
    except OSError:
        return None
    return (str(p), st.st_size, st.st_mtime_ns, st.st_ino) if p.is_file() else None


def load_user_units(path: Path | None = None) -> tuple[ClassicMech, ...]:
    """Units in the user catalog (none when the file does not exist). UserError for a file
    that is not a valid store. Read once per file version (:func:`user_catalog_version`)."""
    version = user_catalog_version(path)
    return () if version is None else _load(*version)


@functools.lru_cache(maxsize=4)
def _load(path: str, size: int, mtime_ns: int, inode: int) -> tuple[ClassicMech, ...]:
    """The units of one version of a user catalog file (``size``, ``mtime_ns`` and ``inode``
    key the cache)."""
    p = Path(path)
    try:
        text = p.read_text("utf-8")
        data = tomllib.loads(text) if p.suffix == ".toml" else json.loads(text)
        return tuple(_from_record(r) for r in data.get("mech", []))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, KeyError, TypeError,
            ValueError, AttributeError) as exc:
        raise UserError(f"{p}: not a btsim user catalog ({exc}); import again") from None


#: Outcome kinds of a skipped file, in the order the summary lists them.
SKIP_KINDS = ("not a file", "unreadable", "unsupported equipment", "shadowed by the catalog",
              "duplicate")


class Imported(NamedTuple):
    """One imported unit: its name and the absolute path of its file."""

    name: str
    file: str


class Skipped(NamedTuple):
    """One skipped path, its one-line reason and its kind (one of :data:`SKIP_KINDS`)."""

    file: str
    reason: str
    kind: str


@dataclass
class ImportReport:
    """What ``units import`` did with every ``.mtf`` path under the folder: each one is in
    exactly one of ``imported`` and ``skipped``. ``replaced``: imported names that replaced a
    unit of an earlier import; ``warnings``: folders that could not be searched."""

    imported: list[Imported] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    path: str = ""

    @property
    def found(self) -> int:
        """How many ``.mtf`` paths the folder holds."""
        return len(self.imported) + len(self.skipped)

    def counts(self) -> dict[str, int]:
        """Paths per outcome: ``imported`` and each skip kind (zeros included)."""
        out = {"imported": len(self.imported)}
        out.update({k: sum(1 for s in self.skipped if s.kind == k) for k in SKIP_KINDS})
        return out

    def as_dict(self) -> dict[str, Any]:
        return {"catalog": self.path, "found": self.found, "counts": self.counts(),
                "imported": [{"name": n, "file": f} for n, f in self.imported],
                "replaced": self.replaced,
                "skipped": [{"file": f, "reason": r, "kind": k} for f, r, k in self.skipped],
                "warnings": self.warnings}


def mtf_paths(root: Path, warnings: list[str]) -> list[Path]:
    """Every path under ``root`` whose name ends in ``.mtf`` (any case): files, folders,
    links (dangling ones too), sorted; symbolic links to folders are not followed. A folder
    that cannot be listed adds a line to ``warnings``."""
    found: list[Path] = []

    def onerror(exc: OSError) -> None:
        warnings.append(f"cannot search {exc.filename}: {exc.strerror or exc}")

    for top, dirs, files in os.walk(root, onerror=onerror):
        found += [Path(top) / n for n in (*dirs, *files) if n.lower().endswith(".mtf")]
    return sorted(found, key=str)


def _outcome(f: Path, seen: dict[str, str]) -> tuple[ClassicMech | None, str, str]:
    """(unit, "", "") for a file to import, else (None, reason, kind). ``seen`` maps the
    names and aliases of units imported so far in this run to their files."""
    from sim.units.catalog import read_unit_file, shadowing_entry
    from sim.units.usable import unusable_reason

    if not f.is_file():
        what = ("a dangling symbolic link" if f.is_symlink() and not f.exists()
                else "a folder" if f.is_dir() else "not a regular file")
        return None, f"not a file ({what})", "not a file"
    try:
        mech = read_unit_file(f.resolve())
        _record(mech)  # everything must be storable
    except UserError as exc:
        return None, " ".join(str(exc).split()), "unreadable"
    except Exception as exc:  # noqa: BLE001 - never crash on one file
        return None, ("unreadable: " + f"{type(exc).__name__}: "
                      + " ".join(str(exc).split())[:200]), "unreadable"
    shadow = shadowing_entry(mech)
    if shadow is not None:
        return None, (f"shadowed by the catalog unit {shadow.name!r} (the catalog's data "
                      "wins; name the file to use its own)"), "shadowed by the catalog"
    reason = unusable_reason(mech)
    if reason is not None:
        return None, f"unsupported equipment: {reason}", "unsupported equipment"
    first = next((seen[a] for a in aliases_for(mech.name, mech.chassis, mech.clan_name,
                                               mech.model) if a in seen), None)
    if first is not None:
        return None, f"duplicate of {first} (same unit name {mech.name!r})", "duplicate"
    return mech, "", ""


def import_dir(folder: str | os.PathLike[str], path: Path | None = None) -> ImportReport:
    """Read every ``.mtf`` under ``folder`` (recursively) and store the units btsim can use
    in the user catalog (replacing units of the same name from earlier imports). Every
    ``.mtf`` path lands in exactly one of ``imported`` and ``skipped``; a path is skipped,
    with one reason, when it is not a file, the reader cannot read it, its unit needs
    equipment the models do not have (:func:`sim.units.usable.unusable_reason`), a built-in
    catalog unit with Classic data has its name (the catalog wins), or an earlier file of
    this run has the same unit name. A unit stored by an earlier import under the same name
    or an alias of it is replaced. Never raises for a bad file. Raises :class:`UserError`
    for a folder that does not exist or holds no ``.mtf`` path (the catalog is then left
    as it was). Units are stored with the absolute path of their file as ``source``."""
    root = Path(folder)
    if not root.is_dir():
        raise UserError(f"units import: {str(folder)!r} is not a folder")
    out = path or btsim_home() / USER_FILE
    report = ImportReport(path=str(out))
    paths = mtf_paths(root, report.warnings)
    if not paths:
        raise UserError(f"units import: no .mtf files under {str(folder)!r}; nothing imported"
                        + (f" ({report.warnings[0]})" if report.warnings else ""))
    kept: dict[str, ClassicMech] = {m.name: m for m in load_user_units(path)}
    # the stored unit each name or alias belongs to
    owner = {a: m.name for m in kept.values()
             for a in aliases_for(m.name, m.chassis, m.clan_name, m.model)}
    seen: dict[str, str] = {}
    for f in paths:
        mech, reason, kind = _outcome(f, seen)
        if mech is None:
            report.skipped.append(Skipped(str(f), reason, kind))
            continue
        mine = aliases_for(mech.name, mech.chassis, mech.clan_name, mech.model)
        for a in mine:
            seen[a] = str(f)
        # an earlier import of the same unit under another spelling of its name (an alias
        # in common) is replaced too: two stored units must never share a name
        same = {owner[a] for a in mine if owner.get(a, mech.name) != mech.name
                and owner[a] in kept}
        for n in same:
            del kept[n]
        owner.update(dict.fromkeys(mine, mech.name))
        if mech.name in kept or same:
            report.replaced.append(mech.name)
        kept[mech.name] = mech
        report.imported.append(Imported(mech.name, mech.source))
    out.parent.mkdir(parents=True, exist_ok=True)
    units = ",\n".join(json.dumps(_record(m), ensure_ascii=False)
                        for m in sorted(kept.values(), key=lambda m: m.name))
    tmp = out.with_suffix(".tmp")
    tmp.write_text('{"about": "btsim user catalog: units imported with `btsim units import`;'
                   ' facts only",\n"mech": [\n' + units + "\n]}\n", "utf-8")
    tmp.replace(out)
    return report
