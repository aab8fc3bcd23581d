"""Alpha Strike rule options: one frozen dataclass, one field per open question.

Every field names the discrepancy of the rules reference (``reference.md`` section 8) or the
section it configures. Two presets:

* ``default`` -- the reference's recommended readings (ASCE-era where the reference says so);
* ``seed`` -- the seed page's literal readings (AS 2013 Introductory, the Chinese seed text):
  D1 TMM penalty only above heat 2, D2 cooling in water needs 2" depth, D3 no cooling at all
  while overheating except OV 1 in water breaks even.

Options the seed page does not address keep the default in the ``seed`` preset.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from sim import options
from sim.options import opt


@dataclass(frozen=True)
class ASRules:
    """Rule options for the Alpha Strike heat model (reference sections 6 and 8)."""

    heat_tmm_threshold: int = opt(
        2, allowed=(1, 4), ref="D1", doc="heat level at which ground TMM drops by 1 (ref 6.3)",
        readings={2: "heat 2 or more (ASCE p. 52, MekBay, the seed's own Loki example)",
                  3: "above 2 (the seed sentence)"})
    water_cool_depth: int = opt(
        1, allowed=(0, 10), ref="D2", doc="water depth (inches) for the -1 cooling of a unit "
        "that used no OV (ref 6.4 step 4c)",
        readings={1: "1 inch (AS errata v2.1)", 2: "2 inches (the seed, AS 2013 1st printing)"})
    water_ov_depth: int = opt(
        1, allowed=(0, 10), ref="D2", doc="water depth (inches) for the 'OV 1 in water breaks "
        "even' clause (ref 6.4 step 3)",
        readings={1: "1 inch (AS errata v2.1; the seed says only 'in water')"})
    water_ov: str = opt(
        "steps", allowed=("steps", "seed"), ref="D3", doc="overheating in water (ref 6.4)",
        readings={"steps": "add the OV, then -1 for water whatever the OV: OV 2 nets +1 "
                  "(ASCE p. 53)",
                  "seed": "the -1 applies only when exactly 1 OV was used: OV 1 unchanged, "
                  "OV 2 nets +2 (the seed bullets)"})
    ht_order: str = opt(
        "after_cooling", allowed=("after_cooling", "before_cooling"), ref="D15",
        doc="order of received HT heat and the cooling steps (ref 6.4 step 5)",
        readings={"after_cooling": "cool first, then add received HT heat (capped), then "
                  "check shutdown",
                  "before_cooling": "HT heat is added before the cooling steps (a unit that did "
                  "not fire still drops to 0)"})
    ht_while_shutdown: str = opt(
        "ignore", allowed=("ignore", "apply"), ref="6.4",
        doc="HT heat received by a unit that is shut down this turn (it restarts at 0)",
        readings={"ignore": "ignored", "apply": "added after the restart"})
    ht_cap: int = opt(
        2, allowed=(0, 4), ref="6.6", doc="most HT heat per turn from all HT attacks",
        readings={2: "2 (the seed)"})
    engine_heat_same_turn: bool = opt(
        True, allowed=bool, ref="6.4",
        doc="an Engine Hit crit received this turn adds its +1 heat in this End Phase",
        readings={True: "this End Phase (crits are applied before the heat update)",
                  False: "from next turn on"})
    mp_hit_tmm: str = opt(
        "halve", allowed=("halve", "minus1", "recompute"), ref="D17",
        doc="TMM after MP hits (ref 6.6)",
        readings={"halve": "halve per hit, round down, minimum drop 1 (MekBay, ASCE)",
                  "minus1": "-1 per hit (older MekBay)",
                  "recompute": "TMM from the remaining Move by the ref 6.1 table (AS 2013)"})
    stood_still_mod: int = opt(
        -1, allowed=(-2, 0), ref="D20", doc="to-hit modifier of an attacker that stood still "
        "(ref 6.1)", readings={-1: "-1 (ASCE-era, IO:BattleForce)", 0: "none (another AS tool)"})
    jumped_mod: int = opt(
        2, allowed=(0, 3), ref="6.1", doc="to-hit modifier of an attacker that jumped",
        readings={2: "+2 (the rules)"})
    minimal_damage: str = opt(
        "roll", allowed=("roll", "zero", "one"), ref="6.2",
        doc="how a 0* (minimal damage) hit resolves",
        readings={"roll": "roll 1D6 on a hit, 4+ deals 1 (AS Companion p. 18, AS 2nd ed. p. 38)",
                  "zero": "deals 0", "one": "deals 1"})
    physical_mods: str = opt(
        "asce", allowed=("asce", "as2013"), ref="D13", doc="physical attack TN modifiers",
        readings={"asce": "Standard +0, Melee +0 (IO:BattleForce, PR #43)",
                  "as2013": "Standard +0, Melee +1 (AS 2013, as transcribed)"})
    physical_heat: bool = opt(
        False, allowed=bool, ref="D14", doc="the heat level adds to physical attack TNs",
        readings={False: "no: heat modifies weapon attacks only (the text)",
                  True: "yes (one generic heat modifier, as MekBay exposes)"})
    case_damage: int = opt(
        1, allowed=(0, 3), ref="6.6", doc="extra damage CASE takes on an Ammo Hit",
        readings={1: "1 (the rules)"})

    # -- presets ---------------------------------------------------------------------------
    @classmethod
    def preset(cls, name: str) -> ASRules:
        """``default`` or ``seed`` (see the module docstring)."""
        rules: ASRules = options.build(cls, name)
        return rules

    def replace(self, **overrides: Any) -> ASRules:
        """A copy with some fields changed, each validated."""
        rules: ASRules = options.replace(self, overrides)
        return rules


FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(ASRules))

options.register_group("alphastrike", ASRules, models=("heat",))
options.register_preset("alphastrike", "default", {})
options.register_preset("alphastrike", "seed", {"heat_tmm_threshold": 3, "water_cool_depth": 2,
                                                "water_ov_depth": 1, "water_ov": "seed"})

#: Rule-set presets by name.
PRESETS: dict[str, ASRules] = {name: ASRules.preset(name)
                               for name in options.presets("alphastrike")}
