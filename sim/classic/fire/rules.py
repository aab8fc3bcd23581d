"""Rule options of the fire model: one field per reading of a section-16 discrepancy (C...)
that weapon fire and the heat phase use, plus the fire model's own choices.

The fields are declared with :func:`sim.options.opt` and registered for the game ``classic``
(models ``fire`` and ``profile``), so ``--rule NAME=VALUE``, ``btsim rules`` and the recorded
effective options come from these declarations. D16 (the target movement table) is
``fire_tmm_table`` here because option names are unique across models and the attack
model's group already declares ``tmm_table``.

The target's anti-missile systems (10.3) are the fire parameter ``target_ams`` (and, in the
Classic duel, the target's own AMS mounts); ``ams_engages`` says which attack each engages.

Section-16 options the fire model does not need a field for: C1 (life-support pilot damage:
the firing 'Mech takes no damage here), C2 (restart in the heat phase or the next end phase:
both lose the same turn and read the same heat in this model), C8 (exploding bin: the
TW/MegaMek order -- most damage per round, then most rounds left -- is applied per
ammunition type; an exact tie between two types goes to the first, as MegaMek, rather than
at random), C22 (engine-critical heat: no engine criticals here), C6/C7/C9-C12/C15/C16/
C21/C23/C28-C30 (damage, criticals: outside weapon fire at an undamaged 'Mech; C23 has one
reading here, the larger bonus, :func:`sim.classic.fire.cluster.cluster_modifier`). C25 (AMS
effect): the TW -4 only; the older rules' "destroys 1D6 missiles" is not offered. The Classic duel declares C1, C2, C7, C12, C14, C21 and C22 in its own group
(:class:`sim.classic.duel.rules.ClassicDuelRules`), since only a 'Mech that takes damage
meets them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from typing import Any

from sim import options
from sim.options import opt


@dataclass(frozen=True)
class FireRules:
    """Every option of the fire and profile models (reference part 2, section 16 unless
    noted), registered in :mod:`sim.options` for the game ``classic``."""

    tacops_shutdown: bool = opt(
        False, allowed=bool, ref="C3", doc="TacOps 'Avoiding Shutdown' on the shutdown roll",
        readings={False: "plain 2D6 against the avoid number (TW, default)",
                  True: "avoid - 5 plus a piloting modifier (-2 Piloting 0-1, -1 2-3, 0 4-5, "
                  "+1 6+), on the shutdown roll only, never the restart roll (C3/C26)"})
    piloting: int = opt(
        5, allowed=(0, 8), ref="C3", doc="Piloting skill read by tacops_shutdown",
        readings={5: "Piloting 5 (the default pilot)"})
    uac_jam: str = opt(
        "tw", allowed=("tw", "never"), ref="C4", doc="Ultra AC jams",
        readings={"tw": "jams on a natural 2 when firing 2 shots (TW, MegaMek)",
                  "never": "never jams (Core rules, MegaMek PLAYTEST_3)"})
    rac_jam: str = opt(
        "megamek", allowed=("megamek", "never"), ref="C5", doc="Rotary AC jams",
        readings={"megamek": "2-3 shots jam on a natural roll <= 2, 4-5 on <= 3, 6 on <= 4, "
                  "1 shot never (MegaMek, single source)", "never": "never jams"})
    jump_heat: str = opt(
        "spent", allowed=("spent", "rating"), ref="C13", doc="basis of jump heat",
        readings={"spent": "max(3, hexes actually jumped) (MegaMek, Sarna)",
                  "rating": "max(3, the jump MP rating)"})
    water_cooling: str = opt(
        "legs", allowed=("legs", "all"), ref="C17", doc="extra cooling in depth-1 water",
        readings={"legs": "+1 per single (+2 per double) leg-mounted sink, at most +6 "
                  "(MegaMek)", "all": "every sink counts once more, at most +6"})
    mrm_to_hit: str = opt(
        "tw", allowed=("tw", "core"), ref="C19", doc="MRM accuracy",
        readings={"tw": "+1 to-hit (TW)", "core": "+0 to-hit and -1 on the cluster roll "
                  "(Core rules)"})
    flamer_mode: str = opt(
        "damage", allowed=("damage", "heat"), ref="C24", doc="flamers against a 'Mech",
        readings={"damage": "2 damage (default)", "heat": "heat to the target instead: no "
                  "damage counted by the fire model"})
    explosion_while_shutdown: bool = opt(
        True, allowed=bool, ref="C27", doc="heat-induced ammunition explosion check while "
        "shut down", readings={True: "checked every heat phase at heat 19+ (MegaMek)",
                               False: "not checked while shut down"})
    fire_tmm_table: str = opt(
        "tw", allowed=("tw", "old"), ref="D16", doc="target movement modifier above 9 hexes "
        "for weapon fire (the attack model's tmm_table)",
        readings={"tw": "10-17 +4, 18-24 +5, 25+ +6 (TW, BMM, MegaMek)",
                  "old": "10+ +4 (older tables)"})
    lbx_ammo: str = opt(
        "slug", allowed=("slug", "cluster"), ref="10.3", doc="ammunition loaded in LB-X "
        "autocannons", readings={"slug": "slugs: a normal autocannon of that size",
                                 "cluster": "cluster rounds: -1 to-hit, cluster table with "
                                 "the gun's class, 1-point pellets"})
    ultra_mode: str = opt(
        "ultra", allowed=("ultra", "single"), ref="10.3", doc="Ultra AC firing mode",
        readings={"ultra": "2 shots (cluster column 2; jams per uac_jam)",
                  "single": "1 shot, a normal autocannon, never jams"})
    ams_engages: str = opt(
        "hit", allowed=("hit", "declared"), ref="10.3", doc="which incoming missile attack "
        "an anti-missile system engages (one per AMS per turn, -4 on its cluster roll, C25)",
        readings={"hit": "the most dangerous missile attack that hits (expected damage given a "
                  "hit, ties to the first declared; current MegaMek, 'AMS is only used "
                  "against attacks that hit (TW p129)')",
                  "declared": "the most dangerous declared missile attack, chosen before the "
                  "to-hit rolls; wasted (no ammunition, no heat) if that attack misses "
                  "(older MegaMek Entity.assignAMS)"})
    rotary_shots: int = opt(
        6, allowed=(1, 6), ref="10.3", doc="shots a Rotary AC fires when it fires",
        readings={6: "6 shots (cluster column 6)"})

    def as_dict(self) -> dict[str, Any]:
        """Every option by name."""
        return options.effective(self)

    def as_json(self) -> str:
        """The effective options as compact key-sorted JSON (recorded in results)."""
        return json.dumps(self.as_dict(), sort_keys=True, separators=(",", ":"))


options.register_group("classic", FireRules, models=("fire", "profile", "classic-duel"))

OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in fields(FireRules))
DEFAULT = FireRules()


def check_option(name: str, value: Any) -> Any:
    """Validate one option value; ConfigError naming the option and what is allowed."""
    return getattr(options.replace(DEFAULT, {name: value}), name)


def rules_from(overrides: dict[str, Any] | None = None) -> FireRules:
    """The default rules with options overridden by name (validated)."""
    rules: FireRules = options.build(FireRules, "default", overrides or {})
    return rules
