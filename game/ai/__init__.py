"""Bots. They depend on game.rules only and never touch the game's dice."""
