"""Exact per-turn curves of the ``fire`` model: a Markov chain over the firing 'Mech's state.

State after a heat phase: heat level, shut down, out (after an uncontained ammunition
explosion), ever shut down, ever exploded, the jam bit of every Ultra / Rotary AC, and the
rounds left of every *tracked* ammunition pool. A pool is tracked when it can run out within
the run (rounds < T x the most it can use per turn), when an explosion can empty it (CASE),
when it ties another pool on damage per round (C8 picks by rounds left), or under a callable
policy; untracked pools always hold at least a full turn's fire, so their rounds matter only
to the ``expected_ammo_left`` metric, which the chain accumulates from expected use.

Only reachable states are kept; the transitions of a state are computed once per range step
and kept as arrays (:class:`_Step`) shared by all turns at that range, so a turn is a sparse
vector step, not a Python loop over states. The chain gives up (returns None) above
:data:`MAX_STATES` states in one turn.
"""

from __future__ import annotations

from fractions import Fraction
from operator import sub
from typing import Any

import numpy as np

from sim.classic import tables as CT
from sim.classic.fire import heat as H
from sim.classic.fire.policies import Decider, canonical_jams
from sim.classic.fire.scenario import FireScenario
from sim.dice import P_2D6_AT_LEAST, PMF_2D6

#: Bound on the number of distinct states in one turn (exact path refused above it).
MAX_STATES = 20000
#: Front-column location probabilities HD..RL (12.2).
P_FRONT = CT.location_probabilities(CT.TABLE_STANDARD, CT.SIDE["front"])[:8]


def _p_at_least(tn: int) -> float:
    return float(P_2D6_AT_LEAST[max(0, min(14, tn))])


def _p_le(j: int) -> float:
    """P(unmodified 2D6 <= j)."""
    return float(sum(PMF_2D6[2: j + 1], Fraction(0))) if j >= 2 else 0.0


def tracked_pools(scn: FireScenario) -> tuple[bool, ...]:
    """Which ammunition pools the chain tracks (see the module docstring)."""
    pools = scn.unit.pools
    out = []
    for i, p in enumerate(pools):
        use = sum(1 if g.streak else g.rate for g in scn.guns if g.pool == i)
        ties = sum(1 for q in pools if q.explosive and q.damage_per_shot == p.damage_per_shot)
        out.append(scn.policy.kind == "callable" or (use > 0 and p.shots < scn.turns * use)
                   or (p.explosive and p.contained) or (p.explosive and ties > 1))
    return tuple(out)


class _Chain:
    def __init__(self, scn: FireScenario, ever: bool = True) -> None:
        self.scn = scn
        #: track the "ever shut down / exploded" flags (False: those two curves read 0)
        self.ever = ever
        self.dec = Decider(scn)
        self.tracked = tracked_pools(scn)
        self.tidx = [i for i, t in enumerate(self.tracked) if t]
        self.cache: dict[tuple, tuple] = {}
        self.pmf_cache: dict[tuple, np.ndarray] = {}
        self.expl = scn.explosive_pools()
        self.jammable = [g for g, gun in enumerate(scn.guns) if any(gun.jam_le)]
        # interchangeable guns: states that differ only in which of them jammed are one
        # (the decider is equivariant; a callable policy sees gun indexes: no merging)
        self.classes = self.dec.classes if scn.policy.kind != "callable" else tuple(
            (g,) for g in range(len(scn.guns)))
        self.canon_cache: dict[int, int] = {}
        self.fire_cache: dict[tuple, tuple] = {}
        self.shut_cache: dict[tuple, list[tuple[bool, bool, float]]] = {}
        self.expl_cache: dict[tuple, list[tuple[bool, tuple[int, ...], bool, float]]] = {}
        self.no_use = np.zeros(len(scn.unit.pools))
        self.no_damage = np.ones(1)
        #: most rounds each tracked pool's guns can use in one turn
        self.demand = tuple(sum(g.rate for g in scn.guns if g.pool == i) for i in self.tidx)

    def _canon(self, bits: int) -> int:
        """:func:`canonical_jams` of ``bits``, cached."""
        out = self.canon_cache.get(bits)
        if out is None:
            out = self.canon_cache[bits] = canonical_jams(self.classes, bits)
        return out

    def _pmf(self, fired: tuple[tuple[int, int, int], ...]) -> np.ndarray:
        out = self.pmf_cache.get(fired)
        if out is None:
            guns = self.scn.guns
            ams = self.scn.target_ams
            engaged = sorted((x for x in fired if ams and guns[x[0]].ams_target),
                             key=lambda x: (-guns[x[0]].ams_priority, x[0]))
            out = np.zeros(1)
            out[0] = 1.0
            for g, tn, s in fired:
                if not (ams and guns[g].ams_target):
                    out = np.convolve(out, guns[g].damage_pmf_float(tn, s))
            if engaged:
                out = _ams_pmf(self.scn, out, engaged)
            self.pmf_cache[fired] = out
        return out

    def _fired(self, r: int, t: int, h: int, jb: int, am: tuple[int, ...]) -> list[int]:
        scn = self.scn
        avail = 0
        for g, gun in enumerate(scn.guns):
            if (jb >> g) & 1:
                continue
            if gun.pool >= 0 and self.tracked[gun.pool] and am[self.tidx.index(gun.pool)] <= 0:
                continue
            avail |= 1 << g
        if scn.policy.kind == "callable":
            assert scn.policy.fn is not None
            ng = len(scn.guns)
            ammo = np.array([[am[self.tidx.index(i)] if self.tracked[i] else p.shots
                              for i, p in enumerate(scn.unit.pools)]], dtype=np.int64)
            av = np.array([[(avail >> g) & 1 for g in range(ng)]], dtype=bool)
            want = np.broadcast_to(np.asarray(scn.policy.fn(np.array([h]), t + 1,
                                                            {"avail": av, "ammo": ammo})
                                              ).astype(bool), (1, ng))[0]
            mask = sum(1 << g for g in range(ng) if want[g])
        else:
            mask = self.dec.mask(r, h, avail)
        return [g for g, gun in enumerate(scn.guns)
                if (mask >> g) & 1 and (avail >> g) & 1 and gun.tn[r, h] <= 12]

    def _fire(self, r: int, t: int, h: int, jb: int, am: tuple[int, ...]) -> tuple:
        """What an active 'Mech's fire does this turn: (combos, expected damage, damage
        pmf, expected rounds used per pool), combos = (p, heat build-up, jam bits after,
        rounds used per tracked pool). Cached on the rounds left capped at what the pool's
        guns can use in one turn (more rounds change nothing this turn); a callable policy
        sees the rounds themselves."""
        scn = self.scn
        callable_policy = scn.policy.kind == "callable"
        capped = am if callable_policy else tuple(map(min, am, self.demand))
        fkey = (r, t if callable_policy else 0, h, jb, capped)
        hit = self.fire_cache.get(fkey)
        if hit is not None:
            return hit
        use = np.zeros(len(scn.unit.pools))
        fired = self._fired(r, t, h, jb, capped)
        left = list(capped)
        det_heat = int(scn.move_heat[h])
        rand: list[tuple[int, float, int, int]] = []   # (kind, p, gun, tracked pool)
        key_f = []
        for g in fired:
            gun = scn.guns[g]
            s = gun.rate
            ti = self.tidx.index(gun.pool) if gun.pool >= 0 and self.tracked[gun.pool] \
                else -1
            if ti >= 0 and not gun.streak:
                s = min(s, left[ti])
                left[ti] -= s
            tn = int(gun.tn[r, h])
            key_f.append((g, tn, s))
            p_hit = _p_at_least(tn)
            if gun.streak:
                rand.append((0, p_hit, g, ti))
                if gun.pool >= 0:
                    use[gun.pool] += p_hit
            else:
                det_heat += gun.heat_of(s)
                if gun.pool >= 0:
                    use[gun.pool] += s
                if gun.jam_le[s]:
                    rand.append((1, _p_le(gun.jam_le[s]), g, -1))
        pmf = self._pmf(tuple(key_f))
        e_dmg = float(np.dot(np.arange(pmf.size), pmf))
        # the random events one at a time (a Streak hits: its heat and a round; a gun
        # jams), merging outcomes that agree (jams of interchangeable guns by count)
        spent = tuple(c - x for c, x in zip(capped, left, strict=True))
        part: dict[tuple[int, int, tuple[int, ...]], float] = {(det_heat, jb, spent): 1.0}
        for kind, q, g, ti in rand:
            nxt: dict[tuple[int, int, tuple[int, ...]], float] = {}
            for (heat_b, jb2, sp), p in part.items():
                if q < 1.0:
                    k0 = (heat_b, jb2, sp)
                    nxt[k0] = nxt.get(k0, 0.0) + p * (1.0 - q)
                if q > 0.0:
                    if kind == 0:
                        a = list(sp)
                        if ti >= 0:
                            a[ti] += 1
                        k1 = (heat_b + scn.guns[g].heat_of(scn.guns[g].rate), jb2,
                              tuple(a))
                    else:
                        k1 = (heat_b, self._canon(jb2 | 1 << g), sp)
                    nxt[k1] = nxt.get(k1, 0.0) + p * q
            part = nxt
        out = ([(p, hb, j, sp) for (hb, j, sp), p in part.items()], e_dmg, pmf, use)
        self.fire_cache[fkey] = out
        return out

    def transitions(self, r: int, t: int, state: tuple) -> tuple:
        """Outcomes of one turn from ``state`` = (h, shut, out, jam bits, tracked ammo)."""
        key = (r, state) if self.scn.policy.kind != "callable" else (r, t, state)
        hit = self.cache.get(key)
        if hit is not None:
            return hit
        scn = self.scn
        h, sd, o, jb, am = state
        active = not sd and not o
        use = self.no_use
        combos: list[tuple[float, int, int, tuple[int, ...]]] = [(1.0, 0, jb, am)]
        e_dmg = 0.0
        pmf = self.no_damage
        if active:
            fc, e_dmg, pmf, use = self._fire(r, t, h, jb, am)
            combos = [(p, hb, j, tuple(map(sub, am, sp)) if sp else am)
                      for p, hb, j, sp in fc]
        outs: dict[tuple, float] = {}
        for p, build, jb2, am2t in combos:
            h2 = max(0, h + build - scn.dissipation)
            for s2, goes, ps in self._shut_options(h2, sd, o):
                if ps <= 0:
                    continue
                for o2, am3, boom, pb in self._explode(h2, o, s2, am2t):
                    if pb <= 0:
                        continue
                    k = (h2, s2 and not o2, o2, goes and self.ever, boom and self.ever,
                         jb2, am3)
                    outs[k] = outs.get(k, 0.0) + p * ps * pb
        res = (tuple(outs.items()), e_dmg, pmf, use)
        self.cache[key] = res
        return res

    def _shut_options(self, h2: int, sd: bool, o: bool) -> list[tuple[bool, bool, float]]:
        """(shut down after, shut down now, probability) of the heat phase's restart /
        shutdown roll at heat ``h2`` (13.4 step 3), cached."""
        key = (h2, sd, o)
        out = self.shut_cache.get(key)
        if out is not None:
            return out
        scn = self.scn
        row = min(h2, H.HEAT_TOP)
        if sd:
            if h2 < H.AUTO_RESTART_BELOW:
                p_rs = 1.0
            elif h2 < H.AUTO_SHUTDOWN:
                p_rs = _p_at_least(int(H.SHUTDOWN_AVOID[row]))
            else:
                p_rs = 0.0
            out = [(False, False, p_rs), (True, False, 1.0 - p_rs)]
        elif o or h2 < 14:
            out = [(False, False, 1.0)]
        elif h2 >= H.AUTO_SHUTDOWN:
            out = [(True, True, 1.0)]
        else:
            av = int(H.shutdown_avoid(row, scn.rules.tacops_shutdown, scn.rules.piloting))
            q = _p_at_least(av)
            out = [(False, False, q), (True, True, 1.0 - q)]
        self.shut_cache[key] = out
        return out

    def _explode(self, h2: int, o: bool, s2: bool, am: tuple[int, ...]
                 ) -> list[tuple[bool, tuple[int, ...], bool, float]]:
        key = (min(h2, H.HEAT_TOP), o, s2, am)
        out = self.expl_cache.get(key)
        if out is None:
            out = self.expl_cache[key] = self._explode_now(h2, o, s2, am)
        return out

    def _explode_now(self, h2: int, o: bool, s2: bool, am: tuple[int, ...]
                     ) -> list[tuple[bool, tuple[int, ...], bool, float]]:
        scn = self.scn
        if o or h2 < H.AMMO_CHECK_FROM or not self.expl or (
                s2 and not scn.rules.explosion_while_shutdown):
            return [(o, am, False, 1.0)]
        cands = []
        for i in self.expl:
            pool = scn.unit.pools[i]
            if self.tracked[i]:
                rounds = am[self.tidx.index(i)]
                if rounds <= 0:
                    continue
            else:
                rounds = pool.shots   # untracked: never empty; no tie on damage per round
            cands.append((pool.damage_per_shot, pool.explosion_loss(rounds), -i, i))
        if not cands:
            return [(o, am, False, 1.0)]
        q = _p_at_least(int(H.AMMO_AVOID[min(h2, H.HEAT_TOP)]))
        _, lost, _, i = max(cands)
        boom_state: tuple[bool, tuple[int, ...], bool, float]
        if scn.unit.pools[i].contained:     # C8: that bin's rounds are lost
            am2 = list(am)
            am2[self.tidx.index(i)] -= lost
            boom_state = (o, tuple(am2), True, 1.0 - q)
        else:
            boom_state = (True, am, True, 1.0 - q)
        return [(o, am, False, q), boom_state]


def _ams_pmf(scn: FireScenario, base: np.ndarray,
             engaged: list[tuple[int, int, int]]) -> np.ndarray:
    """The turn's damage distribution when the target's ``target_ams`` anti-missile systems
    engage the missile attacks ``engaged`` (gun, TN, shots; most dangerous first): a
    distribution per number of AMS still free, each gun in order taking one where it hits
    (``ams_engages=hit``) or where it fires (``declared``); ``base`` is the other guns'."""
    free: dict[int, np.ndarray] = {scn.target_ams: base}
    declared = scn.rules.ams_engages == "declared"
    for g, tn, s in engaged:
        gun = scn.guns[g]
        p = _p_at_least(tn) if tn <= 12 else 0.0
        normal = gun.damage_pmf_float(tn, s)
        with_ams = p * gun.damage_given_hit(s, ams=True)
        with_ams[0] += 1.0 - p
        nxt: dict[int, np.ndarray] = {}
        for k, dist in free.items():
            if k == 0:
                _add(nxt, 0, np.convolve(dist, normal))
            elif declared:
                _add(nxt, k - 1, np.convolve(dist, with_ams))
            else:
                _add(nxt, k - 1, np.convolve(dist, p * gun.damage_given_hit(s, ams=True)))
                _add(nxt, k, dist * (1.0 - p))
        free = nxt
    out = np.zeros(1)
    for d in free.values():
        out = _sum(out, d)
    return out


def _sum(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Elementwise sum of two distributions of different lengths."""
    size = max(a.size, b.size)
    return np.pad(a, (0, size - a.size)) + np.pad(b, (0, size - b.size))


def _add(into: dict[int, np.ndarray], k: int, arr: np.ndarray) -> None:
    cur = into.get(k)
    into[k] = arr if cur is None else _sum(cur, arr)


class _Step:
    """The transitions of one turn kind (a range step; also the turn under a callable
    policy) over the states reached so far, as arrays: for every state computed, its
    expected damage, damage pmf group and the edges (from, to, probability, flags: bit 0
    ever shut down, bit 1 ever exploded)."""

    def __init__(self) -> None:
        self.done: set[int] = set()
        self.ed: dict[int, float] = {}
        self.gid: dict[int, int] = {}
        self.src: list[int] = []
        self.dst: list[int] = []
        self.prob: list[float] = []
        self.flag: list[int] = []
        self._arrays: tuple[int, list[tuple[int, np.ndarray, np.ndarray, np.ndarray]]] = (
            -1, [])

    def edges(self) -> list[tuple[int, np.ndarray, np.ndarray, np.ndarray]]:
        """(flags, from, to, probability) arrays, one entry per flag value present."""
        if self._arrays[0] != len(self.src):
            src, dst = np.array(self.src, np.int64), np.array(self.dst, np.int64)
            prob, flag = np.array(self.prob), np.array(self.flag, np.int64)
            self._arrays = (len(self.src), [(int(e), src[flag == e], dst[flag == e],
                                             prob[flag == e]) for e in np.unique(flag)])
        return self._arrays[1]


def curves(scn: FireScenario, ever: bool = True) -> dict[str, np.ndarray] | None:
    """Exact per-turn metrics (same names and shapes as the kernel's), or None when the
    chain exceeds :data:`MAX_STATES` states in a turn. ``ever=False`` drops the "ever shut
    down" and "ever exploded" flags from the state (fewer states; ``p_shutdown_by`` and
    ``p_ammo_explosion_by`` then read 0): for callers that need the damage only.

    The distribution is a probability vector per value of the two "ever" flags over the
    base states (heat, shut down, out, jam bits, tracked ammunition) reached so far; a
    turn is a sparse step (``np.bincount`` over the edges of its :class:`_Step`, built
    once per range step from :meth:`_Chain.transitions`, Python only per new state), and
    the turn's metrics are dot products with per-state arrays."""
    ch = _Chain(scn, ever)
    T = scn.turns
    pools = scn.unit.pools
    am0 = tuple(pools[i].shots for i in ch.tidx)
    states: list[tuple] = [(scn.start_heat, False, False, 0, am0)]
    index: dict[tuple, int] = {states[0]: 0}
    # per state: heat, shut down, out, tracked rounds left (the turn's metrics read them)
    attrs: list[tuple[int, bool, bool, int]] = [(scn.start_heat, False, False, sum(am0))]
    n_layers = 4 if ever else 1
    layers = np.zeros((n_layers, 1))
    layers[0, 0] = 1.0
    steps: dict[Any, _Step] = {}
    pmfs: list[np.ndarray] = []
    uses: list[np.ndarray] = []
    pmf_ids: dict[int, int] = {}
    hb, db = scn.heat_bins, scn.damage_bins
    out: dict[str, Any] = {k: np.zeros(T) for k in (
        "expected_damage", "expected_cumulative_damage", "mean_heat", "expected_ammo_left",
        "p_shutdown", "p_shutdown_by", "p_ammo_explosion_by", "p_out_by")}
    out["heat_hist"] = np.zeros((T, hb))
    out["damage_hist"] = np.zeros((T, db))
    locs = np.zeros((T, 8))
    used = np.zeros(len(pools))
    untracked = [i for i in range(len(pools)) if not ch.tracked[i]]
    untracked_total = sum(pools[i].shots for i in untracked)
    callable_policy = scn.policy.kind == "callable"
    cum = 0.0
    for t in range(T):
        r = scn.steps[t]
        step = steps.get((r, t) if callable_policy else r)
        if step is None:
            step = steps[(r, t) if callable_policy else r] = _Step()
        total = layers.sum(axis=0)
        for i in np.flatnonzero(total).tolist():
            if i in step.done:
                continue
            step.done.add(i)
            outs, ed, pmf, use = ch.transitions(r, t, states[i])
            g = pmf_ids.get(id(pmf))
            if g is None:
                g = pmf_ids[id(pmf)] = len(pmfs)
                pmfs.append(pmf)
                uses.append(use)
            step.ed[i], step.gid[i] = ed, g
            for (h2, s2, o2, goes, boom, jb2, am2), q in outs:
                k = (h2, s2, o2, jb2, am2)
                j = index.get(k)
                if j is None:
                    j = index[k] = len(states)
                    states.append(k)
                    attrs.append((h2, s2, o2, sum(am2)))
                step.src.append(i)
                step.dst.append(j)
                step.prob.append(q)
                step.flag.append(int(goes) | int(boom) << 1)
        n = len(states)
        live = np.flatnonzero(total)
        e_d = float(sum(total[i] * step.ed[i] for i in live.tolist()))
        group = np.zeros(len(pmfs))
        np.add.at(group, [step.gid[i] for i in live.tolist()], total[live])
        dh = out["damage_hist"][t]
        for g in np.flatnonzero(group).tolist():
            pmf = pmfs[g]
            dh[: pmf.size] += group[g] * pmf
            used += group[g] * uses[g]
        new = np.zeros((n_layers, n))
        for e, src, dst, prob in step.edges():
            for f in range(n_layers):
                w = layers[f][src] * prob if src.size else prob
                if w.any():
                    new[(f | e) if ever else 0] += np.bincount(dst, w, minlength=n)
        if np.count_nonzero(new) > MAX_STATES:
            return None
        layers = new
        cum += e_d
        out["expected_damage"][t] = e_d
        out["expected_cumulative_damage"][t] = cum
        locs[t] = e_d * P_FRONT
        total = layers.sum(axis=0)
        per = np.array(attrs, dtype=np.int64).reshape(-1, 4)
        heat = per[:, 0]
        out["heat_hist"][t] = np.bincount(np.minimum(heat, hb - 1), total, minlength=hb)
        out["mean_heat"][t] = float(total @ heat)
        out["p_shutdown"][t] = float(total @ per[:, 1])
        out["p_out_by"][t] = float(total @ per[:, 2])
        if ever:
            out["p_shutdown_by"][t] = float(layers[1].sum() + layers[3].sum())
            out["p_ammo_explosion_by"][t] = float(layers[2].sum() + layers[3].sum())
        out["expected_ammo_left"][t] = float(total @ per[:, 3]) + untracked_total - sum(
            used[i] for i in untracked)
    for i, loc in enumerate(CT.LOCATIONS[:8]):
        out[f"expected_damage_{loc}"] = locs[:, i]
    return out
