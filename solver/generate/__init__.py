"""``blokus generate``: new one-player challenges with exactly one solution.

- :mod:`solver.generate.build`: a candidate grown from its answer, its clues, and the changes that rule out another solution;
- :mod:`solver.generate.unique`: the candidate changed until both engines count one solution, or dropped;
- :mod:`solver.generate.grade`: how hard a person finds it, from the dead ends of a plain search;
- :mod:`solver.generate.batch`: one challenge per seed and index, many over Dask, written as files.
"""
