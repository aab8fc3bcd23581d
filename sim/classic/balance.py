"""Derived balance metrics of Classic physical attacks, computed from a summary frame.

These are the model's answers to "which attack is best for its risk", not report cosmetics,
so they live here, next to the rules, and the report only shows them. Every function reads
the best estimate of each metric (exact where the model has one, else the Monte Carlo mean:
:func:`sim.summary.estimate`) and works on whole columns at once.

Definitions (issue 6, reviewer finding 1; damage rules: reference section 2, falls: 4.3)
----------------------------------------------------------------------------------------
* **self-risk** = ``expected_self_damage + expected_fall_damage_attacker``: the damage points
  an attacker expects to inflict on itself per attack declared, averaging over hits, misses
  and falls. The first term is the charge (ceil(T/10)) and DFA (ceil(W/5)) self-damage of
  reference section 2 on a hit; the second is the fall damage of reference 4.3 after a failed
  piloting roll or a missed DFA (a 2-level fall). Both are unconditional expectations, so the
  fall probability is already inside the second one. A metric the scenario lacks counts 0.
* **net damage** = ``expected_damage - self_risk`` (damage points per attack declared).
* **damage per self-risk** = ``expected_damage / max(self_risk, RISK_FLOOR)`` with
  ``RISK_FLOOR = 0.5`` points. Without the floor the ratio is driven by tiny denominators (a
  kick by a good pilot falls once in hundreds of attacks) and is unbounded for attacks with
  no risk at all (punch, club, hatchet, a kick that cannot miss); with it every attack is
  ranked on one finite scale.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from sim.summary import estimate

#: the smallest self-risk (damage points) a damage-per-risk ratio divides by
RISK_FLOOR = 0.5

#: one-line definitions, for captions and notes
NET_DEFINITION = ("Net damage = expected damage dealt − self-risk (expected self-damage + "
                  "expected fall damage of the attacker), in damage points per attack "
                  "declared.")
RATIO_DEFINITION = (f"Damage per self-risk = expected damage / max(self-risk, {RISK_FLOOR:g}): "
                    f"self-risk is floored at {RISK_FLOOR:g} points, so attacks that carry "
                    f"little or no risk are compared as if they risked {RISK_FLOOR:g} points "
                    "instead of dividing by (nearly) zero.")


def self_risk(frame: pd.DataFrame) -> pd.Series:
    """Expected damage points the attacker takes from its own attack, per attack declared:
    ``expected_self_damage + expected_fall_damage_attacker`` (module docstring; reference
    sections 2 and 4.3). A metric missing from the frame counts 0."""
    sd = estimate(frame, "expected_self_damage").fillna(0.0)
    fd = estimate(frame, "expected_fall_damage_attacker").fillna(0.0)
    return sd + fd


def net_damage(frame: pd.DataFrame) -> pd.Series:
    """Expected damage dealt minus :func:`self_risk`, per attack declared."""
    return estimate(frame, "expected_damage") - self_risk(frame)


def risk_ratio(damage: Any, risk: Any) -> Any:
    """Expected damage per point of self-risk, self-risk floored at :data:`RISK_FLOOR`.

    Works on scalars, arrays and Series alike. A raw ``damage / risk`` ratio is driven by tiny
    denominators and is unbounded for riskless attacks; the floor keeps every attack in the
    ranking on one finite scale.
    """
    return damage / np.maximum(risk, RISK_FLOOR)


def damage_per_risk(frame: pd.DataFrame) -> pd.Series:
    """:func:`risk_ratio` of the expected damage and the :func:`self_risk` of each row."""
    return risk_ratio(estimate(frame, "expected_damage"), self_risk(frame))


def balance_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """The frame with four derived columns added: ``ev`` (expected damage, best estimate),
    ``risk`` (self-risk), ``net`` (net damage) and ``ratio`` (damage per self-risk)."""
    out = frame.copy()
    out["ev"] = estimate(out, "expected_damage")
    out["risk"] = self_risk(out)
    out["net"] = out["ev"] - out["risk"]
    out["ratio"] = risk_ratio(out["ev"], out["risk"])
    return out
