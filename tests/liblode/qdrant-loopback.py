#!/usr/bin/env python3
# qdrant-loopback.py — a loopback stand-in for the part of Qdrant's REST API that Lode uses
#
# SPDX-FileCopyrightText: 2026 The Lode authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Qdrant cannot run on the machines that build Lode, so the store's tests talk to this server
# instead. It keeps collections in memory and answers like Qdrant does (collections, payload
# indexes, points upsert/retrieve/scroll/count/delete with filters, the query API with
# prefetch legs and RRF fusion, dense vectors with cosine or dot distance, sparse vectors with
# the IDF modifier, collection aliases). Its routes are its own (ROUTES). Given Qdrant's OpenAPI document
# (--openapi), it also checks every request body and every response body against it: a request
# Qdrant would reject as malformed is answered with 400 and recorded, a response that does not
# fit the document is recorded too (GET /__loopback/state). Without the document (a clean
# clone: it is a downloaded file) it serves the same answers unchecked.
#
# Control endpoints (not part of Qdrant's API, never validated):
#   POST /__loopback/faults   [{"path": "/points", "method": "PUT", "skip": 0, "count": 1,
#                               "kind": "status"|"hang"|"drop"|"drop-after-apply"|"raw"|"endless",
#                               "status": 503, "retry_after": 1, "body": "text"}]
#                             ("raw" answers with status and body as given, JSON or not;
#                             "endless" with a chunked body that never ends, and records in
#                             the request's "sent" how much of it went out before the client
#                             hung up)
#   GET  /__loopback/state    {"violations": [...], "requests": [{"method", "path", "status",
#                               "bytes", "sent"?}], "collections": {name: n_points},
#                               "aliases": {alias: collection}}
#   POST /__loopback/reset    forget collections, faults, log and violations
#
# It prints "PORT <n>" on its first line of stdout once it listens on 127.0.0.1 and runs until
# its standard input closes (the test that started it went away) or it is terminated.
#
# Why Python: jsonschema (Debian's python3-jsonschema) validates against the whole OpenAPI
# document with its $refs, anyOf/oneOf and nested schemas; a C validator for that much of JSON
# Schema would be a second project, and the server is test infrastructure, never shipped.

import argparse
import copy
import json
import math
import re
import socket
import ssl
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import jsonschema
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT4
DOC_URI = "urn:qdrant-openapi"


class ApiError(Exception):
    def __init__(self, status, message):
        super().__init__(message)
        self.status = status
        self.message = message


# ---- OpenAPI ---------------------------------------------------------------------------

def openapi_to_json_schema(node):
    """OpenAPI 3.0's `nullable` as JSON Schema: `{"nullable": true}` alone (how Qdrant's
    generator writes "or null" in anyOf) becomes `{"type": "null"}`; a typed schema with
    `nullable` also accepts null."""
    if isinstance(node, list):
        return [openapi_to_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: openapi_to_json_schema(value) for key, value in node.items()}
    if out.pop("nullable", False):
        keywords = set(out) - {"description", "default", "example", "format", "deprecated"}
        if not keywords:
            return {"type": "null"}
        if "type" in out:
            kinds = out["type"] if isinstance(out["type"], list) else [out["type"]]
            out["type"] = kinds + ["null"]
            if "enum" in out:
                out["enum"] = out["enum"] + [None]
        else:
            return {"anyOf": [out, {"type": "null"}]}
    return out


# The requests the loopback server answers (handle()), as Qdrant's OpenAPI document names them.
ROUTES = [
    ("GET", "/"),
    ("GET", "/collections"),
    ("GET", "/aliases"),
    ("POST", "/collections/aliases"),
    ("GET", "/collections/{collection_name}/aliases"),
    ("GET", "/collections/{collection_name}"),
    ("PUT", "/collections/{collection_name}"),
    ("DELETE", "/collections/{collection_name}"),
    ("GET", "/collections/{collection_name}/exists"),
    ("PUT", "/collections/{collection_name}/index"),
    ("PUT", "/collections/{collection_name}/points"),
    ("POST", "/collections/{collection_name}/points"),
    ("POST", "/collections/{collection_name}/points/delete"),
    ("PUT", "/collections/{collection_name}/points/vectors"),
    ("POST", "/collections/{collection_name}/points/vectors/delete"),
    ("POST", "/collections/{collection_name}/points/payload"),
    ("POST", "/collections/{collection_name}/points/count"),
    ("POST", "/collections/{collection_name}/points/scroll"),
    ("POST", "/collections/{collection_name}/points/query"),
]
ROUTE_PATTERNS = [(method, template, re.compile(
    "^" + re.sub(r"\\{([a-z_]+)\\}", r"(?P<\1>[^/]+)", re.escape(template)) + "$"))
    for method, template in ROUTES]


def route(method, path):
    for route_method, template, pattern in ROUTE_PATTERNS:
        match = pattern.match(path)
        if match and method == route_method:
            return template, match.groupdict()
    return None, None


class OpenApi:
    def __init__(self, filename):
        with open(filename, encoding="utf-8") as f:
            self.doc = openapi_to_json_schema(json.load(f))
        resource = Resource(contents=self.doc, specification=DRAFT4)
        self.registry = Registry().with_resource(DOC_URI, resource)
        missing = ["%s %s" % route for route in ROUTES
                   if route[0].lower() not in self.doc["paths"].get(route[1], {})]
        if missing:
            sys.exit("%s does not document %s" % (filename, ", ".join(missing)))

    def operation(self, method, template):
        return self.doc["paths"][template][method.lower()]

    def _errors(self, schema, instance):
        validator = jsonschema.Draft4Validator(schema, registry=self.registry)
        return sorted(validator.iter_errors(instance), key=lambda e: list(e.absolute_path))

    @staticmethod
    def _absolute(schema):
        text = json.dumps(schema).replace('"#/components', '"' + DOC_URI + '#/components')
        return json.loads(text)

    def check_request(self, op, body):
        content = op.get("requestBody", {}).get("content", {}).get("application/json")
        if content is None:
            return []
        return self._errors(self._absolute(content["schema"]), body)

    def check_response(self, op, status, body):
        responses = op.get("responses", {})
        spec = responses.get(str(status)) or responses.get("%dXX" % (status // 100)) \
            or responses.get("default")
        if spec is None:
            return ["status %d is not documented" % status]
        content = spec.get("content", {}).get("application/json")
        if content is None:
            return []
        return [e.message for e in self._errors(self._absolute(content["schema"]), body)]


def describe(error):
    where = "/".join(str(p) for p in error.absolute_path) or "(body)"
    # anyOf errors say little by themselves; the closest branch says what is wrong.
    best = jsonschema.exceptions.best_match([error])
    return "%s: %s" % (where, best.message[:400])


# ---- payload, filters ------------------------------------------------------------------

def payload_values(payload, key):
    """Qdrant's key paths: `a.b` reads nested objects, `a[]` every element of an array;
    arrays at the end are flattened, so a condition matches when any element does."""
    values = [payload]
    for part in key.split("."):
        expand = part.endswith("[]")
        name = part[:-2] if expand else part
        nxt = []
        for value in values:
            if isinstance(value, list):
                candidates = value
            else:
                candidates = [value]
            for item in candidates:
                if isinstance(item, dict) and name in item:
                    nxt.append(item[name])
        values = []
        for value in nxt:
            if isinstance(value, list):
                values.extend(value)
            else:
                values.append(value)
    return values


def as_list(conditions):
    if conditions is None:
        return []
    return conditions if isinstance(conditions, list) else [conditions]


def same_id(a, b):
    return str(a).lower() == str(b).lower()


def check_condition(point_id, payload, condition):
    if "must" in condition or "should" in condition or "must_not" in condition \
            or "min_should" in condition:
        return check_filter(point_id, payload, condition)
    if "has_id" in condition:
        return any(same_id(point_id, i) for i in condition["has_id"])
    if "is_empty" in condition and isinstance(condition["is_empty"], dict):
        return len([v for v in payload_values(payload, condition["is_empty"]["key"])
                    if v is not None]) == 0
    if "is_null" in condition and isinstance(condition["is_null"], dict):
        return None in payload_values(payload, condition["is_null"]["key"])
    if "nested" in condition:
        raise ApiError(400, "nested conditions are not implemented by the loopback server")
    if "key" not in condition:
        raise ApiError(400, "Unsupported condition %s" % json.dumps(condition)[:200])
    values = payload_values(payload, condition["key"])
    if condition.get("match") is not None:
        match = condition["match"]
        if "value" in match:
            return match["value"] in values
        if "any" in match:
            return any(v in values for v in match["any"])
        if "except" in match:
            return any(v not in match["except"] for v in values) or not values
        if "text" in match:
            return any(isinstance(v, str) and match["text"] in v for v in values)
        raise ApiError(400, "Unsupported match %s" % json.dumps(match)[:200])
    if condition.get("range") is not None:
        bounds = condition["range"]
        numbers = [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]

        def inside(v):
            return (bounds.get("gt") is None or v > bounds["gt"]) and \
                (bounds.get("gte") is None or v >= bounds["gte"]) and \
                (bounds.get("lt") is None or v < bounds["lt"]) and \
                (bounds.get("lte") is None or v <= bounds["lte"])
        return any(inside(v) for v in numbers)
    if condition.get("is_empty") is True:
        return not [v for v in values if v is not None]
    raise ApiError(400, "Unsupported condition %s" % json.dumps(condition)[:200])


def check_filter(point_id, payload, flt):
    if flt is None:
        return True
    payload = payload or {}
    if not all(check_condition(point_id, payload, c) for c in as_list(flt.get("must"))):
        return False
    if any(check_condition(point_id, payload, c) for c in as_list(flt.get("must_not"))):
        return False
    should = as_list(flt.get("should"))
    if should and not any(check_condition(point_id, payload, c) for c in should):
        return False
    if flt.get("min_should") is not None:
        spec = flt["min_should"]
        hits = sum(1 for c in spec["conditions"] if check_condition(point_id, payload, c))
        if hits < spec["min_count"]:
            return False
    return True


# ---- collections -----------------------------------------------------------------------

def id_key(point_id):
    """Qdrant orders integer ids before UUIDs, each in its natural order."""
    if isinstance(point_id, int):
        return (0, point_id, "")
    return (1, 0, str(point_id))


def normalise_id(point_id):
    if isinstance(point_id, str):
        try:
            return str(uuid.UUID(point_id))
        except ValueError:
            raise ApiError(400, "Format error in JSON body: value %s is not a valid point ID, "
                           "valid values are either an unsigned integer or a UUID" % point_id)
    return point_id


class Collection:
    def __init__(self, name, config):
        self.name = name
        self.config = config
        self.points = {}        # id -> {"vector": {...}, "payload": {...}, "version": n}
        self.payload_schema = {}
        self.version = 0
        vectors = config.get("vectors") or {}
        if "size" in vectors:   # one unnamed vector
            self.dense = {"": vectors}
        else:
            self.dense = dict(vectors)
        self.sparse = dict(config.get("sparse_vectors") or {})

    # Dense vectors are stored as Qdrant stores them: normalised for cosine distance.
    def prepare_vector(self, name, value):
        if name in self.sparse:
            if not isinstance(value, dict):
                raise ApiError(400, "Wrong input: Conversion between sparse and regular "
                               "vectors failed")
            indices, values = value["indices"], value["values"]
            if len(indices) != len(values):
                raise ApiError(400, "Wrong input: Sparse vector indices and values must "
                               "have the same length")
            if len(set(indices)) != len(indices):
                raise ApiError(400, "Validation error in JSON body: [indices: must be unique]")
            return {"indices": list(indices), "values": [float(v) for v in values]}
        if name not in self.dense:
            raise ApiError(400, "Wrong input: Not existing vector name error: %s" % name)
        params = self.dense[name]
        if not isinstance(value, list):
            raise ApiError(400, "Wrong input: Conversion between sparse and regular vectors "
                           "failed")
        if len(value) != params["size"]:
            raise ApiError(400, "Wrong input: Vector dimension error: expected dim: %d, got %d"
                           % (params["size"], len(value)))
        vector = [float(v) for v in value]
        if params["distance"] == "Cosine":
            norm = math.sqrt(sum(v * v for v in vector))
            if norm > 0:
                vector = [v / norm for v in vector]
        return vector

    def upsert(self, points):
        prepared = []
        for point in points:
            point_id = normalise_id(point["id"])
            vector = point.get("vector")
            if isinstance(vector, list):
                vector = {"": vector}
            if not isinstance(vector, dict):
                raise ApiError(400, "Wrong input: the loopback server takes named vectors only")
            vectors = {name: self.prepare_vector(name, value) for name, value in vector.items()}
            prepared.append((point_id, vectors, point.get("payload") or {}))
        # All or nothing, as one operation of Qdrant's WAL.
        self.version += 1
        for point_id, vectors, payload in prepared:
            self.points[point_id] = {"vector": vectors, "payload": copy.deepcopy(payload),
                                     "version": self.version}

    def select(self, flt):
        return [pid for pid, point in self.points.items()
                if check_filter(pid, point["payload"], flt)]

    def idf(self, name, index):
        documents = [p for p in self.points.values() if name in p["vector"]]
        n = len(documents)
        df = sum(1 for p in documents if index in p["vector"][name]["indices"])
        return math.log(1.0 + (n - df + 0.5) / (df + 0.5))

    def check_query(self, name, query):
        if name in self.sparse:
            if not isinstance(query, dict):
                raise ApiError(400, "Wrong input: Conversion between sparse and regular "
                               "vectors failed")
            return
        params = self.dense[name]
        if not isinstance(query, list) or len(query) != params["size"]:
            raise ApiError(400, "Wrong input: Vector dimension error: expected dim: %d, got %s"
                           % (params["size"], len(query) if isinstance(query, list) else "?"))
        if params["distance"] not in ("Cosine", "Dot"):
            raise ApiError(400, "the loopback server implements Cosine and Dot distances")

    def query_weights(self, name, query):
        """A sparse query's values, times the IDF of each term with the idf modifier (the
        collection's statistics when the query runs)."""
        if name not in self.sparse:
            return None
        use_idf = (self.sparse[name] or {}).get("modifier") == "idf"
        return {index: value * (self.idf(name, index) if use_idf else 1.0)
                for index, value in zip(query["indices"], query["values"])}

    def score(self, name, query, point, weights=None):
        stored = point["vector"].get(name)
        if stored is None:
            return None
        if name in self.sparse:
            total, hit = 0.0, False
            for index, value in zip(stored["indices"], stored["values"]):
                if index in weights:
                    hit = True
                    total += weights[index] * value
            return total if hit else None
        q = query
        if self.dense[name]["distance"] == "Cosine":
            norm = math.sqrt(sum(v * v for v in q)) or 1.0
            q = [v / norm for v in q]
        return sum(a * b for a, b in zip(q, stored))

    def info(self):
        params = {"vectors": self.config.get("vectors", {}),
                  "shard_number": self.config.get("shard_number") or 1,
                  "replication_factor": self.config.get("replication_factor") or 1,
                  "write_consistency_factor": self.config.get("write_consistency_factor") or 1,
                  "on_disk_payload": True}
        if self.sparse:
            params["sparse_vectors"] = self.sparse
        return {
            "status": "green",
            "optimizer_status": "ok",
            "indexed_vectors_count": 0,
            "points_count": len(self.points),
            "segments_count": 1,
            "config": {
                "params": params,
                "hnsw_config": {"m": 16, "ef_construct": 100, "full_scan_threshold": 10000,
                                "max_indexing_threads": 0, "on_disk": False},
                "optimizer_config": {"deleted_threshold": 0.2, "vacuum_min_vector_number": 1000,
                                     "default_segment_number": 0, "flush_interval_sec": 5},
                "wal_config": {"wal_capacity_mb": 32, "wal_segments_ahead": 0},
            },
            "payload_schema": {
                field: {"data_type": kind, "points": sum(
                    1 for p in self.points.values() if payload_values(p["payload"], field))}
                for field, kind in self.payload_schema.items()},
        }


def select_payload(payload, selector):
    if selector is None or selector is True:
        return payload
    if selector is False:
        return None
    if isinstance(selector, list):
        return {k: v for k, v in payload.items() if k in selector}
    if isinstance(selector, dict) and "include" in selector:
        return {k: v for k, v in payload.items() if k in as_list(selector["include"])}
    if isinstance(selector, dict) and "exclude" in selector:
        return {k: v for k, v in payload.items() if k not in as_list(selector["exclude"])}
    raise ApiError(400, "Unsupported with_payload %s" % json.dumps(selector)[:200])


def select_vector(vectors, selector):
    if not selector:
        return None
    names = vectors.keys() if selector is True else selector
    out = {name: vectors[name] for name in names if name in vectors}
    if list(out) == [""]:
        return out[""]
    return out


def record(point_id, point, with_payload, with_vector, score=None):
    out = {"id": point_id}
    if score is not None:
        out["score"] = score
        out["version"] = point["version"]
    payload = select_payload(point["payload"], with_payload)
    if payload is not None:
        out["payload"] = payload
    vector = select_vector(point["vector"], with_vector)
    if vector is not None:
        out["vector"] = vector
    return out


def merge_filters(outer, inner):
    if outer is None:
        return inner
    if inner is None:
        return outer
    return {"must": [outer, inner]}


def rrf(responses, k, weights):
    """Qdrant's weighted reciprocal rank fusion (lib/segment/src/common/
    reciprocal_rank_fusion.rs): 1 / ((position + 1) / weight + k - 1) per list."""
    if weights is not None and len(weights) != len(responses):
        raise ApiError(400, "Number of weights in RRF should match number of pre-fetches: got "
                       "%d, expected %d" % (len(weights), len(responses)))
    scores, order = {}, []
    for index, response in enumerate(responses):
        weight = 1.0 if weights is None else weights[index]
        for position, (point_id, _) in enumerate(response):
            value = 0.0 if weight <= 0 else 1.0 / ((position + 1) / weight + k - 1)
            if point_id not in scores:
                order.append(point_id)
                scores[point_id] = 0.0
            scores[point_id] += value
    return sorted(((pid, scores[pid]) for pid in order), key=lambda item: -item[1])


def run_query(collection, request, outer_filter=None):
    """Returns [(id, score)], best first, for a query or a prefetch."""
    flt = merge_filters(outer_filter, request.get("filter"))
    limit = request.get("limit") or 10
    offset = request.get("offset") or 0
    prefetches = as_list(request.get("prefetch"))
    query = request.get("query")
    threshold = request.get("score_threshold")

    if prefetches:
        responses = [run_query(collection, p, flt) for p in prefetches]
        if isinstance(query, dict) and query.get("fusion") == "rrf":
            fused = rrf(responses, 2, None)
        elif isinstance(query, dict) and "rrf" in query:
            params = query["rrf"] or {}
            fused = rrf(responses, params.get("k") or 2, params.get("weights"))
        else:
            raise ApiError(400, "the loopback server fuses prefetches with RRF only")
        if threshold is not None:
            fused = [item for item in fused if item[1] > threshold]
        return fused[offset:offset + limit]

    if query is None:
        ids = sorted(collection.select(flt), key=id_key)
        return [(pid, 0.0) for pid in ids][offset:offset + limit]
    if isinstance(query, dict) and "nearest" in query:
        query = query["nearest"]
    name = request.get("using") or ""
    if name not in collection.dense and name not in collection.sparse:
        raise ApiError(400, "Wrong input: Not existing vector name error: %s" % name)
    collection.check_query(name, query)
    weights = collection.query_weights(name, query)
    scored = []
    for point_id in collection.select(flt):
        score = collection.score(name, query, collection.points[point_id], weights)
        if score is None:
            continue
        if threshold is not None and score < threshold:
            continue
        scored.append((point_id, score))
    scored.sort(key=lambda item: (-item[1], id_key(item[0])))
    return scored[offset:offset + limit]


# ---- the server ------------------------------------------------------------------------

class State:
    def __init__(self, openapi, version, api_key, max_request_bytes):
        self.openapi = openapi
        self.version = version
        self.api_key = api_key
        self.max_request_bytes = max_request_bytes
        self.lock = threading.Lock()
        self.reset()

    def reset(self):
        self.collections = {}
        self.aliases = {}       # alias -> collection, as Qdrant keeps them
        self.faults = []
        self.requests = []
        self.violations = []
        self.seen = {}

    def take_fault(self, method, path):
        for fault in self.faults:
            if fault.get("method") and fault["method"] != method:
                continue
            if fault.get("path") and fault["path"] not in path:
                continue
            key = id(fault)
            self.seen[key] = self.seen.get(key, 0) + 1
            if self.seen[key] <= fault.get("skip", 0):
                continue
            if fault.get("count", 1) <= 0:
                continue
            fault["count"] = fault.get("count", 1) - 1
            return fault
        return None


def ok(result, start):
    return 200, {"usage": None, "time": time.monotonic() - start, "status": "ok",
                 "result": result}


def get_collection(state, name):
    """A collection by its name or one of its aliases, as Qdrant resolves names for every
    operation on a collection's points, its info and its payload indexes."""
    collection = state.collections.get(name)
    if collection is None and name in state.aliases:
        collection = state.collections.get(state.aliases[name])
    if collection is None:
        raise ApiError(404, "Not found: Collection `%s` doesn't exist!" % name)
    return collection


def alias_list(aliases):
    return {"aliases": [{"alias_name": alias, "collection_name": collection}
                        for alias, collection in sorted(aliases.items())]}


def update_aliases(state, actions):
    """Qdrant applies the actions one after the other under one lock, so no request sees
    a state between two of them; an action that fails ends the request, the ones before it
    stay applied (each is persisted as it is made)."""
    for action in actions:
        if "create_alias" in action:
            collection = action["create_alias"]["collection_name"]
            alias = action["create_alias"]["alias_name"]
            if collection not in state.collections:
                raise ApiError(404, "Not found: Collection `%s` doesn't exist!" % collection)
            if alias in state.collections:
                raise ApiError(409, "Wrong input: Collection `%s` already exists!" % alias)
            state.aliases[alias] = collection
        elif "delete_alias" in action:
            state.aliases.pop(action["delete_alias"]["alias_name"], None)
        elif "rename_alias" in action:
            old = action["rename_alias"]["old_alias_name"]
            if old not in state.aliases:
                raise ApiError(404, "Not found: Alias %s does not exists!" % old)
            state.aliases[action["rename_alias"]["new_alias_name"]] = state.aliases.pop(old)
        else:
            raise ApiError(400, "Format error in JSON body: unknown alias operation %s"
                           % json.dumps(action)[:200])


def handle(state, method, template, params, query, body):
    start = time.monotonic()
    name = params.get("collection_name")

    if template == "/":
        return 200, {"title": "qdrant - vector search engine", "version": state.version,
                     "commit": "0" * 40}
    if template == "/collections" and method == "GET":
        return ok({"collections": [{"name": n} for n in sorted(state.collections)]}, start)
    if template == "/aliases":
        return ok(alias_list(state.aliases), start)
    if template == "/collections/aliases":
        update_aliases(state, body["actions"])
        return ok(True, start)
    if template == "/collections/{collection_name}/aliases":
        target = get_collection(state, name).name
        return ok(alias_list({a: c for a, c in state.aliases.items() if c == target}), start)
    if template == "/collections/{collection_name}/exists":
        return ok({"exists": name in state.collections or
                   state.aliases.get(name) in state.collections}, start)
    if template == "/collections/{collection_name}":
        if method == "GET":
            return ok(get_collection(state, name).info(), start)
        if method == "PUT":
            if name in state.collections:
                raise ApiError(409, "Wrong input: Collection `%s` already exists!" % name)
            if name in state.aliases:
                raise ApiError(400, "Wrong input: Can't create collection with name %s. Alias "
                               "with the same name already exists" % name)
            state.collections[name] = Collection(name, body or {})
            return ok(True, start)
        if method == "DELETE":
            # By its own name only (an alias deletes nothing), with every alias of it.
            state.aliases = {a: c for a, c in state.aliases.items() if c != name}
            return ok(state.collections.pop(name, None) is not None, start)
    if template == "/collections/{collection_name}/index" and method == "PUT":
        collection = get_collection(state, name)
        schema = body.get("field_schema")
        kind = schema if isinstance(schema, str) else (schema or {}).get("type", "keyword")
        collection.payload_schema[body["field_name"]] = kind
        collection.version += 1
        return ok({"operation_id": collection.version, "status": "completed"}, start)

    collection = get_collection(state, name)
    if template == "/collections/{collection_name}/points" and method == "PUT":
        if "points" not in body:
            raise ApiError(400, "the loopback server takes the list form of upserts only")
        collection.upsert(body["points"])
        return ok({"operation_id": collection.version, "status": "completed"}, start)
    if template == "/collections/{collection_name}/points" and method == "POST":
        out = []
        for point_id in body["ids"]:
            point_id = normalise_id(point_id)
            if point_id in collection.points:
                out.append(record(point_id, collection.points[point_id],
                                  body.get("with_payload", True), body.get("with_vector")))
        return ok(out, start)
    if template == "/collections/{collection_name}/points/delete":
        if "points" in body:
            ids = [normalise_id(i) for i in body["points"]]
        else:
            ids = collection.select(body.get("filter"))
        collection.version += 1
        for point_id in ids:
            collection.points.pop(point_id, None)
        return ok({"operation_id": collection.version, "status": "completed"}, start)
    if template == "/collections/{collection_name}/points/vectors" and method == "PUT":
        prepared = []
        for point in body["points"]:
            point_id = normalise_id(point["id"])
            if point_id not in collection.points:
                raise ApiError(404, "Not found: No point with id %s found" % point_id)
            vector = point["vector"]
            if isinstance(vector, list):
                vector = {"": vector}
            prepared.append((point_id, {name: collection.prepare_vector(name, value)
                                        for name, value in vector.items()}))
        collection.version += 1
        for point_id, vectors in prepared:
            collection.points[point_id]["vector"].update(vectors)
            collection.points[point_id]["version"] = collection.version
        return ok({"operation_id": collection.version, "status": "completed"}, start)
    if template == "/collections/{collection_name}/points/vectors/delete":
        ids = ([normalise_id(i) for i in body["points"]] if "points" in body
               else collection.select(body.get("filter")))
        collection.version += 1
        for point_id in ids:
            for name in body["vector"]:
                collection.points.get(point_id, {"vector": {}})["vector"].pop(name, None)
        return ok({"operation_id": collection.version, "status": "completed"}, start)
    if template == "/collections/{collection_name}/points/payload" and method == "POST":
        ids = ([normalise_id(i) for i in body["points"]] if body.get("points") is not None
               else collection.select(body.get("filter")))
        collection.version += 1
        for point_id in ids:
            if point_id in collection.points:
                collection.points[point_id]["payload"].update(copy.deepcopy(body["payload"]))
        return ok({"operation_id": collection.version, "status": "completed"}, start)
    if template == "/collections/{collection_name}/points/count":
        return ok({"count": len(collection.select(body.get("filter")))}, start)
    if template == "/collections/{collection_name}/points/scroll":
        limit = body.get("limit") or 10
        ids = sorted(collection.select(body.get("filter")), key=id_key)
        if body.get("offset") is not None:
            first = id_key(normalise_id(body["offset"]))
            ids = [i for i in ids if id_key(i) >= first]
        page = ids[:limit]
        return ok({"points": [record(i, collection.points[i], body.get("with_payload", True),
                                     body.get("with_vector")) for i in page],
                   "next_page_offset": ids[limit] if len(ids) > limit else None}, start)
    if template == "/collections/{collection_name}/points/query":
        hits = run_query(collection, body)
        return ok({"points": [record(i, collection.points[i], body.get("with_payload", False),
                                     body.get("with_vector"), score)
                              for i, score in hits]}, start)
    raise ApiError(501, "%s %s is not implemented by the loopback server" % (method, template))


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "qdrant-loopback"

    def log_message(self, format, *args):
        pass

    def send_json(self, status, body, extra_headers=()):
        self.send_raw(status, json.dumps(body).encode(), extra_headers)

    def send_raw(self, status, data, extra_headers=()):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for key, value in extra_headers:
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)

    def send_endless(self, entry):
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        data = b'{"result": {"points": [' + b'{"id": 1}, ' * (1 << 16)
        chunk = b"%x\r\n" % len(data) + data + b"\r\n"
        sent = 0
        try:
            while True:
                self.wfile.write(chunk)
                sent += len(data)
        except OSError:
            pass
        self.close_connection = True
        entry["sent"] = sent

    def drop(self):
        self.close_connection = True
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def control(self, method, path, body):
        state = self.server.state
        with state.lock:
            if path == "/__loopback/faults" and method == "POST":
                state.faults.extend(body)
                return self.send_json(200, {"ok": True})
            if path == "/__loopback/reset" and method == "POST":
                state.reset()
                return self.send_json(200, {"ok": True})
            if path == "/__loopback/state" and method == "GET":
                return self.send_json(200, {
                    "violations": state.violations, "requests": state.requests,
                    "collections": {n: len(c.points) for n, c in state.collections.items()},
                    "aliases": state.aliases})
        self.send_json(404, {"error": "no such control endpoint"})

    def serve(self, method):
        state = self.server.state
        url = urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""

        if url.path.startswith("/__loopback/"):
            return self.control(method, url.path, json.loads(raw) if raw else None)

        entry = {"method": method, "path": url.path, "bytes": len(raw), "status": 0}
        with state.lock:
            state.requests.append(entry)
            fault = state.take_fault(method, url.path)

        if fault is not None and fault.get("kind") == "drop":
            entry["status"] = "dropped"
            return self.drop()
        if fault is not None and fault.get("kind") == "hang":
            entry["status"] = "hung"
            time.sleep(fault.get("seconds", 30))
            return self.drop()
        if fault is not None and fault.get("kind") == "endless":
            entry["status"] = 200
            return self.send_endless(entry)
        if fault is not None and fault.get("kind") == "raw":
            entry["status"] = fault.get("status", 200)
            return self.send_raw(entry["status"], fault["body"].encode())
        if fault is not None and fault.get("kind", "status") == "status":
            status = fault.get("status", 503)
            entry["status"] = status
            headers = []
            if fault.get("retry_after") is not None:
                headers.append(("Retry-After", str(fault["retry_after"])))
            return self.send_json(status, {"status": {"error": "Service unavailable (injected)"},
                                           "time": 0.0}, headers)

        status, response = self.answer(method, url, raw)
        entry["status"] = status
        if fault is not None and fault.get("kind") == "drop-after-apply":
            entry["status"] = "applied-then-dropped"
            return self.drop()
        self.send_json(status, response)

    def answer(self, method, url, raw):
        state = self.server.state
        start = time.monotonic()
        template, params = route(method, url.path)

        def error(status, message):
            return status, {"status": {"error": message}, "time": time.monotonic() - start}

        if template is None:
            return error(404, "Not found: %s %s" % (method, url.path))
        if state.api_key is not None:
            key = self.headers.get("api-key")
            auth = self.headers.get("Authorization") or ""
            if key != state.api_key and auth != "Bearer " + state.api_key:
                return error(401, "Must provide an API key or an Authorization bearer token")
        if len(raw) > state.max_request_bytes:
            return error(413, "JSON payload (%d bytes) is larger than allowed (limit: %d bytes)."
                         % (len(raw), state.max_request_bytes))
        try:
            body = json.loads(raw) if raw else None
        except ValueError as e:
            return error(400, "Format error in JSON body: %s" % e)

        with state.lock:
            op = state.openapi.operation(method, template) if state.openapi else None
            problems = state.openapi.check_request(op, body) if raw and op else []
            if problems:
                messages = [describe(p) for p in problems[:3]]
                state.violations.append({"where": "request", "method": method,
                                         "path": url.path, "errors": messages})
                return error(400, "Validation error in JSON body: " + "; ".join(messages))
            try:
                status, response = handle(state, method, template, params,
                                          parse_qs(url.query), body)
            except ApiError as e:
                status, response = error(e.status, e.message)
            except (KeyError, TypeError, ValueError) as e:
                status, response = error(400, "Format error in JSON body: %r" % e)
            problems = state.openapi.check_response(op, status, response) if op else []
            if problems:
                state.violations.append({"where": "response", "method": method,
                                         "path": url.path, "status": status,
                                         "errors": problems[:3]})
        return status, response

    def do_GET(self):
        self.serve("GET")

    def do_POST(self):
        self.serve("POST")

    def do_PUT(self):
        self.serve("PUT")

    def do_DELETE(self):
        self.serve("DELETE")

    def do_PATCH(self):
        self.serve("PATCH")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--openapi", help="Qdrant's OpenAPI document to check requests and "
                        "answers against (without it, nothing is checked)")
    parser.add_argument("--version", default="1.19.0", help="the version GET / reports")
    parser.add_argument("--api-key")
    parser.add_argument("--tls-cert")
    parser.add_argument("--tls-key")
    parser.add_argument("--max-request-bytes", type=int, default=32 * 1024 * 1024)
    args = parser.parse_args()

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.state = State(OpenApi(args.openapi) if args.openapi else None, args.version,
                         args.api_key, args.max_request_bytes)
    if args.tls_cert:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(args.tls_cert, args.tls_key)
        server.socket = context.wrap_socket(server.socket, server_side=True)

    threading.Thread(target=server.serve_forever, daemon=True).start()
    print("PORT %d" % server.server_address[1], flush=True)
    # Ends when the test that started it closes our standard input or dies.
    sys.stdin.read()
    server.shutdown()


if __name__ == "__main__":
    main()
