"""The three new games under hostile use (issue 36): time limits that end before the first
result, more workers than cores, huge samples, documents that hide their ``format`` or
start with a byte-order mark, and ``-o`` onto special files.

Each test asserts an exit code and a message; memory and worker counts are measured in
the test process, never wall-clock times.
"""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from polytile.cli import cli


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


@pytest.fixture(scope="module")
def gridblock_split(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The record of issue 36's first item: a split-deal self-play game of two players,
    whose view at move 5 has 200 hand combinations, each about a second's search."""
    path = tmp_path_factory.mktemp("gridblock") / "split.json"
    args = ("selfplay", "gridblock", "--seed", "5", "--players", "2", "--deal", "split")
    result = invoke(*args, "-o", str(path))
    assert result.exit_code == 0, result.output
    return path


# -- 1a: a time limit that ends before the first result ---------------------------------------
def _stopped_by_time(_: Any) -> None:
    from polytile.solvers.alphabeta import SearchStopped

    raise SearchStopped("time", 12, 0.5)


def test_errors_raised_in_workers_cross_back_whole() -> None:
    """Every error a worker may raise survives pickling with its attributes: one whose
    ``__init__`` does not take its message (SearchStopped) broke the process pool."""
    from polytile.errors import FormatError, OptionError, UnknownNameError
    from polytile.puzzles.gridblock.endgame import RoundStopped
    from polytile.puzzles.henning.endgame import EndgameStopped
    from polytile.puzzles.henning.kernel import KernelStopped
    from polytile.solvers.alphabeta import SearchStopped

    errors = [SearchStopped("time", 3, 1.5), RoundStopped("nodes", 4, 2.0),
              EndgameStopped("interrupt", 5, 0.1), KernelStopped(6),
              FormatError("bad", "f.json", "moves[2]"), OptionError("no", "--cell"),
              UnknownNameError("game", "chess", ["henning"])]  # fmt: skip
    for err in errors:
        back = pickle.loads(pickle.dumps(err))
        assert type(back) is type(err) and str(back) == str(err)
        assert back.__dict__ == err.__dict__


def test_a_search_stopped_in_a_worker_leaves_the_pool_whole() -> None:
    from polytile.solvers.alphabeta import SearchStopped
    from polytile.solvers.parallel import LocalExecutor

    with LocalExecutor(2) as ex, pytest.raises(SearchStopped) as stopped:
        list(ex.imap_unordered(_stopped_by_time, range(3)))
    assert stopped.value.reason == "time" and stopped.value.nodes == 12


def test_gridblock_view_out_of_time_before_one_combination(gridblock_split: Path) -> None:
    """``--view`` with a time limit that ends before a hand combination is solved says so,
    estimates to the end of the game in what is left instead, as City Blocks (Henning)'s
    does, and exits 1 (it ended with BrokenProcessPool, exit 3)."""
    args = ("solve-endgame", str(gridblock_split), "--move", "5", "--view")
    result = invoke(*args, "--time-limit", "0.5", "--workers", "2", "--json")
    assert result.exit_code == 1, result.output
    assert result.stderr.strip().endswith(
        f"{gridblock_split}: no hand combination was solved in the round's share of the time; "
        "estimating each move to the end of the game instead"
    )
    doc = json.loads(result.stdout)
    assert doc["kind"] == "mcts-estimate" and doc["exact"] is False and doc["playouts"] >= 1


class _Lines:
    """A console that keeps what is printed."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def out(self, text: str = "", *, nl: bool = True, color: bool | None = None) -> None:
        self.lines.append(text)

    def err(self, text: str) -> None:
        self.lines.append(text)


def test_a_view_stopped_early_says_so_at_the_top_too() -> None:
    """After Ctrl-C the first lines said "every one solved exactly" and the last "stopped
    after 1 of 4": both now say how far the work got."""
    from polytile.puzzles.gridblock.report import _print_view
    from polytile.puzzles.gridblock.rules import Gridblock, Options
    from polytile.puzzles.gridblock.view import describe_hands, evaluate_view

    g = Gridblock.new(seed=2, options=Options(players=2))
    for _ in range(4 + 9):
        g.push_legal(g.legal_moves()[-1])

    def interrupt(done: int, total: int) -> None:
        raise KeyboardInterrupt

    a = evaluate_view(g, progress=interrupt)
    assert (a.evaluation.states, a.evaluation.planned, a.consistent) == (1, 4, 4)
    console = _Lines()
    _print_view(console, a, g, "yellow+green", describe_hands(g, g.to_move), 1)  # type: ignore[arg-type]
    text = "\n".join(console.lines)
    assert "every one solved exactly" not in text
    assert "all 4 to be solved exactly, 1 solved before the stop." in console.lines[0]
    assert "stopped by Ctrl-C after 1 of 4 combinations" in text
    whole = evaluate_view(g)
    console = _Lines()
    _print_view(console, whole, g, "yellow+green", describe_hands(g, g.to_move), 1)  # type: ignore[arg-type]
    assert console.lines[0].endswith("; every one solved exactly.")


# -- 5: workers, samples and time ---------------------------------------------------------------
@pytest.fixture()
def two_cores(monkeypatch: pytest.MonkeyPatch) -> int:
    """This process may use two cores, whatever the machine has."""
    from polytile.solvers import parallel

    monkeypatch.setattr(parallel, "default_workers", lambda: 2)
    return 2


@pytest.fixture()
def started(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The worker processes each process pool started, counted when it stops."""
    from concurrent.futures import ProcessPoolExecutor

    from polytile.solvers import parallel

    counts: list[int] = []

    class Counted(ProcessPoolExecutor):
        def shutdown(self, *args: Any, **kwargs: Any) -> None:
            counts.append(len(getattr(self, "_processes", None) or {}))
            super().shutdown(*args, **kwargs)

    monkeypatch.setattr(parallel, "ProcessPoolExecutor", Counted)
    return counts


@pytest.fixture(scope="module")
def gridblock_two(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A two-player Gridblock record whose view at move 23 has 16 quick combinations."""
    path = tmp_path_factory.mktemp("gridblock") / "two.json"
    result = invoke("selfplay", "gridblock", "--seed", "5", "--players", "2", "-o", str(path))
    assert result.exit_code == 0, result.output
    return path


@pytest.fixture(scope="module")
def henning_full(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The README tour's City Blocks (Henning) record (greedy self-play, 30 moves)."""
    path = tmp_path_factory.mktemp("henning") / "full.json"
    result = invoke("selfplay", "henning", "--seed", "7", "-o", str(path))
    assert result.exit_code == 0, result.output
    return path


NOTE = "--workers 64: this process may use 2 cores; using 2"


def test_view_workers_are_capped_at_the_usable_cores(
    gridblock_two: Path, two_cores: int, started: list[int]
) -> None:
    """--workers 64 started 59 processes (1.7 GB): now as many as the cores, said once."""

    args = ("solve-endgame", str(gridblock_two), "--move", "23", "--view", "--json")
    result = invoke(*args, "--workers", "64")
    assert result.exit_code == 1, result.output  # an estimate (hidden hands): exit 1
    assert result.stderr.count(NOTE) == 1
    assert json.loads(result.stdout)["workers"] == 2
    assert started == [2]


@pytest.mark.parametrize(
    "args",
    [
        ("count", "pentomino-3x20", "--no-progress", "--json"),
        ("solve", "gridblock-solo", "--seed", "3", "--time-limit", "1", "--json"),
        ("solve", "walkable-path", "--seed", "2", "--pieces", "2", "--time-limit", "1"),
        ("solve", "cityblocks-max", "--time-limit", "1", "--json"),
        ("bounds", "{duo}", "--time-limit", "1", "--json"),
        ("generate", "packing", "-n", "1", "--size", "4-5", "--time-limit", "3", "--db", "{db}"),
    ],
    ids=["count", "gridblock-solo", "walkable-path", "cityblocks-max", "bounds", "generate"],
)
def test_every_workers_option_is_capped_and_says_so_once(
    args: tuple[str, ...], two_cores: int, started: list[int], tmp_path: Path
) -> None:
    """Every command with --workers (worker processes or CP-SAT threads) takes at most the
    usable cores; none starts more processes than that."""
    duo = tmp_path / "duo.json"
    assert invoke("new", "blokus", "--variant", "duo", "-o", str(duo)).exit_code == 0
    given = [a.format(duo=duo, db=tmp_path / "set.db") for a in args]
    result = invoke(*given, "--workers", "64")
    assert result.exit_code in (0, 1), result.output
    assert result.stderr.count(NOTE) == 1, result.stderr
    assert all(n <= 2 for n in started)


def test_a_default_worker_count_is_capped_silently(two_cores: int) -> None:
    from polytile.cli.options import Workers

    assert Workers(1, 64).convert(2, None, None) == 2
    assert Workers(1, 64).convert(9, None, None) == 2  # a default: no note (no context)


def test_henning_huge_sample_keeps_the_time_limit(
    henning_full: Path, two_cores: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The issue's run: the time limit ends the view, having drawn only what the workers
    took (2 in flight per worker), not the million states asked for; the time kept back
    then goes to the estimate by tree search (here only seen to be asked for)."""
    from polytile.puzzles.henning import report
    from polytile.puzzles.henning.game import HenningState

    def estimated(console: Any, file: str, g: Any, r: Any, tried: float, kept: float) -> None:
        console.err("estimated instead")
        raise SystemExit(1)

    monkeypatch.setattr(report, "_estimate_view", estimated)

    drawn: list[int] = []
    draw = HenningState.sample_hidden

    def counted(self: Any, player: int, rng: Any) -> Any:
        drawn.append(1)
        return draw(self, player, rng)

    from polytile._warm import ensure_compiled

    ensure_compiled("henning-kernel")  # the first run after installing compiles it first
    monkeypatch.setattr(HenningState, "sample_hidden", counted)
    args = ("solve-endgame", str(henning_full), "--move", "24", "--view", "--workers", "2")
    result = invoke(*args, "--samples", "1000000", "--max-exact", "1", "--time-limit", "1.5")
    assert result.exit_code == 1, result.output
    assert result.stderr.strip().endswith("estimated instead")
    assert 1 <= len(drawn) <= 2 * 2 + 1


def test_a_worker_whose_parent_died_before_it_started_ends() -> None:
    """A worker that starts after its parent was killed (no parent-death signal can reach
    it then) ends at once instead of waiting for work forever."""
    import multiprocessing
    import os

    from polytile.solvers.parallel import _ignore_sigint

    ctx = multiprocessing.get_context("fork")
    orphan = ctx.Process(target=_ignore_sigint, args=(-1,))  # not its parent
    orphan.start()
    orphan.join(20)
    assert orphan.exitcode == 1
    child = ctx.Process(target=_ignore_sigint, args=(os.getpid(),))
    child.start()
    child.join(20)
    assert child.exitcode == 0


# -- 4: documents recognised by parsing them ------------------------------------------------
def _late_and_bom(path: Path) -> dict[str, bytes]:
    """The document at ``path`` with its ``format`` after 5 kB of other fields, and with a
    UTF-8 byte-order mark in front."""
    doc = json.loads(path.read_text())
    late = {"comment": "x" * 5000, **{k: v for k, v in doc.items() if k != "format"},
            "format": doc["format"]}  # fmt: skip
    return {"late": json.dumps(late).encode(), "bom": b"\xef\xbb\xbf" + path.read_bytes()}


@pytest.mark.parametrize("game", ["henning", "gridblock", "walkable"])
@pytest.mark.parametrize("variant", ["late", "bom"])
def test_a_record_is_recognised_wherever_its_format_stands(
    tmp_path: Path, game: str, variant: str
) -> None:
    """A record whose format comes after 4 kB of other fields was refused by every command
    ("not a solution or position", exit 2); one with a byte-order mark is read too."""
    new = tmp_path / "new.json"
    assert invoke("new", game, "-o", str(new)).exit_code == 0
    path = tmp_path / "g.json"
    path.write_bytes(_late_and_bom(new)[variant])
    for command in ("validate", "score", "render", "moves"):
        result = invoke(command, str(path))
        assert result.exit_code == 0, f"{command}: {result.output}"
    assert "valid" in invoke("validate", str(path)).stdout
    result = CliRunner().invoke(cli, ["validate", "-"], input=path.read_bytes())
    assert result.exit_code == 0, result.output
    listed = invoke("moves", str(path), "--json")
    assert listed.exit_code == 0, listed.output
    move = "I4 pass | I4 pass" if game == "walkable" else json.loads(listed.stdout)["moves"][0]
    result = invoke("play", str(path), move)
    assert result.exit_code == 0, result.output
    assert invoke("validate", str(path)).exit_code == 0  # the record written back reads


@pytest.mark.parametrize("variant", ["late", "bom"])
def test_a_walkable_path_answer_is_recognised_with_a_bom_or_a_late_format(
    tmp_path: Path, variant: str
) -> None:
    """validate refused a saved walkable-path answer starting with a byte-order mark
    ("Unexpected UTF-8 BOM", exit 2)."""
    answer = tmp_path / "answer.json"
    args = ("solve", "walkable-path", "--seed", "2", "--pieces", "1", "--time-limit", "60")
    made = invoke(*args, "-o", str(answer))  # proven optimal in about 1.5 s
    assert made.exit_code == 0, made.output
    path = tmp_path / "a.json"
    path.write_bytes(_late_and_bom(answer)[variant])
    result = invoke("validate", str(path))
    assert result.exit_code == 0, result.output
    assert "valid walkable-path answer" in result.stdout


def test_a_damaged_record_still_reaches_its_own_reader(tmp_path: Path) -> None:
    """A record that does not parse goes by the format tag among its first bytes, so its
    game's reader says where it is damaged."""
    new = tmp_path / "new.json"
    assert invoke("new", "gridblock", "-o", str(new)).exit_code == 0
    path = tmp_path / "cut.json"
    path.write_bytes(new.read_bytes()[:-20])
    result = invoke("validate", str(path))
    assert result.exit_code == 2
    assert "not valid JSON" in result.stderr and "line" in result.stderr


# -- 2: -o onto special files and standard output --------------------------------------------
def _read_fifo(path: Path) -> tuple[Any, list[bytes]]:
    """A thread reading the FIFO at ``path`` to its end; what it read."""
    import threading

    got: list[bytes] = []

    def read() -> None:
        with open(path, "rb") as f:
            got.append(f.read())

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    return thread, got


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="FIFOs (POSIX)")
@pytest.mark.parametrize(
    ("args", "start"),
    [(("new", "henning"), b'{\n  "format": "polytile/henning@1"'),
     (("render", "{record}"), b"<svg"),
     (("selfplay", "walkable", "--seed", "1"), b'{\n  "format": "polytile/walkable@1"')],
    ids=["new", "render", "selfplay"],
)  # fmt: skip
def test_o_onto_a_fifo_writes_through_it(
    tmp_path: Path, args: tuple[str, ...], start: bytes
) -> None:
    """A FIFO (or a device: ``-o /dev/null``) given as -o was replaced by a regular file
    renamed over it; it is now written in place, and stays what it was."""
    import os
    import stat

    record = tmp_path / "game.json"
    assert invoke("new", "henning", "-o", str(record)).exit_code == 0
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    thread, got = _read_fifo(fifo)
    result = invoke(*(a.format(record=record) for a in args), "-o", str(fifo))
    thread.join(20)
    assert result.exit_code == 0, result.output
    assert stat.S_ISFIFO(os.stat(fifo).st_mode), "the FIFO was replaced"
    assert got and got[0].startswith(start)


def test_character_devices_are_written_in_place() -> None:
    from polytile._files import output_kind, output_suffix

    assert output_kind("/dev/null") == "direct" and output_kind("-") == "stream"
    assert output_suffix("/dev/null", ".svg") == ".svg" and output_suffix("-", ".json") == ".json"
    assert output_suffix("/dev/null.png", ".svg") == ".png"


def test_a_socket_or_a_folder_as_o_is_refused(tmp_path: Path) -> None:
    import socket

    path = tmp_path / "sock"
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(path))
        result = invoke("new", "henning", "-o", str(path))
    finally:
        server.close()
    assert result.exit_code == 2
    assert "not a regular file: -o writes regular files, character devices" in result.stderr


@pytest.mark.parametrize(
    ("args", "start"),
    [(("new", "gridblock"), '{\n  "format": "polytile/gridblock@1"'),
     (("selfplay", "henning", "--seed", "7"), '{\n  "format": "polytile/henning@1"'),
     (("render", "{record}"), "<svg"),
     (("render", "{tiling}"), "<?xml"),
     (("score", "{blokus}"), "<?xml"),
     (("solve", "pentomino-3x20", "--json"), '{\n  "format": "polytile/solution@1"')],
    ids=["new", "selfplay", "render-game", "render-tiling", "score-picture", "solve"],
)  # fmt: skip
@pytest.mark.parametrize("name", ["-", "/dev/stdout"])
def test_o_dash_is_standard_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...], start: str, name: str
) -> None:
    """-o - (and /dev/stdout) writes the file's content on standard output, in the kind the
    command writes by default for a name without a suffix (SVG for pictures); no file is
    made (one named '-' was, and /dev/stdout was refused)."""
    examples = Path(__file__).resolve().parents[1] / "examples"
    record = tmp_path / "game.json"
    assert invoke("new", "henning", "-o", str(record)).exit_code == 0
    monkeypatch.chdir(tmp_path)
    given = [a.format(record=record, tiling=examples / "pentomino-6x10.json",
                      blokus=examples / "blokus-opening.json") for a in args]  # fmt: skip
    result = invoke(*given, "-o", name)
    assert result.exit_code == 0, result.output
    assert start in result.stdout
    said = " to standard output\n" if name == "-" else f" {name}\n"
    assert said in result.stderr  # wrote to standard output, saved /dev/stdout
    assert not (tmp_path / "-").exists()


@pytest.mark.parametrize("args", [("solve", "pentomino-3x20"),
                                  ("solve", "pentomino-3x20", "--json")])  # fmt: skip
def test_o_dash_leaves_standard_output_to_the_file(args: tuple[str, ...]) -> None:
    """With -o -, standard output holds the file alone: the report a command prints (the
    picture, --json) goes to standard error (issue 36, item 2)."""
    result = invoke(*args, "--no-color", "-o", "-")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["format"] == "polytile/solution@1"  # the file, whole
    assert "saved to standard output" in result.stderr
    assert result.stderr.count("\n") > 2  # and the report


# -- Ctrl-C of a view analysis: a flag the work polls, no traceback -------------------------
def test_a_first_ctrl_c_asks_a_stop_and_a_second_interrupts() -> None:
    """A first Ctrl-C only sets the flag the work polls (a KeyboardInterrupt raised by the
    signal could land in the process pool's own callbacks, which print a traceback and lose
    it); a second one interrupts at once; afterwards Ctrl-C is as it was.

    The signals are raised in this thread (``raise_signal``), whose handler runs before the
    call returns: a signal sent to the process may be taken by another thread (one a test
    before left running), and then the main thread hears of it only when it next wakes. And
    Ctrl-C starts at its default here, whatever a test before left it at."""
    import signal

    from polytile.solvers.parallel import ctrl_c_asks_stop

    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with ctrl_c_asks_stop() as asked:
            assert not asked.is_set()
            signal.raise_signal(signal.SIGINT)
            assert asked.is_set()
            with pytest.raises(KeyboardInterrupt):
                signal.raise_signal(signal.SIGINT)
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGINT, before)


def test_ctrl_c_of_a_view_analysis_keeps_what_it_solved(gridblock_split: Path) -> None:
    """Ctrl-C in the middle of a Gridblock view on its workers: exit 130, the combinations
    solved so far reported as stopped by Ctrl-C, and no traceback.

    The Ctrl-C is sent once the command's progress line says a first combination is solved
    (``POLYTILE_LOG_EVERY=0``: a line at every step), however long that takes; 200 of them
    take minutes, so the analysis is still under way."""
    import os
    import re
    import signal
    import subprocess
    import sys

    cmd = [sys.executable, "-m", "polytile", "solve-endgame", str(gridblock_split), "--move",
           "5", "--view", "--workers", "2", "--json"]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[1]), "POLYTILE_LOG_EVERY": "0"}
    # Ctrl-C at its default in the command, even when the tests run as a background job,
    # which starts with SIGINT ignored (then the command would take itself for a worker)
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env, preexec_fn=lambda: signal.signal(signal.SIGINT,
                                                                      signal.SIG_DFL))  # fmt: skip
    seen = []
    try:
        assert proc.stderr is not None
        for line in proc.stderr:  # blocks until the next line: an event, not a time
            seen.append(line)
            if re.match(r"solving hands: [1-9][\d,]* of 200 ", line):
                break
        else:
            pytest.fail(f"the analysis ended before solving a combination: {seen}")
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate()
    finally:
        proc.kill()
        proc.wait()
    err = "".join(seen) + err
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "Exception ignored" not in err, err
    answer = json.loads(out)
    assert answer["complete"] is False and answer["stopped_by"] == "interrupt", answer
    assert 1 <= answer["states"] < 200, answer


def test_a_sample_larger_than_the_states_says_it_repeats() -> None:
    """--samples 1000000 of 64 hand combinations was 'a seeded sample of 1,000,000' as if
    there were that many: it says the draws repeat."""
    from types import SimpleNamespace

    from polytile.faces.face import view_plan

    def plan(planned: int, consistent: int | None, complete: bool) -> str:
        ev = SimpleNamespace(planned=planned, complete=complete, states=3)
        return view_plan(SimpleNamespace(evaluation=ev, consistent=consistent))

    assert plan(1_000_000, 64, False) == ("a seeded sample of 1,000,000 (drawn with repeats: "
                                          "more draws than there are) to be solved exactly, 3 "
                                          "solved before the stop")  # fmt: skip
    assert plan(200, 5000, True) == "a seeded sample of 200, each solved exactly"
    assert plan(64, 64, True) == "every one solved exactly"
    assert plan(200, None, True) == "a seeded sample of 200, each solved exactly"
