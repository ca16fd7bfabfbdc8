// knowledge.test.mjs — the official MCP client (TypeScript SDK) drives the knowledge tools
// (remember, get_memory, forget, get_team_patterns, get_style_guide, get_codebase_metadata,
// codebase_search's preflight card) and each tool profile with the tool and argument names of
// the server it stands for; every structuredContent is checked against the tool's
// outputSchema from tools/list.
//
// SPDX-FileCopyrightText: 2026 The Lode authors
// SPDX-License-Identifier: GPL-3.0-or-later

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { before, describe, test } from "node:test";

import { lodeMcp, requireNodeModules, serverEnv, tempDir } from "./lib.mjs";

requireNodeModules();

const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
const AjvModule = await import("ajv");
const Ajv = AjvModule.default.default ?? AjvModule.default;

const ajv = new Ajv({ strict: false, allErrors: true });

// A JavaScript project in git that moved from axios to fetch, with a CONTRIBUTING, an
// .editorconfig, a package.json and a circular import.
function makeProject() {
  const root = tempDir("lode-mcp-knowledge-");
  const git = (env, ...args) => execFileSync("git", ["-c", "user.name=Lode", "-c",
    "user.email=lode@example.org", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false",
    ...args], { cwd: root, stdio: "pipe", env: { ...process.env, ...env } });
  const write = (name, text) => {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), text);
  };
  const commit = (date, message) => {
    git({}, "add", "-A");
    git({ GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date }, "commit", "-q", "-m", message);
  };

  git({}, "init", "-q");
  write("package.json", JSON.stringify({
    name: "shop", version: "1.0.0", main: "src/index.js",
    dependencies: { express: "^4.19.2", axios: "^1.7.2" }, devDependencies: { jest: "^29.7.0" },
  }, null, 2));
  write(".editorconfig", "root = true\n\n[*.js]\nindent_style = space\nindent_size = 2\n");
  write("CONTRIBUTING.md", "# Contributing\n\n## Naming\n\n- Name async loaders fetchSomething.\n");
  write("README.md", "# Shop\n\nHow to run the shop: `npm start`.\n");
  for (const name of ["users", "orders", "invoices"])
    write(`src/api/${name}.js`, `import axios from "axios";\n\n` +
      `export async function load_${name}() {\n` +
      `  const response = await axios.get(\`/api/${name}\`);\n  return response.data;\n}\n`);
  write("src/api/client.js", "import axios from \"axios\";\n\nexport class ApiClient {\n" +
    "  async get(path) {\n    const response = await axios.get(path);\n" +
    "    return response.data;\n  }\n}\n");
  write("src/a.js", "import { b } from \"./b.js\";\nexport const a = () => b();\n");
  write("src/b.js", "import { a } from \"./a.js\";\nexport const b = () => a();\n");
  commit("2025-01-10T09:00:00Z", "Start the shop");
  for (const name of ["products", "carts", "reviews"])
    write(`src/api/${name}.js`, `export async function fetch_${name}() {\n` +
      `  const response = await fetch(\`/api/${name}\`);\n  return response.json();\n}\n`);
  write("src/index.js", "import { fetch_products } from \"./api/products.js\";\n" +
    "fetch_products();\n");
  commit("2026-04-01T09:00:00Z", "refactor: migrate new modules from axios to fetch");
  return root;
}

async function connect(root, dataDir, args = [], env = {}) {
  const client = new Client({ name: "lode-knowledge-test", version: "1.0.0" });
  const transport = new StdioClientTransport({
    command: lodeMcp, args, cwd: root, env: serverEnv(dataDir, env), stderr: "pipe",
  });
  await client.connect(transport);
  const { tools } = await client.listTools();
  const schemas = new Map(tools.map((t) => [t.name, ajv.compile(t.outputSchema)]));
  return { client, tools, schemas };
}

// Calls a tool, requires success, and checks structuredContent against its outputSchema.
async function call({ client, schemas }, name, args) {
  const result = await client.callTool({ name, arguments: args });
  assert.equal(result.isError, false, `${name}: ${result.content[0].text}`);
  const validate = schemas.get(name);
  assert.ok(validate(result.structuredContent),
    `${name}: ${JSON.stringify(validate.errors)} in ${JSON.stringify(result.structuredContent)}`);
  return result;
}

describe("knowledge tools and profiles", () => {
  let root;
  let dataDir;

  before(async () => {
    root = makeProject();
    dataDir = tempDir("lode-mcp-knowledge-data-");
    const lode = await connect(root, dataDir);
    await call(lode, "codebase_index", { projectPath: root, wait: true });
    await lode.client.close();
  });

  test("Lode's own tools", async () => {
    const lode = await connect(root, dataDir);
    try {
      const names = lode.tools.map((t) => t.name);
      for (const name of ["remember", "get_memory", "forget", "get_team_patterns",
        "get_style_guide", "get_codebase_metadata"])
        assert.ok(names.includes(name), name);

      const added = await call(lode, "remember", {
        type: "failure", category: "architecture", memory: "Retrying fetch_products on 500s " +
        "hammered the API", reason: "The gateway has no backoff", files: ["src/api/products.js"],
        projectPath: root,
      });
      assert.equal(added.structuredContent.status, "added");
      const again = await call(lode, "remember", {
        type: "failure", category: "architecture", memory: "retrying fetch_products on 500s " +
        "hammered the API.", reason: "x", projectPath: root,
      });
      assert.equal(again.structuredContent.status, "duplicate");

      const memories = await call(lode, "get_memory", { query: "retry products", projectPath: root });
      assert.equal(memories.structuredContent.memories[0].memory,
        "Retrying fetch_products on 500s hammered the API");
      const mined = await call(lode, "get_memory", { type: "decision", projectPath: root });
      assert.equal(mined.structuredContent.memories[0].source, "git");

      const patterns = await call(lode, "get_team_patterns", { projectPath: root });
      const http = patterns.structuredContent.patterns.find((p) => p.category === "http-client");
      assert.equal(http.preferred, "fetch");
      assert.equal(http.alternatives.find((a) => a.name === "axios").trend, "declining");

      const style = await call(lode, "get_style_guide", { query: "indent", projectPath: root });
      assert.deepEqual(style.structuredContent.rules.map((r) => `${r.source}:${r.line}`),
        [".editorconfig:4", ".editorconfig:5"]);

      const metadata = await call(lode, "get_codebase_metadata", { projectPath: root });
      assert.equal(metadata.structuredContent.name, "shop");
      assert.ok(metadata.structuredContent.frameworks.some((f) => f.name === "Express"));

      const search = await call(lode, "codebase_search",
        { query: "fetch_products", intent: "edit", projectPath: root });
      assert.equal(search.structuredContent.preflight.ready, false);
      // The failure recorded, and the commit that moved products.js to fetch (mined).
      assert.ok(search.structuredContent.memories.some((m) => m.type === "failure"));
      assert.ok(search.structuredContent.memories.some((m) => m.source === "git"));
      assert.match(search.content[0].text, /Preflight \(edit\): not ready/);

      const id = added.structuredContent.memory.id;
      const forgotten = await call(lode, "forget", { id, projectPath: root });
      assert.equal(forgotten.structuredContent.removed.id, id);
      const ready = await call(lode, "codebase_search",
        { query: "fetch_products", intent: "edit", projectPath: root });
      assert.equal(ready.structuredContent.preflight.ready, true);
    } finally {
      await lode.client.close();
    }
  });

  test("codebase-context profile", async () => {
    const cc = await connect(root, dataDir, ["--profile", "codebase-context"]);
    try {
      assert.deepEqual(cc.tools.map((t) => t.name).sort(), [
        "detect_circular_dependencies", "get_codebase_metadata", "get_indexing_status",
        "get_memory", "get_style_guide", "get_symbol_references", "get_team_patterns",
        "refresh_index", "remember", "search_codebase",
      ]);
      const search = await call(cc, "search_codebase", {
        query: "fetch_products", intent: "edit", limit: 5, includeSnippets: true,
        filters: { language: "javascript" },
      });
      assert.equal(search.structuredContent.results[0].path, "src/api/products.js");
      assert.equal(typeof search.structuredContent.preflight.ready, "boolean");
      const refs = await call(cc, "get_symbol_references", { symbol: "fetch_products", limit: 10 });
      assert.ok(refs.structuredContent.references.length >= 2);
      const status = await call(cc, "get_indexing_status", {});
      assert.equal(status.structuredContent.state, "ready");
      const refresh = await call(cc, "refresh_index", { reason: "test", incrementalOnly: true });
      assert.equal(refresh.structuredContent.projectPath, root);
      await call(cc, "remember", { type: "convention", category: "conventions",
        memory: "Name async loaders fetchSomething", reason: "Readers know what it does" });
      const memory = await call(cc, "get_memory", { category: "conventions", type: "convention",
        query: "loaders" });
      assert.equal(memory.structuredContent.total, 1);
      await call(cc, "get_team_patterns", { category: "all" });
      const style = await call(cc, "get_style_guide", { query: "naming", category: "naming" });
      assert.equal(style.structuredContent.total, 1);
      await call(cc, "get_codebase_metadata", {});
      const cycles = await call(cc, "detect_circular_dependencies", { scope: "src/" });
      assert.equal(cycles.structuredContent.count, 1);

      const bad = await cc.client.callTool({ name: "search_codebase", arguments: { limit: 3 } });
      assert.equal(bad.isError, true);
      assert.match(bad.content[0].text, /query/);
      await assert.rejects(cc.client.callTool({ name: "codebase_search", arguments: {} }),
        /Unknown tool/);
    } finally {
      await cc.client.close();
    }
  });

  test("semantic-watcher profile, chosen by the environment", async () => {
    const sw = await connect(root, dataDir, [], { LODE_MCP_PROFILE: "semantic-watcher" });
    try {
      assert.deepEqual(sw.tools.map((t) => t.name), ["semantic_search", "refresh_index"]);
      const found = await call(sw, "semantic_search", { query: "shop products", limit: 3 });
      assert.ok(found.structuredContent.results.length > 0);
      const refreshed = await call(sw, "refresh_index", {});
      assert.equal(refreshed.structuredContent.job.state, "succeeded");
      const tooMany = await sw.client.callTool({ name: "semantic_search",
        arguments: { query: "x", limit: 50 } });
      assert.equal(tooMany.isError, true);
    } finally {
      await sw.client.close();
    }
  });

  test("ragcode profile", async () => {
    const rc = await connect(root, dataDir, ["--profile", "ragcode"]);
    const file = path.join(root, "src", "api", "client.js");
    try {
      assert.deepEqual(rc.tools.map((t) => t.name).sort(), [
        "find_implementations", "find_type_definition", "get_function_details", "hybrid_search",
        "index_workspace", "list_package_exports", "search_code", "search_docs",
      ]);
      const code = await call(rc, "search_code", { query: "ApiClient", file_path: file, limit: 3 });
      assert.equal(code.structuredContent.results[0].path, "src/api/client.js");
      const hybrid = await call(rc, "hybrid_search",
        { query: "load orders", file_path: file, limit: 2, output_format: "json" });
      assert.deepEqual(JSON.parse(hybrid.content[0].text), hybrid.structuredContent);
      const docs = await call(rc, "search_docs", { query: "run the shop", file_path: file });
      assert.equal(docs.structuredContent.results[0].path, "README.md");
      const fn = await call(rc, "get_function_details",
        { function_name: "ApiClient.get", file_path: file });
      assert.equal(fn.structuredContent.function.name, "get");
      const type = await call(rc, "find_type_definition", { type_name: "ApiClient", file_path: file });
      assert.equal(type.structuredContent.type.name, "ApiClient");
      const exports = await call(rc, "list_package_exports",
        { package: "src/api/client", file_path: file });
      assert.equal(exports.structuredContent.exports[0].name, "ApiClient");
      const uses = await call(rc, "find_implementations", { symbol_name: "fetch_products",
        file_path: file });
      assert.ok(uses.structuredContent.references.length >= 2);
      const indexed = await call(rc, "index_workspace", { file_path: file, language: "javascript" });
      assert.equal(indexed.structuredContent.projectPath, root);
    } finally {
      await rc.client.close();
    }
  });

});
