"""Vectorized Monte Carlo kernel of the ``attack`` model.

One call resolves ``n`` attacks of one plan and returns an :class:`~sim.aggregate.Aggregate`.
Dice come from the caller's ``numpy.random.Generator``; every draw is an exact uniform integer
(NumPy's bounded generator rejects, so there is no modulo bias) mapped through small uint8
tables:

* single-group strikes (punch, kick, club, hatchet, push): one draw per strike over the joint
  outcomes of the to-hit 2D6 and the location die (36 x 6 or 36 x 36), mapped to an outcome
  code (location, TAC flag, or miss); the codes of all strikes combine into one joint code whose
  ``bincount`` gives every attack metric exactly (sums and sums of squares from per-code values);
* multi-group strikes (charge, DFA): a to-hit roll, then one location roll per 5-point group for
  the trials that hit;
* PSRs: one 2D6 per roll slot; slots are shared between the units when no hit pattern makes both
  roll (a kick: the target rolls on a hit, the attacker on a miss), then falls, facing and
  pilot rolls only for the trials that fell.

No per-trial Python loops; temporaries are bounded by ``n`` (the engine's chunk).
"""

from __future__ import annotations

import numpy as np

from sim.aggregate import Aggregate
from sim.classic import tables as T
from sim.classic.metrics import FALL_LOC_METRICS, LOC_METRICS
from sim.classic.plan import Plan, UnitFall

NL = T.N_LOC          # 11 locations
NC = 2 * (NL + 1)     # single-strike outcome codes: loc + 12 * tac, MISS = 11 (no tac)

_STD_FLAT = T.STANDARD.ravel()
_STD_W = T.STANDARD.shape[1]
#: 2D6 total for each of the 36 ordered outcomes of two dice.
_TWO = np.add.outer(np.arange(1, 7), np.arange(1, 7)).ravel().astype(np.uint8)


class _Values:
    """A per-trial integer quantity: either ``lut[code]`` over coded trials or a plain array."""

    def __init__(self, lut: np.ndarray | None = None, code: np.ndarray | None = None,
                 counts: np.ndarray | None = None, arr: np.ndarray | None = None) -> None:
        self.lut, self.code, self.counts, self.arr = lut, code, counts, arr

    def at(self, idx: np.ndarray) -> np.ndarray:
        if self.arr is not None:
            return self.arr[idx].astype(np.float64)
        return self.lut[self.code[idx]]

    def sums(self) -> tuple[float, float]:
        if self.arr is not None:
            a = self.arr.astype(np.float64)
            return float(a.sum()), float((a * a).sum())
        return float(self.counts @ self.lut), float(self.counts @ (self.lut * self.lut))


# ------------------------------------------------------------------------------------------
# attack phase
# ------------------------------------------------------------------------------------------
def _strike_lut(plan: Plan, i: int) -> tuple[np.ndarray, int]:
    """Outcome code of strike ``i`` for each joint (to-hit, location) dice index."""
    st = plan.strikes[i]
    if not st.groups or st.who == "target":  # push / counter-push: hit or miss only
        hit = (_TWO >= st.tn)
        return np.where(hit, 0, T.MISS).astype(np.uint8), 36
    dice = T.TABLE_DICE[st.table]
    faces = 6 if dice == 1 else 36
    th = np.repeat(_TWO, faces)                       # to-hit total per joint index
    lr = np.tile(np.arange(1, 7) if dice == 1 else _TWO, 36)  # location die total
    loc = T.TABLES[st.table][st.side][lr]
    tac = (lr == 2) & (dice == 2) & plan.scenario.rules.tac
    code = np.where(th >= st.tn, loc + (NL + 1) * tac, T.MISS)
    return code.astype(np.uint8), 36 * faces


def _single_group_phase(plan: Plan, rng: np.random.Generator, n: int, agg: Aggregate):
    """All strikes have at most one damage group: joint outcome codes and one bincount."""
    k = len(plan.strikes)
    joint = np.zeros(n, dtype=np.uint8) if k == 0 else None
    mult = 1
    codes_per: list[np.ndarray] = []
    for i in range(k):
        lut, size = _strike_lut(plan, i)
        dt = np.uint8 if size <= 256 else np.uint16
        draw = rng.integers(0, size, size=n, dtype=dt)
        c = lut.take(draw)
        codes_per.append(c)
        if joint is None:
            joint = c if k == 1 else c.astype(np.uint16)
        else:
            joint = joint + c.astype(np.uint16) * mult
        mult *= NC
    ncode = NC ** k
    counts = np.bincount(joint, minlength=ncode).astype(np.float64)
    # per-code values
    digits = [(np.arange(ncode) // (NC ** i)) % NC for i in range(k)]
    pattern = np.zeros(ncode, dtype=np.uint8)
    locdmg = np.zeros((ncode, NL + 1))
    head = np.zeros(ncode)
    headdmg = np.zeros(ncode)
    tac = np.zeros(ncode, dtype=bool)
    for i, d in enumerate(digits):
        st = plan.strikes[i]
        hit = d != T.MISS
        pattern |= (hit.astype(np.uint8) << i)
        if st.who != "attacker" or not st.groups:
            continue
        loc = np.where(hit, d % (NL + 1), NL)
        np.add.at(locdmg, (np.arange(ncode), loc), st.damage * hit)
        head += hit & (loc == T.HD)
        headdmg += st.damage * (hit & (loc == T.HD))
        tac |= hit & (d > NL)
    for j, name in enumerate(LOC_METRICS):
        v = locdmg[:, j]
        agg.add_counts(name, n, counts @ v, counts @ (v * v))
    c_head = counts @ (head > 0)
    agg.add_counts("p_head_hit", n, c_head, c_head)
    c_hd = counts @ (headdmg >= T.FRESH_HEAD)
    agg.add_counts("p_head_destroyed", n, c_hd, c_hd)
    c_tac = counts @ tac
    agg.add_counts("p_tac", n, c_tac, c_tac)
    pat_counts = np.bincount(pattern, weights=counts, minlength=1 << k)
    pat_trial = pattern.take(joint)
    heads_t = _Values(lut=head, code=joint, counts=counts)
    return pat_trial, pat_counts, heads_t, None


def _multi_group_phase(plan: Plan, rng: np.random.Generator, n: int, agg: Aggregate):
    """One strike with several 5-point groups (charge, DFA): location rolls for hit trials."""
    st = plan.strikes[0]
    rules = plan.scenario.rules
    hit = _TWO.take(rng.integers(0, 36, size=n, dtype=np.uint8)) >= st.tn
    idx = np.flatnonzero(hit)
    m = idx.size
    g = len(st.groups)
    dice = T.TABLE_DICE[st.table]
    if dice == 2:
        rolls = _TWO.take(rng.integers(0, 36, size=(g, m), dtype=np.uint8))
    else:
        rolls = rng.integers(1, 7, size=(g, m), dtype=np.uint8)
    loc = T.TABLES[st.table][st.side].take(rolls)                 # (g, m)
    sizes = np.asarray(st.groups, dtype=np.float64)[:, None]
    rows = np.arange(m, dtype=np.intp)[None, :] * (NL + 1)
    mat = np.bincount((rows + loc).ravel(), weights=np.broadcast_to(sizes, loc.shape).ravel(),
                      minlength=m * (NL + 1)).reshape(m, NL + 1)
    s1 = mat.sum(axis=0)
    s2 = (mat * mat).sum(axis=0)
    for j, name in enumerate(LOC_METRICS):
        agg.add_counts(name, n, s1[j], s2[j])
    is_head = loc == T.HD
    nhead = is_head.sum(axis=0)
    c = float(np.count_nonzero(nhead))
    agg.add_counts("p_head_hit", n, c, c)
    c = float(np.count_nonzero(mat[:, T.HD] >= T.FRESH_HEAD))
    agg.add_counts("p_head_destroyed", n, c, c)
    c = float(np.count_nonzero((rolls == 2).any(axis=0))) if (dice == 2 and rules.tac) else 0.0
    agg.add_counts("p_tac", n, c, c)
    pattern = hit.astype(np.uint8)
    pat_counts = np.array([n - m, m], dtype=np.float64)
    heads = np.zeros(n, dtype=np.int16)
    heads[idx] = nhead
    # self damage groups of a hit: location rolls only matter for the attacker's head (pilot)
    o = plan.outcomes[1]
    heads_a = None
    if o.self_groups:
        sg = len(o.self_groups)
        if T.TABLE_DICE[o.self_table] == 2:
            sr = _TWO.take(rng.integers(0, 36, size=(sg, m), dtype=np.uint8))
        else:
            sr = rng.integers(1, 7, size=(sg, m), dtype=np.uint8)
        sl = T.TABLES[o.self_table][T.SIDE["front"]].take(sr)
        ha = np.zeros(n, dtype=np.int16)
        ha[idx] = (sl == T.HD).sum(axis=0)
        heads_a = _Values(arr=ha)
    return pattern, pat_counts, _Values(arr=heads), heads_a


# ------------------------------------------------------------------------------------------
# PSRs and falls
# ------------------------------------------------------------------------------------------
def _slot_tables(plan: Plan) -> tuple[np.ndarray, np.ndarray, int]:
    """TN per (pattern, slot) for target and attacker. TN 0 = no roll in that slot."""
    outs = plan.outcomes
    share = all(not (o.target.tns and o.attacker.tns) for o in outs)
    if share:
        slots = max(max(len(o.target.tns), len(o.attacker.tns)) for o in outs)
    else:
        slots = max(len(o.target.tns) for o in outs) + max(len(o.attacker.tns) for o in outs)
    off = 0 if share else max(len(o.target.tns) for o in outs)
    tt = np.zeros((len(outs), slots), dtype=np.uint8)
    ta = np.zeros((len(outs), slots), dtype=np.uint8)
    for p, o in enumerate(outs):
        tt[p, : len(o.target.tns)] = o.target.tns
        ta[p, off: off + len(o.attacker.tns)] = o.attacker.tns
    return tt, ta, slots


def _falls(plan: Plan, rng: np.random.Generator, n: int, agg: Aggregate, unit: str,
           pattern: np.ndarray, fails: np.ndarray, heads: _Values | None) -> None:
    """Falls of one unit: fall damage by location (facing roll), pilot damage (D10)."""
    falls: list[UnitFall] = [getattr(o, unit) for o in plan.outcomes]
    if not fails.size:
        f = np.zeros(0, dtype=np.intp)
    elif fails.shape[0] == 1:
        f = np.flatnonzero(fails[0])
    else:
        f = np.flatnonzero(fails.any(axis=0))
    k = f.size
    agg.add_counts(f"p_{unit}_falls", n, k, k)
    pf = pattern[f]
    dmg_p = np.array([u.damage for u in falls], dtype=np.float64)
    dm = dmg_p[pf]
    agg.add_counts(f"expected_fall_damage_{unit}", n, dm.sum(), (dm * dm).sum())
    gmax = max(len(u.groups) for u in falls)
    sizes = np.zeros((len(falls), max(gmax, 1)), dtype=np.float64)
    for p, u in enumerate(falls):
        sizes[p, : len(u.groups)] = u.groups
    fixed = np.array([-1 if u.column is None else u.column for u in falls], dtype=np.int16)
    col = T.FALL_COLUMN.take(rng.integers(1, 7, size=k, dtype=np.uint8))
    fc = fixed[pf]
    col = np.where(fc >= 0, fc, col).astype(np.intp)
    rolls = _TWO.take(rng.integers(0, 36, size=(max(gmax, 1), k), dtype=np.uint8))
    loc = _STD_FLAT.take(col * _STD_W + rolls)                       # (g, k)
    w = sizes[pf].T                                                  # (g, k)
    rows = np.arange(k, dtype=np.intp)[None, :] * (NL + 1)
    mat = np.bincount((rows + loc).ravel(), weights=w.ravel(),
                      minlength=k * (NL + 1)).reshape(k, NL + 1)
    s1 = mat.sum(axis=0)
    s2 = (mat * mat).sum(axis=0)
    for j, name in enumerate(FALL_LOC_METRICS[unit]):
        agg.add_counts(name, n, s1[j], s2[j])
    # pilot damage: head hits of the attack (or self damage) + fall head groups + pilot PSR
    fall_heads = ((loc == T.HD) & (w > 0)).sum(axis=0)
    first = fails[:, f].argmax(axis=0) if fails.size else np.zeros(k, dtype=np.intp)
    ptn = np.zeros((len(falls), max(fails.shape[0], 1)), dtype=np.uint8)
    for p, u in enumerate(falls):
        ptn[p, : len(u.pilot_tns)] = u.pilot_tns
    # the failing slot index is relative to the unit's own first slot
    own0 = _own_offset(plan, unit)
    pilot_fail = _TWO.take(rng.integers(0, 36, size=k, dtype=np.uint8)) < ptn[
        pf, np.maximum(first - own0, 0)]
    extra = fall_heads + pilot_fail
    if not plan.scenario.rules.pilot_damage:
        agg.add_counts(f"expected_pilot_damage_{unit}", n, 0.0, 0.0)
        return
    if heads is None:
        s, q = 0.0, 0.0
        base = np.zeros(k)
    else:
        s, q = heads.sums()
        base = heads.at(f)
    s += extra.sum()
    q += ((base + extra) ** 2 - base * base).sum()
    agg.add_counts(f"expected_pilot_damage_{unit}", n, s, q)


def _own_offset(plan: Plan, unit: str) -> int:
    outs = plan.outcomes
    share = all(not (o.target.tns and o.attacker.tns) for o in outs)
    if unit == "target" or share:
        return 0
    return max(len(o.target.tns) for o in outs)


def sample(plan: Plan, rng: np.random.Generator, n: int) -> Aggregate:
    """Resolve ``n`` attacks of ``plan`` and return their aggregate (all metrics)."""
    agg = Aggregate(n)
    outs = plan.outcomes
    if (all(len(st.groups) <= 1 for st in plan.strikes)
            and not any(o.self_groups for o in outs)):
        pattern, pat_counts, heads_t, heads_a = _single_group_phase(plan, rng, n, agg)
    else:
        pattern, pat_counts, heads_t, heads_a = _multi_group_phase(plan, rng, n, agg)
    npat = len(outs)
    pat_counts = np.asarray(pat_counts, dtype=np.float64)[:npat]
    att = plan.attacker_strikes
    any_hit = np.array([o.any_hit for o in outs], dtype=np.float64)
    nhits = np.array([sum(o.hits[i] for i in att) for o in outs], dtype=np.float64)
    tdmg = np.array([o.target_damage for o in outs], dtype=np.float64)
    sdmg = np.array([o.self_damage for o in outs], dtype=np.float64)
    c_hit = pat_counts @ any_hit
    agg.add_counts("p_hit", n, c_hit, c_hit)
    agg.add_counts("expected_hits", n, pat_counts @ nhits, pat_counts @ nhits ** 2)
    agg.add_counts("damage", c_hit, pat_counts @ (tdmg * any_hit), pat_counts @ (tdmg ** 2 * any_hit))
    agg.add_counts("expected_damage", n, pat_counts @ tdmg, pat_counts @ tdmg ** 2)
    agg.add_counts("self_damage", c_hit, pat_counts @ (sdmg * any_hit),
                   pat_counts @ (sdmg ** 2 * any_hit))
    agg.add_counts("expected_self_damage", n, pat_counts @ sdmg, pat_counts @ sdmg ** 2)
    for name, attr in (("p_target_displaced", "target_displaced"),
                       ("p_attacker_displaced", "attacker_displaced")):
        c = pat_counts @ np.array([getattr(o, attr) for o in outs], dtype=np.float64)
        agg.add_counts(name, n, c, c)
    hist = np.zeros(plan.max_damage + 1, dtype=np.int64)
    np.add.at(hist, tdmg.astype(np.intp), np.rint(pat_counts).astype(np.int64))
    agg.add_hist_counts("damage_dist", hist)

    tt, ta, slots = _slot_tables(plan)
    fails_t = np.zeros((slots, n), dtype=bool)
    fails_a = np.zeros((slots, n), dtype=bool)
    for s in range(slots):
        if not (tt[:, s].any() or ta[:, s].any()):
            continue
        roll = _TWO.take(rng.integers(0, 36, size=n, dtype=np.uint8))
        if tt[:, s].any():
            fails_t[s] = roll < tt[:, s].take(pattern)
        if ta[:, s].any():
            fails_a[s] = roll < ta[:, s].take(pattern)
    _falls(plan, rng, n, agg, "target", pattern, fails_t, heads_t)
    _falls(plan, rng, n, agg, "attacker", pattern, fails_a, heads_a)
    return agg
