"""cueref: a computer-vision referee for pool. Shared pieces: table geometry, the interchange
contract, and the command line."""
__version__ = "0.1.0"
