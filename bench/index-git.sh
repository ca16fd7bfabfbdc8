#!/bin/sh
# index-git.sh — Lode against ctags and ripgrep on git's own source, in one go
#
# SPDX-FileCopyrightText: 2026 The Lode authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: bench/index-git.sh [TREE]
#
# Without TREE, git v2.47.0 is unpacked into $TMPDIR from the bare mirror $GIT_MIRROR.
# Builds nothing: point $BUILDDIR (default _build) at a configured, compiled build
# (a debugoptimized or release one; see bench/README.md). $REPEAT passes over the query
# list, the first of which only warms caches (default 5).

set -eu

# shellcheck source=bench/git-tree.sh
. "$(dirname "$0")/git-tree.sh"
builddir=$(bench_builddir "${BUILDDIR:-_build}")
bench=$builddir/bench/lode-bench
queries=$bench_srcdir/bench/queries-git.txt
repeat=${REPEAT:-5}

missing=
command -v rg >/dev/null 2>&1 || missing="$missing ripgrep"
ctags --version 2>/dev/null | grep -q 'Universal Ctags' || missing="$missing universal-ctags"
[ -x /usr/bin/time ] || missing="$missing time"
if [ -n "$missing" ]; then
  echo "index-git.sh: missing tools; install them with: sudo apt-get install -y$missing" >&2
  exit 1
fi
if [ ! -x "$bench" ]; then
  echo "index-git.sh: $bench not found; build first: meson setup $builddir && ninja -C $builddir" >&2
  exit 1
fi

tree=$(bench_git_tree index-git.sh "$@")

work=$(mktemp -d "${TMPDIR:-/tmp}/lode-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

# Pulls one number out of the bench program's JSON line.
json_field () {
  sed -n "s/^JSON: .*\"$1\" *: *\([0-9.eE+-]*\).*/\1/p" "$work/lode.out"
}

echo "== Lode: index $tree from scratch, then $repeat passes over $(grep -cv '^#' "$queries") queries"
"$bench" --queries "$queries" --repeat "$repeat" --show-hits "$tree" | tee "$work/lode.out"
lode_lines_per_s=$(json_field lines_per_second)
lode_lines=$(json_field lines)
lode_p50=$(json_field search_p50_ms)
lode_p99=$(json_field search_p99_ms)
lode_rss=$(json_field peak_rss_mb)

echo
echo "== universal-ctags: ctags -R over the same tree"
/usr/bin/time -f '%e %M' -o "$work/ctags.time" ctags -R -f "$work/tags" "$tree"
read -r ctags_s ctags_kb < "$work/ctags.time"
# ctags parses its own selection of files; the line count is the one Lode indexed, so the
# ratio compares how long each tool needs for the same tree.
ctags_lines_per_s=$(awk -v l="$lode_lines" -v s="$ctags_s" 'BEGIN { printf "%.0f", (s > 0 ? l / s : 0) }')
echo "wall            $ctags_s s"
echo "peak RSS        $(awk -v k="$ctags_kb" 'BEGIN { printf "%.1f", k / 1024 }') MB"
echo "tags            $(grep -vc '^!_TAG' "$work/tags")"
echo "lines/s         $ctags_lines_per_s (Lode's line count / ctags wall time)"

echo
echo "== ripgrep: rg --fixed-strings --smart-case for each query, $repeat passes (first not counted)"
# Output goes to a file: with stdout on /dev/null ripgrep stops at the first match.
pass=0
: > "$work/rg.ms"
while [ "$pass" -lt "$repeat" ]; do
  grep -v '^#' "$queries" | grep -v '^[[:space:]]*$' | while IFS= read -r query; do
    start=$(date +%s%N)
    rg --fixed-strings --smart-case --line-number -- "$query" "$tree" > "$work/rg.hits" || true
    end=$(date +%s%N)
    if [ "$pass" -gt 0 ]; then
      echo "$(( (end - start) / 1000 ))" >> "$work/rg.ms"
    fi
  done
  pass=$((pass + 1))
done
# Nearest-rank percentiles over microsecond samples, printed in milliseconds.
rg_percentile () {
  sort -n "$work/rg.ms" | awk -v p="$1" '
    { v[NR] = $1 }
    END { r = int(p / 100 * NR + 0.999999); if (r < 1) r = 1; if (r > NR) r = NR;
          printf "%.2f", v[r] / 1000 }'
}
rg_p50=$(rg_percentile 50)
rg_p99=$(rg_percentile 99)
echo "samples         $(wc -l < "$work/rg.ms")"
echo "search p50      $rg_p50 ms"
echo "search p99      $rg_p99 ms"

echo
echo "== Comparison (targets in bench/README.md)"
awk -v ll="$lode_lines_per_s" -v cl="$ctags_lines_per_s" \
    -v lp50="$lode_p50" -v lp99="$lode_p99" -v rp50="$rg_p50" -v rp99="$rg_p99" \
    -v rss="$lode_rss" '
  function ratio(a, b) { return b > 0 ? a / b : 0 }
  BEGIN {
    printf "index           Lode %.0f lines/s, ctags %.0f lines/s: Lode/ctags %.2f×", ll, cl, ratio(ll, cl)
    printf "  (target ≥ 150000 lines/s)\n"
    printf "search p50      Lode %.2f ms, rg %.2f ms: %.0f× faster", lp50, rp50, ratio(rp50, lp50)
    printf "  (target ≤ 10 ms, ≥ 50×)\n"
    printf "search p99      Lode %.2f ms, rg %.2f ms: %.0f× faster", lp99, rp99, ratio(rp99, lp99)
    printf "  (target ≤ 50 ms)\n"
    printf "peak RSS        Lode %.1f MB  (target ≤ 300 MB)\n", rss
  }'
