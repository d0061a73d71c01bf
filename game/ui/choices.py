"""What the set-up screens offer: each choice's id, display name and one-line description.

The names and descriptions come from the content (a map's and an army's `name` and
`description`, a rules profile's title and description); the AI levels are described here
(README: what each level does). No id reaches the screen: the forms show `Choice.name`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from game.content_words import content_name as cn
from game.i18n import N_, _, ngettext


@dataclass(frozen=True)
class Choice:
    id: str
    name: str
    description: str = ""
    own: bool = False  # the player's own (a map from their maps folder or a pack): marked so in the form
    problem: str = ""  # why it cannot be chosen for a game (a saved army list that breaks a rule)


# Easiest first; "normal" is the default level.
LEVELS = [
    # one line each on how the level plays from turn one (issue 25)
    Choice("random", N_("Random"), N_("moves and casts at random: a sandbox")),
    Choice("normal", N_("Normal"), N_("keeps its casters behind its line, weighs the odds of every cast")),
    Choice(
        "hard",
        N_("Hard"),
        N_("plays like Normal, but tries its casting, moves, charges and unbinds ahead on copies of the game"),
    ),
]


def maps(current: str | None = None) -> list[Choice]:
    """The shipped maps and the player's own (game.data.library), and `current` if it is a map
    file of the player's own given as a path (--map PATH)."""
    from game.data import library
    from game.data.content import list_maps, load_map

    lib = library.active()
    shipped = set(list_maps())
    out = []
    ids = list(lib.maps)
    if current and current not in ids:
        ids = [*ids, current]
    for i in ids:
        try:
            m = lib.maps[i] if i in lib.maps else load_map(i)
        except Exception:  # a broken map file of the player's: offer it by its file name
            out.append(Choice(i, Path(i).stem.replace("_", " "), N_("this map file cannot be read")))
            continue
        own = i not in shipped
        out.append(Choice(i, cn(m.name), cn(m.description) or (N_("a map of your own") if own else ""), own=own))
    return out


def armies() -> list[Choice]:
    """The shipped armies and the packs' by name, then the player's saved lists (game.data.army_lists),
    marked as theirs with their points; a list that breaks a rule, or whose file cannot be read,
    is offered with the reason it cannot be played (`Choice.problem`)."""
    from game.data import army_lists, library

    lib = library.active()
    found, own = [], []
    for a in lib.content.armies.values():
        source = lib.content.sources.get(f"army:{a.id}", "")
        if not source.startswith(army_lists.ARMIES_FOLDER + "/"):  # built-in, or a pack's (marked as theirs)
            found.append(Choice(a.id, cn(a.name), cn(a.description), own=not source.startswith("game/content/")))
            continue
        points = army_lists.points_total(lib.content, a)
        problems = army_lists.list_problems(lib.content, a)
        name = _("{name} (your list, {points} points)").format(name=a.name, points=points)
        if problems:
            why = problems[0].say(_)
            own.append(Choice(a.id, name, _("Cannot be played: {problem}").format(problem=why), problem=why))
        else:
            words = ngettext("Your own list: {n} unit, {points} of {limit} points",
                             "Your own list: {n} units, {points} of {limit} points", len(a.units))  # fmt: skip
            own.append(Choice(a.id, name, words.format(n=len(a.units), points=points, limit=a.points_limit)))
    # a saved list the library left out (a broken file): offered by its file's name, with why
    broken: dict[str, str] = {}
    for p in lib.problems:
        label = p.split(": ", 1)[0]
        if label.startswith(army_lists.ARMIES_FOLDER + "/"):
            broken.setdefault(label, p)
    for label, p in broken.items():
        stem = Path(label).stem.replace("_", " ")
        name = _("{name} (your list, cannot be read)").format(name=stem)
        own.append(Choice("file:" + label, name, _("Cannot be played: {problem}").format(problem=p), problem=p))
    return sorted(found, key=lambda c: c.name) + sorted(own, key=lambda c: c.name)


def profiles() -> list[Choice]:
    """The rules profiles, the default first."""
    from game.rules import query

    return [Choice(name, title, desc) for name, title, desc in query.profile_choices()]


def by_id(options: list[Choice], choice_id: str) -> Choice:
    """The option with `choice_id` (the first option if none has it)."""
    return next((c for c in options if c.id == choice_id), options[0])


def label(c: Choice) -> str:
    """The name the form shows, in the language in use (a content name the catalogues do not
    have stays as it is)."""
    name = _(c.name) if c.name else c.name
    return _("{name} (yours)").format(name=name) if c.own else name


def description(c: Choice) -> str:
    """The one-line description the form shows, in the language in use."""
    return _(c.description) if c.description else ""


def by_name(options: list[Choice], name: str) -> Choice | None:
    """The option shown as `name` (in the language in use, or its English name)."""
    return next((c for c in options if label(c) == name), None) or next((c for c in options if c.name == name), None)
