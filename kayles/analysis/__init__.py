"""What is computed from nim-sequences: winning moves on rows and heaps (``row``,
``heaps``, ``xox``), misère play and quotients (``misere``, ``quotient``), surveys and
long runs (``survey``, ``executors``, ``long_run``), the seed games (``games/``),
matches (``play``) and pictures (``plot``).  No module here prints.
"""
