"""Every Classic physical attack declared once, as data (rules reference sections 1-4).

One frozen :class:`Attack` per attack holds everything the rules say about it: the base
to-hit modifier and whether the piloting difference applies (1.1), movement and terrain
exemptions (1.2), which target levels it may reach standing or prone and what it needs from
the attacker's limbs (1.3), its damage formula and grouping (2, 2.1), its hit table and the
elevation variants (2.2), the PSRs it triggers on a hit or a miss for the target and the
attacker (4.2), self-damage, displacement (4.6), and its label and order for reports.

To-hit (:mod:`sim.classic.to_hit`), eligibility (:mod:`sim.classic.eligibility`), the plan
(:mod:`sim.classic.plan`) and the report look the declaration up instead of branching on attack
names. Adding an attack: one :class:`Attack` entry in :data:`ATTACK_LIST` (plus, if it needs
one, a damage formula in :mod:`sim.classic.damage`) and a test.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sim.classic import damage as D
from sim.classic import psr as P
from sim.classic import tables as T
from sim.classic.physical_weapons import (  # noqa: F401 - declared with the attacks
    PHYSICAL_WEAPONS,
    PhysicalWeapon,
    physical_weapon_damage,
)

if TYPE_CHECKING:
    from sim.classic.scenario import Scenario

#: Hit tables by name (reference 3.2-3.4).
TABLE_IDS: dict[str, int] = {"standard": T.TABLE_STANDARD, "punch": T.TABLE_PUNCH,
                             "kick": T.TABLE_KICK}

#: Target situations that select another hit table (reference 2.2), each a predicate of the
#: scenario. Table rules of an attack name these keys; the first that holds wins.
WHEN: dict[str, Callable[[Scenario], bool]] = {
    "prone": lambda s: s.target_prone,
    "higher": lambda s: s.target_level == 1,
    "higher-prone": lambda s: s.target_level == 1 and s.target_prone,
    "lower": lambda s: s.target_level == -1,
    "partial-cover": lambda s: s.target_partial_cover,
}


@dataclass(frozen=True)
class LimbRule:
    """What an attack needs from the attacker's limbs (reference 1.3 restriction lists).

    ``limbs``: "own" (the punching/swinging arm or kicking leg) or "both" (both arms/legs).
    ``intact``: actuators that must be present and undamaged; ``present``: actuators that must
    exist (a destroyed one only costs to-hit); ``fired``: whether those limbs must not have
    fired a weapon this turn. ``what`` names the attack in the reason.
    """

    part: str
    limbs: str
    intact: tuple[str, ...] = ()
    present: tuple[str, ...] = ()
    fired: bool = True
    what: str = ""


#: A damage formula: (scenario, halvings from destroyed actuators) -> points (reference 2).
DamageFn = Callable[["Scenario", int], int]


@dataclass(frozen=True)
class Attack:
    """One Classic physical attack, declared once (reference sections 1-4)."""

    #: parameter value (``attack = "kick"``) and, in :data:`ATTACKS`, the order of attacks
    name: str
    #: report label, and the label of a two-limb use (``punch ×2``); ``label_param``: a
    #: scenario parameter shown after the label (``charge (5 hexes)``)
    label: str
    label_both: str | None = None
    label_param: str | None = None
    # --- to-hit (reference 1.1-1.3) ---
    #: base modifier on top of Piloting, and its label in the TN breakdown
    base_mod: int = 0
    base_label: str | None = None
    #: add the piloting difference (attacker - target): charge, DFA
    piloting_difference: bool = False
    #: the attacker movement modifier applies (a DFA's jump +3 is part of its base instead)
    movement_mod: bool = True
    #: ClassicRules bool field that switches target terrain on (None: terrain always applies)
    terrain_option: str | None = None
    #: ClassicRules int field holding the partial-cover modifier (None: +1)
    partial_cover_option: str | None = None
    #: destroyed/missing actuators of the limb(s) and their to-hit cost, over ``mod_limbs``
    #: ("own": the strike's limb, "both": both sides, "none")
    actuator_mods: tuple[tuple[str, int], ...] = ()
    mod_limbs: str = "none"
    #: D4: a pair of actuators both missing by design that together cost the ClassicRules int
    #: field ``missing_pair_option`` instead of their sum
    missing_pair: tuple[str, str] | None = None
    missing_pair_option: str | None = None
    #: one to-hit roll per chosen arm (``arm both`` = two rolls), labelled by the arm
    per_arm: bool = False
    #: what the ``arm`` parameter picks when it must be one side (``arm both`` is then an
    #: error): "the kicking leg", "the hatchet arm"; None = any value
    arm_means: str | None = None
    #: damage depends on the hexes moved: the ``hexes`` parameter is required (and only
    #: allowed for such attacks), and an attacker unit must have the MP for hexes + 1
    needs_hexes: bool = False
    # --- eligibility (reference 1.3) ---
    #: target levels (relative to the attacker) it can reach standing / prone
    standing_levels: tuple[int, ...] = (-1, 0, 1)
    standing_reason: str = ""
    prone_levels: tuple[int, ...] = ()
    limb_rule: LimbRule | None = None
    #: physical weapon it swings (impossible once that weapon took a critical hit)
    weapon: str | None = None
    #: attacker movement -> reason it is impossible
    move_rules: tuple[tuple[str, str], ...] = ()
    #: reason it is impossible after firing any weapon this turn (None: firing allowed)
    no_fire: str | None = None
    #: design quirks of the attacker that make it impossible with the rule option ``quirks``
    #: (D21: MegaMek bars a punch by a ``no_arms`` unit)
    barred_by_quirks: tuple[str, ...] = ()
    # --- damage (reference 2, 2.1, 2.2) ---
    damage: DamageFn | None = None
    #: actuators of the strike's limb whose destruction halves the damage
    halving: tuple[str, ...] = ()
    #: "one" (one location), "five" (5-point groups) or "none" (no damage)
    grouping: str = "one"
    #: hit table, its elevation/prone variants ((WHEN key, table, fixed column or None), first
    #: match wins) and whether the D11 club aiming option applies
    table: str = "standard"
    table_rules: tuple[tuple[str, str, str | None], ...] = ()
    aimable: bool = False
    # --- after the roll (reference 4.2, 4.6) ---
    #: PSR trigger modifiers (psr module constants); None = no PSR
    psr_hit_target: int | None = None
    psr_hit_attacker: int | None = None
    psr_miss_attacker: int | None = None
    #: D8: the hit PSRs need the displacement to happen unless
    #: ``charge_psr_without_displacement``
    psr_needs_displacement: bool = False
    #: damage to the attacker on a hit ((scenario) -> points, 5-point groups) and its table
    self_damage: Callable[[Scenario], int] | None = None
    self_table: str = "standard"
    #: a miss is an automatic fall of this many levels onto the rear column (missed DFA)
    miss_fall_levels: int | None = None
    #: displacement: target on a hit (unless prohibited or countered), target on a miss
    #: (even into prohibited terrain), attacker on a miss
    displace_target_on_hit: bool = False
    displace_target_on_miss: bool = False
    displace_attacker_on_miss: bool = False
    #: the target may answer with the same attack at once (``mutual_push``): a counter-roll
    #: at target Piloting + ``base_mod``
    counter: bool = False

    def term_label(self) -> str:
        """Label of the base modifier in a TN breakdown."""
        return self.base_label or self.name

    def allowed_moves(self) -> tuple[str, ...]:
        """Attacker movements it may be made after (reference 1.2.1, 1.3), in MOVES order."""
        barred = {m for m, _ in self.move_rules}
        return tuple(m for m in T.MOVES if m not in barred)


def _halved(s: Scenario, limb: str, acts: tuple[str, ...]) -> int:
    return sum(s.bad(limb, a) for a in acts)


def _punch(s: Scenario, halvings: int) -> int:
    return D.punch(s.tons, halvings, s.tsm, s.rules)


def _kick(s: Scenario, halvings: int) -> int:
    return D.kick(s.tons, halvings, s.tsm, s.rules)


def _club(s: Scenario, halvings: int) -> int:
    return D.club(s.tons, s.tsm, s.rules)


def _charge(s: Scenario, halvings: int) -> int:
    return D.charge(s.tons, s.hexes)


def _dfa(s: Scenario, halvings: int) -> int:
    return D.dfa(s.tons, s.rules)


_ARM_MODS = (("upper-arm", 2), ("lower-arm", 2))

#: The seven attacks of reference 1-4, in report order.
ATTACK_LIST: tuple[Attack, ...] = (
    Attack("punch", "punch", label_both="punch ×2", per_arm=True,
           actuator_mods=(*_ARM_MODS, ("hand", 1)), mod_limbs="own",
           missing_pair=("lower-arm", "hand"),
           missing_pair_option="hand_and_lower_arm_missing_mod",
           barred_by_quirks=("no_arms",), standing_levels=(0, 1),
           standing_reason="a standing target one level lower cannot be punched "
                           "(reference 2.2)",
           prone_levels=(1,), limb_rule=LimbRule("arm", "own", intact=("shoulder",),
                                                 what="punch"),
           damage=_punch, halving=("upper-arm", "lower-arm"), grouping="one",
           table="punch", table_rules=(("higher-prone", "standard", None),
                                       ("higher", "kick", None))),
    Attack("kick", "kick", base_mod=-2, arm_means="the kicking leg",
           actuator_mods=(("upper-leg", 2), ("lower-leg", 2), ("foot", 1)), mod_limbs="own",
           standing_levels=(-1, 0),
           standing_reason="a target standing one level higher cannot be kicked "
                           "(reference 2.2)",
           prone_levels=(0,), limb_rule=LimbRule("leg", "both", intact=("hip",), what="kick"),
           damage=_kick, halving=("upper-leg", "lower-leg"), grouping="one",
           table="kick", table_rules=(("prone", "standard", None), ("lower", "punch", None)),
           psr_hit_target=P.KICKED, psr_miss_attacker=P.MISSED_KICK),
    Attack("club", "club", base_mod=-1, actuator_mods=_ARM_MODS, mod_limbs="both",
           prone_levels=(1,),
           limb_rule=LimbRule("arm", "both", intact=("shoulder", "hand"), what="club attack"),
           damage=_club, grouping="one", table="standard", aimable=True),
    Attack("hatchet", "hatchet", base_mod=-1, actuator_mods=_ARM_MODS, mod_limbs="own",
           arm_means="the hatchet arm",
           prone_levels=(1,),
           limb_rule=LimbRule("arm", "own", intact=("shoulder", "hand"),
                              what="hatchet swing"),
           weapon="hatchet", damage=_club, grouping="one", table="standard", aimable=True),
    Attack("push", "push", base_mod=-1, actuator_mods=(("shoulder", 2),), mod_limbs="both",
           partial_cover_option="partial_cover_push_mod",
           standing_levels=(0,),
           standing_reason="push needs the target at the same elevation (reference 1.3)",
           limb_rule=LimbRule("arm", "both", present=("shoulder",), what="push"),
           grouping="none", table="standard", psr_hit_target=P.PUSHED,
           displace_target_on_hit=True, counter=True),
    Attack("charge", "charge", label_param="hexes", piloting_difference=True, needs_hexes=True,
           move_rules=(("jump", "no jumping during a charge (reference 1.3)"),
                       ("stand", "a charge moves into the target hex: moved must be walk or "
                                 "run")),
           no_fire="a charging unit fires no weapons this turn",
           damage=_charge, grouping="five", table="standard",
           table_rules=(("partial-cover", "punch", None), ("higher", "kick", None)),
           psr_hit_target=P.CHARGED, psr_hit_attacker=P.MADE_CHARGE,
           psr_needs_displacement=True,
           self_damage=lambda s: D.charge_self(s.target_tons), self_table="standard",
           displace_target_on_hit=True, displace_attacker_on_miss=True),
    Attack("dfa", "DFA", base_mod=3, base_label="dfa (jumped)", piloting_difference=True,
           movement_mod=False, terrain_option="dfa_terrain", prone_levels=(-1, 0, 1),
           move_rules=tuple((m, "a death from above is a jump: moved must be jump")
                            for m in ("stand", "walk", "run")),
           no_fire="a DFA attacker fires no weapons this turn",
           damage=_dfa, grouping="five", table="punch",
           table_rules=(("prone", "standard", "rear"),),
           psr_hit_target=P.HIT_BY_DFA, psr_hit_attacker=P.MADE_DFA, psr_miss_attacker=P.AUTO,
           self_damage=lambda s: D.dfa_self(s.tons), self_table="kick",
           miss_fall_levels=2, displace_target_on_hit=True, displace_target_on_miss=True),
)

#: Declarations by name.
ATTACK_SPECS: dict[str, Attack] = {a.name: a for a in ATTACK_LIST}
#: Attack names in order (``sim.classic.tables.ATTACKS`` is this tuple).
ATTACKS: tuple[str, ...] = tuple(ATTACK_SPECS)
#: Design quirks some attack simulates (with the rule option ``quirks``, D21).
SIMULATED_QUIRKS: frozenset[str] = frozenset(q for a in ATTACK_LIST for q in a.barred_by_quirks)
#: Report labels in order (``punch``, ``punch ×2``, ..., ``DFA``).
LABEL_ORDER: tuple[str, ...] = tuple(
    x for a in ATTACK_LIST for x in (a.label, a.label_both) if x is not None)


def spec(name: str) -> Attack:
    """The declaration of attack ``name`` (KeyError names the allowed attacks)."""
    try:
        return ATTACK_SPECS[name]
    except KeyError:
        raise KeyError(f"unknown attack {name!r}; declared: {', '.join(ATTACKS)}") from None


def attack_label(params: Mapping[str, Any]) -> str:
    """A short readable name of one attack scenario from its parameters: ``punch``,
    ``punch ×2`` (``arm both``), ``charge (5 hexes)``, ``DFA``; unknown attacks as given."""
    name = str(params.get("attack", ""))
    a = ATTACK_SPECS.get(name)
    if a is None:
        return name
    if a.label_both and str(params.get("arm", "")) == "both":
        return a.label_both
    if a.label_param:
        v = params.get(a.label_param)
        try:
            n = float(v)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            return a.label
        if n == n and abs(n) != float("inf"):
            return f"{a.label} ({int(n)} {a.label_param})"
    return a.label


def table_of(a: Attack, s: Scenario) -> tuple[int, str | None]:
    """Hit table id and fixed column (or None = the attack's side) of ``a`` on ``s`` (2.2)."""
    for when, table, column in a.table_rules:
        if WHEN[when](s):
            return TABLE_IDS[table], column
    return TABLE_IDS[a.table], None


def strike_damage(a: Attack, s: Scenario, limb: str) -> int:
    """Damage of one strike of ``a`` with ``limb`` (reference 2): the declared formula with
    the halvings of the limb's destroyed/missing ``halving`` actuators."""
    if a.damage is None:
        return 0
    return a.damage(s, _halved(s, limb, a.halving))


def damage_groups(a: Attack, dmg: int) -> tuple[int, ...]:
    """Damage groups of one strike (reference 2.1): one location, 5-point groups, or none."""
    if a.grouping == "none":
        return ()
    if a.grouping == "five":
        return D.groups(dmg)
    return (dmg,)
