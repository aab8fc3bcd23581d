"""What btsim simulates of a unit: the one judgement that ``btsim units import`` (the import
summary), ``btsim units`` (the completeness column), the fire model and the duel (their
notes) share (issue 19).

Every unit the reader accepts is usable: a weapon btsim does not simulate (one its weapon
table lacks, or a row whose ``simulated`` column says ``no: ...``, such as artillery or a
one-shot launcher) never fires, and the unit is **incomplete**. :func:`not_simulated` lists
every such item with its reason, in five kinds:

* ``weapon``: a weapon mount the table lacks or marks ``no:`` (never fires) or ``partly:``
  (fires; part of its rules is not simulated, e.g. the MML's SRM rounds);
* ``ammunition``: a bin of rounds no weapon fires (special munitions such as Inferno, MML
  SRM rounds, ATM ER/HE rounds) or of unknown ammunition;
* ``equipment``: equipment the table marks ``no:`` or ``partly:`` (null-signature
  systems...; TSM, MASC, superchargers, coolant pods and a Narc launcher with Narc-capable
  missiles are simulated by the compiled duel engine), physical weapons other than
  hatchets, swords and retractable blades, and slot entries the reader does not know;
* ``construction``: header types whose rules are not simulated (reactive or reflective
  armor...; composite, reinforced and endo-composite structure and ferro-lamellor armor are
  simulated, their damage on every door; hardened armor is simulated: its damage,
  running MP, piloting modifier and -2 on its through-armor criticals; the small and
  torso-mounted cockpits, the heavy-duty gyro and stealth armor are the compiled duel's),
  and a configuration other than biped or quad;
* ``quirk``: design quirks (an optional rule, off in btsim as in MegaMek's default): listed,
  but they do not make a unit incomplete.

Equipment declared to have no effect in a one-on-one duel (ECM, C3, probes, A-Pods, Narc
without Narc-capable missiles, TAG, turrets, cargo, UMUs; weapons whose row says ``none:``,
torpedoes, which fire only underwater: :func:`no_effect`) keeps a unit complete.
"""

from __future__ import annotations

from typing import NamedTuple

from sim.classic.physical_weapons import PHYSICAL_WEAPONS
from sim.classic.weapons import AMMO, EQUIPMENT, WEAPONS, lookup_weapon
from sim.units.types import ClassicMech

#: Physical weapons the Classic duel uses (the sword, else the retractable blade, in the
#: compiled engine, where the unit has no hatchet; claws in the punches of their arm:
#: sim/classic/engine/compile.py and physical.py).
SWUNG = ("hatchet", "sword", "retractable_blade", "claws")
#: Kinds of :class:`Item`, in the order reports list them.
KINDS = ("weapon", "ammunition", "equipment", "construction", "quirk")
#: Kinds that make a unit incomplete (design quirks are an optional rule).
INCOMPLETE_KINDS = ("weapon", "ammunition", "equipment", "construction")

#: Header type words (lower case) whose rules btsim does not simulate -> the reason.
CONSTRUCTION_NOT_SIMULATED = {
    # its damage (each point stops two, half points kept: Layout.armor_per_point) is
    # simulated on every door; what is left (MegaMek Mek.getRunMP / addEntityBonuses):
    ("armor", "reactive"): "reactive armor (halves missile and artillery damage)",
    ("armor", "reflective"): "reflective armor (halves energy damage)",
    # MegaMek TWDamageManager (read for issue 19): the rules these would need (its
    # ferro-lamellor armor, composite and reinforced structure are simulated on every door:
    # sim.classic.equipment_rules.lamellor_damage / structure_take)
    ("armor", "ballistic-reinforced"): ("ballistic-reinforced armor (MegaMek TWDamageManager: "
                                        "ballistic and missile hits deal max(1, damage // 2))"),
    ("armor", "impact-resistant"): "impact-resistant armor (halves physical damage)",
    ("armor", "anti-penetrative"): "anti-penetrative ablation armor",
    ("armor", "heat-dissipating"): "heat-dissipating armor",
    ("armor", "patchwork"): "patchwork armor (per-location types)",
    ("cockpit", "interface"): "interface cockpit",
    ("cockpit", "drone"): "drone operating system",
}


#: Header type words that contain a word of :data:`CONSTRUCTION_NOT_SIMULATED` but are
#: simulated: endo-composite structure has the standard internal structure points (MegaMek
#: EquipmentType T_STRUCTURE_ENDO_COMPOSITE: it differs from standard structure only in
#: weight and slots, which the reader already counts as filler slots), not composite's.
CONSTRUCTION_SIMULATED = ("endo-composite", "endocomposite")


def _construction_words(value: str) -> str:
    """``value`` lower-cased without the simulated type words (:data:`CONSTRUCTION_SIMULATED`)."""
    out = value.lower()
    for word in CONSTRUCTION_SIMULATED:
        out = out.replace(word, "")
    return out


#: Why a 'Mech of another configuration than biped or quad is incomplete
#: (:func:`require_biped` refuses it where it matters).
CONFIG_REASON = ("only biped and quad 'Mechs are simulated (the quad's four legs in the "
                 "compiled Classic duel: sim/classic/quad.py)")


def require_biped(mech: ClassicMech, what: str) -> None:
    """UserError naming ``what`` for a 'Mech that is not a biped (a caller that reads no quad
    rules; the Classic duel's compiled engine, `btsim hit`, `fire` and `profile` take quads)."""
    if mech.config != "Biped":
        from sim.errors import UserError

        why = ("(leg rules, kicks, no punches); the Classic duel, `btsim hit`, `btsim fire` "
               "and `btsim profile` take it" if mech.config == "Quad" else
               "(biped and quad 'Mechs only)")
        raise UserError(f"{mech.name}: {what} does not simulate {mech.config} 'Mechs yet "
                        + why)


class Item(NamedTuple):
    """One thing of a unit that btsim does not simulate: ``kind`` (one of :data:`KINDS`),
    ``name`` as the file writes it, ``location`` ("" for header items) and ``reason``."""

    kind: str
    name: str
    location: str
    reason: str

    def text(self) -> str:
        where = f" ({self.location})" if self.location else ""
        return f"{self.kind} {self.name}{where}: {self.reason}"


def _short(text: str, limit: int = 100) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def not_simulated(mech: ClassicMech) -> tuple[Item, ...]:
    """Every item of ``mech`` that btsim does not simulate, with its reason (module doc),
    one per weapon mount or equipment item, one per kind of ammunition bin."""
    out: list[Item] = []
    mounts = mech.weapon_mounts or ()
    for m in mounts:
        w = WEAPONS.get(m.weapon) if m.weapon is not None else None
        if w is None:
            out.append(Item("weapon", _short(m.name), m.location, missing_weapon_reason()))
        elif w.simulated and not w.simulated.startswith("none:"):
            kind, _, why = w.simulated.partition(":")
            out.append(Item("weapon", w.name, m.location,
                            ("never fires: " if kind == "no" else "fires; ") + why.strip()))
    if not mounts:
        for name, loc in mech.weapons:
            w = lookup_weapon(name, mech.tech_base, display=True)
            if w is None or (not w.fires and not w.simulated.startswith("none:")):
                out.append(Item("weapon", _short(name), loc, "never fires: "
                                + w.simulated.partition(":")[2].strip() if w is not None
                                else missing_weapon_reason()))
    seen: set[tuple[str, str]] = set()
    for b in mech.ammo_bins:
        a = AMMO.get(b.ammo) if b.ammo is not None else None
        reason = None
        if a is None:
            reason = (f"special munition {b.munition!r}: no weapon fires it (it does not "
                      "explode either)" if b.munition else
                      "ammunition btsim's table lacks: no weapon fires it")
        elif a.simulated:
            reason = a.simulated.partition(":")[2].strip()
        if reason is not None and (b.name, b.location) not in seen:
            seen.add((b.name, b.location))
            out.append(Item("ammunition", _short(b.name), b.location, reason))
    # a Narc launcher with Narc-capable missiles: the beacon and its +2 are the compiled
    # Classic duel's (issue 19); without such missiles it has no effect (no_effect)
    for key, loc in mech.equipment:
        eq = EQUIPMENT.get(key)
        if eq is not None and eq.simulated.startswith(("no:", "partly:")):
            out.append(Item("equipment", key, loc, eq.simulated.partition(":")[2].strip()))
    eq = next(e for e in EQUIPMENT.values() if e.kind == "tsm")
    if mech.tsm and eq.simulated.startswith(("no:", "partly:")) and not any(
            EQUIPMENT.get(k) is not None and EQUIPMENT[k].kind == "tsm"
            for k, _ in mech.equipment):
        out.append(Item("equipment", "Triple-Strength Myomer", "",
                        eq.simulated.partition(":")[2].strip()))
    for weapon, loc in mech.physical_weapons:  # the duel: hatchets, and swords (engine)
        if weapon in PHYSICAL_WEAPONS and weapon not in SWUNG:
            out.append(Item("equipment", weapon.replace("_", " "), loc, "physical weapon: "
                            "declared (sim/classic/attacks.py PHYSICAL_WEAPONS: to-hit, "
                            "damage), but the Classic duel swings hatchets and swords "
                            "only so far"))
        elif weapon not in SWUNG:
            out.append(Item("equipment", weapon.replace("_", " "), loc, "physical weapon: "
                            "btsim's physical attacks know hatchets, swords, retractable blades and "
                            "claws only (the duel never uses it)"))
    for name, loc, _line in mech.unknown_equipment:
        out.append(Item("equipment", _short(name), loc,
                        "not in btsim's equipment table (sim/classic/data/equipment.csv)"))
    if mech.config not in ("Biped", "Quad"):
        out.append(Item("construction", f"config: {mech.config}", "", CONFIG_REASON))
    for (field, word), why in CONSTRUCTION_NOT_SIMULATED.items():
        value = getattr(mech, "armor_type" if field == "armor" else
                        "structure_type" if field == "structure" else field)
        if word in _construction_words(value):
            out.append(Item("construction", f"{field}: {_short(value)}", "",
                            f"{why} is not simulated"))
    for q in mech.quirks:
        out.append(Item("quirk", _short(q), "", "design quirks are an optional rule btsim "
                        "does not simulate (this does not make the unit incomplete)"))
    return tuple(dict.fromkeys(out))


def _narc_bonus(mech: ClassicMech) -> bool:
    """True when the unit carries a Narc launcher and Narc-capable missiles (the beacon's
    bonus would then matter in a duel)."""
    narc = any(m.weapon is not None and m.weapon in WEAPONS and WEAPONS[m.weapon].family == "narc"
               for m in mech.weapon_mounts)
    return narc and any(b.munition == "narc" for b in mech.ammo_bins)


def no_effect(mech: ClassicMech) -> tuple[Item, ...]:
    """Equipment of ``mech`` declared to have no effect in a one-on-one duel, with the
    reason (the unit stays complete): ECM, C3, probes, A-Pods, TAG, Narc without
    Narc-capable missiles."""
    out: list[Item] = []
    for key, loc in mech.equipment:
        eq = EQUIPMENT.get(key)
        if eq is not None and eq.simulated.startswith("none:"):
            out.append(Item("equipment", key, loc, eq.simulated.partition(":")[2].strip()))
    for m in mech.weapon_mounts:
        w = WEAPONS.get(m.weapon) if m.weapon is not None else None
        if w is not None and w.simulated.startswith("none:"):  # torpedoes: water only
            out.append(Item("weapon", w.name, m.location, w.simulated.partition(":")[2].strip()))
        elif w is not None and w.family in ("tag", "narc") and not _narc_bonus(mech):
            why = ("TAG designates targets for semi-guided rounds and artillery, which a "
                   "duel has none of" if w.family == "tag" else
                   "the beacon only helps Narc-capable missiles, which this unit lacks")
            out.append(Item("weapon", w.name, m.location, why))
    return tuple(dict.fromkeys(out))


def completeness(mech: ClassicMech) -> str:
    """``"complete"`` when btsim simulates everything of ``mech`` that acts in a duel,
    else ``"incomplete"`` (:func:`not_simulated`; design quirks do not count)."""
    return ("incomplete" if any(i.kind in INCOMPLETE_KINDS for i in not_simulated(mech))
            else "complete")


def incomplete_note(mech: ClassicMech) -> str | None:
    """The one note a result that uses ``mech`` carries when the unit is incomplete
    (listing what is not simulated), else None."""
    items = [i for i in not_simulated(mech) if i.kind in INCOMPLETE_KINDS]
    if not items:
        return None
    return (f"{mech.name} is incomplete: not simulated: "
            + "; ".join(i.text() for i in items[:8])
            + (f"; and {len(items) - 8} more" if len(items) > 8 else "")
            + " (`btsim units show` lists them)")


def missing_weapon_reason() -> str:
    return "never fires: not in btsim's weapon table (sim/classic/data/weapons.csv)"


def missing_weapon(name: str, where: str) -> str:
    """Reason text for a weapon the table lacks (:func:`sim.classic.weapons.require`)."""
    return (f"weapon {name!r} ({where}) is not in btsim's weapon table "
            "(sim/classic/data/weapons.csv); it cannot fire")
