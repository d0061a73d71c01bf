"""The engine's messages in the player's language (issue 22, domain "engine").

The engine never translates: its messages (``State.explain`` reasons, ``IllegalActionError.message``,
``Unavailable.message``, move problems) stay English, byte for byte. Most of them are
``game.rules.Problem`` strings carrying a ``code``, a ``rule`` and the ``facts`` (fields) the text
was made from; a thing they name is a ``Named`` string carrying its id. Here each code has its
English templates (marked for the catalogue); `engine_text` picks the template that makes exactly
the engine's English text from those fields, and words the same fields in the language in use.

A plain string (an event's reason read back from a save, an older message) is matched against
every template as a pattern; a message no template makes stays as the engine wrote it, so a
reworded engine message shows in English rather than wrongly, and nothing here ever raises.
"""

from __future__ import annotations

import re
import string
from typing import Any

from game.i18n import N_, PHASE_WORDS, _, language

#: code -> the English templates of its messages (str.format fields: the message's facts; {rule}
#: is its rule ID). The English text of a message is exactly one of them, filled in.
TEMPLATES: dict[str, tuple[str, ...]] = {
    # M1-M9, R1: casting, prayers and their allowances
    "wrong_phase": (
        N_("you can only {verb} in your hero phase, not the {phase} phase"),
        N_("units move in the movement phase, not the {phase} phase"),
        N_("units charge in the charge phase, not the {phase} phase"),
        N_("units shoot in the shooting phase, not the {phase} phase"),
    ),
    "miscast": (N_("{unit} miscast this phase and can cast no more spells (M3)"),),
    "power_spent": (
        N_("{unit} has used {used} of its {allowed} spells, prayers and banishes this phase (M1)"),
        N_(
            "{unit} has used {used} of its {allowed} spells, prayers and banishes this phase, "
            "less {penalty} for dispelling (E3) (M1)"
        ),
    ),
    "rule_of_one": (N_("{unit} has already used {ability} this phase (R1)"),),
    "once_per_turn": (N_("{ability} has already been attempted by a {kind} of player {player}'s army this turn (M7)"),),
    "unbinds_spent": (
        N_("{unit} has used {used} unbinds this phase (M6)"),
        N_("{unit} has used {used} unbinds this phase, less {penalty} for dispelling (E3) (M6)"),
    ),
    "out_of_range": (
        N_('{unit} model {model} is {distance:.2f}" from the caster {caster}; unbinding reaches {reach:g}" (M6)'),
        N_('{target} is {distance:.2f}" from {unit} model {model}; {ability} reaches {reach:g}" (G1)'),
        N_('{target} is {distance:.2f}" from {unit} model {model}; the limit is {limit:g}" ({rule})'),
        N_('{target} is {distance:.2f}" from {unit}; its longest range is {reach:g}" (G1)'),
    ),
    "not_a_caster": (N_("{unit} is not a {kinds}, so it cannot {verb} (M8)"),),
    "not_known": (N_("{unit} does not know {ability}: it is on neither its warscroll nor its army's lores (M8)"),),
    "bad_target": (
        N_("{ability} cannot pick manifestation {target} (M10)"),
        N_("{ability} must target {side} unit; {target} is not"),
    ),
    "needs_target": (N_("{ability} needs a target"),),
    "self_only": (N_("{ability} can only affect its user"),),
    "manifestation_immune": (
        N_("endless spells cannot be picked by abilities in this profile (E1)"),
        N_("{unit} is an {kind}: in this profile it does not move like a unit (E1)"),
    ),
    "no_target": (
        N_("{ability} takes no target"),
        N_("{ability} has no target on the battlefield now (M8)"),
        N_('no visible enemy within {reach:g}" of {unit} (R4)'),
    ),
    "not_visible": (
        N_("{target} is not visible to {unit} model {model} (G2)"),
        N_("{target} is not visible to {unit} (E3, G2)"),
    ),
    # E5, R2: the acting unit or thing itself
    "slain": (N_("{unit} has been destroyed"),),
    "bad_model": (N_("{unit} has no model {model} on the battlefield to {verb} from (E5)"),),
    "not_your_unit": (
        N_("{unit} belongs to player {player}"),
        N_("{unit} belongs to player {player}'s army"),
        N_("{unit!r} is not one of your units or manifestations"),
    ),
    "unknown_unit": (N_("there is no unit {unit!r}"), N_("there is no unit {unit!r} on the battlefield")),
    "unknown_target": (N_("there is no target {target!r} on the battlefield"),),
    "unknown_manifestation": (N_("there is no manifestation {target!r} on the battlefield"),),
    "unknown_ability": (N_("there is no {kind} {ability!r}"),),
    # E2, E3, M9: dispelling, summoning
    "no_banish": (N_("this profile dispels manifestations instead of banishing them (E3)"),),
    "not_banishable": (
        N_("{target} is an {kind}: in this profile only {kinds} can be banished; dispel it instead (E3)"),
    ),
    "not_dispellable": (N_("{target} is an {kind}: only endless spells can be dispelled (E3)"),),
    "dispelled": (N_("{unit} has already tried to dispel this phase (E3)"),),
    "dispel_twice": (N_("player {player} has already tried to dispel {target} this phase (E3)"),),
    "summoned_this_turn": (N_("player {player}'s army has already tried to summon {scroll} this turn (M9)"),),
    "removed_this_turn": (N_("{scroll} was removed this turn and cannot be summoned again this turn (M9)"),),
    "already_summoned": (N_("{scroll} is already on the battlefield (M9)"),),
    "summon_cap": (N_("{unit} has already summoned {cap} endless spell this hero phase (E2)"),),
    "bad_setup": (
        N_("{unit} cannot be set up there: {problems}"),
        N_("{scroll} cannot be set up at ({x:.2f}, {y:.2f}): {problems}"),
    ),
    # R1, R4, G4: moving, charging, shooting
    "cannot_move": (N_('{unit} has Move "-": it cannot move (M10)'),),
    "predatory": (
        N_("{unit} is PREDATORY: it moves only by the predatory procedure at the end of each hero phase (M10, E6)"),
    ),
    "moved": (N_("{unit} has already moved this phase (R1)"),),
    "in_combat": (
        N_("{unit} is in combat: it can only retreat (R4)"),
        N_("{unit} is in combat: it can only retreat, not make a normal move (R4)"),
        N_("{unit} is already in combat (R4)"),
    ),
    "not_in_combat": (N_("{unit} is not in combat, so it cannot retreat (R4)"),),
    "bad_move": (N_("{unit} cannot {verb} there: {problems}"),),
    "charged": (N_("{unit} has already charged this phase (R1)"),),
    "ran": (N_("{unit} ran this turn and cannot charge"), N_("{unit} ran this turn and cannot shoot")),
    "retreated": (
        N_("{unit} retreated this turn and cannot charge"),
        N_("{unit} retreated this turn and cannot shoot"),
    ),
    "wrong_unit": (N_("{unit} is charging, not {other}"),),
    "bad_charge": (N_("{unit} cannot end its charge there: {problems}"),),
    "shot": (N_("{unit} has already shot this phase (R1)"),),
    "no_ranged": (N_("{unit} has no ranged weapons"),),
    "no_shot": (
        N_(
            "no model of {unit} has {target} both within range "
            '({reach:g}"; closest {distance:.2f}") and visible (G1, G2)'
        ),
    ),
    "friendly": (N_("{target} is a friendly unit"),),
    # G3, G4, R4: one model's move or place (game.geometry, game.rules.formation)
    "too_far": (
        N_('model {model} would move {step:.2f}"; it may move {reach:.2f}" ({rule})'),
        N_('it would move {step:.2f}"; it may move {reach:.2f}" ({rule})'),
    ),
    "blocked": (
        N_('model {model}\'s path is blocked after {travelled:.2f}" by {what} (G4)'),
        N_("its path is blocked by {who} (G4)"),
        N_("its path is blocked by impassable terrain {terrain!r} (G4)"),
    ),
    "overlap_own": (N_('model {model} overlaps model {other} of its unit ({depth:.2f}" overlap) (G4)'),),
    "coherency": (N_('model {model} would be {near:.2f}" from the rest of its unit; coherency needs 1"'),),
    "combat": (
        N_('the unit would end {gap:.2f}" from the enemy, inside combat range (R4)'),
        N_('it would end {gap:.2f}" from the enemy, inside combat range (R4)'),
    ),
    "edge": (
        N_('touches the battlefield edge ({axis}={gap:.2f}" from the {side} edge, radius {radius:.2f}")'),
        N_('touches the battlefield edge (footprint reaches {gap:.2f}" from the {side} edge)'),
    ),
    "overlap_base": (N_('overlaps base {base} ({depth:.2f}" overlap)'),),
    "on_terrain": (N_("overlaps impassable terrain {terrain!r}"),),
    "on_manifestation": (N_("ends on manifestation {index}"),),
    # E6-E10: predatory endless spells (their messages carry no fields yet: matched as patterns)
    "off_battlefield": (N_('({x}, {y}) is not on the {width}" x {height}" battlefield; {thing} must stay on it (E9)'),),
    "out_of_reach": (
        N_(
            '({x}, {y}) is {distance}" from {thing} (measured from its footprint); '
            'it moves up to {move}" + {bonus}" = {reach}" (E9, E10)'
        ),
        N_('{target} is not within 3" of {unit} (R4)'),
    ),
    "outside_zone": (N_("{unit} model {model} would not be wholly within player {player}'s deployment zone"),),
    "not_eligible": (N_("player {player} cannot move {thing} now: {why} (E8)"),),
    "not_a_candidate": (N_("{unit} cannot control {thing}; choose one of {choices} (E7)"),),
    "cannot_fight": (N_("{unit} cannot fight now: it is not in combat, has no melee weapons or has fought (R4)"),),
    "game_over": (N_("the game is over; no more actions"),),
    "bad_player": (N_("first must be player 1 or 2, got {first}"),),
    "phase_ending": (N_("the {phase} phase is already ending"),),
    # R2: an action that does not answer the open decision
    "wrong_decision": (N_("{action} does not answer the open decision: player {player} must make a {kind} decision"),),
    "not_your_decision": (N_("player {asker} cannot act now: player {player} must make a {kind} decision"),),
    # M9: a summoned manifestation's set-up
    "not_within": (N_('not wholly within {reach}" of the summoning model (M9)'),),
    "near_enemy": (N_('{near}" from an enemy; must be more than {limit}" (M9)'),),
    "unseen_setup": (
        N_("not visible to the summoning model (M9, G2)"),
        N_("not visible to the summoning model: blocked by {names} (M9, G2)"),
    ),
    # E9: a predatory endless spell's point and footprint
    "bad_point": (N_("the point ({x}, {y}) is not a pair of finite numbers"),),
    "pred_blocked": (
        N_("would overlap a base of {unit} (E9)"),
        N_("would overlap impassable terrain {terrain!r} (E9)"),
        N_("would overlap {thing} (E9)"),
    ),
    # the engine's decision prompts (Decision.prompt: plain strings, matched as patterns)
    "prompt": (
        N_("try to dispel endless spells with your WIZARDs and PRIESTs, or pass (E3)"),
        N_("unbind {spell} cast by {caster} with a roll of {roll}, or let it through (M6)"),
        N_("pick a unit to pile in and fight, or pass (R4)"),
        N_("nothing: the game is over"),
        N_("adjust deployment, then end it"),
        N_("choose who takes the first turn of battle round {round}"),
        N_("act in the {phase} phase or end it"),
        N_('move {unit} up to {roll}" to end within ½" of an enemy, or give up the charge (R4)'),
        N_(
            "bank the roll of {roll} as ritual points, or spend: "
            "{roll} + {points} points against {prayer}'s {value} (M5)"
        ),
        N_("{unit} can control only one of {names}; pick it, the others go wild (E7, E5)"),
        N_("move each predatory manifestation your models control, in any order: pick one and a point (E8, E9)"),
        N_(
            "pick a wild predatory manifestation to move and a point; you command it until the next hero phase (E8, E9)"
        ),
        N_("set up {scroll}: pick its centre (M9)"),
    ),
    # reasons that come as plain strings (events, summoning set-up problems)
    "": (
        N_("no charge move made"),
        N_('the unit would not end within ½" of a visible enemy unit or manifestation'),
        N_("no legal set-up exists"),
        N_("give one position per model on the battlefield: {live}, not {given}"),
        N_("give one position, the centre of its footprint, not {given}"),
        N_("({x}, {y}) is not a pair of finite numbers"),
        N_("the point ({x}, {y}) is not a pair of finite numbers"),
        N_('not wholly within {reach}" of the summoning model (M9)'),
        N_('{near}" from an enemy; must be more than {limit}" (M9)'),
        N_("not visible to the summoning model (M9, G2)"),
        N_("not visible to the summoning model: blocked by {names} (M9, G2)"),
        N_("would overlap a base of {unit} (E9)"),
        N_("would overlap impassable terrain {terrain} (E9)"),
        N_("would overlap {thing} (E9)"),
    ),
}

#: English templates whose fields are raw ids or internal numbers (a thing that does not exist,
#: a base's index): shown in these words instead, so that no id ever reaches the screen.
SHOWN: dict[str, str] = {
    "there is no unit {unit!r}": N_("there is no such unit"),
    "there is no unit {unit!r} on the battlefield": N_("there is no such unit on the battlefield"),
    "there is no target {target!r} on the battlefield": N_("there is no such target on the battlefield"),
    "there is no manifestation {target!r} on the battlefield": N_("there is no such manifestation on the battlefield"),
    "there is no {kind} {ability!r}": N_("there is no such {kind}"),
    "{unit!r} is not one of your units or manifestations": N_("that is not one of your units or manifestations"),
    'overlaps base {base} ({depth:.2f}" overlap)': N_('overlaps another model\'s base ({depth:.2f}" overlap)'),
    "ends on manifestation {index}": N_("ends on a manifestation"),
}

#: A placement problem worded for a move (formation._worded): around one of the G3/G4 templates.
WRAPPERS: tuple[str, ...] = (N_("model {model} {problem} (G4)"), N_("it {problem} (G4)"))
PLACED = ("edge", "overlap_base", "on_terrain", "on_manifestation")
#: A rule the engine appends to a message that does not cite it yet (IllegalActionError).
SUFFIX = N_("{text} ({rule})")
SEPARATOR = N_("; ")

#: Words the engine puts into its messages as fields (phases, verbs, keywords, sides).
WORDS: dict[str, str] = {
    **PHASE_WORDS,
    "start of turn": PHASE_WORDS["start_of_turn"],  # a prompt names the phase in words
    "end of turn": PHASE_WORDS["end_of_turn"],
    "cast spells": N_("cast spells"),
    "chant prayers": N_("chant prayers"),
    "banish": N_("banish"),
    "dispel": N_("dispel"),
    "unbind": N_("unbind"),
    "make a normal move": N_("make a normal move"),
    "run": N_("run"),
    "retreat": N_("retreat"),
    "WIZARD or PRIEST": N_("WIZARD or PRIEST"),
    "an enemy": N_("an enemy"),
    "a friendly": N_("a friendly"),
    "left": N_("left"),
    "right": N_("right"),
    "top": N_("top"),
    "bottom": N_("bottom"),
    "edge": N_("the battlefield edge"),
    "endless spell": N_("endless spell"),
    "invocation": N_("invocation"),
    "endless spells": N_("endless spells"),
    "invocations": N_("invocations"),
    "spell": N_("spell"),
    "prayer": N_("prayer"),
    "endless spells, invocations": N_("endless spells, invocations"),
    "it is not one of yours that your models control, or it has already moved": N_(
        "it is not one of yours that your models control, or it has already moved"
    ),
    "it is controlled or has already moved this phase": N_("it is controlled or has already moved this phase"),
    # R2: the kinds of decision (flow.head) and the actions (their record types) a refusal names
    "deploy": N_("deployment"),
    "turn_order": N_("turn order"),
    "phase": N_("phase"),
    "over": N_("game over"),
    "ritual_choice": N_("ritual"),
    "charge_move": N_("charge move"),
    "fight": N_("fight"),
    "summon_setup": N_("set-up"),
    "predatory_control": N_("control"),
    "predatory_move": N_("predatory move"),
    "ChooseTurnOrder": N_("Choosing the turn order"),
    "EndPhase": N_("Ending the phase"),
    "CastSpell": N_("Casting a spell"),
    "Unbind": N_("Unbinding"),
    "DeclineUnbind": N_("Not unbinding"),
    "ChantPrayer": N_("Chanting a prayer"),
    "BankRitual": N_("Keeping ritual points"),
    "SpendRitual": N_("Spending ritual points"),
    "PlaceManifestation": N_("Setting up a manifestation"),
    "Banish": N_("Banishing"),
    "Dispel": N_("Dispelling"),
    "PassDispel": N_("Not dispelling"),
    "DeployUnit": N_("Deploying a unit"),
    "MoveUnit": N_("Moving a unit"),
    "Run": N_("Running"),
    "Retreat": N_("Retreating"),
    "Shoot": N_("Shooting"),
    "Charge": N_("Charging"),
    "FailCharge": N_("Giving up the charge"),
    "Fight": N_("Fighting"),
    "PassFight": N_("Not fighting"),
    "ChooseControlled": N_("Choosing what to control"),
    "MovePredatory": N_("Moving an endless spell"),
}
WORD_FIELDS = frozenset({"verb", "phase", "kinds", "kind", "side", "why", "action"})
#: Fields read back from a plain string that hold a content name (translated as content).
RAW_CONTENT = frozenset({"spell", "prayer", "scroll"})
#: Fields that hold content names (terrain pieces, blockers): shown in the language in use.
NAME_FIELDS = frozenset({"terrain", "names"})
#: Fields that hold a model's index in its unit: the engine counts from 0, players from 1.
MODEL_FIELDS = frozenset({"model", "other"})


class _Raw(str):
    """A field read back from a plain string: shown as it was, whatever the template's format."""


class _Formatter(string.Formatter):
    def convert_field(self, value: Any, conversion: str | None) -> Any:
        return value if isinstance(value, _Raw) else super().convert_field(value, conversion)

    def format_field(self, value: Any, format_spec: str) -> str:
        return str(value) if isinstance(value, _Raw) else super().format_field(value, format_spec)


_FORMAT = _Formatter()


def _english(value: Any) -> Any:
    """A field as the engine's English text has it."""
    if isinstance(value, (tuple, list)):
        return "; ".join(str(v) for v in value)
    return value


def _fill(template: str, fields: dict[str, Any]) -> str | None:
    try:
        return _FORMAT.format(template, **fields)
    except (KeyError, IndexError, ValueError, TypeError, AttributeError):
        return None


def _pattern(template: str) -> re.Pattern[str] | None:
    """`template` as a regular expression with one named group per field (for plain strings)."""
    out, seen = [], set()
    for literal, name, _spec, _conv in string.Formatter().parse(template):
        out.append(re.escape(literal))
        if name is not None:
            if not name.isidentifier():
                return None
            out.append(f"(?P={name})" if name in seen else f"(?P<{name}>.+?)")
            seen.add(name)
    return re.compile("".join(out) + r"\Z", re.S)


_PATTERNS: list[tuple[str, re.Pattern[str]]] = []


def _patterns() -> list[tuple[str, re.Pattern[str]]]:
    if not _PATTERNS:
        for group in (*TEMPLATES.values(), WRAPPERS):
            for t in group:
                p = _pattern(t)
                if p is not None:
                    _PATTERNS.append((t, p))
    return _PATTERNS


def _name(state: Any, value: Any) -> str:
    """A named thing's display name: never its id."""
    thing = getattr(value, "id", "")
    if state is not None and thing:
        from game.ui.labels import name_of

        return name_of(state, thing)
    text = str(value)
    if thing and text.endswith(f" ({thing})"):
        return text[: -len(thing) - 3]
    return text


def _obstacle(token: str) -> str:
    """A sweep's obstacle token (``base:3``, ``terrain:Basalt Spire``, ``edge``) in words."""
    kind, _, what = token.partition(":")
    if kind == "terrain" and what:
        from game.content_words import content_name

        return content_name(what)
    if kind == "base":
        return _("a model")
    return _(WORDS[token]) if token in WORDS else token


def _shown(key: str, value: Any, state: Any) -> Any:
    """A field in the language in use: names for things, translated words, messages in turn."""
    if key in MODEL_FIELDS:  # "model 0" is the unit's first model: shown as players count, from 1
        if isinstance(value, int) and not isinstance(value, bool):
            return value + 1
        if isinstance(value, str) and value.isdigit():
            return _Raw(str(int(value) + 1))
    if isinstance(value, (tuple, list)):
        return _(SEPARATOR).join(engine_text(v, state) for v in value)
    if getattr(value, "code", None) is not None and isinstance(value, str):
        return engine_text(value, state)
    if getattr(value, "id", ""):
        return _name(state, value)
    if key in NAME_FIELDS and isinstance(value, str) and not isinstance(value, _Raw):
        from game.content_words import content_name

        return ", ".join(content_name(n) for n in value.split(", "))
    if key == "what" and isinstance(value, str):
        return _(SEPARATOR).join(_obstacle(t) for t in value.split(", "))
    if isinstance(value, str) and value in WORDS and (key in WORD_FIELDS or isinstance(value, _Raw)):
        return _(WORDS[value])
    if isinstance(value, _Raw):
        if key in RAW_CONTENT:  # a spell's, prayer's or warscroll's name, read back from the text
            from game.content_words import content_name

            value = _Raw(content_name(value))
        if state is not None:
            from game.ui.labels import plain

            return _Raw(plain(state, value))
        return value
    return value


def _translate(template: str, fields: dict[str, Any], state: Any) -> str | None:
    shown = {k: _shown(k, v, state) for k, v in fields.items()}
    return _fill(_(SHOWN.get(template, template)), shown)


def _by_facts(text: str, code: str, rule: str, facts: dict[str, Any], state: Any) -> str | None:
    fields = {"rule": rule, **facts}
    english = {k: _english(v) for k, v in fields.items()}
    for t in TEMPLATES.get(code, ()):
        if _fill(t, english) == text:
            return _translate(t, fields, state)
        if rule and _fill(t, english) == text[: -len(rule) - 3] and text.endswith(f" ({rule})"):
            inner = _translate(t, fields, state)
            return None if inner is None else _(SUFFIX).format(text=inner, rule=rule)
    if code in PLACED:  # a placement problem worded for a move
        for w in WRAPPERS:
            for t in TEMPLATES[code]:
                inner = _fill(t, english)
                if inner is not None and _fill(w, {**english, "problem": inner}) == text:
                    said = _translate(t, fields, state)
                    shown = {k: _shown(k, v, state) for k, v in fields.items() if k in MODEL_FIELDS}
                    return None if said is None else _fill(_(w), {**fields, **shown, "problem": said})
    return None


def _by_pattern(text: str, state: Any, depth: int = 0) -> str | None:
    """A plain string matched against every template (fields read back as they were written)."""
    for t, p in _patterns():
        m = p.match(text)
        if m is None:
            continue
        fields: dict[str, Any] = {}
        for k, v in m.groupdict().items():
            if k in ("problem", "problems") and depth < 3:
                said = (
                    _segments(v.split("; "), state, depth + 1)
                    if k == "problems"
                    else [_by_pattern(v, state, depth + 1) or v]
                )
                fields[k] = _Raw(_(SEPARATOR).join(said))
            else:
                fields[k] = _Raw(v)
        said = _translate(t, fields, state)
        if said is not None:
            return said
    m = re.match(r"(?P<text>.*) \((?P<rule>[A-Z]\d+)\)\Z", text, re.S)
    if m and depth < 3:
        inner = _by_pattern(m["text"], state, depth + 1)
        if inner is not None:
            return _(SUFFIX).format(text=inner, rule=m["rule"])
    return None


def _segments(parts: list[str], state: Any, depth: int) -> list[str]:
    """Messages joined by "; " (a message may hold "; " itself): the longest that match first."""
    out, i = [], 0
    while i < len(parts):
        for j in range(len(parts), i, -1):
            said = _by_pattern("; ".join(parts[i:j]), state, depth)
            if said is not None:
                out.append(said)
                i = j
                break
        else:
            out.append(parts[i])
            i += 1
    return out


def engine_text(msg: Any, state: Any = None) -> str:
    """`msg` (an engine message: a Problem, an IllegalActionError's message, an event's reason)
    in the language in use; the English text unchanged when no template makes it. Pass the
    state the message is about to name units and manifestations by their display names."""
    if msg is None:
        return ""
    text = str(msg)
    try:
        code = getattr(msg, "code", "")
        facts = getattr(msg, "facts", None)
        if isinstance(code, str) and isinstance(facts, dict):
            said = _by_facts(text, code, getattr(msg, "rule", "") or "", facts, state)
            if said is not None:
                return said
        said = _by_pattern(text, state)
        return text if said is None else said
    except Exception:  # a message we cannot word stays the engine's own (never a crash)
        return text


def prompt_text(prompt: str, state: Any = None, sentence: bool = False) -> str:
    """A decision's prompt (the engine's English words) in the language in use; `sentence`:
    as a sentence (capital first, full stop), which English needs and Korean and Japanese do not."""
    said = engine_text(prompt, state)
    if not sentence or (said != str(prompt) and language() != "en"):
        return said
    return said[:1].upper() + said[1:] + "."
