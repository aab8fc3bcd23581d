"""Plain data types for units. Readers (``mtf.py``, ``mul.py``, ``catalog.py``) produce them;
the rules models consume them. Frozen dataclasses: a unit is a value."""

from __future__ import annotations

from dataclasses import dataclass, field

#: Location codes for biped 'Mechs. Rear torso armor: CTR, LTR, RTR.
LOCATIONS = ("HD", "CT", "LT", "RT", "LA", "RA", "LL", "RL")
ARM_ACTUATORS = ("shoulder", "upper_arm", "lower_arm", "hand")
LEG_ACTUATORS = ("hip", "upper_leg", "lower_leg", "foot")


@dataclass(frozen=True)
class WeaponMount:
    """One weapon in a 'Mech's critical slots (reference-classic-combat.md 10.1).

    ``name`` is the slot string with its suffixes stripped (``ISMediumLaser``), ``weapon``
    the :class:`sim.classic.weapons.Weapon` key (None when the table lacks it), ``rear`` the
    `` (R)`` flag (fires only into the rear arc), ``line`` the line of its first slot in the
    source file (None from the catalog). A weapon split over two locations (an AC/20 with
    8 slots in RT and 2 in CT) has the location the file's ``Weapons:`` list names and the
    other one in ``split_location``."""

    name: str
    weapon: str | None
    location: str
    rear: bool = False
    line: int | None = None
    split_location: str | None = None
    #: the fire-control system linked to this launcher: "" none, ``"artemis_iv"`` or
    #: ``"artemis_v"`` (the equipment kind; reference 10.3, :data:`sim.classic.weapons.ARTEMIS_KIND`),
    #: or ``"apollo"`` (an MRM's Apollo FCS, 10.3 MRM row)
    artemis: str = ""


@dataclass(frozen=True)
class AmmoBin:
    """One ammunition bin (one critical slot): ``ammo`` the
    :class:`sim.classic.weapons.AmmoType` key (None when unknown), ``shots`` in the full bin
    (half-ton MG bins 100, reference 10.1)."""

    name: str
    ammo: str | None
    location: str
    shots: int
    line: int | None = None
    #: guided or special rounds from the slot name's munition suffix: "" standard,
    #: ``"artemis"`` / ``"artemis_v"`` / ``"narc"`` (Artemis-, Artemis V-, Narc-capable: the
    #: standard rounds plus guidance), else the special munition's name (not simulated)
    munition: str = ""


@dataclass(frozen=True)
class ClassicMech:
    """A Classic BattleTech biped 'Mech, with the facts the physical-attack rules need.

    ``actuators`` maps each limb ("LA", "RA", "LL", "RL") to the actuators the design has
    (names from ARM_ACTUATORS / LEG_ACTUATORS). ``physical_weapons`` lists
    ``(name, location)`` pairs, e.g. ``("hatchet", "RA")``. ``armor`` has the 8 front
    locations plus CTR/LTR/RTR; ``internal`` the 8 locations (derived from tonnage).
    """

    name: str
    chassis: str
    model: str
    tons: int
    walk_mp: int
    jump_mp: int = 0
    clan_name: str | None = None
    mul_id: int | None = None
    tech_base: str = "Inner Sphere"
    config: str = "Biped"
    omni: bool = False
    tsm: bool = False
    armor: dict[str, int] = field(default_factory=dict)
    internal: dict[str, int] = field(default_factory=dict)
    actuators: dict[str, frozenset[str]] = field(default_factory=dict)
    slots: dict[str, tuple[str | None, ...]] = field(default_factory=dict)
    physical_weapons: tuple[tuple[str, str], ...] = ()
    case_locations: tuple[str, ...] = ()
    case2_locations: tuple[str, ...] = ()
    heat_sinks: int = 10
    heat_sink_type: str = "Single"
    weapons: tuple[tuple[str, str], ...] = ()
    quirks: tuple[str, ...] = ()
    source: str = ""
    #: myomer type as written in the file ("Standard", "Triple-Strength", ...); ``tsm`` is the
    #: flag the rules read. (Optional field added by the units issue.)
    myomer: str = "Standard"
    # --- weapon fire (issue 11; CONTRACTS 1). Defaults keep older constructors working. ---
    #: every weapon from the critical-slot blocks (not the ``Weapons:`` list), in file order
    weapon_mounts: tuple[WeaponMount, ...] = ()
    #: every ammunition bin, in file order (the default feed order, reference 10.3)
    ammo_bins: tuple[AmmoBin, ...] = ()
    engine_rating: int = 0
    #: "Fusion", "XL", "Light", "Compact", "XXL", "ICE", "Fuel Cell", "Fission"
    engine_type: str = "Fusion"
    #: True for a Clan engine (``325 XL (Clan) Engine``)
    engine_clan: bool = False
    #: heat sinks inside the engine (no slot, cannot be hit; reference 13.3)
    engine_heat_sinks: int = 0
    #: location of every heat sink that sits in critical slots (one entry per sink; water
    #: cooling counts the leg-mounted ones, reference 13.3 / C17)
    heat_sink_locations: tuple[str, ...] = ()
    #: other known equipment, one ``(key, location)`` per item (``Clan Targeting Computer``,
    #: ``Clan ECM Suite``, ``IS CASE``...; keys of ``sim/classic/data/equipment.csv``)
    equipment: tuple[tuple[str, str], ...] = ()
    #: slot entries the reader does not know: ``(name, location, line)``, one per run of
    #: identical lines; never guessed
    unknown_equipment: tuple[tuple[str, str, int | None], ...] = ()
    #: anything else the reader could not reconcile (e.g. a heat-sink count that the engine
    #: and the slots do not explain), as one-line messages with file and line
    notes: tuple[str, ...] = ()
    #: Classic Battle Value (BV 2.0, gunnery 4 / piloting 5) from ``bv.csv`` when known, with
    #: the record it was read from and the MUL id of that record
    bv: int | None = None
    bv_source: str = ""
    bv_record: int | None = None
    #: Alpha Strike Point Value (skill 4) of the unit's Master Unit List record, with where
    #: it came from (``MUL record N``); None when unknown (issue 19)
    pv: int | None = None
    pv_source: str = ""
    #: the header's armor, structure, cockpit and gyro types as written ("" when the file
    #: does not say: standard); :func:`sim.units.usable.not_simulated` judges them
    armor_type: str = ""
    structure_type: str = ""
    cockpit: str = ""
    gyro: str = ""
    #: the header's introduction year (``era:``) and role, when given
    year: int | None = None
    role: str = ""

    @property
    def run_mp(self) -> int:
        """Run MP = ceil(1.5 x walk MP) (FORMAT.md 1.5)."""
        return (3 * self.walk_mp + 1) // 2

    @property
    def heat_dissipation(self) -> int:
        """Heat dissipated per turn by working sinks: count x 1, double (and laser) sinks x 2 (13.3)."""
        return self.heat_sinks * (2 if self.heat_sink_type in ("Double", "Laser") else 1)

    def has_equipment(self, key: str) -> bool:
        """True when the design carries equipment ``key`` (e.g. a targeting computer)."""
        return any(k == key for k, _ in self.equipment)

    def has(self, limb: str, actuator: str) -> bool:
        return actuator in self.actuators.get(limb, frozenset())

    def missing_actuators(self, limb: str) -> tuple[str, ...]:
        """Actuators the design lacks in ``limb`` (e.g. ("lower_arm", "hand") on a Catapult)."""
        names = ARM_ACTUATORS if limb in ("LA", "RA") else LEG_ACTUATORS
        return tuple(a for a in names if not self.has(limb, a))

    def physical_weapon_location(self, name: str) -> str | None:
        for w, loc in self.physical_weapons:
            if w == name:
                return loc
        return None


@dataclass(frozen=True)
class Special:
    """One Alpha Strike special ability token, e.g. ``HT1/1/-`` ->
    ``Special("HT", "HT1/1/-", (1, 1, None))``; ``CASE`` -> ``Special("CASE", "CASE", ())``.
    Values are ints, ``"0*"`` for minimal damage, or None for ``-``. Nested specials (turrets,
    ``TUR(2/2/1,IF1)``) keep their inner tokens in ``nested``."""

    code: str
    raw: str
    values: tuple[int | str | None, ...] = ()
    nested: tuple[Special, ...] = ()


@dataclass(frozen=True)
class ASCard:
    """An Alpha Strike unit card.

    ``damage`` holds S, M, L, E as ints and ``minimal`` flags the ``0*`` (minimal damage)
    entries, which count as 0 in ``damage``. ``move`` is ground Move in inches, ``jump`` the
    jump Move (0 if none). ``specials`` maps the code (``CASE``, ``HT``, ``OVL``...) to the
    parsed token; ``specials_raw`` keeps the card string.
    """

    name: str
    type: str = "BM"
    size: int = 2
    move: int = 10
    jump: int = 0
    tmm: int = 2
    armor: int = 4
    structure: int = 4
    damage: tuple[int, int, int, int] = (2, 2, 1, 0)
    minimal: tuple[bool, bool, bool, bool] = (False, False, False, False)
    ov: int = 0
    specials: dict[str, Special] = field(default_factory=dict)
    specials_raw: str = ""
    pv: int | None = None
    skill: int = 4
    mul_id: int | None = None
    source: str = ""

    def has(self, code: str) -> bool:
        return code in self.specials

    @property
    def has_heat_scale(self) -> bool:
        """Units that track heat: 'Mechs (BM, IM) and aerospace fighters (AF, CF) by AS rules."""
        return self.type in ("BM", "IM", "AF", "CF")
