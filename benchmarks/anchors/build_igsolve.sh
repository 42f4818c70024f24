#!/usr/bin/env bash
# Build igsolve (beling/impartial-games, Beling and Rogalski's Cram record holder) outside
# this repository, offline, for benchmarks/boards.py --igsolve.
#
#   benchmarks/anchors/build_igsolve.sh MIRROR_DIR OUT_DIR
#
# MIRROR_DIR holds bare git snapshots as the `fetch` tool brings them (OWNER+NAME/repo):
#   beling/impartial-games (HEAD), beling/bsuccinct-rs (df847b4: the last with ph 0.10 and a
#   bitm that does not need `prefetch-index`), lakwet/voracious_sort (HEAD), eldruin/wyhash-rs
#   (v0.5.0: seedable_hash 0.2 wants wyhash 0.5), tailhook/cpu-time (HEAD), leudz/co_sort
#   (HEAD), rayon-rs/rayon (v1.10.0: Debian's rayon is too old for ph).
# Everything else comes from Debian's librust-*-dev packages (installed here unless
# SKIP_APT=1) through their vendored registry; crates.io is not reached.  ph is built
# without its default features (sux and aligned-vec are neither packaged nor needed); three
# optional dependencies igs never turns on are dropped from its manifest.  The binaries
# are OUT_DIR/bin/igsolve and ogsolve, with the Cargo.lock used beside them.
set -euo pipefail

MIRROR=$1
ANCH=$2
B=$ANCH/build
SRC=$B/src

if [ "${SKIP_APT:-0}" != 1 ]; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
    librust-clap-dev librust-arrayvec-dev librust-either-dev librust-libc-dev \
    librust-crossbeam-deque-dev librust-crossbeam-utils-dev librust-maplit-dev \
    librust-rand-core-dev >/dev/null
fi

rm -rf "$SRC"; mkdir -p "$SRC" "$ANCH/bin"

checkout() {  # checkout <mirror-name> <rev> <dest>
  mkdir -p "$SRC/$3"
  git --git-dir="$MIRROR/$1/repo" archive "$2" | tar -x -C "$SRC/$3"
  echo "$1 @ $(git --git-dir="$MIRROR/$1/repo" rev-parse "$2")" >> "$SRC/REVISIONS"
}
checkout beling+impartial-games HEAD    impartial-games
checkout beling+bsuccinct-rs    df847b4 bsuccinct-rs
checkout lakwet+voracious_sort  HEAD    voracious_sort
checkout eldruin+wyhash-rs      v0.5.0  wyhash-rs
checkout tailhook+cpu-time      HEAD    cpu-time
checkout leudz+co_sort          HEAD    co_sort
checkout rayon-rs+rayon         v1.10.0 rayon

IG=$SRC/impartial-games
BS=$SRC/bsuccinct-rs

# ph's default features pull `sux` (+mem_dbg) and `aligned-vec` (32-bit only) that
# are neither in Debian nor fetched; igs does not need them.
sed -i 's|^ph = "0.10"|ph = { version = "0.10", default-features = false }|' "$IG/igs/Cargo.toml"
sed -i 's|^ph = { version=">=0.9.7", path="../ph", features = \["wyhash"\] }|ph = { version=">=0.9.7", path="../ph", default-features = false, features = ["wyhash"] }|' "$BS/csf/Cargo.toml"
# Optional deps of a workspace member are resolved even when their feature is off;
# these three are not available offline and are off by default, so drop them.
sed -i -e '/^superslice = /d' -e '/^lru = /d' -e '/^nauty-Traces-sys = /d' \
       -e 's|^BP128 = \["superslice"\]|BP128 = []|' "$IG/igs/Cargo.toml"
grep -q 'default-features = false' "$IG/igs/Cargo.toml"
grep -q 'default-features = false' "$BS/csf/Cargo.toml"

# Local checkouts replace the crates.io versions.
cat >> "$IG/Cargo.toml" <<EOF

[patch.crates-io]
ph = { path = "$BS/ph" }
seedable_hash = { path = "$BS/seedable_hash" }
dyn_size_of = { path = "$BS/dyn_size_of" }
binout = { path = "$BS/binout" }
csf = { path = "$BS/csf" }
bitm = { path = "$BS/bitm" }
minimum_redundancy = { path = "$BS/minimum_redundancy" }
fsum = { path = "$BS/fsum" }
voracious_radix_sort = { path = "$SRC/voracious_sort" }
wyhash = { path = "$SRC/wyhash-rs" }
cpu-time = { path = "$SRC/cpu-time" }
co_sort = { path = "$SRC/co_sort" }
rayon = { path = "$SRC/rayon" }
rayon-core = { path = "$SRC/rayon/rayon-core" }

[profile.release]
codegen-units = 1
EOF

# Everything else comes from Debian's vendored registry (a `directory` source).
mkdir -p "$IG/.cargo"
cat > "$IG/.cargo/config.toml" <<'EOF'
[source.crates-io]
replace-with = "debian"

[source.debian]
directory = "/usr/share/cargo/registry"

[net]
offline = true
EOF

cd "$IG"
export CARGO_TARGET_DIR=$B/target
nice -n 19 cargo build --release -j 1 --offline -p igsolve -p ogsolve
cp "$CARGO_TARGET_DIR/release/igsolve" "$ANCH/bin/igsolve"
cp "$CARGO_TARGET_DIR/release/ogsolve" "$ANCH/bin/ogsolve"
cp "$IG/Cargo.lock" "$ANCH/bin/Cargo.lock.used"
echo "built: $ANCH/bin/igsolve"
