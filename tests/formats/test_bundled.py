"""The bundled puzzles and sample games: named instead of a path by every
command, listed by ``blokus puzzles``, and shipped by an install (a copy of
the package installed away from the clone finds them)."""

from __future__ import annotations

import json
import subprocess
import sys

from solver.cli import main
from solver.formats import bundled
from tests.util import ROOT


def test_commands_take_a_bundled_name_from_any_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["solve", "solo-21", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "OPTIMAL"
    assert main(["show", "sample-duo.blksgf", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["variant"] == "Blokus Duo"
    assert main(["render", "stars-8x8", "-o", str(tmp_path / "s.png")]) == 0
    assert (tmp_path / "s.png").exists()


def test_a_file_of_that_name_comes_first(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "solo-21").write_text('[board]\nsize = "3x3"\n[pieces]\nblue = "I3"\n')
    assert main(["solve", "solo-21", "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert len(obj["placements"]) == 1  # the 3x3 one, not the bundled solo-21


def test_an_unknown_name_says_where_names_are_listed(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["solve", "solo-22"]) == 2
    assert capsys.readouterr().err == ("blokus: error: solo-22: cannot read: no such file, nor a bundled puzzle or "
                                       "game of that name ('blokus puzzles' lists them)\n")


def test_puzzles_lists_every_file_of_the_puzzles_folder(capsys):
    assert main(["puzzles", "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert sorted(p["name"] for p in obj["puzzles"]) == sorted(p.stem for p in (ROOT / "puzzles").glob("*.toml"))
    assert sorted(g["name"] for g in obj["games"]) == sorted(p.stem for p in (ROOT / "puzzles" / "games").glob("*.blksgf"))
    assert all(p["description"] for p in obj["puzzles"])


def test_an_install_ships_them(tmp_path):
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--quiet",
                    "--target", str(target), str(ROOT)], check=True, capture_output=True, timeout=600)
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import solver; from solver.cli import main; "
            "assert solver.__file__.startswith(sys.argv[1]), solver.__file__; "
            "sys.exit(main(['solve', 'solo-21', '--json']))")
    away = tmp_path / "elsewhere"
    away.mkdir()
    proc = subprocess.run([sys.executable, "-c", code, str(target)], capture_output=True, text=True, cwd=away,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["status"] == "OPTIMAL"
    installed = sorted(p.name for p in (target / "solver" / "bundled_puzzles").glob("*.toml"))
    assert installed == [p.name for p in bundled.puzzle_files()]
