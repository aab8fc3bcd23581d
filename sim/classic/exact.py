"""Exact metrics of a plan: enumerate the hit patterns (at most 4) with their probabilities and
use independence of the location, PSR and pilot rolls given the pattern (reference 0, 2-4).

Locations: every 5-point group is an independent roll, so expected damage per location is
sum(group size x P(location)); P(head hit) = 1 - prod(1 - P(HD)); the head-destruction chance
is a small convolution over the groups. Falls: P(fall) = 1 - prod P(roll_i succeeds); fall
damage per location averages the facing roll's columns (linear, so the shared facing roll does
not matter for expectations).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from sim.classic import location as L
from sim.classic import psr as P
from sim.classic import tables as T
from sim.classic.metrics import LOC_METRICS, METRIC_NAMES, fall_loc_metric
from sim.classic.plan import Plan, UnitFall
from sim.dice import P_2D6_AT_LEAST, p_2d6_at_least_exact


def _p_succ(tn: int) -> float:
    return float(P_2D6_AT_LEAST[max(0, min(14, tn))])


def _head_destroyed(groups: list[tuple[int, float]]) -> float:
    """P(sum of damage of groups striking the head >= FRESH_HEAD); groups = (size, P(HD))."""
    cap = T.FRESH_HEAD
    if sum(g for g, ph in groups if ph > 0.0) < cap:
        return 0.0
    dist = [1.0] + [0.0] * cap
    for size, ph in groups:
        if ph == 0.0 or size == 0:
            continue
        new = [d * (1.0 - ph) for d in dist]
        for d, pd in enumerate(dist):
            new[min(cap, d + size)] += pd * ph
        dist = new
    return dist[cap]


def _fall(u: UnitFall, loc_acc: np.ndarray, w: float) -> tuple[float, float, float]:
    """Add the fall's expected damage by location (weighted) into ``loc_acc``; return
    (P(fall), E[fall damage], E[pilot damage from the fall])."""
    if not u.tns:
        return 0.0, 0.0, 0.0
    fails = P.fail_at(list(u.tns))
    pf = sum(fails)
    if u.column is None:
        ploc = L.p_fall_locations()
    else:
        ploc = L.p_locations(T.TABLE_STANDARD, u.column)
    loc_acc += w * pf * u.damage * ploc[: T.N_LOC]
    heads = len(u.groups) * ploc[T.HD]
    pilot = pf * heads + sum(f * (1.0 - _p_succ(t)) for f, t in zip(fails, u.pilot_tns,
                                                                    strict=True))
    return pf, pf * u.damage, pilot


def exact_metrics(plan: Plan) -> dict[str, np.ndarray]:
    """All metrics as name -> array of shape (1,) (hist: (1, bins))."""
    rules = plan.scenario.rules
    out = dict.fromkeys(METRIC_NAMES, 0.0)
    loc = np.zeros(T.N_LOC)
    floc_t = np.zeros(T.N_LOC)
    floc_a = np.zeros(T.N_LOC)
    dist = np.zeros(plan.max_damage + 1)
    p_hit = [_p_succ(st.tn) for st in plan.strikes]
    att = plan.attacker_strikes
    out["expected_hits"] = sum(p_hit[i] for i in att)
    # hit-pattern sums in exact rationals (multiples of 36^-n), so that conditional means of
    # integer damage come out as exact as a float can be (7, not 6.999999999999999)
    q_hit = [p_2d6_at_least_exact(max(0, min(14, st.tn))) for st in plan.strikes]
    p_any = Fraction(0)
    e_dmg_hit = Fraction(0)
    e_self_hit = Fraction(0)
    for pat, o in enumerate(plan.outcomes):
        wq = Fraction(1)
        for i, qh in enumerate(q_hit):
            wq *= qh if (pat >> i) & 1 else 1 - qh
        if wq == 0:
            continue
        w = float(wq)
        dist[o.target_damage] += w
        if o.any_hit:
            p_any += wq
            e_dmg_hit += wq * o.target_damage
            e_self_hit += wq * o.self_damage
        groups: list[tuple[int, float]] = []
        p_no_head = 1.0
        p_no_tac = 1.0
        for i in att:
            if not (pat >> i) & 1:
                continue
            st = plan.strikes[i]
            ploc = L.p_locations(st.table, st.side)
            for g in st.groups:
                loc += w * g * ploc[: T.N_LOC]
                groups.append((g, float(ploc[T.HD])))
                p_no_head *= 1.0 - ploc[T.HD]
                p_no_tac *= 1.0 - (L.p_tac(st.table) if rules.tac else 0.0)
        out["p_head_hit"] += w * (1.0 - p_no_head)
        out["p_tac"] += w * (1.0 - p_no_tac)
        out["p_head_destroyed"] += w * _head_destroyed(groups)
        pf, fd, fp = _fall(o.target, floc_t, w)
        out["p_target_falls"] += w * pf
        out["expected_fall_damage_target"] += w * fd
        head_groups = sum(ph for _, ph in groups)
        out["expected_pilot_damage_target"] += w * (head_groups + fp)
        pf, fd, fp = _fall(o.attacker, floc_a, w)
        out["p_attacker_falls"] += w * pf
        out["expected_fall_damage_attacker"] += w * fd
        self_heads = len(o.self_groups) * float(
            L.p_locations(o.self_table, T.SIDE["front"])[T.HD])
        out["expected_pilot_damage_attacker"] += w * (self_heads + fp)
        out["p_target_displaced"] += w * o.target_displaced
        out["p_attacker_displaced"] += w * o.attacker_displaced
    if not rules.pilot_damage:
        out["expected_pilot_damage_target"] = out["expected_pilot_damage_attacker"] = 0.0
    out["p_hit"] = float(p_any)
    out["expected_damage"] = float(e_dmg_hit)
    out["damage"] = float(e_dmg_hit / p_any) if p_any > 0 else math.nan
    out["expected_self_damage"] = float(e_self_hit)
    out["self_damage"] = float(e_self_hit / p_any) if p_any > 0 else math.nan
    for k, name in enumerate(LOC_METRICS):
        out[name] = loc[k]
        out[fall_loc_metric("target", T.LOCATIONS[k])] = floc_t[k]
        out[fall_loc_metric("attacker", T.LOCATIONS[k])] = floc_a[k]
    res = {k: np.array([v], dtype=np.float64) for k, v in out.items()}
    res["damage_dist"] = dist[None, :]
    return res
