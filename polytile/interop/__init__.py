"""Bridges from polytile to other game frameworks (optional extras)."""

from __future__ import annotations
