"""Engines that run formulations: the compiled exact-cover kernel, CP-SAT, parallel runs."""
