"""Monte Carlo kernel of the ``fire`` model: ``n`` 'Mechs through ``T`` turns, vectorized over
trials (the Python loops run over turns, weapons and damage groups, never over trials).

Per turn (reference part 2, 12-13, 15): decide what fires (policy), roll each weapon's to-hit
(one accepted byte per roll, monotone in the 2D6 total: :mod:`sim.classic.fastdice`), jams
on the same unmodified roll, the cluster roll, one location roll per damage group on the
standard table's front column (12.2), ammunition and heat per shot; then the heat phase
(13.4): build-up, dissipation, restart / shutdown rolls, the ammunition explosion roll
(C8 bin choice; contained when every bin of that ammunition sits behind CASE / CASE II:
the exploding bin's rounds are lost, :meth:`Pool.explosion_loss`; otherwise the 'Mech is
out and fires no more). A target with anti-missile systems (``target_ams``) takes 4 off
the cluster roll of the missile attacks they engage (:func:`_ams_engaged`, 10.3).

Speed (issue 11): one decision-table lookup per trial gives every gun's to-hit byte
threshold (:data:`NO_FIRE` where it does not fire) and the turn's movement plus fixed-gun
heat; damage groups add into 8-bit location lanes of one uint64 whose byte sum is the turn's
damage (while it stays below 256). None of this changes a roll: same bytes, same outcomes
as the per-gun form.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from sim.aggregate import Aggregate
from sim.classic import tables as CT
from sim.classic.fastdice import SORTED_2D6, THR_2D6, die_bytes
from sim.classic.fire import heat as H
from sim.classic.fire.policies import Decider
from sim.classic.fire.scenario import ACTIVE_HEATS, FireScenario
from sim.errors import ConfigError

#: Front-column location (0..7 = HD CT LT RT LA RA LL RL) of an accepted byte (12.2).
FRONT_LOC = CT.STANDARD[CT.SIDE["front"]][SORTED_2D6].astype(np.intp)
#: Location names of the damage-by-location metrics.
LOCS = CT.LOCATIONS[:8]
#: Damage by location is accumulated per trial in one uint64 holding 8 lanes of 8 bits
#: (HD..RL): a group adds ``damage << LANE_SHIFT[byte]``. Exact while one turn's damage stays
#: below 256 (checked per scenario; otherwise 16-bit lanes in two words).
LANE_SHIFT8 = (FRONT_LOC * 8).astype(np.uint64)
LANE_SHIFT16 = ((FRONT_LOC % 4) * 16).astype(np.uint64)
LANE_HIGH16 = FRONT_LOC >= 4
#: Multiplier summing the 8 byte lanes of a uint64 into its top byte (exact below 256).
BYTE_SUM = np.uint64(0x0101010101010101)


class _GunTables:
    """Per-gun byte tables, built once per scenario."""

    def __init__(self, scn: FireScenario) -> None:
        self.thr = []       # (steps, ACTIVE_HEATS) uint8 thresholds: hit iff byte >= thr
        self.hits = []      # (rate + 1, 252) hits by cluster byte, flattened
        self.dmg = []       # (rate + 1, kmax + 1) total damage of k hits, flattened
        self.grp = []       # (rate + 1, kmax + 1, gmax) group damages
        self.jam = []       # (rate + 1,) byte thresholds: jam iff byte < jam
        self.clustered = []
        #: (rate + 1, 252) hits by cluster byte when the target's AMS engages (flattened),
        #: None for a gun no AMS engages or without target AMS
        self.hits_ams: list[np.ndarray | None] = []
        for g in scn.guns:
            self.thr.append(THR_2D6[np.clip(g.tn, 0, 14)].astype(np.uint8))
            kmax = max(len(x) for x in g.groups) - 1
            gmax = max(1, max(len(t) for x in g.groups for t in x))
            hits = np.zeros((g.rate + 1, 252), dtype=np.int64)
            dmg = np.zeros((g.rate + 1, kmax + 1), dtype=np.int64)
            grp = np.zeros((g.rate + 1, kmax + 1, gmax), dtype=np.int64)
            for s in range(1, g.rate + 1):
                hits[s] = g.hits[s][SORTED_2D6]
                for k, t in enumerate(g.groups[s]):
                    dmg[s, k] = sum(t)
                    grp[s, k, : len(t)] = t
            self.hits.append(hits.ravel())
            self.dmg.append(dmg)
            self.grp.append(grp)
            self.jam.append(np.array([THR_2D6[j + 1] if j else 0 for j in g.jam_le],
                                     dtype=np.int64))
            self.clustered.append(bool((hits[1:] != hits[1:, :1]).any())
                                  or (scn.target_ams > 0 and g.ams_target))
            if scn.target_ams and g.ams_target:
                ha = np.zeros((g.rate + 1, 252), dtype=np.int64)
                for s in range(1, g.rate + 1):
                    ha[s] = g.hits_ams[s][SORTED_2D6]
                self.hits_ams.append(ha.ravel())
            else:
                self.hits_ams.append(None)
        # bytes drawn per turn: per gun one to-hit byte, one cluster byte if clustered, one
        # location byte per damage group
        self.offset = []
        k = 0
        for gi in range(len(scn.guns)):
            self.offset.append(k)
            k += 1 + int(self.clustered[gi]) + self.grp[gi].shape[2]
        self.bytes_per_turn = k
        # shots never vary: energy weapons, Streaks, single-shot guns alone on their pool
        feeds = [sum(1 for x in scn.guns if x.pool == g.pool) for g in scn.guns]
        self.scalar_shots = [g.pool < 0 or g.streak or (g.rate == 1 and feeds[i] == 1)
                             for i, g in enumerate(scn.guns)]
        #: heat of firing a fixed-shot gun whose heat does not hang on the roll (not Streak):
        #: counted in the decision table's per-key build-up (0 for the other guns)
        self.key_heat = [g.heat_of(g.rate) if self.scalar_shots[i] and not g.streak else 0
                         for i, g in enumerate(scn.guns)]
        #: per step: decision key -> movement heat + key_heat of the guns that fire (int16)
        self.build: dict[int, np.ndarray] = {}
        self.hits_s = [h.reshape(-1, 252).astype(np.uint8) for h in self.hits]
        self.grp_u64 = [x.astype(np.uint64) for x in self.grp]
        self.dmg_s = [x.astype(np.int16) for x in self.dmg]
        # per (gun, shots, group): (hits, byte) -> group damage shifted into its lane
        self.lane_lut = [[[(x[sh, :, j][:, None] << LANE_SHIFT8[None, :]).ravel()
                           for j in range(x.shape[2])] for sh in range(x.shape[0])]
                         for x in self.grp_u64]
        # the same over every shot count: index ((shots * (kmax + 1) + hits) * 252 + byte)
        self.lane_all = [[np.concatenate([self.lane_lut[g][sh][j] for sh in range(x.shape[0])])
                          for j in range(x.shape[2])] for g, x in enumerate(self.grp_u64)]
        #: the guns an AMS engages, most dangerous first (expected damage given a hit; ties
        #: to the first gun), when the target has AMS
        self.ams_order = sorted((g for g, gun in enumerate(scn.guns)
                                 if scn.target_ams and gun.ams_target),
                                key=lambda g: (-scn.guns[g].ams_priority, g))


#: Per-trial counters (heat, damage, ammunition, build-up) are int16: half the memory traffic
#: of int32; scenarios beyond it are refused, never wrapped.
INT16_MAX = 32767

#: Trials per block inside a chunk: the kernel's temporaries (about 40 arrays of up to 8
#: bytes per trial) stay in cache; 2**14 measured fastest of 2**12..2**17 (2026-11-30).
BLOCK = 2**14
#: Rows per float32 slab of the damage-by-location squares: 256 * 255**2 < 2**24.
SLAB = 256


def simulate(scn: FireScenario, rng: np.random.Generator, n: int,
             locations: bool = True) -> Aggregate:
    """Run ``n`` trials of ``scn`` in blocks of :data:`BLOCK`; return per-turn sums (see
    :mod:`sim.classic.fire.model`)."""
    if scn.damage_bins > INT16_MAX or any(p.shots > INT16_MAX for p in scn.unit.pools) \
            or scn.heat_bins > INT16_MAX:
        raise ConfigError("unit", scn.unit_label, "at most 32767 rounds per ammunition type "
                          "and 32767 damage or heat per turn (16-bit kernel counters)")
    tabs = _GunTables(scn)
    dec = Decider(scn)
    tables: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    agg = Aggregate(0)
    for start in range(0, n, BLOCK):
        agg.merge(_block(scn, tabs, dec, tables, rng, min(BLOCK, n - start), locations))
    return agg


def _block(scn: FireScenario, tabs: _GunTables, dec: Decider,
           tables: dict[int, tuple[np.ndarray, np.ndarray]],
           rng: np.random.Generator, n: int, locations: bool) -> Aggregate:
    """One block of trials through every turn."""
    guns = scn.guns
    ng = len(guns)
    pools = scn.unit.pools
    npool = len(pools)
    T = scn.turns
    heat = np.full(n, scn.start_heat, dtype=np.int16)
    shut = np.zeros(n, dtype=bool)
    out = np.zeros(n, dtype=bool)
    ever_shut = np.zeros(n, dtype=bool)
    ever_expl = np.zeros(n, dtype=bool)
    jam = np.zeros((ng, n), dtype=bool)
    ammo = np.array([np.full(n, p.shots, dtype=np.int16) for p in pools],
                    dtype=np.int16).reshape(npool, n)
    cum = np.zeros(n, dtype=np.int32)
    variable = [g for g, gun in enumerate(guns) if gun.pool >= 0 or any(gun.jam_le)]
    nvar = len(variable)
    size = ACTIVE_HEATS << nvar   # decision keys: heat x availability of variable guns
    expl_pools = [i for i in scn.explosive_pools()]
    expl_idx = np.array(expl_pools, dtype=np.intp)
    # C8 order: damage per round, then rounds left; exact ties -> first pool
    score_dps = np.array([pools[i].damage_per_shot for i in expl_pools], dtype=np.int64)
    contained = np.array([pools[i].contained for i in expl_pools], dtype=bool)
    # C8: the bin with the most rounds left explodes, by rounds left in its pool
    loss = [np.array([pools[i].explosion_loss(k) for k in range(pools[i].shots + 1)],
                     dtype=np.int16) for i in expl_pools]
    hb, db = scn.heat_bins, scn.damage_bins
    st = np.zeros((T, 12))
    loc_s = np.zeros((T, 8))
    loc_q = np.zeros((T, 8))
    dmg_hist = np.zeros((T, db), dtype=np.int64)
    heat_hist = np.zeros((T, hb), dtype=np.int64)
    narrow = scn.damage_bins <= 256 and sys.byteorder == "little"
    # narrow lanes are always kept: the turn's damage is the sum of their 8 bytes (one
    # multiply), cheaper than a damage lookup per gun
    track = locations or narrow
    rows_h = np.arange(H.HEAT_TOP + 1)
    restart_thr = np.where(rows_h < H.AUTO_RESTART_BELOW, 0,
                           THR_2D6[H.SHUTDOWN_AVOID]).astype(np.uint8)
    avoid = H.shutdown_avoid(rows_h, scn.rules.tacops_shutdown, scn.rules.piloting)
    shutdown_thr = np.where(rows_h < 14, 0, THR_2D6[np.clip(avoid, 0, 14)]).astype(np.uint8)
    ammo_thr = np.where(rows_h < H.AMMO_CHECK_FROM, 0, THR_2D6[H.AMMO_AVOID]).astype(np.uint8)
    nslab = -(-n // SLAB)
    ones_slab = np.ones(SLAB, dtype=np.float32)
    # (trials padded to SLAB * nslab, 8) float32; rows past n stay 0. Seen as (SLAB,
    # nslab * 8), each column holds one location of SLAB trials
    pad32 = np.zeros((nslab * SLAB, 8), dtype=np.float32)
    slabs = pad32.reshape(SLAB, nslab * 8)
    move_heat16 = scn.move_heat.astype(np.int16)
    dvals = np.arange(db, dtype=np.int64)
    dvals2 = dvals * dvals
    hvals = np.arange(hb, dtype=np.int64)
    hvals2 = hvals * hvals
    for t in range(T):
        r = scn.steps[t]
        active = ~shut & ~out
        hact = np.minimum(heat, ACTIVE_HEATS - 1)
        avail = np.ones((ng, n), dtype=bool)
        for g, gun in enumerate(guns):
            if gun.pool >= 0:
                avail[g] = ammo[gun.pool] > 0
            if any(gun.jam_le):
                avail[g] &= ~jam[g]
        fire, thrs, build_k = _decide_thr(scn, tabs, dec, tables, r, t, hact, active, avail,
                                          variable, size, ammo)
        if build_k is None:
            build = np.where(active, move_heat16.take(hact), np.int16(0))
        else:   # movement and fixed guns' heat, read from the decision table
            build = build_k
        dmg = np.zeros(n, dtype=np.int16)
        lanes = [np.zeros(n, dtype=np.uint64) for _ in range(1 if narrow else 2)]
        draws = die_bytes(rng, (tabs.bytes_per_turn + 2, n))
        engaged = _ams_engaged(scn, tabs, fire, thrs, draws, r, hact)
        for g, gun in enumerate(guns):
            f = fire[g]
            if not f.any():
                continue
            o = tabs.offset[g]
            # hit iff byte >= threshold; a gun that does not fire reads NO_FIRE (never hits)
            if thrs is None:
                hit = f & (draws[o] >= tabs.thr[g][r].take(hact, mode="clip"))
            else:
                hit = draws[o] >= thrs[g]
            if g in engaged:
                _fire_engaged(tabs, g, gun, f, hit, engaged[g], draws, o, ammo, dmg, build,
                              lanes if track else None, narrow, build_k is not None)
                continue
            if tabs.scalar_shots[g]:
                _fire_fixed(tabs, g, gun, f, hit, draws, o, jam, ammo, dmg, build,
                            lanes if track else None, narrow, build_k is not None)
                continue
            # rounds left cap the shots (10.3): Ultra / Rotary or a shared pool
            s = np.minimum(ammo[gun.pool], gun.rate) * f.view(np.uint8)
            b = draws[o]
            o += 1
            if tabs.jam[g].any():
                jam[g] |= f & (b < tabs.jam[g].take(s, mode="clip"))
            if tabs.clustered[g]:
                k = tabs.hits[g].take(s * 252 + draws[o], mode="clip")
                o += 1
            else:
                k = tabs.hits[g].take(s * 252, mode="clip")
            # (shots, hits) row; a miss reads row 0 (no damage, no groups)
            kk = (s * tabs.dmg[g].shape[1] + k) * hit.view(np.uint8)
            if not narrow:
                dmg += tabs.dmg_s[g].ravel().take(kk, mode="clip")
            if track:
                grp = tabs.grp[g]
                kb = kk * 252
                for j in range(grp.shape[2]):
                    if narrow:
                        lanes[0] += tabs.lane_all[g][j].take(kb + draws[o + j], mode="clip")
                    else:
                        flat = grp.reshape(-1, grp.shape[2]).astype(np.uint64)
                        _add_lane(lanes, flat[:, j].take(kk, mode="clip"), draws[o + j],
                                  narrow)
            build += s * np.int16(gun.heat_per_shot)
            ammo[gun.pool] -= s
        if narrow:   # byte 7 of lanes x 0x0101..01 = sum of the 8 lanes (total <= 255)
            dmg = ((lanes[0] * BYTE_SUM) >> np.uint64(56)).astype(np.int16)
        # heat phase (13.4)
        heat = H.apply_heat(heat, build, scn.dissipation)
        row = np.minimum(heat, H.HEAT_TOP)
        b = draws[-2]
        # restart: auto below 14, else 2D6 >= avoid (never at 30+); shutdown: auto at 30+,
        # else a failed avoid roll from 14 (byte thresholds per heat row, 13.1)
        restart = shut & (b >= restart_thr.take(row, mode="clip"))
        goes = active & (b < shutdown_thr.take(row, mode="clip"))
        shut = (shut & ~restart) | goes
        ever_shut |= goes
        if expl_pools:
            boom = draws[-1] < ammo_thr.take(row, mode="clip")     # 0 below heat 19
            boom &= ~out
            if not scn.rules.explosion_while_shutdown:
                boom &= ~shut
            rows = np.flatnonzero(boom)
            if rows.size:   # gather the rolling trials' columns only, never all of ammo
                sub = ammo.take(rows, axis=1).take(expl_idx, axis=0)
                left = (sub > 0).any(axis=0)                # nothing left: no explosion
                rows, sub = rows[left], sub[:, left]
            if rows.size:
                big = np.stack([loss[j].take(sub[j], mode="clip")
                                for j in range(len(expl_pools))]).astype(np.int64)
                score = np.where(sub > 0, score_dps[:, None] * 100000 + big, -1)
                which = np.argmax(score, axis=0)
                for j, i in enumerate(expl_pools):
                    pick = which == j
                    hitj = rows[pick]
                    if contained[j]:    # that bin is lost, the pool's other bins stay
                        ammo[i, hitj] -= big[j, pick].astype(np.int16)
                    else:
                        out[hitj] = True
                ever_expl[rows] = True
                shut &= ~out
        cum += dmg
        total_ammo = ammo.sum(axis=0, dtype=np.int64) if npool else np.zeros(n, np.int64)
        dh = np.bincount(dmg, minlength=db)[:db]
        hh = np.bincount(np.minimum(heat, hb - 1), minlength=hb)
        c64 = cum.astype(np.int64)
        st[t] = (dh @ dvals, dh @ dvals2, c64.sum(), np.dot(c64, c64),
                 hh @ hvals, hh @ hvals2, np.count_nonzero(shut),
                 np.count_nonzero(ever_shut), np.count_nonzero(ever_expl),
                 total_ammo.sum(), np.dot(total_ammo, total_ammo), np.count_nonzero(out))
        dmg_hist[t] = dh
        heat_hist[t] = hh
        if locations and narrow:
            # little-endian lanes HD..RL as float32; each column of `slabs` sums SLAB
            # trials: every partial sum is an integer below 2**24 (SLAB * 255**2), so the
            # float32 products are exact; the columns are then added in float64
            pad32[:n] = lanes[0].view(np.uint8).reshape(n, 8)
            loc_s[t] = (ones_slab @ slabs).reshape(nslab, 8).sum(axis=0, dtype=np.float64)
            np.multiply(pad32, pad32, out=pad32)
            loc_q[t] = (ones_slab @ slabs).reshape(nslab, 8).sum(axis=0, dtype=np.float64)
        elif locations:
            for i in range(8):
                if narrow:
                    v = ((lanes[0] >> np.uint64(8 * i)) & np.uint64(255)).astype(np.int64)
                else:
                    v = ((lanes[i // 4] >> np.uint64(16 * (i % 4)))
                         & np.uint64(65535)).astype(np.int64)
                loc_s[t, i] = v.sum()
                loc_q[t, i] = (v * v).sum()
    agg = Aggregate(n)
    nn = np.full(T, float(n))
    for name, c in (("expected_damage", 0), ("expected_cumulative_damage", 2),
                    ("mean_heat", 4), ("expected_ammo_left", 9)):
        agg.add_counts(name, nn, st[:, c], st[:, c + 1])
    for name, c in (("p_shutdown", 6), ("p_shutdown_by", 7), ("p_ammo_explosion_by", 8),
                    ("p_out_by", 11)):
        agg.add_counts(name, nn, st[:, c], st[:, c])
    if locations:
        for i, loc in enumerate(LOCS):
            agg.add_counts(f"expected_damage_{loc}", nn, loc_s[:, i], loc_q[:, i])
    agg.add_hist_counts("damage_hist", dmg_hist)
    agg.add_hist_counts("heat_hist", heat_hist)
    return agg


def _ams_engaged(scn: FireScenario, tabs: _GunTables, fire: np.ndarray,
                 thrs: np.ndarray | None, draws: np.ndarray, r: int, hact: np.ndarray
                 ) -> dict[int, np.ndarray]:
    """Per missile gun (most dangerous first) the trials where one of the target's
    ``target_ams`` anti-missile systems engages it (10.3): one attack per AMS a turn, the
    attacks that hit (``ams_engages=hit``) or that were declared (``declared``) in order of
    :attr:`_GunTables.ams_order`. Empty without target AMS (the draws are not touched)."""
    out: dict[int, np.ndarray] = {}
    if not tabs.ams_order:
        return out
    left = np.full(fire.shape[1], scn.target_ams, dtype=np.int64)
    for g in tabs.ams_order:
        f = fire[g]
        o = tabs.offset[g]
        if scn.rules.ams_engages == "declared":
            cand = f
        elif thrs is None:
            cand = f & (draws[o] >= tabs.thr[g][r].take(hact, mode="clip"))
        else:
            cand = draws[o] >= thrs[g]
        eng = cand & (left > 0)
        left -= eng
        out[g] = eng
    return out


def _fire_engaged(tabs: _GunTables, g: int, gun: Any, f: np.ndarray, hit: np.ndarray,
                  eng: np.ndarray, draws: np.ndarray, o: int, ammo: np.ndarray,
                  dmg: np.ndarray, build: np.ndarray, lanes: list[np.ndarray] | None,
                  narrow: bool, heat_counted: bool) -> None:
    """One missile gun against a target with AMS: the cluster byte reads the AMS table
    (:attr:`_GunTables.hits_ams`) where ``eng``, the gun's own table elsewhere. Missile
    launchers fire one salvo (rate 1), never jam; a Streak still costs heat and a round on a
    hit only (10.3)."""
    s = gun.rate * f.view(np.uint8).astype(np.int64)
    if gun.pool >= 0:
        s = np.minimum(ammo[gun.pool], s)
    cb = draws[o + 1]
    ha = tabs.hits_ams[g]
    assert ha is not None
    k = np.where(eng, ha.take(s * 252 + cb, mode="clip"),
                 tabs.hits[g].take(s * 252 + cb, mode="clip"))
    grp = tabs.grp[g]
    kk = (s * tabs.dmg[g].shape[1] + k) * hit.view(np.uint8)
    if not narrow:
        dmg += tabs.dmg_s[g].ravel().take(kk, mode="clip")
    if lanes is not None:
        flat = tabs.grp_u64[g].reshape(-1, grp.shape[2])
        for j in range(grp.shape[2]):
            _add_lane(lanes, flat[:, j].take(kk, mode="clip"), draws[o + 2 + j], narrow)
    used = hit if gun.streak else f
    u8 = used.view(np.uint8)
    if gun.streak or not heat_counted or not tabs.key_heat[g]:
        build += (s * u8).astype(np.int16) * np.int16(gun.heat_per_shot)
    if gun.pool >= 0:
        ammo[gun.pool] -= (s * u8).astype(np.int16)


def _add_lane(lanes: list[np.ndarray], d: np.ndarray, lb: np.ndarray, narrow: bool) -> None:
    """Add one damage group per trial to the packed damage-by-location lanes."""
    if narrow:
        lanes[0] += d << LANE_SHIFT8.take(lb, mode="clip")
    else:
        hi = LANE_HIGH16.take(lb, mode="clip")
        sh = LANE_SHIFT16.take(lb, mode="clip")
        lanes[0] += (d * ~hi) << sh
        lanes[1] += (d * hi) << sh


def _fire_fixed(tabs: _GunTables, g: int, gun: Any, f: np.ndarray, hit: np.ndarray,
                draws: np.ndarray, o: int, jam: np.ndarray, ammo: np.ndarray,
                dmg: np.ndarray, build: np.ndarray, lanes: list[np.ndarray] | None,
                narrow: bool, heat_counted: bool) -> None:
    """One gun whose shots per firing never change (energy, single-feed ammunition,
    Streak): scalar tables, no per-trial shot counts. Misses index row 0 (no damage) of
    every table, so no multiplication by the hit mask is needed."""
    s = gun.rate
    b = draws[o]
    o += 1
    h8 = hit.view(np.uint8)
    if tabs.jam[g][s]:
        jam[g] |= f & (b < tabs.jam[g][s])
    if tabs.clustered[g]:
        k = tabs.hits_s[g][s].take(draws[o], mode="clip") * h8
        o += 1
        if not narrow:
            dmg += tabs.dmg_s[g][s].take(k, mode="clip")
        k16 = k.astype(np.uint16) * np.uint16(252)
    else:   # one outcome on a hit: damage and row index are hit x constants
        k0 = int(tabs.hits_s[g][s][0])
        if not narrow:
            dmg += h8 * np.int16(tabs.dmg_s[g][s][k0])
        k16 = h8 * np.uint16(252 * k0)
    if lanes is not None:
        grp = tabs.grp_u64[g][s]
        for j in range(grp.shape[1]):
            if narrow:
                lanes[0] += tabs.lane_lut[g][s][j].take(k16 + draws[o + j], mode="clip")
            else:
                kj = (k16 // np.uint16(252)).astype(np.intp)
                _add_lane(lanes, grp[:, j].take(kj, mode="clip"), draws[o + j], narrow)
    if gun.streak:
        build += h8 * np.int16(gun.heat_of(s))
        if gun.pool >= 0:
            ammo[gun.pool] -= h8
    else:
        if not heat_counted:   # else in the decision table's build-up (key_heat)
            build += f.view(np.uint8) * np.int16(gun.heat_of(s))
        if gun.pool >= 0:
            ammo[gun.pool] -= f.view(np.uint8)


#: Dense decision-table entry of a gun that does not fire: above every accepted byte (and
#: above a fired gun's threshold, at most 252 = never hits).
NO_FIRE = 253

#: Largest dense decision table (heat levels x variable-gun availability patterns).
MAX_TABLE = 2**16


def _avail_mask(key: int, nv: int, variable: list[int], ng: int) -> int:
    """Availability bit mask over all guns from a decision key's variable-gun bits."""
    am = (1 << ng) - 1
    for j, g in enumerate(variable):
        if not (key >> j) & 1:
            am &= ~(1 << g)
    return am


def _unpack(mask: int, ng: int) -> list[bool]:
    return [bool((mask >> g) & 1) for g in range(ng)]


def _decide(scn: FireScenario, dec: Decider, tables: dict[int, tuple[np.ndarray, np.ndarray]],
            r: int, t: int,
            hact: np.ndarray, active: np.ndarray, avail: np.ndarray, variable: list[int],
            size: int, ammo: np.ndarray) -> np.ndarray:
    """Fire decisions (guns, n) bool for this turn (also used by the Classic duel)."""
    return _decide_thr(scn, None, dec, tables, r, t, hact, active, avail, variable, size,
                       ammo)[0]


def _decide_thr(scn: FireScenario, tabs: _GunTables | None, dec: Decider,
                tables: dict[int, tuple[np.ndarray, np.ndarray]], r: int, t: int,
                hact: np.ndarray, active: np.ndarray, avail: np.ndarray, variable: list[int],
                size: int, ammo: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None]:
    """Fire decisions (guns, n) bool for this turn, and where the dense decision table
    applies and ``tabs`` is given, each gun's to-hit byte threshold (guns, n) uint8 read
    from the same table: the threshold at the trial's heat where the gun fires,
    :data:`NO_FIRE` where not (one lookup for decision and to-hit), and each trial's
    heat build-up of movement and of the fixed guns that fire (:attr:`_GunTables.key_heat`;
    0 for inactive trials). A ``tables`` cache serves one ``tabs`` (or ``None``) only."""
    ng, n = avail.shape
    if scn.policy.kind == "callable":
        assert scn.policy.fn is not None
        out = np.asarray(scn.policy.fn(hact.copy(), t + 1, {"avail": avail.T.copy(),
                                                            "ammo": ammo.T.copy()}))
        out = np.broadcast_to(out.astype(bool), (n, ng)).T
        tn_ok = np.array([scn.guns[g].tn[r].take(hact) <= 12 for g in range(ng)]).reshape(ng, n)
        return out & tn_ok & avail & active, None, None
    nv = len(variable)
    key = hact << np.int32(nv)
    for j, g in enumerate(variable):
        key += avail[g].view(np.uint8) * np.int32(1 << j)
    key = np.where(active, key, size)        # column `size` never fires (inactive 'Mechs)
    if size > MAX_TABLE:                     # many variable guns: decide per distinct key
        uniq, inv = np.unique(key, return_inverse=True)
        cols = np.zeros((ng, uniq.size), dtype=bool)
        for c, k in enumerate(uniq.tolist()):
            if k < size:
                cols[:, c] = _unpack(dec.mask(r, k >> nv, _avail_mask(k, nv, variable, ng)),
                                     ng)
        return np.take(cols, inv.ravel(), axis=1), None, None
    entry = tables.get(r)
    if entry is None:
        entry = (np.full((ng, size + 1), NO_FIRE, dtype=np.uint8),
                 np.zeros(size + 1, dtype=bool))
        entry[1][size] = True
        tables[r] = entry
        if tabs is not None:
            tabs.build[r] = np.zeros(size + 1, dtype=np.int16)
    table, done = entry
    # keys met before: one lookup, no histogram (new keys come in the first turns only)
    new = [] if done.take(key, mode="clip").all() else \
        np.flatnonzero((np.bincount(key, minlength=size + 1) > 0) & ~done).tolist()
    for k in new:
        fires = _unpack(dec.mask(r, k >> nv, _avail_mask(k, nv, variable, ng)), ng)
        table[:, k] = [NO_FIRE if not fires[g] else 0 if tabs is None
                       else tabs.thr[g][r][k >> nv] for g in range(ng)]
        if tabs is not None:
            tabs.build[r][k] = scn.move_heat[k >> nv] + sum(
                h for h, fg in zip(tabs.key_heat, fires, strict=True) if fg)
        done[k] = True
    thrs = np.take(table, key, axis=1, mode="clip")
    if tabs is None:
        return thrs < NO_FIRE, None, None
    return thrs < NO_FIRE, thrs, tabs.build[r].take(key, mode="clip")
