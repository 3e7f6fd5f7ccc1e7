"""Ground truth: physics-simulated shots (pooltool) rendered as overhead video, with their exact
events, shot records and expected rulings."""
import cueref  # noqa: E402,F401  (first: it sets OpenBLAS up before numpy loads)
