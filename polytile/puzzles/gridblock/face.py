"""Gridblock as the front ends see it: :data:`FACE`."""

from __future__ import annotations

from typing import Any, ClassVar

from polytile.puzzles.face import Console, EndgameFace, EndgameRequest, Legal

__all__ = ["FACE", "GridblockFace"]


class GridblockFace(EndgameFace):
    """The face of Gridblock by André Heines (files ``polytile/gridblock@1``)."""

    name = "gridblock"
    title = "Gridblock"
    endgame_options = frozenset(
        {"open_analysis", "view", "samples", "max_exact", "seed", "workers", "players", "plan"}
    )
    formats: ClassVar[tuple[str, ...]] = ("polytile/gridblock@1",)
    # --cell sizes a Blokus square; a Gridblock tile (3 cells) holds corners and movers
    picture_cells = (6, 170, "a Gridblock tile is 3 cells: --cell 6 to 170")

    def read(self, file: str, move: int | None = None) -> Any:
        from polytile.puzzles.gridblock.files import load_gridblock

        return load_gridblock(file, move)

    def picture(self, doc: Any, kind: str, *, color: bool | None = None, cell: int = 24,
                title: str | None = None) -> str | bytes:  # fmt: skip
        from polytile.puzzles.gridblock.files import last_walk
        from polytile.puzzles.gridblock.picture import to_png, to_svg, to_text

        g = doc.shown_state()
        walk = last_walk(g)
        if kind in ("text", "txt"):
            text = to_text(g, color=color if kind == "text" else False, last=walk)
            return text if kind == "text" else text + "\n"
        draw = to_svg if kind == "svg" else to_png
        return draw(g, 3 * cell, last=walk, title=title)

    def notes(self, doc: Any) -> list[str]:
        note = _view_note(doc)
        return [note] if note else []

    def score_doc(self, doc: Any) -> dict[str, Any]:
        from polytile.puzzles.gridblock.picture import score_doc

        g = doc.shown_state()
        out = score_doc(g)
        if doc.kind == "view":
            from polytile.puzzles.gridblock.game import player_names
            from polytile.puzzles.gridblock.rules import COLOR_NAMES

            hidden = [COLOR_NAMES[g.colors[s]] for s in doc.hidden_hands()]
            for name in hidden:
                out["colors"][name]["hand"] = None  # not known, rather than empty
            out["view"] = {"player": player_names(g.options)[doc.player], "hidden_hands": hidden}
        return out

    def score_text(self, doc: Any, color: bool | None) -> str:
        from polytile.puzzles.gridblock.files import last_walk
        from polytile.puzzles.gridblock.picture import score_table, to_text

        g = doc.shown_state()
        parts = [to_text(g, color=color, last=last_walk(g)), "", score_table(g, color=color)]
        note = _view_note(doc)
        return "\n".join([*parts, note] if note else parts)

    def describe(self, doc: Any) -> str:
        if doc.kind == "record":
            return f"game record, {len(doc.moves)} moves, all legal"
        return str(doc.kind)

    def legal(self, doc: Any) -> Legal:
        from polytile.puzzles.gridblock.files import move_text
        from polytile.puzzles.gridblock.grid import card_name
        from polytile.puzzles.gridblock.rules import COLOR_NAMES

        g = doc.state
        if g.is_over():
            return Legal(None, note="the game is over: 'polytile score' shows the result")
        seat = g.to_move_slot
        colour = COLOR_NAMES[g.to_move_color]
        if doc.kind == "view" and seat in doc.hidden_hands():
            hidden = f"this view does not show {colour}'s cards, so not its moves"
            return Legal(colour, {"hand": "hidden in this view"}, note=hidden)

        def hand(slot: int) -> str:
            return " ".join(card_name(c) for c in g.hand(slot)) or "(none: set-up)"

        sees = {"hand": hand(seat)}
        me = g.options.player_of(g.to_move_color)
        for slot, c in enumerate(g.colors):  # with 2 players, its other colour's cards too
            if slot != seat and g.options.player_of(c) == me:
                sees[f"{COLOR_NAMES[c]}'s hand"] = hand(slot)
        moves = tuple(move_text(m) for m in g.legal_moves())
        how = "a move is played as 'polytile play FILE MOVE' (CARD END CORNER)"
        return Legal(colour, sees, moves, note=how)

    def solve_endgame(self, console: Console, file: str, request: EndgameRequest) -> None:
        from polytile.puzzles.gridblock.report import solve_report

        solve_report(console, file, request)

    def play_move(self, doc: Any, text: str) -> None:
        from polytile.puzzles.gridblock.moves import Move

        doc.state.push(Move.parse(text))

    def dumps(self, doc: Any) -> str:
        from polytile.puzzles.gridblock.files import dumps_record

        return dumps_record(doc.state, doc.extra)

    def split_moves(self, words: tuple[str, ...]) -> list[str]:
        from polytile.puzzles.gridblock.files import split_moves

        return split_moves(words)


def _view_note(doc: Any) -> str | None:
    """What a view hides, said under its picture; None for a record or a position."""
    if doc.kind != "view":
        return None
    from polytile.puzzles.gridblock.game import player_names
    from polytile.puzzles.gridblock.rules import COLOR_NAMES

    name = player_names(doc.state.options)[doc.player]
    hidden = [COLOR_NAMES[doc.state.colors[s]] for s in doc.hidden_hands()]
    names = " and ".join(filter(None, [", ".join(hidden[:-1]), *hidden[-1:]]))
    what = f"the cards of {names} (shown as -) and the later deals" if hidden else (
        "the later deals")  # fmt: skip
    return f"(the view of {name}: {what} are hidden)"


#: The face the registry finds (:mod:`polytile.puzzles.faces`).
FACE = GridblockFace()
