"""Monte Carlo tree search over the game protocol: an anytime estimate for any position.

Where the exact searches cannot answer yet (early in a game), :func:`mcts` still gives a
best move and a value, labelled as an estimate with what it rests on (how many playouts,
how many of them on sampled hidden states). It runs until its time limit, its playout
limit or a stop request, and the best so far is always there to take.

The search is UCT (Kocsis and Szepesvári, 2006) over the moves of the protocol
(:mod:`polytile.puzzles.game`). With hidden information it is single-observer
information-set MCTS (Cowling, Powley and Whitehouse, 2012): every iteration draws a full
state consistent with what the searching player knows (:meth:`State.sample_hidden`), and
walks one tree whose nodes are that player's information sets, keyed by moves; a move is
chosen among those legal in the drawn state, and a child's *availability* (how often it
could have been chosen) takes the place of its parent's visits in the UCB bound. Chance
events are drawn by their probabilities and do not branch the tree (an open-loop tree).
Perfect information is the special case where the drawn state is the state itself.

Every player maximises its own reward: whether its return beats the best of the others
(1 a win, 1/2 a tie, 0 a loss), with a small share for the margin, so that a sure win by
more is preferred and a lost game is still fought for. The value reported is the margin
itself (the player's return minus the best other return), in the game's own units.

Playouts follow a policy the game gives (its fast greedy player, say), or uniformly random
moves. A game may also narrow the moves the tree considers (``candidates``): the rest are
never expanded, though playouts may still play them.

Examples
--------
>>> from polytile.puzzles.toys import HighCard, TakeAway
>>> s = TakeAway(5).new_initial_state()
>>> r = mcts(s, playouts=2_000, seed=1)
>>> r.best, r.playouts, r.stopped_by   # leaving 4: a multiple of 4 loses
('take 1', 2000, 'playouts')
>>> r.value > 1.5   # the margin of a win is 2
True

With hidden information, each playout draws the cards the player cannot see:

>>> s = HighCard().new_initial_state(); s.push("deal 1-3")
>>> r = mcts(s, playouts=500, seed=1)
>>> r.best, r.sampled   # holding the lowest card: fold (-1), as a bet loses 2 to a call
('fold', True)
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from polytile.puzzles.game import CHANCE, SIMULTANEOUS, State, UnsupportedGameError

__all__ = ["MctsResult", "MoveStat", "Policy", "Rollout", "Value", "margin_of", "mcts",
           "reward_of"]

#: A playout policy: the move the player to move makes in ``state``.
Policy = Callable[[State, np.random.Generator], Any]
#: The moves the tree considers at ``state`` (a subset of ``moves``, best first).
Candidates = Callable[[State, list[Any]], list[Any]]
#: A whole playout: the returns at the end of a game played on from ``state`` (which it
#: may change), for games that play their playouts faster than move by move.
Rollout = Callable[[State, np.random.Generator], Sequence[float]]
#: The returns of a playout ended move by move (its state's ``returns()`` by default): for a
#: game whose search counts an ending otherwise than the state's own returns do (a
#: ``Rollout`` scores its own ends).
Value = Callable[[State], Sequence[float]]

#: How much of a reward is the margin (the rest is win, tie or loss).
MARGIN_SHARE = 0.1


def margin_of(returns: Sequence[float], player: int) -> float:
    """``player``'s return minus the best of the others' (its return alone if it is alone)."""
    others = [r for i, r in enumerate(returns) if i != player]
    return float(returns[player] - (max(others) if others else 0.0))


def reward_of(returns: Sequence[float], player: int, span: float) -> float:
    """``player``'s reward in [0, 1]: a win 1, a tie 1/2, a loss 0, with :data:`MARGIN_SHARE`
    of it given by the margin over ``span`` (the widest margin the game allows)."""
    margin = margin_of(returns, player)
    outcome = 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0
    scaled = 0.5 + 0.5 * max(-1.0, min(1.0, margin / span))
    return (1 - MARGIN_SHARE) * outcome + MARGIN_SHARE * scaled


@dataclass(frozen=True)
class MoveStat:
    """One move of the root, as the search saw it.

    Attributes
    ----------
    move
        The move.
    visits
        How many playouts went through it.
    reward
        Their mean reward for the searching player, in [0, 1] (see :func:`reward_of`).
    margin
        Their mean margin for the searching player, in the game's units.
    """

    move: Any
    visits: int
    reward: float
    margin: float


@dataclass(frozen=True)
class MctsResult:
    """What a search found.

    Attributes
    ----------
    player
        The player searched for.
    best
        The most visited move (None when the player had no move or no playout ran).
    moves
        The root's moves, most visited first.
    value
        The mean margin of the playouts through :attr:`best`: an estimate, in the game's
        units, of the margin the player can reach.
    playouts
        How many playouts ran.
    sampled
        True when each playout drew the hidden part of the state (hidden information).
    elapsed
        Seconds spent.
    stopped_by
        ``"time"``, ``"playouts"`` or ``"stop"`` (a stop request), or ``"single"`` when the
        player had one move only and nothing was searched.
    """

    player: int
    best: Any
    moves: tuple[MoveStat, ...]
    value: float
    playouts: int
    sampled: bool
    elapsed: float
    stopped_by: str

    @property
    def label(self) -> str:
        """What the estimate rests on, in words."""
        what = f"{self.playouts:,} playout{'s' * (self.playouts != 1)}"
        if self.sampled:
            what += " on sampled hidden states"
        return f"estimate (Monte Carlo tree search, {what})"

    def as_dict(self, text: Callable[[Any], str] = str) -> dict[str, Any]:
        """This result as JSON (moves by their ``text``)."""
        return {"kind": "mcts-estimate", "note": f"{self.label}; not the game's value",
                "player": self.player, "best": None if self.best is None else text(self.best),
                "value": round(self.value, 3), "playouts": self.playouts,
                "sampled": self.sampled, "seconds": round(self.elapsed, 3),
                "stopped_by": self.stopped_by,
                "moves": [{"move": text(m.move), "visits": m.visits,
                           "reward": round(m.reward, 4), "margin": round(m.margin, 3)}
                          for m in self.moves]}  # fmt: skip


@dataclass
class _Node:
    mover: int = -1  # the player whose move led here (-1 at the root)
    visits: int = 0
    available: int = 0
    reward: float = 0.0
    margin: float = 0.0
    children: dict[Any, _Node] = field(default_factory=dict)
    moves: list[Any] | None = None  # the moves considered here, when always the same


def mcts(
    state: State,
    player: int | None = None,
    *,
    time_limit: float | None = None,
    playouts: int | None = None,
    policy: Policy | None = None,
    candidates: Candidates | None = None,
    rollout: Rollout | None = None,
    value: Value | None = None,
    exploration: float = 0.7,
    seed: int | np.random.Generator | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> MctsResult:
    """Search ``state`` for ``player`` (None: the player to move) until ``time_limit``
    seconds, ``playouts`` playouts or ``should_stop()`` (at least one must be given).

    Playouts go move by move by ``policy`` (uniformly random moves without one), or, given a
    ``rollout``, by that function from the new leaf to the end of the game. An end reached
    move by move (or a leaf already over) is scored by ``value`` (its state's ``returns()``
    without one); a ``rollout`` gives its own returns. The time limit
    is looked at before every playout move (one playout always runs): a playout it cuts
    short is dropped. ``should_stop`` is asked before each playout.

    ``state`` is not changed. The search is deterministic for a given ``seed`` and
    ``playouts`` (a time limit makes it depend on the machine's speed).

    Raises
    ------
    UnsupportedGameError
        For a game whose players move at once (:data:`SIMULTANEOUS`), or a state where
        ``player`` is not to move.
    ValueError
        When no limit is given.
    """
    if time_limit is None and playouts is None and should_stop is None:
        raise ValueError("mcts needs a time limit, a playout limit or a stop request")
    if state.to_move == SIMULTANEOUS:
        raise UnsupportedGameError("Monte Carlo tree search here takes turns, not moves "
                                   "made at once")  # fmt: skip
    who = state.to_move if player is None else player
    if state.is_over() or state.to_move != who:
        raise UnsupportedGameError(f"player {who} is not to move here")
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    game = state.game
    try:
        low, high = game.utility_range()
    except NotImplementedError:  # the margin's share then scales by a unit
        low, high = -1.0, 1.0
    span = max(1.0, float(high - low))
    sampled = not game.traits.perfect_information and not _open(state)
    root_moves = state.legal_moves()
    root = _Node()
    # With nothing hidden and nothing left to chance, a node is one state: its moves (and
    # the candidates among them) are worked out once.
    fixed = game.traits.deterministic and not sampled
    if len(root_moves) == 1:
        return MctsResult(who, root_moves[0], (MoveStat(root_moves[0], 0, 0.0, 0.0),), 0.0, 0,
                          sampled, time.perf_counter() - start, "single")  # fmt: skip
    n = 0
    stopped_by = "playouts"
    while True:
        if playouts is not None and n >= playouts:
            break
        if deadline is not None and n and time.perf_counter() >= deadline:
            stopped_by = "time"
            break
        if should_stop is not None and should_stop():
            stopped_by = "stop"
            break
        s = state.sample_hidden(who, rng) if sampled else state.clone()
        path = _descend(root, s, rng, exploration, candidates, fixed)
        if rollout is not None and not s.is_over():
            returns = rollout(s, rng)
        else:
            while not s.is_over():
                if deadline is not None and n and time.perf_counter() >= deadline:
                    break  # a slow playout past the limit is dropped, not finished
                _step(s, rng, policy)
            else:
                returns = s.returns() if value is None else value(s)
            if not s.is_over():
                stopped_by = "time"
                break
        for node in path:
            node.visits += 1
            if node.mover >= 0:
                node.reward += reward_of(returns, node.mover, span)
                node.margin += margin_of(returns, node.mover)
        n += 1
    stats = sorted(
        (MoveStat(m, c.visits, c.reward / c.visits, c.margin / c.visits)
         for m, c in root.children.items() if c.visits),
        key=lambda st: (-st.visits, -st.reward),
    )  # fmt: skip
    best = stats[0].move if stats else None
    margin = stats[0].margin if stats else 0.0
    return MctsResult(who, best, tuple(stats), margin, n, sampled,
                      time.perf_counter() - start, stopped_by)  # fmt: skip


def _open(state: State) -> bool:
    is_open = getattr(state, "is_open", None)
    return bool(is_open() if callable(is_open) else False)


def _descend(root: _Node, s: State, rng: np.random.Generator, c: float,
             candidates: Candidates | None, fixed: bool) -> list[_Node]:  # fmt: skip
    """Walk the tree from ``root`` in ``s`` (changing ``s``) and add one node: the path.
    ``fixed``: each node is always the same state (its moves are kept in it)."""
    node = root
    path = [root]
    while not s.is_over():
        mover = s.to_move
        if mover == CHANCE:
            _chance(s, rng)
            continue
        if mover == SIMULTANEOUS:
            raise UnsupportedGameError("a simultaneous move inside the search")
        if node.moves is not None:
            moves = node.moves
        else:
            moves = s.legal_moves()
            if candidates is not None and len(moves) > 1:
                moves = candidates(s, moves) or moves
            if fixed:
                node.moves = moves
        untried = [m for m in moves if m not in node.children]
        for m in moves:
            child = node.children.get(m)
            if child is not None:
                child.available += 1
        if untried:
            move = untried[int(rng.integers(len(untried)))]
            child = _Node(mover=mover, available=1)
            node.children[move] = child
            s.push_legal(move)
            path.append(child)
            return path
        best_move, best_score = None, -math.inf
        for m in moves:
            child = node.children[m]
            score = child.reward / child.visits + c * math.sqrt(
                math.log(child.available) / child.visits
            )
            if score > best_score:
                best_move, best_score = m, score
        s.push_legal(best_move)
        node = node.children[best_move]
        path.append(node)
    return path


def _chance(s: State, rng: np.random.Generator) -> None:
    outcomes = s.chance_outcomes()
    weights = np.array([p for _, p in outcomes], dtype=float)
    pick = int(rng.choice(len(outcomes), p=weights / weights.sum()))
    s.push_legal(outcomes[pick][0])


def _step(s: State, rng: np.random.Generator, policy: Policy | None) -> None:
    """One playout move in ``s``."""
    if s.to_move == CHANCE:
        _chance(s, rng)
        return
    if s.to_move == SIMULTANEOUS:
        raise UnsupportedGameError("a simultaneous move inside the search")
    if policy is not None:
        s.push_legal(policy(s, rng))
        return
    moves = s.legal_moves()
    s.push_legal(moves[int(rng.integers(len(moves)))])
