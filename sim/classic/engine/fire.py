"""Weapon attack phase of one unit (numba; reference-classic-combat.md 10, 12): which guns
can fire and at what number (12.1: heat and movement from the fire model's tables, the
trial's own movement, TMM, sensors, arm actuators, prone and immobile targets, a prone
attacker propped on one arm), the firing decision, and the resolution: to-hit, jams,
cluster, damage groups with hit locations, heat, ammunition, the target's AMS (10.3). The
rules of :mod:`sim.classic.duel.kernel`'s ``_declare``, ``_prop_up`` and ``_resolve_fire``.

Decisions: the unit's policy slot (``UP[u, P_POLICY]``); ``POLICY_ALL`` fires every weapon
in reach by the trial's own numbers; ``POLICY_TABLE`` (``neutral``, ``below:H``,
``max-expected``) reads the :class:`~sim.classic.fire.policies.Decider`'s choice for the
unit's situation, heat and available weapons from the decision table ``M[2]``
(:class:`~sim.classic.engine.compile.DecisionTable`); a key not there yet is recorded as a
miss and the turn loop abandons the duel, re-run once the table has it."""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.classic.damage_state import layout as lay
from sim.classic.damage_state import state as st
from sim.classic.engine import compile as C
from sim.classic.engine import layout as L
from sim.classic.engine.arrays import a1, a2, a3, a4, a5, b2, dim
from sim.classic.engine.damage import group_on_column, hits_of, item_lost, usable_ammo
from sim.classic.engine.dice import d6, two_d6
from sim.classic.engine.move import tmm_of
from sim.classic.engine.psr import legs_gone

LA, RA, LL, RL = lay.LA, lay.RA, lay.LL, lay.RL
IS0, SENSORS, AMMO0 = st.IS0, st.SENSORS, st.AMMO0
#: plan rows of ``P[u, row, g]``
P_TN, P_SHOTS = 0, 1


@njit(cache=True)
def pool_ammo(S: np.ndarray, M: tuple, u: int, pool: int) -> int:
    """Usable shots of a fire pool (its bins whose location stands)."""
    tot = 0
    for b in range(a2(M, L.M_UP, u, C.P_NBIN)):
        if a2(M, L.M_BIN_POOL, u, b) == pool:
            tot += usable_ammo(S, M, u, b)
    return tot


@njit(cache=True)
def take_ammo(S: np.ndarray, M: tuple, u: int, pool: int, need: int) -> None:
    """Take ``need`` shots from the pool's bins in slot order (standing locations only)."""
    for b in range(a2(M, L.M_UP, u, C.P_NBIN)):
        if need <= 0:
            break
        if a2(M, L.M_BIN_POOL, u, b) == pool:
            have = usable_ammo(S, M, u, b)
            t = min(need, have)
            S[AMMO0 + b] -= t
            need -= t


@njit(cache=True)
def gun_lost(S: np.ndarray, M: tuple, u: int, g: int) -> bool:
    return item_lost(S, M, u, a3(M, L.M_GI, u, g, C.G_ITEM), 2 if a3(M, L.M_GI, u, g, C.G_SECOND) else 1)


@njit(cache=True)
def stealth_active(SS: np.ndarray, X: np.ndarray, M: tuple, u: int, sit: int) -> bool:
    """``u``'s stealth armor is on this turn (issue 19): switched on in the situations where
    it hampers an enemy weapon (``STEALTH_ON``), while its ECM suite works and it is not
    shut down (:func:`sim.classic.equipment_rules.stealth_to_hit`)."""
    item = a2(M, L.M_UP, u, C.P_ECM_ITEM)
    return (a2(M, L.M_STEALTH_ON, u, sit) != 0 and item >= 0 and X[u, L.X_SHUT] == 0
            and not item_lost(SS[u], M, u, item, 1))


@njit(cache=True)
def declare(SS: np.ndarray, X: np.ndarray, P: np.ndarray, M: tuple, u: int, sit: int,
            rng: int) -> None:
    """Availability, target numbers and the fire decision of every gun of ``u`` at its
    target ``X_TARGET`` (12.1); sets ``X_FIRE`` (bit per gun) and ``P[u]``."""
    S = SS[u]
    y = X[u, L.X_TARGET]
    ng = a2(M, L.M_UP, u, C.P_NGUN)
    hact = min(X[u, L.X_HEAT], a1(M, L.M_HEAT_CONST, 3) - 1)
    sens = S[SENSORS]
    torso = a2(M, L.M_UP, u, C.P_TORSO_CP) != 0   # torso cockpit: +4 at two (equipment_rules)
    extra = 2 if sens == 1 else (4 if sens == 2 and torso else 0)
    extra += X[u, L.X_MOD] - a3(M, L.M_MOVE_MOD, u, sit, hact)
    extra += tmm_of(X, M, y) - a2(M, L.M_TMM_NOM, u, sit)
    if X[y, L.X_PRONE]:
        extra += -2 if rng <= 1 else 1
    if X[y, L.X_SHUT] or X[y, L.X_UNCON]:
        extra -= 4
    if X[u, L.X_PRONE]:
        extra += 2
    avail = 0
    X[u, L.X_STEALTH] = 1 if stealth_active(SS, X, M, u, sit) else 0   # its heat phase
    if X[u, L.X_NARC_HIT]:      # a beacon that stuck last turn marks it from now on
        X[u, L.X_NARCED] = 1
    stealthy = stealth_active(SS, X, M, y, sit)
    # a prone quad (sim.classic.quad): with no leg gone every weapon fires; with one or two
    # its rear-leg weapons do not and its front legs prop it up as a biped's arms do; with
    # three or more no weapon fires
    quad = a2(M, L.M_UP, u, C.P_QUAD) != 0
    gone = legs_gone(S, M, u) if quad else 0
    prone = X[u, L.X_PRONE] != 0 and not (quad and gone == 0)
    for g in range(ng):
        ok = not gun_lost(S, M, u, g)
        pool = a3(M, L.M_GI, u, g, C.G_POOL)
        if pool >= 0:
            am = pool_ammo(S, M, u, pool)
            ok = ok and am > 0
            P[u, P_SHOTS, g] = min(am, a3(M, L.M_GI, u, g, C.G_RATE))
        else:
            P[u, P_SHOTS, g] = a3(M, L.M_GI, u, g, C.G_RATE)
        ok = ok and not (X[u, L.X_JAM] >> g) & 1 and sens < 2 + torso
        loc = a3(M, L.M_GI, u, g, C.G_LOC)
        e = extra
        if loc == LL or loc == RL:
            ok = ok and not prone
        if (loc == LA or loc == RA) and not quad:
            if hits_of(S, loc, a3(M, L.M_ACT, u, C.A_SHOULDER, loc), M) > 0:
                e += 4
            else:
                e += hits_of(S, loc, a3(M, L.M_ACT, u, C.A_UPPER_ARM, loc), M) + hits_of(
                    S, loc, a3(M, L.M_ACT, u, C.A_LOWER_ARM, loc), M)
        if stealthy:
            e += a3(M, L.M_STEALTH, u, sit, g)
        tn = a4(M, L.M_TN, u, sit, g, hact) + e
        P[u, P_TN, g] = tn
        if ok and tn <= 12:
            avail |= 1 << g
    if prone and quad and (gone >= a2(M, L.M_QUAD_MP, 2, 1)
                           or (S[IS0 + LA] == 0 and S[IS0 + RA] == 0)):
        avail = 0
    elif a1(M, L.M_RI, C.R_PRONE_ONE_ARM) and prone and quad and (
            S[IS0 + LA] == 0 or S[IS0 + RA] == 0):
        pass        # a quad with one front leg left fires its weapons (MegaMek)
    elif a1(M, L.M_RI, C.R_PRONE_ONE_ARM) and prone:
        if S[IS0 + LA] == 0 or S[IS0 + RA] == 0:
            avail = 0
        else:
            wl = 0.0
            wr = 0.0
            for g in range(ng):
                if (avail >> g) & 1:
                    if a3(M, L.M_GI, u, g, C.G_LOC) == LA:
                        wl += b2(M, L.M_GVAL, u, g)
                    elif a3(M, L.M_GI, u, g, C.G_LOC) == RA:
                        wr += b2(M, L.M_GVAL, u, g)
            prop = LA if wl <= wr else RA
            for g in range(ng):
                if a3(M, L.M_GI, u, g, C.G_LOC) == prop:
                    avail &= ~(1 << g)
    if not X[u, L.X_ACT]:
        X[u, L.X_FIRE] = 0
    elif a2(M, L.M_UP, u, C.P_POLICY) == C.POLICY_ALL:
        X[u, L.X_FIRE] = avail         # every weapon in reach fires
    else:
        T = M[2]
        key = (((u * T[C.D_NSIT] + sit) * T[C.D_NH] + hact) << T[C.D_SHIFT]) | avail
        m = decision(T, key)
        X[u, L.X_FIRE] = m & avail if m >= 0 else 0


@njit(cache=True)
def _slot(T: np.ndarray, key: int) -> int:
    """The slot of ``key`` in the decision hash table, or the empty slot it would take
    (the key's bits folded by XOR, no overflow with the JIT off; linear probing; the table
    is at most half full)."""
    cap = T[C.D_CAP]
    base = T[C.D_KEYS]
    i = (key ^ (key >> 13) ^ (key >> 29) ^ (key >> 47)) & (cap - 1)
    while True:
        k = T[base + i]
        if k == key or k == -1:
            return i
        i = (i + 1) & (cap - 1)


@njit(cache=True)
def decision(T: np.ndarray, key: int) -> int:
    """The fired-guns mask stored for ``key``; -1 (and the key recorded as a miss) if the
    table does not have it yet."""
    i = _slot(T, key)
    if T[T[C.D_KEYS] + i] == key:
        return T[T[C.D_VALS] + i]
    n = T[C.D_NMISS]
    if n < T[C.D_MISSCAP]:
        T[C.D_MISS0 + n] = key
    T[C.D_NMISS] = n + 1
    return -1


@njit(cache=True)
def put(T: np.ndarray, keys: np.ndarray, vals: np.ndarray) -> None:
    """Insert decided keys into the table (the caller keeps it at most half full)."""
    for j in range(keys.size):
        i = _slot(T, keys[j])
        T[T[C.D_KEYS] + i] = keys[j]
        T[T[C.D_VALS] + i] = vals[j]


@njit(cache=True)
def ams_free(SS: np.ndarray, X: np.ndarray, M: tuple, y: int) -> int:
    """AMS of ``y`` able to engage this turn (10.3): working forward mounts less those that
    already engaged an attack this turn (``X_AMS_SPENT``: N 'Mechs a side), at most one per
    round left, none while shut down; -1 without AMS."""
    if a2(M, L.M_UP, y, C.P_NAMS_ITEMS) == 0 or a2(M, L.M_UP, y, C.P_AMS_POOL) < 0:
        return -1
    Y = SS[y]
    working = 0
    for i in range(a2(M, L.M_UP, y, C.P_NAMS_ITEMS)):
        if not item_lost(Y, M, y, a2(M, L.M_AMS_ITEMS, y, i), 1):
            working += 1
    rounds = pool_ammo(Y, M, y, a2(M, L.M_UP, y, C.P_AMS_POOL))
    if X[y, L.X_SHUT]:
        return 0
    return max(min(working - X[y, L.X_AMS_SPENT], rounds), 0)


@njit(cache=True)
def resolve(SS: np.ndarray, X: np.ndarray, P: np.ndarray, M: tuple, u: int, D: np.ndarray,
            rolls: np.ndarray, engaged: np.ndarray) -> None:
    """Roll every declared weapon of ``u`` and apply its damage groups to its target (front
    column). Adds to ``X_DEALT`` (damage dealt), ``X_BUILD`` (weapon heat; the target's AMS heat to
    its own), the target's ``X_PDMG`` (damage taken this phase); sets ``X_FLOC``."""
    S = SS[u]
    y = X[u, L.X_TARGET]
    Y = SS[y]
    fire = X[u, L.X_FIRE]
    ng = a2(M, L.M_UP, u, C.P_NGUN)
    floc = 0
    free = ams_free(SS, X, M, y)
    n_order = a2(M, L.M_UP, u, C.P_NAMS_ORDER)
    pre = free >= 0 and n_order > 0
    for g in range(ng):
        engaged[g] = 0
        rolls[g] = 0
    if pre:
        for g in range(ng):
            if (fire >> g) & 1:
                rolls[g] = two_d6(D, L.K_TO_HIT)
        left = free
        used = 0
        for i in range(n_order):
            g = a2(M, L.M_AMS_ORDER, u, i)
            if not (fire >> g) & 1:
                continue
            hit = rolls[g] >= P[u, P_TN, g]
            cand = True if a1(M, L.M_RI, C.R_AMS_DECLARED) else hit
            if cand and left > 0:
                left -= 1
                engaged[g] = 1
                if hit:
                    used += 1
        X[y, L.X_AMS_SPENT] += free - left
        if used > 0:
            take_ammo(Y, M, y, a2(M, L.M_UP, y, C.P_AMS_POOL), used)
        X[y, L.X_BUILD] += used * a2(M, L.M_UP, y, C.P_AMS_HEAT)
    dealt = 0
    heat = 0
    for g in range(ng):
        if not (fire >> g) & 1:
            continue
        loc = a3(M, L.M_GI, u, g, C.G_LOC)
        if loc >= 0:
            floc |= 1 << loc
        s = P[u, P_SHOTS, g]
        roll = rolls[g] if pre else two_d6(D, L.K_TO_HIT)
        hit = roll >= P[u, P_TN, g]
        if roll <= a3(M, L.M_JAM, u, g, s):
            X[u, L.X_JAM] |= 1 << g
        if hit:
            cl = two_d6(D, L.K_CLUSTER)
            if X[y, L.X_NARCED]:    # Narc-capable rounds at a marked target (issue 19)
                cl = min(cl + a3(M, L.M_GI, u, g, C.G_NARC_BONUS), 12)
            if a3(M, L.M_GI, u, g, C.G_NARC):
                X[y, L.X_NARC_HIT] = 1
            if engaged[g]:
                k = a4(M, L.M_HITS_AMS, u, g, s, cl)
            else:
                k = a4(M, L.M_HITS, u, g, s, cl)
            for j in range(dim(M, L.M_GRP, 4)):
                d = a5(M, L.M_GRP, u, g, s, k, j)
                if d > 0:
                    group_on_column(Y, M, y, 0, d, D)
                    dealt += d
            if k > 0:   # a plasma weapon's heat dice on the 'Mech it hit (issue 19)
                for _ in range(a3(M, L.M_GI, u, g, C.G_PLASMA)):
                    X[y, L.X_EXT] += d6(D, L.K_EXT)
        used_g = hit if a3(M, L.M_GI, u, g, C.G_STREAK) else True
        if used_g:
            heat += a3(M, L.M_GI, u, g, C.G_HPS) * s
            if a3(M, L.M_GI, u, g, C.G_POOL) >= 0:
                take_ammo(S, M, u, a3(M, L.M_GI, u, g, C.G_POOL), s)
    X[u, L.X_FLOC] = floc
    X[u, L.X_DEALT] += dealt
    X[u, L.X_BUILD] += heat
    X[y, L.X_PDMG] += dealt
