"""Renderers: read the state, the events and the scene's overlays; never change them."""
