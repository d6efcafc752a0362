"""``Face.record_moves``: a record's moves in the notation ``play_move`` reads, for every game
with records (the web board's move list), and none for a position."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from polytile.faces.face import Face
from polytile.faces.registry import face

GAMES = [("henning", {}, ".json"), ("gridblock", {}, ".json"), ("walkable", {}, ".json"),
         ("blokus", {"variant": "duo"}, ".blksgf")]  # fmt: skip


def _selfplayed(tmp_path: Path, game: str, options: dict[str, str],
                suffix: str) -> tuple[Face, Path]:  # fmt: skip
    """The face of ``game`` and a record it self-played (seed 5), written in ``tmp_path``."""
    f = face(game)
    text, _ = f.selfplay(5, 0, options)  # type: ignore[attr-defined]
    path = tmp_path / f"game{suffix}"
    path.write_text(text)
    return f, path


@pytest.mark.parametrize(("game", "options", "suffix"), GAMES)
def test_record_moves_replay_the_record(tmp_path: Path, game: str, options: dict[str, str],
                                        suffix: str) -> None:  # fmt: skip
    f, path = _selfplayed(tmp_path, game, options, suffix)
    whole = f.read(str(path))
    moves = f.record_moves(whole)
    assert moves
    half = f.read(str(path), len(moves) // 2)
    assert f.record_moves(half) == moves  # the whole record, also when shown earlier
    start = f.read(str(path), 0)
    for move in moves:
        f.play_move(start, move)
    assert f.dumps(start) == f.dumps(whole)


@pytest.mark.parametrize("game", ["blokus", "cityblocks"])
def test_a_position_has_no_moves(tmp_path: Path, game: str) -> None:
    f = face(game)
    path = tmp_path / "position.json"
    path.write_text(f.new(0, {}))
    assert f.record_moves(f.read(str(path))) == ()


@pytest.mark.parametrize(("game", "options", "suffix"), GAMES)
def test_a_move_played_shows_as_its_file_reads(
    tmp_path: Path, game: str, options: dict[str, str], suffix: str
) -> None:
    """After ``play_move``, the picture and the score are those of the position written by
    ``dumps`` and read back (the web board draws positions played on without a file)."""
    f, path = _selfplayed(tmp_path, game, options, suffix)
    moves = f.record_moves(f.read(str(path)))
    doc = f.read(str(path), 3)
    f.play_move(doc, moves[3])
    again = tmp_path / f"again{suffix}"
    again.write_text(f.dumps(doc))
    back = f.read(str(again))
    assert f.picture(doc, "svg") == f.picture(back, "svg")
    assert f.score_doc(doc) == f.score_doc(back)


@pytest.mark.parametrize("game", ["blokus", "cityblocks"])
def test_a_move_played_on_a_position_is_drawn(tmp_path: Path, game: str) -> None:
    f = face(game)
    path = tmp_path / "position.json"
    path.write_text(f.new(0, {}))
    doc = f.read(str(path))
    before = f.picture(doc, "svg")
    f.play_move(doc, f.legal(doc).moves[0])
    again = tmp_path / "again.json"
    again.write_text(f.dumps(doc))
    back = f.read(str(again))
    assert f.picture(doc, "svg") != before
    if game == "blokus":  # its picture highlights the move just played; a position file
        # keeps no moves, so the one read back differs by that highlight alone
        assert f.picture(doc, "txt").lower() == f.picture(back, "txt").lower()
    else:
        assert f.picture(doc, "svg") == f.picture(back, "svg")
    assert f.score_doc(doc) == f.score_doc(back)


@pytest.mark.parametrize(("game", "options", "suffix"), GAMES)
def test_move_cells_are_legal_moves_inside_the_picture(
    tmp_path: Path, game: str, options: dict[str, str], suffix: str
) -> None:
    """``move_cells``: each move it places is a legal move, each cell lies in the picture."""
    import re

    f, path = _selfplayed(tmp_path, game, options, suffix)
    for at in (0, 4):
        doc = f.read(str(path), at)
        found = f.move_cells(doc, cell=24)
        if found is None:
            continue
        assert set(found.moves) <= set(f.legal(doc).moves)
        assert found.moves and all(c in found.cells for cs in found.moves.values() for c in cs)
        svg = str(f.picture(doc, "svg", cell=24))
        width, height = (float(v) for v in re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"',
                                                     svg).groups())  # fmt: skip
        for x, y, w, h in found.cells.values():
            assert x >= 0 and y >= 0 and x + w <= width and y + h <= height


def _cells_and_picture(tmp_path: Path, game: str, at: int) -> tuple[Any, str]:
    """The move cells and the SVG picture (24 px cells) of ``game``'s self-played record
    after ``at`` moves."""
    f, path = _selfplayed(tmp_path, game, {}, ".json")
    doc = f.read(str(path), at)
    found = f.move_cells(doc, cell=24)
    assert found is not None
    return found, str(f.picture(doc, "svg", cell=24))


def test_gridblock_quarters_lie_in_their_tiles(tmp_path: Path) -> None:
    """Gridblock's move cells are the quarters of the tiles its picture draws."""
    import re

    found, svg = _cells_and_picture(tmp_path, "gridblock", 10)
    tiles = {name: tuple(map(float, xywh)) for name, *xywh in re.findall(
        r'class="tile[\w ]*" data-tile="(\w+)" x="([\d.]+)" y="([\d.]+)" '
        r'width="([\d.]+)" height="([\d.]+)"',
        svg)}  # fmt: skip
    assert len(tiles) == 36
    for name, (x, y, w, h) in found.cells.items():
        tx, ty, tw, th = tiles[name.split(",")[0]]
        assert tx <= x and x + w <= tx + tw and ty <= y and y + h <= ty + th, name


def test_walkable_cells_are_the_cells_drawn(tmp_path: Path) -> None:
    """Walkable Cities' move cells are the board cells its picture draws, one for one."""
    import re

    found, svg = _cells_and_picture(tmp_path, "walkable", 4)
    drawn = {(float(x), float(y)) for x, y in re.findall(
        r'<rect x="([\d.]+)" y="([\d.]+)" width="24" height="24"', svg)}  # fmt: skip
    assert len(drawn) == len(found.cells) == 300
    assert {(x, y) for x, y, _, _ in found.cells.values()} == drawn
    for move, names in found.moves.items():  # a drop's cells are named board first
        assert all(re.fullmatch(r"[123]:[a-j](10|[1-9])", n) for n in names), move


@pytest.mark.parametrize("game", ["blokus", "cityblocks"])
def test_move_pieces_write_the_moves_the_rules_read(tmp_path: Path, game: str) -> None:
    """The pieces the mover holds, each playable exactly when a legal move places it; a
    legal placement written as a front end writes it (the piece's prefix, then each cell's
    text) is read by the rules as that move, and one on a taken square is refused."""
    from polytile.errors import PolytileError

    f = face(game)
    path = tmp_path / "position.json"
    path.write_text(f.new(0, {"variant": "duo"} if game == "blokus" else {}))
    doc = f.read(str(path))
    for _ in range(2):  # the opening, and the next colour after a move
        pieces = f.move_pieces(doc)
        found = f.move_cells(doc, cell=24)
        assert found is not None and pieces
        assert [p.name for p in pieces] == list(doc.game.hand(doc.game.to_move))
        placed = {m.piece: m for m in doc.game.legal_moves() if m.cells}
        assert {p.name for p in pieces if p.playable} == set(placed)
        by_cells = {frozenset(cs): m for m, cs in found.moves.items()}
        piece = next(p for p in pieces if p.playable)
        cells = [f"{r},{c}" for r, c in placed[piece.name].cells]
        text = piece.prefix + " ".join(found.texts.get(n, n) for n in cells)
        move = by_cells[frozenset(cells)]
        trial = f.read(str(path))
        f.play_move(trial, text)  # the written placement is the legal move it covers
        again = f.read(str(path))
        f.play_move(again, move)
        assert f.dumps(trial) == f.dumps(again)
        f.play_move(doc, move)
        path.write_text(f.dumps(doc))
        doc = f.read(str(path))
    taken = placed[piece.name].cells[0]  # the last move's square, now taken
    smallest = f.move_pieces(doc)[0]  # I1 (Blokus) or I2: it fits somewhere over the square
    found = f.move_cells(doc, cell=24)
    assert found is not None
    spots = [[f"{taken[0] + r - r0},{taken[1] + c - c0}" for r, c in smallest.shape.cells]
             for r0, c0 in smallest.shape.cells]  # fmt: skip
    cells = next(cs for cs in spots if all(n in found.cells for n in cs))
    with pytest.raises((PolytileError, ValueError)):
        f.play_move(doc, smallest.prefix + " ".join(found.texts.get(n, n) for n in cells))


def test_no_pieces_once_the_game_is_over(tmp_path: Path) -> None:
    f, path = _selfplayed(tmp_path, "blokus", {"variant": "duo"}, ".blksgf")
    assert f.move_pieces(f.read(str(path))) == ()
    assert f.move_pieces(f.read(str(path), 0))


def test_three_city_blocks_players_place_green_too(tmp_path: Path) -> None:
    """With three players the side to move places its colour or green: both hands are
    offered, each playable by its own colour's legal moves, and a placement written with
    a piece's prefix is that colour's move (a placement matched by its squares alone
    played green's I2 for blue's)."""
    f = face("cityblocks")
    path = tmp_path / "three.json"
    path.write_text(f.new(0, {"players": "3"}))
    doc = f.read(str(path))
    pieces = f.move_pieces(doc)
    colors = doc.game.colors_to_move()
    assert colors == (doc.game.to_move, "green")
    assert [(p.color, p.name) for p in pieces] == [
        (c, n) for c in colors for n in doc.game.hand(c)]  # fmt: skip
    placed = {(m.color, m.piece) for m in doc.game.legal_moves() if m.cells}
    assert {(p.color, p.name) for p in pieces if p.playable} == placed
    letters = {"blue": "B", "yellow": "Y", "red": "R", "green": "G"}
    assert all(p.prefix == f"{letters[p.color]} {p.name} " for p in pieces)


EXAMPLES = Path(__file__).parents[2] / "examples"


def _records(tmp_path: Path) -> list[tuple[Face, Path]]:
    """The example records, and a self-played record of each game with records (4-player
    Blokus too)."""
    found = [(face("blokus"), p) for p in sorted(EXAMPLES.glob("*.blksgf"))]
    for game, options, suffix in [*GAMES, ("blokus", {}, ".blksgf")]:
        folder = tmp_path / f"{game}-{len(found)}"
        folder.mkdir()
        found.append(_selfplayed(folder, game, options, suffix))
    return found


def _listed(f: Face, doc: Any) -> list[str]:
    """Each legal move listed for ``doc``, written as ``play`` takes it: for a game whose
    players move at once, each player's listed part joined with the others' first."""
    from polytile.faces.at_once import AtOnceFace

    legal = f.legal(doc)
    if not legal.at_once:
        return list(legal.moves)
    assert isinstance(f, AtOnceFace)
    groups = legal.groups or {player: legal.moves for player in f.at_once_players}
    first = {player: parts[0] for player, parts in groups.items()}
    return [f.join_parts({**first, player: part})
            for player, parts in groups.items() for part in parts]  # fmt: skip


def test_every_listed_move_reads_back_in_play(tmp_path: Path) -> None:
    """#50, one notation: stepping through every example record and a record of each game,
    every move of the move list is read by ``play`` in the position before it (the Duo
    example's move 10, ``yellow I1 j1``, read two ways), and so is every legal move listed
    there (a sample of at most 12 a position, the first and last always)."""
    import random

    rng = random.Random(7)
    for f, path in _records(tmp_path):
        moves = f.record_moves(f.read(str(path)))
        assert moves, path
        for at, text in enumerate(moves):
            doc = f.read(str(path), at)
            f.play_move(doc, text)
            assert f.picture(doc, "txt") == f.picture(f.read(str(path), at + 1), "txt")
            listed = _listed(f, f.read(str(path), at))
            sample = listed if len(listed) <= 12 else [
                listed[0], listed[-1], *rng.sample(listed[1:-1], 10)]  # fmt: skip
            for move in sample:
                f.play_move(f.read(str(path), at), move)
            if f.title == "Blokus" and not listed[0].endswith(" pass"):
                assert text in listed, (path, at, text)  # the same text in both lists
