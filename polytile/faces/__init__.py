"""The face layer: the contract every game implements and every front end calls.

- :mod:`~polytile.faces.base`: where a verb prints, the clock, options as data, a request;
- :mod:`~polytile.faces.face`: :class:`~polytile.faces.face.Face` and its verbs;
- :mod:`~polytile.faces.registry`: game name -> face, file -> game, puzzle name -> solver;
- :mod:`~polytile.faces.puzzle`: the one-player puzzles' contract;
- :mod:`~polytile.faces.analysis`, :mod:`~polytile.faces.bounds`, :mod:`~polytile.faces.view`,
  :mod:`~polytile.faces.at_once`: the optional parts of a face;
- :mod:`~polytile.faces.moves`, :mod:`~polytile.faces.move_cells`: moves written as text and
  the cells they cover.

The games live in :mod:`polytile.puzzles`, one package each; nothing here imports one (the
registry names them as strings).
"""
