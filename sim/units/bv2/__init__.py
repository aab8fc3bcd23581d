"""Battle Value 2 of a BattleMech computed from its unit file (``reference-bv.md``
sections 20-27): :func:`battle_value` returns the value and every step
(:class:`~sim.units.bv2.types.BVBreakdown`); options B1-B14 are
:class:`~sim.units.bv2.rules.BVRules`. A unit outside the reference's scope raises
:class:`~sim.units.bv2.scope.OutOfScope` with the reasons.

The BV *facts* of the shipped records (``bv.csv``) and BV at other skills stay in
:mod:`sim.units.bv` and :mod:`sim.classic.bv`.
"""

from __future__ import annotations

import math
from fractions import Fraction
from os import PathLike
from typing import Any

from sim.units.bv2 import tables as T
from sim.units.bv2.defensive import defensive_rating
from sim.units.bv2.offensive import offensive_rating
from sim.units.bv2.rules import DEFAULT_BV_RULES, BVRules, bv_rules
from sim.units.bv2.scope import OutOfScope, bv_scope_problems
from sim.units.bv2.types import BVBreakdown
from sim.units.design.reader import Design, design_of, inventory
from sim.units.types import ClassicMech

__all__ = ["BVBreakdown", "BVRules", "OutOfScope", "battle_value", "bv_rules"]


def battle_value(unit: ClassicMech | Design | str | PathLike[str],
                 rules: BVRules | dict[str, Any] | None = None) -> BVBreakdown:
    """Battle Value 2 (gunnery 4 / piloting 5) of ``unit`` with its breakdown
    (reference-bv.md 21-22). ``rules``: a :class:`BVRules` or option overrides by name.
    Raises :class:`OutOfScope` (a UserError) for a unit section 20 does not cover."""
    r = rules if isinstance(rules, BVRules) else (
        bv_rules(rules) if rules else DEFAULT_BV_RULES)
    d = design_of(unit)
    inv = inventory(d)
    problems = bv_scope_problems(d, inv)
    if problems:
        raise OutOfScope(d.name, problems)
    de = defensive_rating(d, inv, r)
    of = offensive_rating(d, inv, r)
    cockpit = T.COCKPIT_FACTOR[d.cockpit.strip().lower()]
    base = (de.dbr + of.obr) * cockpit
    bv = math.floor(base + Fraction(1, 2))
    return BVBreakdown(d.name, de, of, cockpit, base, bv, r.as_dict(), d.assumed)
