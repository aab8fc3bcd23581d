"""Four-legged ('quad') 'Mechs in a Classic fight (issue 19): what four legs and no arms
change, as data and small pure functions. The compiled Classic duel
(:mod:`sim.classic.engine`) reads these numbers through :mod:`sim.classic.engine.compile`;
the scalar oracle (:mod:`sim.oracles.classic_duel`) is written from the same rules on its
own.

The references give two facts: a quad cannot punch or push (reference.md 1.3 "not quads")
and a quad with all its legs intact has -2 on its piloting rolls (reference.md 4.2, [TW][MM]).
The rest are MegaMek's (megamek/common/units/QuadMek.java, ``getWalkMP``, ``getRunMP``,
``addEntityBonuses``, ``needsRollToStand``; ``Mek.getBasePilotingRoll``;
``KickAttackAction.toHit``; ``Compute.toHitWeapon``'s prone quad), read for facts:

* the front legs stand in the location codes LA/RA, the rear legs in LL/RL
  (:mod:`sim.classic.damage_state.layout`); all four are legs: hips and leg actuators,
  their PSR modifiers and their MP loss count on each of the four;
* walking MP: one leg destroyed -1, two legs 1, three or four 0; then (MP left) each
  destroyed hip halves it (rounded as the ``hip_mp_rounding`` option says) and each other
  destroyed leg actuator of a leg without a destroyed hip costs 1; running MP is 1.5 x
  walking with at most one leg destroyed, else the walking MP;
* PSR: -2 with no leg destroyed, +5 (once) with two legs destroyed, nothing for one;
  three or more legs destroyed: every PSR fails (``Mek.getBasePilotingRoll``: automatic
  failure); a leg destroyed is an automatic fall (reference.md 4.2, no exception for quads);
* standing up: no PSR with all four legs intact (``QuadMek.needsRollToStand``), impossible
  with three or more destroyed, else a PSR as for a biped;
* kicks: with a front leg (the target is in front); needs all four legs and all four hips
  (``KickAttackAction``); its to-hit and damage modifiers are the kicking leg's, as a
  biped's. The hit tables of a quad *target* are its own (:data:`sim.classic.tables
  .HIT_TABLES`);
* prone fire: with no leg destroyed, every weapon fires (at the prone +2); with one or two
  destroyed, the rear-leg weapons cannot fire and the weapons of only one front leg may
  (no weapon at all with both front legs gone); with three or more, none.
"""

from __future__ import annotations

#: piloting modifier of a quad with all four legs (reference.md 4.2 "Quad with all legs
#: intact -2" [TW][MM]; MegaMek ``QuadMek.addEntityBonuses`` "Quad bonus")
ALL_LEGS_PSR = -2
#: a quad with two legs destroyed adds +5 once (MegaMek ``QuadMek.addEntityBonuses``:
#: "a quad with 2 destroyed legs acts like a biped with one leg destroyed")
TWO_LEGS_GONE_PSR = 5
#: three or more legs destroyed: every PSR fails (``Mek.getBasePilotingRoll`` automatic
#: failure), written as a modifier that puts any target number above 12
LEGS_GONE_FAIL_PSR = 13
#: legs destroyed from which a PSR always fails, the 'Mech cannot stand and has no MP
LEGS_GONE_FATAL = 3
#: walking MP by legs destroyed (``QuadMek.getWalkMP``): ("minus", k) subtracts k, ("set", k)
#: sets it to k; no entry: unchanged
LEGS_GONE_MP: dict[int, tuple[str, int]] = {1: ("minus", 1), 2: ("set", 1), 3: ("set", 0),
                                            4: ("set", 0)}
#: running MP is 1.5 x walking while at most this many legs are destroyed, else walking
#: (``QuadMek.getRunMP``)
RUN_MAX_LEGS_GONE = 1


def walk_mp(walk: int, legs_gone: int, hips: int, actuators: int, hip_ceil: bool = True
            ) -> int:
    """Walking MP of a quad before heat: ``walk`` its walking MP, ``legs_gone`` legs
    destroyed, ``hips`` destroyed hips of legs still there, ``actuators`` destroyed upper
    leg, lower leg and foot actuators of legs still there without a destroyed hip.

    >>> walk_mp(4, 0, 0, 0), walk_mp(4, 1, 0, 0), walk_mp(4, 2, 0, 0), walk_mp(4, 3, 0, 0)
    (4, 3, 1, 0)
    >>> walk_mp(5, 0, 1, 0), walk_mp(5, 0, 2, 0), walk_mp(5, 0, 0, 2), walk_mp(5, 1, 1, 1)
    (3, 2, 3, 1)
    """
    mp = walk
    how, k = LEGS_GONE_MP.get(legs_gone, ("minus", 0))
    mp = mp - k if how == "minus" else k
    if mp > 0:
        for _ in range(hips):
            mp = (mp + 1) // 2 if hip_ceil else mp // 2
        mp -= actuators
    return max(mp, 0)


def run_mp(walk_now: int, legs_gone: int) -> int:
    """Running MP from the walking MP left after damage and heat.

    >>> run_mp(4, 0), run_mp(3, 1), run_mp(1, 2)
    (6, 5, 1)
    """
    return (3 * walk_now + 1) // 2 if legs_gone <= RUN_MAX_LEGS_GONE else walk_now


def legs_psr(legs_gone: int) -> int:
    """The PSR modifier of a quad's legs destroyed (the per-leg hip and actuator modifiers
    of the legs still there are a biped's: reference.md 4.2).

    >>> [legs_psr(k) for k in range(5)]
    [-2, 0, 5, 13, 13]
    """
    if legs_gone == 0:
        return ALL_LEGS_PSR
    if legs_gone >= LEGS_GONE_FATAL:
        return LEGS_GONE_FAIL_PSR
    return TWO_LEGS_GONE_PSR if legs_gone == 2 else 0


def stand(legs_gone: int) -> str:
    """How a prone quad gets up: ``free`` (no PSR), ``roll`` or ``never``.

    >>> stand(0), stand(2), stand(3)
    ('free', 'roll', 'never')
    """
    if legs_gone >= LEGS_GONE_FATAL:
        return "never"
    return "free" if legs_gone == 0 else "roll"
