"""Fixtures for the report tests (issue 6): synthetic results folders built once per session
by :mod:`report_synth`, and the report built from them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from report_synth import make_results


@pytest.fixture(scope="session")
def synthetic_results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A results folder holding all five synthetic experiments (built once per session)."""
    return make_results(tmp_path_factory.mktemp("results"))


@pytest.fixture(scope="session")
def built_report(synthetic_results: Path) -> Any:
    """The report built once from the synthetic results."""
    from sim.report import build_report

    return build_report(synthetic_results)
