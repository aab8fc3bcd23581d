"""The user's own unit catalog: 'Mechs imported from a MegaMek data folder with
``btsim units import DIR`` and nameable like built-in catalog units afterwards.

Stored as JSON in ``$BTSIM_HOME/units.json`` (default ``~/.local/share/btsim/units.json``;
JSON because every name lookup reads it, and it parses about 25x faster than the TOML of
btsim 0.1, whose ``units.toml`` is still read until the next import replaces it): the
catalog record of each unit (:func:`sim.units.catalog.mech_to_record`) plus its critical
slots and the path it was read from, one unit per line. The files stay where they are; only
facts are stored.

Beside it, ``units.index.json`` (issue 19) holds one summary row per unit (names and
aliases, tons, MP, BV, PV, completeness, tech base, year, role, source) and the byte range
of its record in ``units.json``, so that naming one unit reads the index and one record, not
the whole catalog (:func:`user_index`, :func:`load_user_unit`). The index names the exact
version (size, modification time, inode) of the ``units.json`` it describes; a missing or
stale index is ignored and the whole file is read. Both files are written to temporary
files and renamed into place (an import that fails leaves the catalog as it was).
"""

from __future__ import annotations

import functools
import json
import os
import tempfile
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, NamedTuple

from sim.errors import UserError
from sim.units.catalog import aliases_for, mech_from_record, mech_to_record
from sim.units.types import ClassicMech

USER_FILE = "units.json"
INDEX_FILE = "units.index.json"
#: the name index: one ``alias<TAB>name<TAB>offset<TAB>length<TAB>mul id`` line per alias,
#: sorted, so that naming a unit is a binary search and one record read
NAMES_FILE = "units.names.tsv"
#: the index layout this btsim writes and reads
INDEX_FORMAT = 1
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
SKIP_KINDS = ("not a file", "unreadable", "not supported", "shadowed by the catalog",
              "duplicate")


class Imported(NamedTuple):
    """One imported unit: its name, the absolute path of its file and whether btsim
    simulates all of it (``complete`` / ``incomplete``, :func:`sim.units.usable.completeness`)."""

    name: str
    file: str
    simulated: str = "complete"


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
    #: every item not simulated, over the whole folder: (kind, name, reason) -> the units
    #: that carry it (:func:`sim.units.usable.not_simulated`; locations left out)
    not_simulated: dict[tuple[str, str, str], list[str]] = field(default_factory=dict)

    def add_items(self, mech: ClassicMech) -> str:
        """Count ``mech``'s not-simulated items; return its completeness."""
        from sim.units.usable import completeness, not_simulated

        for item in not_simulated(mech):
            units = self.not_simulated.setdefault((item.kind, item.name, item.reason), [])
            if mech.name not in units:
                units.append(mech.name)
        return completeness(mech)

    def items(self) -> list[dict[str, Any]]:
        """The not-simulated items, most common first: kind, name, reason, units, count."""
        from sim.units.usable import KINDS

        rows = [{"kind": k, "name": n, "reason": r, "count": len(u), "units": sorted(u)}
                for (k, n, r), u in self.not_simulated.items()]
        return sorted(rows, key=lambda d: (KINDS.index(d["kind"]), -d["count"], d["name"]))

    def complete_count(self) -> int:
        return sum(1 for i in self.imported if i.simulated == "complete")

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
                "complete": self.complete_count(),
                "incomplete": len(self.imported) - self.complete_count(),
                "imported": [{"name": n, "file": f, "simulated": c}
                             for n, f, c in self.imported],
                "not_simulated": self.items(),
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

    if not f.is_file():
        what = ("a dangling symbolic link" if f.is_symlink() and not f.exists()
                else "a folder" if f.is_dir() else "not a regular file")
        return None, f"not a file ({what})", "not a file"
    try:
        mech = read_unit_file(f.resolve())
        _record(mech)  # everything must be storable
    except UserError as exc:
        text = " ".join(str(exc).split())
        return None, text, "not supported" if "not supported yet" in text else "unreadable"
    except Exception as exc:  # noqa: BLE001 - never crash on one file
        return None, ("unreadable: " + f"{type(exc).__name__}: "
                      + " ".join(str(exc).split())[:200]), "unreadable"
    shadow = shadowing_entry(mech)
    if shadow is not None:
        return None, (f"shadowed by the catalog unit {shadow.name!r} (the catalog's data "
                      "wins; name the file to use its own)"), "shadowed by the catalog"
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
        report.imported.append(Imported(mech.name, mech.source, report.add_items(mech)))
    write_user_catalog(out, kept.values())
    return report


_HEAD = ('{"about": "btsim user catalog: units imported with `btsim units import`; facts '
         'only",\n"mech": [\n')


def _atomic_write(target: Path, data: bytes) -> None:
    """Write ``data`` to a temporary file beside ``target`` and rename it into place."""
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _summary(mech: ClassicMech) -> dict[str, Any]:
    """The index row of a unit: what ``btsim units`` lists and what name lookup needs."""
    from sim.units.usable import completeness

    return {"name": mech.name, "aliases": list(aliases_for(mech.name, mech.chassis,
                                                           mech.clan_name, mech.model)),
            "mul_id": mech.mul_id, "tons": mech.tons, "walk_mp": mech.walk_mp,
            "run_mp": mech.run_mp, "jump_mp": mech.jump_mp, "tech_base": mech.tech_base,
            "year": mech.year, "role": mech.role, "bv": mech.bv,
            "bv_source": mech.bv_source, "pv": mech.pv, "pv_source": mech.pv_source,
            "simulated": completeness(mech), "source": mech.source}


def write_user_catalog(out: Path, units: Any) -> None:
    """Store ``units`` (ClassicMech) as the user catalog ``out`` and its index, each
    written atomically (the index last; it names the catalog version it describes).
    UserError naming the path when the folder cannot be written."""
    mechs = sorted(units, key=lambda m: m.name)
    lines = [json.dumps(_record(m), ensure_ascii=False).encode("utf-8") for m in mechs]
    head = _HEAD.encode("utf-8")
    body = b",\n".join(lines)
    rows, pos = [], len(head)
    for m, line in zip(mechs, lines, strict=True):
        rows.append({**_summary(m), "offset": pos, "length": len(line)})
        pos += len(line) + 2
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        _atomic_write(out, head + body + b"\n]}\n")
        st = out.stat()
        index = {"format": INDEX_FORMAT, "catalog": out.name,
                 "version": [st.st_size, st.st_mtime_ns, st.st_ino], "units": rows}
        _atomic_write(out.with_name(INDEX_FILE),
                      json.dumps(index, ensure_ascii=False).encode("utf-8"))
        name_lines = sorted(f"{a}\t{r['name']}\t{r['offset']}\t{r['length']}\t"
                       f"{r['mul_id'] or ''}" for r in rows for a in r["aliases"]
                       if "\t" not in a + r["name"] and "\n" not in a + r["name"])
        name_head = f"#btsim-names {INDEX_FORMAT} {st.st_size} {st.st_mtime_ns} {st.st_ino}\n"
        _atomic_write(out.with_name(NAMES_FILE),
                      (name_head + "\n".join(name_lines) + "\n").encode("utf-8"))
    except OSError as exc:
        raise UserError(f"units import: cannot write the user catalog {str(out)!r}: "
                        f"{exc.strerror or exc}") from None


class UserIndex(NamedTuple):
    """The index of one version of the user catalog: summary rows in name order, the row of
    each alias, and the catalog path the byte ranges refer to."""

    path: str
    rows: tuple[dict[str, Any], ...]
    by_alias: dict[str, int]


def user_index(path: Path | None = None) -> UserIndex | None:
    """The index of the user catalog when it exists and describes the current
    ``units.json`` exactly; None otherwise (then :func:`load_user_units` reads all)."""
    version = user_catalog_version(path)
    if version is None or not version[0].endswith(".json"):
        return None
    return _index(*version)


@functools.lru_cache(maxsize=4)
def _index(path: str, size: int, mtime_ns: int, inode: int) -> UserIndex | None:
    p = Path(path).with_name(INDEX_FILE)
    try:
        data = json.loads(p.read_text("utf-8"))
        if (data.get("format") != INDEX_FORMAT
                or data.get("version") != [size, mtime_ns, inode]):
            return None
        rows = tuple(data["units"])
        by_alias = {a: k for k, r in enumerate(rows) for a in r["aliases"]}
        return UserIndex(path, rows, by_alias)
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError, AttributeError):
        return None


def _unit_of(line: str) -> tuple[str, int, int, int | None]:
    try:
        _, name, off, length, mid = line.split("\t")
        return name, int(off), int(length), int(mid) if mid else None
    except ValueError:
        raise UserError(f"the user catalog's name index ({NAMES_FILE}) is damaged; run "
                        "`btsim units import` again") from None


class NameIndex(NamedTuple):
    """The name index of one version of the user catalog: its sorted lines
    ``alias<TAB>unit name<TAB>byte offset<TAB>byte length<TAB>MUL id`` (a tab sorts before
    every printable character, so line order is alias order); only the lines a query
    matches are split."""

    path: str
    lines: list[str]

    def exact(self, q: str) -> list[tuple[str, int, int, int | None]]:
        """``(unit name, offset, length, MUL id)`` of the units with alias ``q``."""
        from bisect import bisect_left

        key, out = q + "\t", []
        k = bisect_left(self.lines, key)
        while k < len(self.lines) and self.lines[k].startswith(key):
            out.append(_unit_of(self.lines[k]))
            k += 1
        return out

    def prefixed(self, q: str) -> list[tuple[str, int, int, int | None]]:
        """The units with an alias that starts with ``q`` (one entry per unit)."""
        from bisect import bisect_left

        out: dict[str, tuple[str, int, int, int | None]] = {}
        k = bisect_left(self.lines, q)
        while k < len(self.lines) and self.lines[k].startswith(q):
            u = _unit_of(self.lines[k])
            out.setdefault(u[0], u)
            k += 1
        return list(out.values())


def user_names(path: Path | None = None) -> NameIndex | None:
    """The name index of the user catalog when it describes the current ``units.json``
    exactly; None otherwise (callers then read the whole catalog)."""
    version = user_catalog_version(path)
    if version is None or not version[0].endswith(".json"):
        return None
    return _names(*version)


@functools.lru_cache(maxsize=4)
def _names(path: str, size: int, mtime_ns: int, inode: int) -> NameIndex | None:
    try:
        text = Path(path).with_name(NAMES_FILE).read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    head, _, body = text.partition("\n")
    if head.split() != ["#btsim-names", str(INDEX_FORMAT), str(size), str(mtime_ns),
                        str(inode)]:
        return None
    lines = body.split("\n")
    if lines and not lines[-1]:
        lines.pop()
    if any(line.count("\t") != 4 for line in lines[:1] + lines[-1:]):
        return None
    return NameIndex(path, lines)


def read_record(path: str, offset: int, length: int) -> ClassicMech:
    """The unit stored at ``offset`` / ``length`` bytes of the user catalog ``path``."""
    try:
        with open(path, "rb") as fh:
            fh.seek(offset)
            rec = json.loads(fh.read(length).decode("utf-8"))
        return _from_record(rec)
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError,
            AttributeError) as exc:
        raise UserError(f"{path}: not a btsim user catalog ({exc}); import again") from None


def load_user_unit(index: UserIndex, row: int) -> ClassicMech:
    """The unit of index row ``row``, read from its byte range alone."""
    r = index.rows[row]
    try:
        return read_record(index.path, int(r["offset"]), int(r["length"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise UserError(f"{index.path}: not a btsim user catalog ({exc}); import again"
                        ) from None

