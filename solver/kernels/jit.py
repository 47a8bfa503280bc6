"""``njit`` for the compiled kernels, with a disk cache that never stops a
command (numba's own ``cache=True`` does, in three ways):

- a damaged cache file (a truncated or empty ``.nbi`` / ``.nbc``, say
  from a full disk or a killed compile) is a cache miss: the kernel is
  compiled again and the damaged file replaced, instead of an
  ``EOFError`` on every run until someone deletes the cache by hand;
- a read-only install still loads the kernels compiled into its
  ``__pycache__`` folders (numba looks there only when it may write);
- with no writable cache at all (a read-only install, no writable home)
  the kernels are compiled in memory for the run, instead of a
  ``RuntimeError`` when the module is imported.

Where the cache goes: ``NUMBA_CACHE_DIR`` when set, else the package's
``__pycache__`` folders when they can be written, else numba's folder in
the user's cache (``~/.cache/numba``), as numba chooses; a read-only
``__pycache__`` is read after that one.
"""

from __future__ import annotations

import os
import threading

from numba import njit as _numba_njit
from numba.core.caching import (
    Cache,
    CompileResultCacheImpl,
    IndexDataCacheFile,
    InTreeCacheLocator,
    UserProvidedCacheLocator,
    UserWideCacheLocator,
)
from numba.core.dispatcher import Dispatcher

from solver.kernels.compiles import tell as _tell

_NOTICES: set[str] = set()
_LOCK = threading.Lock()


def take_notices() -> list[str]:
    """What the caches had to work around since the last call (damaged
    files replaced, a cache that could not be written), once each."""
    with _LOCK:
        found = sorted(_NOTICES)
        _NOTICES.clear()
        return found


def _notice(text: str) -> None:
    with _LOCK:
        _NOTICES.add(text)


class _ReadOnlyInTree(InTreeCacheLocator):
    """The module's own ``__pycache__`` where it takes no new files: read
    only (numba's in-tree locator refuses a folder it cannot write)."""

    @classmethod
    def from_function(cls, py_func, py_file):
        self = cls(py_func, py_file)
        return self if os.path.isdir(self.get_cache_path()) else None

    def ensure_cache_path(self):
        raise OSError(f"{self.get_cache_path()} is read only")


class _Writable(CompileResultCacheImpl):
    _locator_classes = [UserProvidedCacheLocator, InTreeCacheLocator, UserWideCacheLocator]


class _ReadOnly(CompileResultCacheImpl):
    _locator_classes = [_ReadOnlyInTree]


def _impl(impl_class, py_func):
    try:
        return impl_class(py_func)
    except RuntimeError:  # numba: "no locator available"
        return None


class KernelCache(Cache):
    """A kernel's disk cache in layers: the writable one (loaded first,
    saved to), then a read-only ``__pycache__``; see the module docstring."""

    _impl_class = _Writable

    def __init__(self, py_func):  # numba's Cache.__init__ takes one locator; this takes up to two
        self._name = repr(py_func)
        self._py_func = py_func
        self._layers = []  # (impl, index file), in the order they are read
        writable = _impl(_Writable, py_func)
        for impl in (writable, _impl(_ReadOnly, py_func)):
            if impl is None:
                continue
            path = impl.locator.get_cache_path()
            if all(path != other.locator.get_cache_path() for other, _ in self._layers):
                self._layers.append((impl, IndexDataCacheFile(path, impl.filename_base,
                                                              impl.locator.get_source_stamp())))
        self._save_to = self._layers[0] if writable is not None and self._layers else None
        self._cache_path = self._layers[0][0].locator.get_cache_path() if self._layers else None
        self.enable()

    def load_overload(self, sig, target_context):
        if not self._enabled:
            _tell(self._py_func.__module__, True)
            return None
        target_context.refresh()
        key = self._index_key(sig, target_context.codegen())
        for impl, file in self._layers:
            try:
                data = file.load(key)
                if data is not None:
                    return impl.rebuild(target_context, data)
            except Exception as e:  # a damaged file is a miss: compile again and replace it
                self._damaged(file, key, e)
        _tell(self._py_func.__module__, True)
        return None

    def save_overload(self, sig, data):
        _tell(self._py_func.__module__, False)
        if not self._enabled:
            return
        if self._save_to is None:
            _notice("no kernel cache folder can be written (a read-only install, no writable home): the kernels "
                    "compiled in this run are not kept; set NUMBA_CACHE_DIR to a writable folder to keep them")
            return
        impl, file = self._save_to
        if not impl.check_cachable(data):
            return
        key = self._index_key(sig, data.codegen)
        payload = impl.reduce(data)
        for _ in range(2):
            try:
                impl.locator.ensure_cache_path()
                file.save(key, payload)
                return
            except OSError as e:
                _notice(f"the kernel cache cannot be written ({e}): the kernels compiled in this run are not kept")
                return
            except Exception as e:  # the index is damaged: remove it and save once more
                self._damaged(file, key, e)

    def _damaged(self, file, key, error: Exception) -> None:
        """Remove a damaged index and the data file it names (when the
        folder allows), so that the next compile writes good ones."""
        paths = [file._index_path]
        try:
            name = file._load_index().get(key)
            if name:
                paths.append(file._data_path(name))
        except Exception:
            pass
        removed = []
        for path in paths:
            try:
                os.remove(path)
                removed.append(os.path.basename(path))
            except OSError:
                pass
        what = f"removed {', '.join(removed)}" if removed else "left in place (read only)"
        _notice(f"a damaged kernel cache file ({type(error).__name__}) was {what}; the kernel was compiled again")


def ready(dispatcher) -> bool:
    """Whether a kernel starts without a compile: compiled in this process
    already, or in a cache layer for its current source."""
    if getattr(dispatcher, "overloads", None):
        return True
    cache = getattr(dispatcher, "_cache", None)
    if not isinstance(cache, KernelCache):
        return False
    for _, file in cache._layers:
        try:
            if file._load_index():  # (numba's index is empty when the source changed since)
                return True
        except Exception:  # a damaged index: a miss, replaced when the kernel compiles
            pass
    return False


def writable(dispatcher) -> bool:
    """Whether a kernel's compile is saved to a cache folder it can write."""
    cache = getattr(dispatcher, "_cache", None)
    return isinstance(cache, KernelCache) and cache._save_to is not None


def njit(*args, cache: bool = False, **options):
    """``numba.njit``; with ``cache=True`` the kernel gets a
    :class:`KernelCache` instead of numba's cache."""
    def wrap(func):
        disp = _numba_njit(**options)(func)
        if cache and isinstance(disp, Dispatcher):  # (NUMBA_DISABLE_JIT gives the function back)
            disp._cache = KernelCache(disp.py_func)
        return disp

    if args and callable(args[0]):
        return wrap(args[0])
    return wrap
