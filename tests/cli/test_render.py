"""``polytile render``."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from polytile.formats import Position, load
from polytile.puzzles.blokus.rules import Blokus
from polytile.puzzles.blokus.sgf import read_blksgf
from polytile.render import to_text

from .helpers import EXAMPLES, Invoke, assert_clean_failure


def test_help(invoke: Invoke) -> None:
    result = invoke("render", "--help")
    assert result.exit_code == 0
    assert "Examples" in result.stdout and ".png" in result.stdout


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("pentomino-6x10.json", ()),
        ("colours-4x4.json", ()),
        ("board-8x8-centre.txt", ()),
        ("pentomino-6x10.json", ("--attach",)),  # nothing to mark but in Blokus
        ("blokus-opening.json", ("--no-attach",)),
    ],
)
def test_prints_the_plain_picture(
    invoke: Invoke, examples: Path, name: str, options: tuple[str, ...]
) -> None:
    result = invoke("render", str(examples / name), "--no-color", *options)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == to_text(load(examples / name), color=False)
    assert result.stderr == ""


def test_colour_on_request(invoke: Invoke, examples: Path) -> None:
    result = invoke("render", str(examples / "colours-4x4.json"), "--color")
    assert result.exit_code == 0
    assert "\x1b[" in result.stdout


def test_automatic_colour_is_off_when_not_a_terminal(invoke: Invoke, examples: Path) -> None:
    result = invoke("render", str(examples / "colours-4x4.json"))
    assert "\x1b[" not in result.stdout


def test_reads_standard_input(invoke: Invoke, examples: Path) -> None:
    text = (examples / "colours-4x4.json").read_text()
    result = invoke("render", "-", "--no-color", input=text)
    assert result.exit_code == 0
    assert result.stdout.startswith("B B B B\n")


@pytest.mark.parametrize("suffix", [".svg", ".png", ".txt"])
def test_writes_a_file_and_says_where(
    invoke: Invoke, examples: Path, tmp_path: Path, suffix: str
) -> None:
    out = tmp_path / f"pic{suffix}"
    result = invoke(
        "render",
        str(examples / "pentomino-6x10.json"),
        "-o",
        str(out),
        "--cell",
        "16",
        "--title",
        "6x10",
    )
    assert result.exit_code == 0, result.stderr
    assert out.stat().st_size > 0
    assert result.stdout == ""
    assert str(out) in result.stderr


def test_unknown_picture_suffix(invoke: Invoke, examples: Path, tmp_path: Path) -> None:
    result = invoke(
        "render", str(examples / "pentomino-6x10.json"), "-o", str(tmp_path / "pic.gif")
    )
    assert_clean_failure(result)
    assert ".svg, .png or .txt" in result.stderr


def test_bad_file_names_file_and_line(invoke: Invoke, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "polytile/solution@1",\n  "rows": ,\n}')
    result = invoke("render", str(bad))
    assert_clean_failure(result)
    assert f"{bad}: line 2" in result.stderr


def test_missing_file(invoke: Invoke, tmp_path: Path) -> None:
    assert_clean_failure(invoke("render", str(tmp_path / "nope.json")))


def test_bad_cell_size_is_a_usage_error(invoke: Invoke, examples: Path) -> None:
    assert_clean_failure(invoke("render", str(examples / "colours-4x4.json"), "--cell", "1"))


def test_game_records_render_at_a_move(invoke: Invoke, examples: Path) -> None:
    record = str(examples / "duo-game.blksgf")
    start = invoke("render", record, "--move", "0", "--no-color", "--no-attach")
    assert start.exit_code == 0 and set(start.stdout) <= {".", " ", "\n"}
    later = invoke("render", record, "--move", "2", "--no-color")
    assert later.exit_code == 0 and "B" in later.stdout and "y" in later.stdout  # move 2 lit
    assert_clean_failure(invoke("render", record, "--move", "99"))
    assert_clean_failure(invoke("render", str(examples / "pentomino-6x10.json"), "--move", "1"))


def _cells(board: list[str], chars: str) -> set[tuple[int, int]]:
    return {(r, c) for r, row in enumerate(board) for c, ch in enumerate(row) if ch in chars}


def _board_and_legend(stdout: str, size: int) -> tuple[list[str], list[str]]:
    """The picture's rows (one character per cell) and the lines under it."""
    lines = stdout.splitlines()
    rows = [line.replace(" ", "") for line in lines[:size]]
    assert all(len(line) == 2 * size - 1 for line in lines[:size])
    return rows, lines[size:]


def test_blokus_position_marks_the_attach_points_of_the_colour_to_move(
    invoke: Invoke, examples: Path
) -> None:
    position = load(examples / "blokus-opening.json")
    assert isinstance(position, Position)
    result = invoke("render", str(examples / "blokus-opening.json"), "--no-color")
    assert result.exit_code == 0, result.stderr
    rows, legend = _board_and_legend(result.stdout, 20)
    # blue's V5 covers (0, 0)-(2, 0) and (2, 1)-(2, 2): its free corners are (1, 3) and (3, 3)
    expected = set(Blokus.from_position(position).attach_points())
    assert expected == {(1, 3), (3, 3)}
    assert _cells(rows, "+") == expected
    assert [row.replace("+", ".") for row in rows] == list(position.board)
    assert legend == ["+ attach points of blue (to move)"]


def test_no_attach_leaves_the_marks_out(invoke: Invoke, examples: Path) -> None:
    result = invoke("render", str(examples / "blokus-opening.json"), "--no-color", "--no-attach")
    assert "+" not in result.stdout and "attach" not in result.stdout


def test_attach_marks_in_colour_and_from_standard_input(invoke: Invoke, examples: Path) -> None:
    text = (examples / "blokus-opening.json").read_text()
    result = invoke("render", "-", "--color", input=text)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.count("•") == 2 + 1  # two attach points and the legend
    assert result.stdout.endswith("• attach points of blue (to move)\n")


def test_an_invalid_blokus_position_still_draws_without_attach_points(
    invoke: Invoke, examples: Path, tmp_path: Path
) -> None:
    doc = json.loads((examples / "blokus-opening.json").read_text())
    doc["hands"]["blue"] = doc["hands"]["blue"][:3]  # more pieces on the board than left out
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    failed = invoke("render", str(bad), "--no-color")
    assert_clean_failure(failed)
    assert "hands.blue" in failed.stderr
    drawn = invoke("render", str(bad), "--no-color", "--no-attach")
    assert drawn.exit_code == 0 and drawn.stdout.startswith("B . . .")


@pytest.mark.parametrize("n", [1, 6, 10])
def test_game_record_highlights_the_move_played(invoke: Invoke, examples: Path, n: int) -> None:
    path = examples / "duo-game.blksgf"
    record = read_blksgf(path)
    move = record.moves[n - 1]
    game = record.position(n)
    result = invoke("render", str(path), "--move", str(n), "--no-color")
    assert result.exit_code == 0, result.stderr
    rows, legend = _board_and_legend(result.stdout, 14)
    letter = move.color[0]  # "b" or "y"
    assert _cells(rows, letter) == set(move.cells)
    assert _cells(rows, "by") == set(move.cells)  # nothing else is lower case
    assert _cells(rows, "+") == set(game.attach_points())
    board = [row.replace("+", ".").upper() for row in rows]
    assert board == list(game.to_position().board)
    assert legend == [
        f"+ attach points of {game.to_move} (to move); "
        f"highlighted: move {n}, {move.color} {move.piece}"
    ]


def test_game_record_move_6_exactly(invoke: Invoke, examples: Path) -> None:
    # W[f2,g2,g3,h3,g4]: rows count from the bottom of the 14x14 board
    result = invoke("render", str(examples / "duo-game.blksgf"), "--move", "6", "--no-color")
    rows, legend = _board_and_legend(result.stdout, 14)
    assert _cells(rows, "y") == {(12, 5), (12, 6), (11, 6), (11, 7), (10, 6)}
    assert legend[0].endswith("highlighted: move 6, yellow F5")


def test_game_record_without_move_highlights_nothing(invoke: Invoke, examples: Path) -> None:
    for extra in ((), ("--move", "0")):
        result = invoke("render", str(examples / "duo-game.blksgf"), "--no-color", *extra)
        assert result.exit_code == 0
        rows, legend = _board_and_legend(result.stdout, 14)
        assert not _cells(rows, "by") and "highlighted" not in legend[0]
    start = invoke("render", str(examples / "duo-game.blksgf"), "--move", "0", "--no-color")
    rows, _ = _board_and_legend(start.stdout, 14)
    assert _cells(rows, "+") == {(4, 4)}  # blue's start cell on the empty board


def test_game_record_picture_file_has_marks_and_highlight(
    invoke: Invoke, examples: Path, tmp_path: Path
) -> None:
    out = tmp_path / "move6.svg"
    result = invoke("render", str(examples / "duo-game.blksgf"), "--move", "6", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    root = ET.fromstring(out.read_bytes())
    svg = "{http://www.w3.org/2000/svg}"
    game = read_blksgf(examples / "duo-game.blksgf").position(6)
    dots = {
        tuple(int(v) for v in e.get("data-cell", "").split(","))
        for e in root.iter(f"{svg}circle")
        if e.get("class") == "mark"
    }
    assert dots == set(game.attach_points())
    assert [e.get("class") for e in root.iter(f"{svg}path")].count("highlight") == 1
    text = tmp_path / "move6.txt"
    invoke("render", str(examples / "duo-game.blksgf"), "--move", "6", "-o", str(text))
    rows = [line.replace(" ", "") for line in text.read_text().splitlines()]
    assert _cells(rows, "y") == {(12, 5), (12, 6), (11, 6), (11, 7), (10, 6)}
    assert len(rows) == 14  # no legend in the file


# -- hostile inputs (#17) ----------------------------------------------------------------------
HOSTILE = "\x1b[2J\x1b]0;owned\x07"


def _example_with(examples: Path, tmp_path: Path, change: Any) -> Path:
    doc = json.loads((examples / "pentomino-6x10.json").read_text())
    change(doc)
    path = tmp_path / "changed.json"
    path.write_text(json.dumps(doc))
    return path


@pytest.mark.parametrize(
    "cell", [[2, -5], [-1, 0], [6, 0], [0, 10], [10**30, 1], [1, -(10**30)]], ids=str
)
@pytest.mark.parametrize("suffix", ["", ".svg", ".png", ".txt"])
def test_cells_off_the_board_are_refused_as_validate_does(
    invoke: Invoke, examples: Path, tmp_path: Path, cell: list[int], suffix: str
) -> None:
    """#17 item 5: a picture cannot show a cell off the board, so render refuses it (exit 2)
    instead of drawing the solution without it; validate rejects the same file."""

    def move(doc: dict[str, Any]) -> None:
        doc["placements"][0]["cells"][0] = cell

    path = _example_with(examples, tmp_path, move)
    out = tmp_path / f"picture{suffix}"
    result = invoke("render", str(path), *(("-o", str(out)) if suffix else ()))
    assert_clean_failure(result)
    assert "placements[0].cells[0]" in result.stderr and "outside the 6x10 board" in result.stderr
    assert not out.exists()
    assert invoke("validate", str(path)).exit_code == 1


def test_overlapping_pieces_still_draw(invoke: Invoke, examples: Path, tmp_path: Path) -> None:
    """Only cells off the board are refused: an overlap draws, marked '*'."""

    def overlap(doc: dict[str, Any]) -> None:
        doc["placements"][0]["cells"][0] = doc["placements"][1]["cells"][0]

    result = invoke("render", str(_example_with(examples, tmp_path, overlap)), "--no-color")
    assert result.exit_code == 0 and "*" in result.stdout


@pytest.mark.parametrize("where", ["puzzle", "piece"])
def test_control_characters_in_names_never_reach_the_terminal_or_the_svg(
    invoke: Invoke, examples: Path, tmp_path: Path, where: str
) -> None:
    """#17 item 10: a name holding ESC[2J or a title-setting ESC]0;...BEL."""

    def poison(doc: dict[str, Any]) -> None:
        if where == "puzzle":
            doc["puzzle"] = "p" + HOSTILE
        else:
            doc["placements"][0]["piece"] = HOSTILE + "F5"

    path = _example_with(examples, tmp_path, poison)
    for args in ((), ("--color",), ("--no-color",)):
        result = invoke("render", str(path), *args)
        assert result.exit_code == 0, result.stderr
        text = result.stdout + result.stderr
        assert "\x1b[2J" not in text and "\x1b]" not in text and "\x07" not in text
    svg = tmp_path / "p.svg"
    title = "t" + HOSTILE
    result = invoke("render", str(path), "-o", str(svg), "--title", title)
    assert result.exit_code == 0, result.stderr
    root = ET.fromstring(svg.read_bytes())  # valid XML
    labels = [e.get("data-piece") or "" for e in root.iter("{http://www.w3.org/2000/svg}path")]
    assert all("\x1b" not in label and "\x07" not in label for label in labels)
    assert "\x1b" not in svg.read_text()


def test_a_cityblocks_max_layout_draws_the_centre_squares(invoke: Invoke, tmp_path: Path) -> None:
    """#48: render of a layout saved by 'solve cityblocks-max -o' left out the four centre
    squares every other City Blocks picture shows; a layout made --from a position draws
    that position's pieces too."""
    from polytile.formats import PlacedPiece, Solution, dumps, save
    from polytile.puzzles.cityblocks.rules import CENTRE_CELLS, CityBlocks

    layout = Solution("cityblocks-max", 20, 20,
                      (PlacedPiece("I2", ((0, 9), (0, 10)), "blue"),), "feasible",
                      extra={"color": "blue", "objective": "score"})  # fmt: skip
    path = tmp_path / "layout.json"
    save(layout, path)

    def drawn() -> list[list[str]]:
        result = invoke("render", str(path), "--no-color")
        assert result.exit_code == 0, result.stderr
        return [line.split() for line in result.stdout.splitlines()]

    rows = drawn()
    for name, (r, c) in CENTRE_CELLS.items():
        assert rows[r][c] == name[0].upper(), name
    assert rows[0][8:11] == [".", "B", "B"]
    svg = tmp_path / "layout.svg"
    assert invoke("render", str(path), "-o", str(svg)).exit_code == 0
    assert svg.read_text().count('data-piece="centre"') >= 4
    game = CityBlocks()
    first = next(m for m in game.legal_placements() if (0, 9) not in m.cells)
    game.push(first)  # blue's first piece, on the position the layout is made --from
    path.write_text(json.dumps(json.loads(path.read_text())
                               | {"start": json.loads(dumps(game.to_position()))}))  # fmt: skip
    rows = drawn()
    assert all(rows[r][c] == "B" for r, c in first.cells)


# -- puzzles to solve: the board, the given pieces and the tray (issue 47, item 3) --------------
#: The puzzle file of docs/formats.md and of the README's "Designing a puzzle".
PUZZLE = {
    "format": "polytile/puzzle@1",
    "name": "packing-0-3",
    "board": ["#....", ".....", "....."],
    "pieces": ["L5", "P5", {"name": "A", "shape": ["##", "#.", "#."], "count": 1}],
    "given": [{"piece": "L5", "cells": [[2, 0], [2, 1], [2, 2], [2, 3], [1, 0]]}],
}
PUZZLE_TEXT = """\
packing-0-3
# . . . .
l . . . .
l l l l .
lower case: given in place (L5)

Pieces to place:
P P     A A
P P     A
P       A
P5 x1   A x1

9 cells to fill, 5 covered by the given pieces
"""


def _puzzle(tmp_path: Path, doc: Any = None, name: str = "puzzle.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(PUZZLE if doc is None else doc))
    return str(path)


def test_a_puzzle_file_prints_its_board_given_pieces_and_tray(invoke: Invoke,
                                                             tmp_path: Path) -> None:  # fmt: skip
    result = invoke("render", _puzzle(tmp_path), "--no-color")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == PUZZLE_TEXT and result.stderr == ""


def test_the_readme_shows_what_render_prints_of_a_puzzle() -> None:
    readme = (EXAMPLES.parent / "README.md").read_text(encoding="utf-8")
    shown = readme.split("$ polytile render puzzle.json\n", 1)[1].split("```", 1)[0]
    assert shown == PUZZLE_TEXT
    doc = json.loads(readme.split("$ cat puzzle.json\n", 1)[1].split("$ ", 1)[0])
    assert doc == PUZZLE


def test_a_puzzle_in_colour_and_from_standard_input(invoke: Invoke) -> None:
    coloured = invoke("render", "-", "--color", input=json.dumps(PUZZLE))
    assert coloured.exit_code == 0, coloured.stderr
    assert "\x1b[" in coloured.stdout and "P5 x1" in coloured.stdout


@pytest.mark.parametrize("suffix", [".svg", ".png", ".txt"])
def test_a_puzzle_picture_is_written(invoke: Invoke, tmp_path: Path, suffix: str) -> None:
    out = tmp_path / f"puzzle{suffix}"
    result = invoke("render", _puzzle(tmp_path), "-o", str(out), "--cell", "20")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "" and str(out) in result.stderr
    if suffix == ".txt":
        assert out.read_text() == PUZZLE_TEXT
    elif suffix == ".svg":
        root = ET.fromstring(out.read_text())
        tray = {e.get("data-piece"): e.get("data-supply") for e in root.iter()
                if e.get("class") == "tray-piece"}  # fmt: skip
        assert tray == {"P5": "x1", "A": "x1"}
        hatched = [e.get("data-piece") for e in root.iter() if e.get("class") == "given-hatch"]
        assert hatched == ["L5"]
        assert [e.get("class") for e in root.iter() if e.get("class") == "blocked"] == ["blocked"]
    else:
        from PIL import Image

        with Image.open(out) as image:
            width, height = image.size
        # the 3x5 board (100 x 60 pixels) and its caption above a tray at least 14 cells wide
        assert 14 * 20 <= width <= 30 * 20 and 5 * 20 < height <= 20 * 20


@pytest.mark.parametrize("suffix", [".svg", ".png", ".txt"])
def test_several_puzzles_go_on_one_sheet(invoke: Invoke, tmp_path: Path, suffix: str) -> None:
    other = {"format": "polytile/puzzle@1", "name": "three", "board": ["..."], "pieces": ["I3"]}
    out = tmp_path / f"sheet{suffix}"
    files = (_puzzle(tmp_path), _puzzle(tmp_path, other, "three.json"), "pentomino-3x20")
    result = invoke("render", *files, "-o", str(out), "--cell", "12", "--title", "three puzzles")
    assert result.exit_code == 0, result.stderr
    if suffix == ".svg":
        root = ET.fromstring(out.read_text())
        boards = [e for e in root.iter() if e.get("class") == "puzzle-board"]
        assert len(boards) == 3 and "three puzzles" in out.read_text()
    elif suffix == ".png":
        from PIL import Image

        with Image.open(out) as image:
            assert image.size[0] > 3 * 14 * 12  # three columns, each at least a tray wide
    else:
        text = out.read_text()
        assert text.startswith(PUZZLE_TEXT + "\nthree\n") and "pentomino-3x20:" in text


def test_several_files_are_all_puzzles_or_refused(invoke: Invoke, examples: Path,
                                                  tmp_path: Path) -> None:  # fmt: skip
    result = invoke("render", _puzzle(tmp_path), str(examples / "pentomino-6x10.json"),
                    "-o", str(tmp_path / "sheet.svg"))  # fmt: skip
    assert_clean_failure(result)
    assert "pentomino-6x10.json is no tiling puzzle" in result.stderr
    assert not (tmp_path / "sheet.svg").exists()
    missing = invoke("render", _puzzle(tmp_path), str(tmp_path / "nope.json"),
                     "-o", str(tmp_path / "sheet.svg"))  # fmt: skip
    assert_clean_failure(missing)
    assert "nope.json: no such file, nor a puzzle of the catalogue" in missing.stderr
    assert not (tmp_path / "sheet.svg").exists()


def test_a_catalogue_name_draws_its_puzzle(invoke: Invoke) -> None:
    result = invoke("render", "pentomino-6x10", "--no-color")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("pentomino-6x10: the 12 pentominoes in a 6x10 rectangle\n")
    assert sum(f"{p}5 x1" in result.stdout for p in "FILNPTUVWXYZ") == 12


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"board": ["#..x.", ".....", "....."]}, "board[0]: board rows are strings"),
        ({"pieces": ["L5", "P5", "Q7"]}, "pieces[2]"),
        ({"given": [{"piece": "I5", "cells": [[1, 0]]}]}, "given[0]: given piece 'I5'"),
        ({"given": [{"piece": "L5", "cells": [[0, 0], [0, 1], [0, 2], [0, 3], [1, 0]]}]},
         "given[0]: cells [(0, 0)] are outside the board or blocked"),
        ({"pieces": ["L5"]}, "pieces: "),
    ],
)  # fmt: skip
def test_a_malformed_puzzle_file_is_refused_with_its_field(
    invoke: Invoke, tmp_path: Path, change: Any, said: str
) -> None:
    path = _puzzle(tmp_path, {**PUZZLE, **change})
    for args in ((), ("-o", str(tmp_path / "p.svg"))):
        result = invoke("render", path, *args)
        assert_clean_failure(result)
        assert f"{path}: {said}" in result.stderr
    assert not (tmp_path / "p.svg").exists()


def test_a_damaged_puzzle_file_names_its_line(invoke: Invoke, tmp_path: Path) -> None:
    path = tmp_path / "puzzle.json"
    path.write_text('{"format": "polytile/puzzle@1",\n "board": [".."],\n "pieces": [}\n')
    result = invoke("render", str(path))
    assert_clean_failure(result)
    assert f"{path}: line 3" in result.stderr


def test_move_and_best_are_refused_for_a_puzzle(invoke: Invoke, tmp_path: Path) -> None:
    assert_clean_failure(invoke("render", _puzzle(tmp_path), "--move", "1"))
    assert_clean_failure(invoke("render", _puzzle(tmp_path), "--best"))


def test_a_solution_of_a_puzzle_with_given_pieces_marks_them(invoke: Invoke,
                                                             tmp_path: Path) -> None:  # fmt: skip
    puzzle, saved, picture = _puzzle(tmp_path), tmp_path / "sol.json", tmp_path / "sol.svg"
    assert invoke("solve", puzzle, "-o", str(saved)).exit_code == 0
    assert invoke("solve", puzzle, "-o", str(picture)).exit_code == 0
    assert json.loads(saved.read_text())["given"] == [0]
    root = ET.fromstring(picture.read_text())
    assert [e.get("data-piece") for e in root.iter() if e.get("class") == "given-hatch"] == ["L5"]
    shown = invoke("render", str(saved), "--no-color")
    assert shown.stdout == "# P P A A\nl P P P A\nl l l l A\nlower case: given in place (L5)\n"
    assert invoke("validate", str(saved), "--puzzle", puzzle).exit_code == 0


def test_a_puzzle_name_says_what_draws_it(invoke: Invoke, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """#47's left gap: ``render four-square`` said "No such file or directory"; the name of
    a teaser or of a declared puzzle is named as one, with the command that draws an answer
    (a file of that name is still drawn as a file)."""
    monkeypatch.chdir(tmp_path)
    for name in ("four-square", "eighty-four", "gridblock-solo"):
        result = invoke("render", name)
        assert result.exit_code == 2, result.stderr
        assert f"{name} is a puzzle of 'polytile solve'" in result.stderr
        assert f"polytile solve {name}" in result.stderr and "Traceback" not in result.stderr
