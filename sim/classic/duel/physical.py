"""Physical attacks and movement of the duel (reference.md 1-4; reference-classic-combat.md
13.1, 14.3, 15) as small vectorized functions over trials.

The rules themselves are not re-derived here: to-hit bases, damage formulas, hit tables and PSR
modifiers come from the declarations in :mod:`sim.classic.attacks`, :mod:`sim.classic.damage`
and :mod:`sim.classic.psr`, read under the duel's :class:`~sim.classic.rules.ClassicRules`
(``DuelScenario.classic_rules``, passed in as ``rules``: D4 punch modifier, D5 punch minimum,
D6 per-5-tons rounding, D10 the MechWarrior's roll after a fall, D11 aimed hatchet, D18 DFA
rounding, D21 quirks); this module turns them into per-trial arrays and holds the duel's
choice rule.

Attacks at range 1 (one kind per turn, reference 1.3): punch (each arm), kick, the 'Mech's
physical weapon (hatchet), push, charge (moved walk or run: its hexes this turn), death from
above (moved jump). Target numbers: Piloting + attack base (+ the piloting difference for
charge / DFA) + attacker movement (DFA: its +3 base instead) + target TMM (hexes the target
really moved) + actuator modifiers - 2 prone target - 4 immobile target.

The ``best`` policy picks, per trial, the legal attack with the largest

    value = P(hit) x damage + P(hit) x q_target x K - self-risk [- expected weapon damage
            given up, for charge and DFA]

where q_target is the chance the target fails the PSR the hit forces (its Piloting + its
pre-existing modifiers + the trigger's modifier), K the knock-down value (option
``knockdown_value``: the target's fall damage ceil(T/10), optionally plus one kick of the
attacker for the prone target), and self-risk: kick (1 - P) x q_self x ceil(W/10) (missed
kick PSR); charge P x (ceil(T/10) + q_self(+2) x ceil(W/10)); DFA P x (ceil(W/5) + q_self(+4)
x ceil(W/10)) + (1 - P) x 3 ceil(W/10) (a missed DFA is a 2-level fall). Ties go to the
earlier attack in the order punch, kick, hatchet, push, charge, DFA.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.classic import damage as D
from sim.classic import psr as P
from sim.classic import tables as CT
from sim.classic.attacks import ATTACK_SPECS
from sim.classic.fire import heat as H
from sim.classic.rules import ClassicRules
from sim.dice import P_2D6_AT_LEAST

#: Attack kinds (choice codes) in tie-break order.
NONE, PUNCH, KICK, HATCHET, PUSH, CHARGE, DFA = range(7)
KINDS: tuple[str, ...] = ("none", "punch", "kick", "hatchet", "push", "charge", "dfa")
#: Attack base modifiers from the declarations (reference 1.1).
BASE = {k: ATTACK_SPECS[KINDS[k]].base_mod for k in (PUNCH, KICK, HATCHET, PUSH, CHARGE, DFA)}
#: PSR trigger modifiers (reference 4.2).
PSR_ON_TARGET = {KICK: P.KICKED, PUSH: P.PUSHED, CHARGE: P.CHARGED, DFA: P.HIT_BY_DFA}
PSR_ON_SELF_HIT = {CHARGE: P.MADE_CHARGE, DFA: P.MADE_DFA}
#: Missed-DFA fall: levels (reference 4.3).
DFA_MISS_LEVELS = 2

#: P(2D6 >= tn) for tn 0..14 as floats (tn > 12: 0).
P_AT_LEAST = np.array([float(P_2D6_AT_LEAST[min(t, len(P_2D6_AT_LEAST) - 1)]) if t <= 12
                       else 0.0 for t in range(15)])
#: Punch table front column by 1D6 (reference.md 3.3) as location index (tables.PUNCH).
PUNCH_FRONT = CT.PUNCH[CT.SIDE["front"]].astype(np.int64)
#: Kick table front column by 1D6 (reference.md 3.4) as location index (tables.KICK).
KICK_FRONT = CT.KICK[CT.SIDE["front"]].astype(np.int64)
#: 'Mech configurations in the row order of the compiled engine's front-column tables
CONFIGS = ("Biped", "Quad")


def front_column(config: str, table: int) -> np.ndarray:
    """The front column by 1D6 of hit table ``table`` (``sim.classic.tables.TABLE_PUNCH`` or
    ``TABLE_KICK``) of a 'Mech of ``config`` (:data:`sim.classic.tables.HIT_TABLES`: a quad's
    own punch and kick tables, issue 19), as location indexes."""
    return CT.HIT_TABLES[config][table][CT.SIDE["front"]].astype(np.int64)


def policy_choice(value: Any, n: int, side: str) -> np.ndarray:
    """The ``(n,)`` attack codes a physical-policy callable returned (a scalar applies to
    every trial), checked: whole numbers in ``0..len(KINDS)-1`` (:data:`KINDS`). ConfigError
    naming ``physical_a``/``physical_b`` of ``side`` (the 'Mech) and the bad value. A legal
    code for an attack that is not possible in a trial still means no attack there."""
    from sim.errors import ConfigError

    field = f"physical_a/physical_b ({side})"
    allowed = ", ".join(f"{i} {k}" for i, k in enumerate(KINDS))
    try:
        arr = np.broadcast_to(np.asarray(value), (n,))
    except ValueError:
        raise ConfigError(field, f"an array of shape {np.shape(value)}",
                          f"a code or {n} codes (one per trial): {allowed}") from None
    if arr.dtype.kind not in "iu" and not (arr.dtype.kind == "f"
                                            and np.all(np.isfinite(arr))
                                            and np.all(arr == np.round(arr))):
        raise ConfigError(field, arr.dtype, f"integer attack codes: {allowed}")
    bad = (arr < 0) | (arr >= len(KINDS))
    if bad.any():
        raise ConfigError(field, arr[bad][0], f"an attack code: {allowed}")
    return arr.astype(np.int64)


def p_hit(tn: np.ndarray) -> np.ndarray:
    """P(2D6 >= tn), 0 when tn > 12 (reference.md 0)."""
    return P_AT_LEAST[np.clip(tn, 0, 13)] * (tn <= 12)


def punch_damage(tons: int, halvings: np.ndarray, rules: ClassicRules) -> np.ndarray:
    """Punch damage by halvings (destroyed or missing upper / lower arm actuators):
    ceil(W/10), halved, at least ``punch_min_damage`` (reference.md 2, D5: 1 by the rules, 0
    in MegaMek; :func:`sim.classic.damage.punch`)."""
    table = np.array([D.punch(tons, h, False, rules) for h in range(3)], np.int64)
    return table[np.minimum(halvings, 2)]


def punch_mod(upper: np.ndarray, lower: np.ndarray, hand: np.ndarray, pair_missing: bool,
              rules: ClassicRules) -> np.ndarray:
    """To-hit modifier of a punch from its arm's actuators (reference.md 1.3): +2 for a
    destroyed upper arm actuator, +2 for a destroyed or missing lower arm, +1 for a destroyed
    or missing hand; an arm built without both lower arm and hand (``pair_missing``) pays
    ``hand_and_lower_arm_missing_mod`` for the pair instead (D4: +3 TW errata, +2 older text;
    :func:`sim.classic.to_hit.actuator_mod`)."""
    pair = rules.hand_and_lower_arm_missing_mod if pair_missing else 2 * lower + hand
    return (2 * upper + pair).astype(np.int64)


def kick_damage(tons: int, halvings: np.ndarray, rules: ClassicRules) -> np.ndarray:
    """Kick damage by halvings (destroyed upper / lower leg actuators): W/5 rounded as
    ``per_5_tons_rounding`` says (D6), halved (:func:`sim.classic.damage.kick`)."""
    table = np.array([D.kick(tons, h, False, rules) for h in range(3)], np.int64)
    return table[np.minimum(halvings, 2)]


def hatchet_damage(tons: int, rules: ClassicRules) -> int:
    """Hatchet: W/5 (D6 rounding), not reduced by actuator damage
    (:func:`sim.classic.damage.club`)."""
    return D.club(tons, False, rules)


def hatchet_aim(rules: ClassicRules, target: str = "Biped") -> tuple[np.ndarray | None, int]:
    """Where a hatchet swing is aimed (D11, the hatchet is an aimable club, reference.md 1.3):
    ``(None, 0)`` on the standard table by default; with ``club_table`` ``punch`` or ``kick``
    the front column of that 1D6 table (:data:`PUNCH_FRONT`, :data:`KICK_FRONT`; a ``target``
    quad's own table, :func:`front_column`) at +``club_aimed_mod`` to hit."""
    if rules.club_table == "standard" or not ATTACK_SPECS["hatchet"].aimable:
        return None, 0
    table = CT.TABLE_PUNCH if rules.club_table == "punch" else CT.TABLE_KICK
    return front_column(target, table), rules.club_aimed_mod


def dfa_damage(tons: int, rules: ClassicRules) -> int:
    """DFA damage to the target, 3 per 10 tons rounded as ``dfa_rounding`` says (D18: 55 t
    17 ceil-product, 18 ceil-then-times-3, 15 floor-then-times-3;
    :func:`sim.classic.damage.dfa`)."""
    return D.dfa(tons, rules)


def barred(kind: int, quirks: tuple[str, ...], rules: ClassicRules) -> bool:
    """Whether the design quirks ``quirks`` make attack ``kind`` impossible: only with the
    option ``quirks`` on, as the attack's declaration says (D21: ``no_arms`` bars the
    punch; :data:`sim.classic.attacks.ATTACK_SPECS`)."""
    return rules.quirks and any(q in quirks for q in ATTACK_SPECS[KINDS[kind]].barred_by_quirks)


def fall_pilot_tn(piloting: int, pre: np.ndarray, levels: int, failed_tn: np.ndarray | None,
                  missed_dfa: bool, rules: ClassicRules) -> np.ndarray:
    """(n,) target number of the MechWarrior's roll to avoid 1 damage after a fall
    (reference.md 4.3, D10; vectorized :func:`sim.classic.psr.pilot_tn`). ``tw``: Piloting +
    ``pre`` (pre-existing damage modifiers) + 1 per level fallen. ``megamek``: the failed
    PSR's target number ``failed_tn`` with all its modifiers, + (levels - 1) for a fall of 2+
    levels; a missed DFA Piloting + ``pre`` + 1. The caller makes it automatic for a 'Mech
    that is shut down or whose pilot is unconscious."""
    pre = np.asarray(pre, np.int64)
    if rules.fall_pilot_damage == "tw":
        return piloting + pre + levels
    if missed_dfa:
        return piloting + pre + 1
    if failed_tn is None:
        raise ValueError("fall_pilot_damage=megamek needs the failed PSR's target number")
    return np.asarray(failed_tn, np.int64) + (levels - 1 if levels >= 2 else 0)


def charge_damage(tons: int, hexes: np.ndarray) -> np.ndarray:
    """Charge damage to the target: ceil(W x h / 10) for h hexes moved
    (:func:`sim.classic.damage.charge`)."""
    top = int(hexes.max()) if hexes.size else 0
    table = np.array([D.charge(tons, h) for h in range(top + 1)], np.int64)
    return table[np.maximum(hexes, 0)]


def fall_damage(tons: int, levels: int = 0) -> int:
    """ceil(W/10) x (levels + 1) (reference.md 4.3)."""
    return D.fall(tons, levels)


def kick_fall_risk(p_kick: np.ndarray, p_stand: np.ndarray, fall_damage: int) -> np.ndarray:
    """Expected self-damage of a kick: P(miss) x P(failing the +0 PSR) x fall damage."""
    return (1.0 - p_kick) * (1.0 - p_stand) * fall_damage


def groups(total: np.ndarray) -> list[np.ndarray]:
    """5-point groups of per-trial totals (reference.md 2.1): a list of (n,) arrays, group j
    holding min(5, total - 5 j) (0 once the total is spent)."""
    top = int(total.max()) if total.size else 0
    return [np.clip(total - 5 * j, 0, 5) for j in range((top + 4) // 5)]


# -- movement (reference-classic-combat.md 13.1, 14.3) ----------------------------------------

def walk_mp(walk: int, legs_gone: np.ndarray, hips: np.ndarray, leg_acts: np.ndarray,
            heat: np.ndarray, hip_rounding: str = "ceil") -> np.ndarray:
    """Current walking MP per trial (14.3, 13.1): one leg destroyed leaves 1 MP, two 0; else
    one destroyed hip halves it (``hip_rounding``), two leave 0; then -1 per destroyed upper
    leg, lower leg or foot actuator in a leg without a hip hit (``leg_acts``); then heat's
    loss (:func:`sim.classic.fire.heat.mp_loss`); never below 0. (The order is MegaMek's ``getWalkMP``.)"""
    half = (walk + 1) // 2 if hip_rounding == "ceil" else walk // 2
    mp = np.where(hips >= 2, 0, np.where(hips == 1, half, walk)) - leg_acts
    mp = np.where(legs_gone >= 2, 0, np.where(legs_gone == 1, 1, mp))
    return np.maximum(mp - H.mp_loss(heat), 0).astype(np.int64)


def run_mp(walk_now: np.ndarray, legs_gone: np.ndarray) -> np.ndarray:
    """Running MP = ceil(1.5 x walking MP); with a leg destroyed, the walking MP (14.3)."""
    return np.where(legs_gone > 0, walk_now, (3 * walk_now + 1) // 2).astype(np.int64)


def jump_mp(jump: int, jets_lost: np.ndarray, heat: np.ndarray, heat_reduces: bool
            ) -> np.ndarray:
    """Jumping MP: -1 per destroyed jump jet (14.3); heat's loss only if ``heat_reduces``
    (13.1)."""
    mp = jump - jets_lost - (H.mp_loss(heat) if heat_reduces else 0)
    return np.maximum(mp, 0).astype(np.int64)


def move_of(mode: str, walk_now: np.ndarray, run_now: np.ndarray, jump_now: np.ndarray
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(hexes moved, attacker movement modifier, jumped) per trial of a side whose mode is
    ``mode``: it moves its full current MP of the mode; running with no more running than
    walking MP (a destroyed leg) is walking; no MP for the mode: it stands (reference.md
    1.2.1)."""
    n = len(walk_now)
    if mode == "stand":
        z = np.zeros(n, np.int64)
        return z, z.copy(), np.zeros(n, bool)
    if mode == "jump":
        hexes = jump_now
        return hexes, np.where(hexes > 0, 3, 0).astype(np.int64), hexes > 0
    if mode == "run":
        runs = run_now > walk_now
        hexes = run_now
        mod = np.where(hexes > 0, np.where(runs, 2, 1), 0)
        return hexes, mod.astype(np.int64), np.zeros(n, bool)
    hexes = walk_now
    return hexes, np.where(hexes > 0, 1, 0).astype(np.int64), np.zeros(n, bool)


def value(p: np.ndarray, dmg: np.ndarray | int, q_target: np.ndarray,
          knock: float | np.ndarray,
          self_risk: np.ndarray | float = 0.0) -> np.ndarray:
    """Expected value of one attack for ``best``: P(hit) x (damage + q_target x knock) -
    self-risk (module docstring)."""
    return p * (dmg + q_target * knock) - self_risk


def knock_value(mode: str, target_tons: int, own_tons: int, rules: ClassicRules) -> float:
    """Knock-down value K (option ``knockdown_value``; the kick of ``fall-and-prone`` by the
    D6 rounding of ``rules``)."""
    if mode == "none":
        return 0.0
    k = float(fall_damage(target_tons))
    if mode == "fall-and-prone":
        k += float(D.kick(own_tons, 0, False, rules))
    return k


def mean_gun_damage(hits: np.ndarray, grp: np.ndarray) -> np.ndarray:
    """(rate + 1,) expected damage of one gun given a hit, by shots: the cluster roll's 2D6
    distribution over ``hits[s, roll]`` and the groups ``grp[s, k, :]``."""
    from sim.dice import P2D6

    tot = grp.sum(axis=2)                     # (rate+1, kmax+1)
    s = np.arange(hits.shape[0])[:, None]
    per_roll = tot[s, hits]                   # (rate+1, 13)
    return (per_roll * np.asarray(P2D6, float)[None, :hits.shape[1]]).sum(axis=1)
