"""Hypothesis profiles: ``ci`` is derandomized with no deadline (selected by
.ci/run through HYPOTHESIS_PROFILE=ci); ``dev`` explores more, at random."""
import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", derandomize=True, deadline=None, max_examples=40, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
settings.register_profile(
    "dev", deadline=None, max_examples=200,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))
