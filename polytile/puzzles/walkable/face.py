"""Walkable Cities as the front ends see it: :data:`FACE`."""

from __future__ import annotations

from typing import Any, ClassVar

from polytile.puzzles.face import Console, EndgameFace, EndgameRequest, Legal

__all__ = ["FACE", "WalkableFace"]


class WalkableFace(EndgameFace):
    """The face of Walkable Cities (files ``polytile/walkable@1``)."""

    name = "walkable"
    title = "Walkable Cities"
    endgame_options = frozenset({"max_drops", "output", "color", "cell"})
    formats: ClassVar[tuple[str, ...]] = ("polytile/walkable@1",)
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
        n = len(doc.rounds)
        return f"game record, {n} round{'' if n == 1 else 's'}, all legal"

    def legal(self, doc: Any) -> Legal:
        from polytile.puzzles.walkable.board import legal_drops
        from polytile.puzzles.walkable.rules import PASS, PLAYER_NAMES, Drop

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
            drops = (str(Drop(piece, tuple(int(x) for x in row)))  # type: ignore[arg-type]
                     for row in legal_drops(g.cells, piece))  # fmt: skip
            return (f"{piece} {PASS}", *drops)

        if g.phase == "drop":  # picks made (a position between the two steps of a round)
            groups = {name: parts(pick) for name, pick in zip(PLAYER_NAMES, g.picks, strict=True)}
            return Legal("red and blue", sees, groups=groups, at_once=True,
                         note="each player drops its pick or passes")  # fmt: skip
        moves = tuple(m for piece in g.available() for m in parts(piece))
        how = ("each player picks one of these at once (both may pick the same piece); a "
               "round is played as 'polytile play FILE \"RED | BLUE\"'")  # fmt: skip
        return Legal("red and blue", sees, moves, note=how, at_once=True)

    def solve_endgame(self, console: Console, file: str, request: EndgameRequest) -> None:
        from polytile.puzzles.walkable.report import solve_report

        solve_report(console, file, request)

    def play_move(self, doc: Any, text: str) -> None:
        doc.state.play_round(text)

    def dumps(self, doc: Any) -> str:
        from polytile.puzzles.walkable.files import dumps_record

        return dumps_record(doc.state, doc.setup, doc.extra)

    def move_place(self, doc: Any) -> str:
        return f", round {len(doc.state.rounds()) + 1}"

    def finished(self, doc: Any) -> bool:
        return bool(doc.state.is_over())


#: The face the registry finds (:mod:`polytile.puzzles.faces`).
FACE = WalkableFace()
