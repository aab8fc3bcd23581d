"""What a change to a design costs: :func:`edit` returns a modified :class:`Design` that
:func:`sim.units.battle_value` and :func:`sim.units.alpha_strike_card` price like any other
(issue 20, "What a change costs").

    edit(unit, heat_sinks=+1, armor={"CT": +2}, jump=+1,
         remove=["Large Laser@RA"], add=["ISLargePulseLaser@RA"])

Construction rules checked (an edit that breaks one is refused with the reason,
:class:`EditError`):

* **slots**: an added item needs free critical slots in its location (biped HD 6, CT / side
  torsos / arms 12, legs 6; quad legs 6); a removed item frees its slots. Heat sinks beyond
  the engine's slot-free capacity (rating / 25) take slots in the first location with room.
* **tonnage** (``tonnage="fixed"``, the default): the file does not state a design's free
  tonnage, and canon designs use it all, so an edit may not add more weight than it removes (weapons and equipment at their table
  weight, a heat sink 1 t, armor at its points per ton, jump jets 0.5 / 1 / 2 t by tonnage).
* **armor** at most the location's maximum (reference 5.1); at least 10 heat sinks on a fusion
  engine; jump MP at most walk MP (standard jets), jump jets in the torsos and legs only.

Items are named by slot name or table name (``Large Pulse Laser``, ``ISLargePulseLaser``),
with ``@LOC`` (and `` (R)`` for a rear mount).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction as F
from os import PathLike
from typing import Any

from sim.errors import UserError
from sim.units.bv2.scope import armor_over_maximum, type_key
from sim.units.design.equipment import (
    AmmoRead,
    EquipSpec,
    WeaponSpec,
    equipment_table,
    norm,
    read_ammo,
    weapons,
)
from sim.units.design.reader import Design, Entry, design_of, inventory
from sim.units.types import ClassicMech


class EditError(UserError):
    """An edit the construction rules do not allow (the message says which and why)."""


#: real critical slots per location (reference 5.3)
SLOT_CAPACITY = {"HD": 6, "CT": 12, "LT": 12, "RT": 12, "LA": 12, "RA": 12, "LL": 6,
                 "RL": 6, "FLL": 6, "FRL": 6, "RLL": 6, "RRL": 6}
#: armor points per ton by armor type (TechManual armor table [REC]); others: standard
ARMOR_POINTS_PER_TON: dict[str, F] = {
    "standard": F(16), "ferro-fibrous": F(1792, 100), "light ferro-fibrous": F(1696, 100),
    "heavy ferro-fibrous": F(1984, 100), "hardened": F(8), "commercial": F(24),
    "ferro-lamellor": F(1408, 100), "reactive": F(14), "reflective": F(16),
}
#: where added heat sinks go, in order (a location with room)
_SINK_ORDER = ("LT", "RT", "LL", "RL", "LA", "RA", "CT", "FLL", "FRL", "RLL", "RRL", "HD")


def _pts_per_ton(d: Design) -> F:
    key = type_key(d.armor_type)
    if key == "ferro-fibrous" and d.clan:
        return F(1920, 100)
    return ARMOR_POINTS_PER_TON.get(key, F(16))


def used_slots(d: Design) -> dict[str, int]:
    """Critical slots in use per location (system slots included)."""
    out = {loc: 0 for loc in SLOT_CAPACITY}
    for e in d.entries:
        out[e.location] = out.get(e.location, 0) + e.lines
    return out


def _item(text: str, d: Design) -> tuple[str, str, bool, WeaponSpec | EquipSpec | AmmoRead]:
    """``Name@LOC[ (R)]`` -> (slot name, location, rear, what it is)."""
    name, sep, loc = text.rpartition("@")
    if not sep or not name.strip():
        raise EditError(f"edit item {text!r}: expected NAME@LOCATION (e.g. 'Medium Laser@RA')")
    loc = loc.strip().upper()
    rear = loc.endswith("(R)")
    loc = loc.removesuffix("(R)").strip()
    if loc not in SLOT_CAPACITY:
        raise EditError(f"edit item {text!r}: location {loc!r} is not one of "
                        + ", ".join(SLOT_CAPACITY))
    name = name.strip()
    key = norm(name)
    wt = weapons()
    prefix = "cl" if d.clan else "is"
    spec = wt.get(key) or wt.get(prefix + key) or wt.get(("clan" if d.clan else "is") + key)
    if spec is not None:
        return spec.slot, loc, rear, spec
    eq = equipment_table().get(key) or equipment_table().get(prefix + key)
    if eq is not None:
        return eq.slot, loc, rear, eq
    ammo = read_ammo(name, d.tech_base)
    if isinstance(ammo, AmmoRead):
        return name, loc, rear, ammo
    raise EditError(f"edit item {name!r}: not in the price calculators' equipment table "
                    "(sim/units/design/data/*.csv)")


def _weight(what: WeaponSpec | EquipSpec | AmmoRead, text: str) -> F:
    if isinstance(what, WeaponSpec):
        return what.tons
    if isinstance(what, AmmoRead):
        return F(1, 2) if what.half else F(1)
    if what.tons is None:
        raise EditError(f"edit item {text!r}: its weight depends on the unit; btsim cannot "
                        "check the tonnage of adding or removing it")
    return what.tons


def _slots_of(what: WeaponSpec | EquipSpec | AmmoRead, text: str) -> int:
    if isinstance(what, AmmoRead):
        return 1
    if what.slots <= 0:
        raise EditError(f"edit item {text!r}: its slot count depends on the unit")
    return what.slots


def _jet_tons(tons: int) -> F:
    return F(1, 2) if tons <= 55 else F(1) if tons <= 85 else F(2)


def edit(unit: ClassicMech | Design | str | PathLike[str], *, heat_sinks: int = 0,
         armor: dict[str, int] | int | None = None, armor_tons: int = 0, jump: int = 0,
         remove: list[str] | tuple[str, ...] = (), add: list[str] | tuple[str, ...] = (),
         tonnage: str = "fixed") -> Design:
    """``unit`` with the changes applied (module doc), refused with :class:`EditError`
    when a construction rule breaks. ``armor``: points per location (``{"CT": +2}``) or a
    number of points spread where the maximum allows (:func:`spread_armor`);
    ``armor_tons``: that many tons of the unit's armor type, spread the same way.
    ``tonnage="free"`` lets an edit add weight (the question "what is one more heat sink
    worth" without a trade; the added tons are noted in the design's ``assumed``). The
    result's name ends in the edit's label in brackets (:func:`edit_label`:
    ``Atlas AS7-D [+1 heat sink]``)."""
    if tonnage not in ("fixed", "free"):
        raise EditError(f"tonnage {tonnage!r}: expected 'fixed' or 'free'")
    d = design_of(unit)
    label = edit_label(heat_sinks=heat_sinks, armor=armor, armor_tons=armor_tons, jump=jump,
                       remove=remove, add=add)
    spread_note = ""
    if isinstance(armor, int) and not isinstance(armor, bool):
        spread = spread_armor(d, armor)
        if sum(spread.values()) < armor:
            raise EditError(f"armor {armor:+d}: only {sum(spread.values())} more point(s) fit "
                            f"below the locations' maxima of {d.name}")
        armor = spread
    elif armor is not None and not isinstance(armor, dict):
        raise EditError(f"armor {armor!r}: expected points per location or a number of points")
    if armor_tons:
        want = armor_tons * int(_pts_per_ton(d))
        extra = spread_armor(d, want)
        got = sum(extra.values())
        if got == 0:
            raise EditError(f"armor_tons {armor_tons:+d}: every location of {d.name} is at its "
                            "armor maximum")
        if got < want:
            spread_note = (f"; armor_tons {armor_tons:+d}: {got} of its {want} points fit below "
                           "the maxima")
        armor = {k: (armor or {}).get(k, 0) + extra.get(k, 0)
                 for k in dict.fromkeys([*(armor or {}), *extra])}
    #: a catalog record keeps no system or filler slots: the slot rules cannot be checked
    record = bool(d.assumed) and not any(norm(e.name) == "gyro" or "engine" in norm(e.name)
                                         for e in d.entries)
    entries = list(d.entries)
    weight = F(0)
    changes: list[str] = []
    for text in remove:
        slot, loc, rear, what = _item(text, d)
        size = _slots_of(what, text)
        k = next((i for i, e in enumerate(entries) if e.location == loc and e.rear == rear
                  and norm(e.name) in (norm(slot), norm(text.rpartition("@")[0]))
                  and e.lines >= size), None)
        if k is None:
            raise EditError(f"remove {text!r}: {d.name} has no {slot} in {loc}"
                            + (" (rear)" if rear else ""))
        e = entries[k]
        if e.lines == size:
            del entries[k]
        else:
            entries[k] = replace(e, lines=e.lines - size)
        weight -= _weight(what, text)
        changes.append(f"-{slot}@{loc}")
    used = used_slots(replace(d, entries=tuple(entries)))
    for text in add:
        slot, loc, rear, what = _item(text, d)
        size = _slots_of(what, text)
        free = SLOT_CAPACITY[loc] - used.get(loc, 0)
        if size > free and not record:
            raise EditError(f"add {text!r}: {slot} needs {size} critical slot(s) in {loc}; "
                            f"{free} free")
        used[loc] = used.get(loc, 0) + size
        entries.append(Entry(slot, loc, rear, size))
        weight += _weight(what, text)
        changes.append(f"+{slot}@{loc}")
    sinks = d.heat_sinks + heat_sinks
    if heat_sinks:
        if d.engine_type in ("Fusion", "XL", "XXL", "Light", "Compact") and sinks < 10:
            raise EditError(f"heat_sinks {heat_sinks:+d}: a fusion engine needs at least 10 "
                            f"heat sinks; {d.name} would have {sinks}")
        if heat_sinks > 0:
            double = d.heat_sink_type == "Double"
            size = (2 if d.clan else 3) if double else 1
            slotted = sum(e.lines // size for e in d.entries
                          if "heatsink" in norm(e.name))
            room = max(d.engine_rating // 25 - (d.heat_sinks - slotted), 0)
            for _ in range(0 if record else max(heat_sinks - room, 0)):
                room_at = next((x for x in _SINK_ORDER if x in d.armor and
                                SLOT_CAPACITY[x] - used[x] >= size), None)
                if room_at is None:
                    raise EditError(f"heat_sinks {heat_sinks:+d}: no location has {size} free "
                                    "critical slot(s) for another heat sink")
                used[room_at] += size
                entries.append(Entry("ISDoubleHeatSink" if double else "Heat Sink", room_at,
                                     False, size))
        weight += heat_sinks
        changes.append(f"heat sinks {heat_sinks:+d}")
    new_armor = dict(d.armor)
    for loc, delta in (armor or {}).items():
        key = loc.strip().upper()
        if key not in new_armor:
            raise EditError(f"armor {loc!r}: not an armor location of {d.name} (one of "
                            + ", ".join(new_armor) + ")")
        new_armor[key] += int(delta)
        if new_armor[key] < 0:
            raise EditError(f"armor {loc!r} {delta:+d}: {d.name} has only {d.armor[key]}")
        weight += F(int(delta)) / _pts_per_ton(d)
        changes.append(f"armor {key} {int(delta):+d}")
    new_jump = d.jump + jump
    if jump:
        if not 0 <= new_jump <= d.walk:
            raise EditError(f"jump {jump:+d}: jump MP must stay in 0..walk MP ({d.walk}); "
                            f"got {new_jump}")
        for _ in range(0 if record else max(jump, 0)):
            jet_at = next((x for x in ("LT", "RT", "CT", "LL", "RL", "RLL", "RRL") if x in d.armor
                           and SLOT_CAPACITY[x] - used[x] >= 1), None)
            if jet_at is None:
                raise EditError(f"jump {jump:+d}: no free critical slot for a jump jet")
            used[jet_at] += 1
            entries.append(Entry("Jump Jet", jet_at, False, 1))
        weight += jump * _jet_tons(d.tons)
        changes.append(f"jump {jump:+d}")
    if weight > 0 and tonnage == "fixed":
        raise EditError(f"{d.name}: the edit adds {float(weight):g} t more than it removes "
                        f"({', '.join(changes)}); the design's tonnage is fully used")
    note = f"edited: {', '.join(changes)}; weight {float(weight):+g} t" + (
        " (over the design's tonnage: tonnage=free)" if weight > 0 else "") + (
        "; critical slots not checked (the catalog record keeps none)" if record else "") + (
        spread_note)
    out = replace(d, entries=tuple(entries), armor=new_armor, heat_sinks=sinks,
                  jump=new_jump, name=edited_name(d.name, label), _inventory=None,
                  assumed=(*d.assumed, note))
    over = armor_over_maximum(out)
    if over:
        raise EditError(f"{d.name}: " + "; ".join(over))
    inventory(out)
    return out


def one_ton_of_armor(unit: ClassicMech | Design | str | PathLike[str]) -> dict[str, int]:
    """The points one more ton of the unit's armor type buys (rounded down), spread over the
    locations with room below their maximum (CT, side torsos, legs, arms, head)."""
    d = design_of(unit)
    return spread_armor(d, int(_pts_per_ton(d)))


def spread_armor(unit: ClassicMech | Design | str | PathLike[str], points: int
                 ) -> dict[str, int]:
    """``points`` more armor points spread one at a time round the locations with room below
    their maximum (CT, side torsos, legs, arms, head); fewer when every location is full.
    Only additions: removing armor names its location (``armor.LT=-4``)."""
    d = design_of(unit)
    if points < 0:
        raise EditError(f"armor {points:+d}: armor is spread only when added; name the "
                        "location to remove it (armor.LT=-4)")
    left = points
    out: dict[str, int] = {}
    order = ("CT", "LT", "RT", "LL", "RL", "FLL", "FRL", "RLL", "RRL", "LA", "RA", "HD")
    while left > 0:
        placed = False
        for loc in order:
            if loc not in d.armor or left == 0:
                continue
            trial = replace(d, armor={**d.armor, loc: d.armor[loc] + out.get(loc, 0) + 1})
            if not armor_over_maximum(trial):
                out[loc] = out.get(loc, 0) + 1
                left -= 1
                placed = True
        if not placed:
            break
    return out


#: what an edit item may be (the error messages quote it)
EDIT_SYNTAX = ("KEY=VALUE items (repeated, or separated by semicolons): heat_sinks=+N, "
               "armor=+N (points spread), armor_tons=+N, armor.LOC=+N, jump=+N, "
               "remove=NAME@LOC, add=NAME@LOC, tonnage=free")
_NUMERIC = ("heat_sinks", "jump", "armor", "armor_tons")


def edit_items(value: object) -> list[str]:
    """The edit items of ``value``: None or ``""`` none; a string (items separated by
    ``;``); a list of such strings. :class:`EditError` for anything else."""
    if value is None:
        return []
    parts = [value] if isinstance(value, str) else value
    if not isinstance(parts, list | tuple) or not all(isinstance(p, str) for p in parts):
        raise EditError(f"edit {value!r}: expected {EDIT_SYNTAX}")
    items = [t.strip() for p in parts for t in p.split(";") if t.strip()]
    if not items and any(p.strip() for p in parts):
        raise EditError(f"edit {value!r}: no edit item in it; expected {EDIT_SYNTAX}")
    return items


def parse_edits(items: list[str] | str) -> dict[str, Any]:
    """``--edit`` texts (``heat_sinks=+1``, ``armor=+16``, ``armor_tons=+1``, ``armor.CT=+2``,
    ``jump=+1``, ``remove=Large Laser@RA``, ``add=ISLargePulseLaser@RA``, ``tonnage=free``;
    a string may hold several, ``;``-separated; ``heat_sinks+1`` is short for
    ``heat_sinks=+1``) as :func:`edit` keywords."""
    kw: dict[str, Any] = {"heat_sinks": 0, "armor": {}, "jump": 0, "remove": [], "add": [],
                          "tonnage": "fixed"}
    for item in edit_items(items):
        key, sep, value = item.partition("=")
        if not sep:
            short = next((k for k in (*_NUMERIC, "armor.") if item.startswith(k)
                          and item[len(k):len(k) + 1] in "+-"), None)
            if short is not None and short != "armor.":
                key, sep, value = short, "=", item[len(short):]
        key, value = key.strip(), value.strip()
        if not sep or not value:
            raise EditError(f"edit item {item!r}: expected {EDIT_SYNTAX}")
        if key in _NUMERIC or key.startswith("armor."):
            try:
                n = int(value)
            except ValueError:
                raise EditError(f"edit item {item!r}: expected a signed integer "
                                f"({EDIT_SYNTAX})") from None
            if key.startswith("armor."):
                kw["armor"][key[6:].upper()] = kw["armor"].get(key[6:].upper(), 0) + n
            elif key == "armor":
                kw["armor_points"] = kw.get("armor_points", 0) + n
            else:
                kw[key] = kw.get(key, 0) + n
        elif key in ("remove", "add"):
            kw[key].append(value)
        elif key == "tonnage":
            if value not in ("fixed", "free"):
                raise EditError(f"edit item {item!r}: tonnage is 'fixed' or 'free'")
            kw["tonnage"] = value
        else:
            raise EditError(f"edit item {item!r}: unknown key {key!r}; expected {EDIT_SYNTAX}")
    return kw


def edit_keywords(value: object) -> dict[str, Any] | None:
    """:func:`edit` keywords of an edit value (:func:`edit_items`), None for no edit."""
    items = edit_items(value)
    if not items:
        return None
    kw = parse_edits(items)
    points = kw.pop("armor_points", 0)
    if points:
        if kw["armor"]:
            raise EditError(f"edit {value!r}: armor=+N (spread) and armor.LOC in one edit; "
                            "use one form")
        kw["armor"] = points
    return kw


def edit_label(*, heat_sinks: int = 0, armor: dict[str, int] | int | None = None,
               armor_tons: int = 0, jump: int = 0, remove: Any = (), add: Any = (),
               **_: Any) -> str:
    """The short name of an edit, e.g. ``+1 heat sink``, ``+16 armor``, ``+1 t armor,
    +1 jump MP``, ``-Large Laser@RA, +ISLargePulseLaser@RA``."""
    parts = [f"-{t}" for t in remove] + [f"+{t}" for t in add]
    if heat_sinks:
        parts.append(f"{heat_sinks:+d} heat sink" + ("s" if abs(heat_sinks) != 1 else ""))
    if isinstance(armor, int) and armor:
        parts.append(f"{armor:+d} armor")
    elif isinstance(armor, dict):
        parts += [f"{n:+d} armor {loc.upper()}" for loc, n in armor.items() if n]
    if armor_tons:
        parts.append(f"{armor_tons:+d} t armor")
    if jump:
        parts.append(f"{jump:+d} jump MP")
    return ", ".join(parts) or "no change"


def edited_name(name: str, label: str) -> str:
    """The name an edited unit plays under: ``Atlas AS7-D [+1 heat sink]``."""
    return f"{name} [{label}]"


__all__ = ["EDIT_SYNTAX", "EditError", "edit", "edit_items", "edit_keywords", "edit_label",
           "edited_name", "one_ton_of_armor", "parse_edits", "spread_armor"]
