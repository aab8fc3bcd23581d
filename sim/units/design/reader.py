"""A 'Mech design as the price calculators read it (reference-bv.md 20 "Inputs from a .mtf
file"; reference-as-conversion.md 3.5).

:func:`read_design` reads the header lines and critical-slot blocks of a ``.mtf`` text
(bipeds and quads; the armor, structure, cockpit and gyro types that
:class:`~sim.units.types.ClassicMech` does not keep), and :func:`design_of` turns any unit
(a path, a :class:`ClassicMech` read from a file, or a catalog record) into a
:class:`Design`. :func:`inventory` sorts its slots into weapons, ammunition bins and
equipment: runs of identical slot lines are joined into items by the item's slot count, and
a weapon split over two locations is one weapon (Axman AXM-1N's AC/20, reference-bv.md 20).
Nothing is guessed: an entry that is in neither table is listed in ``Inventory.unknown``, and
the calculators refuse the unit with it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path

from sim.errors import UserError
from sim.units.design.equipment import (
    AmmoRead,
    EquipSpec,
    WeaponSpec,
    equipment_table,
    is_filler,
    norm,
    read_ammo,
    weapons,
)
from sim.units.types import ClassicMech

BIPED_BLOCKS = {"head": "HD", "center torso": "CT", "left torso": "LT", "right torso": "RT",
                "left arm": "LA", "right arm": "RA", "left leg": "LL", "right leg": "RL"}
QUAD_BLOCKS = {"head": "HD", "center torso": "CT", "left torso": "LT", "right torso": "RT",
               "front left leg": "FLL", "front right leg": "FRL", "rear left leg": "RLL",
               "rear right leg": "RRL"}
_ALL_BLOCKS = {**BIPED_BLOCKS, **QUAD_BLOCKS, "center leg": "CL"}
ARMOR_KEYS = {"hd armor": "HD", "ct armor": "CT", "lt armor": "LT", "rt armor": "RT",
              "la armor": "LA", "ra armor": "RA", "ll armor": "LL", "rl armor": "RL",
              "fll armor": "FLL", "frl armor": "FRL", "rll armor": "RLL", "rrl armor": "RRL",
              "cl armor": "CL", "rtc armor": "CTR", "rtl armor": "LTR", "rtr armor": "RTR"}
#: arms of a biped (reference-bv.md 21.5 rule 2, 22.2: arm weapons never halved)
ARMS = ("LA", "RA")
LEGS = ("LL", "RL", "FLL", "FRL", "RLL", "RRL", "CL")
#: the side torso of each arm (21.5 rule 2)
ARM_TORSO = {"LA": "LT", "RA": "RT"}
_EMPTY = frozenset(("-empty-", "empty"))
#: header keys that end a slot block even without a blank line
_BLOCK_ENDERS = frozenset((*ARMOR_KEYS, "weapons", "mass", "armor"))
_SUFFIX = re.compile(r"\s*\((R|OMNIPOD|T|ARMORED|SPLIT)\)\s*$", re.IGNORECASE)
_ENGINE = re.compile(r"\s*([0-9]{1,4})\s+(.*?)\s*engine\b(.*)", re.IGNORECASE)


@dataclass(frozen=True)
class Entry:
    """A run of identical slot lines in one location (or one catalog item, ``lines`` its
    slot count)."""

    name: str
    location: str
    rear: bool
    lines: int
    line: int | None = None


@dataclass(frozen=True)
class Design:
    """The facts of a 'Mech that Battle Value and the Alpha Strike conversion read."""

    name: str
    chassis: str
    model: str
    tons: int
    walk: int
    jump: int
    heat_sinks: int
    heat_sink_type: str
    engine_rating: int
    engine_type: str
    engine_clan: bool
    armor: dict[str, int]
    entries: tuple[Entry, ...]
    mul_id: int | None = None
    tech_base: str = "Inner Sphere"
    config: str = "Biped"
    omni: bool = False
    engine_large: bool = False
    structure: str = "Standard"
    armor_type: str = "Standard"
    myomer: str = "Standard"
    cockpit: str = "Standard Cockpit"
    gyro: str = "Standard Gyro"
    source: str = ""
    #: facts the source does not carry that were assumed (catalog records: armor,
    #: structure, cockpit and gyro types), one line each
    assumed: tuple[str, ...] = ()
    #: :func:`inventory` of this design, kept once computed (not part of the value)
    _inventory: Inventory | None = field(default=None, compare=False, repr=False)

    @property
    def clan(self) -> bool:
        return self.tech_base.strip().lower() == "clan"

    @property
    def quad(self) -> bool:
        return self.config == "Quad"

    @property
    def tsm(self) -> bool:
        m = self.myomer.lower()
        return "triple" in m and "industrial" not in m and "prototype" not in m


@dataclass(frozen=True)
class WeaponItem:
    spec: WeaponSpec
    location: str
    rear: bool
    split: str | None = None
    line: int | None = None
    #: the slot name as the file writes it
    name: str = ""

    @property
    def label(self) -> str:
        return self.name or self.spec.slot


@dataclass(frozen=True)
class AmmoItem:
    """One bin (one slot)."""

    read: AmmoRead
    location: str
    name: str


@dataclass(frozen=True)
class EquipItem:
    spec: EquipSpec
    location: str


@dataclass
class Inventory:
    weapons: list[WeaponItem] = field(default_factory=list)
    ammo: list[AmmoItem] = field(default_factory=list)
    equipment: list[EquipItem] = field(default_factory=list)
    #: ``(slot name, location, why)`` of every entry neither table knows
    unknown: list[tuple[str, str, str]] = field(default_factory=list)

    def has(self, kind: str) -> bool:
        return any(e.spec.kind == kind for e in self.equipment)

    def count(self, kind: str, location: str | None = None) -> int:
        return sum(1 for e in self.equipment
                   if e.spec.kind == kind and (location is None or e.location == location))


def _split(entry: str) -> tuple[str, bool]:
    name, rear = entry.strip(), False
    while True:
        m = _SUFFIX.search(name)
        if m is None:
            return name, rear
        rear = rear or m.group(1).upper() == "R"
        name = name[: m.start()].rstrip()


def _engine(value: str) -> tuple[int, str, bool, bool]:
    m = _ENGINE.fullmatch(value)
    if m is None:
        raise UserError(f"engine line {value!r}: expected '<rating> <type> Engine'")
    kind = m.group(2)
    clan = "clan" in (kind + m.group(3)).lower()
    word = " ".join(re.sub(r"\((?:clan|is|inner sphere)\)", " ", kind, flags=re.I).split())
    word = word.lower()
    large = word.startswith("large ")
    word = word.removeprefix("large ").strip()
    names = {"fusion": "Fusion", "xl": "XL", "xxl": "XXL", "light": "Light",
             "compact": "Compact", "ice": "ICE", "i.c.e.": "ICE", "fuel cell": "Fuel Cell",
             "fuel-cell": "Fuel Cell", "fission": "Fission", "primitive fusion": "Primitive"}
    return int(m.group(1)), names.get(word, word or "Fusion"), clan, large


def read_design(text: str, source: str = "<string>") -> Design:
    """Read the design facts of one ``.mtf`` text (header keys case-insensitive)."""
    keys: dict[str, str] = {}
    blocks: dict[str, list[tuple[str, int]]] = {}
    current: list[tuple[str, int]] | None = None
    for i, raw in enumerate(text.splitlines(), 1):
        s = raw.strip()
        if not s:
            current = None
            continue
        if s[-1] == ":":
            loc = _ALL_BLOCKS.get(" ".join(s[:-1].split()).lower())
            if loc is not None:
                current = blocks[loc] = []
                continue
        colon = s.find(":")
        if current is not None:
            if colon < 0 or s[:colon].strip().lower() not in _BLOCK_ENDERS:
                current.append((s, i))
                continue
            current = None
        if colon >= 0:
            k = " ".join(s[:colon].split()).lower().lstrip("\ufeff")
            keys.setdefault(k, s[colon + 1:].strip())
    fn = Path(source).name

    def need(k: str) -> str:
        if not keys.get(k):
            raise UserError(f"{fn}: expected a '{k}:' line with a value")
        return keys[k]

    def integer(k: str, default: int | None = None) -> int:
        v = keys.get(k)
        if not v:
            if default is None:
                raise UserError(f"{fn}: expected a '{k}:' line with a value")
            return default
        try:
            val = int(v.rsplit(":", 1)[-1])
        except ValueError:
            raise UserError(f"{fn}: expected an integer for '{k}:', got {v!r}") from None
        if not 0 <= val <= 1000:
            raise UserError(f"{fn}: expected an integer in 0..1000 for '{k}:', got {v!r}")
        return val

    config_words = need("config").split() if keys.get("config") else ["Biped"]
    config = config_words[0].capitalize()
    omni = any(w.lower() in ("omnimek", "omnimech") for w in config_words[1:])
    rating, etype, eclan, large = _engine(need("engine"))
    hs = re.fullmatch(r"\s*([0-9]{1,3})\s*(.*)", need("heat sinks"))
    if hs is None:
        raise UserError(f"{fn}: expected 'heat sinks: <count> <type>'")
    hs_kind = hs.group(2).lower()
    hs_type = ("Double" if "double" in hs_kind else "Laser" if "laser" in hs_kind
               else "Compact" if "compact" in hs_kind else "Single")
    armor = {loc: integer(k) for k, loc in ARMOR_KEYS.items() if k in keys}
    entries: list[Entry] = []
    for loc, items in blocks.items():
        last: tuple[str, bool] | None = None
        count = 0
        first = (s, 0)
        for raw_line, lineno in items:
            if raw_line.lower() in _EMPTY:
                run: tuple[str, bool] | None = None
            else:
                name, rear = _split(raw_line) if raw_line[-1] == ")" else (raw_line, False)
                run = (name, rear)
            if last is not None and (run is None or run[0].lower() != last[0].lower()
                                     or run[1] != last[1]):
                entries.append(Entry(last[0], loc, last[1], count, first[1]))
                last = None
            if run is not None and last is None:
                last, count, first = run, 0, (raw_line, lineno)
            if run is not None:
                count += 1
        if last is not None:
            entries.append(Entry(last[0], loc, last[1], count, first[1]))
    mul = keys.get("mul id")
    cockpit = keys.get("cockpit") or _slot_cockpit(entries)
    gyro = keys.get("gyro") or _slot_gyro(entries)
    return Design(
        name=" ".join(p for p in (need("chassis"), f"({keys['clanname']})"
                                  if keys.get("clanname") else "", keys.get("model", "")) if p),
        chassis=need("chassis"), model=keys.get("model", ""), tons=integer("mass"),
        walk=integer("walk mp"), jump=integer("jump mp", 0), heat_sinks=int(hs.group(1)),
        heat_sink_type=hs_type, engine_rating=rating, engine_type=etype, engine_clan=eclan,
        engine_large=large, armor=armor, entries=tuple(entries),
        mul_id=int(mul) if mul and mul.strip().lstrip("-").isdigit() and int(mul) > 0
        else None,
        tech_base=keys.get("techbase") or "Inner Sphere", config=config, omni=omni,
        structure=keys.get("structure") or "Standard", armor_type=keys.get("armor") or
        "Standard", myomer=keys.get("myomer") or "Standard", cockpit=cockpit, gyro=gyro,
        source=source)


def _slot_cockpit(entries: list[Entry]) -> str:
    for e in entries:
        k = norm(e.name)
        if k == "smallcockpit":
            return "Small Cockpit"
        if k == "cockpit" and e.location == "CT":
            return "Torso-Mounted Cockpit"
        if k == "commandconsole":
            return "Command Console"
    return "Standard Cockpit"


def _slot_gyro(entries: list[Entry]) -> str:
    for e in entries:
        k = norm(e.name)
        if k in ("compactgyro", "heavydutygyro", "xlgyro"):
            return {"compactgyro": "Compact Gyro", "heavydutygyro": "Heavy Duty Gyro",
                    "xlgyro": "XL Gyro"}[k]
    return "Standard Gyro"


def read_design_file(path: str | PathLike[str]) -> Design:
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise UserError(f"{p.name}: expected a readable .mtf file ({exc.strerror})") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    return read_design(text, str(p))


_CATALOG_ASSUMED = ("armor, structure, cockpit and gyro types: the catalog record does not "
                    "keep them; standard assumed (pass the .mtf file for the exact value)")


def design_of(unit: ClassicMech | Design | str | PathLike[str]) -> Design:
    """The design of ``unit``: a :class:`Design` as is; a path read with
    :func:`read_design_file`; a :class:`ClassicMech` read again from its source file when it
    has one (for the types the record lacks), else built from its record."""
    if isinstance(unit, Design):
        return unit
    if isinstance(unit, (str, PathLike)):
        return read_design_file(unit)
    src = Path(unit.source) if unit.source else None
    if src is not None and src.suffix.lower() == ".mtf" and src.is_file():
        return read_design_file(src)
    return _from_record(unit)


def _from_record(m: ClassicMech) -> Design:
    table = weapons()
    entries: list[Entry] = []
    for w in m.weapon_mounts:
        spec = table.get(norm(w.name))
        entries.append(Entry(w.name, w.location, w.rear, spec.slots if spec else 1))
    entries += [Entry(b.name, b.location, False, 1) for b in m.ammo_bins]
    etab = equipment_table()
    for key, loc in m.equipment:
        eq = etab.get(norm(key))
        entries.append(Entry(eq.slot if eq else key, loc, False,
                             max(eq.slots, 1) if eq else 1))
    for name, loc in m.physical_weapons:
        entries.append(Entry(name.replace("_", " ").title(), loc, False, 1))
    if m.tech_base.strip().lower() != "clan":
        entries += [Entry("ISCASE", loc, False, 1) for loc in m.case_locations]
    entries += [Entry("ISCASEII", loc, False, 1) for loc in m.case2_locations]
    return Design(
        name=m.name, chassis=m.chassis, model=m.model, tons=m.tons, walk=m.walk_mp,
        jump=m.jump_mp, heat_sinks=m.heat_sinks, heat_sink_type=m.heat_sink_type,
        engine_rating=m.engine_rating, engine_type=m.engine_type, engine_clan=m.engine_clan,
        armor=dict(m.armor), entries=tuple(entries), mul_id=m.mul_id, tech_base=m.tech_base,
        config=m.config, omni=m.omni, myomer=m.myomer, source=m.source,
        assumed=(_CATALOG_ASSUMED,))


def inventory(d: Design) -> Inventory:
    """Sort the slot entries of ``d`` into weapons, bins and equipment (see module doc);
    computed once per design."""
    if d._inventory is None:
        object.__setattr__(d, "_inventory", _inventory(d))
    assert d._inventory is not None
    return d._inventory


def _inventory(d: Design) -> Inventory:
    inv = Inventory()
    wtab, etab = weapons(), equipment_table()
    partial: list[tuple[WeaponSpec, Entry, int]] = []
    for e in d.entries:
        key = norm(e.name)
        if is_filler(key):
            continue
        spec = wtab.get(key)
        if spec is not None:
            whole, rest = divmod(e.lines, spec.slots)
            inv.weapons += [WeaponItem(spec, e.location, e.rear, line=e.line, name=e.name)
                            for _ in range(whole)]
            if rest:
                partial.append((spec, e, rest))
            continue
        ammo = read_ammo(e.name, d.tech_base)
        if isinstance(ammo, AmmoRead):
            inv.ammo += [AmmoItem(ammo, e.location, e.name)] * e.lines
            continue
        if isinstance(ammo, str):
            inv.unknown.append((e.name, e.location, "ammunition not in the table"))
            continue
        eq = etab.get(key)
        if eq is not None:
            n = 1 if eq.slots == 0 else max(e.lines // eq.slots, 1)
            inv.equipment += [EquipItem(eq, e.location)] * n
            continue
        inv.unknown.append((e.name, e.location, "equipment not in the table"))
    while partial:
        spec, a, na = partial.pop(0)
        mate = next((p for p in partial if p[0] is spec and p[1].rear == a.rear
                     and na + p[2] == spec.slots), None)
        if mate is None:
            inv.unknown.append((a.name, a.location, f"{na} of {spec.slots} slots"))
            continue
        partial.remove(mate)
        main, other = (a, mate[1]) if na >= mate[2] else (mate[1], a)
        inv.weapons.append(WeaponItem(spec, main.location, a.rear, split=other.location,
                                      line=a.line, name=a.name))
    return inv
