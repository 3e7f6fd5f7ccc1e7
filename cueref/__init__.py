"""cueref: a computer-vision referee for pool. Shared pieces: table geometry, the interchange
contract, and the command line."""
import os as _os

__version__ = "0.1.0"

# OpenBLAS (numpy's and scipy's) starts a thread per core and, after any product it splits,
# keeps them spinning for a while. cueref's products are of 2 x 2 to 4 x 4 filters and a few
# points; its parallelism is its stages (decoder, detector, tracker). Those threads only took
# core time from them (about 0.8 % of a review's CPU, on 2 cores). Set before numpy is
# imported, and inherited by the processes a review starts; a value already set is kept.
_os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
