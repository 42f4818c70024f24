"""The subcommands of the ``kayles`` command, one module per family.

Each module has ``register(subparsers)``; every parser it adds sets
``run(args, out)`` as its handler via ``set_defaults(run=...)``.
"""
