#!/usr/bin/env python3
"""cancel-latency.py — how soon a long parse stops when it is told to (issue 16)

Usage: bench/cancel-latency.py [ROUNDS]

A folder holds one file that takes tree-sitter half a minute to parse (two megabytes of C
punctuation, as in tests/cli/test-cli.c's sigterm-during-parse), with a parse time budget
large enough to let it run. Each round starts from an empty data directory and stops the
run at a random moment 0.3–3 s in, two ways:

1. SIGTERM to `lode --no-daemon index DIR`: the time from the signal to the exit (which
   must be 128 + SIGTERM);
2. `codebase_stop` through `lode-mcp` (stdio, engine in-process) after `codebase_index`
   started the run: the time the call takes, since it returns once the job has ended (its
   state must be "cancelled").

The reference is the same run left alone: how long the stop saves. Prints it, each round and
the median, the 90th percentile and the maximum of both; exits 1 if
a run did not stop as it should or any stop took more than a second. $BUILDDIR (default
_build) must be compiled.
"""

import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time

BUILDDIR = os.environ.get("BUILDDIR", "_build")
LODE = os.path.join(BUILDDIR, "src", "cli", "lode")
LODE_MCP = os.path.join(BUILDDIR, "src", "mcp", "lode-mcp")
LIMIT_SECONDS = 1.0


def noise_tree(root):
    """A folder with one C file whose parse takes tens of seconds."""
    rand = random.Random(1)
    alphabet = "{}()[]<>;,=+*/&|!?:\"'#\n abcx0"
    os.makedirs(root)
    with open(os.path.join(root, "noise.c"), "w") as f:
        f.write("".join(rand.choice(alphabet) for _ in range(2_000_000)))


def environment(data_dir):
    env = dict(os.environ, LODE_DATA_DIR=data_dir, LODE_NO_DAEMON="1",
               LODE_EMBEDDING_PROVIDER="none", LODE_PARSE_TIME_BUDGET="600000")
    env.pop("DBUS_SESSION_BUS_ADDRESS", None)
    return env


def stop_by_signal(tree, data_dir, delay):
    process = subprocess.Popen([LODE, "--no-daemon", "index", tree], env=environment(data_dir),
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(delay)
    if process.poll() is not None:
        raise RuntimeError(f"lode index ended before the signal ({process.returncode})")
    process.send_signal(signal.SIGTERM)
    start = time.monotonic()
    status = process.wait(timeout=60)
    elapsed = time.monotonic() - start
    if status != -signal.SIGTERM and status != 128 + signal.SIGTERM:
        raise RuntimeError(f"lode index exited with {status} after SIGTERM")
    return elapsed


class Mcp:
    def __init__(self, data_dir):
        self.process = subprocess.Popen([LODE_MCP], env=environment(data_dir),
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True)
        self.next_id = 1
        self.call("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                 "clientInfo": {"name": "cancel-latency", "version": "1"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, message):
        self.process.stdin.write(json.dumps(message) + "\n")
        self.process.stdin.flush()

    def call(self, method, params):
        request_id = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        while True:
            line = self.process.stdout.readline()
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

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=60)


def stop_by_tool(tree, data_dir, delay):
    mcp = Mcp(data_dir)
    try:
        started = mcp.tool("codebase_index", {"projectPath": tree})
        if started["job"]["state"] != "running":
            raise RuntimeError(f"codebase_index: the job is {started['job']['state']}")
        time.sleep(delay)
        start = time.monotonic()
        stopped = mcp.tool("codebase_stop", {"projectPath": tree})
        elapsed = time.monotonic() - start
        if not stopped["stopped"] or stopped["job"]["state"] != "cancelled":
            raise RuntimeError(f"codebase_stop: {stopped}")
    finally:
        mcp.close()
    return elapsed


def summary(name, values):
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    print(f"{name}: median {statistics.median(ordered) * 1000:.0f} ms, "
          f"p90 {p90 * 1000:.0f} ms, max {ordered[-1] * 1000:.0f} ms over {len(ordered)} stops")


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    rand = random.Random(16)
    by_signal, by_tool = [], []
    with tempfile.TemporaryDirectory(prefix="lode-cancel-") as tmp:
        tree = os.path.join(tmp, "noise")
        noise_tree(tree)
        start = time.monotonic()
        subprocess.run([LODE, "--no-daemon", "index", tree], env=environment(
                       os.path.join(tmp, "whole")), stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=True)
        print(f"reference: the run left alone takes {time.monotonic() - start:.1f} s",
              flush=True)
        for i in range(rounds):
            delay = rand.uniform(0.3, 3.0)
            by_signal.append(stop_by_signal(tree, os.path.join(tmp, f"signal{i}"), delay))
            by_tool.append(stop_by_tool(tree, os.path.join(tmp, f"tool{i}"), delay))
            print(f"round {i + 1:2}: stopped {delay:.2f} s in; SIGTERM "
                  f"{by_signal[-1] * 1000:.0f} ms, codebase_stop {by_tool[-1] * 1000:.0f} ms",
                  flush=True)
    summary("SIGTERM to lode index", by_signal)
    summary("codebase_stop through lode-mcp", by_tool)
    late = [t for t in by_signal + by_tool if t > LIMIT_SECONDS]
    if late:
        print(f"{len(late)} stop(s) took longer than {LIMIT_SECONDS:.0f} s")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
