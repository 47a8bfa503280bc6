"""The install ships every part of the package: each folder of ``solver/``
with an ``__init__.py`` is listed in pyproject.toml's packages (a missing
one installs without error and fails only when a command imports it)."""

from __future__ import annotations

import tomllib

from tests.util import ROOT


def test_every_subpackage_is_installed():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "solver").rglob("__init__.py")}
    assert found - listed == set()
