"""Rule options of the ``classic-duel`` model that are neither fire nor damage options: the
section-16 discrepancies (reference-classic-combat.md) that only a 'Mech which takes damage,
falls, stands up and can be knocked out meets, plus the consciousness-roll timing of
reference.md 4.5 and ``closing_mp`` (whether a closing duel approaches with the MP its
'Mechs have now, per duel, or on one undamaged schedule).

Why a group of its own rather than :class:`sim.classic.fire.rules.FireRules`: C1, C2, C14 and
C22 are heat rules, but the fire model cannot honour any of them (its 'Mech never loses a
life-support slot or an engine slot, never falls, and a restart in the heat phase or in the
next end phase loses the same turn at the same heat there), so putting them in ``FireRules``
would list options that change nothing for ``fire`` and ``profile``. This group is registered
for the game ``classic`` and the model ``classic-duel`` only; ``--rule NAME=VALUE``,
``btsim rules --game classic`` and the recorded rule options see it like every other group.
The independent oracle (:mod:`sim.oracles.classic_duel`) reads the same validated values.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

import sim.classic.rules  # noqa: F401 - ClassicRules registers first: the game's main group
from sim import options
from sim.options import opt

#: C1 life-support pilot damage by reading: (heat for 1 point, heat for 2 points).
LIFE_SUPPORT_STEPS: dict[str, tuple[int, int]] = {
    "megamek": (15, 25), "makamek": (15, 26), "core": (10, 20)}
#: C14 heat per attempt to stand by reading.
STAND_HEAT: dict[str, int] = {"tw": 1, "core": 0}
#: C21 reasons a side can be out of the fight (index = the code the kernel records; 0 none).
OUT_REASONS: tuple[str, ...] = ("none", "unconscious", "immobile_unarmed", "crippled")
#: Weapon families that count as autocannons for C7.
AUTOCANNON_FAMILIES: tuple[str, ...] = ("ac", "lbx", "ultra", "rotary")


@dataclass(frozen=True)
class ClassicDuelRules:
    """One reading of each open question the duel meets beyond weapon fire and damage
    (reference part 2, section 16, and reference.md 4.5)."""

    life_support_heat: str = opt(
        "megamek", allowed=("megamek", "makamek", "core"), ref="C1",
        doc="pilot damage in the heat phase with a destroyed life-support slot",
        readings={"megamek": "1 at heat 15+, 2 at heat 25+ (MegaMek TW, default)",
                  "makamek": "1 at heat 15-25, 2 at 26+ (MakaMek's TW paraphrase)",
                  "core": "1 at heat 10+, 2 at heat 20+ (Core rules)"})
    restart_phase: str = opt(
        "heat", allowed=("heat", "end"), ref="C2", doc="when a shut-down 'Mech tries to restart",
        readings={"heat": "in the heat phase after dissipation: automatic below 14, else 2D6 >= "
                  "the avoid number (MegaMek, default)",
                  "end": "in the end phase of the turn after the shutdown, after the wake-up "
                  "rolls, at the heat the heat phase left (MakaMek's checklist)"})
    ac_first_crit: str = opt(
        "destroyed", allowed=("destroyed", "damaged"), ref="C7",
        doc="what the first critical hit on an autocannon (AC, LB-X, Ultra, Rotary) does",
        readings={"destroyed": "destroys it (TW, default)",
                  "damaged": "marks it damaged; it keeps firing and a second critical on "
                  "another of its slots destroys it (Core rules); a one-slot autocannon can "
                  "never take a second critical (criticals go to distinct slots)"})
    unconscious_restart: str = opt(
        "megamek", allowed=("megamek", "never"), ref="C12",
        doc="restart and shutdown of a 'Mech whose pilot is unconscious",
        readings={"megamek": "shutdown automatic whenever a roll would be needed; restart "
                  "automatic below heat 14, impossible from 14 (MegaMek, MakaMek, default)",
                  "never": "shutdown as megamek; an unconscious pilot cannot restart at all, "
                  "not even below 14 (the plain reading 'cannot act')"})
    stand_heat: str = opt(
        "tw", allowed=("tw", "core"), ref="C14", doc="heat for each attempt to stand up",
        readings={"tw": "+1 per attempt (TW, MegaMek, default)", "core": "0 (Core rules)"})
    out_of_fight: str = opt(
        "destroyed", allowed=("destroyed",) + OUT_REASONS[1:], ref="C21",
        doc="what else than destruction ends the duel (the side loses, checked in the end "
        "phase)",
        readings={"destroyed": "only destruction (14.5, default)",
                  "unconscious": "also a pilot still unconscious after the end phase's "
                  "wake-up roll",
                  "immobile_unarmed": "also a 'Mech that cannot move (gyro destroyed or both "
                  "legs destroyed) and has no weapon that could fire (each destroyed, out of "
                  "ammunition or jammed, or both sensors hit)",
                  "crippled": "also TW forced withdrawal 'crippled' (as Battletech-Solo-Rules "
                  "summarises it): 4+ pilot damage, both sensors hit, gyro hit plus an "
                  "engine hit, two engine hits, or no weapon that could fire"})
    engine_heat_while_shutdown: bool = opt(
        False, allowed=bool, ref="C22", doc="engine-critical heat added while shut down",
        readings={False: "no: +5 per engine hit only while running (MegaMek, default)",
                  True: "yes: added every heat phase"})
    consciousness_rolls: str = opt(
        "each_point", allowed=("each_point", "once_per_turn"), ref="4.5",
        doc="consciousness rolls for pilot damage",
        readings={"each_point": "a roll each time the pilot takes damage (reference.md 4.5), "
                  "made at the end of the phase (weapon, physical, heat): one roll per point "
                  "at the number of the total that point reaches, the first failure knocks "
                  "the pilot out (default)",
                  "once_per_turn": "one roll in the end phase at the turn's total if the "
                  "pilot was hurt that turn (btsim 0.1)"})

    failed_stand: str = opt(
        "fall", allowed=("fall", "stay"), ref="4.3",
        doc="what a failed attempt to stand up does",
        readings={"fall": "the 'Mech falls again: fall damage from 0 levels and the "
                  "MechWarrior's roll (MegaMek, default; the reference is silent)",
                  "stay": "it stays prone and takes nothing (btsim 0.1)"})
    wake_roll: str = opt(
        "next_turn", allowed=("next_turn", "same_turn"), ref="4.5",
        doc="when a MechWarrior knocked out rolls to wake up",
        readings={"next_turn": "from the end phase of the next turn on: none in the turn of "
                  "the knockout (MegaMek, default; the reference is silent)",
                  "same_turn": "already in the end phase of the turn of the knockout "
                  "(btsim 0.1)"})

    prone_fire: str = opt(
        "one-arm", allowed=("one-arm", "both-arms"), ref="12.1",
        doc="weapon fire of a prone 'Mech",
        readings={"one-arm": "one arm props it up: that arm's weapons cannot fire (the arm "
                  "whose available weapons are worth less; the left on a tie), leg weapons "
                  "never, and no weapon at all while either arm is destroyed (TW, MegaMek)",
                  "both-arms": "both arms fire, leg weapons never (btsim 0.1; the relaxed "
                  "TacOps reading)"})
    closing_mp: str = opt(
        "current", allowed=("current", "undamaged"), ref="15",
        doc="how fast the range closes under closing (only with closing)",
        readings={"current": "per duel: each turn the range drops by the hexes both 'Mechs "
                  "really ran with the MP they have now (heat, leg and hip damage; none when "
                  "shut down, unconscious or prone), and each duel fires, and makes physical "
                  "attacks at range 1, at its own range",
                  "undamaged": "one schedule for every duel from both sides' undamaged "
                  "running MP (btsim 0.1): damage and heat change the hexes moved (attacker "
                  "modifier, target movement, heat) but not the range"})

    masc: str = opt(
        "sprint", allowed=("sprint", "off"), ref="Issue 19",
        doc="how a 'Mech with MASC or a supercharger uses it (the compiled engine; the "
            "references are silent, MegaMek's rules)",
        readings={"sprint": "a 'Mech that runs engages it whenever its sprint MP "
                  "(sim/classic/equipment_rules.py sprint_mp: walking MP x 2, x 2.5 with "
                  "both) exceed its running MP; each use rolls 2D6 against the failure "
                  "target of the turns it was used in a row (MASC_FAILURE_TARGET 3, 5, 7, "
                  "11, 13: fails below it; one level down per turn without it). A failure "
                  "destroys the system and both hip actuators (MegaMek 'as if 2 hip crits'; "
                  "no PSR of its own) and the 'Mech runs with the MP it has left (default)",
                  "off": "never engaged: the 'Mech runs at its ordinary MP (btsim before "
                  "issue 19)"})

    coolant_pod: str = opt(
        "safe", allowed=("safe", "efficient", "dump", "never"), ref="Issue 19",
        doc="when a 'Mech spends a coolant pod in its heat phase (the compiled engine and "
            "the oracle; the references are silent, MegaMek's modes)",
        readings={"safe": "when the heat after dissipation would exceed 13 (the shutdown "
                  "band starts at 14; 9 with Inferno rounds aboard): MegaMek's 'safe' "
                  "(default)",
                  "efficient": "when the heat after dissipation is at least the pod's "
                  "whole effect (one point per working heat sink): MegaMek's 'efficient'",
                  "dump": "in the first heat phase, whatever the heat: MegaMek's 'dump'",
                  "never": "never used (btsim before issue 19)"})

    duel_initiative: str = opt(
        "roll", allowed=("roll", "a", "b"), ref="Issue 22",
        doc="who wins the initiative each turn of a duel whose movement the tactics choose "
            "(the Alpha Strike duel's 'initiative' option, for Classic)",
        readings={"roll": "2D6 a side, ties re-rolled (each side wins with probability 1/2): "
                  "the loser moves first, the winner reacts (default)",
                  "a": "side A always wins (moves last, reacting to B)",
                  "b": "side B always wins"})

    def as_dict(self) -> dict[str, Any]:
        """Every option by name."""
        return options.effective(self)

    def life_support_damage(self, heat: np.ndarray) -> np.ndarray:
        """Pilot damage from heat with a destroyed life-support slot (13.4 step 5, C1)."""
        one, two = LIFE_SUPPORT_STEPS[self.life_support_heat]
        h = np.asarray(heat)
        return (h >= one).astype(np.int64) + (h >= two)

    @property
    def stand_heat_points(self) -> int:
        """Heat per attempt to stand (C14)."""
        return STAND_HEAT[self.stand_heat]

    @property
    def out_code(self) -> int:
        """Index of ``out_of_fight`` in :data:`OUT_REASONS` (0: destruction only)."""
        return 0 if self.out_of_fight == "destroyed" else OUT_REASONS.index(self.out_of_fight)


options.register_group("classic", ClassicDuelRules, models=("classic-duel",))

OPTION_NAMES: tuple[str, ...] = tuple(ClassicDuelRules.__dataclass_fields__)


def duel_rules(**overrides: Any) -> ClassicDuelRules:
    """The default duel rules with ``overrides`` applied (validated: ConfigError naming the
    option and what is allowed)."""
    rules: ClassicDuelRules = options.build(ClassicDuelRules, "default", overrides)
    return rules
