"""Target selection of a force (reference-as-combat 20.9: a policy, not a rule [REC]).

Each attacker picks one living enemy unit at the start of the turn (from the state at turn
start; this turn's damage waits for the End Phase):

* ``focus`` (20.9 default) -- the enemy with the highest expected damage per turn against
  this attacker (its points at the band x its hit probability) divided by its Armor +
  Structure left;
* ``nearest-to-death`` -- the least Armor + Structure left;
* ``most-dangerous`` -- the highest expected damage per turn against this attacker;
* ``spread`` -- attacker i fires at the (i mod k)-th of the k living enemies.

Ties go to the lowest unit index. With one enemy unit every policy picks it.
"""

from __future__ import annotations

import numpy as np

from sim.alphastrike.duel.rules import DuelRules
from sim.alphastrike.duel.sides import Side
from sim.alphastrike.rules import ASRules
from sim.dice import p_2d6_at_least


def choose_targets(att: Side, sa: list[dict[str, np.ndarray]], decs: list, tgt: Side,
                   stt: list[dict[str, np.ndarray]], band: int | np.ndarray,
                   dr: DuelRules, asr: ASRules) -> list[np.ndarray] | None:
    """Target index (into ``tgt.units``) per attacker and row; None when there is one enemy."""
    from sim.alphastrike.duel.turn import attack_tn, decide

    if len(tgt.units) == 1:
        return None
    alive = np.stack([s["alive"] for s in stt])               # (k, m)
    left = np.stack([u.total - s["dmg"].astype(np.float64) for u, s in zip(tgt.units, stt,
                                                                             strict=True)])
    out = []
    if att.targeting == "spread":
        rank = np.cumsum(alive, axis=0) - 1                  # rank among the living
        n_alive = np.maximum(alive.sum(axis=0), 1)
        for i in range(len(att.units)):
            want = i % n_alive
            out.append(np.argmax(alive & (rank == want), axis=0))
        return out
    for u, s in zip(att.units, sa, strict=True):
        if att.targeting == "nearest-to-death":
            score = -left
        else:
            danger = []
            for tu, ts in zip(tgt.units, stt, strict=True):
                dec = decide(tu, ts, band, 1, dr, asr)
                p = p_2d6_at_least(attack_tn(tu, ts, u, s, band, dr))
                danger.append(dec.points * p)
            score = np.stack(danger)
            if att.targeting == "focus":
                score = score / np.maximum(left, 1)
        score = np.where(alive, score, -np.inf)
        out.append(np.argmax(score, axis=0))
    del decs
    return out

