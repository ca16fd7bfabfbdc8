#!/bin/sh
# kill-index.sh — SIGKILL at 20 random moments of `lode index` on a real tree, each followed
# by a resumed run that must leave an index equal to one built from scratch
#
# SPDX-FileCopyrightText: 2026 The Lode authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: bench/kill-index.sh TREE
#
# Runs the test /lode/faults/kill-index (tests/daemon/test-faults.c), which the test suite
# runs on a generated tree, on TREE instead (LODE_FAULTS_TREE). TREE is only read; the
# indexes go to a temporary folder. Builds nothing: $BUILDDIR (default _build) must be
# compiled. Prints each kill's moment and the state it left, and fails on the first index
# that differs from a fresh one.

set -eu

srcdir=$(cd "$(dirname "$0")/.." && pwd)
builddir=${BUILDDIR:-_build}
case $builddir in
  /*) ;;
  *) builddir=$srcdir/$builddir ;;
esac
tree=${1:?usage: bench/kill-index.sh TREE}
exe=$builddir/tests/daemon/test-faults

if [ ! -x "$exe" ]; then
  echo "kill-index.sh: $exe not found; build first: meson compile -C $builddir" >&2
  exit 1
fi

LODE_FAULTS_TREE=$(cd "$tree" && pwd) \
LODE_CLI=$builddir/src/cli/lode \
G_TEST_SRCDIR=$srcdir/tests \
G_TEST_BUILDDIR=$builddir/tests \
GSETTINGS_BACKEND=memory \
GSETTINGS_SCHEMA_DIR=$builddir/data \
  exec "$exe" -p /lode/faults/kill-index --verbose
