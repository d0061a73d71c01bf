"""The part of a `Content` that one game between two armies uses (issue 23).

A game of a player's own content is built with exactly this subset, and a save or replay of it
carries the same subset (`header.content_data`), so the game's `content_hash` is the hash of
what the file carries: another machine rebuilds the content from the file alone and checks it.

    sub = content_subset(lib.content, ("emberward", "ashen_host"))
    sub.content_hash == build_content({"carried": carried_file(sub)}).content_hash
"""

from __future__ import annotations

from collections.abc import Sequence

from game.data.content import Content, build_content
from game.data.models import ContentFile


def content_subset(content: Content, army_ids: Sequence[str]) -> Content:
    """The armies `army_ids` and everything they reference, in `content`: their units'
    warscrolls, their lores, the spells and prayers those warscrolls and lores hold, and the
    manifestations those summon. Unknown ids are skipped (the game's own loader names them)."""
    armies = {a: content.armies[a] for a in dict.fromkeys(army_ids) if a in content.armies}
    warscrolls = {
        u.warscroll: content.warscrolls[u.warscroll]
        for army in armies.values()
        for u in army.units
        if u.warscroll in content.warscrolls
    }
    lore_ids = [
        lid
        for army in armies.values()
        for lid in (army.spell_lore, army.prayer_lore, army.manifestation_lore)
        if lid and lid in content.lores
    ]
    lores = {lid: content.lores[lid] for lid in dict.fromkeys(lore_ids)}
    ability_ids = [aid for w in warscrolls.values() for aid in (*w.spells, *w.prayers)]
    ability_ids += [aid for lore in lores.values() for aid in lore.abilities]
    abilities = {aid: content.abilities[aid] for aid in dict.fromkeys(ability_ids) if aid in content.abilities}
    summoned = [a.summons for a in abilities.values() if a.summons]
    manifestations = {m: content.manifestations[m] for m in dict.fromkeys(summoned) if m in content.manifestations}
    cf = ContentFile(
        warscroll=list(warscrolls.values()),
        ability=list(abilities.values()),
        lore=list(lores.values()),
        manifestation=list(manifestations.values()),
        army=list(armies.values()),
    )
    # build_content checks the subset's references again: the closure must be whole
    sub = build_content({"content": cf})
    sources = {k: v for k, v in content.sources.items() if k in sub.sources}
    return Content(sub.warscrolls, sub.abilities, sub.lores, sub.manifestations, sub.armies, sub.content_hash, sources)


def carried_file(content: Content) -> dict:
    """`content` as JSON data, as a save or replay carries it (`header.content_data`): a content
    file's arrays, every definition in id order (JSON: the `[[warscroll]]` ... tables of a TOML
    content file)."""
    return {
        section: [m.model_dump(mode="json") for _i, m in sorted(getattr(content, attr).items())]
        for section, attr in (
            ("warscroll", "warscrolls"),
            ("ability", "abilities"),
            ("lore", "lores"),
            ("manifestation", "manifestations"),
            ("army", "armies"),
        )
    }
