"""Blokus as the front ends see it: :data:`FACE`.

Its files are Pentobi records (``.blksgf``, or SGF under another name with ``GM[Blokus...]``)
and ``polytile/position@1`` positions of game ``"blokus"`` (:mod:`.files`). What only Blokus
has is declared as data: ``render --best`` and ``--attach/--no-attach``, ``score
--players``; its verbs that read them are its own (:mod:`.verbs`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from polytile.errors import OptionError
from polytile.faces.analysis import AnalyseRequest, OwnAnalysisFace
from polytile.faces.bounds import BoundsFace, BoundsRequest
from polytile.faces.face import (
    Console,
    EndgameFace,
    EndgameRequest,
    Legal,
    MoveCells,
    MovePiece,
    Option,
    SelfplayFace,
    engine_option,
    report_problems,
)
from polytile.faces.move_cells import held_pieces
from polytile.puzzles.blokus._endgame_limits import DEFAULT_MAX_PIECES
from polytile.puzzles.engine import DEFAULT_MOVE_TIME

__all__ = ["FACE", "BlokusFace"]

_COLORS = ("blue", "yellow", "red", "green")
_RULES = (
    Option("variant", "The board [default: classic].", ("classic", "duo")),
    Option("players", "How many players [default: the variant's: 4, Duo 2].",
           ("2", "3", "4", "teams")),
)  # fmt: skip


class BlokusFace(SelfplayFace, EndgameFace, BoundsFace, OwnAnalysisFace):
    """The face of Blokus (Pentobi records and polytile positions)."""

    name = "blokus"
    title = "Blokus"
    formats: ClassVar[tuple[str, ...]] = ()  # told by suffix, SGF game or position "game"
    new_help = "Blokus: the empty board as a position (--variant classic|duo)"
    new_options = _RULES
    selfplay_options = (*(engine_option(c) for c in _COLORS), *_RULES)
    selfplay_help = (
        "Blokus (--variant, --players as for 'polytile new'; --blue, --yellow, --red, --green): "
        "greedy places its biggest piece where it covers the most attach points of the other "
        "colours (not its partner's); random, any placement; engine searches (the exact endgame "
        "search where it answers in time, Monte Carlo tree search before). With 3 players "
        "green's moves are "
        "made by the player whose turn with green it is. --stop-before-end counts placements. "
        "The records are Pentobi's (.blksgf), ready for 'polytile analyse' and 'polytile "
        "solve-endgame' (teams are written as Blokus Two-Player, the same board and scoring)."
    )
    record_suffix = ".blksgf"
    endgame_options = frozenset({"players", "max_pieces", "bounds_time", "output"})
    option_defaults: ClassVar[dict[str, Any]] = {"max_pieces": DEFAULT_MAX_PIECES}
    analysis_options = frozenset({"max_pieces"})
    analysis_outputs = ((".blksgf",), " (the annotated record)")
    record_format_name = "Pentobi .blksgf"
    quiet_writes = True
    move_help = """\
  e10 e9 f9                      the colour to move places the piece these points form
  V3 e10 e9 f9                   the same, naming the piece (in capitals: i2 is a point)
  yellow V3 j5 j4 k4             naming the colour too (the one to move after any passes)
  B V3 4,4 5,4 5,5               polytile's own form (row,column counted from 0 at top left)
A colour with no placement passes by itself; a .blksgf record gets the moves added to its
main line, a position becomes the new position."""
    render_options = (
        Option("best", "Highlight the best move of the colour to move instead, found by the "
               "exact endgame search of 'polytile solve-endgame' with its defaults (at most "
               f"{DEFAULT_MAX_PIECES} pieces still placeable per player, 60 s) or, past that "
               "many pieces, settled by the bounds when they pin every colour's score (2 "
               "CP-SAT searches of up to 2 s per colour); exit 1 when there is no answer (too "
               "many pieces left and the bounds do not settle it, or out of time), exit 2 when "
               "there is no move to recommend (the game is over, or the colour to move can "
               "only pass).", switch=True),
        Option("attach", "Mark the empty cells where the colour to move may attach a piece "
               "[default: attach].", switch=True, flag="--attach/--no-attach"),
    )  # fmt: skip
    score_options = (
        Option("players", 'How colours make up players [default: the file\'s "players", '
               "else 4].", ("2", "3", "4")),
    )  # fmt: skip

    # -- the data layer -----------------------------------------------------------------

    def read(self, file: str, move: int | None = None) -> Any:
        from polytile.puzzles.blokus.files import read_blokus

        return read_blokus(file, move)

    def picture(self, doc: Any, kind: str, *, color: bool | None = None, cell: int = 24,
                title: str | None = None) -> str | bytes:  # fmt: skip
        from polytile.puzzles.blokus.verbs import play_picture
        from polytile.render import to_svg, to_text

        if kind == "text":
            return play_picture(doc.game, color)
        game = doc.game
        to_move = None if game.is_game_over() else game.to_move
        marks = game.attach_points() if to_move else []
        # the last placement highlighted, as the terminal picture of 'play' does (a
        # record's move shown, a move played on the web board)
        last = next((m for m in reversed(game.move_stack) if not m.is_pass), None)
        lit: Any = {"highlight": last.cells if last else (),
                    "highlight_color": last.color if last else None}  # fmt: skip
        if kind == "txt":
            return to_text(doc.obj, False, marks=marks, mark_color=to_move, **lit)
        # the squares named around the board as moves write them (Pentobi's points)
        if kind == "svg":
            return to_svg(doc.obj, cell, title, marks=marks, mark_color=to_move,
                          coordinates="pentobi", **lit)  # fmt: skip
        from polytile.render.png import png_bytes

        return png_bytes(doc.obj, cell, title, marks=marks, mark_color=to_move,
                         coordinates="pentobi", **lit)  # fmt: skip

    def score_doc(self, doc: Any) -> dict[str, Any]:
        from polytile.puzzles.blokus.verbs import score_doc

        return score_doc(doc.game, doc.game.score())

    def score_text(self, doc: Any, color: bool | None) -> str:
        from polytile.puzzles.blokus.verbs import score_table
        from polytile.render import to_text

        return to_text(doc.obj, color) + score_table(doc.game, doc.game.score())

    def describe(self, doc: Any) -> str:
        return "position"

    def new(self, seed: int, options: dict[str, Any]) -> str:
        from polytile.formats import dumps
        from polytile.puzzles.blokus.players import new_game

        game = new_game(options.get("variant") or "classic", options.get("players"))
        return dumps(game.to_position())

    def legal(self, doc: Any) -> Legal:
        from polytile.puzzles.blokus.verbs import legal_texts

        game = doc.game
        if game.is_game_over():
            totals = game.score().player_totals
            return Legal(
                None, note="final scores: " + ", ".join(f"{p} {v}" for p, v in totals.items())
            )
        me = game.to_move
        sees = {"pieces left": " ".join(game.hand(me)) or "(none)"}
        if game.player_to_move != me:
            sees["player"] = f"{game.player_to_move} moves {me}"
        if game.must_pass():
            note = (f"{me} has no placement: it passes ('polytile play' passes for it before "
                    "the next placement)")  # fmt: skip
        else:
            note = ("a move is played as 'polytile play FILE \"POINTS\"' (the points the piece "
                    "covers, a column letter and a row number from the bottom)")  # fmt: skip
        return Legal(me, sees, legal_texts(game), note=note)

    def move_cells(self, doc: Any, cell: int = 24) -> MoveCells | None:
        """Each placement by the squares it covers (``"row,col"``); a pass covers none."""
        from polytile.puzzles.blokus.sgf import cell_name
        from polytile.puzzles.blokus.verbs import legal_texts
        from polytile.render.svg import cell_boxes

        game = doc.game
        boxes = cell_boxes(doc.obj, cell, coordinates="pentobi")
        moves = {} if game.is_game_over() else {
            text: tuple(f"{r},{c}" for r, c in m.cells)
            for m, text in zip(game.legal_moves(), legal_texts(game), strict=True)
            if not m.is_pass}  # fmt: skip
        points = {f"{r},{c}": cell_name((r, c), game.size) for r, c in boxes}
        return MoveCells({f"{r},{c}": box for (r, c), box in boxes.items()}, moves, points)

    def move_pieces(self, doc: Any) -> tuple[MovePiece, ...]:
        """The colour to move's pieces (a move names its points alone: no prefix)."""
        return held_pieces(doc.game, lambda color, name: "")

    def play_move(self, doc: Any, text: str) -> None:
        from polytile.puzzles.blokus.verbs import play_one

        play_one(doc.game, text)
        doc.obj = doc.game.to_position()  # the picture and the score read the position

    def engine_choice(self, doc: Any, seconds: float) -> tuple[str, Any] | None:
        from polytile.puzzles.blokus.engine import engine_choice
        from polytile.puzzles.blokus.notation import move_text

        if doc.game is None:
            return None
        choice = engine_choice(doc.game, seconds)
        return move_text(choice.move, doc.game.size), choice

    def played_text(self, doc: Any, text: str) -> str:
        """The placement (or pass) just played, in the one notation, however it was typed
        (``e10 e9 f9`` is kept as ``blue V3 e10 e9 f9``)."""
        from polytile.puzzles.blokus.notation import move_text

        stack = doc.game.move_stack
        return move_text(stack[-1], doc.game.size) if stack else text

    def record_moves(self, doc: Any) -> tuple[str, ...]:
        """A record's placements in the one notation, ``colour PIECE points`` (forced passes
        are not written in a record, as Pentobi's)."""
        from polytile.puzzles.blokus.notation import move_text

        if doc.record is None:
            return ()
        return tuple(move_text(m, doc.game.size) for m in doc.record.moves)

    def dumps(self, doc: Any) -> str:
        from dataclasses import replace

        from polytile.formats import dumps

        if doc.record is None:
            return dumps(doc.game.to_position())
        from polytile.puzzles.blokus.sgf import write_blksgf

        played = [m for m in doc.game.move_stack if not m.is_pass]
        return write_blksgf(replace(doc.record, moves=tuple(played)))

    def selfplay(self, seed: int, stop_before_end: int, options: dict[str, Any]) -> tuple[str, str]:
        from polytile.puzzles.blokus.engine import engine_move
        from polytile.puzzles.blokus.players import selfplay

        engines = {c: options.get(c) for c in _COLORS}
        seconds = options.get("move_time") or DEFAULT_MOVE_TIME
        return selfplay(options.get("variant") or "classic", options.get("players"), engines,
                        seed, stop_before_end, engine_move(seconds), seconds)  # fmt: skip

    def refuse_record(self, data: bytes, source: str) -> None:
        from polytile.puzzles.blokus.files import refuse_record

        refuse_record(data, source)

    def check_record_name(self, output: Path) -> None:
        if output.suffix.lower() == ".json":
            raise OptionError(f"{output}: Blokus games are written as Pentobi records; name "
                              "the file .blksgf", "-o")  # fmt: skip

    # -- the verbs that read Blokus's own options ----------------------------------------

    def render(self, console: Console, file: str, move: int | None, output: Path | None,
               color: bool | None, cell: int, title: str | None = None,
               options: dict[str, Any] | None = None) -> None:  # fmt: skip
        from polytile.puzzles.blokus.files import BlokusDoc, is_record, read_blokus, read_unchecked
        from polytile.puzzles.blokus.verbs import render

        options = options or {}
        attach = options.get("attach") is not False
        best = bool(options.get("best"))
        if attach or best or is_record(file):
            doc = read_blokus(file, move)
        else:  # an invalid Blokus position still draws
            doc = BlokusDoc(read_unchecked(file, move), None)  # type: ignore[arg-type]
        render(console, doc, output, color, cell, title, attach, best)

    def score(self, console: Console, file: str, move: int | None, as_json: bool,
              color: bool | None, output: Path | None = None, cell: int = 24,
              options: dict[str, Any] | None = None) -> None:  # fmt: skip
        from polytile.puzzles.blokus.verbs import score

        doc = self.read(file, move)
        score(console, doc, (options or {}).get("players"), as_json, output, color, cell)

    def validate(self, console: Console, file: str, as_json: bool) -> None:
        """A record's moves are replayed by the rules engine and a position is checked by
        it, each problem said (exit 1; a record called one, #48); a file that cannot be
        read exits 2."""
        from polytile.errors import PolytileError
        from polytile.puzzles.blokus.files import is_record, read_record, read_unchecked
        from polytile.puzzles.blokus.rules import Blokus
        from polytile.puzzles.blokus.sgf import IllegalRecordError

        reasons = []
        if is_record(file):
            try:
                read_record(file, None)  # every move replayed by the rules engine
            except IllegalRecordError as exc:
                reasons.append(str(exc))
            report_problems(console, file, "record", reasons, as_json)
            return
        obj = read_unchecked(file)
        try:
            Blokus.from_position(obj, source=file)  # type: ignore[arg-type]
        except PolytileError as exc:
            reasons.append(str(exc))
        report_problems(console, file, "position", reasons, as_json)

    def play(self, console: Console, record: Path, moves: tuple[str, ...],
             color: bool | None, reply: bool = False,
             move_time: float = DEFAULT_MOVE_TIME) -> None:  # fmt: skip
        from polytile.puzzles.blokus.verbs import play

        play(console, record, self.read(str(record)), moves, color, reply, move_time)

    # -- the optional parts: exact endgames, bounds, its own analysis of records --------

    def solve_endgame(self, console: Console, file: str, request: EndgameRequest) -> None:
        """The exact value and best line (2 players: the first player's lead; 3 or 4: what
        each player searched can make sure of), or the bounds when the search is refused
        (past ``--max-pieces``) or stopped, unless they settle it (:mod:`.endgame_verb`)."""
        from polytile.puzzles.blokus.endgame_verb import solve_endgame

        solve_endgame(console, file, request)

    def best_moves(self, answer: dict[str, Any]) -> tuple[str, ...]:
        """The ``"best_move"`` of a ``solve-endgame --json`` answer (colour, piece and
        cells), in the one notation (``blue I1 c12``), which ``play`` reads; without one,
        the best move of its tree search's ``"estimate"``, read as the other games' are
        (:meth:`EndgameFace.best_moves`)."""
        from polytile.puzzles.blokus.moves import Move

        best = answer.get("best_move")
        if not isinstance(best, dict) or not best.get("cells"):
            estimate = answer.get("estimate")
            return super().best_moves(estimate) if isinstance(estimate, dict) else ()
        if isinstance(best.get("text"), str):  # written by solve-endgame --json
            return (best["text"],)
        try:
            move = Move(best["color"], best["piece"], [tuple(c) for c in best["cells"]])
        except (KeyError, TypeError, ValueError):
            return ()
        return (str(move),)

    def bounds(self, console: Console, file: str, request: BoundsRequest) -> None:
        """The squares each colour asked for can still place, at least and at most, and
        the final scores these give (:mod:`.bounds_verb`)."""
        from polytile.puzzles.blokus.bounds_verb import bounds

        bounds(console, file, request)

    def analyse_own(self, console: Console, file: str, request: AnalyseRequest) -> None:
        """Every move from the first position the exact endgame search accepts (no player
        can place more than ``--max-pieces`` pieces), exact, with the record written back
        as comments on the moves (:mod:`.analyse_verb`)."""
        from polytile.puzzles.blokus.analyse_verb import analyse

        analyse(console, file, request)


#: The face the registry finds (:mod:`polytile.faces.registry`).
FACE = BlokusFace()
