"""How a position becomes a formulation: exact-cover items and options, CP-SAT builders."""
