"""cueref: a computer-vision referee for pool. Shared pieces: table geometry, the interchange
contract, and the command line."""
import os as _os
import platform as _platform

__version__ = "0.1.0"

# OpenBLAS (numpy's and scipy's) starts a thread per core and, after any product it splits,
# keeps them spinning for a while. cueref's products are of 2 x 2 to 4 x 4 filters and a few
# points; its parallelism is its stages (decoder, detector, tracker). Those threads only took
# core time from them (about 0.8 % of a review's CPU, on 2 cores). Set before numpy is
# imported, and inherited by the processes a review starts; a value already set is kept.
_os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

# Which kernels OpenBLAS runs is chosen per CPU at load, and they round differently: pooltool's
# physics, fed by numpy's linear algebra, magnifies that into other games from the same seed
# (7000-10019: 5,040 collisions and 289 pockets with the AVX-512 kernels, "SkylakeX", that it
# picks on its own where the CPU has them; 5,046 and 287 with the AVX2 ones, "Haswell"). The
# same ones on every x86-64 machine (AVX2 and FMA: nearly all of them) make the ground truth, and
# so every benchmark figure, the same wherever it is generated. `blas_kernels()` says which run.
if _platform.machine().lower() in ("x86_64", "amd64"):
    _os.environ.setdefault("OPENBLAS_CORETYPE", "Haswell")


def blas_kernels() -> str | None:
    """The kernels numpy's OpenBLAS runs (its core name, e.g. "Haswell"), or None where numpy
    does not bundle OpenBLAS or cannot be asked."""
    import ctypes  # noqa: PLC0415
    import glob  # noqa: PLC0415

    import numpy  # noqa: PLC0415

    libs = glob.glob(_os.path.join(_os.path.dirname(numpy.__file__), _os.pardir, "numpy.libs", "*openblas*"))
    for lib in libs:
        for name in ("scipy_openblas_get_corename64_", "scipy_openblas_get_corename", "openblas_get_corename"):
            f = getattr(ctypes.CDLL(lib), name, None)
            if f is not None:
                f.restype = ctypes.c_char_p
                return f().decode()
    return None
