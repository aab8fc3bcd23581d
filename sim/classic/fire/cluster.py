"""The Cluster Hits Table (reference part 2, 11.1) as data, exact hit distributions, and the
one place that sums the cluster-roll modifiers (11.2: :func:`cluster_modifier`).

``TABLE[rack]`` is the row for that rack size (missiles/shots/pellets), indexed by the 2D6
result 2..12 (index 0 and 1 unused). Racks missing from the table use the first larger row,
capped at the rack size (11.2). The modified roll is clamped to 2..12 (MegaMek).
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING

import numpy as np

from sim.dice import PMF_2D6

if TYPE_CHECKING:
    from sim.classic.weapons import Weapon

#: Launcher families that roll on the cluster table by rack size (10.3).
CLUSTER_LAUNCHERS = frozenset({"lrm", "srm", "mrm", "atm"})
#: Missile families an anti-missile system engages (10.3 AMS: incoming missile attacks;
#: a Streak it engages is forced onto the cluster table).
AMS_TARGETS = CLUSTER_LAUNCHERS | {"streak"}
#: AMS modifier on the engaged attack's cluster roll (10.3, C25 ``-4``).
AMS_MOD = -4
#: Artemis fire control on the cluster roll (10.3/11.2: Artemis IV +2; Artemis V +3), by the
#: mount's ``artemis`` mark ("" none). Artemis has no effect on Streaks (10.3).
#: An Apollo FCS ("apollo", linked to an MRM) adds no bonus: it gives the MRM the -1 on the
#: cluster roll and cancels its +1 to-hit (10.3 MRM row, 11.2; :func:`cluster_modifier`,
#: :func:`sim.classic.fire.to_hit.weapon_mod`).
ARTEMIS_BONUS: dict[str, int] = {"": 0, "iv": 2, "v": 3, "apollo": 0}

#: Rows of table 11.1: rack size -> hits for 2D6 = 2..12.
ROWS: dict[int, tuple[int, ...]] = {
    2: (1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2),
    3: (1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3),
    4: (1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4),
    5: (1, 2, 2, 3, 3, 3, 3, 4, 4, 5, 5),
    6: (2, 2, 3, 3, 4, 4, 4, 5, 5, 6, 6),
    7: (2, 2, 3, 4, 4, 4, 4, 6, 6, 7, 7),
    8: (2, 3, 3, 4, 4, 5, 5, 6, 7, 8, 8),
    9: (3, 3, 4, 5, 5, 5, 5, 7, 7, 9, 9),
    10: (3, 3, 4, 6, 6, 6, 6, 8, 8, 10, 10),
    11: (4, 4, 5, 7, 7, 7, 7, 9, 9, 11, 11),
    12: (4, 4, 5, 8, 8, 8, 8, 10, 10, 12, 12),
    13: (4, 4, 5, 8, 8, 8, 8, 11, 11, 13, 13),
    14: (5, 5, 6, 9, 9, 9, 9, 11, 11, 14, 14),
    15: (5, 5, 6, 9, 9, 9, 9, 12, 12, 15, 15),
    16: (5, 5, 7, 10, 10, 10, 10, 13, 13, 16, 16),
    17: (5, 5, 7, 10, 10, 10, 10, 14, 14, 17, 17),
    18: (6, 6, 8, 11, 11, 11, 11, 14, 14, 18, 18),
    19: (6, 6, 8, 11, 11, 11, 11, 15, 15, 19, 19),
    20: (6, 6, 9, 12, 12, 12, 12, 16, 16, 20, 20),
    21: (7, 7, 9, 13, 13, 13, 13, 17, 17, 21, 21),
    22: (7, 7, 9, 14, 14, 14, 14, 18, 18, 22, 22),
    23: (7, 7, 10, 15, 15, 15, 15, 19, 19, 23, 23),
    24: (8, 8, 10, 16, 16, 16, 16, 20, 20, 24, 24),
    25: (8, 8, 10, 16, 16, 16, 16, 21, 21, 25, 25),
    26: (9, 9, 11, 17, 17, 17, 17, 21, 21, 26, 26),
    27: (9, 9, 11, 17, 17, 17, 17, 22, 22, 27, 27),
    28: (9, 9, 11, 17, 17, 17, 17, 23, 23, 28, 28),
    29: (10, 10, 12, 18, 18, 18, 18, 23, 23, 29, 29),
    30: (10, 10, 12, 18, 18, 18, 18, 24, 24, 30, 30),
    40: (12, 12, 18, 24, 24, 24, 24, 32, 32, 40, 40),
}


def cluster_modifier(w: Weapon, *, mrm_to_hit: str = "tw", artemis: str = "",
                     ams: bool = False, range_mod: int = 0) -> int:
    """The modifier on ``w``'s cluster roll (reference part 2, 11.2), the one place every
    cluster reader takes it from: the launcher's built-in bonus (``Weapon.cluster_bonus``:
    ATM +2) or its Artemis fire control (``artemis`` "iv" +2, "v" +3; not on Streaks), the
    larger of the two only (C23: the +2 bonuses do not stack, MegaMek's branch order); MRM
    -1 under the Core rules (C19 ``mrm_to_hit=core``) or with a linked Apollo FCS
    (``artemis`` "apollo", 11.2: Apollo -1, MRM only; once, not twice); -4 when the target's anti-missile
    system engages the attack (10.3, C25); ``range_mod``, the weapon's range-bracket term
    (``Weapon.cluster_by_range``: HAG +2 short, -2 long, MegaMek ``HAGWeaponHandler``). The
    sum is applied to the roll, which is then clamped to 2..12 (:func:`hits_by_roll`)."""
    if artemis not in ARTEMIS_BONUS:
        raise ValueError(f"artemis must be one of {sorted(ARTEMIS_BONUS)}; got {artemis!r}")
    bonus = w.cluster_bonus
    if w.family != "streak":
        bonus = max(bonus, ARTEMIS_BONUS[artemis])
    mod = bonus
    if w.family == "mrm" and (mrm_to_hit == "core" or artemis == "apollo"):
        mod -= 1
    if ams:
        mod += AMS_MOD
    return mod + range_mod


def row(rack: int) -> np.ndarray:
    """Hits by 2D6 total (index 0..12; 0 and 1 unused) for a rack of ``rack`` (11.2: a
    missing rack uses the first larger row, capped at the rack size)."""
    if rack < 1:
        raise ValueError(f"rack size must be >= 1; got {rack}")
    if rack == 1:
        return np.array([0, 0] + [1] * 11, dtype=np.int64)
    size = min((r for r in ROWS if r >= rack), default=None)
    if size is None:
        raise ValueError(f"no cluster table row for rack {rack} (largest 40)")
    out = np.zeros(13, dtype=np.int64)
    out[2:] = np.minimum(ROWS[size], rack)
    return out


def hits_by_roll(rack: int, modifier: int = 0) -> np.ndarray:
    """Hits by **unmodified** 2D6 total (index 0..12): the modified roll is clamped to
    2..12 before the table is read (11.2, MegaMek ``missilesHit``)."""
    r = row(rack)
    out = np.zeros(13, dtype=np.int64)
    for total in range(2, 13):
        out[total] = r[min(12, max(2, total + modifier))]
    return out


@cache
def distribution(rack: int, modifier: int = 0) -> tuple[Fraction, ...]:
    """Exact P(hits = k), k = 0..rack, for one cluster roll given the attack hit."""
    out = [Fraction(0)] * (rack + 1)
    h = hits_by_roll(rack, modifier)
    for total in range(2, 13):
        out[int(h[total])] += PMF_2D6[total]
    return tuple(out)


def expected_hits(rack: int, modifier: int = 0) -> Fraction:
    """Exact mean number of hits given the attack hit (11.2 list: rack 20 -> 457/36)."""
    return sum((k * p for k, p in enumerate(distribution(rack, modifier))), Fraction(0))


def groups(hits: int, damage: int, group: int) -> tuple[int, ...]:
    """Damage groups of ``hits`` missiles/pellets/shots (11.2 "Grouping"): ``group`` > 1 =
    that many points per group, last group the remainder (LRM 16 hits -> 5, 5, 5, 1);
    otherwise one group per missile/shot of ``damage`` points (SRM 2, pellet 1, Ultra full)."""
    total = hits * damage
    if total <= 0:
        return ()
    if group >= 3:
        full, rest = divmod(total, group)
        return (group,) * full + ((rest,) if rest else ())
    return (damage,) * hits
