"""Rule demonstrations (issue 8): data files under maps/demos/, played through the engine.

schema.py    the file format (pydantic)
loader.py    find, read and validate demonstration files
runner.py    play one through `State.apply()`, checking its expected outcome
geometry.py  the rings, lines and paths each frame shows (pure data)
exporter.py  headless frames: PNG files or an animated GIF (pygame; no other dependency)
"""

from game.demos.loader import list_demos, load_all, load_demo
from game.demos.runner import DemoMismatch, DemoRun, Frame, run_demo

__all__ = ["list_demos", "load_all", "load_demo", "run_demo", "DemoRun", "DemoMismatch", "Frame"]
