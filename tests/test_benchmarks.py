"""The benchmark scripts stay runnable: each one imports, in a fresh
interpreter run the way ``python benchmarks/NAME.py`` runs it (its folder
first on the path), so a name the package renames or drops fails here,
not on the day someone measures."""

from __future__ import annotations

import subprocess
import sys

from tests.util import ROOT

IMPORT_ALL = """
import importlib, sys
sys.path.insert(0, "benchmarks")
failed = []
for name in sys.argv[1:]:
    try:
        importlib.import_module(name)
    except BaseException as e:
        failed.append(f"{name}: {e!r}")
print("\\n".join(failed))
"""


def test_every_benchmark_script_imports():
    names = sorted(p.stem for p in (ROOT / "benchmarks").glob("*.py"))
    assert len(names) >= 20
    proc = subprocess.run([sys.executable, "-c", IMPORT_ALL, *names], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == ""
