"""The front ends: the ``Kayles-xox`` program (``xox_cli``, the autograder's contract),
the ``kayles`` command (``kayles_cli`` and its ``commands/``), the web page (``web/``),
and what they share (``_frontend``: exit statuses and errors; ``_output``, ``progress``,
``glossary``).  Nothing here computes: it parses, calls the analyses, and writes.
"""
