#!/bin/sh
# fetch-grammars.sh — install the pinned tree-sitter runtime and grammars that liblode compiles in.
#
# SPDX-FileCopyrightText: 2026 The Lode authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The versions and their sha512 integrity hashes live in build-aux/grammars/package-lock.json;
# `npm ci` refuses any tarball whose hash differs. Nothing lands in the git tree: the grammars go
# to a cache directory (default $XDG_CACHE_HOME/lode/grammars) that `meson setup` reads through
# the `grammars_dir` option. Install scripts never run: we only need parser.c and scanner.c of
# each grammar, and the C sources the `tree-sitter` package carries (vendor/tree-sitter/lib).
#
# Usage: build-aux/fetch-grammars.sh [DIR]     (prints DIR on success)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
dir=${1:-${LODE_GRAMMARS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/lode/grammars}}

# Fixes of known bugs in the pinned grammars, applied to the fetched files (idempotent, so
# also to a cache fetched before the fix).
patch_grammars () {
  # tree-sitter-swift 0.7.1 allocates its scanner state with calloc(0, …) and then reads and
  # writes it: heap corruption on every Swift parse (valgrind memcheck). One state, zeroed.
  swift="$dir/node_modules/tree-sitter-swift/src/scanner.c"
  sed -i 's/calloc(0, sizeof(struct ScannerState))/calloc(1, sizeof(struct ScannerState))/' "$swift"
  grep -q 'calloc(1, sizeof(struct ScannerState))' "$swift"
}

mkdir -p "$dir"
# The stamp is written only after a complete install, so an interrupted fetch is redone.
if cmp -s "$here/grammars/package-lock.json" "$dir/.lode-stamp"; then
  patch_grammars
  echo "$dir"
  exit 0
fi

cp "$here/grammars/package.json" "$here/grammars/package-lock.json" "$here/grammars/.npmrc" "$dir/"
rm -f "$dir/.lode-stamp"
(cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >&2)
patch_grammars
cp "$here/grammars/package-lock.json" "$dir/.lode-stamp"
echo "$dir"
