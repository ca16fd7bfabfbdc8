#!/bin/sh
# run-fuzzers.sh — replay the hand-written seeds of tests/fuzz/seeds, then fuzz each harness
# for a while, starting from seeds made from this repository (make-seeds.py).
#
#   tests/fuzz/run-fuzzers.sh BUILDDIR SECONDS [HARNESS…]
#
# BUILDDIR is a build configured with `CC=clang meson setup BUILDDIR -Dfuzzing=true`; SECONDS
# is the fuzzing time of each harness (the replay comes on top). Every input gets at most
# FUZZ_TIMEOUT seconds (10): a hang is a finding like a crash. Exits non-zero at the first
# finding, whose input libFuzzer writes to FUZZ_ARTIFACTS (default: the working directory).
# FUZZ_CORPUS keeps the corpora between runs (default: a temporary directory).
#
# SPDX-FileCopyrightText: 2026 The Lode authors
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu

here=$(cd "$(dirname "$0")" && pwd)
build=$1
seconds=$2
shift 2

harnesses=$*
if [ -z "$harnesses" ]; then
  for exe in "$build"/tests/fuzz/fuzz-*; do
    [ -f "$exe" ] && [ -x "$exe" ] && harnesses="$harnesses ${exe##*/fuzz-}"
  done
fi
corpus=${FUZZ_CORPUS:-}
if [ -z "$corpus" ]; then
  corpus=$(mktemp -d)
  trap 'rm -rf "$corpus"' EXIT
fi
artifacts=${FUZZ_ARTIFACTS:-$PWD}
mkdir -p "$artifacts"

# GLib keeps its type system and caches for the life of the process: no leak checking.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export G_DEBUG=fatal-criticals LANG=C.UTF-8

seeds=$(mktemp -d)
"$here/make-seeds.py" "$seeds"

for h in $harnesses; do
  exe=$build/tests/fuzz/fuzz-$h
  mkdir -p "$corpus/$h" "$seeds/$h"
  echo "== fuzz-$h"
  # Hand-written seeds are regression inputs: each must pass whole (fuzzing truncates inputs
  # to -max_len).
  if [ -d "$here/seeds/$h" ] &&
     ! "$exe" -timeout="${FUZZ_TIMEOUT:-10}" -detect_leaks=0 \
       -artifact_prefix="$artifacts/fuzz-$h-" "$here/seeds/$h"/* >"$seeds/replay.log" 2>&1; then
    tail -n 30 "$seeds/replay.log"
    echo "fuzz-$h: a seed of tests/fuzz/seeds/$h fails"
    exit 1
  fi
  status=0
  "$exe" -max_total_time="$seconds" -timeout="${FUZZ_TIMEOUT:-10}" -max_len="${FUZZ_MAX_LEN:-4096}" \
    -rss_limit_mb=2048 -detect_leaks=0 -print_final_stats=1 \
    -artifact_prefix="$artifacts/fuzz-$h-" "$corpus/$h" "$seeds/$h" >"$seeds/fuzz.log" 2>&1 ||
    status=$?
  grep -E '(DONE|^stat::|==[0-9]+==|SUMMARY|ERROR|Test unit written|artifact_prefix)' \
    "$seeds/fuzz.log" || true
  if ls "$artifacts/fuzz-$h-"* >/dev/null 2>&1; then
    echo "fuzz-$h: finding in $(ls "$artifacts/fuzz-$h-"*)"
    exit 1
  fi
  # A harness that fails before libFuzzer runs it (in LLVMFuzzerInitialize) leaves no
  # artifact, only its status.
  if [ "$status" -ne 0 ]; then
    tail -n 30 "$seeds/fuzz.log"
    echo "fuzz-$h: exited with status $status"
    exit 1
  fi
done
rm -rf "$seeds"
