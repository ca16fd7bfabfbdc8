// http.test.mjs — the Streamable HTTP transport at the HTTP level: sessions, protocol version
// header, SSE for requests with a progress token, and the guards (foreign Origin or Host → 403,
// bearer token → 401).
//
// SPDX-FileCopyrightText: 2026 The Lode authors
// SPDX-License-Identifier: GPL-3.0-or-later

import assert from "node:assert/strict";
import http from "node:http";
import { after, before, describe, test } from "node:test";

import { fixture, serverEnv, startHttp, stopChild, tempDir } from "./lib.mjs";

const JSON_HEADERS = {
  "Content-Type": "application/json",
  "Accept": "application/json, text/event-stream",
};

const INITIALIZE = {
  jsonrpc: "2.0", id: 1, method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "h", version: "1" } },
};

// The token each server made up, sent unless a test sends its own Authorization.
const tokens = new Map();

function withAuth(url, headers = {}) {
  const token = tokens.get(url);
  return token ? { Authorization: `Bearer ${token}`, ...headers } : headers;
}

function post(url, body, headers = {}) {
  return fetch(url, {
    method: "POST", headers: withAuth(url, { ...JSON_HEADERS, ...headers }),
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

// fetch() always sends the real Host; a DNS-rebinding request names another one.
function postWithHost(url, host, body) {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: "POST",
                                        headers: withAuth(url, { ...JSON_HEADERS, Host: host }) },
      (response) => { response.resume(); resolve(response.statusCode); });
    request.on("error", reject);
    request.end(JSON.stringify(body));
  });
}

async function openSession(url, headers = {}) {
  const response = await post(url, INITIALIZE, headers);
  assert.equal(response.status, 200);
  assert.match(response.headers.get("content-type"), /application\/json/);
  const sessionId = response.headers.get("mcp-session-id");
  assert.ok(sessionId);
  const body = await response.json();
  assert.equal(body.result.protocolVersion, "2025-11-25");
  const initialized = await post(url, { jsonrpc: "2.0", method: "notifications/initialized" },
    { "MCP-Session-Id": sessionId, ...headers });
  assert.equal(initialized.status, 202);
  return sessionId;
}

describe("HTTP transport", () => {
  let server;

  before(async () => {
    server = await startHttp([], serverEnv(tempDir()));
    tokens.set(server.url, server.token);
  });

  after(async () => {
    await stopChild(server.child);
    assert.equal(server.stdout(), "");
  });

  test("sessions: issued on initialize, required after, ended by DELETE", async () => {
    const sessionId = await openSession(server.url);
    const session = { "MCP-Session-Id": sessionId, "MCP-Protocol-Version": "2025-11-25" };

    const ping = await post(server.url, { jsonrpc: "2.0", id: 2, method: "ping" }, session);
    assert.equal(ping.status, 200);
    assert.deepEqual((await ping.json()).result, {});

    const missing = await post(server.url, { jsonrpc: "2.0", id: 3, method: "ping" });
    assert.equal(missing.status, 400);
    const unknown = await post(server.url, { jsonrpc: "2.0", id: 4, method: "ping" },
      { "MCP-Session-Id": "no-such-session" });
    assert.equal(unknown.status, 404);

    const deleted = await fetch(server.url, { method: "DELETE", headers: withAuth(server.url, session) });
    assert.equal(deleted.status, 200);
    const after = await post(server.url, { jsonrpc: "2.0", id: 5, method: "ping" }, session);
    assert.equal(after.status, 404);
  });

  test("MCP-Protocol-Version: supported versions pass, others get 400", async () => {
    const sessionId = await openSession(server.url);
    for (const version of ["2025-11-25", "2025-06-18", "2025-03-26"]) {
      const ok = await post(server.url, { jsonrpc: "2.0", id: 2, method: "ping" },
        { "MCP-Session-Id": sessionId, "MCP-Protocol-Version": version });
      assert.equal(ok.status, 200, version);
    }
    const bad = await post(server.url, { jsonrpc: "2.0", id: 3, method: "ping" },
      { "MCP-Session-Id": sessionId, "MCP-Protocol-Version": "2099-01-01" });
    assert.equal(bad.status, 400);
  });

  test("JSON-RPC errors over HTTP", async () => {
    const sessionId = await openSession(server.url);
    const parse = await post(server.url, "{not json", { "MCP-Session-Id": sessionId });
    assert.equal(parse.status, 400);
    assert.equal((await parse.json()).error.code, -32700);
    const batch = await post(server.url, "[]", { "MCP-Session-Id": sessionId });
    assert.equal(batch.status, 400);
    assert.equal((await batch.json()).error.code, -32600);
    const unknown = await post(server.url, { jsonrpc: "2.0", id: 9, method: "nope/nope" },
      { "MCP-Session-Id": sessionId });
    assert.equal((await unknown.json()).error.code, -32601);

    // 100,000 nested arrays or objects crashed the server (json-glib recurses per level).
    for (const nested of ["[".repeat(100000), "{\"a\":".repeat(100000)]) {
      const deep = await post(server.url, nested, { "MCP-Session-Id": sessionId });
      assert.equal(deep.status, 400);
      assert.equal((await deep.json()).error.code, -32700);
    }
    // An error message quoting the request with a non-ASCII character ("…" after a long
    // number) was escaped the C way (\342\200\246): the body was not JSON.
    const long = await post(server.url,
      `{"jsonrpc":"2.0","id":${"1".repeat(50)},"method":"ping"}`, { "MCP-Session-Id": sessionId });
    assert.equal(long.status, 400);
    const longError = (await long.json()).error;
    assert.equal(longError.code, -32700);
    assert.match(longError.message, /^the number 1{40}\u2026 at byte 22 is out of range$/);
    const ping = await post(server.url, { jsonrpc: "2.0", id: 10, method: "ping" },
      { "MCP-Session-Id": sessionId });
    assert.deepEqual((await ping.json()).result, {});
  });

  test("a request with a progress token is answered with an SSE stream", async () => {
    const sessionId = await openSession(server.url);
    const response = await post(server.url, {
      jsonrpc: "2.0", id: 7, method: "tools/call",
      params: { name: "codebase_update", arguments: { projectPath: fixture },
                _meta: { progressToken: "p" } },
    }, { "MCP-Session-Id": sessionId });
    assert.equal(response.status, 200);
    assert.match(response.headers.get("content-type"), /text\/event-stream/);
    const events = (await response.text()).split("\n\n").filter((e) => e.trim() !== "")
      .map((e) => JSON.parse(e.split("\n").find((l) => l.startsWith("data: ")).slice(6)));
    const last = events.pop();
    assert.equal(last.id, 7);
    assert.equal(last.result.structuredContent.job.state, "succeeded");
    assert.ok(events.length > 0, "progress came before the result");
    for (const event of events) {
      assert.equal(event.method, "notifications/progress");
      assert.equal(event.params.progressToken, "p");
    }
  });

  test("GET offers no stream (405), other paths are 404", async () => {
    assert.equal((await fetch(server.url, { headers: withAuth(server.url) })).status, 405);
    assert.equal((await fetch(server.url.replace("/mcp", "/other"))).status, 404);
  });

  test("a foreign Origin or Host is refused with 403, a local one is not", async () => {
    const evil = await post(server.url, INITIALIZE, { Origin: "http://evil.example" });
    assert.equal(evil.status, 403);
    const local = await post(server.url, INITIALIZE, { Origin: "http://localhost:6274" });
    assert.equal(local.status, 200);
    assert.equal(await postWithHost(server.url, "evil.example:80", INITIALIZE), 403);
    assert.equal(await postWithHost(server.url, new URL(server.url).host, INITIALIZE), 200);
  });
});

describe("HTTP without a token", () => {
  let server;

  before(async () => {
    server = await startHttp(["--no-token"], serverEnv(tempDir()));
  });

  after(async () => {
    await stopChild(server.child);
    assert.equal(server.stdout(), "");
  });

  test("100,000 nested arrays or objects are refused, before and in a session", async () => {
    for (const nested of ["[".repeat(100000), "{\"a\":".repeat(100000)]) {
      const first = await post(server.url, nested);
      assert.equal(first.status, 400);
      assert.equal((await first.json()).error.code, -32700);
    }
    const sessionId = await openSession(server.url);
    for (const nested of ["[".repeat(100000), "{\"a\":".repeat(100000)]) {
      const deep = await post(server.url, nested, { "MCP-Session-Id": sessionId });
      assert.equal(deep.status, 400);
      assert.equal((await deep.json()).error.code, -32700);
    }
    const ping = await post(server.url, { jsonrpc: "2.0", id: 1, method: "ping" },
      { "MCP-Session-Id": sessionId });
    assert.deepEqual((await ping.json()).result, {});
  });
});

describe("HTTP bearer token", () => {
  let server;

  before(async () => {
    server = await startHttp(["--token", "s3cret"], serverEnv(tempDir()));
  });

  after(async () => {
    await stopChild(server.child);
  });

  test("requests without the token get 401", async () => {
    const none = await post(server.url, INITIALIZE);
    assert.equal(none.status, 401);
    assert.match(none.headers.get("www-authenticate"), /Bearer/);
    const wrong = await post(server.url, INITIALIZE, { Authorization: "Bearer s3cre" });
    assert.equal(wrong.status, 401);
    const longer = await post(server.url, INITIALIZE, { Authorization: "Bearer s3cret!" });
    assert.equal(longer.status, 401);
    await openSession(server.url, { Authorization: "Bearer s3cret" });
  });
});
