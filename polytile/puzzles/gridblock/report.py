"""The reports of ``polytile solve-endgame`` on Gridblock files: the rest of the current
round solved exactly, the moves of the player to move scored from its view (an estimate,
labelled so), or (``--plan``) the best plan of the colour to move with the other colours
held still. Reached through the game's face."""

from __future__ import annotations

import json
import time
from typing import Any

from polytile.errors import OptionError
from polytile.faces.analysis import Review
from polytile.faces.face import (
    Console,
    EndgameRequest,
    check_view_player,
    print_view_moves,
    proven_line,
    run_view_analysis,
    view_plan,
)

__all__ = ["review_move", "solve_report"]

_SHOWN = 15  # moves listed in the text report (--json lists them all)


def _refuse(file: str, why: str) -> None:
    raise OptionError(f"{file}: {why}", option="POSITION")


def solve_report(console: Console, file: str, r: EndgameRequest) -> None:
    """``polytile solve-endgame`` of a Gridblock file.

    The rest of the round as a perfect-information game when every hand is known (the split
    deal's rounds 2, 4 and 6) or ``--open`` is given: the exact value, every optimal move of
    the colour to move and a line, replayed by the rules engine. With ``--view`` (or a view
    file) each move of the player to move is scored over the hands it cannot see: an
    estimate, followed by each move's estimated value to the end of the game
    (:func:`~polytile.puzzles.gridblock.estimate_report.rest_of_game`). A set-up position
    gets that estimate alone (:func:`~polytile.puzzles.gridblock.estimate_report.solve_setup`).
    With ``--plan``, the best plan of the colour to move for the rest of its round, every
    other colour held still (it needs only the mover's hand: hidden hands and the mover's
    own view file are fine); not a game value, and labelled so. Anything else is refused
    (exit 2) with the reason.

    Exit codes: 0 for exact values (a round solved, or with ``--view`` every hand known;
    ``--plan``'s plan, exact for its own question), 1 for an estimate or an answer cut short
    by ``--time-limit``, 130 after Ctrl-C.
    """
    from polytile.puzzles.gridblock.endgame import hands_known
    from polytile.puzzles.gridblock.files import load_gridblock

    open_analysis, players = r.open_analysis, r.players
    if r.plan:
        _plan_options(r)
    doc = load_gridblock(file, r.move)
    g = doc.state
    if g.is_setup and r.plan:
        _refuse(
            file,
            "the set-up is not over; a round can be solved from the first turn of "
            "round 1 on (--move N for a later position of a record)",
        )
    if g.is_over():
        _refuse(file, "the game is over; there is no round left to solve")
    if r.plan:
        _solve_plan(console, file, doc, r.as_json)
        return
    if g.is_setup:
        from polytile.puzzles.gridblock.estimate_report import solve_setup

        solve_setup(console, file, doc, r)
    if r.view is not None or doc.kind == "view":
        if open_analysis:
            raise OptionError(
                "--open solves the dealt hands as if they were known; "
                "--view averages over every hand the player cannot see: "
                "choose one"
            )
        if players:
            raise OptionError("--player: the view analysis scores the moves of the player to move")
        _solve_view(console, file, doc, r)
        return
    extra = sorted(r.view_given - {"open_analysis"})
    if extra:
        flags = ", ".join("--" + n.replace("_", "-") for n in extra)
        raise OptionError(f"{flags}: only with --view (the analysis from one player's view)")
    if not hands_known(g) and not open_analysis:
        _refuse(
            file,
            f"round {g.round + 1}'s hands are not known to every player under the "
            f"{g.options.deal} deal (only the split deal opens them, in rounds 2, 4 and 6): "
            "score the moves from the mover's view with --view, or solve the dealt "
            "hands as given with --open",
        )
    if open_analysis and doc.kind == "view" and not hands_known(g):
        _refuse(file, "a view does not hold the hidden hands; use --view")
    _solve_exact(console, file, g, r.as_json, r.time_limit, _players(g, players))


def _plan_options(r: EndgameRequest) -> None:
    """Refuse what ``--plan`` cannot be combined with (a usage error, exit 2)."""
    clash = [
        flag
        for flag, on in (
            ("--view", r.view is not None),
            ("--open", r.open_analysis),
            ("--player", bool(r.players)),
        )
        if on
    ]
    if clash:
        raise OptionError(
            f"--plan cannot be combined with {', '.join(clash)}: the plan is "
            "the colour to move's, from its own hand, with the other "
            "colours held still"
        )
    extra = sorted(r.view_given - {"plan"})
    if extra:
        flags = ", ".join("--" + n.replace("_", "-") for n in extra)
        raise OptionError(f"{flags}: only with --view (the analysis from one player's view)")


def _solve_plan(console: Console, file: str, doc: Any, as_json: bool) -> None:
    """The colour to move's best plan for the rest of its round, the others held still."""
    from polytile.puzzles.gridblock.endgame import best_plan, player_label
    from polytile.puzzles.gridblock.files import move_text
    from polytile.puzzles.gridblock.grid import card_name
    from polytile.puzzles.gridblock.rules import COLOR_NAMES

    g = doc.state
    if doc.kind == "view" and doc.player != g.to_move:
        _refuse(
            file,
            f"this is {player_label(g, doc.player)}'s view but "
            f"{player_label(g, g.to_move)} is to move; --plan needs the hand of the "
            "colour to move",
        )
    p = best_plan(g)
    who = COLOR_NAMES[p.color]
    side = player_label(g, g.to_move)
    others = [COLOR_NAMES[c] for c in g.colors if c != p.color]
    if g.options.players != 2:
        scored = f"{who}'s points"
    elif g.options.two_player_score == "weaker":
        scored = f"{side}'s points, the weaker of its two colours"
    else:
        scored = f"{side}'s points, its two colours summed"
    won = p.won
    if as_json:
        doc_out = {
            "game": "gridblock",
            **p.as_dict(),
            "kind": "plan-others-held-still",
            "round": g.round + 1,
            "scored_for": side,
            "scored_as": scored,
            "held_still": others,
            "instant_win": won,
            "plan_with_walks": [move_text(m) for m in p.plan],
        }
        console.out(json.dumps(doc_out))
        return
    cards = " ".join(card_name(c) for c in g.hand(g.to_move_slot))
    n = len(g.hand(g.to_move_slot))
    held = " and ".join(filter(None, [", ".join(others[:-1]), others[-1]]))
    console.out(
        f"Gridblock, {g.options.players} players, round {g.round + 1}: {who} to move, "
        f"{n} card{'s' if n != 1 else ''} in hand ({cards})."
    )
    console.out(
        f"Best plan for {who} with the others held still ({held} make no move): a "
        "plan for its own cards, not a game value."
    )
    for i, m in enumerate(p.plan, 1):
        console.out(f"  {i}. {move_text(m)}")
    end = " (it ends the game at once: an instant win)" if won else ""
    console.out(
        f"Points it reaches at the end of the round, others held still: {p.points}, "
        f"now {p.now} ({scored}){end}."
    )
    console.out(
        f"Plans compared: {p.plans:,} (every order of its cards, every end tile of "
        f"each; one corner per tile); {p.best_plans:,} reach {p.points}"
        + (" with a win." if won else ".")
    )
    first = p.plan[0]
    start = g.mover[g.to_move_slot]
    picture = _picture(doc.shown_state(), (start, *(first.path or (first.tile,))))
    if picture:
        console.out()
        console.out(
            f"The plan's first walk ({move_text(first)}), not played yet: *0 is where "
            f"{who}'s mover stands."
        )
        console.out(picture, color="\x1b[" in picture)


def _players(g: Any, names: tuple[str, ...]) -> list[int]:
    """The players whose guaranteed score is searched (3-4 players), or [0] with 2."""
    from polytile.puzzles.gridblock.rules import COLOR_NAMES

    if g.options.players == 2:
        if names:
            raise OptionError(
                "--player is for 3 or 4 players; with 2 the value is blue+red's margin",
                option="--player",
            )
        return [0]
    known = [COLOR_NAMES[c] for c in g.colors]
    out = []
    for name in names:
        low = name.strip().lower()
        if low not in known:
            raise OptionError(
                f"{name!r} is not a player of this game; players: {', '.join(known)}",
                option="--player",
            )
        out.append(known.index(low))
    if not out:  # the player to move first: its search lists the best moves
        out = [g.to_move, *(p for p in range(len(known)) if p != g.to_move)]
    return sorted(set(out), key=out.index)


def _stopped(console: Console, file: str, g: Any, as_json: bool, stop: Any,
             results: list[Any]) -> None:  # fmt: skip
    """An exact round search stopped early: why, what it had proven of the player it was at,
    and, with 3-4 players, what each player solved before makes sure of."""
    from polytile.puzzles.gridblock.endgame import describe_value, player_label, round_objective
    from polytile.puzzles.gridblock.rules import COLOR_NAMES

    why = "by Ctrl-C" if stop.reason == "interrupt" else "(--time-limit)"
    console.err(f"{file}: {stop} {why}")
    at = [p for p in range(g.options.players) if p not in {r.player for r in results}]
    mover = COLOR_NAMES[g.to_move_color]
    subject = describe_value(round_objective(g, at[0] if at else None).mode,
                             player_label(g, at[0]) if at else mover)  # fmt: skip
    if stop.proven is not None:
        console.err(proven_line(stop.proven, subject, mover))
    for r in results:  # solved before the stop: exact
        console.err(f"solved before the stop: {player_label(g, r.player)} can make sure of "
                    f"{r.value} (exact)")  # fmt: skip
    if as_json:
        console.out(json.dumps({
            "game": "gridblock", "round": g.round + 1, "exact": False, "complete": False,
            "stopped_by": stop.reason, "nodes": stop.nodes, "to_move": mover,
            "proven": None if stop.proven is None else stop.proven.as_dict(),
            "guaranteed": {COLOR_NAMES[g.colors[r.player]]: r.value for r in results},
        }))  # fmt: skip


def _solve_exact(
    console: Console, file: str, g: Any, as_json: bool, time_limit: float, players: list[int]
) -> None:
    from polytile.puzzles.gridblock.endgame import RoundStopped, player_label, solve_round
    from polytile.puzzles.gridblock.files import last_walk
    from polytile.puzzles.gridblock.rules import COLOR_NAMES

    deadline = time.perf_counter() + time_limit
    results = []
    try:
        with console.search_progress("exact search", True) as progress:
            for p in players:
                left = max(deadline - time.perf_counter(), 1e-3)
                results.append(
                    solve_round(
                        g,
                        player=None if g.options.players == 2 else p,
                        open_analysis=True,
                        all_best=p == g.to_move or g.options.players == 2,
                        time_limit=left,
                        progress=progress,
                    )
                )
    except RoundStopped as stop:
        _stopped(console, file, g, as_json, stop, results)
        raise SystemExit(130 if stop.reason == "interrupt" else 1) from None
    main = next((r for r in results if r.player == g.to_move or g.options.players == 2), results[0])
    if as_json:
        doc = main.as_dict()
        if g.options.players > 2:
            doc["guaranteed"] = {COLOR_NAMES[g.colors[r.player]]: r.value for r in results}
        doc["round"] = g.round + 1
        if g.options.instant_win:  # who wins at once at the end of the best line, if any
            doc["wins_at_once"] = None if main.winner is None else player_label(g, main.winner)
            doc["lead"] = doc["meaning"] = (f"{main.describe()}; a game won at once (option "
                                            "7.4) is worth 1000 to the winner's side, whatever "
                                            "the points")  # fmt: skip
        console.out(json.dumps(doc))
        return
    who = COLOR_NAMES[g.to_move_color]
    left = len(main.pv)
    head = "exact" if not main.open else "exact for these hands (open analysis)"
    console.out(
        f"Gridblock, {g.options.players} players, round {g.round + 1}: {who} to move, "
        f"{left} colour-turn{'s' if left != 1 else ''} left in the round."
    )
    if g.options.players == 2:
        won = "win at once (option 7.4), whatever the points"
        said = (f"{main.value:+d}, {main.describe()}" if main.winner is None
                else f"{player_label(g, main.winner)} {won}")  # fmt: skip
        console.out(f"Value ({head}): {said}.")
    else:
        console.out(
            f"Points each player can make sure of at the end of the round, every other "
            f"player against it ({head}):"
        )
        for r in results:
            said = (f"{r.value:>5}" if r.winner != r.player
                    else "  wins at once (option 7.4), whatever the points")  # fmt: skip
            console.out(f"  {player_label(g, r.player):<8}{said}")
    if main.best_moves:
        shown = ", ".join(str(m) for m in main.best_moves[:_SHOWN])
        more = len(main.best_moves) - _SHOWN
        console.out(f"Best moves for {who}: {shown}" + (f" (+{more} more)" if more > 0 else ""))
    line = f" for {player_label(g, main.player)}" if g.options.players > 2 else ""
    console.out(f"Best line{line}: " + " / ".join(str(m) for m in main.pv))
    scores = ", ".join(f"{COLOR_NAMES[c]} {s}" for c, s in zip(g.colors, main.scores, strict=True))
    console.out(f"Points at the end of that line: {scores}.")
    picture = _picture(g, last_walk(g))
    if picture:
        console.out()
        console.out(picture, color="\x1b[" in picture)
    nodes = sum(r.nodes for r in results)
    console.out(f"Searched {nodes:,} positions in {sum(r.seconds for r in results):.2f} s.")


def _picture(g: Any, last: Any) -> str | None:
    try:
        from polytile.puzzles.gridblock.picture import to_text
    except ImportError:  # pragma: no cover - the picture module is optional
        return None
    return str(to_text(g, last=last))


def _solve_view(console: Console, file: str, doc: Any, r: EndgameRequest) -> None:
    """Score the moves of the player to move over the hands it cannot see."""
    from polytile.puzzles.gridblock.endgame import player_label
    from polytile.puzzles.gridblock.estimate_report import rest_of_game, view_share
    from polytile.puzzles.gridblock.view import describe_hands, evaluate_view
    from polytile.solvers.parallel import LocalExecutor, SerialExecutor, default_workers

    g = doc.state
    me = g.to_move
    mover = player_label(g, me)
    if doc.kind == "view" and doc.player != me:
        _refuse(
            file,
            f"this is {player_label(g, doc.player)}'s view but {mover} is to move; a "
            "view analysis scores the moves of the player to move",
        )
    check_view_player(r, mover, [player_label(g, p) for p in range(g.options.players)])
    n = r.workers or default_workers()
    a, workers = run_view_analysis(
        console, file, r, LocalExecutor(n) if n > 1 else SerialExecutor(),
        lambda ex, progress, stop: evaluate_view(
            g, me, max_exact=r.max_exact, samples=r.samples, seed=r.seed,
            time_limit=r.time_limit * view_share(g), executor=ex, progress=progress,
            stop=stop,
        ),
        label="solving hands", unit="hand combination", fallback=True,
    )  # fmt: skip
    if a is None:
        from polytile.puzzles.gridblock.estimate_report import estimate_instead

        estimate_instead(console, file, g, r)
    ev = a.evaluation
    out = None
    if r.as_json:
        lead = f"{mover}: {_view_lead(g)} at the end of the round"
        out = {**a.as_dict(), "exact": a.exact_values, "lead": lead, "round": g.round + 1,
               "workers": workers}  # fmt: skip
    else:
        _print_view(console, a, g, mover, describe_hands(g, me), workers)
    if ev.stopped_by == "interrupt":
        if out is not None:
            console.out(json.dumps(out))
        raise SystemExit(130)
    if rest_of_game(console, g, r, out):
        raise SystemExit(130)
    if not a.exact_values:  # an estimate (or a part of the combinations): no exact value
        raise SystemExit(1)


def _view_lead(g: Any) -> str:
    """Whose lead a view's values are, for the player to move."""
    if g.options.players == 2:
        return "its side's points minus the other side's"
    return "the points it can make sure of"


def _print_view(console: Console, a: Any, g: Any, mover: str, hands: str, workers: int) -> None:
    what = _view_lead(g)
    if a.exact_values:
        console.out(
            f"Every hand is known: each move's exact value for {mover} at the end of the "
            f"round ({what})."
        )
    else:
        how = view_plan(a)
        console.out(
            f"{a.consistent:,} combinations of the hands {mover} cannot see agree with "
            f"the cards played ({hands}); {how}."
        )
        console.out(
            f"Scores: each move's average exact value for {mover} at the end of the "
            f"round ({what}): an average perfect-information value, not the game's "
            "value."
        )
    print_view_moves(console, a, workers, width=16, unit="combination", shown=_SHOWN)


def review_move(face: Any, file: str, index: int, time_limit: float, cache: dict[Any, Any],
                ) -> Review | None:  # fmt: skip
    """``analyse``'s review of move ``index + 1``: exact in a round whose hands every player
    knows (the split deal's rounds 2, 4 and 6), the rest of the round solved before and
    after the move for the same objective; None for the set-up and the other rounds."""
    from polytile.puzzles.gridblock._round_search import round_end
    from polytile.puzzles.gridblock.endgame import hands_known, round_objective, solve_round
    from polytile.puzzles.gridblock.rules import COLOR_NAMES

    g = face.read(file, index).state
    if g.is_setup or g.is_over() or not hands_known(g):
        return None
    doc = cache.get("doc") or cache.setdefault("doc", face.read(file))
    move = doc.moves[index]
    two = g.options.players == 2
    mover = g.to_move
    player = None if two else mover
    sign = -1 if two and mover == 1 else 1  # the 2-player value is blue+red's lead
    started = time.perf_counter()

    def left() -> float:
        return max(time_limit - (time.perf_counter() - started), 0.01)

    key = (index, player)
    if key not in cache:
        r = solve_round(g, player=player, all_best=True, time_limit=left())
        cache[key] = (r.value, r.best_moves)
    before, best = cache[key]
    after_state = face.read(file, index + 1).state
    if after_state.step >= round_end(g) or after_state.is_over():  # the round is over
        after = round_objective(g, player).of_board(after_state)
    else:
        nxt = (index + 1, player)
        if nxt not in cache:
            r = solve_round(after_state, player=player, all_best=True, time_limit=left())
            cache[nxt] = (r.value, r.best_moves)
        after = cache[nxt][0]
    played = str(move)
    pick = next((m for m in best if str(m) == played), best[0])
    return Review(index + 1, COLOR_NAMES[g.to_move_color], played, before, after,
                  sign * (before - after), str(pick))  # fmt: skip
