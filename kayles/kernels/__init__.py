"""The kernels wing: every compiled kernel beside its pure twin, and what both read.

Each kernel is a pair with one name: the compiled module ``kayles.kernels.<name>``, built
from ``ext/<name>.pyx`` (its C in ``ext/src/``, declared once in ``ext/*.pxd``), and its
pure twin ``kayles.kernels.pure.<name>``: the same functions, results and errors.

    kernel       compiled from      pure twin            concern
    _core        ext/_core.pyx      pure/_core.py        tables, masks, periods, row moves
    _misere      ext/_misere.pyx    pure/_misere.py      the misère search
    _quotient    ext/_quotient.pyx  pure/_quotient.py    quotients: state walks, minimization
    _takebreak   ext/_takebreak.pyx pure/_takebreak.py   any code's values (three parts or more)
    _hackenbush  ext/_hackenbush.pyx pure/_hackenbush.py Green Hackenbush: edge lists, values, cuts
    (shared)     ext/_common.pxd    pure/_common.py      move kinds, options, mex, parts

Beside them: ``chooser`` (compiled or pure, decided once), ``checks`` (the arguments
both twins refuse alike), ``constants`` (the sizes both read; the compiled modules export
theirs to be compared), ``limits`` (each option's range, the memory a table may use, the
interrupt hook), ``cost`` (a take-and-break table's memory, foreseen) and ``spectrum``
(rare and common values, the masks).  The wing is the ground floor: it imports only the
package's base modules (``kayles.errors``, ``kayles._numbers``, ``kayles._environ``).
"""
