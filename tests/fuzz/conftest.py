"""Hypothesis profiles: "ci" (default, quick, part of `make test`) and "fuzz" (`make fuzz`).

The fuzz profile's budget is per test: FUZZ_EXAMPLES for the cheap parsers, scaled down
with `fuzz_settings.examples(weight)` for the ones that do real I/O or build a feed.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

_QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]
# "ci" runs the same examples on every run (derandomize): `make test` and CI are repeatable,
# and a case a random run finds is fixed and kept as an @example, not left to chance.
# (Loaded here, it applies to every property test of a run that collects tests/fuzz.)
settings.register_profile("ci", max_examples=40, deadline=None, suppress_health_check=_QUIET,
                          derandomize=True)
settings.register_profile(
    "fuzz", max_examples=5000, deadline=None, suppress_health_check=_QUIET,
    print_blob=True,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
