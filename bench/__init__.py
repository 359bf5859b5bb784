"""Benchmarks: scripts that print a table and a final JSON line (``python bench/<name>.py``),
and the decoding benchmarks the ``diffvoice bench`` command runs (:mod:`bench.decoding`,
:mod:`bench.constrained`). Nothing outside ``bench`` and the command line imports them."""
