#!/bin/sh
# calls-cost.sh — what the call graph costs to index, and how fast its tools answer (issue 28)
#
# SPDX-FileCopyrightText: 2026 The Lode authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: bench/calls-cost.sh [TREE]      (default: git v2.47.0, see git-tree.sh)
#
# 1. Builds the reference: this source tree as it is (the tracked files, edits included) with
#    the call graph cut out of the indexer: no call extraction on the chunking threads, no
#    call sites stored, no call pass. Everything else (the import graph, symbols, references,
#    trigrams) is the same code, so the difference is the call graph alone. The reference
#    lives in $REF_DIR (default $TMPDIR/lode-calls-ref) and is rebuilt incrementally there;
#    KEEP_REF=0 removes it at the end.
# 2. `lode --no-daemon index TREE` into an empty data directory, $RUNS times (default 3) for
#    each build, alternating (with, without, then without, with, …) so that load from other
#    jobs hits both alike: wall, user + system CPU, peak RSS (/usr/bin/time), the index's
#    size on disk (WAL included) and its rows of calls. With $OTHER_BUILDDIR (another build
#    with the call graph, such as the previous commit's), that build runs beside them, labelled
#    "other".
# 3. bench/mcp-latency.mjs on the last index with the call graph: codebase_symbol,
#    codebase_flow (depth 5) and codebase_trace, $CALLS calls each (default 300, 20 more not
#    counted), p50/p99/max and lode-mcp's CPU per call, `ping` as the reference.
#
# Prints the load average beside each run, then the medians and the call graph's cost in %.
# Run it at normal priority: it measures time. BUILDDIR (default _build) is a configured,
# compiled build of this tree (debugoptimized for figures worth keeping).

set -eu

# shellcheck source=bench/git-tree.sh
. "$(dirname "$0")/git-tree.sh"
builddir=$(bench_builddir "${BUILDDIR:-_build}")
runs=${RUNS:-3}
calls=${CALLS:-300}
ref_dir=${REF_DIR:-${TMPDIR:-/tmp}/lode-calls-ref}
otherdir=
[ -z "${OTHER_BUILDDIR:-}" ] || otherdir=$(bench_builddir "$OTHER_BUILDDIR")

missing=
[ -x /usr/bin/time ] || missing="$missing time"
command -v node >/dev/null 2>&1 || missing="$missing nodejs"
command -v sqlite3 >/dev/null 2>&1 || missing="$missing sqlite3"
if [ -n "$missing" ]; then
  echo "calls-cost.sh: missing tools; install them with: sudo apt-get install -y$missing" >&2
  exit 1
fi
if [ ! -x "$builddir/src/cli/lode" ] || [ ! -x "$builddir/src/mcp/lode-mcp" ]; then
  echo "calls-cost.sh: $builddir has no lode and lode-mcp; build first: meson compile -C $builddir" >&2
  exit 1
fi
if [ -n "$otherdir" ] && [ ! -x "$otherdir/src/cli/lode" ]; then
  echo "calls-cost.sh: $otherdir has no lode; build first: meson compile -C $otherdir" >&2
  exit 1
fi
buildtype=$(meson introspect --buildoptions "$builddir" |
            python3 -c 'import json, sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "buildtype"))')

tree=$(bench_git_tree calls-cost.sh ${1:+"$1"})
work=$(mktemp -d "${TMPDIR:-/tmp}/lode-calls-cost.XXXXXX")
cleanup () {
  rm -rf "$work"
  [ "${KEEP_REF:-1}" = 1 ] || rm -rf "$ref_dir"
}
trap cleanup EXIT INT TERM

# The reference: the tracked files as they are now (tar keeps their times, so a kept build
# only recompiles what changed), then the indexer without the call graph.
echo "== reference: $bench_srcdir without the call graph, in $ref_dir" >&2
mkdir -p "$ref_dir/src"
(cd "$bench_srcdir" && git ls-files -z | tar --null -T - -cf -) | tar -xf - -C "$ref_dir/src"
indexer=$ref_dir/src/src/liblode/engine/lode-indexer.c
sed -i -e 's/shared->graph ? &result->calls : NULL/NULL/' \
       -e 's/if (graph_run != NULL && graph_run->calls_stale)/if (FALSE)/' "$indexer"
if grep -q 'result->calls : NULL\|graph_run->calls_stale)' "$indexer" ||
   [ "$(grep -c '&result->references, NULL,\|if (FALSE)' "$indexer")" -ne 2 ]; then
  echo "calls-cost.sh: the cut no longer applies to lode-indexer.c; update this script" >&2
  exit 1
fi
[ -f "$ref_dir/build/build.ninja" ] ||
  nice -n 19 meson setup --buildtype="$buildtype" "$ref_dir/build" "$ref_dir/src" >&2
nice -n 19 meson compile -C "$ref_dir/build" src/cli/lode >&2

src_bytes=$(du -sb "$tree" | cut -f1)
echo "== $tree: $(find "$tree" -type f | wc -l) files, $(awk -v b="$src_bytes" 'BEGIN { printf "%.1f", b / 1048576 }') MB; $buildtype builds"

# index LABEL BUILD DATA_DIR: one run into an empty data directory, one line of figures
index () {
  label=$1 build=$2 data=$3
  rm -rf "$data"
  mkdir -p "$data"
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  LODE_DATA_DIR=$data LODE_EMBEDDING_PROVIDER=none \
    /usr/bin/time -f '%e %U %S %M' -o "$work/time" \
    "$build/src/cli/lode" --no-daemon index "$tree" > "$work/index.out" 2>&1 || {
      echo "calls-cost.sh: $label failed:" >&2
      cat "$work/index.out" >&2
      exit 1
    }
  read -r wall user sys rss_kb < "$work/time"
  disk=$(du -cb "$data"/projects/*/index.db* | tail -1 | cut -f1)
  n_calls=$(sqlite3 "$(echo "$data"/projects/*/index.db)" 'SELECT count(*) FROM calls')
  echo "$label $wall $user $sys $rss_kb $disk $n_calls" >> "$work/runs"
  awk -v l="$label" -v w="$wall" -v u="$user" -v s="$sys" -v r="$rss_kb" -v d="$disk" \
      -v c="$n_calls" -v load="$load" 'BEGIN {
    printf "%-8s wall %6.2f s   CPU %6.2f s (user %6.2f, sys %5.2f)   peak RSS %6.1f MB   " \
           "disk %6.1f MB   calls %6d   load %s\n", l, w, u + s, u, s, r / 1024, d / 1048576, c, load }'
}

run=1
while [ "$run" -le "$runs" ]; do
  if [ $((run % 2)) = 1 ]; then
    index with "$builddir" "$work/with"
    index without "$ref_dir/build" "$work/without"
    [ -z "$otherdir" ] || index other "$otherdir" "$work/other"
  else
    [ -z "$otherdir" ] || index other "$otherdir" "$work/other"
    index without "$ref_dir/build" "$work/without"
    index with "$builddir" "$work/with"
  fi
  run=$((run + 1))
done

# Medians per build (field 2 wall, 3 + 4 CPU, 5 RSS, 6 disk), then with ÷ without.
median () {
  awk -v b="$1" -v f="$2" '$1 == b { if (f == "cpu") print $3 + $4; else print $f }' "$work/runs" |
    sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
echo "-- medians of $runs runs each"
for what in "wall 2 s 1" "CPU cpu s 1" "peak-RSS 5 MB 1024" "disk 6 MB 1048576"; do
  # shellcheck disable=SC2086  # four words
  set -- $what
  a=$(median with "$2")
  b=$(median without "$2")
  awk -v n="$1" -v a="$a" -v b="$b" -v u="$3" -v d="$4" 'BEGIN {
    printf "%-9s with %8.2f %s   without %8.2f %s   call graph %+6.1f %%", n, a / d, u, b / d, u,
           (a - b) * 100 / b }'
  if [ -n "$otherdir" ]; then
    o=$(median other "$2")
    awk -v o="$o" -v b="$b" -v u="$3" -v d="$4" 'BEGIN {
      printf "   other %8.2f %s (%+6.1f %%)", o / d, u, (o - b) * 100 / b }'
  fi
  echo
done

echo "-- the call graph's tools through lode-mcp, on the last index with it"
LODE_EMBEDDING_PROVIDER=none node "$bench_srcdir/bench/mcp-latency.mjs" --runs 0 --calls "$calls" \
  --data-dir "$work/with" \
  --call codebase_symbol '{"name":"cmd_commit","file":"builtin/commit.c"}' \
  --call codebase_flow '{"entrypoint":"cmd_commit","file":"builtin/commit.c","depth":5}' \
  --call codebase_trace '{"from":"cmd_commit","fromFile":"builtin/commit.c","to":"strbuf_addf","toFile":"strbuf.c"}' \
  "$builddir/src/mcp/lode-mcp" "$tree"
echo "load average now: $(cut -d' ' -f1-3 /proc/loadavg)"
