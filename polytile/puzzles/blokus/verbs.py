"""What the Blokus face shows and does for the front ends: its pictures (the attach points of
the colour to move, a move highlighted, the board with Pentobi's coordinates after ``play``),
the score report, ``render --best``, the moves ``play`` reads, and ``play`` itself."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from polytile.errors import IllegalMoveError, OptionError
from polytile.faces.face import Console
from polytile.puzzles.blokus.files import BlokusDoc
from polytile.puzzles.engine import DEFAULT_MOVE_TIME
from polytile.text import wrote

__all__ = ["best_move", "legal_texts", "play", "play_picture", "render", "score", "score_sheet"]

#: Seconds for each CP-SAT search of the bounds ``--best`` tries past ``--max-pieces``.
_SETTLE_SECONDS = 2.0


def render(console: Console, doc: BlokusDoc, output: Path | None, color: bool | None,
           cell: int, title: str | None, attach: bool, best: bool) -> None:  # fmt: skip
    """``polytile render`` of a Blokus record or position: the attach points of the colour
    to move (``attach``), the move shown of a record or the ``best`` move highlighted."""
    from polytile.render import save_picture, to_text

    game, record, move, obj = doc.game, doc.record, doc.move, doc.obj
    to_move = game.to_move if attach and game is not None and not game.is_game_over() else None
    marks = game.attach_points() if game is not None and to_move else []
    played = record.moves[move - 1] if record is not None and move else None
    if best:
        played, move = best_move(console, game), None
    highlight = played.cells if played else ()
    lit = played.color if played else None
    if output is not None:
        save_picture(obj, output, cell, title, marks=marks, mark_color=to_move,
                     highlight=highlight, highlight_color=lit, coordinates="pentobi")  # fmt: skip
        console.err(wrote(output))
        return
    text = to_text(obj, color, marks=marks, mark_color=to_move, highlight=highlight,
                   highlight_color=lit)  # fmt: skip
    coloured = "\x1b[" in text
    legend = []
    if to_move:
        symbol = "•" if coloured else "+"
        legend.append(
            f"{symbol} attach points of {to_move} (to move)"
            if marks
            else f"{to_move} (to move) has no attach points"
        )
    if played and move is None:
        legend.append(f"highlighted: the best move, {played.color} {played.piece}")
    elif played:
        legend.append(f"highlighted: move {move}, {played.color} {played.piece}")
    if legend:
        text += "; ".join(legend) + "\n"
    console.out(text, nl=False, color=coloured)


def best_move(console: Console, game: Any) -> Any:
    """The exact best move of the colour to move (a placement), for ``render --best``: by
    the exact endgame search with its defaults or, past its piece limit, by the bounds when
    they settle it; ``SystemExit`` 1 (130 for Ctrl-C) when there is no answer."""
    from polytile.puzzles.blokus.endgame import EndgameRefused, EndgameStopped, solve_endgame

    if game.is_game_over():
        raise OptionError("the game is over: there is no move to recommend "
                          "('polytile score' shows the final scores)", "--best")  # fmt: skip
    try:
        try:
            found = solve_endgame(game, players=[game.player_to_move]).best_move
        except EndgameRefused as refused:  # unless the bounds settle it (a board split up)
            from polytile.puzzles.blokus.settle import settle

            console.err(f"--best: {refused}; trying the bounds (2 CP-SAT searches of up to "
                        f"{_SETTLE_SECONDS:g} s per colour)")  # fmt: skip
            settled = settle(game, time_limit=_SETTLE_SECONDS, players=[game.player_to_move])
            if settled is None:
                raise EndgameRefused(f"{refused}, and the bounds do not settle it") from None
            found = settled.best_move
    except (EndgameRefused, EndgameStopped) as exc:
        console.err(f"--best: no exact best move: {exc}; 'polytile solve-endgame' (with "
                    "--max-pieces, --time-limit) prints the bounds instead")  # fmt: skip
        interrupted = isinstance(exc, EndgameStopped) and exc.reason == "interrupt"
        raise SystemExit(130 if interrupted else 1) from None
    if found is None or found.piece is None:
        raise OptionError(f"{game.to_move} must pass here: there is no placement to "
                          "recommend", "--best")  # fmt: skip
    return found


def score_sheet(game: Any, players: str | None) -> Any:
    """The score sheet of ``game``, its colours grouped into ``players`` when given."""
    from polytile.puzzles.blokus.scoring import check_players, score_hands

    sheet = game.score()
    if players is None:
        return sheet
    count: int | str = int(players)
    try:
        check_players(count, game.variant.name)
    except ValueError as exc:
        raise OptionError(str(exc), "--players") from None
    return score_hands(sheet.hands or {}, sheet.last_pieces or {}, count, game.variant.name)


def _leaders(sheet: Any) -> tuple[list[str], int]:
    totals = sheet.player_totals
    best = max(totals.values())
    return [name for name, t in totals.items() if t == best], best


def score_doc(game: Any, sheet: Any) -> dict[str, Any]:
    """``score --json``: each colour's squares left, bonus and total, the players' totals,
    and who leads or won."""
    over = game.is_game_over()
    leaders, _ = _leaders(sheet)
    return {**sheet.as_dict(), "over": over, "to_move": None if over else game.to_move,
            ("winners" if over else "leaders"): leaders}  # fmt: skip


def score_table(game: Any, sheet: Any) -> str:
    """The score table under the picture, and who leads or won."""
    over = game.is_game_over()
    totals = sheet.player_totals
    leaders, best = _leaders(sheet)
    state = "game over" if over else f"{game.to_move} to move"
    lines = [f"Blokus {game.variant.name}, players {sheet.players}; {state}",
             f"{'colour':8} {'left':>5} {'bonus':>6} {'total':>6}"]  # fmt: skip
    for name, c in sheet.colors.items():
        lines.append(f"{name:8} {c.left:5} {c.bonus:6} {c.total:6}")
    lines.append("players: " + ", ".join(f"{name} {t:+d}" for name, t in totals.items()))
    others = [t for name, t in totals.items() if name not in leaders]
    lead = f" by {best - max(others)}" if others else ""
    if len(leaders) > 1:
        verb = "share the win" if over else "are level"
        names = ", ".join(leaders[:-1]) + " and " + leaders[-1]
        lines.append(f"{names} {verb} at {best:+d}")
    else:
        lines.append(f"{leaders[0]} {'wins' if over else 'leads'}{lead}")
    return "\n".join(lines)


def score(console: Console, doc: BlokusDoc, players: str | None, as_json: bool,
          output: Path | None, color: bool | None, cell: int) -> None:  # fmt: skip
    """``polytile score`` of a Blokus record or position (``players`` regroups the
    colours); with ``output`` the picture, which the text report then leaves out."""
    from polytile.render import save_picture, to_text

    sheet = score_sheet(doc.game, players)
    if output is not None:
        save_picture(doc.obj, output, cell, None, coordinates="pentobi")
        console.err(wrote(output))
    if as_json:
        console.out(json.dumps(score_doc(doc.game, sheet)))
        return
    if output is None:
        picture = to_text(doc.obj, color)
        console.out(picture, nl=False, color="\x1b[" in picture)
    for line in score_table(doc.game, sheet).split("\n"):
        console.out(line)


def legal_texts(game: Any) -> tuple[str, ...]:
    """The legal moves of the colour to move in the one notation ``play`` reads and every
    command writes (:func:`~polytile.puzzles.blokus.notation.move_text`: ``blue V3 e10 e9
    f9``, ``blue pass``)."""
    from polytile.puzzles.blokus.notation import move_text

    return tuple(move_text(m, game.size) for m in game.legal_moves())


def forced_passes(game: Any) -> list[str]:
    """Push the passes of the colours that must pass now; their names."""
    from polytile.puzzles.blokus.rules import Move

    passed = []
    while game.must_pass():
        passed.append(game.to_move)
        game.push(Move.pass_turn(game.to_move))
    return passed


def play_one(game: Any, text: str) -> list[str]:
    """Play the move written ``text`` on ``game`` (the forced passes before a placement
    first): the notes saying which colours passed.

    Raises
    ------
    ValueError
        Saying why ``text`` is no legal move, its cells written as points; ``game`` may have
        had forced passes pushed.
    """
    from polytile.puzzles.blokus.notation import is_pass, named_color, parse_move
    from polytile.puzzles.blokus.points import in_points

    notes = []
    move = None
    try:
        named = named_color(text)
        if named == game.to_move and game.must_pass() and not is_pass(text):
            raise ValueError(f"{named} has no placement left: it can only pass")
        if not is_pass(text):  # a placement: the forced passes before it
            notes += [f"{name} passes (no placement left)" for name in forced_passes(game)]
        move = parse_move(text, game)
        game.push(move)
    except (ValueError, IllegalMoveError) as e:
        raise ValueError(in_points(str(e), move, game.size)) from None
    return notes


def play(console: Console, record: Path, doc: BlokusDoc, moves: tuple[str, ...],
         color: bool | None, reply: bool = False,
         move_time: float = DEFAULT_MOVE_TIME) -> None:  # fmt: skip
    """``polytile play`` on a Blokus position or Pentobi record: the moves played by the
    rules engine (the forced passes on the way included), with ``reply`` the engine
    player's answer (:func:`polytile.puzzles.blokus.engine.engine_choice`, ``move_time``
    seconds, played through the rules engine like a typed move), the file written again
    only when every move was legal: a position as the new position, a record with the moves
    added to its main line (its comments and properties kept)."""
    from polytile.formats import dumps, write_atomic

    game: Any = doc.game  # read checked by the rules
    rec = doc.record
    if rec is not None and rec.dropped:
        raise OptionError(
            f"{record} holds what polytile does not write back ({'; '.join(rec.dropped)}); "
            f"playing into it would lose that, so nothing was written (keep the main line "
            f"alone in a copy, say with Pentobi, and play into that)",
            "RECORD",
        )
    start = len(game.move_stack)
    notes = []
    for i, text in enumerate(moves, 1):
        if game.is_game_over():
            raise OptionError(f"move {i} ({text!r}): the game is over; nothing was written",
                              "MOVES")  # fmt: skip
        try:
            notes += play_one(game, text)
        except ValueError as e:
            raise OptionError(f"move {i} ({text!r}): {e}; nothing was written",
                              "MOVES") from None  # fmt: skip
    notes += [f"{name} passes (no placement left)" for name in forced_passes(game)]
    answer = None
    if reply:
        if game.is_game_over():
            raise OptionError("the game is over: the engine has no move to answer with; "
                              "nothing was written", "--reply")  # fmt: skip
        from polytile.puzzles.blokus.engine import engine_choice
        from polytile.puzzles.blokus.notation import move_text

        mover = game.to_move
        choice = engine_choice(game, move_time)
        said = move_text(choice.move, game.size)
        notes += play_one(game, said)  # checked by the rules engine, as a typed move is
        notes += [f"{name} passes (no placement left)" for name in forced_passes(game)]
        answer = choice.said(mover, said)
    if rec is not None:  # a Pentobi record
        from dataclasses import replace

        from polytile.puzzles.blokus.sgf import write_blksgf

        added = [m for m in game.move_stack[start:] if not m.is_pass]
        text = write_blksgf(replace(rec, moves=(*rec.moves, *added)))
    else:
        text = dumps(game.to_position())
    write_atomic(record, text.encode("utf-8"))
    for note in notes:
        console.err(note)
    console.err(wrote(record))
    shown = play_picture(game, color)
    console.out(shown, nl=False, color="\x1b[" in shown)
    if answer is not None:
        console.out(answer)


def play_picture(game: Any, color: bool | None) -> str:
    """The board with column letters and row numbers (Pentobi's points), the last
    placement highlighted and the attach points of the colour to move; then who is to move,
    or the final scores."""
    from polytile.render import to_text

    last = next((m for m in reversed(game.move_stack) if not m.is_pass), None)
    over = game.is_game_over()
    marks = [] if over else game.attach_points()
    text = to_text(game.to_position(), color, marks=marks, mark_color=None if over else
                   game.to_move, highlight=last.cells if last else (),
                   highlight_color=last.color if last else None)  # fmt: skip
    coloured = "\x1b[" in text
    n = game.size
    rows = text.rstrip("\n").split("\n")
    out = [f"{n - i:>2} {row}" for i, row in enumerate(rows)]
    out.append("   " + " ".join(chr(ord("a") + c) for c in range(n)))
    legend = []
    if last is not None:
        legend.append(f"highlighted: the last move, {last.color} {last.piece}")
    if over:
        totals = game.score().player_totals
        legend.append("the game is over: " + ", ".join(f"{p} {v}" for p, v in totals.items()))
    else:
        symbol = "•" if coloured else "+"
        legend.append(f"{symbol} attach points of {game.to_move} (to move)")
    return "\n".join(out) + "\n" + "; ".join(legend) + "\n"
