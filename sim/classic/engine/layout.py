"""Index constants of the engine's arrays: ``M`` (the compiled scenario, :mod:`.compile`),
the per-unit extra state ``X[u, X_*]`` (the damage state ``S[u]`` is one row of
:mod:`sim.classic.damage_state.state`), and the roll kinds of :mod:`.dice`. No numba here."""

from __future__ import annotations

from sim.classic.engine.compile import M_KEYS

M_STD_LOC = 0
M_STD_REAR = 1
M_PUNCH_FRONT = 2
M_KICK_FRONT = 3
M_FALL_COL = 4
M_CONSC = 5
M_SHUT_AVOID = 6
M_AMMO_AVOID = 7
M_MP_LOSS = 8
M_TMM = 9
M_DETERMINING = 10
M_POP = 11
M_NTH = 12
M_TRANSFER = 13
M_BLOWABLE = 14
M_ARMOR_COL = 15
M_ARMOR_LOC = 16
M_P_AT_LEAST = 17
M_CHARGE_DMG = 18
M_BASE = 19
M_PSR_T = 20
M_PSR_S = 21
M_MOVE_HEAT = 22
M_JUMP_HEAT_MIN = 23
M_CORE_IS_CAP = 24
M_CORE_ARMOR_CAP = 25
M_QUAD_MP = 26
M_LEG_PSR = 27
M_HEAT_CONST = 28
M_UP = 29
M_ACT = 30
M_JET = 31
M_GI = 32
M_TN = 33
M_HITS = 34
M_HITS_AMS = 35
M_GRP = 36
M_JAM = 37
M_MEAN = 38
M_GVAL = 39
M_AMS_ORDER = 40
M_BIN_POOL = 41
M_BIN_LOC = 42
M_BIN_PER = 43
M_S0 = 44
M_ITEM_MASK = 45
M_SINKS = 46
M_AMS_ITEMS = 47
M_HITTABLE = 48
M_EXPL_LOC = 49
M_EXPL_PER = 50
M_EXPL_IS_BIN = 51
M_COUNT_LOC = 52
M_COUNT_MASK = 53
M_COUNT_MORE = 54
M_SIDE_ENG = 55
M_GAUSS_SLOT = 56
M_BOOM_BIN = 57
M_CONTAINED = 58
M_CASE = 59
M_CASE2 = 60
M_ITEM = 61
M_MOVE_MOD = 62
M_TMM_NOM = 63
M_PUNCH_DMG = 64
M_KICK_DMG = 65
M_SHUT_GO = 66
M_HATCH_TABLE = 67
M_GYRO_PSR = 68
M_STEALTH = 69
M_STEALTH_ON = 70
M_RI = 71
M_TURN_SIT = 72
M_RUN_SIT = 73
M_ADJ = 74
M_RANGES = 75
M_MODES = 76
M_SPRINT = 77
M_MASC_T = 78
M_TAC_SIT = 79
M_GCLASS = 80
M_PODS = 81
assert len(M_KEYS) == 82
assert all(M_KEYS[globals()["M_" + k]] == k for k in M_KEYS)

# -- per-unit extra state X[u, X_*] (int64) ------------------------------------------------
(X_HEAT, X_SHUT, X_PRONE, X_UNCON, X_PSEEN, X_FELL, X_SHUT_EVER, X_DEAD, X_OUT, X_SHUT_NOW,
 X_JAM, X_FELL_TURN, X_SHUT_TURN, X_WAS_OUT, X_ACT, X_TRIES, X_HEX, X_MOD, X_JUMPED, X_MHEAT,
 X_BUILD, X_PDMG, X_DECL, X_FLOC, X_FIRE, X_SNAP_GYRO, X_SNAP_LEG, X_SNAP_LEGS, X_NTRIG,
 X_TRIG0_C, X_TRIG0_M, X_TRIG1_C, X_TRIG1_M, X_KIND, X_TARGET, X_DEALT, X_HOLD,
 X_AMS_HEAT, X_MASC_LEVEL, X_MASC_GONE, X_AMS_SPENT, X_STEALTH, X_EXT, X_NARC_HIT,
 X_NARCED, X_PODS) = range(46)
N_X = 46

# -- roll kinds: each its own sub-stream (dice.py) ---------------------------------------------
#: hit location 2D6 (and the C28 re-roll), critical determination 2D6, critical slot pick,
#: weapon to-hit 2D6, cluster 2D6, PSRs (stand, movement, end of phase, shutdown), fall
#: facing 1D6, MechWarrior's roll after a fall, consciousness and wake-up, heat phase
#: (shutdown/restart, ammunition explosion), physical to-hit 2D6, physical hit tables 1D6,
#: initiative 1D2 (both declare a charge / DFA), a plasma weapon's heat dice on its target,
#: the turn's initiative 2D6 a side (issue 22: a duel whose movement the tactics choose)
(K_LOCATION, K_CRIT, K_SLOT, K_TO_HIT, K_CLUSTER, K_PSR, K_FALL, K_PILOT, K_CONSC, K_HEAT,
 K_PHYS, K_PHYS_LOC, K_INIT, K_EXT, K_INITIATIVE) = range(15)
N_KINDS = 15
#: dice array D: D[0] mode (0 counter-based, 1 tape), D[1] tape position, then the per-kind
#: stream seeds and counters, then (tape mode) the tape
D_MODE, D_POS = 0, 1
D_SEED = 2
D_CTR = D_SEED + N_KINDS
D_TAPE = D_CTR + N_KINDS
