"""Ball observations → Kalman tracks → shot and lag records (see the tracking issue; not built yet)."""
