#!/usr/bin/env node
// search-latency.mjs — codebase_search latency through lode-mcp, beside rg and another build
//
//   node bench/search-latency.mjs [--rounds N] [--queries FILE] [--issues JSONL]
//                                 [--reference OTHER_LODE_MCP] [--data-dir DIR] [--loded LODED]
//                                 [--no-rg] LODE_MCP TREE
//
// Indexes TREE once per lode-mcp (codebase_update, into DIR or a temporary directory), then in
// one warm session per build calls codebase_search (limit 10) for every line of FILE (default
// bench/queries-git.txt) and for the issue texts of JSONL whose `query` is 2–3 kB long (the
// shared development set's issues: pasted issues are what agents send), N rounds (default 5,
// the first not counted), each timed from the write to its response. In the same run, rg
// --fixed-strings --smart-case searches TREE for each line of FILE, one process per query as a
// developer would run it. Builds and rg alternate by round, so that load on the machine hits
// them alike, the builds in the opposite order each round (--no-rg: without rg, whose
// 3.6 s a query on five copies of git would take most of the run). Prints p50/p99/max per build and kind of query, and the speed-up over rg.
// With --loded, LODE_MCP is also measured through that loded on a private session bus (the
// same index, the first build's data directory), beside its in-process figure; the daemon's
// CPU time is printed to show that it, not lode-mcp, answered.
//
// Plain Node, no dependencies.
//
// SPDX-FileCopyrightText: 2026 The Lode authors
// SPDX-License-Identifier: GPL-3.0-or-later

import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  if (i < 0)
    return fallback;
  const [, value] = args.splice(i, 2);
  return value;
};
const rounds = Number(option("--rounds", 5));
const queryFile = option("--queries", path.join(here, "queries-git.txt"));
const issueFile = option("--issues", null);
const reference = option("--reference", null);
const keepData = option("--data-dir", null);
const loded = option("--loded", null);
const noRg = args.includes("--no-rg");
if (noRg)
  args.splice(args.indexOf("--no-rg"), 1);
const [lodeMcp, tree] = args.map((a) => path.resolve(a));
if (lodeMcp === undefined || tree === undefined) {
  console.error("usage: search-latency.mjs [options] LODE_MCP TREE");
  process.exit(2);
}

const queries = readFileSync(queryFile, "utf8").split("\n")
  .filter((l) => l.trim() !== "" && !l.startsWith("#"));
const issues = issueFile === null ? [] : readFileSync(issueFile, "utf8").split("\n")
  .filter((l) => l.trim() !== "").map((l) => JSON.parse(l).query)
  .filter((q) => q.length >= 2048 && q.length <= 3072);

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor(p / 100 * sorted.length))];
}

function summary(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted[sorted.length - 1] };
}

function line(label, s, extra = "") {
  console.log(`${label.padEnd(46)} p50 ${s.p50.toFixed(2).padStart(8)} ms   p99 ` +
              `${s.p99.toFixed(2).padStart(8)} ms   max ${s.max.toFixed(2).padStart(8)} ms${extra}`);
}

// The mean CPU time per call, for a line().
function cpuPerCall(seconds, samples) {
  return `   CPU ${(seconds * 1000 / samples.length).toFixed(2).padStart(7)} ms/call`;
}

class Session {
  constructor(binary, dataDir, busAddress = null) {
    const env = { ...process.env, LODE_DATA_DIR: dataDir };
    if (busAddress !== null)
      env.DBUS_SESSION_BUS_ADDRESS = busAddress;
    this.child = spawn(binary, busAddress === null ? ["--no-daemon"] : [], {
      env,
      stdio: ["pipe", "pipe", "ignore"],
    });
    this.pending = new Map();
    this.buffer = "";
    this.next = 0;
    this.child.stdout.on("data", (d) => {
      this.buffer += d;
      let newline;
      while ((newline = this.buffer.indexOf("\n")) >= 0) {
        const message = JSON.parse(this.buffer.slice(0, newline));
        this.buffer = this.buffer.slice(newline + 1);
        const resolve = this.pending.get(message.id);
        if (resolve !== undefined) {
          this.pending.delete(message.id);
          resolve(message);
        }
      }
    });
  }

  request(method, params) {
    const id = this.next++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
    });
  }

  async open() {
    await this.request("initialize", {
      protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" },
    });
    this.child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
    const indexed = await this.request("tools/call",
      { name: "codebase_update", arguments: { projectPath: tree } });
    if (indexed.result?.isError !== false)
      throw new Error(`indexing failed: ${JSON.stringify(indexed)}`);
  }

  // The call's wall time in ms; adds the CPU time lode-mcp spent meanwhile to this.cpu.
  async search(query) {
    const cpu = cpuSeconds(this.child.pid);
    const start = process.hrtime.bigint();
    const response = await this.request("tools/call", {
      name: "codebase_search", arguments: { projectPath: tree, query, limit: 10 },
    });
    const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
    this.cpu = cpuSeconds(this.child.pid) - cpu;
    if (response.result?.isError !== false)
      throw new Error(JSON.stringify(response).slice(0, 500));
    return elapsed;
  }

  close() {
    return new Promise((resolve) => {
      this.child.on("exit", resolve);
      this.child.stdin.end();
    });
  }
}

function rg(query) {
  const start = process.hrtime.bigint();
  spawnSync("rg", ["--fixed-strings", "--smart-case", "--", query, tree], { stdio: "ignore" });
  return Number(process.hrtime.bigint() - start) / 1e6;
}

// A private session bus with LODED on it, serving data under dataDir; resolves to the bus
// address, the bus and the daemon.
async function startDaemon(dataDir) {
  const bus = spawn("dbus-daemon", ["--session", "--nofork", "--print-address=1"],
                    { stdio: ["ignore", "pipe", "ignore"] });
  const address = await new Promise((resolve) => {
    let out = "";
    bus.stdout.on("data", (d) => {
      out += d;
      if (out.includes("\n"))
        resolve(out.split("\n")[0]);
    });
  });
  const daemon = spawn(path.resolve(loded), [], {
    env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: address, LODE_DATA_DIR: dataDir },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const waited = spawnSync("gdbus", ["wait", "--session", "--timeout", "30",
                                     "io.github.lode.Lode.Daemon"],
                           { env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: address } });
  if (waited.status !== 0)
    throw new Error("loded did not take its bus name");
  return { address, bus, daemon };
}

// User plus system CPU seconds of a running process, from /proc.
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const builds = [lodeMcp, ...(reference !== null ? [path.resolve(reference)] : [])];
const labels = builds.map((b) => `lode-mcp: ${b}`);
const sessions = [];
const dataDirs = [];
for (const binary of builds) {
  const dataDir = keepData !== null ? path.join(keepData, String(sessions.length))
                                    : mkdtempSync(path.join(tmpdir(), "lode-search-bench-"));
  const session = new Session(binary, dataDir);
  await session.open();
  sessions.push(session);
  dataDirs.push(dataDir);
}
let daemon = null;
if (loded !== null) {
  daemon = await startDaemon(dataDirs[0]);
  const session = new Session(lodeMcp, dataDirs[0], daemon.address);
  await session.open();
  sessions.push(session);
  builds.push(lodeMcp);
  labels.push(`lode-mcp through loded: ${path.resolve(loded)}`);
  daemon.cpuBefore = cpuSeconds(daemon.daemon.pid);
}

const times = builds.map(() => ({ identifier: [], path: [], words: [], all: [], issue: [] }));
// lode-mcp's CPU seconds per kind of query, over the counted calls (the kernel counts it in
// 10 ms ticks: only a sum over many calls says something).
const cpu = builds.map(() => ({ identifier: 0, path: 0, words: 0, all: 0, issue: 0 }));
const rgTimes = [];
const kind = (q) => q.includes(" ") ? "words" : /[/]|\.[a-z]+$/.test(q) ? "path" : "identifier";
// Each round reverses the builds' order: the first after rg pays for the caches rg took (the
// build measured first was 1.5-3x slower at p50 than the same calls measured second).
const order = sessions.map((session, b) => [b, session]);
for (let round = 0; round < rounds; round++) {
  for (const [b, session] of round % 2 === 0 ? order : [...order].reverse()) {
    for (const q of queries) {
      const t = await session.search(q);
      if (round > 0) {
        times[b][kind(q)].push(t);
        times[b].all.push(t);
        cpu[b][kind(q)] += session.cpu;
        cpu[b].all += session.cpu;
      }
    }
    for (const q of issues) {
      try {
        const t = await session.search(q);
        if (round > 0) {
          times[b].issue.push(t);
          cpu[b].issue += session.cpu;
        }
      } catch {
        times[b].refused = (times[b].refused ?? 0) + 1;
      }
    }
  }
  for (const q of noRg ? [] : queries) {
    const t = rg(q);
    if (round > 0)
      rgTimes.push(t);
  }
}
if (daemon !== null)
  daemon.cpu = cpuSeconds(daemon.daemon.pid) - daemon.cpuBefore;
for (const session of sessions)
  await session.close();
if (daemon !== null) {
  daemon.daemon.kill();
  daemon.bus.kill();
}
if (keepData === null)
  for (const dir of dataDirs)
    rmSync(dir, { recursive: true, force: true });

const rgSummary = summary(rgTimes);
console.log(`tree: ${tree}; ${queries.length} queries, ${issues.length} issue texts of 2–3 kB; ` +
            `${rounds - 1} counted rounds`);
if (!noRg)
  line("rg --fixed-strings --smart-case, per query", rgSummary);
for (const b of builds.keys()) {
  console.log(labels[b]);
  const all = summary(times[b].all);
  line("  codebase_search, all queries", all,
       cpuPerCall(cpu[b].all, times[b].all) +
       (noRg ? "" : `   ${(rgSummary.p50 / all.p50).toFixed(0)}× rg (p50)`));
  for (const k of ["identifier", "path", "words"])
    if (times[b][k].length > 0)
      line(`  codebase_search, ${k}`, summary(times[b][k]), cpuPerCall(cpu[b][k], times[b][k]));
  if (times[b].issue.length > 0)
    line("  codebase_search, pasted issue (2–3 kB)", summary(times[b].issue),
         cpuPerCall(cpu[b].issue, times[b].issue));
  if (times[b].refused)
    console.log(`  codebase_search refused ${times[b].refused} pasted issue calls`);
}
if (daemon !== null)
  console.log(`loded used ${daemon.cpu.toFixed(1)} s of CPU while it answered`);
