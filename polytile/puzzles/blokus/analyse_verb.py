"""``polytile analyse`` on a Pentobi record: every move from the first position the exact
endgame search accepts (:func:`polytile.puzzles.blokus.analyse.analyse_record`), printed as
a table or JSON and written back as comments on the moves; and, for a file that is no
record, what ``analyse`` needs and what the file is."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from polytile.errors import FormatError
from polytile.faces.analysis import AnalyseRequest
from polytile.faces.face import Console
from polytile.puzzles.blokus.endgame_verb import move_text, with_move_texts
from polytile.text import counted, wrote

__all__ = ["analyse"]


def analyse(console: Console, file: str, request: AnalyseRequest) -> None:
    """Analyse the record in ``file`` and print it (``request.as_json``: as JSON), writing
    the annotated record to ``request.output``; ``SystemExit`` 1 when nothing is small
    enough (``--max-pieces``) or the time ran out, 130 after Ctrl-C, with the moves
    analysed before it printed.

    Raises
    ------
    FormatError
        For a file that is no Pentobi record, saying what it is.
    """
    from polytile.puzzles.blokus._endgame_limits import DEFAULT_MAX_PIECES
    from polytile.puzzles.blokus.analyse import analyse_record
    from polytile.puzzles.blokus.files import is_record
    from polytile.puzzles.blokus.sgf import read_blksgf

    if not is_record(file):
        raise FormatError(_not_a_record(file, request.reads), "<stdin>" if file == "-" else file)
    as_json, output, time_limit = request.as_json, request.output, request.time_limit
    max_pieces = DEFAULT_MAX_PIECES if request.max_pieces is None else request.max_pieces
    from polytile.puzzles.blokus.rules import VARIANTS

    game = read_blksgf(Path(file))
    size = VARIANTS[game.variant].size
    state = SimpleNamespace(done=0, total=1, seconds=0.0, nodes=0)

    def describe(p: Any) -> str:
        return f"positions solved; {p.nodes:,} searched"

    with console.progress("exact analysis", True, describe) as update:

        def progress(done: int, total: int, nodes: int, seconds: float) -> None:
            if update is not None:
                state.done, state.total, state.nodes, state.seconds = done, total, nodes, seconds
                update(state)

        analysis = analyse_record(game, max_pieces=max_pieces, progress=progress,
                                  time_limit=_exact_share(request, len(game.moves)))  # fmt: skip
    estimated = _estimates(console, game, analysis, request)
    if analysis.first_solvable is None and not estimated.estimates:
        console.err(f"no exact analysis: {analysis.refused} (--max-pieces)")
        if as_json:  # the object formats.md describes, its "refused" saying why
            doc = {"game": "blokus", "variant": game.variant, "players_option": game.players}
            console.out(json.dumps(with_move_texts(doc | analysis.as_dict(), size)))
        raise SystemExit(130 if estimated.stopped == "interrupt" else 1)
    if output is not None and (analysis.moves or estimated.estimates):
        _write(console, game, analysis, output, estimated)
    elif output is not None:
        console.err(f"nothing written to {output}: no move analysed")
    valued = len(analysis.moves) + len(estimated.estimates) == analysis.total_moves
    if as_json:
        rows = [*analysis.as_dict()["moves"], *(e.as_dict() for e in estimated.estimates)]
        whole = {"game": "blokus", "variant": game.variant, "players_option": game.players,
                 **analysis.as_dict(), "moves": sorted(rows, key=lambda m: m["number"]),
                 "estimated": len(estimated.estimates), "valued": valued,
                 "estimates_stopped": estimated.stopped}  # fmt: skip
        console.out(json.dumps(with_move_texts(whole, size)))
    else:
        _print(console, game, analysis, estimated)
    if estimated.stopped == "interrupt":
        console.err("interrupted (Ctrl-C) while estimating: the moves valued so far are shown")
        raise SystemExit(130)
    if valued and analysis.stopped != "interrupt":
        return  # every move valued: exact where the search reached, estimated before
    if analysis.stopped is not None and (request.exact_only or not estimated.estimates
                                         or analysis.stopped == "interrupt"):  # fmt: skip
        first = analysis.moves[0].number if analysis.moves else None
        done = f"moves {first} to {analysis.total_moves}" if first else "no move"
        why = {"time": f"--time-limit {time_limit:g} s reached", "interrupt": "interrupted",
               "nodes": "node limit reached"}[analysis.stopped]  # fmt: skip
        console.err(f"incomplete ({why}): {done} analysed, not every move after move "
                    f"{analysis.first_solvable}")  # fmt: skip
        if analysis.unfinished is not None and not as_json:
            k, proven = analysis.unfinished
            console.out(f"Before move {k + 1}, proven before the stop: {proven.summary()}.")
            console.out(f"  {proven.claim(lambda m: move_text(m, size))}")
        raise SystemExit(130 if analysis.stopped == "interrupt" else 1)
    if not valued and not request.exact_only:  # the estimates ran out of time
        got = len(analysis.moves) + len(estimated.estimates)
        console.err(f"incomplete (--time-limit {time_limit:g} s reached): {got} of "
                    f"{analysis.total_moves} moves valued, {len(analysis.moves)} exactly and "
                    f"{len(estimated.estimates)} by estimates; the earliest are not")  # fmt: skip
        raise SystemExit(1)
    if not valued:  # --exact-only: the moves before the first solvable position left out
        return


def _exact_share(request: AnalyseRequest, moves: int) -> float | None:
    """The exact analysis's time: :data:`~polytile.faces.analysis.REVIEW_SHARE` of what is
    left, less :data:`~polytile.faces.analysis.ESTIMATE_FLOOR` a move for the estimates of
    the moves it does not reach (never under half that share), as every game's analyse."""
    from polytile.faces.analysis import review_time

    left = request.clock.left(request.time_limit, 0.25)
    if left is None or request.exact_only:
        return left
    return review_time(left, moves)


def _estimates(console: Console, record: Any, analysis: Any, request: AnalyseRequest) -> Any:
    """The moves the exact analysis did not reach, estimated by tree search in the time
    left (:mod:`polytile.puzzles.blokus.analyse_estimate`); none after a Ctrl-C."""
    from polytile.puzzles.blokus.analyse_estimate import Estimated, estimate_moves
    from polytile.solvers.parallel import ctrl_c_asks_stop

    reached = {m.number for m in analysis.moves}
    todo = [k for k in range(1, analysis.total_moves + 1) if k not in reached]
    if not todo or analysis.stopped == "interrupt" or request.exact_only:
        return Estimated((), None, 0.0)
    note = SimpleNamespace(done=0, total=len(todo), seconds=0.0)
    with console.progress("estimates", True, lambda p: "moves estimated") as update:

        def progress(done: int, total: int) -> None:
            if update is not None:
                note.done, note.total = done, total
                update(note)

        left = request.clock.left(request.time_limit, 0.25)
        with ctrl_c_asks_stop() as asked:
            return estimate_moves(record, todo, should_stop=asked.is_set, progress=progress,
                                  time_limit=left)  # fmt: skip


def _value_words(analysis: Any) -> tuple[str, str]:
    """How values are printed, and what they mean."""
    if analysis.mode == "difference":
        first, second = analysis.players
        return "{:+d}", f"{first}'s final lead over {second} under perfect play from there"
    return "{:d}", "the final score the move's player can make sure of, the others against it"


def _print(console: Console, record: Any, analysis: Any, estimated: Any) -> None:
    from polytile.puzzles.blokus.rules import VARIANTS

    out = console.out
    size = VARIANTS[record.variant].size
    players = "2 teams" if record.players == "teams" else f"{record.players} players"
    title = "Blokus Duo" if record.variant == "duo" else f"Blokus, {players}"
    fmt, meaning = _value_words(analysis)
    # the exact values start where the exact part got to (its share of the time may end
    # before the first position the search accepts)
    start = min((m.number for m in analysis.moves), default=analysis.first_solvable + 1
                if analysis.first_solvable is not None else None)  # fmt: skip
    start = None if start is None else start - 1
    since = "the start" if start == 0 else f"the position after move {start}"
    exact = f"exact from {since}" if start is not None else "no position exact"
    guessed = estimated.estimates
    more = f", {len(guessed)} estimated (~)" if guessed else ""
    out(f"{title}: {counted(analysis.total_moves, 'move')}; {exact}{more}.")
    if analysis.refused:
        out(f"Not before: {analysis.refused} (--max-pieces).")
    out(f"Values: {meaning}. Loss: what the move cost its player.")
    if not analysis.moves and not guessed:
        out("\nNo move to analyse.")
    else:
        rows = [(m.number, str(m.number), m.player, move_text(m.move, size),
                 fmt.format(m.before), fmt.format(m.after), str(m.loss) if m.loss else "",
                 move_text(m.best, size) if m.loss else "")
                for m in analysis.moves]  # fmt: skip
        rows += [(e.number, str(e.number), e.player, move_text(e.move, size),
                  f"~{e.before:+.1f}", f"~{e.after:+.1f}",
                  f"~{e.loss:.1f}" if e.loss > 0.05 else "",
                  move_text(e.best, size) if e.best != e.move else "")
                 for e in guessed]  # fmt: skip
        table = [r[1:] for r in sorted(rows)]
        head = ("move", "player", "played", "before", "after", "loss", "best move")
        widths = [max(len(r[i]) for r in (head, *table)) for i in range(len(head))]
        right = {0, 3, 4, 5}
        out()
        for r in (head, *table):
            cells = [c.rjust(w) if i in right else c.ljust(w)
                     for i, (c, w) in enumerate(zip(r, widths, strict=True))]  # fmt: skip
            out("  ".join(cells).rstrip())
        if guessed:
            playouts = sum(e.playouts for e in guessed)
            unit = "" if analysis.mode == "difference" else (
                "; its values are the move's player's final score minus the best other "
                "player's")  # fmt: skip
            out(f"~ an estimate (Monte Carlo tree search at the position before the move, "
                f"{playouts:,} playouts in all), not an exact value{unit}")  # fmt: skip
        lost = analysis.mistakes
        by = {p: sum(m.loss for m in lost if m.player == p) for p in analysis.players}
        shares = ", ".join(f"{p} {v}" for p, v in by.items() if v)
        out(f"\n{len(lost)} of {len(analysis.moves)} exactly analysed moves lost value"
            + (f" ({shares})." if lost else "."))  # fmt: skip
    state = "" if analysis.complete else (
        " (its share of the time ran out)" if guessed else " (incomplete)")  # fmt: skip
    out(f"Searched {analysis.nodes:,} positions in {analysis.seconds:.2f} s{state}"
        + (f"; estimates {estimated.seconds:.1f} s." if guessed else "."))  # fmt: skip


def _comments(record: Any, analysis: Any, estimated: Any) -> dict[int, str]:
    """The ``C`` comment of each analysed move, by move number."""
    from polytile.puzzles.blokus.rules import VARIANTS

    size = VARIANTS[record.variant].size
    fmt, meaning = _value_words(analysis)
    notes = {}
    for m in analysis.moves:
        text = f"polytile analyse: exact value {fmt.format(m.before)} before, " \
               f"{fmt.format(m.after)} after"  # fmt: skip
        if m.loss:
            text += f"; {m.player} lost {m.loss}; best: {move_text(m.best, size)}"
        else:
            text += "; a best move"
        if m is analysis.moves[0]:
            text += f"\n(values: {meaning})"
        notes[m.number] = text
    for e in estimated.estimates:
        text = (f"polytile analyse: estimate {e.before:+.1f} before, {e.after:+.1f} after "
                f"(Monte Carlo tree search, {e.playouts:,} playouts; not exact)")  # fmt: skip
        if e.best != e.move:
            text += f"; best by the estimate: {move_text(e.best, size)}"
        notes[e.number] = text
    return notes


def _write(console: Console, record: Any, analysis: Any, output: Path, estimated: Any) -> None:
    from polytile.formats import write_atomic
    from polytile.puzzles.blokus.sgf import write_blksgf

    text = write_blksgf(record, comments=_comments(record, analysis, estimated))
    write_atomic(output, text.encode("utf-8"))
    console.err(wrote(output))


def _not_a_record(file: str, reads: str) -> str:
    """The refusal of ``file``, no record analyse reads: what it is, when known, and the
    records analyse reads (``reads``, as the front end lists its games; else Blokus's
    alone)."""
    reads = reads or "Blokus records (Pentobi .blksgf)"
    what = _what_it_is(file)
    if what is None:
        return f"not a game record polytile knows; analyse reads {reads}"
    return f"this is {what}; analyse reads {reads}"


def _what_it_is(file: str) -> str | None:
    """``file`` (not a ``.blksgf``) in words, from its first 4 kB, for the refusal; with the
    command that solves its endgame when there is one; None for a file of nothing polytile
    knows. (The records of the games that analyse theirs through
    :class:`~polytile.faces.analysis.AnalyseFace` never come here: their faces take them
    first.)"""
    import re

    from polytile._files import read_stdin

    try:
        if file == "-":
            head = read_stdin()[:4096]
        else:
            with open(file, "rb") as f:
                head = f.read(4096)
    except OSError as e:
        return f"a file that cannot be read ({e.strerror or e})"
    if head.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] == b"(" and file == "-":
        return ("a Pentobi game record on standard input: give it as a file, such as "
                "game.blksgf")  # fmt: skip
    if head.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] == b"(":
        return ("an SGF game record whose first 4 kB name no Blokus game (no GM[Blokus...]; "
                "a file named *.blksgf is always read as a record)")  # fmt: skip
    if b'"polytile/position@1"' in head:
        from polytile._files import explain_unread

        explain_unread(file)  # a position that does not load: say why (a truncated file, ...)
        return ("a position: it has no moves to analyse (its exact value: 'polytile "
                "solve-endgame')")  # fmt: skip
    found = re.search(rb'"format"\s*:\s*"([^"]{1,60})"', head)
    if found:
        return f"a {found[1].decode('utf-8', 'replace')} file"
    return None
