"""Gridblock pictures (text, SVG, PNG) and the score breakdown against the engine."""

from __future__ import annotations

import io
import re
import sys
import xml.etree.ElementTree as ET
from collections import Counter

import pytest
from PIL import Image

from polytile.puzzles.gridblock.grid import SYMBOLS, card_name, parse_tile, tile_name
from polytile.puzzles.gridblock.picture import (
    TEXT_LEGEND,
    score_doc,
    score_table,
    to_png,
    to_svg,
    to_text,
)
from polytile.puzzles.gridblock.rules import COLOR_NAMES, Gridblock, Options

SVG = "{http://www.w3.org/2000/svg}"
OPTIONS = [
    Options(players=4),
    Options(players=3),
    Options(players=2),
    Options(players=2, two_player_score="weaker"),
]


def _ref_bonus(corners: list[int]) -> dict[int, dict[int, int]]:
    """Colour -> tile -> bonus, straight from section 5.2 (no engine code)."""
    out: dict[int, dict[int, int]] = {}
    for t in range(36):
        held = Counter(c for c in corners[4 * t : 4 * t + 4] if c != -1)
        pairs = [c for c, n in held.items() if n == 2]
        for c, n in held.items():
            if n >= 3:
                out.setdefault(c, {})[t] = 2
            elif n == 2 and len(pairs) == 1:
                out.setdefault(c, {})[t] = 1
    return out


def _played(seed: int, options: Options) -> Gridblock:
    g = Gridblock.new(seed=seed, options=options)
    g.play_random(seed=seed)
    return g


def _full_tile(g: Gridblock, tile: int) -> None:
    """Fill every corner of ``tile`` (pictures only; not a position reached by play)."""
    for q in range(4):
        if g.corners[4 * tile + q] < 0:
            g.corners[4 * tile + q] = g.colors[q % len(g.colors)]


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: f"{o.players}-{o.two_player_score}")
@pytest.mark.parametrize("seed", range(6))
def test_score_doc_matches_the_engine(options: Options, seed: int) -> None:
    g = _played(seed, options)
    doc = score_doc(g)
    engine = g.scores()
    ref = _ref_bonus(g.corners)
    for slot, c in enumerate(g.colors):
        e = doc["colors"][COLOR_NAMES[c]]
        assert e["total"] == engine[slot] == e["cubes"] + e["bonus"]
        assert e["cubes"] == g.corners.count(c) == g.placed[slot]
        assert e["bonus"] == sum(e["bonus_tiles"].values())
        assert e["bonus_tiles"] == {tile_name(t): b for t, b in sorted(ref.get(c, {}).items())}
        assert e["supply"] == 0 and e["hand"] is None
    totals = {COLOR_NAMES[c]: engine[slot] for slot, c in enumerate(g.colors)}
    points = {name: p["points"] for name, p in doc["players"].items()}
    if options.players == 2:
        join = min if options.two_player_score == "weaker" else (lambda a, b: a + b)
        assert points == {"blue+red": join(totals["blue"], totals["red"]),
                          "yellow+green": join(totals["yellow"], totals["green"])}  # fmt: skip
        assert doc["player_score"] == options.two_player_score
    else:
        assert points == totals
    assert list(points.values()) == [int(r) for r in g.returns()]
    best = max(points.values())
    assert doc["over"] and doc["winners"] == [n for n, p in points.items() if p == best]
    assert doc["tie"] == (len(doc["winners"]) > 1)
    assert doc["round"] == 6 and doc["turn"] is None and doc["to_move"] is None
    assert doc["instant_winner"] is None
    table = score_table(g, color=False)
    assert ("a tie between" in table) == doc["tie"]
    for name, e in doc["colors"].items():
        assert re.search(rf"^{name} +{e['cubes']} +{e['bonus']} +{e['total']} +0 ", table, re.M)


def test_worked_example_8_3() -> None:
    g = Gridblock.new(seed=1, options=Options(players=3))
    p, q, t = parse_tile("a1"), parse_tile("b1"), parse_tile("c1")
    g.corners[4 * p : 4 * p + 4] = [0, 0, 0, 1]
    g.corners[4 * q : 4 * q + 4] = [0, 0, 1, 1]
    g.corners[4 * t : 4 * t + 4] = [0, 0, 2, -1]
    doc = score_doc(g)["colors"]
    assert doc["blue"] == doc["blue"] | {"cubes": 7, "bonus": 3, "total": 10,
                                         "bonus_tiles": {"a1": 2, "c1": 1}}  # fmt: skip
    assert (doc["yellow"]["total"], doc["yellow"]["bonus"], doc["red"]["total"]) == (3, 0, 1)
    row1 = to_text(g, color=False).splitlines()[3]  # the symbols of row 1; a1 is full
    assert row1.split("|")[1].strip() == f"[{SYMBOLS[g.layout[p]]}]"


def test_mid_game_doc_and_set_up() -> None:
    g = Gridblock.new(seed=4)
    doc = score_doc(g)
    assert doc["setup"] and doc["round"] == 0 and doc["to_move"] == "blue"
    assert all(e["hand"] is None and e["mover"] is None for e in doc["colors"].values())
    assert "set-up: blue places its mover" in to_text(g, color=False)
    for _ in range(4 + 5):  # the set-up, then five turns: round 1, turn 2, yellow to move
        g.push(g.legal_moves()[0])
    doc = score_doc(g)
    assert (doc["round"], doc["turn"], doc["to_move"], doc["over"]) == (1, 2, "yellow", False)
    assert doc["colors"]["yellow"]["hand"] == [card_name(c) for c in g.hand(1)]
    assert len(doc["colors"]["yellow"]["hand"]) == 2
    assert doc["colors"]["blue"]["supply"] == 19 - 3 and doc["winners"] is None
    assert "round 1 of 6, turn 2 of 3: yellow to move" in to_text(g, color=False)


@pytest.mark.parametrize("players", [2, 3])
def test_instant_win(players: int) -> None:
    seed = {2: 15, 3: 20}[players]  # seeds whose random game ends by an instant win
    g = _played(seed, Options(players=players, instant_win=True))
    assert g.winner is not None
    doc = score_doc(g)
    name = ["blue+red", "yellow+green"][g.winner] if players == 2 else COLOR_NAMES[g.winner]
    assert doc["over"] and doc["instant_winner"] == name and doc["winners"] == [name]
    assert doc["players"][name]["points"] < 1000  # the premium is not points
    assert f"{name} won at once" in to_text(g, color=False)


def test_text_colour_and_marks(monkeypatch: pytest.MonkeyPatch) -> None:
    g = _played(2, Options(players=2))
    blocked = parse_tile("d5")
    _full_tile(g, blocked)
    walk = (parse_tile("b2"), parse_tile("b3"), parse_tile("c3"), parse_tile("c4"))
    plain = to_text(g, color=False, last=walk)
    assert "\x1b" not in plain and plain.isascii()
    lines = plain.splitlines()
    assert lines[0].split() == list("abcdef")
    assert all(ln == "   " + "+---------" * 6 + "+" for ln in lines[1:26:4])
    assert [ln.split("|")[0].strip() for ln in lines[3:26:4]] == list("123456")

    def cell(tile: int, line: int) -> str:
        r, c = divmod(tile, 6)
        return lines[2 + 4 * r + line].split("|")[1 + c]

    for i, t in enumerate(walk):
        assert f"*{i}" in cell(t, 0)
    assert plain.count("*") == 4 + 2  # four marks and the legend's "*0..*3"
    assert "[" in cell(blocked, 1) and "#####" in cell(blocked, 2)
    assert sum("[" in cell(t, 1) for t in range(36)) == sum(
        min(g.corners[4 * t : 4 * t + 4]) >= 0 for t in range(36)
    )
    for t in range(36):
        corners = cell(t, 0)[0] + cell(t, 0)[-1] + cell(t, 2)[-1] + cell(t, 2)[0]
        assert corners == "".join(".BYRG"[c + 1] for c in g.corners[4 * t : 4 * t + 4])
    for slot, c in enumerate(g.colors):
        assert "byrg"[c] in cell(g.mover[slot], 1)
    assert "blue+red" in lines[-2] and "game over" in lines[-1]
    coloured = to_text(g, color=True, last=walk)
    assert "\x1b[" in coloured and re.sub(r"\x1b\[[0-9;]*m", "", coloured) == plain
    monkeypatch.setattr(sys, "stdout", io.StringIO())  # not a terminal
    assert "\x1b" not in to_text(g) and "\x1b" not in score_table(g)

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stdout", Tty())
    assert "\x1b[" in to_text(g) and "\x1b[" in score_table(g)


def test_svg() -> None:
    g = _played(7, Options(players=4))
    blocked = parse_tile("f6")
    _full_tile(g, blocked)
    g.name = 'seed <7> & "friends"'  # type: ignore[attr-defined]
    walk = (parse_tile("a1"), parse_tile("b1"), parse_tile("b2"))
    text = to_svg(g, tile_px=60, last=walk)
    assert "<7>" not in text
    root = ET.fromstring(text)
    assert root.tag == SVG + "svg"
    assert root.findtext(SVG + "title") == g.name  # type: ignore[attr-defined]
    rects = root.iter(SVG + "rect")
    by_class = Counter(r.get("class") for r in rects)
    full = [t for t in range(36) if min(g.corners[4 * t : 4 * t + 4]) >= 0]
    assert by_class["tile"] + by_class["tile gridblocked"] == 36
    assert by_class["tile gridblocked"] == len(full) >= 1
    assert by_class["cube"] == sum(c >= 0 for c in g.corners)
    assert by_class["walk-tile"] == 3
    gridblocked = {r.get("data-tile") for r in root.iter(SVG + "rect")
                   if r.get("class") == "tile gridblocked"}  # fmt: skip
    assert tile_name(blocked) in gridblocked
    movers = [
        str(c.get("data-color")) for c in root.iter(SVG + "circle") if c.get("class") == "mover"
    ]
    assert sorted(movers) == sorted(COLOR_NAMES)
    walk_line = [p for p in root.iter(SVG + "polyline") if p.get("class") == "walk"]
    assert len(walk_line) == 1 and len(walk_line[0].get("points", "").split()) == 3
    assert walk_line[0].get("marker-end") == "url(#walk-end)"
    texts = [t.text or "" for t in root.iter(SVG + "text")]
    assert set("abcdef123456") <= set(texts)
    for name in COLOR_NAMES:
        assert any(t.startswith(f"{name}: {score_doc(g)['colors'][name]['total']} ")
                   for t in texts)  # fmt: skip


@pytest.mark.parametrize("tile_px", [24, 72])
def test_png_has_the_svg_size(tile_px: int) -> None:
    g = _played(3, Options(players=2, two_player_score="weaker"))
    walk = (g.mover[0],)
    root = ET.fromstring(to_svg(g, tile_px=tile_px, last=walk))
    data = to_png(g, tile_px=tile_px, last=walk)
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    with Image.open(io.BytesIO(data)) as img:
        assert img.size == (int(root.get("width", 0)), int(root.get("height", 0)))
        assert img.width >= 6 * tile_px and img.height >= 6 * tile_px


def test_bad_arguments() -> None:
    g = Gridblock.new(seed=1)
    with pytest.raises(ValueError, match="tile_px"):
        to_svg(g, tile_px=4)
    with pytest.raises(ValueError, match="not on the 6x6 grid"):
        to_text(g, color=False, last=(3, 36))


def test_text_legend_says_every_mark_and_the_walk() -> None:
    g = _played(2, Options(players=2))
    walk = (parse_tile("b2"), parse_tile("b3"), parse_tile("c3"))
    lines = to_text(g, color=False, last=walk).splitlines()
    legend = lines.index(TEXT_LEGEND)
    assert legend == 26 and lines[legend - 1].startswith("   +---")  # under the grid
    assert (
        lines[legend + 1]
        == "*0..*2 last walk: the last move's, step by step from where its mover started"
    )
    assert not any("walk" in ln for ln in to_text(g, color=False).splitlines())
    assert TEXT_LEGEND in to_text(g, color=False).splitlines()


def _legend(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    groups = [el for el in root.iter(SVG + "g") if el.get("class") == "legend"]
    assert len(groups) == 1
    return [t.text or "" for t in groups[0].iter(SVG + "text")]


def test_svg_legend_explains_cubes_movers_gridblocked_and_the_walk() -> None:
    g = _played(7, Options(players=4))
    walk = (parse_tile("a1"), parse_tile("b1"), parse_tile("b2"))
    shown = _legend(to_svg(g, tile_px=60, last=walk))
    assert [s.split()[0].rstrip(",:") for s in shown] == ["cubes", "movers", "gridblocked", "the"]
    assert "the last move's walk" in shown[-1] and "ring" in shown[-1] and "arrow" in shown[-1]
    assert not any("walk" in s for s in _legend(to_svg(g, tile_px=60)))
    # the legend's drawings take none of the classes the grid's marks are counted by
    root = ET.fromstring(to_svg(g, tile_px=60, last=walk))
    (group,) = [el for el in root.iter(SVG + "g") if el.get("class") == "legend"]
    assert all(el.get("class") in (None, "legend") for el in group.iter() if el is not group)


def test_png_legend_is_drawn_under_the_grid() -> None:
    """The PNG grows by one row per legend row, and the walk's row draws the walk's purple
    under the grid (the grid's own walk is inside it)."""
    g = _played(3, Options(players=2))
    walk = (parse_tile("a1"), parse_tile("a2"))
    with_walk = Image.open(io.BytesIO(to_png(g, tile_px=48, last=walk))).convert("RGB")
    without = Image.open(io.BytesIO(to_png(g, tile_px=48))).convert("RGB")
    assert with_walk.height - without.height == round(max(8, round(48 * 0.2)) * 1.5)
    grid_bottom = round(48 * 0.45) + 6 * 48 + 2

    def purple(img: Image.Image) -> int:
        below = img.crop((0, grid_bottom, img.width, img.height))
        return sum(n for n, c in below.getcolors(1 << 20) or [] if c == (0x7B, 0x1F, 0xA2))

    assert purple(with_walk) > 50 and purple(without) == 0
