"""Alpha Strike duel tactics (issue 22; reference-as-combat 20.1, 20.5, 20.7, reference 6.1-6.4).

Each turn of a 1-vs-1 duel played with tactics (any side not ``stand-and-fire``):

1. **Initiative** (20.1): 2D6 a side, ties re-rolled (rule option ``initiative``); the loser
   moves first, the winner reacts.
2. **Movement**: each unit picks a mode (ground / still / jump, the order of
   :data:`~sim.alphastrike.duel.sides.MOVED`; a shut-down or immobile unit gets its 20.6
   stance whatever it picks) and a new distance: a move of up to its Move now (ground Move
   after heat and MP hits, or jump Move; 0 standing still) changes the distance by any amount
   in [-Move, +Move] (sideways keeps it), never below 1" (contact) nor beyond the start
   distance (the depth of the field: the units start at its two edges; at most 60", the end of
   Extreme). The band of both attacks is the band of the distance after both moves (20.5).
   With a fixed band or a band script the range is imposed: only the mode is chosen.
3. **Fire**: the OV used (or holding fire) by the tactic's fire rule.

The attack and target modifiers of the chosen modes are the unit's stance tables for that mode
(:attr:`UnitSpec.tmod_m`: TMM if it moved on the ground, 0 standing still, jump TMM + 1 when it
jumped, -4 immobile; own +0 / -1 D20 / +2), read by :func:`sim.alphastrike.duel.turn.attack_tn`.

**Decisions are a table.** A tactic's decision depends only on the *decision key* of a row:
the distance before movement (the band's nearest distance under a fixed band), who moves
first, and each unit's heat, Engine, Fire Control, Weapon and MP hits and Narc flag. The
kernel and the exact chain look decisions up per key (:func:`decisions`: a sorted key array
searched with ``searchsorted``; keys not seen yet are computed together, vectorized, and
added), so a tactic is a deterministic function of the chain's state plus the initiative
outcome and the chain stays exact (its state gains the distance).

**The payoff** of a turn for A, by (A's mode, B's mode, band), is the *kill race*
(:data:`PAYOFF` ``ratio``): ln(r_A + f) - c_A / (r_A + f) - ln(r_B + f) + c_B / (r_B + f),
where r is a side's expected points this turn over the enemy's Armor + Structure (the share
of it destroyed; :data:`WEIGHT`), f = :data:`RATE_FLOOR` and c its heat cost (the first-order
change of its log rate); B's payoff is minus A's. Each side's fire maximizes its share
destroyed minus its heat cost, where ending at heat h' costs, against heat 0 at the same band
and modes, the smaller of :data:`HEAT_TURNS` turns at h' (own share lost + the enemy's share
gained on it) and one cooling turn (a turn's fire at heat 0 forgone + the enemy's gain at
h'): heat stays while a unit keeps firing (6.4); a shutdown (h' = 4: no attack, -4 against
it) lasts one turn. Every expectation is exact, from the same rule functions as the kernel
(TN, P(2D6 >= TN), the points of a hit with the 0* roll and the target's reductions);
nothing is sampled.

**Lookahead.** Under free movement ``competent`` adds to a move's payoff the value-to-go of
the distance both moves leave (:func:`lookahead`): :data:`LOOKAHEAD` more turns of the same
payoffs, each with initiative, maximin and best reply, solved backward over the distance
with the units' state held fixed -- a function of the decision state, computed once per
state, so the table (and the exact chain) stay exact.

Named tactics (:data:`NAMES`), each with its movement rule and fire rule:

* ``competent`` (default): moving first, the move (mode, distance) whose worst case over the
  enemy's replies (mode, distance it can reach from there) is best; moving second, the best
  reply to the first mover's move; each valued by the payoff plus the value-to-go. Fire: the
  value rule above. Ties: the distance nearest the
  band it would pick were the band fixed, then the shortest move, then ground, still, jump.
* ``stand-and-fire``: today's duel: keeps the distance and its fixed stance (``moved_*``) and
  fires by its overheat policy (``policy_*``).
* ``brawler``: closes to contact (1") as fast as it can (ground unless jumping reaches
  further), value fire. Alpha Strike physical attacks are not simulated in the duel: at contact
  it makes its standard attack at Short.
* ``charge``: closes at full Move by its longest move, fires with its full OV every turn.
* ``sniper``: moves on the ground toward the band where its expected points per turn minus
  the enemy's are best (fresh-state stances, both on the ground; ties: the longer band), value
  fire.
* ``kite``: among the bands where it deals damage, the one where the enemy's expected points
  against it are least (ties: more own damage, then the longer band); moves by its longest
  move to the far edge of that band, value fire.

A Python callable ``f(view) -> (mode, distance)`` is a tactic too (value fire): ``view`` is a
:class:`View` over the decision keys; moves beyond the unit's reach are clipped to it.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from sim import tactics as G
from sim.alphastrike.duel.sides import MOVED, UnitSpec
from sim.alphastrike.duel.turn import attack_tn, decide, fire_if_able, hit_points
from sim.alphastrike.heat import end_phase_heat
from sim.dice import d6, p_2d6_at_least, raw_bytes

if TYPE_CHECKING:
    from sim.alphastrike.duel.scenario import DuelScenario

GAME = "alphastrike"
#: Farthest distance of a duel played with tactics: the end of Extreme (20.5).
DMAX = 60
#: Nearest and farthest distance of each band (20.5): Short, Medium, Long, Extreme.
BAND_LO = np.array([1, 7, 25, 43], dtype=np.int64)
BAND_HI = np.array([6, 24, 42, 60], dtype=np.int64)
_EDGES = np.array([6, 24, 42], dtype=np.int64)
#: Mode indices (:data:`MOVED`).
GROUND, STILL, JUMP = MOVED.index("ground"), MOVED.index("still"), MOVED.index("jump")
#: Request code of a side whose fire follows its overheat policy (decided in the turn).
POLICY = -9
_TOL = 1e-9


def band_of(d: np.ndarray) -> np.ndarray:
    """Band index (0 Short .. 3 Extreme) of distances 1..60 (20.5)."""
    return np.searchsorted(_EDGES, d)


@dataclass(frozen=True, eq=False)
class View:
    """What a unit sees when it moves, as arrays over K decision keys.

    ``d``: the distance before its move; ``first``: it moves first; ``reach``/``opp_reach``
    (K, 3): inches it / the enemy can move in each mode (0 with an imposed band);
    ``value`` (K, 3, 3, 4): its payoff by (own mode, enemy mode, band); ``dealt``/``taken``
    (K, 3, 3, 4): its and the enemy's expected points at each; ``opp_mode`` (K,): the first
    mover's mode when it moves second (else None); ``moved``: its fixed stance (mode index);
    ``fixed``: the band is imposed; ``dmax``: the farthest distance (the start distance);
    ``future`` (K, dmax + 1): its value-to-go by the distance after both moves (index = inches;
    :func:`lookahead`; None: this turn only)."""

    d: np.ndarray
    first: bool
    reach: np.ndarray
    opp_reach: np.ndarray
    value: np.ndarray
    dealt: np.ndarray
    taken: np.ndarray
    opp_mode: np.ndarray | None
    moved: int
    fixed: bool
    dmax: int = 60
    future: np.ndarray | None = None


Decide = Callable[[View], tuple[np.ndarray, np.ndarray]]


@dataclass(frozen=True)
class ASTactic(G.Tactic):
    """An Alpha Strike tactic: ``decide(view) -> (mode, distance)`` and its fire rule
    (``value``: expected points minus heat cost; ``max``: full OV; ``policy``: the side's
    overheat policy)."""

    fire: str = "value"


def _lexi(ok: np.ndarray, val: np.ndarray, *ties: np.ndarray) -> np.ndarray:
    """Per row (first axis), the flat index of the candidate (``ok``) with the largest
    ``val`` (within 1e-9), then the smallest of each tie-break in turn (integer arrays)."""
    k = ok.shape[0]
    okf = ok.reshape(k, -1)
    v = np.where(okf, val.reshape(k, -1), -np.inf)
    cand = okf & (v >= v.max(axis=1, keepdims=True) - _TOL)
    comp = np.zeros(okf.shape, dtype=np.int64)
    for t in ties:
        comp = comp * 128 + t.reshape(k, -1)
    comp = np.where(cand, comp, np.iinfo(np.int64).max)
    return np.argmin(comp, axis=1)


def _gap(d: np.ndarray, band: np.ndarray) -> np.ndarray:
    """Inches from distance ``d`` to the nearest distance of ``band``."""
    return np.maximum(np.maximum(BAND_LO[band] - d, d - BAND_HI[band]), 0)


def _fixed_band_pick(v: View) -> np.ndarray:
    """The band the unit would pick were the band fixed: best worst case over the enemy's
    modes (ties: the longer band)."""
    g = v.value.min(axis=2).max(axis=1)                       # (K, 4)
    return 3 - np.argmax(g[:, ::-1] >= g.max(axis=1, keepdims=True)[:, ::-1] - _TOL, axis=1)


def _offsets(v: View) -> np.ndarray:
    r = int(max(v.reach.max(initial=0), 0))
    return np.arange(-r, r + 1, dtype=np.int64)


def _sparse(x: np.ndarray) -> np.ndarray:
    """Sparse table of ``x`` (K, D): (K, J, D), level j holding the minima of ``x`` over the
    windows ``[i, i + 2^j)`` (clipped at the end)."""
    n = x.shape[1]
    levels = [x]
    while 2 ** len(levels) <= n:
        w = 2 ** (len(levels) - 1)
        prev = levels[-1]
        nxt = prev.copy()
        nxt[:, :n - w] = np.minimum(prev[:, :n - w], prev[:, w:])
        levels.append(nxt)
    return np.stack(levels, axis=1)


def _query(table: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Per row k, the minimum of the tabled ``x[k, lo:hi + 1]`` (``lo``, ``hi``: index arrays
    of shape (K, ...)); ``+inf`` where ``lo > hi``."""
    k, _, n = table.shape
    flat = table.reshape(k, -1)
    ok = lo <= hi
    span = np.where(ok, hi - lo + 1, 1)
    j = np.floor(np.log2(span)).astype(np.int64)
    i1 = (j * n + np.where(ok, lo, 0)).reshape(k, -1)
    i2 = (j * n + np.where(ok, hi - (1 << j) + 1, 0)).reshape(k, -1)
    m = np.minimum(np.take_along_axis(flat, i1, axis=1), np.take_along_axis(flat, i2, axis=1))
    return np.where(ok, m.reshape(lo.shape), np.inf)


def _range_min(x: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Per row of ``x`` (K, D), the minimum of ``x[k, lo:hi + 1]`` (``+inf`` where
    ``lo > hi``)."""
    return _query(_sparse(x), lo, hi)


def worst_reply(value: np.ndarray, future: np.ndarray | None, opp_reach: np.ndarray,
                d1: np.ndarray, dmax: int) -> np.ndarray:
    """(K, 3, *S): for each own mode and each distance ``d1`` (K, *S) after the own move, the
    worst over the enemy's replies -- a mode and any distance ``d2`` within its reach of
    ``d1`` -- of ``value[own mode, enemy mode, band(d2)] + future[d2]``. ``value``
    (K, 3, 3, 4); ``future`` (K, dmax + 1) or None (this turn only); ``opp_reach`` (K, 3)."""
    k = value.shape[0]
    tail = (1,) * (d1.ndim - 1)
    table = _sparse(np.zeros((k, dmax + 1)) if future is None else future)
    out = np.full((k, 3, *d1.shape[1:]), np.inf)
    for om in range(3):
        r = opp_reach[:, om].reshape(k, *tail)
        lo = np.clip(d1 - r, 1, dmax)
        hi = np.clip(d1 + r, 1, dmax)
        for b in range(4):
            blo, bhi = np.maximum(lo, BAND_LO[b]), np.minimum(hi, BAND_HI[b])
            f = _query(table, blo, bhi)                                # (K, *S)
            val = value[:, :, om, b].reshape(k, 3, *tail) + f[:, None]
            out = np.minimum(out, val)
    return out


def competent(v: View) -> tuple[np.ndarray, np.ndarray]:
    """Moving first: maximin over the enemy's replies; moving second: the best reply. A
    move's value is this turn's payoff plus the value-to-go of the distance it leaves
    (``v.future``, :func:`lookahead`)."""
    k = v.d.shape[0]
    o = _offsets(v)
    d1 = np.clip(v.d[:, None] + o[None, :], 1, v.dmax)                     # (K, O)
    ok = np.abs(o)[None, None, :] <= v.reach[:, :, None]                   # (K, 3, O)
    pref = _fixed_band_pick(v)
    gap = _gap(d1, pref[:, None])                                          # (K, O)
    ties = (np.broadcast_to(gap[:, None, :], ok.shape),
            np.broadcast_to(np.abs(o)[None, None, :], ok.shape),
            np.broadcast_to(np.arange(3)[None, :, None], ok.shape))
    if v.opp_mode is None:
        worst = worst_reply(v.value, v.future, v.opp_reach, d1, v.dmax)      # (K, 3, O)
    else:
        own = v.value[np.arange(k), :, v.opp_mode, :]                      # (K, 3, 4)
        worst = np.take_along_axis(own, np.broadcast_to(band_of(d1)[:, None, :],
                                                        (k, 3, o.size)), axis=2)
        if v.future is not None:
            worst = worst + np.take_along_axis(v.future, d1, axis=1)[:, None, :]
    flat = _lexi(ok, worst, *ties)
    mode, oi = np.divmod(flat, o.size)
    return mode, d1[np.arange(k), oi]


#: Turns after this one that ``competent`` values (:func:`lookahead`).
LOOKAHEAD = 6


def lookahead(value: np.ndarray, reach_a: np.ndarray, reach_b: np.ndarray, dmax: int,
              p_first: float, turns: int = LOOKAHEAD) -> np.ndarray:
    """A's value-to-go (G, dmax + 1) by the distance after this turn's moves, for G states
    (``value`` (G, 3, 3, 4): A's payoff by (A's mode, B's mode, band); ``reach_*`` (G, 3)):
    ``turns`` more turns of the same payoffs, each with initiative (A moves first with
    ``p_first``), the first mover's maximin move and the second mover's best reply, both
    valuing what they leave by the turns after (backward induction over the distance; the
    units' state is held fixed, so the table stays a function of the decision key)."""
    g = value.shape[0]
    grid = np.broadcast_to(np.arange(1, dmax + 1), (g, dmax))
    vb = -value.transpose(0, 2, 1, 3)
    fut = np.zeros((g, dmax + 1))
    for _ in range(turns):
        new = np.zeros((g, dmax + 1))
        for weight, val, fu, r_me, r_opp, sign in ((p_first, value, fut, reach_a, reach_b, 1.0),
                                                   (1.0 - p_first, vb, -fut, reach_b, reach_a,
                                                    -1.0)):
            if weight == 0.0:
                continue
            worst = worst_reply(val, fu, r_opp, grid, dmax)              # (G, 3, D)
            best = np.full((g, dmax), -np.inf)
            for m in range(3):
                r = r_me[:, m:m + 1]
                lo, hi = np.clip(grid - r, 1, dmax) - 1, np.clip(grid + r, 1, dmax) - 1
                best = np.maximum(best, -_range_min(-worst[:, m], lo, hi))
            new[:, 1:] += weight * sign * best
        fut = new
    return fut


def stand_and_fire(v: View) -> tuple[np.ndarray, np.ndarray]:
    """Keep the distance and the fixed stance."""
    return np.full(v.d.shape, v.moved, dtype=np.int64), v.d.copy()


def _longest(v: View) -> np.ndarray:
    return np.where(v.reach[:, JUMP] > v.reach[:, GROUND], JUMP, GROUND)


def _toward(v: View, mode: np.ndarray, target: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r = v.reach[np.arange(v.d.shape[0]), mode]
    return mode, np.clip(target, np.maximum(v.d - r, 1), np.minimum(v.d + r, v.dmax))


def brawler(v: View) -> tuple[np.ndarray, np.ndarray]:
    """Close to contact as fast as possible."""
    return _toward(v, _longest(v), np.ones_like(v.d))


def _net_band(v: View) -> np.ndarray:
    net = v.dealt[:, GROUND, GROUND, :3] - v.taken[:, GROUND, GROUND, :3]
    return 2 - np.argmax(net[:, ::-1] >= net.max(axis=1, keepdims=True)[:, ::-1] - _TOL, axis=1)


def sniper(v: View) -> tuple[np.ndarray, np.ndarray]:
    """Move on the ground toward the band of best expected net damage."""
    b = _net_band(v)
    target = np.clip(v.d, BAND_LO[b], BAND_HI[b])
    return _toward(v, np.full(v.d.shape, GROUND, dtype=np.int64), target)


def kite(v: View) -> tuple[np.ndarray, np.ndarray]:
    """Hold the far edge of the band where the enemy hurts it least while it still deals
    damage (the net band when it deals none)."""
    dealt = v.dealt[:, GROUND, GROUND, :3]
    taken = v.taken[:, GROUND, GROUND, :3]
    score = np.where(dealt > _TOL, -taken, -np.inf)
    # ties: more own damage, then the longer band
    key = np.where(dealt > _TOL, -taken * 1e6 + dealt, -np.inf)
    b = 2 - np.argmax(key[:, ::-1], axis=1)
    b = np.where(np.isfinite(score).any(axis=1), b, _net_band(v))
    return _toward(v, _longest(v), BAND_HI[b])


def _declare(name: str, description: str, fn: Decide, fire: str = "value") -> ASTactic:
    return G.register(GAME, ASTactic(name, description, fn, fire))  # type: ignore[return-value]


COMPETENT = _declare("competent", "first mover: the move whose worst case over the enemy's "
                     "replies is best; second mover: the best reply; fire: expected points "
                     "minus heat cost", competent)
STAND_AND_FIRE = _declare("stand-and-fire", "keeps the distance and its fixed stance "
                          "(moved_*), fires by its overheat policy (policy_*)", stand_and_fire,
                          fire="policy")
BRAWLER = _declare("brawler", "closes to contact as fast as it can; fire: expected points "
                   "minus heat cost", brawler)
SNIPER = _declare("sniper", "moves on the ground toward the band of best expected damage "
                  "dealt minus taken; fire: expected points minus heat cost", sniper)
KITE = _declare("kite", "holds the far edge of the band where the enemy hurts it least "
                "while it still deals damage; fire: expected points minus heat cost", kite)
CHARGE = _declare("charge", "closes at full Move by its longest move and fires with its full "
                  "OV every turn", brawler, fire="max")
#: The named tactics, in order.
NAMES = G.named(GAME)


def resolve(value: Any, field: str) -> ASTactic:
    """A tactic from a name, an :class:`ASTactic` or a callable ``f(view) -> (mode, d)``."""
    def wrap(fn: Callable[..., Any]) -> G.Tactic:
        return ASTactic(getattr(fn, "__name__", "callable"), "a Python callable", fn)

    t = G.resolve(GAME, value, field, wrap)
    if not isinstance(t, ASTactic):
        t = ASTactic(t.name, t.description, t.decide)
    return t


# -- initiative ---------------------------------------------------------------------------

def a_moves_first(rng: np.random.Generator, n: int, rule: str) -> np.ndarray:
    """Per duel, whether side A moves first (it lost the initiative, 20.1): ``roll`` = 2D6
    a side, ties re-rolled; ``a`` / ``b``: that side always wins. The roll-off is symmetric
    and its ties are re-rolled, so A loses it with probability exactly 1/2: the kernel draws
    that outcome as one fair random bit per duel (the low bit of a raw byte) rather than
    rolling the dice (:func:`roll_off` rolls them; a test checks they agree)."""
    if rule == "a":
        return np.zeros(n, dtype=bool)
    if rule == "b":
        return np.ones(n, dtype=bool)
    return (raw_bytes(rng, n) & np.uint8(1)).astype(bool)


def roll_off(rng: np.random.Generator, n: int) -> np.ndarray:
    """The initiative roll-off itself (20.1): 2D6 a side, ties re-rolled; True where A's
    total is lower (A moves first)."""
    out = np.zeros(n, dtype=bool)
    rows = np.arange(n)
    while rows.size:
        ra = d6(rng, rows.size).astype(np.int16) + d6(rng, rows.size)
        rb = d6(rng, rows.size).astype(np.int16) + d6(rng, rows.size)
        out[rows] = ra < rb
        rows = rows[ra == rb]
    return out


def p_a_moves_first(rule: str) -> float:
    """P(A moves first): 1/2 when rolled (re-rolled ties make it symmetric)."""
    return {"roll": 0.5, "a": 0.0, "b": 1.0}[rule]


# -- payoffs ------------------------------------------------------------------------------

def _expected(u: UnitSpec, su: dict[str, np.ndarray], t: UnitSpec, st: dict[str, np.ndarray],
              band: np.ndarray, req: np.ndarray | None, scn: DuelScenario
              ) -> tuple[np.ndarray, np.ndarray]:
    """Expected points of ``u``'s standard attack on ``t`` with OV request ``req`` (None:
    the unit's policy), and the unit's heat after this End Phase (no incoming HT)."""
    dec = decide(u, su, band, 1, scn.dr, scn.asr, req=req)
    tn = attack_tn(u, su, t, st, band, scn.dr)
    fire_if_able(dec, tn <= 12)
    p = p_2d6_at_least(tn) * dec.fired
    pts = hit_points(u, dec, t, st, None, scn.dr, band).astype(np.float64)
    if dec.minimal.any():
        pts1 = hit_points(u, dec, t, st, dec.minimal, scn.dr, band)
        pts = np.where(dec.minimal, 0.5 * (pts + pts1), pts)
    if u.ht != (0, 0, 0, 0) and not t.has_heat:
        pts = pts + np.array(u.ht, dtype=np.float64)[band]
    if u.has_heat:
        eng = np.zeros_like(su["eng"]) if u.ee else su["eng"]
        heat = end_phase_heat(su["heat"], dec.fired, dec.ov, eng,
                              np.zeros_like(su["heat"]), u.water_depth, scn.asr)
    else:
        heat = np.zeros_like(su["heat"])
    return p * pts, heat


def _tile(s: dict[str, np.ndarray], k: int) -> dict[str, np.ndarray]:
    return {n: np.tile(v, k) for n, v in s.items()}


def _side_fire(u: UnitSpec, su: dict[str, np.ndarray], t: UnitSpec, st: dict[str, np.ndarray],
               band: np.ndarray, fire: str, scn: DuelScenario, w_out: Any = 1.0,
               w_in: Any = 1.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(value, expected points, request) of ``u``'s fire at every flattened row: the
    request by its fire rule, the value = points - heat cost. Every heat level and every
    option is one stacked evaluation."""
    n = su["heat"].shape[0]
    hot = _tile(su, 5)
    hot["heat"] = np.repeat(np.arange(5, dtype=np.uint8), n)
    st5, band5, zero5 = _tile(st, 5), np.tile(band, 5), np.zeros(5 * n, dtype=np.int16)
    own = _expected(u, hot, t, st5, band5, zero5, scn)[0].reshape(5, n)
    inc = _expected(t, st5, u, hot, band5, zero5, scn)[0].reshape(5, n)
    one = w_out * (own[0] - own) + w_in * (inc - inc[0])              # (5, N): one turn
    # heat stays while the unit keeps firing (6.4): it costs a turn at that heat for each of
    # the HEAT_TURNS turns ahead, or the turn it holds fire to cool (a turn's points at heat 0
    # forgone, the turn's penalty taken), whichever is less; a shutdown lasts one turn
    cost = np.minimum(HEAT_TURNS * one, w_out * own[0] + w_in * (inc - inc[0]))
    cost[0], cost[4] = 0.0, one[4]
    cols = np.arange(n)
    if fire == "value":
        options = list(range(0, u.ov + 1)) + [-1]
    elif fire == "max":
        options = [u.ov]
    else:
        options = [POLICY]
    k = len(options)
    req = None if fire == "policy" else np.repeat(np.asarray(options, dtype=np.int16), n)
    pts, heat = _expected(u, _tile(su, k), t, _tile(st, k), np.tile(band, k), req, scn)
    pts, heat = pts.reshape(k, n), heat.reshape(k, n).astype(np.int64)
    v = w_out * pts - cost[heat, cols[None, :]]
    best = np.argmax(v >= v.max(axis=0, keepdims=True) - _TOL, axis=0)
    return v[best, cols], pts[best, cols], np.asarray(options, dtype=np.int16)[best]


_KEY_FIELDS = (("heat", 3), ("eng", 2), ("fc", 4), ("wh", 4), ("mp", 4), ("narced", 1))
_KEY_SHIFTS = tuple((name, sum(b for _, b in _KEY_FIELDS[:i]))
                    for i, (name, _) in enumerate(_KEY_FIELDS))


def key_of(d: np.ndarray, first_a: np.ndarray, sa: dict[str, np.ndarray],
           sb: dict[str, np.ndarray]) -> np.ndarray:
    """The decision key of each row (:mod:`module docstring <sim.alphastrike.duel.tactics>`)."""
    half = []
    for s in (sa, sb):      # 18 bits a unit; every field below its cap (fc <= 15, wh <= 15)
        h = s["heat"].astype(np.uint32)
        for name, shift in _KEY_SHIFTS[1:]:
            h |= s[name].astype(np.uint32) << np.uint32(shift)
        half.append(h)
    key = (d.astype(np.uint64) | (first_a.astype(np.uint64) << np.uint64(6))
           | (half[0].astype(np.uint64) << np.uint64(7))
           | (half[1].astype(np.uint64) << np.uint64(25)))
    return key


def _unkey(key: np.ndarray) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray],
                                     dict[str, np.ndarray]]:
    d = (key & np.uint64(63)).astype(np.int64)
    first_a = ((key >> np.uint64(6)) & np.uint64(1)).astype(bool)
    shift = 7
    sides = []
    for _ in range(2):
        s: dict[str, np.ndarray] = {}
        for name, bits in _KEY_FIELDS:
            v = (key >> np.uint64(shift)) & np.uint64((1 << bits) - 1)
            s[name] = v.astype(bool) if name == "narced" else v.astype(np.uint8)
            shift += bits
        s["alive"] = np.ones(key.shape[0], dtype=bool)
        s["dmg"] = np.zeros(key.shape[0], dtype=np.uint8)
        sides.append(s)
    return d, first_a, sides[0], sides[1]


#: The movement payoff: ``net`` (share dealt minus share taken) or ``ratio`` (log of the
#: rates of destruction, A's over B's).

PAYOFF = "ratio"
#: Floor added to each rate in the ``ratio`` payoff (share of the enemy per turn).
RATE_FLOOR = 0.05
#: Turns a heat level is expected to last when the unit keeps firing (the heat cost).
HEAT_TURNS = 3
#: How a point of damage is weighed in the payoff: ``points`` (a point is a point) or
#: ``share`` (a point dealt to a unit weighs 1 / its Armor + Structure: the share of it
#: destroyed).
WEIGHT = "share"


def _weights(u: UnitSpec, s: dict[str, np.ndarray]) -> Any:
    """Weight of a point of damage dealt to ``u`` (:data:`WEIGHT`)."""
    if WEIGHT == "points":
        return 1.0
    return 1.0 / max(u.total, 1)


def _compute(scn: DuelScenario, keys: np.ndarray) -> dict[str, np.ndarray]:
    """Decisions of both sides for the decision keys ``keys`` (vectorized)."""
    ua, ub = scn.a.units[0], scn.b.units[0]
    ta, tb = scn.tactics
    d, first_a, sa, sb = _unkey(keys)
    k = keys.shape[0]
    # the payoff tables depend on the units' state only (not on the distance or who moves
    # first): computed once per state (the key without its low 7 bits), then spread
    _, one, inv = np.unique(keys >> np.uint64(7), return_index=True, return_inverse=True)
    inv = inv.reshape(-1)
    g = one.size
    rep = 36
    fa = {n: np.repeat(v[one], rep) for n, v in sa.items()}
    fb = {n: np.repeat(v[one], rep) for n, v in sb.items()}
    grid = np.arange(rep)
    fa["mode"] = np.tile(grid // 12, g).astype(np.uint8)
    fb["mode"] = np.tile((grid // 4) % 3, g).astype(np.uint8)
    band = np.tile(grid % 4, g)
    wa, wb = _weights(ua, fa), _weights(ub, fb)
    va, pa, ra = _side_fire(ua, fa, ub, fb, band, ta.fire, scn, wb, wa)
    vb, pb, rb = _side_fire(ub, fb, ua, fa, band, tb.fire, scn, wa, wb)
    shape = (g, 3, 3, 4)
    if PAYOFF == "ratio":
        # the kill race: A's rate of destroying B over B's rate of destroying A, in logs
        # (each rate the expected share destroyed this turn plus RATE_FLOOR); each side's
        # heat cost c lowers its log rate by c / rate (the first-order change)
        ra_, rb_ = wb * pa + RATE_FLOOR, wa * pb + RATE_FLOOR
        ca, cb = wb * pa - va, wa * pb - vb
        value_a = (np.log(ra_) - ca / ra_ - np.log(rb_) + cb / rb_).reshape(shape)
    else:
        value_a = (va - vb).reshape(shape)
    value_a = value_a[inv]
    pa, pb = pa.reshape(shape)[inv], pb.reshape(shape)[inv]
    ra, rb = ra.reshape(shape)[inv], rb.reshape(shape)[inv]

    def reach(u: UnitSpec, s: dict[str, np.ndarray]) -> np.ndarray:
        if not scn.free:
            return np.zeros((k, 3), dtype=np.int64)
        p = (s["heat"].astype(np.int64) + 5 * s["mp"].astype(np.int64))
        mv = np.asarray(u.move_m, dtype=np.int64)
        return np.stack([mv[m * u.n_profiles + p] for m in range(3)], axis=1)

    reach_a, reach_b = reach(ua, sa), reach(ub, sb)
    future = None
    if scn.free and LOOKAHEAD > 0:
        # the value-to-go too depends on the state only: once per state
        future = lookahead(value_a[one], reach_a[one], reach_b[one], scn.start_distance,
                           p_a_moves_first(scn.dr.initiative))[inv]
    views = {
        "a": dict(reach=reach_a, opp_reach=reach_b, value=value_a, dealt=pa, taken=pb,
                  moved=MOVED.index(ua.moved), future=future),
        "b": dict(reach=reach_b, opp_reach=reach_a, value=-value_a.transpose(0, 2, 1, 3),
                  dealt=pb.transpose(0, 2, 1, 3), taken=pa.transpose(0, 2, 1, 3),
                  moved=MOVED.index(ub.moved), future=None if future is None else -future),
    }
    mode = {"a": np.zeros(k, dtype=np.int64), "b": np.zeros(k, dtype=np.int64)}
    dist = d.copy()
    for first, second, rows in (("a", "b", np.flatnonzero(first_a)),
                                ("b", "a", np.flatnonzero(~first_a))):
        if rows.size == 0:
            continue
        tac = {"a": ta, "b": tb}
        m1, d1 = _move(tac[first], views[first], rows, d[rows], True, None, scn)
        m2, d2 = _move(tac[second], views[second], rows, d1, False, m1, scn)
        mode[first][rows], mode[second][rows], dist[rows] = m1, m2, d2
    if scn.closing:  # the closing policy moved them, each in its fixed stance: fire only
        mode["a"][:], mode["b"][:] = MOVED.index(ua.moved), MOVED.index(ub.moved)
    b = band_of(dist)
    idx = np.arange(k)
    return {"mode_a": mode["a"].astype(np.uint8), "mode_b": mode["b"].astype(np.uint8),
            "dist": dist.astype(np.int16), "band": b.astype(np.int64),
            "req_a": ra[idx, mode["a"], mode["b"], b], "req_b": rb[idx, mode["a"], mode["b"], b]}


def _move(tac: ASTactic, view: dict[str, Any], rows: np.ndarray, d: np.ndarray, first: bool,
          opp_mode: np.ndarray | None, scn: DuelScenario) -> tuple[np.ndarray, np.ndarray]:
    dmax = scn.start_distance if scn.free else DMAX
    v = View(d=d, first=first, reach=view["reach"][rows], opp_reach=view["opp_reach"][rows],
             value=view["value"][rows], dealt=view["dealt"][rows], taken=view["taken"][rows],
             opp_mode=opp_mode, moved=view["moved"], fixed=not scn.free, dmax=dmax,
             future=None if view["future"] is None else view["future"][rows])
    assert tac.decide is not None
    mode, nd = tac.decide(v)
    mode = np.clip(np.broadcast_to(np.asarray(mode, dtype=np.int64), d.shape), 0, 2)
    r = v.reach[np.arange(d.shape[0]), mode]
    nd = np.clip(np.broadcast_to(np.asarray(nd, dtype=np.int64), d.shape),
                 np.maximum(d - r, 1), np.minimum(d + r, dmax))
    return mode, nd


def _whole_states(keys: np.ndarray, dmax: int, known: np.ndarray) -> np.ndarray:
    """``keys`` with every distance 1..``dmax`` and both initiative orders of their states
    (the low 7 bits of a key), less those already ``known`` (sorted)."""
    states = np.unique(keys >> np.uint64(7)) << np.uint64(7)
    low = (np.arange(1, dmax + 1, dtype=np.uint64)[None, :]
           | (np.arange(2, dtype=np.uint64)[:, None] << np.uint64(6))).reshape(-1)
    full = np.unique((states[:, None] | low[None, :]).reshape(-1))
    if known.size:
        pos = np.minimum(np.searchsorted(known, full), known.size - 1)
        full = full[known[pos] != full]
    return full


class _Table:
    """Decisions by key: sorted keys and the decision arrays in the same order."""

    def __init__(self, dmax: int = 0) -> None:
        self.keys = np.zeros(0, dtype=np.uint64)
        self.vals: dict[str, np.ndarray] = {}
        #: free movement: every state holds all 2 x dmax keys (:func:`_whole_states`), so a
        #: key's row is its state's block plus (first, distance): a search over the states
        self.dmax = dmax
        self.states = np.zeros(0, dtype=np.uint64)

    def _lookup_states(self, scn: DuelScenario, key: np.ndarray) -> dict[str, np.ndarray]:
        state = key >> np.uint64(7)
        n = self.dmax
        gpos = np.searchsorted(self.states, state)
        found = gpos < self.states.size
        found[found] = self.states[gpos[found]] == state[found]
        if not found.all():
            new = _whole_states(key[~found], n, self.keys)
            got = _compute(scn, new)
            keys = np.concatenate([self.keys, new])
            order = np.argsort(keys, kind="stable")
            self.keys = keys[order]
            self.vals = {k: (np.concatenate([self.vals[k], got[k]]) if self.vals
                             else got[k])[order] for k in got}
            self.states = self.keys[::2 * n] >> np.uint64(7)
            gpos = np.searchsorted(self.states, state)
        low = (key & np.uint64(127)).astype(np.int64)
        pos = gpos * (2 * n) + (low >> 6) * n + (low & 63) - 1
        return {k: v[pos] for k, v in self.vals.items()}

    def lookup(self, scn: DuelScenario, key: np.ndarray) -> dict[str, np.ndarray]:
        if self.dmax:
            return self._lookup_states(scn, key)
        pos = np.searchsorted(self.keys, key)
        found = pos < self.keys.size
        found[found] = self.keys[pos[found]] == key[found]
        if not found.all():
            new = np.unique(key[~found])
            got = _compute(scn, new)
            keys = np.concatenate([self.keys, new])
            order = np.argsort(keys, kind="stable")
            self.keys = keys[order]
            self.vals = {n: (np.concatenate([self.vals[n], got[n]]) if self.vals else got[n])[order]
                         for n in got}
            pos = np.searchsorted(self.keys, key)
        return {n: v[pos] for n, v in self.vals.items()}


_TABLES: OrderedDict[Any, _Table] = OrderedDict()


def decisions(scn: DuelScenario, d: np.ndarray, first_a: np.ndarray,
              sa: dict[str, np.ndarray], sb: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Both sides' decisions per row: ``mode_a``, ``mode_b``, ``dist`` (after movement),
    ``band``, ``req_a``, ``req_b`` (OV requests; :data:`POLICY`: by the side's policy).
    ``d``: distances before movement (under an imposed band: that band's nearest distance)."""
    table = _TABLES.get(scn)
    if table is None:
        table = _TABLES[scn] = _Table(scn.start_distance if scn.free else 0)
        if len(_TABLES) > 64:
            _TABLES.popitem(last=False)
        table.lookup(scn, _undamaged_keys(scn))
    return table.lookup(scn, key_of(d, first_a, sa, sb))


def _undamaged_keys(scn: DuelScenario) -> np.ndarray:
    """Every decision key without crits or Narc: each distance (or the imposed bands), who
    moves first, each heat pair -- the table is built with them at once."""
    if scn.free:
        ds = np.arange(1, scn.start_distance + 1)
    else:
        ds = np.array(sorted({band_distance(b) for b in scn.bands}))
    grid = np.stack(np.meshgrid(ds, [0, 1], np.arange(5), np.arange(5), indexing="ij"),
                    axis=-1).reshape(-1, 4)
    m = grid.shape[0]

    def st(h: np.ndarray) -> dict[str, np.ndarray]:
        z = np.zeros(m, dtype=np.uint8)
        return {"heat": h.astype(np.uint8), "eng": z, "fc": z, "wh": z, "mp": z,
                "narced": np.zeros(m, dtype=bool)}

    return np.unique(key_of(grid[:, 0], grid[:, 1].astype(bool), st(grid[:, 2]),
                            st(grid[:, 3])))


def band_distance(band: int) -> int:
    """The distance a turn at an imposed band is played at (its nearest distance)."""
    return int(BAND_LO[band])


__all__ = ["BAND_HI", "BAND_LO", "BRAWLER", "CHARGE", "COMPETENT", "DMAX", "KITE", "NAMES",
           "POLICY", "SNIPER", "STAND_AND_FIRE", "ASTactic", "View", "a_moves_first",
           "band_distance", "band_of", "decisions", "key_of", "p_a_moves_first", "resolve"]
