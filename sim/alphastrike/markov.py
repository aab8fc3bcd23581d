"""Exact per-turn curves: a Markov chain over the unit's finite state.

State: heat (0..4, 4 = shut down), engine hits (0..1), fire-control, weapon and MP hits
(each capped where more hits change nothing), damage taken (0..armor+structure-1), alive,
and the "has shut down" flag; destroyed units merge into one state per flag value.

One turn's transition is computed by applying the same rule functions as the Monte Carlo
kernel (:mod:`sim.alphastrike.turn`) to an enumerated outcome grid: every incoming attack
branches into hit / miss with its exact probability, every critical-hit roll into the seven
'Mech table results with their 2D6 probabilities (CASE re-rolls branch again); rows are
merged by state after each step. The unit's own attack roll changes no state, so its
expected damage is P(hit) x damage per state.

For the named policies the transition is the same every turn: the reachable states are
found once, the dense transition matrix ``P`` is built once per scenario (cached), and the
curves are ``T`` vector-matrix products. A callable policy may depend on the turn; its
distribution is then pushed forward turn by turn through the same enumeration (as is any
chain with more than :data:`MAX_STATES` reachable states).
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

import numpy as np

from sim.alphastrike import tables as T
from sim.alphastrike.scenario import HeatScenario
from sim.alphastrike.turn import (
    STATE_KEYS,
    Tables,
    canonical_dead,
    crit,
    decide,
    end_phase,
    incoming_hit,
    initial_state,
    start_turn,
)
from sim.dice import p_2d6_at_least

Layout = tuple[tuple[str, int], ...]

#: Minimum bit layout of a state key (field, bits); ``src`` is appended for transition rows.
#: :func:`layouts` widens the fields a scenario needs wider (many incoming attackers pend
#: more damage in one turn than 8 bits hold), computed up front from its parameters.
_STATE_BITS: Layout = (("heat", 3), ("eng", 2), ("fc", 4), ("wh", 4), ("mp", 4), ("dmg", 7),
                       ("alive", 1), ("ever", 1))
_TURN_BITS: Layout = (("eng", 2), ("fc", 4), ("wh", 4), ("mp", 4), ("pend", 8), ("ht", 4),
                      ("killed", 1))
_SRC_BITS = 24
_KEY_BITS = 64
#: Largest state space the dense matrix is built for.
MAX_STATES = 2500


class TooLarge(OverflowError):
    """The exact computation of a scenario outgrows its limits (more than 2**24 rows in one
    turn, or more than :data:`MAX_STATES` states for the dense matrix). A value outside its
    key field is a bug and raises a plain OverflowError instead."""


def _width(largest: int) -> int:
    return max(1, int(largest).bit_length())


def layouts(scn: HeatScenario) -> tuple[Layout, Layout] | None:
    """The key layouts (state, turn scratch) wide enough for every value ``scn`` can reach,
    or None when they do not fit a 64-bit key with the source index (the exact chain cannot
    hold this scenario; a Monte Carlo run can)."""
    worst_pend = sum(i.hit_dmg for i in scn.incoming)
    if scn.ammo_mode == "case":
        worst_pend += scn.rules.case_damage * scn.structure
    worst_ht = scn.rules.ht_cap + max((i.hit_heat for i in scn.incoming), default=0)
    need = {"fc": scn.fc_cap, "wh": scn.wh_cap, "mp": scn.mp_cap, "dmg": scn.max_damage,
            "pend": scn.max_damage + worst_pend, "ht": worst_ht}
    state = tuple((k, max(b, _width(need.get(k, 0)))) for k, b in _STATE_BITS)
    turn = tuple((k, max(b, _width(need.get(k, 0)))) for k, b in _TURN_BITS)
    if (sum(b for _, b in state) + _SRC_BITS > _KEY_BITS
            or sum(b for _, b in turn) + 1 + _SRC_BITS > _KEY_BITS):
        return None
    return state, turn


def _pack(tu: dict[str, np.ndarray], layout: tuple[tuple[str, int], ...],
          src: np.ndarray | None = None) -> np.ndarray:
    key = np.zeros(tu["heat"].shape[0], dtype=np.uint64)
    shift = 0
    for name, bits in layout:
        v = tu[name].astype(np.int64)
        if v.size and (v.min() < 0 or v.max() >= 1 << bits):  # a state the key cannot hold
            raise OverflowError(f"exact chain: {name} outside its {bits}-bit field")
        key |= v.astype(np.uint64) << np.uint64(shift)
        shift += bits
    if src is not None:
        if src.size and src.max() >= 1 << _SRC_BITS:
            raise TooLarge("exact chain: more source states than the key can hold")
        key |= src.astype(np.uint64) << np.uint64(shift)
    return key


def _take(tu: dict[str, np.ndarray], idx: np.ndarray) -> dict[str, np.ndarray]:
    return {k: v[idx] for k, v in tu.items()}


def _merge(tu: dict[str, np.ndarray], w: np.ndarray, src: np.ndarray, key: np.ndarray
           ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray]:
    """Merge rows with equal keys, adding their weights (drops zero-weight rows first)."""
    keep = w > 0
    if not keep.all():
        tu, w, src, key = _take(tu, keep), w[keep], src[keep], key[keep]
    uk, first, inv = np.unique(key, return_index=True, return_inverse=True)
    if uk.size == key.size:
        return tu, w, src
    return _take(tu, first), np.bincount(inv, weights=w, minlength=uk.size), src[first]


def expand(states: dict[str, np.ndarray], scn: HeatScenario, tab: Tables, turn: int,
           lay: tuple[Layout, Layout] | None = None
           ) -> tuple[np.ndarray, dict[str, np.ndarray], np.ndarray, np.ndarray]:
    """One turn from each of ``m`` states: returns ``(src, next_states, prob, own_damage)``.

    ``src[j]`` is the index of the state row ``j`` came from, ``prob[j]`` its transition
    probability, ``own_damage[i]`` the unit's expected damage dealt this turn from state i.
    """
    state_bits, turn_bits = lay or layouts(scn) or (_STATE_BITS, _TURN_BITS)
    m = states["heat"].shape[0]
    tu = {k: v.copy() for k, v in states.items()}
    dec = decide(tu, scn, turn)
    idx = tab.index(tu)
    p_own = (dec.fired * p_2d6_at_least(tab.tn_weapon[idx])
             + dec.phys * p_2d6_at_least(tab.tn_phys[idx]))
    minimal_ev = 0.0 if dec.minimal is None else 0.5 * dec.minimal   # 0* roll: 1D6 4+ -> 1
    own = p_own * (dec.dmg + minimal_ev)
    start_turn(tu, scn, tab.tmod[idx], dec)
    w = np.ones(m)
    src = np.arange(m)
    for i, inc in enumerate(scn.incoming):
        p_hit = np.where(tu["alive"], p_2d6_at_least(tu["tmod0"] + np.int16(inc.base)), 0.0)
        k = w.size
        tu = {key: np.concatenate([v, v]) for key, v in tu.items()}
        w = np.concatenate([w * p_hit, w * (1.0 - p_hit)])
        src = np.concatenate([src, src])
        hit = np.arange(2 * k) < k
        need = incoming_hit(tu, scn, i, hit)
        while need.any():
            # every row due a roll splits into the seven table results, with their weights
            idx = np.flatnonzero(need)
            rest = np.flatnonzero(~need)
            n_codes = len(T.CRIT_NAMES)
            order = np.concatenate([rest, np.repeat(idx, n_codes)])
            code = np.tile(np.arange(n_codes, dtype=np.uint8), idx.size)
            wmul = np.concatenate([np.ones(rest.size), np.tile(T.CRIT_PROB, idx.size)])
            tu, w, src = _take(tu, order), w[order] * wmul, src[order]
            code = np.concatenate([np.zeros(rest.size, dtype=np.uint8), code])
            need = crit(tu, scn, code, np.arange(order.size) >= rest.size)
            # keep the pending re-roll flags through the merge by packing them in the key
            tu["_need"] = need
            tu, w, src = _merge(tu, w, src, _pack(tu, turn_bits + (("_need", 1),), src))
            need = tu.pop("_need")
        tu["ht"] = np.minimum(tu["ht"], scn.rules.ht_cap).astype(np.uint8)
        tu, w, src = _merge(tu, w, src, _pack(tu, turn_bits, src))
    end_phase(tu, scn)
    canonical_dead(tu)
    nxt = {k: tu[k] for k in STATE_KEYS}
    nxt, w, src = _merge(nxt, w, src, _pack(nxt, state_bits, src))
    return src, nxt, w, own


@dataclass
class Chain:
    """A time-homogeneous chain: reachable states, transition matrix, per-state values."""

    states: dict[str, np.ndarray]
    P: np.ndarray
    own: np.ndarray
    start: int


def build_chain(scn: HeatScenario) -> Chain:
    """Find the reachable states from the start state and build the dense matrix ``P``."""
    lay = layouts(scn)
    if lay is None:
        raise TooLarge("exact chain: the state does not fit a 64-bit key")
    state_bits = lay[0]
    tab = Tables.of(scn)
    s0 = initial_state(scn, 1)
    keys = {int(_pack(s0, state_bits)[0]): 0}
    rows: list[dict[str, np.ndarray]] = [s0]
    frontier = s0
    base = 0
    triples = []
    owns = []
    while frontier["heat"].size:
        src, nxt, w, own = expand(frontier, scn, tab, 1, lay)
        owns.append(own)
        nk = _pack(nxt, state_bits)
        dst = np.empty(nk.size, dtype=np.int64)
        new_rows = []
        for j, k in enumerate(nk.tolist()):
            idx = keys.get(k)
            if idx is None:
                idx = keys[k] = len(keys)
                new_rows.append(j)
            dst[j] = idx
        if len(keys) > MAX_STATES:
            raise TooLarge(f"more than {MAX_STATES} states")
        triples.append((src + base, dst, w))
        base += frontier["heat"].size
        frontier = _take(nxt, np.array(new_rows, dtype=np.int64))
        rows.append(frontier)
    n = len(keys)
    P = np.zeros((n, n))
    for s, d, w in triples:
        np.add.at(P, (s, d), w)
    states = {k: np.concatenate([r[k] for r in rows]) for k in STATE_KEYS}
    return Chain(states, P, np.concatenate(owns), 0)


_CACHE: OrderedDict[HeatScenario, Chain] = OrderedDict()
_CACHE_SIZE = 64


def chain_for(scn: HeatScenario) -> Chain:
    """The cached chain of a time-homogeneous scenario."""
    ch = _CACHE.get(scn)
    if ch is None:
        ch = build_chain(scn)
        _CACHE[scn] = ch
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    else:
        _CACHE.move_to_end(scn)
    return ch


def _observe(states: dict[str, np.ndarray], pi: np.ndarray, out: dict[str, np.ndarray],
             t: int) -> None:
    alive = states["alive"]
    heat = states["heat"].astype(np.int64)
    pa = pi[alive].sum()
    for k in range(5):
        out[f"p_heat_{k}"][t] = pi[alive & (heat == k)].sum()
    out["p_shutdown"][t] = out["p_heat_4"][t]
    out["p_shutdown_by"][t] = pi[states["ever"]].sum()
    out["p_destroyed_by"][t] = pi[~alive].sum()
    out["mean_heat"][t] = (pi[alive] * heat[alive]).sum() / pa if pa > 0 else np.nan


def curves(scn: HeatScenario) -> dict[str, np.ndarray] | None:
    """Exact per-turn metrics (arrays of length T) and per-run metrics (length 1); None when
    the scenario's state does not fit the chain's key (:func:`layouts`: decided up front) or
    a turn branches into more than 2**24 rows (then a Monte Carlo run is the answer)."""
    lay = layouts(scn)
    if lay is None:
        return None
    try:
        return _curves(scn, lay)
    except TooLarge:
        return None


def _curves(scn: HeatScenario, lay: tuple[Layout, Layout]) -> dict[str, np.ndarray]:
    steps = scn.turns
    names = ("p_heat_0", "p_heat_1", "p_heat_2", "p_heat_3", "p_heat_4", "p_shutdown",
             "p_shutdown_by", "p_destroyed_by", "mean_heat", "expected_damage")
    out = {m: np.zeros(steps) for m in names}
    ch = None
    if scn.policy.time_homogeneous:
        try:
            ch = chain_for(scn)
        except TooLarge:   # too many states for a dense matrix: push forward instead
            ch = None
    if ch is not None:
        pi = np.zeros(ch.P.shape[0])
        pi[ch.start] = 1.0
        for t in range(steps):
            out["expected_damage"][t] = pi @ ch.own
            pi = pi @ ch.P
            _observe(ch.states, pi, out, t)
    else:
        tab = Tables.of(scn)
        states = initial_state(scn, 1)
        pi = np.ones(1)
        for t in range(steps):
            src, nxt, w, own = expand(states, scn, tab, t + 1, lay)
            out["expected_damage"][t] = pi @ own
            w = w * pi[src]
            key = _pack(nxt, lay[0])
            uk, first, inv = np.unique(key, return_index=True, return_inverse=True)
            states = _take(nxt, first)
            pi = np.bincount(inv, weights=w, minlength=uk.size).astype(np.float64)
            _observe(states, pi, out, t)
    out["expected_cumulative_damage"] = np.cumsum(out["expected_damage"])
    not_yet = 1.0 - out["p_shutdown_by"]
    out["expected_first_shutdown_turn"] = np.array([1.0 + not_yet.sum()])
    out["p_ever_shutdown"] = out["p_shutdown_by"][-1:].copy()
    out["expected_turns_survived"] = np.array([(1.0 - out["p_destroyed_by"]).sum()])
    return out
