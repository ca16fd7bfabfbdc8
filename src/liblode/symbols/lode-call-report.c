/* lode-call-report.c — the answers of the call graph's tools, as JSON and markdown
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every answer names definitions the same way: `{name, qualifiedName, kind, path, startLine}`;
 * a call adds `callLine`, `status` (resolved, ambiguous, external, unresolved, or registered:
 * named by a table of commands or a router, not called), `resolution`
 * (the rule that decided it: local, import, receiver, package, unique, none) and `confidence`.
 * A name that matches several definitions answers with them as `candidates` and a hint to
 * narrow it with `file` or a qualified name; one that matches none, with a hint too.
 */

#define G_LOG_DOMAIN "lode-call-report"

#include "config.h"

#include <string.h>

#include "lode-call-report.h"
#include "lode-search-private.h"

#define DEFAULT_LIMIT   50
#define FLOW_MAX_NODES  500

static char *
qualified_name (const LodeCallNode *node)
{
  const char *joiner = ".";

  if (node->scope == NULL || node->scope[0] == '\0')
    return node->container != NULL ? g_strconcat (node->container, ".", node->name, NULL)
                                   : g_strdup (node->name);
  if (strstr (node->scope, "::") != NULL)
    joiner = "::";
  else if (strchr (node->scope, '\\') != NULL)
    joiner = "\\";
  return g_strconcat (node->scope, joiner, node->name, NULL);
}

static void
set_nullable (JsonObject *object,
              const char *member,
              const char *value)
{
  if (value != NULL)
    json_object_set_string_member (object, member, value);
  else
    json_object_set_null_member (object, member);
}

static JsonObject *
node_object (LodeCallGraph *graph,
             guint          id)
{
  const LodeCallNode *node = lode_call_graph_get_node (graph, id);
  JsonObject *object = json_object_new ();
  g_autofree char *qualified = qualified_name (node);

  json_object_set_string_member (object, "name", node->name);
  json_object_set_string_member (object, "qualifiedName", qualified);
  set_nullable (object, "kind", node->kind);
  json_object_set_string_member (object, "path", node->path);
  json_object_set_int_member (object, "startLine", node->start_line);
  return object;
}

static void
add_call_members (JsonObject           *object,
                  const LodeStoredCall *call)
{
  json_object_set_int_member (object, "callLine", call->line);
  json_object_set_string_member (object, "status", lode_call_status_to_string (call->status));
  json_object_set_string_member (object, "resolution", lode_call_rule_to_string (call->rule));
  json_object_set_double_member (object, "confidence", call->confidence);
}

static JsonObject *
report_new (const LodeCallQuery *query)
{
  JsonObject *report = json_object_new ();

  json_object_set_string_member (report, "project", query->root);
  return report;
}

static guint
clamp_depth (guint depth,
             guint fallback)
{
  return depth == 0 ? fallback : MIN (depth, LODE_CALL_REPORT_MAX_DEPTH);
}

/* The definitions @name (in @file) names; when there is not exactly one, sets @report's
 * `candidates` and `hint` and returns FALSE. */
static gboolean
find_one (LodeCallGraph *graph,
          const char    *name,
          const char    *file,
          JsonObject    *report,
          guint         *id)
{
  g_autoptr(GArray) found = lode_call_graph_find (graph, name, file);
  JsonArray *candidates = json_array_new ();

  json_object_set_array_member (report, "candidates", candidates);
  if (found->len == 1)
    {
      *id = g_array_index (found, guint, 0);
      json_object_set_null_member (report, "hint");
      return TRUE;
    }
  for (guint i = 0; i < MIN (found->len, DEFAULT_LIMIT); i++)
    json_array_add_object_element (candidates,
                                   node_object (graph, g_array_index (found, guint, i)));
  if (found->len == 0)
    json_object_set_string_member (report, "hint",
                                   "No definition of that name: check its spelling, or list "
                                   "names with codebase_symbols {query}.");
  else
    json_object_set_string_member (report, "hint",
                                   "Several definitions match: add file, or qualify the name "
                                   "(Type.method, module::func) as the candidates print it.");
  return FALSE;
}

static JsonArray *
callers_array (LodeCallGraph *graph,
               guint          id,
               guint          limit,
               guint         *total)
{
  g_autoptr(GArray) links = lode_call_graph_dup_callers (graph, id);
  JsonArray *array = json_array_new ();

  *total = links->len;
  for (guint i = 0; i < MIN (links->len, limit); i++)
    {
      LodeCallLink *link = &g_array_index (links, LodeCallLink, i);
      JsonObject *item;

      if (link->node != LODE_CALL_GRAPH_NONE)
        item = node_object (graph, link->node);
      else
        {
          /* A call at a file's top level. */
          item = json_object_new ();
          json_object_set_string_member (item, "name", "(file level)");
          json_object_set_null_member (item, "qualifiedName");
          json_object_set_null_member (item, "kind");
          json_object_set_string_member (item, "path", link->call->path);
          json_object_set_int_member (item, "startLine", 0);
        }
      add_call_members (item, link->call);
      json_array_add_object_element (array, item);
    }
  return array;
}

static void
add_callees (LodeCallGraph *graph,
             guint          id,
             guint          limit,
             JsonObject    *report)
{
  g_autoptr(GArray) links = lode_call_graph_dup_callees (graph, id);
  JsonArray *callees = json_array_new ();
  JsonArray *unresolved = json_array_new ();
  JsonArray *external = json_array_new ();

  for (guint i = 0; i < links->len; i++)
    {
      LodeCallLink *link = &g_array_index (links, LodeCallLink, i);
      const LodeStoredCall *call = link->call;
      JsonObject *item;

      if (link->node != LODE_CALL_GRAPH_NONE)
        {
          if (json_array_get_length (callees) >= limit)
            continue;
          item = node_object (graph, link->node);
          add_call_members (item, call);
          json_array_add_object_element (callees, item);
          continue;
        }
      item = json_object_new ();
      json_object_set_string_member (item, "name", call->callee);
      set_nullable (item, "qualifier", call->qualifier);
      json_object_set_int_member (item, "callLine", call->line);
      if (call->status == LODE_CALL_EXTERNAL)
        {
          set_nullable (item, "package", call->package);
          json_array_add_object_element (external, item);
        }
      else
        json_array_add_object_element (unresolved, item);
    }
  json_object_set_array_member (report, "callees", callees);
  json_object_set_array_member (report, "unresolvedCallees", unresolved);
  json_object_set_array_member (report, "externalCallees", external);
}

/**
 * lode_call_report_symbol:
 * @graph: the project's call graph
 * @query: `name` (plain or qualified), `file`, `limit` (callers and callees each)
 *
 * Returns: (transfer full): `{project, query, symbol|null, callers, callerCount, callees,
 *   unresolvedCallees, externalCallees, candidates, hint|null}`
 */
JsonObject *
lode_call_report_symbol (LodeCallGraph       *graph,
                         const LodeCallQuery *query)
{
  JsonObject *report = report_new (query);
  guint limit = query->limit > 0 ? query->limit : DEFAULT_LIMIT;
  guint id, total;
  const LodeCallNode *node;
  JsonObject *symbol;

  json_object_set_string_member (report, "query", query->name);
  if (!find_one (graph, query->name, query->file, report, &id))
    {
      json_object_set_null_member (report, "symbol");
      json_object_set_array_member (report, "callers", json_array_new ());
      json_object_set_int_member (report, "callerCount", 0);
      json_object_set_array_member (report, "callees", json_array_new ());
      json_object_set_array_member (report, "unresolvedCallees", json_array_new ());
      json_object_set_array_member (report, "externalCallees", json_array_new ());
      return report;
    }

  node = lode_call_graph_get_node (graph, id);
  symbol = node_object (graph, id);
  json_object_set_int_member (symbol, "endLine", node->end_line);
  set_nullable (symbol, "signature", node->signature);
  json_object_set_object_member (report, "symbol", symbol);
  json_object_set_array_member (report, "callers", callers_array (graph, id, limit, &total));
  json_object_set_int_member (report, "callerCount", total);
  add_callees (graph, id, limit, report);
  return report;
}

static gboolean
name_matches (const char *name,
              const char *query)
{
  g_autofree char *lower_name = NULL;
  g_autofree char *lower_query = NULL;

  if (query == NULL)
    return TRUE;
  lower_name = g_ascii_strdown (name, -1);
  lower_query = g_ascii_strdown (query, -1);
  return strstr (lower_name, lower_query) != NULL;
}

/**
 * lode_call_report_symbols:
 * @graph: the project's call graph
 * @query: `file` (a file's definitions) and/or `query` (a substring of names, any case),
 *   `kind`, `limit`
 *
 * Returns: (transfer full): `{project, total, symbols: [definition + endLine]}`
 */
JsonObject *
lode_call_report_symbols (LodeCallGraph       *graph,
                          const LodeCallQuery *query)
{
  JsonObject *report = report_new (query);
  JsonArray *symbols = json_array_new ();
  guint limit = query->limit > 0 ? query->limit : DEFAULT_LIMIT * 4;
  guint total = 0;

  for (guint i = 0; i < lode_call_graph_get_n_nodes (graph); i++)
    {
      const LodeCallNode *node = lode_call_graph_get_node (graph, i);
      gsize n = query->file != NULL ? strlen (query->file) : 0;
      gsize m = strlen (node->path);
      JsonObject *item;

      if (query->file != NULL && strcmp (node->path, query->file) != 0 &&
          !(m > n && g_str_has_suffix (node->path, query->file) && node->path[m - n - 1] == '/'))
        continue;
      if (!name_matches (node->name, query->query) ||
          (query->kind != NULL && g_strcmp0 (node->kind, query->kind) != 0))
        continue;
      if (total++ >= limit)
        continue;
      item = node_object (graph, i);
      json_object_set_int_member (item, "endLine", node->end_line);
      json_array_add_object_element (symbols, item);
    }
  json_object_set_int_member (report, "total", total);
  json_object_set_array_member (report, "symbols", symbols);
  return report;
}

typedef struct
{
  LodeCallGraph *graph;
  GHashTable    *on_path;   /* nodes from the root to here */
  GHashTable    *expanded;  /* nodes whose calls were listed already */
  guint          depth;
  guint          n_nodes;
} Flow;

/* The calls of @id, as children, down to @flow's depth: a call back to a definition on the
 * way here is a cycle, one to a definition listed elsewhere in the tree or beyond the depth
 * is cut (its own calls not listed again). */
static JsonArray *
flow_children (Flow  *flow,
               guint  id,
               guint  level)
{
  g_autoptr(GArray) links = lode_call_graph_dup_callees (flow->graph, id);
  JsonArray *children = json_array_new ();

  g_hash_table_add (flow->on_path, GUINT_TO_POINTER (id + 1));
  g_hash_table_add (flow->expanded, GUINT_TO_POINTER (id + 1));
  for (guint i = 0; i < links->len; i++)
    {
      LodeCallLink *link = &g_array_index (links, LodeCallLink, i);
      gpointer key = GUINT_TO_POINTER (link->node + 1);
      JsonObject *child;

      if (link->node == LODE_CALL_GRAPH_NONE || link->call->status != LODE_CALL_RESOLVED)
        continue;
      child = node_object (flow->graph, link->node);
      add_call_members (child, link->call);
      flow->n_nodes++;
      if (g_hash_table_contains (flow->on_path, key))
        json_object_set_boolean_member (child, "cycle", TRUE);
      else if (level + 1 >= flow->depth || g_hash_table_contains (flow->expanded, key) ||
               flow->n_nodes >= FLOW_MAX_NODES)
        {
          g_autoptr(GArray) below = lode_call_graph_dup_callees (flow->graph, link->node);

          if (below->len > 0)
            json_object_set_boolean_member (child, "cut", TRUE);
        }
      else
        json_object_set_array_member (child, "calls",
                                      flow_children (flow, link->node, level + 1));
      json_array_add_object_element (children, child);
    }
  g_hash_table_remove (flow->on_path, GUINT_TO_POINTER (id + 1));
  return children;
}

/**
 * lode_call_report_flow:
 * @graph: the project's call graph
 * @query: `name` (the entry point; %NULL lists them), `file`, `depth` (default 5, at most
 *   10), `limit` (entry points)
 *
 * Returns: (transfer full): without an entry point `{project, entryPoints: [definition +
 *   reason, label (a command's or route's), callees]}`; with one `{project, query, root:
 *   definition + calls (each a call with its own `calls`, or `cycle` or `cut`), depth,
 *   candidates, hint|null}`
 */
JsonObject *
lode_call_report_flow (LodeCallGraph       *graph,
                       const LodeCallQuery *query)
{
  JsonObject *report = report_new (query);
  guint depth = clamp_depth (query->depth, LODE_CALL_REPORT_DEFAULT_FLOW_DEPTH);
  Flow flow = { graph, NULL, NULL, depth, 0 };
  JsonObject *root;
  guint id;

  if (query->name == NULL)
    {
      g_autoptr(GArray) entries =
        lode_call_graph_entry_points (graph, query->limit > 0 ? query->limit : 20);
      JsonArray *array = json_array_new ();

      for (guint i = 0; i < entries->len; i++)
        {
          LodeCallEntry *entry = &g_array_index (entries, LodeCallEntry, i);
          JsonObject *item = node_object (graph, entry->node);

          json_object_set_string_member (item, "reason", entry->reason);
          if (entry->label != NULL)
            json_object_set_string_member (item, "label", entry->label);
          json_object_set_int_member (item, "callees", entry->n_callees);
          json_array_add_object_element (array, item);
        }
      json_object_set_array_member (report, "entryPoints", array);
      return report;
    }

  json_object_set_string_member (report, "query", query->name);
  json_object_set_int_member (report, "depth", depth);
  if (!find_one (graph, query->name, query->file, report, &id))
    {
      json_object_set_null_member (report, "root");
      return report;
    }
  flow.on_path = g_hash_table_new (NULL, NULL);
  flow.expanded = g_hash_table_new (NULL, NULL);
  root = node_object (graph, id);
  json_object_set_array_member (root, "calls", flow_children (&flow, id, 0));
  json_object_set_object_member (report, "root", root);
  g_hash_table_unref (flow.on_path);
  g_hash_table_unref (flow.expanded);
  return report;
}

/* The call that leads from @from to @to (the first resolved one). */
static const LodeStoredCall *
call_between (LodeCallGraph *graph,
              guint          from,
              guint          to)
{
  g_autoptr(GArray) links = lode_call_graph_dup_callees (graph, from);

  for (guint i = 0; i < links->len; i++)
    {
      LodeCallLink *link = &g_array_index (links, LodeCallLink, i);

      if (link->node == to && link->call->status == LODE_CALL_RESOLVED)
        return link->call;
    }
  return NULL;
}

/**
 * lode_call_report_trace:
 * @graph: the project's call graph
 * @query: `name` and `file` (where the calls start), `to` and `to_file` (where they should
 *   lead), `depth` (default 10, at most 10)
 *
 * Returns: (transfer full): `{project, query, to, reached, path: [definition (+ the call that
 *   reached it)], depth, candidates, hint|null}`: a shortest chain of resolved calls, or the
 *   chain to the furthest point reached when there is none
 */
JsonObject *
lode_call_report_trace (LodeCallGraph       *graph,
                        const LodeCallQuery *query)
{
  JsonObject *report = report_new (query);
  guint depth = clamp_depth (query->depth, LODE_CALL_REPORT_MAX_DEPTH);
  g_autoptr(GArray) path = NULL;
  JsonArray *steps = json_array_new ();
  gboolean reached = FALSE;
  guint from, to;

  json_object_set_string_member (report, "query", query->name);
  json_object_set_string_member (report, "to", query->to);
  json_object_set_int_member (report, "depth", depth);
  json_object_set_array_member (report, "path", steps);
  if (!find_one (graph, query->name, query->file, report, &from) ||
      !find_one (graph, query->to, query->to_file, report, &to))
    {
      json_object_set_boolean_member (report, "reached", FALSE);
      return report;
    }

  path = lode_call_graph_trace (graph, from, to, depth, &reached);
  json_object_set_boolean_member (report, "reached", reached);
  for (guint i = 0; i < path->len; i++)
    {
      guint id = g_array_index (path, guint, i);
      JsonObject *step = node_object (graph, id);

      if (i > 0)
        add_call_members (step, call_between (graph, g_array_index (path, guint, i - 1), id));
      json_array_add_object_element (steps, step);
    }
  if (!reached)
    json_object_set_string_member (report, "hint",
                                   "No chain of resolved calls leads there within the depth: "
                                   "the path shows how far the calls go.");
  return report;
}

/**
 * lode_call_report_impact:
 * @graph: the project's call graph
 * @query: `name` (plain or qualified), `file`, `depth` (default 3, at most 10)
 *
 * Returns: (transfer full): `{project, query, symbol|null, depth, callerCount, files: [{path,
 *   callers: [definition + distance]}], tests: [definition + distance], candidates,
 *   hint|null}`: the definitions that call it, directly or through others, test code apart
 */
JsonObject *
lode_call_report_impact (LodeCallGraph       *graph,
                         const LodeCallQuery *query)
{
  JsonObject *report = report_new (query);
  guint depth = clamp_depth (query->depth, LODE_CALL_REPORT_DEFAULT_IMPACT_DEPTH);
  g_autoptr(GArray) reach = NULL;
  g_autoptr(GHashTable) by_file = NULL;
  JsonArray *files = json_array_new ();
  JsonArray *tests = json_array_new ();
  guint id;

  json_object_set_string_member (report, "query", query->name);
  json_object_set_int_member (report, "depth", depth);
  json_object_set_array_member (report, "files", files);
  json_object_set_array_member (report, "tests", tests);
  if (!find_one (graph, query->name, query->file, report, &id))
    {
      json_object_set_null_member (report, "symbol");
      json_object_set_int_member (report, "callerCount", 0);
      return report;
    }

  json_object_set_object_member (report, "symbol", node_object (graph, id));
  reach = lode_call_graph_reach (graph, id, TRUE, depth);
  json_object_set_int_member (report, "callerCount", reach->len - 1);
  by_file = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 1; i < reach->len; i++)
    {
      LodeCallReach *at = &g_array_index (reach, LodeCallReach, i);
      const LodeCallNode *node = lode_call_graph_get_node (graph, at->node);
      JsonObject *item = node_object (graph, at->node);
      JsonArray *callers;

      json_object_set_int_member (item, "distance", at->distance);
      if (_lode_path_is_test (node->path))
        {
          json_array_add_object_element (tests, item);
          continue;
        }
      callers = g_hash_table_lookup (by_file, node->path);
      if (callers == NULL)
        {
          JsonObject *file = json_object_new ();

          callers = json_array_new ();
          json_object_set_string_member (file, "path", node->path);
          json_object_set_array_member (file, "callers", callers);
          json_array_add_object_element (files, file);
          g_hash_table_insert (by_file, (gpointer) node->path, callers);
        }
      json_array_add_object_element (callers, item);
    }
  return report;
}

/* Markdown ------------------------------------------------------------------------------- */

static void
append_definition (GString    *out,
                   JsonObject *item)
{
  const char *qualified = json_object_get_string_member_with_default (item, "qualifiedName",
                                                                      NULL);
  const char *kind = json_object_get_string_member_with_default (item, "kind", NULL);

  g_string_append_printf (out, "`%s`", qualified != NULL ? qualified
                                                          : json_object_get_string_member (item,
                                                                                           "name"));
  if (kind != NULL)
    g_string_append_printf (out, " (%s)", kind);
  g_string_append_printf (out, " `%s:%" G_GINT64_FORMAT "`",
                          json_object_get_string_member (item, "path"),
                          json_object_get_int_member (item, "startLine"));
}

static void
append_call (GString    *out,
             JsonObject *item)
{
  if (!json_object_has_member (item, "callLine"))
    return;
  g_string_append_printf (out, ", line %" G_GINT64_FORMAT ", %s by %s (%.2f)",
                          json_object_get_int_member (item, "callLine"),
                          json_object_get_string_member (item, "status"),
                          json_object_get_string_member (item, "resolution"),
                          json_object_get_double_member (item, "confidence"));
}

static void
append_list (GString    *out,
             const char *title,
             JsonArray  *items)
{
  guint n = items != NULL ? json_array_get_length (items) : 0;

  g_string_append_printf (out, "\n### %s: %u\n\n", title, n);
  for (guint i = 0; i < n; i++)
    {
      JsonObject *item = json_array_get_object_element (items, i);

      g_string_append (out, "- ");
      append_definition (out, item);
      append_call (out, item);
      g_string_append_c (out, '\n');
    }
}

static void
append_candidates (GString    *out,
                   JsonObject *report)
{
  JsonArray *candidates = json_object_get_array_member (report, "candidates");
  const char *hint = json_object_get_string_member_with_default (report, "hint", NULL);

  if (hint != NULL)
    g_string_append_printf (out, "%s\n", hint);
  if (candidates != NULL && json_array_get_length (candidates) > 0)
    append_list (out, "Candidates", candidates);
}

static void
append_names (GString    *out,
              const char *title,
              JsonArray  *items,
              const char *extra)
{
  guint n = json_array_get_length (items);

  if (n == 0)
    return;
  g_string_append_printf (out, "\n### %s: %u\n\n", title, n);
  for (guint i = 0; i < n; i++)
    {
      JsonObject *item = json_array_get_object_element (items, i);
      const char *qualifier = json_object_get_string_member_with_default (item, "qualifier",
                                                                          NULL);
      const char *more = extra != NULL
                         ? json_object_get_string_member_with_default (item, extra, NULL)
                         : NULL;

      g_string_append_printf (out, "- `%s%s%s`, line %" G_GINT64_FORMAT "%s%s\n",
                              qualifier != NULL ? qualifier : "", qualifier != NULL ? "." : "",
                              json_object_get_string_member (item, "name"),
                              json_object_get_int_member (item, "callLine"),
                              more != NULL ? ", " : "", more != NULL ? more : "");
    }
}

char *
lode_call_format_symbol (JsonObject *report)
{
  GString *out = g_string_new (NULL);
  JsonObject *symbol = json_object_get_object_member (report, "symbol");

  g_string_append_printf (out, "## `%s`\n\n", json_object_get_string_member (report, "query"));
  if (symbol == NULL)
    {
      append_candidates (out, report);
      return g_string_free (out, FALSE);
    }
  append_definition (out, symbol);
  g_string_append_c (out, '\n');
  if (json_object_get_string_member_with_default (symbol, "signature", NULL) != NULL)
    g_string_append_printf (out, "\n```\n%s\n```\n",
                            json_object_get_string_member (symbol, "signature"));
  append_list (out, "Callers", json_object_get_array_member (report, "callers"));
  append_list (out, "Callees", json_object_get_array_member (report, "callees"));
  append_names (out, "Unresolved callees", json_object_get_array_member (report,
                                                                         "unresolvedCallees"),
                NULL);
  append_names (out, "External callees", json_object_get_array_member (report,
                                                                       "externalCallees"),
                "package");
  return g_string_free (out, FALSE);
}

char *
lode_call_format_symbols (JsonObject *report)
{
  GString *out = g_string_new (NULL);
  JsonArray *symbols = json_object_get_array_member (report, "symbols");

  g_string_append_printf (out, "## Definitions: %" G_GINT64_FORMAT "\n\n",
                          json_object_get_int_member (report, "total"));
  for (guint i = 0; i < json_array_get_length (symbols); i++)
    {
      g_string_append (out, "- ");
      append_definition (out, json_array_get_object_element (symbols, i));
      g_string_append_c (out, '\n');
    }
  return g_string_free (out, FALSE);
}

static void
append_tree (GString    *out,
             JsonArray  *calls,
             guint       level)
{
  for (guint i = 0; calls != NULL && i < json_array_get_length (calls); i++)
    {
      JsonObject *call = json_array_get_object_element (calls, i);

      for (guint l = 0; l < level; l++)
        g_string_append (out, "  ");
      g_string_append (out, "- ");
      append_definition (out, call);
      g_string_append_printf (out, ", line %" G_GINT64_FORMAT,
                              json_object_get_int_member (call, "callLine"));
      if (json_object_get_boolean_member_with_default (call, "cycle", FALSE))
        g_string_append (out, " (cycle)");
      if (json_object_get_boolean_member_with_default (call, "cut", FALSE))
        g_string_append (out, " (…)");
      g_string_append_c (out, '\n');
      if (json_object_has_member (call, "calls"))
        append_tree (out, json_object_get_array_member (call, "calls"), level + 1);
    }
}

char *
lode_call_format_flow (JsonObject *report)
{
  GString *out = g_string_new (NULL);
  JsonObject *root;

  if (json_object_has_member (report, "entryPoints"))
    {
      JsonArray *entries = json_object_get_array_member (report, "entryPoints");

      g_string_append_printf (out, "## Entry points: %u\n\n", json_array_get_length (entries));
      for (guint i = 0; i < json_array_get_length (entries); i++)
        {
          JsonObject *entry = json_array_get_object_element (entries, i);

          g_string_append (out, "- ");
          append_definition (out, entry);
          g_string_append_printf (out, ": %s", json_object_get_string_member (entry, "reason"));
          if (json_object_has_member (entry, "label"))
            g_string_append_printf (out, " `%s`", json_object_get_string_member (entry, "label"));
          g_string_append_printf (out, ", %" G_GINT64_FORMAT " callees\n",
                                  json_object_get_int_member (entry, "callees"));
        }
      return g_string_free (out, FALSE);
    }

  g_string_append_printf (out, "## Flow from `%s` (depth %" G_GINT64_FORMAT ")\n\n",
                          json_object_get_string_member (report, "query"),
                          json_object_get_int_member (report, "depth"));
  root = json_object_get_object_member (report, "root");
  if (root == NULL)
    {
      append_candidates (out, report);
      return g_string_free (out, FALSE);
    }
  append_definition (out, root);
  g_string_append_c (out, '\n');
  append_tree (out, json_object_get_array_member (root, "calls"), 0);
  return g_string_free (out, FALSE);
}

char *
lode_call_format_trace (JsonObject *report)
{
  GString *out = g_string_new (NULL);
  JsonArray *path = json_object_get_array_member (report, "path");
  gboolean reached = json_object_get_boolean_member (report, "reached");

  g_string_append_printf (out, "## `%s` → `%s`: %s\n\n",
                          json_object_get_string_member (report, "query"),
                          json_object_get_string_member (report, "to"),
                          reached ? "reached" : "not reached");
  if (json_array_get_length (path) == 0 || !reached)
    append_candidates (out, report);
  if (!reached)
    g_string_append_c (out, '\n');
  for (guint i = 0; i < json_array_get_length (path); i++)
    {
      JsonObject *step = json_array_get_object_element (path, i);

      g_string_append_printf (out, "%u. ", i + 1);
      append_definition (out, step);
      append_call (out, step);
      g_string_append_c (out, '\n');
    }
  return g_string_free (out, FALSE);
}

char *
lode_call_format_impact (JsonObject *report)
{
  GString *out = g_string_new (NULL);
  JsonObject *symbol = json_object_get_object_member (report, "symbol");
  JsonArray *files = json_object_get_array_member (report, "files");

  g_string_append_printf (out, "## Impact of `%s` (depth %" G_GINT64_FORMAT ")\n\n",
                          json_object_get_string_member (report, "query"),
                          json_object_get_int_member (report, "depth"));
  if (symbol == NULL)
    {
      append_candidates (out, report);
      return g_string_free (out, FALSE);
    }
  g_string_append_printf (out, "Callers, directly or through others: %" G_GINT64_FORMAT "\n",
                          json_object_get_int_member (report, "callerCount"));
  for (guint i = 0; i < json_array_get_length (files); i++)
    {
      JsonObject *file = json_array_get_object_element (files, i);
      JsonArray *callers = json_object_get_array_member (file, "callers");

      g_string_append_printf (out, "\n### `%s`\n\n", json_object_get_string_member (file, "path"));
      for (guint c = 0; c < json_array_get_length (callers); c++)
        {
          JsonObject *caller = json_array_get_object_element (callers, c);

          g_string_append (out, "- ");
          append_definition (out, caller);
          g_string_append_printf (out, ", %" G_GINT64_FORMAT " away\n",
                                  json_object_get_int_member (caller, "distance"));
        }
    }
  append_list (out, "Tests reached", json_object_get_array_member (report, "tests"));
  return g_string_free (out, FALSE);
}
