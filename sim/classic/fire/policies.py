"""Firing policies (issue 11): which available weapons a 'Mech fires in a turn.

* ``all`` -- every weapon that can fire (in range, TN <= 12, not jammed, with ammunition);
* ``neutral`` -- the most expected damage whose heat (weapons + movement) does not exceed
  the dissipation, so heat does not rise;
* ``below:H`` -- the most expected damage that keeps heat below ``H`` (heat < H) after the
  heat phase: "below" means strictly below, in Alpha Strike (``full OV while heat < H``)
  and Classic alike (issue 18; the old "at or under H" is ``below:H+1``);
* ``max-expected`` -- the most expected damage over this turn and the next, counting the
  heat scale's penalties: value = E[damage now] + P(no shutdown, no ammo explosion at the
  resulting heat h') x E[damage of the ``neutral`` choice at h'] (a two-turn lookahead; h'
  uses every fired weapon's full heat);
* a Python callable ``f(heat, turn, state) -> bool array (n, weapons)``: ``heat`` the int
  heat array (n,), ``turn`` 1-based, ``state`` a dict with ``avail`` (n, weapons) bool and
  ``ammo`` (n, pools) int; weapon order is ``scenario.guns``. Its choice is intersected with
  what can fire.

A Narc launcher (no damage) is valued at the extra damage its beacon would add over one turn
(:func:`narc_value`, issue 19). Named policies are deterministic functions of (range step,
heat, available weapons); both
the kernel and the exact chain read the same decision (:class:`Decider`). Ties go to the
choice with less heat, then the lower weapon bit mask. Streaks count at full heat.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from sim.classic.fire import heat as H
from sim.dice import P_2D6_AT_LEAST
from sim.memo import WeightedLRU
from sim.policy import PolicySpec, parse_spec

if TYPE_CHECKING:
    from sim.classic.fire.scenario import FireScenario

PolicyFn = Callable[[np.ndarray, int, dict[str, np.ndarray]], Any]
NAMES = ("all", "neutral", "max-expected")
_ALLOWED = "one of 'all', 'neutral', 'below:H' (H in 1-61), 'max-expected' or a callable"


@dataclass(frozen=True)
class Policy(PolicySpec):
    """A parsed policy: ``kind`` in all/neutral/below/max-expected/callable."""


def parse_policy(value: Any) -> Policy:
    """Parse a policy name, ``below:H`` or a callable; ConfigError otherwise."""
    return parse_spec(Policy, value, NAMES, {"below": (1, 61)}, _ALLOWED)


def _exact_weights(values: list[float], weights: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """0/1 knapsack over exact total weight: ``best[b]`` = most value with weight exactly
    ``b`` (-1 if no subset weighs b), ``mask[b]`` = the first subset found reaching it."""
    top = sum(w for v, w in zip(values, weights, strict=True) if v > 0) + 1
    best = np.full(top, -1.0)
    mask = np.zeros(top, dtype=np.int64)
    best[0] = 0.0
    idx = np.arange(top)
    for i, (v, w) in enumerate(zip(values, weights, strict=True)):
        if v <= 0:
            continue
        cand = np.full(top, -1.0)
        prev = best[: top - w] if w else best
        cand[w:] = np.where(prev >= 0, prev + v, -1.0)
        better = cand > best + 1e-12
        best = np.where(better, cand, best)
        mask = np.where(better, mask[np.maximum(idx - w, 0)] | (1 << i), mask)
    return best, mask


def _under(best: np.ndarray, mask: np.ndarray, cap: int) -> tuple[float, int, int]:
    """Best (value, weight, mask) with weight <= cap; ties to the least weight."""
    if cap < 0:
        return 0.0, 0, 0
    b = best[: cap + 1]
    i = int(np.argmax(b >= b.max() - 1e-12))
    return float(b[i]), i, int(mask[i])


def gun_classes(scn: FireScenario) -> tuple[tuple[int, ...], ...]:
    """The scenario's guns grouped into classes of interchangeable ones (same weapon, feed,
    Artemis mark and target numbers: every rule treats them alike), in gun order; classes
    of one gun included."""
    groups: dict[tuple[Any, ...], list[int]] = {}
    for g, gun in enumerate(scn.guns):
        key = (gun.key, gun.pool, gun.artemis, gun.rate, gun.tn.tobytes())
        groups.setdefault(key, []).append(g)
    return tuple(tuple(v) for v in groups.values())


def canonical_avail(classes: tuple[tuple[int, ...], ...], avail: int) -> int:
    """The representative of ``avail`` under swapping interchangeable guns: in each class
    the same number of guns available, the last ones (the first ones are those jammed or
    lost, see :func:`canonical_jams`)."""
    out = 0
    for cls in classes:
        k = sum((avail >> g) & 1 for g in cls)
        for g in cls[len(cls) - k:]:
            out |= 1 << g
    return out


def canonical_jams(classes: tuple[tuple[int, ...], ...], bits: int) -> int:
    """The representative of a set of jammed guns: in each class the same number jammed,
    the first ones."""
    out = 0
    for cls in classes:
        k = sum((bits >> g) & 1 for g in cls)
        for g in cls[:k]:
            out |= 1 << g
    return out


def _map_back(classes: tuple[tuple[int, ...], ...], avail: int, canon: int,
              mask: int) -> int:
    """A decision on the canonical availability ``canon`` carried back to ``avail``: in each
    class as many guns fire, the first available ones."""
    out = 0
    for cls in classes:
        n = sum((mask >> g) & 1 for g in cls if (canon >> g) & 1)
        for g in [g for g in cls if (avail >> g) & 1][:n]:
            out |= 1 << g
    return out


def narc_gains(scn: FireScenario) -> tuple[float, ...] | None:
    """Issue 19: per gun, the expected damage a Narc beacon on the target adds to one hit of
    it (0 for a gun it does not help); None without a Narc launcher or a gun it helps. A
    gun is helped when every bin feeding it holds Narc-capable rounds and it has no other
    cluster bonus (Artemis, ATM: C23): +2 on its cluster roll, capped at 12
    (:func:`sim.classic.equipment_rules.narc_cluster_bonus`)."""
    from sim.classic import equipment_rules as ER
    from sim.dice import PMF_2D6

    if not any(g.weapon.family == "narc" for g in scn.guns):
        return None
    out = []
    for g in scn.guns:
        fed = g.pool >= 0 and scn.unit.pools[g.pool].narc
        bonus = ER.narc_cluster_bonus(True, fed, int(bool(g.artemis)) + g.weapon.cluster_bonus)
        s, gain = g.rate, 0.0
        if bonus:
            for t2 in range(2, 13):
                more = sum(g.groups[s][int(g.hits[s][min(t2 + bonus, 12)])])
                gain += float(PMF_2D6[t2]) * (more - sum(g.groups[s][int(g.hits[s][t2])]))
        out.append(gain)
    return tuple(out) if any(out) else None


def narc_value(dec: Decider, g: int, r: int, hh: int, avail: int) -> float:
    """Issue 19: what the named policies count for firing Narc launcher ``g`` (it deals no
    damage): P(it hits) x the expected extra damage of the unit's Narc-fed weapons available
    now over one turn of fire at this range and heat (each one's P(hit) x
    :func:`narc_gains`). A small term: the policies do not know whether a beacon already
    sticks, so a launcher with pods keeps firing (it costs no heat)."""
    gains = dec.narc_gains
    scn = dec.scn
    if gains is None or scn.guns[g].weapon.family != "narc":
        return 0.0
    more = sum(float(P_2D6_AT_LEAST[max(0, int(k.tn[r, hh]))]) * gains[i]
               for i, k in enumerate(scn.guns)
               if gains[i] > 0 and (avail >> i) & 1 and int(k.tn[r, hh]) <= 12)
    return float(P_2D6_AT_LEAST[max(0, int(scn.guns[g].tn[r, hh]))]) * more


class Decider:
    """Cached decisions of a named policy for one scenario.

    Decisions are equivariant under swapping interchangeable guns (:func:`gun_classes`):
    a policy decides on the canonical availability (:func:`canonical_avail`) and its
    choice is carried back (the same number of each class fires), so the exact chain may
    merge states that differ only in which of two identical guns jammed.

    The work is memoised by what it reads, so each piece is computed once: the knapsack
    (:func:`_exact_weights`) by (range step, heat level whose target numbers it reads,
    availability), the ``neutral`` value of a heat level reached next turn, and the chance
    of neither shutting down nor exploding ammunition at a heat. :func:`shared_decider`
    shares one Decider between the scenarios whose decisions read the same numbers."""

    def __init__(self, scn: FireScenario) -> None:
        self.scn = scn
        self.policy = scn.policy
        self.classes = gun_classes(scn)
        self.symmetric = any(len(c) > 1 for c in self.classes)
        self.cache: dict[tuple[int, int, int], int] = {}
        self.explosive = bool(scn.explosive_pools())
        self._dp: dict[tuple[int, int, int], tuple[np.ndarray, np.ndarray]] = {}
        # expected damage given a hit, per gun at full rate
        self._given_hit = [float(g.damage_given_hit(g.rate) @ np.arange(
            g.damage_given_hit(g.rate).size)) for g in scn.guns]
        self._heat = [g.heat_of(g.rate) for g in scn.guns]
        #: per range step: the first heat level with the same target numbers, by level
        self._level: dict[int, list[int]] = {}
        #: per (range step, level): every gun's expected damage (:meth:`expected`)
        self._ev: dict[tuple[int, int], list[float]] = {}
        self._next: dict[tuple[int, int, int], float] = {}
        self._ok: dict[int, float] = {}
        self._ok_table = np.zeros(0)
        self.narc_gains = narc_gains(scn)   # issue 19: a Narc launcher's value

    def expected(self, g: int, tn: int) -> float:
        """Expected damage of gun ``g`` fired at full rate at ``tn``."""
        return float(P_2D6_AT_LEAST[max(0, tn)]) * self._given_hit[g] if tn <= 12 else 0.0

    def _levels(self, r: int) -> list[int]:
        """By heat level 0..29: the first level whose guns' target numbers at range step
        ``r`` are the same (the heat scale's to-hit penalty changes at a few levels only)."""
        out = self._level.get(r)
        if out is None:
            cols = np.array([g.tn[r, :H.AUTO_SHUTDOWN] for g in self.scn.guns],
                            np.int64).reshape(len(self.scn.guns), H.AUTO_SHUTDOWN)
            first: dict[bytes, int] = {}
            out = [first.setdefault(cols[:, h].tobytes(), h) for h in range(H.AUTO_SHUTDOWN)]
            self._level[r] = out
        return out

    def dp(self, r: int, h: int, avail: int) -> tuple[np.ndarray, np.ndarray]:
        key = (r, self._levels(r)[min(h, H.AUTO_SHUTDOWN - 1)], avail)
        out = self._dp.get(key)
        if out is None:
            out = _exact_weights(*self._items(r, h, avail))
            self._dp[key] = out
        return out

    def _items(self, r: int, h: int, avail: int) -> tuple[list[float], list[int]]:
        hh = self._levels(r)[min(h, H.AUTO_SHUTDOWN - 1)]
        ev = self._ev.get((r, hh))
        if ev is None:
            ev = [self.expected(g, int(gun.tn[r, hh])) for g, gun in enumerate(self.scn.guns)]
            self._ev[(r, hh)] = ev
        # a Narc launcher's value reads the availability (issue 19; 0 when it cannot hit)
        vals = [v + narc_value(self, g, r, hh, avail) if (avail >> g) & 1 else 0.0
                for g, v in enumerate(ev)]
        return vals, list(self._heat)

    def mask(self, r: int, h: int, avail: int) -> int:
        """Bit mask of the guns fired at range step ``r``, heat ``h``, available ``avail``."""
        key = (r, h, avail)
        out = self.cache.get(key)
        if out is None:
            if self.symmetric and self.policy.kind != "all":
                canon = canonical_avail(self.classes, avail)
                out = _map_back(self.classes, avail, canon, self._decide(r, h, canon))
            else:
                out = self._decide(r, h, avail)
            self.cache[key] = out
        return out

    def _decide(self, r: int, h: int, avail: int) -> int:
        scn = self.scn
        mv = int(scn.move_heat[min(h, H.AUTO_SHUTDOWN - 1)])
        kind = self.policy.kind
        if kind == "all":
            vals, _ = self._items(r, h, avail)
            return sum(1 << g for g, v in enumerate(vals) if v > 0)
        if kind == "neutral":
            return _under(*self.dp(r, h, avail), scn.dissipation - mv)[2]
        if kind == "below":     # heat after the heat phase < H, i.e. <= H - 1
            return _under(*self.dp(r, h, avail),
                          self.policy.arg - 1 - h - mv + scn.dissipation)[2]
        if kind == "max-expected":
            return self._lookahead(r, h, avail, mv)
        raise AssertionError(kind)

    def _p_ok(self, h2: int) -> float:
        """P(no shutdown and no ammunition explosion) at heat ``h2`` after the heat phase
        (13.1: the shutdown avoid roll, automatic at 30+; the ammunition avoid roll)."""
        p_ok = self._ok.get(h2)
        if p_ok is None:
            scn = self.scn
            p_ok = 1.0 if h2 < 14 else float(P_2D6_AT_LEAST[min(14, int(
                H.shutdown_avoid(h2, scn.rules.tacops_shutdown, scn.rules.piloting)))])
            if h2 >= H.AUTO_SHUTDOWN:
                p_ok = 0.0
            if self.explosive and h2 >= H.AMMO_CHECK_FROM:
                p_ok *= float(P_2D6_AT_LEAST[int(H.ammo_avoid(h2))])
            self._ok[h2] = p_ok
        return p_ok

    def _neutral(self, r: int, h3: int, avail: int) -> float:
        """The ``neutral`` choice's expected damage at heat level ``h3`` (next turn)."""
        key = (r, h3, avail)
        out = self._next.get(key)
        if out is None:
            mv2 = int(self.scn.move_heat[h3])
            out = _under(*self.dp(r, h3, avail), self.scn.dissipation - mv2)[0]
            self._next[key] = out
        return out

    def _lookahead(self, r: int, h: int, avail: int, mv: int) -> int:
        """The ``max-expected`` choice: per total heat ``cap`` of a best subset (the
        knapsack's), value = its damage + P(ok at the heat h' it leaves) x the ``neutral``
        damage at h'; the first cap whose value beats the best so far by more than 1e-12."""
        vals_b, masks_b = self.dp(r, h, avail)
        h2 = np.maximum(0, h + mv + np.arange(vals_b.size) - self.scn.dissipation)
        top = int(h2.max())
        if len(self._ok_table) <= top:
            self._ok_table = np.array([self._p_ok(x) for x in range(top + 1)])
        p_ok = self._ok_table[h2]
        h3 = np.minimum(h2, H.AUTO_SHUTDOWN - 1)
        nxt = np.zeros(H.AUTO_SHUTDOWN)
        for x in np.unique(h3[(p_ok > 0) & (vals_b >= 0)]).tolist():
            nxt[x] = self._neutral(r, x, avail)
        value = vals_b + p_ok * np.where(p_ok > 0, nxt[h3], 0.0)
        best, pick = -1.0, 0
        for cap, (v, x) in enumerate(zip(vals_b.tolist(), value.tolist(), strict=True)):
            if v >= 0 and x > best + 1e-12:
                best, pick = x, cap
        return int(masks_b[pick]) if best > -1.0 else 0


#: most Deciders :func:`shared_decider` keeps (the least recently used is dropped first)
SHARED_CAP = 4096
_SHARED: WeightedLRU[tuple[Any, ...], Decider] = WeightedLRU(SHARED_CAP, SHARED_CAP)


def decision_content(scn: FireScenario) -> tuple[Any, ...]:
    """Everything a :class:`Decider`'s decisions read, as a hashable key: the policy, per gun
    its target numbers (every range step and heat level), heat at full rate, and what its
    damage given a hit is computed from (rate, cluster hits and damage groups); the gun
    classes; the movement heat by heat level; dissipation; the shutdown rule and piloting;
    whether the unit carries explosive ammunition; the Narc gains (:func:`narc_gains`)."""
    guns = tuple((g.tn.shape, g.tn.tobytes(), g.heat_of(g.rate), g.rate,
                  np.asarray(g.hits[g.rate], np.int64).tobytes(), g.groups[g.rate])
                 for g in scn.guns)
    return (scn.policy.kind, scn.policy.arg, bool(scn.rules.tacops_shutdown),
            int(scn.rules.piloting), int(scn.dissipation), bool(scn.explosive_pools()),
            np.asarray(scn.move_heat, np.int64).tobytes(), gun_classes(scn), guns,
            narc_gains(scn))


#: :func:`decision_content` of the fire scenarios seen last, by identity (issue 21: the duel
#: shares its fire scenarios between sides, and asks for each one's content several times
#: per scenario build); the entry holds the scenario, so an id is never reused while kept
_CONTENT: WeightedLRU[int, tuple[FireScenario, tuple[Any, ...]]] = WeightedLRU(SHARED_CAP,
                                                                              SHARED_CAP)


def _content_of(scn: FireScenario) -> tuple[Any, ...]:
    """:func:`decision_content`, memoized by the (read-only) scenario object."""
    hit = _CONTENT.get(id(scn))
    if hit is not None and hit[0] is scn:
        return hit[1]
    key = decision_content(scn)
    _CONTENT.put(id(scn), (scn, key))
    return key


def shared_decider(scn: FireScenario) -> Decider:
    """The process's :class:`Decider` for ``scn``'s decisions (a named policy), shared by
    every scenario with the same :func:`decision_content` (the same 'Mech in the same fire
    situation against any opponent, from any start distance, in either seat): its
    decisions are made once per process (and per joblib worker). Correct by construction,
    the key being everything a decision reads; at most :data:`SHARED_CAP` are kept (least
    recently used dropped)."""
    if scn.policy.kind == "callable":
        return Decider(scn)
    key = _content_of(scn)
    dec = _SHARED.get(key)
    if dec is None:
        dec = Decider(scn)
        _SHARED.put(key, dec)
    return dec
