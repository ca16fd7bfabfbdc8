#!/usr/bin/env python3
# callgraph-gcc.py — Lode's call graph against GCC's, on a real C project
#
# SPDX-FileCopyrightText: 2026 The Lode authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Compare Lode's direct-call edges with the ones GCC compiles.

The project is built with `-O0 -fcallgraph-info` (GCC >= 10 writes one VCG file, `.ci`, per
translation unit: the functions it defines and every call they make, with the call's
file:line:col). Lode's edges come from `lode-calls-bench ROOT` (extraction and resolution in
one process, the same code the indexer runs). Both sides are reduced to edges between
functions the project defines, keyed by (file, name) for the caller and for a `static`
callee, by name for a callee with external linkage (GCC does not know where that one is
defined; a name defined by several files of the build is left out of the reference, as it
depends on what is linked with what).

  precision = Lode edges that GCC has (any direct call, also after macro expansion)
              / Lode edges between compiled functions
  recall    = GCC edges Lode has / GCC edges written in the source

A GCC edge is "written" when the callee's name is the identifier at the call's location
(or right after an opening parenthesis there): a call that only a macro's expansion makes
points at the macro's name and is left out; so is a call that lies in another function's
body, inlined into the caller (`always_inline` holds even at -O0), and every call of a
function whose name is not written where it is defined (a macro makes it). Callers in files the build does not compile are
left out of both sides. A Lode edge to a function of a compiled file that GCC never emitted
(inlined at every call: `always_inline`) is left out too; one to a function of a file the
build does not compile (another platform's) counts against Lode. Per function, the
precision and recall of its callees and of its callers are averaged too.

Usage:
  bench/callgraph-gcc.py --project git  --source DIR --work DIR --lode-bench PATH
  bench/callgraph-gcc.py --project zstd --source DIR --work DIR --lode-bench PATH
  bench/callgraph-gcc.py --project jq   --source DIR --work DIR --lode-bench PATH
  (--source: a clean tree of the project; it is copied into --work and built there)
"""

import argparse
import collections
import glob
import os
import re
import shutil
import subprocess
import sys

RECIPES = {
    # git v2.47.0: its own Makefile, without the optional libraries.
    "git": {
        "make": ["make", "-k", "-j2", "objects", "CFLAGS=-O0 -g0 -fcallgraph-info",
                 "NO_CURL=1", "NO_EXPAT=1", "NO_GETTEXT=1", "NO_TCLTK=1", "NO_PERL=1",
                 "NO_PYTHON=1", "NO_OPENSSL=1"],
    },
    # zstd v1.5.6: the library and the command-line programs, each file on its own.
    "zstd": {
        "sources": ["lib/common/*.c", "lib/compress/*.c", "lib/decompress/*.c",
                    "lib/dictBuilder/*.c", "lib/legacy/*.c", "programs/*.c"],
        "cflags": ["-Ilib", "-Ilib/common", "-Ilib/legacy", "-Iprograms",
                   "-DZSTD_LEGACY_SUPPORT=5", "-DZSTD_MULTITHREAD", "-DZSTD_DISABLE_ASM",
                   "-DZSTD_GZCOMPRESS", "-DZSTD_GZDECOMPRESS"],
    },
    # jq 1.7.1: its sources and decNumber, with the two headers its Makefile generates.
    "jq": {
        "prepare": [
            "echo '#define JQ_VERSION \"1.7.1\"' > src/version.h",
            "sed -e 's/\\\\/\\\\\\\\/g' -e 's/\"/\\\\\"/g' -e 's/^/\"/' "
            "-e 's/$/\\\\n\"/' src/builtin.jq > src/builtin.inc",
        ],
        "sources": ["src/*.c", "src/decNumber/*.c"],
        "cflags": ["-I.", "-Isrc", "-DIEEE_8087", "-DHAVE_DECNUM", "-DUSE_DECNUM"],
    },
}

NODE_RE = re.compile(r'node: \{ title: "([^"]*)" label: "([^"\\]*)\\n([^"]*)"( shape : ellipse)?')
EDGE_RE = re.compile(r'edge: \{ sourcename: "([^"]*)" targetname: "([^"]*)" label: "([^"]*)"')


def build(recipe, work):
    if "make" in recipe:
        subprocess.run(["nice"] + recipe["make"], cwd=work, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False)
        return
    for command in recipe.get("prepare", []):
        subprocess.run(command, shell=True, cwd=work, check=True)
    out = os.path.join(work, "ci-objects")
    os.makedirs(out, exist_ok=True)
    for pattern in recipe["sources"]:
        for source in sorted(glob.glob(os.path.join(work, pattern))):
            rel = os.path.relpath(source, work)
            obj = os.path.join(out, rel.replace("/", "__") + ".o")
            subprocess.run(["nice", "gcc", "-O0", "-g0", "-fcallgraph-info", "-c", rel,
                            "-o", obj] + recipe["cflags"], cwd=work,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)


def norm(path):
    return os.path.normpath(path)


class Gcc:
    """The call graph GCC wrote, over every .ci file under a build directory."""

    def __init__(self, work):
        self.defined = set()                     # (file, name) of every function defined
        self.static = set()                      # the same, for static ones
        self.global_defs = collections.defaultdict(set)   # name -> {(file, name)}
        self.edges = []                          # (caller node, callee node, loc)
        self.starts = collections.defaultdict(set)        # file -> first lines of functions
        self.start_of = {}                       # (file, name) -> its first line
        self.loc_of = {}                         # (file, name) -> file:line:col of its name
        for ci in glob.glob(os.path.join(work, "**", "*.ci"), recursive=True):
            self._read(ci)

    def _read(self, path):
        nodes = {}
        edges = []
        with open(path, errors="replace") as f:
            for line in f:
                m = NODE_RE.match(line)
                if m:
                    title, name, loc, external = m.groups()
                    file = norm(loc.rsplit(":", 2)[0]) if ":" in loc else loc
                    # A function is listed where first called, and again where defined.
                    if title in nodes and nodes[title][2]:
                        continue
                    nodes[title] = (name, file, external is None, ":" in title)
                    if external is None:
                        self.defined.add((file, name))
                        self.loc_of[(file, name)] = loc
                        try:
                            self.starts[file].add(int(loc.rsplit(":", 2)[1]))
                            self.start_of[(file, name)] = int(loc.rsplit(":", 2)[1])
                        except (IndexError, ValueError):
                            pass
                        if ":" in title:
                            self.static.add((file, name))
                        else:
                            self.global_defs[name].add((file, name))
                    continue
                m = EDGE_RE.match(line)
                if m:
                    edges.append(m.groups())
        for source, target, loc in edges:
            self.edges.append((nodes.get(source), nodes.get(target), loc))

    def inside(self, caller, loc):
        """Whether the call at @loc lies in @caller's own body, not in a function inlined
        into it (`always_inline` functions are inlined even at -O0)."""
        try:
            file, line, _ = loc.rsplit(":", 2)
            line = int(line)
        except ValueError:
            return False
        file = norm(file)
        start = self.start_of.get((caller[1], caller[0]))
        if start is None or file != caller[1] or line < start:
            return False
        return not any(start < other <= line for other in self.starts[file])

    def key(self, callee):
        """A callee's key: (file, name) for a static one or a name defined once, else None."""
        name, file, defined, static = callee
        if static:
            return (file, name)
        defs = self.global_defs.get(name, set())
        if len(defs) == 1:
            return next(iter(defs))
        return None


def written(work, loc, name, cache):
    """Whether the identifier at file:line:col is @name (or `(name`)."""
    try:
        file, line, col = loc.rsplit(":", 2)
        line, col = int(line), int(col)
    except ValueError:
        return False
    path = os.path.join(work, file)
    if path not in cache:
        try:
            with open(path, errors="replace") as f:
                cache[path] = f.read().split("\n")
        except OSError:
            cache[path] = []
    lines = cache[path]
    if line < 1 or line > len(lines):
        return False
    text = lines[line - 1][col - 1:].lstrip("( \t*")
    return re.match(re.escape(name) + r"\b", text) is not None


def lode_edges(tsv):
    """(caller key, callee key) of every resolved call between functions."""
    edges = set()
    callers = set()
    with open(tsv, errors="replace") as f:
        for line in f:
            p = line.rstrip("\n").split("\t")
            if len(p) < 16:
                continue
            path, caller, caller_kind, _, _, _, _, status, _, _, tpath, tname, tkind = p[:13]
            if caller_kind != "function":
                continue
            callers.add((norm(path), caller))
            if status != "resolved" or tkind != "function":
                continue
            edges.add(((norm(path), caller), (norm(tpath), tname)))
    return edges, callers


def ratio(a, b):
    return a / b if b else 1.0


def per_function(lode, ref_all, ref_written, side):
    """Mean precision and recall over functions of their callees (side 0) or callers (1)."""
    groups = collections.defaultdict(lambda: [set(), set(), set()])
    for e in lode:
        groups[e[side]][0].add(e)
    for e in ref_all:
        groups[e[side]][1].add(e)
    for e in ref_written:
        groups[e[side]][2].add(e)
    precisions, recalls = [], []
    for mine, every, wr in groups.values():
        if mine:
            precisions.append(ratio(len(mine & every), len(mine)))
        if wr:
            recalls.append(ratio(len(mine & wr), len(wr)))
    return ratio(sum(precisions), len(precisions)), ratio(sum(recalls), len(recalls))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--project", choices=sorted(RECIPES), required=True)
    parser.add_argument("--source", required=True, help="a clean tree of the project")
    parser.add_argument("--work", required=True, help="where to copy and build it")
    parser.add_argument("--lode-bench", required=True, help="path of lode-calls-bench")
    parser.add_argument("--no-build", action="store_true", help="reuse the last build")
    parser.add_argument("--misses", type=int, default=0, help="print this many misses")
    args = parser.parse_args()

    work = os.path.abspath(args.work)
    if not args.no_build:
        if os.path.exists(work):
            shutil.rmtree(work)
        shutil.copytree(args.source, work, symlinks=True)
        subprocess.run(["chmod", "-R", "u+w", work], check=True)
        build(RECIPES[args.project], work)
    gcc = Gcc(work)
    if not gcc.defined:
        sys.exit("no .ci files under %s: did the build run?" % work)

    tsv = os.path.join(os.path.dirname(work), os.path.basename(work) + "-lode.tsv")
    with open(tsv, "w") as out:
        subprocess.run([args.lode_bench, args.source], stdout=out, check=True)
    lode, lode_callers = lode_edges(tsv)

    cache = {}
    ref_all, ref_written = set(), set()
    for caller, callee, loc in gcc.edges:
        if caller is None or callee is None or not caller[2]:
            continue
        # Code generated with `#line` (bison's parser.c as parser.y) is compared as C only.
        if not (caller[1].endswith((".c", ".h")) and callee[1].endswith((".c", ".h"))):
            continue
        ckey = (caller[1], caller[0])
        # A function whose name a macro makes (`#define decFloatAbs decDoubleAbs`) has no
        # name in the source to find it by.
        if not written(work, gcc.loc_of.get(ckey, ""), caller[0], cache):
            continue
        tkey = gcc.key(callee)
        if tkey is None or tkey not in gcc.defined:
            continue
        edge = (ckey, tkey)
        ref_all.add(edge)
        if written(work, loc, callee[0], cache) and gcc.inside(caller, loc):
            ref_written.add(edge)

    # Lode's side: callers the build compiled; a callee Lode names but GCC never compiled (a
    # variant for another platform) counts against it.
    compiled_callers = {k for k in gcc.defined}
    compiled_files = {k[0] for k in gcc.defined}
    # A callee in a compiled file that GCC never emitted was inlined at every call
    # (`always_inline`): neither side can say anything of it.
    mine = {e for e in lode if e[0] in compiled_callers and
            (e[1] in gcc.defined or e[1][0] not in compiled_files)}
    tp = mine & ref_all
    found = mine & ref_written
    precision = ratio(len(tp), len(mine))
    recall = ratio(len(found), len(ref_written))
    callee_p, callee_r = per_function(mine, ref_all, ref_written, 0)
    caller_p, caller_r = per_function(mine, ref_all, ref_written, 1)

    print("project %s: %d functions compiled, GCC edges %d (written in the source %d), "
          "Lode edges %d" % (args.project, len(gcc.defined), len(ref_all), len(ref_written),
                             len(mine)))
    print("| measure | precision | recall |")
    print("| --- | --- | --- |")
    print("| edges | %.3f | %.3f |" % (precision, recall))
    print("| callees per function (mean) | %.3f | %.3f |" % (callee_p, callee_r))
    print("| callers per function (mean) | %.3f | %.3f |" % (caller_p, caller_r))
    if args.misses:
        print("\nfalse positives:")
        for e in sorted(mine - ref_all)[:args.misses]:
            print("  %s:%s -> %s:%s" % (e[0][0], e[0][1], e[1][0], e[1][1]))
        print("\nmissed:")
        for e in sorted(ref_written - mine)[:args.misses]:
            print("  %s:%s -> %s:%s" % (e[0][0], e[0][1], e[1][0], e[1][1]))


if __name__ == "__main__":
    main()
