"""The rules core: boards and their geometry, the pieces, every placement of
every piece, the game variants, scoring, positions and moves, and a slow
reference move generator to check the fast one against. Standard library
and numpy only: no engine, no drawing."""
