"""One module per Dungeon Foury campaign: its rules class (the base game is rules.steps.FouryRules)."""
