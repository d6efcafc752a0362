"""Messages about what kind of file was given (issue #16): an unknown format names every
format polytile reads, a known one given to the wrong reader is named, ``analyse`` says which
records it reads and what it got, and ``play`` / ``selfplay`` say which games they play."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from polytile.formats import READ_FORMATS

from .helpers import Invoke, assert_clean_failure

PACKAGE = Path(__file__).resolve().parents[2] / "polytile"


def test_every_format_in_the_source_is_listed() -> None:
    written = set()
    for path in PACKAGE.rglob("*.py"):
        written |= set(re.findall(r"polytile/[a-z-]+@\d+", path.read_text(encoding="utf-8")))
    assert written <= set(READ_FORMATS), sorted(written - set(READ_FORMATS))


@pytest.mark.parametrize("command", ["render", "score", "validate", "solve-endgame"])
def test_unknown_format_lists_every_format(invoke: Invoke, tmp_path: Path, command: str) -> None:
    path = tmp_path / "odd.json"
    path.write_text('{"format": "polytile/odd@1"}')
    r = invoke(command, str(path))
    assert_clean_failure(r)
    assert "unknown format 'polytile/odd@1'" in r.stderr
    for name in READ_FORMATS:
        assert name in r.stderr


@pytest.mark.parametrize("command", ["count", "solve", "validate", "render"])
@pytest.mark.parametrize("text", ["", "\n", "  \n\n"])
def test_an_empty_file_is_called_empty(invoke: Invoke, tmp_path: Path, command: str,
                                       text: str) -> None:  # fmt: skip
    path = tmp_path / "empty.json"
    path.write_text(text)
    r = invoke(command, str(path))
    assert_clean_failure(r)
    assert f"{path}: line 1: the file is empty" in r.stderr and "JSON" not in r.stderr


@pytest.mark.parametrize(("command", "tag", "said"), [
    ("score", "polytile/puzzle@1", "is a tiling puzzle"),  # render draws a tiling puzzle
    ("render", "polytile/teaser@1", "is a Blokus teaser"),
])  # fmt: skip
def test_a_known_format_given_where_it_is_not_read_is_named(
    invoke: Invoke, tmp_path: Path, command: str, tag: str, said: str
) -> None:
    path = tmp_path / "puzzle.json"
    path.write_text(json.dumps({"format": tag}))
    r = invoke(command, str(path))
    assert_clean_failure(r)
    assert f"'{tag}' {said}" in r.stderr and "unknown" not in r.stderr


# Walkable Cities, City Blocks (Henning) and Gridblock records are analysed since the faces
# (issue 35): tests/cli/test_analyse_games.py; a record of no moves has none to analyse.
@pytest.mark.parametrize(("game", "words"), [
    ("cityblocks", "a position: it has no moves to analyse"),
])  # fmt: skip
def test_analyse_says_which_records_it_reads(invoke: Invoke, tmp_path: Path, game: str,
                                             words: str) -> None:  # fmt: skip
    path = tmp_path / f"{game}.json"
    assert invoke("new", game, "-o", str(path)).exit_code == 0
    for r in (invoke("analyse", str(path)), invoke("analyse", "-", input=path.read_bytes())):
        assert_clean_failure(r)
        assert f"this is {words}" in r.stderr
        assert "; analyse reads City Blocks (Henning), " in r.stderr
        assert "and Blokus records (Pentobi .blksgf)" in r.stderr


def test_analyse_of_a_json_of_no_game_names_what_it_reads(invoke: Invoke,
                                                           tmp_path: Path) -> None:  # fmt: skip
    """#48: a .json that is no game's record was said to need "a Blokus game record"; it is
    said to be no game record polytile knows, with the formats analyse reads."""
    path = tmp_path / "notes.json"
    path.write_text('{"a": 1}')
    r = invoke("analyse", str(path))
    assert_clean_failure(r)
    assert "Blokus game record" not in r.stderr
    said = (f"{path}: not a game record polytile knows; analyse reads City Blocks "
            "(Henning), Gridblock and Walkable Cities records (polytile JSON) and Blokus "
            "records (Pentobi .blksgf)")  # fmt: skip
    assert said in " ".join(r.stderr.split())


@pytest.mark.parametrize("game", ["walkable", "henning", "gridblock"])
def test_analyse_of_a_record_with_no_move_says_so(invoke: Invoke, tmp_path: Path,
                                                  game: str) -> None:  # fmt: skip
    path = tmp_path / f"{game}.json"
    assert invoke("new", game, "-o", str(path)).exit_code == 0
    r = invoke("analyse", str(path))
    assert r.exit_code == 0 and "no move analysed" in r.stdout


@pytest.mark.parametrize("command", ["play", "selfplay"])
def test_play_and_selfplay_name_every_game_first(invoke: Invoke, command: str) -> None:
    out = invoke(command, "--help").stdout
    first = " ".join(out.split("\n\n")[1].split())  # the first paragraph, unwrapped
    assert all(g in first for g in ("City Blocks (Henning)", "Gridblock", "Walkable Cities"))
