"""Render a demonstration headless: a folder of PNG frames, or one animated GIF.

    export_frames(run, "out/")        -> list of PNG paths (one per step, plus the set-up)
    export_gif(run, "ruling.gif")     -> the GIF's path

The GIF is written here (GIF89a, LZW, one global palette), so no imaging library is needed:
the palette keeps the picture's most frequent colours exactly (cloth, panels, rings, text) and
maps the rest (anti-aliased edges) to a 5x5x5 colour cube.

Both outputs are written through `game.data.safe_io.write_file_atomic` (temporary file, fsync,
rename; never over a directory, device or FIFO, never through a symbolic link, an existing file
that is not a PNG/GIF only with `force`), and the paths are checked before anything is rendered:
a bad path is an `OutputError` naming it, at once.
"""

from __future__ import annotations

import io
import os
import stat
import struct
from pathlib import Path

import numpy as np

from game.data.safe_io import (
    GIF_MAGICS,
    PNG_MAGIC,
    OutputError,
    check_output_path,
    describe_os_error,
    has_magic,
    kind_of,
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


def _frames_folder(folder: str | os.PathLike[str]) -> Path:
    """The folder for `--export-frames`, created if missing; OutputError if it cannot be one."""
    raw = os.fspath(folder)
    if raw == "":
        raise OutputError(raw, "the folder name for the frames is empty")
    out = Path(raw)
    try:
        st = os.stat(out)
    except FileNotFoundError:
        try:
            out.mkdir(parents=True, exist_ok=True)
        except FileExistsError:
            raise OutputError(raw, "cannot create the folder: a part of it is a file, or a dangling link") from None
        except NotADirectoryError:
            raise OutputError(raw, "cannot create the folder: a part of it is a file, not a folder") from None
        except OSError as exc:
            raise OutputError(raw, f"cannot create the folder: {describe_os_error(exc)}", exc.errno) from None
    except NotADirectoryError:
        raise OutputError(raw, "a part of the path is a file, not a folder") from None
    except OSError as exc:
        raise OutputError(raw, f"cannot use the folder: {describe_os_error(exc, out)}", exc.errno) from None
    else:
        if not stat.S_ISDIR(st.st_mode):
            raise OutputError(raw, f"is {kind_of(st.st_mode)}, not a folder for the frames")
    return out


def export_frames(run: DemoRun, folder: str | os.PathLike[str], size: tuple[int, int] = DEFAULT_SIZE,
                  force: bool = False) -> list[str]:
    """One PNG per frame in `folder` (created if missing), each written atomically; an existing
    file of the same name is replaced only if it is a PNG, or with `force`. Every name is
    checked before anything is rendered. Raises `OutputError` naming the path."""
    out = _frames_folder(folder)
    names = [out / f"{run.demo.demo.id}_{i:02d}.png" for i in range(len(run.frames))]
    is_png = has_magic(PNG_MAGIC)
    for p in names:
        check_output_path(p, force=force, is_ours=is_png, what="PNG frame")
    pg = _pygame()
    paths = []
    for i, surf in render_frames(run, size):
        paths.append(str(write_file_atomic(names[i], _png_bytes(pg, surf), force=force, is_ours=is_png,
                                           what="PNG frame")))
    return paths


def export_gif(run: DemoRun, path: str | os.PathLike[str], size: tuple[int, int] = DEFAULT_SIZE,
               seconds_per_frame: float = 3.0, force: bool = False) -> str:
    """Render the run and write it as one animated GIF (atomically; the path is checked before
    rendering). Raises `OutputError` naming the path."""
    check_output_path(path, force=force, is_ours=has_magic(*GIF_MAGICS), what="GIF")
    pg = _pygame()
    rgb = [pg.surfarray.array3d(surf).swapaxes(0, 1).copy() for _, surf in render_frames(run, size)]
    write_gif(path, rgb, delay_cs=int(seconds_per_frame * 100), force=force)
    return str(path)


# --- GIF writing ------------------------------------------------------------------------------


def _palette(frames: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """(palette as 256x3 uint8, sorted packed keys of the exact colours)."""
    packed = np.concatenate([(f[..., 0].astype(np.int64) << 16 | f[..., 1].astype(np.int64) << 8 | f[..., 2]).ravel()
                             for f in frames])
    keys, counts = np.unique(packed, return_counts=True)
    exact = keys[np.argsort(-counts)[:131]]
    exact.sort()
    lv = np.array([0, 64, 128, 192, 255])
    cube = np.array([(r, g, b) for r in lv for g in lv for b in lv], dtype=np.int64)
    pal = np.zeros((256, 3), dtype=np.uint8)
    pal[: len(exact)] = np.stack([(exact >> 16) & 255, (exact >> 8) & 255, exact & 255], axis=1)
    pal[131:256] = cube
    return pal, exact


def _indices(frame: np.ndarray, exact: np.ndarray) -> np.ndarray:
    packed = (frame[..., 0].astype(np.int64) << 16 | frame[..., 1].astype(np.int64) << 8 | frame[..., 2]).ravel()
    pos = np.clip(np.searchsorted(exact, packed), 0, len(exact) - 1)
    hit = exact[pos] == packed
    q = np.clip((frame.reshape(-1, 3).astype(np.int64) + 32) // 64, 0, 4)
    cube_idx = 131 + q[:, 0] * 25 + q[:, 1] * 5 + q[:, 2]
    return np.where(hit, pos, cube_idx).astype(np.uint8)


def _lzw(data: bytes, min_size: int = 8) -> bytes:
    """GIF LZW compression of palette indices."""
    clear, end = 1 << min_size, (1 << min_size) + 1
    out = bytearray()
    bits = 0
    nbits = 0
    size = min_size + 1

    def emit(code: int) -> None:
        nonlocal bits, nbits
        bits |= code << nbits
        nbits += size
        while nbits >= 8:
            out.append(bits & 255)
            bits >>= 8
            nbits -= 8

    table: dict[int, int] = {}
    nxt = end + 1
    emit(clear)
    if not data:
        emit(end)
        if nbits:
            out.append(bits & 255)
        return bytes(out)
    prefix = data[0]
    for c in data[1:]:
        key = prefix << 8 | c
        code = table.get(key)
        if code is not None:
            prefix = code
            continue
        emit(prefix)
        if nxt < 4096:
            table[key] = nxt
            nxt += 1
            if nxt > (1 << size) and size < 12:
                size += 1
        else:
            emit(clear)
            table.clear()
            nxt = end + 1
            size = min_size + 1
        prefix = c
    emit(prefix)
    emit(end)
    if nbits:
        out.append(bits & 255)
    return bytes(out)


def _blocks(data: bytes) -> bytes:
    out = bytearray()
    for i in range(0, len(data), 255):
        chunk = data[i:i + 255]
        out.append(len(chunk))
        out += chunk
    out.append(0)
    return bytes(out)


def write_gif(path: str | os.PathLike[str], frames: list[np.ndarray], delay_cs: int = 300, force: bool = False) -> None:
    """Write RGB frames (H x W x 3 uint8, all one size) as a looping animated GIF, atomically
    (`game.data.safe_io.write_file_atomic`; an existing non-GIF file only with `force`)."""
    if not frames:
        raise ValueError("no frames to write")
    h, w = frames[0].shape[:2]
    pal, exact = _palette(frames)
    out = bytearray(b"GIF89a")
    out += struct.pack("<HHBBB", w, h, 0xF7, 0, 0)  # global colour table, 256 entries
    out += pal.tobytes()
    out += b"\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"  # loop forever
    for f in frames:
        out += struct.pack("<BBBBHBB", 0x21, 0xF9, 4, 0x04, delay_cs, 0, 0)  # graphic control
        out += struct.pack("<BHHHHB", 0x2C, 0, 0, w, h, 0)  # image descriptor
        out.append(8)
        out += _blocks(_lzw(_indices(f, exact).tobytes()))
    out.append(0x3B)
    write_file_atomic(path, bytes(out), force=force, is_ours=has_magic(*GIF_MAGICS), what="GIF")
