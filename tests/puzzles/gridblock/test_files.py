"""Gridblock files: records, positions and views read back what was written, a view hides what
its player cannot see, and every broken document is refused with the field named."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from polytile.errors import FormatError
from polytile.puzzles.gridblock.files import (
    dumps_position,
    dumps_record,
    dumps_view,
    last_walk,
    load_gridblock,
    read_gridblock,
    split_moves,
)
from polytile.puzzles.gridblock.game import GridblockGame
from polytile.puzzles.gridblock.grid import is_walk, parse_tile, tile_name, walk_to
from polytile.puzzles.gridblock.moves import Move
from polytile.puzzles.gridblock.rules import Gridblock, Options


def _played(seed: int, plies: int, **options: Any) -> Gridblock:
    g = Gridblock.new(seed, Options(**options))
    rng = np.random.default_rng(seed)
    for _ in range(plies):
        if g.is_over():
            break
        legal = g.legal_moves()
        g.push(legal[int(rng.integers(len(legal)))])
    return g


OPTIONS = [
    {},
    {"players": 3, "deal": "split"},
    {"players": 2, "two_player_score": "weaker", "instant_win": True},
    {"players": 2, "deal": "split", "instant_win": True},
]


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("plies", [0, 2, 9, 30, 47, 80])
def test_documents_read_back(options: dict[str, Any], plies: int) -> None:
    g = _played(plies, plies, **options)
    game = GridblockGame.of(g.options)
    text = dumps_position(g)
    pos = read_gridblock(text)
    assert pos.kind == "position" and pos.state.state_key() == g.state_key()
    assert pos.state.winner == g.winner and pos.state.discarded == g.discarded
    assert dumps_position(pos.state) == text
    rec_text = dumps_record(g, {"seed": plies})
    rec = read_gridblock(rec_text)
    assert rec.state.state_key() == g.state_key() and rec.moves == g.move_stack
    assert rec.extra == {"seed": plies} and dumps_record(rec.state, rec.extra) == rec_text
    for player in range(game.num_players):
        view_text = dumps_view(g, player)
        view = read_gridblock(view_text)
        assert view.kind == "view" and view.player == player
        assert (game.state_of(view.state).information_state(player)
                == game.state_of(g).information_state(player))  # fmt: skip
        assert dumps_view(view.state, player) == view_text


def test_a_view_leaves_out_the_hands_its_player_cannot_see() -> None:
    g = _played(5, 4 + 2, players=4)  # set-up, then blue and yellow have played once
    doc = json.loads(dumps_view(g, 2))  # red's view
    assert doc["player"] == "red" and "deals" not in doc
    assert doc["hands"] == {"red": [f"{'ABCDEF'[s]}{v}" for s, v in g.hand(2)]}
    assert doc["played"]["blue"][0] == [f"{'ABCDEF'[s]}{v}" for s, v in g.played[0][0]]
    two = json.loads(dumps_view(_played(5, 4 + 2, players=2), 0))
    assert two["player"] == "blue+red" and set(two["hands"]) == {"blue", "red"}
    # During the set-up the draws still to come are left out.
    early = json.loads(dumps_view(_played(5, 1, players=4), 0))
    assert list(early["setup"]) == ["blue", "yellow"] and early["hands"] == {"blue": []}


def test_a_loaded_view_shows_no_filled_in_hand() -> None:
    g = _played(5, 4 + 2, players=4)
    doc = read_gridblock(dumps_view(g, 2))
    assert doc.hidden_hands() == (0, 1, 3)
    shown = doc.shown_state()
    assert [shown.hand(s) for s in range(4)] == [(), (), g.hand(2), ()]
    assert shown.state_key() == doc.state.state_key()
    whole = read_gridblock(dumps_position(g))
    assert whole.hidden_hands() == () and whole.shown_state() is whole.state


def test_split_even_rounds_show_every_hand_in_a_view() -> None:
    g = _played(3, 4 + 12 + 1, players=4, deal="split")  # round 2, blue has played
    doc = json.loads(dumps_view(g, 1))
    assert set(doc["hands"]) == {"blue", "yellow", "red", "green"}
    assert len(doc["hands"]["blue"]) == 2 and len(doc["hands"]["red"]) == 3
    assert read_gridblock(dumps_view(g, 1)).hidden_hands() == ()


def test_record_move_n_rebuilds_that_position() -> None:
    g = _played(3, 20)
    text = dumps_record(g)
    for n in (0, 4, 11, 20):
        early = g.copy()
        while len(early.move_stack) > n:
            early.pop()
        doc = read_gridblock(text, move=n)
        assert doc.state.state_key() == early.state_key() and len(doc.moves) == 20
        assert doc.state.move_stack == g.move_stack[:n]
    with pytest.raises(FormatError, match=r"outside 0\.\.20"):
        read_gridblock(text, move=21)
    with pytest.raises(FormatError, match="needs a game record"):
        read_gridblock(dumps_position(g), move=1)


def test_every_move_is_checked_even_with_move_n() -> None:
    doc = json.loads(dumps_record(_played(2, 12)))
    doc["moves"][9] = doc["moves"][8]  # the same move again, for the next colour
    with pytest.raises(FormatError, match=r"game.json: moves\[9\]: move 10 "):
        read_gridblock(json.dumps(doc), "game.json", move=3)


def test_walks_are_kept_and_shown() -> None:
    g = _played(4, 4)
    slot = g.to_move_slot
    start = g.mover[slot]
    card = g.hand(slot)[0]
    end = g.legal_moves()[0].tile if g.legal_moves()[0].card == card else None
    move = next(m for m in g.legal_moves() if m.card == card and (end is None or m.tile == end))
    path = walk_to(start, card[1], move.tile)
    assert path is not None
    g.push(Move(move.card, move.tile, move.corner, path))
    text = dumps_record(g)
    assert " via " in json.loads(text)["moves"][-1]
    doc = read_gridblock(text)
    assert doc.moves[-1].path == path and dumps_record(doc.state) == text
    assert last_walk(doc.state) == (start, *path)
    # Without a written walk one is found; a set-up move shows its tile.
    g.pop()
    g.push(move)
    walk = last_walk(g)
    assert walk is not None and walk[0] == start and walk[-1] == move.tile
    assert len(walk) == card[1] + 1 and is_walk(start, walk[1:])
    setup = _played(4, 2)
    assert last_walk(setup) == (setup.move_stack[-1].tile,)
    assert last_walk(Gridblock.new(1)) is None


def test_split_moves() -> None:
    assert split_moves(["setup b3 NE", "setup", "c4", "SW", "C3@d4", "NE", "D1@a1"]) == [
        "setup b3 NE", "setup c4 SW", "C3@d4 NE", "D1@a1"]  # fmt: skip
    assert Move.parse(split_moves(["c3@d4", "ne", "via", "d2,d3,d4"])[0]).path == tuple(
        parse_tile(t) for t in ("d2", "d3", "d4")
    )


def _mutate(text: str, change: Callable[[dict[str, Any]], Any]) -> str:
    doc = json.loads(text)
    change(doc)
    return json.dumps(doc)


def _set_row(key: str, r: int, value: str) -> Callable[[dict[str, Any]], None]:
    return lambda d: d[key].__setitem__(r, value)


BROKEN_POSITIONS = [
    (lambda d: d.update(format="polytile/gridblock@2"), "format", "expected format"),
    (lambda d: d.update(game="henning"), "game", "gridblock"),
    (lambda d: d.update(kind="board"), "kind", "not one of"),
    (lambda d: d.pop("options"), "options", "missing required field"),
    (lambda d: d["options"].update(players=5), "options.players", "2, 3 or 4"),
    (lambda d: d["options"].update(players=True), "options.players", "2, 3 or 4"),
    (lambda d: d["options"].update(deal="open"), "options.deal", "not one of"),
    (lambda d: d["options"].update(instant_win="yes"), "options.instant_win", "true or false"),
    (lambda d: d["options"].update(colour=1), "options.colour", "not an option"),
    (lambda d: d["layout"].pop(), "layout", "6 rows"),
    (_set_row("layout", 2, "ABCDEG"), r"layout\[2\]", "6 symbols A-F"),
    (lambda d: d["decks"].pop("red"), "decks", "missing red"),
    (lambda d: d["decks"].update(purple=[]), "decks.purple", "not a colour in play"),
    (lambda d: d["decks"]["blue"].pop(), "decks.blue", "needs 6 cards"),
    (lambda d: d["decks"]["blue"].__setitem__(1, "G2"), r"decks.blue\[1\]", "a card is"),
    (lambda d: d["setup"].update(blue="Q"), "setup.blue", "symbol A-F"),
    (lambda d: d["deals"]["red"].pop(), "deals.red", "needs 6 hands"),
    (
        lambda d: d["deals"]["red"].__setitem__(4, ["A1", "A1", "B2"]),
        r"deals.red\[4\]",
        "not 3 cards of red's deck",
    ),
    (_set_row("corners", 1, ".... .... .... .... ...."), r"corners\[1\]", "6 tiles"),
    (
        _set_row("corners", 0, "..X. .... .... .... .... ...."),
        r"corners\[0\] tile a1",
        "4 corners",
    ),
    (lambda d: d["movers"].update(green="g7"), "movers.green", "a tile is"),
    (lambda d: d["played"]["blue"][0].append("A1"), "played.blue", "turns, not"),
    (lambda d: d["played"]["blue"][1].append("A1"), r"played.blue\[0\]", "before finishing"),
    (lambda d: d["played"].update(yellow=[[]] * 7), "played.yellow", "at most 6 rounds"),
    (
        lambda d: d["played"]["blue"][0].__setitem__(0, "F9"),
        r"played.blue\[0\]\[0\]",
        "a card is",
    ),
]


@pytest.mark.parametrize(("change", "where", "what"), BROKEN_POSITIONS)
def test_broken_positions_are_refused_by_field(change, where: str, what: str) -> None:  # type: ignore[no-untyped-def]
    text = dumps_position(_played(1, 4 + 6))
    with pytest.raises(FormatError, match=f"pos.json: {where}: .*{what}"):
        read_gridblock(_mutate(text, change), "pos.json")


def _cube_counts(d: dict[str, Any]) -> None:
    """Blue cubes on every corner of the first two empty tiles: more than its turns."""
    rows = [r.split() for r in d["corners"]]
    empty = [(r, c) for r in range(6) for c in range(6) if rows[r][c] == "...."][:2]
    for r, c in empty:
        rows[r][c] = "BBBB"
    d["corners"] = [" ".join(r) for r in rows]


def _undealt_card(d: dict[str, Any]) -> None:
    """Blue's first card this round becomes one it was not dealt."""
    other = next(c for c in d["decks"]["blue"] if c not in d["deals"]["blue"][0])
    d["played"]["blue"][0][0] = other


def test_positions_that_break_the_rules_are_refused() -> None:
    g = _played(1, 4 + 6)
    text = dumps_position(g)
    for change, what in [
        (_cube_counts, "corners: blue has 1[0-9] cube"),
        (_undealt_card, r"played.blue\[0\]: blue played .* but was dealt"),
        (lambda d: d["movers"].update(yellow=None), "movers: movers are placed in turn order"),
        (lambda d: d["movers"].update(green=None), "played: no card is played before every"),
    ]:  # fmt: skip
        doc = json.loads(text)
        change(doc)
        with pytest.raises(FormatError, match=what):
            read_gridblock(json.dumps(doc), "pos.json")
    # A colour that has not moved yet stands where its set-up put it, its cube there.
    g = _played(1, 4)
    doc = json.loads(dumps_position(g))
    t = g.mover[0]
    same = next(u for u in range(36) if u != t and g.layout[u] == g.layout[t])
    other = next(u for u in range(36) if g.layout[u] != g.layout[t])
    doc["movers"]["blue"] = tile_name(other)
    with pytest.raises(FormatError, match=r"movers.blue: blue drew . at set-up and has not moved"):
        read_gridblock(json.dumps(doc), "pos.json")
    doc["movers"]["blue"] = tile_name(same)
    with pytest.raises(
        FormatError, match="corners: blue has not moved since the set-up, so its cube"
    ):
        read_gridblock(json.dumps(doc), "pos.json")


def test_split_deal_must_pair_rounds() -> None:
    g = _played(2, 0, deal="split")
    doc = json.loads(dumps_record(g))
    doc["deals"]["green"][1] = doc["deals"]["green"][0]
    with pytest.raises(FormatError, match=r"deals.green\[1\]: under deal 'split'"):
        read_gridblock(json.dumps(doc), "rec.json")


def test_setup_draw_must_be_in_the_deck_and_on_the_grid() -> None:
    doc = json.loads(dumps_record(_played(2, 0)))
    doc["decks"]["blue"] = ["A1", "A1", "B2", "B2", "C3", "C3"]
    doc["deals"]["blue"] = [["A1", "B2", "C3"]] * 6
    doc["setup"]["blue"] = "F"
    with pytest.raises(FormatError, match=r"setup.blue: blue's deck has no F card"):
        read_gridblock(json.dumps(doc), "rec.json")
    doc = json.loads(dumps_record(_played(2, 0)))
    doc["layout"] = ["AAAAAA"] * 6
    doc["setup"]["blue"] = "C"
    with pytest.raises(FormatError, match=r"setup.blue: no tile shows C"):
        read_gridblock(json.dumps(doc), "rec.json")


def test_illegal_and_unreadable_record_moves_are_named() -> None:
    doc = json.loads(dumps_record(_played(2, 6)))
    doc["moves"][1] = doc["moves"][0]  # yellow cannot copy blue's set-up
    with pytest.raises(FormatError, match=r"moves\[1\]: move 2 setup "):
        read_gridblock(json.dumps(doc), "game.json")
    doc["moves"][1] = "C3 to d4"
    with pytest.raises(FormatError, match=r"moves\[1\]: move 2: a move looks like"):
        read_gridblock(json.dumps(doc), "game.json")
    doc["moves"][1] = 7
    with pytest.raises(FormatError, match=r"moves\[1\]: must be a string"):
        read_gridblock(json.dumps(doc), "game.json")
    finished = json.loads(dumps_record(_played(2, 200)))
    finished["moves"].append(finished["moves"][-1])
    with pytest.raises(FormatError, match=r"moves\[76\]: .*the game is over"):
        read_gridblock(json.dumps(finished), "game.json")


def test_views_that_do_not_fit_are_refused() -> None:
    g = _played(1, 4 + 6)
    text = dumps_view(g, 0)
    for change, where in [
        (lambda d: d.update(player="purple"), "player"),
        (lambda d: d["hands"].update(red=["A1"]), "hands"),
        (lambda d: d["hands"]["blue"].append("A1"), "hands.blue"),
        (lambda d: d.update(setup={"blue": "A"}), "setup"),
        (lambda d: d.pop("hands"), "hands"),
    ]:
        with pytest.raises(FormatError, match=f"view.json: {where}: "):
            read_gridblock(_mutate(text, change), "view.json")


def test_instant_win_positions() -> None:
    g = Gridblock.new(0, Options(instant_win=True))
    for seed in range(40):
        g = _played(seed, 200, instant_win=True)
        if g.winner is not None:
            break
    assert g.winner is not None
    back = read_gridblock(dumps_position(g)).state
    assert back.winner == g.winner and back.is_over()
    # A second winning tile cannot be: the game stops at the first.
    doc = json.loads(dumps_position(g))
    letter = "BYRG"[g.colors[(g.step - len(g.colors) - 1) % len(g.colors)]]
    rows = doc["corners"]
    free = next((r, c) for r in range(6) for c, t in enumerate(rows[r].split()) if t == "....")
    cells = rows[free[0]].split()
    cells[free[1]] = letter * 3 + "."
    rows[free[0]] = " ".join(cells)
    with pytest.raises(FormatError, match="the game stops at the first tile"):
        read_gridblock(json.dumps(doc))


def test_not_json_not_an_object_and_files(tmp_path: Path) -> None:
    with pytest.raises(FormatError, match=r"x.json: line 1.*not valid JSON"):
        read_gridblock("{", "x.json")
    with pytest.raises(FormatError, match="must be a JSON object"):
        read_gridblock("[]", "x.json")
    path = tmp_path / "g.json"
    path.write_text(dumps_record(_played(3, 9)))
    assert load_gridblock(path, move=5).state.step == 5
    with pytest.raises(ValueError, match="mid-game"):
        dumps_record(read_gridblock(dumps_position(_played(3, 9))).state)
    with pytest.raises(ValueError, match="fields of the format"):
        dumps_record(_played(3, 9), {"moves": []})
