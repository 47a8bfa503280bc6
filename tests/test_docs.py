"""The command examples of README.md and docs/*.md, run as written.

Every fenced code block marked ``sh``, ``bash`` or ``console`` is read;
each line that is a ``blokus ...`` command (or a ``... && blokus ...``
chain, of which only the ``blokus`` part runs; a ``$ `` prompt is
dropped, a trailing ``\\`` joins lines) and names a bundled file, that is
a path under ``puzzles/`` that exists or a name that ``blokus puzzles``
lists, is one test. It runs as ``python -m solver ...`` from the
repository root, with every output redirected into the test's tmp_path:
the targets of ``-o``/``--output``, ``--out-dir``, ``--render``,
``--plot`` and ``> FILE``, and ``render``'s default ``output/`` file (an
``-o`` is added). The test asserts exit code 0, or the code the line's
comment gives as ``exit N`` (e.g. ``# proven impossible (exit 3)``).

Speed: an unmarked block must run in a few seconds per command (the whole
fast part in about a minute on a two-core machine). A block preceded by
``<!-- doc-test: slow -->`` holds examples of ten seconds to a minute or so:
they are marked ``@pytest.mark.slow`` and run in the slow lane (``python -m
pytest -m slow``). A block preceded by ``<!-- doc-test: skip -->`` holds
examples of minutes or hours, or ones that need files or machines the
repository does not have: they are collected and skipped. Lines naming no
bundled file (``blokus annotate games/ ...``) are not collected at all.

Two more checks keep the pages honest: every relative link of README.md and
docs/*.md points to a file that exists, and the README's test command is
the one ``.ci/run`` runs.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SHELLS = {"sh", "bash", "console", "shell"}
MARKER = re.compile(r"<!--\s*doc-test:\s*(slow|skip)\s*-->")
FENCE = re.compile(r"^\s*(```+|~~~+)\s*([\w-]*)")
EXIT = re.compile(r"#.*\bexit (?:code )?(\d+)")
OUTPUT_OPTIONS = {"-o", "--output", "--out-dir", "--render", "--plot"}
FAST_TIMEOUT, SLOW_TIMEOUT = 120, 900


@dataclass(frozen=True)
class Example:
    page: str
    line: int
    text: str  # the blokus command as written (comment dropped)
    args: tuple[str, ...]  # after "blokus"
    exit_code: int
    kind: str  # "fast", "slow" or "skip"


def _bundled_names() -> set[str]:
    out = subprocess.run([sys.executable, "-m", "solver", "puzzles", "--json"], cwd=ROOT,
                         capture_output=True, text=True, timeout=120, check=False)
    if out.returncode != 0:
        return set()
    listing = json.loads(out.stdout)
    return {item["name"] for key in ("puzzles", "games") for item in listing.get(key, [])}


def _shell_blocks(path: Path):
    """(first line number, kind, lines) of each shell block of a page."""
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, info = m.group(1), m.group(2).lower()
        before = next((ln for ln in reversed(lines[:i]) if ln.strip()), "")
        marker = MARKER.search(before)
        kind = marker.group(1) if marker else "fast"
        body, start = [], i + 2
        i += 1
        while i < len(lines) and not lines[i].strip().startswith(fence[:3]):
            body.append(lines[i])
            i += 1
        i += 1
        if info in SHELLS:
            yield start, kind, body


def _commands(body: list[str], start: int):
    """(line number, text) of each logical line, continuations joined."""
    pending, first = "", start
    for n, raw in enumerate(body, start):
        line = raw.strip()
        if not pending:
            first = n
        line = line.removeprefix("$ ")
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        yield first, pending + line
        pending = ""


def _names_bundled(args: list[str], names: set[str]) -> bool:
    for arg in args:
        if arg.startswith("puzzles/") and (ROOT / arg).exists():
            return True
        if arg in names:
            return True
    return False


def collect() -> list[Example]:
    names = _bundled_names()
    found = []
    for page in PAGES:
        for start, kind, body in _shell_blocks(page):
            for line_no, line in _commands(body, start):
                try:
                    tokens = shlex.split(line, comments=True)
                except ValueError:
                    continue
                code = EXIT.search(line)
                segments, current = [], []
                for token in tokens:
                    if token in ("&&", ";"):
                        segments.append(current)
                        current = []
                    else:
                        current.append(token)
                segments.append(current)
                for seg in segments:
                    if not seg or seg[0] != "blokus" or "|" in seg or not _names_bundled(seg[1:], names):
                        continue
                    found.append(Example(str(page.relative_to(ROOT)), line_no, shlex.join(seg), tuple(seg[1:]),
                                         int(code.group(1)) if code else 0, kind))
    return found


def _into(tmp: Path, target: str) -> str:
    return str(tmp / Path(target).name)


def rewrite(args: tuple[str, ...], tmp: Path) -> tuple[list[str], Path | None]:
    """The arguments with every output moved into ``tmp``, and the file
    stdout goes to (``> FILE``), if any."""
    out, stdout_file, i = [], None, 0
    has_output = False
    while i < len(args):
        arg = args[i]
        if arg in OUTPUT_OPTIONS and i + 1 < len(args):
            out += [arg, _into(tmp, args[i + 1])]
            has_output |= arg in ("-o", "--output")
            i += 2
            continue
        option, eq, value = arg.partition("=")
        if eq and option in OUTPUT_OPTIONS:
            out.append(f"{option}={_into(tmp, value)}")
            has_output |= option in ("-o", "--output")
        elif arg == ">" and i + 1 < len(args):
            stdout_file = tmp / Path(args[i + 1]).name
            i += 1
        elif arg.startswith(">") and len(arg) > 1:
            stdout_file = tmp / Path(arg[1:]).name
        else:
            out.append(arg)
        i += 1
    if out and out[0] == "render" and not has_output:
        source = next(a for a in out[1:] if not a.startswith("-"))
        suffix = ".gif" if "--animate" in out else ".png"
        out += ["-o", str(tmp / (Path(source).stem + suffix))]
    return out, stdout_file


EXAMPLES = collect()


def _param(ex: Example):
    marks = ()
    if ex.kind == "slow":
        marks = (pytest.mark.slow,)
    elif ex.kind == "skip":
        marks = (pytest.mark.skip(reason="a long example (doc-test: skip)"),)
    return pytest.param(ex, id=f"{ex.page}:{ex.line}: {ex.text}", marks=marks)


def test_examples_found():
    """The pages hold examples, and the quick start is one of them."""
    assert len(EXAMPLES) >= 20
    assert any(ex.page == "README.md" and ex.text == "blokus solve puzzles/solo-21.toml" for ex in EXAMPLES)


@pytest.mark.parametrize("example", [_param(ex) for ex in EXAMPLES])
def test_example_runs(example: Example, tmp_path: Path):
    args, stdout_file = rewrite(example.args, tmp_path)
    timeout = SLOW_TIMEOUT if example.kind == "slow" else FAST_TIMEOUT
    done = subprocess.run([sys.executable, "-m", "solver", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout, check=False)
    if stdout_file is not None:
        stdout_file.write_text(done.stdout, encoding="utf-8")
    assert done.returncode == example.exit_code, (
        f"{example.page}:{example.line}: {example.text}\nexit {done.returncode}, expected {example.exit_code}\n"
        f"stderr:\n{done.stderr[-3000:]}"
    )


LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def _relative_links():
    for page in PAGES:
        in_code = False
        for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            if FENCE.match(line):
                in_code = not in_code
                continue
            if in_code:
                continue
            for target in LINK.findall(re.sub(r"`[^`]*`", "", line)):
                if re.match(r"[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
                    continue
                yield page, n, target


@pytest.mark.parametrize("page, line, target",
                         [pytest.param(p, n, t, id=f"{p.relative_to(ROOT)}:{n}: {t}") for p, n, t in _relative_links()])
def test_relative_link_exists(page: Path, line: int, target: str):
    path = (page.parent / target.split("#", 1)[0]).resolve()
    assert path.exists(), f"{page.relative_to(ROOT)}:{line}: {target} does not exist"


def test_readme_test_command_is_the_ci_one():
    """.ci/run runs the README's test command verbatim."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    quick_start = re.search(r"## Quick start\n\n```sh\n(.*?)```", readme, re.S).group(1).splitlines()
    assert len(quick_start) == 2  # install and solve; install and test
    test_command = quick_start[1]
    assert "pytest" in test_command and "'.[test]'" in test_command
    assert test_command in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
