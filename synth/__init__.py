"""Ground truth: physics-simulated shots (pooltool) rendered as overhead video, with their exact
events, shot records and expected rulings."""
