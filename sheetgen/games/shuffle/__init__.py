"""Shuffle Dungeons rules (seed 002): `engine` (state + action -> new state or
Forbidden) and `actions` (play-log action syntax -> engine Actions)."""
