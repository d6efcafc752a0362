"""City Blocks (Henning): the city as text, for the terminal.

Each block shows its tile with the owner's letter (``B:S4`` blue's store 4, ``R:CH`` red's
courthouse) or ``.`` when empty. Every street's token stands at the head of the street (left
of a row, above a column) with who took it: ``$12>B`` (blue), ``$7>R``, ``$3>=`` (a tie, the
token discarded) or just ``$9`` while the street is open.

Examples
--------
>>> from polytile.puzzles.henning.rules import Henning
>>> g = Henning([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], 0, [[0, 1, 2, 3, 4], [0, 1, 2, 3, 4]],
...             [list(range(5, 19)) + [15]] * 2)
>>> g.push(g.legal_moves()[0])
>>> print(to_text(g, color=False))  # doctest: +NORMALIZE_WHITESPACE
           a      b      c      d      e      f
          $6     $7     $8     $9     $10    $11
1  $1    B:H1    .      .      .      .      .
2  $2     .      .      .      .      .      .
3  $3     .      .      .      .      .      .
4  $4     .      .      .      .      .      .
5  $5     .      .      .      .      .      .
blue $0 (no tokens), red $0 (no tokens); red to move
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from polytile.puzzles.henning.tiles import KINDS, PLAYER_NAMES, ROWS

if TYPE_CHECKING:
    from polytile.puzzles.henning.rules import Henning

__all__ = ["money_line", "to_text", "token_label"]

_LETTERS = "BR"
_STYLES = ("bold #1f5fbf", "bold #d6312b")


def token_label(game: Henning, street: int) -> str:
    """``$12>B``, ``$3>=`` (tied, discarded) or ``$9`` (open)."""
    from polytile.puzzles.henning.rules import OPEN, TIED

    award = game.award(street)
    token = f"${game.tokens[street]}"
    if award == OPEN:
        return token
    return token + (">=" if award == TIED else ">" + _LETTERS[award])


def money_line(game: Henning) -> str:
    """``blue $14 ($3 $11), red $9 ($9); blue to move`` (or ``game over``)."""
    parts = []
    for p, name in enumerate(PLAYER_NAMES):
        held = " ".join(f"${t}" for t in game.money[p]) or "no tokens"
        parts.append(f"{name} ${game.money_of(p)} ({held})")
    end = "game over" if game.is_over() else f"{PLAYER_NAMES[game.to_move]} to move"
    return ", ".join(parts) + "; " + end


def to_text(game: Henning, color: bool | None = None) -> str:
    """The city as a text grid (see the module notes); ``color`` None colours owners'
    letters only when printing to a terminal."""
    width = 7
    lines = [" " * 9 + "".join(c.center(width) for c in "abcdef")]
    lines.append(" " * 9 + "".join(token_label(game, ROWS + c).center(width) for c in range(6)))
    for r in range(ROWS):
        cells = []
        for c in range(6):
            tile = game.at((r, c))
            text = "." if tile is None else f"{_LETTERS[tile[0]]}:{KINDS[tile[1]]}"
            cells.append(text.center(width))
        lines.append(f"{r + 1}  {token_label(game, r):<6}" + "".join(cells).rstrip())
    lines.append(money_line(game))
    text = "\n".join(lines)
    if color is None:
        import sys

        color = sys.stdout.isatty()
    if not color:
        return text
    from rich.console import Console
    from rich.text import Text

    styled = Text(text)
    for p, letter in enumerate(_LETTERS):
        styled.highlight_regex(rf"{letter}:\w\w|>{letter}\b", _STYLES[p])
    console = Console(force_terminal=True, width=200)
    with console.capture() as cap:
        console.print(styled, end="")
    return cap.get()
