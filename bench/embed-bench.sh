#!/bin/sh
# embed-bench.sh — the built-in encoder against onnxruntime-node on the same random-weight
# models of real shapes, interleaved, medians of several rounds. See bench/README.md.
#
# SPDX-FileCopyrightText: 2026 The Lode authors
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu

here=$(cd "$(dirname "$0")" && pwd)
src=$(dirname "$here")
BUILDDIR=${BUILDDIR:-$src/_build}
SHARED=${SHARED:-$src/../shared}
WORK=${WORK:-${TMPDIR:-/tmp}/lode-embed-bench}
ROUNDS=${ROUNDS:-3}
SHAPES=${SHAPES:-1x128,8x128,1x512}
# mk_shape.py needs Debian's python3-numpy and python3-onnx, which a virtualenv may hide.
PYTHON=${PYTHON:-/usr/bin/python3}

bench="$BUILDDIR/bench/embed-bench"
[ -x "$bench" ] || { echo "embed-bench.sh: build first ($bench missing)" >&2; exit 1; }
[ -f "$SHARED/tools/mk_shape.py" ] || { echo "embed-bench.sh: no $SHARED/tools (set SHARED)" >&2; exit 1; }

mkdir -p "$WORK/models/all-MiniLM-L6-v2-tok"
cp "$SHARED/models/bert-uncased-tokenizer/config.json" "$WORK/models/all-MiniLM-L6-v2-tok/"
cp "$SHARED/tools/bench.mjs" "$WORK/"

# name H NH I L: the shapes of all-MiniLM-L6-v2 and bge-small-en-v1.5, random weights.
models="all-MiniLM-L6-v2:384:12:1536:6 bge-small-en-v1.5:384:12:1536:12"
for spec in $models; do
  IFS=: read -r name h nh i l <<EOF
$spec
EOF
  if [ ! -f "$WORK/models/$name/onnx/model.onnx" ]; then
    echo "Generating $name (H=$h NH=$nh I=$i L=$l)…" >&2
    mkdir -p "$WORK/models/$name/onnx"
    (cd "$WORK" && H=$h NH=$nh I=$i L=$l OUTD=$name "$PYTHON" "$SHARED/tools/mk_shape.py")
  fi
done

if [ ! -d "$WORK/node_modules/onnxruntime-node" ]; then
  echo "Installing onnxruntime-node 1.30.0…" >&2
  # Its npm tarball carries the CPU runtime; the install script would fetch a GPU one.
  (cd "$WORK" && ONNXRUNTIME_NODE_INSTALL=skip npm install --no-save --no-audit --no-fund \
     onnxruntime-node@1.30.0 >/dev/null)
fi

: >"$WORK/lode.txt"
: >"$WORK/ort.txt"
for round in $(seq "$ROUNDS"); do
  echo "Round $round of $ROUNDS…" >&2
  for spec in $models; do
    name=${spec%%:*}
    "$bench" --shapes "$SHAPES" "$WORK/models/$name" >>"$WORK/lode.txt"
    (cd "$WORK" && node bench.mjs "models/$name/onnx/model.onnx" 2>/dev/null) >>"$WORK/ort.txt"
  done
done

# Lines read "NAME B=8 S=128: 123.4 ms/batch, 5678 tokens/s". Per NAME and shape: the median
# and the best of the rounds (on a shared machine the best is the least disturbed run).
awk '
  function sort(list, v,   n, i, j, t) {
    n = split(list, v, " ")
    for (i = 1; i <= n; i++)
      for (j = i + 1; j <= n; j++)
        if (v[j] + 0 < v[i] + 0) { t = v[i]; v[i] = v[j]; v[j] = t }
    return n
  }
  function median(list,   v, n) {
    n = sort(list, v)
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
  }
  function best(list,   v, n) {
    n = sort(list, v)
    return v[n]
  }
  FNR == 1 { tool = (FILENAME ~ /lode\.txt$/) ? "lode" : "ort" }
  / tokens\/s$/ {
    key = $1 " " $2 " " substr($3, 1, length($3) - 1)
    tps[tool, key] = tps[tool, key] " " $(NF - 1)
    if (!(key in seen)) { seen[key] = 1; order[++n] = key }
  }
  END {
    printf "%-30s %21s %21s %15s\n", "tokens/s", "lode median / best", "onnxrt median / best",
           "ratio med/best"
    for (i = 1; i <= n; i++) {
      key = order[i]
      if (tps["lode", key] == "" || tps["ort", key] == "") continue
      lm = median(tps["lode", key]); lb = best(tps["lode", key])
      om = median(tps["ort", key]); ob = best(tps["ort", key])
      printf "%-30s %10.0f / %8.0f %10.0f / %8.0f %7.2fx / %.2fx\n", key, lm, lb, om, ob,
             lm / om, lb / ob
    }
  }' "$WORK/lode.txt" "$WORK/ort.txt"
