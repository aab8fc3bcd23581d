"""Reader for MegaMek ``.mtf`` 'Mech files (format: ``shared/data/units/FORMAT.md`` section 1).

:func:`parse_mtf` turns the text of one file into a :class:`~sim.units.types.ClassicMech`;
:func:`read_mtf` reads it from disk. Anything malformed raises :class:`MtfError`, a
:class:`~sim.errors.UserError` naming the file, the line and what was expected, e.g.
``Atlas.mtf:42: expected an integer armor value for 'LA armor', got 'x'``.

Weapon fire (issue 11, reference-classic-combat.md 10.1, 13.3): every weapon mount comes
from the critical-slot blocks (not the ``Weapons:`` list), with its location and rear flag
(`` (R)``), resolved through the weapon table of :mod:`sim.classic.weapons`; ammunition bins
(one slot each), heat sinks in slots and in the engine, the engine, and other known equipment.
Repeated lines of one multi-slot item are one item per ``slots`` lines (``Autocannon/20`` x10
= one AC/20; three ``Medium Laser`` = three lasers). A slot entry that is neither a system or
actuator slot, a physical weapon, a known weapon, ammunition nor known equipment is never
guessed: it is a weapon mount with ``weapon=None`` when the ``Weapons:`` list names it in that
location (an error only when the unit is asked to fire it, :func:`sim.classic.weapons.require`),
else an ``unknown_equipment`` entry with its line.

Only biped 'Mechs are supported; quad, tripod, LAM and QuadVee files are recognised and
rejected with a "not supported yet" error. Internal structure is not stored in the file: it
comes from the tonnage table (reference 5.1, :mod:`sim.units.tables`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from os import PathLike
from pathlib import Path

from sim.classic.weapons import (
    lookup_ammo_bin,
    lookup_equipment,
    lookup_weapon,
    split_munition,
)
from sim.errors import UserError
from sim.fileio import read_regular_bytes
from sim.units.tables import INTERNAL_STRUCTURE, internal_structure, max_armor
from sim.units.types import (
    ARM_ACTUATORS,
    LEG_ACTUATORS,
    LOCATIONS,
    AmmoBin,
    ClassicMech,
    WeaponMount,
)


class MtfError(UserError):
    """A malformed or unsupported ``.mtf`` file.

    ``filename`` is the file's name, ``line`` the 1-based line number (None when the problem
    is something missing from the whole file), ``expected`` what the reader wanted and
    ``got`` what it found (None if nothing)."""

    def __init__(self, filename: str, line: int | None, expected: str,
                 got: str | None = None) -> None:
        self.filename = filename
        self.line = line
        self.expected = expected
        self.got = got
        where = f"{filename}:{line}" if line is not None else filename
        msg = f"{where}: expected {expected}"
        if got is not None:
            msg += f", got {got!r}"
        super().__init__(msg)


#: Block header (lower case, without the colon) -> biped location code.
BLOCK_LOCATIONS = {
    "head": "HD", "center torso": "CT", "left torso": "LT", "right torso": "RT",
    "left arm": "LA", "right arm": "RA", "left leg": "LL", "right leg": "RL",
}
#: Quad leg blocks -> the biped location code they are stored under (front legs in the arm
#: slots LA/RA, rear legs in LL/RL; issue 19).
QUAD_BLOCKS = {"front left leg": "LA", "front right leg": "RA", "rear left leg": "LL",
               "rear right leg": "RL"}
#: Block headers of body plans this reader does not support (tripods).
_OTHER_BLOCKS = {"center leg"}
#: Real critical slots per location (reference 5.3, MM ``BipedMek`` NUM_OF_SLOTS).
SLOT_COUNT = {"HD": 6, "CT": 12, "LT": 12, "RT": 12, "LA": 12, "RA": 12, "LL": 6, "RL": 6}
#: Armor keys (lower case) -> location code; rear torso armor is CTR/LTR/RTR.
ARMOR_KEYS = {
    "la armor": "LA", "ra armor": "RA", "lt armor": "LT", "rt armor": "RT",
    "ct armor": "CT", "hd armor": "HD", "ll armor": "LL", "rl armor": "RL",
    "rtl armor": "LTR", "rtr armor": "RTR", "rtc armor": "CTR",
}
QUAD_ARMOR_KEYS = {"fll armor": "LA", "frl armor": "RA", "rll armor": "LL", "rrl armor": "RL"}
_OTHER_ARMOR_KEYS = {"cl armor"}
_REAR_OF = {"LTR": "LT", "RTR": "RT", "CTR": "CT"}
#: Body plans recognised but not simulated.
_UNSUPPORTED_CONFIGS = {"tripod": "Tripod", "lam": "LAM", "quadvee": "QuadVee"}

#: Header keys the reader knows (parsed or deliberately ignored). A line ``key:value`` with
#: one of these keys ends a critical-slot block even when the blank line is missing.
_KNOWN_KEYS = {
    "version", "uuid", "generator", "chassis", "clanname", "model", "mul id", "config",
    "techbase", "era", "source", "published", "rules level", "role", "quirk", "weaponquirk",
    "mass", "engine", "structure", "myomer", "ejection", "cockpit", "gyro", "lam", "motive",
    "heat sinks", "base chassis heat sinks", "walk mp", "jump mp", "armor", "weapons",
    "overview", "capabilities", "deployment", "history", "manufacturer", "primaryfactory",
    "systemmanufacturer", "systemmode", "fluffdate", "notes", "imagefile", "nocrit", "icon",
    *ARMOR_KEYS, *QUAD_ARMOR_KEYS, *_OTHER_ARMOR_KEYS,
}
#: Keys that may appear once only (a second one makes the file ambiguous).
_SINGLE_KEYS = {"chassis", "clanname", "model", "mul id", "config", "techbase", "mass",
                "armor", "structure", "cockpit", "gyro",
                "myomer", "heat sinks", "walk mp", "jump mp", "weapons", "engine",
                "base chassis heat sinks", *ARMOR_KEYS, *QUAD_ARMOR_KEYS}

#: Informative keys kept when given (first line wins; never an error).
_INFO_KEYS = {"era", "role"}

#: Location names used in the ``Weapons:`` list (lower case) -> code.
_WEAPON_LOCATIONS = {**BLOCK_LOCATIONS, **QUAD_BLOCKS, "fll": "LA", "frl": "RA",
                     "rll": "LL", "rrl": "RL", "hd": "HD", "ct": "CT", "lt": "LT", "rt": "RT",
                     "la": "LA", "ra": "RA", "ll": "LL", "rl": "RL"}

#: Slot name (normalised, see :func:`_norm`) -> (limb kind, actuator name).
_ACTUATOR_SLOTS = {
    "shoulder": ("arm", "shoulder"), "upperarm": ("arm", "upper_arm"),
    "lowerarm": ("arm", "lower_arm"), "hand": ("arm", "hand"),
    "hip": ("leg", "hip"), "upperleg": ("leg", "upper_leg"),
    "lowerleg": ("leg", "lower_leg"), "foot": ("leg", "foot"),
}

#: Physical (melee) weapons as slot entries (normalised name -> canonical name).
PHYSICAL_WEAPONS = {
    "hatchet": "hatchet", "sword": "sword", "mace": "mace",
    "retractableblade": "retractable_blade", "claw": "claws", "claws": "claws",
    "lance": "lance", "talons": "talons", "spikes": "spikes", "chainwhip": "chain_whip",
    "flail": "flail", "wreckingball": "wrecking_ball",
    "smallvibroblade": "small_vibroblade", "mediumvibroblade": "medium_vibroblade",
    "largevibroblade": "large_vibroblade", "buzzsaw": "buzzsaw", "dualsaw": "dual_saw",
    "piledriver": "pile_driver", "miningdrill": "mining_drill", "rockcutter": "rock_cutter",
    "backhoe": "backhoe", "combine": "combine", "chainsaw": "chainsaw",
    "spotwelder": "spot_welder", "smallshield": "small_shield",
    "mediumshield": "medium_shield", "largeshield": "large_shield",
}

#: System slots (normalised, see :func:`_norm`): engine, gyro, cockpit, sensors, life support.
#: MegaMek writes ``Fusion Engine`` in the slots of every engine type (FORMAT.md 1.4).
SYSTEM_SLOTS = frozenset({
    "fusionengine", "engine", "xlengine", "xxlengine", "lightengine", "compactengine",
    "iceengine", "gyro", "compactgyro", "heavydutygyro", "xlgyro", "cockpit", "smallcockpit",
    "torsomountedcockpit", "sensors", "lifesupport"})

#: ``engine`` value: ``<rating> <type> Engine[...]`` (``325 XL (Clan) Engine``,
#: ``180 Fusion Engine(IS)``): the rating and the space after it; the type runs to the word
#: ``engine``.
_ENGINE_HEAD_RE = re.compile(r"([0-9]{1,4})\s+")
#: Engine type words (lower case) -> the type name ``ClassicMech.engine_type`` uses.
ENGINE_TYPES = {"fusion": "Fusion", "xl": "XL", "xxl": "XXL", "light": "Light",
                "compact": "Compact", "ice": "ICE", "i.c.e.": "ICE", "fuel cell": "Fuel Cell",
                "fuel-cell": "Fuel Cell", "fission": "Fission"}
_MAX_ENGINE = 500
#: Names that MegaMek may write with an ``IS``/``CL`` technology prefix (``ISCASE``).
_PREFIXED = {*PHYSICAL_WEAPONS, "case", "caseii"}
_INT_RE = re.compile(r"[+-]?[0-9]{1,9}")
_MAX_MP = 50


@dataclass
class _Line:
    value: str
    line: int


@dataclass
class _Raw:
    """What the line scan collected, before interpretation."""

    keys: dict[str, _Line] = field(default_factory=dict)
    quirks: list[str] = field(default_factory=list)
    weapons: list[tuple[str, str]] = field(default_factory=list)
    blocks: dict[str, list[_Line]] = field(default_factory=dict)
    block_lines: dict[str, int] = field(default_factory=dict)
    #: lines of quad leg blocks (``Front Left Leg:``...)
    quad_lines: list[int] = field(default_factory=list)


_SUFFIX_WORDS = frozenset({"R", "OMNIPOD", "T", "ARMORED", "SPLIT"})


def _strip_suffix(name: str) -> tuple[str, str | None]:
    """``(name without its last suffix, the suffix)`` for a slot entry ending in
    `` (R)``/`` (OMNIPOD)``/`` (T)``/`` (ARMORED)``/`` (SPLIT)`` (any case), else
    ``(name, None)``. String operations only, so linear in the entry's length (a regex
    search for the suffix was quadratic on long runs of spaces, issue 18)."""
    text = name.rstrip()
    if not text.endswith(")"):
        return name, None
    k = text.rfind("(")
    if k < 0:
        return name, None
    word = text[k + 1:-1].strip().upper()
    if word not in _SUFFIX_WORDS:
        return name, None
    return text[:k].rstrip(), word


def _norm(entry: str) -> str:
    """Normalise a slot name for lookup: strip suffixes, lower case, drop spaces/punctuation,
    drop the IS/CL technology prefix and a trailing 'actuator'."""
    name = entry
    while True:
        name, word = _strip_suffix(name)
        if word is None:
            break
    key = re.sub(r"[^a-z0-9]+", "", name.lower())
    if key.endswith("actuator"):
        key = key[: -len("actuator")]
    if key[:2] in ("is", "cl") and key[2:] in _PREFIXED:
        key = key[2:]
    return key


def _short(text: str, limit: int = 100) -> str:
    """At most ``limit`` characters of ``text`` for a message (hostile files, issue 18)."""
    return text if len(text) <= limit else text[:limit] + "..."


def _is_empty(entry: str) -> bool:
    return entry.strip().lower() in ("-empty-", "empty", "")


def _block_header(text: str) -> str | None:
    """The lower-case location name if ``text`` is a block header like ``Left Arm:``."""
    if not text.endswith(":"):
        return None
    name = " ".join(text[:-1].split()).lower()
    if name in BLOCK_LOCATIONS or name in QUAD_BLOCKS or name in _OTHER_BLOCKS:
        return name
    return None


def _is_key_line(text: str) -> bool:
    if ":" not in text:
        return False
    return text.split(":", 1)[0].strip().lower() in _KNOWN_KEYS


def _int(fn: str, item: _Line, what: str, lo: int | None = None,
         hi: int | None = None) -> int:
    """Parse an integer value or raise :class:`MtfError` naming ``what``."""
    text = item.value.strip()
    if not _INT_RE.fullmatch(text):
        raise MtfError(fn, item.line, f"an integer {what}", text)
    val = int(text)
    if (lo is not None and val < lo) or (hi is not None and val > hi):
        rng = f" in {lo}..{hi}" if hi is not None else f" >= {lo}"
        raise MtfError(fn, item.line, f"an integer {what}{rng}", text)
    return val


def _scan(text: str, fn: str) -> _Raw:
    """First pass: sort the lines into header keys, quirks, weapons and slot blocks."""
    raw = _Raw()
    lines = text.split("\n")
    if lines and lines[0].startswith("\ufeff"):
        lines[0] = lines[0][1:]
    n = len(lines)
    i = 0
    while i < n:
        lineno = i + 1
        s = lines[i].strip()
        i += 1
        if not s or s.startswith("#"):
            continue
        header = _block_header(s)
        if header is not None:
            if header in _OTHER_BLOCKS:
                raise MtfError(fn, lineno, "a biped or quad location block (tripod 'Mechs "
                               "are not supported yet)", s)
            if header in QUAD_BLOCKS:
                raw.quad_lines.append(lineno)
            loc = BLOCK_LOCATIONS.get(header) or QUAD_BLOCKS[header]
            if loc in raw.blocks:
                raise MtfError(fn, lineno, f"one {s[:-1].strip()!r} block",
                               "a second block")
            entries: list[_Line] = []
            while i < n:
                t = lines[i].strip()
                if not t or _block_header(t) is not None or _is_key_line(t):
                    break
                entries.append(_Line(t, i + 1))
                i += 1
            raw.blocks[loc] = entries
            raw.block_lines[loc] = lineno
            continue
        if ":" not in s:
            continue  # fluff continuation text of old files
        key, value = s.split(":", 1)
        key = " ".join(key.split()).lower()
        value = value.strip()
        if key in _OTHER_ARMOR_KEYS:
            raise MtfError(fn, lineno, "biped or quad armor lines (tripod 'Mechs are not "
                           "supported yet)", s)
        if key == "quirk":
            if value:
                raw.quirks.append(value)
            continue
        if key in _SINGLE_KEYS:
            if key in raw.keys:
                raise MtfError(fn, lineno, f"one '{key}:' line (first on line "
                               f"{raw.keys[key].line})", s)
            raw.keys[key] = _Line(value, lineno)
        elif key in _INFO_KEYS and key not in raw.keys:  # fluff-like: the first one counts
            raw.keys[key] = _Line(value, lineno)
        if key == "config":
            _check_config(fn, _Line(value, lineno))
        if key == "weapons":
            count = _int(fn, _Line(value, lineno), "weapon count", 0, 200)
            for k in range(count):
                if i >= n:
                    raise MtfError(fn, lineno, f"{count} weapon lines after 'Weapons:'",
                                   f"{k} before the end of the file")
                t = lines[i].strip()
                if not t or _block_header(t) is not None:
                    raise MtfError(fn, i + 1, f"{count} weapon lines 'Name, Location' after "
                                   f"'Weapons:' on line {lineno}", t)
                raw.weapons.extend(_weapon_line(fn, _Line(t, i + 1)))
                i += 1
    return raw


def _weapon_line(fn: str, item: _Line) -> list[tuple[str, str]]:
    """One ``Weapons:`` entry: ``Name, Location`` (older: ``1 ISGaussRifle, Left Torso,
    Ammo:16``, the leading number being a count)."""
    parts = [p.strip() for p in item.value.split(",")]
    if len(parts) < 2 or not parts[0]:
        raise MtfError(fn, item.line, "a weapon line 'Name, Location'", item.value)
    name = parts[0]
    count = 1
    m = re.fullmatch(r"([0-9]{1,2})\s+(\S.*)", name)
    if m:
        count, name = int(m.group(1)), m.group(2)
        if not 1 <= count <= 20:
            raise MtfError(fn, item.line, "a weapon count in 1..20", m.group(1))
    loc_text = " ".join(_split_suffixes(parts[1])[0].split()).lower()
    loc = _WEAPON_LOCATIONS.get(loc_text)
    if loc is None:
        raise MtfError(fn, item.line, "a biped location name (e.g. 'Left Arm') for weapon "
                       f"{name!r}", parts[1])
    return [(name, loc)] * count


def _check_config(fn: str, item: _Line) -> tuple[str, bool]:
    """``Config`` value -> (body plan, omni flag); non-bipeds raise 'not supported yet'."""
    words = item.value.split()
    if not words:
        raise MtfError(fn, item.line, "a body plan after 'Config:' (e.g. 'Biped')", "")
    base = words[0].lower()
    omni = any(w.lower() in ("omnimek", "omnimech") for w in words[1:])
    if base in _UNSUPPORTED_CONFIGS:
        raise MtfError(fn, item.line, f"a biped 'Mech ({_UNSUPPORTED_CONFIGS[base]} 'Mechs "
                       "are not supported yet)", item.value)
    rest = [w for w in words[1:] if w.lower() not in ("omnimek", "omnimech")]
    if base not in ("biped", "quad") or rest:
        raise MtfError(fn, item.line, "a Config of 'Biped', 'Quad' or '... OmniMek' (tripod, "
                       "LAM and QuadVee are not supported yet)", item.value)
    return base.title(), omni


def _heat_sinks(fn: str, item: _Line) -> tuple[int, str]:
    """``heat sinks`` value like ``11 Single`` / ``10 IS Double`` / ``17 Clan Double``."""
    m = re.fullmatch(r"([0-9]{1,3})\s*(.*)", item.value.strip())
    if not m:
        raise MtfError(fn, item.line, "a heat sink line '<count> <type>' (e.g. '10 Single')",
                       item.value)
    kind = m.group(2).lower()
    if "double" in kind:
        hs_type = "Double"
    elif "laser" in kind:
        hs_type = "Laser"
    elif "compact" in kind:
        hs_type = "Compact"
    elif kind in ("", "single", "is single", "clan single"):
        hs_type = "Single"
    else:
        raise MtfError(fn, item.line, "a heat sink type (Single, Double, Laser, Compact)",
                       m.group(2))
    return int(m.group(1)), hs_type


def slot_count(loc: str, quad: bool = False) -> int:
    """Real critical slots of a location (5.3): a quad's front legs (LA/RA) have 6."""
    return 6 if quad and loc in ("LA", "RA") else SLOT_COUNT[loc]


def _slots(fn: str, raw: _Raw, quad: bool = False) -> dict[str, tuple[str | None, ...]]:
    """Critical slots per location, ``None`` for empty, cut to the real slot count (5.3).
    Any non-empty entry beyond the real count is an error."""
    slots: dict[str, tuple[str | None, ...]] = {}
    for loc in LOCATIONS:
        if loc not in raw.blocks:
            names = QUAD_BLOCKS if quad else BLOCK_LOCATIONS
            name = next(k for k, v in names.items() if v == loc).title()
            raise MtfError(fn, None, f"a '{name}:' critical-slot block")
        entries = raw.blocks[loc]
        real = slot_count(loc, quad)
        for pos, item in enumerate(entries):
            if pos >= real and not _is_empty(item.value):
                raise MtfError(fn, item.line, f"at most {real} critical slots in location "
                               f"{loc} (slot {pos + 1} is not '-Empty-')", item.value)
        vals = [None if _is_empty(e.value) else e.value for e in entries[:real]]
        vals += [None] * (real - len(vals))
        slots[loc] = tuple(vals)
    return slots


def _actuators(fn: str, raw: _Raw, quad: bool = False) -> dict[str, frozenset[str]]:
    """Actuators present per limb, read from the slot blocks (FORMAT.md 1.4). A quad's
    front legs (LA/RA) carry leg actuators; it has no arm actuator, so it never punches."""
    out: dict[str, frozenset[str]] = {}
    front = "leg" if quad else "arm"
    for limb, kind in (("LA", front), ("RA", front), ("LL", "leg"), ("RL", "leg")):
        found: set[str] = set()
        for item in raw.blocks.get(limb, []):
            hit = _ACTUATOR_SLOTS.get(_norm(item.value))
            if hit is None:
                continue
            if hit[0] != kind:
                raise MtfError(fn, item.line, f"only {kind} actuators in location {limb}",
                               item.value)
            found.add(hit[1])
        order = ARM_ACTUATORS if kind == "arm" else LEG_ACTUATORS
        out[limb] = frozenset(a for a in order if a in found)
    return out


def _equipment(slots: dict[str, tuple[str | None, ...]], tech_base: str
               ) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...], tuple[str, ...]]:
    """Physical weapons (one per name and location), CASE and CASE II locations.

    Clan-tech 'Mechs get CASE in every location holding ammunition without a slot entry
    (MegaMek ``Mek.addClanCase``), so those locations are listed as CASE locations too."""
    physical: list[tuple[str, str]] = []
    case: list[str] = []
    case2: list[str] = []
    for loc in LOCATIONS:
        has_ammo = False
        for entry in slots[loc]:
            if entry is None:
                continue
            key = _norm(entry)
            weapon = PHYSICAL_WEAPONS.get(key)
            if weapon is not None and (weapon, loc) not in physical:
                physical.append((weapon, loc))
            if key == "case" and loc not in case:
                case.append(loc)
            if key == "caseii" and loc not in case2:
                case2.append(loc)
            if "ammo" in key and "gauss" not in key:
                has_ammo = True
        if tech_base.strip().lower() == "clan" and has_ammo and loc not in case:
            case.append(loc)
    order = {loc: k for k, loc in enumerate(LOCATIONS)}
    case.sort(key=order.__getitem__)
    return tuple(physical), tuple(case), tuple(case2)


def _split_suffixes(entry: str) -> tuple[str, frozenset[str]]:
    """Slot entry -> (name without suffixes, upper-case suffix flags such as ``R``)."""
    name = entry.strip()
    flags: set[str] = set()
    while True:
        name, word = _strip_suffix(name)
        if word is None:
            return name.strip(), frozenset(flags)
        flags.add(word)


def _engine(fn: str, item: _Line) -> tuple[int, str, bool]:
    """``engine`` value -> (rating, type, Clan engine?)."""
    text = item.value.strip()
    # string operations, linear in the line (a backtracking regex was cubic, issue 18)
    head = _ENGINE_HEAD_RE.match(text)
    at = text.lower().find("engine", head.end()) if head else -1
    while at >= 0 and at + 6 < len(text) and (text[at + 6].isalnum() or text[at + 6] == "_"):
        at = text.lower().find("engine", at + 1)
    if head is None or at < 0:
        raise MtfError(fn, item.line, "an engine line '<rating> <type> Engine' (e.g. "
                       "'300 Fusion Engine')", item.value[:100])
    rating = int(head.group(1))
    if not 10 <= rating <= _MAX_ENGINE:
        raise MtfError(fn, item.line, f"an engine rating in 10..{_MAX_ENGINE}", head.group(1))
    kind = text[head.end():at].strip()
    clan = "clan" in (kind + text[at + 6:]).lower()
    word = " ".join(re.sub(r"\((?:clan|is|inner sphere)\)", " ", kind, flags=re.I).split())
    word = word.lower().removeprefix("large ").strip()
    # "XL Fusion", "Light Fusion" (some files name the fusion engine's kind before it)
    parts = word.split(" ", 1)
    if word not in ENGINE_TYPES and len(parts) == 2 and "fusion" in parts:
        word = parts[1] if parts[0] == "fusion" else parts[0]
    if word not in ENGINE_TYPES:
        raise MtfError(fn, item.line, "an engine type (" + ", ".join(
            dict.fromkeys(ENGINE_TYPES.values())) + ")", kind)
    return rating, ENGINE_TYPES[word], clan


def _weapon_list_key(name: str) -> str:
    """Compare slot names with ``Weapons:`` names: no case, punctuation or IS/Clan prefix."""
    key = re.sub(r"[^a-z0-9]+", "", name.lower())
    for prefix in ("clan", "cl", "is"):
        if key.startswith(prefix) and len(key) > len(prefix):
            return key[len(prefix):]
    return key


@dataclass
class _Fire:
    """What weapon fire needs from the slot blocks."""

    mounts: list[WeaponMount] = field(default_factory=list)
    bins: list[AmmoBin] = field(default_factory=list)
    sinks: list[str] = field(default_factory=list)
    #: (equipment key, first line) of every run of heat-sink slots
    sink_kinds: list[tuple[str, int]] = field(default_factory=list)
    equipment: list[tuple[str, str]] = field(default_factory=list)
    unknown: list[tuple[str, str, int | None]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: (equipment kind, location, first line) of every Artemis IV / V fire-control system
    artemis: list[tuple[str, str, int]] = field(default_factory=list)


def _runs(entries: list[_Line]) -> list[tuple[str, bool, list[int]]]:
    """Consecutive identical slot entries (same name and rear flag) as
    ``(name, rear, lines)``; empty slots end a run."""
    runs: list[tuple[str, bool, list[int]]] = []
    last: tuple[str, bool] | None = None
    for item in entries:
        if _is_empty(item.value):
            last = None
            continue
        name, flags = _split_suffixes(item.value)
        key = (name.lower(), "R" in flags)
        if key == last:
            runs[-1][2].append(item.line)
        else:
            runs.append((name, "R" in flags, [item.line]))
            last = key
    return runs


#: Location pairs a split weapon may span (a torso and its neighbour; MegaMek split weapons).
_SPLIT_PAIRS = {frozenset(p) for p in (("CT", "LT"), ("CT", "RT"), ("LT", "LA"), ("RT", "RA"),
                                        ("LT", "LL"), ("RT", "RL"))}
_INNER = {"CT": 0, "LT": 1, "RT": 1, "LA": 2, "RA": 2, "LL": 2, "RL": 2, "HD": 3}


@dataclass
class _Partial:
    """The part of a run of weapon lines that is not a whole weapon (a split weapon's
    share of one location)."""

    key: str
    name: str
    rear: bool
    loc: str
    lines: list[int]
    slots: int


def _items(fn: str, loc: str, name: str, lines: list[int], size: int, what: str) -> int:
    """How many items of ``size`` slots a run of ``lines`` repeated ``name`` lines holds."""
    if size <= 0:
        return 1
    if len(lines) % size:
        raise MtfError(fn, lines[0], f"{what} in runs of {size} slot lines in location {loc} "
                       f"(one per {size} lines)", f"{len(lines)} lines of {name}")
    return len(lines) // size


def _join_splits(fn: str, parts: list[_Partial], listed: set[tuple[str, str]]
                 ) -> list[WeaponMount]:
    """Pair the partial runs of split weapons (an AC/20 with 8 slots in RT and 2 in CT is one
    weapon). Its location is the one the ``Weapons:`` list names, else the inner one; the
    other is ``split_location``. A part with no partner is an error at its first line."""
    mounts = []
    todo = sorted(parts, key=lambda p: p.lines[0])
    while todo:
        a = todo.pop(0)
        b = next((p for p in todo if p.key == a.key and p.rear == a.rear
                  and frozenset((a.loc, p.loc)) in _SPLIT_PAIRS
                  and len(a.lines) + len(p.lines) == a.slots), None)
        if b is None:
            raise MtfError(fn, a.lines[0], f"{a.key} ({a.slots} critical slots) in runs of "
                           f"{a.slots} slot lines in location {a.loc}, or split over a torso "
                           "and a neighbouring location", f"{len(a.lines)} lines of {a.name}")
        todo.remove(b)
        pair = sorted((a, b), key=lambda p: (_INNER[p.loc], p.lines[0]))
        named = [p for p in pair if (p.key, p.loc) in listed]
        main = named[0] if len(named) == 1 else pair[0]
        other = b if main is a else a
        mounts.append(WeaponMount(main.name, main.key, main.loc, main.rear, a.lines[0],
                                  split_location=other.loc))
    return mounts


def _fire(fn: str, raw: _Raw, tech_base: str, quad: bool = False) -> _Fire:
    """Weapons, ammunition, heat sinks, equipment and unknown entries, in file order
    (reference-classic-combat.md 10.1; FORMAT.md 1.4)."""
    out = _Fire()
    listed_names = {(_weapon_list_key(w), loc) for w, loc in raw.weapons}
    listed_keys = set()
    for w, loc in raw.weapons:
        found = lookup_weapon(w, tech_base, display=True)
        if found is not None:
            listed_keys.add((found.key, loc))
    parts: list[_Partial] = []
    for loc in sorted(raw.blocks, key=raw.block_lines.__getitem__):
        for name, rear, lines in _runs(raw.blocks[loc][: slot_count(loc, quad)]):
            key = _norm(name)
            if key in SYSTEM_SLOTS or key in _ACTUATOR_SLOTS or key in PHYSICAL_WEAPONS:
                continue
            weapon = lookup_weapon(name, tech_base)
            if weapon is not None:
                size = max(weapon.slots, 1)
                whole, rest = divmod(len(lines), size)
                out.mounts += [WeaponMount(name, weapon.key, loc, rear, lines[k * size])
                               for k in range(whole)]
                if rest:
                    parts.append(_Partial(weapon.key, name, rear, loc, lines[whole * size:],
                                          size))
                continue
            hit = lookup_ammo_bin(name, tech_base)
            munition = split_munition(name)[1] if "ammo" in key else ""
            if hit is not None:
                out.bins += [AmmoBin(name, hit[0].key, loc, hit[1], ln, munition)
                             for ln in lines]
                continue
            if munition:  # special rounds (Inferno, Thunder...): known, not simulated
                out.bins += [AmmoBin(name, None, loc, 0, ln, munition) for ln in lines]
                continue
            equip = lookup_equipment(name, tech_base)
            if equip is not None:
                if equip.kind in ("heat_sink", "double_heat_sink"):
                    n = _items(fn, loc, name, lines, equip.slots, f"{equip.key}")
                    out.sinks += [loc] * n
                    out.sink_kinds.append((equip.kind, lines[0]))
                elif equip.kind not in ("jump_jet", "structure", "armor"):
                    n = _items(fn, loc, name, lines, equip.slots, equip.key)
                    out.equipment += [(equip.key, loc)] * n
                    if equip.kind in ("artemis_iv", "artemis_v", "apollo"):
                        size = max(equip.slots, 1)
                        out.artemis += [(equip.kind, loc, lines[k * size]) for k in range(n)]
                continue
            if (_weapon_list_key(name), loc) in listed_names:
                out.mounts.append(WeaponMount(name, None, loc, rear, lines[0]))
            else:
                out.unknown.append((name, loc, lines[0]))
    out.mounts += _join_splits(fn, parts, listed_keys)
    out.mounts.sort(key=lambda m: m.line or 0)
    out.mounts, out.notes = _link_artemis(fn, out.mounts, out.artemis)
    return out


def _link_artemis(fn: str, mounts: list[WeaponMount], systems: list[tuple[str, str, int]]
                  ) -> tuple[list[WeaponMount], list[str]]:
    """Link each Artemis IV / V fire-control system to one LRM/SRM launcher in its location
    (reference 10.3; MegaMek writes the system's slot right after its launcher's), and each
    Apollo FCS to one MRM launcher (10.3 MRM row, 11.2): the nearest unlinked launcher above
    it, else the nearest below. A system with no launcher in its location links nothing and
    gets a note."""
    from sim.classic.weapons import FCS_FAMILIES, WEAPONS

    out = list(mounts)
    notes: list[str] = []
    for kind, loc, line in systems:
        cands = [k for k, m in enumerate(out) if m.location == loc and not m.artemis
                 and m.weapon is not None and m.weapon in WEAPONS
                 and WEAPONS[m.weapon].family in FCS_FAMILIES[kind]]
        above = [k for k in cands if (out[k].line or 0) < line]
        below = [k for k in cands if (out[k].line or 0) > line]
        pick = (max(above, key=lambda k: out[k].line or 0) if above
                else min(below, key=lambda k: out[k].line or 0) if below else None)
        if pick is None:
            what = "MRM" if kind == "apollo" else "LRM or SRM"
            notes.append(f"{fn}:{line}: {kind.replace('_', ' ').title()} in {loc} has no {what} "
                         "launcher to link to in that location (no effect)")
            continue
        out[pick] = replace(out[pick], artemis=kind)
    return out, notes


def _engine_sinks(fn: str, raw: _Raw, total: int, rating: int, slotted: int,
                  hs_type: str) -> tuple[int, list[str]]:
    """Heat sinks inside the engine (reference 13.3, MegaMek ``MtfFile``): the header count
    minus the sinks in slots, at most rating / 25 (OmniMechs: at most their base chassis
    heat sinks). A header count the engine and slots cannot explain becomes a note."""
    capacity = rating // 25
    base = raw.keys.get("base chassis heat sinks")
    if base is not None and base.value:
        capacity = min(capacity, _int(fn, base, "base chassis heat sink count", 0, 100))
    engine = min(capacity, max(total - slotted, 0))
    notes = []
    if engine + slotted != total:
        line = raw.keys["heat sinks"].line
        notes.append(f"{fn}:{line}: heat sinks: the header says {total} {hs_type}, but the "
                     f"slots hold {slotted} and a {rating}-rated engine at most {capacity}; "
                     f"counted as written ({total})")
    return engine, notes


def _armor(fn: str, raw: _Raw, tons: int, quad: bool = False) -> dict[str, int]:
    """Armor per location (front and rear), checked against 2 x IS (head 9), reference 5.1
    (a quad's four legs: 2 x the leg's IS)."""
    armor: dict[str, int] = {}
    keys = dict(ARMOR_KEYS)
    if quad:
        keys = {k: v for k, v in keys.items() if v not in ("LA", "RA", "LL", "RL")}
        keys.update(QUAD_ARMOR_KEYS)
    for key, loc in keys.items():
        item = raw.keys.get(key)
        if item is None:
            raise MtfError(fn, None, f"a '{key.upper().replace(' ARMOR', ' armor')}:' line")
        # patchwork armor writes 'type:points'; the points come last
        value = _Line(item.value.rsplit(":", 1)[-1], item.line)
        armor[loc] = _int(fn, value, f"armor value for '{key.split()[0].upper()} armor'", 0)
    limits = max_armor(tons, quad)
    for loc in LOCATIONS:
        total = armor[loc]
        rear = next((r for r, f in _REAR_OF.items() if f == loc), None)
        if rear is not None:
            total += armor[rear]
        if total > limits[loc]:
            line = max(raw.keys[k].line for k, v in keys.items() if v in (loc, rear))
            what = "front + rear armor" if rear else "armor"
            raise MtfError(fn, line, f"{what} of {loc} at most {limits[loc]} "
                           f"(2 x internal structure, head 9) for a {tons} t 'Mech",
                           str(total))
    return armor


def parse_mtf(text: str, filename: str = "<string>") -> ClassicMech:
    """Parse the text of a MegaMek ``.mtf`` file into a :class:`ClassicMech`.

    Keys are case-insensitive; unknown keys and fluff are ignored. Raises :class:`MtfError`
    (file, line, what was expected) for malformed input and for non-biped body plans."""
    fn = filename
    raw = _scan(text, fn)
    keys = raw.keys

    def need(key: str) -> _Line:
        if key not in keys or not keys[key].value:
            raise MtfError(fn, keys[key].line if key in keys else None,
                           f"a '{key}:' line with a value")
        return keys[key]

    chassis = need("chassis").value
    model = keys["model"].value if "model" in keys else ""
    clan = keys["clanname"].value if "clanname" in keys and keys["clanname"].value else None
    mass_item = need("mass")
    tons = _int(fn, mass_item, "mass in tons")
    if tons > 100:
        raise MtfError(fn, mass_item.line, "a mass of at most 100 t (superheavy 'Mechs are "
                       "not supported yet)", mass_item.value)
    if tons not in INTERNAL_STRUCTURE:
        raise MtfError(fn, mass_item.line, "a mass of 10..100 t in steps of 5 "
                       "(reference 5.1; 10 and 15 t from MegaMek)", mass_item.value)
    config, omni = ("Biped", False)
    if "config" in keys:
        config, omni = _check_config(fn, keys["config"])
    quad = config == "Quad"
    if quad != bool(raw.quad_lines) and (raw.quad_lines or "config" in keys):
        line = raw.quad_lines[0] if raw.quad_lines else keys["config"].line
        raise MtfError(fn, line, f"location blocks of the body plan {config!r} (quad leg "
                       "blocks on a biped, or biped arm blocks on a quad)",
                       keys["config"].value if "config" in keys else None)
    walk = _int(fn, need("walk mp"), "walk MP", 0, _MAX_MP)
    jump = _int(fn, keys["jump mp"], "jump MP", 0, _MAX_MP) if "jump mp" in keys else 0
    hs_count, hs_type = _heat_sinks(fn, need("heat sinks"))
    myomer = keys["myomer"].value if "myomer" in keys and keys["myomer"].value else "Standard"
    tsm = "triple" in myomer.lower() and "industrial" not in myomer.lower()
    mul_id = None
    if "mul id" in keys and keys["mul id"].value:
        mid = _int(fn, keys["mul id"], "MUL id")
        mul_id = mid if mid > 0 else None
    tech_base = keys["techbase"].value if "techbase" in keys else "Inner Sphere"
    tech_base = tech_base or "Inner Sphere"
    kinds = {k: keys[k].value if k in keys else "" for k in ("armor", "structure", "cockpit",
                                                               "gyro", "role")}
    _refuse_industrial(fn, raw, kinds)
    era = keys["era"].value.strip() if "era" in keys else ""
    year = int(era) if era.isdigit() and len(era) <= 4 else None  # fluff: never an error
    armor = _armor(fn, raw, tons, quad)
    slots = _slots(fn, raw, quad)
    actuators = _actuators(fn, raw, quad)
    physical, case, case2 = _equipment(slots, tech_base)
    rating, engine_type, engine_clan = _engine(fn, need("engine"))
    fire = _fire(fn, raw, tech_base, quad)
    engine_sinks, notes = _engine_sinks(fn, raw, hs_count, rating, len(fire.sinks), hs_type)
    want = "double_heat_sink" if hs_type in ("Double", "Laser") else "heat_sink"
    notes += [f"{fn}:{line}: a {kind.replace('_', ' ')} slot on a 'Mech whose header says "
              f"{hs_type} heat sinks; counted as {hs_type}"
              for kind, line in fire.sink_kinds if kind != want]
    notes += fire.notes
    notes += [f"{fn}:{line}: unknown equipment {_short(n)!r} in {loc} (not simulated)"
              for n, loc, line in fire.unknown]
    notes += [f"{fn}:{m.line}: weapon {_short(m.name)!r} in {m.location} is not in the weapon table"
              for m in fire.mounts if m.weapon is None]
    name = chassis + (f" ({clan})" if clan else "") + (f" {model}" if model else "")
    return ClassicMech(
        name=name, chassis=chassis, model=model, tons=tons, walk_mp=walk, jump_mp=jump,
        clan_name=clan, mul_id=mul_id, tech_base=tech_base, config=config, omni=omni,
        tsm=tsm, armor=armor, internal=internal_structure(tons, quad), actuators=actuators,
        slots=slots, physical_weapons=physical, case_locations=case, case2_locations=case2,
        heat_sinks=hs_count, heat_sink_type=hs_type, weapons=tuple(raw.weapons),
        quirks=tuple(raw.quirks), source=fn, myomer=myomer,
        weapon_mounts=tuple(fire.mounts), ammo_bins=tuple(fire.bins), engine_rating=rating,
        engine_type=engine_type, engine_clan=engine_clan, engine_heat_sinks=engine_sinks,
        heat_sink_locations=tuple(fire.sinks), equipment=tuple(fire.equipment),
        unknown_equipment=tuple(fire.unknown), notes=tuple(notes),
        armor_type=kinds["armor"], structure_type=kinds["structure"],
        cockpit=kinds["cockpit"], gyro=kinds["gyro"], year=year, role=kinds["role"],
    )


#: Header words that mark an IndustrialMech (structure, armor or cockpit; lower case).
_INDUSTRIAL = ("industrial", "commercial")


def _refuse_industrial(fn: str, raw: _Raw, kinds: dict[str, str]) -> None:
    """IndustrialMechs are refused with the reason until their rules are simulated
    (industrial structure, armor or cockpit: different critical and PSR rules)."""
    for key in ("structure", "armor", "cockpit"):
        if any(w in kinds[key].lower() for w in _INDUSTRIAL):
            raise MtfError(fn, raw.keys[key].line, "a BattleMech (IndustrialMechs, with "
                           f"{key} {kinds[key][:60]!r}, are not supported yet: their "
                           "critical-hit, PSR and armor rules are not simulated)",
                           kinds[key][:100])


def read_mtf(path: str | PathLike[str]) -> ClassicMech:
    """Read a ``.mtf`` file from disk (UTF-8; Latin-1 as a fallback for old files).

    The ``source`` of the result is the path; errors name the file's base name."""
    p = Path(path)
    try:
        data = read_regular_bytes(p, "unit file")
    except OSError as exc:
        raise MtfError(p.name, None, "a readable .mtf file", exc.strerror or str(exc)) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    return replace(parse_mtf(text, p.name), source=str(p))
