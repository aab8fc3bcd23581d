"""Scenario of the ``classic-duel`` model: validation and the compiled sides.

Ranges: a fixed ``range``, a per-turn script ``ranges`` ("6,5,4": the last one repeats), or
``closing`` (both 'Mechs run at full speed towards each other from ``range`` until adjacent,
then move as their ``moved`` mode says). Under closing, ``closing_mp`` (:mod:`.rules`) says
how fast: ``current`` (default) per duel, with the hexes each side really ran (the kernel
tracks each duel's range), ``undamaged`` one schedule for all duels from the undamaged running
MP (``DuelScenario.ranges``, which is also the nominal schedule shown per turn). Per side: unit, gunnery, piloting, movement mode,
firing policy (:mod:`sim.classic.fire.policies`), physical policy (``best``, ``none`` or a
callable). Weapon to-hit tables come from the fire model (:func:`build_scenario`), one per
distinct (range, own movement, target movement) situation.
"""

from __future__ import annotations

import math
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sim import options
from sim.classic.attacks import ATTACK_SPECS
from sim.classic.bv import bv_facts, check_skill
from sim.classic.damage_rules import DamageRules
from sim.classic.damage_state import layout as lay
from sim.classic.damage_state.apply import DamageModel
from sim.classic.duel import physical as ph
from sim.classic.duel.physical_rules import OPTION_NAMES as PHYS_OPTIONS
from sim.classic.duel.physical_rules import ClassicPhysicalRules
from sim.classic.duel.rules import OPTION_NAMES as DUEL_OPTIONS
from sim.classic.duel.rules import ClassicDuelRules
from sim.classic.fire.rules import OPTION_NAMES as FIRE_OPTIONS
from sim.classic.fire.scenario import FireScenario, build_scenario, range_script
from sim.classic.fire.unit import fire_unit
from sim.classic.rules import OPTION_NAMES as CLASSIC_OPTIONS
from sim.classic.rules import ClassicRules
from sim.classic.weapons import lookup_ammo_bin
from sim.errors import ConfigError, UserError, check_choice, check_int
from sim.memo import WeightedLRU
from sim.units.types import ClassicMech

# the duel reads the fire, damage, physical-attack and duel options: their groups list
# "classic-duel" among their models (sim/classic/fire/rules.py, sim/classic/damage_rules.py,
# sim/classic/rules.py, sim/classic/duel/physical_rules.py, sim/classic/duel/rules.py)

#: ClassicRules options that change nothing in the duel, and why. The registry lists models
#: per group, so ``btsim rules`` shows them for classic-duel too; :func:`build` accepts them
#: at their default only (ConfigError otherwise: one line naming the option and the reason).
INERT_CLASSIC_OPTIONS: dict[str, str] = {
    "partial_cover_push_mod": "no water or partial cover in the duel (D7)",
    "charge_psr_without_displacement": "there is no map, so a displacement is never "
    "prohibited and the charge PSRs always happen (D8)",
    "dfa_terrain": "the duel has no terrain (D9)",
    "tmm_table": "the duel takes every target movement modifier, weapon and physical alike, "
    "from the fire model's fire_tmm_table (D16)",
}
#: fire options (C-group, read by the fire model) that the duel refuses, and why: the duel
#: takes them per side instead (ConfigError naming the option, its value and the reason)
INERT_FIRE_OPTIONS: dict[str, str] = {
    "piloting": "each side's shutdown rolls and PSRs use its own piloting: "
    "--piloting-a/--piloting-b, or piloting_a/piloting_b",
}

MAX_TURNS = 50
#: the turn limit of a Classic duel when none is given (``sim.classic_duel``, ``btsim
#: classic-duel``, ``btsim duel --game classic`` all read this one)
DEFAULT_TURNS = 20
MOVES = ("stand", "walk", "run", "jump")
PHYSICAL = ("best", "none")
SIDE_KEYS = ("unit", "gunnery", "piloting", "moved", "policy", "physical", "bv", "tactic")
PARAMS = tuple(f"{k}_{s}" for s in "ab" for k in SIDE_KEYS) + (
    "range", "ranges", "closing", "turns")
DAMAGE_OPTIONS = tuple(DamageRules.__dataclass_fields__)
#: every rule option a duel reads by name (fire, damage, duel, physical and Classic groups)
OPTION_PARAMS = frozenset(FIRE_OPTIONS) | frozenset(DAMAGE_OPTIONS) | frozenset(
    DUEL_OPTIONS) | frozenset(PHYS_OPTIONS) | frozenset(CLASSIC_OPTIONS)


@dataclass(frozen=True)
class Side:
    """One compiled side."""

    label: str
    mech: ClassicMech
    gunnery: int
    piloting: int
    moved: str
    policy: Any
    physical: str | Callable[..., Any]
    tons: int
    walk: int
    run: int
    jump: int
    layout: lay.Layout
    dm: DamageModel
    #: fire scenario per situation key (range, own move, target move)
    fire: dict[tuple[int, str, str], FireScenario]
    #: per gun of the fire scenarios (same order in all): layout item (-1 unknown)
    gun_item: tuple[int, ...]
    #: per layout bin: fire pool index (-1 none)
    bin_pool: tuple[int, ...]
    #: (8,) slot masks of actuators by name
    act: dict[str, np.ndarray]
    #: heat-sink items and dissipation per item
    sink_items: tuple[int, ...]
    sink_per: int
    bv: dict[str, Any]
    #: (8,) slot masks of jump jets per location
    jet_masks: tuple[int, ...] = ()
    #: physical weapon swung in the duel: (layout item, arm location index), (-1, -1) none
    hatchet: tuple[int, int] = (-1, -1)
    #: the duel's physical-attack rules (both sides hold the same instance; the kernel and
    #: the oracle read them from the side: TAC, punch and DFA formulas, PSRs, falls)
    classic: ClassicRules = field(default_factory=ClassicRules)
    #: layout items of the forward anti-missile systems (10.3; a rear-mounted one does not
    #: cover the front arc every attack comes from)
    ams_items: tuple[int, ...] = ()
    #: fire pool index of their ammunition (-1: none, they cannot engage)
    ams_pool: int = -1
    #: heat of one AMS engagement (10.3: 1)
    ams_heat: int = 1
    #: a sword (else a retractable blade) the compiled engine swings in the hatchet's place
    #: when the unit has no hatchet (issue 19;
    #: :data:`sim.classic.physical_weapons.PHYSICAL_WEAPONS`): (layout item, arm), (-1, -1)
    #: none; the NumPy duel kernel ignores it
    sword: tuple[int, int] = (-1, -1)
    #: layout item of the claws in the left and right arm (-1 none): the compiled engine
    #: punches with them (issue 19; MegaMek ``PunchAttackAction``); the NumPy duel kernel
    #: ignores them
    claws: tuple[int, int] = (-1, -1)

    def hexes(self, mode: str) -> int:
        return {"stand": 0, "walk": self.walk, "run": self.run, "jump": self.jump}[mode]


@dataclass(frozen=True)
class DuelScenario:
    a: Side
    b: Side
    turns: int
    ranges: tuple[int, ...]
    #: per turn: movement mode of each side
    moves: tuple[tuple[str, str], ...]
    range_label: str
    fire_overrides: tuple[tuple[str, Any], ...]
    damage_rules: DamageRules
    notes: tuple[str, ...]
    #: C1, C2, C7, C12, C14, C21, C22 and the consciousness rolls (:mod:`.rules`)
    duel_rules: ClassicDuelRules = field(default_factory=ClassicDuelRules)
    physical_rules: ClassicPhysicalRules = field(default_factory=ClassicPhysicalRules)
    #: start range under ``closing`` (0: a fixed range or a script)
    closing_from: int = 0
    #: N 'Mechs a side (issue 21, :mod:`.forces`): every unit, side A's first (``a`` is
    #: ``force[0]``, ``b`` the first of side B); empty: the duel's two, ``(a, b)``
    force: tuple[Side, ...] = ()
    #: the side (0 A, 1 B) of each unit of ``force``
    force_sides: tuple[int, ...] = ()
    #: each side's targeting policy (:data:`sim.classic.duel.forces.TARGETING`)
    targeting: tuple[str, str] = ("focus-weakest", "focus-weakest")
    #: each side's tactic (issue 22, :mod:`sim.classic.duel.tactics`)
    tactics: tuple[Any, ...] = ()
    #: movement chosen per turn by the tactics (a fixed ``range`` and a tactic other than
    #: ``stand-and-fire`` on a side): the distance starts at ``start_distance`` (``range``,
    #: the depth of the field, never exceeded)
    free: bool = False
    start_distance: int = 0

    @property
    def per_trial_range(self) -> bool:
        """Each duel keeps its own range (``closing`` with ``closing_mp=current``): the
        kernel and the oracle then read ``ranges`` / ``moves`` only as the nominal schedule
        and move each duel's range by the hexes both sides really ran."""
        return self.closing_from > 0 and self.duel_rules.closing_mp == "current"

    @property
    def sides(self) -> tuple[Side, Side]:
        return (self.a, self.b)

    @property
    def units(self) -> tuple[Side, ...]:
        """Every unit on the engine's unit axis: side A's, then side B's (the duel: a, b)."""
        return self.force or (self.a, self.b)

    @property
    def unit_sides(self) -> tuple[int, ...]:
        """The side (0 A, 1 B) of each of :attr:`units`."""
        return self.force_sides or (0, 1)

    @property
    def classic_rules(self) -> ClassicRules:
        """The validated :class:`~sim.classic.rules.ClassicRules` of the duel (D4-D22, TAC,
        pilot damage), the instance both sides hold."""
        return self.a.classic


def _mech(value: Any, field: str) -> ClassicMech:
    if isinstance(value, ClassicMech):
        return value
    if value is None or (isinstance(value, str) and not value.strip()):
        raise ConfigError(field, value, "a catalog unit name or an .mtf file (each side "
                          "needs a unit)")
    from sim.units.catalog import get_classic

    try:
        return get_classic(value)
    except UserError as e:
        raise UserError(f"{field}: {e}") from None


def _ranges(params: Mapping[str, Any], turns: int) -> tuple[str, tuple[int, ...] | int]:
    closing = bool(params.get("closing", False))
    rng = params.get("ranges")
    if closing:
        if rng is not None:
            raise ConfigError("closing", True, "either closing (from 'range') or 'ranges', "
                              "not both")
        return "closing", check_int("range", params.get("range", 15), lo=1, hi=99)
    if rng is None:
        return "fixed", (check_int("range", params.get("range", 6), lo=1, hi=99),) * turns
    return "script", range_script(rng, turns)


def _actuator_masks(layout: lay.Layout) -> dict[str, np.ndarray]:
    """(8,) slot masks per actuator name (shoulder, upper_arm, ..., foot)."""
    out = {k: np.zeros(8, dtype=np.int64) for k in lay._ACT_SLOT}
    for loc in range(8):
        for s in range(len(layout.names[loc])):
            name = layout.names[loc][s]
            if layout.kind[loc, s] == lay.ACTUATOR and name is not None:
                key = lay._ACTUATOR_NAMES.get(lay._strip(name)[0].lower())
                if key is not None:
                    out[key][loc] |= 1 << s
    return out


def _gun_items(fs: FireScenario, layout: lay.Layout, mech: ClassicMech) -> tuple[int, ...]:
    """Layout item of each gun: the first unmatched weapon item of the same key there."""
    used: set[int] = set()
    out = []
    for g in fs.guns:
        loc = lay.LOC_INDEX.get(g.location, -1)
        found = -1
        for i, it in enumerate(layout.items):
            if i in used or it.kind != lay.WEAPON or it.location != loc:
                continue
            key = lay._classify(it.name, lay.LOCS[loc], mech)[1]
            if key == g.key:
                found = i
                break
        if found >= 0:
            used.add(found)
        out.append(found)
    return tuple(out)


def _ams(fu: Any, layout: lay.Layout, mech: ClassicMech) -> tuple[tuple[int, ...], int, int]:
    """(layout items, ammunition pool, heat per engagement) of the 'Mech's forward AMS
    mounts (10.3): each engages one incoming missile attack a turn."""
    used: set[int] = set()
    items, pool, heat = [], -1, 1
    for m in fu.mounts:
        w = m.weapon
        if w is None or w.family != "ams" or m.rear:
            continue
        loc = lay.LOC_INDEX.get(m.location, -1)
        for i, it in enumerate(layout.items):
            if i in used or it.kind != lay.WEAPON or it.location != loc:
                continue
            if lay._classify(it.name, lay.LOCS[loc], mech)[1] == w.key:
                used.add(i)
                items.append(i)
                break
        pool, heat = fu.pool_index(w), w.heat
    return tuple(items), pool, heat


def _bin_pools(fs: FireScenario, layout: lay.Layout, mech: ClassicMech) -> tuple[int, ...]:
    keys = [p.key for p in fs.unit.pools]
    res = [-1] * len(layout.bins)
    for loc in range(8):
        for s in range(len(layout.names[loc])):
            b = int(layout.bin_slot[loc, s])
            if b < 0:
                continue
            name = layout.names[loc][s]
            found = lookup_ammo_bin(lay._strip(str(name))[0], mech.tech_base)
            if found is not None and found[0].weapon_family_key in keys:
                res[b] = keys.index(found[0].weapon_family_key)
    for b, key in enumerate(layout.bin_keys):  # a one-shot launcher's round: its own pool
        if key and key in keys:
            res[b] = keys.index(key)
    return tuple(res)


#: sides built so far (:func:`_per_unit`): at most this many, the oldest dropped first
#: (a round-robin of N units and C cases hits while 2 N C fits) ...
SIDE_CACHE_SIZE = 512
#: ... and at most this many fire situations in all (a side's weight: measured about 14 KB
#: of memory a situation; a side at a fixed range has 1-9, under the tactics one per
#: (distance, mode, mode) it can reach, 81 at 9 hexes): about 30 MB (:mod:`sim.memo`)
SIDE_CACHE_SITUATIONS = 2048
_SIDES: WeightedLRU[Any, tuple[Any, Side, tuple[str, ...]]] = WeightedLRU(
    SIDE_CACHE_SIZE, SIDE_CACHE_SITUATIONS)


def _side_key(args: Mapping[str, Any]) -> Any:
    """What a side depends on (issue 21: a round-robin of N units builds N sides, not N^2):
    the unit (by identity: catalog units are shared objects), its own parameters (``*_s``,
    typed, so ``True`` never stands for ``1``), the rule objects, its situations and the
    opponent's hexes in the modes those situations use; any other argument by value.
    Raises TypeError when something is unhashable (then the side is simply built)."""
    params, s = args["params"], args["s"]
    own = args["own"]
    mine = tuple((k, type(v).__name__, v) for k, v in sorted(params.items())
                 if k.endswith(f"_{s}") and k != f"unit_{s}")
    theirs = sorted({sit[2 - own] for sit in args["situations"]})
    hexes = tuple((m, args["other_hexes"][m]) for m in theirs)
    fire = tuple((k, type(v).__name__, v) for k, v in sorted(args["fire_over"].items()))
    rest = tuple((k, v) for k, v in args.items()
                 if k not in ("params", "s", "fire_over", "situations", "other_hexes", "notes"))
    key = (id(params.get(f"unit_{s}")), mine, fire, tuple(sorted(args["situations"])),
           hexes, rest)
    hash(key)
    return key


def _per_unit(build_side: Callable[..., Side]) -> Callable[..., Side]:
    """Memoize :func:`_side` on :func:`_side_key` (bounded, :data:`SIDE_CACHE_SIZE` sides
    and :data:`SIDE_CACHE_SITUATIONS` fire situations): the
    same unit with the same skills, rules and situations is built once per process and
    shared (a ``Side`` and everything in it is read-only), its notes replayed. Bit-identical
    by construction: the builder is a pure function of the key."""
    import inspect

    sig = inspect.signature(build_side)

    def cached(*a: Any, **kw: Any) -> Side:
        args = sig.bind(*a, **kw).arguments
        unit = args["params"].get(f"unit_{args['s']}")
        try:
            key = _side_key(args)
        except TypeError:
            return build_side(*a, **kw)
        hit = _SIDES.get(key)
        if hit is not None and hit[0] is unit:
            args["notes"].extend(hit[2])
            return hit[1]
        notes = args["notes"]
        mine: list[str] = []
        args["notes"] = mine
        side = build_side(**args)
        # a token that travels with the side to a worker process (pickled in its
        # __dict__): the engine's per-unit arrays are cached on it, so a worker builds them
        # once per side, not once per task (sim.classic.engine.compile._per_side)
        object.__setattr__(side, "_btsim_token", uuid.uuid4().hex)
        _SIDES.put(key, (unit, side, tuple(mine)), len(side.fire))
        notes.extend(mine)
        return side

    cached.__doc__ = build_side.__doc__
    cached.__wrapped__ = build_side  # type: ignore[attr-defined]
    return cached


#: fire situations built so far (:func:`_fire_situation`): at most this many, the oldest
#: dropped first (they are the objects the sides hold, so mostly no extra memory)
FIRE_CACHE_SITUATIONS = 2048
_FIRE: WeightedLRU[Any, tuple[Any, FireScenario]] = WeightedLRU(FIRE_CACHE_SITUATIONS,
                                                                 FIRE_CACHE_SITUATIONS)


def _fire_situation(mech: ClassicMech, params: Mapping[str, Any]) -> FireScenario:
    """:func:`~sim.classic.fire.scenario.build_scenario` of one fire situation of a side,
    memoized per process on the 'Mech (by identity, checked) and every other parameter by
    value (typed): issue 21, a side is built anew for each opponent whose hexes differ
    (:func:`_side_key`), yet most of its situations (the target standing, or moving as far
    as another opponent did) are the same fire scenario. Read-only and shared, as the
    sides share them; an unhashable parameter builds it afresh."""
    try:
        key = (id(mech), tuple((k, type(v).__name__, v) for k, v in sorted(params.items())
                               if k != "unit"))
        hash(key)
    except TypeError:
        return build_scenario(params)
    hit = _FIRE.get(key)
    if hit is not None and hit[0] is mech:
        return hit[1]
    fs = build_scenario(params)
    _FIRE.put(key, (mech, fs))
    return fs


@_per_unit
def _side(params: Mapping[str, Any], s: str, fire_over: dict[str, Any],
          drules: DamageRules, situations: set[tuple[int, str, str]], own: int,
          other_hexes: dict[str, int], notes: list[str], crules: ClassicRules) -> Side:
    mech = _mech(params.get(f"unit_{s}"), f"unit_{s}")
    gunnery = check_skill(f"gunnery_{s}", params.get(f"gunnery_{s}", 4))
    piloting = check_skill(f"piloting_{s}", params.get(f"piloting_{s}", 5))
    moved = check_choice(f"moved_{s}", params.get(f"moved_{s}") or "stand", MOVES)
    if moved == "jump" and mech.jump_mp < 1:
        raise ConfigError(f"moved_{s}", moved, f"stand, walk or run ({mech.name} has no "
                          "jump jets)")
    phys = params.get(f"physical_{s}", "best")
    if not callable(phys):
        phys = check_choice(f"physical_{s}", phys, PHYSICAL)
    bv_given = params.get(f"bv_{s}")
    bv = bv_facts(mech, gunnery, piloting,
                  None if bv_given is None else check_int(f"bv_{s}", bv_given, lo=1, hi=10**6))
    notes.extend(bv["notes"])
    layout = lay.build_layout(mech, quad=True)
    notes.extend(layout.notes)
    pol = params.get(f"policy_{s}")
    if pol is None:
        pol = "all"
    if mech.config != "Biped" and (callable(pol) or callable(phys)):
        key = f"policy_{s}" if callable(pol) else f"physical_{s}"
        raise ConfigError(key, "a callable", f"a named policy ({mech.name} is a {mech.config} "
                          "'Mech: its leg rules are the compiled engine's, and a callable "
                          "policy runs on the NumPy duel kernel, which plays bipeds only)")
    dm = DamageModel.build(layout, drules)
    fu = fire_unit(mech)
    walk, jump = mech.walk_mp, mech.jump_mp
    run = math.ceil(1.5 * walk)
    fire: dict[tuple[int, str, str], FireScenario] = {}
    for r, ma, mb in sorted(situations):
        mine, theirs = (ma, mb) if own == 0 else (mb, ma)
        p = {"unit": fu, "gunnery": gunnery, "range": r, "moved": mine,
             "target_hexes": other_hexes[theirs], "target_jumped": theirs == "jump",
             "policy": pol, "turns": 1, **fire_over,
             # the side's own Piloting for the C3 TacOps shutdown roll the policy plans with
             # (the duel refuses the fire option `piloting` itself)
             "piloting": piloting}
        fire[(r, ma, mb)] = _fire_situation(mech, p)
    any_fs = next(iter(fire.values()))
    notes.extend(n if n.startswith(f"{mech.name} ") else f"{mech.name}: {n}"
                 for n in any_fs.notes if "not simulated: damage to the firing" not in n
                 and "not used by this model's heat" not in n)   # the duel spends pods
    sinks = tuple(i for i, it in enumerate(layout.items) if it.kind == lay.HEAT_SINK)
    jets = tuple(int(sum(1 << s for s in range(12) if layout.kind[loc, s] == lay.JUMP_JET))
                 for loc in range(8))
    ams_items, ams_pool, ams_heat = _ams(fu, layout, mech)
    if ams_items and ams_pool < 0:
        notes.append(f"{mech.name}: anti-missile system without ammunition: it never engages")
    return Side(mech.name, mech, gunnery, piloting, moved, any_fs.policy, phys,
                int(mech.tons), walk, run, jump, layout, dm, fire,
                _gun_items(any_fs, layout, mech), _bin_pools(any_fs, layout, mech),
                _actuator_masks(layout), sinks, 2 if fu.double_sinks else 1, bv,
                jets, _hatchet(layout, mech, notes), crules, ams_items, ams_pool, ams_heat,
                _blade(layout, mech), _claws(layout, mech))


def _quirk_notes(mech: ClassicMech, rules: ClassicRules) -> list[str]:
    """Design quirks of the unit that the duel does not simulate (reference D21): all of
    them with ``quirks`` off; with it on, all but those an attack's declaration bars
    (``no_arms``: no punch)."""
    done = ({q for kind in ph.KINDS[1:] for q in ATTACK_SPECS[kind].barred_by_quirks}
            if rules.quirks else set())
    qs = [q for q in mech.quirks if q not in done]
    return [f"{mech.name}: design quirks not simulated (reference D21): " + ", ".join(qs)] \
        if qs else []


def _club(layout: lay.Layout, mech: ClassicMech, weapon: str) -> tuple[int, int]:
    """(layout item, arm) of the unit's first ``weapon`` (a name of
    :data:`sim.classic.physical_weapons.PHYSICAL_WEAPONS`) in an arm, (-1, -1) without."""
    for name, loc in mech.physical_weapons:
        arm = lay.LOC_INDEX.get(loc, -1)
        if name == weapon and arm in (lay.LA, lay.RA):
            for i, it in enumerate(layout.items):
                if it.location == arm and lay._strip(it.name)[0].lower() == weapon.replace(
                        "_", " "):
                    return i, arm
    return -1, -1


def _blade(layout: lay.Layout, mech: ClassicMech) -> tuple[int, int]:
    """(layout item, arm) of the one-armed weapon the compiled engine swings in the
    hatchet's place: the unit's sword, else its retractable blade (issue 19; always extended
    in the duel), (-1, -1) without."""
    if mech.config != "Biped":
        return -1, -1       # quads cannot club (MegaMek ClubAttackAction "Attacker is a quad")
    sword = _club(layout, mech, "sword")
    return sword if sword[0] >= 0 else _club(layout, mech, "retractable_blade")


def _claws(layout: lay.Layout, mech: ClassicMech) -> tuple[int, int]:
    """Layout items of the unit's claws in its left and right arm (-1 where none; quads
    have no claws: MegaMek ``QuadMek.hasClaw``)."""
    if mech.config != "Biped":
        return -1, -1
    out = [-1, -1]
    for j, arm in enumerate((lay.LA, lay.RA)):
        if any(n == "claws" and lay.LOC_INDEX.get(loc, -1) == arm
               for n, loc in mech.physical_weapons):
            out[j] = next((i for i, it in enumerate(layout.items) if it.location == arm
                           and "claw" in it.name.lower()), -1)
    return out[0], out[1]


def _hatchet(layout: lay.Layout, mech: ClassicMech, notes: list[str]) -> tuple[int, int]:
    """(layout item, arm) of the unit's hatchet (reference.md 1.3), (-1, -1) without one;
    other physical weapons are noted as not simulated."""
    found = (-1, -1)
    for name, loc in mech.physical_weapons:
        arm = lay.LOC_INDEX.get(loc, -1)
        if name in ("sword", "retractable_blade", "claws") and arm in (lay.LA, lay.RA):
            continue        # the compiled engine's (Side.sword, Side.claws)
        if name != "hatchet" or arm not in (lay.LA, lay.RA):
            notes.append(f"{mech.name}: physical weapon {name} ({loc}) not simulated in the "
                         "duel (only the hatchet is declared)")
            continue
        for i, it in enumerate(layout.items):
            if it.location == arm and it.name.lower() == "hatchet" and found[0] < 0:
                found = (i, arm)
    return found


def build(params: Mapping[str, Any],
          forces: tuple[list[tuple[Any, int, int]], list[tuple[Any, int, int]]] | None = None,
          targeting: tuple[str, str] | None = None) -> DuelScenario:
    """Validate ``params`` and compile the duel (ConfigError / UserError on bad input).
    ``forces``: N 'Mechs a side (issue 21, :mod:`.forces`): per side the ``(unit, gunnery,
    piloting)`` of each 'Mech, in place of ``unit_*``, ``gunnery_*``, ``piloting_*``;
    ``targeting``: each side's targeting policy then."""
    known = set(PARAMS) | OPTION_PARAMS
    for k in params:
        if k not in known:
            raise ConfigError("parameter", k, "one of " + ", ".join(sorted(known)))
    turns = check_int("turns", params.get("turns", DEFAULT_TURNS), lo=1, hi=MAX_TURNS)
    for name, why in INERT_FIRE_OPTIONS.items():
        if params.get(name) is not None:
            raise ConfigError(name, params[name], f"left unset in the duel: {why}")
    fire_over = {k: v for k, v in params.items() if k in FIRE_OPTIONS and v is not None}
    dmg_over = {k: v for k, v in params.items() if k in DAMAGE_OPTIONS and v is not None}
    drules: DamageRules = options.build(DamageRules, "default", dmg_over)
    duel_over = {k: v for k, v in params.items() if k in DUEL_OPTIONS and v is not None}
    urules: ClassicDuelRules = options.build(ClassicDuelRules, "default", duel_over)
    phys_over = {k: v for k, v in params.items() if k in PHYS_OPTIONS and v is not None}
    prules: ClassicPhysicalRules = options.build(ClassicPhysicalRules, "default", phys_over)
    cl_over = {k: v for k, v in params.items() if k in CLASSIC_OPTIONS and v is not None}
    crules = classic_rules(cl_over)
    if forces is None:
        mechs = [_mech(params.get("unit_a"), "unit_a"), _mech(params.get("unit_b"), "unit_b")]
        members: list[list[tuple[ClassicMech, Any, Any]]] = [
            [(mechs[i], params.get(f"gunnery_{s}", 4), params.get(f"piloting_{s}", 5))]
            for i, s in enumerate("ab")]
    else:
        members = [[(_mech(u, f"unit_{s}"), g, p) for u, g, p in forces[i]]
                   for i, s in enumerate("ab")]
        mechs = [members[0][0][0], members[1][0][0]]
    moved = [check_choice(f"moved_{s}", params.get(f"moved_{s}") or "stand", MOVES)
             for s in "ab"]
    runs = [math.ceil(1.5 * m.walk_mp) for m in mechs]
    kind, rr = _ranges(params, turns)
    if kind == "closing" and max(len(f) for f in members) > 1:
        raise ConfigError("closing", True, "a fixed 'range' or a 'ranges' script with more "
                          "than one 'Mech a side (the engagement has one range for every "
                          "unit; closing is for one 'Mech a side)")
    from sim.classic.duel import tactics as TC

    tacs = []
    # the default tactic: competent, unless the movement is imposed (a range script,
    # closing, or a side's movement mode given) or a callable firing or physical policy
    # sends the duel to the NumPy kernel: then stand-and-fire, the imposed duel
    many = max(len(f) for f in members) > 1
    imposed = kind != "fixed" or many or any(
        params.get(f"moved_{sd}") is not None or callable(params.get(f"policy_{sd}"))
        or callable(params.get(f"physical_{sd}")) for sd in "ab")
    for i, sd in enumerate("ab"):
        given = params.get(f"tactic_{sd}")
        t = TC.resolve(given if given is not None else TC.STAND_AND_FIRE if imposed
                       else TC.COMPETENT, f"tactic_{sd}")
        if t.name != TC.STAND_AND_FIRE and kind != "fixed":
            raise ConfigError(f"tactic_{sd}", given, f"{TC.STAND_AND_FIRE} with "
                              f"{'closing' if kind == 'closing' else 'ranges'} (it imposes the "
                              "movement; tactics move from a fixed start 'range')")
        if t.name != TC.STAND_AND_FIRE and many:
            raise ConfigError(f"tactic_{sd}", given, f"{TC.STAND_AND_FIRE} with more than one "
                              "'Mech a side (the tactics play one 'Mech a side)")
        if t.name != TC.STAND_AND_FIRE and moved[i] != "stand":
            raise ConfigError(f"moved_{sd}", moved[i], f"stand (unset) with tactic {t.name}, "
                              "which chooses the movement each turn (moved is "
                              f"{TC.STAND_AND_FIRE}'s mode)")
        tacs.append(t)
    free = any(t.name != TC.STAND_AND_FIRE for t in tacs)
    base = dict(params)
    for i, sd in enumerate("ab"):
        if base.get(f"policy_{sd}") is None:
            base[f"policy_{sd}"] = "all" if tacs[i].name == TC.STAND_AND_FIRE else "max-expected"
    moves: list[tuple[str, str]] = []
    if kind == "closing":
        assert isinstance(rr, int)
        cur, rl = rr, []
        for _ in range(turns):
            if cur > 1:
                cur = max(1, cur - runs[0] - runs[1])
                moves.append(("run", "run"))
            else:
                moves.append((moved[0], moved[1]))
            rl.append(cur)
        ranges = tuple(rl)
        label = f"closing from {rr}"
    else:
        assert isinstance(rr, tuple)
        ranges = rr
        moves = [(moved[0], moved[1])] * turns
        shown = list(ranges)
        while len(shown) > 1 and shown[-1] == shown[-2]:   # the last range repeats
            shown.pop()
        label = ",".join(map(str, shown))
    situations = {(ranges[t], moves[t][0], moves[t][1]) for t in range(turns)}
    if kind == "closing" and urules.closing_mp == "current":
        # every situation a duel can reach with its own range (closing_mp=current): running
        # at any range from the start down to 1, then the sides' modes at range 1
        assert isinstance(rr, int)
        situations |= {(r, "run", "run") for r in range(1, rr + 1)}
        situations.add((1, moved[0], moved[1]))
    start = 0
    if free:
        assert isinstance(rr, tuple)
        start = rr[0]
        modes = tuple(tuple(m for m in MOVES if m != "jump" or mech.jump_mp > 0)
                      for mech in mechs)
        situations |= TC.situations((modes[0], modes[1]), start)
    # each unit's fire tables are against its nominal target, the other side's first 'Mech
    # (the engine and the oracle put the real target's movement modifier in its place)
    hx = [{"stand": 0, "walk": m.walk_mp, "run": math.ceil(1.5 * m.walk_mp),
           "jump": m.jump_mp} for m in mechs]
    notes: list[str] = []
    built: list[list[Side]] = [[], []]
    for i, s in enumerate("ab"):
        for mech, g, p in members[i]:
            pa = dict(base)
            pa[f"unit_{s}"], pa[f"gunnery_{s}"], pa[f"piloting_{s}"] = mech, g, p
            built[i].append(_side(pa, s, fire_over, drules, situations, i, hx[1 - i], notes,
                                  crules))
    for m in [m for f in members for m, _, _ in f]:
        notes.extend(_quirk_notes(m, crules))
    notes.extend(SIMPLIFICATIONS)
    if free:
        notes.extend(TACTIC_NOTES)
    over = {**fire_over, **dmg_over, **duel_over, **phys_over, **cl_over}
    force: tuple[Side, ...] = ()
    force_sides: tuple[int, ...] = ()
    if forces is not None:
        force = tuple(built[0] + built[1])
        force_sides = (0,) * len(built[0]) + (1,) * len(built[1])
    return DuelScenario(built[0][0], built[1][0], turns, ranges, tuple(moves), label,
                        tuple(sorted(over.items())), drules, tuple(dict.fromkeys(notes)),
                        urules, prules, rr if isinstance(rr, int) else 0, force=force,
                        force_sides=force_sides,
                        targeting=targeting or ("focus-weakest", "focus-weakest"),
                        tactics=(tacs[0], tacs[1]), free=free, start_distance=start)


def classic_rules(overrides: Mapping[str, Any] | None = None) -> ClassicRules:
    """The duel's :class:`~sim.classic.rules.ClassicRules`: the defaults with ``overrides``
    applied, validated; an option of :data:`INERT_CLASSIC_OPTIONS` away from its default is a
    ConfigError saying it has no effect in the duel."""
    rules: ClassicRules = options.build(ClassicRules, "default", overrides or {})
    default = ClassicRules()
    for name, why in INERT_CLASSIC_OPTIONS.items():
        if getattr(rules, name) != getattr(default, name):
            raise ConfigError(name, getattr(rules, name), f"its default {getattr(default, name)!r}"
                              f" in the classic duel, where it has no effect: {why}")
    return rules


#: What a duel with movement chosen by the tactics simplifies (issue 22; in its notes).
TACTIC_NOTES: tuple[str, ...] = (
    "classic-duel tactics: each turn 2D6 initiative a side (ties re-rolled; the loser moves "
    "first); each unit moves the full MP of the mode it picks and changes the distance by at "
    "most that many hexes (never below 1 nor beyond the start range, the field's depth)",
    "classic-duel tactics: a movement decision sees which classes of identical weapons "
    "still have one left (the 6 of the most damage; the firing decision uses the weapons "
    "really available); it looks ahead over the same payoffs with the state frozen",
    "classic-duel tactics: at distance 1 the payoff counts the physical attack 'best' would "
    "make for the 'Mech as built (no actuator damage) and the falls it may cause; the turn "
    "limit enters as the kill race's rate floor (0.25 / turns)",
)

#: What the duel simplifies (reported in every run's notes and in docs/rules.md).
SIMPLIFICATIONS: tuple[str, ...] = (
    "classic-duel: no map; both 'Mechs face each other, every attack comes from the front "
    "column; each side moves all the MP it has now (legs, hips, heat, jump jets) in its "
    "mode every turn: movement sets the attacker modifier, TMM and heat only",
    "classic-duel: with closing, each duel's range drops every turn by the hexes both sides "
    "really ran with their MP now (closing_mp=current; closing_mp=undamaged: one schedule "
    "from the undamaged running MP); the per-turn 'range' column is that undamaged "
    "schedule, 'expected_range' the mean range of the duels still running",
    "classic-duel: a 'Mech prone at the start of its turn tries to stand (PSR, none for a "
    "quad on four legs; heat per C14) and neither moves nor counts as moving that turn, even "
    "when it stands up",
    "classic-duel: physical attacks at range 1: punch, kick, hatchet, push, charge, DFA; no "
    "clubs (no trees or severed limbs), no other physical weapons; TSM doubles punch, kick "
    "and hatchet damage from heat 9 (compiled engine); push, charge and DFA displace nobody; "
    "'best' weighs expected damage and knock-downs, not hit locations",
    "classic-duel: consciousness rolls are made at the end of the phase the damage was taken "
    "in (consciousness_rolls); an unconscious pilot rolls to wake in the end phase, from the "
    "turn after the knockout on (wake_roll)",
    "classic-duel: on the NumPy fallback (a callable physical policy), a non-'all' "
    "firing policy decides as if lost weapons were available; lost ones then simply do not "
    "fire (the compiled engine decides on the weapons really available)",
    "classic-duel: 'all' fires every weapon whose own to-hit number is 12 or less; the other "
    "firing policies decide from the fire model's numbers for the turn's movement modes with "
    "undamaged MP, so they never choose a weapon out of reach there, even when a slower real "
    "target would bring it to 12 or below",
)
