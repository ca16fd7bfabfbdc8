// client.test.mjs — the official MCP client (TypeScript SDK) against lode-mcp, over stdio and
// Streamable HTTP: initialize, tools/list, every tool on a fixture repository with its
// structuredContent checked against its outputSchema (the graph tools on a small git
// repository of their own), resources, pagination, errors.
//
// SPDX-FileCopyrightText: 2026 The Lode authors
// SPDX-License-Identifier: GPL-3.0-or-later

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { pathToFileURL } from "node:url";

import { fixture, lodeMcp, requireNodeModules, serverEnv, startHttp, stopChild, tempDir }
  from "./lib.mjs";

requireNodeModules();

const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
const { StreamableHTTPClientTransport } =
  await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
const { ListRootsRequestSchema, McpError } = await import("@modelcontextprotocol/sdk/types.js");
const AjvModule = await import("ajv");
const Ajv = AjvModule.default.default ?? AjvModule.default;

const TOOLS = [
  "codebase_about", "codebase_branches", "codebase_context", "codebase_context_index",
  "codebase_context_remove", "codebase_context_search", "codebase_flow", "codebase_graph_build",
  "codebase_graph_circular", "codebase_graph_query", "codebase_graph_remove",
  "codebase_graph_stats", "codebase_graph_status", "codebase_graph_visualize", "codebase_grep",
  "codebase_health", "codebase_impact", "codebase_index", "codebase_list_projects",
  "codebase_migrate", "codebase_remove", "codebase_search", "codebase_status", "codebase_stop",
  "codebase_symbol", "codebase_symbol_references", "codebase_symbols", "codebase_trace",
  "codebase_update", "codebase_watch", "find_type_definition", "forget", "get_codebase_metadata",
  "get_function_details", "get_memory", "get_style_guide", "get_team_patterns",
  "list_package_exports", "remember",
];

const ajv = new Ajv({ strict: false, allErrors: true });

// Client errors (protocol violations the SDK notices) fail the test.
// The SDK handles a response at once and a notification a microtask later, so a progress
// notification read in the same chunk as the response that follows it finds its token retired
// and is reported as unknown (modelcontextprotocol/typescript-sdk#2580): on a loaded machine
// the progress of a fast codebase_update can. The server writes progress before the response
// (raw.test.mjs checks the order on the wire); that report is not an error of the server's.
const lateProgress = /^Received a progress notification for an unknown token: /;

function newClient(errors, capabilities = {}) {
  const client = new Client({ name: "lode-test", version: "1.0.0" }, { capabilities });
  client.onerror = (error) => {
    if (!lateProgress.test(error.message))
      errors.push(error);
  };
  return client;
}

async function listAllTools(client) {
  const tools = [];
  let cursor;
  let pages = 0;
  do {
    const page = await client.listTools(cursor !== undefined ? { cursor } : {});
    tools.push(...page.tools);
    cursor = page.nextCursor;
    pages++;
  } while (cursor !== undefined);
  return { tools, pages };
}

// Calls a tool, checks the result's shape and validates structuredContent against the
// outputSchema from tools/list (the SDK does it too; this makes it explicit).
async function call(client, schemas, name, args, options = {}) {
  const result = await client.callTool({ name, arguments: args }, undefined, options);
  assert.ok(Array.isArray(result.content) && result.content.length > 0, `${name}: content`);
  assert.equal(result.content[0].type, "text");
  assert.ok(result.content[0].text.length > 0, `${name}: text`);
  if (!result.isError) {
    assert.ok(result.structuredContent, `${name}: structuredContent`);
    const validate = schemas.get(name);
    assert.ok(validate(result.structuredContent),
      `${name}: ${JSON.stringify(validate.errors)} in ${JSON.stringify(result.structuredContent)}`);
  }
  return result;
}

// A C project in a git repository: main.c and util.c include util.h, x.h and y.h include
// each other, and util.h has an uncommitted change.
function makeGraphRepo() {
  const root = tempDir("lode-mcp-graph-");
  const files = {
    "src/main.c": "#include <stdio.h>\n#include \"util.h\"\nint main (void) { return util (); }\n",
    "src/util.h": "int util (void);\n",
    "src/util.c": "#include \"util.h\"\nint util (void) { return 0; }\n",
    "src/x.h": "#include \"y.h\"\n",
    "src/y.h": "#include \"x.h\"\n",
  };
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), text);
  }
  const git = (...args) => execFileSync("git", ["-c", "user.name=Lode", "-c",
    "user.email=lode@example.org", "-c", "init.defaultBranch=main", ...args],
  { cwd: root, stdio: "pipe" });
  git("init", "-q");
  git("add", ".");
  git("commit", "-q", "-m", "Initial");
  appendFileSync(path.join(root, "src/util.h"), "int util2 (void);\n");
  return root;
}

// Calls a tool that takes output_format both ways: markdown text, then the structured
// result as JSON text; both results are valid against the tool's outputSchema.
async function callBothFormats(client, schemas, name, args) {
  const markdown = await call(client, schemas, name, { ...args, output_format: "markdown" });
  assert.equal(markdown.isError, false, `${name}: ${markdown.content[0].text}`);
  assert.throws(() => JSON.parse(markdown.content[0].text), SyntaxError, `${name}: markdown`);
  const json = await call(client, schemas, name, { ...args, output_format: "json" });
  assert.equal(json.isError, false, `${name}: ${json.content[0].text}`);
  assert.deepEqual(JSON.parse(json.content[0].text), json.structuredContent, name);
  return json;
}

// The symbol and context artifact tools on their fixtures.
async function exerciseSymbols(client, schemas) {
  const symbols = path.resolve(fixture, "..", "symbols");
  const context = path.resolve(fixture, "..", "context");

  for (const projectPath of [symbols, context]) {
    const update = await call(client, schemas, "codebase_update", { projectPath });
    assert.equal(update.structuredContent.job.state, "succeeded");
  }

  const type = await callBothFormats(client, schemas, "find_type_definition",
    { projectPath: symbols, type_name: "App\\Models\\User" });
  assert.equal(type.structuredContent.type.kind, "model");
  assert.equal(type.structuredContent.type.table, "users");
  const ambiguous = await callBothFormats(client, schemas, "find_type_definition",
    { projectPath: symbols, type_name: "User" });
  assert.equal(ambiguous.structuredContent.candidates.length, 2);

  const fn = await callBothFormats(client, schemas, "get_function_details",
    { projectPath: symbols, function_name: "Store.Get" });
  assert.equal(fn.structuredContent.function.receiver, "s *Store");
  assert.match(fn.structuredContent.function.code, /return v, nil/);

  const exports = await callBothFormats(client, schemas, "list_package_exports",
    { projectPath: symbols, package: "store" });
  assert.deepEqual(exports.structuredContent.exports.map((e) => e.name),
    ["MaxKeys", "Getter", "Store", "New"]);

  const refs = await callBothFormats(client, schemas, "codebase_symbol_references",
    { projectPath: symbols, symbol: "scale", limit: 10 });
  assert.deepEqual(refs.structuredContent.references.map((r) => [r.line, r.kind]),
    [[21, "definition"], [30, "call"]]);

  const list = await callBothFormats(client, schemas, "codebase_context", { projectPath: context });
  assert.equal(list.structuredContent.artifacts.length, 4);
  const indexed = await callBothFormats(client, schemas, "codebase_context_index",
    { projectPath: context });
  assert.ok(indexed.structuredContent.artifacts.every((a) => a.state === "indexed"));
  const found = await callBothFormats(client, schemas, "codebase_context_search",
    { projectPath: context, query: "Which table stores user email addresses?", limit: 3 });
  assert.equal(found.structuredContent.results[0].title, "CREATE TABLE users");
  // Removing is done once per artifact: markdown for one, JSON for another.
  const removed = await call(client, schemas, "codebase_context_remove",
    { projectPath: context, name: "docs", output_format: "markdown" });
  assert.match(removed.content[0].text, /^Removed from the index/);
  assert.deepEqual(removed.structuredContent.removed, ["docs"]);
  const removedJson = await call(client, schemas, "codebase_context_remove",
    { projectPath: context, name: "api", output_format: "json" });
  assert.deepEqual(JSON.parse(removedJson.content[0].text), removedJson.structuredContent);
  assert.deepEqual(removedJson.structuredContent.removed, ["api"]);
}

async function exerciseGraph(client, schemas) {
  const projectPath = makeGraphRepo();
  const where = { projectPath };

  let status = await call(client, schemas, "codebase_graph_status", where);
  assert.equal(status.structuredContent.indexed, false);

  const build = await call(client, schemas, "codebase_graph_build", where);
  assert.equal(build.structuredContent.parsed, 5);
  assert.equal(build.structuredContent.imports, 5);
  assert.equal(build.structuredContent.internal, 4);
  assert.equal(build.structuredContent.external, 1);

  const query = await call(client, schemas, "codebase_graph_query",
    { ...where, filePath: "src/main.c", direction: "outbound", depth: 2 });
  assert.deepEqual(query.structuredContent.imports.map((i) => [i.specifier, i.targets, i.package]),
    [["stdio.h", [], "stdio.h"], ["util.h", ["src/util.h"], null]]);
  assert.deepEqual(query.structuredContent.reach, [{ path: "src/util.h", distance: 1 }]);
  const dependents = await call(client, schemas, "codebase_graph_query",
    { ...where, filePath: "src/util.h" });
  assert.deepEqual(dependents.structuredContent.dependents, ["src/main.c", "src/util.c"]);

  const stats = await call(client, schemas, "codebase_graph_stats", { ...where, limit: 3 });
  assert.equal(stats.structuredContent.files, 5);
  assert.equal(stats.structuredContent.edges, 4);
  assert.deepEqual(stats.structuredContent.packages, [{ name: "stdio.h", files: 1 }]);

  const circular = await call(client, schemas, "codebase_graph_circular", where);
  assert.equal(circular.structuredContent.count, 1);
  assert.deepEqual(circular.structuredContent.cycles[0].members, ["src/x.h", "src/y.h"]);

  const visualize = await call(client, schemas, "codebase_graph_visualize",
    { ...where, filePath: "src/util.h" });
  assert.match(visualize.structuredContent.mermaid, /^flowchart LR\n/);
  assert.equal(visualize.structuredContent.file, "src/util.h");

  const impact = await call(client, schemas, "codebase_impact", where);
  assert.deepEqual(impact.structuredContent.changed.map((c) => [c.path, c.status]),
    [["src/util.h", "M"]]);
  assert.deepEqual(impact.structuredContent.affected.map((a) => a.path).sort(),
    ["src/main.c", "src/util.c"]);

  const noFile = await call(client, schemas, "codebase_graph_query", where);
  assert.equal(noFile.isError, true);
  assert.match(noFile.content[0].text, /filePath/);

  const removed = await call(client, schemas, "codebase_graph_remove", where);
  assert.equal(removed.structuredContent.removed, true);
  status = await call(client, schemas, "codebase_graph_status", where);
  assert.equal(status.structuredContent.enabled, false);
  assert.equal(status.structuredContent.imports, 0);
  await call(client, schemas, "codebase_remove", where);
}

async function exercise(client, { projectPath, viaRoots }) {
  const { tools } = await listAllTools(client);
  assert.deepEqual(tools.map((t) => t.name).sort(), TOOLS);

  const schemas = new Map();
  for (const tool of tools) {
    assert.equal(tool.inputSchema.type, "object", tool.name);
    assert.equal(tool.outputSchema.type, "object", tool.name);
    assert.ok(tool.description.length > 20, tool.name);
    // Hints whose default (false) is right may be left out; destructiveHint and
    // openWorldHint default to true, so they are always said — but for destructiveHint and
    // idempotentHint of a read-only tool, which MCP says mean nothing there.
    assert.equal(typeof tool.annotations.openWorldHint, "boolean", `${tool.name}: openWorldHint`);
    if (tool.annotations.readOnlyHint === true)
      for (const hint of ["destructiveHint", "idempotentHint"])
        assert.equal(tool.annotations[hint], undefined, `${tool.name}: ${hint}`);
    else
      assert.equal(typeof tool.annotations.destructiveHint, "boolean",
        `${tool.name}: destructiveHint`);
    for (const hint of ["readOnlyHint", "idempotentHint"])
      assert.ok([true, undefined].includes(tool.annotations[hint]), `${tool.name}: ${hint}`);
    schemas.set(tool.name, ajv.compile(tool.outputSchema));
  }
  assert.equal(tools.find((t) => t.name === "codebase_remove").annotations.destructiveHint, true);
  assert.equal(tools.find((t) => t.name === "codebase_search").annotations.readOnlyHint, true);
  assert.equal(tools.find((t) => t.name === "codebase_graph_remove").annotations.destructiveHint,
    true);
  assert.equal(tools.find((t) => t.name === "codebase_graph_query").annotations.readOnlyHint, true);

  // With roots, the client's first root is the default project.
  const where = viaRoots ? {} : { projectPath };

  const about = await call(client, schemas, "codebase_about", {});
  assert.deepEqual([...about.structuredContent.tools].sort(), TOOLS);

  const health = await call(client, schemas, "codebase_health", {});
  assert.equal(health.structuredContent.store.fts5, true);
  assert.equal(health.structuredContent.embeddings.available, false);

  let status = await call(client, schemas, "codebase_status", where);
  assert.equal(status.structuredContent.projectPath, projectPath);
  assert.equal(status.structuredContent.indexed, false);

  const notIndexed = await call(client, schemas, "codebase_search", { ...where, query: "config" });
  assert.equal(notIndexed.isError, true);
  assert.match(notIndexed.content[0].text, /codebase_index/);

  const started = await call(client, schemas, "codebase_index", where);
  assert.equal(started.structuredContent.projectPath, projectPath);

  const progress = [];
  const update = await call(client, schemas, "codebase_update", where,
    { onprogress: (p) => progress.push(p.progress) });
  assert.equal(update.structuredContent.job.state, "succeeded");
  for (let i = 1; i < progress.length; i++)
    assert.ok(progress[i] > progress[i - 1], "progress increases");

  status = await call(client, schemas, "codebase_status", where);
  assert.equal(status.structuredContent.state, "ready");
  assert.ok(status.structuredContent.files > 10);
  assert.ok(status.structuredContent.chunks > status.structuredContent.files);

  const search = await call(client, schemas, "codebase_search",
    { ...where, query: "parse configuration file", limit: 3 });
  assert.equal(search.isError, false);
  const results = search.structuredContent.results;
  assert.ok(results.length > 0 && results.length <= 3);
  assert.equal(search.structuredContent.mode.requested, "hybrid");
  assert.equal(search.structuredContent.mode.used, "lexical");
  assert.ok(search.structuredContent.mode.reason);
  assert.ok(search.content[0].text.includes(results[0].path));

  const filtered = await call(client, schemas, "codebase_search",
    { ...where, query: "request", languageFilter: "python", mode: "lexical" });
  for (const r of filtered.structuredContent.results)
    assert.equal(r.language, "python");

  const badLimit = await call(client, schemas, "codebase_search", { ...where, query: "x", limit: 101 });
  assert.equal(badLimit.isError, true);
  assert.match(badLimit.content[0].text, /limit.*at most 100/);

  const relative = await call(client, schemas, "codebase_status", { projectPath: "relative/path" });
  assert.equal(relative.isError, true);
  assert.match(relative.content[0].text, /absolute/);

  const projects = await call(client, schemas, "codebase_list_projects", {});
  assert.ok(projects.structuredContent.projects.some((p) => p.projectPath === projectPath));

  const stop = await call(client, schemas, "codebase_stop", where);
  assert.equal(stop.structuredContent.stopped, false);

  // Watching lasts as long as this server: it starts, says so, and stops.
  for (const [action, watching] of [["start", true], ["status", true], ["stop", false]]) {
    const watch = await call(client, schemas, "codebase_watch", { ...where, action });
    assert.equal(watch.isError, false, watch.content[0].text);
    assert.equal(watch.structuredContent.watching, watching, `codebase_watch ${action}`);
  }

  // Resources: the overview of each indexed project.
  const templates = await client.listResourceTemplates();
  assert.equal(templates.resourceTemplates[0].uriTemplate, "lode://project/{id}/overview");
  const resources = await client.listResources();
  const uri = `lode://project/${status.structuredContent.projectId}/overview`;
  assert.ok(resources.resources.some((r) => r.uri === uri));
  const overview = await client.readResource({ uri });
  const data = JSON.parse(overview.contents[0].text);
  assert.equal(data.projectPath, projectPath);
  assert.equal(data.files, status.structuredContent.files);
  assert.ok(data.languages.length > 0);
  await assert.rejects(client.readResource({ uri: "lode://project/000000000000/overview" }),
    (e) => e instanceof McpError && e.code === -32002);

  await assert.rejects(client.callTool({ name: "codebase_nope", arguments: {} }),
    (e) => e instanceof McpError && e.code === -32602);

  await client.ping();
  await client.setLoggingLevel("debug");

  const removed = await call(client, schemas, "codebase_remove", where);
  assert.equal(removed.structuredContent.removed, true);
  status = await call(client, schemas, "codebase_status", where);
  assert.equal(status.structuredContent.indexed, false);

  await exerciseGraph(client, schemas);
  await exerciseSymbols(client, schemas);

  // Every tool has been called.
  return schemas;
}

describe("stdio", () => {
  test("the SDK client drives every tool, the first root is the default project", async () => {
    const errors = [];
    const client = newClient(errors, { roots: { listChanged: true } });
    let rootsAsked = 0;
    client.setRequestHandler(ListRootsRequestSchema, async () => {
      rootsAsked++;
      return { roots: [{ uri: pathToFileURL(fixture).href, name: "fixture" }] };
    });
    const transport = new StdioClientTransport({
      command: lodeMcp, args: [], env: serverEnv(tempDir()), stderr: "pipe",
    });
    let stderr = "";
    transport.stderr.on("data", (d) => { stderr += d; });

    await client.connect(transport);
    // A failed assertion must not leave the server running: node would wait for it.
    try {
      assert.equal(client.getServerVersion().name, "lode");
      assert.ok(client.getServerCapabilities().tools);
      assert.ok(client.getServerCapabilities().resources);
      assert.ok(client.getServerCapabilities().logging);

      // The server asks for roots right after initialization; wait for the answer to land.
      const deadline = Date.now() + 10000;
      while (rootsAsked === 0 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      assert.equal(rootsAsked, 1);
      await client.ping();

      await exercise(client, { projectPath: fixture, viaRoots: true });
    } finally {
      await client.close();
    }
    assert.deepEqual(errors, [], stderr);
  });

  test("several roots: a call without projectPath lists them and asks for one", async () => {
    const errors = [];
    const client = newClient(errors, { roots: { listChanged: true } });
    const other = tempDir("lode-mcp-root-");
    let rootsAsked = 0;
    client.setRequestHandler(ListRootsRequestSchema, async () => {
      rootsAsked++;
      return { roots: [{ uri: pathToFileURL(fixture).href, name: "fixture" },
                       { uri: pathToFileURL(other).href, name: "other" }] };
    });
    const transport = new StdioClientTransport({
      command: lodeMcp, args: [], env: serverEnv(tempDir()), stderr: "pipe",
    });
    await client.connect(transport);
    try {
      const deadline = Date.now() + 10000;
      while (rootsAsked === 0 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      const ambiguous = await client.callTool({ name: "codebase_status", arguments: {} });
      assert.equal(ambiguous.isError, true);
      assert.match(ambiguous.content[0].text, /2 roots/);
      assert.ok(ambiguous.content[0].text.includes(fixture));
      assert.ok(ambiguous.content[0].text.includes(other));
      assert.match(ambiguous.content[0].text, /projectPath/);
      const chosen = await client.callTool({ name: "codebase_status",
                                             arguments: { projectPath: other } });
      assert.equal(chosen.isError, false);
      assert.equal(chosen.structuredContent.projectPath, other);
      // Tools without a project are not affected.
      const about = await client.callTool({ name: "codebase_about", arguments: {} });
      assert.equal(about.isError, false);
    } finally {
      await client.close();
    }
    assert.deepEqual(errors, []);
  });

  test("tools/list pages with a cursor", async () => {
    const errors = [];
    const client = newClient(errors);
    const transport = new StdioClientTransport({
      command: lodeMcp, args: [], env: serverEnv(tempDir(), { LODE_MCP_PAGE_SIZE: "3" }),
      stderr: "pipe",
    });
    await client.connect(transport);
    const { tools, pages } = await listAllTools(client);
    assert.equal(pages, Math.ceil(TOOLS.length / 3));
    assert.deepEqual(tools.map((t) => t.name).sort(), TOOLS);
    await assert.rejects(client.listTools({ cursor: "bogus" }),
      (e) => e instanceof McpError && e.code === -32602);
    await client.close();
    assert.deepEqual(errors, []);
  });
});

describe("streamable HTTP", () => {
  let server;

  before(async () => {
    server = await startHttp([], serverEnv(tempDir()));
  });

  after(async () => {
    await stopChild(server.child);
    assert.equal(server.stdout(), "", "nothing on stdout");
  });

  test("the SDK client drives every tool over HTTP", async () => {
    const errors = [];
    const client = newClient(errors);
    const transport = new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { Authorization: `Bearer ${server.token}` } },
    });
    await client.connect(transport);
    try {
      assert.ok(transport.sessionId, "a session id was issued");
      await exercise(client, { projectPath: fixture, viaRoots: false });
      await transport.terminateSession();
    } finally {
      await client.close();
    }
    assert.deepEqual(errors, [], server.stderr());
  });
});
