"""``polytile serve``: the local web board, on the games' faces.

:mod:`~polytile.serve.board` holds the records and reads every position through its game's
face; :mod:`~polytile.serve.app` is the aiohttp server (the token, the ``Host`` check, the
routes) and :mod:`~polytile.serve.analysis` runs ``solve-endgame`` in worker processes. The
page (``static/``: one HTML file, one script, one style sheet) ships in the package: no build
step and nothing fetched from elsewhere, so it works offline.
"""

from __future__ import annotations

__all__: list[str] = []
