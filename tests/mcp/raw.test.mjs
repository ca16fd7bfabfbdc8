// raw.test.mjs — lode-mcp's stdio framing and error handling, byte by byte: what an SDK client
// cannot send (malformed JSON, wrong types, batches, huge lines, invalid UTF-8, a message cut
// by EOF), cancellation of a running index, nothing but protocol on stdout, answers to a batch
// that ends with the input, prompt exit.
//
// SPDX-FileCopyrightText: 2026 The Lode authors
// SPDX-License-Identifier: GPL-3.0-or-later

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import path from "node:path";
import { describe, test } from "node:test";

import { fixture, lodeMcp, makeBigTree, serverEnv, tempDir } from "./lib.mjs";

const TIMEOUT = 30000;

class Server {
  constructor(extraEnv = {}) {
    this.dataDir = tempDir();
    this.child = spawn(lodeMcp, [], {
      env: serverEnv(this.dataDir, extraEnv), stdio: ["pipe", "pipe", "pipe"],
    });
    this.lines = [];
    this.messages = [];
    this.waiters = [];
    this.stderr = "";
    this.partial = "";
    this.exited = new Promise((resolve) => this.child.on("exit", (code, signal) =>
      resolve({ code, signal })));
    this.child.stderr.on("data", (d) => { this.stderr += d; });
    this.child.stdout.on("data", (d) => {
      this.partial += d;
      let newline;
      while ((newline = this.partial.indexOf("\n")) >= 0) {
        const line = this.partial.slice(0, newline);
        this.partial = this.partial.slice(newline + 1);
        this.lines.push(line);
        // Every line on stdout is one JSON-RPC 2.0 message: anything else fails here.
        const message = JSON.parse(line);
        assert.equal(message.jsonrpc, "2.0", line);
        this.messages.push(message);
        this.wake();
      }
    });
    this.child.stdin.on("error", () => {});
  }

  wake() {
    for (const waiter of [...this.waiters]) {
      const index = this.messages.findIndex(waiter.predicate);
      if (index >= 0) {
        const [message] = this.messages.splice(index, 1);
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        clearTimeout(waiter.timer);
        waiter.resolve(message);
      }
    }
  }

  // The next message (in arrival order) that matches; it is consumed.
  next(predicate, what) {
    return new Promise((resolve, reject) => {
      const waiter = { predicate, resolve };
      waiter.timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(new Error(`timed out waiting for ${what}; stderr: ${this.stderr}`));
      }, TIMEOUT);
      this.waiters.push(waiter);
      this.wake();
    });
  }

  response(id) {
    return this.next((m) => m.id === id && ("result" in m || "error" in m), `response ${id}`);
  }

  // An error response without an id (the request could not be read).
  anonymousError() {
    return this.next((m) => !("id" in m) && "error" in m, "an error without id");
  }

  write(data) {
    this.child.stdin.write(data);
  }

  send(message) {
    this.write(JSON.stringify(message) + "\n");
  }

  async request(id, method, params) {
    this.send({ jsonrpc: "2.0", id, method, ...(params !== undefined ? { params } : {}) });
    return this.response(id);
  }

  async initialize() {
    const response = await this.request(0, "initialize", {
      protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" },
    });
    assert.equal(response.result.protocolVersion, "2025-06-18");
    this.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  }

  // Closes stdin and resolves with the exit status.
  async close() {
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill("SIGKILL"), TIMEOUT);
    const status = await this.exited;
    clearTimeout(timer);
    return status;
  }
}

function assertError(response, code) {
  assert.ok(response.error, JSON.stringify(response));
  assert.equal(response.error.code, code, JSON.stringify(response));
  assert.equal(typeof response.error.message, "string");
}

describe("stdio protocol", () => {
  test("initialize echoes a supported version and offers the latest otherwise", async () => {
    const server = new Server();
    for (const [id, version, expected] of [
      [1, "2025-11-25", "2025-11-25"],
    ]) {
      const response = await server.request(id, "initialize", {
        protocolVersion: version, capabilities: {}, clientInfo: { name: "raw", version: "1" },
      });
      assert.equal(response.result.protocolVersion, expected);
      assert.equal(response.result.serverInfo.name, "lode");
    }
    assertError(await server.request(2, "initialize", { protocolVersion: "2025-11-25" }), -32600);
    assert.deepEqual(await server.close(), { code: 0, signal: null });

    const old = new Server();
    const response = await old.request("a", "initialize", {
      protocolVersion: "2024-01-01", capabilities: {}, clientInfo: { name: "raw", version: "1" },
    });
    assert.equal(response.result.protocolVersion, "2025-11-25");
    await old.close();

    const legacy = new Server();
    const r = await legacy.request(7, "initialize", {
      protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "raw", version: "1" },
    });
    assert.equal(r.result.protocolVersion, "2025-03-26");
    await legacy.close();
  });

  test("requests before initialize are refused, ping is not", async () => {
    const server = new Server();
    assertError(await server.request(1, "tools/list"), -32600);
    assert.deepEqual((await server.request(2, "ping")).result, {});
    await server.close();
  });

  test("malformed messages get the right error codes and the server keeps serving", async () => {
    const server = new Server();
    await server.initialize();

    server.write("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \n");
    assertError(await server.anonymousError(), -32700);

    server.write("this is not json\n");
    assertError(await server.anonymousError(), -32700);

    server.write("[{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}]\n");
    assertError(await server.anonymousError(), -32600);

    server.write("42\n");
    assertError(await server.anonymousError(), -32600);

    // Invalid UTF-8 inside a string.
    server.write(Buffer.concat([Buffer.from("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"p"),
      Buffer.from([0xff, 0xfe]), Buffer.from("ing\"}\n")]));
    assertError(await server.anonymousError(), -32700);

    // Wrong types.
    server.write("{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"ping\"}\n");
    assertError(await server.anonymousError(), -32600);
    server.write("{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}\n");
    assertError(await server.anonymousError(), -32600);
    server.write("{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}\n");
    assertError(await server.anonymousError(), -32600);
    assertError(await server.request(4, 5), -32600);
    server.send({ jsonrpc: "1.0", id: 5, method: "ping" });
    assertError(await server.response(5), -32600);
    server.send({ id: 6, method: "ping" });
    assertError(await server.response(6), -32600);
    assertError(await server.request(7, "tools/list", [1, 2]), -32602);
    assertError(await server.request(8, "tools/call", { name: 5 }), -32602);
    assertError(await server.request(9, "tools/call", { arguments: {} }), -32602);
    assertError(await server.request(10, "tools/call",
      { name: "codebase_about", arguments: "x" }), -32602);
    assertError(await server.request(11, "logging/setLevel", { level: "loud" }), -32602);
    assertError(await server.request(12, "resources/read", {}), -32602);
    assertError(await server.request(13, "resources/read", { uri: "lode://nothing" }), -32002);

    // Unknown tool and unknown method.
    assertError(await server.request(14, "tools/call", { name: "codebase_nope" }), -32602);
    assertError(await server.request(15, "server/discover"), -32601);
    assertError(await server.request("s", "prompts/list"), -32601);

    // Arguments that fail validation are a tool result with isError, not a protocol error.
    const invalid = await server.request(16, "tools/call",
      { name: "codebase_search", arguments: { query: 3 } });
    assert.equal(invalid.result.isError, true);
    assert.match(invalid.result.content[0].text, /query/);

    // Notifications never get a response, known or not, even malformed.
    server.send({ jsonrpc: "2.0", method: "notifications/whatever" });
    server.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 999 } });
    server.send({ jsonrpc: "2.0", method: "notifications/initialized", params: [1] });
    // A string id is echoed as a string, an integer as an integer.
    assert.deepEqual((await server.request("id-17", "ping")).result, {});
    assert.deepEqual((await server.request(18, "ping")).result, {});
    assert.equal(server.messages.length, 0, JSON.stringify(server.messages));

    assert.deepEqual(await server.close(), { code: 0, signal: null });
  });

  test("hostile JSON: deep nesting, NUL, lone surrogates, huge numbers, control characters",
    async () => {
      const server = new Server();
      await server.initialize();

      // 100,000 nested arrays or objects (100 KB) crashed lode-mcp: refused, serving goes on.
      server.write("[".repeat(100000) + "\n");
      assertError(await server.anonymousError(), -32700);
      server.write("{\"a\":".repeat(100000) + "\n");
      assertError(await server.anonymousError(), -32700);
      // json-glib reads C comments: a quote inside one hid the nesting after it from the
      // depth check, and lode-mcp crashed. What is not JSON is refused.
      server.write("/*\"*/" + "[".repeat(100000) + "/*\"*/\n");
      assertError(await server.anonymousError(), -32700);
      assert.deepEqual((await server.request(1, "ping")).result, {});

      // "ping\u0000x" was answered as "ping": refused, not truncated. The message is JSON
      // otherwise: the answer says what is wrong, to the request's id.
      server.write("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\\u0000x\"}\n");
      const nul = await server.response(2);
      assertError(nul, -32602);
      assert.match(nul.error.message, /U\+0000/);
      server.write("{\"jsonrpc\":\"2.0\",\"id\":\"q\",\"method\":\"tools/call\",\"params\":" +
                   "{\"name\":\"codebase_search\",\"arguments\":{\"query\":\"a\\u0000b\"}}}\n");
      assertError(await server.response("q"), -32602);

      // Ids beyond 64-bit integers wrapped around (2^64 came back as -1): refused.
      server.write("{\"jsonrpc\":\"2.0\",\"id\":18446744073709551616,\"method\":\"ping\"}\n");
      assertError(await server.anonymousError(), -32700);
      // json-glib reads hexadecimal numbers too, and 0x1FFFFFFFFFFFFFFFFFFFF wrapped the same way.
      server.write("{\"jsonrpc\":\"2.0\",\"id\":0x1FFFFFFFFFFFFFFFFFFFF,\"method\":\"ping\"}\n");
      assertError(await server.anonymousError(), -32700);
      server.write("{\"jsonrpc\":\"2.0\",\"id\":9223372036854775807,\"method\":\"ping\"}\n");
      await server.next((m) => "result" in m, "the response to the largest id");
      assert.ok(server.lines.at(-1).includes("\"id\":9223372036854775807"), server.lines.at(-1));

      // A number no double holds is refused as a whole, the same whoever would run the tool.
      server.write("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":" +
                   "{\"name\":\"codebase_search\",\"arguments\":{\"query\":\"x\",\"limit\":1e400}}}\n");
      assertError(await server.anonymousError(), -32700);

      // A lone surrogate came back as invalid UTF-8; it is read as U+FFFD.
      server.write("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"x\\ud800y\"}\n");
      const lone = await server.response(4);
      assertError(lone, -32601);
      assert.equal(lone.error.message, "Method not found: x\ufffdy");

      // U+001F left raw by json-glib made the reply invalid JSON (the harness parses every
      // line with JSON.parse, which refuses raw control characters).
      server.send({ jsonrpc: "2.0", id: 5, method: "a\u001fb\u0001c" });
      assert.equal((await server.response(5)).error.message, "Method not found: a\u001fb\u0001c");

      assert.deepEqual(await server.close(), { code: 0, signal: null });
    });

  test("two requests in one write, and one request split over writes", async () => {
    const server = new Server();
    await server.initialize();
    server.write("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n" +
                 "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}\r\n");
    assert.deepEqual((await server.response(1)).result, {});
    assert.equal((await server.response(2)).result.tools.length, 39);
    server.write("{\"jsonrpc\":\"2.0\",");
    await new Promise((r) => setTimeout(r, 50));
    server.write("\"id\":3,\"method\":\"ping\"}\n");
    assert.deepEqual((await server.response(3)).result, {});
    await server.close();
  });

  test("huge lines: 10 MB is read, over 16 MiB is refused, serving goes on", async () => {
    const server = new Server();
    await server.initialize();

    const query = "x".repeat(10 * 1024 * 1024);
    const big = await server.request(1, "tools/call",
      { name: "codebase_search", arguments: { query, projectPath: fixture } });
    assert.equal(big.result.isError, true);
    assert.match(big.result.content[0].text, /query.*at most 65536 characters/);

    server.write("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\",\"pad\":\"" +
                 "y".repeat(17 * 1024 * 1024) + "\"}\n");
    assertError(await server.anonymousError(), -32600);
    assert.deepEqual((await server.request(3, "ping")).result, {});
    await server.close();
  });

  test("notifications/cancelled stops a running index; no response for it", async () => {
    const tree = makeBigTree(tempDir("lode-big-"));
    const server = new Server();
    await server.initialize();

    server.send({ jsonrpc: "2.0", id: "update", method: "tools/call", params: {
      name: "codebase_update", arguments: { projectPath: tree }, _meta: { progressToken: "tok" },
    } });
    const progress = await server.next((m) => m.method === "notifications/progress",
      "progress");
    assert.equal(progress.params.progressToken, "tok");
    server.send({ jsonrpc: "2.0", method: "notifications/cancelled",
                  params: { requestId: "update", reason: "test" } });

    // The server keeps serving; the job ends as cancelled.
    let status;
    for (let id = 1; ; id++) {
      status = await server.request(id, "tools/call",
        { name: "codebase_status", arguments: { projectPath: tree } });
      if (!status.result.structuredContent.indexing)
        break;
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(status.result.structuredContent.job.state, "cancelled");
    assert.equal(server.messages.filter((m) => m.id === "update").length, 0);

    // A second run resumes and completes.
    const done = await server.request("again", "tools/call",
      { name: "codebase_update", arguments: { projectPath: tree } });
    assert.equal(done.result.structuredContent.job.state, "succeeded");
    assert.equal(done.result.structuredContent.job.report.files, 2000);
    await server.close();
  });

  test("a call's progress comes before its response, on the wire", async () => {
    const tree = makeBigTree(tempDir("lode-big-"), 4, 50);
    const server = new Server();
    await server.initialize();

    const done = await server.request("update", "tools/call", {
      name: "codebase_update", arguments: { projectPath: tree }, _meta: { progressToken: "tok" },
    });
    assert.equal(done.result.structuredContent.job.state, "succeeded");
    // Whatever the server wrote after the response, it wrote before the ping's.
    await server.request("after", "ping");
    const own = server.lines.map((line) => JSON.parse(line))
      .filter((m) => m.id === "update" || m.params?.progressToken === "tok");
    assert.ok(own.length >= 2, JSON.stringify(own));
    assert.equal(own.at(-1).id, "update", JSON.stringify(own));
    await server.close();
  });

  test("codebase_index returns at once; a second call joins; codebase_stop stops", async () => {
    const tree = makeBigTree(tempDir("lode-big-"));
    const server = new Server();
    await server.initialize();

    const first = await server.request(1, "tools/call",
      { name: "codebase_index", arguments: { projectPath: tree } });
    assert.equal(first.result.structuredContent.job.state, "running");
    assert.equal(first.result.structuredContent.joined, false);
    const second = await server.request(2, "tools/call",
      { name: "codebase_index", arguments: { projectPath: tree } });
    assert.equal(second.result.structuredContent.joined, true);
    const stop = await server.request(3, "tools/call",
      { name: "codebase_stop", arguments: { projectPath: tree } });
    assert.equal(stop.result.structuredContent.stopped, true);
    assert.equal(stop.result.structuredContent.job.state, "cancelled");
    await server.close();
  });

  test("EOF mid-message: the cut message is refused, clean exit", async () => {
    const server = new Server();
    await server.initialize();
    server.write("{\"jsonrpc\":\"2.0\",\"id\":1,\"meth");
    assert.deepEqual(await server.close(), { code: 0, signal: null });
    assertError(await server.anonymousError(), -32700);
    assert.equal(server.partial, "");
  });

  test("EOF after a batch: every request sent before it is answered", async () => {
    const server = new Server();
    await server.initialize();
    const indexed = await server.request(1, "tools/call",
      { name: "codebase_update", arguments: { projectPath: fixture } });
    assert.equal(indexed.result.isError, false, JSON.stringify(indexed));

    const ids = Array.from({ length: 40 }, (_, i) => 100 + i);
    server.write(ids.map((id) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call",
      params: { name: "codebase_search",
                arguments: { projectPath: fixture, query: `parse the configuration ${id}` } } }))
      .join("\n") + "\n");
    // The last line has no newline: the end of input ends it.
    server.write(JSON.stringify({ jsonrpc: "2.0", id: 200, method: "ping" }));
    assert.deepEqual(await server.close(), { code: 0, signal: null });

    for (const id of ids) {
      const response = await server.response(id);
      assert.equal(response.result.isError, false, JSON.stringify(response));
      assert.ok(response.result.structuredContent.results.length > 0, JSON.stringify(response));
    }
    assert.deepEqual((await server.response(200)).result, {});
  });

  test("EOF after 5,000 pipelined searches: every request gets a response with its id", async () => {
    const tree = makeBigTree(tempDir("lode-big-"));
    const server = new Server();
    await server.initialize();
    const indexed = await server.request(1, "tools/call",
      { name: "codebase_update", arguments: { projectPath: tree } });
    assert.equal(indexed.result.isError, false, JSON.stringify(indexed));

    const ids = Array.from({ length: 5000 }, (_, i) => 1000 + i);
    server.write(ids.map((id) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call",
      params: { name: "codebase_search",
                arguments: { projectPath: tree, query: `value function unit ${id}` } } }))
      .join("\n") + "\n");
    assert.deepEqual(await server.close(), { code: 0, signal: null });

    // What did not finish within the drain time after the end of input is an error, with
    // the request's id; nothing is left without an answer.
    let answered = 0;
    let cancelled = 0;
    const seen = new Set();
    for (const message of server.messages) {
      if (!ids.includes(message.id))
        continue;
      assert.ok(!seen.has(message.id), `two responses to ${message.id}`);
      seen.add(message.id);
      if (message.error) {
        assert.equal(message.error.code, -32603, JSON.stringify(message));
        assert.match(message.error.message, /input ended/);
        cancelled++;
      } else {
        assert.equal(message.result.isError, false, JSON.stringify(message));
        answered++;
      }
    }
    assert.equal(seen.size, ids.length, `${answered} answered, ${cancelled} cancelled`);
  });

  test("EOF while an index runs: the job is cancelled and the server exits", async () => {
    const tree = makeBigTree(tempDir("lode-big-"));
    const server = new Server();
    await server.initialize();
    const started = await server.request(1, "tools/call",
      { name: "codebase_index", arguments: { projectPath: tree } });
    assert.equal(started.result.structuredContent.job.state, "running");
    server.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: {
      name: "codebase_update", arguments: { projectPath: tree } } });
    assert.deepEqual(await server.close(), { code: 0, signal: null });
  });

  test("logging: setLevel, then the end of a job is announced", async () => {
    const server = new Server();
    await server.initialize();
    assert.deepEqual((await server.request(1, "logging/setLevel", { level: "info" })).result, {});
    await server.request(2, "tools/call",
      { name: "codebase_update", arguments: { projectPath: fixture } });
    const log = await server.next((m) => m.method === "notifications/message", "a log message");
    assert.equal(log.params.level, "info");
    assert.match(log.params.data, new RegExp(`Indexed ${fixture}`));
    await server.close();
  });

  test("roots: a single root is the default project, several must be chosen from, list_changed asks again", async () => {
    const other = path.resolve(fixture, "..");
    const server = new Server();
    await server.request(1, "initialize", {
      protocolVersion: "2025-11-25", capabilities: { roots: { listChanged: true } },
      clientInfo: { name: "raw", version: "1" },
    });
    server.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    const ask = await server.next((m) => m.method === "roots/list", "roots/list");
    // A call that needs the default project waits for the roots; others do not.
    server.send({ jsonrpc: "2.0", id: 2, method: "tools/call",
                  params: { name: "codebase_status", arguments: {} } });
    assert.deepEqual((await server.request("p", "ping")).result, {});
    assert.equal(server.messages.filter((m) => m.id === 2).length, 0);
    server.send({ jsonrpc: "2.0", id: ask.id,
                  result: { roots: [{ uri: `file://${fixture}` }, { uri: `file://${other}` }] } });
    // Two roots: the call is told which there are and asked to name one.
    let status = await server.response(2);
    assert.equal(status.result.isError, true);
    assert.ok(status.result.content[0].text.includes(fixture));
    assert.ok(status.result.content[0].text.includes(other));
    assert.match(status.result.content[0].text, /projectPath/);

    server.send({ jsonrpc: "2.0", method: "notifications/roots/list_changed" });
    const again = await server.next((m) => m.method === "roots/list", "roots/list again");
    server.send({ jsonrpc: "2.0", id: again.id, result: { roots: [{ uri: `file://${other}` }] } });
    status = await server.request(3, "tools/call", { name: "codebase_status", arguments: {} });
    assert.equal(status.result.structuredContent.projectPath, other);

    // A client that never answers holds calls up for a moment only; the last root stays.
    server.send({ jsonrpc: "2.0", method: "notifications/roots/list_changed" });
    await server.next((m) => m.method === "roots/list", "roots/list, unanswered");
    status = await server.request(5, "tools/call", { name: "codebase_status", arguments: {} });
    assert.equal(status.result.structuredContent.projectPath, other);

    // projectPath overrides the root.
    status = await server.request(4, "tools/call",
      { name: "codebase_status", arguments: { projectPath: fixture } });
    assert.equal(status.result.structuredContent.projectPath, fixture);
    await server.close();
  });
});
