"""Vectorized Monte Carlo kernel of the ``attack`` model.

One call resolves ``n`` attacks of one plan and returns an :class:`~sim.aggregate.Aggregate`.
Dice come from the caller's ``numpy.random.Generator`` through :mod:`sim.dice`:
every draw is an exact uniform choice by rejection (raw bytes below 252, or 16-bit words
below a multiple of the joint outcome count), mapped monotonically or through small tables.

Every metric is a sum over trials, so the kernel only needs the *counts* of trial outcomes,
plus the per-trial joint of the random parts that one metric couples (the groups striking one
location; a pilot's head hits and its fall). Three paths, chosen once per plan:

* one strike with at most one damage group (punch with one arm, kick, club, hatchet, push):
  the hit count, the location counts of the hits (byte ranges of the monotone dice) and the
  PSR failures of each (hit pattern, head hit) class are exact counts of byte rolls;
* several single-group strikes (two-arm punch, mutual push): a trial is a few 16-bit words
  holding the joint of every to-hit 2D6, location die and PSR roll; per-plan tables map the
  words to the trial's outcome code, one ``bincount`` of the codes gives every attack and PSR
  metric through a per-plan value matrix (``counts @ V``); rejected trials are redrawn by count;
* several 5-point groups (charge, DFA): the hit count is counted; each hit trial gets one
  location byte per group, accumulated as per-location damage in byte (or 16-bit) lanes of a
  ``uint64`` through per-plan one-hot tables; lane sums and sums of squares come from 16-bit
  word tables; PSRs are counted survivors of each roll in rolling order.

Falls (reference 4.3-4.4) are resolved per batch of fallers sharing the hit pattern, the
failing roll and the head hits already taken: a faller's hit column, fall-group locations and
pilot roll form one joint code (count-based, two groups at most; larger falls use the lanes).
Where head hits vary per trial (charge, DFA), the fallers are the first trials of the
head-hit array, which is exact in distribution because trials are exchangeable and the PSR
rolls independent of the location rolls.

The path is chosen from the plan's shape (:func:`choose_path`), and a plan that does not fit
the chosen path (:func:`path_misfit`: e.g. two strikes with 5-point groups, self-damage on a
miss, a counter-strike that deals damage) raises :class:`PlanPathError` instead of being
sampled wrongly; a new attack of a new shape needs a new path here.

No per-trial Python loops; temporaries are bounded by ``n`` (the engine's chunk). Everything
that depends on the plan only (tables, value matrices) is computed once per plan and cached.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from sim import dice as F
from sim.aggregate import Aggregate
from sim.classic import damage as D
from sim.classic import tables as T
from sim.classic.metrics import FALL_LOC_METRICS, LOC_METRICS, METRIC_NAMES
from sim.classic.plan import Plan, UnitFall
from sim.streams import Streams

NL = T.N_LOC          # 11 locations; strike outcome codes: loc + 12 * tac, MISS = 11
UNITS = ("target", "attacker")
#: Roll kinds of the one-strike path's sub-streams (:class:`sim.streams.Streams`): to-hit,
#: location, PSR (+ 8 * unit + class; index: the PSR's slot), falls (+ unit; index: batch).
TO_HIT, LOCATION, PSR, FALLS = 0, 1, 2, 20

_TWO = F.TWO_D6_OUTCOMES
_ROW = {name: i for i, name in enumerate(METRIC_NAMES)}
_LOC_ROWS = np.array([_ROW[m] for m in LOC_METRICS])
_FALL_LOC_ROWS = {u: np.array([_ROW[m] for m in FALL_LOC_METRICS[u]]) for u in UNITS}

#: Byte -> location code of a fall group for each hit column (standard table, reference 3.2;
#: column from the facing roll, reference 4.4; monotone byte mapping); flat index
#: ``column * 256 + byte``.
_FALL_LOC_BYTE = np.full((len(T.SIDES), 256), T.MISS, dtype=np.uint8)
for _c in range(len(T.SIDES)):
    _FALL_LOC_BYTE[_c, : F.ACCEPT] = T.STANDARD[_c].take(F.SORTED_2D6)
#: Byte -> hit column after a fall (1D6 facing roll, monotone byte mapping; reference 4.4).
_FALL_COL_BYTE = np.zeros(256, dtype=np.uint8)
_FALL_COL_BYTE[: F.ACCEPT] = T.FALL_COLUMN.take(F.FACE_1D6)


def _byte_locations(table: int, side: int) -> np.ndarray:
    """Location code of each accepted byte (length 252) on ``table``/``side``."""
    faces = F.SORTED_2D6 if T.TABLE_DICE[table] == 2 else F.FACE_1D6
    return T.TABLES[table][side].take(faces)


# ------------------------------------------------------------------------------------------
# per-location damage in lanes of uint64 words
# ------------------------------------------------------------------------------------------
_W16 = np.arange(65536, dtype=np.uint64)
#: 16-bit word of two byte lanes -> (lane a)^2 | (lane b)^2 << 32.
_SQ8 = ((_W16 & np.uint64(255)) ** 2) | (((_W16 >> np.uint64(8)) ** 2) << np.uint64(32))
#: 16-bit lane -> its square.
_SQ16 = _W16 * _W16
_M8 = np.uint64(0x00FF00FF00FF00FF)
_BLOCK = 65536      # rows per partial sum: 255^2 * 65536 < 2^32 (no carry between lanes)


@dataclass
class _Lanes:
    """Per-location damage of several groups per trial, one lane per location slot: the
    byte -> uint64 tables put a group's damage into its slot's lane (8-bit lanes while the
    total damage is below 256, else 16-bit; several accumulators when the slots do not fit)."""

    luts: list[dict[int, np.ndarray]]   # per accumulator: group size -> byte -> lane value
    width: int
    slot_loc: np.ndarray                # location of each (accumulator, lane) slot; NL unused
    hd: int                             # slot of the head, -1 if none


def _make_lanes(byte_loc: np.ndarray, sizes: set[int], total: int) -> _Lanes:
    locs = sorted(set(byte_loc.tolist()))
    width = 8 if total <= 255 else 16
    per = 64 // width
    nacc = -(-len(locs) // per)
    slot = {loc: i for i, loc in enumerate(locs)}
    luts: list[dict[int, np.ndarray]] = []
    for a in range(nacc):
        d: dict[int, np.ndarray] = {}
        for g in sizes:
            lut = np.zeros(256, dtype=np.uint64)
            for b in range(F.ACCEPT):
                s = slot[int(byte_loc[b])]
                if s // per == a:
                    lut[b] = np.uint64(g) << np.uint64(width * (s % per))
            d[g] = lut
        luts.append(d)
    slot_loc = np.full(nacc * per, NL, dtype=np.intp)
    slot_loc[: len(locs)] = locs
    return _Lanes(luts, width, slot_loc, slot.get(T.HD, -1))


def _accumulate(lanes: _Lanes, b: np.ndarray, sizes: tuple[int, ...]) -> list[np.ndarray]:
    """Sum the groups' lane values over the location bytes ``b`` (g, k); arrays are padded to
    a multiple of 256 trials with zeros."""
    k = b.shape[1]
    kp = -(-k // 256) * 256
    tmp = np.empty(k, dtype=np.uint64)
    out = []
    for d in lanes.luts:
        acc = np.zeros(kp, dtype=np.uint64)
        head = acc[:k]
        for i, g in enumerate(sizes):
            d[g].take(b[i], out=tmp, mode="clip")
            head += tmp
        out.append(acc)
    return out


def _lane_sums(lanes: _Lanes, accs: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Per-location sums and sums of squares over trials (exact integers, as float64)."""
    s1 = np.zeros(NL + 1)
    s2 = np.zeros(NL + 1)
    per = 64 // lanes.width
    for a, acc in enumerate(accs):
        v1 = np.zeros(per)
        v2 = np.zeros(per)
        words = acc.view(np.uint16).reshape(-1, 4)
        if lanes.width == 8:
            for half, x in enumerate((acc & _M8, (acc >> np.uint64(8)) & _M8)):
                part = x.reshape(-1, 256).sum(axis=1)       # 16-bit lanes never carry
                v1[half::2] = part.view(np.uint16).reshape(-1, 4).sum(axis=0)
            for w in range(4):
                if (lanes.slot_loc[a * per + 2 * w: a * per + 2 * w + 2] == NL).all():
                    continue
                col = words[:, w]
                for lo in range(0, col.size, _BLOCK):
                    q = int(_SQ8.take(col[lo: lo + _BLOCK]).sum())
                    v2[2 * w] += q & 0xFFFFFFFF
                    v2[2 * w + 1] += q >> 32
        else:
            for w in range(4):
                col = words[:, w]
                v1[w] = col.sum(dtype=np.uint64)
                v2[w] = _SQ16.take(col).sum()
        sl = lanes.slot_loc[a * per: (a + 1) * per]
        np.add.at(s1, sl, v1)
        np.add.at(s2, sl, v2)
    return s1[:NL], s2[:NL]


def _lane(lanes: _Lanes, accs: list[np.ndarray], slot: int, k: int) -> np.ndarray:
    """The values of one slot's lane for the first ``k`` trials (a strided view)."""
    per = 64 // lanes.width
    view = accs[slot // per].view(np.uint8 if lanes.width == 8 else np.uint16)
    return view.reshape(-1, per)[:k, slot % per]


# ------------------------------------------------------------------------------------------
# shared: strikes, PSR slots, per-pattern values
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


def _slot_tables(plan: Plan) -> tuple[np.ndarray, np.ndarray, int]:
    """TN per (pattern, slot) for target and attacker. TN 0 = no roll in that slot. Slots are
    shared between the units when no hit pattern makes both roll."""
    outs = plan.outcomes
    share = all(not (o.target.tns and o.attacker.tns) for o in outs)
    if share:
        slots = max(max(len(o.target.tns), len(o.attacker.tns)) for o in outs)
    else:
        slots = max(len(o.target.tns) for o in outs) + max(len(o.attacker.tns) for o in outs)
    off = 0 if share else max(len(o.target.tns) for o in outs)
    tt = np.zeros((len(outs), slots), dtype=np.int64)
    ta = np.zeros((len(outs), slots), dtype=np.int64)
    for p, o in enumerate(outs):
        tt[p, : len(o.target.tns)] = o.target.tns
        ta[p, off: off + len(o.attacker.tns)] = o.attacker.tns
    return tt, ta, off


def _pattern_columns(plan: Plan) -> tuple[np.ndarray, dict[str, int]]:
    """Per hit pattern: the values whose sums give the pattern-level metrics."""
    outs = plan.outcomes
    att = plan.attacker_strikes
    hit = np.array([o.any_hit for o in outs], dtype=np.float64)
    nh = np.array([sum(o.hits[i] for i in att) for o in outs], dtype=np.float64)
    td = np.array([o.target_damage for o in outs], dtype=np.float64)
    sd = np.array([o.self_damage for o in outs], dtype=np.float64)
    dt = np.array([o.target_displaced for o in outs], dtype=np.float64)
    da = np.array([o.attacker_displaced for o in outs], dtype=np.float64)
    cols = {"hit": hit, "nh": nh, "nh2": nh * nh, "tdh": td * hit, "td2h": td * td * hit,
            "td": td, "td2": td * td, "sdh": sd * hit, "sd2h": sd * sd * hit, "sd": sd,
            "sd2": sd * sd, "dt": dt, "da": da}
    names = list(cols)
    mat = np.column_stack([cols[k] for k in names])
    hist = np.zeros((len(outs), plan.max_damage + 1))
    hist[np.arange(len(outs)), td.astype(np.intp)] = 1.0
    mat = np.concatenate([mat, hist], axis=1)
    return mat, {k: i for i, k in enumerate(names)}


def _pattern_rows(R: np.ndarray, v: np.ndarray, ix: dict[str, int]) -> np.ndarray:
    """Write the pattern-level metrics from summed pattern values ``v``; return the hist."""
    c_hit = v[ix["hit"]]
    R[_ROW["p_hit"], 1:] = c_hit, c_hit
    R[_ROW["expected_hits"], 1:] = v[ix["nh"]], v[ix["nh2"]]
    R[_ROW["damage"], 1:] = v[ix["tdh"]], v[ix["td2h"]]
    R[_ROW["expected_damage"], 1:] = v[ix["td"]], v[ix["td2"]]
    R[_ROW["self_damage"], 1:] = v[ix["sdh"]], v[ix["sd2h"]]
    R[_ROW["expected_self_damage"], 1:] = v[ix["sd"]], v[ix["sd2"]]
    R[_ROW["p_target_displaced"], 1:] = v[ix["dt"]], v[ix["dt"]]
    R[_ROW["p_attacker_displaced"], 1:] = v[ix["da"]], v[ix["da"]]
    return v[len(ix):]


def _finish(n: int, R: np.ndarray, hist: np.ndarray) -> Aggregate:
    """Build the aggregate from the (metrics, 3) table ``R`` (count column: 0 means ``n``)."""
    R[:, 0] = n
    R[_ROW["damage"], 0] = R[_ROW["self_damage"], 0] = R[_ROW["p_hit"], 1]
    agg = Aggregate(n)
    agg.stats = {name: R[i: i + 1] for i, name in enumerate(METRIC_NAMES)}
    agg.hists = {"damage_dist": np.rint(hist).astype(np.int64)[None, :]}
    return agg


# ------------------------------------------------------------------------------------------
# falls
# ------------------------------------------------------------------------------------------
#: Fall-damage lanes per hit column (standard table, 2D6; fall damage is at most 30 points).
_FALL_LANES = [_make_lanes(_FALL_LOC_BYTE[c, : F.ACCEPT], {1, 2, 3, 4, 5}, 30)
               for c in range(len(T.SIDES))]
#: Facing roll (1D6, monotone bytes) -> hit column (reference 4.4 table): the byte ranges
#: where the column is constant, derived from the table itself (front, right, rear, left).
_FALL_COL_EDGES = np.concatenate(
    ([0], np.flatnonzero(np.diff(_FALL_COL_BYTE[: F.ACCEPT].astype(np.int16))) + 1, [F.ACCEPT]))
_FALL_COL_ORDER = tuple(int(_FALL_COL_BYTE[lo]) for lo in _FALL_COL_EDGES[:-1])


def _fall_lanes(rng: np.random.Generator, u: UnitFall, ks: list[int], pilot_tns: list[int],
                base: np.ndarray | None, pilot: bool) -> tuple[np.ndarray, np.ndarray, int, int]:
    """Resolve ``sum(ks)`` falls of one unit in one hit pattern (reference 4.3-4.4): facing
    roll (or the fixed column), one 2D6 location roll per fall group, pilot roll (segment ``i``
    of ``ks`` fell on a roll whose pilot TN is ``pilot_tns[i]``). ``base``: the pilot's other
    head hits of each faller (segment order). Returns per-location fall damage sums and
    squares, and the pilot's extra damage sum and the increase of its sum of squares.

    Within a segment the fallers are exchangeable, so they are split by hit column with
    counted facing rolls and each column's fallers get their own location and pilot rolls."""
    s1 = np.zeros(NL)
    s2 = np.zeros(NL)
    e_sum = e_sq = 0
    off = 0
    for k, ptn in zip(ks, pilot_tns, strict=True):
        per_col: Iterable[tuple[int, Any]]
        if u.column is None:
            per_col = zip(_FALL_COL_ORDER, F.range_counts(rng, k, _FALL_COL_EDGES),
                          strict=True)
        else:
            per_col = ((u.column, k),)
        thr = F.thr_2d6(ptn)
        for col, kc in per_col:
            kc = int(kc)
            if not kc:
                continue
            lanes = _FALL_LANES[col]
            accs = _accumulate(lanes, F.die_bytes(rng, (len(u.groups), kc)), u.groups)
            a, b = _lane_sums(lanes, accs)
            s1 += a
            s2 += b
            if pilot:
                # fall groups are 5-point groups plus a smaller remainder: ceil(d / 5) heads
                e = (_lane(lanes, accs, lanes.hd, kc).astype(np.int64) + 4) // 5
                e += F.die_bytes(rng, kc) < thr
                e_sum += int(e.sum())
                if base is None:
                    e_sq += int(e @ e)
                else:
                    e_sq += int(e @ (2 * base[off: off + kc].astype(np.int64) + e))
            off += kc
    return s1, s2, e_sum, e_sq


@dataclass
class _FallCodes:
    """Count-based falls of one kind (groups, column, pilot TN): a faller's joint outcome
    (hit column, location of each of at most two groups, pilot roll failed) is one code."""

    ncode: int
    tables: list[np.ndarray]
    V: np.ndarray        # per code: damage by location (11), its square (11), e, e^2


@lru_cache(maxsize=512)
def _fall_codes(groups: tuple[int, ...], column: int | None, pilot_tn: int) -> _FallCodes | None:
    """Per-kind tables of :func:`_fall_batch` (None for more than two groups)."""
    if len(groups) > 2:
        return None
    comps: list[tuple[int, np.ndarray, int]] = []
    if column is None:                                  # facing roll -> column (4.4)
        comps.append((6, T.FALL_COLUMN[1:].astype(np.int64), len(T.SIDES)))
    for _ in groups:                                    # one 2D6 location roll per group
        comps.append((36, _TWO.astype(np.int64) - 2, 11))
    comps.append((36, (_TWO < pilot_tn).astype(np.int64), 2))   # pilot roll fails
    digits_n = [c[2] for c in comps]
    ncode = int(np.prod(digits_n))
    radix = [int(np.prod(digits_n[i + 1:])) for i in range(len(comps))]
    digits = np.unravel_index(np.arange(ncode), digits_n)
    col = np.full(ncode, column if column is not None else 0) if column is not None \
        else digits[0]
    first = 0 if column is not None else 1
    locdmg = np.zeros((ncode, NL + 1))
    e = digits[-1].astype(np.float64)
    for i, g in enumerate(groups):
        loc = T.STANDARD[col, digits[first + i] + 2].astype(np.intp)
        locdmg[np.arange(ncode), loc] += g
        e += loc == T.HD
    V = np.column_stack([locdmg[:, :NL], locdmg[:, :NL] ** 2, e, e * e])
    tables = []
    dt = np.uint16 if 3 * ncode < 65536 else np.uint32
    for blk in _pack_words([c[0] for c in comps]):
        tab, _ = F.word_table([comps[i][0] for i in blk], [comps[i][1] for i in blk],
                              [radix[i] for i in blk], ncode, dt)
        tables.append(tab)
    return _FallCodes(ncode, tables, V)


def _fall_batch(rng: np.random.Generator, u: UnitFall, k: int, pilot_tn: int, h: int,
                pilot: bool) -> tuple[np.ndarray, np.ndarray, float, float]:
    """``k`` falls of one unit whose pilot fell on a roll with pilot TN ``pilot_tn`` and
    already took ``h`` head hits (reference 4.3-4.4). Returns per-location fall damage sums
    and squares, the pilot's extra damage sum and the increase of its sum of squares."""
    fc = _fall_codes(u.groups, u.column, pilot_tn if pilot else 0)
    if fc is None:
        base = np.full(k, h, dtype=np.int64) if h else None
        a, b, es, eq = _fall_lanes(rng, u, [k], [pilot_tn], base, pilot)
        return a, b, float(es), float(eq)
    v = _draw_codes(fc, rng, k).astype(np.float64) @ fc.V
    if not pilot:
        return v[:NL], v[NL: 2 * NL], 0.0, 0.0
    es2, e22 = float(v[2 * NL]), float(v[2 * NL + 1])
    return v[:NL], v[NL: 2 * NL], es2, e22 + 2 * h * es2


# ------------------------------------------------------------------------------------------
# single-group path
# ------------------------------------------------------------------------------------------
def _set_partitions(items: list[int]) -> Iterator[list[list[int]]]:
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for part in _set_partitions(rest):
        for i in range(len(part)):
            yield part[:i] + [[first] + part[i]] + part[i + 1:]
        yield [[first]] + part


def _pack_words(sizes: list[int]) -> list[list[int]]:
    """Group components (raw outcome counts ``sizes``) into 16-bit words, minimizing a cost
    model: (words drawn and mapped + one bincount) / P(no word rejected)."""
    best, best_cost = None, np.inf
    for part in _set_partitions(list(range(len(sizes)))):
        ks = [int(np.prod([sizes[i] for i in blk])) for blk in part]
        if max(ks, default=1) > 65536:
            continue
        acc = float(np.prod([(65536 // k) * k / 65536 for k in ks]))
        cost = (2.3 * len(part) + 1.6) / acc
        if cost < best_cost - 1e-9:
            best, best_cost = part, cost
    assert best is not None
    return best


@dataclass
class _Single:
    ncode: int
    tables: list[np.ndarray]
    V: np.ndarray
    pix: dict[str, int]
    npat_cols: int
    col: dict[str, Any]
    classes: dict[str, list[tuple[int, int, int]]]   # per unit: (pattern, own slot, heads)


def _prep_single(plan: Plan) -> _Single:
    """Per-plan tables of the single-group path (see the module docstring)."""
    comps: list[tuple[int, np.ndarray, int]] = []       # (raw size, raw -> digit, digits)
    states: list[np.ndarray] = []
    for i in range(len(plan.strikes)):
        lut, size = _strike_lut(plan, i)
        st, inv = np.unique(lut, return_inverse=True)
        comps.append((size, inv.ravel(), len(st)))
        states.append(st)
    tt, ta, off = _slot_tables(plan)
    slot_thr: list[list[int]] = []
    slot_comp: list[int | None] = []
    for s in range(tt.shape[1]):
        tns = sorted({int(x) for x in np.concatenate([tt[:, s], ta[:, s]]) if x > 0})
        slot_thr.append(tns)
        if tns:
            bucket = np.searchsorted(np.array(tns), _TWO, side="right")
            slot_comp.append(len(comps))
            comps.append((36, bucket, len(tns) + 1))
        else:
            slot_comp.append(None)
    digits_n = [c[2] for c in comps]
    ncode = int(np.prod(digits_n)) if comps else 1
    radix = [int(np.prod(digits_n[i + 1:])) for i in range(len(comps))]
    digits = np.unravel_index(np.arange(ncode), digits_n) if comps else ()
    # tables of the words
    tables: list[np.ndarray] = []
    if comps:
        words = _pack_words([c[0] for c in comps])
        dt = np.uint16 if len(words) * ncode < 65536 else np.uint32
        for blk in words:
            tab, _ = F.word_table([comps[i][0] for i in blk], [comps[i][1] for i in blk],
                                  [radix[i] for i in blk], ncode, dt)
            tables.append(tab)
    # per-code values
    pattern = np.zeros(ncode, dtype=np.intp)
    locdmg = np.zeros((ncode, NL + 1))
    heads = np.zeros(ncode)
    headdmg = np.zeros(ncode)
    tac = np.zeros(ncode, dtype=bool)
    for i, strike in enumerate(plan.strikes):
        code = states[i][digits[i]].astype(np.intp)
        hit = code != T.MISS
        pattern |= hit.astype(np.intp) << i
        if strike.who != "attacker" or not strike.groups:
            continue
        loc = np.where(hit, code % (NL + 1), NL)
        locdmg[np.arange(ncode), loc] += strike.damage * hit
        heads += hit & (loc == T.HD)
        headdmg += strike.damage * (hit & (loc == T.HD))
        tac |= hit & (code > NL)
    pmat, pix = _pattern_columns(plan)
    cols = [pmat[pattern], locdmg[:, :NL], locdmg[:, :NL] ** 2,
            np.column_stack([heads > 0, headdmg >= T.FRESH_HEAD, tac, heads, heads ** 2])]
    col: dict[str, Any] = {}
    pos = pmat.shape[1]
    col["loc"] = pos
    pos += 2 * NL
    col["head"], col["hdes"], col["tac"], col["heads"], col["heads2"] = range(pos, pos + 5)
    pos += 5
    # first failing roll of each unit, and its fall class (pattern, own slot, base heads)
    classes: dict[str, list[tuple[int, int, int]]] = {}
    for unit, tu in (("target", tt), ("attacker", ta)):
        first = np.full(ncode, -1)
        for s in range(tt.shape[1]):
            comp = slot_comp[s]
            if comp is None:
                continue
            tn = tu[pattern, s]
            j = np.searchsorted(np.array(slot_thr[s]), tn)   # index of tn among thresholds
            fail = (tn > 0) & (digits[comp] <= j)
            first = np.where((first < 0) & fail, s, first)
        own0 = off if unit == "attacker" else 0
        base = heads.astype(np.intp) if unit == "target" else np.zeros(ncode, dtype=np.intp)
        keys = sorted({(int(pattern[c]), int(first[c]) - own0, int(base[c]))
                       for c in range(ncode) if first[c] >= 0})
        kid = {key: i for i, key in enumerate(keys)}
        onehot = np.zeros((ncode, len(keys)))
        for c in np.flatnonzero(first >= 0):
            onehot[c, kid[(int(pattern[c]), int(first[c]) - own0, int(base[c]))]] = 1.0
        cols.append(onehot)
        col[unit] = pos
        pos += len(keys)
        classes[unit] = keys
    V = np.concatenate(cols, axis=1)
    return _Single(ncode, tables, V, pix, pmat.shape[1], col, classes)


def _draw_codes(prep: _Single | _FallCodes, rng: np.random.Generator, n: int) -> np.ndarray:
    """Counts of the ``n`` trials' outcome codes; rejected trials are redrawn by count."""
    total = np.zeros(prep.ncode, dtype=np.int64)
    if not prep.tables:
        total[0] = n
        return total
    while n:
        joint = prep.tables[0].take(F.raw_words(rng, n))
        for tab in prep.tables[1:]:
            joint += tab.take(F.raw_words(rng, n))
        c = np.bincount(joint, minlength=prep.ncode)
        total += c[: prep.ncode]
        n = int(c[prep.ncode:].sum())
    return total


def _sample_single(plan: Plan, prep: _Single, rng: np.random.Generator, n: int) -> Aggregate:
    counts = _draw_codes(prep, rng, n)
    v = counts.astype(np.float64) @ prep.V
    R = np.zeros((len(METRIC_NAMES), 3))
    hist = _pattern_rows(R, v[: prep.npat_cols], prep.pix)
    c = prep.col
    R[_LOC_ROWS, 1] = v[c["loc"]: c["loc"] + NL]
    R[_LOC_ROWS, 2] = v[c["loc"] + NL: c["loc"] + 2 * NL]
    for name, key in (("p_head_hit", "head"), ("p_head_destroyed", "hdes"), ("p_tac", "tac")):
        R[_ROW[name], 1:] = v[c[key]]
    pilot = plan.scenario.rules.pilot_damage
    for unit in UNITS:
        keys = prep.classes[unit]
        kc = np.rint(v[c[unit]: c[unit] + len(keys)]).astype(np.int64)
        if unit == "target":
            psum, psq = v[c["heads"]], v[c["heads2"]]
        else:
            psum = psq = 0.0
        batches = [(p, slot, h, int(k)) for (p, slot, h), k in zip(keys, kc, strict=True)]
        _unit_falls(plan, rng, R, unit, batches, pilot, psum, psq)
    return _finish(n, R, hist)


def _unit_falls(plan: Plan, rng: np.random.Generator, R: np.ndarray, unit: str,
                batches: list[tuple[int, int, int, int]], pilot: bool, psum: float,
                psq: float, streams: Streams | None = None) -> None:
    """Fall metrics of one unit from its fallers in ``batches`` of (pattern, failing roll,
    head hits already taken, count). ``psum``/``psq``: the pilot's head-hit sums of all
    trials. With ``streams``, batch ``i`` draws from sub-stream ``(FALLS + unit, i)``."""
    k_tot = 0
    dsum = dsq = 0.0
    s1 = np.zeros(NL)
    s2 = np.zeros(NL)
    for i, (p, slot, h, k) in enumerate(batches):
        if k <= 0:
            continue
        u: UnitFall = getattr(plan.outcomes[p], unit)
        k_tot += k
        dsum += k * u.damage
        dsq += k * u.damage * u.damage
        src = rng if streams is None else streams(FALLS + UNITS.index(unit), i)
        a, b, es, eq = _fall_batch(src, u, k, u.pilot_tns[slot], h, pilot)
        s1 += a
        s2 += b
        psum += es
        psq += eq
    R[_ROW[f"p_{unit}_falls"], 1:] = k_tot
    R[_ROW[f"expected_fall_damage_{unit}"], 1:] = dsum, dsq
    R[_FALL_LOC_ROWS[unit], 1] = s1
    R[_FALL_LOC_ROWS[unit], 2] = s2
    if pilot:
        R[_ROW[f"expected_pilot_damage_{unit}"], 1:] = psum, psq


# ------------------------------------------------------------------------------------------
# one-strike path (punch with one arm, kick, club, hatchet, push): counts only
# ------------------------------------------------------------------------------------------
@dataclass
class _One:
    thr_hit: int
    edges: np.ndarray       # byte ranges of constant location state (hit trials)
    loc: np.ndarray         # location code of each range (NL: none)
    tac: np.ndarray         # TAC flag of each range
    group: int              # damage of the single group
    has_loc: bool           # a location roll (a damage group, possibly of 0 points)
    pmat: np.ndarray
    pix: dict[str, int]


def _prep_one(plan: Plan) -> _One:
    st = plan.strikes[0]
    if st.groups:
        bl = _byte_locations(st.table, st.side).astype(np.int64)
        tac = np.zeros(F.ACCEPT, dtype=bool)
        if T.TABLE_DICE[st.table] == 2 and plan.scenario.rules.tac:
            tac[: F.THR_2D6[3]] = True                      # a 2 on the 2D6 table
        state = bl + (NL + 1) * tac
        cut = np.flatnonzero(np.diff(state)) + 1
        edges = np.concatenate([[0], cut, [F.ACCEPT]])
        loc, tflag = bl[edges[:-1]], tac[edges[:-1]]
    else:
        edges = np.array([0, F.ACCEPT])
        loc, tflag = np.array([NL]), np.array([False])
    pmat, pix = _pattern_columns(plan)
    return _One(F.thr_2d6(st.tn), edges, loc, tflag, st.groups[0] if st.groups else 0,
                bool(st.groups), pmat, pix)


def _sample_one(plan: Plan, prep: _One, rng: np.random.Generator, n: int) -> Aggregate:
    """One strike, at most one damage group: the hit count, the location counts of the hits
    and the PSR failures of each (pattern, head hit) class are exact counts of byte rolls.

    Each count draws from its own sub-stream (:class:`sim.streams.Streams`: the to-hit
    rolls, the location rolls, each PSR class and slot, each fall batch), so two paired
    scenarios count over common prefixes of the same bytes, whatever the other counts were
    (issue 12, pairing)."""
    R = np.zeros((len(METRIC_NAMES), 3))
    streams = Streams(rng)
    m = n - F.count_below(streams(TO_HIT, 0), n, prep.thr_hit)
    hist = _pattern_rows(R, np.array([n - m, m], dtype=np.float64) @ prep.pmat, prep.pix)
    n_hd = 0
    if prep.has_loc and m:
        rc = F.range_counts(streams(LOCATION, 0), m, prep.edges)
        nloc = np.bincount(prep.loc, weights=rc, minlength=NL + 1)[:NL]
        g = prep.group
        R[_LOC_ROWS, 1] = g * nloc
        R[_LOC_ROWS, 2] = g * g * nloc
        n_hd = int(nloc[T.HD])
        R[_ROW["p_head_hit"], 1:] = n_hd
        R[_ROW["p_head_destroyed"], 1:] = n_hd if g >= T.FRESH_HEAD else 0
        c = float(rc[prep.tac].sum())
        R[_ROW["p_tac"], 1:] = c
    pilot = plan.scenario.rules.pilot_damage
    for unit in UNITS:
        batches: list[tuple[int, int, int, int]] = []
        classes = ((0, n - m, 0), (1, m - n_hd, 0), (1, n_hd, 1)) if unit == "target" else \
            ((0, n - m, 0), (1, m, 0))
        for ci, (p, cnt, h) in enumerate(classes):
            u: UnitFall = getattr(plan.outcomes[p], unit)
            alive = cnt
            for s, tn in enumerate(u.tns):
                src = streams(PSR + 8 * UNITS.index(unit) + ci, s)
                k = F.count_below(src, alive, F.thr_2d6(tn))
                alive -= k
                batches.append((p, s, h, k))
        psum = psq = float(n_hd) if unit == "target" else 0.0
        _unit_falls(plan, rng, R, unit, batches, pilot, psum, psq, streams)
    return _finish(n, R, hist)


# ------------------------------------------------------------------------------------------
# multi-group path (charge, DFA)
# ------------------------------------------------------------------------------------------
@dataclass
class _Multi:
    thr_hit: int
    sizes: tuple[int, ...]
    lanes: _Lanes
    tac: bool
    self_sizes: int                      # number of self-damage groups (hit pattern)
    self_hd: np.ndarray | None           # byte -> 1 if a self group there strikes the head
    pmat: np.ndarray
    pix: dict[str, int]


def _prep_multi(plan: Plan) -> _Multi:
    st = plan.strikes[0]
    sizes = st.groups
    lanes = _make_lanes(_byte_locations(st.table, st.side), set(sizes), sum(sizes))
    o = plan.outcomes[1]
    self_hd = None
    if o.self_groups:
        sb = _byte_locations(o.self_table, T.SIDE["front"]) == T.HD
        if sb.any():
            self_hd = np.zeros(256, dtype=np.uint8)
            self_hd[: F.ACCEPT] = sb
    pmat, pix = _pattern_columns(plan)
    return _Multi(F.thr_2d6(st.tn), sizes, lanes,
                  T.TABLE_DICE[st.table] == 2 and plan.scenario.rules.tac,
                  len(o.self_groups), self_hd, pmat, pix)


def _sample_multi(plan: Plan, prep: _Multi, rng: np.random.Generator, n: int) -> Aggregate:
    """One strike with several 5-point groups (charge, DFA): counted hits, per-trial location
    lanes for the hits, counted PSRs, fallers paired with the first trials' head hits."""
    R = np.zeros((len(METRIC_NAMES), 3))
    m = n - F.count_below(rng, n, prep.thr_hit)
    pc = np.array([n - m, m], dtype=np.float64)
    hist = _pattern_rows(R, pc @ prep.pmat, prep.pix)
    heads = None
    if m:
        b = F.die_bytes(rng, (len(prep.sizes), m))
        accs = _accumulate(prep.lanes, b, prep.sizes)
        s1, s2 = _lane_sums(prep.lanes, accs)
        R[_LOC_ROWS, 1] = s1
        R[_LOC_ROWS, 2] = s2
        if prep.lanes.hd >= 0:
            hd = _lane(prep.lanes, accs, prep.lanes.hd, m)
            R[_ROW["p_head_hit"], 1:] = np.count_nonzero(hd)
            R[_ROW["p_head_destroyed"], 1:] = np.count_nonzero(hd >= T.FRESH_HEAD)
            # groups are 5-point groups plus one smaller remainder: head groups = ceil(d / 5)
            heads = (hd.astype(np.int64) + 4) // 5
        if prep.tac:
            R[_ROW["p_tac"], 1:] = np.count_nonzero(b.min(axis=0) < F.THR_2D6[3])
    pilot = plan.scenario.rules.pilot_damage
    # attacker's own head hits from its self-damage groups (hit pattern)
    heads_a = None
    if m and prep.self_hd is not None:
        sb = F.die_bytes(rng, (prep.self_sizes, m))
        heads_a = prep.self_hd.take(sb[0])
        for i in range(1, prep.self_sizes):
            heads_a += prep.self_hd.take(sb[i])
        heads_a = heads_a.astype(np.int64)
    for unit, base in (("target", heads), ("attacker", heads_a)):
        # the fallers of the hit pattern are its first trials (exchangeable, and independent
        # of the PSR rolls), split by the head hits they already took
        batches: list[tuple[int, int, int, int]] = []
        for p, cnt in enumerate((n - m, m)):
            u: UnitFall = getattr(plan.outcomes[p], unit)
            alive = cnt
            off = 0
            for s, tn in enumerate(u.tns):
                k = F.count_below(rng, alive, F.thr_2d6(tn))
                alive -= k
                if p == 1 and base is not None and k:
                    hc = np.bincount(base[off: off + k])
                    batches.extend((p, s, h, int(c)) for h, c in enumerate(hc) if c)
                else:
                    batches.append((p, s, 0, k))
                off += k
        psum = psq = 0.0
        if base is not None:
            psum, psq = float(base.sum()), float(base @ base)
        _unit_falls(plan, rng, R, unit, batches, pilot, psum, psq)
    return _finish(n, R, hist)


# ------------------------------------------------------------------------------------------
# entry point and the per-plan cache
# ------------------------------------------------------------------------------------------
_CACHE_BY_ID: dict[int, tuple[Plan, Any]] = {}
_CACHE: dict[Plan, Any] = {}


class PlanPathError(ValueError):
    """A plan whose shape the kernel's chosen code path cannot sample exactly."""


def _fall_fits(o: Any) -> str | None:
    for unit in UNITS:
        u: UnitFall = getattr(o, unit)
        if u.tns and (u.groups != D.groups(u.damage) or u.damage > 30
                      or (u.column is not None and not 0 <= u.column < len(T.SIDES))):
            return (f"{unit} fall of {u.damage} points in groups {u.groups}: the fall lanes "
                    "take 5-point groups of at most 30 points")
    return None


def path_misfit(plan: Plan, path: str) -> str | None:
    """Why ``plan`` does not fit the kernel path ``path`` ("one", "single", "multi"), or None.

    * ``one``: exactly one strike by the attacker, at most one damage group, no self-damage;
    * ``single``: every strike at most one damage group (a target's counter-strike none), no
      self-damage;
    * ``multi``: exactly one strike by the attacker, its groups the 5-point groups of its
      damage (head hits are counted as ceil(head damage / 5)), self-damage only on a hit.
    Every path: falls in 5-point groups of at most 30 points (the fall lanes)."""
    strikes = plan.strikes
    outs = plan.outcomes
    if any(st.who == "target" and st.groups for st in strikes):
        return "a target's counter-strike deals damage: only hit/miss counter-strikes are drawn"
    if path in ("one", "multi"):
        if len(strikes) != 1 or strikes[0].who != "attacker":
            return f"{len(strikes)} strikes: this path draws exactly one attacker strike"
    if path in ("one", "single"):
        if any(len(st.groups) > 1 for st in strikes):
            return "a strike with several damage groups: this path draws one location roll"
        if any(o.self_groups for o in outs):
            return "self-damage groups: this path draws no location rolls for the attacker"
    if path == "multi":
        st = strikes[0]
        if tuple(st.groups) != D.groups(sum(st.groups)):
            return (f"damage groups {st.groups} are not the 5-point groups of "
                    f"{sum(st.groups)} points")
        if outs[0].self_groups:
            return "self-damage on a miss: this path draws self-damage locations on hits only"
        if any(g > 5 for g in outs[-1].self_groups):
            return f"self-damage groups {outs[-1].self_groups} larger than 5 points"
    if path not in ("one", "single", "multi"):
        return f"unknown kernel path {path!r}"
    for o in outs:
        why = _fall_fits(o)
        if why:
            return why
    return None


def choose_path(plan: Plan) -> str:
    """The kernel path for ``plan``: "one", "single" or "multi" (module docstring)."""
    single = (all(len(st.groups) <= 1 for st in plan.strikes)
              and not any(o.self_groups for o in plan.outcomes))
    if single and len(plan.strikes) == 1:
        return "one"
    return "single" if single else "multi"


_PREP = {"one": lambda p: _prep_one(p), "single": lambda p: _prep_single(p),
         "multi": lambda p: _prep_multi(p)}


def _prepared(plan: Plan) -> Any:
    """The plan's tables, computed once (by identity, then by value; both bounded). A plan
    that does not fit the chosen path raises :class:`PlanPathError` (never sampled wrongly)."""
    hit = _CACHE_BY_ID.get(id(plan))
    if hit is not None and hit[0] is plan:
        return hit[1]
    prep = _CACHE.get(plan)
    if prep is None:
        path = choose_path(plan)
        why = path_misfit(plan, path)
        if why is not None:
            raise PlanPathError(f"the attack kernel cannot sample this {plan.scenario.attack} "
                                f"plan on its {path!r} path: {why}")
        prep = _PREP[path](plan)
        if len(_CACHE) >= 512:
            _CACHE.clear()
        _CACHE[plan] = prep
    if len(_CACHE_BY_ID) >= 512:
        _CACHE_BY_ID.clear()
    _CACHE_BY_ID[id(plan)] = (plan, prep)
    return prep


def sample(plan: Plan, rng: np.random.Generator, n: int) -> Aggregate:
    """Resolve ``n`` attacks of ``plan`` and return their aggregate (all metrics)."""
    prep = _prepared(plan)
    if isinstance(prep, _One):
        return _sample_one(plan, prep, rng, n)
    if isinstance(prep, _Single):
        return _sample_single(plan, prep, rng, n)
    return _sample_multi(plan, prep, rng, n)

