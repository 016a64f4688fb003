"""Hypothesis profiles: "ci" (default, quick, part of `make test`) and "fuzz" (`make fuzz`).

The fuzz profile's budget is per test: FUZZ_EXAMPLES for the cheap parsers, scaled down
with `fuzz_settings.examples(weight)` for the ones that do real I/O or build a feed.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

_QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]
settings.register_profile("ci", max_examples=40, deadline=None, suppress_health_check=_QUIET)
settings.register_profile(
    "fuzz", max_examples=5000, deadline=None, suppress_health_check=_QUIET,
    print_blob=True,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
