"""City Blocks (Henning) as the front ends see it: :data:`FACE`."""

from __future__ import annotations

from typing import Any, ClassVar

from polytile.faces.analysis import AnalyseFace, AnalyseRequest, Review
from polytile.faces.face import (
    Console,
    EndgameFace,
    EndgameRequest,
    Legal,
    MoveCells,
    SelfplayFace,
    engine_option,
)
from polytile.puzzles.engine import DEFAULT_MOVE_TIME
from polytile.text import counted

__all__ = ["FACE", "HenningFace"]


class HenningFace(EndgameFace, SelfplayFace, AnalyseFace):
    """The face of City Blocks by J. Alan Henning (files ``polytile/henning@1``)."""

    name = "henning"
    title = "City Blocks (Henning)"
    endgame_options = frozenset(
        {"open_analysis", "view", "samples", "max_exact", "seed", "workers"}
    )
    formats: ClassVar[tuple[str, ...]] = ("polytile/henning@1",)
    new_help = (
        "City Blocks by J. Alan Henning: a game record with a seeded set-up (street tokens, "
        "first player, both players' shuffled tiles) and no moves yet"
    )
    stop_errors = (
        "polytile.puzzles.henning.endgame:EndgameStopped",
        "polytile.solvers.alphabeta:SearchStopped",
    )
    lead = "blue's final money minus red's, both playing perfectly"
    selfplay_help = (
        "City Blocks (Henning) (--blue, --red): greedy takes the best immediate money margin, "
        "then the best street leads; engine runs Monte Carlo tree search over the tiles it "
        "cannot see, greedy playing on to the end. Both read only their own hand."
    )
    selfplay_options = (
        engine_option("blue"),
        engine_option("red"),
    )
    move_help = """\
  S4@b3                          develop block b3 (column b, row 3) with the store S4
  redevelop H2@c1 with $3        pay your lowest token ($3), replace your tile on c1 by H2
  CH@a2 swap 1,c                 a courthouse that swaps the tokens of row 1 and column c
  pass                           only when you have no legal play

Tiles: H1-H5, S2-S6, F3-F7, SC (school, also PK or park), PP, MA, CH."""

    def read(self, file: str, move: int | None = None) -> Any:
        from polytile.puzzles.henning.files import load_henning

        return load_henning(file, move)

    def picture(self, doc: Any, kind: str, *, color: bool | None = None, cell: int = 24,
                title: str | None = None) -> str | bytes:  # fmt: skip
        from polytile.puzzles.henning.picture import to_png, to_svg, to_text

        if kind in ("text", "txt"):
            text = to_text(doc.state, color=color if kind == "text" else False)
            return text if kind == "text" else text + "\n"
        block = 3 * cell  # --cell sizes a Blokus square; a city block shows a tile's name
        draw = to_svg if kind == "svg" else to_png
        return draw(doc.state, block, highlight=_last_block(doc), title=title)

    def move_cells(self, doc: Any, cell: int = 24) -> MoveCells | None:
        """Each move by the block it develops (``"row,col"``, as the picture's blocks); a
        pass covers none, nor does any move in a view whose mover's hand is hidden (it has
        no moves listed)."""
        from polytile.puzzles.henning.picture import block_boxes

        legal = self.legal(doc)
        blocks = {str(m): m.block for m in doc.state.legal_moves() if m.block is not None}
        moves: dict[str, tuple[str, ...]] = {
            text: (f"{blocks[text][0]},{blocks[text][1]}",) for text in legal.moves
            if text in blocks}  # fmt: skip
        boxes = block_boxes(3 * cell)  # as picture draws it: a block is 3 cells
        return MoveCells({f"{r},{c}": box for (r, c), box in boxes.items()}, moves)

    def notes(self, doc: Any) -> list[str]:
        if doc.kind != "view":
            return []
        return [f"(the view of {('blue', 'red')[doc.player]}: the other hand is hidden)"]

    def score_doc(self, doc: Any) -> dict[str, Any]:
        from polytile.puzzles.henning.picture import score_doc

        return score_doc(doc.state)

    def score_text(self, doc: Any, color: bool | None) -> str:
        from polytile.puzzles.henning.picture import score_table, to_text

        return to_text(doc.state, color=color) + "\n" + score_table(doc.state)

    def describe(self, doc: Any) -> str:
        if doc.kind == "record":
            return f"game record, {counted(len(doc.moves), 'move')}, all legal"
        return doc.kind

    def legal(self, doc: Any) -> Legal:
        from polytile.puzzles.henning.tiles import KINDS, PLAYER_NAMES

        g = doc.state
        if g.is_over():
            return Legal(None, note=f"final money: blue ${g.money_of(0)}, red ${g.money_of(1)}")
        me = g.to_move
        other = 1 - me

        def hand(p: int) -> str:
            return " ".join(KINDS[k] for k in g.hand(p)) or "(empty)"

        def unseen(p: int) -> str:
            """Player ``p``'s hand as one who does not hold it knows it: with ``p``'s reserve
            empty, every tile of its own not on the city nor removed is in it (#48: it was
            called hidden)."""
            if g.reserve_size(p) == 0:
                return f"known by elimination (its reserve is empty): {hand(p)}"
            return f"hidden, {counted(len(g.hand(p)), 'tile')}"

        note = "a move is played as 'polytile play FILE MOVE' (quote one that holds spaces)"
        if doc.kind == "view" and doc.player != me:
            viewer = PLAYER_NAMES[doc.player]
            if g.reserve_size(me) > 0:
                return Legal(PLAYER_NAMES[me], {"hand": unseen(me)},
                             note=f"this is {viewer}'s view: the moves of {PLAYER_NAMES[me]} "
                                  "depend on a hand it cannot see", known=False)  # fmt: skip
            note = (
                f"this is {viewer}'s view; {PLAYER_NAMES[me]}'s hand is known by "
                "elimination, so its moves are too. A move is played as 'polytile play FILE "
                "MOVE' (quote one that holds spaces)"
            )
            sees = {"hand": unseen(me), "reserve": counted(0, "tile")}
        else:
            sees = {"hand": hand(me), "reserve": counted(g.reserve_size(me), "tile"),
                    f"{PLAYER_NAMES[other]}'s hand": unseen(other)}  # fmt: skip
        moves = tuple(str(m) for m in g.legal_moves())
        return Legal(PLAYER_NAMES[me], sees, moves, note=note)

    def solve_endgame(self, console: Console, file: str, request: EndgameRequest) -> None:
        from polytile.puzzles.henning.report import solve_report

        solve_report(console, file, request)

    def new(self, seed: int, options: dict[str, Any]) -> str:
        from polytile.puzzles.henning.files import dumps_record
        from polytile.puzzles.henning.rules import Henning

        return dumps_record(Henning.new(seed), {"seed": seed})

    def selfplay(self, seed: int, stop_before_end: int, options: dict[str, Any]) -> tuple[str, str]:
        from polytile.puzzles.henning.engine import engine_player
        from polytile.puzzles.henning.files import dumps_record
        from polytile.puzzles.henning.players import self_play
        from polytile.puzzles.henning.rules import Henning

        blue, red = options.get("blue", "greedy"), options.get("red", "greedy")
        g = Henning.new(seed)
        self_play(g, (blue, red), seed=seed, engine=engine_player,
                  move_time=options.get("move_time"))
        for _ in range(min(stop_before_end, len(g.move_stack))):
            g.pop()
        meta: dict[str, Any] = {"seed": seed, "players": {"blue": blue, "red": red}}
        if "engine" in (blue, red):
            meta["move_time"] = options.get("move_time", DEFAULT_MOVE_TIME)
        text = dumps_record(g, meta)
        m = g.margin()
        if not g.is_over():  # --stop-before-end: the record's money so far, not a result
            result = f"not finished (so far blue ${g.money_of(0)}, red ${g.money_of(1)})"
        elif m == 0:
            result = "draw"
        else:
            result = f"{'blue' if m > 0 else 'red'} by ${abs(m)}"
        return text, f"{counted(len(g.move_stack), 'move')}, {result}"

    def review(self, file: str, index: int, time_limit: float, cache: dict[Any, Any],
               request: AnalyseRequest) -> Review | None:  # fmt: skip
        from polytile.puzzles.henning.report import review_move

        return review_move(self, file, index, time_limit, cache)

    def estimate_review(self, file: str, index: int, seconds: float,
                        cache: dict[Any, Any]) -> Review | None:  # fmt: skip
        from polytile.puzzles.henning.report import estimate_move

        return estimate_move(self, file, index, seconds, cache)

    def play_move(self, doc: Any, text: str) -> None:
        from polytile.puzzles.henning.moves import Move

        doc.state.push(Move.parse(text))

    def engine_choice(self, doc: Any, seconds: float) -> tuple[str, Any] | None:
        from polytile.puzzles.henning.engine import engine_choice

        choice = engine_choice(doc.state, seconds)
        return str(choice.move), choice

    def record_moves(self, doc: Any) -> tuple[str, ...]:
        return tuple(str(m) for m in doc.moves) if doc.kind == "record" else ()

    def dumps(self, doc: Any) -> str:
        from polytile.puzzles.henning.files import dumps_position, dumps_record

        if doc.kind == "position":  # moves played on a position: the position they reach
            return dumps_position(doc.state)
        return dumps_record(doc.state, doc.extra)


def _last_block(doc: Any) -> tuple[int, int] | None:
    """The block of the last move shown of a record, for the highlight."""
    if doc.kind != "record":
        return None
    # the state's own moves: on the board a variation's moves are not the file's
    made = doc.state.move_stack
    return made[-1].block if made else None


#: The face the registry finds (:mod:`polytile.faces.registry`).
FACE = HenningFace()
