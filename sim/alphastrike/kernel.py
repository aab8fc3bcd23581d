"""Monte Carlo kernel: ``n`` units through ``T`` turns, vectorized over units (the Python loop
runs over turns, attackers and CASE re-rolls only, never over trials).

Speed notes (measured on the 2-core box): ``np.where`` on a random mask and ``take`` cost
20-100x a plain uint8 add, so the turn is written with masks and arithmetic; each turn does
one ``take`` (a packed table of to-hit thresholds by profile index). Attack rolls that only
decide hit or miss are drawn as exact threshold tests on raw bytes (:func:`hits_2d6`, the
byte convention of :mod:`sim.dice`);
critical-hit rolls draw the crit result directly through a byte table (2D6 outcome ->
'Mech crit table), one level per crit-roll number (:class:`CritRolls`).

Draw structure (paired comparisons, issue 12): every roll kind has its own sub-streams of the
chunk generator (:class:`Streams`), and every draw is indexed by unit: unit ``i``'s roll is
the ``i``-th value of its sub-stream whatever the other units did. Attack rolls use one
sub-stream per turn; critical-hit rolls (CASE re-rolls included) one per *crit-roll
number*: unit ``i``'s ``k``-th crit roll is the same die whenever it happens. So two
scenarios run on one chunk generator (paired scenarios share it) roll the very same dice for
the same unit and the same event, although their states part after the first turn.
"""

from __future__ import annotations

import numpy as np

from sim.aggregate import Aggregate
from sim.alphastrike import tables as T
from sim.alphastrike.scenario import HeatScenario
from sim.alphastrike.turn import (
    Tables,
    crit,
    decide,
    end_phase,
    incoming_hit,
    initial_state,
    start_turn,
)
from sim.dice import (
    SORTED_OUTCOMES,
    d6,
    draw_lut,
    make_lut,
    roll_2d6_at_least,
    success_bytes,
)
from sim.errors import ConfigError
from sim.streams import Streams

#: Byte table straight to a crit result: 2D6 outcome (in the byte order of :mod:`sim.dice`)
#: -> 'Mech crit table (ref 6.6).
_CRIT_LUT = make_lut(T.CRIT_MECH[SORTED_OUTCOMES])


def threshold(tn: np.ndarray) -> np.ndarray:
    """Accepted bytes on which "2D6 >= TN" (:func:`sim.dice.success_bytes`: TN <= 2: 252,
    13+: 0), as uint8; 0 also stands for "makes no attack"."""
    return success_bytes(tn)


def hits_2d6(rng: np.random.Generator, thr: np.ndarray) -> np.ndarray:
    """One 2D6 attack roll per unit, returned as hit/miss, exact
    (:func:`sim.dice.roll_2d6_at_least`); ``thr`` from :func:`threshold`, 0 = no attack."""
    return roll_2d6_at_least(rng, thr)


#: Roll kinds (:class:`Streams`): the unit's own attack and the 0* 1D6 (index: turn), crit
#: rolls (index: the unit's crit-roll number), incoming attacker ``i``'s attack roll is kind
#: ``INCOMING + i`` (index: turn).
OWN_ATTACK, MINIMAL, CRIT, INCOMING = 0, 1, 2, 3


_CRIT_KEYS = ("eng", "fc", "wh", "mp", "dmg", "pend", "killed")


class CritRolls:
    """The critical-hit rolls of one chunk, event-indexed: unit ``i``'s ``k``-th crit roll
    (CASE re-rolls included) is position ``i`` of sub-stream ``(CRIT, k)`` of
    :class:`Streams`, whatever the turn it happens in. Each level ``k`` is drawn once per
    chunk, for all ``n`` units (:func:`sim.dice.draw_lut`: rejected positions are redrawn
    from that level's own stream, so position ``i`` depends on the stream only), and kept
    until the chunk ends (a few levels of ``n`` bytes)."""

    def __init__(self, streams: Streams, n: int) -> None:
        self.streams = streams
        self.n = n
        self.count = np.zeros(n, dtype=np.uint16)   # crit rolls so far, per unit
        self.levels = np.empty((0, n), dtype=np.uint8)

    def next(self, rows: np.ndarray) -> np.ndarray:
        """The next crit result of each unit in ``rows`` (distinct), as crit codes."""
        k = self.count[rows]
        top = int(k.max()) + 1
        if top > self.levels.shape[0]:
            new = [draw_lut(self.streams(CRIT, lev), _CRIT_LUT, self.n)
                   for lev in range(self.levels.shape[0], top)]
            self.levels = np.concatenate([self.levels, np.stack(new)])
        self.count[rows] = k + np.uint16(1)
        out: np.ndarray = self.levels[k, rows]
        return out


def _crits(tu: dict[str, np.ndarray], scn: HeatScenario, rolls: CritRolls,
           need: np.ndarray) -> None:
    """Roll and apply critical hits for the units in ``need`` (and CASE re-rolls); each roll
    is the unit's next crit roll (:class:`CritRolls`).

    The first roll is applied over the whole chunk (masks are cheaper than gathers when many
    units roll); CASE re-rolls, rare, run on the few units concerned.
    """
    rows = np.flatnonzero(need)
    code = np.zeros(need.shape[0], dtype=np.uint8)
    code[rows] = rolls.next(rows)
    again = crit(tu, scn, code, need)
    if scn.ammo_mode != "case":
        return
    rows = np.flatnonzero(again)
    while rows.size:
        sub = {k: tu[k][rows] for k in _CRIT_KEYS}
        code = rolls.next(rows)
        more = crit(sub, scn, code, np.ones(rows.size, dtype=bool))
        for k in _CRIT_KEYS:
            tu[k][rows] = sub[k]
        rows = rows[more]


def _threshold_table(scn: HeatScenario, tab: Tables) -> np.ndarray:
    """A (profile index, 4) uint8 table, viewed as uint32 so one ``take`` fetches a row:
    column 0/1 = own weapon/physical threshold, 2/3 = the first two attackers'."""
    t = np.zeros((tab.size, 4), dtype=np.uint8)
    t[:, 0] = threshold(tab.tn_weapon)
    t[:, 1] = threshold(tab.tn_phys)
    for i, inc in enumerate(scn.incoming[:2]):
        t[:, 2 + i] = threshold(tab.tmod + inc.base)
    return t.view(np.uint32).ravel()


def check_pending_fits(scn: HeatScenario) -> None:
    """One turn's pending damage must fit the kernel's ``pend`` dtype (uint8 or int16): a
    ConfigError up front (naming ``incoming``) instead of a silent wrap-around."""
    worst = scn.max_damage + sum(i.hit_dmg for i in scn.incoming)
    if scn.ammo_mode == "case":
        worst += scn.rules.case_damage * scn.structure
    if worst > np.iinfo(scn.pend_dtype).max:
        raise ConfigError("incoming", len(scn.incoming),
                          "attackers whose damage in one turn stays below "
                          f"{np.iinfo(scn.pend_dtype).max - scn.max_damage} points")


def simulate(scn: HeatScenario, rng: np.random.Generator, n: int) -> Aggregate:
    """Run ``n`` units for ``scn.turns`` turns; return per-turn and per-run aggregates.

    Draws per turn (each kind from its own sub-streams, indexed by unit: :class:`Streams`):
    one attack roll for the unit's own attack, one 1D6 per 0* hit under the ``roll`` rule,
    one attack roll per incoming attacker, one 2D6 per critical-hit roll.
    """
    check_pending_fits(scn)
    tab = Tables.of(scn)
    packed = _threshold_table(scn, tab)
    extra = [threshold(tab.tmod + inc.base) for inc in scn.incoming[2:]]
    steps = scn.turns
    tu = initial_state(scn, n)
    st = np.zeros((steps, 13))   # per-turn sums, see below
    cum = np.zeros(n, dtype=np.uint16)
    first = np.ones(n, dtype=np.uint8)     # turn of first shutdown (T+1 if never)
    survived = np.zeros(n, dtype=np.uint8)
    cum_sum = 0.0
    streams = Streams(rng)
    rolls = CritRolls(streams, n)
    for t in range(steps):
        dec = decide(tu, scn, t + 1)
        idx = tab.index(tu)
        pk = packed.take(idx).view(np.uint8).reshape(n, 4)
        thr: np.ndarray = dec.fired * pk[:, 0]
        if scn.physical != "none":
            thr = thr + dec.phys * pk[:, 1]
        hit = hits_2d6(streams(OWN_ATTACK, t), thr)   # thr = 0 where the unit makes no attack
        dealt = hit * dec.dmg
        if dec.minimal is not None and dec.minimal.any():
            dealt = dealt + (hit & dec.minimal & (d6(streams(MINIMAL, t), n) >= 4))
        start_turn(tu, scn, None, dec)   # thresholds above already fix the attackers' TNs
        for i in range(len(scn.incoming)):
            if i < 2:
                thr_in = pk[:, 2 + i]
            else:
                thr_in = extra[i - 2].take(idx)
            roll = hits_2d6(streams(INCOMING + i, t), thr_in)
            need = incoming_hit(tu, scn, i, tu["alive"] & roll)
            if need.any():
                _crits(tu, scn, rolls, need)
        end_phase(tu, scn)
        heat, alive, ever = tu["heat"], tu["alive"], tu["ever"]
        n_alive = np.count_nonzero(alive)
        c = [np.count_nonzero(heat == k) for k in range(1, 5)]
        d16 = dealt.astype(np.uint16)
        cum += d16
        c32 = cum.astype(np.uint32)
        s_dealt = float(d16.sum(dtype=np.uint64))
        cum_sum += s_dealt
        st[t] = (n_alive - sum(c), c[0], c[1], c[2], c[3], np.count_nonzero(ever),
                 n_alive, sum(k * ck for k, ck in zip(range(1, 5), c, strict=True)),
                 sum(k * k * ck for k, ck in zip(range(1, 5), c, strict=True)),
                 s_dealt, float((d16 * d16).sum(dtype=np.uint64)), cum_sum,
                 float((c32 * c32).sum(dtype=np.uint64)))
        first += ~ever
        survived += alive
    agg = Aggregate(n)
    nn = np.full(steps, float(n))
    for k in range(5):
        agg.add_counts(f"p_heat_{k}", nn, st[:, k], st[:, k])
    agg.add_counts("p_shutdown", nn, st[:, 4], st[:, 4])
    agg.add_counts("p_shutdown_by", nn, st[:, 5], st[:, 5])
    dead = n - st[:, 6]
    agg.add_counts("p_destroyed_by", nn, dead, dead)
    agg.add_counts("mean_heat", st[:, 6], st[:, 7], st[:, 8])
    agg.add_counts("expected_damage", nn, st[:, 9], st[:, 10])
    agg.add_counts("expected_cumulative_damage", nn, st[:, 11], st[:, 12])
    agg.add_mean("expected_first_shutdown_turn", first)
    agg.add_mean("p_ever_shutdown", tu["ever"])
    agg.add_mean("expected_turns_survived", survived)
    return agg
