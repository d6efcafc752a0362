"""``polytile solve-endgame``: exact Blokus endgames from positions and game records."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from polytile.formats import save
from polytile.puzzles.blokus.notation import move_text
from polytile.puzzles.blokus.rules import Blokus, Move
from polytile.puzzles.blokus.sgf import read_blksgf

from .helpers import EXAMPLES, Invoke, assert_clean_failure

RECORD = EXAMPLES / "duo-endgame.blksgf"


def end_of_record() -> Blokus:
    return read_blksgf(RECORD).position()


def four_player_ending(seed: int, most: int = 3) -> Blokus:
    """A seeded random 4-player game, up to where no colour can place more than ``most``
    pieces."""
    import numpy as np

    from polytile.puzzles.blokus.endgame import endgame_size

    game = Blokus("classic", 4)
    rng = np.random.default_rng(seed)
    while max(endgame_size(game).values()) > most:
        moves = game.legal_moves()
        game.push(moves[int(rng.integers(len(moves)))])
    return game


def test_json_value_and_line_replay(invoke: Invoke) -> None:
    result = invoke("solve-endgame", str(RECORD), "--json")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["mode"] == "difference" and doc["players"] == ["blue", "yellow"]
    line = doc["lines"]["blue"]
    game = end_of_record()
    assert doc["to_move"] == game.to_move
    for m in line["pv"]:
        game.push(Move(m["color"]) if m.get("pass") else Move(m["color"], m["piece"], m["cells"]))
    assert game.is_game_over()
    totals = game.score().player_totals
    assert doc["value"] == line["value"] == totals["blue"] - totals["yellow"]
    assert doc["best_move"] == line["pv"][0]


def test_json_says_whose_lead_the_value_is(invoke: Invoke) -> None:
    """As every game's values do (docs/architecture.md, "One convention for values")."""
    doc = json.loads(invoke("solve-endgame", str(RECORD), "--json").stdout)
    assert doc["lead"] == "blue's final score minus yellow's"


def test_text_shows_value_best_move_and_picture(invoke: Invoke) -> None:
    result = invoke("solve-endgame", str(RECORD), "--no-color")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(invoke("solve-endgame", str(RECORD), "--json").stdout)
    best = Move(doc["best_move"]["color"], doc["best_move"]["piece"], doc["best_move"]["cells"])
    out = result.stdout
    assert f"Exact value: blue {doc['value']:+d} against yellow" in out
    assert f"Best move: {doc['best_move']['text']}" in out  # the one notation, as JSON's
    assert doc["best_move"]["text"].startswith(f"{best.color} {best.piece} ")
    rows = [line.split(" ") for line in out.splitlines()
            if len(line) == 27 and all(len(w) == 1 for w in line.split(" "))]  # fmt: skip
    assert len(rows) == 14
    lit = {(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "y"}
    assert lit == set(best.cells)
    assert "Best line (" in out and "Searched" in out


def test_a_position_file_and_a_record_written_back(invoke: Invoke, tmp_path: Path) -> None:
    game = end_of_record()
    position = tmp_path / "late.json"
    save(game.to_position(), position)
    out = tmp_path / "analysed.blksgf"
    result = invoke("solve-endgame", str(position), "-o", str(out), "--json")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    record = read_blksgf(out)
    placed = [m for m in doc["lines"]["blue"]["pv"] if not m.get("pass")]
    assert len(record.moves) == len(placed)
    assert "exact value blue" in record.comments[1]
    assert record.position().is_game_over()  # the line replays to the end


def test_a_record_keeps_its_moves_before_the_line(invoke: Invoke, tmp_path: Path) -> None:
    out = tmp_path / "analysed.blksgf"
    n = len(read_blksgf(RECORD).moves)
    result = invoke("solve-endgame", str(RECORD), "--move", str(n), "-o", str(out))
    assert result.exit_code == 0, result.stderr
    written = read_blksgf(out)
    assert written.moves[:n] == read_blksgf(RECORD).moves
    assert len(written.moves) > n and n + 1 in written.comments


def test_too_large_is_refused_with_bounds(invoke: Invoke) -> None:
    result = invoke("solve-endgame", str(RECORD), "--move", "10", "--json", "--bounds-time", "1")
    assert result.exit_code == 1
    assert "too large for an exact search" in result.stderr
    doc = json.loads(result.stdout)
    assert doc["exact"] is False and set(doc["colors"]) == {"blue", "yellow"}
    for bound in doc["colors"].values():
        assert bound["lower"] <= bound["upper"]
    # and the moves estimated by tree search in the time left, labelled
    estimate = doc["estimate"]
    assert estimate["kind"] == "mcts-estimate" and estimate["exact"] is False
    game = read_blksgf(RECORD).position(10)
    assert estimate["playouts"] >= 1 and estimate["player"] == game.to_move
    assert estimate["lead"] == "blue's final score minus yellow's"  # as the exact value's
    legal = {move_text(m, game.size) for m in game.legal_moves()}
    assert estimate["best"] in legal and {m["move"] for m in estimate["moves"]} <= legal


def test_the_bounds_leave_the_estimate_its_share_of_the_limit(monkeypatch: Any) -> None:
    """#49: with 5 s, the bounds took the whole limit and no estimate was made. They now stop
    where the estimate's share begins (a quarter of the limit, at least ESTIMATE_LEAST s, at
    most half of what is left)."""
    from polytile.puzzles.blokus import bounds_verb, endgame_verb
    from polytile.puzzles.blokus.endgame_verb import _Bounds

    asked: list[float] = []
    deadlines: list[float | None] = []

    class Clock(endgame_verb._NoClock):
        def left(self, limit: float | None, reserve: float = 0.0) -> float | None:
            return 8.0  # of a 10 s limit, at the bounds' start and at the estimate's

        def deadline(self, limit: float | None) -> endgame_verb._NoClock:
            deadlines.append(limit)
            return self

    def bounds(game: Any, colors: Any, seconds: float, *args: Any) -> list[Any]:
        asked.append(seconds)
        return []

    monkeypatch.setattr(bounds_verb, "color_bounds", bounds)
    monkeypatch.setattr(_Bounds, "_estimate", lambda self: None)
    monkeypatch.setattr(endgame_verb, "ESTIMATE_SHARE", 0.25)  # the command's, not the tests'
    monkeypatch.setattr(endgame_verb, "ESTIMATE_LEAST", 10.0)
    game = read_blksgf(RECORD).position(10)
    quiet = type("Quiet", (), {"err": lambda self, *a: None, "out": lambda self, *a: None})()
    b = _Bounds(quiet, game, True, str(RECORD), Clock(), 10.0, 5.0)
    b.refuse("too large", None)
    assert asked == [1.0, 1.0] and deadlines == [6.0]  # 4 s kept: half of the 8 s left
    assert b._estimate_reserve(100.0) == endgame_verb.ESTIMATE_LEAST
    game.push(game.legal_moves()[0])
    while len(game.legal_moves()) > 1:  # no move to choose: nothing is kept back
        game.push(game.legal_moves()[0])
    assert _Bounds(quiet, game, True, "", Clock(), 10.0, 5.0)._estimate_reserve(8.0) == 0.0


def test_bounds_that_settle_the_value_give_an_exact_line(invoke: Invoke, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch,
                                                          ) -> None:  # fmt: skip
    # A self-played Duo game whose board is split by move 16: each colour's best layout lies
    # in its own territory, so the bounds pin both final scores and settle the game.
    record = tmp_path / "split.blksgf"
    made = invoke("selfplay", "blokus", "--variant", "duo", "--seed", "3", "-o", str(record))
    assert made.exit_code == 0, made.stderr
    game = read_blksgf(record).position(16)
    settled = invoke("solve-endgame", str(record), "--move", "16", "--max-pieces", "5",
                     "--json", "--bounds-time", "5")  # fmt: skip
    assert settled.exit_code == 0, settled.stderr
    assert "--max-pieces" in settled.stderr and "settle it exactly" in settled.stderr
    doc = json.loads(settled.stdout)
    assert doc["settled_by_bounds"] is True and doc["nodes"] == 0
    for m in doc["lines"]["blue"]["pv"]:
        game.push(Move(m["color"]) if m.get("pass") else Move(m["color"], m["piece"], m["cells"]))
    totals = game.score().player_totals
    assert game.is_game_over() and doc["value"] == totals["blue"] - totals["yellow"]
    searched = json.loads(invoke("solve-endgame", str(record), "--move", "16", "--json").stdout)
    assert searched["settled_by_bounds"] is False
    assert doc["value"] == searched["value"]  # the exact search agrees
    text = invoke("solve-endgame", str(record), "--move", "16", "--max-pieces", "5",
                  "--bounds-time", "5", "--no-color").stdout  # fmt: skip
    assert f"Exact value: blue {doc['value']:+d} against yellow" in text
    assert "Settled by the bounds in" in text and "with no search" in text
    assert "Best line (" in text
    # Two moves earlier yellow can still place 14 pieces, more than the search takes (12):
    # render --best gets its move from the bounds too, the first of the settled line.
    early = json.loads(invoke("solve-endgame", str(record), "--move", "14", "--json",
                              "--bounds-time", "120", "--time-limit", "240").stdout)  # fmt: skip
    # (a cap and a limit a busy machine needs: the proof ends the search once it is found)
    assert early["settled_by_bounds"] is True
    best = Move(early["best_move"]["color"], early["best_move"]["piece"],
                early["best_move"]["cells"])  # fmt: skip
    # render --best gives CP-SAT 2 s a colour, which a busy machine's two proofs overran
    # (#48): the cap is raised here; the proof ends the search as soon as it is found
    monkeypatch.setattr("polytile.puzzles.blokus.verbs._SETTLE_SECONDS", 120.0)
    shown = invoke("render", str(record), "--move", "14", "--best", "--no-color")
    assert shown.exit_code == 0, shown.stderr
    assert f"the best move, {best.color} {best.piece}" in shown.stdout


def test_bounds_settle_four_players_scores_as_the_search_does(
    invoke: Invoke, tmp_path: Path
) -> None:
    position = tmp_path / "four.json"
    save(four_player_ending(3, most=6).to_position(), position)
    searched = json.loads(invoke("solve-endgame", str(position), "--json").stdout)["values"]
    # Yellow's and green's areas meet: the bounds settle blue and red only.
    refused = invoke("solve-endgame", str(position), "--max-pieces", "1", "--json",
                     "--bounds-time", "2")  # fmt: skip
    assert refused.exit_code == 1
    doc = json.loads(refused.stdout)
    assert doc["settled"] == {"blue": searched["blue"], "red": searched["red"]}
    for name in ("yellow", "green"):
        bound = doc["colors"][name]
        assert bound["score_lower"] <= searched[name] <= bound["score_upper"]
    # Every colour of this one is pinned: the bounds give the whole result.
    save(four_player_ending(7).to_position(), position)
    settled = invoke("solve-endgame", str(position), "--max-pieces", "1", "--json",
                     "--bounds-time", "2")  # fmt: skip
    assert settled.exit_code == 0, settled.stderr
    values = json.loads(invoke("solve-endgame", str(position), "--json").stdout)["values"]
    assert json.loads(settled.stdout)["values"] == values


def test_four_players_each_get_a_guaranteed_score(invoke: Invoke, tmp_path: Path) -> None:
    game = four_player_ending(4)
    position = tmp_path / "four.json"
    save(game.to_position(), position)
    result = invoke("solve-endgame", str(position), "--json")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["mode"] == "max-own" and doc["value"] is None
    assert set(doc["values"]) == {"blue", "yellow", "red", "green"}
    assert next(iter(doc["lines"])) == game.to_move
    only = json.loads(invoke("solve-endgame", str(position), "--json", "--player", "red").stdout)
    assert only["values"] == {"red": doc["values"]["red"]}


def test_output_with_player_writes_that_players_line(invoke: Invoke, tmp_path: Path) -> None:
    game = four_player_ending(7)  # ends with moves left for every colour
    position = tmp_path / "four.json"
    save(game.to_position(), position)
    other = next(c for c in game.colors if c != game.to_move)
    out = tmp_path / "other.blksgf"
    result = invoke("solve-endgame", str(position), "--player", other, "-o", str(out), "--json")
    assert result.exit_code == 0, result.stderr
    line = json.loads(result.stdout)["lines"][other]["pv"]
    record = read_blksgf(out)
    assert len(record.moves) == sum(1 for m in line if not m.get("pass")) > 0
    assert f"{other}'s line" in record.comments[1]


def test_output_checked_before_the_search(invoke: Invoke, tmp_path: Path) -> None:
    missing = tmp_path / "no-such-folder" / "out.blksgf"
    result = invoke("solve-endgame", str(EXAMPLES / "duo-endgame.blksgf"), "-o", str(missing))
    assert_clean_failure(result)
    assert "no folder" in result.stderr and "Searched" not in result.stdout
    # a position whose colour placed I1 last cannot become a record without losing its bonus
    done = tmp_path / "blue-done.json"  # a self-played Duo game: blue placed all, I1 last
    done.write_text(json.dumps({
        "format": "polytile/position@1", "game": "blokus", "variant": "duo", "players": 2,
        "board": [
        "BB.B.BB.BB.BBB",
        "B.BB.BB..BB.B.",
        ".B.BB..BB...B.",
        "BB...B..B.BB.B",
        "BB..BBB.B..B.B",
        "..BB.B.B..BB.B",
        ".B.BB..BBB.YYY",
        ".B..B.B.YBYYB.",
        ".B....B.BYBBBB",
        ".B..BBB.BYYYY.",
        ".B.....BYBBBBY",
        "B..B...BY....Y",
        "BB..BB.BY...YY",
        "B.BBB.BBY.YY..",
        ],
        "to_move": "yellow",
        "hands": {"blue": [], "yellow": ["I3", "V3", "O4", "T4", "Z4", "F5", "I5", "P5",
                                         "T5", "U5", "V5", "W5", "X5", "Y5", "Z5"]},
        "last_piece": {"blue": "I1", "yellow": "I1"},
        "passes": {"blue": 0, "yellow": 14},
    }))  # fmt: skip
    result = invoke("solve-endgame", str(done), "-o", str(tmp_path / "x.blksgf"))
    assert_clean_failure(result)
    assert "placed I1 last" in result.stderr


def test_bad_input(invoke: Invoke, tmp_path: Path) -> None:
    assert_clean_failure(invoke("solve-endgame", str(tmp_path / "missing.json")))
    assert_clean_failure(invoke("solve-endgame", str(EXAMPLES / "pentomino-6x10.json")))
    assert_clean_failure(invoke("solve-endgame", str(RECORD), "--move", "999"))
    assert_clean_failure(invoke("solve-endgame", str(RECORD), "--player", "red"))
    assert_clean_failure(invoke("solve-endgame", str(RECORD), "-o", str(tmp_path / "x.pdf")))
    for seconds in ("nan", "inf", "0", "1e11"):  # 1e11: an OverflowError setting the alarm
        assert_clean_failure(invoke("solve-endgame", str(RECORD), "--time-limit", seconds))
    for seconds in ("nan", "1e11"):
        assert_clean_failure(invoke("bounds", str(RECORD), "--time-limit", seconds))
    assert_clean_failure(invoke("solve", "cityblocks-max", "--time-limit", "1e11"))


def test_colour_names_ignore_case(invoke: Invoke) -> None:
    result = invoke("bounds", str(RECORD), "--color", "BLUE", "--json", "--time-limit", "2")
    assert result.exit_code == 0, result.stderr
    assert list(json.loads(result.stdout)["colors"]) == ["blue"]


def test_render_best_highlights_the_recommended_move(invoke: Invoke) -> None:
    doc = json.loads(invoke("solve-endgame", str(RECORD), "--json").stdout)
    result = invoke("render", str(RECORD), "--best", "--no-color")
    assert result.exit_code == 0, result.stderr
    rows = [line.split(" ") for line in result.stdout.splitlines() if len(line) == 27]
    lit = {(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "y"}
    assert lit == {tuple(cell) for cell in doc["best_move"]["cells"]}
    assert "highlighted: the best move, yellow" in result.stdout
    too_big = invoke("render", str(RECORD), "--best", "--move", "10")
    assert_clean_failure(too_big, 1)
    assert "too large" in too_big.stderr


def _henning_record(tmp_path: Path, invoke: Invoke) -> Path:
    path = tmp_path / "henning.json"
    result = invoke("selfplay", "henning", "--seed", "3", "-o", str(path))
    assert result.exit_code == 0, result.stderr
    return path


def test_henning_view_scores_every_move_as_an_estimate(invoke: Invoke, tmp_path: Path) -> None:
    from polytile.puzzles.henning.files import load_henning

    path = _henning_record(tmp_path, invoke)
    n = len(load_henning(path).moves) - 2  # two blocks left, a tile hidden in each reserve
    g = load_henning(path, n).state
    result = invoke("solve-endgame", str(path), "--move", str(n), "--view", "--json", "-w", "1")
    assert result.exit_code == 1, result.stderr  # an estimate: no exact value
    doc = json.loads(result.stdout)
    assert doc["kind"] == "pimc-estimate" and doc["exact_values"] is False
    assert doc["exact_average"] and doc["complete"] and doc["states"] == doc["consistent_states"]
    assert {m["move"] for m in doc["moves"]} == {str(m) for m in g.legal_moves()}
    text = invoke("solve-endgame", str(path), "--move", str(n), "--view", "-w", "1").stdout
    assert "An estimate, not the game's value." in text and "best by this estimate" in text
    # Once nothing is hidden, the scores are the exact values.
    last = invoke("solve-endgame", str(path), "--move", str(n + 1), "--view", "--json")
    assert last.exit_code == 0 and json.loads(last.stdout)["kind"] == "exact"


def test_henning_view_too_early_for_the_exact_states_is_estimated_by_tree_search(
    invoke: Invoke, tmp_path: Path, monkeypatch: Any
) -> None:
    """Early in a game no state of the view is solved in its share of the time: the moves
    are estimated by tree search from the mover's view instead, labelled, exit 1. (The
    view's exact search is made to stop at once, so the test does not depend on the
    machine's speed.)"""
    from polytile.puzzles.henning import view
    from polytile.puzzles.henning.files import load_henning
    from polytile.solvers.alphabeta import SearchStopped

    def out_of_time(*args: Any, **kwargs: Any) -> Any:
        raise SearchStopped("time", 0, 0.0)

    monkeypatch.setattr(view, "evaluate_view", out_of_time)
    path = _henning_record(tmp_path, invoke)
    g = load_henning(path, 6).state
    legal = {str(m) for m in g.legal_moves()}
    result = invoke("solve-endgame", str(path), "--move", "6", "--view", "--json",
                    "--time-limit", "3")  # fmt: skip
    assert result.exit_code == 1, result.stderr
    assert "no state agreeing with blue's view was solved exactly" in result.stderr
    doc = json.loads(result.stdout)
    assert doc["exact"] is False and doc["kind"] == "mcts-estimate" and doc["sampled"]
    assert doc["playouts"] >= 1 and doc["best"] in legal and doc["player"] == "blue"
    assert doc["lead"] == "blue's final money minus red's"
    text = invoke("solve-endgame", str(path), "--move", "6", "--view", "--time-limit", "3")
    assert text.exit_code == 1
    assert "Estimate by Monte Carlo tree search for blue" in text.stdout
    assert "An estimate, not the game's value." in text.stdout
    assert "best by this estimate: " in text.stdout


def test_a_finished_henning_game_is_said_to_be_over(invoke: Invoke, tmp_path: Path) -> None:
    path = _henning_record(tmp_path, invoke)
    text = invoke("solve-endgame", str(path))
    assert text.exit_code == 0, text.stderr
    lines = text.stdout.splitlines()
    assert lines[0].startswith("the game is over: blue ") and "final money blue $" in lines[0]
    assert lines[1] == "best move: none (the game is over)"
    assert all(line.strip() and not line.endswith(": ") for line in lines)
    doc = json.loads(invoke("solve-endgame", str(path), "--json").stdout)
    assert doc["over"] is True and doc["best_moves"] == [] and doc["pv"] == []
    assert doc["value"] == doc["final_money"]["blue"] - doc["final_money"]["red"]


def test_henning_view_file_and_bad_view_options(invoke: Invoke, tmp_path: Path) -> None:
    from polytile.puzzles.henning.files import dumps_view, load_henning

    path = _henning_record(tmp_path, invoke)
    n = len(load_henning(path).moves) - 2
    g = load_henning(path, n).state
    view = tmp_path / "view.json"
    view.write_text(dumps_view(g, g.to_move))
    result = invoke("solve-endgame", str(view), "--json", "-w", "1")
    assert result.exit_code == 1, result.stderr  # an estimate
    assert json.loads(result.stdout)["kind"] == "pimc-estimate"
    other = tmp_path / "other.json"
    other.write_text(dumps_view(g, 1 - g.to_move))
    assert_clean_failure(invoke("solve-endgame", str(other)))
    names = ("blue", "red")
    wrong = names[1 - g.to_move]
    assert_clean_failure(invoke("solve-endgame", str(path), "--move", str(n), "--view", wrong))
    assert_clean_failure(invoke("solve-endgame", str(path), "--move", str(n), "--view", "green"))
    assert_clean_failure(invoke("solve-endgame", str(path), "--move", str(n), "--samples", "5"))
    assert_clean_failure(invoke("solve-endgame", str(path), "--view", "--open", "--move", str(n)))
    opened = invoke("solve-endgame", str(view), "--open")  # --view was not given: not named
    assert_clean_failure(opened)
    assert "is a player's view" in opened.stderr and "--view" not in opened.stderr
    assert_clean_failure(invoke("solve-endgame", str(RECORD), "--view"))
    assert_clean_failure(invoke("solve-endgame", str(path), "--view"))  # the game is over


def test_output_is_refused_where_nothing_would_be_written(invoke: Invoke, tmp_path: Path) -> None:
    for game in ("henning", "gridblock"):
        path = tmp_path / f"{game}.json"
        assert invoke("new", game, "--seed", "3", "-o", str(path)).exit_code == 0
        out = tmp_path / "out.json"
        result = invoke("solve-endgame", str(path), "-o", str(out))
        assert_clean_failure(result)
        assert "-o: only for Blokus and Walkable Cities files" in result.stderr
        assert not out.exists()


def test_a_stopped_search_prints_what_it_proved(invoke: Invoke, monkeypatch: Any) -> None:
    """Stopped early (here by a node limit, as a time limit or Ctrl-C would), the search's
    interval and the move making sure of its end are printed, in text and in JSON."""
    from polytile.puzzles.blokus import endgame

    record = read_blksgf(RECORD)
    game = record.position(len(record.moves) - 4)  # 4 moves before the end: 35k positions
    where = (str(RECORD), "--move", str(len(record.moves) - 4))
    monkeypatch.setattr(endgame, "PYTHON_FIRST", 0.0)
    monkeypatch.setattr(endgame, "PYTHON_FIRST_LOADED", 0.0)
    # A node limit searches on one thread, so the count repeats: the stopped search below
    # gets 2/3 of it, by when (seen: from 1/2 on) it has proven a first move.
    exact = endgame.solve_endgame(game, max_pieces=None, node_limit=10**9)
    real = endgame.solve_endgame

    def stopped_early(*args: Any, **kwargs: Any) -> Any:
        return real(*args, **{**kwargs, "node_limit": exact.nodes * 2 // 3})

    monkeypatch.setattr(endgame, "solve_endgame", stopped_early)
    result = invoke("solve-endgame", *where, "--json")
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    search = doc["search"]
    assert doc["exact"] is False and search["player"] == "blue"
    assert search["at_least"] <= exact.value <= search["at_most"]
    assert search["mover"] == game.to_move and search["move"]["color"] == game.to_move
    side, bound = next(iter(search["move_makes_sure_of"].items()))
    assert side == ("at_least" if game.to_move == "blue" else "at_most")
    after = game.copy()
    after.push(Move(game.to_move, search["move"]["piece"], search["move"]["cells"]))
    value = real(after, max_pieces=None).value
    assert value is not None and (value >= bound if side == "at_least" else value <= bound)
    text = invoke("solve-endgame", *where).stdout
    lo, hi = search["at_least"], search["at_most"]
    assert (f"Proven by the exact search before it stopped: blue's final lead is between "
            f"{lo:+d} and {hi:+d}.") in text  # fmt: skip
    mover = "blue makes sure of a lead of at least" if side == "at_least" else \
        "yellow holds blue's lead to at most"  # fmt: skip
    assert f"  {mover} {bound:+d} by playing {search['move']['text']}" in text


def test_an_interrupt_keeps_the_players_solved_and_the_forced_passes(
        invoke: Invoke, tmp_path: Path, monkeypatch: Any) -> None:  # fmt: skip
    """Ctrl-C in max-own mode: the players solved before it, and what the search proved of
    the next one (here after a forced pass, against that player: a bound the others hold it
    to together), in text and JSON; exit code 130."""
    from polytile.puzzles.blokus import endgame
    from polytile.puzzles.blokus.endgame import EndgameStopped, Proven

    game = four_player_ending(7)  # ends with moves left for every colour
    position = tmp_path / "four.json"
    save(game.to_position(), position)
    first = game.player_to_move
    solved = endgame.solve_endgame(game, players=[first])
    later = game.copy()  # a colour with placements after the one to move
    later.push(later.legal_moves()[0])
    while not later.legal_placements():
        later.push(later.legal_moves()[0])
    passing = Move(game.to_move)  # as if the colour to move had to pass first
    proven = Proven("green" if first != "green" else "red", "max-own", 3, 9, later.to_move,
                    False, (passing, later.legal_placements()[0]), 9)  # fmt: skip

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        raise EndgameStopped("interrupt", 10, 0.1, proven=proven, solved=solved.lines)

    monkeypatch.setattr(endgame, "solve_endgame", interrupted)
    result = invoke("solve-endgame", str(position), "--json")
    assert result.exit_code == 130 and "interrupted:" in result.stderr
    doc = json.loads(result.stdout)
    assert doc["exact"] is False and doc["solved"][first]["value"] == solved.lines[first].value
    assert doc["search"]["passes"] == [game.to_move]
    assert doc["search"]["move_makes_sure_of"] == {"at_most": 9}
    text = invoke("solve-endgame", str(position)).stdout
    best = solved.lines[first].pv[0]  # a pass here: no best move to name
    said = f"Solved before the stop: {first} can make sure of {solved.lines[first].value}"
    assert said + ("." if best.is_pass else f" (best move {best}") in text
    assert f"after the forced pass of {game.to_move}, after {later.to_move} plays " in text
    assert f"{proven.player} can make sure of at most 9 (the others all playing against it)" in text


def test_ctrl_c_while_the_compiled_search_is_set_up(invoke: Invoke, monkeypatch: Any) -> None:
    """Ctrl-C before the compiled search's threads start (numba loading, tables being
    allocated) is the search's interrupt: the JSON says so as documented (exit 130)."""
    from polytile.puzzles.blokus import endgame, endgame_kernel

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(endgame, "PYTHON_FIRST", 0.0)
    monkeypatch.setattr(endgame, "PYTHON_FIRST_LOADED", 0.0)
    monkeypatch.setattr(endgame_kernel, "kernel_line", interrupted)
    record = read_blksgf(RECORD)
    result = invoke("solve-endgame", str(RECORD), "--move", str(len(record.moves) - 4), "--json")
    assert result.exit_code == 130
    doc = json.loads(result.stdout)
    assert doc["game"] == "blokus" and doc["exact"] is False and "interrupt" in doc["reason"]


def test_ctrl_c_that_leaves_numba_half_loaded(invoke: Invoke, monkeypatch: Any) -> None:
    """A Ctrl-C inside numba's first load of compiled code leaves it unusable for the rest
    of the process (AttributeError: module 'numba' has no attribute 'core', seen at about
    0.9 s): the stop is still reported, in JSON too (exit 130), without the score ranges
    numba would have computed, where it ended in an internal error and printed nothing."""
    from polytile.puzzles.blokus import endgame
    from polytile.puzzles.blokus.endgame import EndgameStopped

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        raise EndgameStopped("interrupt", 384, 0.9)

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise AttributeError("module 'numba' has no attribute 'core'")

    monkeypatch.setattr(endgame, "solve_endgame", interrupted)
    monkeypatch.setattr(endgame, "score_ranges", broken)
    for extra in ([], ["--json"]):
        result = invoke("solve-endgame", str(RECORD), *extra)
        assert result.exit_code == 130, result.stderr
        assert "interrupted:" in result.stderr and "score ranges" not in result.stderr
    doc = json.loads(result.stdout)
    assert doc["exact"] is False and "after 384 positions" in doc["reason"]


def test_a_finished_blokus_game_has_no_player_to_move(invoke: Invoke, tmp_path: Path) -> None:
    """--json gives to_move null once the game is over, as score and moves do (it named the
    colour the engine would turn to); a game still going names its player."""
    game = end_of_record()
    game.play_random(0)
    path = tmp_path / "over.json"
    save(game.to_position(), path)
    doc = json.loads(invoke("solve-endgame", str(path), "--json").stdout)
    assert doc["to_move"] is None and doc["best_move"] is None
    going = json.loads(invoke("solve-endgame", str(RECORD), "--json").stdout)
    assert going["to_move"] == end_of_record().player_to_move
