"""Frames → table calibration and ball observations (see the vision issue; not built yet)."""
