"""Exact duel results: an absorbing Markov chain over the joint state of a 1-vs-1 duel.

Joint state: for each unit heat (0..4), Engine / Fire Control / Weapon / MP hits (each
saturating where more hits change nothing), damage taken, the Narc flag, the ARM flag and the
"has shut down" flag; plus the distance under a closing policy. Both alive: the fight goes on;
any destruction is absorbed and booked in that turn's outcome.

The distribution over states is pushed forward turn by turn with the same rule functions as
the Monte Carlo kernel (:mod:`sim.alphastrike.duel.turn`), on an enumerated outcome grid:
every Narc and attack roll branches into hit / miss with its exact 2D6 probability (a 0* hit
further into 1D6 4+ or not), every crit roll into the seven results with their probabilities
(CR/IRA applied), CASE and 20.3-item-5 re-rolls branch again; rows with equal states merge
after each step. Probabilities are float64 sums of exact products (no sampling).

Bound: when more than :data:`MAX_STATES` joint states are alive after a step, :func:`exact`
returns None (the caller says so and uses Monte Carlo). Force fights (more than one unit on
a side) are not enumerated.
"""

from __future__ import annotations

from collections import OrderedDict

import numpy as np

from sim.alphastrike.duel.scenario import BAND_EDGES, DuelScenario, move_distance
from sim.alphastrike.duel.sides import UnitSpec
from sim.alphastrike.duel.tactics import band_distance, decisions, p_a_moves_first
from sim.alphastrike.duel.turn import (
    attack_tn,
    can_narc,
    crit,
    decide,
    end_phase,
    fire_if_able,
    hit_points,
    initial_state,
    profile,
    receive,
    start_turn,
)
from sim.dice import p_2d6_at_least

#: Largest number of joint states alive after any step that the exact chain enumerates.
#: Every 1-vs-1 of catalog 'Mechs without crits fits (at most (A+S)^2 = 400 states); with crits
#: most do (see tests/duel). Beyond it the model uses Monte Carlo.
MAX_STATES = 60_000

_FIELDS = (("heat", 3), ("eng", 2), ("fc", 4), ("wh", 4), ("mp", 4), ("dmg", 7),
           ("narced", 1), ("arm", 1), ("ever", 1), ("rhs", 1), ("ecs", 1))
_CACHE: OrderedDict[DuelScenario, dict[str, np.ndarray] | None] = OrderedDict()
_CACHE_SIZE = 64


class TooLarge(Exception):
    """The chain outgrew :data:`MAX_STATES`."""


class _Rows:
    """The weighted rows of the chain: per-unit state dicts, weights, distances, scratch."""

    def __init__(self, a: dict[str, np.ndarray], b: dict[str, np.ndarray], w: np.ndarray,
                 dist: np.ndarray | None) -> None:
        self.a, self.b, self.w, self.dist = a, b, w, dist
        self.x: dict[str, np.ndarray] = {}     # per-row scratch (decisions, hits, points)

    def take(self, idx: np.ndarray, wmul: np.ndarray | None = None) -> None:
        self.a = {k: v[idx] for k, v in self.a.items()}
        self.b = {k: v[idx] for k, v in self.b.items()}
        self.x = {k: v[idx] for k, v in self.x.items()}
        self.w = self.w[idx] if wmul is None else self.w[idx] * wmul
        if self.dist is not None:
            self.dist = self.dist[idx]

    def split(self, probs: list[np.ndarray]) -> np.ndarray:
        """Copy every row once per branch, weighting copy c by ``probs[c]``; drops zero-weight
        copies; returns the branch number of each new row."""
        m = self.w.size
        k = len(probs)
        wm = np.empty((k, m))
        for c, p in enumerate(probs):
            wm[c] = p
        br, idx = np.nonzero(wm > 0)          # only the copies that carry weight
        self.take(idx, wm[br, idx])
        return br

    def key(self) -> np.ndarray:
        key = np.zeros(self.w.size, dtype=np.uint64)
        shift = 0
        for side in (self.a, self.b):
            for name, bits in _FIELDS:
                v = side[name].astype(np.uint64)
                if v.size and int(v.max()) >= 1 << bits:
                    raise TooLarge(f"{name} outside its {bits}-bit field")
                key |= v << np.uint64(shift)
                shift += bits
        if self.dist is not None:
            key |= self.dist.astype(np.uint64) << np.uint64(shift)
        return key

    def merge(self) -> None:
        """Merge rows with equal states (scratch must be empty)."""
        uk, first, inv = np.unique(self.key(), return_index=True, return_inverse=True)
        w = np.bincount(inv, weights=self.w, minlength=uk.size)
        self.take(first)
        self.w = w


def _crit_branch(rows: _Rows, side: str, t: UnitSpec, need_key: str,
                 scn: DuelScenario) -> None:
    """Branch every row due a crit roll on ``side`` into the result codes (re-rolls too)."""
    probs = np.asarray(t.crit_prob)
    codes = [c for c in range(len(probs)) if probs[c] > 0]
    while rows.x[need_key].any():
        need = rows.x[need_key]
        stay = [np.where(need, 0.0, 1.0)]
        br = rows.split(stay + [need * probs[c] for c in codes])
        st = getattr(rows, side)
        code = np.zeros(br.size, dtype=np.uint8)
        rolled = br > 0
        code[rolled] = np.asarray(codes, dtype=np.uint8)[br[rolled] - 1]
        again = crit(t, st, code, rolled, scn.dr, scn.asr)
        rows.x[need_key] = again


def _attack(rows: _Rows, att: str, tgt: str, ua: UnitSpec, ut: UnitSpec, band: int | np.ndarray,
            turn: int, scn: DuelScenario) -> None:
    """Branch the Narc and standard attack rolls of ``att`` on ``tgt``; store the points and
    hits in the scratch (``att + '_pts'``, ``att + '_hit'``, ``att + '_ht'``)."""
    sa, st = getattr(rows, att), getattr(rows, tgt)
    dec = decide(ua, sa, band, turn, scn.dr, scn.asr, req=rows.x.get(att + "_req"))
    tn = attack_tn(ua, sa, ut, st, band, scn.dr)
    fire_if_able(dec, tn <= 12)
    p = p_2d6_at_least(tn) * dec.fired
    narc = can_narc(ua, dec, ut, st, band)
    rows.x[att + "_p"] = p
    rows.x[att + "_min"] = dec.minimal
    rows.x[att + "_pts0"] = dec.points
    rows.x[att + "_fired"] = dec.fired
    rows.x[att + "_ov"] = dec.ov
    if narc.any():
        pn = np.where(narc, 1.0 - (1.0 - p) ** ua.narcs, 0.0)
        br = rows.split([pn, 1.0 - pn])
        st = getattr(rows, tgt)
        st["narced"] = st["narced"] | (br == 0)
    p, mn = rows.x[att + "_p"], rows.x[att + "_min"]
    q = np.where(mn, 0.5, 0.0)
    br = rows.split([p * q, p * (1.0 - q), 1.0 - p])
    hit = br < 2
    extra = br == 0
    from sim.alphastrike.duel.turn import Decision

    dec = Decision(rows.x[att + "_fired"], rows.x[att + "_ov"], rows.x[att + "_pts0"],
                   rows.x[att + "_min"])
    st = getattr(rows, tgt)
    pts = hit_points(ua, dec, ut, st, extra, scn.dr, band) * hit
    ht = np.zeros(hit.size, dtype=np.uint8)
    if ua.ht != (0, 0, 0, 0):
        h = np.array(ua.ht, dtype=np.uint8)[band] * hit
        if ut.has_heat:
            ht = h.astype(np.uint8)
        else:
            pts = pts + h
    rows.x[att + "_pts"] = pts
    rows.x[att + "_hit"] = hit
    rows.x[att + "_ht"] = ht


def _tactics(rows: _Rows, scn: DuelScenario, t: int) -> int | np.ndarray:
    """Initiative (every row branches into "A moves first" and "B moves first" with their
    probabilities, 20.1) and both tactics' decisions (a table by decision key, so a
    deterministic function of the row's state): modes, the distance after movement and the
    OV requests (kept in the scratch so later branches keep them). Returns the band."""
    p_first = p_a_moves_first(scn.dr.initiative)
    if 0.0 < p_first < 1.0:
        br = rows.split([np.full(rows.w.size, p_first), np.full(rows.w.size, 1.0 - p_first)])
        first_a = br == 0
    else:
        first_a = np.full(rows.w.size, p_first == 1.0)
    if scn.closing and rows.dist is not None:  # the policy moves both (20.7); tactics fire
        ua, ub = scn.a.units[0], scn.b.units[0]
        rows.dist = move_distance(rows.dist, np.array(ua.move, dtype=np.int16)[profile(rows.a)],
                                  np.array(ub.move, dtype=np.int16)[profile(rows.b)], scn)
    d0 = rows.dist if rows.dist is not None else np.full(
        rows.w.size, band_distance(scn.bands[t]), dtype=np.int16)
    ch = decisions(scn, d0, first_a, rows.a, rows.b)
    rows.a["mode"], rows.b["mode"] = ch["mode_a"], ch["mode_b"]
    for side, tac in zip(("a", "b"), scn.tactics, strict=True):
        if tac.fire != "policy":
            rows.x[side + "_req"] = ch["req_" + side]
    if rows.dist is None:
        return scn.bands[t]
    rows.dist = ch["dist"]
    rows.x["band"] = ch["band"]
    return rows.x["band"]


def _left(u: UnitSpec, st: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    d = st["dmg"].astype(np.float64)
    return np.maximum(u.armor - d, 0), np.minimum(u.structure, u.total - d)


def _run(scn: DuelScenario) -> dict[str, np.ndarray]:
    ua, ub = scn.a.units[0], scn.b.units[0]
    T_ = scn.turns
    dist = (np.full(1, scn.start_distance, dtype=np.int16) if scn.closing or scn.free
            else None)
    rows = _Rows(initial_state(ua, 1), initial_state(ub, 1), np.ones(1), dist)
    out = {k: np.zeros(T_) for k in ("p_end", "p_a_destroyed_at", "p_b_destroyed_at",
                                      "p_draw_at", "expected_damage_a", "expected_damage_b",
                                      "p_shutdown_a", "p_shutdown_b")}
    win = {k: 0.0 for k in ("a_arm", "a_str", "b_arm", "b_str", "a", "b")}
    ever_a_done = ever_b_done = 0.0
    turns_sum = 0.0
    for t in range(T_):
        if rows.w.size == 0:
            out["p_shutdown_a"][t] = ever_a_done
            out["p_shutdown_b"][t] = ever_b_done
            continue
        band: int | np.ndarray
        if scn.tactical:
            band = _tactics(rows, scn, t)
        elif rows.dist is not None:
            rows.dist = move_distance(rows.dist, np.array(ua.move, dtype=np.int16)[profile(rows.a)],
                                      np.array(ub.move, dtype=np.int16)[profile(rows.b)], scn)
            dband = np.searchsorted(np.array(BAND_EDGES), rows.dist)
            rows.x["band"] = dband
            band = dband
        else:
            band = scn.bands[t]
        _attack(rows, "a", "b", ua, ub, band if rows.dist is None else rows.x["band"], t + 1, scn)
        _attack(rows, "b", "a", ub, ua, band if rows.dist is None else rows.x["band"], t + 1, scn)
        out["expected_damage_a"][t] = float(np.dot(rows.w, rows.x["a_pts"]))
        out["expected_damage_b"][t] = float(np.dot(rows.w, rows.x["b_pts"]))
        from sim.alphastrike.duel.turn import Decision

        for side, key in (("a", "a"), ("b", "b")):
            st = getattr(rows, side)
            start_turn(st, Decision(rows.x[key + "_fired"], rows.x[key + "_ov"],
                                    rows.x[key + "_pts0"], rows.x[key + "_min"]))
        rows.b["ht"] = rows.x["a_ht"]
        rows.a["ht"] = rows.x["b_ht"]
        # keep only the scratch the rest of the turn reads (every column is copied per split)
        rows.x = {k: rows.x[k] for k in ("a_pts", "a_hit", "b_pts", "b_hit")}
        for st, u in ((rows.a, ua), (rows.b, ub)):
            if scn.asr.engine_heat_same_turn and not u.ee:
                st.pop("eng0", None)
        rows.x["need_b"] = receive(ub, rows.b, rows.x["a_pts"], rows.x["a_hit"], scn.dr)
        _crit_branch(rows, "b", ub, "need_b", scn)
        rows.x["need_a"] = receive(ua, rows.a, rows.x["b_pts"], rows.x["b_hit"], scn.dr)
        _crit_branch(rows, "a", ua, "need_a", scn)
        for side, u in (("a", ua), ("b", ub)):
            d1 = e12 = None
            if u.rhs or u.ecs:                   # the End Phase 1D6: a 1, or not
                br = rows.split([np.full(rows.w.size, 1 / 6), np.full(rows.w.size, 5 / 6)])
                d1 = br == 0
            elif u.ee:                           # the EE engine's 2D6: 12, or not
                st = getattr(rows, side)
                p12 = np.where(st["fired"] & (st["eng0"] > 0), 1 / 36, 0.0)
                br = rows.split([p12, 1.0 - p12])
                e12 = br == 0
            end_phase(u, getattr(rows, side), scn.asr, d1, e12)
        a_dead, b_dead = ~rows.a["alive"], ~rows.b["alive"]
        ended = a_dead | b_dead
        w = rows.w
        out["p_end"][t] = w[ended].sum()
        out["p_a_destroyed_at"][t] = w[a_dead].sum()
        out["p_b_destroyed_at"][t] = w[b_dead].sum()
        out["p_draw_at"][t] = w[a_dead & b_dead].sum()
        out["p_shutdown_a"][t] = ever_a_done + w[rows.a["ever"]].sum()
        out["p_shutdown_b"][t] = ever_b_done + w[rows.b["ever"]].sum()
        turns_sum += (t + 1) * out["p_end"][t]
        aw, bw = b_dead & ~a_dead, a_dead & ~b_dead
        arm, stru = _left(ua, rows.a)
        win["a"] += w[aw].sum()
        win["a_arm"] += float(np.dot(w[aw], arm[aw]))
        win["a_str"] += float(np.dot(w[aw], stru[aw]))
        arm, stru = _left(ub, rows.b)
        win["b"] += w[bw].sum()
        win["b_arm"] += float(np.dot(w[bw], arm[bw]))
        win["b_str"] += float(np.dot(w[bw], stru[bw]))
        ever_a_done += w[ended & rows.a["ever"]].sum()
        ever_b_done += w[ended & rows.b["ever"]].sum()
        rows.x = {}
        rows.take(np.flatnonzero(~ended))
        for st in (rows.a, rows.b):
            for k in ("pend", "ht", "killed", "fired", "ov", "eng0", "alive", "mode"):
                st.pop(k, None)
        if rows.w.size:
            rows.merge()
        for st in (rows.a, rows.b):
            st["alive"] = np.ones(rows.w.size, dtype=bool)
        if rows.w.size > MAX_STATES:
            raise TooLarge(f"{rows.w.size} joint states")
    live = rows.w.sum()
    turns_sum += T_ * live
    cum = {k: np.cumsum(out[k]) for k in ("p_end", "p_a_destroyed_at", "p_b_destroyed_at",
                                          "p_draw_at")}
    res = {
        "p_end": out["p_end"], "p_end_by": cum["p_end"],
        "p_a_destroyed_at": out["p_a_destroyed_at"], "p_b_destroyed_at": out["p_b_destroyed_at"],
        "p_a_destroyed_by": cum["p_a_destroyed_at"], "p_b_destroyed_by": cum["p_b_destroyed_at"],
        "p_draw_by": cum["p_draw_at"],
        "expected_damage_a": out["expected_damage_a"],
        "expected_damage_b": out["expected_damage_b"],
        "p_shutdown_a": out["p_shutdown_a"], "p_shutdown_b": out["p_shutdown_b"],
    }
    draw = cum["p_draw_at"][-1]
    one = np.ones(1)
    res["p_win_a"] = one * (cum["p_b_destroyed_at"][-1] - draw)
    res["p_win_b"] = one * (cum["p_a_destroyed_at"][-1] - draw)
    res["p_draw"] = one * draw
    res["p_timeout"] = one * live
    res["expected_turns"] = one * turns_sum
    for s in ("a", "b"):
        pw = win[s]
        res[f"armor_left_{s}_win"] = one * (win[f"{s}_arm"] / pw if pw > 0 else np.nan)
        res[f"structure_left_{s}_win"] = one * (win[f"{s}_str"] / pw if pw > 0 else np.nan)
    return res


def exact(scn: DuelScenario) -> dict[str, np.ndarray] | None:
    """Exact metrics of a 1-vs-1 duel, or None for a force fight or a chain beyond
    :data:`MAX_STATES` (the model then reports that and runs Monte Carlo). Cached."""
    if scn in _CACHE:
        _CACHE.move_to_end(scn)
        return _CACHE[scn]
    res: dict[str, np.ndarray] | None
    if not scn.one_vs_one or any(u.ee and (u.rhs or u.ecs) for u in scn.a.units + scn.b.units):
        res = None
    else:
        try:
            res = _run(scn)
        except TooLarge:
            res = None
    _CACHE[scn] = res
    if len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return res


def why_not_exact(scn: DuelScenario) -> str:
    """One line saying why :func:`exact` returned None."""
    if not scn.one_vs_one:
        return "force fights are not enumerated by the exact chain"
    if any(u.ee and (u.rhs or u.ecs) for u in scn.a.units + scn.b.units):
        return "an EE engine together with RHS/ECS is not enumerated by the exact chain"
    return f"the exact chain outgrew its bound of {MAX_STATES} joint states"

