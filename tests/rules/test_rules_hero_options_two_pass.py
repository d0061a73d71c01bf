"""E5, G2 (issue 24): the hero phase's options asked in two passes - every check but sight, then
every sight at once (`space.sees_many` over `visible_many`) - are exactly the legal casts,
chants and banishes, in the one-pass enumeration's order."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from game.rules import Banish, CastSpell, ChantPrayer, ChooseTurnOrder, EndPhase, Game
from game.rules.allowances import power_left
from game.rules.hero import hero_options
from game.rules.targeting import known, target_candidates
from game.rules.units import ModelState, UnitState

CASTERS = {
    1: ["pyre_magister", "ashen_abbess", "cinder_adept", "hearth_chaplain", "coven_of_the_kindled"],
    2: ["fen_oracle", "moon_hierophant", "reed_witch", "tide_caller", "chorus_of_the_deep"],
}
GAMES = {p: Game.load(profile=p) for p in ("aos4", "aos3")}


def _hero_state(game, seed, spots):
    """Both armies plus casters a side at the given spots, in player 1's hero phase."""
    s = game.new_state(seed=seed)
    s.apply(EndPhase(player=1))
    s.apply(EndPhase(player=2))
    s.apply(ChooseTurnOrder(player=s.priority_winner, first=1))
    s.apply(EndPhase(player=1))
    for k, (x, y) in enumerate(spots):
        player = 1 + k % 2
        ws_id = CASTERS[player][(k // 2) % len(CASTERS[player])]
        ws = game.warscroll(ws_id)
        models = [ModelState(x + 1.4 * i, y) for i in range(ws.models)]
        s.units[f"c{k}"] = UnitState(f"c{k}", player, ws_id, ws.name, models)
    return s


def _one_pass(s):
    """Every candidate in `hero_options`' order (caster, kind, ability, model, target; then the
    banishes), kept when `legal` says so: the one-pass enumeration."""
    p = s.active
    out = []
    for uid, u in s.units.items():
        if u.player != p or not u.alive or power_left(s, uid) <= 0:
            continue
        models = [i for i, _ in u.live_models()]
        for kind, make in (("spell", CastSpell), ("prayer", ChantPrayer)):
            for ab_id in known(s, uid, kind):
                ability = s.game.content.abilities[ab_id]
                for i in models:
                    for target in target_candidates(s, p, ability):
                        field = "spell" if kind == "spell" else "prayer"
                        act = make(player=p, unit=uid, model=i, target=target, **{field: ab_id})
                        if s.legal(act):
                            out.append(act)
        for mid in s.manifestations:
            for i in models:
                act = Banish(player=p, unit=uid, manifestation=mid, model=i)
                if s.legal(act):
                    out.append(act)
    return out


@settings(max_examples=12, deadline=None)
@given(
    profile=st.sampled_from(sorted(GAMES)),
    seed=st.integers(0, 50),
    spots=st.lists(st.tuples(st.floats(3, 50), st.floats(6, 38)), min_size=2, max_size=8),
)
def test_e5_g2_two_pass_hero_options_are_the_one_pass_legal_ones_in_order(profile, seed, spots):
    game = GAMES[profile]
    s, ref = _hero_state(game, seed, spots), _hero_state(game, seed, spots)  # no shared cache
    with s.query(), ref.query():
        got = hero_options(s)
        want = _one_pass(ref)
    assert got == want
    assert all(ref.legal(a) for a in got)


def test_e5_g2_two_pass_keeps_hidden_targets_out_and_caches_the_sights():
    """A board with seen and hidden targets: the options skip the hidden ones, and the sights
    asked are kept for the later checks (`sees`' cache keys)."""
    game = GAMES["aos4"]
    s = _hero_state(game, 1, [(8 + 8 * k, 12.0 if k % 2 == 0 else 32.0) for k in range(10)])
    with s.query():
        got = hero_options(s)
        assert got == _one_pass(_hero_state(game, 1, [(8 + 8 * k, 12.0 if k % 2 == 0 else 32.0) for k in range(10)]))
        kept = {k: v for k, v in s._cache.items() if isinstance(k, tuple) and k[0] == "sees"}
    assert kept and any(kept.values()) and not all(kept.values())
