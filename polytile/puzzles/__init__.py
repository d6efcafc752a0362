"""What is being solved: one package per game (rules, moves, scoring, its face) and the
catalogue; the face contract they implement is :mod:`polytile.faces`."""
