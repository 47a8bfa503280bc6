"""Shared test settings. Property-based tests never assert on wall-clock
time (the machine is shared: a slow example is not a failure), and the
``slow`` marker (pyproject.toml) keeps the long tests out of the fast lane."""

from hypothesis import settings

settings.register_profile("project", deadline=None)
settings.load_profile("project")
