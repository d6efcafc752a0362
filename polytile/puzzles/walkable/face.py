"""Walkable Cities as the front ends see it: :data:`FACE`."""

from __future__ import annotations

import time
from typing import Any, ClassVar

from polytile.faces.analysis import AnalyseFace, AnalyseRequest, Review
from polytile.faces.at_once import AtOnceFace
from polytile.faces.face import (
    Console,
    EndgameFace,
    EndgameRequest,
    Legal,
    MoveCells,
    Option,
    SelfplayFace,
    engine_option,
)
from polytile.puzzles.engine import DEFAULT_MOVE_TIME, EngineChoice
from polytile.text import counted, listed

__all__ = ["FACE", "WalkableFace"]


_RULES = (
    Option("dead", "Dead cells per board at seeded places [default: 10].", low=0, high=100),
    Option("pass_limit", "Passes in a row that end the game [default: 3].", ("3", "4")),
    Option("tiebreak", "Who wins equal boards won [default: none, a draw].", ("none", "R", "B")),
)


def _new(seed: int, options: dict[str, Any]) -> tuple[Any, int]:
    """A new game with the rule options given, and its count of dead cells."""
    from polytile.puzzles.walkable.rules import Options, Walkable

    dead = options.get("dead")
    count = 10 if dead is None else int(dead)
    rules = Options(int(options.get("pass_limit") or 3), options.get("tiebreak") or "none")
    return Walkable.new(seed, count, rules), count


class WalkableFace(EndgameFace, SelfplayFace, AnalyseFace, AtOnceFace):
    """The face of Walkable Cities (files ``polytile/walkable@1``)."""

    name = "walkable"
    title = "Walkable Cities"
    endgame_options = frozenset({"max_drops", "output", "color", "cell"})
    analysis_options = frozenset({"max_drops"})
    formats: ClassVar[tuple[str, ...]] = ("polytile/walkable@1",)
    new_help = (
        "Walkable Cities: a game record with three seeded boards (--dead N dead cells each, "
        "default 10) and no rounds yet; --pass-limit 3|4, --tiebreak"
    )
    new_options = _RULES
    move_word = "round"
    stop_errors = ("polytile.puzzles.walkable.endgame:EndgameStopped",)
    lead = (
        "red's boards won minus blue's at the end (an equal count worth half a board to the "
        "tiebreak holder), both playing the equilibrium"
    )
    selfplay_help = (
        "Walkable Cities (--red, --blue; --dead, --pass-limit, --tiebreak as for 'polytile "
        "new'): greedy drops where its cells touch the most of its own cells and picks the "
        "piece with the best such drop; random passes only when it has no drop; engine plays "
        "the equilibrium mix, exact near the end, one round ahead before. "
        "--stop-before-end counts rounds."
    )
    selfplay_options = (
        engine_option("red"),
        engine_option("blue"),
        *_RULES,
    )
    move_help = """\
  "T4 1:c4,d4 2:e4 3:d5 | L4 pass"   red picked T4 and drops c4,d4 on board 1, e4 on
                                     board 2, d5 on board 3; blue picked L4 and passes
Cells are a column a-j and a row 1-10 from the top; each board named once."""
    picture_cells = (6, 128, "a Walkable Cities cell is 6 to 128 pixels")

    def read(self, file: str, move: int | None = None) -> Any:
        from polytile.puzzles.walkable.files import load_walkable

        return load_walkable(file, move)

    def picture(self, doc: Any, kind: str, *, color: bool | None = None, cell: int = 24,
                title: str | None = None) -> str | bytes:  # fmt: skip
        from polytile.puzzles.walkable.picture import to_png, to_svg, to_text

        if kind in ("text", "txt"):
            text = to_text(doc.state, color=color if kind == "text" else False)
            return text if kind == "text" else text + "\n"
        draw = to_svg if kind == "svg" else to_png
        return draw(doc.state, cell, title=title)

    def score_doc(self, doc: Any) -> dict[str, Any]:
        from polytile.puzzles.walkable.picture import score_doc

        return score_doc(doc.state)

    def score_text(self, doc: Any, color: bool | None) -> str:
        from polytile.puzzles.walkable.picture import score_table, to_text

        return to_text(doc.state, color=color) + "\n\n" + score_table(doc.state)

    def describe(self, doc: Any) -> str:
        if doc.kind != "record":
            return "position"
        return f"game record, {counted(len(doc.rounds), 'round')}, all legal"

    def legal(self, doc: Any) -> Legal:
        from polytile.puzzles.walkable.rules import PASS, PLAYER_NAMES, legal_drop_texts

        g = doc.state
        if g.is_over():
            return Legal(None, note="the game is over: 'polytile score' shows the result")
        limit = g.options.pass_limit
        sees = {
            "rotation": " ".join(g.available()),
            "passes in a row": ", ".join(f"{name} {n}" for name, n in
                                         zip(PLAYER_NAMES, g.passes, strict=True))
            + f" ({limit} end the game)",
        }  # fmt: skip

        def parts(piece: str) -> tuple[str, ...]:
            return (f"{piece} {PASS}", *legal_drop_texts(g.cells, piece))

        if g.phase == "drop":  # picks made (a position between the two steps of a round)
            groups = {name: parts(pick) for name, pick in zip(PLAYER_NAMES, g.picks, strict=True)}
            return Legal("red and blue", sees, groups=groups, at_once=True,
                         note="each player drops its pick or passes")  # fmt: skip
        moves = tuple(m for piece in g.available() for m in parts(piece))
        how = ("each player picks one of these at once (both may pick the same piece); a "
               "round is played as 'polytile play FILE \"RED | BLUE\"'")  # fmt: skip
        return Legal("red and blue", sees, moves, note=how, at_once=True)

    def move_cells(self, doc: Any, cell: int = 24) -> MoveCells | None:
        """Each drop by the cells it claims, named as the rules write them, board first
        (``"2:d4"``); a pass covers none. Both players' drops: in the drop phase of each
        one's pick, else of every piece left."""
        from polytile.puzzles.walkable.picture import cell_boxes
        from polytile.puzzles.walkable.rules import (
            board_cell_name,
            drop_cell_names,
            drop_texts,
            legal_drop_rows,
        )

        g = doc.state
        pieces = () if g.is_over() else (g.picks if g.phase == "drop" else g.available())
        moves = {}
        for piece in dict.fromkeys(pieces):
            names, written = drop_cell_names(piece), drop_texts(piece)
            for i in legal_drop_rows(g.cells, piece).tolist():
                moves[written[i]] = names[i]
        boxes = {board_cell_name(c): box for c, box in cell_boxes(cell).items()}
        return MoveCells(boxes, moves)

    def solve_endgame(self, console: Console, file: str, request: EndgameRequest) -> None:
        from polytile.puzzles.walkable.report import solve_report

        solve_report(console, file, request)

    def new(self, seed: int, options: dict[str, Any]) -> str:
        from polytile.puzzles.walkable.files import dumps_record

        g, dead = _new(seed, options)
        return dumps_record(g, {"seed": seed, "dead": dead})

    def selfplay(self, seed: int, stop_before_end: int, options: dict[str, Any]) -> tuple[str, str]:
        from polytile.puzzles.walkable.engine import engine_players
        from polytile.puzzles.walkable.files import dumps_record
        from polytile.puzzles.walkable.players import self_play
        from polytile.puzzles.walkable.rules import PLAYER_NAMES

        red, blue = options.get("red") or "greedy", options.get("blue") or "greedy"
        g, dead = _new(seed, options)
        self_play(g, (red, blue), seed=seed, engine=engine_players,
                  move_time=options.get("move_time"))
        for _ in range(min(stop_before_end, g.round)):
            g.pop_round()
        extra: dict[str, Any] = {"players": {"red": red, "blue": blue}}
        if "engine" in (red, blue):
            extra["move_time"] = options.get("move_time", DEFAULT_MOVE_TIME)
        text = dumps_record(g, {"seed": seed, "dead": dead}, extra)
        res = g.result()
        won = f"boards won: red {res.won[0]}, blue {res.won[1]}"
        if not g.is_over():
            result = "not finished"
        elif res.winner is None:
            result = "a draw"
        else:
            tiebreak = " (tiebreak)" if res.by_tiebreak else ""
            result = f"{PLAYER_NAMES[res.winner]} wins{tiebreak}"
        return text, f"{g.round} rounds, {won}: {result}"

    def record_length(self, doc: Any) -> int:
        return len(doc.rounds)

    def review(self, file: str, index: int, time_limit: float, cache: dict[Any, Any],
               request: AnalyseRequest) -> Review | None:  # fmt: skip
        """Round ``index + 1`` valued by the backward induction before and after it, when it
        reaches (at most ``request.max_drops`` drops a piece, as solve-endgame's
        --max-drops)."""
        from polytile.puzzles.walkable.endgame import EndgameRefused, final_value, solve_endgame

        started = time.perf_counter()

        def value(k: int) -> tuple[float, str] | None:
            if k not in cache:
                g = self.read(file, k).state
                if g.is_over():
                    cache[k] = (final_value(g.cells, g.options.tiebreak), "")
                else:
                    left = max(time_limit - (time.perf_counter() - started), 0.01)
                    try:
                        sol = solve_endgame(g, max_drops=request.max_drops, time_limit=left)
                    except EndgameRefused:
                        cache[k] = None
                    else:
                        cache[k] = (sol.value, str(sol.line[0]) if sol.line else "")
            return cache[k]

        before = value(index)
        if before is None:
            return None
        after = value(index + 1)
        if after is None:  # pragma: no cover - a later position is never larger
            return None
        doc = cache.get("doc") or cache.setdefault("doc", self.read(file))
        return Review(index + 1, "red and blue", str(doc.rounds[index]), before[0], after[0],
                      before[0] - after[0], before[1], at_once=True,
                      note="a round's two parts are made at once")  # fmt: skip

    def estimate_review(self, file: str, index: int, seconds: float,
                        cache: dict[Any, Any]) -> Review | None:  # fmt: skip
        """Round ``index + 1`` estimated one round ahead where the backward induction does
        not reach: the round before it and the round after it each solved as a matrix game
        (:func:`polytile.puzzles.walkable.phase.solve_round`: the boards won as if the game
        ended after that round); the best round in its place is the most likely picks and
        drops of the equilibrium. None when the time is too short for them."""
        from polytile.errors import SolverError
        from polytile.puzzles.walkable.endgame import final_value
        from polytile.puzzles.walkable.phase import solve_round
        from polytile.puzzles.walkable.rules import PASS, Drop, Round

        started = time.perf_counter()

        def value(k: int) -> tuple[float, str] | None:
            if ("one round", k) not in cache:
                g = self.read(file, k).state
                if g.is_over():
                    cache["one round", k] = (final_value(g.cells, g.options.tiebreak), "")
                    return cache["one round", k]
                left = seconds - (time.perf_counter() - started)
                try:
                    rs = solve_round(g.cells, g.pick_choices(), time_limit=max(left, 0.05))
                except SolverError:
                    return None
                picks = (rs.red[0][0], rs.blue[0][0])
                phase = rs.phases[picks]

                def drop(piece: str, mix: Any) -> Drop | str:
                    action = mix[0][0]
                    cells = None if action is None else tuple(int(x) for x in action)
                    return PASS if cells is None else Drop(piece, cells)  # type: ignore[arg-type]

                best = Round(picks, (drop(picks[0], phase.red), drop(picks[1], phase.blue)))
                cache["one round", k] = (rs.value, str(best))
            found: tuple[float, str] = cache["one round", k]
            return found

        before = value(index)
        after = value(index + 1) if before is not None else None
        if before is None or after is None:
            return None
        doc = cache.get("doc") or cache.setdefault("doc", self.read(file))
        return Review(index + 1, "red and blue", str(doc.rounds[index]), before[0], after[0],
                      before[0] - after[0], before[1], exact=False, at_once=True,
                      note="one round ahead, each round a matrix game with the boards won as "
                           "if the game ended after it")  # fmt: skip

    def play_move(self, doc: Any, text: str) -> None:
        doc.state.play_round(text)

    def record_moves(self, doc: Any) -> tuple[str, ...]:
        return tuple(str(r) for r in doc.rounds) if doc.kind == "record" else ()

    #: Red's part, then blue's: a round is written ``RED | BLUE``.
    at_once_players = ("red", "blue")

    def join_parts(self, parts: dict[str, str]) -> str:
        missing = [p for p in self.at_once_players if not parts.get(p, "").strip()]
        if missing:
            whose = listed([f"{p}'s" for p in missing])
            parts_word = "part" if len(missing) == 1 else "parts"
            # "too" only beside a part that was given
            too = "" if len(missing) == len(self.at_once_players) else " too"
            raise ValueError(f"a round needs {whose} {parts_word}{too}")
        return " | ".join(parts[p].strip() for p in self.at_once_players)

    def split_parts(self, text: str) -> dict[str, str] | None:
        """``"RED | BLUE"`` by player; None without exactly one ``|``."""
        if text.count("|") != 1:
            return None
        red, blue = (part.strip() for part in text.split("|"))
        return dict(zip(self.at_once_players, (red, blue), strict=True))

    def engine_at_once(self, doc: Any, seconds: float,
                       player: str | None = None) -> tuple[str, EngineChoice] | None:  # fmt: skip
        """A whole round by the engine for both players (picks at once, then drops at once
        as the rules have them made: :func:`~polytile.puzzles.walkable.engine.engine_round`),
        or ``player``'s part of the round, its pick and drop committed from the round's
        start alone (:func:`~polytile.puzzles.walkable.engine.engine_part`); None between
        the selection and the drops (a position the board does not play on) or at the end.

        Raises
        ------
        ValueError
            For a ``player`` not red or blue.
        """
        from polytile.puzzles.walkable import engine

        if doc.state.phase != "select":
            return None
        if player is None:
            choice = engine.engine_round(doc.state, seconds)
        elif player in self.at_once_players:
            choice = engine.engine_part(doc.state, self.at_once_players.index(player), seconds)
        else:
            raise ValueError(f"no player {player!r} in {self.title}: "
                             f"{' or '.join(self.at_once_players)}")  # fmt: skip
        return str(choice.move), choice

    def dumps(self, doc: Any) -> str:
        from polytile.puzzles.walkable.files import dumps_position, dumps_record

        if doc.kind == "position":  # moves played on a position: the position they reach
            return dumps_position(doc.state)
        return dumps_record(doc.state, doc.setup, doc.extra)

    def move_place(self, doc: Any) -> str:
        return f", round {len(doc.state.rounds()) + 1}"

    def finished(self, doc: Any) -> bool:
        return bool(doc.state.is_over())


#: The face the registry finds (:mod:`polytile.faces.registry`).
FACE = WalkableFace()
