"""The pygame-ce front end (issue 6). Only the CLI imports this package.

Layout:
    app.py          `add_play_arguments`, `run`: window, scene stack, main loop, headless mode
    input.py        the only reader of pygame.event: events -> `Intent`s (and pygame-gui buttons)
    intents.py      `Intent`: what the player means (choose, click, pan, zoom, ruler, ...)
    camera.py       inches <-> pixels: pan, zoom at a point, fit
    theme.py        colours, fonts, trait styles, pygame-gui theme path
    session.py      one battle: game, state, recorder, history of events, cached decision
    controllers.py  Controller protocol: Human, Bot (worker thread), Replay
    labels.py       readable text for actions, events and dice; exact odds per option
    decisions.py    the decision panel: the registered control for a decision kind, or a generic one
    panel.py        what a control is: the panel's records and the control registry
    rule_texts.py   rule paraphrases by ID (rule_texts.toml)
    render/         battlefield (static layer cache, units, manifestations, overlays), icons, HUD
    scenes/         Menu, NewGame, Load, Replays, Battle (hotseat / demo), Replay
"""
