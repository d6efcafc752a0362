"""What is being solved: one module per game (rules, moves, scoring) and the catalogue."""
