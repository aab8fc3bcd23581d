"""Monte Carlo kernel of the duel: ``n`` duels at once, vectorized over trials.

The Python loops run over turns, over the <= 4 units of each side (and their <= 4 targets)
and over rare crit re-rolls; never over trials. Finished duels are dropped from the arrays
after each End Phase, so later turns cost only what is still being fought. Attack rolls are
exact byte-threshold tests (:func:`sim.alphastrike.kernel.hits_2d6`); crit rolls draw the
result through a byte table per unit (CR/IRA applied) with :func:`sim.dice.draw_lut`.
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache

import numpy as np

from sim.aggregate import Aggregate
from sim.alphastrike.duel.scenario import DuelScenario, move_distance
from sim.alphastrike.duel.sides import MOVED, Side, UnitSpec
from sim.alphastrike.duel.tactics import a_moves_first, band_distance, decisions
from sim.alphastrike.duel.targeting import choose_targets
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
from sim.alphastrike.kernel import hits_2d6
from sim.alphastrike.kernel import threshold as _threshold
from sim.dice import d6, draw_lut, make_lut

#: Byte thresholds for TN -16..47 (one ``take`` instead of a clip per attack).
_THR = _threshold(np.arange(-16, 48))


def threshold(tn: np.ndarray) -> np.ndarray:
    """Byte threshold of "2D6 >= TN" (see :func:`sim.alphastrike.kernel.threshold`)."""
    return _THR.take(tn + np.int16(16))


_CRIT_KEYS = ("eng", "fc", "wh", "mp", "dmg", "pend", "killed")
#: Per-turn sums kept by the kernel (columns of ``st``).
_COLS = ("end", "a_dead", "b_dead", "draw", "dmg_a", "dmg_a2", "dmg_b", "dmg_b2",
         "shut_a", "shut_b")


@lru_cache(maxsize=256)
def _crit_lut(codes: tuple[int, ...]) -> np.ndarray:
    """Byte table over the unit's equally likely crit outcomes (36 2D6 rolls, or 216 with
    the CASEP 1D6)."""
    return make_lut(np.asarray(codes, dtype=np.uint8))


def _crits(t: UnitSpec, st: dict[str, np.ndarray], need: np.ndarray, scn: DuelScenario,
           rng: np.random.Generator) -> None:
    """Roll and apply crits where ``need`` (and the CASE / 20.3-item-5 re-rolls)."""
    lut = _crit_lut(t.crit_codes)
    rows = np.flatnonzero(need)
    code = np.zeros(need.shape[0], dtype=np.uint8)
    code[rows] = draw_lut(rng, lut, rows.size)
    again = crit(t, st, code, need, scn.dr, scn.asr)
    rows = np.flatnonzero(again)
    while rows.size:
        sub = {k: st[k][rows] for k in _CRIT_KEYS}
        code = draw_lut(rng, lut, rows.size)
        more = crit(t, sub, code, np.ones(rows.size, dtype=bool), scn.dr, scn.asr)
        for k in _CRIT_KEYS:
            st[k][rows] = sub[k]
        rows = rows[more]


def _fire(att: Side, sa: list[dict[str, np.ndarray]], tgt: Side,
          stt: list[dict[str, np.ndarray]], band: int | np.ndarray, turn: int,
          scn: DuelScenario, rng: np.random.Generator,
          req: np.ndarray | list[np.ndarray] | None = None) -> tuple[np.ndarray, list, list]:
    """Decisions, targets and attack rolls of one side (state at the start of the turn);
    returns the points each attacker deals and (attacker, target index, hit, points) records.
    Narc beacons take effect at once (A17: Narc first). ``req``: the OV requests a tactic
    chose (one array, one unit a side; a list: one per unit of a force), else each unit's
    overheat policy."""
    decs = [decide(u, s, band, turn, scn.dr, scn.asr,
                   req=req[i] if isinstance(req, list) else req)
            for i, (u, s) in enumerate(zip(att.units, sa, strict=True))]
    targets = choose_targets(att, sa, decs, tgt, stt, band, scn.dr, scn.asr)
    m = sa[0]["heat"].shape[0]
    dealt_total = np.zeros(m, dtype=np.int64)
    shots = []
    for i, (u, s, dec) in enumerate(zip(att.units, sa, decs, strict=True)):
        able = np.zeros(m, dtype=bool)
        for j, (tu, ts) in enumerate(zip(tgt.units, stt, strict=True)):
            aim = dec.fired if targets is None else dec.fired & (targets[i] == j)
            if not aim.any():
                continue
            tn = attack_tn(u, s, tu, ts, band, scn.dr)
            aim = aim & (tn <= 12)
            able |= aim
            narc = can_narc(u, dec, tu, ts, band) & aim if u.narcs and not tu.ecm else None
            if narc is not None and narc.any():
                got = np.zeros(m, dtype=bool)
                for _ in range(u.narcs):
                    got |= hits_2d6(rng, threshold(tn) * narc)
                ts["narced"] = ts["narced"] | got
            hit = hits_2d6(rng, threshold(tn) * aim)
            extra = None
            if dec.minimal.any():
                extra = hit & dec.minimal & (d6(rng, m) >= 4)
            pts = hit_points(u, dec, tu, ts, extra, scn.dr, band)
            pts = pts * hit
            if u.ht != (0, 0, 0, 0):
                h = np.array(u.ht, dtype=np.uint8)[band]
                if tu.has_heat:
                    ts["ht_in"] = ts.get("ht_in", 0) + hit * h
                else:
                    pts = pts + hit * h
            dealt_total += pts
            shots.append((j, hit, pts))
        fire_if_able(dec, able)
    return dealt_total, shots, decs


@lru_cache(maxsize=256)
def _pair(scn: DuelScenario, side: str, i: int, j: int) -> DuelScenario:
    """The 1-vs-1 scenario of unit ``i`` of ``side`` against unit ``j`` of the other side
    (``a`` the own unit, its tactic first): whose decision table a unit of a force reads."""
    own, opp = (scn.a, scn.b) if side == "a" else (scn.b, scn.a)
    tac = scn.tactics if side == "a" else scn.tactics[::-1]
    return dataclasses.replace(scn, a=Side((own.units[i],), own.targeting),
                               b=Side((opp.units[j],), opp.targeting), tactics=tac)


def _force_tactics(scn: DuelScenario, sa: list[dict[str, np.ndarray]],
                   sb: list[dict[str, np.ndarray]], band: int, turn: int, first_a: np.ndarray
                   ) -> tuple[list[np.ndarray] | None, list[np.ndarray] | None]:
    """Tactics in a force fight (issue 22): each unit picks its target by its side's
    targeting policy (from its policy decision, as without tactics), then plays its side's
    tactic as in a 1-vs-1 against that target at the imposed band: its movement mode and OV
    are that pairing's decision-table entry for the two units' states (initiative rolled per
    side: the losing side's units move first). Sets every unit's ``mode``; returns each
    side's OV requests per unit (None for a side whose fire follows its policy)."""
    m = first_a.shape[0]
    d0 = np.full(m, band_distance(band), dtype=np.int16)
    plan: list[tuple[dict[str, np.ndarray], np.ndarray]] = []
    reqs: dict[str, list[np.ndarray] | None] = {}
    for side, own, own_st, opp, opp_st, first, tac in (
            ("a", scn.a, sa, scn.b, sb, first_a, scn.tactics[0]),
            ("b", scn.b, sb, scn.a, sa, ~first_a, scn.tactics[1])):
        decs = [decide(u, s, band, turn, scn.dr, scn.asr) for u, s in
                zip(own.units, own_st, strict=True)]
        targets = choose_targets(own, own_st, decs, opp, opp_st, band, scn.dr, scn.asr)
        side_req = []
        for i, (u, s) in enumerate(zip(own.units, own_st, strict=True)):
            mode = np.full(m, MOVED.index(u.moved), dtype=np.uint8)
            req = np.zeros(m, dtype=np.int16)
            for j, ts in enumerate(opp_st):
                rows = (np.arange(m) if targets is None else np.flatnonzero(targets[i] == j))
                if rows.size == 0:
                    continue
                ch = decisions(_pair(scn, side, i, j), d0[rows], first[rows],
                               {k: v[rows] for k, v in s.items()},
                               {k: v[rows] for k, v in ts.items()})
                mode[rows], req[rows] = ch["mode_a"], ch["req_a"]
            plan.append((s, mode))
            side_req.append(req)
        reqs[side] = None if tac.fire == "policy" else side_req
    for s, mode in plan:      # after both sides chose: targeting read the old stances
        s["mode"] = mode
    return reqs["a"], reqs["b"]


def _apply(tgt: Side, stt: list[dict[str, np.ndarray]], shots: list, scn: DuelScenario,
           rng: np.random.Generator) -> None:
    for j, hit, pts in shots:
        t, ts = tgt.units[j], stt[j]
        need = receive(t, ts, pts, hit, scn.dr)
        if need.any():
            _crits(t, ts, need, scn, rng)


def _dead(side_st: list[dict[str, np.ndarray]]) -> np.ndarray:
    out = ~side_st[0]["alive"]
    for s in side_st[1:]:
        out = out & ~s["alive"]
    return out


def _left(side: Side, side_st: list[dict[str, np.ndarray]], rows: np.ndarray
          ) -> tuple[np.ndarray, np.ndarray]:
    """Armor and Structure left on the side's surviving units (summed over a force), for the
    trials ``rows``."""
    arm = np.zeros(rows.size, dtype=np.int64)
    stru = np.zeros_like(arm)
    for u, s in zip(side.units, side_st, strict=True):
        d = s["dmg"][rows].astype(np.int64)
        alive = s["alive"][rows]
        arm += alive * np.maximum(u.armor - d, 0)
        stru += alive * np.minimum(u.structure, u.total - d)
    return arm, stru


def simulate(scn: DuelScenario, rng: np.random.Generator, n: int) -> Aggregate:
    """Run ``n`` duels for at most ``scn.turns`` turns; per-turn and per-duel aggregates."""
    T = scn.turns
    sa = [initial_state(u, n) for u in scn.a.units]
    sb = [initial_state(u, n) for u in scn.b.units]
    dist = (np.full(n, scn.start_distance, dtype=np.int16) if scn.closing or scn.free
            else None)
    st = np.zeros((T, len(_COLS)))
    ever_a_done = ever_b_done = 0
    # per-duel sums: turns (sum, sumsq); A wins: armor/structure left (sum, sumsq) x2; B same
    turns_sum = turns_sq = 0.0
    win = {k: np.zeros(2) for k in ("a_arm", "a_str", "b_arm", "b_str")}
    n_a_win = n_b_win = 0
    for t in range(T):
        m = sa[0]["heat"].shape[0]
        if m == 0:
            st[t, 8] = ever_a_done
            st[t, 9] = ever_b_done
            continue
        req_a: np.ndarray | list[np.ndarray] | None = None
        req_b: np.ndarray | list[np.ndarray] | None = None
        band: int | np.ndarray
        if scn.tactical and not scn.one_vs_one:
            band = scn.bands[t]
            req_a, req_b = _force_tactics(scn, sa, sb, band, t + 1,
                                          a_moves_first(rng, m, scn.dr.initiative))
        elif scn.tactical:
            if scn.closing and dist is not None:  # the policy moves both (20.7); tactics fire
                ua, ub = scn.a.units[0], scn.b.units[0]
                dist = move_distance(dist, np.array(ua.move, dtype=np.int16)[profile(sa[0])],
                                     np.array(ub.move, dtype=np.int16)[profile(sb[0])], scn)
            first_a = a_moves_first(rng, m, scn.dr.initiative)
            d0 = dist if dist is not None else np.full(m, band_distance(scn.bands[t]),
                                                       dtype=np.int16)
            choice = decisions(scn, d0, first_a, sa[0], sb[0])
            sa[0]["mode"], sb[0]["mode"] = choice["mode_a"], choice["mode_b"]
            req_a = None if scn.tactics[0].fire == "policy" else choice["req_a"]
            req_b = None if scn.tactics[1].fire == "policy" else choice["req_b"]
            if dist is not None:
                dist, band = choice["dist"], choice["band"]
            else:
                band = scn.bands[t]
        elif dist is not None:
            ua, ub = scn.a.units[0], scn.b.units[0]
            dist = move_distance(dist, np.array(ua.move, dtype=np.int16)[profile(sa[0])],
                                 np.array(ub.move, dtype=np.int16)[profile(sb[0])], scn)
            band = np.searchsorted(np.array([6, 24, 42, 60]), dist)
        else:
            band = scn.bands[t]
        dealt_a, shots_a, decs_a = _fire(scn.a, sa, scn.b, sb, band, t + 1, scn, rng, req_a)
        dealt_b, shots_b, decs_b = _fire(scn.b, sb, scn.a, sa, band, t + 1, scn, rng, req_b)
        for s, dec in zip(sa, decs_a, strict=True):
            start_turn(s, dec)
        for s, dec in zip(sb, decs_b, strict=True):
            start_turn(s, dec)
        for side_st in (sa, sb):
            for s in side_st:
                if "ht_in" in s:
                    s["ht"] = np.asarray(s.pop("ht_in"), dtype=np.uint8) + s["ht"]
        _apply(scn.b, sb, shots_a, scn, rng)
        _apply(scn.a, sa, shots_b, scn, rng)
        for side, side_st in ((scn.a, sa), (scn.b, sb)):
            for u, s in zip(side.units, side_st, strict=True):
                d1 = (d6(rng, m) == 1) if (u.rhs or u.ecs) else None
                e12 = hits_2d6(rng, threshold(np.full(m, 12, dtype=np.int16))) if u.ee else None
                end_phase(u, s, scn.asr, d1, e12)
        a_dead, b_dead = _dead(sa), _dead(sb)
        ended = a_dead | b_dead
        ever_a = np.zeros(m, dtype=bool)
        for s in sa:
            ever_a |= s["ever"]
        ever_b = np.zeros(m, dtype=bool)
        for s in sb:
            ever_b |= s["ever"]
        na, nb = np.count_nonzero(a_dead), np.count_nonzero(b_dead)
        nd = np.count_nonzero(a_dead & b_dead)
        ne = np.count_nonzero(ended)
        st[t, 0:4] = (ne, na, nb, nd)
        st[t, 4:8] = (dealt_a.sum(), (dealt_a * dealt_a).sum(), dealt_b.sum(),
                      (dealt_b * dealt_b).sum())
        st[t, 8] = ever_a_done + np.count_nonzero(ever_a)
        st[t, 9] = ever_b_done + np.count_nonzero(ever_b)
        turns_sum += ne * (t + 1)
        turns_sq += ne * (t + 1) ** 2
        for key, side, side_st, mask in (("a", scn.a, sa, b_dead & ~a_dead),
                                         ("b", scn.b, sb, a_dead & ~b_dead)):
            if mask.any():
                arm, stru = _left(side, side_st, np.flatnonzero(mask))
                win[f"{key}_arm"] += (arm.sum(), (arm * arm).sum())
                win[f"{key}_str"] += (stru.sum(), (stru * stru).sum())
        n_a_win += int(np.count_nonzero(b_dead & ~a_dead))
        n_b_win += int(np.count_nonzero(a_dead & ~b_dead))
        if ne:
            ever_a_done += int(np.count_nonzero(ever_a & ended))
            ever_b_done += int(np.count_nonzero(ever_b & ended))
            keep = np.flatnonzero(~ended)
            sa = [{k: v[keep] for k, v in s.items() if k in _STATE} for s in sa]
            sb = [{k: v[keep] for k, v in s.items() if k in _STATE} for s in sb]
            if dist is not None:
                dist = dist[keep]
    remaining = sa[0]["heat"].shape[0]
    turns_sum += remaining * T
    turns_sq += remaining * T * T
    return _aggregate(n, st, turns_sum, turns_sq, win, n_a_win, n_b_win)


_STATE = ("heat", "eng", "fc", "wh", "mp", "dmg", "alive", "ever", "narced", "arm", "rhs", "ecs")


def _aggregate(n: int, st: np.ndarray, turns_sum: float, turns_sq: float,
               win: dict[str, np.ndarray], n_a_win: int, n_b_win: int) -> Aggregate:
    agg = Aggregate(n)
    nn = np.full(st.shape[0], float(n))
    cum = np.cumsum(st[:, 0:4], axis=0)
    for name, col in (("p_end", st[:, 0]), ("p_a_destroyed_at", st[:, 1]),
                      ("p_b_destroyed_at", st[:, 2]), ("p_end_by", cum[:, 0]),
                      ("p_a_destroyed_by", cum[:, 1]), ("p_b_destroyed_by", cum[:, 2]),
                      ("p_draw_by", cum[:, 3]), ("p_shutdown_a", st[:, 8]),
                      ("p_shutdown_b", st[:, 9])):
        agg.add_counts(name, nn, col, col)
    agg.add_counts("expected_damage_a", nn, st[:, 4], st[:, 5])
    agg.add_counts("expected_damage_b", nn, st[:, 6], st[:, 7])
    da, db, dd = cum[-1, 1], cum[-1, 2], cum[-1, 3]
    a_win, b_win = db - dd, da - dd
    agg.add_counts("p_win_a", n, a_win, a_win)
    agg.add_counts("p_win_b", n, b_win, b_win)
    agg.add_counts("p_draw", n, dd, dd)
    to = n - cum[-1, 0]
    agg.add_counts("p_timeout", n, to, to)
    agg.add_counts("expected_turns", n, turns_sum, turns_sq)
    agg.add_counts("armor_left_a_win", n_a_win, *win["a_arm"])
    agg.add_counts("structure_left_a_win", n_a_win, *win["a_str"])
    agg.add_counts("armor_left_b_win", n_b_win, *win["b_arm"])
    agg.add_counts("structure_left_b_win", n_b_win, *win["b_str"])
    return agg
