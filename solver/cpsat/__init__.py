"""The OR-Tools CP-SAT engine: one model of any puzzle, solved by CP-SAT.
It never imports the search engine; both return the same SolveResult.

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

from solver.cpsat.driver import solve, supervised
from solver.cpsat.hints import add_hint
from solver.cpsat.model import ENCODINGS, build
from solver.cpsat.variables import CpsatError, PuzzleModel

__all__ = ["ENCODINGS", "CpsatError", "PuzzleModel", "add_hint", "build", "solve", "supervised"]
