"""Card-grid dungeon navigation rules (seed 000): `engine` (state + action ->
new state or Forbidden) and `actions` (play-log action syntax -> engine Actions)."""
