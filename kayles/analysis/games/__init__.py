"""The seed games, one module each, beside the heap-game engine.

``nim`` (normal and misère Nim, seed 004), ``wythoff`` (Wythoff's game, seed 001),
``digraph`` (mex and the Sprague-Grundy values of any finite digraph, loopy ones
included, and sums of tokens on them; seeds 001 and 002), ``treblecross`` (seed 002,
on the engine's 0.007 nimbers) and ``grundys_game`` (seed 003, on the engine's Grundy's
game nimbers); the families of the pruned search of sums (kayles.kernels._boards,
_graphs, _chomp): ``cram`` (dominoes on any board), ``graph_kayles`` (Node Kayles and Arc
Kayles on graphs from families, files or networkx) and ``chomp`` (Young diagrams), each a
class with the game protocol (parse, format, options, components, key, nimber).  No
module here prints: the ``kayles`` subcommands in ``kayles.interface.commands.classic_games``
do.
"""
