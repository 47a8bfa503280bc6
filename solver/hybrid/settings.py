"""The hybrid's tunables, one frozen set per run. The defaults are what the
frontier benchmarks chose (benchmarks/frontier.py and frontier_ideas.py;
the figures are in benchmarks/RESULTS.md). The fields under "off" are
measured ideas that did not win, kept switchable for the benchmark that
compares them."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Settings:
    # the search engine first: this share of the time limit (0.25 lost 19x19 packings the beam finds) ...
    search_share: float = 0.5
    # ... on quarter-turn puzzles (19x19: the symmetric LNS never completed one, the beam did) ...
    quarter_share: float = 0.9
    search_max: float = 120.0  # ... but at most this many seconds
    step_limit: float = 3.0  # seconds of CP-SAT per LNS step
    step_max: float = 3.0  # steps get longer while stuck (step_limit more per 2 * patience steps), up to this
    sizes: tuple[int, ...] = (6, 7, 8, 9, 10, 11, 12)  # window sides, grown while steps bring nothing
    patience: int = 6  # steps without a gain before the window grows
    holes: bool = True  # the empty squares outside the window are open to the sub-puzzle too
    one_color: float = 0.5  # share of the steps that free one colour's pieces in a window twice as wide
    sink: bool = True  # holes are drawn towards a sink square (moved at each gain)
    # the half-turn search phase: this share first for the two-colour halves, where the puzzle halves (18x20) ...
    halves: float = 0.8
    halves_share: float = 0.9  # ... and the phase's share of the limit then, with no search_max (only it packs 18x20)
    halves_lanes: int = 0  # ... searched on this many threads at once (0: one per core)
    half_turn_waste: float = 0.5  # share of the phase's time left for the compiled waste search (13x14: seconds)
    half_turn_restart: int = 6_000_000  # ... which starts again with the next seed's order every so many nodes
    # off: measured, not better
    clump: bool = False  # among equals, prefer packings whose empty squares touch (instead of the sink)
    hole_windows: float = 0.0  # share of the steps that free the pieces near a few holes close to one another
    restart: int = 0  # steps without a gain before the LNS starts again from nothing (0: never)
    beam_cap: int = 0  # the symmetric beams' widths stop growing here, new seeds at this width instead (0: no cap)
    # share of the steps that free the pieces next to holes all over the board (and under a target placement) ...
    scatter: float = 0.0
    scatter_free: float = 0.2  # ... at most this share of the pieces placed (holes dropped until it holds)


DEFAULT = Settings()
