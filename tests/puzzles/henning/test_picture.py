"""City Blocks (Henning) pictures and score tables."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

from PIL import Image

from polytile.puzzles.henning.picture import (
    TEXT_LEGEND,
    money_line,
    score_doc,
    score_table,
    to_png,
    to_svg,
    to_text,
)
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
    assert to_text(g, color=False).count("\n") == 7 + len(TEXT_LEGEND)  # the legend's lines


def test_open_street_standing() -> None:
    g = Henning.new(5)
    g.push(g.legal_moves()[0])
    st = next(s for s in score_doc(g)["streets"] if s["street"] == "1")
    assert st["status"] == "open" and st["empty_blocks"] == 5
    assert st["leader"] == ("blue" if g.first == 0 else "red")


SVG = "{http://www.w3.org/2000/svg}"


def test_text_legend_says_blocks_tiles_and_tokens() -> None:
    g = Henning.new(3)
    g.play_random(3)
    lines = to_text(g, color=False).splitlines()
    assert lines[7:10] == list(TEXT_LEGEND) and lines[10] == money_line(g)
    legend = " ".join(TEXT_LEGEND)
    for mark in ("B:", "R:", "$9>B", "$9>R", "$9>=", " . "):
        assert mark in legend


def _legend(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    (group,) = [el for el in root.iter(SVG + "g") if el.get("class") == "legend"]
    return [t.text or "" for t in group.iter(SVG + "text") if t.get("class") == "legend"]


def test_svg_legend_explains_the_last_move_frame_only_when_drawn() -> None:
    g = Henning.new(3)
    g.play_random(3)
    framed = _legend(to_svg(g, highlight=(0, 0)))
    plain = _legend(to_svg(g))
    assert "the last move's block" in framed and "the last move's block" not in plain
    assert (
        [t for t in framed if t.startswith("street tokens")]
        == [t for t in plain if t.startswith("street tokens")]
        != []
    )
    root = ET.fromstring(to_svg(g, highlight=(0, 0)))
    framed_png, plain_png = to_png(g, highlight=(0, 0)), to_png(g)
    with Image.open(io.BytesIO(framed_png)) as a, Image.open(io.BytesIO(plain_png)) as b:
        assert a.size == (int(root.get("width", 0)), int(root.get("height", 0)))
        assert a.height > b.height  # the frame's legend row
