"""Test-wide settings. Hypothesis runs derandomized (a fixed seed per test) so that the
suite is reproducible in CI, like every statistical test here; set
HYPOTHESIS_PROFILE=explore to search with fresh random examples."""

import os
from collections.abc import Iterator

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True, deadline=None, database=None,
                          print_blob=True)
settings.register_profile("explore", deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(autouse=True, scope="session")
def _scratch_btsim_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Point ``$BTSIM_HOME`` (the user's imported-unit catalog, ``btsim units import``) at an
    empty scratch folder, so that no test reads or writes the real user's catalog and unit
    names resolve the same on every machine. Tests that import set their own."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("BTSIM_HOME", str(tmp_path_factory.mktemp("btsim_home")))
        yield


def pytest_configure(config: pytest.Config) -> None:
    """Compile the Classic engine once before the workers start (issue 21): in the xdist
    controller (or a plain single-process run) load numba's cache, compiling it first when
    it is cold, so that every worker loads the compiled code instead of compiling it
    again. ``BTSIM_NO_ENGINE_WARMUP=1`` skips it."""
    if hasattr(config, "workerinput") or os.environ.get("BTSIM_NO_ENGINE_WARMUP"):
        return
    from sim.classic.engine import sampler

    sampler.warm_up()
