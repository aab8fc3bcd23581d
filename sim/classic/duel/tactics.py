"""Classic duel tactics (issue 22; reference-classic-combat.md 15, reference.md 1.2): the
decisions of a duel played with per-turn movement, as data the compiled engine looks up.

**The turn** (:mod:`sim.classic.engine.turn`, ``R_TACTICS``), map-free:

1. **Initiative**: 2D6 a side, ties re-rolled (rule option ``duel_initiative``: ``roll``, or
   ``a`` / ``b`` always wins); the loser moves first, the winner reacts (its own roll kind,
   ``K_INITIATIVE``, so no other roll moves).
2. **Movement**: each unit picks a mode (stand, walk, run, jump) with the MP it has *now*
   (:func:`sim.classic.engine.move.current_mp`: heat, legs, hips, jump jets, TSM) and a new
   distance: a move of h hexes changes the distance by any amount in [-h, +h] (sideways keeps
   it), never below 1 nor beyond the start distance ``range`` (the field's depth: the
   'Mechs start at its two edges). A unit always moves the full MP of its mode: that
   maximises its TMM at the same heat (walk and run heat do not depend on the hexes); a jump
   too moves its full jump MP (max TMM, heat max(3, MP): the heat of a shorter jump is not
   offered, a documented simplification). A unit that cannot act, or is prone at the start
   of its movement, stands. The second mover's reply is decided with the first mover's
   *planned* move; when the first one's realised move is shorter (a MASC failure), the
   reply's distance is clipped to what it can still reach.
3. Fire, physical attacks at range 1, heat and end phase as always, at the distance after
   both moves; the fire situation (range, own mode, target mode) of the turn is the one the
   modes reached (built for every reachable situation, :func:`situations`).

**Decisions are a table** keyed by the decision key (:func:`split_key`): the distance before
movement, who moves first, and per unit whether it can act and move, whether it is prone,
its heat, its walk / run / jump MP now, and which of its weapon classes (identical weapons,
:data:`GUN_CLASSES` of the most damage) still have a weapon left: not destroyed, with
ammunition, not jammed (:func:`weapon_classes`; a weapon of a class beyond those counts as
always there, and a class counts whole while one of its weapons is left). The firing
decision itself, by the side's firing policy, is made on the weapons really available.
The compiled engine looks a key up in the duel's decision hash table
(:class:`sim.classic.engine.compile.DecisionTable`, the key's bit :data:`TAG` set); a key
not there is recorded, the duel abandoned and re-run once :func:`decide` has filled the
key's whole state (every distance, both initiative orders).

**The payoff** of a turn to A, by (A's mode, B's mode, distance after both moves), is the
*kill race* (:data:`PAYOFF` ``ratio``, as the Alpha Strike duel's): ln(r_A) - c_A / r_A -
ln(r_B) + c_B / r_B, where r is the share of the enemy's undamaged armor and internal
structure a side's expected damage destroys this turn (with the damage the enemy does
itself: its falls, a charge's or DFA's own damage) plus the turn limit's floor
:func:`rate_floor` (:data:`TIMEOUT_SHARE` / turns: 0.025 in a 10-turn duel; a rate well
below it cannot kill in time, and a timeout, half a win, is the even race's value, so a
side losing the race values the damage it avoids and a distance where nobody reaches), and
c its heat cost in the same units (first order: a cost c lowers the log rate by c / r); a
weaker unit therefore values the damage it avoids more than the damage it deals
(:meth:`Planner.payoffs`; ``net``: share dealt minus share taken, less A's heat cost plus
B's). Expected damage is exact
from the fire model's tables: per gun the side's firing policy fires (the ``max-expected``
:class:`~sim.classic.fire.policies.Decider` under ``competent``: heat-aware, e.g. it holds
the PPC that would push the 'Mech over the shutdown line), P(2D6 >= target number) x its
mean damage given a hit, the target number that of the situation corrected as the engine
corrects it (the real hexes moved with the MP now, prone and shut-down targets). At
distance 1 a unit whose physical policy is not ``none`` adds the physical attack 'best'
would really make (:func:`melee`, reference.md 1-4, as
:func:`sim.classic.engine.physical.declare_unit` chooses it, for the 'Mech as built: the key
tracks no actuator): the best of firing as planned plus a punch (each free arm), kick,
hatchet or push; holding one or both arms' weapons for one; or a charge (moved walk / run)
or death from above (jumped) that fires nothing. Its value: P(hit) x damage plus, for the
attacks that force a PSR (kick, push, charge, DFA), P(hit) x P(the target fails it) x its
fall (ceil(T/10)) and prone turn (:data:`PRONE_KICKS` of the attacker's kicks); its own
risks count as damage taken: a missed kick's PSR, a charge's or DFA's own damage and PSR,
a missed DFA's two-level fall, each fall with its prone turn. The heat
cost of the heat h' the turn leaves (movement + weapon heat - dissipation): P(shutdown at
h') x (own share dealt + share taken: a shut-down 'Mech neither fires nor dodges), P(ammo
explosion at h') x 1 (the 'Mech), and the share of damage the heat scale's to-hit penalty
at h' costs next turn. **Lookahead**: :data:`LOOKAHEAD` more turns of the same payoffs
(the state frozen, initiative 1/2 each), solved backward over the distance, are added to
the payoff of each final distance (so a unit out of range still closes or opens the range).

**Tactics** (:data:`NAMES`), each a rule over the candidate moves (mode, distance), each
valued as competent values it (the first mover: its worst case over the second mover's
replies; the second: against the first mover's move):

* ``competent``: the first mover the maximin move, the second its best response;
* ``stand-and-fire``: the side's fixed ``moved`` mode (default stand), distance unchanged;
* ``brawler``: the closest distance it can reach, in its best mode for it;
* ``charge``: its mode with the most hexes, straight in;
* ``sniper``: the distance where its expected damage per turn over the enemy's (both
  standing) is best, as near as it can get, in its best mode;
* ``kite``: its mode with the most hexes (most TMM), holding the longest distance at which
  its expected damage at least matches the enemy's (both moving so), as near as it can get.

Ties go to the lower mode (stand, walk, run, jump), then the smaller change of distance,
then the shorter distance.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

import numpy as np

from sim import tactics as G
from sim.classic import damage as D
from sim.classic.duel import physical as ph
from sim.classic.fire import heat as H
from sim.classic.fire import to_hit as TH
from sim.dice import P_2D6_AT_LEAST
from sim.memo import WeightedLRU

if TYPE_CHECKING:
    from sim.classic.duel.scenario import DuelScenario

GAME = "classic"
#: movement modes, the engine's order (sim.classic.engine.move STAND..JUMP)
MODES = ("stand", "walk", "run", "jump")
#: bit that marks a tactic key in the shared decision hash table (fire keys stay below it)
TAG = 1 << 62
#: turns of lookahead added to each final distance's payoff
LOOKAHEAD = 2
#: the movement payoff: ``ratio`` (the kill race: log of the rates of destruction, A's over
#: B's) or ``net`` (share dealt minus share taken)
PAYOFF = "ratio"
#: the turn limit (a timeout scores half a win, as an even race): the share of a 'Mech's
#: armor and structure the rate of the ``ratio`` payoff must destroy over the duel's turns
#: to kill it in time; each rate is floored by ``TIMEOUT_SHARE / turns`` (:func:`rate_floor`)
TIMEOUT_SHARE = 0.25
#: the floor of a 10-turn duel (share of the enemy per turn)
RATE_FLOOR = TIMEOUT_SHARE / 10


def rate_floor(turns: int) -> float:
    """The floor added to each rate of the ``ratio`` payoff in a duel of ``turns`` turns: a
    rate well below ``TIMEOUT_SHARE / turns`` cannot kill before the turn limit, where a
    timeout scores half a win whatever the damage, so it barely moves the payoff (both rates
    below it: about 0, the even race, the timeout's value); a side losing the race values
    the damage it avoids by 1 / (its enemy's rate + floor), more in a short duel."""
    return TIMEOUT_SHARE / max(int(turns), 1)
#: tolerance of the ties
_TOL = 1e-12
#: weapon classes a unit's key tracks (identical weapons are one class; the classes of most
#: damage first): whether any weapon of the class is left (not destroyed, with ammunition,
#: not jammed). A weapon of a class beyond these counts as always there.
GUN_CLASSES = 6
#: per unit: (name, bits) of the decision key, low to high (sim.classic.engine.turn packs
#: the same fields)
UNIT_FIELDS = (("act", 1), ("mover", 1), ("prone", 1), ("heat", 5), ("walk", 4), ("run", 5),
               ("jump", 4), ("guns", GUN_CLASSES))
UNIT_BITS = sum(b for _, b in UNIT_FIELDS)
#: the key: distance (7 bits), A moves first (1 bit), unit 0, unit 1
D_BITS = 7
STATE_SHIFT = D_BITS + 1


@dataclass(frozen=True)
class View:
    """What a tactic sees for one decision: the distance ``d`` before its move, whether it
    moves ``first``, hexes per mode (``reach``, -1: mode not available) of itself and of the
    enemy, its value ``q[own mode, enemy mode, distance]`` (index 1..``dmax``), the raw
    expected damage ``dealt`` / ``taken`` (same shape), the enemy's planned mode and
    distance when it moves second (``opp_mode``, ``opp_d``, else -1), its fixed ``moved``
    mode (stand-and-fire) and ``dmax`` (the start distance)."""

    d: int
    first: bool
    reach: np.ndarray
    opp_reach: np.ndarray
    q: np.ndarray
    dealt: np.ndarray
    taken: np.ndarray
    opp_mode: int
    moved: int
    dmax: int
    #: :func:`worst_case` of ``q`` (the first mover's value of each own move), and both as
    #: nested lists (fast to read one by one)
    worst: np.ndarray | None = None
    worst_rows: Any = None
    q_rows: Any = None


_WINDOWS: dict[tuple[int, int], np.ndarray] = {}


def _window_index(h: int, dmax: int) -> np.ndarray:
    """``idx[c]``: the distances c-h .. c+h clipped to [1, dmax] (row 0: index 0 only)."""
    idx = _WINDOWS.get((h, dmax))
    if idx is None:
        c = np.arange(dmax + 1)[:, None]
        idx = np.clip(c + np.arange(-h, h + 1)[None, :], 1, dmax)
        idx[0] = 0
        _WINDOWS[(h, dmax)] = idx
    return idx


def window(arr: np.ndarray, h: int, op: Callable[..., Any], dmax: int) -> np.ndarray:
    """``op`` (np.minimum / np.maximum) of ``arr[..., c-h .. c+h]`` clipped to [1, dmax], for
    each centre c (index 0 unused): the best or worst a move of ``h`` hexes from c reaches.
    ``arr``'s last axis holds the distances 0..dmax."""
    h = min(h, dmax)
    if h < 1:
        return arr.copy()
    out: np.ndarray = op.reduce(arr[..., _window_index(h, dmax)],  # type: ignore[attr-defined]
                                axis=-1)
    return out


def reach_set(d: int, h: int, dmax: int) -> np.ndarray:
    """Distances a move of ``h`` hexes reaches from ``d``: [d-h, d+h] within [1, dmax]."""
    return np.arange(max(d - h, 1), min(d + h, dmax) + 1)


def worst_case(q: np.ndarray, opp_reach: np.ndarray, dmax: int) -> np.ndarray:
    """``w[m, d1]``: the worst value over the enemy's replies (every mode it has, every
    distance it reaches from d1) of own mode m at distance d1 after the own move."""
    w = np.full((4, dmax + 1), np.inf)
    for om in range(4):
        if opp_reach[om] < 0:
            continue
        w = np.minimum(w, window(q[:, om, :], int(opp_reach[om]), np.minimum, dmax))
    return w


def candidates(v: View) -> list[tuple[int, int, float]]:
    """Every (mode, distance) the unit can reach, with its value: the first mover's worst
    case over the replies (:attr:`View.worst`), the second mover's value against the first
    one's move."""
    out = []
    rows = v.worst_rows if v.first else v.q_rows
    for m in range(4):
        h = int(v.reach[m])
        if h < 0:
            continue
        row = rows[m] if v.first else rows[m][v.opp_mode]
        for nd in range(max(v.d - h, 1), min(v.d + h, v.dmax) + 1):
            out.append((m, nd, row[nd]))
    return out


def reachable(reach: np.ndarray, d: np.ndarray, dmax: int) -> np.ndarray:
    """``ok[..., m, nd]``: whether mode ``m`` (``reach[..., m]`` hexes, -1 none) reaches
    distance ``nd`` (0..dmax) from the start distance ``d[...]``: |nd - d| <= hexes, nd in
    [1, dmax] (the candidates of :func:`candidates`)."""
    reach = np.asarray(reach)
    nd = np.arange(dmax + 1)
    step = np.abs(nd - np.asarray(d)[..., None, None])
    return (reach[..., :, None] >= 0) & (step <= reach[..., :, None]) & (nd >= 1)


def choose(vals: np.ndarray, ok: np.ndarray, d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The best candidate move, for any number of decisions at once: ``vals[..., m, nd]``
    the value of own mode m at final distance nd (0..dmax), ``ok`` (same shape) whether it is
    a candidate, ``d[...]`` the start distance. The best value wins; within max(1e-12, 1e-9
    |best|) of it, ties go to the lower mode, then the smaller change of distance, then the
    shorter distance. Returns (mode, distance), each of shape ``d``'s."""
    n = vals.shape[-1]
    top = np.max(np.where(ok, vals, -np.inf), axis=(-2, -1))
    tol = np.maximum(_TOL, 1e-9 * np.abs(top))
    sel = ok & (vals >= (top - tol)[..., None, None])
    nd = np.arange(n)
    order = ((np.arange(4)[:, None] * n + np.abs(nd - np.asarray(d)[..., None, None])) * n
             + nd)
    order = np.where(sel, order, 4 * n * n)
    flat = np.argmin(order.reshape(*order.shape[:-2], 4 * n), axis=-1)
    return flat // n, flat % n


def _values(v: View) -> np.ndarray:
    """``[m, nd]``: the value of each own move: the first mover's worst case over the
    replies, the second mover's value against the first one's move."""
    if v.first:
        return v.worst if v.worst is not None else worst_case(v.q, v.opp_reach, v.dmax)
    return np.asarray(v.q)[:, v.opp_mode, :]


def _pick(v: View, keep: Callable[[int, int], bool] | None = None) -> tuple[int, int]:
    """The best candidate (among those ``keep(mode, distance)`` accepts, if given; all when
    it accepts none) by :func:`choose`."""
    ok = reachable(v.reach, np.asarray(v.d), v.dmax)
    if keep is not None:
        kept = np.zeros_like(ok)
        for m, nd in zip(*np.nonzero(ok), strict=True):
            kept[m, nd] = keep(int(m), int(nd))
        if kept.any():
            ok = kept
    m, nd = choose(_values(v), ok, np.asarray(v.d))
    return int(m), int(nd)


def fastest(v: View) -> int:
    """The mode with the most hexes (ties: the lower mode)."""
    best = 0
    for m in range(4):
        if v.reach[m] > v.reach[best]:
            best = m
    return best


def competent(v: View) -> tuple[int, int]:
    """First mover: the maximin move; second: the best response."""
    return _pick(v)


def stand_and_fire(v: View) -> tuple[int, int]:
    """The fixed ``moved`` mode (stand if it has no such MP now), distance unchanged."""
    m = v.moved if v.reach[v.moved] > 0 else 0
    return m, v.d


def brawler(v: View) -> tuple[int, int]:
    """The closest distance reachable, in its best mode."""
    lo = max(1, v.d - int(v.reach.max()))
    return _pick(v, lambda m, d: d == lo)


def charge(v: View) -> tuple[int, int]:
    """The mode with the most hexes, straight in."""
    m = fastest(v)
    return m, max(1, v.d - int(v.reach[m]))


def _nearest(v: View, target: int, mode: int | None = None) -> tuple[int, int]:
    """The candidate nearest distance ``target`` (in ``mode`` if it has it), best valued."""
    cands = [c for c in candidates(v) if mode is None or c[0] == mode] or candidates(v)
    modes = {c[0] for c in cands}
    best = min(abs(c[1] - target) for c in cands)
    return _pick(v, lambda m, d: m in modes and abs(d - target) == best)


def sniper(v: View) -> tuple[int, int]:
    """Hold the distance where its expected damage over the enemy's (both standing) is
    best."""
    r = np.arange(1, v.dmax + 1)
    ratio = (v.dealt[0, 0, 1:] + 0.1) / (v.taken[0, 0, 1:] + 0.1)
    target = int(r[np.argmax(ratio)])
    return _nearest(v, target)


def kite(v: View) -> tuple[int, int]:
    """Fastest mode; the longest distance where it deals at least what it takes."""
    m = fastest(v)
    om = int(np.argmax(np.where(v.opp_reach >= 0, v.opp_reach, -99)))
    dealt, taken = v.dealt[m, om, 1:], v.taken[m, om, 1:]
    good = np.flatnonzero((dealt >= taken) & (dealt > 0))
    target = int(good.max() + 1) if good.size else int(np.argmax(dealt - taken) + 1)
    return _nearest(v, target, m)


class ClassicTactic(G.Tactic):
    """A Classic duel tactic: ``decide(view) -> (mode, distance)``."""


_DECIDE = {"competent": (competent, "first mover: the move whose worst case over the "
                         "second mover's replies is best; second mover: the best reply "
                         "(expected damage dealt minus taken, heat counted)"),
           "stand-and-fire": (stand_and_fire, "keeps its movement mode (moved, default "
                              "stand) and the distance, fires by its policy (all by default)"),
           "brawler": (brawler, "closes as fast as it can, in its best mode; physical "
                       "attacks at range 1"),
           "sniper": (sniper, "holds the distance where its expected damage per turn over "
                      "the enemy's is best"),
           "kite": (kite, "its fastest mode; holds the longest distance where it deals at "
                    "least what it takes"),
           "charge": (charge, "its fastest mode, straight in")}
for _n, (_f, _d) in _DECIDE.items():
    G.register(GAME, ClassicTactic(_n, _d, _f))
NAMES = G.named(GAME)
COMPETENT, STAND_AND_FIRE = "competent", "stand-and-fire"


def resolve(value: Any, field: str) -> ClassicTactic:
    """A Classic tactic from a name or a callable ``f(view) -> (mode, distance)``
    (ConfigError naming ``field``, the value and the choices)."""
    def wrap(f: Callable[..., Any]) -> ClassicTactic:
        return ClassicTactic(getattr(f, "__name__", "callable"), "a Python callable", f)

    t = G.resolve(GAME, value, field, wrap)
    if not isinstance(t, ClassicTactic):
        t = ClassicTactic(t.name, t.description, t.decide)
    return t


# -- initiative ---------------------------------------------------------------------------

INITIATIVE = ("roll", "a", "b")


def roll_off(d6: Callable[[], int]) -> bool:
    """The initiative roll-off (2D6 a side, ties re-rolled): True when A's total is lower
    (A lost: it moves first). ``d6`` rolls one die (the oracle's dice)."""
    while True:
        ra = d6() + d6()
        rb = d6() + d6()
        if ra != rb:
            return ra < rb


# -- decision keys --------------------------------------------------------------------------

def pack_unit(s: dict[str, int]) -> int:
    """One unit's half of the key (:data:`UNIT_FIELDS`; each value capped to its bits)."""
    out, shift = 0, 0
    for name, bits in UNIT_FIELDS:
        out |= min(int(s[name]), (1 << bits) - 1) << shift
        shift += bits
    return out


def make_key(d: int, first_a: bool, s0: dict[str, int], s1: dict[str, int]) -> int:
    """The decision key (:data:`TAG` set): distance, A moves first, both units' state."""
    state = pack_unit(s0) | (pack_unit(s1) << UNIT_BITS)
    return TAG | (state << STATE_SHIFT) | (int(first_a) << D_BITS) | int(d)


def split_key(key: int) -> tuple[int, bool, int]:
    """(distance, A moves first, state) of a decision key."""
    key &= TAG - 1
    return key & ((1 << D_BITS) - 1), bool((key >> D_BITS) & 1), key >> STATE_SHIFT


def unpack_state(state: int) -> tuple[dict[str, int], dict[str, int]]:
    out = []
    for u in range(2):
        h = (state >> (u * UNIT_BITS)) & ((1 << UNIT_BITS) - 1)
        s, shift = {}, 0
        for name, bits in UNIT_FIELDS:
            s[name] = (h >> shift) & ((1 << bits) - 1)
            shift += bits
        out.append(s)
    return out[0], out[1]


def pack_value(ma: int, mb: int, d1: int, d2: int) -> int:
    """A decision: both modes, the first mover's distance, the distance after both moves."""
    return ma | (mb << 2) | (d1 << 4) | (d2 << 11)


def unpack_value(v: int) -> tuple[int, int, int, int]:
    return v & 3, (v >> 2) & 3, (v >> 4) & 127, (v >> 11) & 127


# -- payoffs --------------------------------------------------------------------------------

def weapon_classes(side: Any) -> np.ndarray:
    """Per gun of the side's fire scenarios, its class bit in the decision key (classes of
    identical weapons: same weapon, feed, Artemis and rate; the :data:`GUN_CLASSES` of the
    most expected damage given a hit first, ties by gun order), -1 beyond them."""
    guns = next(iter(side.fire.values())).guns
    groups: dict[tuple[Any, ...], list[int]] = {}
    for g, gun in enumerate(guns):
        groups.setdefault((gun.key, gun.pool, gun.artemis, gun.rate), []).append(g)

    def worth(gs: list[int]) -> float:
        dg = guns[gs[0]].damage_given_hit(guns[gs[0]].rate)
        return float(dg @ np.arange(dg.size)) * len(gs)

    order = sorted(groups.values(), key=lambda gs: (-worth(gs), gs[0]))
    out = np.full(max(len(guns), 1), -1, np.int64)
    for c, gs in enumerate(order[:GUN_CLASSES]):
        out[gs] = c
    return out[:len(guns)] if guns else out


def all_classes(gclass: np.ndarray) -> int:
    """The key's weapon-class mask with every class present."""
    out = 0
    for c in gclass.tolist():
        if c >= 0:
            out |= 1 << c
    return out


def reach_of(s: dict[str, int], has_jump: bool) -> np.ndarray:
    """Hexes per mode now (-1: not available): stand 0, walk / run / jump their MP now."""
    r = np.array([0, -1, -1, -1])
    if s["act"] and s["mover"]:
        for m, k in ((1, "walk"), (2, "run"), (3, "jump")):
            if s[k] > 0 and (m != 3 or has_jump):
                r[m] = s[k]
    return r



# -- physical attacks at distance 1 (reference.md 1-4) --------------------------------------

#: the planner's value of a fall beyond its damage: the prone turn (no move, -2 to be hit
#: adjacent, no physical attack back, a stand-up roll), one kick-sized hit of the enemy (the
#: ``knockdown_value`` reading ``fall-and-prone``); 0 values the fall damage only
PRONE_KICKS = 1.0
#: arms (location indexes) in the order of the punch, and the hold options of 'best'
#: (sim.classic.engine.physical.ARM_SETS: left, right, both)
_ARMS = (4, 5)
_HOLDS = ((True, False), (False, True), (True, True))


@dataclass(frozen=True)
class Melee:
    """One side's physical attacks against the other, undamaged as built (the decision key
    does not track actuators): what :func:`sim.classic.engine.physical.choose` reads, from
    the same declarations (:mod:`sim.classic.attacks`, :mod:`sim.classic.damage`). Not
    counted: triple-strength myomer's doubled damage, the damage modifiers a key does not
    hold (actuators, gyro)."""

    on: bool                    # its physical policy is not 'none'
    allk: bool                  # duel_attacks 'all' (hatchet, push, charge, DFA)
    pil: int
    pil_t: int
    pre: int                    # pre-existing PSR modifiers (cockpit, a quad's four legs)
    pre_t: int
    auto_fail: bool             # a shut-down target fails every PSR (immobile_psr)
    gun_loc: np.ndarray         # (ng,) location index of each gun, -1 none
    punch_tn: np.ndarray        # (2,) punch base + actuator modifiers per arm (99: none)
    punch_dmg: np.ndarray       # (2,)
    kick_legs: tuple[int, int]  # locations that kick (a quad's front legs)
    kick_dmg: int
    hatch_arm: int              # -1: no physical weapon
    hatch_tn: int
    hatch_dmg: int
    push: bool                  # both shoulders, not a quad
    charge_dmg: np.ndarray      # by hexes moved (the engine's table: D.charge(W, h - 1))
    charge_self: int            # the target's ceil(T/10)
    dfa_dmg: int
    dfa_self: int
    dfa_miss: int               # the two-level fall
    fall: int                   # its own fall, ceil(W/10): 'best''s self-risk
    knock: float                # 'best''s knock-down value (knockdown_value)
    fall_t: float               # the planner's value of the target's fall (+ prone turn)
    fall_s: float               # ... of its own


def melee_of(side: Any, enemy: Any, scn: DuelScenario) -> Melee:
    """:class:`Melee` of ``side`` attacking ``enemy`` (reference.md 1.3, 2, 4.2-4.4; the
    compiled engine's unit table, sim.classic.engine.compile)."""
    from sim.classic import equipment_rules as ER
    from sim.classic import physical_weapons as PW
    from sim.classic import quad as Q
    from sim.classic.damage_state import layout as lay

    cr, pr = side.classic, scn.physical_rules
    act = side.act

    def pre(s: Any) -> int:
        return ER.cockpit_psr_mod(s.mech.cockpit) + (Q.ALL_LEGS_PSR if s.layout.config
                                                      == "Quad" else 0)

    quad = side.layout.config == "Quad"
    nopunch = ph.barred(ph.PUNCH, side.mech.quirks, cr) or quad
    ptn, pdmg = np.full(2, 99, np.int64), np.zeros(2, np.int64)
    for j, arm in enumerate(_ARMS):
        la, hand = int(act["lower_arm"][arm] == 0), int(act["hand"][arm] == 0)
        mod = cr.hand_and_lower_arm_missing_mod if la and hand else 2 * la + hand
        clawed = side.claws[j] >= 0  # claws (issue 19): +1 in the hand's place, ceil(W/7)
        if clawed:
            mod = 2 * la + PW.PHYSICAL_WEAPONS["claws"].base_mod
        if act["shoulder"][arm] and not nopunch:
            ptn[j] = ph.BASE[ph.PUNCH] + mod
        pdmg[j] = (D.claw_punch if clawed else D.punch)(side.tons, la, False, cr)
    hatch_arm, hatch_tn, hatch_dmg = -1, 99, 0
    item, arm = side.hatchet if side.hatchet[0] >= 0 else side.sword
    if item >= 0 and act["shoulder"][arm] and act["hand"][arm]:
        hatch_arm = arm
        if side.hatchet[0] >= 0:
            hatch_dmg, cmod = ph.hatchet_damage(side.tons, cr), 0
        else:
            from sim.classic.engine.compile import club_name
            name = club_name(side)
            hatch_dmg = PW.physical_weapon_damage(name, side.tons, False)
            cmod = PW.PHYSICAL_WEAPONS[name].base_mod - ph.BASE[ph.HATCHET]
        hatch_tn = ph.BASE[ph.HATCHET] + cmod + ph.hatchet_aim(cr, enemy.layout.config)[1]
    top = max(side.run, side.walk) + 2
    knock = ph.knock_value(pr.knockdown_value, enemy.tons, side.tons, cr)
    return Melee(
        on=side.physical != "none", allk=pr.duel_attacks == "all", pil=side.piloting,
        pil_t=enemy.piloting, pre=pre(side), pre_t=pre(enemy),
        auto_fail=cr.immobile_psr == "auto-fail",
        gun_loc=np.array([lay.LOC_INDEX.get(g.location, -1)
                          for g in next(iter(side.fire.values())).guns] or [-1], np.int64),
        punch_tn=ptn, punch_dmg=pdmg, kick_legs=(4, 5) if quad else (6, 7),
        kick_dmg=D.kick(side.tons, 0, False, cr), hatch_arm=hatch_arm, hatch_tn=hatch_tn,
        hatch_dmg=hatch_dmg,
        push=not quad and bool(act["shoulder"][4] and act["shoulder"][5]),
        charge_dmg=np.array([D.charge(side.tons, max(h - 1, 0)) for h in range(top)]),
        charge_self=D.charge_self(enemy.tons), dfa_dmg=ph.dfa_damage(side.tons, cr),
        dfa_self=D.dfa_self(side.tons), dfa_miss=ph.fall_damage(side.tons, ph.DFA_MISS_LEVELS),
        fall=ph.fall_damage(side.tons), knock=knock,
        fall_t=D.fall(enemy.tons, 0) + PRONE_KICKS * D.kick(side.tons, 0, False, cr),
        fall_s=D.fall(side.tons, 0) + PRONE_KICKS * D.kick(enemy.tons, 0, False, cr))


def melee(mc: Melee, mode: np.ndarray, hexes: np.ndarray, own_mod: np.ndarray,
          tgt_tmm: np.ndarray, prone_t: int, act_t: int, eg: np.ndarray, fired: np.ndarray
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What the physical policy 'best' would really do at distance 1 (reference.md 1-4;
    :func:`sim.classic.engine.physical.declare_unit` and ``choose``), per cell of the
    (A's mode, B's mode) arrays ``mode`` (own mode), ``hexes`` (own hexes moved),
    ``own_mod`` (attacker movement modifier), ``tgt_tmm``; ``eg[..., g]`` the expected
    damage of each gun the firing policy fires (``fired``). The best of: fire as planned
    and the best melee attack (punches, kick, hatchet, push) with the limbs that did not
    fire; hold the left, the right or both arms' weapons for one; a charge (moved walk or
    run) or death from above (jumped) that fires nothing (a strictly larger value wins,
    each valued as 'best' values it). Returns the expected damage dealt (the weapons kept,
    the attack's P(hit) x damage and P(hit) x P(target falls) x :attr:`Melee.fall_t`),
    the expected damage to itself (a missed kick's fall, a charge's or DFA's own damage and
    PSR, a missed DFA's fall) and the guns still fired."""
    shape = mode.shape
    w_fire = eg.sum(axis=-1)
    zero = np.zeros(shape)
    if not mc.on:
        return w_fire, zero, fired
    P_ = ph.p_hit
    immobile = 1 - act_t
    common = tgt_tmm - 2 * prone_t - 4 * immobile
    base = mc.pil + own_mod + common
    standing = not prone_t

    def q_t(mod: int) -> float:         # P(target fails the PSR the hit forces)
        if mc.auto_fail and immobile:
            return 1.0
        return 1.0 - float(ph.P_AT_LEAST[min(max(mc.pil_t + mc.pre_t + mod, 0), 13)])

    def q_s(mod: int) -> float:
        return 1.0 - float(ph.P_AT_LEAST[min(max(mc.pil + mc.pre + mod, 0), 13)])

    knock = mc.knock if standing else 0.0
    fall_t = mc.fall_t if standing else 0.0
    arm_guns = [mc.gun_loc[:fired.shape[-1]] == a for a in _ARMS]
    arm_fired = [np.any(fired & g, axis=-1) for g in arm_guns]
    leg_fired = [np.any(fired & (mc.gun_loc[:fired.shape[-1]] == leg), axis=-1)
                 for leg in mc.kick_legs]
    # melee attacks by free arms (punch, hatchet, push) and the kick: value ('best'), dealt
    pk = P_(base + ph.BASE[ph.KICK]) * ~(leg_fired[0] & leg_fired[1])
    qk, qks = q_t(ph.PSR_ON_TARGET[ph.KICK]), q_s(0)
    kick = pk * (mc.kick_dmg + qk * knock) - (1 - pk) * qks * mc.fall
    kick_d = pk * (mc.kick_dmg + qk * fall_t)
    kick_o = (1 - pk) * qks * mc.fall_s

    def options(free: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The best melee attack with the arms ``free`` (each ``(configurations,) +
        shape``): value, dealt, own damage per configuration (elementwise, so each equals
        the attack of one configuration alone)."""
        cshape = free[0].shape
        zc = np.zeros(cshape)
        vals, dealt, own = [], [], []
        ok_p = standing
        pp = [P_(base + mc.punch_tn[j]) * (free[j] & ok_p) for j in range(2)]
        vals.append(pp[0] * mc.punch_dmg[0] + pp[1] * mc.punch_dmg[1])
        dealt.append(vals[-1])
        own.append(zc)
        vals.append(np.broadcast_to(kick, cshape))
        dealt.append(np.broadcast_to(kick_d, cshape))
        own.append(np.broadcast_to(kick_o, cshape))
        if mc.hatch_arm >= 0 and mc.allk and standing:
            ph_ = P_(base + mc.hatch_tn) * free[_ARMS.index(mc.hatch_arm)]
            vals.append(ph_ * mc.hatch_dmg)
        else:
            vals.append(zc)
        dealt.append(vals[-1])
        own.append(zc)
        if mc.push and mc.allk and standing:
            pu = P_(base + ph.BASE[ph.PUSH]) * (free[0] & free[1])
            qp = q_t(ph.PSR_ON_TARGET[ph.PUSH])
            vals.append(pu * qp * knock)
            dealt.append(pu * qp * fall_t)
        else:
            vals.append(zc)
            dealt.append(zc)
        own.append(zc)
        v = np.stack(vals)
        k = np.argmax(np.where(v > 0, v, -np.inf), axis=0)     # first of the largest
        pick = np.take_along_axis
        none = ~(v > 0).any(axis=0)
        idx = k[None]
        return (np.where(none, 0.0, pick(v, idx, 0)[0]),
                np.where(none, 0.0, pick(np.stack(dealt), idx, 0)[0]),
                np.where(none, 0.0, pick(np.stack(own), idx, 0)[0]))

    free0 = [~arm_fired[0], ~arm_fired[1]]
    # the free arms as fired, then with each hold (_HOLDS) at once
    hold_l = np.array([False] + [h[0] for h in _HOLDS])[:, None, None]
    hold_r = np.array([False] + [h[1] for h in _HOLDS])[:, None, None]
    ov, od, oo = options([free0[0] | hold_l, free0[1] | hold_r])
    mv, md, mo = ov[0], od[0], oo[0]
    best, dealt, own, keep = w_fire + mv, w_fire + md, mo, fired
    for i, (hl, hr) in enumerate(_HOLDS, 1):
        held = (arm_fired[0] & hl) | (arm_fired[1] & hr)
        cut = (arm_guns[0] & hl) | (arm_guns[1] & hr)
        kept = fired & ~cut
        e_kept = (eg * kept).sum(axis=-1)
        hv, hd, ho = ov[i], od[i], oo[i]
        better = held & (e_kept + hv > best)
        best = np.where(better, e_kept + hv, best)
        dealt = np.where(better, e_kept + hd, dealt)
        own = np.where(better, ho, own)
        keep = np.where(better[..., None], kept, keep)
    if mc.allk:
        diff = mc.pil - mc.pil_t
        # charge: moved on the ground, a standing target; its damage by hexes, the target's
        # ceil(T/10) back, a PSR each at +2
        pc = P_(base + diff + ph.BASE[ph.CHARGE]) * ((mode == 1) | (mode == 2)) * (hexes > 0)
        pc = pc * standing
        cd = mc.charge_dmg[np.clip(hexes, 0, mc.charge_dmg.size - 1)]
        qc, qcs = q_t(ph.PSR_ON_TARGET[ph.CHARGE]), q_s(ph.PSR_ON_SELF_HIT[ph.CHARGE])
        cv = pc * (cd + qc * knock) - pc * (mc.charge_self + qcs * mc.fall)
        # death from above: jumped; the jump's +3 replaces the movement modifier; a miss is
        # a two-level fall
        pd = P_(mc.pil + common + diff + ph.BASE[ph.DFA]) * (mode == 3) * (hexes > 0)
        qd, qds = q_t(ph.PSR_ON_TARGET[ph.DFA]), q_s(ph.PSR_ON_SELF_HIT[ph.DFA])
        dv = (pd * (mc.dfa_dmg + qd * knock) - pd * (mc.dfa_self + qds * mc.fall)
              - (1 - pd) * mc.dfa_miss) * (pd > 0)
        for pv, val, got, lost in (
                (pc, cv, pc * (cd + qc * fall_t), pc * (mc.charge_self + qcs * mc.fall_s)),
                (pd, dv, pd * (mc.dfa_dmg + qd * fall_t),
                 pd * (mc.dfa_self + qds * mc.fall_s)
                 + (1 - pd) * (mc.dfa_miss + mc.fall_s - mc.fall))):
            go = (pv > 0) & (val > best)
            best = np.where(go, val, best)
            dealt = np.where(go, got, dealt)
            own = np.where(go, lost, own)
            keep = np.where(go[..., None], False, keep)
    return dealt, own, keep


def _content(x: Any) -> Any:
    """A hashable stand-in for ``x`` equal exactly when ``x`` is (an array by its dtype,
    shape and bytes)."""
    if isinstance(x, np.ndarray):
        return (x.dtype.str, x.shape, x.tobytes())
    return (type(x).__name__, x)


def melee_key(mc: Melee) -> tuple[Any, ...]:
    """:class:`Melee`'s content: every field (a field added later is in it too)."""
    return tuple((f.name, _content(getattr(mc, f.name))) for f in fields(mc))


#: the per-process memo of :func:`melee` by content (issue 21: the physical valuation at
#: distance 1 was a third of a competent state's cost, and the same unit pair recurs across
#: states, seats and scenarios): at most MELEE_ITEMS entries and MELEE_BYTES of arrays, keys
#: and values counted (an entry about 1-3 KB: its (4, 4, guns) arguments' bytes and three
#: (4, 4[, guns]) results)
MELEE_ITEMS = 8192
MELEE_BYTES = 8 << 20
_MELEE: WeightedLRU[Any, tuple[np.ndarray, np.ndarray, np.ndarray]] = WeightedLRU(
    MELEE_ITEMS, MELEE_BYTES)


def melee_memo(key: tuple[Any, ...], mc: Melee, *args: Any
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`melee` ``(mc, *args)`` memoised by content (``key``: :func:`melee_key` of
    ``mc``) on every argument: exact, the arrays returned read-only."""
    k = (key, *(_content(a) for a in args))
    got = _MELEE.get(k)
    if got is None:
        got = melee(mc, *args)
        for a in got:
            a.flags.writeable = False
        size = sum(a.nbytes for a in got) + sum(a.nbytes for a in args
                                                if isinstance(a, np.ndarray))
        _MELEE.put(k, got, size)
    return got


#: what :meth:`Planner._side` reads of the *target's* state (``st``): its memo
#: (:func:`_memo_side`) keys on the unit's whole state and these fields only, so states that
#: differ in the target's heat or weapons share one call (issue 21: the per-state payoffs
#: were most of a competent run's CPU). A read of any other field raises (:class:`_Reads`):
#: add the field here.
SIDE_TARGET_READS = ("walk", "run", "jump", "mover", "prone", "act")


class _Reads(dict[str, int]):
    """The target state's fields :meth:`Planner._side` may read; any other raises."""

    def __missing__(self, key: str) -> int:
        raise KeyError(f"Planner._side read the target state's {key!r}: add it to "
                       "tactics.SIDE_TARGET_READS (the memo's key)")


def _memo(attr: str, key: Callable[..., tuple[Any, ...]],
          arg: Callable[..., tuple[Any, ...]] | None = None
          ) -> Callable[[Callable[..., tuple[np.ndarray, ...]]], Callable[..., Any]]:
    """Memoize a :class:`Planner` method per planner in ``self.<attr>`` on ``key(*args)``
    (exact: the method is a pure function of what the key holds); ``arg(*args)`` the
    arguments the method is called with (default: as given); the arrays returned read-only
    so no caller can change a shared one."""
    def deco(fn: Callable[..., tuple[np.ndarray, ...]]) -> Callable[..., Any]:
        def cached(self: Planner, *args: Any) -> tuple[np.ndarray, ...]:
            memo = self.__dict__.setdefault(attr, {})
            call = arg(*args) if arg is not None else args
            k = key(*call)
            got = memo.get(k)
            if got is None:
                got = fn(self, *call)
                for a in got:
                    a.flags.writeable = False
                memo[k] = got
            return got

        cached.__doc__ = fn.__doc__
        cached.__wrapped__ = fn  # type: ignore[attr-defined]
        return cached

    return deco


#: :meth:`Planner._side` per planner on ``(u, own state, the target's SIDE_TARGET_READS)``,
#: the target read through :class:`_Reads` (bounded by the planner's states: two entries a
#: state at most)
_memo_side = _memo(
    "_side_memo",
    lambda u, su, seen: (u, tuple(sorted(su.items())), tuple(seen.values())),
    lambda u, su, st: (u, su, _Reads({k: st[k] for k in SIDE_TARGET_READS})))
#: :meth:`Planner._risk` per planner on ``(u, the heat array's bytes)`` (the memoized
#: :meth:`Planner._side` hands many states the same heats)
_memo_risk = _memo("_risk_memo", lambda u, h2: (u, h2.shape, h2.dtype.str, h2.tobytes()))


class Planner:
    """The tactic decisions of one compiled duel (both sides), filled by state."""

    def __init__(self, scn: DuelScenario, deciders: dict[tuple[int, int], Any],
                 sit_index: dict[tuple[int, str, str], int]) -> None:
        from sim.classic.fire.policies import shared_decider

        self.scn = scn
        self.R = R = scn.start_distance
        keys = sorted(sit_index, key=lambda k: sit_index[k])
        #: situation index by (A's mode, B's mode, distance), -1 none
        self.sit = np.full((4, 4, R + 1), -1, np.int64)
        for k, i in sit_index.items():
            if k[0] <= R:
                self.sit[MODES.index(k[1]), MODES.index(k[2]), k[0]] = i
        self.dec: list[list[Any]] = []
        self.dec_id: list[np.ndarray] = []
        self.tn0, self.mmod, self.nom = [], [], []
        self.dur = [float(np.sum(s.layout.armor) + np.sum(s.layout.structure))
                    for s in scn.sides]
        self.given, self.heat_w, self.diss, self.expl = [], [], [], []
        for u, side in enumerate(scn.sides):
            fss = [side.fire[k] for k in keys]
            # situations whose guns have the same target numbers at every heat and the same
            # movement heat decide alike: one Decider each (exact; fewer decisions to make)
            canon: dict[bytes, Any] = {}
            decs: list[Any] = []
            for i, fs in enumerate(fss):
                if side.policy.kind == "all":
                    decs.append(None)
                    continue
                sig = b"".join(g.tn.tobytes() for g in fs.guns) + fs.move_heat.tobytes()
                if sig not in canon:
                    canon[sig] = deciders.get((u, i)) or shared_decider(fs)
                decs.append(canon[sig])
            self.dec.append(decs)
            #: per situation, the index of its Decider among the unit's distinct ones
            ids = {id(x): j for j, x in enumerate(canon.values())}
            self.dec_id.append(np.array([ids[id(x)] if x is not None else -1 for x in decs]
                                        or [-1], np.int64))
            ng = len(fss[0].guns)
            tn0 = np.full((len(fss), max(ng, 1), H.AUTO_SHUTDOWN), 99, np.int64)
            for i, fs in enumerate(fss):
                for g, gun in enumerate(fs.guns):
                    tn0[i, g] = gun.tn_uncapped[0, :H.AUTO_SHUTDOWN]
            self.tn0.append(tn0)
            self.mmod.append(np.array([fs.move_mod[:H.AUTO_SHUTDOWN] for fs in fss], np.int64))
            self.nom.append(np.array([TH.target_movement_mod(
                fs.target_hexes, fs.target_jumped, fs.rules.fire_tmm_table) for fs in fss],
                np.int64))
            guns = fss[0].guns
            given = np.zeros(max(ng, 1))
            heat = np.zeros(max(ng, 1), np.int64)
            for g, gun in enumerate(guns):
                dg = gun.damage_given_hit(gun.rate)
                given[g] = float(dg @ np.arange(dg.size))
                heat[g] = gun.heat_of(gun.rate)
            self.given.append(given)
            self.heat_w.append(heat)
            self.diss.append(int(fss[0].dissipation))
            self.expl.append(bool(fss[0].explosive_pools()))
        self.rules = next(iter(scn.a.fire.values())).rules
        self.gclass = [weapon_classes(side) for side in scn.sides]
        #: each side's physical attacks at distance 1 (:func:`melee`)
        self.melee = [melee_of(scn.sides[u], scn.sides[1 - u], scn) for u in range(2)]
        self.melee_key = [melee_key(m) for m in self.melee]
        self.states: dict[int, dict[str, Any]] = {}
        self._mask_memo: dict[tuple[Any, ...], np.ndarray] = {}
        self._ok_memo: dict[tuple[Any, ...], np.ndarray] = {}
        #: the ratio payoff's floor by the turn limit (:func:`rate_floor`)
        self.floor = rate_floor(scn.turns)

    def _reachable(self, reach: np.ndarray, second: bool) -> np.ndarray:
        """:func:`reachable` from every start distance 1..R (the first mover), or from every
        (first mover's mode, distance 0..R) (the second), memoised by the hexes per mode."""
        key = (second, reach.tobytes())
        ok = self._ok_memo.get(key)
        if ok is None:
            R = self.R
            d = (np.broadcast_to(np.arange(R + 1), (4, R + 1)) if second
                 else np.arange(1, R + 1))
            ok = self._ok_memo[key] = reachable(reach, d, R)
        return ok

    @_memo_side
    def _side(self, u: int, su: dict[str, int], st: dict[str, int]
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Unit ``u`` firing at the other, by (A's mode, B's mode, distance 0..R): expected
        damage (at distance 1 with its physical attack, :meth:`_physical`), its heat after
        the heat phase, the damage the heat scale's to-hit penalty at that heat would cost
        the same fire, and the expected damage it does itself (a fall, a charge's or DFA's
        own damage; index 0 and unavailable modes: 0)."""
        R = self.R
        side = self.scn.sides[u]
        hact = min(su["heat"], H.AUTO_SHUTDOWN - 1)
        shape = (4, 4, R + 1)
        dealt, h2, loss = np.zeros(shape), np.zeros(shape, np.int64), np.zeros(shape)
        if not su["act"]:
            h2[:] = max(0, su["heat"] - self.diss[u])
            return dealt, h2, loss, loss.copy()
        hx_u = np.array([0, su["walk"], su["run"], su["jump"]]) * su["mover"]
        hx_t = np.array([0, st["walk"], st["run"], st["jump"]]) * st["mover"]
        mod = np.where(hx_u > 0, np.array([0, 1, 1, 3]), 0)
        if hx_u[2] > su["walk"]:
            mod[2] = 2
        tab = self.rules.fire_tmm_table
        tmm = np.array([TH.target_movement_mod(int(hx_t[m]), m == 3 and hx_t[m] > 0, tab)
                        for m in range(4)])
        if u == 0:          # axes (own mode, target mode) -> (A's, B's)
            own_mod, tgt_tmm = mod[:, None, None], tmm[None, :, None]
        else:
            own_mod, tgt_tmm = mod[None, :, None], tmm[:, None, None]
        sit = self.sit
        ok = sit >= 0
        si = np.where(ok, sit, 0)
        r = np.arange(R + 1)[None, None, :]
        extra = own_mod + tgt_tmm - self.mmod[u][si, hact] - self.nom[u][si]
        if st["prone"]:
            extra = extra + np.where(r <= 1, -2, 1)
        if not st["act"]:
            extra = extra - 4
        if su["prone"]:
            extra = extra + 2
        tn = self.tn0[u][si, :, hact] + extra[..., None]           # (4, 4, R+1, ng)
        gc = self.gclass[u]
        left = np.array([c < 0 or bool((su["guns"] >> int(c)) & 1) for c in gc.tolist()]
                        + [False] * (tn.shape[-1] - gc.size), bool)
        inreach = (tn <= 12) & ok[..., None] & left
        ng = tn.shape[-1]
        weights = (1 << np.arange(ng)).astype(np.int64)
        avail = inreach.astype(np.int64) @ weights
        dec = self.dec[u]
        bits = inreach
        if dec[0] is not None:
            mask = self._masks(u, si, ok & (avail > 0), avail, hact)
            bits = ((mask[..., None] >> np.arange(ng)) & 1).astype(bool)
        p = P_2D6_AT_LEAST[np.clip(tn, 0, 13)]
        dealt = np.sum(p * self.given[u] * bits, axis=-1)
        own = np.zeros(shape)
        if not su["prone"] and R >= 1:
            dealt, own, bits = self._physical(u, su, st, own_mod, tgt_tmm, hx_u, p, bits,
                                              dealt)
        # movement heat by mode (13.2: walk, run by the attacker modifier; jump max(3, MP))
        mheat = np.array([0, H.movement_heat("walk"), H.movement_heat("run" if mod[2] == 2
                                                                      else "walk"), 0])
        if hx_u[3] > 0:
            mheat[3] = H.movement_heat("jump", side.jump if self.rules.jump_heat == "rating"
                                       else int(hx_u[3]))
        mheat = np.where(hx_u > 0, mheat, 0)
        mh = mheat[:, None, None] if u == 0 else mheat[None, :, None]
        h2 = np.maximum(0, su["heat"] + mh + (bits * self.heat_w[u]).sum(axis=-1)
                        - self.diss[u])
        pen = H.TO_HIT[np.minimum(h2, H.AUTO_SHUTDOWN - 1)] - int(H.TO_HIT[hact])
        p2 = P_2D6_AT_LEAST[np.clip(tn + pen[..., None], 0, 13)]
        loss = np.sum((p - p2) * self.given[u] * bits, axis=-1)
        return dealt * ok, h2, loss * ok, own * ok

    def _physical(self, u: int, su: dict[str, int], st: dict[str, int], own_mod: np.ndarray,
                  tgt_tmm: np.ndarray, hx_u: np.ndarray, p: np.ndarray, bits: np.ndarray,
                  dealt: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """At distance 1, the physical attack 'best' would make (:func:`melee`): the
        expected damage dealt (weapons kept and the attack, falls valued), the expected
        damage to itself, and the guns fired (a charge or DFA fires none, a hold keeps its
        arm's weapons silent)."""
        mo = own_mod[..., 0] + 0 * tgt_tmm[..., 0]          # (A's mode, B's mode)
        tt = tgt_tmm[..., 0] + 0 * own_mod[..., 0]
        m = np.arange(4)
        mode = (m[:, None] + 0 * m[None, :]) if u == 0 else (0 * m[:, None] + m[None, :])
        b1 = bits[:, :, 1]
        eg = p[:, :, 1] * self.given[u] * b1
        d1, o1, k1 = melee_memo(self.melee_key[u], self.melee[u], mode, hx_u[mode], mo, tt,
                                int(st["prone"]), int(st["act"]), eg, b1)
        dealt = dealt.copy()
        dealt[:, :, 1] = d1
        own = np.zeros(dealt.shape)
        own[:, :, 1] = o1
        bits = bits.copy()
        bits[:, :, 1] = k1
        return dealt, own, bits

    def _masks(self, u: int, si: np.ndarray, cells: np.ndarray, avail: np.ndarray,
               hact: int) -> np.ndarray:
        """The firing policy's bit mask of the guns fired in each cell (``cells`` True; the
        cell's situation ``si``, its available guns ``avail``, heat level ``hact``), 0
        elsewhere: one Decider call per distinct (Decider, availability); memoised by the
        arguments (states that differ only in what does not change the unit's target
        numbers share their masks)."""
        memo = (u, hact, cells.tobytes(), avail.tobytes())
        got_mask = self._mask_memo.get(memo)
        if got_mask is not None:
            return got_mask
        mask = np.zeros(avail.shape, np.int64)
        self._mask_memo[memo] = mask
        if not cells.any():
            return mask
        ids = self.dec_id[u][si[cells]]
        a = avail[cells]
        code = (ids << int(self.heat_w[u].size)) | a
        uniq, first, inv = np.unique(code, return_index=True, return_inverse=True)
        sits = si[cells][first].tolist()
        dec = self.dec[u]
        got = np.array([dec[s].mask(0, hact, x) for s, x in zip(sits, a[first].tolist(),
                                                                 strict=True)], np.int64)
        mask[cells] = got[inv.reshape(-1)] & a
        return mask

    @_memo_risk
    def _risk(self, u: int, h2: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """P(shutdown), P(ammunition explosion) at heat ``h2`` after the heat phase (13.4)."""
        side = self.scn.sides[u]
        hh = np.minimum(h2, H.HEAT_TOP)
        avoid = np.asarray(H.shutdown_avoid(hh, self.rules.tacops_shutdown, side.piloting))
        p_shut = np.where(h2 >= H.AUTO_SHUTDOWN, 1.0, np.where(
            h2 < H.AUTO_RESTART_BELOW, 0.0,
            1.0 - P_2D6_AT_LEAST[np.clip(avoid, 0, 13)]))
        p_expl = np.zeros(h2.shape)
        if self.expl[u]:
            p_expl = np.where(h2 >= H.AMMO_CHECK_FROM,
                              1.0 - P_2D6_AT_LEAST[np.clip(np.asarray(H.ammo_avoid(hh)), 0,
                                                           13)], 0.0)
        return p_shut, p_expl

    def payoffs(self, s0: dict[str, int], s1: dict[str, int]) -> tuple[np.ndarray, ...]:
        """``(q, dealt_a, dealt_b)``: A's payoff and both sides' expected damage by (A's mode,
        B's mode, distance 1..R) (index 0 unused; unavailable modes: 0)."""
        xa, ha, la, oa = self._side(0, s0, s1)
        xb, hb, lb, ob = self._side(1, s1, s0)
        # a side's damage to itself (physical attacks, falls) counts as the enemy's
        sa, sb = (xa + ob) / self.dur[1], (xb + oa) / self.dur[0]
        sha, exa = self._risk(0, ha)
        shb, exb = self._risk(1, hb)
        if not s0["act"]:
            sha, exa = 0 * sha, 0 * exa
        if not s1["act"]:
            shb, exb = 0 * shb, 0 * exb
        ca = sha * (sa + sb) + exa + la / self.dur[1]
        cb = shb * (sa + sb) + exb + lb / self.dur[0]
        ok = self.sit >= 0
        if PAYOFF == "ratio":
            # the kill race: log of A's rate of destroying B over B's of destroying A (each
            # the share destroyed this turn plus the turn limit's floor); a heat cost c lowers a side's
            # log rate by c / rate (first order)
            ra, rb = sa + self.floor, sb + self.floor
            q = np.log(ra) - ca / ra - np.log(rb) + cb / rb
        else:
            q = sa - sb - ca + cb
        return q * ok, xa, xb

    def _state(self, state: int) -> dict[str, Any]:
        got = self.states.get(state)
        if got is not None:
            return got
        s0, s1 = unpack_state(state)
        q, da, db = self.payoffs(s0, s1)
        ra = reach_of(s0, self.scn.a.jump > 0)
        rb = reach_of(s1, self.scn.b.jump > 0)
        qt = q + future(q, ra, rb, self.R, LOOKAHEAD, self.scn.duel_rules.duel_initiative)[None,
                                                                                      None, :]
        got = {"s": (s0, s1), "q": qt, "da": da, "db": db, "ra": ra, "rb": rb}
        self.states[state] = got
        return got

    def decide(self, key: int) -> int:
        """The packed decision (:func:`pack_value`) of a decision key."""
        d, first_a, state = split_key(key)
        return int(self.table(state)[int(first_a), d])

    def table(self, state: int) -> np.ndarray:
        """``[a_first, d]``: the packed decisions of every key of ``state`` (distances
        1..R, both initiative orders; :meth:`_decisions`), made once."""
        return self._kept_table(state)

    def _kept_table(self, state: int) -> np.ndarray:
        """:meth:`table`'s store: once a state's decisions are made only they are kept
        (``self.tables``, read-only), its payoffs dropped from ``self.states`` (issue 21:
        about 7 KB a state, the memory a filled planner held)."""
        tables = self.__dict__.setdefault("tables", {})
        out: np.ndarray | None = tables.get(state)
        if out is None:
            out = self._decisions(self._state(state))
            out.flags.writeable = False
            tables[state] = out
            self.states.pop(state, None)
        return out

    def weight(self) -> int:
        """Entries this planner holds (its decided states and memos): the size proxy of
        :data:`sim.classic.engine.sampler.COMPILED_WEIGHT`."""
        d = self.__dict__
        return sum(len(d.get(k, ())) for k in ("tables", "states", "_side_memo",
                                               "_risk_memo", "_mask_memo", "_ok_memo"))

    def _decisions(self, g: dict[str, Any]) -> np.ndarray:
        """``[a_first, d]``: the packed decision of every key of a state (distances 1..R,
        both initiative orders). A side playing ``competent`` decides every distance at once
        (:func:`choose`: the first mover over its worst cases, the second mover over every
        move of the first); other tactics one view at a time (:func:`_call`)."""
        R = self.R
        moved = [MODES.index(s.moved) for s in self.scn.sides]
        qs = (g["q"], -g["q"].transpose(1, 0, 2))
        reach, dealt = (g["ra"], g["rb"]), (g["da"], g["db"].transpose(1, 0, 2))
        worst = (worst_case(qs[0], reach[1], R), worst_case(qs[1], reach[0], R))
        tacs = self.scn.tactics
        views: list[dict[str, Any]] = []
        for u in range(2):
            views.append(dict(reach=reach[u], opp_reach=reach[1 - u], q=qs[u], dealt=dealt[u],
                              taken=dealt[1 - u], moved=moved[u], dmax=R, worst=worst[u]))
            if tacs[u].decide is not competent:
                views[u].update(worst_rows=worst[u].tolist(), q_rows=qs[u].tolist())
        ds = np.arange(1, R + 1)
        out = np.zeros((2, R + 1), np.int64)
        d_all = np.broadcast_to(np.arange(R + 1), (4, R + 1))
        both = all(t.decide is competent for t in tacs)
        if both:
            # both initiative orders at once (each slice as :func:`choose` alone): the first
            # mover f's moves, and the second mover 1 - f's reply to every first move
            m1s, d1s = choose(np.stack(worst)[:, None],
                              np.stack([self._reachable(reach[f], False) for f in (0, 1)]), ds)
            m2ts, d2ts = choose(np.stack([qs[1 - f].transpose(1, 0, 2)[:, None]
                                          for f in (0, 1)]),
                                np.stack([self._reachable(reach[1 - f], True) for f in (0, 1)]),
                                d_all)
        for f in (0, 1):
            s = 1 - f
            if both:
                m1, d1 = m1s[f], d1s[f]
            elif tacs[f].decide is competent:
                m1, d1 = choose(worst[f][None], self._reachable(reach[f], False), ds)
            else:
                picks = [_call(tacs[f], View(d=int(d), first=True, opp_mode=-1, **views[f]))
                         for d in ds.tolist()]
                m1 = np.array([p[0] for p in picks], np.int64)
                d1 = np.array([p[1] for p in picks], np.int64)
            if both:
                m2, d2 = m2ts[f][m1, d1], d2ts[f][m1, d1]
            elif tacs[s].decide is competent:
                # the second mover's reply to every first move (mode, distance) at once
                vals = qs[s].transpose(1, 0, 2)[:, None]             # [m1, ., m, nd]
                m2t, d2t = choose(vals, self._reachable(reach[s], True), d_all)
                m2, d2 = m2t[m1, d1], d2t[m1, d1]
            else:
                picks = [_call(tacs[s], View(d=int(b), first=False, opp_mode=int(a),
                                             **views[s]))
                         for a, b in zip(m1.tolist(), d1.tolist(), strict=True)]
                m2 = np.array([p[0] for p in picks], np.int64)
                d2 = np.array([p[1] for p in picks], np.int64)
            ma, mb = (m1, m2) if f == 0 else (m2, m1)
            out[1 - f, 1:] = ma | (mb << 2) | (d1 << 4) | (d2 << 11)
        return out


def _call(t: G.Tactic, v: View) -> tuple[int, int]:
    """A tactic's choice, made legal: an available mode, a reachable distance."""
    assert t.decide is not None
    m, nd = t.decide(v)
    m = int(m)
    if not 0 <= m < 4 or v.reach[m] < 0:
        m = 0
    h = int(v.reach[m])
    return m, int(min(max(int(nd), v.d - h, 1), v.d + h, v.dmax))


def stage(q: np.ndarray, ra: np.ndarray, rb: np.ndarray, R: int, a_first: bool
          ) -> np.ndarray:
    """A's value per start distance of one turn with the final-distance values ``q[ma, mb,
    r]``: the first mover's maximin (A maximises, B minimises), the second's best reply."""
    big = 1e18
    if a_first:
        inner = np.full((4, R + 1), big)       # B's reply to (ma, d1): min
        for mb in range(4):
            if rb[mb] >= 0:
                inner = np.minimum(inner, window(q[:, mb, :], int(rb[mb]), np.minimum, R))
        out = np.full(R + 1, -big)
        for ma in range(4):
            if ra[ma] >= 0:
                out = np.maximum(out, window(inner[ma], int(ra[ma]), np.maximum, R))
        return out
    inner = np.full((4, R + 1), -big)          # A's reply to (mb, d1): max
    for ma in range(4):
        if ra[ma] >= 0:
            inner = np.maximum(inner, window(q[ma, :, :], int(ra[ma]), np.maximum, R))
    out = np.full(R + 1, big)
    for mb in range(4):
        if rb[mb] >= 0:
            out = np.minimum(out, window(inner[mb], int(rb[mb]), np.minimum, R))
    return out


def future(q: np.ndarray, ra: np.ndarray, rb: np.ndarray, R: int, turns: int,
           initiative: str) -> np.ndarray:
    """Value-to-go per final distance: ``turns`` more turns of the same payoffs, each with
    initiative (A first with probability 1/2 under ``roll``), solved backward."""
    p = {"roll": 0.5, "a": 0.0, "b": 1.0}[initiative]   # P(A moves first)
    v = np.zeros(R + 1)
    for _ in range(turns):
        qq = q + v[None, None, :]
        nxt = np.zeros(R + 1)
        if p > 0:
            nxt += p * stage(qq, ra, rb, R, True)
        if p < 1:
            nxt += (1 - p) * stage(qq, ra, rb, R, False)
        nxt[0] = 0.0
        v = nxt
    return v


def situations(free_modes: tuple[tuple[str, ...], tuple[str, ...]], R: int
               ) -> set[tuple[int, str, str]]:
    """Every fire situation a duel with free movement can reach: each distance 1..R, each
    mode of A and of B (jump only with jump jets)."""
    return {(r, ma, mb) for r in range(1, R + 1) for ma in free_modes[0]
            for mb in free_modes[1]}


__all__ = ["COMPETENT", "GAME", "INITIATIVE", "LOOKAHEAD", "MODES", "NAMES", "STAND_AND_FIRE",
           "TAG", "ClassicTactic", "Planner", "View", "brawler", "candidates", "charge",
           "competent", "future", "kite", "make_key", "pack_value", "reach_set", "resolve",
           "roll_off", "sniper", "split_key", "stage", "stand_and_fire", "unpack_value",
           "window", "worst_case"]
