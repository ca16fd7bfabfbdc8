// inspector.test.mjs — the MCP Inspector CLI against lode-mcp, with the commands docs/mcp.md
// shows: list the tools, index the fixture, search it.
//
// SPDX-FileCopyrightText: 2026 The Lode authors
// SPDX-License-Identifier: GPL-3.0-or-later

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { test } from "node:test";

import { fixture, here, lodeMcp, requireNodeModules, tempDir } from "./lib.mjs";

requireNodeModules();

const inspector = path.join(here, "node_modules", ".bin", "mcp-inspector");
// The Inspector keeps a catalog under HOME; the server keeps its indexes in LODE_DATA_DIR.
const home = tempDir("lode-inspector-home-");
const dataDir = tempDir("lode-inspector-data-");

function run(...args) {
  const result = spawnSync(inspector, ["--cli", "-e", `LODE_DATA_DIR=${dataDir}`, lodeMcp, ...args], {
    env: { ...process.env, HOME: home }, encoding: "utf8", timeout: 60000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

test("mcp-inspector --cli lists the tools and calls codebase_search", () => {
  const list = run("--method", "tools/list");
  assert.equal(list.status, 0, list.stderr);
  const tools = JSON.parse(list.stdout).tools.map((t) => t.name);
  assert.ok(tools.includes("codebase_search") && tools.includes("codebase_index"));

  const update = run("--method", "tools/call", "--tool-name", "codebase_update",
                     "--tool-arg", `projectPath=${fixture}`);
  assert.equal(update.status, 0, update.stderr);
  assert.equal(JSON.parse(update.stdout).structuredContent.job.state, "succeeded");

  const search = run("--method", "tools/call", "--tool-name", "codebase_search",
                     "--tool-arg", "query=load configuration", "--tool-arg", `projectPath=${fixture}`,
                     "--tool-arg", "limit=3");
  assert.equal(search.status, 0, search.stderr);
  const result = JSON.parse(search.stdout);
  assert.equal(result.isError, false);
  assert.ok(result.structuredContent.results.length > 0);
  assert.ok(result.structuredContent.results.length <= 3);

  // An isError result makes the Inspector exit with 5.
  const relative = run("--method", "tools/call", "--tool-name", "codebase_status",
                       "--tool-arg", "projectPath=relative/dir");
  assert.equal(relative.status, 5, relative.stdout + relative.stderr);
});
