"""The committed digest of fixed-seed results per model (issue 21): a model whose numbers
change must bump its ``Model.version`` (and the digest of the new version is committed with
``python tools/model_digests.py --write``)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from sim.models import MODULES, get_model

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("model_digests", ROOT / "tools" / "model_digests.py")
assert _spec is not None and _spec.loader is not None
digests = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(digests)


@pytest.mark.parametrize("name", sorted(MODULES))
def test_numbers_change_only_with_a_version_bump(name):
    version = str(get_model(name).version)
    stored = digests.load().get(name, {})
    assert version in stored, (
        f"model {name!r} version {version} has no committed digest: run "
        "`python tools/model_digests.py --write` and commit tests/engine/digests.json")
    assert digests.digest(name) == stored[version], (
        f"model {name!r}: its fixed-seed numbers changed but its version is still {version}: "
        "bump Model.version, then `python tools/model_digests.py --write`")


def test_an_extra_roll_changes_the_digest(monkeypatch):
    """The guard can fail: one extra draw ahead of the kernel's own moves every number."""
    model = get_model("punch-demo")
    before = digests.digest("punch-demo")
    cls = type(model)
    original = cls.sample

    def shifted(self, scenario, rng: np.random.Generator, n: int):
        rng.integers(0, 6)
        return original(self, scenario, rng, n)

    monkeypatch.setattr(cls, "sample", shifted)
    assert digests.digest("punch-demo") != before


def test_every_model_has_bench_cases_to_digest():
    for name in MODULES:
        assert get_model(name).bench_cases, name
