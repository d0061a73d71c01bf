"""Scenes: Menu, NewGame, Load, Replays (menus on pygame-gui), Battle (hotseat and bot demo), Replay."""
