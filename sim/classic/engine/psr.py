"""PSRs, falls and consciousness of one unit (numba; reference.md 4.1-4.5,
reference-classic-combat.md 14.6): the rules of :mod:`sim.classic.duel.kernel`'s
``pre_psr``, ``_psr_phase``, ``_fall``, ``_pilot_roll`` and ``_consciousness``, per unit."""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.classic.damage_state import layout as lay
from sim.classic.damage_state import state as st
from sim.classic.engine import compile as C
from sim.classic.engine import layout as L
from sim.classic.engine.arrays import a1, a2, a3, dim
from sim.classic.engine.damage import apply_group, hits_of, roll_location, settle_pilot
from sim.classic.engine.dice import d6, two_d6

LA, RA, LL, RL = lay.LA, lay.RA, lay.LL, lay.RL
IS0, GYRO, PILOT, CAUSE = st.IS0, st.GYRO, st.PILOT, st.CAUSE


@njit(cache=True, inline="always")
def alive(S: np.ndarray) -> bool:
    return S[CAUSE] == st.C_NONE


#: the leg locations: a biped's two, then a quad's front legs (``n_legs``)
LEGS = (LL, RL, LA, RA)


@njit(cache=True, inline="always")
def n_legs(M: tuple, u: int) -> int:
    """Legs of ``u``: 4 for a quad (its front legs in LA/RA, issue 19), else 2."""
    return 4 if a2(M, L.M_UP, u, C.P_QUAD) else 2


@njit(cache=True, inline="always")
def gyro_dead(S: np.ndarray, M: tuple, u: int) -> bool:
    """The gyro is destroyed (``P_GYRO_DEAD`` hits: a heavy-duty gyro 3, else 2)."""
    return S[GYRO] >= a2(M, L.M_UP, u, C.P_GYRO_DEAD)


@njit(cache=True)
def pre_psr(S: np.ndarray, M: tuple, u: int) -> int:
    """Pre-existing PSR modifiers (reference.md 4.2): the gyro by its hits (``GYRO_PSR``: a
    standard gyro +3, destroyed +6; a heavy-duty one +1, +3, destroyed +6), per leg:
    destroyed +5, else hip +2 (other actuators of that leg ignored), else +1 per destroyed
    upper leg, lower leg and foot actuator; the unit's own modifier (a small cockpit +1,
    hardened armor +1: ``P_COCKPIT_PSR`` from :func:`sim.classic.equipment_rules.unit_psr_mod`,
    issue 19).
    A quad (:mod:`sim.classic.quad`): its four legs, and for the legs destroyed -2 with
    none, +5 with two, an automatic failure with three or more instead of +5 each."""
    out = a2(M, L.M_GYRO_PSR, u, min(S[GYRO], dim(M, L.M_GYRO_PSR, 1) - 1)) + a2(
        M, L.M_UP, u, C.P_COCKPIT_PSR)
    quad = a2(M, L.M_UP, u, C.P_QUAD) != 0
    gone = 0
    for i in range(n_legs(M, u)):
        leg = LEGS[i]
        if S[IS0 + leg] == 0:
            gone += 1
            if not quad:
                out += a1(M, L.M_LEG_PSR, 0)
        elif hits_of(S, leg, a3(M, L.M_ACT, u, C.A_HIP, leg), M) > 0:
            out += a1(M, L.M_LEG_PSR, 1)
        else:
            others = a3(M, L.M_ACT, u, C.A_UPPER_LEG, leg) | a3(M, L.M_ACT, u, C.A_LOWER_LEG, leg) | a3(M, L.M_ACT, u, C.A_FOOT, leg)
            out += a1(M, L.M_LEG_PSR, 2) * hits_of(S, leg, others, M)
    if quad:
        if gone == 0:
            out += a1(M, L.M_LEG_PSR, 3)
        elif gone >= a2(M, L.M_QUAD_MP, 2, 1):
            out += a1(M, L.M_LEG_PSR, 5)
        elif gone == 2:
            out += a1(M, L.M_LEG_PSR, 4)
    return out


@njit(cache=True)
def leg_events(S: np.ndarray, M: tuple, u: int) -> int:
    """Leg-actuator critical events, each a PSR trigger (4.2)."""
    out = 0
    for i in range(n_legs(M, u)):
        leg = LEGS[i]
        for a in (C.A_HIP, C.A_UPPER_LEG, C.A_LOWER_LEG, C.A_FOOT):
            out += hits_of(S, leg, a3(M, L.M_ACT, u, a, leg), M)
    return out


@njit(cache=True)
def legs_gone(S: np.ndarray, M: tuple, u: int) -> int:
    """Legs of ``u`` destroyed."""
    out = 0
    for i in range(n_legs(M, u)):
        if S[IS0 + LEGS[i]] == 0:
            out += 1
    return out


@njit(cache=True)
def hips_hit(S: np.ndarray, M: tuple, u: int) -> int:
    """Destroyed hips of the legs of ``u`` still there."""
    out = 0
    for i in range(n_legs(M, u)):
        leg = LEGS[i]
        if S[IS0 + leg] > 0 and hits_of(S, leg, a3(M, L.M_ACT, u, C.A_HIP, leg), M) > 0:
            out += 1
    return out


@njit(cache=True, inline="always")
def gyro_trigger_hits(S: np.ndarray, M: tuple, u: int) -> int:
    """Gyro hits that count as PSR triggers and for running (beyond ``P_GYRO_QUIET``)."""
    return max(S[GYRO] - a2(M, L.M_UP, u, C.P_GYRO_QUIET), 0)


@njit(cache=True)
def snapshot(S: np.ndarray, X: np.ndarray, M: tuple, u: int) -> None:
    """Gyro hits, leg events and destroyed legs at the start of a phase."""
    X[u, L.X_SNAP_GYRO] = gyro_trigger_hits(S, M, u)
    X[u, L.X_SNAP_LEG] = leg_events(S, M, u)
    X[u, L.X_SNAP_LEGS] = legs_gone(S, M, u)


@njit(cache=True)
def pilot_roll(S: np.ndarray, X: np.ndarray, M: tuple, u: int, tn: int, D: np.ndarray
               ) -> None:
    """The MechWarrior's roll after a fall (reference.md 4.3): 1 damage below ``tn``,
    automatic when unconscious or shut down; none with ``pilot_damage`` off."""
    r = two_d6(D, L.K_PILOT)
    hurt = X[u, L.X_UNCON] != 0 or X[u, L.X_SHUT] != 0 or r < tn
    if hurt and a1(M, L.M_RI, C.R_PILOT_DAMAGE):
        S[PILOT] += 1
    settle_pilot(S)


@njit(cache=True)
def fall(S: np.ndarray, X: np.ndarray, M: tuple, u: int, failed_tn: int, D: np.ndarray
         ) -> None:
    """The 'Mech falls (reference.md 4.3-4.4): prone; ceil(tons/10) in 5-point groups on the
    column of one 1D6 facing roll; then the MechWarrior's roll (D10: ``tw`` Piloting +
    pre-existing, ``megamek`` the failed PSR's number)."""
    if not alive(S):
        return
    X[u, L.X_PRONE] = 1
    X[u, L.X_FELL] = 1
    column = a1(M, L.M_FALL_COL, d6(D, L.K_FALL))
    left = a2(M, L.M_UP, u, C.P_FALL)
    while left > 0:
        d = min(5, left)
        left -= d
        if not alive(S):
            break
        loc, rear, tac = roll_location(M, column, D)
        apply_group(S, M, u, loc, rear, d, tac, D)
    if a1(M, L.M_RI, C.R_FALL_MEGAMEK):
        tn = failed_tn
    else:
        tn = a2(M, L.M_UP, u, C.P_PILOT) + pre_psr(S, M, u)
    pilot_roll(S, X, M, u, tn, D)


@njit(cache=True)
def psr_phase(S: np.ndarray, X: np.ndarray, M: tuple, u: int, dmg: int, live: bool,
              D: np.ndarray) -> None:
    """End-of-phase PSRs (14.6, reference.md 4.1-4.2): one roll per trigger (20+ damage,
    gyro hit, each leg-actuator critical, then each attack trigger ``X_TRIG*``), D19
    ``cumulative`` or ``own`` modifiers (a heavy-duty gyro's first hit is no trigger); the
    hit that destroys the gyro or a newly destroyed leg is an automatic fall; D22 ``auto-fail`` for shut-down or unconscious 'Mechs."""
    if not (live and X[u, L.X_PRONE] == 0 and alive(S)):
        return
    big = 1 if dmg >= 20 else 0
    gyro_new = 1 if gyro_trigger_hits(S, M, u) > X[u, L.X_SNAP_GYRO] else 0
    leg_new = max(leg_events(S, M, u) - X[u, L.X_SNAP_LEG], 0)
    auto = (gyro_new == 1 and gyro_dead(S, M, u)) or legs_gone(S, M, u) > X[u, L.X_SNAP_LEGS]
    ntrig = X[u, L.X_NTRIG]
    c0, m0 = X[u, L.X_TRIG0_C], X[u, L.X_TRIG0_M]
    c1, m1 = X[u, L.X_TRIG1_C], X[u, L.X_TRIG1_M]
    if ntrig < 2:
        c1, m1 = 0, 0
    if ntrig < 1:
        c0, m0 = 0, 0
    extra = c0 + c1
    situ = m0 + m1
    k = big + gyro_new + leg_new + extra
    base = a2(M, L.M_UP, u, C.P_PILOT) + pre_psr(S, M, u)
    tn = base + big + situ
    fail = auto
    failed_tn = tn
    if not a1(M, L.M_RI, C.R_PSR_OWN):
        for _ in range(k):
            if two_d6(D, L.K_PSR) < tn:
                fail = True
    else:
        for grp in range(4):
            if grp == 0:
                cnt, mod = big, 1
            elif grp == 1:
                cnt, mod = gyro_new + leg_new, 0
            elif grp == 2:
                cnt, mod = c0, m0
            else:
                cnt, mod = c1, m1
            tj = base + (mod // cnt if cnt > 1 else mod)  # an entry's rolls share its modifiers
            for _ in range(cnt):
                if two_d6(D, L.K_PSR) < tj:
                    if not fail:
                        failed_tn = tj
                    fail = True
    if a1(M, L.M_RI, C.R_AUTO_FAIL) and k > 0 and (X[u, L.X_SHUT] != 0 or X[u, L.X_UNCON] != 0):
        fail = True
    if fail:
        fall(S, X, M, u, failed_tn, D)


@njit(cache=True)
def consciousness(S: np.ndarray, X: np.ndarray, M: tuple, u: int, each_point: bool,
                  D: np.ndarray) -> None:
    """A pilot hurt since the last check rolls to stay conscious (reference.md 4.5):
    ``each_point`` one roll per new point at that point's number (the first failure knocks
    out), else one roll at the current total."""
    p = S[PILOT]
    ok = alive(S) and X[u, L.X_UNCON] == 0
    if ok:
        if each_point:
            for k in range(1, st.PILOT_DEAD):
                if X[u, L.X_PSEEN] < k <= p and X[u, L.X_UNCON] == 0:
                    if two_d6(D, L.K_CONSC) < a1(M, L.M_CONSC, k):
                        X[u, L.X_UNCON] = 1
        elif p > X[u, L.X_PSEEN]:
            if two_d6(D, L.K_CONSC) < a1(M, L.M_CONSC, min(p, 12)):
                X[u, L.X_UNCON] = 1
    X[u, L.X_PSEEN] = p


@njit(cache=True)
def phase_consciousness(S: np.ndarray, X: np.ndarray, M: tuple, u: int, D: np.ndarray
                        ) -> None:
    """End of the weapon, physical or heat phase (``consciousness_rolls=each_point``)."""
    if a1(M, L.M_RI, C.R_EACH_POINT):
        consciousness(S, X, M, u, True, D)
