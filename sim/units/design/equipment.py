"""Equipment facts the two price calculators read, as data (``data/*.csv``, one place).

* ``weapons.csv``: every weapon of ``reference-bv.md`` 23.1/23.2 by its ``.mtf`` slot name:
  table BV, heat, BV heat (22.4), slots, targeting-computer eligibility (22.2, B3), ammo key
  (22.6), and the Classic facts the Alpha Strike conversion uses
  (``reference-as-conversion.md`` 2.5: damage, minimum and long range, built-in to-hit
  modifier, kind, rack size, damage-special class).
* ``ammo.csv``: ammunition BV per bin for IS and Clan (23.3), explosive or not (21.5), shots
  per ton (reference-as-conversion.md 3.4).
* ``equipment.csv``: other equipment by slot name, with its kind and defensive BV (21.4, 23.4).

This is the price calculators' own table (the BV reference's weapon table is its own data);
the weapon-fire table of :mod:`sim.classic.weapons` is not read here.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from importlib import resources


@dataclass(frozen=True)
class WeaponSpec:
    """One weapon row of ``weapons.csv`` (reference-bv.md 23.1/23.2)."""

    slot: str
    tech: str
    bv: Fraction
    heat: int
    bv_heat: Fraction
    slots: int
    tc: bool
    ammo: tuple[str, int] | None
    damage: int
    min_range: int
    long_range: int
    to_hit: int
    kind: str
    rack: int
    as_class: str
    source: str
    #: weight in tons (the weapon-fire table's facts; used by :func:`sim.units.edit`)
    tons: Fraction = Fraction(0)


@dataclass(frozen=True)
class AmmoSpec:
    """One ammunition row of ``ammo.csv`` (reference-bv.md 23.3; as-conversion 3.4)."""

    family: str
    rack: int
    bv_is: Fraction | None
    bv_clan: Fraction | None
    explosive: bool
    shots: int

    @property
    def key(self) -> tuple[str, int]:
        return (self.family, self.rack)


@dataclass(frozen=True)
class EquipSpec:
    """One row of ``equipment.csv``: kind and defensive BV (21.4)."""

    slot: str
    kind: str
    value: Fraction
    #: slots of one item; 0 = one item per run of lines (targeting computer, MASC: sized by
    #: the unit)
    slots: int
    #: weight in tons; None where it depends on the unit (TC, MASC, hatchet, jump jets)
    tons: Fraction | None = None


_NOT_ALNUM = re.compile(r"[^a-z0-9]")


@cache
def norm(name: str) -> str:
    """Slot-name key: lower case without spaces and punctuation."""
    return _NOT_ALNUM.sub("", name.lower())


def _rows(name: str) -> list[dict[str, str]]:
    text = resources.files("sim.units.design").joinpath("data", name).read_text("utf-8")
    return list(csv.DictReader(text.splitlines()))


def _ammo_key(text: str) -> tuple[str, int] | None:
    if not text:
        return None
    fam, rack = text.rsplit("-", 1)
    return (fam, int(rack))


@cache
def weapons() -> dict[str, WeaponSpec]:
    """Normalised slot name (and alias) -> weapon."""
    out: dict[str, WeaponSpec] = {}
    for r in _rows("weapons.csv"):
        spec = WeaponSpec(
            slot=r["slot"], tech=r["tech"], bv=Fraction(r["bv"]), heat=int(r["heat"]),
            bv_heat=Fraction(r["bv_heat"]), slots=int(r["slots"]), tc=r["tc"] == "yes",
            ammo=_ammo_key(r["ammo"]), damage=int(r["damage"]), min_range=int(r["min"]),
            long_range=int(r["long"]), to_hit=int(r["to_hit"]), kind=r["kind"],
            rack=int(r["rack"]), as_class=r["as_class"], source=r["source"],
            tons=Fraction(r["tons"]))
        for n in (r["slot"], *filter(None, r["aliases"].split("|"))):
            out[norm(n)] = spec
    return out


@cache
def ammo_table() -> dict[tuple[str, int], AmmoSpec]:
    """(family, rack) -> ammunition row."""
    out = {}
    for r in _rows("ammo.csv"):
        spec = AmmoSpec(r["family"], int(r["rack"]),
                        Fraction(r["bv_is"]) if r["bv_is"] else None,
                        Fraction(r["bv_clan"]) if r["bv_clan"] else None,
                        r["explosive"] == "yes", int(r["shots"]))
        out[spec.key] = spec
    return out


@cache
def equipment_table() -> dict[str, EquipSpec]:
    """Normalised slot name (and alias) -> equipment."""
    out: dict[str, EquipSpec] = {}
    for r in _rows("equipment.csv"):
        spec = EquipSpec(r["slot"], r["kind"], Fraction(r["value"]), int(r["slots"]),
                         Fraction(r["tons"]) if r["tons"] else None)
        for n in (r["slot"], *filter(None, r["aliases"].split("|"))):
            out[norm(n)] = spec
    return out


#: Slots that carry nothing either calculator prices: engine, gyro, cockpit, sensors, life
#: support, actuators (reference-as-conversion.md 3.5 "filler slots (ignored)").
SYSTEM_SLOTS = frozenset(norm(s) for s in (
    "Fusion Engine", "Engine", "XL Engine", "XXL Engine", "Light Engine", "Compact Engine",
    "Gyro", "Compact Gyro", "Heavy Duty Gyro", "XL Gyro", "Cockpit", "Small Cockpit",
    "Torso-Mounted Cockpit", "Command Console", "Sensors", "Life Support", "Shoulder",
    "Upper Arm Actuator", "Lower Arm Actuator", "Hand Actuator", "Hip", "Upper Leg Actuator",
    "Lower Leg Actuator", "Foot Actuator"))

#: Structure and armor filler slots (the header lines give the type).
_FILLER_RE = re.compile(r"^(is|cl|clan)?(endosteel|endocomposite|ferrofibrous|lightferrofibrous|"
                        r"heavyferrofibrous|ferrolamellor|reactive(armor)?|reflective(armor)?|"
                        r"laserreflective|compositestructure|reinforcedstructure)$")


def is_filler(key: str) -> bool:
    """Structure or armor filler slot (``IS Endo Steel``, ``Clan Ferro-Fibrous``...)."""
    return key in SYSTEM_SLOTS or bool(_FILLER_RE.match(key))


_AMMO_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p), fam) for p, fam in (
        (r"^(?:machinegun|mg)$", "MG"),
        (r"^(?:ac|autocannon)(\d+)$", "AC"),
        (r"^lb(\d+)x(?:ac|cluster)?$", "LBX"),
        (r"^lbxac(\d+)$", "LBX"),
        (r"^(?:ultraac|uac)(\d+)$", "UAC"),
        (r"^(?:rotaryac|rac)(\d+)$", "RAC"),
        (r"^gauss(?:rifle)?$", "Gauss"),
        (r"^lightgauss(?:rifle)?$", "LGauss"),
        (r"^lrm(\d+)$", "LRM"),
        (r"^srm(\d+)$", "SRM"),
        (r"^streaksrm(\d+)$", "SSRM"),
        (r"^mrm(\d+)$", "MRM"),
        (r"^atm(\d+)(?:er|he)?$", "ATM"),
        (r"^ams$", "AMS"),
        (r"^narc(?:pods?)?$", "Narc"),
        (r"^arrowiv$", "Arrow"),
    ))
#: munition words that do not change the ammo's BV or family (B7: Artemis-capable at
#: standard BV; Narc-capable; LB-X cluster)
_MUNITION_WORDS = ("artemiscapable", "narccapable", "cluster")


@dataclass(frozen=True)
class AmmoRead:
    """What an ammunition slot name says: its row, Clan or IS, half-ton bin."""

    spec: AmmoSpec
    clan: bool
    half: bool


@cache
def read_ammo(name: str, tech_base: str) -> AmmoRead | None | str:
    """Parse an ammunition slot name (``IS Ammo LRM-20 Artemis-capable``, ``CLAMS Ammo``,
    ``IS Machine Gun Ammo - Half``). Returns the row, None when the name is not ammunition,
    or the name itself (a string) when it is ammunition of a kind the table lacks."""
    key = norm(name)
    if "ammo" not in key and not key.endswith("narcpods"):
        return None
    clan = tech_base.strip().lower() == "clan"
    for p, c in (("clan", True), ("cl", True), ("is", False)):
        if key.startswith(p):
            clan, key = c, key[len(p):]
            break
    half = key.endswith("half")
    key = key.removesuffix("half").removesuffix("full")
    key = key.replace("ammo", "")
    for w in _MUNITION_WORDS:
        key = key.replace(w, "")
    if key.startswith(("mg", "machinegun")):
        half = half or key.endswith("100")
        key = re.sub(r"\d+$", "", key)
    for pat, fam in _AMMO_PATTERNS:
        m = pat.match(key)
        if m is None:
            continue
        rack = int(m.group(1)) if m.groups() else {"MG": 2, "Gauss": 15, "LGauss": 8}.get(fam, 0)
        spec = ammo_table().get((fam, rack))
        if spec is None:
            return name
        return AmmoRead(spec, clan, half)
    return name
