"""Scalar-Python oracles: plain one-trial-at-a-time implementations of the rules, used by the
tests to check the vectorized kernels and by ``btsim bench`` as the scalar baseline.

The products never import this package (a test checks it): the benchmark links each model
to its scalar baseline through :data:`SCALAR_BASELINES` (model name -> ``module:function``,
imported only when the benchmark asks for it with :func:`scalar_baseline`). Each function
takes ``(params, rng, n)`` like :attr:`sim.model.BenchCase.scalar`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

ScalarFn = Callable[[Mapping[str, Any], np.random.Generator, int], Any]

#: Model name -> "module:function" of its scalar baseline.
SCALAR_BASELINES: dict[str, str] = {
    "attack": "sim.oracles.classic:scalar_trials",
    "heat": "sim.oracles.alphastrike:run_oracle",
    "fire": "sim.oracles.fire:scalar",
    "duel": "sim.oracles.duel:scalar",
    "classic-duel": "sim.oracles.classic_duel:scalar",
    "classic-force": "sim.oracles.classic_duel:scalar",
}


def scalar_baseline(model_name: str) -> ScalarFn | None:
    """The scalar baseline of model ``model_name`` (None when it has none)."""
    ref = SCALAR_BASELINES.get(model_name)
    if ref is None:
        return None
    module, func = ref.split(":")
    fn: ScalarFn = getattr(importlib.import_module(module), func)
    return fn
