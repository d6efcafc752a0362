"""The board's positions stepped through one by one (played on from the last position shown)
are the positions the face reads from the file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from polytile.puzzles.faces import face
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
