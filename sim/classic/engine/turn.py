"""The turn loop of the compiled Classic engine (numba; reference-classic-combat.md 15):
movement, weapon attacks, physical attacks at range 1, heat, end phase, for every unit of
one duel, then the block of duels. The phases are the modules :mod:`.move`, :mod:`.fire`,
:mod:`.physical`, :mod:`.psr`, :mod:`.heat` and :mod:`.end`; the order inside a turn is the
duel kernel's (:func:`sim.classic.duel.kernel.run_block` states it)."""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.classic.damage_state import state as st
from sim.classic.engine import compile as C
from sim.classic.engine import end as E
from sim.classic.engine import fire as F
from sim.classic.engine import heat as HT
from sim.classic.engine import layout as L
from sim.classic.engine import move as MV
from sim.classic.engine import physical as PHY
from sim.classic.engine import psr as PS
from sim.classic.engine import tactics as TC
from sim.classic.engine import target as TG
from sim.classic.engine.arrays import a1, a2, a3, dim, unmanaged
from sim.classic.engine.damage import settle_pilot
from sim.classic.engine.dice import start_duel

CAUSE = st.CAUSE


@njit(cache=True)
def attacks_end(SS: np.ndarray, X: np.ndarray, M: tuple, D: np.ndarray) -> None:
    """The end of a weapon or physical attack phase for every unit still in the fight: pilot
    damage settled, the phase's PSRs (4.2) and consciousness rolls."""
    for u in range(SS.shape[0]):
        if TG.down(X, u):
            continue
        settle_pilot(SS[u])
        PS.psr_phase(SS[u], X, M, u, X[u, L.X_PDMG], True, D)
        PS.phase_consciousness(SS[u], X, M, u, D)


@njit(cache=True)
def duel(SS: np.ndarray, X: np.ndarray, P: np.ndarray, PH: np.ndarray, PV: np.ndarray,
         M: tuple, D: np.ndarray, rolls: np.ndarray, engaged: np.ndarray,
         dealt: np.ndarray, rng_out: np.ndarray) -> None:
    """One duel from fresh states; per-unit outcomes stay in ``X`` (``X_DEAD``, ``X_OUT``,
    ``X_FELL_TURN``, ``X_SHUT_TURN``) and ``SS`` (cause); ``dealt[u, t]`` damage dealt per
    turn, ``rng_out[t]`` the range of the turn's attacks (0 once over). N units a side
    (:mod:`.target`): it ends when a side is down; a unit down takes no further part, the
    others retarget at the start of each weapon attack phase."""
    U = SS.shape[0]
    T = a1(M, L.M_RI, C.R_TURNS)
    for u in range(U):
        nc = a2(M, L.M_UP, u, C.P_NCOL)
        for c in range(nc):
            SS[u, c] = a2(M, L.M_S0, u, c)
        for k in range(X.shape[1]):
            X[u, k] = 0
        X[u, L.X_TARGET] = TG.first_enemy(M, u, U)
        for t in range(T):
            dealt[u, t] = 0
    for t in range(T):
        rng_out[t] = 0
    cur = a1(M, L.M_RI, C.R_CLOSING_FROM)
    per_trial = a1(M, L.M_RI, C.R_PER_TRIAL) != 0
    tac = a1(M, L.M_RI, C.R_TACTICS) != 0
    top = a1(M, L.M_RI, C.R_START)
    if tac:
        cur = top
    sprone = np.zeros(U, np.int64)
    miss0 = M[2][C.D_NMISS]
    for t in range(T):
        if TG.over(X, M):
            break
        closing = per_trial and cur > 1
        # 1 movement
        if tac:
            # issue 22: initiative, then the loser moves first and the winner reacts, as
            # the tactics' decision table says (sim.classic.duel.tactics)
            first = TC.initiative(D, a1(M, L.M_RI, C.R_INITIATIVE))
            for u in range(U):
                X[u, L.X_WAS_OUT] = X[u, L.X_UNCON]
                X[u, L.X_ACT] = 1 if (PS.alive(SS[u]) and not X[u, L.X_SHUT]
                                      and not X[u, L.X_UNCON]) else 0
                sprone[u] = X[u, L.X_PRONE]
                MV.stand_up(SS[u], X, M, u, D)
            v = F.decision(M[2], TC.key(SS, X, M, cur, first, sprone))
            if v < 0:
                return      # a decision not in the table yet: abandoned, re-run (sampler)
            mode0, mode1, d1, d2 = v & 3, (v >> 2) & 3, (v >> 4) & 127, (v >> 11) & 127
            second = 1 - first
            MV.move(SS[first], X, M, first, mode0 if first == 0 else mode1,
                    X[first, L.X_ACT] != 0 and sprone[first] == 0, D)
            mid = TC.clip_move(d1, cur, X[first, L.X_HEX], top)
            MV.move(SS[second], X, M, second, mode1 if first == 0 else mode0,
                    X[second, L.X_ACT] != 0 and sprone[second] == 0, D)
            cur = TC.clip_move(d2, mid, X[second, L.X_HEX], top)
            r = cur
            e0 = mode0 if X[0, L.X_HEX] > 0 else MV.STAND
            e1 = mode1 if X[1, L.X_HEX] > 0 else MV.STAND
            sit = a3(M, L.M_TAC_SIT, r, e0, e1)
        for u in range(U):
            if tac:
                break
            if TG.down(X, u):
                continue
            S = SS[u]
            X[u, L.X_WAS_OUT] = X[u, L.X_UNCON]
            X[u, L.X_ACT] = 1 if (PS.alive(S) and not X[u, L.X_SHUT]
                                  and not X[u, L.X_UNCON]) else 0
            start_prone = X[u, L.X_PRONE]
            MV.stand_up(S, X, M, u, D)
            if per_trial:
                mode = MV.RUN if closing else a2(M, L.M_UP, u, C.P_MOVED)
            else:
                mode = a2(M, L.M_MODES, t, u)
            MV.move(S, X, M, u, mode, X[u, L.X_ACT] != 0 and not start_prone, D)
        if tac:
            pass
        elif per_trial:
            hexes = 0
            for u in range(U):
                hexes += X[u, L.X_HEX]
            cur = max(cur - hexes, 1)
            r = cur
            sit = a1(M, L.M_RUN_SIT, r) if closing else a1(M, L.M_ADJ, 0)
        else:
            r = a1(M, L.M_RANGES, t)
            sit = a1(M, L.M_TURN_SIT, t)
        at1 = r == 1
        rng_out[t] = r
        # 2 weapon attacks, declared from the state at the start of the phase
        if U > 2:       # one unit a side: each keeps its one enemy (no call in the duel)
            TG.retarget(SS, X, M, sit)
        for u in range(U):
            PS.snapshot(SS[u], X, M, u)
        for u in range(U):
            if TG.down(X, u):
                X[u, L.X_FIRE] = 0
            else:
                F.declare(SS, X, P, M, u, sit, r)
            X[u, L.X_DECL] = 0
            X[u, L.X_HOLD] = -1
        if M[2][C.D_NMISS] != miss0:
            return      # a decision not in the table yet: abandoned, re-run (sampler)
        anyphys = False
        for u in range(U):
            if a2(M, L.M_UP, u, C.P_PHYS) != C.PHYS_NONE:
                anyphys = True
        if at1 and a1(M, L.M_RI, C.R_ATTACKS_ALL) and anyphys:
            for u in range(U):
                if TG.down(X, u):
                    continue
                can = PS.alive(SS[u]) and not X[u, L.X_SHUT] and not X[u, L.X_UNCON]
                PHY.declare_unit(SS, X, P, M, u, can, PH, PV)
            TG.initiative(X, D)
            for u in range(U):
                PHY.commit(X, M, u)
        for u in range(U):
            X[u, L.X_BUILD] = X[u, L.X_MHEAT] + a1(M, L.M_RI, C.R_STAND_HEAT) * X[u, L.X_TRIES]
            X[u, L.X_PDMG] = 0
            X[u, L.X_DEALT] = 0
            X[u, L.X_FLOC] = 0
            X[u, L.X_NTRIG] = 0
            X[u, L.X_AMS_SPENT] = 0
        for u in range(U):
            if not TG.down(X, u):
                F.resolve(SS, X, P, M, u, D, rolls, engaged)
        attacks_end(SS, X, M, D)
        # 3 physical attacks at range 1
        if at1:
            for u in range(U):
                PS.snapshot(SS[u], X, M, u)
                X[u, L.X_PDMG] = 0
                X[u, L.X_NTRIG] = 0
            for u in range(U):
                if TG.down(X, u):
                    PH[u, PHY.H_KIND] = PHY.NONE
                    continue
                y = X[u, L.X_TARGET]
                can = (PS.alive(SS[u]) and not X[u, L.X_SHUT] and not X[u, L.X_UNCON]
                       and X[y, L.X_DECL] != PHY.DFA)
                PHY.choose(SS, X, M, u, can, X[u, L.X_FLOC], False, X[u, L.X_DECL], 0.0,
                           PH, PV)
            for u in range(U):
                if not TG.down(X, u):
                    PHY.resolve(SS, X, M, u, PH, D)
            attacks_end(SS, X, M, D)
        # 4 heat phase
        for u in range(U):
            if not TG.down(X, u):
                HT.heat_phase(SS, X, M, u, D)
        # 5 end phase
        for u in range(U):
            if TG.down(X, u):
                continue
            E.end_phase(SS, X, M, u, t, D)
            if X[u, L.X_FELL] and X[u, L.X_FELL_TURN] == 0:
                X[u, L.X_FELL_TURN] = t + 1
            if X[u, L.X_SHUT_EVER] and X[u, L.X_SHUT_TURN] == 0:
                X[u, L.X_SHUT_TURN] = t + 1
            dealt[u, t] = X[u, L.X_DEALT]


@njit(cache=True)
def run_block(M: tuple, keys: np.ndarray, first: int, n: int, D: np.ndarray,
              out_i: np.ndarray, out_dealt: np.ndarray, out_range: np.ndarray) -> None:
    """Duels ``first .. first + n - 1`` of the chunk: ``out_i[k, u, 0..4]`` = (dead turn,
    cause, C21 reason, first fall turn, first shutdown turn), ``out_dealt[k, u, t]``,
    ``out_range[k, t]``; a duel abandoned for a decision missing from the table
    (:mod:`.fire`) has ``out_i[k, 0, 0] = -1``."""
    run_list(M, keys, first, np.arange(n), D, out_i, out_dealt, out_range)


@njit(cache=True)
def run_list(M: tuple, keys: np.ndarray, first: int, idx: np.ndarray, D: np.ndarray,
             out_i: np.ndarray, out_dealt: np.ndarray, out_range: np.ndarray) -> None:
    """Duels ``first + idx[j]`` into rows ``idx[j]`` (:func:`run_block`; the sampler re-runs
    the abandoned ones this way)."""
    U = dim(M, L.M_UP, 0)
    ncol = 0
    ng = 1
    for u in range(U):
        ncol = max(ncol, a2(M, L.M_UP, u, C.P_NCOL))
        ng = max(ng, a2(M, L.M_UP, u, C.P_NGUN))
    own = (np.zeros((U, ncol), np.int64), np.zeros((U, L.N_X), np.int64),
           np.zeros((U, 2, ng), np.int64), np.zeros((U, PHY.N_H), np.int64),
           np.zeros((U, 8), np.float64), np.zeros(ng, np.int64), np.zeros(ng, np.int64))
    # the loop works on unreference-counted aliases (arrays.unmanaged: no atomic
    # increments per view or call); ``own``, ``M``, ``D`` and the outputs outlive it
    SS, X, P, PH = unmanaged(own[0]), unmanaged(own[1]), unmanaged(own[2]), unmanaged(own[3])
    PV, rolls, engaged = unmanaged(own[4]), unmanaged(own[5]), unmanaged(own[6])
    Mu = (unmanaged(M[0]), unmanaged(M[1]), unmanaged(M[2]))
    Du, dealt_u, range_u = unmanaged(D), unmanaged(out_dealt), unmanaged(out_range)
    for j in range(idx.size):
        k = idx[j]
        start_duel(Du, keys, first + k)
        miss0 = Mu[2][C.D_NMISS]
        duel(SS, X, P, PH, PV, Mu, Du, rolls, engaged, dealt_u[k], range_u[k])
        if Mu[2][C.D_NMISS] != miss0:
            out_i[k, 0, 0] = -1
            continue
        for u in range(U):
            out_i[k, u, 0] = X[u, L.X_DEAD]
            out_i[k, u, 1] = SS[u, CAUSE]
            out_i[k, u, 2] = X[u, L.X_OUT]
            out_i[k, u, 3] = X[u, L.X_FELL_TURN]
            out_i[k, u, 4] = X[u, L.X_SHUT_TURN]
    own[0][0, 0] = own[0][0, 0]     # the owners stay alive (referenced) until here
