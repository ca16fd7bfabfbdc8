#!/usr/bin/env python3
"""edit-cost.py — what one edited file costs `lode index` on a large tree (issue 30)

Usage: bench/edit-cost.py [--ref-builddir DIR] [--edits N] [--mode append|insert] TREE

Indexes TREE into a fresh data directory with $BUILDDIR's lode (default _build) and, with
--ref-builddir, with that build into another; then N times (default 6) edits one source file
of TREE and runs `lode --no-daemon index TREE` with each build on its own index, the builds
taking turns (the first of each round alternating), as the watcher's runs follow an editor's
saves. Prints each run's wall and CPU time (user + system) and the call pass's line "Calls:
N of M files resolved again" (G_MESSAGES_DEBUG), then the totals.

The edits (each to another file, the TREE's source files taken at even steps in path order):
  append  a comment line at the file's end: every definition stays where it was
  insert  an empty line in the middle: the definitions below it move

TREE is edited in place and restored at the end, whatever happens. bench/scale.sh KEEP=1
leaves a tree of five copies of git to run it on. Run it at normal priority: it measures
time.
"""

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

BUILDDIR = os.environ.get("BUILDDIR", "_build")
SOURCES = (".c", ".h", ".rs", ".go", ".py", ".ts", ".js", ".java")


def run(builddir, data_dir, tree):
    """One `lode index` run: wall and CPU seconds, and the call pass's line."""
    env = dict(os.environ, LODE_DATA_DIR=data_dir, LODE_EMBEDDING_PROVIDER="none",
               G_MESSAGES_DEBUG="lode-call-pass")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([os.path.join(builddir, "src", "cli", "lode"), "--no-daemon", "index",
                           tree], env=env, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    calls = [line.split("Calls: ", 1)[1] for line in done.stderr.splitlines()
             if "Calls: " in line]
    return wall, cpu, calls[0] if calls else "no call pass"


def source_files(tree, n):
    paths = sorted(os.path.relpath(os.path.join(d, f), tree)
                   for d, dirs, files in os.walk(tree) if "/.git" not in d + "/"
                   for f in files if f.endswith(SOURCES))
    if len(paths) < n:
        sys.exit(f"edit-cost.py: {tree} has {len(paths)} source files, fewer than {n}")
    return [paths[i * len(paths) // n] for i in range(n)]


def edit(path, mode, i):
    with open(path, "rb") as f:
        text = f.read()
    if mode == "append":
        text += b"/* edit %d */\n" % i
    else:
        middle = text.find(b"\n", len(text) // 2) + 1
        text = text[:middle] + b"\n" + text[middle:]
    with open(path, "wb") as f:
        f.write(text)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ref-builddir")
    parser.add_argument("--edits", type=int, default=6)
    parser.add_argument("--mode", choices=("append", "insert"), default="append")
    parser.add_argument("tree")
    args = parser.parse_args()
    tree = os.path.abspath(args.tree)
    builds = [("this", BUILDDIR)] + ([("ref", args.ref_builddir)] if args.ref_builddir else [])
    for _, builddir in builds:
        if not os.access(os.path.join(builddir, "src", "cli", "lode"), os.X_OK):
            sys.exit(f"edit-cost.py: no {builddir}/src/cli/lode; build first")

    files = source_files(tree, args.edits)
    originals = {path: open(os.path.join(tree, path), "rb").read() for path in files}
    data = tempfile.mkdtemp(prefix="lode-edit-cost-")
    totals = {name: [0.0, 0.0] for name, _ in builds}
    try:
        for name, builddir in builds:
            wall, cpu, _ = run(builddir, os.path.join(data, name), tree)
            print(f"{name}: fresh index {wall:.2f} s wall, {cpu:.2f} s CPU", flush=True)
        for i, path in enumerate(files):
            edit(os.path.join(tree, path), args.mode, i)
            results = []
            for name, builddir in (builds if i % 2 == 0 else builds[::-1]):
                wall, cpu, calls = run(builddir, os.path.join(data, name), tree)
                totals[name][0] += wall
                totals[name][1] += cpu
                results.append(f"{name} {wall:.2f} s wall {cpu:.2f} s CPU ({calls})")
            print(f"{i} {path}: " + " | ".join(sorted(results)), flush=True)
    finally:
        for path, text in originals.items():
            with open(os.path.join(tree, path), "wb") as f:
                f.write(text)
        shutil.rmtree(data, ignore_errors=True)
    for name, (wall, cpu) in totals.items():
        print(f"{name}: {len(files)} edits, {wall:.2f} s wall, {cpu:.2f} s CPU in all")


if __name__ == "__main__":
    main()
