#!/usr/bin/env python3
"""real-repos.py — Lode on real repositories, one per language, beside universal-ctags

Usage: bench/real-repos.py CHECKOUTS [NAME…]

Every folder of CHECKOUTS (or the NAMEs given) is a checkout of a real repository, made by
whoever runs this (never inside Lode's tree). For each, from scratch:

1. `lode --no-daemon index --json` into a temporary data directory, timed by /usr/bin/time:
   files, lines, wall seconds, CPU seconds (user and system: on a shared machine the wall
   time depends on the load, the CPU time much less), lines/s, peak RSS, the files skipped
   with their reasons (and the path of each file that went over the parse time budget);
2. `ctags -R --output-format=json` over the same tree, timed the same way: the reference;
3. a sample of definitions ctags finds (functions, methods, classes and the like, whose name
   ctags defines only once in the tree, 30 by default, the same ones on every run; not the
   names ctags makes up for anonymous functions), each searched by name with
   `lode search --json`: how many come back first (the first result's file is the
   definition's, and its lines hold it). The languages ctags has no parser for (Debian 12's
   universal-ctags 5.9: Scala, Swift, Dart, Vue, Svelte) add nothing to the sample.

A repository passes when the index finishes within 10 × ctags' time + 10 s (issue 16).
Exits 1 if any failed or did not finish. $BUILDDIR (default _build) must be compiled;
$SAMPLE sets the sample size, $TIMEOUT the seconds a run may take before it counts as
stuck (default 1800).
"""

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter

DEFINITION_KINDS = {"function", "method", "class", "struct", "interface", "enum", "trait",
                    "module", "type", "typedef", "macro", "object", "protocol", "record"}


def timed(argv, env=None, stdout=subprocess.PIPE):
    """Runs argv under /usr/bin/time: (completed process, wall seconds, CPU seconds (user and
    system), peak RSS in MB)."""
    with tempfile.NamedTemporaryFile("r") as times:
        process = subprocess.run(["/usr/bin/time", "-f", "%e %U %S %M", "-o", times.name] + argv,
                                 env=env, stdout=stdout, stderr=subprocess.PIPE, text=True,
                                 timeout=int(os.environ.get("TIMEOUT", "1800")))
        wall, user, system, rss_kb = times.read().split()[-4:]
    return process, float(wall), float(user) + float(system), int(rss_kb) / 1024


def ctags_definitions(tree, tags):
    """ctags over @tree: its wall seconds and the definitions whose name is defined once."""
    # Anonymous functions get made-up names (AnonymousFunction4ef3f5b83400) that no source
    # holds: a tree with minified JavaScript had its whole sample of them.
    process, wall, _, _ = timed(["ctags", "-R", "--output-format=json", "--fields=+nK",
                                 "--extras=-{anonymous}", "-f", tags, tree],
                                stdout=subprocess.DEVNULL)
    if process.returncode != 0:
        raise RuntimeError(f"ctags failed: {process.stderr[-500:]}")
    by_name = {}
    with open(tags, encoding="utf-8", errors="replace") as f:
        for line in f:
            try:
                tag = json.loads(line)
            except ValueError:
                continue
            if tag.get("_type") != "tag" or "line" not in tag:
                continue
            by_name.setdefault(tag["name"], []).append(tag)
    definitions = [tags[0] for name, tags in by_name.items()
                   if len(tags) == 1 and len(name) >= 4 and name.isidentifier() and
                   tags[0].get("kind") in DEFINITION_KINDS]
    return wall, definitions


def sample(definitions, n):
    """The same @n definitions on every run: the smallest hashes of their names."""
    return sorted(definitions, key=lambda t: hashlib.sha1(t["name"].encode()).hexdigest())[:n]


def found_first(lode, env, tree, tag):
    process = subprocess.run([lode, "--no-daemon", "search", "--json", "-p", tree, tag["name"]],
                             env=env, capture_output=True, text=True, timeout=120)
    if process.returncode != 0:
        return False
    results = json.loads(process.stdout).get("results", [])
    if not results:
        return False
    first = results[0]
    path = os.path.relpath(os.path.join(tree, first["path"]), tree)
    want = os.path.relpath(os.path.abspath(tag["path"]), tree)
    return path == want and first["startLine"] <= tag["line"] <= first["endLine"]


def bench(lode, tree, n_sample):
    name = os.path.basename(tree)
    work = tempfile.mkdtemp(prefix="lode-real-")
    env = dict(os.environ, LODE_DATA_DIR=os.path.join(work, "data"),
               LODE_EMBEDDING_PROVIDER="none")
    try:
        process, wall, cpu, rss = timed([lode, "--no-daemon", "index", "--json", tree], env=env)
        if process.returncode != 0:
            return {"name": name, "ok": False, "error": process.stderr.strip()[-300:]}
        report = json.loads(process.stdout)["job"]["report"]
        status = json.loads(subprocess.run([lode, "--no-daemon", "status", "--json", tree],
                                           env=env, capture_output=True, text=True,
                                           check=True).stdout)
        skipped = Counter(s.get("reason", "?") for s in report.get("skippedFiles", []))
        degraded = [f"{s['path']}: {s.get('detail') or s.get('reason')}"
                    for s in report.get("skippedFiles", [])
                    if s.get("reason") == "over the time budget"]
        ctags_wall, definitions = ctags_definitions(tree, os.path.join(work, "tags"))
        picked = sample(definitions, n_sample)
        hits = sum(found_first(lode, env, tree, tag) for tag in picked)
        limit = 10 * ctags_wall + 10
        return {"name": name, "ok": wall <= limit, "files": status["files"],
                "lines": status["lines"], "wall_s": wall, "cpu_s": round(cpu, 2),
                "lines_per_s": round(status["lines"] / wall) if wall > 0 else 0,
                "peak_rss_mb": round(rss, 1), "skipped": dict(skipped), "over_budget": degraded,
                "ctags_s": ctags_wall, "limit_s": round(limit, 1),
                "first_by_name": f"{hits}/{len(picked)}"}
    except subprocess.TimeoutExpired:
        return {"name": name, "ok": False, "error": "did not finish"}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    checkouts = os.path.abspath(sys.argv[1])
    names = sys.argv[2:] or sorted(os.listdir(checkouts))
    src = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    builddir = os.environ.get("BUILDDIR", "_build")
    lode = os.path.join(src, builddir, "src", "cli", "lode")
    n_sample = int(os.environ.get("SAMPLE", "30"))
    for tool in ("ctags", "/usr/bin/time"):
        if shutil.which(tool) is None:
            sys.exit(f"real-repos.py: {tool} missing: sudo apt-get install -y universal-ctags time")

    failed = False
    print(f"{'repository':<18} {'files':>6} {'lines':>8} {'wall s':>7} {'CPU s':>6} {'lines/s':>8} "
          f"{'RSS MB':>7} {'ctags s':>7} {'limit s':>7} {'first':>6}  skipped")
    for name in names:
        tree = os.path.join(checkouts, name)
        if not os.path.isdir(tree):
            continue
        r = bench(lode, tree, n_sample)
        if "error" in r:
            print(f"{name:<18} FAILED: {r['error']}")
        else:
            skipped = ", ".join(f"{n} {reason}" for reason, n in sorted(r["skipped"].items()))
            print(f"{name:<18} {r['files']:>6} {r['lines']:>8} {r['wall_s']:>7.1f} {r['cpu_s']:>6.1f} "
                  f"{r['lines_per_s']:>8} {r['peak_rss_mb']:>7} {r['ctags_s']:>7.1f} "
                  f"{r['limit_s']:>7} {r['first_by_name']:>6}  {skipped or '-'}"
                  f"{'' if r['ok'] else '  OVER THE LIMIT'}")
            for line in r["over_budget"]:
                print(f"{'':<18} {line}")
        print("JSON: " + json.dumps(r), file=sys.stderr)
        failed |= not r["ok"]
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
