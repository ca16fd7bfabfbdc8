# shellcheck shell=sh
# shellcheck disable=SC2154  # bench_srcdir (git-tree.sh) and cost_* are the sourcing script's
# index-cost.sh — what calls-cost.sh and trigrams-cost.sh share; sourced after git-tree.sh, not run
#
# SPDX-FileCopyrightText: 2026 The Lode authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# What one part of the index costs to build: this source tree as it is, beside the same tree
# with that part cut out by a few lines (the reference), indexing the same tree in alternating
# runs. The script that sources this one sets:
#   cost_script   its name, for messages
#   cost_part     what is cut, for the last column ("call graph", "trigrams")
#   cost_count    a label and an SQL query of one integer on the index, printed per run
#                 ("calls" and "SELECT count(*) FROM calls")
# and calls, in this order:
# cost_setup REF_DIR: checks the tools and builds, sets $builddir, $otherdir, $buildtype, $work
#   and the trap that removes $work (and REF_DIR with KEEP_REF=0)
# cost_reference_sources REF_DIR: copies the tracked files into REF_DIR/src (tar keeps their
#   times, so that a kept build only recompiles what changed); the caller then cuts its part
# cost_reference_build REF_DIR: builds REF_DIR/src's lode in REF_DIR/build, of $buildtype
# cost_runs TREE RUNS: `lode --no-daemon index TREE` into an empty data directory, RUNS times
#   for each build, alternating (with, without, then without, with, …) so that load from
#   other jobs hits both alike; with $OTHER_BUILDDIR, that build runs beside them as "other".
#   One line per run: wall, user + system CPU, peak RSS (/usr/bin/time), the index's size on
#   disk (WAL included), the count, the load average
# cost_medians RUNS: the medians per build and the part's cost in %
# cost_measure TREE RUNS: the tree's size, then cost_runs and cost_medians

cost_setup () {
  builddir=$(bench_builddir "${BUILDDIR:-_build}")
  otherdir=
  [ -z "${OTHER_BUILDDIR:-}" ] || otherdir=$(bench_builddir "$OTHER_BUILDDIR")
  cost_ref_dir=$1

  missing=
  [ -x /usr/bin/time ] || missing="$missing time"
  command -v node >/dev/null 2>&1 || missing="$missing nodejs"
  command -v sqlite3 >/dev/null 2>&1 || missing="$missing sqlite3"
  if [ -n "$missing" ]; then
    echo "$cost_script: missing tools; install them with: sudo apt-get install -y$missing" >&2
    exit 1
  fi
  if [ ! -x "$builddir/src/cli/lode" ] || [ ! -x "$builddir/src/mcp/lode-mcp" ]; then
    echo "$cost_script: $builddir has no lode and lode-mcp; build first: meson compile -C $builddir" >&2
    exit 1
  fi
  if [ -n "$otherdir" ] && [ ! -x "$otherdir/src/cli/lode" ]; then
    echo "$cost_script: $otherdir has no lode; build first: meson compile -C $otherdir" >&2
    exit 1
  fi
  buildtype=$(meson introspect --buildoptions "$builddir" |
              python3 -c 'import json, sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "buildtype"))')

  work=$(mktemp -d "${TMPDIR:-/tmp}/lode-index-cost.XXXXXX")
  trap cost_cleanup EXIT INT TERM
}

cost_cleanup () {
  rm -rf "$work"
  [ "${KEEP_REF:-1}" = 1 ] || rm -rf "$cost_ref_dir"
}

cost_reference_sources () {
  echo "== reference: $bench_srcdir without the $cost_part, in $1" >&2
  mkdir -p "$1/src"
  (cd "$bench_srcdir" && git ls-files -z | tar --null -T - -cf -) | tar -xf - -C "$1/src"
}

cost_reference_build () {
  [ -f "$1/build/build.ninja" ] ||
    nice -n 19 meson setup --buildtype="$buildtype" "$1/build" "$1/src" >&2
  nice -n 19 meson compile -C "$1/build" src/cli/lode >&2
}

# cost_index LABEL BUILD DATA_DIR TREE: one run into an empty data directory, one line
cost_index () {
  label=$1 build=$2 data=$3
  rm -rf "$data"
  mkdir -p "$data"
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  LODE_DATA_DIR=$data LODE_EMBEDDING_PROVIDER=none \
    /usr/bin/time -f '%e %U %S %M' -o "$work/time" \
    "$build/src/cli/lode" --no-daemon index "$4" > "$work/index.out" 2>&1 || {
      echo "$cost_script: $label failed:" >&2
      cat "$work/index.out" >&2
      exit 1
    }
  read -r wall user sys rss_kb < "$work/time"
  disk=$(du -cb "$data"/projects/*/index.db* | tail -1 | cut -f1)
  # -1: the query does not apply to this build's schema (another build, from before it changed).
  count=$(sqlite3 "$(echo "$data"/projects/*/index.db)" "${cost_count#* }" 2>/dev/null) || count=-1
  echo "$label $wall $user $sys $rss_kb $disk $count" >> "$work/runs"
  awk -v l="$label" -v w="$wall" -v u="$user" -v s="$sys" -v r="$rss_kb" -v d="$disk" \
      -v c="$count" -v n="${cost_count%% *}" -v load="$load" 'BEGIN {
    printf "%-8s wall %6.2f s   CPU %6.2f s (user %6.2f, sys %5.2f)   peak RSS %6.1f MB   " \
           "disk %6.1f MB   %s %8d   load %s\n", l, w, u + s, u, s, r / 1024, d / 1048576, n, c, load }'
}

cost_runs () {
  run=1
  while [ "$run" -le "$2" ]; do
    if [ $((run % 2)) = 1 ]; then
      cost_index with "$builddir" "$work/with" "$1"
      cost_index without "$cost_ref_dir/build" "$work/without" "$1"
      [ -z "$otherdir" ] || cost_index other "$otherdir" "$work/other" "$1"
    else
      [ -z "$otherdir" ] || cost_index other "$otherdir" "$work/other" "$1"
      cost_index without "$cost_ref_dir/build" "$work/without" "$1"
      cost_index with "$builddir" "$work/with" "$1"
    fi
    run=$((run + 1))
  done
}

# cost_median BUILD FIELD: field 2 wall, cpu (3 + 4), 5 RSS, 6 disk
cost_median () {
  awk -v b="$1" -v f="$2" '$1 == b { if (f == "cpu") print $3 + $4; else print $f }' "$work/runs" |
    sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

cost_medians () {
  echo "-- medians of $1 runs each"
  for what in "wall 2 s 1" "CPU cpu s 1" "peak-RSS 5 MB 1024" "disk 6 MB 1048576"; do
    # shellcheck disable=SC2086  # four words
    set -- $what
    a=$(cost_median with "$2")
    b=$(cost_median without "$2")
    awk -v n="$1" -v a="$a" -v b="$b" -v u="$3" -v d="$4" -v part="$cost_part" 'BEGIN {
      printf "%-9s with %8.2f %s   without %8.2f %s   %s %+6.1f %%", n, a / d, u, b / d, u, part,
             (a - b) * 100 / b }'
    if [ -n "$otherdir" ]; then
      o=$(cost_median other "$2")
      awk -v o="$o" -v b="$b" -v u="$3" -v d="$4" 'BEGIN {
        printf "   other %8.2f %s (%+6.1f %%)", o / d, u, (o - b) * 100 / b }'
    fi
    echo
  done
}

cost_measure () {
  cost_src_bytes=$(du -sb "$1" | cut -f1)
  echo "== $1: $(find "$1" -type f | wc -l) files, $(awk -v b="$cost_src_bytes" 'BEGIN { printf "%.1f", b / 1048576 }') MB; $buildtype builds"
  cost_runs "$1" "$2"
  cost_medians "$2"
}
