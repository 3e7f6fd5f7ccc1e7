"""Frames → table calibration and ball observations: calibrate, locate, identify (ONNX), detect."""
