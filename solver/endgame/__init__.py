"""The endgame engine: the game tree over real play (a Python tree and a
compiled one with its tables), the analysis of a position, the annotation of
a whole game and the batch of many games."""
