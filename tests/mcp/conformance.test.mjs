// conformance.test.mjs — the MCP conformance suite's server scenarios against lode-mcp --http
//
// SPDX-FileCopyrightText: 2026 The Lode authors
// SPDX-License-Identifier: GPL-3.0-or-later

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { after, before, test } from "node:test";

import { here, requireNodeModules, serverEnv, startHttp, stopChild, tempDir } from "./lib.mjs";

requireNodeModules();

// The scenarios that apply to a server with tools and logging (0.1.13, the last release that
// runs on Node 20).
const SCENARIOS = ["server-initialize", "ping", "tools-list", "logging-set-level",
                   "dns-rebinding-protection"];
const conformance = path.join(here, "node_modules", ".bin", "conformance");

let server;

before(async () => {
  // The suite cannot send a token.
  server = await startHttp(["--no-token"], serverEnv(tempDir()));
});

after(async () => {
  await stopChild(server.child);
});

for (const scenario of SCENARIOS) {
  test(scenario, () => {
    const result = spawnSync(conformance, ["server", "--url", server.url, "--scenario", scenario],
      { encoding: "utf8", timeout: 60000, env: { ...process.env, HOME: tempDir() } });
    assert.equal(result.status, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /Passed: (\d+)\/\1, 0 failed/);
  });
}
