#!/usr/bin/env python3
# make-seeds.py — seed corpora for the libFuzzer harnesses, made at run time from this
# repository's own files (sources, test fixtures) and the small hand-written seeds in
# tests/fuzz/seeds/. Nothing fetched from elsewhere: the corpora are never committed.
#
#   tests/fuzz/make-seeds.py OUTDIR      → OUTDIR/<harness>/<seed files>
#
# SPDX-FileCopyrightText: 2026 The Lode authors
# SPDX-License-Identifier: GPL-3.0-or-later

import hashlib
import json
import os
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FIXTURES = os.path.join(ROOT, "tests", "liblode", "fixtures")
HEAD = 4096  # seeds stay small: libFuzzer mutates small inputs far faster


def tracked_files():
    try:
        out = subprocess.run(["git", "-C", ROOT, "ls-files", "-z"], check=True,
                             capture_output=True).stdout
        return [p for p in out.decode().split("\0") if p]
    except (OSError, subprocess.CalledProcessError):
        paths = []
        for d, _, names in os.walk(ROOT):
            if "/_build" in d or "/.git" in d or "node_modules" in d:
                continue
            paths += [os.path.relpath(os.path.join(d, n), ROOT) for n in names]
        return paths


def read(rel, limit=HEAD):
    with open(os.path.join(ROOT, rel), "rb") as f:
        return f.read(limit)


def write(outdir, harness, data):
    d = os.path.join(outdir, harness)
    os.makedirs(d, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def source_like(paths):
    """Fixtures and sources in every language Lode reads, by extension."""
    exts = (".c", ".h", ".cc", ".cpp", ".hpp", ".cs", ".go", ".java", ".js", ".jsx", ".mjs",
            ".ts", ".tsx", ".kt", ".kts", ".lua", ".php", ".py", ".rb", ".rs", ".scala",
            ".swift", ".sh", ".css", ".scss", ".less", ".html", ".vue", ".svelte", ".dart",
            ".json", ".md", ".toml", ".yaml", ".yml", ".txt", ".scm", ".xml", ".in")
    return [p for p in paths if p.endswith(exts) and "/fuzz/seeds/" not in p]


# Valid calls of every tool: seeds of the MCP and tool-argument harnesses, which mutate them.
TOOL_CALLS = [
    ("codebase_search", {"query": "parse_request_header", "projectPath": "/nonexistent/tree",
                         "limit": 5, "fileFilter": "src/**/*.c", "languageFilter": "c",
                         "minScore": 0.25, "mode": "lexical"}),
    ("codebase_search", {"query": "where are ignore rules parsed", "mode": "hybrid"}),
    ("codebase_index", {"projectPath": "/nonexistent/tree", "wait": False}),
    ("codebase_update", {"projectPath": "/nonexistent/tree"}),
    ("codebase_status", {"projectPath": "/nonexistent/tree"}),
    ("codebase_stop", {}),
    ("codebase_remove", {"projectPath": "/nonexistent/tree"}),
    ("codebase_watch", {"action": "status"}),
    ("codebase_list_projects", {}),
    ("codebase_health", {}),
    ("codebase_about", {}),
    ("codebase_graph_build", {}),
    ("codebase_graph_query", {"filePath": "src/main.c", "depth": 2, "direction": "outbound"}),
    ("codebase_graph_stats", {"limit": 3}),
    ("codebase_graph_circular", {"limit": 1}),
    ("codebase_graph_visualize", {"filePath": "a.ts", "depth": 1, "maxNodes": 10}),
    ("codebase_graph_status", {}),
    ("codebase_graph_remove", {}),
    ("codebase_impact", {"range": "HEAD~1..HEAD", "depth": 3, "limit": 50}),
]


def gvariant(type_string, value):
    """GVariant's serialised form of the few types D-Bus dictionaries of Lode use: b, u, i,
    t, d, s, as, v (a (type, value) pair) and a{sv} (a list of (key, (type, value)))."""
    def frame(body, ends):
        # A container ends with the end offsets of its variable-size parts, each as wide as
        # the container's total size needs.
        for width in (1, 2, 4, 8):
            if len(body) + width * len(ends) < 1 << (8 * width):
                break
        return body + b"".join(end.to_bytes(width, "little") for end in ends)

    def pad(body, alignment):
        return body + b"\0" * (-len(body) % alignment)

    fixed = {"b": "<?", "u": "<I", "i": "<i", "t": "<Q", "d": "<d"}
    if type_string in fixed:
        return struct.pack(fixed[type_string], value)
    if type_string == "s":
        return value.encode() + b"\0"
    if type_string == "as":
        body, ends = b"", []
        for item in value:
            body += gvariant("s", item)
            ends.append(len(body))
        return frame(body, ends)
    if type_string == "v":
        inner_type, inner = value
        return gvariant(inner_type, inner) + b"\0" + inner_type.encode()
    if type_string == "a{sv}":
        body, ends = b"", []
        for key, variant in value:
            key_bytes = gvariant("s", key)
            body = pad(body, 8)
            body += frame(pad(key_bytes, 8) + gvariant("v", variant), [len(key_bytes)])
            ends.append(len(body))
        return frame(body, ends)
    raise ValueError(type_string)


# Search options and configurations as loded receives them: seeds of fuzz-dbus-options.
DBUS_DICTS = [
    [("limit", ("u", 5)), ("language", ("s", "c")), ("path", ("s", "src/**/*.c")),
     ("min_score", ("d", 0.25)), ("per_file", ("b", True)), ("mode", ("s", "lexical"))],
    [("limit", ("i", -3)), ("mode", ("s", "semantic"))],
    [("limit", ("s", "ten"))],
    [("min_score", ("d", float("nan")))],
    [("data_dir", ("s", "/tmp/lode-data")), ("max_file_size", ("t", 1 << 20)),
     ("chunk_max_tokens", ("u", 512)), ("index_threads", ("u", 2)),
     ("extra_extensions", ("as", [])), ("embedding_provider", ("s", "builtin")),
     ("embedding_model", ("s", "gte-small")), ("vector_int8", ("b", False)),
     ("ollama_url", ("s", "http://127.0.0.1:11434")),
     ("openai_url", ("s", "http://127.0.0.1:8080/v1")), ("openai_api_key", ("s", "sk-x"))],
    [("extra_extensions", ("as", [".foo", ".bar"])), ("data_dir", ("s", "relative"))],
    [],
]


def mcp_seeds(outdir):
    def line(message):
        return json.dumps(message, ensure_ascii=False).encode() + b"\n"

    hello = (line({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                   "params": {"protocolVersion": "2025-06-18",
                              "capabilities": {"roots": {"listChanged": True}},
                              "clientInfo": {"name": "fuzz", "version": "1"}}}) +
             line({"jsonrpc": "2.0", "method": "notifications/initialized"}))
    for i, (tool, arguments) in enumerate(TOOL_CALLS):
        call = {"jsonrpc": "2.0", "id": i + 1, "method": "tools/call",
                "params": {"name": tool, "arguments": arguments,
                           "_meta": {"progressToken": "p%d" % i}}}
        write(outdir, "mcp", hello + line(call))
        write(outdir, "tool-arguments",
              tool.encode() + b"\n" + json.dumps(arguments).encode())
    write(outdir, "mcp", hello + b"".join(line(m) for m in [
        {"jsonrpc": "2.0", "id": "a", "method": "tools/list", "params": {"cursor": "1"}},
        {"jsonrpc": "2.0", "id": 2, "method": "resources/list"},
        {"jsonrpc": "2.0", "id": 3, "method": "resources/templates/list"},
        {"jsonrpc": "2.0", "id": 4, "method": "resources/read",
         "params": {"uri": "lode://project/x/overview"}},
        {"jsonrpc": "2.0", "id": 5, "method": "logging/setLevel", "params": {"level": "debug"}},
        {"jsonrpc": "2.0", "id": 6, "method": "ping"},
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 6}},
        {"jsonrpc": "2.0", "id": "roots-1", "result": {"roots": [{"uri": "file:///tmp/x"}]}},
        {"jsonrpc": "2.0", "method": "notifications/roots/list_changed"},
    ]))
    write(outdir, "mcp", hello + b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\n" +
          b"[[[[[[1]]]]]]\n\xff\xfe\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"a\\ud800\\u0000\"}\r\n")


def safetensors_seeds(outdir):
    """A model.safetensors for the tiny config of fuzz-safetensors.c: F32, then F16 and BF16
    under BertFor*'s "bert." prefix."""
    shapes = {"embeddings.word_embeddings.weight": [8, 4],
              "embeddings.position_embeddings.weight": [8, 4],
              "embeddings.token_type_embeddings.weight": [2, 4],
              "embeddings.LayerNorm.weight": [4], "embeddings.LayerNorm.bias": [4]}
    layer = "encoder.layer.0."
    for part in ("query", "key", "value"):
        shapes[layer + "attention.self.%s.weight" % part] = [4, 4]
        shapes[layer + "attention.self.%s.bias" % part] = [4]
    shapes.update({layer + "attention.output.dense.weight": [4, 4],
                   layer + "attention.output.dense.bias": [4],
                   layer + "attention.output.LayerNorm.weight": [4],
                   layer + "attention.output.LayerNorm.bias": [4],
                   layer + "intermediate.dense.weight": [8, 4],
                   layer + "intermediate.dense.bias": [8],
                   layer + "output.dense.weight": [4, 8], layer + "output.dense.bias": [4],
                   layer + "output.LayerNorm.weight": [4], layer + "output.LayerNorm.bias": [4]})
    for prefix, dtypes in (("", ["F32"]), ("bert.", ["F16", "BF16", "F32"])):
        header, data = {}, b""
        for i, (name, shape) in enumerate(shapes.items()):
            dtype = dtypes[i % len(dtypes)]
            count = shape[0] * (shape[1] if len(shape) > 1 else 1)
            if dtype == "F32":
                blob = struct.pack("<%df" % count, *[(j % 7) / 10.0 for j in range(count)])
            elif dtype == "F16":
                blob = struct.pack("<%de" % count, *[(j % 5) / 10.0 for j in range(count)])
            else:
                blob = b"".join(struct.pack("<f", (j % 3) / 4.0)[2:] for j in range(count))
            header[prefix + name] = {"dtype": dtype, "shape": shape,
                                     "data_offsets": [len(data), len(data) + len(blob)]}
            data += blob
        text = json.dumps(header).encode()
        write(outdir, "safetensors", struct.pack("<Q", len(text)) + text + data)
        if prefix == "":
            # A NaN in the first layer's weights (found by the fuzzer; test-bert has the
            # unit test): the model is refused, nothing is computed with it.
            at = header[layer + "attention.self.query.weight"]["data_offsets"][0]
            nan = data[:at] + struct.pack("<f", float("nan")) + data[at + 4:]
            write(outdir, "safetensors", struct.pack("<Q", len(text)) + text + nan)


def main():
    outdir = sys.argv[1]
    paths = tracked_files()
    sources = source_like(paths)

    for rel in sources:
        body = read(rel)
        name = os.path.basename(rel)
        # "file name\ntext": the chunker, import and declaration harnesses pick the
        # language from the name.
        write(outdir, "chunker", (rel + "\n").encode() + body)
        write(outdir, "imports", (rel + "\n").encode() + body)
        if name.endswith((".java", ".kt", ".kts", ".scala", ".cs", ".php")):
            write(outdir, "declarations", (rel + "\n").encode() + body)
        write(outdir, "code-tokenizer", body)
        write(outdir, "wordpiece", body[:1024])
        write(outdir, "sentencepiece", body[:1024])

    # Ignore rules against the repository's own paths.
    listing = "\n".join(paths[:200]).encode()
    for rel in paths:
        if os.path.basename(rel) in (".gitignore", ".lodeignore"):
            write(outdir, "ignore", read(rel) + b"\0" + listing)

    # Makefiles, for the reader of their include directories.
    for rel in paths:
        name = os.path.basename(rel)
        if name in ("Makefile", "makefile", "GNUmakefile") or name.endswith(".mk"):
            write(outdir, "makefile", read(rel))

    # Configuration files and manifests, for the reader of all five formats.
    for rel in paths:
        if rel.startswith("tests/liblode/fixtures/knowledge/"):
            write(outdir, "config", read(rel))

    mcp_seeds(outdir)
    safetensors_seeds(outdir)
    for entries in DBUS_DICTS:
        write(outdir, "dbus-options", gvariant("a{sv}", entries))

    # Hand-written seeds: tests/fuzz/seeds/<harness>/*.
    seeds = os.path.join(HERE, "seeds")
    for harness in sorted(os.listdir(seeds)) if os.path.isdir(seeds) else []:
        for name in sorted(os.listdir(os.path.join(seeds, harness))):
            with open(os.path.join(seeds, harness, name), "rb") as f:
                write(outdir, harness, f.read())


if __name__ == "__main__":
    main()
