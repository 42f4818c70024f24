"""The engine: what a move is, the kernels that compute nimbers, and nim-sequences.

``rules`` (move kinds, octal codes, named games), ``sequence`` (nimbers on demand,
proved periods), ``_impl`` (the one choice between the compiled core, built from
``ext/``, and its pure twins ``_core_pure``, ``_misere_pure``, ``_quotient_pure``),
``spectrum`` and ``checksum`` (rare masks, Fletcher-32).  Imports nothing above it.
"""
