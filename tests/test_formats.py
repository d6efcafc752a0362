"""Tests of polytile.formats: round trips, strict reading with located errors, atomic saves."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polytile import formats
from polytile.board import MAX_SIDE
from polytile.errors import FormatError
from polytile.formats import (
    COLORS,
    GAMES,
    STATUSES,
    PlacedPiece,
    Position,
    Solution,
    dumps,
    load,
    load_position,
    load_solution,
    loads,
    save,
)
from polytile.geometry import Polyomino, piece_set

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

# -- strategies --------------------------------------------------------------------------------
names = st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=6).filter(str.strip)
json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(10**40), 10**40)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(st.characters(exclude_categories=("Cs",)), max_size=8)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.text(st.characters(exclude_categories=("Cs",)), max_size=5), inner, max_size=3
        )
    ),
    max_leaves=8,
)


def extras(reserved: tuple[str, ...]) -> st.SearchStrategy[dict[str, Any]]:
    keys = st.text(st.characters(exclude_categories=("Cs",)), max_size=8).filter(
        lambda k: k not in reserved
    )
    return st.dictionaries(keys, json_values, max_size=3)


cells = st.tuples(st.integers(-3, 250), st.integers(-3, 250))
placed = st.builds(
    PlacedPiece,
    piece=names,
    cells=st.lists(cells, min_size=1, max_size=6).map(tuple),
    color=st.none() | st.sampled_from(list(COLORS)),
)


@st.composite
def solutions(draw: st.DrawFn) -> Solution:
    rows = draw(st.integers(1, MAX_SIDE))
    cols = draw(st.integers(1, MAX_SIDE))
    blocked = draw(
        st.lists(st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1)), max_size=5)
    )
    return Solution(
        puzzle=draw(st.text(st.characters(exclude_categories=("Cs",)), max_size=10)),
        rows=rows,
        cols=cols,
        placements=tuple(draw(st.lists(placed, max_size=5))),
        status=draw(st.sampled_from(STATUSES)),
        blocked=tuple(blocked),
        extra=draw(extras(("format", "puzzle", "rows", "cols", "status", "placements", "blocked"))),
    )


@st.composite
def boards(draw: st.DrawFn) -> tuple[str, ...]:
    rows = draw(st.integers(1, 8))
    cols = draw(st.integers(1, 8))
    row = st.text(st.sampled_from(formats.CELL_CHARS), min_size=cols, max_size=cols)
    return tuple(draw(st.lists(row, min_size=rows, max_size=rows)))


positions = st.builds(
    Position,
    game=st.sampled_from(GAMES),
    board=boards(),
    to_move=st.none() | st.sampled_from(list(COLORS)),
    hands=st.dictionaries(st.sampled_from(list(COLORS)), st.lists(names, max_size=4).map(tuple)),
    extra=extras(("format", "game", "board", "to_move", "hands")),
)


# -- round trips ----------------------------------------------------------------------------
@given(solutions())
def test_solution_round_trip(s: Solution) -> None:
    text = dumps(s)
    assert loads(text) == s
    assert dumps(loads(text)) == text  # the written form is stable


@given(positions)
def test_position_round_trip(p: Position) -> None:
    text = dumps(p)
    assert loads(text) == p
    assert dumps(loads(text)) == text


@given(boards())
def test_plain_text_board_loads_as_tiling_position(rows: tuple[str, ...]) -> None:
    text = "; a comment\n\n" + "\n".join(rows) + "\n"
    assert loads(text) == Position("tiling", rows)


@settings(max_examples=20)
@given(solutions())
def test_save_then_load(tmp_path_factory: pytest.TempPathFactory, s: Solution) -> None:
    path = tmp_path_factory.mktemp("save") / "s.json"
    save(s, path)
    assert load(path) == s


def test_dumps_layout_is_compact_and_ordered() -> None:
    s = Solution(
        "p",
        2,
        2,
        (PlacedPiece("O4", ((0, 0), (0, 1), (1, 0), (1, 1)), "red"),),
        blocked=(),
        extra={"zeta": 1, "alpha": [1, 2]},
    )
    text = dumps(s)
    assert '{"piece": "O4", "color": "red", "cells": [[0, 0], [0, 1], [1, 0], [1, 1]]}' in text
    keys = list(json.loads(text))
    assert keys == ["format", "puzzle", "rows", "cols", "status", "placements", "alpha", "zeta"]
    assert text.endswith("}\n")


def test_color_omitted_when_none() -> None:
    text = dumps(Solution("p", 1, 1, (PlacedPiece("I1", ((0, 0),)),)))
    assert '"color"' not in text


def test_dumps_refuses_what_it_could_not_read_back() -> None:
    with pytest.raises(FormatError) as info:
        dumps(Solution("p", 2, 2, (PlacedPiece("I1", ((0, 0),), "purple"),)))
    assert info.value.where == "placements[0].color"
    with pytest.raises(FormatError, match="JSON"):
        dumps(Solution("p", 1, 1, (), extra={"x": float("nan")}))
    with pytest.raises(FormatError):
        dumps(Position("tiling", ("..", ".")))
    with pytest.raises(TypeError):
        dumps("not a solution")  # type: ignore[arg-type]


def test_extra_may_not_shadow_a_field() -> None:
    with pytest.raises(FormatError, match="rows"):
        Solution("p", 1, 1, (), extra={"rows": 3})


def test_values_are_hashable_and_normalized() -> None:
    s = Solution("p", 1, 2, [PlacedPiece("I2", [[0, 0], [0, 1]])])  # type: ignore[arg-type]
    assert s.placements[0].cells == ((0, 0), (0, 1))
    assert hash(s) == hash(Solution("p", 1, 2, (PlacedPiece("I2", ((0, 0), (0, 1))),)))
    assert s.board().size == 2
    p = Position("tiling", ["B.", ".Y"])  # type: ignore[arg-type]
    assert (p.rows, p.cols, p.board) == (2, 2, ("B.", ".Y"))
    assert p._repr_svg_().lstrip().startswith("<?xml")
    assert "<svg" in s._repr_svg_()


# -- examples ---------------------------------------------------------------------------------
def _is_pentomino_tiling(s: Solution) -> bool:
    """Independent of the library's checkers: shapes by canonical form, then exact cover."""
    shapes = {p.name: p.canonical() for p in piece_set("pentominoes")}
    seen: list[tuple[int, int]] = []
    for pp in s.placements:
        if Polyomino(pp.cells).canonical() != shapes[pp.piece]:
            return False
        seen += pp.cells
    board = {(r, c) for r in range(s.rows) for c in range(s.cols)}
    return sorted(seen) == sorted(board) and sorted(p.piece for p in s.placements) == sorted(shapes)


def test_example_solution_is_a_real_tiling() -> None:
    s = load_solution(EXAMPLES / "pentomino-6x10.json")
    assert (s.puzzle, s.rows, s.cols, len(s.placements)) == ("pentomino-6x10", 6, 10, 12)
    assert _is_pentomino_tiling(s)
    assert "note" in s.extra


def test_broken_example_loads_but_is_not_a_tiling() -> None:
    s = load_solution(EXAMPLES / "pentomino-6x10-broken.json")
    assert not _is_pentomino_tiling(s)


def test_example_position_and_text_board() -> None:
    p = load_position(EXAMPLES / "blokus-opening.json")
    assert (p.game, p.rows, p.cols, p.to_move) == ("blokus", 20, 20, "blue")
    assert len(p.hands["blue"]) == 20 and "V5" not in p.hands["blue"]
    assert p.extra["moves"][0] == "B V5"
    board = load_position(EXAMPLES / "board-8x8-centre.txt")
    assert board.game == "tiling" and board.board[3] == "...##..."


def test_load_kind_mismatch(tmp_path: Path) -> None:
    with pytest.raises(FormatError, match="found a position"):
        load_solution(EXAMPLES / "blokus-opening.json")
    with pytest.raises(FormatError, match="found a solution"):
        load_position(EXAMPLES / "pentomino-6x10.json")


# -- bad files --------------------------------------------------------------------------------
SOL = {
    "format": "polytile/solution@1",
    "puzzle": "p",
    "rows": 3,
    "cols": 4,
    "placements": [
        {"piece": "I1", "cells": [[0, 0]]},
        {"piece": "I2", "cells": [[1, 0], [1, 1]]},
        {"piece": "I3", "color": "red", "cells": [[2, 0], [2, 1], [2, 2]]},
    ],
}
POS = {
    "format": "polytile/position@1",
    "game": "blokus",
    "board": ["....", ".B..", "...."],
    "to_move": "blue",
    "hands": {"blue": ["I1", "I2"]},
}


def edit(
    base: dict[str, Any], path: tuple[Any, ...], value: Any = None, delete: bool = False
) -> str:
    doc = json.loads(json.dumps(base))
    target = doc
    for key in path[:-1]:
        target = target[key]
    if delete:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return json.dumps(doc, indent=2)


BAD_JSON = [
    # (text, where, words in the message)
    ("", "line 1", "empty"),
    ("  \n\n ", "line 1", "empty"),
    ('{"format": "polytile/solution@1",\n "rows": 3,,\n}', "line 2, column", "not valid JSON"),
    ('{\n  "format": "polytile/solution@1"\n', "line 3", "not valid JSON"),
    ("[1, 2]", "line 1", "JSON object"),
    ("[" * 100_000, "line 1", "nested too deeply"),
    (edit(SOL, ("format",), delete=True), "format", "missing"),
    (edit(SOL, ("format",), 1), "format", "must be a string"),
    (edit(SOL, ("format",), "polytile/board@1"), "format", "unknown format"),
    (edit(SOL, ("format",), "polytile/solution@2"), "format", "unsupported version 2"),
    (edit(SOL, ("format",), "polytile/position@7"), "format", "unsupported version 7"),
    (edit(SOL, ("puzzle",), delete=True), "puzzle", "missing"),
    (edit(SOL, ("puzzle",), 5), "puzzle", "string"),
    (edit(SOL, ("rows",), "3"), "rows", "integer"),
    (edit(SOL, ("rows",), True), "rows", "integer"),
    (edit(SOL, ("rows",), 3.0), "rows", "integer"),
    (edit(SOL, ("rows",), 0), "rows", "from 1 to"),
    (edit(SOL, ("cols",), MAX_SIDE + 1), "cols", "from 1 to"),
    (edit(SOL, ("cols",), delete=True), "cols", "missing"),
    (edit(SOL, ("status",), "great"), "status", "not one of"),
    (edit(SOL, ("placements",), {}), "placements", "must be a list"),
    (edit(SOL, ("placements", 1), "I2"), "placements[1]", "must be an object"),
    (edit(SOL, ("placements", 2, "cells", 1), [1]), "placements[2].cells[1]", "pair of integers"),
    (edit(SOL, ("placements", 2, "cells", 1), [1, 2, 3]), "placements[2].cells[1]", "pair"),
    (edit(SOL, ("placements", 2, "cells", 1), ["a", 1]), "placements[2].cells[1]", "pair"),
    (edit(SOL, ("placements", 2, "cells", 1), [1.5, 1]), "placements[2].cells[1]", "pair"),
    (edit(SOL, ("placements", 2, "cells", 1), [True, 1]), "placements[2].cells[1]", "pair"),
    (edit(SOL, ("placements", 2, "cells"), []), "placements[2].cells", "at least one cell"),
    (edit(SOL, ("placements", 2, "cells"), "a1"), "placements[2].cells", "must be a list"),
    (edit(SOL, ("placements", 0, "piece"), delete=True), "placements[0].piece", "missing"),
    (edit(SOL, ("placements", 0, "piece"), 7), "placements[0].piece", "string"),
    (edit(SOL, ("placements", 0, "piece"), " "), "placements[0].piece", "empty"),
    (edit(SOL, ("placements", 2, "color"), "purple"), "placements[2].color", "not one of"),
    (edit(SOL, ("placements", 2, "colour"), "red"), "placements[2].colour", "unknown field"),
    (edit(SOL, ("blocked",), [[0, 0], [3, 0]]), "blocked[1]", "outside the 3x4 board"),
    (edit(SOL, ("blocked",), [[0, 0], "x"]), "blocked[1]", "pair"),
    (edit(SOL, ("blocked",), 4), "blocked", "must be a list"),
    (
        '{"format": "polytile/solution@1", "rows": 3, "rows": 4}',
        "(top level)",
        "'rows' appears twice",
    ),
    (
        edit(SOL, ("placements", 1), "DUP").replace('"DUP"', '{"piece": "I1", "piece": "I2"}'),
        "placements[1]",
        "'piece' appears twice",
    ),
    (edit(SOL, ("rows",), "X").replace('"X"', "NaN"), "rows", "NaN"),
    (edit(SOL, ("extra",), "X").replace('"X"', "[1, Infinity]"), "extra[1]", "Infinity"),
    (edit(SOL, ("cols",), "X").replace('"X"', "1e400"), "cols", "out of range"),
    (edit(SOL, ("cols",), "X").replace('"X"', "9" * 200), "cols", "too long"),
    (edit(POS, ("game",), "chess"), "game", "not one of"),
    (edit(POS, ("game",), delete=True), "game", "missing"),
    (edit(POS, ("board",), "...."), "board", "must be a list"),
    (edit(POS, ("board",), []), "board", "at least one row"),
    (edit(POS, ("board", 1), 5), "board[1]", "string"),
    (edit(POS, ("board", 2), "..."), "board[2]", "rows must be equal"),
    (edit(POS, ("board", 1), ".Bx."), "board[1]", "'x' at column 3"),
    (edit(POS, ("board", 1), ".b.."), "board[1]", "'b' at column 2"),
    (edit(POS, ("board", 0), ""), "board[0]", "empty"),
    (edit(POS, ("board",), ["." * (MAX_SIDE + 1)]), "board[0]", "more than"),
    (edit(POS, ("board",), ["."] * (MAX_SIDE + 1)), "board[0]", "more than"),
    (edit(POS, ("to_move",), "purple"), "to_move", "not one of"),
    (edit(POS, ("to_move",), 1), "to_move", "string"),
    (edit(POS, ("hands",), ["I1"]), "hands", "must be an object"),
    (edit(POS, ("hands", "purple"), ["I1"]), "hands.purple", "not a colour"),
    (edit(POS, ("hands", "blue"), "I1"), "hands.blue", "must be a list"),
    (edit(POS, ("hands", "blue", 1), 5), "hands.blue[1]", "string"),
    (edit(POS, ("hands", "blue", 1), ""), "hands.blue[1]", "empty"),
    # plain text boards: lines counted from the top, comments included
    ("; c\n....\n..x.\n", "line 3", "'x' at column 3"),
    ("....\n\n; c\n...\n", "line 4", "rows must be equal"),
    ("; only comments\n;\n", "line 1", "at least one row"),
    ('"just a string"', "line 1", "not a cell"),
]


@pytest.mark.parametrize(("text", "where", "words"), BAD_JSON)
def test_bad_documents_are_refused_with_a_location(text: str, where: str, words: str) -> None:
    with pytest.raises(FormatError) as info:
        loads(text, source="bad.json")
    err = info.value
    assert err.source == "bad.json"
    assert err.where is not None and err.where.startswith(where), err.where
    assert words in err.message, err.message
    assert str(err).startswith(f"bad.json: {err.where}: ")


def test_unknown_piece_names_are_not_a_format_error() -> None:
    s = loads(edit(SOL, ("placements", 0, "piece"), "Q9"))
    assert isinstance(s, Solution) and s.placements[0].piece == "Q9"


def test_unknown_top_level_keys_are_kept() -> None:
    text = edit(SOL, ("solver",), {"name": "xcc", "seconds": 0.25})
    s = loads(text)
    assert s.extra == {"solver": {"name": "xcc", "seconds": 0.25}}
    assert json.loads(dumps(s))["solver"] == {"name": "xcc", "seconds": 0.25}


def test_non_utf8_file_names_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "board.txt"
    path.write_bytes(b"....\n..\xff.\n")
    with pytest.raises(FormatError) as info:
        load(path)
    assert info.value.source == str(path)
    assert info.value.where == "line 2, column 3"
    assert "UTF-8" in info.value.message


def test_utf8_bom_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "board.txt"
    path.write_bytes(b"\xef\xbb\xbf..\n.#\n")
    assert load(path) == Position("tiling", ("..", ".#"))


def test_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.json"
    path.write_bytes(b"")
    with pytest.raises(FormatError, match="empty") as info:
        load(path)
    assert info.value.source == str(path)


def test_file_over_50_mb_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    with path.open("wb") as f:
        f.truncate(formats.MAX_FILE_BYTES + 1)  # sparse: costs no disk
    with pytest.raises(FormatError, match="refuses files over 50 MB") as info:
        load(path)
    assert info.value.source == str(path)


def test_text_over_the_limit_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(formats, "MAX_FILE_BYTES", 10)
    with pytest.raises(FormatError, match="refuses"):
        loads("." * 11)
    with pytest.raises(FormatError, match="refuses"):
        loads(b"." * 11)


def test_missing_file_is_an_os_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        load(tmp_path / "nope.json")


# -- atomic save ------------------------------------------------------------------------------
SMALL = Solution("p", 1, 2, (PlacedPiece("I2", ((0, 0), (0, 1))),))


def test_failed_replace_leaves_the_old_file_and_no_litter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "s.json"
    path.write_text("old content")

    def broken_replace(src: Any, dst: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(formats.os, "replace", broken_replace)
    with pytest.raises(OSError, match="No space"):
        save(SMALL, path)
    assert path.read_text() == "old content"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.json"]


def test_invalid_value_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text("old content")
    with pytest.raises(FormatError):
        save(Solution("p", 1, 1, (PlacedPiece("I1", ((0, 0),), "pink"),)), path)
    assert path.read_text() == "old content"
    assert len(list(tmp_path.iterdir())) == 1


def test_save_keeps_permissions_and_follows_links(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text("{}")
    os.chmod(path, 0o640)
    link = tmp_path / "link.json"
    link.symlink_to(path)
    save(SMALL, link)
    assert link.is_symlink()
    assert load(path) == SMALL
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_new_file_gets_umask_permissions(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        save(SMALL, tmp_path / "new.json")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.json").stat().st_mode) == 0o644


def test_the_examples_in_docs_formats_md_load() -> None:
    doc = (EXAMPLES.parent / "docs" / "formats.md").read_text(encoding="utf-8")
    blocks = [b.removeprefix("json\n") for b in doc.split("```")[1::2]]
    puzzles = [b for b in blocks if '"polytile/puzzle@1"' in b or '"polytile/teaser@1"' in b]
    # The stored City Blocks puzzle documents are shown in outline ("...": "..."): JSON only.
    stored = [b for b in blocks if "polytile/henning-puzzle@1" in b
              or "polytile/henning-answer@1" in b]  # fmt: skip
    assert [json.loads(b)["format"] for b in stored] == ["polytile/henning-puzzle@1",
                                                         "polytile/henning-answer@1"]  # fmt: skip
    henning = [b for b in blocks if '"polytile/henning@1"' in b and b not in stored]
    gridblock = [b for b in blocks if '"polytile/gridblock@1"' in b]
    walkable = [b for b in blocks if '"polytile/walkable@1"' in b]
    others = puzzles + henning + stored + gridblock + walkable
    loaded = [loads(b, "docs/formats.md") for b in blocks if b not in others]
    kinds = [type(x).__name__ for x in loaded]
    assert kinds == ["Solution", "Position", "Position"]
    from polytile.puzzles.tiling.generate_teasers import parse_teaser
    from polytile.puzzles.tiling.puzzle_file import parse_puzzle

    assert len(puzzles) == 2
    tiling = parse_puzzle(json.loads(puzzles[0]), "docs/formats.md")
    assert tiling.given and tiling.problem.n_pieces == 2
    assert parse_teaser(json.loads(puzzles[1]), "docs/formats.md").n_colors == 4
    assert loaded[0].extra == {"solver": {"name": "xcc", "seconds": 0.8}}
    from polytile.puzzles.henning.files import read_henning

    assert [read_henning(b, "docs/formats.md").kind for b in henning] == ["record", "position"]
    from polytile.puzzles.gridblock.files import read_gridblock

    assert [read_gridblock(b, "docs/formats.md").kind for b in gridblock] == ["record", "view"]
    from polytile.puzzles.walkable.files import read_walkable

    assert [read_walkable(b, "docs/formats.md").kind for b in walkable] == ["record", "position"]


def test_given_of_an_empty_solution_says_there_is_none() -> None:
    """#47's left gap: the message said "(0 to -1)"."""
    doc = {"format": "polytile/solution@1", "puzzle": "p", "rows": 2, "cols": 2,
           "placements": [], "given": [0]}  # fmt: skip
    with pytest.raises(FormatError, match="places no piece") as info:
        loads(json.dumps(doc))
    assert "-1" not in str(info.value)
