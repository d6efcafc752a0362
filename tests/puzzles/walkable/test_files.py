"""Walkable Cities files: records and positions round-trip, every field is checked, every
round replayed, and errors name the field."""

from __future__ import annotations

import json

import pytest

from polytile.errors import FormatError
from polytile.puzzles.walkable.files import dumps_position, dumps_record, read_walkable
from polytile.puzzles.walkable.players import self_play
from polytile.puzzles.walkable.rules import Options, Walkable


def played(seed: int = 3, rounds: int | None = None) -> Walkable:
    g = Walkable.new(seed, options=Options(4, "B"))
    self_play(g, ("greedy", "random"), seed=seed, max_rounds=rounds)
    return g


def test_record_round_trip_and_move() -> None:
    g = played()
    text = dumps_record(g, {"seed": 3, "dead": 10}, {"note": "kept"})
    doc = read_walkable(text)
    assert doc.kind == "record" and doc.state.state_key() == g.state_key()
    assert doc.state.is_over() and doc.setup == {"seed": 3, "dead": 10}
    assert doc.extra == {"note": "kept"} and dumps_record(doc.state, doc.setup, doc.extra) == text
    early = read_walkable(text, move=5).state
    h = Walkable.new(3, options=Options(4, "B"))
    for rnd in doc.rounds[:5]:
        h.play_round(rnd)
    assert early.state_key() == h.state_key() and early.round == 5
    with pytest.raises(FormatError, match="--move 999"):
        read_walkable(text, move=999)


def test_position_round_trip_with_and_without_picks() -> None:
    g = played(rounds=7)
    doc = read_walkable(dumps_position(g))
    assert doc.kind == "position" and doc.state.state_key() == g.state_key()
    g.select(*g.pick_choices()[:1] * 2)
    doc = read_walkable(dumps_position(g))
    assert doc.state.state_key() == g.state_key() and doc.state.phase == "drop"
    with pytest.raises(ValueError, match="mid-game"):
        dumps_record(doc.state)


def edited(doc_text: str, **fields: object) -> str:
    doc = json.loads(doc_text)
    doc.update(fields)
    return json.dumps(doc)


@pytest.mark.parametrize(
    ("fields", "where", "message"),
    [
        ({"format": "polytile/gridblock@1"}, "format", "expected format"),
        ({"kind": "view"}, "kind", "is not one of"),
        ({"options": {"pass_limit": 5}}, "options.pass_limit", "3 or 4"),
        ({"options": {"undo": True}}, "options.undo", "unknown option"),
        ({"options": {"tiebreak": "X"}}, "options.tiebreak", "not one of"),
        ({"boards": []}, "boards", "3 boards"),
        ({"rounds": ["T4 pass | L4 pass", 7]}, r"rounds\[1\]", "must be a string"),
        ({"rounds": ["T4 pass | T9 pass"]}, r"rounds\[0\]", "not a piece"),
        ({"rounds": ["T4 1:a1,b1 2:c1 3:b2 | L4 pass"] * 2}, r"rounds\[1\]", "T4"),
        (
            {
                "rounds": [
                    "T4 pass | L4 pass",
                    "O4 pass | O4 pass",
                    "I4 pass | Z4 pass",
                    "T4 pass | T4 pass",
                ]
            },
            r"rounds\[3\]",
            "already over",
        ),
        ({"setup": {"seed": 4, "dead": 10}}, "boards", "not those of seed 4"),
        ({"setup": {"seed": 4}}, "setup", "seed and dead"),
    ],
)
def test_record_errors_name_the_field(fields: dict[str, object], where: str, message: str) -> None:
    text = dumps_record(Walkable.new(3), {"seed": 3, "dead": 10})
    with pytest.raises(FormatError, match=f"{where}: .*{message}"):
        read_walkable(edited(text, **fields), "g.json")


def test_board_cells_are_checked() -> None:
    doc = json.loads(dumps_record(Walkable.new(3)))
    doc["boards"][1][4] = "....R....."
    # the field as JSON counts it, the place as the game writes it (e5 on board 2, #48)
    with pytest.raises(FormatError, match=r"boards\[1\]\[4\]: e5 on board 2: 'R' is not a cell"):
        read_walkable(json.dumps(doc))
    doc["boards"][1][4] = "...."
    with pytest.raises(FormatError, match=r"boards\[1\]\[4\]: row 5 of board 2 must be 10 cells"):
        read_walkable(json.dumps(doc))


@pytest.mark.parametrize(
    ("fields", "where", "message"),
    [
        ({"rotation": ["I4", "I4"]}, "rotation", "twice"),
        ({"rotation": ["X4"]}, r"rotation\[0\]", "not one of"),
        ({"passes": {"red": 0}}, "passes", "red and blue"),
        ({"passes": {"red": 0, "blue": 9}}, "passes.blue", "from 0 to 4"),
        ({"round": 0}, "boards", "more than 4 a round"),
        ({"round": 1, "passes": {"red": 2, "blue": 0}}, "passes.red", "cannot have passed"),
        ({"round": 6, "passes": {"red": 0, "blue": 4}}, "boards", "more than 4 a round"),
        ({"round": -1}, "round", "from 0"),
        ({"picks": ["I4"]}, "picks", "2 to 2"),
        ({"picks": ["I4", "I4"], "rotation": ["I4"]}, "picks", "left the rotation"),
    ],
)
def test_position_errors_name_the_field(fields: dict[str, object], where: str,
                                        message: str) -> None:  # fmt: skip
    text = dumps_position(played(rounds=6))
    with pytest.raises(FormatError, match=f"{where}: .*{message}"):
        read_walkable(edited(text, **fields), "p.json")


def test_a_position_where_every_cell_of_a_player_died() -> None:
    g = Walkable.new(1, dead=0)
    g.play_round("O4 1:a1,b1 2:a2,b2 | O4 1:a1,b1 2:a2,b2")
    doc = read_walkable(dumps_position(g))
    assert doc.state.state_key() == g.state_key() and doc.state.passes == (0, 0)
