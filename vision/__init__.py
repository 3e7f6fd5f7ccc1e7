"""Frames → table calibration and ball observations: calibrate, locate, identify (ONNX), detect."""
import cueref  # noqa: E402,F401  (first: it sets OpenBLAS up before numpy loads)
