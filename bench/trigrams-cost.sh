#!/bin/sh
# trigrams-cost.sh — what codebase_grep's trigram index costs to build, and its look-ups (issue 29)
#
# SPDX-FileCopyrightText: 2026 The Lode authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: bench/trigrams-cost.sh [TREE]      (default: git v2.47.0, see git-tree.sh)
#
# 1. Builds the reference: this source tree as it is (the tracked files, edits included) with
#    the trigram index cut out of the store by two lines: a file's trigrams are neither
#    recorded on the chunking threads nor put in `trigram_blocks` by the writer (the tables stay,
#    empty). Everything else is the same code, so the difference is the trigrams alone. The
#    reference lives in $REF_DIR (default $TMPDIR/lode-trigrams-ref) and is rebuilt
#    incrementally there; KEEP_REF=0 removes it at the end.
# 2. `lode --no-daemon index TREE` into an empty data directory, $RUNS times (default 3) for
#    each build, alternating (bench/index-cost.sh): wall, CPU, peak RSS, disk, and the bytes
#    of the trigrams' blocks. With $OTHER_BUILDDIR (another build with trigrams, such as
#    the previous commit's), that build runs beside them, labelled "other".
# 3. bench/grep-bench.py --only-check on the last index with trigrams: codebase_grep gives
#    rg's lines for its patterns. With $OTHER_BUILDDIR, then grep-bench.py's timings through
#    lode-mcp, this build on its index and the other on its own, one after the other
#    (GREP_RUNS calls per pattern, default 5).
#
# Run it at normal priority: it measures time. BUILDDIR (default _build) is a configured,
# compiled build of this tree (debugoptimized for figures worth keeping).

set -eu

# shellcheck source=bench/git-tree.sh
. "$(dirname "$0")/git-tree.sh"
# shellcheck source=bench/index-cost.sh
. "$(dirname "$0")/index-cost.sh"
cost_script="trigrams-cost.sh"
cost_part=trigrams
cost_count="trigram-bytes SELECT coalesce(sum(length(data)), 0) FROM trigram_blocks"
runs=${RUNS:-3}
ref_dir=${REF_DIR:-${TMPDIR:-/tmp}/lode-trigrams-ref}
cost_setup "$ref_dir"
tree=$(bench_git_tree trigrams-cost.sh ${1:+"$1"})

# The reference: the tracked files as they are now, then the store without the trigrams.
cost_reference_sources "$ref_dir"
files=$ref_dir/src/src/liblode/store/lode-store-files.c
sed -i -e 's/^  return _lode_store_trigrams_put_file (self, file_id, chunks, error);$/  return TRUE;/' \
       -e '/^  _lode_store_trigrams_record (out, chunks);$/d' "$files"
if grep -q '_lode_store_trigrams_put_file\|_lode_store_trigrams_record' "$files" ||
   [ "$(diff "$bench_srcdir/src/liblode/store/lode-store-files.c" "$files" | grep -c '^[<>]')" -ne 3 ]; then
  echo "trigrams-cost.sh: the cut no longer applies to lode-store-files.c; update this script" >&2
  exit 1
fi
cost_reference_build "$ref_dir"

cost_measure "$tree" "$runs"

echo "-- codebase_grep against rg on the last index with trigrams"
BUILDDIR=$builddir python3 "$bench_srcdir/bench/grep-bench.py" --only-check "$tree" "$work/with" |
  tail -1
if [ -n "$otherdir" ]; then
  for build in with other; do
    dir=$builddir
    [ "$build" = with ] || dir=$otherdir
    echo "-- grep-bench.py timings, $build ($dir)"
    BUILDDIR=$dir python3 "$bench_srcdir/bench/grep-bench.py" --runs "${GREP_RUNS:-5}" "$tree" \
      "$work/$build" | sed -n '/^Wall ms/,/^$/p'
  done
fi
echo "load average now: $(cut -d' ' -f1-3 /proc/loadavg)"
