"""Render a demonstration headless: a folder of PNG frames, or one animated GIF.

    export_frames(run, "out/")        -> list of PNG paths (one per step, plus the set-up)
    export_gif(run, "ruling.gif")     -> the GIF's path

The GIF is encoded by Pillow (it replaced a hand-made GIF89a/LZW writer); PNG frames by pygame.
This lives in the UI package: it draws with the demonstration scene's painter.

Both outputs are written through `game.data.safe_io.write_file_atomic` (temporary file, fsync,
rename; never over a directory, device or FIFO, never through a symbolic link, an existing file
that is not a PNG/GIF only with `force`), and the paths are checked before anything is rendered:
a bad path is an `OutputError` naming it, at once.
"""

from __future__ import annotations

import io
import os

import numpy as np

from game.data.safe_io import (
    GIF_MAGICS,
    PNG_MAGIC,
    check_output_path,
    has_magic,
    output_folder,
    write_file_atomic,
)
from game.demos.runner import DemoRun

DEFAULT_SIZE = (1280, 760)


def _pygame():
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    if not pygame.display.get_init():
        pygame.display.init()
    if not pygame.font.get_init():
        pygame.font.init()
    if pygame.display.get_surface() is None:
        pygame.display.set_mode((1, 1))
    return pygame


def render_frames(run: DemoRun, size: tuple[int, int] = DEFAULT_SIZE):
    """Yield (index, surface) for every frame of the run."""
    pg = _pygame()
    from game.ui.scenes.demo import paint_frame

    surf = pg.Surface(size)
    renderer = None
    n = len(run.frames)
    for i in range(n):
        surf.fill((0, 0, 0))
        footer = f"spellfield demo {run.demo.demo.id}  -  frame {i + 1}/{n}"
        renderer = paint_frame(surf, run, i, renderer, footer=footer)
        yield i, surf


def _png_bytes(pg, surf, name: str = "frame.png") -> bytes:
    buf = io.BytesIO()
    pg.image.save(surf, buf, name)
    return buf.getvalue()


def export_frames(
    run: DemoRun, folder: str | os.PathLike[str], size: tuple[int, int] = DEFAULT_SIZE, force: bool = False
) -> list[str]:
    """One PNG per frame in `folder` (created if missing), each written atomically; an existing
    file of the same name is replaced only if it is a PNG, or with `force`. Every name is
    checked before anything is rendered. Raises `OutputError` naming the path."""
    out = output_folder(folder, "frames")
    names = [out / f"{run.demo.demo.id}_{i:02d}.png" for i in range(len(run.frames))]
    is_png = has_magic(PNG_MAGIC)
    for p in names:
        check_output_path(p, force=force, is_ours=is_png, what="PNG frame")
    pg = _pygame()
    paths = []
    for i, surf in render_frames(run, size):
        paths.append(
            str(write_file_atomic(names[i], _png_bytes(pg, surf), force=force, is_ours=is_png, what="PNG frame"))
        )
    return paths


def export_gif(
    run: DemoRun,
    path: str | os.PathLike[str],
    size: tuple[int, int] = DEFAULT_SIZE,
    seconds_per_frame: float = 3.0,
    force: bool = False,
) -> str:
    """Render the run and write it as one animated GIF (atomically; the path is checked before
    rendering). Raises `OutputError` naming the path."""
    check_output_path(path, force=force, is_ours=has_magic(*GIF_MAGICS), what="GIF")
    pg = _pygame()
    rgb = [pg.surfarray.array3d(surf).swapaxes(0, 1).copy() for _, surf in render_frames(run, size)]
    write_gif(path, rgb, delay_cs=int(seconds_per_frame * 100), force=force)
    return str(path)


# --- GIF writing ------------------------------------------------------------------------------


def gif_bytes(frames: list[np.ndarray], delay_cs: int = 300) -> bytes:
    """An animated GIF of RGB frames (height x width x 3, uint8), every frame `delay_cs`
    hundredths of a second, looping; encoded by Pillow (one adaptive palette per frame)."""
    from PIL import Image

    if not frames:
        raise ValueError("a GIF needs at least one frame")
    images = [
        Image.fromarray(f, "RGB").quantize(colors=255, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
        for f in frames
    ]
    buf = io.BytesIO()
    images[0].save(
        buf,
        format="GIF",
        save_all=True,
        append_images=images[1:],
        duration=delay_cs * 10,
        loop=0,
        disposal=1,
        optimize=False,
    )
    return buf.getvalue()


def write_gif(path: str | os.PathLike[str], frames: list[np.ndarray], delay_cs: int = 300, force: bool = False) -> None:
    """Write `frames` as an animated GIF at `path`, atomically, with the output guards."""
    write_file_atomic(path, gif_bytes(frames, delay_cs), force=force, is_ours=has_magic(*GIF_MAGICS), what="GIF")
