"""Ball observations → Kalman tracks → shot and lag records: the tracker, shot segmentation, and the
events of each shot (strike, contacts, cushions, pockets, crossings) with their uncertainties."""
import cueref  # noqa: E402,F401  (first: it sets OpenBLAS up before numpy loads)
