"""The OR-Tools CP-SAT engine: one model of any puzzle, solved by CP-SAT.
It never imports the search engine; both return the same SolveResult.

- ``encoding.py``: the connectivity encodings (no OR-Tools: the command
  line reads them);
- ``variables.py``: what a built model holds (:class:`PuzzleModel`);
- ``model.py``: :func:`build`, the model of a puzzle's rules, with one
  boolean per candidate placement (see its docstring for the constraints);
- ``candidates.py``: which placements get a boolean (regions, and chains
  of placements from the root under the ``game`` rule);
- ``connectivity.py``: the ``game`` rule's connectivity, as levels in the
  model or as cuts added between solves;
- ``counting.py``: symmetry breaking while counting, and the images that
  expand each solution found back to all its symmetric copies;
- ``hints.py``: :func:`add_hint`, a complete solution as a hint;
- ``warmstart.py`` and ``playorder.py``: CP-SAT's own first solution (a
  packing search for one colour's place-all puzzles and endgames) and
  search order for one colour's endgames (and packings from shared starts);
- ``driver.py``: :func:`solve`, parameters, the solve loop and the result;
  :func:`supervised` (progress and Ctrl-C for any CP-SAT solve, the
  hybrid's LNS steps too).
"""

from importlib import import_module

from solver.cpsat.encoding import ENCODINGS, Encoding

# the rest loads OR-Tools: imported when first used, so that the command
# line can read the encodings without it
_LAZY = {"solve": "driver", "supervised": "driver", "add_hint": "hints", "build": "model",
         "CpsatError": "variables", "PuzzleModel": "variables"}

__all__ = ["ENCODINGS", "CpsatError", "Encoding", "PuzzleModel", "add_hint", "build", "solve", "supervised"]


def __getattr__(name: str):
    if name in _LAZY:
        return getattr(import_module(f"solver.cpsat.{_LAZY[name]}"), name)
    raise AttributeError(f"module 'solver.cpsat' has no attribute {name!r}")
