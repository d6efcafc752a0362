"""The reports of ``polytile solve-endgame`` on City Blocks (Henning) files: the exact
endgame (with ``--open``, of the deal as given), and the moves of the player to move scored
from its view (an estimate, labelled so). Reached through the game's face."""

from __future__ import annotations

import json
import time
from typing import Any

import numpy as np

from polytile.errors import OptionError
from polytile.faces.analysis import Review
from polytile.faces.face import (
    Console,
    EndgameRequest,
    check_view_player,
    estimate_doc,
    print_estimate,
    print_view_moves,
    proven_line,
    run_view_analysis,
    view_plan,
)

__all__ = ["estimate_move", "review_move", "solve_report"]

_SHOWN = 15  # moves listed in the text report (--json lists them all)

#: ``--view``: the share of the time kept back (at most :data:`FALLBACK_CAP` seconds) for an
#: estimate by tree search, used when the view analysis solves no state before its share
#: ends (early in a game, one state can take minutes).
FALLBACK_SHARE = 0.4
FALLBACK_CAP = 10.0


def solve_report(console: Console, file: str, r: EndgameRequest) -> None:
    """``polytile solve-endgame`` of a Henning file: the exact endgame, or the moves scored
    from the view of the player to move, checked."""
    from polytile.puzzles.henning.endgame import EndgameStopped, solve_endgame
    from polytile.puzzles.henning.files import load_henning

    doc = load_henning(file, r.move)
    as_json, time_limit = r.as_json, r.time_limit
    if r.view is not None or doc.kind == "view":
        if r.open_analysis and r.view is None:  # a view file: its hidden tiles are not in it
            raise OptionError(f"{file} is a player's view: the tiles it hides are not in it, "
                              "so --open (which takes them as dealt) needs the full record "
                              "or position; without --open the view's moves are scored "
                              "over every deal it cannot rule out")  # fmt: skip
        if r.open_analysis:
            raise OptionError(
                "--open solves one deal as if it were known; --view "
                "averages over every deal the player cannot rule out: "
                "choose one"
            )
        _solve_view(console, file, doc, r)
        return
    extra = sorted(r.view_given - {"open_analysis"})
    if extra:
        flags = ", ".join("--" + n.replace("_", "-") for n in extra)
        raise OptionError(f"{flags}: only with --view (the analysis from one player's view)")
    try:
        res = solve_endgame(doc.state, open_analysis=r.open_analysis, time_limit=time_limit)
    except EndgameStopped as stop:
        console.err(f"{file}: {stop}")
        mover = "blue" if doc.state.to_move == 0 else "red"
        if stop.proven is not None:
            console.err(proven_line(stop.proven, "blue's final margin (blue's money minus "
                                    "red's)", mover))  # fmt: skip
        if as_json:
            console.out(json.dumps({"game": "henning", "exact": False, "complete": False,
                                    "stopped_by": stop.reason, "nodes": stop.nodes,
                                    "to_move": mover, "proven": None if stop.proven is None
                                    else stop.proven.as_dict()}))  # fmt: skip
        raise SystemExit(130 if stop.reason == "interrupt" else 1) from None
    if as_json:
        console.out(json.dumps(res.as_dict()))
        return
    sign = "+" if res.value > 0 else ""
    if res.over:
        console.out(
            f"the game is over: blue {sign}{res.value} ({res.outcome}); final money blue "
            f"${res.money[0]}, red ${res.money[1]}"
        )
        console.out("best move: none (the game is over)")
        return
    head = "exact value" if not res.open else "exact value of this deal (open analysis)"
    console.out(
        f"{head}: blue {sign}{res.value} ({res.outcome}); final money blue ${res.money[0]}, "
        f"red ${res.money[1]}"
    )
    who = ("blue", "red")[res.to_move]
    console.out(f"best moves for {who}: " + ", ".join(str(m) for m in res.best_moves))
    console.out("line: " + " / ".join(str(m) for m in res.pv))
    console.out(f"searched {res.nodes:,} positions in {res.seconds:.2f} s")


def _solve_view(console: Console, file: str, doc: Any, r: EndgameRequest) -> None:
    """Score the moves of the player to move over the states consistent with its view."""
    from polytile.puzzles.henning.tiles import PLAYER_NAMES
    from polytile.puzzles.henning.view import evaluate_view
    from polytile.solvers.parallel import LocalExecutor, default_workers

    g = doc.state
    if g.is_over():
        raise OptionError(
            f"{file}: the game is over (final money blue ${g.money_of(0)}, "
            f"red ${g.money_of(1)}); there is no move to score",
            option="POSITION",
        )
    me = g.to_move
    mover = PLAYER_NAMES[me]
    if doc.kind == "view" and doc.player != me:
        raise OptionError(
            f"{file} is {PLAYER_NAMES[doc.player]}'s view but {mover} is "
            "to move; a view analysis scores the moves of the player to "
            "move",
            option="POSITION",
        )
    check_view_player(r, mover, list(PLAYER_NAMES))
    r = _compiled_first(console, file, r)
    # Time kept back for an estimate by tree search, should not one state be solved.
    kept = min(r.time_limit * FALLBACK_SHARE, FALLBACK_CAP)
    # Worker processes even for one worker: a compiled search cannot be stopped inside a
    # state, but its process can, so --time-limit and Ctrl-C hold.
    a, workers = run_view_analysis(
        console, file, r, LocalExecutor(r.workers or default_workers()),
        lambda ex, progress, stop: evaluate_view(
            g, me, max_exact=r.max_exact, samples=r.samples, seed=r.seed,
            time_limit=r.time_limit - kept, executor=ex, progress=progress, stop=stop,
        ),
        label="solving deals", unit="state", fallback=True,
    )  # fmt: skip
    if a is None:
        _estimate_view(console, file, g, r, r.time_limit - kept, kept)
        return
    ev = a.evaluation
    if r.as_json:
        console.out(json.dumps({**a.as_dict(), "workers": workers}))
    else:
        _print_view(console, a, mover, workers)
    if ev.stopped_by == "interrupt":
        raise SystemExit(130)
    if not a.exact_values:
        raise SystemExit(1)  # an estimate: no exact value


def _estimate_view(console: Console, file: str, g: Any, r: EndgameRequest,
                   tried: float, kept: float) -> None:
    """The moves of the player to move estimated by information-set Monte Carlo tree
    search (:func:`polytile.puzzles.henning.engine.search`) in what is left of the time,
    when the view analysis solved no state in its ``tried`` seconds (``kept``: the seconds
    kept back, for a caller with no clock); Ctrl-C prints the best so far."""
    from polytile.puzzles.henning.engine import search
    from polytile.puzzles.henning.tiles import PLAYER_NAMES
    from polytile.solvers.parallel import ctrl_c_asks_stop

    me = g.to_move
    mover, other = PLAYER_NAMES[me], PLAYER_NAMES[1 - me]
    left = r.clock.left(r.limit, 0.25) if r.clock is not None and r.limit else None
    seconds = max(left if left is not None else kept, 0.05)
    console.err(f"{file}: no state agreeing with {mover}'s view was solved exactly in "
                f"{tried:.1f} s; "
                f"estimating by tree search in the {seconds:.1f} s left")  # fmt: skip
    with ctrl_c_asks_stop() as asked:
        res = search(g, seconds, rng=np.random.default_rng(r.seed), should_stop=asked.is_set)
    stopped = "interrupt" if asked.is_set() else None
    if res.best is None:  # Ctrl-C before a first playout ended (one always runs otherwise)
        console.err(f"{file}: interrupted before a first playout ended")
        raise SystemExit(130)
    lead = f"{mover}'s final money minus {other}'s"
    if r.as_json:
        why = "no state agreeing with the view was solved exactly within the time"
        console.out(json.dumps(estimate_doc("henning", res, mover=mover, lead=lead, why=why,
                                            stopped_by=stopped)))  # fmt: skip
    else:
        print_estimate(console, res, mover=mover, lead=lead, width=34, shown=_SHOWN,
                       how=f"the tiles {mover} cannot see drawn at random for each, both "
                       "players then playing greedily to the end")  # fmt: skip
        if stopped:
            console.out("stopped by Ctrl-C: the estimate so far")
    raise SystemExit(130 if stopped else 1)


def _compiled_first(console: Console, file: str, r: EndgameRequest) -> EndgameRequest:
    """Wait for the compiled search the workers load (compiled in a process of its own the
    first time after installing, which Ctrl-C never throws away). The command's clock stands
    still meanwhile: its time limit is for the search. The request, unchanged."""
    from polytile._warm import compiled

    compiled(console, "henning-kernel", None, not r.as_json)
    return r


def _print_view(console: Console, a: Any, mover: str, workers: int) -> None:
    other = "red" if mover == "blue" else "blue"
    if a.exact_values:
        console.out(
            f"Nothing is hidden from {mover}: one full state alone agrees with what it sees "
            f"(what is left is known by elimination), so each move's value is exact, "
            f"{mover}'s final money minus {other}'s under best play."
        )
    else:
        how = view_plan(a)
        console.out(
            f"{a.consistent:,} full states agree with what {mover} sees (the tiles of "
            f"{other}'s hand, the order of both reserves); {how}."
        )
        console.out(
            f"Scores: each move's average exact margin ({mover}'s money minus {other}'s) "
            "over those states. An estimate, not the game's value."
        )
    print_view_moves(console, a, workers, width=34, unit="state", shown=_SHOWN)


def review_move(face: Any, file: str, index: int, time_limit: float, cache: dict[Any, Any],
                ) -> Review | None:  # fmt: skip
    """``analyse``'s review of move ``index + 1``: exact once both reserves are empty (the
    endgame search before and after it), else an estimate from the mover's view (the move
    played against the best, each averaged over the deals the mover cannot rule out)."""
    from polytile.puzzles.henning.endgame import solve_endgame
    from polytile.puzzles.henning.tiles import PLAYER_NAMES
    from polytile.puzzles.henning.view import evaluate_view

    doc = cache.get("doc") or cache.setdefault("doc", face.read(file))
    g = face.read(file, index).state
    move = doc.moves[index]
    me = g.to_move
    sign = 1 if me == 0 else -1  # the lead is blue's
    started = time.perf_counter()

    def exact(k: int, state: Any) -> tuple[int, tuple[Any, ...]]:
        if k not in cache:
            if state.is_over():
                cache[k] = (state.margin(), ())
            else:
                left = max(time_limit - (time.perf_counter() - started), 0.01)
                r = solve_endgame(state, time_limit=left)
                cache[k] = (r.value, r.best_moves)
        return cache[k]

    if g.reserve_size(0) == 0 and g.reserve_size(1) == 0:
        before, best = exact(index, g)
        after, _ = exact(index + 1, face.read(file, index + 1).state)
        pick = move if move in best else best[0]
        return Review(index + 1, PLAYER_NAMES[me], str(move), before, after,
                      sign * (before - after), str(pick))  # fmt: skip
    if "executor" not in cache:  # worker processes: a compiled search stops with its process
        from polytile.solvers.parallel import LocalExecutor, default_workers

        ex = cache["executor"] = LocalExecutor(default_workers()).__enter__()
        cache.setdefault("close", []).append(lambda: ex.__exit__(None, None, None))
    a = evaluate_view(g, me, time_limit=time_limit, executor=cache["executor"])
    ev = a.evaluation
    played = ev.moves.get(move)
    if played is None:  # pragma: no cover - the record's move is legal, so it was scored
        return None
    best_mean = ev.moves[ev.best_move].mean
    other = PLAYER_NAMES[1 - me]
    # one state agrees with the view (the rest known by elimination): exact values
    known = a.exact_values
    note = "" if known else (f"averaged over the deals {PLAYER_NAMES[me]} cannot rule out, "
                             f"{other}'s hand and the reserves")  # fmt: skip
    return Review(index + 1, PLAYER_NAMES[me], str(move), sign * best_mean + 0.0,
                  sign * played.mean + 0.0, best_mean - played.mean + 0.0, str(ev.best_move),
                  exact=known, note=note)  # fmt: skip  (+ 0.0: no -0.0)


def estimate_move(face: Any, file: str, index: int, seconds: float,
                  cache: dict[Any, Any]) -> Review:  # fmt: skip
    """``analyse``'s estimate of move ``index + 1`` where the view analysis gave no answer in
    its time: Monte Carlo tree search from the mover's view
    (:func:`polytile.puzzles.henning.engine.search`), the best move's mean margin against
    the played move's, in ``seconds``. A played move the search did not reach is valued by a
    search from the next player's view after it, with a fifth of the time."""
    from polytile.puzzles.henning.engine import search
    from polytile.puzzles.henning.tiles import PLAYER_NAMES

    doc = cache.get("doc") or cache.setdefault("doc", face.read(file))
    g = face.read(file, index).state
    move = doc.moves[index]
    me = g.to_move
    sign = 1 if me == 0 else -1
    r = search(g, seconds * 0.8)
    by_move = {s.move: s for s in r.moves}
    best = by_move[r.best]
    played = by_move.get(move)
    playouts = r.playouts
    if played is not None and played.visits:
        after = played.margin
    else:
        nxt = face.read(file, index + 1).state
        if nxt.is_over():
            after = sign * nxt.margin()
        else:
            later = search(nxt, seconds * 0.2)
            playouts += later.playouts
            after = later.value if nxt.to_move == me else -later.value
    note = (f"Monte Carlo tree search from the mover's view, the tiles it cannot see drawn "
            f"at random: {playouts:,} playouts")  # fmt: skip
    return Review(index + 1, PLAYER_NAMES[me], str(move), sign * best.margin + 0.0,
                  sign * after + 0.0, best.margin - after + 0.0, str(r.best), exact=False,
                  note=note)  # fmt: skip  (+ 0.0: no -0.0)
