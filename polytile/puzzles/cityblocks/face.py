"""City Blocks (Jeremy Ritchie's) as the front ends see it: :data:`FACE`.

Its files are ``polytile/position@1`` positions of game ``"cityblocks"``; ``polytile score``
also reads a plain text board (20 rows of 20 cells, ``. B Y R G``) as one, with no hands.
``moves`` lists the legal moves of the colour to move in polytile's notation (``B I2 0,0
0,1``, ``R pass``), and ``play`` plays them on a position file, which becomes the new
position (:attr:`CityBlocksFace.play_kinds`: the game has no records).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from polytile.errors import OptionError
from polytile.faces.bounds import BoundsFace, BoundsRequest
from polytile.faces.face import Console, Legal, MoveCells, MovePiece, Option, report_problems
from polytile.faces.move_cells import held_pieces
from polytile.text import wrote

if TYPE_CHECKING:
    from polytile.formats import Position  # numpy: only where a position is read

__all__ = ["FACE", "CityBlocksDoc", "CityBlocksFace"]


@dataclass
class CityBlocksDoc:
    """A City Blocks position read: the position (a plain text board's with no hands), and
    the name to report the file by."""

    obj: Position
    is_text: bool
    source: str
    kind: str = "position"
    _game: Any = None

    @property
    def game(self) -> Any:
        """The rules engine of the position (checked when first asked for)."""
        if self._game is None:
            from polytile.puzzles.cityblocks.rules import CityBlocks

            self._game = CityBlocks.from_position(self.obj, source=self.source)
        return self._game


class CityBlocksFace(BoundsFace):
    """The face of City Blocks by Jeremy Ritchie (positions of game ``"cityblocks"``)."""

    name = "cityblocks"
    title = "City Blocks (Ritchie)"
    formats: ClassVar[tuple[str, ...]] = ()  # positions, told by their "game"
    new_help = "City Blocks by Jeremy Ritchie: the start position (--players 2|3|4)"
    new_options = (Option("players", "How many players [default: 4].", ("2", "3", "4")),)
    score_options = (
        Option("players", 'How colours make up players [default: the file\'s "players", '
               "else 4].", ("2", "3", "4")),
    )  # fmt: skip

    bounds_options = frozenset({"exact_pieces"})
    play_kinds: ClassVar[tuple[str, ...]] = ("position",)

    def read(self, file: str, move: int | None = None) -> CityBlocksDoc:
        from polytile._positions import check_game, read_board_or_position, source_of

        if move is not None:
            raise OptionError("--move applies to game records; a City Blocks (Ritchie) file is "
                              "a position (the game has no records)", "--move")  # fmt: skip
        source = source_of(file)
        obj, is_text = read_board_or_position(file)
        return CityBlocksDoc(check_game(obj, is_text, ("cityblocks",), "score", source),
                             is_text, source)  # fmt: skip

    def picture(self, doc: Any, kind: str, *, color: bool | None = None, cell: int = 24,
                title: str | None = None) -> str | bytes:  # fmt: skip
        from polytile.render import png_bytes, to_svg, to_text

        if kind == "text":  # the verbs that print it end the line
            return to_text(doc.obj, color).removesuffix("\n")
        if kind == "txt":
            return to_text(doc.obj, False)
        # the squares named around the board as moves write them (row,col from 0)
        if kind == "svg":
            return to_svg(doc.obj, cell, title, coordinates="rowcol")
        return png_bytes(doc.obj, cell, title, coordinates="rowcol")

    def _sheet(self, doc: CityBlocksDoc, players: str | None) -> Any:
        """The score of ``doc`` with ``players`` (None: the file's), its hands checked
        against the board first as ``validate`` checks them."""
        from polytile.puzzles.cityblocks.rules import players_of
        from polytile.puzzles.cityblocks.rules import score as score_board

        obj, is_text, source = doc.obj, doc.is_text, doc.source
        recorded = 4 if is_text else players_of(obj, source)  # checked even under --players
        if not is_text and obj.hands:
            _ = doc.game
        count = int(players) if players is not None else recorded
        # A position names rows by field (board[3]), a plain text board by row number.
        return score_board(obj.board if is_text else obj, count, source)

    def score_doc(self, doc: Any) -> dict[str, Any]:
        return dict(self._sheet(doc, None).as_dict())

    def score_text(self, doc: Any, color: bool | None) -> str:
        from polytile.puzzles.cityblocks.picture import score_table, score_text

        sheet = self._sheet(doc, None)
        return (score_text(doc.obj.board, sheet, color=color) + "\n"
                + score_table(sheet, _over(doc)))  # fmt: skip

    def describe(self, doc: Any) -> str:
        return "position"

    def new(self, seed: int, options: dict[str, Any]) -> str:
        from polytile.formats import dumps
        from polytile.puzzles.cityblocks.rules import CityBlocks

        players = options.get("players")
        if players == "teams":
            raise OptionError("City Blocks (Ritchie) takes 2, 3 or 4 players", "--players")
        return dumps(CityBlocks(int(players or 4)).to_position())

    def legal(self, doc: Any) -> Legal:
        game = doc.game
        if game.is_game_over():
            return Legal(None, note="the game is over: 'polytile score' shows the result")
        sees = {f"{c}'s pieces": " ".join(game.hand(c)) or "(none)"
                for c in game.colors_to_move()}  # fmt: skip
        moves = tuple(str(m) for m in game.legal_moves())
        how = (
            "in polytile's notation: colour, piece, then row,column cells from 0 at the top "
            "left; a move is played as 'polytile play FILE \"MOVE\"'"
        )
        return Legal(game.to_move, sees, moves, note=how)

    def move_cells(self, doc: Any, cell: int = 24) -> MoveCells | None:
        """Each placement by the squares it covers (``"row,col"``)."""
        from polytile.render.svg import cell_boxes

        game = doc.game
        moves = {} if game.is_game_over() else {
            str(m): tuple(f"{r},{c}" for r, c in m.cells) for m in game.legal_moves()
            if m.cells}  # fmt: skip
        boxes = cell_boxes(doc.obj, cell, coordinates="rowcol")
        return MoveCells({f"{r},{c}": box for (r, c), box in boxes.items()}, moves)

    def move_pieces(self, doc: Any) -> tuple[MovePiece, ...]:
        """The colour to move's pieces; a move writes its colour's letter and the piece
        before the cells (``B I2 0,0 0,1``)."""
        from polytile.colors import COLORS

        return held_pieces(doc.game, lambda color, name: f"{COLORS[color]} {name} ")

    def notes(self, doc: Any) -> list[str]:
        """Whose turn it is, under the board ``play`` shows."""
        return ["the game is over" if self.finished(doc) else f"{doc.game.to_move} to move"]

    def finished(self, doc: Any) -> bool:
        """Whether the game is over, so that ``play`` says so of a move after its end."""
        return bool(doc.game.is_game_over())

    def play_move(self, doc: Any, text: str) -> None:
        from polytile.puzzles.cityblocks.rules import Move

        doc.game.push(Move.parse(text))
        doc.obj = doc.game.to_position()  # the picture and the score read the position

    def dumps(self, doc: Any) -> str:
        from polytile.formats import dumps

        return dumps(doc.game.to_position())

    # -- the verbs that read its own options, or keep their own output ------------------

    def render(self, console: Console, file: str, move: int | None, output: Path | None,
               color: bool | None, cell: int, title: str | None = None,
               options: dict[str, Any] | None = None) -> None:  # fmt: skip
        """The board as it stands (not checked against the rules: a broken one still
        draws)."""
        from polytile.render import save_picture, to_text

        doc = self.read(file, move)
        if output is not None:
            save_picture(doc.obj, output, cell, title, coordinates="rowcol")
            console.err(wrote(output))
            return
        text = to_text(doc.obj, color)
        console.out(text, nl=False, color="\x1b[" in text)

    def score(self, console: Console, file: str, move: int | None, as_json: bool,
              color: bool | None, output: Path | None = None, cell: int = 24,
              options: dict[str, Any] | None = None) -> None:  # fmt: skip
        """Each colour's area and free edges (``players`` regroups the colours); with
        ``output`` the picture marking them, which the text report then leaves out."""
        from polytile.puzzles.cityblocks.picture import (
            save_score_picture,
            score_table,
            score_text,
        )

        doc = self.read(file, move)
        sheet = self._sheet(doc, (options or {}).get("players"))
        rows = doc.obj.board
        over = _over(doc)
        if output is not None:
            save_score_picture(rows, sheet, output, cell=cell, over=over)
            console.err(wrote(output))
        if as_json:
            console.out(json.dumps(sheet.as_dict() | {"over": over}))
            return
        if output is None:
            picture = score_text(rows, sheet, color=color)
            console.out(picture, nl=False, color="\x1b[" in picture)
            console.out()
        console.out(score_table(sheet, over))

    def validate(self, console: Console, file: str, as_json: bool) -> None:
        """The position checked by the rules engine, each problem said (exit 1)."""
        from polytile.errors import PolytileError

        doc = self.read(file)
        reasons = []
        try:
            doc.source = file  # as the rules engine names it in its reasons
            _ = doc.game
        except PolytileError as exc:
            reasons.append(str(exc))
        report_problems(console, file, "position", reasons, as_json)

    def bounds(self, console: Console, file: str, request: BoundsRequest) -> None:
        """Each colour's best score if the others pass, what it can make sure of, and its
        exact value when at most ``request.exact_pieces`` pieces are left
        (:mod:`.bounds_verb`); a plain text board is the position at the start of a game."""
        from polytile.puzzles.cityblocks.bounds_verb import bounds

        doc = self.read(file, request.move)
        bounds(console, doc.obj, doc.source, request)


#: The face the registry finds (:mod:`polytile.faces.registry`).
FACE = CityBlocksFace()


def _over(doc: Any) -> bool | None:
    """Whether the game of a position has ended, as the rules engine says (every seat
    passed in turn); None when its position breaks the rules (score reads it all the
    same)."""
    from polytile.errors import PolytileError

    try:
        return bool(doc.game.is_game_over())
    except PolytileError:
        return None
