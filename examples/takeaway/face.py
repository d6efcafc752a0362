"""Take-away (:class:`polytile.puzzles.toys.TakeAway`) as the front ends see it: the face
``docs/architecture.md`` walks through, a whole CLI game in one module.

Its files are JSON records::

    {"format": "polytile-example/takeaway@1", "kind": "record", "pile": 10,
     "moves": ["take 3", "take 1"]}

Registered with one line in each table of :mod:`polytile.faces.registry`
(``FACES["takeaway"] = "takeaway.face"``, ``FORMATS["polytile-example/takeaway@1"] =
"takeaway"``), it has ``new``, ``play``, ``moves``, ``render``, ``score``, ``validate`` and
``solve-endgame`` (alpha-beta, the value checked by replaying its line).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, ClassVar

from polytile._files import parse_json, read_input, require
from polytile.errors import FormatError, OptionError
from polytile.faces.face import Console, EndgameFace, EndgameRequest, Legal, Option
from polytile.puzzles.toys import TakeAway
from polytile.text import counted

__all__ = ["FACE", "TakeAwayFace"]

FORMAT = "polytile-example/takeaway@1"
PLAYERS = ("first", "second")


@dataclass
class TakeAwayDoc:
    """A read record: the state after the moves shown, and every move of the file."""

    state: Any
    moves: list[str] = field(default_factory=list)
    kind: str = "record"


class TakeAwayFace(EndgameFace):
    """The face of Take-away: a pile of counters, each turn takes 1 to 3, the last wins."""

    name = "takeaway"
    title = "Take-away"
    formats: ClassVar[tuple[str, ...]] = (FORMAT,)
    new_help = "Take-away: a pile of counters (--pile N, default 10); the last to take wins"
    new_options = (Option("pile", "Counters in the pile [default: 10].", low=1, high=99),)
    move_help = "  take 2                         take two counters from the pile"
    endgame_options = frozenset()

    def read(self, file: str, move: int | None = None) -> TakeAwayDoc:
        data, source = read_input(file, 1_000_000)
        doc = parse_json(data.decode("utf-8", "replace"), source)
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            raise FormatError(f"not a {FORMAT} record", source, "format")
        pile, moves = require(doc, "pile", source), require(doc, "moves", source)
        if not isinstance(pile, int) or not 1 <= pile <= 99:
            raise FormatError("must be a whole number 1 to 99", source, "pile")
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise FormatError("must be a list of moves ('take 2')", source, "moves")
        if move is not None and move > len(moves):
            raise FormatError(f"--move {move} is past the record's {len(moves)} moves", source)
        game = TakeAway(pile)
        state = game.new_initial_state()
        for i, text in enumerate(moves[:move] if move is not None else moves):
            try:
                state.push(game.parse_move(text))
            except ValueError as e:
                raise FormatError(str(e), source, f"moves[{i}]") from None
        return TakeAwayDoc(state, list(moves))

    def picture(self, doc: Any, kind: str, *, color: bool | None = None, cell: int = 24,
                title: str | None = None) -> str | bytes:  # fmt: skip
        s = doc.state
        if kind in ("text", "txt"):
            who = "over" if s.is_over() else f"{PLAYERS[s.to_move]} to move"
            text = (
                f"pile: {'o' * s.left()}{'.' * (s.game.pile - s.left())}  ({s.left()} left, {who})"
            )
            return text + ("\n" if kind == "txt" else "")
        from polytile.formats import Position  # a row of squares: counters left, taken ones

        row = Position("tiling", ("B" * s.left() + "." * (s.game.pile - s.left()),))
        if kind == "svg":
            from polytile.render.svg import to_svg

            return to_svg(row, cell, title)
        from polytile.render.png import png_bytes

        return png_bytes(row, cell, title)

    def score_doc(self, doc: Any) -> dict[str, Any]:
        s = doc.state
        return {"game": self.name, "left": s.left(), "over": s.is_over(),
                "returns": dict(zip(PLAYERS, s.returns(), strict=True))}  # fmt: skip

    def score_text(self, doc: Any, color: bool | None) -> str:
        s = doc.state
        if not s.is_over():
            return f"{self.picture(doc, 'text')}\nno winner yet"
        winner = PLAYERS[0] if s.returns()[0] > 0 else PLAYERS[1]
        return f"{self.picture(doc, 'text')}\n{winner} took the last counter and wins"

    def describe(self, doc: Any) -> str:
        return f"game record, {counted(len(doc.moves), 'move')}, all legal"

    def legal(self, doc: Any) -> Legal:
        s = doc.state
        if s.is_over():
            return Legal(None)
        return Legal(PLAYERS[s.to_move], {"pile": f"{s.left()} counters"}, tuple(s.legal_moves()))

    def new(self, seed: int, options: dict[str, Any]) -> str:
        return json.dumps({"format": FORMAT, "kind": "record", "pile": options.get("pile", 10),
                           "moves": []}) + "\n"  # fmt: skip

    def play_move(self, doc: Any, text: str) -> None:
        doc.state.push(doc.state.game.parse_move(text))
        doc.moves = list(doc.state.history)

    def dumps(self, doc: Any) -> str:
        return json.dumps({"format": FORMAT, "kind": "record", "pile": doc.state.game.pile,
                           "moves": doc.moves}) + "\n"  # fmt: skip

    def solve_endgame(self, console: Console, file: str, request: EndgameRequest) -> None:
        from polytile.solvers.alphabeta import Objective, alphabeta

        s = self.read(file, request.move).state
        if s.is_over():
            raise OptionError(f"{file}: the game is over; nothing is left to solve", "POSITION")
        r = alphabeta(s, Objective.guaranteed(s.to_move), time_limit=request.time_limit)
        who = PLAYERS[s.to_move]
        if request.as_json:
            console.out(json.dumps({"game": self.name, "to_move": who, "value": r.value,
                                    "best_move": r.best_move, "pv": list(r.pv)}))  # fmt: skip
            return
        verdict = "wins" if r.value > 0 else "loses"
        console.out(f"exact value: {who} {verdict} with best play ({r.value:+g})")
        console.out(f"best move: {r.best_move}; line: {' / '.join(r.pv)}")


#: The face the registry finds.
FACE = TakeAwayFace()
