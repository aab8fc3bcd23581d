"""The model contract: what every simulated rule set provides to the engine.

A model turns validated parameters into a *scenario* and answers two questions about it:

* :meth:`Model.sample` -- draw ``n`` trials from a ``numpy.random.Generator`` with a
  vectorized kernel and return an :class:`~sim.aggregate.Aggregate` (never per-trial data);
* :meth:`Model.exact` -- the exact value of every metric that has one, computed by
  enumerating the dice distributions (or a Markov chain), under the same metric names.

The engine (:mod:`sim.engine`) runs ``sample`` over chunks and workers and puts both side by
side in one tidy DataFrame. Models register themselves in :mod:`sim.models`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import pandas as pd

from sim.aggregate import Aggregate

MetricKind = Literal["probability", "mean", "hist"]


class MetricContractError(RuntimeError):
    """A model's ``sample`` or ``exact`` returned metrics other than the declared ones (a bug
    in the model, not bad user input)."""


@dataclass(frozen=True)
class Metric:
    """One output metric.

    ``kind``: ``probability`` (mean of a 0/1 indicator: Wilson interval), ``mean`` (mean of a
    number: normal interval) or ``hist`` (a distribution over 0..bins-1, stored as a list of
    probabilities). ``per_row=False`` marks a metric with one value per scenario even when the
    scenario has several rows (e.g. the expected turn of first shutdown of a heat run).
    """

    name: str
    description: str
    kind: MetricKind = "mean"
    unit: str = ""
    exact: bool = True
    per_row: bool = True


@dataclass(frozen=True)
class BenchCase:
    """A kernel the benchmark measures: model parameters and an optional scalar oracle.

    ``scalar(params, rng, n)`` runs the same rules one trial at a time in plain Python (the
    oracle the tests also use); the benchmark times it side by side with the kernel.
    ``per_trial`` is how many ``unit`` items one trial holds (a 20-turn heat run is 20
    unit-turns); the benchmark reports rates in ``unit`` per second.
    ``per_trial_metric``: the name of a mean metric whose value is the number of ``unit``
    items one trial really held (a duel that ends in turn 4 of 10 played 4 duel-turns):
    the benchmark then counts that, measured by its own engine run, instead of
    ``per_trial`` (which stays the most one trial can hold).
    """

    label: str
    params: Mapping[str, Any]
    scalar: Callable[[Mapping[str, Any], np.random.Generator, int], Any] | None = None
    unit: str = "trials"
    per_trial: int = 1
    per_trial_metric: str | None = None


@dataclass
class Model(ABC):
    """Base class for models: subclasses implement ``scenario``, ``params`` and ``sample``
    (abstract) and may override ``rows``, ``facts`` and ``exact``.

    ``version``: bump it (any new string) whenever a change alters the model's numbers for a
    given seed (a rule fix, a new draw order in the kernel): it is part of the chunk cache's
    key (:mod:`sim.cache`), so results folders cached by the old model are recomputed.
    ``default_chunk``: the model's chunk size when the caller passes none."""

    name: str = ""
    description: str = ""
    metrics: tuple[Metric, ...] = ()
    bench_cases: tuple[BenchCase, ...] = field(default_factory=tuple)
    version: str = "1"
    #: trials per chunk when the caller gives none (None: :data:`sim.engine.DEFAULT_CHUNK`).
    #: A slow kernel declares a smaller one so that a run of a few thousand trials still
    #: spreads over the workers and has enough chunks for its intervals and for resuming.
    default_chunk: int | None = None

    @abstractmethod
    def scenario(self, params: Mapping[str, Any]) -> Any:
        """Validate ``params`` (unknown keys included) and return a scenario object.

        Raise :class:`sim.errors.ConfigError` naming the field, the value and what is allowed.
        """
        raise NotImplementedError

    @abstractmethod
    def params(self, scenario: Any) -> dict[str, Any]:
        """The normalized parameters as flat JSON-able scalars (columns of the summary)."""
        raise NotImplementedError

    def rows(self, scenario: Any) -> pd.DataFrame | None:
        """Index columns when one scenario yields several rows (e.g. ``turn``); else None."""
        return None

    def facts(self, scenario: Any) -> dict[str, Any]:
        """Deterministic per-scenario columns (``target_number``, ``impossible``, rule set...)."""
        return {}

    @abstractmethod
    def sample(self, scenario: Any, rng: np.random.Generator, n: int) -> Aggregate:
        """Run ``n`` vectorized trials and return their aggregate."""
        raise NotImplementedError

    def exact(self, scenario: Any) -> dict[str, np.ndarray] | None:
        """Exact metric values: name -> array of shape (rows,) or (rows, bins) for hists."""
        return None

    def notes(self, scenario: Any) -> list[str]:
        """Every note a user needs to trust this scenario's numbers (``Result.notes``, the
        ``--json`` ``notes`` and the results metadata). Default: the facts ``notes``
        (a string, ``;``-separated, or a list) and ``specials_not_simulated``."""
        facts = self.facts(scenario)
        out: list[str] = []
        raw = facts.get("notes")
        if isinstance(raw, str):
            out += [n.strip() for n in raw.split(";") if n.strip()]
        elif isinstance(raw, list | tuple):
            out += [str(n) for n in raw if n]
        if facts.get("specials_not_simulated"):
            out.append(f"specials not simulated: {facts['specials_not_simulated']}")
        return out

    def options(self, scenario: Any) -> dict[str, Any]:
        """The effective rule options of a scenario (every option, defaults included).
        Default: the ``rule_options`` fact (a dict or JSON text), else the scenario's
        ``rules`` dataclass, else none."""
        import dataclasses
        import json

        raw = self.facts(scenario).get("rule_options")
        if isinstance(raw, str):
            return dict(json.loads(raw))
        if isinstance(raw, Mapping):
            return dict(raw)
        rules = getattr(scenario, "rules", None)
        if dataclasses.is_dataclass(rules) and not isinstance(rules, type):
            return dataclasses.asdict(rules)
        return {}

    def metric(self, name: str) -> Metric:
        """The declared metric called ``name`` (KeyError if none)."""
        for m in self.metrics:
            if m.name == name:
                return m
        raise KeyError(name)
