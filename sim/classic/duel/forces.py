"""N 'Mechs a side in the Classic engagement (issue 21): the force syntax, the targeting
policies as data, and the scenario of model ``classic-force``.

A side is ``"UNIT"``, ``"UNIT@G/P"`` (gunnery / piloting; ``UNIT@G`` keeps the side's
piloting) or a force of up to :data:`MAX_UNITS` entries ``"UNIT@G/P,UNIT@G/P"`` (or a list of
names, ``ClassicMech`` values or ``(unit, gunnery, piloting)`` tuples). Every unit has its own
state on the compiled engine's unit axis (:mod:`sim.classic.engine`); movement stays the
duel's (one mode per side, one range for every unit: the engagement is map-free, so at range
1 every unit is adjacent to every enemy).

Targeting (a policy, not a rule; reference-as-combat 20.9 is the Alpha Strike analogue): at
the start of every weapon attack phase each unit picks one living enemy from the state then
(:func:`sim.classic.engine.target.retarget`), so a unit whose target died retargets; its
weapon fire and, at range 1, its physical attack go to that target. The policies read two
numbers of an enemy: its *durability* (armor and internal structure left, all locations and
rear armor) and its *threat* (the expected damage of its usable weapons this turn: for every
weapon not destroyed, jammed or out of ammunition, P(hit) at its base to-hit number for the
turn's range, movement and heat, times its mean damage; 0 when it cannot act). Ties go to the
lowest unit index.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sim.classic.bv import check_skill
from sim.classic.duel.scenario import PARAMS as DUEL_PARAMS
from sim.classic.duel.scenario import DuelScenario, build
from sim.errors import ConfigError, UserError
from sim.units.types import ClassicMech

#: most units on one side (issue 21)
MAX_UNITS = 4
#: the targeting policies, in the order of their engine codes (``UP[u, P_TARGETING]``):
#: name -> what a unit of the side fires at (module docstring: durability, threat)
TARGETING: dict[str, str] = {
    "focus-weakest": "the living enemy with the least durability left (the whole side "
    "focuses on it)",
    "focus-threat": "the living enemy with the highest threat",
    "spread": "unit i of the side (its place in the side, from 0) fires at the (i mod k)-th "
    "of the k living enemies",
    "finish": "among the living enemies whose durability the side's expected damage this "
    "turn (the sum of its living units' threats) can take out, the one with the highest "
    "threat; if none, the enemy with the highest threat",
}
DEFAULT_TARGETING = "focus-weakest"
#: the parameters of model ``classic-force``, declared once: the duel's (each side's
#: ``unit_*`` a force, its ``gunnery_*`` / ``piloting_*`` the default of entries without
#: ``@G/P``) less ``bv_*`` (a force's units take their own Battle Value), plus the targeting
FORCE_PARAMS: tuple[str, ...] = tuple(k for k in DUEL_PARAMS if not k.startswith("bv_")) + (
    "targeting_a", "targeting_b")


def targeting_code(name: str) -> int:
    """Engine code of a targeting policy (its index in :data:`TARGETING`)."""
    return list(TARGETING).index(name)


def check_targeting(field: str, value: Any) -> str:
    """The policy name, else ConfigError naming ``field``, the value and the choices."""
    if not isinstance(value, str) or value not in TARGETING:
        raise ConfigError(field, value, "one of " + ", ".join(TARGETING))
    return value


def parse_force(text: Any, field: str, gunnery: Any = 4, piloting: Any = 5
                ) -> list[tuple[Any, int, int]]:
    """A side (module docstring) -> ``[(unit, gunnery, piloting), ...]``, 1 to
    :data:`MAX_UNITS` entries; ConfigError naming ``field`` otherwise."""
    g0 = check_skill(f"gunnery_{field[-1]}", gunnery)
    p0 = check_skill(f"piloting_{field[-1]}", piloting)
    if isinstance(text, ClassicMech):
        return [(text, g0, p0)]
    if isinstance(text, str):
        parts: Sequence[Any] = [p.strip() for p in text.split(",")]
    elif isinstance(text, list | tuple):
        parts = list(text)
    else:
        raise ConfigError(field, text, "a 'Mech, 'UNIT@G/P' or up to 4 of them, "
                          "'UNIT@G/P,UNIT@G/P'")
    out: list[tuple[Any, int, int]] = []
    for p in parts:
        if isinstance(p, tuple) and len(p) == 3:
            out.append((p[0], check_skill(f"{field} gunnery", p[1]),
                        check_skill(f"{field} piloting", p[2])))
            continue
        if isinstance(p, ClassicMech):
            out.append((p, g0, p0))
            continue
        if not isinstance(p, str) or not p.strip():
            raise ConfigError(field, text, f"1 to {MAX_UNITS} 'Mechs, e.g. 'Atlas AS7-D@3/4,"
                              "Hunchback HBK-4G'; got an empty entry")
        name, sep, skills = p.rpartition("@")
        if not sep:
            out.append((p.strip(), g0, p0))
            continue
        g, slash, pil = skills.partition("/")
        try:
            gv = check_skill(f"{field} gunnery", g.strip())
            pv = check_skill(f"{field} piloting", pil.strip()) if slash else p0
        except ConfigError:
            raise ConfigError(field, p, "UNIT, UNIT@G or UNIT@G/P with gunnery and piloting "
                              "0-8") from None
        if not name.strip():
            raise ConfigError(field, p, "a unit name before '@'")
        out.append((name.strip(), gv, pv))
    if not out or len(out) > MAX_UNITS:
        raise ConfigError(field, text, f"1 to {MAX_UNITS} 'Mechs")
    return out


def build_force(params: Mapping[str, Any]) -> DuelScenario:
    """Validate the ``classic-force`` parameters (:data:`FORCE_PARAMS` and the duel's rule
    options) and build the engagement."""
    from sim.classic.duel.scenario import OPTION_PARAMS, PARAMS

    for k in params:
        if k.startswith("bv_") and k in PARAMS:
            raise ConfigError(k, params[k], "left unset in a force engagement (each unit "
                              "takes its own Battle Value from the catalog or its file)")
        if k not in FORCE_PARAMS and k not in OPTION_PARAMS:
            raise ConfigError("parameter", k, "one of " + ", ".join(FORCE_PARAMS)
                              + " or a rule option of the duel (btsim rules --game classic)")
    forces = tuple(parse_force(params.get(f"unit_{s}"), f"unit_{s}",
                               params.get(f"gunnery_{s}", 4), params.get(f"piloting_{s}", 5))
                   for s in "ab")
    targeting = tuple(check_targeting(f"targeting_{s}",
                                      params.get(f"targeting_{s}", DEFAULT_TARGETING))
                      for s in "ab")
    rest = {k: v for k, v in params.items()
            if k not in ("targeting_a", "targeting_b", "unit_a", "unit_b", "gunnery_a",
                         "gunnery_b", "piloting_a", "piloting_b")}
    for s in "ab":
        for k in ("physical", "policy"):
            if callable(rest.get(f"{k}_{s}")):
                raise ConfigError(f"{k}_{s}", "a callable", "a named policy in a force "
                                  "engagement (the compiled engine runs it)")
    scn = build(rest, (forces[0], forces[1]), (targeting[0], targeting[1]))
    from sim.classic.engine.compile import supported

    ok, why = supported(scn)
    if not ok:          # the NumPy duel kernel, the duel's fallback, is one 'Mech a side
        raise UserError(f"classic-force: {why}: the compiled engine cannot run it")
    return scn
