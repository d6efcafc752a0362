"""The board's positions stepped through one by one (played on from the last position shown)
are the positions the face reads from the file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from polytile.faces.registry import face
from polytile.serve.board import Board


@pytest.mark.parametrize("game", ["henning", "blokus", "gridblock", "walkable"])
def test_stepping_shows_what_the_file_reads(game_files: dict[str, Path], game: str) -> None:
    file = str(game_files[game])
    f = face(game)
    board = Board()
    board.add_file(file)
    n = len(board.records[0].moves)
    for at in [*range(n + 1), n // 2, 3, n]:  # forward one by one, then back and on
        shown = board.position(0, at)
        doc = f.read(file, at)
        assert shown["svg"] == f.picture(doc, "svg", cell=24), at
        assert shown["score"] == json.loads(json.dumps(f.score_doc(doc))), at
        assert shown["legal"]["moves"] == f.legal(doc).as_dict()["moves"], at


def test_the_record_list_counts_in_words(game_files: dict[str, Path], tmp_path: Path) -> None:
    """#48: the page's list of records said "1 moves"; it says "1 move", and a Walkable
    Cities record counts its rounds."""
    from polytile.puzzles.henning.rules import Henning

    henning, one = face("henning"), tmp_path / "one.json"
    one.write_text(henning.new(7, {}))
    doc = henning.read(str(one))
    henning.play_move(doc, str(Henning.new(7).legal_moves()[0]))
    one.write_text(henning.dumps(doc))
    board = Board()
    board.add_file(str(one))
    board.add_file(str(game_files["walkable"]))
    first, walk = (r.summary(i) for i, r in enumerate(board.records))
    assert (first["length"], first["length_text"]) == (1, "1 move")
    assert walk["length_text"] == f"{walk['length']} rounds"
