"""``polytile serve``: the web board on this machine (:mod:`polytile.serve`)."""

from __future__ import annotations

import logging

import click

__all__ = ["COMMANDS", "serve_command"]

#: The port the board listens on unless told otherwise.
DEFAULT_PORT = 8766


@click.command(
    "serve",
    help="""Show game records and positions on a web board in the browser.

Each FILE is a game record or position of any game polytile plays (Blokus .blksgf and
positions, City Blocks of both designers, Gridblock, Walkable Cities), read and checked by
its game as 'polytile render' reads it, or a puzzle set (STORE.db, as 'polytile generate'
writes it); more records can be uploaded from the page. The page shows
the board drawn by the game's own picture, the move list (step with the buttons, the arrow
keys or a click on a move), the score and the legal moves of the player to move. A move
typed or picked from the list is checked by the rules; one played before a record's end
starts a variation, kept in memory (the files are never written) and downloadable in the
game's own format. An analysis (the game's 'solve-endgame', with its --open and --view
where it has them) runs in a separate process with the time limit set on the page, and can
be stopped. A puzzle set lists its puzzles (filtered by kind and difficulty), shows one
as 'polytile puzzles show' does (a picture for tiling puzzles and teasers) and reveals its
solution once the rules have checked it.

The server listens on 127.0.0.1 unless --host says otherwise, and answers only requests
that carry the secret token of the URL it prints (a new one each run) and address it by
its own name, so another web page cannot drive it; the first load moves the token into a
cookie, out of the address bar, and a page of another origin can change nothing even with
the token. Ctrl-C stops it and every analysis.

\b
Exit codes:
  0  stopped with Ctrl-C
  2  a file that is not a game's, or the port is taken

\b
Examples:
  polytile selfplay blokus --variant duo --seed 3 -o duo.blksgf
  polytile serve duo.blksgf --open
  polytile serve henning.json grid.json --port 9000
  polytile serve puzzles.db
""",
)
@click.argument("files", nargs=-1, type=click.Path(exists=True, dir_okay=False),
                metavar="[FILE | STORE.db]...")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on (another than 127.0.0.1 lets other machines "
                   "reach the board: they still need the token).")  # fmt: skip
@click.option("--port", type=click.IntRange(0, 65535), default=DEFAULT_PORT, show_default=True,
              help="The port to listen on (0: any free one).")  # fmt: skip
@click.option("--open", "open_browser", is_flag=True,
              help="Open the board in the web browser once it is listening.")  # fmt: skip
def serve_command(files: tuple[str, ...], host: str, port: int, open_browser: bool) -> None:
    """Serve ``files`` on the web board until Ctrl-C."""
    try:
        from polytile.serve.app import make_app
    except ImportError as exc:  # pragma: no cover - aiohttp missing
        raise click.UsageError(f"the web board needs aiohttp ({exc}): pip install "
                               "'polytile[serve]'") from None  # fmt: skip
    from polytile.serve.board import Board
    from polytile.serve.store import Shelf

    board, shelf = Board(), Shelf()
    for file in files:
        if file.lower().endswith(".db"):
            shelf.add(file)  # not a store: exit 2, with SQLite's or the store's message
        else:
            board.add_file(file)  # FormatError: exit 2, with the game's message
    app = make_app(board, host=host, shelf=shelf)
    import asyncio
    import contextlib

    logging.getLogger("aiohttp.server").addFilter(_one_line)

    with contextlib.suppress(KeyboardInterrupt, SystemExit):  # Ctrl-C: the runner stopped
        asyncio.run(_serve(app, host, port, open_browser))
    click.echo("polytile serve: stopped", err=True)


def _one_line(record: logging.LogRecord) -> bool:
    """aiohttp logs a request it cannot parse (no Host header, a bad request line) with its
    parser's traceback, which read as a crash on the server's terminal: one line says it.
    The client gets its 400 either way."""
    from aiohttp.http_exceptions import HttpProcessingError

    exc = record.exc_info[1] if record.exc_info else None
    if isinstance(exc, HttpProcessingError):
        why = " ".join(str(exc.message).split())
        record.msg, record.args = f"polytile serve: refused a malformed request: {why}", ()
        record.exc_info, record.exc_text = None, None
    return True


async def _serve(app: object, host: str, port: int, open_browser: bool) -> None:
    import asyncio
    import errno

    from aiohttp import web

    from polytile.serve.app import TOKEN

    assert isinstance(app, web.Application)
    runner = web.AppRunner(app, access_log=None, handle_signals=True)
    await runner.setup()
    try:
        site = web.TCPSite(runner, host, port)
        try:
            await site.start()
        except OSError as exc:
            why = exc.strerror or str(exc)
            if exc.errno in (errno.EADDRINUSE, errno.EACCES):  # the port's fault
                why = "is in use" if exc.errno == errno.EADDRINUSE else f"cannot be used: {why}"
                raise click.BadParameter(f"{host}:{port} {why}; choose another with --port "
                                         "(0: any free one)", param_hint="--port") from None
            # a name that does not resolve (getaddrinfo's negative errno), an address of no
            # interface here: the host's fault, not the port's
            raise click.BadParameter(f"{host}:{port} cannot be used: {why}; --host takes an "
                                     "address of this machine or a name that resolves to "
                                     "one (127.0.0.1 by default)", param_hint="--host") from None
        bound = runner.addresses[0][1]
        name = f"[{host}]" if ":" in host else host
        if host in ("", "0.0.0.0", "::"):
            name = "127.0.0.1"
            click.echo(f"polytile serve: listening on every address ({host}); the page "
                       "answers only when reached as 127.0.0.1 or localhost", err=True)  # fmt: skip
        url = f"http://{name}:{bound}/?token={app[TOKEN]}"
        click.echo(url)
        click.echo("polytile serve: open that URL in a browser; Ctrl-C stops the board",
                   err=True)  # fmt: skip
        if open_browser:
            import webbrowser

            webbrowser.open(url)
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()


COMMANDS = [serve_command]
