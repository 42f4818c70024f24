#!/bin/sh
# Build the public C++ analyser of octal games (tczajka/octal-games, old/src/analyze_exec.cc)
# outside this repository, for benchmarks/engine.py --external.
#
#   benchmarks/anchors/build_cxx_analyser.sh SNAPSHOT_GIT_DIR OUT_DIR [K ...]
#
# SNAPSHOT_GIT_DIR: a clone (or bare snapshot) of tczajka/octal-games.  The analyser has no
# option for how many values it computes: its maxn is a compile-time constant (2**28), so
# each K (default: 20 22) gets a binary, OUT_DIR/analyze_2pK, that stops at 2**K values;
# that one number is the only change to its source.  Built with its Makefile's flags
# (-O2 -std=c++11 -pthread, no vector options: it runs alike on any x86-64).  Run as
# `OUT_DIR/analyze_2p20 0.04` or `OUT_DIR/analyze_2p22 grundy`.
set -eu
snapshot=$1
out=$2
shift 2
[ $# -gt 0 ] || set -- 20 22
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git --git-dir="$snapshot" archive HEAD old/src | tar -x -C "$work"
src=$work/old/src
mkdir -p "$out"
for k in "$@"; do
    sed "s/constexpr uint64_t maxn = 1<<28;/constexpr uint64_t maxn = uint64_t(1)<<$k;/" \
        "$src/analyze_exec.cc" > "$src/analyze_$k.cc"
    grep -q "maxn = uint64_t(1)<<$k;" "$src/analyze_$k.cc" || {
        echo "build_cxx_analyser.sh: analyze_exec.cc no longer sets maxn = 1<<28" >&2
        exit 1
    }
    "${CXX:-g++}" -O2 -std=c++11 -Wall -Wextra -pthread -I"$src" "$src/analyze_$k.cc" \
        "$src/game.cc" "$src/game_util.cc" "$src/hadamard.cc" -o "$out/analyze_2p$k" -lpthread
    echo "$out/analyze_2p$k"
done
