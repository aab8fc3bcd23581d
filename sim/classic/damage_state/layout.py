"""What each critical slot of a 'Mech holds, as arrays the damage kernels index
(reference-classic-combat.md 14.2-14.4; reference.md 5.3).

:func:`build_layout` classifies every slot of a :class:`~sim.units.types.ClassicMech` (kind,
the item it belongs to, whether a critical can hit it under the C11 options) and lists the
explosive items (ammunition bins, Gauss rifles). A 'Mech read from the catalog has no slot
list; :func:`catalog_slots` rebuilds one from the catalog facts (the multiset of hittable slots
per location is all the uniform slot choice of 14.2 depends on) and says so in ``notes``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from sim.classic.equipment_rules import (
    GYRO_HITS_TO_DESTROY,
    armor_per_point,
    gyro_kind,
    has_ferro_lamellor,
    structure_kind,
    torso_cockpit,
)
from sim.classic.weapons import (
    AMMO,
    EQUIPMENT,
    ONE_SHOT_ROUNDS,
    WEAPONS,
    lookup_ammo_bin,
    lookup_equipment,
    lookup_weapon,
    one_shot_rounds,
)
from sim.units.types import ARM_ACTUATORS, LEG_ACTUATORS, ClassicMech

#: Biped location order of the damage state (reference.md 5.3).
LOCS: tuple[str, ...] = ("HD", "CT", "LT", "RT", "LA", "RA", "LL", "RL")
LOC_INDEX: dict[str, int] = {n: i for i, n in enumerate(LOCS)}
HD, CT, LT, RT, LA, RA, LL, RL = range(8)
#: Slots per location (reference.md 5.3).
N_SLOTS: tuple[int, ...] = (6, 12, 12, 12, 12, 12, 6, 6)
#: Where damage beyond a destroyed location goes (reference.md 5.2); -1: nowhere.
TRANSFER = np.array([-1, -1, CT, CT, LT, RT, LT, RT], dtype=np.int64)
TORSOS = (CT, LT, RT)
#: Limbs whose 12 on the determining table blows them off (with the head).
BLOWABLE = np.array([True, False, False, False, True, True, True, True])

#: 'Mech configurations (the unit file's ``Config:``) the damage state knows. A quad keeps the
#: biped location codes: its front legs are LA/RA, its rear legs LL/RL (as the unit reader
#: stores them); what differs is data, per configuration, below. The references are silent
#: on quads; the facts are MegaMek's ``QuadMek`` (megamek/common/units/QuadMek.java).
CONFIGS: tuple[str, ...] = ("Biped", "Quad")
#: Slots per location (reference.md 5.3; a quad's four legs have 6 each: ``QuadMek``
#: ``NUM_OF_SLOTS``).
SLOTS_BY_CONFIG: dict[str, tuple[int, ...]] = {"Biped": N_SLOTS,
                                               "Quad": (6, 12, 12, 12, 6, 6, 6, 6)}
#: What each of the 8 location codes is called (a quad's: ``QuadMek`` abbreviations).
NAMES_BY_CONFIG: dict[str, tuple[str, ...]] = {
    "Biped": LOCS, "Quad": ("HD", "CT", "LT", "RT", "FLL", "FRL", "RLL", "RRL")}
#: (side torso, location) pairs: a destroyed side torso takes that location with it
#: (reference.md 5.2: its arm; a quad's front leg: MegaMek ``Mek.getDependentLocation``,
#: which ``QuadMek`` does not override). Damage transfer (``TRANSFER``) is the same for both:
#: limbs, front legs included, to their side torso.
DEPENDENT_BY_CONFIG: dict[str, tuple[tuple[int, int], ...]] = {
    "Biped": ((LT, LA), (RT, RA)), "Quad": ((LT, LA), (RT, RA))}
#: a quad's own leg names, accepted where a location is named (``btsim hit --location FLL``)
QUAD_ALIASES: dict[str, str] = {q: b for q, b in zip(NAMES_BY_CONFIG["Quad"], LOCS,
                                                      strict=True) if q != b}
#: the actuators of each limb code (a quad's front legs carry leg actuators)
LIMB_ACTUATORS: dict[str, dict[str, tuple[str, ...]]] = {
    "Biped": {"LA": ARM_ACTUATORS, "RA": ARM_ACTUATORS, "LL": LEG_ACTUATORS,
              "RL": LEG_ACTUATORS},
    "Quad": {k: LEG_ACTUATORS for k in ("LA", "RA", "LL", "RL")}}

# slot kinds
EMPTY, ENGINE, GYRO, COCKPIT, SENSORS, LIFE, ACTUATOR, HEAT_SINK, JUMP_JET, WEAPON, AMMO_BIN, \
    CASE, FILLER, OTHER = range(14)
KIND_NAMES = ("empty", "engine", "gyro", "cockpit", "sensors", "life_support", "actuator",
              "heat_sink", "jump_jet", "weapon", "ammo", "case", "filler", "other")

_FIXED = {"fusion engine": ENGINE, "engine": ENGINE, "xl engine": ENGINE, "gyro": GYRO,
          "cockpit": COCKPIT, "sensors": SENSORS, "life support": LIFE}
_ACT_SLOT = {"shoulder": "Shoulder", "upper_arm": "Upper Arm Actuator",
             "lower_arm": "Lower Arm Actuator", "hand": "Hand Actuator", "hip": "Hip",
             "upper_leg": "Upper Leg Actuator", "lower_leg": "Lower Leg Actuator",
             "foot": "Foot Actuator"}
_ACTUATOR_NAMES = {v.lower(): k for k, v in _ACT_SLOT.items()}
_EQUIP_KIND = {"heat_sink": HEAT_SINK, "double_heat_sink": HEAT_SINK, "jump_jet": JUMP_JET,
               "case": CASE, "case2": OTHER, "structure": FILLER, "armor": FILLER}


@dataclass(frozen=True)
class Item:
    """One piece of equipment spread over one or more slots."""

    name: str
    kind: int
    location: int
    #: explosion damage of a Gauss weapon (0 for everything else; bins use ``Layout.bins``)
    explosion: int = 0


@dataclass(frozen=True)
class Layout:
    """The slot facts of one 'Mech, as arrays over (location, slot).

    ``kind``/``item``: (8, 12) int arrays (item -1 for none); ``names``: the slot strings as
    the unit file names them (None for empty); ``items``: one entry per multi-slot item;
    ``item_masks``: (n_items, 8) slot bitmasks of each item per location; ``bins``: ammunition
    bins as (location, full shots, explosion damage per shot, explosive); ``explosives``: the
    items that can explode, bins first (index b < len(bins) is bin b) then Gauss weapons (item
    index); ``case``/``case2``: per location."""

    mech: str
    names: tuple[tuple[str | None, ...], ...]
    kind: np.ndarray
    item: np.ndarray
    items: tuple[Item, ...]
    item_masks: np.ndarray
    bins: tuple[tuple[int, int, int, bool], ...]
    bin_slot: np.ndarray
    gauss_items: tuple[int, ...]
    case: np.ndarray
    case2: np.ndarray
    armor: np.ndarray
    structure: np.ndarray
    notes: tuple[str, ...] = field(default=())
    #: slots that are interchangeable for every rule (same location; the slots of one
    #: multi-slot item, or single-slot items of the same name and kind, bins excepted):
    #: ``(location, bitmask)``; the uniform slot choice of 14.2 treats them alike
    classes: tuple[tuple[int, int], ...] = field(default=())
    #: the 'Mech's configuration (:data:`CONFIGS`); the fields below follow from it
    config: str = "Biped"
    #: slots per location (:data:`SLOTS_BY_CONFIG`)
    n_slots: tuple[int, ...] = N_SLOTS
    #: the name of each location code (:data:`NAMES_BY_CONFIG`)
    loc_names: tuple[str, ...] = LOCS
    #: (side torso, location) pairs lost together (:data:`DEPENDENT_BY_CONFIG`)
    dependent: tuple[tuple[int, int], ...] = ((LT, LA), (RT, RA))
    #: gyro hits that destroy this 'Mech's gyro (a heavy-duty gyro 3, else 2:
    #: :data:`sim.classic.equipment_rules.GYRO_HITS_TO_DESTROY`), for the duel to read
    gyro_destroyed_at: int = 2
    #: damage points one armor point stops: 2 for hardened armor
    #: (:func:`sim.classic.equipment_rules.armor_per_point`). ``armor`` (and so the armor
    #: columns of every damage state, the compiled duel's, the NumPy kernel's and the
    #: oracle's) counts in these units, so every damage rule applies unchanged: a group
    #: takes ``min(armor, damage)`` of them. Reports show ``ceil(armor / armor_per_point)``
    #: points (:meth:`armor_points`).
    armor_per_point: int = 1
    #: a torso-mounted cockpit (:func:`sim.classic.equipment_rules.torso_cockpit`): head
    #: hits do not hurt the MechWarrior and a destroyed head does not destroy the 'Mech
    #: (its cockpit slot, in the center torso, does when hit)
    torso_cockpit: bool = False
    #: per bin: "" for an ammunition bin in a slot; for the one round a one-shot launcher
    #: carries, the key of its pool (:func:`sim.classic.weapons.one_shot_rounds`). Those
    #: bins come last, hold :data:`sim.classic.weapons.ONE_SHOT_ROUNDS`, sit in the
    #: launcher's location and in no slot (``bin_slot`` never names them), and never explode
    bin_keys: tuple[str, ...] = ()
    #: the internal structure's damage rule (index in
    #: :data:`sim.classic.equipment_rules.STRUCTURE_KINDS`: 0 standard, 1 composite, 2
    #: reinforced; :func:`sim.classic.equipment_rules.structure_take`)
    structure_kind: int = 0
    #: ferro-lamellor armor: a group striking a location with armor deals floor(4/5) of its
    #: damage (:func:`sim.classic.equipment_rules.lamellor_damage`)
    lamellor: bool = False

    def armor_points(self, values: np.ndarray) -> np.ndarray:
        """Armor points shown for armor columns kept in ``armor_per_point`` units (rounded
        up: :func:`sim.classic.equipment_rules.armor_points_left`)."""
        k = self.armor_per_point
        return values if k == 1 else -(-np.asarray(values) // k)

    @property
    def hit_tables(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The standard, punch and kick hit-location tables of this configuration
        (:data:`sim.classic.tables.HIT_TABLES`, indexed by the table ids)."""
        from sim.classic.tables import HIT_TABLES

        return HIT_TABLES[self.config]

    def kind_mask(self, *kinds: int) -> np.ndarray:
        """(8,) int bitmask of the slots of ``kinds`` in each location."""
        out = np.zeros(8, dtype=np.int64)
        for loc in range(8):
            for s in range(12):
                if self.kind[loc, s] in kinds:
                    out[loc] |= 1 << s
        return out

    def hittable(self, filler: bool = False, case: bool = False) -> np.ndarray:
        """(8,) bitmask of slots a critical can hit (14.2, C11)."""
        bad = [EMPTY] + ([] if filler else [FILLER]) + ([] if case else [CASE])
        out = np.zeros(8, dtype=np.int64)
        for loc in range(8):
            for s in range(self.n_slots[loc]):
                if self.kind[loc, s] not in bad:
                    out[loc] |= 1 << s
        return out

    def slot_label(self, loc: int, slot: int) -> str:
        """``RT:3 Autocannon/20``: location, 1-based slot number and the file's name."""
        return f"{LOCS[loc]}:{slot + 1} {self.names[loc][slot]}"


def _strip(name: str) -> tuple[str, bool]:
    """Slot string without ``(OMNIPOD)``; the ``(R)`` rear flag."""
    text = name.replace("(OMNIPOD)", "").replace("(omnipod)", "").strip()
    rear = text.endswith("(R)")
    return (text[:-3].strip() if rear else text), rear


def catalog_slots(mech: ClassicMech) -> dict[str, list[str | None]]:
    """Critical slots rebuilt from catalog facts (fixed head/CT/actuator slots, engine side
    slots, weapons by their slot count, bins, heat sinks, equipment). Order within a location
    is not the file's; only which slots exist matters to the damage rules (14.2)."""
    clan = mech.tech_base == "Clan"
    slots: dict[str, list[str | None]] = {
        "HD": ["Life Support", "Sensors", "Cockpit", None, "Sensors", "Life Support"],
        "CT": [*(["Fusion Engine"] * 3), *(["Gyro"] * 4), *(["Fusion Engine"] * 3)],
        "LT": [], "RT": [], "LA": [], "RA": [], "LL": [], "RL": []}
    if mech.engine_type in ("XL", "XXL", "Light"):
        side = 2 if mech.engine_clan or mech.engine_type == "Light" else 3
        slots["LT"] += ["Fusion Engine"] * side
        slots["RT"] += ["Fusion Engine"] * side
    acts = LIMB_ACTUATORS.get(mech.config, LIMB_ACTUATORS["Biped"])
    for limb in ("LA", "RA", "LL", "RL"):
        slots[limb] = [_ACT_SLOT[a] for a in acts[limb] if mech.has(limb, a)]

    def put(loc: str, names: list[str]) -> None:
        if loc == "HD" and None in slots["HD"]:
            for name in names:
                if None in slots["HD"]:
                    slots["HD"][slots["HD"].index(None)] = name
                else:
                    slots["HD"].append(name)
        else:
            slots[loc] += names

    for weapon, loc in mech.physical_weapons:
        put(loc, [weapon.replace("_", " ").title()] * 3)
    for m in mech.weapon_mounts:
        size = WEAPONS[m.weapon].slots if m.weapon is not None and m.weapon in WEAPONS else 1
        text = m.name + (" (R)" if m.rear else "")
        if m.split_location is not None:
            here = max(1, min(size - 1, 12 - len(slots[m.location])))
            put(m.location, [text] * here)
            put(m.split_location, [text] * (size - here))
        else:
            put(m.location, [text] * size)
    for b in mech.ammo_bins:
        put(b.location, [b.name])
    sink = ("Heat Sink", 1) if mech.heat_sink_type != "Double" else (
        ("CLDoubleHeatSink", 2) if clan else ("ISDoubleHeatSink", 3))
    for loc in mech.heat_sink_locations:
        put(loc, [sink[0]] * sink[1])
    for key, loc in mech.equipment:
        eq = EQUIPMENT[key]
        if eq.kind in ("structure", "armor"):
            continue
        put(loc, [eq.lookups[0]] * max(eq.slots, 1))
    for name, loc, _ in mech.unknown_equipment:
        put(loc, [name])
    return slots


def _classify(name: str | None, loc: str, mech: ClassicMech) -> tuple[int, str]:
    """(kind, item key) of one slot string."""
    if name is None or name.strip() in ("", "-Empty-"):
        return EMPTY, ""
    text, rear = _strip(name)
    low = text.lower()
    if low in _FIXED or low.endswith(" engine"):
        return _FIXED.get(low, ENGINE), low
    if low in _ACTUATOR_NAMES:
        return ACTUATOR, low
    if lookup_ammo_bin(text, mech.tech_base) is not None:
        return AMMO_BIN, text
    w = lookup_weapon(text, mech.tech_base) if _weapon_ok(text, mech) else None
    if w is not None:
        return WEAPON, w.key + (" (R)" if rear else "")
    eq = lookup_equipment(text, mech.tech_base)
    if eq is not None:
        return _EQUIP_KIND.get(eq.kind, OTHER), eq.key
    if low in ("iscase", "clcase", "case"):
        return CASE, low
    if "endo" in low or "ferro" in low:
        return FILLER, low
    return OTHER, text


def _weapon_ok(text: str, mech: ClassicMech) -> bool:
    try:
        return lookup_weapon(text, mech.tech_base) is not None
    except Exception:  # noqa: BLE001 - an unknown name is simply not a weapon
        return False


def build_layout(mech: ClassicMech, quad: bool = False) -> Layout:
    """The slot layout of ``mech`` (its own slots, or :func:`catalog_slots` when it has none).

    ``quad=True``: the caller reads the configuration facts of the layout (``config``,
    ``n_slots``, ``dependent``, ``hit_tables``) and takes a quad (``btsim hit``, the Classic
    duel); by default a quad is refused with the reason, for a caller that does not read
    them."""
    from sim.units.usable import require_biped

    if not (quad and mech.config in CONFIGS):
        require_biped(mech, "a caller that reads no quad facts" if not quad
                      else "the damage model")
    config = mech.config
    n_slots = SLOTS_BY_CONFIG[config]
    notes: list[str] = []
    if config != "Biped":
        names_ = NAMES_BY_CONFIG[config]
        notes.append(f"{mech.name} is a {config} 'Mech: its front legs are the locations LA/RA "
                     f"({names_[LA]}/{names_[RA]}) and its rear legs LL/RL ({names_[LL]}/"
                     f"{names_[RL]}); arm results of the hit table land on the front legs")
    if mech.slots:
        raw = {loc: list(mech.slots.get(loc, ())) for loc in LOCS}
    else:
        raw = catalog_slots(mech)
        notes.append(f"{mech.name}: critical slots rebuilt from catalog facts (slot numbers "
                     "are not the unit file's; pass the .mtf file for its own slot list)")
    kind = np.zeros((8, 12), dtype=np.int64)
    item = np.full((8, 12), -1, dtype=np.int64)
    names: list[tuple[str | None, ...]] = []
    items: list[Item] = []
    bins: list[tuple[int, int, int, bool]] = []
    bin_slot = np.full((8, 12), -1, dtype=np.int64)
    gauss: list[int] = []
    for li, loc in enumerate(LOCS):
        row = (raw.get(loc, []) + [None] * 12)[:n_slots[li]]
        if len([s for s in raw.get(loc, []) if s not in (None, "-Empty-")]) > n_slots[li]:
            notes.append(f"{mech.name}: more items in {loc} than its {n_slots[li]} slots; "
                         "the extra ones are ignored")
        names.append(tuple(None if s in (None, "-Empty-") else s for s in row))
        prev_key, run = None, 0
        for s, name in enumerate(row):
            k, key = _classify(name, loc, mech)
            kind[li, s] = k
            if k == EMPTY:
                prev_key = None
                continue
            if k == AMMO_BIN:
                found = lookup_ammo_bin(_strip(str(name))[0], mech.tech_base)
                assert found is not None
                ammo, shots = found
                bin_slot[li, s] = len(bins)
                bins.append((li, shots, ammo.damage_per_shot,
                             bool(AMMO[ammo.key].explosive)))
                items.append(Item(str(name), k, li))
                item[li, s] = len(items) - 1
                prev_key = None
                continue
            size = 1
            if k == WEAPON:
                size = WEAPONS[key.removesuffix(" (R)")].slots
            elif k == HEAT_SINK:
                eq = lookup_equipment(_strip(str(name))[0], mech.tech_base)
                size = eq.slots if eq is not None and eq.slots > 0 else 1
            elif k in (ACTUATOR, ENGINE, GYRO, SENSORS, LIFE, COCKPIT, JUMP_JET):
                size = 1
            else:
                size = 0  # variable: one item per run of identical lines
            if key == prev_key and (size == 0 or run < size):
                item[li, s] = len(items) - 1
                run += 1
                continue
            w = WEAPONS.get(key.removesuffix(" (R)")) if k == WEAPON else None
            items.append(Item(str(name), k, li,
                              w.explosion_damage if w is not None and w.explosive else 0))
            idx = len(items) - 1
            item[li, s] = idx
            if w is not None and w.explosive and w.explosion_damage > 0:
                gauss.append(idx)
            prev_key, run = key, 1
    bin_keys = [""] * len(bins)
    for _, key, loc in one_shot_rounds(mech.weapon_mounts):  # 10.3: in the launcher
        bins.append((LOC_INDEX[loc], ONE_SHOT_ROUNDS, 0, False))
        bin_keys.append(key)
    for m in mech.weapon_mounts:
        if m.split_location is None or m.weapon is None:
            continue
        # split weapons: join the runs in both locations into one item
        a, b = LOC_INDEX[m.location], LOC_INDEX[m.split_location]
        ia = [int(i) for s, i in enumerate(item[a]) if kind[a, s] == WEAPON
              and items[i].name.startswith(m.name)]
        ib = [int(i) for s, i in enumerate(item[b]) if kind[b, s] == WEAPON
              and items[i].name.startswith(m.name)]
        if ia and ib:
            item[b][item[b] == ib[0]] = ia[0]
    masks = np.zeros((max(len(items), 1), 8), dtype=np.int64)
    for li in range(8):
        for s in range(12):
            if item[li, s] >= 0:
                masks[item[li, s], li] |= 1 << s
    case = np.array([loc in mech.case_locations for loc in LOCS])
    case2 = np.array([loc in mech.case2_locations for loc in LOCS])
    per_point = armor_per_point(mech.armor_type)  # hardened armor: half points (MegaMek)
    armor = per_point * np.array([mech.armor.get(k, 0) for k in (*LOCS, "CTR", "LTR", "RTR")],
                                 dtype=np.int64)
    structure = np.array([mech.internal.get(k, 0) for k in LOCS], dtype=np.int64)
    return Layout(mech.name, tuple(names), kind, item, tuple(items), masks, tuple(bins),
                  bin_slot, tuple(gauss), case, case2, armor, structure, tuple(notes),
                  _classes(names, kind, item, masks, n_slots), config, n_slots,
                  NAMES_BY_CONFIG[config], DEPENDENT_BY_CONFIG[config],
                  GYRO_HITS_TO_DESTROY[gyro_kind(mech.gyro)], per_point,
                  torso_cockpit(mech.cockpit), tuple(bin_keys),
                  structure_kind(mech.structure_type), has_ferro_lamellor(mech.armor_type))


def _classes(names: list[tuple[str | None, ...]], kind: np.ndarray, item: np.ndarray,
             masks: np.ndarray, n_slots: tuple[int, ...] = N_SLOTS
             ) -> tuple[tuple[int, int], ...]:
    """Groups of interchangeable slots per location (see ``Layout.classes``)."""
    out: list[tuple[int, int]] = []
    for li in range(8):
        groups: dict[object, int] = {}
        for s in range(n_slots[li]):
            k = int(kind[li, s])
            if k == EMPTY:
                continue
            it = int(item[li, s])
            single = it >= 0 and bin(int(masks[it, li])).count("1") == 1 and int(
                (masks[it] != 0).sum()) == 1
            key: object = (("bin", li, s) if k == AMMO_BIN else
                           (names[li][s], k) if single else ("item", it))
            groups[key] = groups.get(key, 0) | (1 << s)
        out += [(li, m) for m in groups.values()]
    return tuple(out)
