"""Generated challenges: every one written has exactly one solution by both
engines' counts, read back from its files; its answer file verifies; the
same seed gives the same files (in this process and on a Dask cluster);
a candidate with a second solution is never written; bad options are
refused with their message."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from solver.cli import main
from solver.formats.puzzle_file import load_puzzle
from solver.formats.solution_file import read_solution
from solver.generate import batch, build, unique
from solver.generate.batch import GenerateError, GenerateOptions, generate_one
from solver.generate.unique import Dropped, make_unique
from solver.puzzle.verify import verify
from solver.solving import solve

KINDS = build.KINDS


def independent_count(path: str) -> tuple[int, int, list]:
    """Both engines' complete counts of the puzzle file, and the search engine's solutions."""
    puzzle = load_puzzle(path)
    counts, solutions = [], []
    for engine in ("search", "cpsat"):
        r = solve(puzzle, engine, count=True, time_limit=60)
        assert r.count_complete, (path, engine)
        counts.append(r.solution_count)
        if engine == "search":
            solutions = r.solutions
    return counts[0], counts[1], solutions


def written(tmp_path: Path, argv: list[str], capsys) -> dict:
    assert main(["generate", *argv, "--out-dir", str(tmp_path), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("kind", KINDS)
def test_every_challenge_written_has_one_solution_by_both_engines(kind, tmp_path, capsys):
    out = written(tmp_path, [kind, "--count", "4", "--seed", "3"], capsys)
    assert [p["name"] for p in out["puzzles"]] == [f"{kind}-8x8-s3-{i:03d}" for i in (1, 2, 3, 4)]
    for p in out["puzzles"]:
        search, cpsat, solutions = independent_count(p["puzzle"])
        assert (search, cpsat) == (1, 1), p["name"]
        puzzle = load_puzzle(p["puzzle"])
        answer, partial = read_solution(puzzle, p["solution_file"])
        assert not partial
        verify(puzzle, answer)
        assert sorted(answer) == sorted(solutions[0])
        assert 3 <= len(answer) <= 5 and sorted(p["pieces"]) == sorted(puzzle_pieces(puzzle))
        assert p["grade"]["band"] in ("easy", "medium", "hard")
        for key in ("card", "card_svg", "answer", "answer_svg"):
            assert Path(p[key]).stat().st_size > 1000


def puzzle_pieces(puzzle) -> list[str]:
    from solver.core.pieces import PIECES

    return [PIECES[i].name for i in puzzle.pieces[0]]


def test_the_check_above_fails_a_generator_without_its_uniqueness_step(monkeypatch):
    """Mutation check: with the uniqueness loop replaced by a pass-through,
    the generator writes candidates that the independent count finds more
    solutions in (so the test above would fail)."""
    monkeypatch.setattr(batch, "make_unique", lambda draft, rng, name: (draft, unique.Proof(1, 1, 0)))
    counts = []
    for i in range(1, 7):
        g = generate_one(GenerateOptions("avoid-x", seed=3), i)
        r = solve(g.puzzle, "search", count=True, time_limit=60)
        counts.append(r.solution_count)
    assert max(counts) > 1


def test_a_candidate_whose_other_solutions_cannot_be_ruled_out_is_dropped(monkeypatch):
    monkeypatch.setattr(unique, "rule_out", lambda draft, other, rng: False)
    rng = random.Random(1)
    dropped = made = 0
    for _ in range(12):
        draft = None
        while draft is None:
            draft = build.new_draft(build.Kind.AVOID_X, rng, 8, 8, 4)
        try:
            kept, proof = make_unique(draft, rng)
        except Dropped as e:
            assert "more than one solution" in str(e)
            dropped += 1
        else:
            made += 1
            assert solve(kept.puzzle(), "search", count=True).solution_count == 1
    assert dropped > 0


def test_cp_sat_must_count_one_too(monkeypatch):
    """A candidate the search engine counts once but CP-SAT does not is dropped."""
    real = unique.count
    monkeypatch.setattr(unique, "count", lambda p, engine, limit: (2, []) if engine == "cpsat" else real(p, engine, limit))
    with pytest.raises(GenerateError, match="CP-SAT counted 2, the search engine.s enumeration 1"):
        generate_one(GenerateOptions("stars", seed=1), 1)


def _as_squares(puzzle, solution) -> frozenset:
    """A solution as its pieces' squares (placement indices change when a square is blocked)."""
    return frozenset(frozenset(puzzle.table.squares[p]) for _, p in solution)


def test_rule_out_removes_the_other_solution_and_keeps_the_answer():
    rng = random.Random(5)
    changed = 0
    for _ in range(40):
        draft = None
        while draft is None:
            draft = build.new_draft(rng.choice(list(build.Kind)), rng, 8, 8, 3)
        before = draft.puzzle()
        found = solve(before, "search", count=True, time_limit=30).solutions
        others = [s for s in found if _as_squares(before, s) != _as_squares(before, draft.solution())]
        if not others or not build.rule_out(draft, others, rng):
            continue
        changed += 1
        after = draft.puzzle()
        left = {_as_squares(after, s) for s in solve(after, "search", count=True, time_limit=30).solutions}
        assert _as_squares(after, draft.solution()) in left
        assert _as_squares(before, others[0]) not in left
    assert changed >= 10


def test_the_same_seed_gives_the_same_files_here_and_on_a_cluster(tmp_path, capsys):
    here, there = tmp_path / "here", tmp_path / "there"
    written(here, ["connect", "--count", "3", "--seed", "9", "--booklet", str(tmp_path / "a.pdf")], capsys)
    written(there, ["connect", "--count", "3", "--seed", "9", "--workers", "2",
                    "--booklet", str(tmp_path / "b.pdf")], capsys)
    names = sorted(p.name for p in here.iterdir())
    assert names == sorted(p.name for p in there.iterdir()) and len(names) == 3 * 6
    for name in names:
        assert (here / name).read_bytes() == (there / name).read_bytes(), name
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()
    other = written(tmp_path / "other", ["connect", "--count", "1", "--seed", "10"], capsys)
    assert Path(other["puzzles"][0]["puzzle"]).read_bytes() != (here / "connect-8x8-s9-001.toml").read_bytes()


def test_the_booklet_has_every_card_then_every_answer(tmp_path, capsys):
    pdf = tmp_path / "cards.pdf"
    written(tmp_path, ["place-all", "--count", "3", "--booklet", str(pdf)], capsys)
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF") and data.count(b"/Type /Page\n") + data.count(b"/Type /Page ") + \
        data.count(b"/Type /Page>") == 6


def test_a_difficulty_band_is_kept(tmp_path, capsys):
    out = written(tmp_path, ["stars", "--difficulty", "hard", "--count", "2"], capsys)
    assert [p["grade"]["band"] for p in out["puzzles"]] == ["hard", "hard"]
    assert all(p["grade"]["score"] >= 10 for p in out["puzzles"])
    assert out["puzzles"][0]["name"] == "stars-8x8-hard-s0-001"
    assert "Difficulty: hard" in load_puzzle(out["puzzles"][0]["puzzle"]).description


def test_the_text_output_lists_each_challenge(tmp_path, capsys):
    assert main(["generate", "avoid-x", "--count", "2", "--out-dir", str(tmp_path)]) == 0
    out = capsys.readouterr()
    lines = out.out.splitlines()
    assert lines[0].startswith("avoid-x-8x8-s0-001 ") and lines[0].endswith("avoid-x-8x8-s0-001.toml")
    assert "2 challenges with exactly one solution (both engines counted 1)" in lines[2]
    assert "avoid-x-8x8-s0-002:" in out.err  # progress per challenge


def _fails(argv: list[str], capsys) -> str:
    try:
        code = main(argv)
    except SystemExit as e:
        code = e.code
    assert code == 2
    return capsys.readouterr().err.strip().splitlines()[-1]


@pytest.mark.parametrize("argv,message", [
    (["generate", "stars", "--size", "4"], "argument --size: must be a whole number from 5 to 12, not '4'"),
    (["generate", "stars", "--pieces", "5-3"], "argument --pieces: must be N or A-B with 1 <= A <= B <= 21, not '5-3'"),
    (["generate", "stars", "--pieces", "x"], "argument --pieces: must be N or A-B with 1 <= A <= B <= 21, not 'x'"),
    (["generate", "stars", "--obstacles", "40"], "argument --obstacles: must be N or A-B with 0 <= A <= B <= 30, "
                                                 "not '40'"),
    (["generate", "circles"], "argument KIND: invalid choice: 'circles' (choose from 'stars', 'avoid-x', 'connect', "
                              "'place-all')"),
    (["generate", "stars", "--difficulty", "fiendish"], "argument --difficulty: invalid choice: 'fiendish' (choose "
                                                        "from 'easy', 'medium', 'hard')"),
    (["generate", "stars", "--workers", "2", "--scheduler", "tcp://127.0.0.1:1"],
     "blokus: error: --workers starts a local cluster; --scheduler uses an existing one: give one of them"),
    (["generate", "connect", "--pieces", "20"], "blokus: error: pieces to place must be a range within 1 to 19, "
                                                "not 20-20"),
    (["generate", "stars", "--time-limit", "0"], "argument --time-limit: must be a positive number of seconds, "
                                                 "not '0'"),
])
def test_bad_options_are_refused(argv, message, capsys):
    assert _fails(argv, capsys).endswith(message)


def test_bad_output_paths_are_refused_before_any_work(tmp_path, capsys):
    target = tmp_path / "file"
    target.write_text("x")
    assert _fails(["generate", "stars", "--out-dir", str(target)], capsys) == \
        f"blokus: error: {target}: cannot write challenges there: it is not a folder"
    assert _fails(["generate", "stars", "--out-dir", str(tmp_path / "o"), "--booklet", str(tmp_path / "b.png")],
                  capsys) == f"blokus: error: {tmp_path / 'b.png'}: unknown image format '.png' (use .pdf)"
    assert not (tmp_path / "o").exists()


def test_the_collection_in_the_repository():
    """puzzles/generated/: 16 of each card kind, each with exactly one
    solution by both engines, its answer file verified, and its files."""
    from tests.util import ROOT

    folder = ROOT / "puzzles" / "generated"
    puzzles = sorted(folder.glob("*.toml"))
    kinds = [p.name.split("-8x8")[0] for p in puzzles]
    assert {k: kinds.count(k) for k in set(kinds)} == {"stars": 16, "avoid-x": 16, "connect": 16}
    for path in puzzles:
        search, cpsat, solutions = independent_count(str(path))
        assert (search, cpsat) == (1, 1), path.name
        puzzle = load_puzzle(path)
        answer, _ = read_solution(puzzle, path.with_name(path.stem + "-answer.json"))
        assert sorted(verify(puzzle, answer).order) == sorted(solutions[0])
        band = path.stem.split("-")[-3]
        assert f"Difficulty: {band} " in puzzle.description
        for suffix in (".png", ".svg", "-answer.png", "-answer.svg"):
            assert path.with_name(path.stem + suffix).is_file()


def test_a_stop_before_the_start_makes_nothing():
    import threading

    stop = threading.Event()
    stop.set()
    out = list(batch.generate(GenerateOptions("stars"), 3, stop=stop))
    assert [(i, g, e) for i, g, e in out] == [(1, None, "not started: stopped first"),
                                              (2, None, "not started: stopped first"),
                                              (3, None, "not started: stopped first")]


def test_a_challenge_not_found_in_time_is_reported_and_the_others_are_kept(monkeypatch, tmp_path, capsys):
    import time

    real = batch.make_unique

    def slow_for_the_second(draft, rng, name):
        if name.endswith("-002"):
            time.sleep(0.05)
            raise Dropped("a test's candidate")
        return real(draft, rng, name)

    monkeypatch.setattr(batch, "make_unique", slow_for_the_second)
    code = main(["generate", "stars", "--count", "3", "--time-limit", "0.2", "--out-dir", str(tmp_path), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 2
    assert [p["name"] for p in out["puzzles"]] == ["stars-8x8-s0-001", "stars-8x8-s0-003"]
    (failed,) = out["failed"]
    assert failed["name"] == "stars-8x8-s0-002"
    assert failed["error"].startswith("stars-8x8-s0-002: no challenge found in 0.2 s (")
    assert "a test's candidate" in failed["error"]
    assert sorted(p.name for p in tmp_path.iterdir() if "-002" in p.name) == []


def test_all_21_pieces_on_a_board_too_small_is_a_clean_error(tmp_path, capsys):
    assert _fails(["generate", "place-all", "--pieces", "21", "--size", "8", "--out-dir", str(tmp_path)], capsys) == \
        "blokus: error: 21 pieces cover at least 89 squares; the 8x8 board has 64"
    assert main(["generate", "place-all", "--pieces", "16", "--size", "8", "--out-dir", str(tmp_path)]) == 2
    assert "place-all-8x8-s0-001: not made: no challenge found in 400 candidates (400 the pieces did not fit)" \
        in capsys.readouterr().out.splitlines()
