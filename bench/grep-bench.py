#!/usr/bin/env python3
"""grep-bench.py — codebase_grep against rg on a real tree: same lines, and how fast (issue 29)

Usage: bench/grep-bench.py [--ref-builddir DIR] [--runs N] [--only-check] TREE DATA_DIR [REF_DATA_DIR]

TREE must be indexed into DATA_DIR by $BUILDDIR's lode (default _build):
    LODE_DATA_DIR=DATA_DIR LODE_EMBEDDING_PROVIDER=none _build/src/cli/lode --no-daemon index TREE

For each of the patterns below (literals, identifiers, regexes with and without a literal,
case-insensitive, word-bounded, Unicode):

1. Same lines: codebase_grep through lode-mcp (limit 10000) against rg over the files the
   index holds (`rg --no-ignore --text` given that list, so both read the same files), as
   sets of path:line:text. Any difference is printed; the script exits 1 if there is one.
2. Speed: the median of N calls (after one to warm up) of codebase_grep through one running
   lode-mcp (stdio, engine in-process, the default limit of 100 lines), beside `rg -n` over
   the tree as an agent runs it (process start included) and, with --ref-builddir, the
   previous version's codebase_grep, the same calls through its lode-mcp on REF_DATA_DIR
   (an index of TREE made by that build; DATA_DIR when the index schema is the same), the
   two builds taking turns call by call.
   A call's time ends when its reply has arrived, as rg's ends when its output has been
   read: parsing the reply's JSON is the client's work (json.loads takes 0.11 ms of a
   100-line reply's 24 kB here), as reading rg's lines would be.
   Per category: the median and the
   largest of the patterns' medians, and the ratio rg / lode. CPU time is measured too (of
   the lode-mcp process per call, of rg's processes): on a machine others load, wall times
   swing with the load and CPU time is the figure to compare.
"""

import argparse
import json
import os
import resource
import sqlite3
import statistics
import subprocess
import sys
import time

BUILDDIR = os.environ.get("BUILDDIR", "_build")

# (category, pattern, regex, case_sensitive, whole_word)
PATTERNS = [
    # Identifiers
    *[("identifier", p, False, True, False) for p in [
        "strbuf_addf", "strbuf_release", "die_errno", "xmalloc", "xstrdup", "oid_to_hex",
        "repo_get_oid", "git_config_get_string", "parse_options", "OPT_BOOL",
        "the_repository", "commit_list_insert", "for_each_ref", "find_unique_abbrev",
        "hashmap_get", "string_list_append", "strvec_push", "run_command", "start_command",
        "error_errno", "usage_with_options", "trace2_region_enter", "refs_read_ref",
        "xcalloc", "oidset_insert", "repo_config_get_bool", "get_oid_with_context",
        "strbuf_getline_lf", "fsmonitor_ipc__send_query", "prepare_revision_walk",
    ]],
    # Literals: messages, options, code fragments
    *[("literal", p, False, True, False) for p in [
        "not a git repository", "fatal: ", "could not read", "unable to create",
        "--no-verify", "core.autocrlf", "GIT_DIR", "#include \"cache.h\"", "TODO", "FIXME",
        "static int", "return -1;", "NULL", "BUG(\"", "warning(_(", "test_expect_success",
        "git commit -m", "(struct object_id *)", "if (!repo)", "0644",
    ]],
    # Case-insensitive
    *[("ignore-case", p, False, False, False) for p in [
        "sha256", "deprecated", "todo", "copyright", "git_config", "submodule",
        "fsmonitor", "utf-8", "permission denied", "merge conflict",
    ]],
    # Whole words
    *[("word", p, False, True, True) for p in [
        "die", "oid", "len", "ret", "argc", "path", "flags", "revs", "repo", "hash",
    ]],
    # Regexes holding a literal
    *[("regex-literal", p, True, True, False) for p in [
        r"strbuf_add\w*\(", r'die\(_\("', r"^static (int|void) \w+\(",
        r"git_config_get_(bool|int|string)", r"OPT_(BOOL|STRING|INTEGER)\(",
        r"\bstruct strbuf\b", r'#include "[a-z-]+\.h"', r"test_expect_(success|failure)",
        r"for \(i = 0; i < \w+; i\+\+\)", r'error\(_\("could not', r"\w+_release\(&",
        r"^\s*return \w+;", r"GIT_[A-Z_]+_ENVIRONMENT", r"oid(cpy|cmp|eq)\(",
        r"\$\(git rev-parse", r'strcmp\(arg, "--', r'skip_prefix\(\w+, "',
        r"(?i)permission denied", r"usage: git \w+", r"trace_printf_key\(",
        r"^--- a/", r"\bhash_algo\b", r'xstrfmt\("%s/', r"if \(\w+ < 0\)\s*$",
        r"struct (commit|tree|blob) \*",
    ]],
    # Regexes without a usable literal
    *[("regex-scan", p, True, True, False) for p in [
        r"\d{4}-\d{2}-\d{2}", r"[A-Z]{12,}", r"^#\s*define\s+\w+\s+\d+$", r"\t\t\t\t\t\t",
        r"^.{300,}$", r"0x[0-9a-f]{8}\b", r"^[a-z]+:$", r"\w+\(\)\s*\{$", r"[;{]\s+$",
        r"^\s+\}\s*else\s*\{$",
    ]],
    # Unicode
    *[("unicode", p, False, True, False) for p in [
        "ü", "é", "ß", "Ä", "→", "…", "Ungültig", "échec", "不能", "ошибка",
    ]],
]


def environment(data_dir):
    env = dict(os.environ, LODE_DATA_DIR=data_dir, LODE_NO_DAEMON="1",
               LODE_EMBEDDING_PROVIDER="none")
    env.pop("DBUS_SESSION_BUS_ADDRESS", None)
    return env


class Mcp:
    def __init__(self, builddir, data_dir):
        self.process = subprocess.Popen([os.path.join(builddir, "src", "mcp", "lode-mcp")],
                                        env=environment(data_dir), stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                        text=True)
        self.next_id = 1
        self.call("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                 "clientInfo": {"name": "grep-bench", "version": "1"}})
        self.process.stdin.write(json.dumps({"jsonrpc": "2.0",
                                             "method": "notifications/initialized"}) + "\n")
        self.process.stdin.flush()

    def call(self, method, params):
        request_id = self.next_id
        self.next_id += 1
        self.process.stdin.write(json.dumps({"jsonrpc": "2.0", "id": request_id,
                                             "method": method, "params": params}) + "\n")
        self.process.stdin.flush()
        while True:
            line = self.process.stdout.readline()
            self.arrived = time.perf_counter()
            if not line:
                raise RuntimeError("lode-mcp closed its output")
            reply = json.loads(line)
            if reply.get("id") == request_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply["result"]

    def tool(self, name, arguments):
        result = self.call("tools/call", {"name": name, "arguments": arguments})
        if result.get("isError"):
            raise RuntimeError(f"{name}: {result['content'][0]['text']}")
        return result["structuredContent"]

    def timed_tool(self, name, arguments):
        """Calls a tool and returns when its reply arrived (time.perf_counter())."""
        self.tool(name, arguments)
        return self.arrived

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=60)


def grep_arguments(tree, pattern, regex, case_sensitive, whole_word, limit=None):
    arguments = {"pattern": pattern, "projectPath": tree, "regex": regex,
                 "caseSensitive": case_sensitive, "wholeWord": whole_word}
    if limit is not None:
        arguments["limit"] = limit
    return arguments


def rg_flags(regex, case_sensitive, whole_word):
    flags = []
    if not regex:
        flags.append("--fixed-strings")
    if not case_sensitive:
        flags.append("--ignore-case")
    if whole_word:
        flags.append("--word-regexp")
    return flags


def indexed_files(data_dir):
    """The paths the index of the tree holds (one project in DATA_DIR)."""
    for dirpath, _, names in os.walk(os.path.join(data_dir, "projects")):
        if "index.db" in names:
            db = sqlite3.connect(os.path.join(dirpath, "index.db"))
            return [row[0] for row in db.execute("SELECT path FROM files ORDER BY path")]
    raise RuntimeError(f"no index in {data_dir}")


def rg_lines(tree, files, pattern, regex, case_sensitive, whole_word):
    lines = set()
    for start in range(0, len(files), 2000):
        out = subprocess.run(["rg", "--no-config", "--line-number", "--with-filename",
                              "--no-heading", "--null", "--color=never", "--no-ignore",
                              "--text", *rg_flags(regex, case_sensitive, whole_word), "-e",
                              pattern, "--", *files[start:start + 2000]],
                             cwd=tree, capture_output=True).stdout
        for raw in out.split(b"\n"):
            if not raw:
                continue
            path, _, rest = raw.partition(b"\0")
            lines.add(path.decode("utf-8", "replace") + ":" + rest.decode("utf-8", "replace"))
    return lines


def rg_order(line):
    """A line of rg_lines() as lode orders them: by path (bytes), then by line number."""
    path, number, _ = line.split(":", 2)
    return path.encode(), int(number)


def lode_lines(result):
    lines = set()
    for f in result["files"]:
        for line in f["lines"]:
            if line["match"]:
                lines.add(f"{f['path']}:{line['line']}:{line['text']}")
    return lines


def process_cpu_ms(pid):
    """CPU time of a running process's threads, in ms: the scheduler's nanoseconds
    (/proc/PID/task/*/schedstat), where /proc/PID/stat counts ticks of 10 ms, as long as a
    call of codebase_grep takes. lode-mcp keeps its threads between calls."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                total += int(f.read().split()[0])
        except FileNotFoundError:
            pass
    return total / 1e6


def children_cpu_ms():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (usage.ru_utime + usage.ru_stime) * 1000


def median_ms(func, runs, cpu=None):
    """The median wall time of @runs calls after one to warm up, and the mean CPU time per
    call that @cpu (a function returning ms so far) counts. A call ends when @func returns,
    or at the time it returns (a float from time.perf_counter())."""
    func()
    times = []
    cpu_start = cpu() if cpu else 0
    for _ in range(runs):
        start = time.perf_counter()
        end = func()
        if not isinstance(end, float):
            end = time.perf_counter()
        times.append((end - start) * 1000)
    return statistics.median(times), (cpu() - cpu_start) / runs if cpu else None


def paired_median_ms(funcs, runs, cpus):
    """median_ms() of several builds' calls taking turns call by call, the first of each
    round alternating, so that what the machine does meanwhile falls on all of them alike:
    one build's calls in a row, then the other's, differed by 0.6 ms (a quarter) with the
    same build on both sides, the first one the slower."""
    for func in funcs:
        func()
    times = [[] for _ in funcs]
    cpu_start = [cpu() for cpu in cpus]
    for run in range(runs):
        for i in (range(len(funcs)) if run % 2 == 0 else reversed(range(len(funcs)))):
            start = time.perf_counter()
            end = funcs[i]()
            times[i].append((end - start) * 1000)
    return [(statistics.median(t), (cpu() - c) / runs)
            for t, cpu, c in zip(times, cpus, cpu_start)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ref-builddir")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--only-check", action="store_true")
    parser.add_argument("tree")
    parser.add_argument("data_dir")
    parser.add_argument("ref_data_dir", nargs="?")
    args = parser.parse_args()
    tree = os.path.abspath(args.tree)

    files = indexed_files(args.data_dir)
    mcp = Mcp(BUILDDIR, args.data_dir)
    ref = (Mcp(args.ref_builddir, args.ref_data_dir or args.data_dir) if args.ref_builddir
           else None)
    differ = 0
    timings = {}

    print(f"{len(PATTERNS)} patterns, {len(files)} indexed files of {tree}")
    for category, pattern, regex, case_sensitive, whole_word in PATTERNS:
        result = mcp.tool("codebase_grep", grep_arguments(tree, pattern, regex, case_sensitive,
                                                          whole_word, 10000))
        got = lode_lines(result)
        expected = rg_lines(tree, files, pattern, regex, case_sensitive, whole_word)
        if not result["totalsExact"]:
            # Only the first 10000 are listed, and the lines past them counted up to a bound:
            # the lines listed are rg's first ones, and the count is no more than rg's.
            first = set(sorted(expected, key=rg_order)[:10000])
            same = got == first and 10000 <= result["totalMatches"] <= len(expected)
        elif result["totalMatches"] > 10000:
            # Only the first 10000 are listed: compare the count and the lines listed.
            same = result["totalMatches"] == len(expected) and got <= expected
        else:
            same = got == expected and result["totalMatches"] == len(expected)
        status = "same" if same else "DIFFERENT"
        if not same:
            differ += 1
            for line in sorted(expected - got)[:3]:
                print(f"    rg only:   {line[:160]}")
            for line in sorted(got - expected)[:3]:
                print(f"    lode only: {line[:160]}")
        line = (f"{category:13} {pattern[:40]!r:44} {len(expected):6} lines {status:9} "
                f"indexed={str(result['indexed']).lower():5}")

        if not args.only_check:
            arguments = grep_arguments(tree, pattern, regex, case_sensitive, whole_word)
            servers = [mcp] if ref is None else [mcp, ref]
            (lode_ms, lode_cpu), *(ref_timed) = paired_median_ms(
                [lambda server=server: server.timed_tool("codebase_grep", arguments)
                 for server in servers],
                args.runs, [lambda server=server: process_cpu_ms(server.process.pid)
                            for server in servers])
            ref_ms, ref_cpu = ref_timed[0] if ref_timed else (None, None)
            rg_argv = ["rg", "--no-config", "-n", *rg_flags(regex, case_sensitive, whole_word),
                       "-e", pattern]
            rg_ms, rg_cpu = median_ms(lambda: subprocess.run(rg_argv, cwd=tree,
                                                             capture_output=True),
                                      max(3, args.runs // 2), children_cpu_ms)
            timings.setdefault(category, []).append((lode_ms, rg_ms, ref_ms, lode_cpu, rg_cpu,
                                                     ref_cpu))
            line += (f" lode {lode_ms:7.2f} ms (cpu {lode_cpu:6.2f})  rg {rg_ms:7.1f} ms "
                     f"(cpu {rg_cpu:6.1f})")
            if ref_ms is not None:
                line += f"  ref {ref_ms:7.2f} ms (cpu {ref_cpu:6.2f})"
        print(line, flush=True)

    if timings:
        print("\nWall ms (median of the patterns' medians; max), CPU ms per call (median), "
              "and rg / lode")
        print("category       n   lode p50  lode max  lode cpu    rg p50    rg cpu  wall x   "
              "cpu x   ref p50   ref cpu")
        for category, values in timings.items():
            lode = [v[0] for v in values]
            rg = [v[1] for v in values]
            refs = [v[2] for v in values if v[2] is not None]
            ref_cpus = [v[5] for v in values if v[5] is not None]
            ratio = statistics.median([v[1] / v[0] for v in values])
            cpu_ratio = statistics.median([v[4] / max(v[3], 0.01) for v in values])
            print(f"{category:13} {len(values):3} {statistics.median(lode):9.2f} "
                  f"{max(lode):9.2f} {statistics.median([v[3] for v in values]):9.2f} "
                  f"{statistics.median(rg):9.1f} {statistics.median([v[4] for v in values]):9.1f} "
                  f"{ratio:6.1f}x {cpu_ratio:6.1f}x "
                  f"{statistics.median(refs) if refs else float('nan'):9.2f} "
                  f"{statistics.median(ref_cpus) if ref_cpus else float('nan'):9.2f}")
    print(f"\n{len(PATTERNS) - differ} of {len(PATTERNS)} patterns give rg's lines")
    mcp.close()
    if ref is not None:
        ref.close()
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
