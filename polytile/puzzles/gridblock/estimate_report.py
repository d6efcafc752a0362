"""The rest-of-game estimate in Gridblock's reports
(:func:`polytile.puzzles.gridblock.estimate.estimate_game`): ``solve-endgame`` of a set-up
position, the part of ``solve-endgame --view`` after the round's values, and ``analyse``'s
estimate of the moves its exact reviews leave (the set-up's among them). Every answer here
is an estimate and says so, with what it rests on. Reached through the game's face."""

from __future__ import annotations

import json
from typing import Any, NoReturn

from polytile.errors import OptionError
from polytile.faces.analysis import Review
from polytile.faces.face import (
    Console,
    EndgameRequest,
    check_view_player,
    estimate_doc,
    print_estimate,
)

__all__ = [
    "ANALYSE_PLAYOUTS",
    "PLAYOUTS",
    "VIEW_SHARE",
    "estimate_instead",
    "estimate_move",
    "rest_of_game",
    "solve_setup",
    "view_share",
]

#: The playouts of ``solve-endgame``'s estimate, unless ``--time-limit`` stops it first.
PLAYOUTS = 1000
#: The most playouts ``analyse`` gives one move's estimate (it shares its time out too).
ANALYSE_PLAYOUTS = 400
#: The share of ``--time-limit`` that ``--view``'s round values may take before the estimate
#: to the end of the game (which gets what they leave).
VIEW_SHARE = 0.75
_SHOWN = 15  # moves listed in the text report (--json lists them all)


def view_share(g: Any) -> float:
    """The share of the time the round's view analysis may take at ``g``: all of it in the
    last round (whose end is the game's), else :data:`VIEW_SHARE`."""
    from polytile.puzzles.gridblock.rules import ROUNDS

    return 1.0 if g.round == ROUNDS - 1 else VIEW_SHARE


def _seconds(r: EndgameRequest) -> float:
    """What is left of the command's ``--time-limit`` (less a quarter second to report)."""
    left = r.clock.left(r.limit, 0.25) if r.clock is not None and r.limit else None
    return max(left if left is not None else r.time_limit, 0.0)


def _search(g: Any, seconds: float, seed: int) -> tuple[Any, bool]:
    """The estimate in ``seconds`` or :data:`PLAYOUTS` playouts, a first Ctrl-C stopping it
    with the best so far: the estimate, and whether Ctrl-C stopped it. Every move of the
    mover is valued at the root (the engine narrows them)."""
    from polytile.puzzles.gridblock.estimate import estimate_game
    from polytile.solvers.parallel import ctrl_c_asks_stop

    with ctrl_c_asks_stop() as asked:
        e = estimate_game(g, max(seconds, 1e-3), playouts=PLAYOUTS, seed=seed,
                          should_stop=asked.is_set, keep=g.legal_moves())  # fmt: skip
    return e, asked.is_set()


def solve_setup(console: Console, file: str, doc: Any, r: EndgameRequest) -> NoReturn:
    """``solve-endgame`` of a position in the set-up: the mover's placements valued to the
    end of the game by the tree search (no exact search starts before round 1). Exit 1 (an
    estimate), 130 after Ctrl-C."""
    from polytile.puzzles.gridblock.endgame import player_label

    g = doc.state
    for flag, on in (("--open", r.open_analysis), ("--player", bool(r.players)),
                     ("--samples", "samples" in r.given),
                     ("--max-exact", "max_exact" in r.given),
                     ("--workers", "workers" in r.given)):  # fmt: skip
        if on:
            raise OptionError(f"{flag}: the set-up has no round to solve; its placements are "
                              "estimated to the end of the game (--seed and --view apply)",
                              flag)  # fmt: skip
    _check_viewer(file, doc, r, g, player_label)
    e, interrupted = _search(g, _seconds(r), r.seed)
    why = "the set-up: the exact searches start at round 1"
    if r.as_json:
        console.out(json.dumps(_doc(e, interrupted, why)))
    else:
        n = len(g.colors)
        console.out(f"Gridblock, {g.options.players} players, the set-up: "
                    f"{player_label(g, g.to_move)} to place ({g.step} of {n} placed). No "
                    "exact value before round 1: the placements are estimated to the end of "
                    "the game.")  # fmt: skip
        _print(console, e, interrupted)
    raise SystemExit(130 if interrupted else 1)


def estimate_instead(console: Console, file: str, g: Any, r: EndgameRequest) -> NoReturn:
    """``--view`` when not one hand combination was solved in the round's share of the
    time: the rest of the time goes to the estimate to the end of the game. Exit 1 (an
    estimate), 130 after Ctrl-C."""
    console.err(f"{file}: no hand combination was solved in the round's share of the time; "
                "estimating each move to the end of the game instead")  # fmt: skip
    e, interrupted = _search(g, _seconds(r), r.seed)
    why = "no hand combination of the round was solved exactly within the time"
    if r.as_json:
        console.out(json.dumps(_doc(e, interrupted, why)))
    else:
        _print(console, e, interrupted)
    raise SystemExit(130 if interrupted else 1)


def _check_viewer(file: str, doc: Any, r: EndgameRequest, g: Any, label: Any) -> None:
    """Refuse another player's view, or ``--view`` naming a player not to move."""
    mover = label(g, g.to_move)
    if doc.kind == "view" and doc.player != g.to_move:
        raise OptionError(f"{file}: this is {label(g, doc.player)}'s view but {mover} is to "
                          "move; the estimate values the moves of the player to move",
                          "POSITION")  # fmt: skip
    check_view_player(r, mover, [label(g, p) for p in range(g.options.players)])


def rest_of_game(console: Console, g: Any, r: EndgameRequest, doc: dict[str, Any] | None
                 ) -> bool:  # fmt: skip
    """After ``--view``'s round values: every move valued to the end of the game, printed
    (or, with ``doc``, the round's JSON gains ``"rest_of_game"`` and is printed). True when
    Ctrl-C stopped it. In the last round, the round's values are already the game's: said
    so, nothing searched."""
    from polytile.puzzles.gridblock.rules import ROUNDS

    if g.round == ROUNDS - 1:
        if doc is not None:
            doc["rest_of_game"] = "the round is the last: its values are the game's"
            console.out(json.dumps(doc))
        else:
            console.out("Round 6 is the last: these values are to the end of the game.")
        return False
    e, interrupted = _search(g, _seconds(r), r.seed)
    if doc is not None:
        why = "the round's values stop at the end of the round"
        console.out(json.dumps({**doc, "rest_of_game": _doc(e, interrupted, why)}))
    else:
        console.out()
        console.out("To the end of the game (the values above stop at the end of the round):")
        _print(console, e, interrupted)
    return interrupted


def _doc(e: Any, interrupted: bool, why: str) -> dict[str, Any]:
    """The estimate as JSON (:func:`~polytile.faces.face.estimate_doc`), with its label and
    horizon."""
    doc = estimate_doc("gridblock", e.result, mover=e.mover, lead=e.lead, why=why,
                       stopped_by="interrupt" if interrupted else None)  # fmt: skip
    return {**doc, "label": e.label, "horizon": "end of the game"}


def _print(console: Console, e: Any, interrupted: bool) -> None:
    """The estimate's moves, most visited first, what it rests on
    (:func:`~polytile.faces.face.print_estimate`), and why it stopped when that was not its
    playouts."""
    if e.best is None:
        console.out("no playout ran before the stop: no move to suggest")
    else:
        print_estimate(console, e.result, mover=e.mover, lead=e.lead, width=16, shown=_SHOWN,
                       how="each on a fresh draw of the hands and deals it cannot see, every "
                       "colour then playing greedily to the end (a tile's free corners are "
                       "alike: one stands for all)")  # fmt: skip
    if interrupted:
        console.out("stopped by Ctrl-C: the estimate so far")
    elif e.result.stopped_by == "time":
        console.out("stopped by the time limit (--time-limit): the estimate so far")


def estimate_move(face: Any, file: str, index: int, seconds: float,
                  cache: dict[Any, Any]) -> Review:  # fmt: skip
    """``analyse``'s estimate of move ``index + 1`` (the moves its exact reviews leave: the
    set-up and the rounds whose hands are hidden): the tree search from the mover's view to
    the end of the game, in ``seconds`` or :data:`ANALYSE_PLAYOUTS` playouts, the played
    move searched beside the best. A played move the search did not reach is valued by a
    search through it alone, with a fifth of the time. Values are the lead to the end of
    the game (with 3 or 4 players the mover's points minus the best other colour's)."""
    from polytile.puzzles.gridblock.estimate import estimate_game
    from polytile.puzzles.gridblock.rules import COLOR_NAMES

    doc = cache.get("doc") or cache.setdefault("doc", face.read(file))
    g = face.read(file, index).state
    move = doc.moves[index]
    sign = -1 if g.options.players == 2 and g.to_move == 1 else 1  # the lead is blue+red's
    e = estimate_game(g, seconds * 0.8, playouts=ANALYSE_PLAYOUTS, seed=index, keep=[move])
    best = e.stat(e.best) if e.best is not None else None
    played = e.stat(move)
    playouts = e.result.playouts
    after = None if played is None or not played.visits else played.margin
    if after is None:
        alone = estimate_game(g, seconds * 0.2, playouts=ANALYSE_PLAYOUTS, seed=index,
                              only=[move])  # fmt: skip
        playouts += alone.result.playouts
        after = alone.value
    before = after if best is None or not best.visits else best.margin
    pick = move if best is None or not best.visits else e.best
    whose = "" if g.options.players == 2 else (
        " (values: the mover's points minus the best other colour's)")  # fmt: skip
    note = (f"Monte Carlo tree search from the mover's view to the end of the game{whose}, "
            f"the hidden hands and deals drawn at random, greedy play after the tree: "
            f"{playouts:,} playouts")  # fmt: skip
    return Review(
        index + 1,
        COLOR_NAMES[g.to_move_color],
        str(move),
        sign * before + 0.0,
        sign * after + 0.0,
        before - after + 0.0,
        str(pick),
        exact=False,
        note=note,
    )  # fmt: skip  (+ 0.0: no -0.0)
