"""``--engine auto``: what it picks on every bundled puzzle and on files a
user writes, that the result says so, and that the pick solves a frontier
board a user wrote with no flags."""

from __future__ import annotations

import json

import pytest

from solver.engine_choice import choose_engine
from solver.formats.puzzle_file import load_puzzle, parse_puzzle
from solver.formats.solution_file import check_solution
from solver.solving import NAMED, solve
from tests.faults import blokus
from tests.util import ROOT

PUZZLES = ROOT / "puzzles"

# the bundled puzzles: those of 42 pieces or more (solo-84 and the frontier boards) go to the hybrid
BUNDLED = {
    "avoid-x-7x7": "search", "connect-8x8": "search", "duo-solo-21": "search", "fill-6x6-impossible": "search",
    "frontier-18x20": "hybrid", "frontier-19x19": "hybrid", "frontier-21x17": "hybrid",
    "frontier-2c-10x18": "hybrid", "frontier-2c-12x15": "hybrid", "frontier-2c-12x15-side": "hybrid",
    "frontier-2c-13x14": "hybrid",
    "solo-21": "search", "solo-84": "hybrid", "solo-84-monomino-last": "hybrid", "stars-8x8": "search",
    "tetromino-8x10": "search", "tetromino-8x10-distinct": "search", "trigon-solo-22": "search",
    "trigon-stars-hex3": "search",
}


def user_file(size: str, colors: tuple[str, ...] = ("blue", "yellow", "red", "green")) -> str:
    """A puzzle as a user writes it: a size, corner starts, whole sets, nothing else."""
    pieces = "\n".join(f'{c} = "all"' for c in colors)
    return (f'name = "mine"\n[board]\nsize = "{size}"\nstarts = "corners"\n[pieces]\n{pieces}\n'
            '[rules]\nconnect = "game"\n[goal]\ntype = "place-all"\n')


def test_every_bundled_puzzle_has_its_engine():
    assert sorted(BUNDLED) == sorted(p.stem for p in PUZZLES.glob("*.toml"))
    for name, engine in BUNDLED.items():
        chosen, reason = choose_engine(load_puzzle(PUZZLES / f"{name}.toml"))
        assert chosen == engine, (name, reason)


@pytest.mark.parametrize("size, colors, engine", [
    ("18x20", 4, "hybrid"), ("19x19", 4, "hybrid"), ("12x15", 2, "hybrid"), ("20x20", 4, "hybrid"),
    ("14x14", 1, "search"), ("20x20", 1, "search"),
])
def test_user_written_place_all_files(size, colors, engine):
    names = ("blue", "yellow", "red", "green")[:colors] if colors != 2 else ("blue", "red")
    puzzle = parse_puzzle(user_file(size, names), "mine.toml")
    chosen, reason = choose_engine(puzzle)
    assert chosen == engine, reason
    pieces = 21 * colors
    assert reason.startswith(f"{pieces} pieces to place" if engine == "hybrid" else f"a place-all puzzle of {pieces}")


def test_counts_maximize_and_engine_options():
    tetromino = load_puzzle(PUZZLES / "tetromino-8x10.toml")
    assert choose_engine(tetromino, count=True)[0] == "search"
    assert choose_engine(load_puzzle(PUZZLES / "trigon-stars-hex3.toml"), count=True)[0] == "cpsat"
    maximize = user_file("14x14", ("blue",)).replace('type = "place-all"', 'type = "maximize"\ntarget = "blue"')
    assert choose_engine(parse_puzzle(maximize))[0] == "search"
    frontier = load_puzzle(PUZZLES / "frontier-18x20.toml")
    assert choose_engine(frontier, cpsat_options=True)[0] == "cpsat"
    assert choose_engine(frontier, search_options=True)[0] == "search"
    assert choose_engine(tetromino, hint=True)[0] == "cpsat"
    assert choose_engine(tetromino, hybrid_options=True)[0] == "hybrid"


def test_the_result_says_which_engine_and_why():
    stars = load_puzzle(PUZZLES / "stars-8x8.toml")
    auto = solve(stars, time_limit=30)
    assert auto.engine == "search" and auto.engine_reason == choose_engine(stars)[1]
    assert solve(stars, "cpsat", time_limit=30).engine_reason == NAMED
    proc = blokus("solve", "puzzles/stars-8x8.toml", "--json")
    obj = json.loads(proc.stdout)
    assert (obj["engine"], obj["engine_reason"]) == ("search", choose_engine(stars)[1])
    text = blokus("solve", "puzzles/stars-8x8.toml").stdout
    assert f"Engine: search, chosen by auto: {choose_engine(stars)[1]}" in text
    assert "chosen by auto" not in blokus("solve", "puzzles/stars-8x8.toml", "--engine", "search").stdout


@pytest.mark.slow
def test_a_user_written_18x20_file_is_packed_with_no_flags(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(user_file("18x20"), encoding="utf-8")
    proc = blokus("solve", str(path), "--json", timeout=600)
    assert proc.returncode == 0, proc.stderr
    obj = json.loads(proc.stdout)
    assert (obj["status"], obj["engine"]) == ("OPTIMAL", "hybrid")
    answer = tmp_path / "answer.json"
    answer.write_text(proc.stdout, encoding="utf-8")
    checked = check_solution(load_puzzle(path), answer)  # the one verifier, once more, from the file
    assert checked.complete and checked.pieces == checked.total == 84
