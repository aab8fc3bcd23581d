"""Edited units for the simulations (issue 20, "What a change costs"): the ``edit`` parameter
of the ``fire``, ``profile``, ``duel`` and ``classic-duel`` models and ``--edit`` on ``btsim
fire``, ``profile`` and ``duel``.

:func:`sim.units.edit` changes a :class:`~sim.units.design.reader.Design` (what the price
calculators read) and checks the construction rules (slots, tonnage, armor maximum).
:func:`edit_unit` applies the same edit to the Classic 'Mech the simulations play
(:class:`~sim.units.types.ClassicMech`: armor, heat sinks and their locations, jump MP,
weapon mounts, ammunition bins, equipment and, for a unit read from a file, its critical
slots), named ``Atlas AS7-D [+1 heat sink]`` and priced again: its Battle Value is the one
:func:`sim.units.battle_value` computes for the edited design (``bv_source`` says so) and its
Point Value the converted card's. :func:`edited_card` is the Alpha Strike card converted
from the edited design (reference-as-conversion.md): an edited unit plays its converted card,
never the MUL card of the unedited one.

An edit is the text of ``--edit`` (:data:`sim.units.design.edit.EDIT_SYNTAX`): one item, items
separated by ``;``, or a list of items; ``""`` is no edit.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from functools import lru_cache
from os import PathLike
from typing import Any

from sim.errors import ConfigError, UserError, shown
from sim.units.design.edit import (
    _SINK_ORDER,
    EDIT_SYNTAX,
    EditError,
    edit,
    edit_keywords,
    edit_label,
    edited_name,
)
from sim.units.design.reader import Design, design_of
from sim.units.types import AmmoBin, ASCard, ClassicMech, WeaponMount

#: a unit before it is edited: a catalog name, an .mtf path, a ClassicMech or a Design
UnitLike = ClassicMech | Design | str | PathLike[str]


def _text(value: Any) -> str:
    """An edit value as messages quote it (a list joined by semicolons)."""
    if isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
        return shown("; ".join(value))
    return shown(value)


def _keywords(value: Any, field: str) -> dict[str, Any] | None:
    """The edit keywords of ``value``; a syntax error is one line naming ``field``, the
    value and the syntax (:data:`~sim.units.design.edit.EDIT_SYNTAX`)."""
    try:
        return edit_keywords(value)
    except EditError as exc:
        raise EditError(f"{field} {_text(value)}: {exc}") from None


def check_edit(value: Any, field: str = "edit") -> str:
    """The label of a valid edit value (``""`` for none); ConfigError naming ``field``."""
    kw = _keywords(value, field)
    return "" if kw is None else edit_label(**kw)


def _refused(field: str, value: Any, exc: UserError) -> UserError:
    return EditError(f"{field} {_text(value)}: {exc} (allowed: an edit the construction rules "
                     "permit; tonnage=free lets it add weight)")


def design_and_mech(unit: UnitLike) -> tuple[Design, ClassicMech | None]:
    if isinstance(unit, Design):
        return unit, None
    if isinstance(unit, ClassicMech):
        return design_of(unit), unit
    from sim.units.catalog import get_classic
    mech = get_classic(unit)
    text = str(unit)
    design = design_of(unit if text.lower().endswith(".mtf") else mech)
    return design, mech


def edited_design(unit: UnitLike, value: Any, field: str = "edit") -> Design | None:
    """The edited :class:`Design` of ``unit`` (None for no edit); a bad edit is one
    :class:`~sim.errors.UserError` naming ``field`` and the value."""
    kw = _keywords(value, field)
    if kw is None:
        return None
    design, _ = design_and_mech(unit)
    try:
        return edit(design, **kw)
    except EditError as exc:
        raise _refused(field, value, exc) from None


def _prices(d: Design) -> tuple[int | None, int | None, str]:
    """(BV, PV at skill 4, note) computed for an edited design; None with the reason when it
    is outside a reference's scope."""
    from sim.units.as_conversion import alpha_strike_card
    from sim.units.bv2 import battle_value
    from sim.units.bv2.scope import OutOfScope
    notes = []
    bv = pv = None
    try:
        bv = battle_value(d).bv
    except OutOfScope as exc:
        notes.append(f"no BV computed for the edited design: {exc}")
    try:
        pv = alpha_strike_card(d).fields["pv"]
    except OutOfScope as exc:
        notes.append(f"no PV computed for the edited design: {exc}")
    return bv, pv, "; ".join(notes)


def _entries(d: Design) -> Counter[tuple[str, str, bool, int]]:
    return Counter((e.name, e.location, e.rear, e.lines) for e in d.entries)


def edit_unit(unit: UnitLike, value: Any = None, field: str = "edit", **keywords: Any
              ) -> ClassicMech:
    """The Classic 'Mech ``unit`` with the edit ``value`` (``--edit`` text) or the
    :func:`sim.units.edit` ``keywords`` applied, for the simulations (module doc). The
    design edit is checked first (slots, tonnage, armor maximum); its added and removed
    slot entries become weapon mounts, ammunition bins, heat sinks, jump jets and equipment
    of the 'Mech. A ClassicMech is accepted wherever a unit is (``sim.fire``,
    ``sim.classic_duel``, ...)."""
    if not keywords and isinstance(unit, str):
        items = tuple(_items(value, field))
        return _edit_named(unit, items, field) if items else _edit(unit, None, field)
    return _edit(unit, value, field, **keywords)


def _items(value: Any, field: str) -> list[str]:
    from sim.units.design.edit import edit_items
    try:
        return edit_items(value)
    except EditError as exc:
        raise EditError(f"{field} {_text(value)}: {exc}") from None


@lru_cache(maxsize=256)
def _edit_named(unit: str, items: tuple[str, ...], field: str) -> ClassicMech:
    """:func:`edit_unit` of a unit named by text, computed once per (unit, edit): a grid
    and the per-range scenarios of ``profile`` build the same edited 'Mech many times."""
    return _edit(unit, list(items), field)


def _edit(unit: UnitLike, value: Any, field: str, **keywords: Any) -> ClassicMech:
    if keywords:
        if value is not None:
            raise ConfigError(field, value, "either an edit text or edit keywords, not both")
        kw: dict[str, Any] | None = {"heat_sinks": 0, "armor": {}, "jump": 0, "remove": [],
                                     "add": [], "tonnage": "fixed", **keywords}
    else:
        kw = _keywords(value, field)
    design, mech = design_and_mech(unit)
    if mech is None:
        raise ConfigError("unit", getattr(unit, "name", unit), "a catalog name, an .mtf path "
                          "or a ClassicMech (a Design has no Classic record to simulate)")
    if kw is None:
        return mech
    try:
        d = edit(design, **kw)
    except EditError as exc:
        raise _refused(field, value if value is not None else keywords, exc) from None
    return _apply(mech, design, d, edit_label(**kw))


def _key(name: str, tech_base: str) -> str | None:
    from sim.classic.weapons import lookup_weapon
    w = lookup_weapon(name, tech_base, display=True)
    return None if w is None else w.key


def _apply(mech: ClassicMech, before: Design, after: Design, label: str) -> ClassicMech:
    """``mech`` changed as ``before`` -> ``after`` (armor, sinks, jump, slot entries)."""
    from sim.classic.weapons import lookup_ammo_bin, lookup_equipment, lookup_weapon
    old, new = _entries(before), _entries(after)
    added, removed = new - old, old - new
    mounts = list(mech.weapon_mounts)
    listed = list(mech.weapons)
    bins = list(mech.ammo_bins)
    equipment = list(mech.equipment)
    sink_locs = list(mech.heat_sink_locations)
    slots = {k: list(v) for k, v in mech.slots.items()}
    tb = mech.tech_base

    def put(loc: str, name: str, n: int) -> None:
        if not slots:
            return
        row = slots.setdefault(loc, [])
        for _ in range(n):
            free = next((i for i, s in enumerate(row) if s in (None, "-Empty-")), None)
            if free is None:
                row.append(name)
            else:
                row[free] = name

    def take(loc: str, name: str, n: int) -> None:
        if not slots:
            return
        row = slots.get(loc, [])
        for _ in range(n):
            i = next((i for i, s in enumerate(row) if s is not None
                      and s.replace(" (R)", "").strip() == name), None)
            if i is not None:
                row[i] = None

    for (name, loc, rear, lines), count in removed.items():
        for _ in range(count):
            w = lookup_weapon(name, tb)
            if w is not None:
                k = next((i for i, m in enumerate(mounts) if m.location == loc
                          and m.rear == rear and (m.name == name or m.weapon == w.key)), None)
                if k is not None:
                    gone = mounts.pop(k)
                    j = next((i for i, (n, lc) in enumerate(listed) if lc == loc
                              and _key(n, tb) == gone.weapon), None)
                    if j is not None:
                        listed.pop(j)
            elif lookup_ammo_bin(name, tb) is not None:
                k = next((i for i, b in enumerate(bins) if b.location == loc
                          and b.name == name), None)
                if k is not None:
                    bins.pop(k)
            else:
                eq = lookup_equipment(name, tb)
                if eq is not None:
                    k = next((i for i, (key, lc) in enumerate(equipment) if lc == loc
                              and key == eq.key), None)
                    if k is not None:
                        equipment.pop(k)
            take(loc, name, lines)
    for (name, loc, rear, lines), count in added.items():
        for _ in range(count):
            low = name.lower().replace(" ", "")
            if "heatsink" in low:
                sink_locs.append(loc)
            elif low == "jumpjet":
                pass
            else:
                w = lookup_weapon(name, tb)
                found = lookup_ammo_bin(name, tb)
                if w is not None:
                    mounts.append(WeaponMount(name, w.key, loc, rear))
                    listed.append((w.key, loc))
                elif found is not None:
                    bins.append(AmmoBin(name, found[0].key, loc, found[1]))
                else:
                    eq = lookup_equipment(name, tb)
                    if eq is None:
                        raise EditError(f"add {name!r}: the Classic tables "
                                        "(sim/classic/data/*.csv) do not know it, so it cannot "
                                        "be simulated")
                    equipment.append((eq.key, loc))
            put(loc, name + (" (R)" if rear else ""), lines)
    extra = after.heat_sinks - before.heat_sinks
    slotted = len(sink_locs) - len(mech.heat_sink_locations)
    engine_sinks = mech.engine_heat_sinks
    if extra > slotted:  # a catalog record (no slots): the engine's room, then LT, RT, ...
        room = max(mech.engine_rating // 25 - mech.engine_heat_sinks, 0)
        engine_sinks += min(extra - slotted, room)
        sink_locs += [_SINK_ORDER[i % 6] for i in range(max(extra - slotted - room, 0))]
    if extra < 0:       # removed sinks: the slotted ones first (the last listed), then engine
        drop = -extra
        while drop and sink_locs:
            loc = sink_locs.pop()
            take(loc, "Heat Sink" if mech.heat_sink_type != "Double" else
                 ("CLDoubleHeatSink" if tb == "Clan" else "ISDoubleHeatSink"), 1)
            drop -= 1
        engine_sinks = max(mech.engine_heat_sinks - drop, 0)
    if after.jump < before.jump and slots:
        for _ in range(before.jump - after.jump):
            jet = next((k for k, row in slots.items() if "Jump Jet" in row), None)
            if jet is not None:
                take(jet, "Jump Jet", 1)
    name = edited_name(mech.name, label)
    bv, pv, why = _prices(after)
    notes = (*mech.notes, f"edited {label}: BV and PV computed for the edited design "
             f"(BV {bv}, PV {pv})" + (f"; {why}" if why else ""), after.assumed[-1])
    return replace(
        mech, name=name, model=f"{mech.model} [{label}]", armor=dict(after.armor),
        heat_sinks=after.heat_sinks, engine_heat_sinks=engine_sinks,
        heat_sink_locations=tuple(sink_locs), jump_mp=after.jump,
        weapon_mounts=tuple(mounts), weapons=tuple(listed), ammo_bins=tuple(bins),
        equipment=tuple(equipment),
        slots={k: tuple(v) for k, v in slots.items()} if slots else mech.slots,
        source=f"{mech.source} (edited)" if mech.source else "edited",
        bv=bv, bv_source="computed for the edited design" if bv is not None else "",
        bv_record=None, pv=pv, pv_source="computed for the edited design"
        if pv is not None else "", notes=notes)


def edited_card(unit: UnitLike, value: Any, field: str = "edit") -> ASCard:
    """The Alpha Strike card converted from ``unit``'s design with the edit ``value``
    applied (reference-as-conversion.md), named ``NAME [edit]``, its PV computed; a
    unit outside the conversion's scope is refused with the reason."""
    from sim.units.as_conversion import alpha_strike_card
    d = edited_design(unit, value, field)
    if d is None:
        raise ConfigError(field, value, "an edit (" + EDIT_SYNTAX + ")")
    card = alpha_strike_card(d).card
    return replace(card, source="converted (edited)")


def edit_side(unit: Any, value: Any, field: str) -> ASCard:
    """An Alpha Strike side's unit edited: ``unit`` is a catalog name (a trailing
    `` (converted)`` or ``@SKILL`` is the caller's) or an ``.mtf`` path; card files and
    ASCards have no design to edit."""
    if isinstance(unit, ASCard) or (isinstance(unit, str) and unit.lower().endswith(
            (".csv", ".json"))):
        raise ConfigError(field, value, "an edit of a unit with Classic data (a catalog "
                          "'Mech or an .mtf file); an Alpha Strike card has no design to edit")
    from sim.units.catalog import CONVERTED_SUFFIX
    if isinstance(unit, str) and unit.lower().endswith(CONVERTED_SUFFIX):
        unit = unit[: -len(CONVERTED_SUFFIX)]
    return edited_card(unit, value, field)


__all__ = ["check_edit", "edit_side", "edit_unit", "edited_card", "edited_design"]
