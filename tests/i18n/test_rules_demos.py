"""Issue 22, domain "rules": a demonstration run in Korean or Japanese has its title, captions,
labels and measured lines in that language; English runs are unchanged; a GIF exports in Korean."""

from __future__ import annotations

import pytest
from i18n_rulewords import english_words

from game import i18n
from game.demos import list_demos, load_demo, run_demo


@pytest.fixture
def lang(request):
    i18n.set_language(request.param)
    yield request.param
    i18n.set_language("en")


def _shown_lines(run) -> list[str]:
    out = [run.demo.demo.title]
    for f in run.frames:
        caption = f.caption
        if f.refused:  # the engine's own reason is the engine domain's: leave it out here
            caption = caption.split("\n")[0]
        out.append(caption)
        # "cannot be placed: {reason}": the reason is the engine's event text (engine domain)
        placed = i18n._("cannot be placed: {reason}").split("{reason}")[0]
        out += [n.split(placed)[0] if placed in n else n for n in f.geometry.notes]
        out += [
            x.label for x in (*f.geometry.rings, *f.geometry.lines, *f.geometry.paths, *f.geometry.outlines) if x.label
        ]
    return out


@pytest.mark.parametrize("lang", ["ko", "ja"], indirect=True)
def test_every_demo_reads_without_english(lang):
    problems = []
    for name in list_demos():
        run = run_demo(load_demo(name))
        assert run.ok, run.problems
        for line in _shown_lines(run):
            if english_words(line):
                problems.append(f"{name}: {line!r}: {english_words(line)}")
    assert not problems, "\n".join(problems[:20])


def test_english_demo_captions_unchanged():
    demo = load_demo("m3_miscast")
    run = run_demo(demo)
    assert run.demo is demo
    assert run.frames[1].caption.startswith(demo.step[0].caption)


@pytest.mark.parametrize("lang", ["ko"], indirect=True)
def test_gif_export_in_korean(lang, tmp_path):
    pytest.importorskip("pygame")
    from PIL import Image

    from game.ui.export import export_gif

    run = run_demo(load_demo("m3_miscast"))
    out = export_gif(run, tmp_path / "m3_ko.gif", (640, 400))
    with Image.open(out) as im:
        assert im.format == "GIF" and im.n_frames == len(run.frames)
