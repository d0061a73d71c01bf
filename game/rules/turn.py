"""The turn (R2) as one declared table: every phase in order, with the automatic steps run when it
begins and when it ends, in order, and the providers of the active player's options; the checks
run after every action and step; and the decision kinds that `State.pending()` can show. It is
read like boardgame.io's phase config: the order below is the order of play, and it is the only
place that order is set. Rule modules write the steps (`@flow.step`) and the providers; they do
not say where they run. `print(TURN.describe())` shows the table as text.

Orders that are rules, not accidents:

- Hero phase, begin (E3): the bookkeeping first (modifiers expire, M3; predatory control and
  command lapse, E7, E8), then the dispel window, so that the players act on a settled board.
  The dispel window opens before anything else the players do in the phase: casting, chanting
  and banishing are the phase's options, offered once the window has closed.
- Hero phase, end (E6): predatory control (E7), then the predatory moves (E8), then the
  end-of-hero-phase abilities. The abilities are a slot (`END_OF_HERO_PHASE`) that rules and
  content add to with `at_end_of_hero_phase(step)`; the slot is listed after the predatory
  steps, so whatever is added runs after every predatory move, whenever it was added. A step
  that opens decisions holds back the next one until they close (flow.settle).
- End of turn: objectives and victory points (R2), then, at the end of a battle round, the
  warscroll removals (E4c).

The queued steps are saved by name (`State.steps`), so a step's name is part of the save format.
"""

from __future__ import annotations

from game.rules import (
    banishing,
    casting,
    charge,
    combat,
    flow,
    hero,
    movement,
    prayers,
    predatory,
    removal,
    scoring,
    shooting,
    summoning,
)
from game.rules.flow import SKELETON, Phase, Slot, Step, Turn

# E6: "any end-of-hero-phase abilities resolve only after all predatory moves are done".
END_OF_HERO_PHASE = Slot("end-of-hero-phase abilities", rule="E6")

TURN = Turn(
    phases=(
        Phase("start_of_turn"),
        Phase(
            "hero",
            begin=(hero.expire_buffs, predatory.reset, banishing.dispel_window),
            options=(hero.hero_options,),
            candidates=(hero.hero_candidates,),
            end=(predatory.control, predatory.moves, END_OF_HERO_PHASE),
        ),
        Phase(
            "movement",
            options=(movement.movement_options,),
            candidates=(movement.movement_candidates,),
        ),
        Phase(
            "shooting",
            options=(shooting.shooting_legal_options,),
            candidates=(shooting.shooting_options,),
        ),
        Phase(
            "charge",
            options=(charge.charge_options,),
            candidates=(charge.charge_candidates,),
        ),
        Phase("combat", begin=(combat.open_fights,)),
        Phase("end_of_turn", begin=(scoring.score_end_of_turn,), end=(removal.end_of_round,)),
    ),
    skeleton=SKELETON,
    # After every action and every automatic step, in every stage, in this order.
    settle=(removal.stamp_set_up_round, scoring.annihilation),
    # The stacked decisions (State.decisions) by kind, and how pending() shows each: the
    # reactions and choices made outside the phase's own options, as boardgame.io's stages.
    decisions={
        "summon_setup": summoning.setup_view,  # M9: where to set up a summoned manifestation
        "unbind": casting.unbind_view,  # M6: the opponent's reaction to a cast
        "dispel": banishing.dispel_view,  # E3: each player's dispel attempts
        "ritual_choice": prayers.ritual_view,  # M5: bank or spend
        "predatory_control": predatory.control_view,  # E7: which one a wizard unit controls
        "predatory_move": predatory.move_view,  # E8, E9: the moves
        "charge_move": charge.charge_move_view,  # R4: the charge move after the roll
        "fight": combat.fight_view,  # R4: who fights next
    },
)

flow.install(TURN)


def at_end_of_hero_phase(ability: Step) -> None:
    """Add `ability` (a step made with flow.step) to the end-of-hero-phase abilities: it runs at
    the end of both players' hero phases, after every predatory move (E6), in the order added."""
    END_OF_HERO_PHASE.add(ability)
