"""Overheat policies: how much OV a unit uses each turn (rules reference 6.2).

A policy maps the unit's state at the start of a turn to an OV request per unit, as an
``int8`` array: ``-1`` means "make no weapon attack this turn", ``0`` fire without overheat,
``k > 0`` overheat by ``k``. The request is then capped by what the card and range band allow
(OV value; Short/Medium only, Long too with OVL, never Extreme).

Named policies (strings):

* ``hold`` -- never fires (so it always cools to 0);
* ``never`` -- fires every turn, never overheats;
* ``max`` -- fires with its full OV whenever allowed;
* ``fixed:K`` -- fires with OV ``min(K, OV)``;
* ``below:H`` -- full OV while heat < H, otherwise fires without OV.

Any Python callable ``f(heat, turn, state) -> array`` is also a policy: ``heat`` is the uint8
heat array, ``turn`` the 1-based turn, ``state`` a dict of the other state arrays (``eng``,
``fc``, ``wh``, ``mp``, ``dmg``, ``alive``); it returns the OV request per unit (``-1`` hold).
A callable may depend on ``turn``, so its exact chain is built turn by turn.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from sim.errors import ConfigError
from sim.policy import PolicySpec, parse_spec

PolicyFn = Callable[[np.ndarray, int, dict[str, np.ndarray]], Any]

_ALLOWED = "one of 'hold', 'never', 'max', 'fixed:K' (K in 0-4), 'below:H' (H in 0-4) or a callable"


@dataclass(frozen=True)
class Policy(PolicySpec):
    """A parsed policy: ``kind`` in hold/never/max/fixed/below/callable and its argument."""

    @property
    def time_homogeneous(self) -> bool:
        """Named policies depend on the state only; callables may depend on the turn."""
        return self.kind != "callable"

    def request(self, heat: np.ndarray, turn: int, state: dict[str, np.ndarray],
                ov: int) -> np.ndarray | np.int8:
        """OV requested per unit (-1 = no weapon attack); ``ov`` is the usable OV.

        Constant policies return an ``int8`` scalar (it broadcasts); ``below`` and callables
        return an array.
        """
        if self.kind == "hold":
            return np.int8(-1)
        if self.kind == "never":
            return np.int8(0)
        if self.kind == "max":
            return np.int8(ov)
        if self.kind == "fixed":
            return np.int8(min(self.arg, ov))
        if self.kind == "below":
            return ((heat < self.arg) * np.int8(ov)).astype(np.int8)
        assert self.fn is not None
        n = heat.shape[0]
        out = np.asarray(self.fn(heat, turn, state))
        out = np.broadcast_to(out, (n,))
        if not np.issubdtype(out.dtype, np.integer):
            if not np.all(np.equal(np.mod(out, 1), 0)):
                raise ConfigError("policy", self.label,
                                  "a callable returning integer OV requests")
        return np.clip(out, -1, 4).astype(np.int8)


def parse_policy(value: Any) -> Policy:
    """Parse ``hold``, ``never``, ``max``, ``fixed:K``, ``below:H`` or a callable."""
    return parse_spec(Policy, value, ("hold", "never", "max"),
                      {"fixed": (0, 4), "below": (0, 4)}, _ALLOWED)
