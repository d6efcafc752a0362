"""City Blocks (Henning) files: positions, views and records read back what was written, and
every broken document is refused with the field named."""

from __future__ import annotations

import json

import numpy as np
import pytest

from polytile.errors import FormatError
from polytile.puzzles.henning.files import (
    dumps_position,
    dumps_record,
    dumps_view,
    read_henning,
)
from polytile.puzzles.henning.game import HenningGame
from polytile.puzzles.henning.rules import Henning


def _played(seed: int, plies: int) -> Henning:
    g = Henning.new(seed)
    rng = np.random.default_rng(seed)
    for _ in range(plies):
        if g.is_over():
            break
        g.push(g.random_move(rng))
    return g


@pytest.mark.parametrize("seed", range(8))
def test_documents_read_back(seed: int) -> None:
    g = _played(seed, seed * 5)
    assert read_henning(dumps_position(g)).state.state_key() == g.state_key()
    rec = read_henning(dumps_record(g))
    assert rec.state.state_key() == g.state_key() and rec.moves == g.move_stack
    for player in (0, 1):
        view = read_henning(dumps_view(g, player))
        assert view.player == player
        game = HenningGame()
        assert (game.state_of(view.state).information_state(player)
                == game.state_of(g).information_state(player))  # fmt: skip


def test_record_move_n_rebuilds_that_position() -> None:
    g = _played(3, 20)
    text = dumps_record(g)
    for n in (0, 7, 20):
        early = g.copy()
        while len(early.move_stack) > n:
            early.pop()
        assert read_henning(text, move=n).state.state_key() == early.state_key()
    with pytest.raises(FormatError, match=r"outside 0\.\.20"):
        read_henning(text, move=21)
    with pytest.raises(FormatError, match="needs a game record"):
        read_henning(dumps_position(g), move=1)


def test_illegal_record_move_is_named() -> None:
    doc = json.loads(dumps_record(_played(2, 6)))
    doc["moves"][4] = "pass"
    with pytest.raises(FormatError, match=r"moves\[4\]: move 5 pass: .*passing is forced"):
        read_henning(json.dumps(doc), "game.json")


def _mutate(text: str, change) -> str:  # type: ignore[no-untyped-def]
    doc = json.loads(text)
    change(doc)
    return json.dumps(doc)


BROKEN = [
    (lambda d: d.update(format="polytile/henning@2"), "format"),
    (lambda d: d.update(kind="board"), "kind"),
    (lambda d: d["streets"].update({"1": 99}), "streets.1"),
    (lambda d: d["streets"].update({"2": d["streets"]["1"]}), "streets"),
    (lambda d: d["streets"].pop("c"), "streets.c"),
    (lambda d: d["city"].pop(), "city"),
    (lambda d: d["city"].__setitem__(0, "B:H9 . . . . ."), r"city\[0\] column a"),
    (lambda d: d["city"].__setitem__(0, "X:H1 . . . . ."), r"city\[0\] column a"),
    (lambda d: d["money"].update(blue=[16]), r"money.blue\[0\]"),
    (lambda d: d["hands"].update(blue=["H1", "H1", "H1", "H1", "H1", "H1"]), "hands"),
    (lambda d: d.update(to_move="green"), "to_move"),
    (lambda d: d["removed"].append("B:Q1"), r"removed\[\d+\]"),
]


@pytest.mark.parametrize(("change", "where"), BROKEN)
def test_broken_positions_are_refused_by_field(change, where: str) -> None:  # type: ignore[no-untyped-def]
    text = dumps_position(_played(1, 14))
    with pytest.raises(FormatError, match=f"pos.json: {where}"):
        read_henning(_mutate(text, change), "pos.json")


def test_awards_must_match_full_streets() -> None:
    g = _played(4, 30)
    doc = json.loads(dumps_position(g))
    full = next(iter(doc["awards"]))
    del doc["awards"][full]
    with pytest.raises(FormatError, match=f"street {full} is full but has no award"):
        read_henning(json.dumps(doc))


def test_not_json_and_not_an_object() -> None:
    with pytest.raises(FormatError, match="not valid JSON"):
        read_henning("{", "x.json")
    with pytest.raises(FormatError, match="must be a JSON object"):
        read_henning("[]", "x.json")
