"""Walkable Cities: simultaneous drops of tetromino pieces split over three boards
(rules: ``seeds/walkable-cities.md``)."""
