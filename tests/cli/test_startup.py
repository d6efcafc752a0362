"""Start-up (#18 item 3): a command imports only what it uses.

Each check runs ``polytile`` in a fresh interpreter and lists the heavy libraries (and command
modules) found in ``sys.modules`` at the end: what was imported, not how long it took (tests
never time anything; ``benchmarks/bench_startup.py`` does).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import click
import pytest

from polytile.cli import COMMANDS, cli

from .helpers import EXAMPLES

HEAVY = ("ortools", "networkx", "rich", "dask", "numba", "scipy")

# main() ends the process itself, after the atexit handlers: the list is printed by one
_PROBE = """
import atexit, json, sys
atexit.register(lambda: print("\\n" + json.dumps(sorted(sys.modules)), file=sys.stderr))
from polytile.cli import main
sys.argv = ["polytile", *json.loads(sys.argv[1])]
main()
"""


def loaded(*args: str) -> set[str]:
    """The modules imported by ``polytile ARGS`` in a fresh interpreter."""
    out = subprocess.run([sys.executable, "-c", _PROBE, json.dumps(args)], capture_output=True,
                         text=True, timeout=300, check=False)  # fmt: skip
    return set(json.loads(out.stderr.strip().splitlines()[-1]))


def heavy(modules: set[str]) -> set[str]:
    return {m.split(".")[0] for m in modules} & set(HEAVY)


def test_importing_the_cli_imports_no_heavy_library() -> None:
    code = "import json, sys, polytile.cli; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=300)  # fmt: skip
    modules = set(json.loads(out.stdout))
    assert heavy(modules) == set()
    assert "numpy" not in modules


def test_help_imports_no_command_module_and_no_heavy_library() -> None:
    modules = loaded("--help")
    assert heavy(modules) == set() and "numpy" not in modules
    commands = {target.partition(":")[0] for target, _ in COMMANDS.values()}
    assert commands.isdisjoint(modules)


def test_validate_imports_no_heavy_library() -> None:
    modules = loaded("validate", str(EXAMPLES / "pentomino-6x10.json"))
    assert heavy(modules) == set()


def test_score_imports_no_heavy_library(tmp_path: Path) -> None:
    from polytile.formats import save

    from .test_score import finished_game

    path = tmp_path / "game.json"
    save(finished_game().to_position(), path)
    assert heavy(loaded("score", str(path), "--no-color")) == set()


def test_blokus_endgame_imports_only_blokus_kernels() -> None:
    modules = loaded("solve-endgame", str(EXAMPLES / "duo-endgame.blksgf"), "--no-color")
    assert heavy(modules) <= {"numba", "scipy"}  # numba loads scipy's BLAS itself
    other_games = ("henning", "gridblock", "walkable", "cityblocks")
    assert not [m for m in modules if m.startswith("polytile.puzzles.") and
                m.split(".")[2] in other_games]  # fmt: skip
    assert "polytile.solvers.bitboard" not in modules


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_listed_summary_is_the_commands_own_short_help(name: str) -> None:
    """``polytile --help`` lists each command from COMMANDS without importing it: the summary
    kept there must shorten exactly as the command's own help does."""
    ctx = click.Context(cli)
    command = cli.get_command(ctx, name)
    assert command is not None and command.name == name
    stand_in = click.Command(name, help=COMMANDS[name][1])
    for limit in (30, 45, 60, 80, 200):
        assert stand_in.get_short_help_str(limit) == command.get_short_help_str(limit)


def test_help_lists_every_command(invoke) -> None:  # type: ignore[no-untyped-def]
    result = invoke("--help")
    assert result.exit_code == 0
    listed = result.stdout.split("Commands:")[1]
    for name in COMMANDS:
        assert f"  {name} " in listed
