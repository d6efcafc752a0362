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


# -- an awarded street keeps the totals that decided it (issue 36, item 3) --------------------
_AWARD_THEN_REDEVELOP = {  # red wins column a 10 to 6, then turns its S6 there into a school
    "format": "polytile/henning@1", "game": "henning", "kind": "record",
    "setup": {
        "streets": {"1": 3, "2": 5, "3": 7, "4": 9, "5": 11, "a": 2, "b": 4, "c": 6, "d": 8,
                    "e": 10, "f": 12},
        "first": "red",
        "hands": {"blue": ["S5", "H1", "H3", "CH", "MA"], "red": ["S2", "S6", "H2", "SC", "CH"]},
        "reserves": {
            "blue": ["PP", "SC", "SC", "H2", "H4", "H5", "S2", "S3", "S4", "S6", "F3", "F4",
                     "F5", "F6", "F7"],
            "red": ["MA", "PP", "SC", "H1", "H3", "H4", "H5", "S3", "S4", "S5", "F3", "F4",
                    "F5", "F6", "F7"],
        },
    },
    "moves": ["S2@a1", "S5@a2", "S6@a3", "H1@a4", "H2@a5", "H3@b1", "redevelop SC@a3 with $2"],
}  # fmt: skip


def _column_a(game: Henning) -> tuple[dict, str]:
    st = next(s for s in score_doc(game)["streets"] if s["street"] == "a")
    line = next(x for x in score_table(game).splitlines() if x.startswith("column a"))
    return st, line


def test_an_awarded_street_shows_the_totals_of_its_award_and_its_winner_leads() -> None:
    import json

    from polytile.puzzles.henning.files import read_henning

    before = read_henning(json.dumps(_AWARD_THEN_REDEVELOP), move=6).state
    st, line = _column_a(before)
    assert st["totals"] == st["now"] == {"blue": 6, "red": 10}
    assert line.split()[3:] == ["6", "10", "won", "by", "red"]

    after = read_henning(json.dumps(_AWARD_THEN_REDEVELOP)).state
    st, line = _column_a(after)
    assert (st["winner"], st["leader"], st["by"]) == ("red", "red", 4)
    assert st["totals"] == {"blue": 6, "red": 10} and st["now"] == {"blue": 6, "red": 4}
    assert line.split()[3:] == ["6", "10", "won", "by", "red;", "now", "blue", "6,", "red", "4"]
    after.pop()  # taking the redevelopment back, then the award, forgets the award's totals
    after.pop()
    after.pop()
    assert _column_a(after)[0]["totals"] == _column_a(after)[0]["now"]
    assert after.decided == [None] * 11


def test_a_position_file_does_not_invent_the_totals_of_an_award() -> None:
    import json

    from polytile.puzzles.henning.files import dumps_position, read_henning

    redeveloped = read_henning(json.dumps(_AWARD_THEN_REDEVELOP)).state
    st, line = _column_a(read_henning(dumps_position(redeveloped)).state)
    assert st["totals"] is None and st["by"] is None and st["leader"] == "red"
    assert line.split()[3:6] == ["?", "?", "won"]
    untouched = read_henning(json.dumps(_AWARD_THEN_REDEVELOP), move=6).state
    st, _ = _column_a(read_henning(dumps_position(untouched)).state)
    assert st["totals"] == {"blue": 6, "red": 10} and st["by"] == 4
