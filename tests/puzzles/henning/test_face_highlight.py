"""The City Blocks (Henning) picture highlights the last move made, also in a variation."""

from __future__ import annotations

from polytile.faces.registry import face
from polytile.puzzles.henning.face import _last_block


def test_a_variation_highlights_its_own_last_move(tmp_path):
    """A move played on the board after move 4 of a record starts a variation; its picture
    highlighted the block of the file's move 5 instead (found looking at the board)."""
    f = face("henning")
    text, _ = f.selfplay(7, 0, {})
    path = tmp_path / "game.json"
    path.write_text(text)
    doc = f.read(str(path), 4)
    played = next(m for m in f.legal(doc).moves if m != str(doc.moves[4]) and "@" in m)
    f.play_move(doc, played)
    assert _last_block(doc) == doc.state.move_stack[-1].block
    assert _last_block(doc) != doc.moves[4].block or doc.state.move_stack[-1] == doc.moves[4]
    assert _last_block(f.read(str(path), 4)) == doc.moves[3].block
