"""Fixtures for the explorer tests (issue 24): the synthetic results of the report tests
(``tests/report/report_synth.py``), the explorer built from them, and a headless Chromium
(Debian's ``chromium`` driven by Playwright's Python package) that skips with the reason
when either is missing. Every request the page makes is intercepted, counted and refused."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "report"))

from report_synth import make_results  # noqa: E402

#: the synthetic experiments the explorer tests build (those its sources read, less the
#: Alpha Strike heat curves, whose synthetic frame is the slowest to build)
EXPERIMENTS = ["weapon_fire", "fire_profiles", "duel_round_robin", "classic_round_robin"]
#: Chromium's flags for the tests: headless, nothing fetched in the background
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]


def chromium_path() -> str | None:
    """Debian's Chromium, if installed."""
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if Path("/usr/bin/chromium").is_file() else None


@pytest.fixture(scope="session")
def synthetic_results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The report tests' synthetic results of the experiments the explorer reads, with a
    saved tactic matrix, a force fight, the Classic causes of destruction and a tactic
    matrix recorded by the Classic round-robin."""
    from explorer_synth import (
        add_causes,
        add_round_robin_matrices,
        force_results,
        tactic_matrix_file,
    )

    root = make_results(tmp_path_factory.mktemp("results"), EXPERIMENTS)
    tactic_matrix_file(root)
    force_results(root)
    add_causes(root / "classic_round_robin")
    add_round_robin_matrices(root / "classic_round_robin")
    return root


#: bootstrap replicates of the duel fits in these tests (the report's 200 cost seconds)
N_BOOT = 20


@pytest.fixture(scope="session", autouse=True)
def small_bootstrap() -> Iterator[None]:
    """The explorer reads the sections' bootstrap size: a small one keeps the tests fast."""
    from sim.report.sections import classic_round_robin, duel_round_robin

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(duel_round_robin, "N_BOOT", N_BOOT)
        mp.setattr(classic_round_robin, "N_BOOT", N_BOOT)
        yield


@pytest.fixture(scope="session")
def loaded(synthetic_results: Path) -> list[Any]:
    """The synthetic results, loaded once (their duel fits are computed once, then shared)."""
    from sim.report import load_results

    return load_results(synthetic_results)


@pytest.fixture(scope="session")
def doc(synthetic_results: Path, loaded: list[Any]) -> dict[str, Any]:
    """The explorer's data document of the synthetic results."""
    from sim.explorer import Inputs, build_data

    return build_data(Inputs(synthetic_results, loaded))


@pytest.fixture(scope="session")
def explorer_page(synthetic_results: Path, loaded: list[Any], doc: dict[str, Any]) -> Path:
    """explorer.html built from the synthetic results."""
    from sim.explorer import build_explorer

    return build_explorer(synthetic_results, loaded)


@dataclass
class Page:
    """A browser page with every request and console message recorded."""

    page: Any
    requests: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def open(self, path: Path, hash_: str = "") -> None:
        self.page.goto(path.resolve().as_uri() + (f"#{hash_}" if hash_ else ""))
        self.page.wait_for_function("window.btsimExplorer && "
                                    "window.btsimExplorer.renders > 0")

    def api(self) -> dict[str, Any]:
        return self.page.evaluate("JSON.parse(JSON.stringify(window.btsimExplorer))")

    @property
    def network(self) -> list[str]:
        """Requests other than the page's own file."""
        return [u for u in self.requests if not u.startswith("file://")]


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Headless Chromium (skips with the reason when Chromium or Playwright is absent)."""
    exe = chromium_path()
    if exe is None:
        pytest.skip("chromium is not installed (Debian: apt-get install -y chromium); "
                    ".ci/run installs it")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("the Playwright Python package is not installed (pip install "
                    "'.[test]'); .ci/run installs it")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=FLAGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Page]:
    """A fresh page; every request is counted, and any request that is not the page's own
    file is refused (aborted)."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = ctx.new_page()
    rec = Page(pg)

    def route(r: Any) -> None:
        if r.request.url.startswith("file://"):
            r.continue_()
        else:
            r.abort()

    pg.on("request", lambda r: rec.requests.append(r.url))
    pg.route("**/*", route)
    pg.on("console", lambda m: rec.errors.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: rec.errors.append(f"page error: {e}"))
    yield rec
    ctx.close()
