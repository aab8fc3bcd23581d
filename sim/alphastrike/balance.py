"""Derived balance metrics of the Alpha Strike heat model, from a summary frame.

The report shows these; the model defines them (so a notebook, the report and a future
points-efficiency study read the same numbers). Each reads the best estimate of a metric
(exact where the model has one, else the Monte Carlo mean: :func:`sim.summary.estimate`).

Definitions
-----------
* **survival by turn t** = ``1 - p_destroyed_by`` at turn t: the chance the unit is still
  operational after turn t (destruction: reference 6.6).
* **turns gained** over a baseline (e.g. ammo protection ``none``) = the difference of the
  ``expected_turns_survived`` (turns up to the horizon, a unit still operational after the
  last turn counting the horizon).
* **Ammo Hit odds**: the chance one critical-hit roll is an Ammo Hit and the 2D6 totals that
  give one, from the 'Mech critical-hit table (reference 6.6, :data:`tables.CRIT_MECH`).
* **overheat order of policies** (reference 6.2): ``hold`` (never fires) < ``never`` (fires
  without overheat) < ``below:H`` (full OV while heat < H, by H) < ``fixed:K`` (OV K, by K) <
  ``max`` (full OV); policies that cannot be parsed (callables saved by name) come last.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

import pandas as pd

from sim.alphastrike import tables as T
from sim.alphastrike.policies import parse_policy
from sim.alphastrike.scenario import PARAMS, PROTECTION_MODES
from sim.errors import ConfigError
from sim.summary import estimate

#: policy kinds from the least to the most overheat (see the module docstring)
POLICY_KIND_ORDER: tuple[str, ...] = ("hold", "never", "below", "fixed", "max")

#: the ammo protection choices of the heat model, in the order of its table (reference 6.6)
PROTECTIONS: tuple[str, ...] = tuple(PROTECTION_MODES)
#: the ``protection`` value meaning "whatever the card's own specials give"
PROTECTION_DEFAULT: str = str(PARAMS["protection"])


def survival(frame: pd.DataFrame) -> pd.Series:
    """Chance the unit is still operational after each row's turn: ``1 - p_destroyed_by``."""
    return 1 - estimate(frame, "p_destroyed_by")


def turns_gained(turns: pd.Series, base: str) -> pd.Series:
    """Expected turns survived gained over the row labelled ``base`` of ``turns`` (a Series
    of ``expected_turns_survived`` indexed by e.g. the protection)."""
    return turns - turns.loc[base]


def ammo_hit_odds() -> tuple[Fraction, tuple[int, ...]]:
    """The chance one critical-hit roll is an Ammo Hit (as a fraction of 36) and the 2D6
    totals that give one (reference 6.6): ``(Fraction(1, 36), (2,))``."""
    p = Fraction(float(T.CRIT_PROB[T.CRIT_AMMO])).limit_denominator(36)
    rolls = tuple(i for i in range(2, 13) if int(T.CRIT_MECH[i]) == T.CRIT_AMMO)
    return p, rolls


def policy_sort_key(label: str) -> tuple[int, int, str]:
    """Sort key putting policies from the least to the most overheat (module docstring)."""
    try:
        pol = parse_policy(label)
    except ConfigError:
        return len(POLICY_KIND_ORDER), 0, str(label)
    rank = POLICY_KIND_ORDER.index(pol.kind) if pol.kind in POLICY_KIND_ORDER \
        else len(POLICY_KIND_ORDER)
    return rank, pol.arg, str(label)


def ordered_policies(labels: Iterable[str]) -> list[str]:
    """Distinct policy labels from the least to the most overheat."""
    return sorted(dict.fromkeys(str(p) for p in labels), key=policy_sort_key)


def ordered_protections(labels: Iterable[str]) -> list[str]:
    """Distinct protection labels in the model's table order; others after, as given."""
    labs = list(dict.fromkeys(str(p) for p in labels))
    return sorted(labs, key=lambda p: PROTECTIONS.index(p) if p in PROTECTIONS
                  else len(PROTECTIONS))


def ov_pv_term(card: object) -> float:
    """The part of a card's PV that pays for its Overheat Value (reference 23.4, MegaMek's
    converter): the offense overheat term 1 + 0.5 (OV - 1) for OV >= 1 (halved when the card
    deals no Medium or Long damage), plus OV/4 for OVL. It is added to the offense before the
    ability multipliers, agile bonus, brawler malus and the final rounding, so it is the PV
    the OV costs up to those (0 for a card without OV)."""
    ov = int(getattr(card, "ov", 0) or 0)
    if ov <= 0:
        return 0.0
    dmg = tuple(getattr(card, "damage", (0, 0, 0, 0)))
    minimal = tuple(getattr(card, "minimal", (False,) * 4))
    med_long = sum(dmg[1:3]) + 0.5 * sum(bool(m) for m in minimal[1:3])
    term = 1 + 0.5 * (ov - 1)
    if med_long == 0:
        term /= 2
    has = getattr(card, "has", None)
    if callable(has) and has("OVL"):
        term += ov / 4
    return float(term)
