"""The bridge from the commands to the games' faces: a console on click's ``echo``, and
the faces' option errors shown as click shows a bad option."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

import click

from polytile.errors import OptionError

__all__ = ["CONSOLE", "ClickConsole", "facing"]


class ClickConsole:
    """A :class:`~polytile.faces.face.Console` printing with ``click.echo``.

    Attributes
    ----------
    report_to_err
        True while a command writes its file to standard output (``-o -``): what it would
        print there (its report, a picture, ``--json``) goes to standard error instead, so
        that standard output holds the file alone.
    """

    report_to_err = False

    def out(self, text: str = "", *, nl: bool = True, color: bool | None = None) -> None:
        """Standard output (standard error while :attr:`report_to_err`)."""
        click.echo(text, nl=nl, color=color, err=self.report_to_err)

    def err(self, text: str) -> None:
        """A line on standard error."""
        click.echo(text, err=True)

    def progress(self, label: str, enabled: bool,
                 describe: Callable[[Any], str] | None = None,
                 ) -> AbstractContextManager[Callable[[Any], None] | None]:  # fmt: skip
        """The progress bar on standard error (:func:`polytile.cli.progress.progress_bar`)."""
        from polytile.cli.progress import progress_bar

        return progress_bar(label, enabled, describe)

    def search_progress(self, label: str, enabled: bool,
                        ) -> AbstractContextManager[Callable[[int, float], None]]:  # fmt: skip
        """A search's progress (:func:`polytile.cli.progress.search_progress`)."""
        from polytile.cli.progress import search_progress

        return search_progress(label, enabled)


#: The console every command gives the faces.
CONSOLE = ClickConsole()


@contextmanager
def facing() -> Iterator[None]:
    """Run a face's verb inside a command: an :class:`~polytile.errors.OptionError` becomes
    click's ``BadParameter`` (or ``UsageError`` when it names no option), so it is shown
    with the command's usage line and exit code 2."""
    try:
        yield
    except OptionError as exc:
        if exc.option is None:
            raise click.UsageError(exc.message) from None
        raise click.BadParameter(exc.message, param_hint=exc.option) from None
