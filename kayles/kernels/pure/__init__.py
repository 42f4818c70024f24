"""The pure-Python twins of the compiled kernels, each under its compiled module's name
(``pure/_core.py`` is the twin of ``kayles.kernels._core``, built from ``ext/_core.pyx``).
``kayles.kernels.chooser`` loads them where the compiled core is missing or KAYLES_PURE=1."""
