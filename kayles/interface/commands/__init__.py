"""The subcommands of the ``kayles`` command, one module per family.

Each module has ``register(subparsers)``; every parser it adds sets
``command_NAME(args, out)`` as its handler via ``set_defaults(handler=...)``.
"""
