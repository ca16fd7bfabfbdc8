// lib.mjs — shared helpers of the lode-mcp tests
//
// SPDX-FileCopyrightText: 2026 The Lode authors
// SPDX-License-Identifier: GPL-3.0-or-later

import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const here = path.dirname(fileURLToPath(import.meta.url));
export const lodeMcp = process.env.LODE_MCP ?? path.resolve(here, "../../_build/src/mcp/lode-mcp");
export const fixture = process.env.LODE_TEST_FIXTURE ??
  path.resolve(here, "../liblode/fixtures/corpus");

// meson treats exit status 77 as a skipped test.
export const SKIP = 77;

// The SDK and the Inspector come from `npm ci` in tests/mcp (build-aux/install-deps.sh runs
// it; CI does too). Without them the test is skipped, saying how to install them.
export function requireNodeModules() {
  if (!existsSync(path.join(here, "node_modules", "@modelcontextprotocol", "sdk"))) {
    console.log("# SKIP: run `npm ci --ignore-scripts` in tests/mcp to install the MCP SDK " +
                "and Inspector (build-aux/install-deps.sh does)");
    process.exit(SKIP);
  }
}

// Temporary directories live until the test process exits.
const tempDirs = [];
process.on("exit", () => {
  for (const dir of tempDirs)
    rmSync(dir, { recursive: true, force: true });
});

export function tempDir(prefix = "lode-mcp-test-") {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

// A tree big enough that indexing it takes a while, so that cancellation happens mid-run.
export function makeBigTree(root, dirs = 40, files = 50) {
  for (let d = 0; d < dirs; d++) {
    const dir = path.join(root, `module${d}`);
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < files; f++) {
      let text = "";
      for (let fn = 0; fn < 20; fn++)
        text += `int\nmodule${d}_unit${f}_function${fn} (int value)\n{\n  return value * ${fn};\n}\n\n`;
      writeFileSync(path.join(dir, `unit${f}.c`), text);
    }
  }
  return root;
}

// Environment for a lode-mcp child: a private data directory, nothing else changed.
export function serverEnv(dataDir, extra = {}) {
  return { ...process.env, LODE_DATA_DIR: dataDir, ...extra };
}

// Starts `lode-mcp --http --port 0 …` and resolves with its URL once it listens, and with
// the bearer token it made up (null when it was given one, or --no-token).
export function startHttp(args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(lodeMcp, ["--http", "--port", "0", ...args], {
      env, stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    let stdout = "";
    child.stdout.on("data", (d) => { stdout += d; });
    child.stderr.on("data", (d) => {
      stderr += d;
      const m = stderr.match(/listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/);
      const token = stderr.match(/bearer token: ([0-9a-f]+)\n/);
      if (m)
        resolve({ child, url: m[1], token: token ? token[1] : null,
                  stdout: () => stdout, stderr: () => stderr });
    });
    child.on("exit", (code) => reject(new Error(`lode-mcp --http exited with ${code}: ${stderr}`)));
  });
}

export function stopChild(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) {
      resolve(child.exitCode);
      return;
    }
    child.on("exit", (code) => resolve(code));
    child.kill("SIGTERM");
  });
}
