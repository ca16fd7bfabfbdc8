# shellcheck shell=sh
# git-tree.sh — what the git benches share; sourced, not run
#
# SPDX-FileCopyrightText: 2026 The Lode authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# bench_builddir DIR: the absolute path of the build directory DIR (a relative one is taken
#   from the source tree)
# bench_git_tree SCRIPT [TREE]: prints TREE, or the git v2.47.0 tree in $TMPDIR, unpacked from
#   the bare mirror $GIT_MIRROR when it is not there yet; exits with a message naming SCRIPT
#   when neither is possible

bench_srcdir=$(cd "$(dirname "$0")/.." && pwd)
bench_git_tag=v2.47.0

bench_builddir () {
  case $1 in
    /*) echo "$1" ;;
    *) echo "$bench_srcdir/$1" ;;
  esac
}

bench_git_tree () {
  if [ $# -ge 2 ]; then
    [ -d "$2" ] || { echo "$1: $2 is not a directory" >&2; exit 1; }
    echo "$2"
    return
  fi
  bench_tree=${TMPDIR:-/tmp}/git-${bench_git_tag#v}
  if [ ! -f "$bench_tree/Makefile" ]; then
    if [ -z "${GIT_MIRROR:-}" ]; then
      echo "$1: give a TREE, or a clone of git in GIT_MIRROR to unpack $bench_git_tag from" >&2
      exit 1
    fi
    echo "Unpacking git $bench_git_tag from $GIT_MIRROR into $bench_tree" >&2
    mkdir -p "$bench_tree"
    git --git-dir="$GIT_MIRROR" archive "$bench_git_tag" | tar -x -C "$bench_tree"
  fi
  echo "$bench_tree"
}
