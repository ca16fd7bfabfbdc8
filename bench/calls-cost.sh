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
# shellcheck source=bench/index-cost.sh
. "$(dirname "$0")/index-cost.sh"
cost_script="calls-cost.sh"
cost_part="call graph"
cost_count="calls SELECT count(*) FROM calls"
runs=${RUNS:-3}
calls=${CALLS:-300}
ref_dir=${REF_DIR:-${TMPDIR:-/tmp}/lode-calls-ref}
cost_setup "$ref_dir"
tree=$(bench_git_tree calls-cost.sh ${1:+"$1"})

# The reference: the tracked files as they are now, then the indexer without the call graph.
cost_reference_sources "$ref_dir"
indexer=$ref_dir/src/src/liblode/engine/lode-indexer.c
sed -i -e 's/shared->graph ? &calls : NULL/NULL/' \
       -e 's/if (graph_run != NULL && graph_run->calls_stale)/if (FALSE)/' "$indexer"
if grep -q '? &calls : NULL\|graph_run->calls_stale)' "$indexer" ||
   [ "$(grep -c '&result->references, NULL,\|if (FALSE)' "$indexer")" -ne 2 ]; then
  echo "calls-cost.sh: the cut no longer applies to lode-indexer.c; update this script" >&2
  exit 1
fi
cost_reference_build "$ref_dir"

cost_measure "$tree" "$runs"

echo "-- the call graph's tools through lode-mcp, on the last index with it"
LODE_EMBEDDING_PROVIDER=none node "$bench_srcdir/bench/mcp-latency.mjs" --runs 0 --calls "$calls" \
  --data-dir "$work/with" \
  --call codebase_symbol '{"name":"cmd_commit","file":"builtin/commit.c"}' \
  --call codebase_flow '{"entrypoint":"cmd_commit","file":"builtin/commit.c","depth":5}' \
  --call codebase_trace '{"from":"cmd_commit","fromFile":"builtin/commit.c","to":"strbuf_addf","toFile":"strbuf.c"}' \
  "$builddir/src/mcp/lode-mcp" "$tree"
echo "load average now: $(cut -d' ' -f1-3 /proc/loadavg)"
