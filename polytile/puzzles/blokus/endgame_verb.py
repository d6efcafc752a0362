"""``polytile solve-endgame`` on a Blokus position or record: the exact value and best line,
or, when the search is refused or stopped, the proven bounds (which may settle it after all).

:meth:`~polytile.puzzles.blokus.face.BlokusFace.solve_endgame` calls :func:`solve_endgame`.
The whole command's ``--time-limit`` is shared out here with the front end's clock
(:class:`~polytile.faces.puzzle.Clock`): the search gets what is left of it, the
bounds after a refusal what is left then, and work that does not watch the clock (building
the bounds' models) runs inside its deadline.
"""

from __future__ import annotations

import json
import time
from typing import Any, NoReturn

import numpy as np

from polytile._files import output_suffix
from polytile.errors import OptionError
from polytile.faces.bounds import bounds_json
from polytile.faces.face import (
    PICTURE_SUFFIXES,
    Console,
    EndgameRequest,
    estimate_doc,
    print_estimate,
)
from polytile.puzzles.blokus._endgame_limits import DEFAULT_MAX_PIECES
from polytile.text import counted, wrote

__all__ = ["move_text", "solve_endgame"]

#: The found-so-far of a stopped search: its JSON fields and the lines saying them.
Found = tuple[dict[str, Any], list[str]]

#: When the bounds do not settle the position, the moves are estimated by tree search
#: (:func:`polytile.puzzles.blokus.engine.search`) for this share of --time-limit, at
#: least :data:`ESTIMATE_LEAST` seconds, within what is left of it.
ESTIMATE_SHARE = 0.25
ESTIMATE_LEAST = 10.0


class _NoClock:
    """The clock of a request that brings none (a Python caller): the limit is the
    search's own, and nothing stops work that does not watch it (the clock is its own
    deadline, which never fires)."""

    fired = False

    def left(self, limit: float | None, reserve: float = 0.0) -> float | None:
        return limit

    def deadline(self, limit: float | None) -> _NoClock:
        return self

    def check(self) -> None:
        """Never stops: there is no deadline."""

    def __enter__(self) -> _NoClock:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


def solve_endgame(console: Console, file: str, request: EndgameRequest) -> None:
    """Solve the Blokus position in ``file`` (a record after ``request.move``) exactly and
    print it (text or ``--json``), writing ``request.output`` (.blksgf: the record with the
    best line; a picture); refused or stopped, the bounds instead and ``SystemExit`` 1
    (130 for Ctrl-C), unless they settle it."""
    from polytile.puzzles.blokus.endgame import (
        EndgameRefused,
        EndgameStopped,
    )
    from polytile.puzzles.blokus.endgame import solve_endgame as search
    from polytile.puzzles.blokus.files import read_blokus

    output, as_json, move = request.output, request.as_json, request.move
    clock = request.clock or _NoClock()
    limit = request.limit if request.limit is not None else request.time_limit
    suffix = output_suffix(output, ".blksgf") if output is not None else ""
    if output is not None and suffix not in (".blksgf", *PICTURE_SUFFIXES):
        raise OptionError(f"{output}: the suffix must be .blksgf (the game with the best line) "
                          "or .svg, .png, .txt (the picture)", "-o")  # fmt: skip
    source = "<stdin>" if file == "-" else file
    read = read_blokus(file, move, "solve-endgame")  # a record is read and replayed once
    obj, game, record = read.obj, read.game, read.record
    assert game is not None  # read_blokus checks a position by the rules
    if output is not None and suffix == ".blksgf" and record is None:
        lost = [c for c in game.colors if not game.hand(c) and game.last_piece(c) == "I1"]
        if lost:
            raise OptionError(
                f"{output}: a .blksgf written from a position starts from its board, which "
                f"cannot say that {' and '.join(lost)} placed I1 last (the +5 bonus would be "
                "lost); give the game record instead, or write a picture",
                "-o",
            )
    names = _players(game)
    players = tuple(name.lower() for name in request.players)
    for name in players:
        if name not in names:
            raise OptionError(f"{name!r} is not a player of this game; players: "
                              f"{', '.join(names)}", "--player")  # fmt: skip
    if len(names) == 2 and players:
        raise OptionError("--player is for 3 or 4 players; with 2 the value is the first "
                          "player's lead", "--player")  # fmt: skip
    max_pieces = DEFAULT_MAX_PIECES if request.max_pieces is None else request.max_pieces
    bounds = _Bounds(console, game, as_json, source, clock, limit, request.bounds_time)
    try:
        with console.search_progress("exact search", True) as progress:
            result = search(game, players=players or None, max_pieces=max_pieces,
                            time_limit=clock.left(limit, 0.25) or limit,
                            progress=progress)  # fmt: skip
    except EndgameRefused as refused:
        reason = f"{refused} (--max-pieces)"
        if (clock.left(limit, 0.3) or 0.0) < 0.5 * len(game.colors):
            _cheap_ranges(console, game, reason, as_json)  # start-up took the limit
        settled = bounds.refuse(reason, output, wanted=players)
        if settled is None:
            raise SystemExit(130 if bounds.interrupted else 1) from None
        result = settled
    except EndgameStopped as stopped:
        found = _found_so_far(stopped, game)
        if stopped.reason == "interrupt":
            ranges = _ranges_after_a_stop(game)
            console.err(f"interrupted: {stopped}")
            _say_ranges(console, ranges, "")
            extra = _say_found(console, found, as_json)
            if as_json:
                console.out(json.dumps(with_move_texts({
                    "game": "blokus", "exact": False, "reason": f"interrupted: {stopped}",
                    **extra}, game.size)))  # fmt: skip
            raise SystemExit(130) from None
        reason = f"{stopped} (--time-limit {limit:g} s reached)"
        if (clock.left(limit, 0.3) or 0.0) < 0.5 * len(game.colors):
            _cheap_ranges(console, game, reason, as_json, found)
        settled = bounds.refuse(reason, output, found, players)
        if settled is None:
            raise SystemExit(130 if bounds.interrupted else 1) from None
        result = settled
    if output is not None and suffix == ".blksgf":
        _write_record(console, game, record, move, result, output)
    elif output is not None:
        from polytile.render import save_picture

        best = result.best_move
        lit = best.cells if best is not None else ()
        save_picture(obj, output, request.cell, None, marks=_marks(game),
                     mark_color=game.to_move, highlight=lit,
                     highlight_color=game.to_move, coordinates="pentobi")  # fmt: skip
        console.err(wrote(output))
    if as_json:
        doc = {"game": "blokus", "variant": game.variant.name, "players_option": game.players,
               **result.as_dict()}  # fmt: skip
        console.out(json.dumps(with_move_texts(doc, game.size)))
        return
    _print_result(console, game, obj, result, request.color)


def _players(game: Any) -> tuple[str, ...]:
    from polytile.puzzles.blokus.scoring import player_names

    return player_names(game.players, game.variant.name)


def _marks(game: Any) -> list[tuple[int, int]]:
    return [] if game.is_game_over() else list(game.attach_points())


def with_move_texts(doc: dict[str, Any], size: int) -> dict[str, Any]:
    """``doc`` with each move's ``"text"`` (:func:`.notation.with_move_texts`)."""
    from polytile.puzzles.blokus.notation import with_move_texts as add

    return dict(add(doc, size))


def move_text(move: Any, size: int) -> str:
    """``yellow T4 k14 k13 l13 k12``: the one notation (:func:`.notation.move_text`)."""
    from polytile.puzzles.blokus.notation import move_text as text

    return text(move, size)


def _print_result(console: Console, game: Any, obj: Any, result: Any,
                  color: bool | None) -> None:  # fmt: skip
    from polytile.render import to_text

    out = console.out
    title = "Blokus Duo" if game.variant.name == "duo" else f"Blokus, {game.players} players"
    over = game.is_game_over()
    out(f"{title}; " + ("the game is over." if over else f"{game.to_move} to move."))
    names = {name: ("green (shared)" if name == "green" and name not in result.players else name)
             for name in result.placeable}  # fmt: skip
    sizes = ", ".join(f"{names[k]} {v}" for k, v in result.placeable.items())
    out(f"Pieces each can still place: {sizes}.")
    if result.mode == "difference":
        line = result.best_line
        first, second = result.players
        totals = ", ".join(f"{p} {line.player_scores[p]}" for p in result.players)
        out(f"Exact value: {first} {line.value:+d} against {second} (final scores {totals}).")
    elif over:
        totals = result.lines[next(iter(result.lines))].player_scores
        out("Final scores: " + ", ".join(f"{p} {totals[p]}" for p in result.players))
    else:
        out("Final score each player can make sure of, the others playing against it:")
        for name in result.players:
            if name in result.lines:
                out(f"  {name:<8}{result.lines[name].value:>5}")
    best = result.best_move
    size = game.size
    if best is None:
        note = "the game is over" if over else f"{game.player_to_move} was not searched"
        out(f"Best move: none ({note}).")
    else:
        out(f"Best move: {move_text(best, size)}")
    lit = best.cells if best is not None else ()
    marks = _marks(game)
    text = to_text(obj, color, marks=marks, mark_color=game.to_move, highlight=lit,
                   highlight_color=game.to_move)  # fmt: skip
    coloured = "\x1b[" in text
    out()
    out(text, nl=False, color=coloured)
    legend = []
    if best is not None and best.piece is not None:
        legend.append(f"highlighted: the best move, {best.color} {best.piece}")
    if marks:
        legend.append(f"{'•' if coloured else '+'} attach points of {game.to_move}")
    if legend:
        out("; ".join(legend))
    shown = [result.best_line] if result.best_line is not None else list(result.lines.values())
    for line in shown:
        if not line.pv:
            continue
        who = "" if result.mode == "difference" else f" for {line.player}"
        out(f"\nBest line{who} ({counted(len(line.pv), 'move')}, forced passes included):")
        for n, m in enumerate(line.pv, start=1):
            out(f"{n:>4}. {move_text(m, size)}")
    if result.settled:
        out(f"\nSettled by the bounds in {result.seconds:.2f} s, with no search: every "
            "colour can make sure of the most it can place.")  # fmt: skip
    else:
        out(f"\nSearched {counted(result.nodes, 'position')} in {result.seconds:.2f} s.")


def _found_so_far(stopped: Any, game: Any) -> Found:
    """What a stopped search proved: the JSON fields ``search``
    (:class:`~polytile.puzzles.blokus.endgame.Proven`) and ``solved`` (max-own: the players
    searched to the end before the stop), and the lines saying it."""
    proven, solved = stopped.proven, stopped.solved
    doc: dict[str, Any] = {}
    text = []
    for name, line in solved.items():
        best = ""  # the line starts with the mover's move: that player's own only if it moves
        if name == game.player_to_move and line.pv and not line.pv[0].is_pass:
            best = f" (best move {move_text(line.pv[0], game.size)})"
        text.append(f"Solved before the stop: {name} can make sure of {line.value}{best}.")
    if solved:
        doc["solved"] = {name: line.as_dict() for name, line in solved.items()}
    if proven is not None:
        doc["search"] = proven.as_dict()
        text.append(f"Proven by the exact search before it stopped: {proven.summary()}.")
        text.append(f"  {proven.claim(lambda m: move_text(m, game.size))}")
    return doc, text


def _say_found(console: Console, found: Found | None, as_json: bool) -> dict[str, Any]:
    """Print the lines of :func:`_found_so_far` (unless ``as_json``); its JSON fields."""
    doc, text = found or ({}, [])
    if not as_json:
        for line in text:
            console.out(line)
    return doc


def _cheap_ranges(console: Console, game: Any, reason: str, as_json: bool,
                  found: Found | None = None) -> NoReturn:  # fmt: skip
    """The limit is (nearly) spent: print the cheap bounds (from the pieces each colour can
    still reach) instead of CP-SAT searches that would overrun it, and exit 1."""
    ranges = _ranges_after_a_stop(game)
    console.err(f"no exact value: {reason}")
    _say_ranges(console, ranges, " (no time left for the CP-SAT bounds)")
    extra = _say_found(console, found, as_json)
    if as_json:
        colors = {} if ranges is None else {"colors": {
            c: {"score_lower": lo, "score_can_ensure": lo, "score_upper": hi}
            for c, (lo, hi) in ranges.items()}}  # fmt: skip
        console.out(json.dumps(with_move_texts({"game": "blokus", "exact": False,
                                                "reason": reason, **colors, **extra},
                                               game.size)))  # fmt: skip
    raise SystemExit(1)


def _say_ranges(console: Console, ranges: dict[str, tuple[int, int]] | None, note: str) -> None:
    if ranges is not None:
        console.err(f"score ranges from the pieces each colour can still reach{note}: "
                    + ", ".join(f"{c} {lo}..{hi}" for c, (lo, hi) in ranges.items()))


def _ranges_after_a_stop(game: Any) -> dict[str, tuple[int, int]] | None:
    """Each colour's score range from the pieces it can still reach, or None when numba,
    which computes them, cannot run: a Ctrl-C or the time limit's alarm that lands while
    numba first loads compiled code (the search's, a second or two after start-up) leaves
    it half initialised for the rest of the process ("module 'numba' has no attribute
    'core'"), which ended the command in an internal error and lost what it had found."""
    from polytile.puzzles.blokus.endgame import score_ranges

    try:
        return score_ranges(game)
    except (AttributeError, ImportError) as exc:
        if "numba" not in str(exc):  # only numba's half-loaded state, not a bug of ours
            raise
        return None


class _Bounds:
    """The proven bounds printed when there is no exact search result, within what is left
    of the whole command's ``limit``: each bounds search gets ``bounds_time`` (--bounds-time)
    or an equal share of that, when less."""

    def __init__(self, console: Console, game: Any, as_json: bool, source: str, clock: Any,
                 limit: float, bounds_time: float) -> None:  # fmt: skip
        self.console, self.game, self.as_json, self.source = console, game, as_json, source
        self.clock, self.limit, self.bounds_time = clock, limit, bounds_time
        self.interrupted = False  # a Ctrl-C ended the estimate
        self._choice: bool | None = None  # whether the mover has a move to choose

    def refuse(self, reason: str, output: Any, found: Found | None = None,
               wanted: tuple[str, ...] = ()) -> Any:  # fmt: skip
        """Say why there is no exact search result, and compute the proven bounds instead:
        the exact result when they settle it (:mod:`polytile.puzzles.blokus.settle`; for
        the caller to print), else None once the bounds are printed."""
        from polytile.puzzles.blokus.bounds import settled as blokus_settled
        from polytile.puzzles.blokus.bounds_verb import color_bounds, table
        from polytile.puzzles.blokus.settle import settled_endgame

        console, game, as_json = self.console, self.game, self.as_json
        left = self.clock.left(self.limit, 0.3) or self.limit
        reserve = self._estimate_reserve(left)
        seconds = max(min(self.bounds_time, (left - reserve) / (2 * len(game.colors))), 0.01)
        started = time.perf_counter()
        console.err(reason)
        console.err(f"computing the bounds instead ({2 * len(game.colors)} CP-SAT searches of "
                    f"up to {seconds:.3g} s, --bounds-time)")  # fmt: skip
        results: list[Any] = []
        # Building the models does not watch the clock: a deadline stops it, as Ctrl-C would,
        # when only the estimate's time is left.
        deadline = self.clock.deadline(self.limit - reserve)
        try:
            with deadline:
                for name in game.colors:
                    deadline.check()
                    results += color_bounds(game, (name,), seconds, 2, 0, self.source)
        except KeyboardInterrupt:
            if not deadline.fired:
                raise
        missing = [name for name in game.colors if name not in {b.color for b in results}]
        if missing:
            console.err(f"the time limit ran out: not bounded: {', '.join(missing)}")
        result = settled_endgame(game, results, wanted or None, started)
        if result is not None:
            console.err("the bounds settle it exactly: every colour can make sure of the most "
                        "it can place")  # fmt: skip
            return result
        console.err("no exact value: the bounds do not settle it"
                    + ("" if output is None else f"; nothing written to {output}"))  # fmt: skip
        extra = _say_found(console, found, as_json)
        estimate = self._estimate()
        settled = blokus_settled(game, results)  # with 2 players, one player's at most
        if wanted:
            settled = {p: v for p, v in settled.items() if p in wanted}
        if as_json:
            doc = {"game": "blokus", "exact": False, "reason": reason,
                   "colors": {b.color: bounds_json(b) for b in results}, **extra}  # fmt: skip
            if missing:
                doc["not_bounded"] = missing
            if settled:
                doc["settled"] = settled
            if estimate is not None:
                doc["estimate"] = self._estimate_doc(estimate)
            console.out(json.dumps(with_move_texts(doc, game.size)))
            return None
        if results:
            console.out(table(results))
        if settled and len(_players(game)) > 2:
            values = ", ".join(f"{p} {v}" for p, v in settled.items())
            console.out(f"The bounds settle, without a search, the final score these players "
                        f"can make sure of: {values}.")  # fmt: skip
        if estimate is not None:
            self._print_estimate(estimate)
        return None

    def _estimate_reserve(self, left: float) -> float:
        """The seconds of ``left`` the bounds leave to the estimate that follows them when
        they do not settle the position (:meth:`_estimate`): its share of the limit, at
        most half of what is left; none when there is no move to choose."""
        if not self._a_choice():
            return 0.0
        return min(left / 2, max(ESTIMATE_LEAST, ESTIMATE_SHARE * self.limit))

    def _a_choice(self) -> bool:
        """Whether the mover has two moves or more, so that an estimate has something to
        choose (worked out once)."""
        if self._choice is None:
            game = self.game
            self._choice = not game.is_game_over() and len(game.legal_moves()) >= 2
        return self._choice

    def _estimate(self) -> Any:
        """The moves estimated by tree search in the time this leaves
        (:data:`ESTIMATE_SHARE`), or None with under half a second left or no move to
        choose; a Ctrl-C ends it with the estimate so far (and :attr:`interrupted`)."""
        from polytile.puzzles.blokus.engine import search
        from polytile.solvers.parallel import ctrl_c_asks_stop

        game = self.game
        left = self.clock.left(self.limit, 0.3)
        seconds = min(left if left is not None else self.limit,
                      max(ESTIMATE_LEAST, ESTIMATE_SHARE * self.limit))  # fmt: skip
        if seconds < 0.5 or not self._a_choice():
            return None
        self.console.err(f"estimating the moves by Monte Carlo tree search ({seconds:.1f} s)")
        with ctrl_c_asks_stop() as asked:
            res = search(game, seconds, rng=np.random.default_rng(0), should_stop=asked.is_set)
        self.interrupted = asked.is_set()
        return res if res.best is not None else None

    def _estimate_doc(self, res: Any) -> dict[str, Any]:
        mover, lead, sign = self._lead(res)
        return estimate_doc("blokus", res, mover=mover, lead=lead,
                            why="the exact search refused the position and the bounds do "
                            "not settle it",
                            stopped_by="interrupt" if self.interrupted else None,
                            text=lambda m: move_text(m, self.game.size), sign=sign)  # fmt: skip

    def _print_estimate(self, res: Any) -> None:
        from polytile.puzzles.blokus.engine import rests_on

        mover, lead, sign = self._lead(res)
        self.console.out()
        print_estimate(self.console, res, mover=mover, lead=lead, width=30, how=rests_on(),
                       text=lambda m: move_text(m, self.game.size), sign=sign)  # fmt: skip
        if self.interrupted:
            self.console.out("stopped by Ctrl-C: the estimate so far")

    def _lead(self, res: Any) -> tuple[str, str, int]:
        """The mover, what a margin is and its sign: with 2 players the first player's lead
        (as the exact value and the bounds are), with 3 or 4 the mover's margin over the
        best other player."""
        names = _players(self.game)
        mover = names[res.player]
        if len(names) == 2:
            first, second = names
            return mover, f"{first}'s final score minus {second}'s", 1 if mover == first else -1
        return mover, f"{mover}'s final score minus the best other player's", 1


def _write_record(console: Console, game: Any, record: Any, move: int | None, result: Any,
                  output: Any) -> None:  # fmt: skip
    """The game with the best line after the analysed position, as a Pentobi record."""
    from polytile.formats import write_atomic
    from polytile.puzzles.blokus.sgf import GameRecord, write_blksgf

    # the line of the player to move, else of the one player searched (--player)
    line = result.best_line or next(iter(result.lines.values()), None)
    pv = [m for m in (line.pv if line is not None else ()) if not m.is_pass]
    if result.mode == "difference" and line is not None:
        what = f"{result.players[0]} {line.value:+d} against {result.players[1]}"
        note = f"polytile solve-endgame: best line from here; exact value {what}"
    else:
        what = ", ".join(f"{name} {ln.value}" for name, ln in result.lines.items())
        whose = "" if line is None else (f"{line.player}'s line (the others all playing "
                                         f"against it) from here")  # fmt: skip
        note = f"polytile solve-endgame: {whose}; exact values {what}"
    if record is not None:
        played = list(record.moves[: len(record.moves) if move is None else move])
        text = write_blksgf(GameRecord(record.variant, record.players, (*played, *pv),
                                       record.setup, record.setup_to_move, record.properties,
                                       {n: c for n, c in record.comments.items()
                                        if n <= len(played)}, record.source),
                            comments={len(played) + 1: note} if pv else None)  # fmt: skip
    else:
        after = game.copy()
        for m in line.pv if line is not None else ():
            after.push(m)
        text = write_blksgf(after, comments={1: note} if pv else None)
    write_atomic(output, text.encode("utf-8"))
    console.err(wrote(output))
