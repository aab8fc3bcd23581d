"""Applying damage groups to a damage state: armor, structure, transfer, through-armor
criticals, critical hits and their slot effects, ammunition and Gauss explosions with CASE,
destruction (reference-classic-combat.md 14.1-14.5; reference.md 3.2, 5.2-5.5).

Every function is vectorized over the rows of a state array (:mod:`.state`) and takes its
dice from a :class:`~.choose.Chooser`, so the same code gives Monte Carlo samples
(``SampleChooser``) and the exact outcome distribution (``ExactChooser``). Loops run over
rule steps (transfer hops, explosions, critical picks), never over trials.

Order inside one group (14.1, C10): armor, then structure, then the critical determinations of
the location (a TAC adds one, C9), then the location's destruction and its consequences; the
excess transfers inward and starts on armor, except explosion damage (C29). An explosion
caused by a critical is resolved at once: the rest of the ordinary damage waits until the
explosion (and any explosion it sets off) has run its course (MegaMek's recursive order).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from sim.classic import equipment_rules as ER
from sim.classic.damage_rules import DamageRules
from sim.classic.damage_state import layout as lay
from sim.classic.damage_state import state as st
from sim.classic.damage_state.choose import Chooser, SampleChooser
from sim.classic.tables import HIT_TABLES, SIDE, TABLE_STANDARD
from sim.dice import P2D6

#: Determining Critical Hits (reference.md 5.4) by roll total: 2-7 none (0), 8-9 one (1),
#: 10-11 two (2), 12 the 12 result (3: limb or head blown off, torso three criticals).
DETERMINING = np.array([0] * 8 + [1, 1, 2, 2, 3], dtype=np.int64)


def determining_probs(modifier: int) -> np.ndarray:
    """(4,) P(no critical, one, two, the 12 result) of a determination roll with ``modifier``
    added (C15: TacOps advanced criticals; a total above 12 reads as 12)."""
    out = np.zeros(4)
    for roll in range(2, 13):
        out[DETERMINING[min(roll + modifier, 12)]] += float(P2D6[roll])
    return out


#: determination probabilities by C15 modifier 0-4
DETERMINING_BY_MOD = np.stack([determining_probs(m) for m in range(5)])
#: the rows a determination picks from: by C15 modifier, then (row ``NO_ROLL``) a row that
#: rolls nothing (certain "no critical"; the row still takes its draw), then the negative
#: modifiers -1 and -2 (rows ``NO_ROLL - m``: hardened armor's TAC, issue 19)
NO_ROLL = len(DETERMINING_BY_MOD)
DETERMINING_ROWS = np.vstack([DETERMINING_BY_MOD, [1.0, 0.0, 0.0, 0.0],
                              determining_probs(-1), determining_probs(-2)])
#: ``CMOD`` plus this marks the determination of a TAC whose hardened armor stopped the whole
#: group (rolled at ``CMOD`` + :data:`sim.classic.equipment_rules.HARDENED_TAC_MOD`; issue 19)
HARD_MARK = -100


def determining_row(cmod: np.ndarray) -> np.ndarray:
    """The :data:`DETERMINING_ROWS` row of each state's ``CMOD`` (a hardened TAC's mark read
    as its modifier: C15's plus -2)."""
    mod = np.where(cmod <= HARD_MARK // 2, cmod - HARD_MARK + ER.HARDENED_TAC_MOD, cmod)
    return np.where(mod >= 0, mod, NO_ROLL - mod)
#: Core-rules explosion caps (C30): structure damage by protection (none, CASE, CASE II) and
#: the armor CASE lets an explosion strip
CORE_IS_CAP = (20, 10, 1)
CORE_CASE_ARMOR_CAP = 10
#: slot kinds whose critical hits are counted in the state columns ENGINE..COCKPIT (14.3)
COUNTED = (lay.ENGINE, lay.GYRO, lay.SENSORS, lay.LIFE, lay.COCKPIT)
assert (st.ENGINE, st.GYRO, st.SENSORS, st.LIFE, st.COCKPIT) == tuple(
    range(st.ENGINE, st.ENGINE + len(COUNTED)))


@dataclass(frozen=True)
class DamageModel:
    """A 'Mech's slot layout with the rule options, precomputed for the kernels."""

    layout: lay.Layout
    rules: DamageRules
    hittable: np.ndarray
    expl_loc: np.ndarray
    expl_per: np.ndarray
    expl_is_bin: np.ndarray
    #: where the slots of each :data:`COUNTED` kind are: ``count_loc``, ``count_mask`` (5,)
    #: the first location holding such slots and their slot mask (0: none), ``count_more``
    #: (counter index, location, slot mask) for each further location (an XL engine's)
    count_loc: np.ndarray
    count_mask: np.ndarray
    count_more: tuple[tuple[int, int, int], ...]
    #: engine slots of the side torsos, ((location, slot mask), ...): a destroyed side torso
    #: counts its engine slots not yet hit as engine hits (14.3, XL engines)
    side_engine: tuple[tuple[int, int], ...]
    #: (8, 12) explosive index of the Gauss weapon in each slot (-1: none)
    gauss_slot: np.ndarray
    #: (8, 12) bin index of an ammunition bin whose shots explode (14.4) in each slot (-1)
    boom_bin: np.ndarray
    #: (8,) bool: an explosion in the location stops there (CASE or CASE II)
    contained: np.ndarray

    @classmethod
    def build(cls, layout: lay.Layout, rules: DamageRules | None = None) -> DamageModel:
        rules = rules or DamageRules()
        hittable = layout.hittable(rules.filler_slots_hittable, rules.case_slot_hittable)
        masks = {k: layout.kind_mask(k) for k in COUNTED}
        gauss_of_item = np.full(max(len(layout.items), 1), -1, dtype=np.int64)
        for g, it in enumerate(layout.gauss_items):
            gauss_of_item[it] = len(layout.bins) + g
        locs = [b[0] for b in layout.bins] + [layout.items[i].location
                                              for i in layout.gauss_items]
        gauss = [layout.items[i].explosion for i in layout.gauss_items]
        if rules.explosion_size == "core":   # C30: 2 per critical slot of the weapon
            gauss = [2 * int(st.POP[layout.item_masks[i] & 0xFFF].sum())
                     for i in layout.gauss_items]
        per = [b[2] if b[3] else 0 for b in layout.bins] + gauss
        where = [[(loc, int(masks[k][loc])) for loc in range(8) if masks[k][loc]] or [(0, 0)]
                 for k in COUNTED]
        side_engine = tuple((t, int(masks[lay.ENGINE][t])) for t in (lay.LT, lay.RT)
                            if masks[lay.ENGINE][t])
        gauss_slot = np.where(layout.item >= 0, gauss_of_item[np.maximum(layout.item, 0)], -1)
        boom = [b if b_[2] > 0 and b_[3] else -1 for b, b_ in enumerate(layout.bins)]
        boom_bin = np.where(layout.bin_slot >= 0,
                            np.array([*boom, -1], dtype=np.int64)[layout.bin_slot], -1)
        return cls(layout, rules, hittable,
                   np.array(locs, dtype=np.int64), np.array(per, dtype=np.int64),
                   np.array([True] * len(layout.bins) + [False] * len(layout.gauss_items)),
                   np.array([w[0][0] for w in where], dtype=np.int64),
                   np.array([w[0][1] for w in where], dtype=np.int64),
                   tuple((c, loc, m) for c, w in enumerate(where) for loc, m in w[1:]),
                   side_engine, gauss_slot, boom_bin, layout.case | layout.case2)


def side_outcomes(side: str, rules: DamageRules, config: str = "Biped"
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every distinct outcome of one standard hit-location roll from ``side`` (reference.md
    3.2) on a 'Mech of ``config`` (:data:`sim.classic.tables.HIT_TABLES`: a quad's arm
    results are its front legs): ``(p, location, rear, tac)`` arrays (rolls that land alike
    are merged). A roll of 2 is a TAC at the listed location, or with
    ``location_roll_two="floating"`` a TAC at a re-rolled location (C28)."""
    col = HIT_TABLES[config][TABLE_STANDARD][SIDE[side]]
    rear_of = {8: 1, 9: 2, 10: 3}

    def where(r: int) -> tuple[int, bool]:
        code = int(col[r])
        return (rear_of[code], True) if code in rear_of else (code, False)

    p, loc, rear, tac = [], [], [], []
    for r in range(2, 13):
        rolls = ([(r2, P2D6[2] * P2D6[r2]) for r2 in range(2, 13)]
                 if r == 2 and rules.location_roll_two == "floating" else [(r, P2D6[r])])
        for r2, q in rolls:
            lo, re_ = where(r2)
            p.append(q)
            loc.append(lo)
            rear.append(re_)
            tac.append(r == 2)
    merged: dict[tuple[int, bool, bool], float] = {}
    for q, lo, re_, t in zip(p, loc, rear, tac, strict=True):
        merged[(lo, re_, t)] = merged.get((lo, re_, t), 0.0) + q
    keys = list(merged)
    return (np.array([merged[k] for k in keys]), np.array([k[0] for k in keys], dtype=np.int64),
            np.array([k[1] for k in keys]), np.array([k[2] for k in keys]))


def apply_group(S: np.ndarray, w: np.ndarray, dm: DamageModel, loc: np.ndarray,
                rear: np.ndarray, damage: np.ndarray, tac: np.ndarray, ch: Chooser,
                copy: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Apply one damage group per row (14.1): ``loc`` location index (0-7), ``rear`` rear
    torso armor, ``damage`` points, ``tac`` a through-armor-critical chance (hit roll 2).
    Destroyed 'Mechs take nothing. Returns the new ``(S, w)`` (rows may multiply under an
    exact chooser); ``copy=False`` lets the caller hand over an ``S`` it no longer needs."""
    if copy:
        S = S.copy()
    live = S[:, st.CAUSE] == st.C_NONE
    for col, val in ((st.W_LOC, loc), (st.W_DMG, damage), (st.W_REAR, rear), (st.W_TAC, tac)):
        S[:, col] = np.where(live, val, S[:, col])
    S[:, st.W_EXPL] = np.where(live, 0, S[:, st.W_EXPL])
    if dm.rules.advanced_criticals:     # C15: from the hit's own damage, kept through transfer
        S[:, st.CMOD] = np.where(live, _crit_mod(damage), S[:, st.CMOD])
    return resolve(S, w, dm, ch)


def _crit_mod(damage: np.ndarray) -> np.ndarray:
    """C15 TacOps advanced criticals: + min((damage - 1) // 5, 4) on the determination."""
    return np.clip((np.asarray(damage) - 1) // 5, 0, 4)


def apply_group_from_side(S: np.ndarray, w: np.ndarray, dm: DamageModel, side: str,
                          damage: int | np.ndarray, ch: Chooser
                          ) -> tuple[np.ndarray, np.ndarray]:
    """Roll the location of one damage group on the standard table from ``side`` (TACs
    included), then :func:`apply_group`."""
    p, oloc, orear, otac = side_outcomes(side, dm.rules, dm.layout.config)
    P = np.broadcast_to(p, (len(S), len(p)))
    dmg = np.broadcast_to(damage, len(S))
    S, w, j, rows = ch.pick(S, w, P)
    return apply_group(S, w, dm, oloc[j], orear[j], dmg[rows], otac[j], ch)


def explode(S: np.ndarray, w: np.ndarray, dm: DamageModel, index: int, mask: np.ndarray,
            ch: Chooser) -> tuple[np.ndarray, np.ndarray]:
    """Explode explosive item ``index`` (a bin index, or ``len(bins) + g`` for Gauss weapon
    g) in the rows of ``mask`` (e.g. a heat-induced ammunition explosion, 13.4 / 14.4)."""
    S = S.copy()
    m = mask & (S[:, st.CAUSE] == st.C_NONE)
    S[m, st.PEND] |= 1 << index
    return resolve(S, w, dm, ch)


def resolve(S: np.ndarray, w: np.ndarray, dm: DamageModel, ch: Chooser
            ) -> tuple[np.ndarray, np.ndarray]:
    """Run the pending work of every row (the current damage, pending explosions, suspended
    damage) to completion; leaves the scratch columns idle."""
    for _ in range(1000):
        live = S[:, st.CAUSE] == st.C_NONE
        if (S[:, st.PEND] != 0).any() or (S[:, st.SUS_LOC] >= 0).any():
            _explosions(S, dm, live)
        act = live & (S[:, st.W_LOC] >= 0)
        if not act.any():
            break
        S, w = _subset(S, w, act, ch, lambda s, v: _step(s, v, dm, ch))
        S, w = ch.settle(S, w)
    else:  # pragma: no cover - every step consumes damage or an explosion
        raise RuntimeError("damage resolution did not finish")
    S[:, st.W_LOC:st.W_LOC + len(st.SCRATCH)] = st.IDLE_ROW
    S[:, st.PEND] = 0
    return S, w


def _explosions(S: np.ndarray, dm: DamageModel, live: np.ndarray) -> None:
    """The explosion bookkeeping of :func:`resolve` for the ``live`` rows: a row with a
    pending explosion suspends its ordinary damage, starts the explosion (14.4) and, once
    nothing is pending, resumes the suspended damage."""
    pend = S[:, st.PEND] != 0
    susp = live & pend & (S[:, st.W_LOC] >= 0) & (S[:, st.W_EXPL] == 0) & (
        S[:, st.SUS_LOC] < 0)
    if susp.any():
        S[susp, st.SUS_LOC] = S[susp, st.W_LOC]
        S[susp, st.SUS_DMG] = S[susp, st.W_DMG]
        S[susp, st.SUS_REAR] = S[susp, st.W_REAR]
        S[susp, st.SUS_CMOD] = S[susp, st.CMOD]
        S[susp, st.W_LOC] = -1
    start = live & pend & (S[:, st.W_LOC] < 0)
    if start.any():
        _start_explosion(S, dm, start)
    resume = live & (S[:, st.W_LOC] < 0) & (S[:, st.PEND] == 0) & (S[:, st.SUS_LOC] >= 0)
    if resume.any():
        S[resume, st.W_LOC] = S[resume, st.SUS_LOC]
        S[resume, st.W_DMG] = S[resume, st.SUS_DMG]
        S[resume, st.W_REAR] = S[resume, st.SUS_REAR]
        S[resume, st.CMOD] = S[resume, st.SUS_CMOD]
        S[resume, st.W_EXPL] = 0
        S[resume, st.W_TAC] = 0
        S[resume, st.SUS_LOC] = -1


def _start_explosion(S: np.ndarray, dm: DamageModel, start: np.ndarray) -> None:
    """Begin the lowest pending explosion of each row in ``start`` (14.4): the bin's shots x
    damage per shot (Gauss: its fixed damage) to the location's structure; pilot +2 for
    ammunition."""
    r = np.nonzero(start)[0]
    p = S[r, st.PEND]
    e = np.log2(p & -p).astype(np.int64)
    S[r, st.PEND] = p & ~(1 << e)
    is_bin = dm.expl_is_bin[e]
    loc = dm.expl_loc[e]
    shots = np.where(is_bin, S[r, st.AMMO0 + np.where(is_bin, e, 0)], 1)
    dmg = shots * dm.expl_per[e]
    rb = r[is_bin]
    S[rb, st.AMMO0 + e[is_bin]] = 0
    if dm.rules.case2_explosion == "one-point":
        dmg = np.where(dm.layout.case2[loc], np.minimum(dmg, 1), dmg)
    if dm.rules.explosion_size == "core":
        dmg = _core_explosion(S, dm, r, loc, dmg, is_bin)
    boom = dmg > 0
    S[r[boom], st.EXPLOSIONS] += 1
    S[r[boom & is_bin], st.PILOT] += 2
    S[r, st.W_LOC] = np.where(boom, loc, -1)
    S[r, st.W_DMG] = dmg
    if dm.rules.advanced_criticals:
        S[r, st.CMOD] = _crit_mod(dmg)
    S[r, st.W_EXPL] = 1
    S[r, st.W_REAR] = 0
    S[r, st.W_TAC] = 0


def _core_explosion(S: np.ndarray, dm: DamageModel, r: np.ndarray, loc: np.ndarray,
                    dmg: np.ndarray, is_bin: np.ndarray) -> np.ndarray:
    """C30 Core rules: an ammunition explosion does at most 20 to structure (10 with CASE,
    1 with CASE II); the rest strips the location's armor (a torso's rear armor), at most
    10 with CASE. Returns the structure damage (Gauss damage is already 2 per slot)."""
    prot = np.where(dm.layout.case2[loc], 2, np.where(dm.layout.case[loc], 1, 0))
    cap = np.asarray(CORE_IS_CAP)[prot]
    to_is = np.where(is_bin, np.minimum(dmg, cap), dmg)
    rest = np.where(is_bin, dmg - to_is, 0)
    rest = np.where(prot > 0, np.minimum(rest, CORE_CASE_ARMOR_CAP), rest)
    col = st.ARMOR_COL[loc, 1]
    S[r, col] -= np.minimum(S[r, col], rest)
    return to_is


def _subset(S: np.ndarray, w: np.ndarray, mask: np.ndarray, ch: Chooser,
            fn: Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]
            ) -> tuple[np.ndarray, np.ndarray]:
    """Run ``fn`` on the rows of ``mask`` only. A sampler keeps every row in place (callers
    may hold arrays aligned with the trials); the exact chooser appends the (possibly
    multiplied) rows after the untouched ones."""
    if mask.all():
        return fn(S, w)
    idx = np.nonzero(mask)[0]
    # the rows keep the layout of S: a column-major S (the duel's) gives column-major rows,
    # on which the kernel's column operations run over contiguous memory
    sS, sw = fn(S.T.take(idx, axis=1).T if S.flags.f_contiguous else S[idx], w[idx])
    if isinstance(ch, SampleChooser):
        S[idx] = sS
        w[idx] = sw
        return S, w
    keep = ~mask
    return np.concatenate([S[keep], sS]), np.concatenate([w[keep], sw])


def _step(S: np.ndarray, w: np.ndarray, dm: DamageModel, ch: Chooser
          ) -> tuple[np.ndarray, np.ndarray]:
    """One location's worth of damage for every row given (14.1 steps 1-5)."""
    idx = np.arange(len(S))
    loc = S[:, st.W_LOC].copy()
    d = S[:, st.W_DMG].copy()
    expl = S[:, st.W_EXPL] == 1
    tac = S[:, st.W_TAC] == 1
    isc = st.IS0 + loc
    before = S[idx, isc]
    gone_before = before == 0
    acol = st.ARMOR_COL[loc, S[:, st.W_REAR]]
    armor = S[idx, acol]
    void = np.zeros(len(S), dtype=bool)
    if dm.layout.lamellor:   # ferro-lamellor: floor(4/5) of a group on armor (ER.lamellor_damage)
        cut = ~expl & ~gone_before & (armor > 0)
        d = np.where(cut, (4 * d) // 5, d)
        void = cut & (d == 0)                      # cut to nothing: no through-armor critical
    take = np.where(expl | gone_before, 0, np.minimum(armor, d))
    S[idx, acol] = armor - take
    d -= take
    isd, d = _structure_take(dm.layout.structure_kind, before, d)
    S[idx, isc] = before - isd
    torso = dm.layout.torso_cockpit   # no pilot hit from the head, the head not vital
    S[:, st.PILOT] += (loc == lay.HD) & (take + isd > 0) & ~expl & (not torso)
    now = (isd > 0) & (before == isd)
    ndet = (isd > 0).astype(np.int64)
    if not dm.rules.crit_on_destroying_group:
        ndet[now] = 0
    t = (tac & ~gone_before & ~void).astype(np.int64)
    ndet = ndet + t if dm.rules.tac_with_structure_damage == "two" else np.maximum(ndet, t)
    stop = expl & dm.contained[loc]
    nxt = lay.TRANSFER[loc]
    go = (gone_before | now) & (d > 0) & ~stop & (nxt >= 0)
    S[:, st.W_LOC] = np.where(go, nxt, -1)
    S[:, st.W_DMG] = np.where(go, d, 0)
    S[:, st.W_TAC] = 0
    S[:, st.W_EXPL] = go & expl & (dm.rules.explosion_transfer == "structure")
    if expl.any():
        # an explosion in the head or CT destroys the 'Mech by ammunition (14.4), also one
        # set off by a critical of the group that destroyed that location (C10)
        vital = (loc == lay.CT) | ((loc == lay.HD) & (not torso))
        kill = ((now | (gone_before & (d > 0))) & expl & vital
                & (S[:, st.CAUSE] == 0))
        S[kill, st.CAUSE] = st.C_AMMO
    S[:, st.CLOC] = loc
    S[:, st.NDET] = ndet
    # hardened armor that stopped the whole group: its TAC is rolled at -2 (issue 19; the
    # mark is taken off after the determinations)
    hard = (t > 0) & (take > 0) & (d == 0) & (isd == 0) & (dm.layout.armor_per_point == 2)
    S[:, st.CMOD] += np.where(hard, HARD_MARK, 0)
    crit = ndet > 0
    if crit.any():
        S, w = _subset(S, w, crit, ch, lambda s, v: _criticals(s, v, dm, ch))
    S[:, st.CMOD] -= np.where(S[:, st.CMOD] <= HARD_MARK // 2, HARD_MARK, 0)
    return effects(S, dm), w


def _structure_take(kind: int, before: np.ndarray, d: np.ndarray
                    ) -> tuple[np.ndarray, np.ndarray]:
    """(structure lost, damage going on) per row: :func:`sim.classic.equipment_rules.
    structure_take` for arrays (standard: min(before, d); composite twice, reinforced half of
    the damage rounded up, the rest converted back; a location already gone passes ``d``)."""
    if kind == 0:
        isd = np.minimum(before, d)
        return isd, d - isd
    eff = 2 * d if kind == 1 else (d + 1) // 2
    isd = np.minimum(before, eff)
    rest = eff - isd
    rest = rest // 2 if kind == 1 else np.maximum(0, 2 * rest - d % 2)
    return isd, np.where((before > 0) & (d > 0), rest, d)


def _criticals(S: np.ndarray, w: np.ndarray, dm: DamageModel, ch: Chooser
               ) -> tuple[np.ndarray, np.ndarray]:
    """Every pending critical determination at each row's ``CLOC`` (14.2)."""
    for _ in range(3):
        need = (S[:, st.NDET] > 0) & (S[:, st.CAUSE] == st.C_NONE)
        if not need.any():
            break
        S, w = _determination(S, w, dm, ch, need)
    S[:, st.NDET] = 0
    return S, w


def _determination(S: np.ndarray, w: np.ndarray, dm: DamageModel, ch: Chooser,
                   need: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One roll on the Determining Critical Hits table (reference.md 5.4) and its slots."""
    S, w, j, rows = ch.pick_table(S, w, DETERMINING_ROWS,
                                  np.where(need, determining_row(S[:, st.CMOD]), NO_ROLL))
    need = need[rows]
    loc = np.maximum(S[:, st.CLOC], 0)
    S[:, st.NDET] -= need
    blown = need & (j == 3) & lay.BLOWABLE[loc]
    if blown.any():
        r = np.nonzero(blown)[0]
        lb = loc[r]
        S[r, st.IS0 + lb] = 0
        S[r, st.BLOWN] |= 1 << lb
        S[r, st.CRIT] |= 1 << lb
    # criticals to place: the roll's count; the 12 result three in a torso, none when blown off
    S[:, st.NCRIT] = np.where(need & ~blown, j, 0)
    for _ in range(3):
        if not (S[:, st.NCRIT] > 0).any():
            break
        S, w = _slot(S, w, dm, ch)
        S, w = ch.settle(S, w)
    S[:, st.NCRIT] = 0
    return S, w


def _slot(S: np.ndarray, w: np.ndarray, dm: DamageModel, ch: Chooser
          ) -> tuple[np.ndarray, np.ndarray]:
    """One critical hit: a uniform pick among the location's hittable slots not yet hit
    (14.2), then its effect (14.3): the slot is destroyed; an ammunition bin with shots left
    and a Gauss weapon's first hit explode (14.4)."""
    loc = np.maximum(S[:, st.CLOC], 0)
    avail = dm.hittable[loc] & ~S[np.arange(len(S)), st.HIT0 + loc]
    need = (S[:, st.NCRIT] > 0) & (avail != 0)
    S, w, j, rows = ch.pick_bit(S, w, np.where(need, avail, 0))
    need, loc = need[rows], loc[rows]
    # one critical placed; a row with no slot left to hit places none
    S[:, st.NCRIT] = np.where(need, S[:, st.NCRIT] - 1, 0)
    r = np.nonzero(need)[0]
    if r.size == 0:
        return S, w
    lr, sr = loc[r], j[r]
    if dm.layout.gauss_items:
        g = dm.gauss_slot[lr, sr]
        if (g >= 0).any():
            rg, gg = r[g >= 0], g[g >= 0]
            it = dm.layout.item[lr[g >= 0], sr[g >= 0]]
            first = ~((S[rg, st.HIT0:st.HIT0 + 8] & dm.layout.item_masks[it]) != 0).any(axis=1)
            S[rg[first], st.PEND] |= 1 << gg[first]
    S[r, st.HIT0 + lr] |= 1 << sr
    S[r, st.CRIT] |= 1 << lr
    if dm.layout.bins:
        b = dm.boom_bin[lr, sr]
        isb = b >= 0
        if isb.any():
            rb, bb = r[isb], b[isb]
            live = S[rb, st.AMMO0 + bb] > 0
            S[rb[live], st.PEND] |= 1 << bb[live]
    return S, w


def effects(S: np.ndarray, dm: DamageModel) -> np.ndarray:
    """Consequences of destroyed locations and critical slots (14.3, 14.5), for every row: a
    destroyed side torso takes its arm (a quad's front leg: ``Layout.dependent``); destroyed
    locations lose their armor; engine hits count the engine slots of destroyed side torsos;
    counters from the slot bits; the destruction cause (cockpit, head, center torso, third
    engine hit, sixth pilot hit)."""
    for t, a in dm.layout.dependent:
        S[:, st.IS0 + a] = np.where(S[:, st.IS0 + t] == 0, 0, S[:, st.IS0 + a])
    dead = S[:, st.IS0:st.IS0 + 8] == 0
    S[:, :st.N_ARMOR] = np.where(dead[:, st.ARMOR_LOC], 0, S[:, :st.N_ARMOR])
    pop = st.POP
    counts = pop[S[:, st.HIT0 + dm.count_loc] & dm.count_mask]
    for c, loc, m in dm.count_more:
        counts[:, c] += pop[S[:, st.HIT0 + loc] & m]
    S[:, st.ENGINE:st.ENGINE + len(COUNTED)] = counts
    for t, m in dm.side_engine:
        S[:, st.ENGINE] += np.where(dead[:, t], pop[m & ~S[:, st.HIT0 + t] & 0xFFF], 0)
    # the first cause in this order (a later check never overrides an earlier one)
    first = np.full(len(S), st.C_NONE, dtype=np.int64)
    head = dead[:, lay.HD] & (not dm.layout.torso_cockpit)  # a torso cockpit: head not vital
    for cond, c in reversed(((S[:, st.COCKPIT] > 0, st.C_PILOT), (head, st.C_HEAD),
                             (dead[:, lay.CT], st.C_CT),
                             (S[:, st.ENGINE] >= st.ENGINE_DEAD, st.C_ENGINE),
                             (S[:, st.PILOT] >= st.PILOT_DEAD, st.C_PILOT))):
        first = np.where(cond, c, first)
    # an explosion set off by the critical hits of the group that destroys the 'Mech still
    # goes off (C10, MegaMek resolves every critical first): the cause waits for it
    first = np.where(S[:, st.PEND] != 0, st.C_NONE, first)
    S[:, st.CAUSE] = np.where(S[:, st.CAUSE] == st.C_NONE, first, S[:, st.CAUSE])
    return S
