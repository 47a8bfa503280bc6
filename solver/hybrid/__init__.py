"""The hybrid engine for large place-all packings: the search engine first,
then CP-SAT large neighbourhood search on windows of the board; the
portfolio runs several seeds at once."""
