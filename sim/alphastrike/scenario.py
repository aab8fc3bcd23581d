"""Validated heat scenarios: parameters in, a frozen (hashable) bundle of derived constants out.

Everything a turn needs that does not change during a run is computed here once: the damage
level at the range band, the usable OV, the to-hit bases, and small lookup tables indexed by
``[heat, mp_hits]`` for the unit's own movement modifier and the modifier attackers get
against it (rules reference 6.1, 6.3, 6.6).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from sim import options
from sim.alphastrike import tables as T
from sim.alphastrike.attack import Incoming, parse_incoming_list
from sim.alphastrike.generic import DEFAULT_GENERIC_OV, generic_mech
from sim.alphastrike.policies import Policy, parse_policy
from sim.alphastrike.rules import FIELDS, ASRules
from sim.errors import ConfigError, UserError, check_bool, check_choice, check_int
from sim.units.tables import tmm_from_move
from sim.units.types import ASCard

#: Specials the heat model simulates (others are listed as not simulated, never an error).
SIMULATED_SPECIALS = ("CASE", "CASEII", "ENE", "OVL", "MEL", "FR")

#: Parameters a heat scenario accepts besides the rule option names (ASRules fields).
PARAMS: dict[str, Any] = {
    "unit": None,            # name, path or ASCard; None -> generic 'Mech with OV `ov`
    "ov": None,              # 0-4: generic card's OV, or overrides the unit's OV
    "policy": "max",
    "turns": 10,
    "start_heat": 0,
    "water": False,
    "water_depth": 2,        # inches, when water is true
    "range": "medium",
    "skill": None,           # None -> the card's skill (4)
    "incoming": (),
    "rules": "default",
    "movement": "ground",    # ground | jump | stand
    "target_tmm": 2,         # the unit's own target: TMM 2 that moved (ground)
    "target_jumped": False,
    "target_immobile": False,
    "attack_mod": 0,         # other modifiers to the unit's own attack (terrain...)
    "physical": "none",      # none | standard | melee: attack used on turns it holds fire
    "protection": "card",    # card | none | CASE | CASEII | ENE: ammo protection (6.6)
}

#: Ammo protection choices and the Ammo Hit handling each gives (reference 6.6):
#: none -> destroyed; CASE -> +1 damage (re-roll if it reaches structure); CASEII/ENE -> ignore.
PROTECTION_MODES: dict[str, str] = {"none": "destroy", "CASE": "case", "CASEII": "immune",
                                    "ENE": "immune"}

#: Every allowed key, for error messages.
ALLOWED_KEYS: tuple[str, ...] = tuple(PARAMS) + FIELDS

#: Largest tracked counter values (packing limits of the exact chain).
_MAX_LEVEL = 15
_MAX_DAMAGE = 120


@dataclass(frozen=True)
class HeatScenario:
    """One validated heat scenario (hashable; used as the exact chain's cache key)."""

    unit_label: str
    card_label: str
    unit_type: str
    size: int
    armor: int
    structure: int
    has_heat: bool
    fire_resistant: bool
    ammo_mode: str           # destroy | case | immune
    protection: str          # card | none | CASE | CASEII | ENE (the parameter as given)
    ov_card: int
    ov_cap: int              # usable OV at this band (0 without OVL at Long, at Extreme...)
    level0: int              # damage level at the band: 0 = none, 1 = 0*, v+1 = v
    mel: bool
    policy: Policy
    turns: int
    start_heat: int
    water: bool
    water_depth: int
    range: str
    skill: int
    movement: str
    target_tmm: int
    target_jumped: bool
    target_immobile: bool
    attack_mod: int
    physical: str
    phys_dmg: int
    incoming: tuple[Incoming, ...]
    tmod: tuple[tuple[int, ...], ...]   # [heat 0..4][mp] modifier attackers get vs the unit
    amod: tuple[tuple[int, ...], ...]   # [heat 0..4][mp] the unit's own movement modifier
    tn_weapon_base: int
    tn_phys_base: int
    fc_cap: int
    mp_cap: int
    rules: ASRules
    rules_name: str
    overrides: tuple[tuple[str, Any], ...]
    not_simulated: tuple[str, ...]

    @property
    def wh_cap(self) -> int:
        return self.level0

    @property
    def max_damage(self) -> int:
        return self.armor + self.structure

    @property
    def pend_dtype(self) -> type:
        """Pending-damage dtype: uint8 when damage taken plus one turn's worst case fits."""
        worst = sum(i.hit_dmg for i in self.incoming)
        if self.ammo_mode == "case":
            worst += self.rules.case_damage * self.structure
        return np.uint8 if self.max_damage + worst <= 255 else np.int16

    def incoming_label(self) -> str:
        return ";".join(i.label for i in self.incoming)


def _resolve_unit(unit: Any, ov: Any) -> tuple[ASCard, str]:
    if ov is not None:
        ov = check_int("ov", ov, 0, 4)
    if unit is None:
        card = generic_mech(DEFAULT_GENERIC_OV if ov is None else ov)
        return card, "generic"
    if isinstance(unit, ASCard):
        card = unit
    elif isinstance(unit, str):
        try:
            from sim.units.catalog import get_alphastrike
        except ImportError as exc:  # the units package is optional for this model
            raise UserError(f"cannot look up unit {unit!r}: unit catalog unavailable ({exc})") \
                from None
        card = get_alphastrike(unit)
    else:
        raise ConfigError("unit", unit, "a unit name, a card file path or an ASCard")
    if ov is not None:
        card = _replace_card(card, ov=ov)
    return card, card.name


def _replace_card(card: ASCard, **kw: Any) -> ASCard:
    import dataclasses

    return dataclasses.replace(card, **kw)


def mp_tables(card: ASCard, rules: ASRules) -> tuple[list[int], list[int], list[int]]:
    """Ground Move, jump Move and TMM after k MP hits, k = 0..cap (ref 6.6, D17).

    One MP hit: new Move = floor(Move / 2), losing at least 2" (min 0). TMM per D17.
    The lists stop at the first k where all three are 0 (more hits change nothing).
    """
    move, jump, tmm = [card.move], [card.jump], [card.tmm]
    while (move[-1] or jump[-1] or tmm[-1]) and len(move) < 16:
        m, j, t = move[-1], jump[-1], tmm[-1]
        move.append(max(0, min(m // 2, m - 2)))
        jump.append(max(0, min(j // 2, j - 2)))
        if rules.mp_hit_tmm == "halve":
            tmm.append(max(0, min(t // 2, t - 1)))
        elif rules.mp_hit_tmm == "minus1":
            tmm.append(max(0, t - 1))
        else:
            tmm.append(tmm_from_move(move[-1]))  # ref 6.1 table (D17 recompute)
    return move, jump, tmm


#: Old private name of :func:`mp_tables` (kept for code that imported it).
_mp_tables = mp_tables


def _movement_tables(card: ASCard, rules: ASRules, movement: str
                     ) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...], int]:
    """``tmod[h][k]`` (attackers' target modifier vs the unit) and ``amod[h][k]`` (its own
    attacker movement modifier) by heat level h and MP hits k (ref 6.1, 6.3, 6.6, D1, D17, D20).

    Ground movement: Move - 2" per heat level; TMM -1 at heat >= D1 threshold (min 0).
    Jumping: Move and TMM unaffected by heat, target +1, attacker +2. A unit whose chosen
    mode has no Move left stands still (target modifier 0, attacker D20). All modes at 0"
    -> immobile (-4). Heat 4 = shut down: immobile, no attack.
    """
    move, jump, tmm = mp_tables(card, rules)
    tmod, amod = [], []
    for h in range(5):
        trow, arow = [], []
        for k in range(len(move)):
            ground = max(0, move[k] - T.HEAT_MOVE_LOSS * h)
            if h >= T.SHUTDOWN_HEAT or (ground == 0 and jump[k] == 0):
                trow.append(T.IMMOBILE_MOD)
                arow.append(rules.stood_still_mod)
                continue
            if movement == "jump" and jump[k] > 0:
                trow.append(tmm[k] + 1)
                arow.append(rules.jumped_mod)
            elif movement in ("ground", "jump") and ground > 0:
                trow.append(max(0, tmm[k] - (1 if h >= rules.heat_tmm_threshold else 0)))
                arow.append(0)
            else:
                trow.append(0)
                arow.append(rules.stood_still_mod)
        tmod.append(tuple(trow))
        amod.append(tuple(arow))
    return tuple(tmod), tuple(amod), len(move) - 1


def build_scenario(params: Mapping[str, Any]) -> HeatScenario:
    """Validate ``params`` (keys of :data:`PARAMS` plus rule option names) into a scenario."""
    unknown = [k for k in params if k not in ALLOWED_KEYS]
    if unknown:
        raise ConfigError("heat parameter", unknown[0],
                          "one of " + ", ".join(repr(k) for k in ALLOWED_KEYS))
    p = dict(PARAMS)
    p.update(params)
    rules_name = p["rules"]
    rules: ASRules = options.build(ASRules, rules_name,
                                   {k: p[k] for k in FIELDS if k in params})
    overrides = {k: getattr(rules, k) for k in FIELDS if k in params}

    card, unit_label = _resolve_unit(p["unit"], p["ov"])
    if card.ov < 0 or card.ov > 4:
        raise ConfigError("ov", card.ov, "an integer in [0, 4]")
    policy = parse_policy(p["policy"])
    turns = check_int("turns", p["turns"], 1, 200)
    start_heat = check_int("start_heat", p["start_heat"], 0, 4)
    water = check_bool("water", p["water"])
    water_depth = check_int("water_depth", p["water_depth"], 0, 20)
    band = check_choice("range", p["range"], T.RANGES)
    skill = card.skill if p["skill"] is None else check_int("skill", p["skill"], 0, 8)
    movement = check_choice("movement", p["movement"], ("ground", "jump", "stand"))
    if movement == "jump" and card.jump <= 0:
        raise ConfigError("movement", movement, "'ground' or 'stand' for a unit without jump Move")
    target_tmm = check_int("target_tmm", p["target_tmm"], 0, 6)
    target_jumped = check_bool("target_jumped", p["target_jumped"])
    target_immobile = check_bool("target_immobile", p["target_immobile"])
    attack_mod = check_int("attack_mod", p["attack_mod"], -6, 12)
    physical = check_choice("physical", p["physical"], ("none", "standard", "melee"))
    mel = card.has("MEL")
    if physical == "melee" and not mel:
        raise ConfigError("physical", physical, "'none' or 'standard' for a unit without MEL")
    incoming = parse_incoming_list(p["incoming"])

    has_heat = card.has_heat_scale
    if not has_heat and start_heat:
        raise ConfigError("start_heat", start_heat, "0 for a unit without a heat scale")
    armor = check_int("armor", card.armor, 0, _MAX_DAMAGE)
    structure = check_int("structure", card.structure, 1, _MAX_DAMAGE - armor)

    bi = T.RANGE_INDEX[band]
    value, minimal = int(card.damage[bi]), bool(card.minimal[bi])
    level0 = value + 1 if value >= 1 else (1 if minimal else 0)
    if level0 > _MAX_LEVEL:
        raise ConfigError("damage", value, f"at most {_MAX_LEVEL - 1} at the band")
    ov_ok = band in ("short", "medium") or (band == "long" and card.has("OVL"))
    ov_cap = card.ov if (ov_ok and has_heat) else 0

    protection = check_choice("protection", p["protection"], ("card", *PROTECTION_MODES))
    if protection != "card":
        ammo_mode = PROTECTION_MODES[protection]
    elif card.has("CASEII") or card.has("ENE"):
        ammo_mode = "immune"
    elif card.has("CASE"):
        ammo_mode = "case"
    else:
        ammo_mode = "destroy"

    tmod, amod, mp_cap = _movement_tables(card, rules, movement)
    target_mod = T.IMMOBILE_MOD if target_immobile else target_tmm + int(target_jumped)
    tn_weapon_base = skill + T.RANGE_MOD[band] + target_mod + attack_mod
    phys_kind = "standard" if physical == "none" else physical
    tn_phys_base = skill + T.PHYSICAL_TN[rules.physical_mods][phys_kind] + target_mod + attack_mod
    phys_dmg = card.size + T.PHYSICAL_DAMAGE_BONUS[phys_kind] + (
        T.MEL_BONUS if phys_kind == "melee" and mel else 0)
    # Fire-control hits beyond the point where every weapon TN is >= 13 change nothing.
    min_tn = min(tn_weapon_base + amod[h][k] + int(T.HEAT_TO_HIT[h])
                 for h in range(4) for k in range(mp_cap + 1))
    fc_cap = max(0, -(-(13 - min_tn) // T.FIRE_CONTROL_MOD))
    fc_cap = min(fc_cap, _MAX_LEVEL)

    # Incoming attackers: fixed TNs are relative to the unit's nominal state (heat 0, no MP
    # hits, its movement mode); otherwise skill + range + mod + the unit's target modifier.
    nominal = tmod[0][0]
    incoming = tuple(i.resolve(nominal, band, has_heat, card.has("FR")) for i in incoming)

    not_sim = tuple(sorted(s.raw for c, s in card.specials.items()
                           if c not in SIMULATED_SPECIALS))
    return HeatScenario(
        unit_label=unit_label, card_label=card.name, unit_type=card.type, size=card.size,
        armor=armor, structure=structure, has_heat=has_heat,
        fire_resistant=card.has("FR"), ammo_mode=ammo_mode, protection=protection,
        ov_card=card.ov, ov_cap=ov_cap,
        level0=level0, mel=mel, policy=policy, turns=turns, start_heat=start_heat,
        water=water, water_depth=water_depth if water else 0, range=band, skill=skill,
        movement=movement, target_tmm=target_tmm, target_jumped=target_jumped,
        target_immobile=target_immobile, attack_mod=attack_mod, physical=physical,
        phys_dmg=phys_dmg, incoming=incoming, tmod=tmod, amod=amod,
        tn_weapon_base=tn_weapon_base, tn_phys_base=tn_phys_base, fc_cap=fc_cap,
        mp_cap=mp_cap, rules=rules, rules_name=rules_name,
        overrides=tuple(sorted(overrides.items())), not_simulated=not_sim)

