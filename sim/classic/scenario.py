"""Scenario parameters of the ``attack`` model: validation, defaults and the unit mapping.

Parameters (experiment-grid keys; the CLI options are the same names with dashes):

``attack`` (punch, kick, club, hatchet, push, charge, dfa), ``tons`` (20-100, multiple of 5),
``piloting`` (0-8, default 5), ``target_tons`` (default 50), ``target_piloting`` (default 5),
``arm`` (left/right/both, default right; the kicking leg for a kick, the hatchet arm for a
hatchet), ``damaged`` / ``missing`` (actuators, see below), ``moved`` (stand/walk/run/jump;
default stand, jump for a DFA; a charge walks, or runs when an attacker unit's walk MP is
short of ``hexes + 1``), ``target_hexes`` (0-40), ``target_jumped``,
``terrain`` (clear/light-woods/heavy-woods), ``target_prone``, ``target_immobile`` (false, or
why the target is immobile: ``shutdown``, ``unconscious`` or ``other``; ``true`` means
``other``. All give -4 to hit; a shut-down target or one with an unconscious pilot fails every
PSR automatically, reference 4.1 and D22, the others roll), ``side``
(front/left/right/rear), ``hexes`` (charge only, and required there: hexes moved, not counting
the target hex), ``tsm`` (triple-strength myomer active: it works only at heat 9 or more, so it
is off unless given, also for an attacker unit with TSM; the notes say which), ``rules``
(default/seed/megamek), ``attacker`` / ``target`` (unit name or .mtf path),
plus every :class:`~sim.classic.rules.ClassicRules` field name as an override, plus these
extensions: ``target_damaged`` (target leg actuators / gyro, for its PSRs), ``target_level``
(-1, 0, 1: target hex level relative to the attacker), ``target_partial_cover`` (depth-1 water),
``fired`` (limbs that fired weapons this turn: left-arm, right-arm, left-leg, right-leg, torso),
``attacker_prone``, ``displacement_prohibited``, ``mutual_push``, ``target_immobile_cause``
(the cause alone; what :meth:`Scenario.params` reports beside the ``target_immobile`` flag).

Actuators: ``shoulder upper-arm lower-arm hand hip upper-leg lower-leg foot gyro`` (and
``hatchet`` for a damaged hatchet in ``damaged``), each optionally prefixed ``left-`` or
``right-``. An unprefixed limb actuator applies to the side(s) chosen by ``arm`` (both arms for
``arm both``); in ``target_damaged`` it applies to the right leg. Missing actuators imply the
ones below them (no hand without a lower arm). Lists may not repeat an entry, except ``gyro``:
``gyro,gyro`` is two gyro hits, a destroyed gyro (reference 4.2).

Design quirks of unit data (``quirk:`` lines) are reported as not simulated in the ``notes``
fact (reference D21, default off); with the rule option ``quirks`` on, a punch by a ``no_arms``
unit is impossible (as in MegaMek).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from sim import options
from sim.classic import attacks as A
from sim.classic import tables as T
from sim.classic.attacks import ATTACK_LIST, SIMULATED_QUIRKS, spec
from sim.classic.psr import IMMOBILE_CAUSES
from sim.classic.rules import OPTION_NAMES, ClassicRules
from sim.errors import ConfigError, UserError, check_bool, check_choice, check_int

SIDES2 = ("left", "right")
FIRED_LIMBS = ("left-arm", "right-arm", "left-leg", "right-leg", "torso")

#: Scenario keys (besides the rule-option names).
PARAM_NAMES: tuple[str, ...] = (
    "attack", "tons", "piloting", "target_tons", "target_piloting", "arm", "damaged", "missing",
    "moved", "target_hexes", "target_jumped", "terrain", "target_prone", "target_immobile",
    "side", "hexes", "tsm", "rules", "attacker", "target", "target_damaged", "target_level",
    "target_partial_cover", "fired", "attacker_prone", "displacement_prohibited", "mutual_push",
    "target_immobile_cause",
)
ALLOWED_KEYS: tuple[str, ...] = PARAM_NAMES + OPTION_NAMES

_BELOW = {  # a missing actuator implies the ones below it (construction)
    "shoulder": ("upper-arm", "lower-arm", "hand"), "upper-arm": ("lower-arm", "hand"),
    "lower-arm": ("hand",), "hand": (),
    "hip": ("upper-leg", "lower-leg", "foot"), "upper-leg": ("lower-leg", "foot"),
    "lower-leg": ("foot",), "foot": (),
}
_UNIT_ACT = {"shoulder": "shoulder", "upper_arm": "upper-arm", "lower_arm": "lower-arm",
             "hand": "hand", "hip": "hip", "upper_leg": "upper-leg", "lower_leg": "lower-leg",
             "foot": "foot"}
_LIMB_SIDE = {"LA": "left", "RA": "right", "LL": "left", "RL": "right"}
_REPEAT = ("a list without repeats (only gyro may be listed twice: 2 hits = destroyed); "
           "this actuator is already listed")


class UnknownParameterError(ConfigError):
    """A key that is not a parameter of the ``attack`` model (``field`` = the bad key)."""

    def __init__(self, key: str, value: Any) -> None:
        allowed = ", ".join(ALLOWED_KEYS)
        super().__init__(key, value, "a parameter of the attack model; allowed: " + allowed)
        self.args = (f"The {key!r} parameter is not a parameter of the attack model; "
                     f"allowed: {allowed}.",)


@dataclass(frozen=True)
class Scenario:
    """A validated attack scenario. Actuator sets hold ``(side, actuator)`` pairs."""

    attack: str
    tons: int
    piloting: int
    target_tons: int
    target_piloting: int
    arm: str
    damaged: frozenset[tuple[str, str]]
    missing: frozenset[tuple[str, str]]
    gyro_hits: int
    hatchet_damaged: bool
    moved: str
    target_hexes: int
    target_jumped: bool
    terrain: str
    target_prone: bool
    target_immobile: bool
    side: str
    hexes: int
    tsm: bool
    rules_name: str
    rules: ClassicRules
    target_damaged: frozenset[tuple[str, str]]
    target_gyro_hits: int
    target_level: int
    target_partial_cover: bool
    fired: frozenset[str]
    attacker_prone: bool
    displacement_prohibited: bool
    mutual_push: bool
    attacker: str | None = None
    target: str | None = None
    #: impossibilities found while mapping units (e.g. "attacker has no hatchet")
    unit_impossible: str | None = None
    #: informational notes from the units (design quirks not simulated, reference D21)
    unit_notes: tuple[str, ...] = ()
    #: why the target is immobile (``psr.IMMOBILE_CAUSES``), None when it is not
    target_immobile_cause: str | None = None

    def bad(self, side: str, act: str) -> bool:
        """Actuator destroyed (damaged) or missing by design."""
        return (side, act) in self.damaged or (side, act) in self.missing

    def params(self) -> dict[str, Any]:
        """Flat JSON-able parameters (experiment-grid names)."""
        def acts(s: frozenset[tuple[str, str]]) -> str:
            return ",".join(sorted(f"{a}-{b}" for a, b in s))

        dmg = acts(self.damaged)
        extra = (["gyro"] * self.gyro_hits) + (["hatchet"] if self.hatchet_damaged else [])
        dmg = ",".join(x for x in [dmg, *extra] if x)
        tdmg = ",".join(x for x in [acts(self.target_damaged)] + ["gyro"] * self.target_gyro_hits
                        if x)
        return {
            "attack": self.attack, "tons": self.tons, "piloting": self.piloting,
            "target_tons": self.target_tons, "target_piloting": self.target_piloting,
            "arm": self.arm, "damaged": dmg, "missing": acts(self.missing), "moved": self.moved,
            "target_hexes": self.target_hexes, "target_jumped": self.target_jumped,
            "terrain": self.terrain, "target_prone": self.target_prone,
            "target_immobile": self.target_immobile,
            "target_immobile_cause": self.target_immobile_cause, "side": self.side,
            "hexes": self.hexes if spec(self.attack).needs_hexes else None,
            "tsm": self.tsm, "rules": self.rules_name, "attacker": self.attacker,
            "target": self.target, "target_damaged": tdmg, "target_level": self.target_level,
            "target_partial_cover": self.target_partial_cover,
            "fired": ",".join(sorted(self.fired)), "attacker_prone": self.attacker_prone,
            "displacement_prohibited": self.displacement_prohibited,
            "mutual_push": self.mutual_push,
        }


def _as_list(field: str, value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [v.strip() for v in value.split(",") if v.strip()]
    if isinstance(value, Iterable):
        out = []
        for v in value:
            if not isinstance(v, str):
                raise ConfigError(field, value, "a list of names")
            out.extend(_as_list(field, v))
        return out
    raise ConfigError(field, value, "a comma-separated list or a list of names")


def _parse_acts(field: str, value: Any, default_sides: tuple[str, ...],
                allowed: tuple[str, ...]) -> tuple[set[tuple[str, str]], int, bool]:
    """Parse an actuator list into ``(side, act)`` pairs, gyro hits and a hatchet flag.

    ``gyro`` may be listed twice (2 hits = destroyed, reference 4.2); any other entry listed
    twice is a ConfigError (an unprefixed name overlapping a prefixed one is not a repeat)."""
    pairs: set[tuple[str, str]] = set()
    seen: set[tuple[bool, tuple[str, ...], str]] = set()
    gyro = 0
    hatchet = False
    allowed_txt = ("a comma-separated list of " + " ".join(allowed)
                   + " (limb actuators optionally prefixed left- or right-)")
    for item in _as_list(field, value):
        name = item.lower().replace("_", "-")
        if name == "gyro" and "gyro" in allowed:
            gyro += 1
            if gyro > 2:
                raise ConfigError(field, value, "a list with gyro at most twice (2 hits destroy "
                                  "a standard gyro, reference 4.2)")
            continue
        if name == "hatchet" and "hatchet" in allowed:
            if hatchet:
                raise ConfigError(field, item, _REPEAT)
            hatchet = True
            continue
        side_list = default_sides
        prefixed = False
        for s in SIDES2:
            if name.startswith(s + "-"):
                side_list, name, prefixed = (s,), name[len(s) + 1:], True
                break
        if name not in allowed or name in ("gyro", "hatchet"):
            raise ConfigError(field, item, allowed_txt)
        key = (prefixed, side_list, name)
        if key in seen:
            raise ConfigError(field, item, _REPEAT)
        seen.add(key)
        for s in side_list:
            pairs.add((s, name))
    return pairs, gyro, hatchet


def _load_unit(field: str, name: Any) -> Any:
    if not isinstance(name, str) or not name.strip():
        raise ConfigError(field, name, "a unit name from the catalog or a path to a .mtf file")
    try:
        from sim.units.catalog import get_classic
    except ImportError as exc:  # the units package is optional at this layer
        raise UserError(f"--{field}: the unit catalog (sim.units.catalog) is not available: "
                        f"{exc}") from None
    return get_classic(name)


def unit_defaults(mech: Any) -> dict[str, Any]:
    """Facts taken from an attacker ClassicMech: tonnage, missing actuators, hatchet, TSM."""
    missing = []
    for limb in ("LA", "RA", "LL", "RL"):
        for act in mech.missing_actuators(limb):
            missing.append(f"{_LIMB_SIDE[limb]}-{_UNIT_ACT[act]}")
    sides = {}
    for w in {a.weapon for a in ATTACK_LIST if a.weapon}:
        loc = mech.physical_weapon_location(w)
        sides[w] = _LIMB_SIDE.get(loc) if loc else None
    return {"tons": mech.tons, "missing": missing, "tsm": bool(mech.tsm),
            "weapon_sides": sides, "hatchet_side": sides.get("hatchet"),
            "jump_mp": mech.jump_mp, "walk_mp": mech.walk_mp, "run_mp": mech.run_mp,
            "name": mech.name, "quirks": tuple(getattr(mech, "quirks", ()) or ())}


_IMMOBILE_ALLOWED = ("true, false, or why the target is immobile: "
                     + ", ".join(IMMOBILE_CAUSES) + " (true = other)")


def _immobile(value: Any, cause: Any) -> tuple[bool, str | None]:
    """``target_immobile`` (bool or cause) and ``target_immobile_cause`` -> (flag, cause).

    ``true`` keeps its old meaning, an immobile target of no stated cause (``other``: it
    still rolls its PSRs); only ``shutdown`` and ``unconscious`` fall for sure (D22)."""
    if cause is not None:
        cause = check_choice("target_immobile_cause", cause, IMMOBILE_CAUSES)
    if value is None:
        return (cause is not None), cause
    if isinstance(value, str) and value.strip().lower() in IMMOBILE_CAUSES:
        kind = value.strip().lower()
        if cause is not None and cause != kind:
            raise ConfigError("target_immobile_cause", cause,
                              f"{kind!r} (the cause given by target_immobile) or nothing")
        return True, kind
    try:
        flag = check_bool("target_immobile", value)
    except ConfigError:
        raise ConfigError("target_immobile", value, _IMMOBILE_ALLOWED) from None
    if not flag:
        if cause is not None:
            raise ConfigError("target_immobile_cause", cause,
                              "nothing when target_immobile is false")
        return False, None
    return True, cause or "other"


def build(params: Mapping[str, Any]) -> Scenario:
    """Validate ``params`` and return a :class:`Scenario` (ConfigError for bad input)."""
    for key in params:
        if key not in ALLOWED_KEYS:
            raise UnknownParameterError(str(key), params[key])
    p = {k: v for k, v in params.items() if v is not None}
    attack = check_choice("attack", p.get("attack"), A.ATTACKS)

    unit_notes: list[str] = []
    att = tgt = None
    if "attacker" in p:
        att = unit_defaults(_load_unit("attacker", p["attacker"]))
    if "target" in p:
        tmech = _load_unit("target", p["target"])
        tgt = {"tons": tmech.tons, "name": tmech.name,
               "quirks": tuple(getattr(tmech, "quirks", ()) or ())}

    if "tons" in p:
        tons = check_int("tons", p["tons"], 20, 100, multiple=5)
    elif att is not None:
        tons = check_int("tons", att["tons"], 20, 100, multiple=5)
    else:
        raise ConfigError("tons", None, "a multiple of 5 in [20, 100] (or give an attacker unit)")
    piloting = check_int("piloting", p.get("piloting", 5), 0, 8)
    target_tons = check_int("target_tons",
                            p.get("target_tons", tgt["tons"] if tgt else 50), 20, 100, multiple=5)
    target_piloting = check_int("target_piloting", p.get("target_piloting", 5), 0, 8)

    atk = spec(attack)
    weapon_side = att["weapon_sides"].get(atk.weapon) if (att and atk.weapon) else None
    arm_default = weapon_side or "right"
    arm = check_choice("arm", p.get("arm", arm_default), ("left", "right", "both"))
    if arm == "both" and atk.arm_means:
        raise ConfigError("arm", arm, f"'left' or 'right' for a {attack} ({atk.arm_means})")
    sides = SIDES2 if arm == "both" else (arm,)

    damaged, gyro, hatchet_dmg = _parse_acts("damaged", p.get("damaged"), sides,
                                             T.ACTUATORS + ("hatchet",))
    miss_in = p.get("missing")
    if miss_in is None and att is not None:
        miss_in = att["missing"]
    missing, mgyro, _ = _parse_acts("missing", miss_in, sides, T.ARM_ACTS + T.LEG_ACTS)
    del mgyro
    for s, a in list(missing):  # construction: nothing hangs below a missing actuator
        for below in _BELOW[a]:
            missing.add((s, below))
    tdamaged, tgyro, _ = _parse_acts("target_damaged", p.get("target_damaged"), ("right",),
                                     T.LEG_ACTS + ("gyro",))

    with_hexes = " or ".join(x.name for x in ATTACK_LIST if x.needs_hexes)
    if atk.needs_hexes:
        if "hexes" not in p:
            raise ConfigError("hexes", None, f"an integer in [1, 40] for a {attack} (hexes "
                              "moved, not counting the target hex)")
        hexes = check_int("hexes", p["hexes"], 1, 40)
    elif "hexes" in p:
        raise ConfigError("hexes", p["hexes"], f"given only for a {with_hexes} (hexes moved "
                          "before charging)")
    else:
        hexes = 0
    moved_default = atk.allowed_moves()[0]
    if atk.needs_hexes and att is not None and att["walk_mp"] < hexes + 1 \
            and "run" in atk.allowed_moves():
        moved_default = "run"  # the unit cannot walk that far: it runs (MP checked below)
    moved = check_choice("moved", p.get("moved", moved_default), T.MOVES)
    target_hexes = check_int("target_hexes", p.get("target_hexes", 0), 0, 40)
    terrain = check_choice("terrain", p.get("terrain", "clear"), tuple(T.TERRAIN))
    side = check_choice("side", p.get("side", "front"), T.SIDES)
    # TSM works only at heat 9 or more (reference 2): never assumed from the unit (issue 9)
    tsm = check_bool("tsm", p.get("tsm", False))
    immobile, immobile_cause = _immobile(p.get("target_immobile"),
                                         p.get("target_immobile_cause"))
    target_level = check_int("target_level", p.get("target_level", 0), -1, 1)
    fired = set()
    for f in _as_list("fired", p.get("fired")):
        fired.add(check_choice("fired", f, FIRED_LIMBS))

    rules_name = p.get("rules", "default")
    rules: ClassicRules = options.build(ClassicRules, rules_name,
                                        {k: v for k, v in p.items() if k in OPTION_NAMES})

    # unit-derived impossibilities (reference 1.3; issue 5)
    if att is not None:
        if atk.weapon is not None:
            if weapon_side is None:
                unit_notes.append(f"attacker {att['name']} has no {atk.weapon}")
            elif arm != weapon_side:
                unit_notes.append(f"attacker {att['name']} has no {atk.weapon} in the {arm} arm "
                                  f"(it is in the {weapon_side} arm)")
        if atk.allowed_moves() == ("jump",) and att["jump_mp"] <= 0:
            unit_notes.append(f"attacker {att['name']} has no jump MP: a {atk.label} is a jump")
        if atk.needs_hexes and moved in ("walk", "run"):
            mp = att["walk_mp"] if moved == "walk" else att["run_mp"]
            if hexes + 1 > mp:
                how = "walking" if moved == "walk" else "running"
                unit_notes.append(f"a {how} {attack} over {hexes} hexes needs {hexes + 1} MP "
                                  f"(the target hex included); {att['name']} has {mp} {moved} "
                                  "MP")
        for q in atk.barred_by_quirks if rules.quirks else ():
            if q in att["quirks"]:
                unit_notes.append(f"attacker {att['name']} has the {q} design quirk: it cannot "
                                  f"{attack} (rule option quirks, as MegaMek; reference D21)")
    info: list[str] = []
    if att is not None and tsm and not att["tsm"]:
        raise ConfigError("tsm", True, f"given only for an attacker with triple-strength "
                          f"myomer; {att['name']} has none")
    if att is not None and att["tsm"]:
        info.append(f"attacker {att['name']} TSM active: tsm given (heat 9 or more)" if tsm
                    else f"attacker {att['name']} TSM inactive: heat below 9; pass --tsm "
                    "(tsm=true) when its heat is 9 or more")
    for who, unit in (("attacker", att), ("target", tgt)):
        if unit is None:
            continue
        qs = [q for q in unit["quirks"] if not (rules.quirks and who == "attacker"
                                                 and q in SIMULATED_QUIRKS)]
        if qs:
            info.append(f"{who} {unit['name']} design quirks not simulated (reference D21): "
                        + ", ".join(qs))

    return Scenario(
        attack=attack, tons=tons, piloting=piloting, target_tons=target_tons,
        target_piloting=target_piloting, arm=arm, damaged=frozenset(damaged),
        missing=frozenset(missing), gyro_hits=gyro, hatchet_damaged=hatchet_dmg, moved=moved,
        target_hexes=target_hexes,
        target_jumped=check_bool("target_jumped", p.get("target_jumped", False)),
        terrain=terrain,
        target_prone=check_bool("target_prone", p.get("target_prone", False)),
        target_immobile=immobile, target_immobile_cause=immobile_cause,
        side=side, hexes=hexes, tsm=tsm, rules_name=rules_name, rules=rules,
        target_damaged=frozenset(tdamaged), target_gyro_hits=tgyro, target_level=target_level,
        target_partial_cover=check_bool("target_partial_cover",
                                        p.get("target_partial_cover", False)),
        fired=frozenset(fired),
        attacker_prone=check_bool("attacker_prone", p.get("attacker_prone", False)),
        displacement_prohibited=check_bool("displacement_prohibited",
                                           p.get("displacement_prohibited", False)),
        mutual_push=check_bool("mutual_push", p.get("mutual_push", False)),
        attacker=att["name"] if att else None, target=tgt["name"] if tgt else None,
        unit_impossible="; ".join(unit_notes) or None, unit_notes=tuple(info),
    )
