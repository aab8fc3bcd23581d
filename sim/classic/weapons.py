"""The Classic weapon and ammunition tables (reference-classic-combat.md 10.1-10.3), as data.

One table, one place: ``sim/classic/data/weapons.csv`` (one row per weapon, with the ``.mtf``
slot name, the other lookup names and a ``source`` per row) and ``sim/classic/data/ammo.csv``
(one row per ammunition type), ``sim/classic/data/munitions.csv`` (rounds a launcher fires
besides its standard ones, with their own damage and ranges: :class:`Munition`,
:func:`rounds_for`). This module only loads and checks them.

Columns of ``weapons.csv`` (reference 10.2): ``damage`` per missile for launchers, per shot
otherwise; ``heat`` per shot (Ultra/Rotary: per shot fired); ``min_range`` 0 = none;
``short``/``medium``/``long`` the upper bound of each bracket in hexes (AMS: 0, defensive);
``to_hit_mod`` (pulse -2, MRM +1; 10.3); ``cluster`` missiles per salvo rolled on the cluster
table (0 = one group); ``group`` damage points per hit-location group (LRM/MRM/ATM 5,
SRM/Streak 2, 0 = the whole damage one group); ``rate`` shots per turn (Ultra 2, Rotary 6);
``ammo`` the ammunition family the weapon feeds from (empty: energy); ``explosive`` and
``explosion_damage`` (Gauss rifles, 10.3); ``tons``/``slots`` (reference only, slots also
group repeated slot lines into one weapon); ``defensive`` (AMS: never fires at a target);
``cluster_bonus`` the launcher's built-in modifier on its cluster roll (ATM +2, 10.3 and
11.2; read through :func:`sim.classic.fire.cluster.cluster_modifier`); ``cluster_by_range``
the modifier on the cluster roll by range bracket (``S/M/L``: HAG ``2/0/-2``); ``one_shot``
``true`` for a one-shot launcher (its one volley in the launcher, no bin). The last columns
are optional per row: a row that stops before them (or leaves them empty) has none.

Columns of ``ammo.csv``: ``key`` (canonical), ``family`` (= ``Weapon.ammo`` of the weapons
that use it), ``lookups`` (names in ``.mtf`` slots), ``half_lookups`` (names of half-ton
bins, which hold half the shots: 10.1 "half-ton MG bins hold 100 shots"),
``shots_per_ton``, ``damage_per_shot`` (explosion damage per round = damage x missiles,
14.4), ``cluster``/``group``/``to_hit_mod`` of the ammunition itself (LB-X cluster rounds:
class, 1, -1; 10.3), ``explosive`` (all but Gauss, 10.3).

Name lookup (10.1, MegaMek ``MtfFile``): the name as written (the slot/internal name or any
lookup name), then with the prefix ``"IS "`` or ``"Clan "`` chosen from the 'Mech's tech
base. Matching ignores case, spaces and punctuation (``IS LRM-20`` = ``IS LRM 20``); the
table is checked at load time so that no two weapons (or ammo types) share a matching name.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import TYPE_CHECKING

from sim.errors import UserError

if TYPE_CHECKING:
    from sim.units.types import ClassicMech, WeaponMount

WEAPONS_FILE = "weapons.csv"
AMMO_FILE = "ammo.csv"
EQUIPMENT_FILE = "equipment.csv"
#: rounds a launcher fires besides its standard ones (:class:`Munition`)
MUNITIONS_FILE = "munitions.csv"
#: Allowed values of ``Weapon.tech`` and ``Weapon.family``.
TECHS = ("IS", "Clan", "Both")
FAMILIES = ("laser", "pulse", "ppc", "flamer", "mg", "ac", "lbx", "ultra", "rotary", "gauss",
            "lrm", "srm", "streak", "mrm", "atm", "narc", "tag", "ams", "plasma", "artillery")
#: Launcher families an Artemis IV / V fire-control system can be linked to (10.3: LRM and
#: SRM; MML launchers are read as the ``lrm`` family). Streaks, ATMs and MRMs cannot.
ARTEMIS_FAMILIES = ("lrm", "srm")
#: Equipment kind of each Artemis system -> its key in
#: :data:`sim.classic.fire.cluster.ARTEMIS_BONUS` (the bonus itself lives there: IV +2,
#: reference 10.3; V +3, MegaMek ``ArtemisVHandler``).
ARTEMIS_KIND = {"artemis_iv": "iv", "artemis_v": "v", "apollo": "apollo"}
#: Launcher families each fire-control system links to: Artemis IV / V the LRM and SRM
#: (10.3), the Apollo FCS the MRM (10.3 MRM row, 11.2: -1 on the cluster roll, the MRM's
#: +1 to-hit cancelled; MegaMek MiscType Apollo FCS)
FCS_FAMILIES = {"artemis_iv": ARTEMIS_FAMILIES, "artemis_v": ARTEMIS_FAMILIES,
                "apollo": ("mrm",)}


class WeaponTableError(UserError):
    """A broken row in one of the table files (file, line and what is wrong)."""


@dataclass(frozen=True)
class Weapon:
    """One row of the weapon table (reference 10.2, special rules 10.3)."""

    key: str
    name: str
    tech: str
    family: str
    damage: int
    heat: int
    min_range: int
    short: int
    medium: int
    long: int
    to_hit_mod: int
    cluster: int
    group: int
    rate: int
    ammo: str | None
    explosive: bool
    source: str
    #: the slot / internal name MegaMek writes in ``.mtf`` critical slots
    slot_name: str = ""
    #: every name that resolves to this weapon (slot name first)
    lookups: tuple[str, ...] = ()
    #: damage to internal structure when a slot of the weapon is hit (Gauss 20 / 16)
    explosion_damage: int = 0
    tons: float = 0.0
    slots: int = 1
    #: True for AMS: it engages incoming missiles and never fires at a target
    defensive: bool = False
    #: built-in modifier on the launcher's cluster roll (ATM +2; 10.3, 11.2)
    cluster_bonus: int = 0
    #: how far btsim simulates it (column ``simulated``): "" fully; ``"partly: <what is
    #: not>"`` it fires, the rest is not simulated; ``"no: <why>"`` it never fires. Either
    #: of the last two makes the unit carrying it ``incomplete`` (:mod:`sim.units.usable`);
    #: ``"none: <why>"`` it never fires because it cannot act in a land duel (torpedoes:
    #: water only), and the unit stays complete
    simulated: str = ""
    #: damage at short / medium / long range for weapons whose damage falls with range
    #: (column ``damage_by_range``: snub-nose PPC 10/8/5, heavy Gauss 25/20/10); None: one
    #: damage at every range (:func:`damage_at`)
    damage_by_range: tuple[int, int, int] | None = None
    #: modifier on the cluster roll at short / medium / long range for weapons whose roll
    #: changes with the range bracket (column ``cluster_by_range``: HAG +2/0/-2, MegaMek
    #: ``HAGWeaponHandler``); None: none (the fire model gives it one gun per bracket)
    cluster_by_range: tuple[int, int, int] | None = None
    #: the weapon's own to-hit modifier at short / medium / long range for weapons whose
    #: modifier changes with the range bracket (column ``to_hit_by_range``: variable-speed
    #: pulse lasers -3/-2/-1, MegaMek ``ComputeToHit``); None: ``to_hit_mod`` at every range
    #: (:func:`to_hit_at`)
    to_hit_by_range: tuple[int, int, int] | None = None
    #: a one-shot launcher (column ``one_shot``; OS / I-OS launchers, rocket launchers:
    #: reference 10.3 "fire once per game", MegaMek ``F_ONESHOT``): its one volley is carried
    #: in the launcher, not in an ammunition bin (:func:`one_shot_rounds`)
    one_shot: bool = False

    @property
    def fires(self) -> bool:
        """False for a weapon btsim does not simulate at all (``simulated`` = ``no: ...``)
        or one that cannot act in a land duel (``none: ...``: torpedoes)."""
        return not self.simulated.startswith(("no:", "none:"))

    @property
    def deals_damage(self) -> bool:
        """False for Narc, TAG and AMS (no damage, 10.2)."""
        return self.damage > 0

    @property
    def max_salvo_damage(self) -> int:
        """Damage of one shot when everything hits (cluster weapons: all missiles)."""
        return self.damage * max(self.cluster, 1)


@dataclass(frozen=True)
class AmmoType:
    """One row of the ammunition table (reference 10.1-10.3, 14.4)."""

    key: str
    weapon_family_key: str
    shots_per_ton: int
    damage_per_shot: int
    explosive: bool
    source: str
    tech: str = "IS"
    lookups: tuple[str, ...] = ()
    half_lookups: tuple[str, ...] = ()
    cluster: int = 0
    group: int = 0
    to_hit_mod: int = 0
    #: "" when simulated; ``"no: <why>"`` for rounds no weapon fires (MML SRM, ATM ER/HE)
    simulated: str = ""

    def feeds(self, weapon: Weapon) -> bool:
        """True when ``weapon`` can fire this ammunition."""
        return weapon.ammo is not None and weapon.ammo == self.weapon_family_key


@dataclass(frozen=True)
class Equipment:
    """Known non-weapon equipment that may sit in critical slots (``equipment.csv``): heat
    sinks, jump jets, CASE, filler slots, targeting computers, ECM, probes, A-Pods. ``slots``
    is the size of one item (0: variable, one item per run of identical slot lines)."""

    key: str
    kind: str
    tech: str
    slots: int
    hittable: bool
    source: str
    lookups: tuple[str, ...] = ()
    #: "" when simulated; ``"none: <why>"`` no effect in a one-on-one duel (ECM, C3, probes;
    #: the unit stays complete); ``"no: <why>"`` not simulated (the unit is incomplete)
    simulated: str = ""


def norm_name(name: str) -> str:
    """Lookup form of a name: lower case, letters and digits only."""
    return re.sub(r"[^a-z0-9]+", "", name.lower())


def tech_prefix(tech_base: str) -> str:
    """The lookup prefix MegaMek retries with (10.1): ``"Clan "`` for Clan and
    ``Mixed (Clan Chassis)`` tech bases, ``"IS "`` otherwise."""
    t = tech_base.strip().lower()
    return "Clan " if t == "clan" or ("mixed" in t and "clan" in t) else "IS "


def _data(filename: str) -> list[dict[str, str]]:
    text = resources.files("sim.classic").joinpath("data", filename).read_text("utf-8")
    return list(csv.DictReader(text.splitlines()))


def _bool(row: dict[str, str], col: str, where: str) -> bool:
    val = row[col].strip().lower()
    if val not in ("true", "false"):
        raise WeaponTableError(f"{where}: column {col!r} must be true or false, got {row[col]!r}")
    return val == "true"


def _int(row: dict[str, str], col: str, where: str) -> int:
    try:
        return int(row[col])
    except ValueError:
        raise WeaponTableError(f"{where}: column {col!r} must be an integer, got {row[col]!r}"
                          ) from None


def _simulated(row: dict[str, str], where: str, kinds: tuple[str, ...]) -> str:
    """The optional ``simulated`` column: empty, or ``<kind>: <reason>`` for one of ``kinds``."""
    val = (row.get("simulated") or "").strip()
    if val and (val.split(":", 1)[0] not in kinds or not val.partition(":")[2].strip()):
        raise WeaponTableError(f"{where}: column 'simulated' must be empty or "
                               + " / ".join(f"'{k}: <reason>'" for k in kinds)
                               + f", got {val!r}")
    return val


def _by_range(row: dict[str, str], where: str) -> tuple[int, int, int] | None:
    """The optional ``damage_by_range`` column: empty or ``S/M/L`` damages."""
    val = (row.get("damage_by_range") or "").strip()
    if not val:
        return None
    parts = val.split("/")
    if len(parts) != 3 or not all(p.isdigit() for p in parts):
        raise WeaponTableError(f"{where}: column 'damage_by_range' must be empty or S/M/L "
                               f"damages like 10/8/5, got {val!r}")
    return int(parts[0]), int(parts[1]), int(parts[2])


def _cluster_by_range(row: dict[str, str], where: str,
                      column: str = "cluster_by_range") -> tuple[int, int, int] | None:
    """The optional ``cluster_by_range`` (or ``to_hit_by_range``) column: empty or
    ``S/M/L`` signed modifiers."""
    val = (row.get(column) or "").strip()
    if not val:
        return None
    parts = val.split("/")
    if len(parts) != 3 or not all(p.lstrip("+-").isdigit() for p in parts):
        raise WeaponTableError(f"{where}: column {column!r} must be empty or S/M/L "
                               f"modifiers like 2/0/-2, got {val!r}")
    return int(parts[0]), int(parts[1]), int(parts[2])


def to_hit_at(w: Weapon, bracket: str | None) -> int:
    """``w``'s own to-hit modifier in a range bracket: its ``to_hit_by_range`` entry
    (variable-speed pulse lasers), else ``to_hit_mod``."""
    if w.to_hit_by_range is None or bracket is None:
        return w.to_hit_mod
    return w.to_hit_by_range[("short", "medium", "long").index(bracket)]


def cluster_mod_at(w: Weapon, bracket: str | None) -> int:
    """``w``'s range-bracket modifier on its cluster roll (``cluster_by_range``; 0 without,
    or beyond long range)."""
    if w.cluster_by_range is None or bracket is None:
        return 0
    return w.cluster_by_range[("short", "medium", "long").index(bracket)]


def damage_at(w: Weapon, bracket: str | None) -> int:
    """Damage of ``w`` in a range bracket (``short``/``medium``/``long``): its
    ``damage_by_range`` entry, else its one damage."""
    if w.damage_by_range is None or bracket is None:
        return w.damage
    return w.damage_by_range[("short", "medium", "long").index(bracket)]


def _names(text: str) -> tuple[str, ...]:
    return tuple(n.strip() for n in text.split("|") if n.strip())


def _index(items: Mapping[str, tuple[str, ...]], what: str) -> dict[str, str]:
    """norm(name) -> key, refusing a name that matches two keys."""
    out: dict[str, str] = {}
    for key, names in items.items():
        for n in names:
            k = norm_name(n)
            if out.get(k, key) != key:
                raise WeaponTableError(f"{what}: name {n!r} matches both {out[k]!r} and {key!r}")
            out[k] = key
    return out


@cache
def _weapons() -> tuple[dict[str, Weapon], dict[str, str]]:
    table: dict[str, Weapon] = {}
    for k, row in enumerate(_data(WEAPONS_FILE), 2):
        where = f"{WEAPONS_FILE}:{k}"
        if row["key"] in table:
            raise WeaponTableError(f"{where}: duplicate key {row['key']!r}")
        if row["tech"] not in TECHS or row["family"] not in FAMILIES:
            raise WeaponTableError(f"{where}: tech must be one of {TECHS} and family one of "
                              f"{FAMILIES}, got {row['tech']!r} / {row['family']!r}")
        ints = {c: _int(row, c, where) for c in (
            "damage", "heat", "min_range", "short", "medium", "long", "to_hit_mod",
            "cluster", "group", "rate", "explosion_damage", "slots")}
        table[row["key"]] = Weapon(
            key=row["key"], name=row["name"], tech=row["tech"], family=row["family"],
            ammo=row["ammo"] or None, explosive=_bool(row, "explosive", where),
            source=row["source"], slot_name=row["slot_name"],
            lookups=(row["slot_name"], *_names(row["lookups"])), tons=float(row["tons"]),
            defensive=_bool(row, "defensive", where),
            simulated=_simulated(row, where, ("none", "partly", "no")),
            damage_by_range=_by_range(row, where),
            cluster_by_range=_cluster_by_range(row, where),
            to_hit_by_range=_cluster_by_range(row, where, "to_hit_by_range"),
            cluster_bonus=_int(row, "cluster_bonus", where) if row.get("cluster_bonus") else 0,
            one_shot=bool(row.get("one_shot")) and _bool(row, "one_shot", where),
            **ints)
    index = _index({k: (w.key, *w.lookups) for k, w in table.items()}, WEAPONS_FILE)
    return table, index


@cache
def _ammo() -> tuple[dict[str, AmmoType], dict[str, str], dict[str, str]]:
    table: dict[str, AmmoType] = {}
    for k, row in enumerate(_data(AMMO_FILE), 2):
        where = f"{AMMO_FILE}:{k}"
        if row["key"] in table:
            raise WeaponTableError(f"{where}: duplicate key {row['key']!r}")
        table[row["key"]] = AmmoType(
            key=row["key"], weapon_family_key=row["family"], tech=row["tech"],
            lookups=_names(row["lookups"]), half_lookups=_names(row["half_lookups"]),
            shots_per_ton=_int(row, "shots_per_ton", where),
            damage_per_shot=_int(row, "damage_per_shot", where),
            cluster=_int(row, "cluster", where), group=_int(row, "group", where),
            to_hit_mod=_int(row, "to_hit_mod", where),
            explosive=_bool(row, "explosive", where), source=row["source"],
            simulated=_simulated(row, where, ("no",)))
    full = _index({k: (a.key, *a.lookups) for k, a in table.items()}, AMMO_FILE)
    half = _index({k: a.half_lookups for k, a in table.items()}, AMMO_FILE)
    clash = sorted(set(full) & set(half))
    if clash:
        raise WeaponTableError(f"{AMMO_FILE}: {clash[0]!r} is both a full-ton and a half-ton name")
    return table, full, half


@cache
def _equipment() -> tuple[dict[str, Equipment], dict[str, str]]:
    table: dict[str, Equipment] = {}
    for k, row in enumerate(_data(EQUIPMENT_FILE), 2):
        where = f"{EQUIPMENT_FILE}:{k}"
        if row["key"] in table:
            raise WeaponTableError(f"{where}: duplicate key {row['key']!r}")
        table[row["key"]] = Equipment(
            key=row["key"], kind=row["kind"], tech=row["tech"], slots=_int(row, "slots", where),
            hittable=_bool(row, "hittable", where), source=row["source"],
            lookups=_names(row["lookups"]),
            simulated=_simulated(row, where, ("none", "partly", "no")))
    return table, _index({k: (e.key, *e.lookups) for k, e in table.items()}, EQUIPMENT_FILE)


@dataclass(frozen=True)
class Munition:
    """One row of ``munitions.csv``: rounds a launcher fires *besides* its standard ones,
    with their own firing numbers (MML SRM rounds; ATM ER and HE rounds, reference 10.2).
    The launcher's heat, rack size, to-hit modifier and cluster bonus stay its own."""

    ammo: str
    launcher: str
    label: str
    family: str
    damage: int
    min_range: int
    short: int
    medium: int
    long: int
    group: int
    source: str


@cache
def _munitions() -> dict[str, tuple[Munition, ...]]:
    """launcher key -> its other rounds, in table order (checked against both tables)."""
    out: dict[str, list[Munition]] = {}
    weapons, ammo = _weapons()[0], _ammo()[0]
    for k, row in enumerate(_data(MUNITIONS_FILE), 2):
        where = f"{MUNITIONS_FILE}:{k}"
        ints = {c: _int(row, c, where) for c in ("damage", "min_range", "short", "medium",
                                                 "long", "group")}
        m = Munition(ammo=row["ammo"], launcher=row["launcher"], label=row["label"],
                     family=row["family"], source=row["source"], **ints)
        if m.launcher not in weapons or m.ammo not in ammo or m.family not in FAMILIES:
            raise WeaponTableError(f"{where}: launcher {m.launcher!r}, ammunition {m.ammo!r} "
                                   f"and family {m.family!r} must be in the tables")
        if weapons[m.launcher].ammo == m.ammo:
            raise WeaponTableError(f"{where}: {m.ammo!r} is the launcher's standard round")
        out.setdefault(m.launcher, []).append(m)
    return {k: tuple(v) for k, v in out.items()}


def rounds_for(weapon: Weapon) -> tuple[Weapon, ...]:
    """Every kind of round ``weapon`` can fire, as the weapon firing it: the launcher itself
    (its standard rounds, ``weapon.ammo``), then each :class:`Munition` of it with its own
    damage, ranges, grouping and ammunition (``ammo``), named ``"MML 7 (SRM rounds)"``. A
    weapon without other rounds gives ``(weapon,)``. The fire model picks among those it
    has ammunition for (:func:`sim.classic.fire.scenario.choose_rounds`)."""
    from dataclasses import replace

    return (weapon, *(replace(weapon, name=f"{weapon.name} ({m.label})", family=m.family,
                              damage=m.damage, min_range=m.min_range, short=m.short,
                              medium=m.medium, long=m.long, group=m.group, ammo=m.ammo,
                              source=m.source)
                      for m in _munitions().get(weapon.key, ())))


WEAPONS: Mapping[str, Weapon] = MappingProxyType(_weapons()[0])
AMMO: Mapping[str, AmmoType] = MappingProxyType(_ammo()[0])
EQUIPMENT: Mapping[str, Equipment] = MappingProxyType(_equipment()[0])


def _resolve(name: str, tech_base: str, index: Mapping[str, str],
             display: bool = False) -> str | None:
    """10.1: the name as written, then with the tech-base prefix (``display``: the other
    way round, C20)."""
    order = (name, tech_prefix(tech_base) + name)
    for candidate in (order[::-1] if display else order):
        key = index.get(norm_name(candidate))
        if key is not None:
            return key
    return None


def lookup_weapon(name: str, tech_base: str = "Inner Sphere", *,
                  display: bool = False) -> Weapon | None:
    """The weapon a slot or display name means (10.1), or None when the table lacks it.

    ``lookup_weapon("CLLRM20")`` is the Clan LRM 20, ``lookup_weapon("ER Medium Laser",
    "Clan")`` the Clan ER medium laser (retried as ``Clan ER Medium Laser``). A name that is
    itself an IS name resolves to the IS weapon on any tech base, as in MegaMek
    (``"LRM 20"`` is the IS launcher's internal name).

    ``display=True`` is for display names only (the ``Weapons:`` list, user input): the
    tech-base prefix is tried first, so ``"LRM 20"`` on a Clan 'Mech is the Clan launcher
    (C20: IS/Clan from the tech base when only a display name is available)."""
    key = _resolve(name, tech_base, _weapons()[1], display)
    return WEAPONS[key] if key is not None else None


#: Munition suffixes MegaMek appends to an ammunition slot name (``IS Ammo LRM-10
#: Artemis-capable``; MegaMek ``MunitionMutator``), normalised (:func:`norm_name`) -> the tag
#: btsim keeps on the bin. Artemis(-V)- and Narc-capable rounds are the standard rounds plus
#: a guidance flag (10.3); every other munition is a special round btsim does not simulate.
GUIDED_MUNITIONS = {"artemiscapable": "artemis", "artemisvcapable": "artemis_v",
                    "narccapable": "narc"}
SPECIAL_MUNITIONS = (
    "Inferno", "Thunder", "Thunder-Augmented", "Thunder-Inferno", "Thunder-Vibrabomb",
    "Thunder-Active", "Fragmentation", "Swarm", "Swarm-I", "Semi-guided", "Heat-Seeking",
    "Listen-Kill", "Tandem-Charge", "Dead-Fire", "Smoke", "Acid", "Anti-TSM", "Incendiary",
    "Mine Clearance", "Follow The Leader", "Armor-Piercing", "Precision", "Flak", "Tracer",
    "Flechette", "Caseless", "Illumination", "FASCAM", "Magnetic Pulse", "Laser Inhibiting",
    "Harpoon", "Davy Crockett-M", "Copperhead", "Homing")


def split_munition(name: str) -> tuple[str, str]:
    """``(base slot name, munition)`` of an ammunition slot name: ``"IS Ammo LRM-10
    Artemis-capable"`` -> ``("IS Ammo LRM-10", "artemis")``; a special munition keeps its
    own name (``"Inferno"``); plain ammunition ``(name, "")``. Linear in the name's length."""
    text = " ".join(name.replace("(Clan)", " ").split())
    low = text.lower()
    for suffix in sorted(("Artemis-capable", "Artemis V-capable", "Narc-capable",
                          *SPECIAL_MUNITIONS), key=len, reverse=True):
        if low.endswith(" " + suffix.lower()):
            base = text[: -len(suffix) - 1].rstrip()
            return base, GUIDED_MUNITIONS.get(norm_name(suffix), suffix)
    return name, ""


def lookup_ammo(name: str, tech_base: str = "Inner Sphere") -> AmmoType | None:
    """The ammunition type a slot name means (full- or half-ton bin), or None."""
    hit = lookup_ammo_bin(name, tech_base)
    return hit[0] if hit is not None else None


def lookup_ammo_bin(name: str, tech_base: str = "Inner Sphere") -> tuple[AmmoType, int] | None:
    """(ammo type, shots in a full bin of that slot) for a slot name, or None. Half-ton bins
    (``IS Ammo MG - Half``) hold half the shots of a ton (10.1: 100 MG rounds)."""
    _, full, half = _ammo()
    base, munition = split_munition(name)
    if munition in ("artemis", "artemis_v", "narc"):
        name = base  # guided rounds are the standard rounds (10.3)
    key = _resolve(name, tech_base, full)
    if key is not None:
        return AMMO[key], AMMO[key].shots_per_ton
    key = _resolve(name, tech_base, half)
    if key is not None:
        return AMMO[key], AMMO[key].shots_per_ton // 2
    return None


def lookup_equipment(name: str, tech_base: str = "Inner Sphere") -> Equipment | None:
    """Known non-weapon equipment for a slot name (same lookup order as weapons), or None.
    A variable-size item's slot (MegaMek ``Cargo:size:0.5``) is looked up by its name
    before ``:size:``."""
    key = _resolve(name, tech_base, _equipment()[1])
    if key is None and ":size:" in name.lower():
        key = _resolve(name[:name.lower().index(":size:")], tech_base, _equipment()[1])
    return EQUIPMENT[key] if key is not None else None


def ammo_for(weapon: Weapon) -> tuple[AmmoType, ...]:
    """Every ammunition type the weapon can fire (LB-X: slug and cluster)."""
    return tuple(a for a in AMMO.values() if a.feeds(weapon))


def require(mech: ClassicMech, mounts: tuple[WeaponMount, ...] | None = None
            ) -> tuple[tuple[WeaponMount, Weapon], ...]:
    """The weapon of every mount of ``mech`` (or of ``mounts``), for a caller about to fire
    them. Raises :class:`UserError` naming the first weapon the table lacks (issue 11: a
    missing weapon is an error only when the unit is asked to fire it)."""
    out = []
    for m in mech.weapon_mounts if mounts is None else mounts:
        weapon = WEAPONS.get(m.weapon) if m.weapon is not None else None
        if weapon is None:
            from sim.units.usable import missing_weapon

            where = f"{m.location}" + (f", line {m.line}" if m.line is not None else "")
            raise UserError(f"{mech.name}: {missing_weapon(m.name, where)}")
        out.append((m, weapon))
    return tuple(out)


#: Rounds a one-shot launcher carries: its one volley (reference 10.3 "One-shot (OS)
#: launchers: fire once per game"; MegaMek ``F_ONESHOT``: one shot left in an ammunition
#: mount linked by the launcher).
ONE_SHOT_ROUNDS = 1


def one_shot_rounds(mounts: tuple[WeaponMount, ...]) -> tuple[tuple[int, str, str], ...]:
    """``(mount index, pool key, location)`` of every one-shot launcher in ``mounts`` (a
    'Mech's ``weapon_mounts``, in their order), each with its own pool of
    :data:`ONE_SHOT_ROUNDS` (reference 10.3: it fires once per game). The round is carried in
    the launcher (MegaMek ``Mounted.isOneShotAmmo``: an ammunition mount at ``LOC_NONE``
    linked by the launcher): no critical slot holds it, so no critical hit explodes it and
    no weapon of the same type feeds from it; it is lost with the launcher. The fire model's
    pools (:func:`sim.classic.fire.unit.fire_unit`) and the damage state's bins
    (:func:`sim.classic.damage_state.layout.build_layout`) both read this one list, so the
    key names the same pool in each."""
    out = []
    for i, m in enumerate(mounts):
        w = WEAPONS.get(m.weapon) if m.weapon is not None else None
        if w is not None and w.one_shot:
            out.append((i, f"one-shot {i}: {w.key}", m.location))
    return tuple(out)
