"""Piloting skill rolls and falls (reference section 4): pure functions.

A unit's PSRs in one phase are a list of situational trigger modifiers; every roll also adds
the pre-existing damage modifier. D19 ``cumulative``: each roll adds all the phase's triggers;
``own``: each roll only its own. The first failed roll is the fall. An automatic fall (missed
DFA) is a trigger of ``AUTO`` (TN 13 can never be made).
"""

from __future__ import annotations

from collections.abc import Iterable

from sim.dice import P_2D6_AT_LEAST

#: Trigger modifiers (reference 4.2).
KICKED = 0
MISSED_KICK = 0
PUSHED = 0
CHARGED = 2
MADE_CHARGE = 2
HIT_BY_DFA = 2
MADE_DFA = 4
DAMAGE_20 = 1
AUTO = 99  # automatic fall: TN clipped to 13

#: Why a target is immobile (reference 1.2.2: all give the -4 to-hit modifier). A shut-down
#: 'Mech or one with an unconscious pilot fails every PSR automatically (reference 4.1, D22);
#: a 'Mech immobile for another reason (e.g. destroyed legs, conscious pilot) still rolls.
IMMOBILE_CAUSES: tuple[str, ...] = ("shutdown", "unconscious", "other")
AUTO_FAIL_CAUSES: tuple[str, ...] = ("shutdown", "unconscious")


def preexisting_mod(bad: Iterable[tuple[str, str]], gyro_hits: int) -> int:
    """Pre-existing damage modifier (reference 4.2): per leg a destroyed hip +2 and the rest of
    that leg ignored; else +1 per destroyed upper leg, lower leg and foot; gyro +3 per hit."""
    bad = set(bad)
    mod = 3 * gyro_hits
    for side in ("left", "right"):
        if (side, "hip") in bad:
            mod += 2
            continue
        mod += sum((side, a) in bad for a in ("upper-leg", "lower-leg", "foot"))
    return mod


def roll_tns(piloting: int, pre: int, triggers: list[int], mode: str,
             gyro_destroyed: bool = False) -> list[int]:
    """TNs of the rolls of one unit in one phase (reference 4.1, D19). TN is clipped to 13.

    A 'Mech with a destroyed gyro (2 hits) cannot stand (reference 4.2), and a shut-down
    'Mech or one with an unconscious pilot cannot keep its balance (reference 4.1, D22): pass
    ``gyro_destroyed=True`` and every roll it has to make is an automatic fall (TN 13)."""
    if not triggers:
        return []
    if gyro_destroyed:
        return [13] * len(triggers)
    situ = sum(t for t in triggers if t < AUTO)
    out = []
    for t in triggers:
        if t >= AUTO:
            out.append(13)
        else:
            own = situ if mode == "cumulative" else t
            out.append(min(13, piloting + pre + own))
    return out


def fail_at(tns: list[int]) -> list[float]:
    """P(the first failure is roll i), for each i."""
    out = []
    alive = 1.0
    for tn in tns:
        q = float(P_2D6_AT_LEAST[max(0, min(14, tn))])
        out.append(alive * (1.0 - q))
        alive *= q
    return out


def pilot_tn(*, rule: str, piloting: int, pre: int, levels: int, failed_tn: int,
             missed_dfa: bool, immobile: bool) -> int:
    """TN of the MechWarrior's roll to avoid 1 damage after a fall (reference 4.3, D10).

    ``tw``: Piloting + pre-existing + 1 per level fallen. ``megamek``: the failed PSR's TN
    (all its modifiers) + (levels - 1) for falls of 2+ levels; a missed DFA uses Piloting +
    pre-existing + 1. An immobile 'Mech takes the damage automatically (TN 13)."""
    if immobile:
        return 13
    if rule == "tw":
        tn = piloting + pre + levels
    elif missed_dfa:
        tn = piloting + pre + 1
    else:
        tn = failed_tn + (levels - 1 if levels >= 2 else 0)
    return min(13, tn)

