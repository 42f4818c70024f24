#!/bin/sh
# Build the public Rust record solver of octal games (rogalski-wmii-uni-lodz-pl/octal) outside
# this repository, offline, for benchmarks/records.py --rust.
#
#   benchmarks/anchors/build_rust_octal.sh SNAPSHOT_GIT_DIR OUT_DIR
#
# SNAPSHOT_GIT_DIR: a clone (or bare snapshot) of the solver.  Needs cargo and Debian's
# librust-{cfg-if,glob,serde,serde-derive,serde-json}-dev (crates.io is not reachable here).
# The solver's bitvec crate is not packaged: a small stand-in (a Vec<u64> bit set with the
# six calls the solver makes: set, index, first_zero, count_zeros, len, set_elements) is
# written here; its slice copy is the one line the solver's source changes
# (`bits[0..x].to_owned()` becomes `bits.prefix(x)`, the same value).  Its word-at-a-time
# first_zero and count_zeros are as fast as bitvec's.  The binary is OUT_DIR/octal.
set -eu
snapshot=$1
out=$2
work=$(mktemp -d)
git --git-dir="$snapshot" archive HEAD src | tar -x -C "$work"
sed -i 's/self.bits\[0..x\].to_owned()/self.bits.prefix(x)/' "$work/src/octal.rs"
mkdir -p "$work/bitvec/src"
cat > "$work/bitvec/Cargo.toml" <<'TOML'
[package]
name = "bitvec"
version = "1.0.1"
edition = "2021"
TOML
cat > "$work/bitvec/src/lib.rs" <<'RUST'
//! A stand-in for the bitvec calls the octal solver makes (see build_rust_octal.sh).
pub mod prelude {
    use std::marker::PhantomData;
    #[derive(Clone, Debug)]
    pub struct Msb0;
    #[derive(Clone, Debug)]
    pub struct BitVec<T = u64, O = Msb0> { words: Vec<u64>, len: usize, _t: PhantomData<(T, O)> }
    impl<T, O> BitVec<T, O> {
        pub fn repeat(bit: bool, len: usize) -> Self {
            let fill = if bit { !0u64 } else { 0 };
            BitVec { words: vec![fill; (len + 63) / 64], len, _t: PhantomData }
        }
        #[inline] pub fn len(&self) -> usize { self.len }
        #[inline] pub fn set(&mut self, i: usize, bit: bool) {
            assert!(i < self.len);
            if bit { self.words[i / 64] |= 1 << (i % 64) } else { self.words[i / 64] &= !(1 << (i % 64)) }
        }
        pub fn set_elements(&mut self, value: u64) { for w in self.words.iter_mut() { *w = value } }
        pub fn first_zero(&self) -> Option<usize> {
            for (k, w) in self.words.iter().enumerate() {
                if *w != !0 {
                    let i = k * 64 + (!w).trailing_zeros() as usize;
                    return if i < self.len { Some(i) } else { None };
                }
            }
            None
        }
        pub fn count_zeros(&self) -> usize {
            let ones: usize = self.words.iter().map(|w| w.count_ones() as usize).sum();
            let padding = self.words.len() * 64 - self.len;
            let pad_ones = if padding == 0 { 0 } else { (self.words[self.words.len() - 1] >> (64 - padding)).count_ones() as usize };
            self.len - (ones - pad_ones)
        }
        pub fn prefix(&self, len: usize) -> Self {
            let mut words = self.words[..(len + 63) / 64].to_vec();
            if len % 64 != 0 { let last = words.len() - 1; words[last] &= (1u64 << (len % 64)) - 1; }
            BitVec { words, len, _t: PhantomData }
        }
    }
    impl<T, O> std::ops::Index<usize> for BitVec<T, O> {
        type Output = bool;
        #[inline] fn index(&self, i: usize) -> &bool {
            assert!(i < self.len);
            if self.words[i / 64] >> (i % 64) & 1 != 0 { &true } else { &false }
        }
    }
    #[macro_export]
    macro_rules! bitvec {
        ($t:ty, $o:ty; $bit:expr; $len:expr) => { $crate::prelude::BitVec::<$t, $o>::repeat($bit != 0, $len) };
    }
    pub use crate::bitvec;
}
RUST
cat > "$work/Cargo.toml" <<'TOML'
[package]
name = "octal"
version = "0.1.0"
edition = "2021"
[dependencies]
bitvec = { path = "bitvec" }
cfg-if = "1"
glob = "0.3"
serde = { version = "1", features = ["derive"] }
serde_json = "1"
[features]
nimber_u8 = []
nimber_u16 = []
nimber_u32 = []
nimber_u64 = []
nimber_u128 = []
bits_u32 = []
bits_u64 = []
bits_u128 = []
bits_bitvec = []
[[bin]]
name = "octal"
path = "src/main.rs"
[profile.release]
codegen-units = 1
TOML
mkdir -p "$work/.cargo"
cat > "$work/.cargo/config.toml" <<'TOML'
[source.crates-io]
replace-with = "debian"
[source.debian]
directory = "/usr/share/cargo/registry"
TOML
(cd "$work" && cargo build --release --offline --features nimber_u16,bits_bitvec -q)
mkdir -p "$out"
cp "$work/target/release/octal" "$out/octal"
rm -rf "$work"
echo "$out/octal"
