"""Punch and kick in the duel (reference.md 1.1-1.3, 2, 3.3-3.4, 4.2) as small vectorized
functions over trials.

Target numbers: Piloting + attacker movement + target TMM + attack base (punch 0, kick -2) +
actuator modifiers (punch: upper / lower arm destroyed +2 each, hand destroyed +1; kick: upper
/ lower leg +2 each, foot +1) + target prone (-2 adjacent) + target immobile (-4). Damage:
punch ceil(tons / 10), kick floor(tons / 5), halved (round down) per destroyed upper / lower
actuator of that limb. A punch rolls on the punch table, a kick on the kick table (front).
A missed kick costs the kicker a PSR (+0); a kick that hits costs the target one.
"""

from __future__ import annotations

import math

import numpy as np

from sim.dice import P_2D6_AT_LEAST

#: P(2D6 >= tn) for tn 0..14 as floats (tn > 12: 0).
P_AT_LEAST = np.array([float(P_2D6_AT_LEAST[min(t, len(P_2D6_AT_LEAST) - 1)]) if t <= 12
                       else 0.0 for t in range(15)])
#: Punch table front column by 1D6 (reference.md 3.3): LA LT CT RT RA HD as location index.
PUNCH_FRONT = np.array([-1, 4, 2, 1, 3, 5, 0], dtype=np.int64)
#: Kick table front column by 1D6 (reference.md 3.4): 1-3 RL, 4-6 LL.
KICK_FRONT = np.array([-1, 7, 7, 7, 6, 6, 6], dtype=np.int64)


def p_hit(tn: np.ndarray) -> np.ndarray:
    """P(2D6 >= tn), 0 when tn > 12 (reference.md 0)."""
    return P_AT_LEAST[np.clip(tn, 0, 13)] * (tn <= 12)


def punch_damage(tons: int, halvings: np.ndarray) -> np.ndarray:
    """ceil(tons / 10), halved (round down) once per destroyed upper / lower arm actuator
    (reference.md 2, 1.3)."""
    return np.right_shift(math.ceil(tons / 10), halvings)


def kick_damage(tons: int, halvings: np.ndarray) -> np.ndarray:
    """floor(tons / 5), halved once per destroyed upper / lower leg actuator."""
    return np.right_shift(tons // 5, halvings)


def kick_fall_risk(p_kick: np.ndarray, p_stand: np.ndarray, fall_damage: int) -> np.ndarray:
    """Expected self-damage of a kick: P(miss) x P(failing the +0 PSR) x fall damage."""
    return (1.0 - p_kick) * (1.0 - p_stand) * fall_damage
