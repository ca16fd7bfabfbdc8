#!/bin/sh
# symbols-git.sh — the symbol tools on git's source, against git grep, in one go
#
# SPDX-FileCopyrightText: 2026 The Lode authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: bench/symbols-git.sh [TREE]
#
# Without TREE, git v2.47.0 is unpacked into $TMPDIR from the bare mirror $GIT_MIRROR.
# $BUILDDIR (default _build) is a configured, compiled build; $DATA_DIR keeps the index
# between runs (default: a temporary directory, indexed from scratch); $REPEAT passes over
# the calls, the first of which only warms caches (default 21).

set -eu

# shellcheck source=bench/git-tree.sh
. "$(dirname "$0")/git-tree.sh"
builddir=$(bench_builddir "${BUILDDIR:-_build}")
bench=$builddir/bench/lode-symbol-bench
calls=$bench_srcdir/bench/symbols-git.txt
repeat=${REPEAT:-21}

if [ ! -x "$bench" ]; then
  echo "symbols-git.sh: $bench not found; build first: meson setup $builddir && ninja -C $builddir" >&2
  exit 1
fi

tree=$(bench_git_tree symbols-git.sh "$@")

work=$(mktemp -d "${TMPDIR:-/tmp}/lode-symbols.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
data_dir=${DATA_DIR:-$work/data}

echo "== Lode: $repeat passes over $(grep -cv '^#' "$calls") tool calls (the first not counted)"
"$bench" --data-dir "$data_dir" --calls "$calls" --repeat "$repeat" "$tree"

echo
echo "== git grep --no-index -w -n for the symbols whose references Lode lists (median of 5)"
for symbol in strbuf_addf oid_to_hex die; do
  : > "$work/grep.ms"
  for i in 1 2 3 4 5; do
    start=$(date +%s%N)
    git -C "$tree" grep --no-index -w -n -- "$symbol" > "$work/grep.out" || true
    end=$(date +%s%N)
    echo "$(( (end - start) / 1000 ))" >> "$work/grep.ms"
  done
  median=$(sort -n "$work/grep.ms" | sed -n 3p)
  printf '%-28s %-34s %6.2f ms (%s lines)\n' "git grep -w -n" "$symbol" \
    "$(awk -v u="$median" 'BEGIN { print u / 1000 }')" "$(wc -l < "$work/grep.out")"
done
echo
echo "Load average during the run: $(cut -d' ' -f1-3 /proc/loadavg)"
