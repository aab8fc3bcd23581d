"""Test-wide settings. Hypothesis runs derandomized (a fixed seed per test) so that the
suite is reproducible in CI, like every statistical test here; set
HYPOTHESIS_PROFILE=explore to search with fresh random examples."""

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, deadline=None, database=None,
                          print_blob=True)
settings.register_profile("explore", deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
