"""The model contract, checked (issue 9): every registered model (``sim.models.MODULES``, so
future models are covered automatically) is a :class:`sim.model.Model`, and its ``sample``
and ``exact`` produce exactly the declared metrics on its bench/example parameters; the
engine fails loudly, naming the model and the metric, when they do not."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from sim import engine
from sim.aggregate import Aggregate
from sim.model import MetricContractError, Model
from sim.models import MODULES, get_model


def _cases(name: str) -> list[dict[str, Any]]:
    model = get_model(name)
    cases = [dict(c.params) for c in model.bench_cases]
    assert cases, f"model {name!r} declares no bench case to check its metrics on"
    return cases


@pytest.mark.parametrize("name", sorted(MODULES))
def test_sample_and_exact_produce_exactly_the_declared_metrics(name):
    model = get_model(name)
    assert isinstance(model, Model) and model.name == name
    declared = {m.name for m in model.metrics}
    assert len(declared) == len(model.metrics), "metric names are unique"
    for params in _cases(name):
        scn = model.scenario(params)
        agg = model.sample(scn, engine.chunk_rng(1, 0, 0), 64)
        assert set(agg.stats) | set(agg.hists) == declared
        assert {m.name for m in model.metrics if m.kind == "hist"} == set(agg.hists)
        engine.check_sample(model, agg)
        ex = model.exact(scn)
        if ex is not None:
            assert set(ex) == {m.name for m in model.metrics if m.exact}
            engine.check_exact(model, ex)
        frame = engine.simulate(model, [params], trials=64, seed=1, progress="never")
        assert all(m.name in frame for m in model.metrics)


def _broken(drop: str | None = None, extra: str | None = None) -> Model:
    base = get_model("punch-demo")

    class Broken(type(base)):  # type: ignore[misc]
        def sample(self, scenario: Any, rng: np.random.Generator, n: int) -> Aggregate:
            agg = super().sample(scenario, rng, n)
            if drop:
                agg.stats.pop(drop, None)
            if extra:
                agg.add_mean(extra, np.zeros(n))
            return agg

        def exact(self, scenario: Any) -> dict[str, np.ndarray]:
            ex = dict(super().exact(scenario))
            if drop:
                ex.pop(drop, None)
            if extra:
                ex[extra] = np.zeros(1)
            return ex

    model = Broken()
    model.name = "broken"
    return model


@pytest.mark.parametrize(("drop", "extra", "needle"), [
    ("p_hit", None, "missing declared metric(s) p_hit"),
    (None, "p_miss", "undeclared metric(s) p_miss"),
])
def test_engine_fails_loudly_on_metric_mismatch(drop, extra, needle):
    model = _broken(drop, extra)
    with pytest.raises(MetricContractError, match="model 'broken': sample\\(\\)") as e:
        engine.simulate(model, [{"tons": 50}], trials=100, seed=1, progress="never")
    assert needle in str(e.value)
    with pytest.raises(MetricContractError, match="model 'broken': exact\\(\\)") as e:
        engine.exact_frame(model, [{"tons": 50}])
    assert needle in str(e.value)


def test_model_is_a_checked_interface(monkeypatch):
    class Half(Model):
        def scenario(self, params: Any) -> Any:
            return params

    with pytest.raises(TypeError, match="abstract"):
        Half()  # type: ignore[abstract]
    import sim.demo

    monkeypatch.setattr(sim.demo, "MODEL", object())
    with pytest.raises(TypeError, match="sim.model.Model"):
        get_model("punch-demo")
