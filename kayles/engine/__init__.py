"""The engine: what a move is, and nim-sequences computed by the kernels below it.

``rules`` and ``codes`` (move kinds, take-and-break codes, named games), ``sequence``
(nimbers on demand, proved periods; the rare mask a command reports), ``regularity``
(arithmetic periodicity and its theorems), ``checksum`` (Fletcher-32) and ``cpu_load``
(how busy other processes keep the cores).  It stands on ``kayles.kernels`` and imports
nothing above it.
"""
