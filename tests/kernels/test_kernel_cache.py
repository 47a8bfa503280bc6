"""The compiled kernels' disk cache (solver/kernels/jit.py) under the faults
that stopped numba's own: damaged cache files, a read-only install with a
warm cache, a read-only install with no cache folder anywhere.

A tiny kernel in a module of the test's own folder goes through the same
``njit`` as the real kernels, in a fresh process per run (a cache is
read at the first call of a process); its ``stats.cache_hits`` say
whether it came from the disk. The real package is checked for using
that ``njit`` everywhere, and for importing from a read-only folder.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.faults import ROOT, blokus_read_only, run_read_only

TINY = """
from solver.kernels.jit import njit, take_notices


@njit(cache=True)
def add_one(x):
    return x + 1
"""
RUN = ("import tiny; value = tiny.add_one(41); "
       "print(value, sum(tiny.add_one.stats.cache_hits.values())); print(*tiny.take_notices(), sep='\\n')")


def env_for(folder: Path, home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env.update(PYTHONPATH=f"{folder}{os.pathsep}{ROOT}", HOME=str(home), XDG_CACHE_HOME=str(home / ".cache"))
    return env


@pytest.fixture
def tiny(tmp_path) -> tuple[Path, Path]:
    folder, home = tmp_path / "pkg", tmp_path / "home"
    folder.mkdir()
    home.mkdir()
    (folder / "tiny.py").write_text(TINY)
    return folder, home


def run(tiny, read_only: tuple[Path, ...] = ()) -> tuple[int, int, list[str]]:
    """(the kernel's value, its cache hits, the cache's notices) of one run."""
    folder, home = tiny
    args = [sys.executable, "-c", RUN]
    kw = dict(capture_output=True, text=True, timeout=120, env=env_for(folder, home), cwd=folder)
    proc = run_read_only(args, list(read_only), **kw) if read_only else subprocess.run(args, **kw)
    assert proc.returncode == 0, proc.stderr
    first, *notes = proc.stdout.splitlines()
    value, hits = map(int, first.split())
    return value, hits, [n for n in notes if n]


def cache_files(folder: Path, suffix: str) -> list[Path]:
    return sorted((folder / "__pycache__").glob(f"tiny.add_one-*{suffix}"))


def test_compiled_once_then_loaded(tiny):
    assert run(tiny) == (42, 0, [])
    assert cache_files(tiny[0], ".nbi") and cache_files(tiny[0], ".nbc")
    assert run(tiny) == (42, 1, [])


@pytest.mark.parametrize("suffix, keep", [(".nbi", 0), (".nbi", 7), (".nbc", 0), (".nbc", 25)])
def test_a_damaged_cache_file_is_compiled_again_and_replaced(tiny, suffix, keep):
    run(tiny)
    damaged = cache_files(tiny[0], suffix)[0]
    damaged.write_bytes(damaged.read_bytes()[:keep])
    value, hits, notes = run(tiny)
    assert (value, hits) == (42, 0)
    assert len(notes) == 1 and notes[0].startswith("a damaged kernel cache file (") and "was removed" in notes[0]
    assert run(tiny) == (42, 1, [])  # the cache holds good files again


def test_a_read_only_install_loads_its_warm_cache(tiny):
    folder, home = tiny
    run(tiny)
    assert run(tiny, read_only=(folder, home)) == (42, 1, [])


def test_a_read_only_install_with_no_cache_compiles_in_memory(tiny):
    folder, home = tiny
    value, hits, notes = run(tiny, read_only=(folder, home))
    assert (value, hits) == (42, 0)
    assert notes == ["no kernel cache folder can be written (a read-only install, no writable home): the kernels "
                     "compiled in this run are not kept; set NUMBA_CACHE_DIR to a writable folder to keep them"]
    assert not (folder / "__pycache__").exists() or not cache_files(folder, ".nbi")


def test_a_read_only_install_with_a_writable_home_caches_there(tiny):
    folder, home = tiny
    assert run(tiny, read_only=(folder,))[:2] == (42, 0)
    assert list((home / ".cache").rglob("tiny.add_one-*.nbi"))
    assert run(tiny, read_only=(folder,))[:2] == (42, 1)


def test_every_kernel_of_the_package_has_the_robust_cache():
    from numba.core.caching import NullCache
    from numba.core.dispatcher import Dispatcher

    from solver.kernels import jit

    kernels = []
    for package_name in ("solver.kernels", "solver.packing", "solver.endgame"):
        package = importlib.import_module(package_name)
        for info in pkgutil.iter_modules(package.__path__):
            module = importlib.import_module(f"{package_name}.{info.name}")
            kernels += [obj for obj in vars(module).values() if isinstance(obj, Dispatcher)]
    assert len(kernels) > 50
    assert all(isinstance(k._cache, (jit.KernelCache, NullCache)) for k in kernels)
    assert sum(isinstance(k._cache, jit.KernelCache) for k in kernels) > 50


def test_the_package_imports_from_a_read_only_folder(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    code = ("from solver.endgame import treekernel, treereach; "
            "from solver.packing import fillkernel, wastekernel, wastefast; from solver.kernels import bitops; print('ok')")
    proc = run_read_only([sys.executable, "-c", code], [ROOT / "solver", home], capture_output=True, text=True,
                         timeout=120, cwd=ROOT, env=env_for(tmp_path, home))
    assert (proc.returncode, proc.stdout) == (0, "ok\n"), proc.stderr


@pytest.mark.slow
def test_analyze_on_a_read_only_install(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    proc = blokus_read_only([ROOT / "solver", home], "analyze", str(ROOT / "puzzles" / "games" / "sample-2p.blksgf"),
                            "--move", "58", "--time-limit", "60", "--json", env=env_for(tmp_path, home), timeout=900)
    assert proc.returncode == 0, proc.stderr
    assert '"game_value_proven": true' in proc.stdout
