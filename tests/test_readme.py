"""The README's promises: its test command is what CI runs, its Python examples run."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _commands(text: str) -> list[str]:
    return re.findall(r"```sh\n(.*?)\n```", text, flags=re.S)


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    commands = _commands(readme)
    assert len(commands) == 2, "the quick start is exactly two commands"
    install_and_run, tests = commands
    assert "pip install" in install_and_run and "polytile " in install_and_run
    assert tests in ci.splitlines()


def test_readme_python_examples_run():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", readme, flags=re.S)
    assert blocks
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for i, block in enumerate(blocks):
        test = parser.get_doctest(block, {}, f"README[{i}]", "README.md", 0)
        runner.run(test)
    assert runner.failures == 0


def test_readme_blokus_moves_exist_in_its_selfplay_game(tmp_path):
    """The Blokus tour's ``--move N`` are moves of the game its ``selfplay`` line writes."""
    from click.testing import CliRunner

    from polytile.cli import cli

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    selfplay = re.search(r"^polytile (selfplay blokus [^#\n]*?-o) game\.blksgf", readme, re.M)
    assert selfplay is not None
    moves = {int(n) for n in re.findall(r"^polytile \S+ game\.blksgf --move (\d+)", readme, re.M)}
    assert moves
    record = tmp_path / "game.blksgf"
    runner = CliRunner()
    made = runner.invoke(cli, [*selfplay.group(1).split()[:-1], "-o", str(record)])
    assert made.exit_code == 0, made.output
    for n in sorted(moves):
        shown = runner.invoke(cli, ["render", str(record), "--move", str(n), "--no-color"])
        assert shown.exit_code == 0, (n, shown.output)
