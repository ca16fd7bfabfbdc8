#!/bin/sh
# scale.sh — Lode on N copies of git in one tree, beside ctags, rg and a previous build
#
# SPDX-FileCopyrightText: 2026 The Lode authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: bench/scale.sh [N…]            (default: 1 5)
#
# For each N, builds $TMPDIR/lode-scale/git-xN: N copies of git v2.47.0 (GIT_TREE, else the
# tree index-git.sh uses, unpacked from $GIT_MIRROR) side by side, then in one go:
#
# 1. `lode --no-daemon index` of the tree into an empty data directory ("fresh"), then
#    `lode index --force` over that index $FORCE_RUNS times (default 1): wall, user + system
#    CPU, peak RSS (/usr/bin/time) and the index's size on disk, WAL included. With
#    $REF_BUILDDIR, that build runs the same commands, alternating with $BUILDDIR run by run,
#    so that load from other jobs hits both alike;
# 2. `ctags -R` over the same tree (wall, CPU, RSS, tags file size);
# 3. bench/search-latency.mjs: codebase_search through lode-mcp, warm, each query of
#    bench/queries-git.txt and each 2–3 kB issue of $EVAL_DIR/queries.jsonl, $ROUNDS rounds
#    (default 6, the first not counted), both builds on their own index from step 1, and
#    `rg --fixed-strings` for each query in the same rounds (not with NO_RG=1: on five copies
#    of git rg takes 3.6 s a query, most of the run).
#
# The trees and indexes are removed at the end unless KEEP=1. Builds nothing: BUILDDIR
# (default _build) and REF_BUILDDIR are configured, compiled (debugoptimized) builds.

set -eu

# shellcheck source=bench/git-tree.sh
. "$(dirname "$0")/git-tree.sh"
builddir=$(bench_builddir "${BUILDDIR:-_build}")
refdir=
[ -z "${REF_BUILDDIR:-}" ] || refdir=$(bench_builddir "$REF_BUILDDIR")
force_runs=${FORCE_RUNS:-1}
rounds=${ROUNDS:-6}
eval_dir=${EVAL_DIR:-$bench_srcdir/../shared/eval}
scale_dir=${TMPDIR:-/tmp}/lode-scale

missing=
command -v rg >/dev/null 2>&1 || missing="$missing ripgrep"
ctags --version 2>/dev/null | grep -q 'Universal Ctags' || missing="$missing universal-ctags"
[ -x /usr/bin/time ] || missing="$missing time"
command -v node >/dev/null 2>&1 || missing="$missing nodejs"
if [ -n "$missing" ]; then
  echo "scale.sh: missing tools; install them with: sudo apt-get install -y$missing" >&2
  exit 1
fi
for dir in "$builddir" $refdir; do
  if [ ! -x "$dir/src/cli/lode" ] || [ ! -x "$dir/src/mcp/lode-mcp" ]; then
    echo "scale.sh: $dir has no lode and lode-mcp; build first: meson compile -C $dir" >&2
    exit 1
  fi
done
issues=
if [ -f "$eval_dir/queries.jsonl" ]; then
  issues="--issues $eval_dir/queries.jsonl"
else
  echo "scale.sh: no $eval_dir/queries.jsonl (EVAL_DIR): pasted issues are not measured" >&2
fi

base=$(bench_git_tree scale.sh ${GIT_TREE:+"$GIT_TREE"})
[ $# -gt 0 ] || set -- 1 5
mkdir -p "$scale_dir"
work=$(mktemp -d "$scale_dir/run.XXXXXX")
cleanup () {
  rm -rf "$work"
  [ "${KEEP:-0}" = 1 ] || rm -rf "$scale_dir"/git-x*
}
trap cleanup EXIT INT TERM

# N copies of the base tree, made once and kept while KEEP=1.
make_tree () {
  tree=$scale_dir/git-x$1
  if [ ! -f "$tree/.complete" ]; then
    rm -rf "$tree"
    i=1
    while [ "$i" -le "$1" ]; do
      mkdir -p "$tree/copy-$i"
      cp -R "$base/." "$tree/copy-$i/"
      i=$((i + 1))
    done
    touch "$tree/.complete"
  fi
  echo "$tree"
}

# index LABEL BUILD DATA_DIR TREE [--force]: one run, one line of figures
index () {
  label=$1 build=$2 data=$3 tree=$4
  shift 4
  mkdir -p "$data"
  LODE_DATA_DIR=$data LODE_EMBEDDING_PROVIDER=none \
    /usr/bin/time -f '%e %U %S %M' -o "$work/time" \
    "$build/src/cli/lode" --no-daemon index "$@" "$tree" > "$work/index.out" 2>&1 || {
      echo "scale.sh: $label failed:" >&2
      cat "$work/index.out" >&2
      exit 1
    }
  read -r wall user sys rss_kb < "$work/time"
  # The index and its WAL; an aside copy (index.db.new) is gone once a run has finished.
  disk=$(du -cb "$data"/projects/*/index.db* | tail -1 | cut -f1)
  awk -v l="$label" -v w="$wall" -v u="$user" -v s="$sys" -v r="$rss_kb" -v d="$disk" \
      -v src="$src_bytes" 'BEGIN {
    printf "%-34s wall %6.2f s   CPU %6.2f s (user %6.2f, sys %5.2f)   peak RSS %6.1f MB   " \
           "disk %7.1f MB (%.2f× source)\n", l, w, u + s, u, s, r / 1024, d / 1048576, d / src }'
}

for n in "$@"; do
  tree=$(make_tree "$n")
  src_bytes=$(du -sb "$tree" | cut -f1)
  data=$work/data-x$n
  echo "== $n × git $bench_git_tag: $tree, $(find "$tree" -type f | wc -l) files," \
       "$(awk -v b="$src_bytes" 'BEGIN { printf "%.1f", b / 1048576 }') MB"

  # Data directories 0 and 1 are the ones search-latency.mjs --data-dir uses for each build.
  index "lode fresh" "$builddir" "$data/0" "$tree"
  [ -z "$refdir" ] || index "reference fresh" "$refdir" "$data/1" "$tree"
  run=1
  while [ "$run" -le "$force_runs" ]; do
    index "lode --force" "$builddir" "$data/0" "$tree" --force
    [ -z "$refdir" ] || index "reference --force" "$refdir" "$data/1" "$tree" --force
    run=$((run + 1))
  done

  /usr/bin/time -f '%e %U %S %M' -o "$work/time" ctags -R -f "$work/tags" "$tree"
  read -r wall user sys rss_kb < "$work/time"
  awk -v w="$wall" -v u="$user" -v s="$sys" -v r="$rss_kb" -v t="$(stat -c %s "$work/tags")" \
    'BEGIN { printf "%-34s wall %6.2f s   CPU %6.2f s (user %6.2f, sys %5.2f)   peak RSS %6.1f MB   " \
                    "tags  %7.1f MB\n", "ctags -R", w, u + s, u, s, r / 1024, t / 1048576 }'
  rm -f "$work/tags"

  with_rg=", and rg"
  [ -z "${NO_RG:-}" ] || with_rg=""
  echo "-- codebase_search through lode-mcp, warm ($((rounds - 1)) counted rounds)$with_rg"
  # shellcheck disable=SC2086  # $issues is two words or none
  node "$bench_srcdir/bench/search-latency.mjs" --rounds "$rounds" $issues \
       ${NO_RG:+--no-rg} \
       ${refdir:+--reference "$refdir/src/mcp/lode-mcp"} --data-dir "$data" \
       "$builddir/src/mcp/lode-mcp" "$tree"
  rm -rf "$data"
  echo
done
