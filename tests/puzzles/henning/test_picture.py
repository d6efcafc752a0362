"""City Blocks (Henning) pictures and score tables."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from polytile.puzzles.henning.picture import score_doc, score_table, to_png, to_svg, to_text
from polytile.puzzles.henning.rules import Henning


def test_pictures_and_scores_of_a_finished_game() -> None:
    g = Henning.new(3)
    g.play_random(3)
    doc = score_doc(g)
    assert doc["money"] == {"blue": g.money_of(0), "red": g.money_of(1)}
    assert doc["over"] is True and doc["winner"] in ("blue", "red", "draw")
    assert len(doc["streets"]) == 11
    assert all(s["status"] != "open" for s in doc["streets"])
    assert "wins" in score_table(g) or "draw" in score_table(g)
    root = ET.fromstring(to_svg(g, highlight=(0, 0)))
    assert root.tag.endswith("svg")
    assert to_png(g).startswith(b"\x89PNG")
    assert to_text(g, color=False).count("\n") == 7


def test_open_street_standing() -> None:
    g = Henning.new(5)
    g.push(g.legal_moves()[0])
    st = next(s for s in score_doc(g)["streets"] if s["street"] == "1")
    assert st["status"] == "open" and st["empty_blocks"] == 5
    assert st["leader"] == ("blue" if g.first == 0 else "red")
