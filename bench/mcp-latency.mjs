#!/usr/bin/env node
// mcp-latency.mjs — lode-mcp start-up and per-call latency, as an MCP host sees them
//
//   node bench/mcp-latency.mjs [--runs N] [--calls N] [--data-dir DIR]
//        [--call TOOL ARGUMENTS_JSON]... [LODE_MCP [TREE]]
//
// 1. spawn → initialize response: N fresh processes (default 30), each timed from spawn() to
//    the initialize response line on stdout. For reference, the same is measured for
//    `lode --version` to its exit (the process start-up every binary pays).
// 2. tools/call codebase_status on an indexed TREE (default: the corpus fixture), N calls in
//    one session (default 300, the first 20 not counted), each timed from the write to its
//    response; ping in the same session is the reference (the round trip without a tool).
//    Each --call (repeatable) measures that tool instead, with those arguments and the
//    projectPath, in the same way, and prints the mean CPU time lode-mcp spent per call.
//    --data-dir keeps the index there (and reuses it) instead of a fresh temporary directory.
//
// Prints p50/p99/max in milliseconds. Plain Node, no dependencies.
//
// SPDX-FileCopyrightText: 2026 The Lode authors
// SPDX-License-Identifier: GPL-3.0-or-later

import { spawn } from "node:child_process";
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
  return Number(value);
};
const strings = (name, n) => {
  const found = [];
  for (let i = args.indexOf(name); i >= 0; i = args.indexOf(name))
    found.push(args.splice(i, n + 1).slice(1));
  return found;
};
const keptDir = strings("--data-dir", 1).map(([dir]) => path.resolve(dir)).pop();
const tools = strings("--call", 2).map(([name, json]) => ({ name, arguments: JSON.parse(json) }));
const runs = option("--runs", 30);
const calls = option("--calls", 300);
const WARMUP = 20;
const lodeMcp = path.resolve(args[0] ?? path.join(here, "../_build/src/mcp/lode-mcp"));
const lodeCli = path.join(path.dirname(lodeMcp), "../cli/lode");
const tree = path.resolve(args[1] ?? path.join(here, "../tests/liblode/fixtures/corpus"));
const dataDir = keptDir ?? mkdtempSync(path.join(tmpdir(), "lode-mcp-bench-"));
const env = { ...process.env, LODE_DATA_DIR: dataDir };

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0", id: 0, method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
}) + "\n";

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor(p / 100 * sorted.length))];
}

function report(label, samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  console.log(`${label.padEnd(44)} p50 ${percentile(sorted, 50).toFixed(2).padStart(7)} ms` +
              `   p99 ${percentile(sorted, 99).toFixed(2).padStart(7)} ms` +
              `   max ${sorted[sorted.length - 1].toFixed(2).padStart(7)} ms   (n=${samples.length})`);
}

// A session over stdio: send a line, await the response with that id.
class Session {
  constructor() {
    this.child = spawn(lodeMcp, [], { env, stdio: ["pipe", "pipe", "inherit"] });
    this.pending = new Map();
    this.buffer = "";
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

  request(id, method, params) {
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
    });
  }

  close() {
    return new Promise((resolve) => {
      this.child.on("exit", resolve);
      this.child.stdin.end();
    });
  }
}

function timeInitialize() {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(lodeMcp, [], { env, stdio: ["pipe", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      if (out.includes("\n")) {
        const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
        child.stdin.end();
        child.on("exit", () => resolve(elapsed));
      }
    });
    child.on("error", reject);
    child.stdin.write(INITIALIZE);
  });
}

function timeExit(command, argv) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(command, argv, { env, stdio: "ignore" });
    child.on("exit", () => resolve(Number(process.hrtime.bigint() - start) / 1e6));
    child.on("error", reject);
  });
}

const startup = [];
const reference = [];
for (let i = 0; i < runs; i++) {
  startup.push(await timeInitialize());
  reference.push(await timeExit(lodeCli, ["--version"]));
}

const session = new Session();
await session.request(0, "initialize", JSON.parse(INITIALIZE).params);
session.child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
const indexed = await session.request(1, "tools/call",
  { name: "codebase_update", arguments: { projectPath: tree } });
if (indexed.result?.isError !== false)
  throw new Error(`indexing failed: ${JSON.stringify(indexed)}`);

// User plus system CPU milliseconds of a running process, from /proc (10 ms ticks).
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const measured = [];
const ping = [];
for (const tool of tools.length > 0 ? tools : [{ name: "codebase_status", arguments: {} }]) {
  const samples = [];
  let cpu = 0;
  for (let i = 0; i < calls + WARMUP; i++) {
    const before = cpuMs(session.child.pid);
    let start = process.hrtime.bigint();
    const response = await session.request(`s${measured.length}-${i}`, "tools/call",
      { name: tool.name, arguments: { ...tool.arguments, projectPath: tree } });
    const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
    if (response.result?.isError !== false)
      throw new Error(JSON.stringify(response));
    if (i >= WARMUP)
      cpu += cpuMs(session.child.pid) - before;
    start = process.hrtime.bigint();
    await session.request(`p${measured.length}-${i}`, "ping", {});
    if (i >= WARMUP) {
      samples.push(elapsed);
      ping.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  }
  measured.push({ label: `tools/call ${tool.name} ${JSON.stringify(tool.arguments)}`, samples,
                  cpu: cpu / calls });
}
await session.close();
if (keptDir === undefined)
  rmSync(dataDir, { recursive: true, force: true });

console.log(`lode-mcp: ${lodeMcp}\ntree: ${tree}`);
if (runs > 0) {
  report("spawn → initialize response", startup);
  report("reference: spawn → exit of `lode --version`", reference);
}
for (const { label, samples, cpu } of measured) {
  report(label, samples);
  console.log(`${"".padEnd(44)} CPU ${cpu.toFixed(2).padStart(7)} ms per call (mean)`);
}
report("reference: ping (same session)", ping);
