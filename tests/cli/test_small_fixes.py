"""Four small defects a tester found: ``render --title`` for the games with pictures of their
own, ``render --best`` on a finished game (exit code and help agree), a Pentobi record under
another suffix, and ``score --move``."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from PIL import Image

from polytile.cli import cli
from polytile.puzzles.blokus.sgf import read_blksgf, write_blksgf
from polytile.puzzles.gridblock.files import load_gridblock
from polytile.puzzles.gridblock.picture import score_doc as gridblock_score
from polytile.puzzles.henning.files import load_henning
from polytile.puzzles.henning.picture import score_doc as henning_score
from polytile.puzzles.walkable.files import load_walkable
from polytile.puzzles.walkable.picture import score_doc as walkable_score

from .helpers import EXAMPLES, Invoke, assert_clean_failure

GAMES = ("henning", "gridblock", "walkable")
CAPTION = "Club night, table 3"


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A finished selfplay record of each game with a picture of its own."""
    folder = tmp_path_factory.mktemp("records")
    runner = CliRunner()
    out = {}
    for game in GAMES:
        path = folder / f"{game}.json"
        result = runner.invoke(cli, ["selfplay", game, "--seed", "3", "-o", str(path)],
                               catch_exceptions=False)  # fmt: skip
        assert result.exit_code == 0, result.stderr
        out[game] = path
    return out


# -- 1. --title in the pictures of City Blocks (Henning), Gridblock and Walkable Cities ------
@pytest.mark.parametrize("game", GAMES)
def test_render_title_captions_the_svg(invoke: Invoke, records: dict[str, Path],
                                       tmp_path: Path, game: str) -> None:  # fmt: skip
    out = tmp_path / "picture.svg"
    result = invoke("render", str(records[game]), "--title", CAPTION + " <&>", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    svg = out.read_text()
    assert f"<title>{CAPTION} &lt;&amp;&gt;</title>" in svg  # escaped, and the SVG's title
    assert svg.count(f"{CAPTION} &lt;&amp;&gt;") == 2  # and the caption drawn above


@pytest.mark.parametrize("game", GAMES)
def test_render_title_captions_the_png(invoke: Invoke, records: dict[str, Path],
                                       tmp_path: Path, game: str) -> None:  # fmt: skip
    plain, titled = tmp_path / "plain.png", tmp_path / "titled.png"
    assert invoke("render", str(records[game]), "-o", str(plain)).exit_code == 0
    result = invoke("render", str(records[game]), "--title", CAPTION, "-o", str(titled))
    assert result.exit_code == 0, result.stderr
    with Image.open(io.BytesIO(plain.read_bytes())) as a, \
            Image.open(io.BytesIO(titled.read_bytes())) as b:  # fmt: skip
        # The caption takes a band of its own above the picture: the picture grows by it.
        assert b.height > a.height and b.width >= a.width


def test_render_title_control_characters_and_size(invoke: Invoke, records: dict[str, Path],
                                                  tmp_path: Path) -> None:  # fmt: skip
    import xml.dom.minidom

    out = tmp_path / "city.svg"
    result = invoke("render", str(records["henning"]), "--title", "a\x1bb\x00c", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    xml.dom.minidom.parse(str(out))  # still well-formed XML: control characters dropped
    huge = invoke("render", str(records["walkable"]), "--title", "x" * 20_000, "-o",
                  str(tmp_path / "huge.png"))  # fmt: skip
    assert_clean_failure(huge, 2)
    assert "shorter title" in huge.stderr


# -- 2. render --best on a finished game: exit 2, and the help says so ----------------------
def finished_record(tmp_path: Path) -> Path:
    """The Duo endgame example played to its end (first legal move each turn)."""
    game = read_blksgf(EXAMPLES / "duo-endgame.blksgf").position()
    while not game.is_game_over():
        game.push(game.legal_moves()[0])
    path = tmp_path / "finished.blksgf"
    path.write_text(write_blksgf(game))
    return path


def test_render_best_on_a_finished_game_exits_2_as_help_says(invoke: Invoke,
                                                             tmp_path: Path) -> None:  # fmt: skip
    result = invoke("render", str(finished_record(tmp_path)), "--best")
    assert_clean_failure(result, 2)  # bad input, as solve-endgame refuses a finished game
    assert "the game is over" in result.stderr and "polytile score" in result.stderr
    words = " ".join(invoke("render", "--help").stdout.split())
    assert "exit 2 when there is no move to recommend (the game is over" in words
    assert "exit 1 when there is no answer" in words


# -- 3. a Pentobi record saved under another suffix ------------------------------------------
@pytest.mark.parametrize("name", ["game.sgf", "game.SGF", "game"])
def test_a_record_under_another_name_is_read_as_a_record(invoke: Invoke, tmp_path: Path,
                                                         name: str) -> None:  # fmt: skip
    original = EXAMPLES / "duo-game.blksgf"
    renamed = tmp_path / name
    shutil.copyfile(original, renamed)
    for args in (["score", "--json"], ["render", "--move", "6", "--no-color"],
                 ["validate", "--json"]):  # fmt: skip
        want = invoke(args[0], str(original), *args[1:])
        got = invoke(args[0], str(renamed), *args[1:])
        assert got.exit_code == want.exit_code == 0, got.stderr
        assert got.stdout.replace(str(renamed), "FILE") == want.stdout.replace(str(original),
                                                                               "FILE")  # fmt: skip
    # bounds' CP-SAT answers may vary with timing: that it reads the record is what counts
    result = invoke("bounds", str(renamed), "--move", "8", "--json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["game"] == "blokus"


def test_other_sgf_and_standard_input_are_refused_clearly(invoke: Invoke,
                                                         tmp_path: Path) -> None:  # fmt: skip
    go = tmp_path / "go.sgf"
    go.write_text("(;GM[1]FF[4]SZ[19];B[pd];W[dp])\n")
    for command in ("render", "score", "validate", "analyse"):
        result = invoke(command, str(go))
        assert_clean_failure(result, 2)
        assert "SGF game record" in result.stderr and "GM[Blokus" in result.stderr
        assert "is not a cell" not in result.stderr  # not read as a text board
    text = (EXAMPLES / "duo-game.blksgf").read_bytes()
    piped = invoke("render", "-", input=text)
    assert_clean_failure(piped, 2)
    assert "records are not read from standard input" in piped.stderr


# -- 4. score --move ---------------------------------------------------------------------------
def test_score_help_has_move_worded_as_solve_endgame(invoke: Invoke) -> None:
    def move_option(name: str) -> tuple[object, ...]:
        command = cli.get_command(click.Context(cli), name)
        assert command is not None
        (option,) = (p for p in command.params if p.name == "move")
        assert isinstance(option, click.Option)
        return option.help, option.metavar, repr(option.type), option.default

    assert move_option("score") == move_option("solve-endgame")
    words = " ".join(invoke("score", "--help").stdout.split())
    assert "--move N For a game record: the position after move N" in words
    assert "polytile score duo.blksgf --move 20" in invoke("score", "--help").stdout


def test_score_move_scores_a_blokus_record_after_n_moves(invoke: Invoke) -> None:
    path = EXAMPLES / "duo-game.blksgf"
    record = read_blksgf(path)
    for n in (0, 5, len(record.moves)):
        result = invoke("score", str(path), "--move", str(n), "--json")
        assert result.exit_code == 0, result.stderr
        doc = json.loads(result.stdout)
        want = record.position(n).score().as_dict()
        assert doc["colors"] == want["colors"] and doc["players"] == want["players"]
    end = json.loads(invoke("score", str(path), "--json").stdout)
    assert end == json.loads(invoke("score", str(path), "--move", str(len(record.moves)),
                                    "--json").stdout)  # fmt: skip
    too_far = invoke("score", str(path), "--move", str(len(record.moves) + 1))
    assert_clean_failure(too_far, 2)
    assert "--move must be 0 to" in too_far.stderr


@pytest.mark.parametrize("game", GAMES)
def test_score_move_scores_each_game_record_after_n_moves(
    invoke: Invoke, records: dict[str, Path], tmp_path: Path, game: str
) -> None:
    path, n = records[game], 3
    load, score_doc = {"henning": (load_henning, henning_score),
                       "gridblock": (load_gridblock, gridblock_score),
                       "walkable": (load_walkable, walkable_score)}[game]  # fmt: skip
    doc = load(path, n)
    state = doc.shown_state() if game == "gridblock" else doc.state
    result = invoke("score", str(path), "--move", str(n), "--json")
    assert result.exit_code == 0, result.stderr
    got = json.loads(result.stdout)
    assert got == json.loads(json.dumps(score_doc(state)))
    assert got != json.loads(invoke("score", str(path), "--json").stdout)  # not the end
    # -o draws the same position as 'render --move N'.
    scored, rendered = tmp_path / "scored.svg", tmp_path / "rendered.svg"
    assert invoke("score", str(path), "--move", str(n), "-o", str(scored)).exit_code == 0
    assert invoke("render", str(path), "--move", str(n), "-o", str(rendered)).exit_code == 0
    assert scored.read_text() == rendered.read_text()
    assert_clean_failure(invoke("score", str(path), "--move", "9999"), 2)


def test_score_move_is_refused_for_a_file_that_is_not_a_record(invoke: Invoke) -> None:
    result = invoke("score", str(EXAMPLES / "blokus-opening.json"), "--move", "1")
    assert_clean_failure(result, 2)
    assert "--move applies to game records" in result.stderr


@pytest.mark.parametrize("game", ["henning", "gridblock", "walkable", "blokus"])
def test_a_file_name_with_control_characters_is_escaped_when_said(invoke: Invoke, tmp_path: Path,
                                                                  game: str) -> None:  # fmt: skip
    """'wrote NAME' once printed a name's escape sequences raw to the terminal (issue 36,
    item 7); the file itself keeps its name."""
    path = tmp_path / "red\x1b[31m.json"
    made = invoke("new", game, "-o", str(path))
    assert made.exit_code == 0, made.stderr
    assert path.exists() and "\x1b" not in made.stderr and "red\\x1b[31m.json" in made.stderr


def test_a_long_value_is_quoted_briefly_in_an_error(invoke: Invoke, tmp_path: Path) -> None:
    """A 10,000-piece --sequence was echoed whole (30 kB); every error line is cut to a
    readable length, saying how much was left out (issue 36, item 6)."""
    long_list = ",".join(["I4"] * 10_000)
    result = invoke("solve", "walkable-path", "--sequence", long_list)
    assert_clean_failure(result)
    assert len(result.stderr) < 1000 and "characters left out" in result.stderr
    short = invoke("solve", "walkable-path", "--sequence", ",".join(["I4"] * 30))
    assert "left out" not in short.stderr and "got '" + ",".join(["I4"] * 30) in short.stderr


@pytest.mark.parametrize("args", [
    ("solve-endgame", "{record}", "--move", "20"),  # Blokus's own endgame writer
    ("analyse", "{record}", "--exact-only", "--time-limit", "3"),  # written when cut short
    ("render", str(EXAMPLES / "pentomino-6x10.json")),  # a solution: no game's face
])  # fmt: skip
def test_every_writer_escapes_the_name_it_says(invoke: Invoke, tmp_path: Path,
                                               args: tuple[str, ...]) -> None:  # fmt: skip
    """The writers that said 'wrote NAME' with the name raw (Blokus's solve-endgame and
    analyse, render of a solution) escape it as the others do."""
    record = tmp_path / "game.blksgf"
    made = invoke("selfplay", "blokus", "--seed", "3", "--variant", "duo", "-o", str(record))
    assert made.exit_code == 0, made.stderr
    suffix = ".blksgf" if args[0] == "analyse" else ".svg"
    path = tmp_path / f"out\x1b[31m{suffix}"
    result = invoke(*(a.format(record=record) for a in args), "-o", str(path))
    assert result.exit_code in (0, 1), result.stderr  # 1: an analysis cut short is still saved
    assert path.exists() and "\x1b" not in result.stderr
    assert f"wrote {tmp_path}/out\\x1b[31m{suffix}" in result.stderr


def test_a_json_null_is_named_as_json_names_it(invoke: Invoke, tmp_path: Path) -> None:
    """A file's "game": null was said as Python's None."""
    import json

    path = tmp_path / "g.json"
    assert invoke("new", "gridblock", "-o", str(path)).exit_code == 0
    doc = json.loads(path.read_text())
    doc["game"] = None
    path.write_text(json.dumps(doc))
    result = invoke("validate", str(path))
    assert_clean_failure(result, 2)
    assert "must be 'gridblock', got null" in result.stderr


def test_an_empty_size_names_its_option(invoke: Invoke, tmp_path: Path) -> None:
    result = invoke("generate", "henning", "-n", "1", "--size", "", "--db", str(tmp_path / "s.db"))
    assert_clean_failure(result, 2)
    assert "Invalid value for '--size': '' is not N or MIN-MAX" in result.stderr
    assert not (tmp_path / "s.db").exists()
