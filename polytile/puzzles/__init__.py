"""What is being solved: one module per game (rules, positions, moves, scoring) and the catalogue."""
