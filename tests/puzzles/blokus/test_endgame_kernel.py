"""The compiled Blokus endgame search gives the Python search's values, with lines the rules
engine replays to them; its reach matches the shared one; limits and Ctrl-C stop it; and
``solve_endgame`` switches to it when the Python search takes too long."""

from __future__ import annotations

import random
import time
from typing import Any

import numpy as np
import pytest

from polytile.errors import SolverError
from polytile.puzzles.blokus import _compiled, endgame, endgame_kernel
from polytile.puzzles.blokus.endgame import EndgameStopped, solve_endgame
from polytile.puzzles.blokus.endgame_kernel import (
    KernelStopped,
    bitboard_scratch,
    kernel_line,
    orientations,
    solitaire,
)
from polytile.puzzles.blokus.moves import COLOR_NAMES, placement_table
from polytile.puzzles.blokus.rules import Blokus, Move
from polytile.puzzles.blokus.scoring import player_names


def _ending(variant: str, players: int, seed: int, back: int) -> Blokus:
    """A seeded game (biggest pieces three times in four) taken back ``back`` plies."""
    rng = np.random.default_rng(seed)
    game = Blokus(variant, players)
    while not game.is_game_over():
        moves = game.legal_moves()
        if rng.random() < 0.75:
            biggest = max(len(m.cells) for m in moves)
            moves = [m for m in moves if len(m.cells) == biggest]
        game.push(moves[int(rng.integers(len(moves)))])
    for _ in range(back):
        game.pop()
    return game


def _objective(game: Blokus, name: str) -> tuple[list[int], list[bool]]:
    """Weights and maximisers of ``name``'s search, as ``solve_endgame`` sets them."""
    names = player_names(game.players, game.variant.name)
    owner = [next(i for i, n in enumerate(names) if c in n.split("+")) for c in game.colors]
    me = names.index(name)
    two = len(names) == 2
    weights = [1 if o == me else (-1 if two else 0) for o in owner]
    return weights, [o == me for o in owner]


#: Duo seeds whose reference search in Python takes 12-40 s: run at full size only.
SLOW_DUO = (0, 5, 6)


def _full_only(case: tuple[Any, ...], slow: bool) -> Any:
    return pytest.param(*case, marks=pytest.mark.slow) if slow else case


CASES = [_full_only(("duo", 2, seed, 8), seed in SLOW_DUO) for seed in range(8)] + [
    ("classic", 2, 1, 8),
    ("classic", 2, 4, 8),
    ("classic", 4, 1, 6),
]


def _skip_reduced(request: pytest.FixtureRequest, slow_scale: str) -> None:
    if slow_scale == "reduced" and request.node.get_closest_marker("slow"):
        pytest.skip("full size only (POLYTILE_SLOW=full): a Python reference search of 12-40 s")


@pytest.mark.parametrize(("variant", "players", "seed", "back"), CASES)
def test_the_compiled_search_gives_the_python_values(
    variant: str, players: int, seed: int, back: int, request: pytest.FixtureRequest,
    slow_scale: str,
) -> None:  # fmt: skip
    _skip_reduced(request, slow_scale)
    game = _ending(variant, players, seed, back)
    # the reference search in Python: a limit only a broken search reaches (a busy machine
    # took over 120 s on two of these)
    python = solve_endgame(game, max_pieces=None, time_limit=1800, use_compiled=False)
    for name, line in python.lines.items():
        weights, maxer = _objective(game, name)
        value, pv, nodes = kernel_line(game, weights, maxer)
        assert value == line.value, (name, value, line.value)
        final = game.copy()
        for move in pv:
            final.push(move)  # checked: a line of legal moves ...
        assert final.is_game_over()  # ... to the end ...
        totals = final.score().colors
        reached = sum(w * totals[c].total for w, c in zip(weights, game.colors, strict=True))
        assert reached == value  # ... worth it
        assert nodes > 0


@pytest.mark.parametrize("seed", [1, 3, 4])
def test_two_threads_give_one_thread_s_values(seed: int) -> None:
    """Lazy SMP: two searches share the table (entries written at once by both must never
    read back wrong); the value is the single search's, and its line replays to it."""
    game = _ending("duo", 2, seed, 10)
    alone, _, _ = kernel_line(game, [1, -1], [True, False], threads=1)
    for weights, maxer in (([1, -1], [True, False]), ([-1, 1], [False, True])):
        value, pv, _ = kernel_line(game, weights, maxer, threads=2)
        final = game.copy()
        for move in pv:
            final.push(move)
        totals = final.score().colors
        assert final.is_game_over()
        assert sum(w * totals[c].total for w, c in zip(weights, game.colors, strict=True)) == value
        assert value == (alone if weights[0] == 1 else -alone)


SOLO_CASES = [("duo", 2, seed, 9) for seed in range(4)] + [("classic", 2, 4, 8),
                                                          ("classic", 4, 1, 6)]  # fmt: skip


@pytest.mark.parametrize(("variant", "players", "seed", "back"), SOLO_CASES)
def test_the_solitaire_bound_changes_no_value(
    variant: str, players: int, seed: int, back: int
) -> None:
    """The search with the solitaire bound never tried, as tuned, and tried wherever it
    could settle a node gives one value per objective, and each line replays to it."""
    game = _ending(variant, players, seed, back)
    names = player_names(game.players, game.variant.name)
    counts = {}
    for name in names:
        weights, maxer = _objective(game, name)
        values = set()
        for gap in (-1, 13, 99):
            value, pv, nodes = kernel_line(game, weights, maxer, threads=1, solo_gap=gap)
            final = game.copy()
            for move in pv:
                final.push(move)
            totals = final.score().colors
            assert final.is_game_over()
            assert sum(w * totals[c].total for w, c in zip(weights, game.colors, strict=True)) \
                == value  # fmt: skip
            values.add(value)
            counts[name, gap] = nodes
        assert len(values) == 1, (name, values)
    # The solitaires were asked: the searches counted other positions.
    assert any(counts[name, gap] != counts[name, -1] for name in names for gap in (13, 99))


def test_the_solitaire_bound_settles_positions() -> None:
    """Asking a solitaire costs positions, so fewer in all means it settled some."""
    game = _ending("duo", 2, 0, 9)
    with_bound = kernel_line(game, [1, -1], [True, False], threads=1)[2]
    assert with_bound < kernel_line(game, [1, -1], [True, False], threads=1, solo_gap=-1)[2]


def test_a_node_limited_search_repeats_its_count() -> None:
    game = _ending("duo", 2, 4, 8)
    counts = {kernel_line(game, [1, -1], [True, False], node_limit=10**7)[2] for _ in range(2)}
    assert len(counts) == 1  # one thread: the same positions every time


def test_the_bitboard_reach_matches_the_shared_one() -> None:
    from polytile.puzzles.blokus._bitboard import bit_reach

    rng = random.Random(5)
    for variant in ("duo", "classic"):
        game = Blokus(variant)
        t = placement_table(game.size)
        orient = orientations(game.size)
        fit = bitboard_scratch(game.size)
        everywhere = np.full(t.words, np.iinfo(np.uint64).max, dtype=np.uint64)
        k = len(game.colors)
        checked = 0
        while not game.is_game_over():
            grid, bits = game.grid_codes(), game._bits
            for ci, color in enumerate(game.colors):
                hand = game.hand_mask(color).astype(np.uint8)
                code = COLOR_NAMES.index(color) + 1
                r, c = game.variant.starts[color]
                start = -1 if not hand.all() else r * game.size + c
                want, want_pieces = np.empty(grid.size, bool), np.empty(21, np.uint8)
                count = _compiled.reach(grid, game.size, code, start, hand, t.flat,
                                        t.piece, t.cell_ptr, t.cell_placements, want,
                                        want_pieces)  # fmt: skip
                got, got_pieces = np.empty(t.words, np.uint64), np.empty(21, np.uint8)
                assert bit_reach(orient, game.size, bits[0], bits[1 + ci], bits[1 + k + ci],
                                 hand, everywhere, fit, got, got_pieces, False) == count
                cells = np.unpackbits(got.view(np.uint8), bitorder="little")[: grid.size]
                assert (cells.astype(bool) == want).all()
                assert (got_pieces == want_pieces).all()
                checked += 1
            game.push(rng.choice(game.legal_moves()))
        assert checked > 40


def _random_plies(variant: str, seed: int) -> Any:
    """(game, its previous position) after each move of a random game of ``variant``."""
    rng = random.Random(seed)
    game = Blokus(variant)
    while not game.is_game_over():
        before = game.copy()
        game.push(rng.choice(game.legal_moves()))
        yield game, before


@pytest.mark.parametrize("variant", ["duo", "classic"])
def test_a_reach_found_within_the_last_one_is_the_same(variant: str) -> None:
    """The search finds each reach among the previous position's reach cells and pieces (a
    reach only shrinks): the same cells and pieces as found from scratch, for the colour
    that moved and for the others, over whole random games."""
    from polytile.puzzles.blokus._bitboard import bit_reach

    n = Blokus(variant).size
    t = placement_table(n)
    orient, fit = orientations(n), bitboard_scratch(n)
    everywhere = np.full(t.words, np.iinfo(np.uint64).max, dtype=np.uint64)

    def reach(game: Blokus, ci: int, cand: np.ndarray, within: np.ndarray) -> tuple[Any, ...]:
        k, bits = len(game.colors), game._bits
        cells, pieces = np.zeros(t.words, np.uint64), np.zeros(21, np.uint8)
        count = bit_reach(orient, n, bits[0], bits[1 + ci], bits[1 + k + ci], cand, within,
                          fit, cells, pieces, False)  # fmt: skip
        return count, cells, pieces

    checked = shrank = 0
    for game, before in _random_plies(variant, 11):
        for ci, color in enumerate(game.colors):
            hand = game.hand_mask(color).astype(np.uint8)
            _, old_cells, old_pieces = reach(before, ci, before.hand_mask(color).astype(np.uint8),
                                             everywhere)  # fmt: skip
            count, cells, pieces = reach(game, ci, hand, everywhere)
            got = reach(game, ci, old_pieces & hand, old_cells)
            assert got[0] == count and (got[1] == cells).all() and (got[2] == pieces).all()
            checked += 1
            shrank += count < int(np.unpackbits(old_cells.view(np.uint8)).sum())
    assert checked > 40 and shrank > 10


@pytest.mark.parametrize("variant", ["duo", "classic"])
def test_the_moves_kept_from_a_reach_and_the_biggest_are_the_generated_ones(
    variant: str,
) -> None:
    """The solitaire lists a colour's legal placements from its reach (the same ones in
    the same order as generating them), and the search asks first for its biggest (a
    placement of the biggest size, of equal pieces the first, or none)."""
    from polytile.puzzles.blokus._bitboard import (
        biggest_legal,
        bit_generate,
        bit_reach,
        kept_moves,
    )
    from polytile.puzzles.blokus.rules import PIECE_SIZES

    n = Blokus(variant).size
    t = placement_table(n)
    orient, fit = orientations(n), bitboard_scratch(n)
    everywhere = np.full(t.words, np.iinfo(np.uint64).max, dtype=np.uint64)
    sizes = np.array(PIECE_SIZES, dtype=np.int64)
    want, got = np.empty(len(t.piece), np.int64), np.empty(len(t.piece), np.int64)
    cells, pieces = np.zeros(t.words, np.uint64), np.zeros(21, np.uint8)
    none = checked = 0
    for game, _ in _random_plies(variant, 12):
        k, bits = len(game.colors), game._bits
        for ci, color in enumerate(game.colors):
            hand = game.hand_mask(color).astype(np.uint8)
            state = (bits[0], bits[1 + ci], bits[1 + k + ci])
            count = bit_generate(orient, *state, hand, fit, want)
            bit_reach(orient, n, *state, hand, everywhere, fit, cells, pieces, True)
            assert kept_moves(orient, fit, got) == count
            assert (got[:count] == want[:count]).all()
            big = biggest_legal(orient, sizes, *state, hand, fit)
            if count == 0:
                assert big == -1
                none += 1
                continue
            size = sizes[t.piece[want[:count]]]
            assert big == want[:count][size == size.max()][0]
            checked += 1
    assert checked > 40 and none > 0


def test_a_search_after_others_searches_as_with_new_tables() -> None:
    """A search with no tables of its own takes the set the last one used, reading its
    entries as empty (a salt of its own in its keys): the same value and the same count
    of positions as the first time, after searches of another objective and position."""
    first = _ending("duo", 2, 4, 8)
    other = _ending("duo", 2, 5, 8)  # (5, 9) took 40 s with the second objective
    want = kernel_line(first, [1, -1], [True, False], threads=1)
    kernel_line(other, [1, 0], [True, True], threads=1)
    kernel_line(other, [1, -1], [True, False], threads=1)
    again = kernel_line(first, [1, -1], [True, False], threads=1)
    assert again[0] == want[0] and again[2] == want[2]


def test_limits_stop_the_compiled_search() -> None:
    game = _ending("duo", 2, 0, 14)  # far too big to finish in these limits
    with pytest.raises(KernelStopped) as stop:
        kernel_line(game, [1, -1], [True, False], node_limit=2000)
    assert stop.value.reason == "nodes" and 2000 <= stop.value.nodes < 2100
    started = time.perf_counter()
    with pytest.raises(KernelStopped) as stop:
        kernel_line(game, [1, -1], [True, False], deadline=time.perf_counter() + 0.3)
    assert stop.value.reason == "time"
    assert time.perf_counter() - started < 5  # the stop request is read every position

    def ctrl_c(nodes: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KernelStopped) as stop:
        kernel_line(game, [1, -1], [True, False], progress=ctrl_c)
    assert stop.value.reason == "interrupt"


def test_a_failing_progress_callback_stops_the_search_threads() -> None:
    """An error raised by the caller's progress callback reaches the caller, and the search
    threads stop instead of running on unheard."""
    import threading

    game = _ending("duo", 2, 0, 14)  # far too big to finish

    def broken(nodes: int) -> None:
        raise RuntimeError("the progress display failed")

    with pytest.raises(RuntimeError, match="progress display"):
        kernel_line(game, [1, -1], [True, False], progress=broken)
    deadline = time.perf_counter() + 5
    while time.perf_counter() < deadline and any(
        t.name.startswith("polytile-blokus-endgame") for t in threading.enumerate()
    ):
        time.sleep(0.05)
    assert not [t.name for t in threading.enumerate() if t.name.startswith("polytile-blokus")]


def test_solve_endgame_switches_to_the_compiled_search(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _ending("duo", 2, 4, 8)  # a few thousand positions
    want = solve_endgame(game, max_pieces=None, use_compiled=False)
    used: list[int] = []
    real = endgame._compiled_line

    def spy(*args: Any, **kwargs: Any) -> Any:
        used.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(endgame, "PYTHON_FIRST", 0.0)
    monkeypatch.setattr(endgame, "PYTHON_FIRST_LOADED", 0.0)
    monkeypatch.setattr(endgame, "_compiled_line", spy)
    seen: list[int] = []
    got = solve_endgame(game, max_pieces=None, progress=lambda n, s: seen.append(n))
    assert used and got.value == want.value
    assert got.best_line is not None and got.best_line.value == want.value
    # A node limit the Python search already used up stops before the compiled one starts.
    with pytest.raises(EndgameStopped) as stop:
        solve_endgame(game, max_pieces=None, node_limit=1)
    assert stop.value.reason == "nodes"


def test_a_loaded_compiled_search_takes_over_sooner(monkeypatch: Any) -> None:
    """The Python search gets ``PYTHON_FIRST`` seconds while the compiled search is still to
    be loaded, and only ``PYTHON_FIRST_LOADED`` once this process has it."""
    import sys

    import polytile.puzzles.blokus._endgame_search  # noqa: F401  (loaded)

    game = _ending("duo", 2, 4, 8)  # a few thousand positions
    used: list[int] = []
    real = endgame._compiled_line

    def spy(*args: Any, **kwargs: Any) -> Any:
        used.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(endgame, "_compiled_line", spy)
    monkeypatch.setattr(endgame, "PYTHON_FIRST", 1000.0)
    monkeypatch.setattr(endgame, "PYTHON_FIRST_LOADED", 0.0)
    want = solve_endgame(game, max_pieces=None).value
    assert used
    used.clear()
    monkeypatch.delitem(sys.modules, endgame.COMPILED_MODULE)  # as if not loaded yet
    assert solve_endgame(game, max_pieces=None).value == want
    assert not used


SOLITAIRES = [_full_only(("duo", 2, seed, 8), seed in SLOW_DUO) for seed in range(4)] + [
    ("classic", 2, 4, 6),
    ("classic", 4, 1, 5),
]


@pytest.mark.parametrize(("variant", "players", "seed", "back"), SOLITAIRES)
def test_the_compiled_solitaire_gives_the_python_values(
    variant: str, players: int, seed: int, back: int, request: pytest.FixtureRequest,
    slow_scale: str,
) -> None:  # fmt: skip
    """The compiled solitaire branches on a cell (each placement covering it, or none ever
    does), the Python one on every placement: the same best layouts, a first placement
    that keeps the value, and null windows on either side of it."""
    from polytile.puzzles.blokus import kernels

    _skip_reduced(request, slow_scale)
    game = _ending(variant, players, seed, back)
    hooks = endgame._Hooks(game, [0] * len(game.colors))
    hooks.tick = lambda: None  # type: ignore[method-assign]
    t = placement_table(game.size)
    k = len(game.colors)
    for ci, color in enumerate(game.colors):
        hand = game.hand_mask(color).astype(np.uint8)
        want, _ = hooks.solitaire(game, ci, game.grid_codes(), hand)
        value, first = solitaire(game, color)
        assert value == want, (color, value, want)
        for floor in (value - 1, value):
            bound, _ = solitaire(game, color, floor, floor + 1)
            assert (bound > floor) == (value > floor) and (bound >= value if bound <= floor
                                                           else bound <= value)  # fmt: skip
        bits = game._bits
        state = np.stack([bits[0], bits[1 + ci], bits[1 + k + ci]])
        out = np.empty(len(t.piece), dtype=np.int64)
        count = kernels.generate(t.masks, t.piece, t.cell_ptr, t.cell_placements, state[0],
                                 state[1], state[2], hand, out)  # fmt: skip
        if first is None:
            assert count == 0
            continue
        # The first placement is legal now, and the Python solitaire after it keeps the value.
        p = next(p for p in out[:count].tolist() if game._move(ci, p) == first)
        kernels.place(state, 0, 1, p, t.masks, t.edge_masks, t.corner_masks)
        grid = game.grid_codes().copy()
        grid[[c for c in t.flat[p].tolist() if c >= 0]] = hooks.info.codes[ci]
        hand[t.piece[p]] = 0
        after, _ = hooks._solo_search(ci, state, grid, hand, first.piece)
        assert after == value


# The solitaire kernel entered as ``_endgame_search._solo_root`` enters it, without loading
# (and compiling) the rest of the search: the reduced bounds check below.
_SOLO_ALONE = """
import numpy as np
from polytile.puzzles.blokus import _endgame_ctr as ks, endgame_kernel as ek
from polytile.puzzles.blokus._endgame_solo import _NP, _solo, _solo_key


def solo_alone(game, ci):
    k = len(game.colors)
    t, tab, g, hand, lasti1, z, _, _ = ek._arrays(game, [0] * k, [False] * k)
    st, buf, ctr, _ = ek._thread_state(game, t, hand, lasti1, np.iinfo(np.int64).max, 0)
    bits = st[0][0]
    rbuf, pbuf, sbits = buf[1], buf[2], buf[3]
    sbits[0, 0], sbits[0, 1], sbits[0, 2] = bits[0], bits[1 + ci], bits[1 + k + ci]
    key = _solo_key(ci * 2 + lasti1[ci] + 1, hand[ci], rbuf[ci], sbits[0, 0], sbits[0, 1],
                    sbits[0, 2], np.uint64(ctr[ks.SALT]))
    sreach, spieces = buf[13], buf[14]
    sreach[0, :] = ~np.uint64(0)
    spieces[0, :_NP] = hand[ci, :_NP]
    value, _ = _solo(tab, buf[7], g[0], g[1], sbits, hand, lasti1, ci, -ks.INF, ks.INF, 0,
                     rbuf, pbuf, buf[4], buf[12], buf[11], ek._memos(), ctr, z[0], key,
                     sreach, spieces)
    return int(value)
"""


@pytest.mark.slow
def test_the_compiled_search_stays_inside_its_arrays(tmp_path: Any, slow_scale: str) -> None:
    """The kernels compiled afresh with numba's bounds checks (an index outside an array
    raises instead of reading memory) give the values of the unchecked ones. At full size,
    the whole search (about 150 s of compiling with the checks); reduced, the solitaire
    kernel and the bitboard move generation it shares with the search (about 40 s)."""
    import json
    import os
    import subprocess
    import sys

    full = slow_scale == "full"
    seeds = range(8) if full else range(3)
    script = _SOLO_ALONE + (
        "import json, sys\n"
        "from tests.puzzles.blokus.test_endgame_kernel import _ending\n"
        "from polytile.puzzles.blokus.endgame_kernel import kernel_line, solitaire\n"
        "full = sys.argv[2] == 'full'\n"
        "out = []\n"
        "for seed in json.loads(sys.argv[1]):\n"
        "    game = _ending('duo', 2, seed, 9)\n"
        "    line = [kernel_line(game, [1, -1], [True, False], threads=1)[0]] if full else []\n"
        "    out.append(line + [(solitaire(game, c)[0] if full else solo_alone(game, i))\n"
        "                       for i, c in enumerate(game.colors)])\n"
        "loaded = 'polytile.puzzles.blokus._endgame_search' in sys.modules\n"
        "print(json.dumps({'rows': out, 'search_loaded': loaded}))\n"
    )
    env = dict(os.environ, NUMBA_BOUNDSCHECK="1", NUMBA_CACHE_DIR=str(tmp_path))
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
    done = subprocess.run([sys.executable, "-c", script, json.dumps(list(seeds)), slow_scale],
                          env=env, cwd=root, capture_output=True, text=True,
                          timeout=1800)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    checked = json.loads(done.stdout.strip().splitlines()[-1])
    # the reduced run never loaded the search (which would have compiled it all, checked)
    assert checked["search_loaded"] == full
    for seed, row in zip(seeds, checked["rows"], strict=True):
        game = _ending("duo", 2, seed, 9)
        line = [kernel_line(game, [1, -1], [True, False], threads=1)[0]] if full else []
        assert row == line + [solitaire(game, c)[0] for c in game.colors]


def test_the_compiled_solitaire_keeps_i1_for_last() -> None:
    """A layout placing everything scores 5 more with I1 last, so there the order counts:
    hands of I1 and one or two pieces on late boards, against the Python solitaire (which
    tries every order). Branching on a cell alone misses some of these (29 of 720 in the
    check that found it)."""
    from polytile.puzzles.blokus.rules import PIECE_NAMES

    i1 = PIECE_NAMES.index("I1")
    bonus = 0
    for seed, back in ((0, 2), (0, 6), (1, 2)):
        game = _ending("duo", 2, seed, back)
        for ci, color in enumerate(game.colors):
            for p in range(len(PIECE_NAMES)):
                for q in (p, 5):
                    if i1 in (p, q):
                        continue
                    trial = game.copy()
                    trial._hand[ci] = 0  # engine internals: a hand of our choosing
                    trial._hand[ci, [i1, p, q]] = 1
                    hooks = endgame._Hooks(trial, [0] * len(trial.colors))
                    hooks.tick = lambda: None  # type: ignore[method-assign]
                    hand = trial.hand_mask(color).astype(np.uint8)
                    want, _ = hooks.solitaire(trial, ci, trial.grid_codes(), hand)
                    assert solitaire(trial, color)[0] == want, (seed, back, color, p, q)
                    bonus += want == 20
    assert bonus > 10  # the cases that matter were met


def test_the_shared_solitaire_memo_keeps_what_it_is_given() -> None:
    """A memo entry reads back as stored, at the ends of each field's range in use
    (solitaire scores, placements of the classic board, the three kinds); another key, an
    empty slot (even for key 0) and an entry torn by two threads writing at once read as
    misses."""
    from polytile.puzzles.blokus._endgame_solo import _keep, _recall

    table = np.zeros((1 << 4, 2), dtype=np.uint64)
    places = len(placement_table(20).piece)
    for key, value, first, kind in [(5, -89, -1, 0), (21, 20, places - 1, 2), (7, 0, 0, 1)]:
        assert not _recall(table, np.uint64(key))[0]
        _keep(table, np.uint64(key), value, first, kind)
        assert _recall(table, np.uint64(key)) == (True, value, first, kind)
        assert not _recall(table, np.uint64(key + 16))[0]  # same slot, another key
    assert not _recall(table, np.uint64(0))[0]  # an empty slot: key 0 XOR data 0 is 0
    slot = 7
    table[slot, 1] ^= np.uint64(1 << 22)  # the data of another write, the key of this one
    assert not _recall(table, np.uint64(7))[0]


@pytest.mark.parametrize(("variant", "players", "seed", "back"),
                         [("duo", 2, 5, 8), ("classic", 4, 0, 16)])  # fmt: skip
def test_tables_kept_from_search_to_search_give_the_same_values(
    variant: str, players: int, seed: int, back: int
) -> None:
    """Positions of one game solved from the end backward with one :class:`KernelTables`,
    for the players ``analyse`` asks about in its order (with 4 players: the player to move,
    then the one who moved last, so two objectives by turns), get the values of searches of
    their own, with fewer positions, and lines the rules engine replays to them; every
    position after the first finds a kept set."""
    from polytile.puzzles.blokus.endgame_kernel import KernelTables

    game = _ending(variant, players, seed, back)
    line = []
    for move in _ending(variant, players, seed, 0).move_stack[len(game.move_stack) :]:
        line.append(game.copy())
        game.push(move)
    tables = KernelTables()
    kept_nodes = fresh_nodes = 0
    names = player_names(line[0].players, line[0].variant.name)
    for k in range(len(line) - 1, -1, -1):
        position = line[k]
        asked = [position.player_to_move]
        if len(names) == 2:
            asked = names[:1]
        elif k > 0 and line[k - 1].player_to_move not in asked:
            asked.append(line[k - 1].player_to_move)
        for name in asked:
            weights, maxer = _objective(position, name)
            alone, _, nodes = kernel_line(position, weights, maxer, threads=1)
            fresh_nodes += nodes
            value, pv, nodes = kernel_line(position, weights, maxer, threads=1, tables=tables)
            kept_nodes += nodes
            assert value == alone
            final = position.copy()
            for move in pv:
                final.push(move)
            assert final.is_game_over()
            totals = {c: final.score().colors[c].total for c in position.colors}
            pairs = zip(weights, position.colors, strict=True)
            assert sum(w * totals[c] for w, c in pairs) == value
    assert kept_nodes < fresh_nodes
    assert tables.reused >= len(line) - 1
    assert len(tables._sets) == (1 if len(names) == 2 else 2)
    with pytest.raises(ValueError, match="keep"):
        KernelTables(keep=0)


@pytest.mark.parametrize(("variant", "players"), [("duo", 2), ("classic", 4)])
def test_a_positions_key_is_its_roots_key_with_the_moves_folded_in(
    variant: str, players: int
) -> None:
    """The key the compiled search folds placements and turns into from a root (its own
    ``_apply``) equals the key it gives the position reached as a root of its own, so kept
    tables serve both; also where a colour places ``I1`` last (a hand cut to ``I1``)."""
    from polytile.puzzles.blokus import _endgame_search
    from polytile.puzzles.blokus.endgame_kernel import _arrays, _thread_state
    from polytile.puzzles.blokus.rules import PIECE_NAMES

    def key(g: Blokus) -> Any:
        return _arrays(g, [0] * len(g.colors), [False] * len(g.colors))[7]

    def folded(g: Blokus, move: Any) -> Any:
        """The key after ``move`` as the compiled search makes it from ``g``'s."""
        t, tab, gg, hand, lasti1, z, turn, h = _arrays(g, [0] * len(g.colors),
                                                       [False] * len(g.colors))  # fmt: skip
        nxt = (turn + 1) % len(g.colors)
        if move.is_pass:
            return h ^ z[1][turn] ^ z[1][nxt]
        st = _thread_state(g, t, hand, lasti1, 1, 0)[0]
        p = next(p for p in g._placeable(turn).tolist() if g._move(turn, p) == move)
        h2, _ = _endgame_search._apply(tab, gg, st, z, 0, turn, p, h)
        return h2 ^ z[1][turn] ^ z[1][nxt]

    game = _ending(variant, players, 3, 0)
    record = game.move_stack
    while game.move_stack:
        game.pop()
    keys = {key(game)}
    for move in record:
        want = folded(game, move)
        game.push(move)
        assert want == key(game)
        keys.add(want)
    assert len(keys) > len(record) // 2  # keys differ (passes at the end repeat none)
    # A colour whose last piece is I1: its hand cut to I1, then I1 placed.
    game = _ending(variant, players, 3, 12)
    ci = game.colors.index(game.to_move)
    game._hand[ci] = 0  # engine internals: a hand of I1 alone
    game._hand[ci, PIECE_NAMES.index("I1")] = 1
    move = next(m for m in game.legal_moves() if m.piece == "I1")
    want = folded(game, move)
    game.push(move)
    assert not game.hand_mask(game.colors[ci]).any() and game.last_piece(game.colors[ci]) == "I1"
    assert want == key(game)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize(("variant", "players", "seed", "back", "name"),
                         [("duo", 2, seed, 10, "blue") for seed in (1, 2, 3)]
                         + [("classic", 4, 1, 8, "red"), ("classic", 4, 1, 8, "blue")])  # fmt: skip
def test_a_stopped_search_proves_its_interval_and_move(variant: str, players: int, seed: int,
                                                       back: int, name: str,
                                                       threads: int) -> None:  # fmt: skip
    """Stopped at any point, the search's interval holds the value, and its move makes sure
    of its bound: solved after that move, the value is on the bound's right side. With two
    threads (as a time limit runs it: where they stop varies) the same must hold."""
    game = _ending(variant, players, seed, back)
    weights, maxer = _objective(game, name)
    value, _, total = kernel_line(game, weights, maxer, threads=1)
    moves = 0
    for share in (0.05, 0.2, 0.5, 0.8, 0.95):
        with pytest.raises(KernelStopped) as stop:
            kernel_line(game, weights, maxer, node_limit=max(1, int(total * share // threads)),
                        threads=threads)  # fmt: skip
        root = stop.value.proven
        assert root is not None
        assert (root.lower is None or root.lower <= value) and (
            root.upper is None or value <= root.upper)  # fmt: skip
        if root.move is None:
            continue
        moves += 1
        assert root.bound is not None and root.color == root.move.color
        after = game.copy()
        for move in (*root.passes, root.move):
            after.push(move)
        got, _, _ = kernel_line(after, weights, maxer, threads=1)
        assert got >= root.bound if root.raises else got <= root.bound
    assert moves >= 2 or threads == 2  # one thread's shares reach past the first root move


def test_a_known_bound_changes_only_the_work() -> None:
    """Given the value a move leads to as a bound on the mover's side (as ``analyse`` has
    it), the search finds the same value with at most the usual positions (fewer where the
    usual window would value moves worse than the bound); a bound beyond the value is a
    caller's error, refused, never a wrong answer."""
    fewer = 0
    for seed in (0, 1, 6):  # 4.7k, 0.5k and 42k positions
        game = _ending("duo", 2, seed, 8)
        value, _, nodes = kernel_line(game, [1, -1], [True, False], threads=1)
        raises = game.to_move == "blue"
        for move in game.legal_moves()[:3]:
            after = game.copy()
            after.push(move)
            bound, _, _ = kernel_line(after, [1, -1], [True, False], threads=1)
            known = (bound, None) if raises else (None, bound)
            got, line, guided = kernel_line(game, [1, -1], [True, False], threads=1,
                                            known=known)  # fmt: skip
            assert got == value and guided <= nodes
            check = game.copy()
            for m in line:
                check.push(m)
            totals = check.score().colors
            assert totals["blue"].total - totals["yellow"].total == value
            fewer += guided < nodes
        wrong = (value + 1, None) if raises else (None, value - 1)
        with pytest.raises(SolverError, match="outside the bounds"):
            kernel_line(game, [1, -1], [True, False], threads=1, known=wrong)
    assert fewer >= 3


@pytest.mark.parametrize(("variant", "players", "seed"), [("duo", 2, 6), ("classic", 4, 1)])
def test_a_played_move_bounds_only_the_search(monkeypatch: pytest.MonkeyPatch, variant: str,
                                              players: int, seed: int) -> None:  # fmt: skip
    """A move and the result after it (as ``analyse`` passes them) bound each objective on
    the mover's side: the compiled search then gives the values it gives without them (a
    bound on the wrong side is refused as outside the window)."""
    monkeypatch.setattr(endgame, "PYTHON_FIRST", 0.0)  # the compiled search after 1,024
    monkeypatch.setattr(endgame, "PYTHON_FIRST_LOADED", 0.0)  # positions of the Python one
    game = _ending(variant, players, seed, 8)
    names = player_names(players, variant)
    wanted = [game.player_to_move, next(n for n in names if n != game.player_to_move)]
    plain = solve_endgame(game, players=wanted, max_pieces=None)
    for move in game.legal_moves()[:4]:
        after = game.copy()
        after.push(move)
        later = solve_endgame(after, players=wanted, max_pieces=None)
        given: list[tuple[Any, ...]] = []

        def spy(*args: Any, given: list[tuple[Any, ...]] = given, **kwargs: Any) -> Any:
            given.append((args[0].to_move, args[2], kwargs["known"]))
            return kernel_line(*args, **kwargs)

        monkeypatch.setattr(endgame_kernel, "kernel_line", spy)
        got = solve_endgame(game, players=wanted, max_pieces=None, played=(move, later))
        monkeypatch.setattr(endgame_kernel, "kernel_line", kernel_line)
        assert {n: ln.value for n, ln in got.lines.items()} == {
            n: ln.value for n, ln in plain.lines.items()}  # fmt: skip
        # Each objective's bound reached the compiled search, on the mover's side.
        assert len(given) == len(got.lines)
        for mover, maxer, known in given:
            raises = maxer[game.colors.index(mover)]
            assert (known[0] is not None, known[1] is not None) == (raises, not raises)


def test_a_played_move_gives_no_bound_unless_it_is_the_movers_placement() -> None:
    game = _ending("duo", 2, 6, 8)
    later = solve_endgame(game, max_pieces=None)  # any result: only the move is in question
    names = player_names(2, "duo")
    other = next(m for m in game.move_stack[::-1] if m.color != game.to_move)
    assert endgame._known(game, names, (game.legal_moves()[0], later))
    assert endgame._known(game, names, (other, later)) == {}  # another colour's
    assert endgame._known(game, names, (Move(game.to_move), later)) == {}  # a pass
    taken = game.move_stack[-1]  # its cells are taken: not legal for the colour to move
    assert endgame._known(game, names, (Move(game.to_move, taken.piece, taken.cells), later)) == {}


def test_a_value_found_is_kept_when_its_line_is_stopped() -> None:
    """Stopped while it follows the line of a value it has found, the search reports that
    value as its interval (the line costs a few positions after the search)."""
    game = _ending("duo", 2, 1, 10)
    value, _, nodes = kernel_line(game, [1, -1], [True, False], threads=1)
    with pytest.raises(KernelStopped) as stop:
        kernel_line(game, [1, -1], [True, False], threads=1, node_limit=nodes - 1)
    assert stop.value.proven is not None
    assert stop.value.proven.lower == stop.value.proven.upper == value
