"""What a new user of the Walkable Cities commands reads and gets (issue #16):
``solve-endgame -o`` and its help, one meaning per JSON field across ``score`` and
``solve-endgame``, the terminal picture's legend, and the column letters and row numbers of
the SVG and PNG pictures."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

from PIL import Image

from polytile.puzzles.walkable.files import dumps_record, load_walkable
from polytile.puzzles.walkable.picture import PICTURE_LEGEND, TEXT_LEGEND, to_png, to_svg
from polytile.puzzles.walkable.rules import Walkable

from .helpers import Invoke, assert_clean_failure
from .test_walkable_solve import near_full


def small_record(tmp_path: Path) -> Path:
    """A record of one round on boards with seven open cells each (solved in milliseconds)."""
    g = Walkable.new(seed=0, dead=93)
    g.play_round("I4 pass | O4 pass")
    path = tmp_path / "game.json"
    path.write_text(dumps_record(g, {"seed": 0, "dead": 93}, {"players": {"red": "me"}}))
    return path


def test_solve_endgame_help_has_a_walkable_example_and_tells_o(invoke: Invoke) -> None:
    out = invoke("solve-endgame", "--help").stdout
    assert re.search(r"polytile solve-endgame walk\.json .*-o \S+\.json", out)
    words = " ".join(out.split())  # as wrapped for the terminal's width
    assert "-o FILE.json writes the game with the best line played" in words
    assert '"round" counts the rounds played' in words


def test_solve_endgame_o_writes_the_record_with_the_best_line(invoke: Invoke,
                                                              tmp_path: Path) -> None:  # fmt: skip
    record, out = small_record(tmp_path), tmp_path / "best.json"
    r = invoke("solve-endgame", str(record), "--move", "0", "-o", str(out), "--json")
    assert r.exit_code == 0, r.stderr
    assert f"wrote {out}" in r.stderr
    line = json.loads(r.stdout)["line"]
    doc = load_walkable(out)  # read back: every round replayed by the rules engine
    assert doc.kind == "record" and doc.state.is_over()
    # the rounds up to --move 0 (none), then the line; the round after --move is dropped
    assert [str(x) for x in doc.rounds] == line
    assert doc.setup == {"seed": 0, "dead": 93}
    assert doc.extra["players"] == {"red": "me"}  # fields polytile does not read are kept
    assert doc.extra["solve_endgame"]["best_line_from_round"] == 1
    assert doc.extra["solve_endgame"]["objective"] == "margin"


def test_solve_endgame_o_after_a_position_and_as_pictures(invoke: Invoke,
                                                          tmp_path: Path) -> None:  # fmt: skip
    late = near_full(tmp_path, ("L4", "Z4"))  # a position between the selection and the drop
    out = tmp_path / "end.json"
    r = invoke("solve-endgame", str(late), "-o", str(out))
    assert r.exit_code == 0, r.stderr
    doc = load_walkable(out)
    assert doc.kind == "position" and doc.state.is_over() and doc.state.round > 60
    for suffix in ("svg", "png", "txt"):
        picture = tmp_path / f"end.{suffix}"
        r = invoke("solve-endgame", str(late), "-o", str(picture))
        assert r.exit_code == 0, r.stderr
        assert picture.stat().st_size > 100
    assert "game over after round" in (tmp_path / "end.txt").read_text()


def test_solve_endgame_o_refusals(invoke: Invoke, tmp_path: Path) -> None:
    late = str(near_full(tmp_path))
    out = tmp_path / "best.json"
    r = invoke("solve-endgame", late, "-o", str(tmp_path / "best.blksgf"))
    assert_clean_failure(r)
    assert "the suffix must be .json" in r.stderr
    assert_clean_failure(invoke("solve-endgame", late, "-o", str(tmp_path / "x.png"),
                                "--cell", "2"))  # fmt: skip
    r = invoke("solve-endgame", late, "--max-drops", "2", "-o", str(out))  # one round only
    assert r.exit_code == 1
    assert f"nothing written to {out}" in r.stderr and not out.exists()


def test_score_and_solve_endgame_json_fields_agree(invoke: Invoke, tmp_path: Path) -> None:
    g = Walkable.new(seed=0, dead=93)
    g.play_round("I4 pass | O4 pass")
    g.play_round("T4 pass | L4 pass")
    path = tmp_path / "game.json"
    path.write_text(dumps_record(g))
    score = json.loads(invoke("score", str(path), "--json").stdout)
    solved = json.loads(invoke("solve-endgame", str(path), "--json").stdout)
    assert score["round"] == solved["round"] == 2  # rounds played, in both
    assert solved["next_round"] == 3 and solved["line"]
    assert score["passes"] == solved["passes"] == {"red": 2, "blue": 2}
    fallback = json.loads(invoke("solve-endgame", str(near_full(tmp_path)), "--max-drops",
                                 "2", "--json").stdout)  # fmt: skip
    assert fallback["round"] == 60 and fallback["passes"] == {"red": 1, "blue": 0}


def test_terminal_picture_has_a_legend(invoke: Invoke, tmp_path: Path) -> None:
    path = tmp_path / "walk.json"
    invoke("selfplay", "walkable", "--seed", "3", "-o", str(path))
    text = invoke("render", str(path), "--no-color").stdout
    lines = text.splitlines()
    assert lines[12] == TEXT_LEGEND  # under the ten rows
    assert re.search(r"\b[rb]\b", "\n".join(lines[2:12]))  # the marks it explains
    assert "R B a player's largest region" in TEXT_LEGEND and "r b its other cells" in TEXT_LEGEND


def test_svg_labels_columns_and_rows_like_the_terminal() -> None:
    svg = to_svg(Walkable.new(seed=1), cell=20)
    labels = re.findall(r"<text [^>]*>([^<]*)</text>", svg)
    for letter in "abcdefghij":
        assert labels.count(letter) == 3  # over each board
    for row in range(1, 11):
        assert labels.count(str(row)) == 1  # at the left, as in the terminal
    assert PICTURE_LEGEND in labels


def test_png_has_ink_where_the_labels_go() -> None:
    cell = 20
    img = Image.open(io.BytesIO(to_png(Walkable.new(seed=1), cell))).convert("L")
    left, top = cell + cell // 2, 3 * cell  # where the first board starts

    def inked(box: tuple[int, int, int, int]) -> bool:
        darkest, _ = img.crop(box).getextrema()
        return darkest < 128

    assert inked((0, top, left, top + cell))  # the row number 1
    assert inked((left, top - cell, left + cell, top))  # the column letter a


def test_score_writes_the_picture_of_every_game(invoke: Invoke, tmp_path: Path) -> None:
    """``score -o`` was ignored for the games with pictures of their own."""
    for game in ("walkable", "henning", "gridblock"):
        path = tmp_path / f"{game}.json"
        assert invoke("new", game, "--seed", "2", "-o", str(path)).exit_code == 0
        out = tmp_path / f"{game}.png"
        result = invoke("score", str(path), "-o", str(out))
        assert result.exit_code == 0, result.stderr
        assert Image.open(out).size[0] > 100


def test_a_position_with_null_picks_is_read(invoke: Invoke, tmp_path: Path) -> None:
    """``picks: null`` is what --json prints between rounds, and what the format allows."""
    path = tmp_path / "g.json"
    assert invoke("new", "walkable", "--seed", "2", "-o", str(path)).exit_code == 0
    doc = json.loads(path.read_text())
    position = load_walkable(str(path), None).state
    from polytile.puzzles.walkable.files import dumps_position

    pos = json.loads(dumps_position(position))
    pos["picks"] = None
    (tmp_path / "p.json").write_text(json.dumps(pos))
    result = invoke("validate", str(tmp_path / "p.json"))
    assert result.exit_code == 0, result.stderr
    assert doc["format"] == pos["format"]


def test_a_game_not_over_has_a_leader_not_a_winner_and_one_round_number(
    invoke: Invoke, tmp_path: Path
) -> None:
    """#48: score --json said "winner": "blue" beside "over": false, and the picture said
    "round 3" where the score said round 2 for the same position."""
    g = Walkable.new(seed=0, dead=93)
    g.play_round("T4 1:g8,h8 2:f8 3:g7 | O4 pass")
    g.play_round("I4 pass | L4 pass")
    path = tmp_path / "game.json"
    path.write_text(dumps_record(g))
    score = json.loads(invoke("score", str(path), "--json").stdout)
    assert score["over"] is False and score["winner"] is None and score["leader"] == "red"
    assert (score["round"], score["next_round"]) == (2, 3)
    shown = invoke("render", str(path), "--no-color").stdout.splitlines()[-1]
    assert shown.startswith("2 rounds played, round 3 next; rotation: ")
    assert "if the game ended now: red wins" in invoke("score", str(path), "--no-color").stdout
