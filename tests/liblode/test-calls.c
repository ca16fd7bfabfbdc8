/* test-calls.c — call sites and their resolution, per language, against golden fixtures
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "lode-call-graph.h"
#include "lode-call-report.h"
#include "lode-calls-resolver.h"
#include "lode-chunker.h"
#include "lode-import-resolver.h"
#include "lode-scanner.h"
#include "test-helpers.h"

/*
 * fixtures/calls/<language>/ is a small project in one language, shaped like real code:
 * same-named functions in different modules, methods on typed receivers, imported aliases,
 * a method reached through an interface, recursion, and calls nothing in the project
 * defines although a same-named symbol exists (`take`, `describe`). Its `expected` file
 * lists calls and what they must resolve to, one per line:
 *
 *   CALLER-FILE:CALLER CALLEE STATUS [TARGET-FILE:[CONTAINER.]TARGET[,…]]
 *
 * CALLER is `-` for a call outside any definition.
 * Every call of CALLEE made by CALLER must end so, with exactly these targets.
 */

typedef struct
{
  LodeCallResolver *resolver;
  GPtrArray        *edges;       /* per file: GPtrArray of LodeCallEdge */
  GPtrArray        *symbols;     /* per file: GPtrArray of LodeSymbol, as the chunker gave */
  GPtrArray        *read_again;  /* LodeCalls whose sites the edges point to (FILE_BY_FILE) */
} Graph;

/* How the files' calls reach the resolver. */
typedef enum
{
  PARSED,        /* as the chunker gave them */
  STORED,        /* stored and read back (lode_calls_to_bytes()), as an index re-resolving a
                  * file it did not parse again does */
  FILE_BY_FILE,  /* stored; every file's sites dropped once added, each read again to be
                  * resolved, as the indexer's call pass does */
} Route;

static void
graph_clear (Graph *graph)
{
  g_clear_pointer (&graph->edges, g_ptr_array_unref);
  g_clear_pointer (&graph->symbols, g_ptr_array_unref);
  g_clear_pointer (&graph->read_again, g_ptr_array_unref);
  g_clear_object (&graph->resolver);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Graph, graph_clear)

static void
build_graph (const char *root,
             Graph      *graph,
             Route       route)
{
  g_autoptr(LodeScanner) scanner = lode_scanner_new (root);
  g_autoptr(LodeChunker) chunker = lode_chunker_new (LODE_CHUNKER_DEFAULT_MAX_TOKENS);
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(GPtrArray) skipped = NULL;
  g_autoptr(GPtrArray) paths = g_ptr_array_new ();
  g_autoptr(LodeImportResolver) imports = NULL;
  g_autoptr(GPtrArray) stored = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GError) error = NULL;

  g_assert_true (lode_scanner_scan (scanner, NULL, &files, &skipped, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < files->len; i++)
    g_ptr_array_add (paths, ((LodeScanFile *) g_ptr_array_index (files, i))->path);
  g_ptr_array_add (paths, NULL);
  imports = lode_import_resolver_new (root, (const char * const *) paths->pdata);
  graph->resolver = lode_call_resolver_new (imports);
  graph->edges = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  graph->symbols = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);

  for (guint i = 0; i < files->len; i++)
    {
      LodeScanFile *file = g_ptr_array_index (files, i);
      g_autofree char *full = g_build_filename (root, file->path, NULL);
      g_autofree char *text = NULL;
      g_autoptr(GPtrArray) chunks = NULL;
      g_autoptr(GPtrArray) symbols = NULL;
      g_autoptr(GPtrArray) file_imports = NULL;
      LodeCalls *calls = NULL;
      gsize len;

      if (file->language == NULL || !lode_calls_supported (file->language))
        continue;
      g_assert_true (g_file_get_contents (full, &text, &len, NULL));
      g_assert_true (lode_chunker_chunk (chunker, file->language, file->path, text, len, &chunks,
                                         &symbols, &file_imports, NULL, &calls, NULL, &error));
      g_assert_no_error (error);
      if (route != PARSED)
        {
          GBytes *bytes = lode_calls_to_bytes (calls, symbols);

          g_ptr_array_add (stored, bytes);
          lode_calls_free (calls);
          g_clear_pointer (&symbols, g_ptr_array_unref);
          calls = lode_calls_new_from_bytes (bytes, &symbols, &error);
          g_assert_no_error (error);
        }
      lode_call_resolver_add_file (graph->resolver, file->path, file->language->id, symbols,
                                   calls, file_imports);
      g_ptr_array_add (graph->symbols, g_steal_pointer (&symbols));
    }
  if (route != FILE_BY_FILE)
    {
      for (guint f = 0; f < lode_call_resolver_get_n_files (graph->resolver); f++)
        g_ptr_array_add (graph->edges, lode_call_resolver_resolve (graph->resolver, f));
      return;
    }
  for (guint f = 0; f < lode_call_resolver_get_n_files (graph->resolver); f++)
    lode_call_resolver_drop_sites (graph->resolver, f);
  graph->read_again = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_calls_free);
  for (guint f = 0; f < lode_call_resolver_get_n_files (graph->resolver); f++)
    {
      g_autoptr(GPtrArray) symbols = NULL;
      LodeCalls *calls = lode_calls_new_from_bytes (g_ptr_array_index (stored, f), &symbols,
                                                    &error);

      g_assert_no_error (error);
      g_ptr_array_add (graph->read_again, calls);
      g_ptr_array_add (graph->edges,
                       lode_call_resolver_resolve_sites (graph->resolver, f, calls->sites));
    }
}

static gint
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return g_strcmp0 (*(char * const *) a, *(char * const *) b);
}

static char *
describe_targets (Graph        *graph,
                  LodeCallEdge *edge)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);

  for (guint t = 0; t < edge->targets->len; t++)
    {
      LodeCallTarget *target = &g_array_index (edge->targets, LodeCallTarget, t);
      const LodeCallSymbol *symbol =
        &lode_call_resolver_get_symbols (graph->resolver, target->file, NULL)[target->symbol];

      g_ptr_array_add (names,
                       g_strdup_printf ("%s:%s%s%s",
                                        lode_call_resolver_get_path (graph->resolver,
                                                                     target->file),
                                        symbol->container != NULL ? symbol->container : "",
                                        symbol->container != NULL ? "." : "", symbol->name));
    }
  g_ptr_array_sort (names, compare_strings);
  g_ptr_array_add (names, NULL);
  return g_strjoinv (",", (char **) names->pdata);
}

static char *
sorted_list (const char *list)
{
  g_auto(GStrv) parts = g_strsplit (list, ",", -1);
  guint n = g_strv_length (parts);

  qsort (parts, n, sizeof (char *), compare_strings);
  return g_strjoinv (",", parts);
}

/* Checks one line of `expected`; returns how many call sites it covered. */
static guint
check_line (Graph      *graph,
            const char *line)
{
  g_auto(GStrv) words = g_strsplit_set (line, " \t", -1);
  g_autofree char *want_targets = NULL;
  const char *caller_file, *caller_name, *colon;
  g_autofree char *file_part = NULL;
  guint n = 0;

  g_assert_cmpuint (g_strv_length (words), >=, 3);
  colon = strrchr (words[0], ':');
  g_assert_nonnull (colon);
  file_part = g_strndup (words[0], colon - words[0]);
  caller_file = file_part;
  caller_name = colon + 1;
  want_targets = words[3] != NULL ? sorted_list (words[3]) : g_strdup ("");

  for (guint f = 0; f < graph->edges->len; f++)
    {
      GPtrArray *edges = g_ptr_array_index (graph->edges, f);
      const LodeCallSymbol *symbols = lode_call_resolver_get_symbols (graph->resolver, f, NULL);

      if (strcmp (lode_call_resolver_get_path (graph->resolver, f), caller_file) != 0)
        continue;
      for (guint e = 0; e < edges->len; e++)
        {
          LodeCallEdge *edge = g_ptr_array_index (edges, e);
          const LodeCallSymbol *caller = edge->site->caller >= 0 ? &symbols[edge->site->caller]
                                                                 : NULL;
          g_autofree char *targets = NULL;
          g_autofree char *got = NULL;
          g_autofree char *want = NULL;

          if (strcmp (edge->site->name, words[1]) != 0 ||
              strcmp (caller != NULL ? caller->name : "-", caller_name) != 0)
            continue;
          targets = describe_targets (graph, edge);
          got = g_strdup_printf ("%s:%u %s %s %s", caller_file, edge->site->line, words[1],
                                 lode_call_status_to_string (edge->status), targets);
          want = g_strdup_printf ("%s:%u %s %s %s", caller_file, edge->site->line, words[1],
                                  words[2], want_targets);
          g_assert_cmpstr (got, ==, want);
          n++;
        }
    }
  if (n == 0)
    g_test_message ("no call of %s by %s:%s", words[1], caller_file, caller_name);
  g_assert_cmpuint (n, >, 0);
  return n;
}

static void
test_language (gconstpointer data)
{
  const char *language = data;
  g_autofree char *root = g_test_build_filename (G_TEST_DIST, "liblode", "fixtures", "calls",
                                                 language, NULL);
  g_autofree char *expected_path = g_build_filename (root, "expected", NULL);
  g_autofree char *expected = NULL;
  g_auto(GStrv) lines = NULL;
  g_auto(Graph) graph = { 0 };
  g_autoptr(GError) error = NULL;
  guint checked = 0;

  g_assert_true (g_file_get_contents (expected_path, &expected, NULL, &error));
  g_assert_no_error (error);
  build_graph (root, &graph, PARSED);
  lines = g_strsplit (expected, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_strstrip (lines[i]);
      if (lines[i][0] == '\0' || lines[i][0] == '#')
        continue;
      checked += check_line (&graph, lines[i]);
    }
  g_assert_cmpuint (checked, >=, 6);
}

/* The graph the index would keep of @graph: its definitions, and its edges as stored rows. */
static LodeCallGraph *
call_graph_new (Graph *graph)
{
  LodeCallGraph *calls = lode_call_graph_new ();

  for (guint f = 0; f < lode_call_resolver_get_n_files (graph->resolver); f++)
    {
      GPtrArray *symbols = g_ptr_array_index (graph->symbols, f);

      for (guint s = 0; s < symbols->len; s++)
        {
          LodeSymbol *symbol = g_ptr_array_index (symbols, s);

          lode_call_graph_add_node (calls, lode_call_resolver_get_path (graph->resolver, f),
                                    symbol->name, symbol->kind, symbol->container,
                                    symbol->scope, symbol->signature, symbol->start_line,
                                    symbol->end_line);
        }
    }
  for (guint f = 0; f < graph->edges->len; f++)
    {
      g_autoptr(GPtrArray) rows = lode_stored_calls_from_edges (graph->resolver, f,
                                                                g_ptr_array_index (graph->edges,
                                                                                   f));

      for (guint r = 0; r < rows->len; r++)
        lode_call_graph_add_call (calls, g_ptr_array_steal_index (rows, r--));
    }
  return calls;
}

/* The one definition @name (in @file) names. */
static guint
find_one (LodeCallGraph *calls,
          const char    *name,
          const char    *file)
{
  g_autoptr(GArray) found = lode_call_graph_find (calls, name, file);

  g_assert_cmpuint (found->len, ==, 1);
  return g_array_index (found, guint, 0);
}

/* "path:Container.name" of a definition, "-" for none. */
static char *
describe_node (LodeCallGraph *calls,
               guint          id)
{
  const LodeCallNode *node;

  if (id == LODE_CALL_GRAPH_NONE)
    return g_strdup ("-");
  node = lode_call_graph_get_node (calls, id);
  return g_strdup_printf ("%s:%s%s%s", node->path, node->container != NULL ? node->container : "",
                          node->container != NULL ? "." : "", node->name);
}

static char *
describe_links (LodeCallGraph *calls,
                GArray        *links)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < links->len; i++)
    {
      LodeCallLink *link = &g_array_index (links, LodeCallLink, i);
      g_autofree char *node = describe_node (calls, link->node);

      g_ptr_array_add (items, g_strdup_printf ("%s %s@%u %s/%s", node, link->call->callee,
                                               link->call->line,
                                               lode_call_status_to_string (link->call->status),
                                               lode_call_rule_to_string (link->call->rule)));
    }
  g_ptr_array_sort (items, compare_strings);
  g_ptr_array_add (items, NULL);
  return g_strjoinv ("; ", (char **) items->pdata);
}

static char *
describe_path (LodeCallGraph *calls,
               GArray        *path)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < path->len; i++)
    g_ptr_array_add (items, describe_node (calls, g_array_index (path, guint, i)));
  g_ptr_array_add (items, NULL);
  return g_strjoinv (" > ", (char **) items->pdata);
}

/* A Python project's graph as the index keeps it: callers and callees with their rules, the
 * names the tools print accepted, recursion, unresolved calls kept apart, walks and entry
 * points. */
static void
test_call_graph (void)
{
  g_autofree char *root = g_test_build_filename (G_TEST_DIST, "liblode", "fixtures", "calls",
                                                 "python", NULL);
  g_auto(Graph) graph = { 0 };
  g_autoptr(LodeCallGraph) calls = NULL;
  g_autoptr(GArray) found = NULL;
  g_autoptr(GArray) links = NULL;
  g_autoptr(GArray) path = NULL;
  g_autoptr(GArray) reach = NULL;
  g_autoptr(GArray) entries = NULL;
  g_autofree char *text = NULL;
  guint factorial, summarize, record;
  gboolean reached;

  build_graph (root, &graph, PARSED);
  calls = call_graph_new (&graph);

  /* Two `render`s; the module's name or the file narrows to one. */
  found = lode_call_graph_find (calls, "render", NULL);
  g_assert_cmpuint (found->len, ==, 2);
  find_one (calls, "html.render", NULL);
  find_one (calls, "app.formats.text.render", NULL);
  find_one (calls, "render", "formats/html.py");
  find_one (calls, "Invoice.post", NULL);
  g_clear_pointer (&found, g_array_unref);
  found = lode_call_graph_find (calls, "nosuch.render", NULL);
  g_assert_cmpuint (found->len, ==, 0);

  factorial = find_one (calls, "factorial", NULL);
  links = lode_call_graph_dup_callers (calls, factorial);
  text = describe_links (calls, links);
  g_assert_cmpstr (text, ==,
                   "app/service.py:factorial factorial@20 resolved/local; "
                   "tests/test_service.py:test_take factorial@8 resolved/import");
  g_clear_pointer (&links, g_array_unref);
  g_clear_pointer (&text, g_free);

  links = lode_call_graph_dup_callees (calls, find_one (calls, "test_take", NULL));
  text = describe_links (calls, links);
  g_assert_cmpstr (text, ==,
                   "- len@8 unresolved/none; - take@7 unresolved/none; "
                   "app/service.py:factorial factorial@8 resolved/import");
  g_clear_pointer (&links, g_array_unref);
  g_clear_pointer (&text, g_free);

  summarize = find_one (calls, "summarize", NULL);
  record = find_one (calls, "Ledger.record", NULL);
  path = lode_call_graph_trace (calls, summarize, record, 5, &reached);
  g_assert_true (reached);
  text = describe_path (calls, path);
  g_assert_cmpstr (text, ==, "app/service.py:summarize > app/models.py:Invoice.post > "
                             "app/models.py:Ledger.record");
  g_clear_pointer (&path, g_array_unref);
  g_clear_pointer (&text, g_free);

  /* Not within one call: the chain to the furthest point reached. */
  path = lode_call_graph_trace (calls, summarize, record, 1, &reached);
  g_assert_false (reached);
  g_assert_cmpuint (path->len, ==, 2);
  g_assert_cmpuint (g_array_index (path, guint, 0), ==, summarize);

  reach = lode_call_graph_reach (calls, record, TRUE, 3);
  g_assert_cmpuint (reach->len, ==, 3);
  g_assert_cmpuint (g_array_index (reach, LodeCallReach, 1).node, ==,
                    find_one (calls, "Invoice.post", NULL));
  g_assert_cmpuint (g_array_index (reach, LodeCallReach, 2).node, ==, summarize);
  g_assert_cmpuint (g_array_index (reach, LodeCallReach, 2).distance, ==, 2);
  g_clear_pointer (&reach, g_array_unref);
  reach = lode_call_graph_reach (calls, record, TRUE, 1);
  g_assert_cmpuint (reach->len, ==, 2);

  entries = lode_call_graph_entry_points (calls, 10);
  g_assert_cmpuint (entries->len, >=, 3);
  for (guint i = 0; i < entries->len; i++)
    {
      LodeCallEntry *entry = &g_array_index (entries, LodeCallEntry, i);
      const LodeCallNode *node = lode_call_graph_get_node (calls, entry->node);

      g_assert_cmpstr (node->name, !=, "factorial");
      if (strcmp (node->name, "test_take") == 0)
        g_assert_cmpstr (entry->reason, ==, "test");
      if (strcmp (node->name, "summarize") == 0)
        g_assert_cmpstr (entry->reason, ==, "uncalled");
    }
  g_assert_cmpstr (g_array_index (entries, LodeCallEntry, entries->len - 1).reason, ==, "test");
}

/* The tools' answers on the same project: a definition with its callers and callees (the
 * unresolved apart), several matches as candidates, a flow with its recursion marked, a trace,
 * an impact with tests apart; and their markdown. */
static void
test_call_report (void)
{
  g_autofree char *root = g_test_build_filename (G_TEST_DIST, "liblode", "fixtures", "calls",
                                                 "python", NULL);
  g_auto(Graph) graph = { 0 };
  g_autoptr(LodeCallGraph) calls = NULL;
  g_autoptr(JsonObject) report = NULL;
  g_autofree char *markdown = NULL;
  LodeCallQuery query = { .root = "/p" };
  JsonArray *array;
  JsonObject *item;

  build_graph (root, &graph, PARSED);
  calls = call_graph_new (&graph);

  query.name = "factorial";
  report = lode_call_report_symbol (calls, &query);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (report,
                                                                                  "symbol"),
                                                  "path"), ==, "app/service.py");
  g_assert_cmpint (json_object_get_int_member (report, "callerCount"), ==, 2);
  array = json_object_get_array_member (report, "callers");
  item = json_array_get_object_element (array, 1);
  g_assert_cmpstr (json_object_get_string_member (item, "name"), ==, "test_take");
  g_assert_cmpint (json_object_get_int_member (item, "callLine"), ==, 8);
  g_assert_cmpstr (json_object_get_string_member (item, "resolution"), ==, "import");
  g_assert_cmpfloat (json_object_get_double_member (item, "confidence"), >, 0.5);
  markdown = lode_call_format_symbol (report);
  g_assert_nonnull (strstr (markdown, "### Callers: 2"));
  g_clear_pointer (&report, json_object_unref);
  g_clear_pointer (&markdown, g_free);

  query.name = "test_take";
  report = lode_call_report_symbol (calls, &query);
  array = json_object_get_array_member (report, "unresolvedCallees");
  g_assert_cmpuint (json_array_get_length (array), ==, 2);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (report, "callees")),
                    ==, 1);
  g_clear_pointer (&report, json_object_unref);

  query.name = "render";
  report = lode_call_report_symbol (calls, &query);
  g_assert_true (json_object_get_null_member (report, "symbol"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (report, "candidates")),
                    ==, 2);
  markdown = lode_call_format_symbol (report);
  g_assert_nonnull (strstr (markdown, "### Candidates: 2"));
  g_clear_pointer (&report, json_object_unref);
  g_clear_pointer (&markdown, g_free);

  query.name = "factorial";
  report = lode_call_report_flow (calls, &query);
  array = json_object_get_array_member (json_object_get_object_member (report, "root"), "calls");
  g_assert_cmpuint (json_array_get_length (array), ==, 1);
  g_assert_true (json_object_get_boolean_member (json_array_get_object_element (array, 0),
                                                 "cycle"));
  g_clear_pointer (&report, json_object_unref);

  query.name = "summarize";
  report = lode_call_report_flow (calls, &query);
  markdown = lode_call_format_flow (report);
  g_assert_nonnull (strstr (markdown, "  - `app.models.Ledger.record` (method)"));
  g_clear_pointer (&report, json_object_unref);
  g_clear_pointer (&markdown, g_free);

  query.name = NULL;
  report = lode_call_report_flow (calls, &query);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (report, "entryPoints")),
                    >=, 3);
  g_clear_pointer (&report, json_object_unref);

  query.name = "summarize";
  query.to = "Ledger.record";
  report = lode_call_report_trace (calls, &query);
  g_assert_true (json_object_get_boolean_member (report, "reached"));
  array = json_object_get_array_member (report, "path");
  g_assert_cmpuint (json_array_get_length (array), ==, 3);
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (array, 1),
                                               "callLine"), ==, 11);
  g_clear_pointer (&report, json_object_unref);

  query.name = "factorial";
  query.depth = 2;
  report = lode_call_report_impact (calls, &query);
  g_assert_cmpint (json_object_get_int_member (report, "callerCount"), ==, 1);
  array = json_object_get_array_member (report, "tests");
  g_assert_cmpuint (json_array_get_length (array), ==, 1);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (report, "files")), ==,
                    0);
  markdown = lode_call_format_impact (report);
  g_assert_nonnull (strstr (markdown, "### Tests reached: 1"));
}

/* Every call of @graph with its caller, status, rule and targets, one line each. */
static char *
describe_graph (Graph *graph)
{
  GString *out = g_string_new (NULL);

  for (guint f = 0; f < graph->edges->len; f++)
    {
      GPtrArray *edges = g_ptr_array_index (graph->edges, f);

      for (guint e = 0; e < edges->len; e++)
        {
          LodeCallEdge *edge = g_ptr_array_index (edges, e);
          g_autofree char *targets = describe_targets (graph, edge);

          g_string_append_printf (out, "%s:%u %d %s %s %s %s\n",
                                  lode_call_resolver_get_path (graph->resolver, f),
                                  edge->site->line, edge->site->caller, edge->site->name,
                                  lode_call_status_to_string (edge->status),
                                  lode_call_rule_to_string (edge->rule), targets);
        }
    }
  return g_string_free (out, FALSE);
}

/* Each file's calls stored as bytes and read back resolve to the same edges, in every
 * language, and so do they file by file once every file's sites were dropped; bytes that are not such calls, or that name symbols the file does not have, are
 * refused. */
static void
test_calls_bytes (void)
{
  static const char * const languages[] = {
    "c", "cpp", "csharp", "go", "java", "javascript", "typescript", "python", "rust", "php",
    "ruby", "kotlin", "swift",
  };
  g_autoptr(GBytes) junk = g_bytes_new_static ("\x01\x02garbage", 9);
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeCalls) calls = lode_calls_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GPtrArray) symbols = NULL;

  for (guint l = 0; l < G_N_ELEMENTS (languages); l++)
    {
      g_autofree char *root = g_test_build_filename (G_TEST_DIST, "liblode", "fixtures", "calls",
                                                     languages[l], NULL);
      g_auto(Graph) parsed = { 0 };
      g_auto(Graph) stored = { 0 };
      g_auto(Graph) file_by_file = { 0 };
      g_autofree char *want = NULL;
      g_autofree char *got = NULL;
      g_autofree char *got_file_by_file = NULL;

      build_graph (root, &parsed, PARSED);
      build_graph (root, &stored, STORED);
      build_graph (root, &file_by_file, FILE_BY_FILE);
      want = describe_graph (&parsed);
      got = describe_graph (&stored);
      got_file_by_file = describe_graph (&file_by_file);
      g_assert_cmpstr (got, ==, want);
      g_assert_cmpstr (got_file_by_file, ==, want);
      g_assert_cmpuint (strlen (want), >, 100);
    }

  g_assert_null (lode_calls_new_from_bytes (junk, &symbols, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_clear_error (&error);

  /* A call made in the file's third symbol, in a file of two. */
  symbols = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_symbol_free);
  for (guint i = 0; i < 2; i++)
    {
      LodeSymbol *symbol = lode_symbol_new ();

      symbol->name = g_strdup_printf ("f%u", i);
      symbol->kind = g_intern_static_string ("function");
      symbol->start_line = symbol->end_line = i + 1;
      g_ptr_array_add (symbols, symbol);
    }
  lode_calls_add_binding (calls, LODE_CALL_BINDING_FIELD, 0, "pool", "Pool", NULL, 3);
  g_ptr_array_add (calls->sites, g_new0 (LodeCallSite, 1));
  ((LodeCallSite *) calls->sites->pdata[0])->name = g_strdup ("acquire");
  ((LodeCallSite *) calls->sites->pdata[0])->caller = 2;
  bytes = lode_calls_to_bytes (calls, symbols);
  g_assert_null (lode_calls_new_from_bytes (bytes, &symbols, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_clear_error (&error);

  /* The same file made right, then cut short anywhere, or with a byte too many: read back
   * whole, or refused. */
  ((LodeCallSite *) calls->sites->pdata[0])->caller = 1;
  g_clear_pointer (&bytes, g_bytes_unref);
  bytes = lode_calls_to_bytes (calls, symbols);
  g_clear_pointer (&symbols, g_ptr_array_unref);
  for (gsize cut = 0; cut <= g_bytes_get_size (bytes); cut++)
    {
      gsize size;
      const guint8 *data = g_bytes_get_data (bytes, &size);
      g_autofree guint8 *longer = g_malloc0 (size + 1);
      g_autoptr(GBytes) part = g_bytes_new_from_bytes (bytes, 0, cut);
      g_autoptr(GBytes) more = NULL;
      g_autoptr(LodeCalls) read = lode_calls_new_from_bytes (part, &symbols, &error);

      if (cut == size)
        {
          g_assert_no_error (error);
          g_assert_cmpuint (symbols->len, ==, 2);
          g_assert_cmpstr (((LodeSymbol *) symbols->pdata[1])->name, ==, "f1");
          g_assert_cmpstr (((LodeCallSite *) read->sites->pdata[0])->name, ==, "acquire");
          g_assert_cmpint (((LodeCallSite *) read->sites->pdata[0])->caller, ==, 1);
          g_assert_cmpstr (((LodeCallBinding *) read->bindings->pdata[0])->target, ==, "Pool");
          g_clear_pointer (&symbols, g_ptr_array_unref);
          memcpy (longer, data, size);
          more = g_bytes_new (longer, size + 1);
          g_assert_null (lode_calls_new_from_bytes (more, &symbols, &error));
        }
      else
        g_assert_null (read);
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
      g_assert_null (symbols);
      g_clear_error (&error);
    }
}

/* A field assigned the result of a call on itself (`this.partial = this.partial.slice (n)`,
 * as a stream reader of tests/mcp does) ends: the walk from field to call to field is bounded,
 * and the call stays unresolved. */
static void
test_self_assigned_field (void)
{
  g_autofree char *root = g_build_filename (g_get_user_cache_dir (), "reader", NULL);
  g_auto(Graph) graph = { 0 };
  g_autofree char *text = NULL;

  test_write_file (root, "lines.mjs",
                   "export class LineReader {\n"
                   "  constructor () {\n    this.partial = \"\";\n  }\n\n"
                   "  push (chunk) {\n"
                   "    this.partial = this.partial.slice (chunk.length);\n"
                   "    return this.partial.slice (0);\n  }\n}\n");
  build_graph (root, &graph, PARSED);
  text = describe_graph (&graph);
  g_assert_cmpstr (text, ==,
                   "lines.mjs:7 2 slice unresolved none \n"
                   "lines.mjs:8 2 slice unresolved none \n");
}

/* A C function declared in a header: its name finds the definition, the prototype only with
 * the header named. */
static void
test_prototype (void)
{
  g_autofree char *root = g_test_build_filename (G_TEST_DIST, "liblode", "fixtures", "calls",
                                                 "c", NULL);
  g_auto(Graph) graph = { 0 };
  g_autoptr(LodeCallGraph) calls = NULL;

  build_graph (root, &graph, PARSED);
  calls = call_graph_new (&graph);
  g_assert_cmpstr (lode_call_graph_get_node (calls, find_one (calls, "invoice_total",
                                                              NULL))->path,
                   ==, "src/invoice.c");
  g_assert_cmpstr (lode_call_graph_get_node (calls, find_one (calls, "invoice_total",
                                                              "invoice.h"))->kind,
                   ==, "prototype");
}

/* jq's decNumber (fixtures/decnumber): braces opened in one `#if DECSUBSET` block and closed
 * in another used to leave an error that swallowed the functions around them, and headers
 * guarded by `#if !defined(X)`, one included under its own guard's test, were read as maybe
 * not compiled, so their prototypes led nowhere. */
static void
test_c_conditionals (void)
{
  g_autofree char *root = g_test_build_filename (G_TEST_DIST, "liblode", "fixtures",
                                                 "decnumber", NULL);
  g_auto(Graph) graph = { 0 };
  g_autofree char *text = NULL;

  build_graph (root, &graph, PARSED);
  text = describe_graph (&graph);
  g_assert_cmpstr (text, ==,
                   "decNumber.c:24 2 decContextDefault resolved import "
                   "decContext.c:decContextDefault\n"
                   "decNumber.c:31 2 decDivideOp resolved local decNumber.c:decDivideOp\n"
                   "decNumber.c:42 2 decMultiplyOp resolved local decNumber.c:decMultiplyOp\n"
                   "decNumber.c:46 2 decMultiplyOp resolved local decNumber.c:decMultiplyOp\n"
                   "decNumber.c:65 2 decDivideOp resolved local decNumber.c:decDivideOp\n"
                   "decNumber.c:75 3 decNumberPower resolved local decNumber.c:decNumberPower\n");
}

/* Trees that hold one library several times (fixtures/monorepo): two copies of a
 * git-shaped tree side by side, and zstd's library beside its Linux kernel port. A call
 * resolves to its own copy's definition, through its own copy's header, not to the
 * definitions of every copy at once. */
static void
test_monorepo (void)
{
  g_autofree char *fixtures = g_test_build_filename (G_TEST_DIST, "liblode", "fixtures",
                                                     "monorepo", NULL);
  g_autofree char *git = g_build_filename (fixtures, "git", NULL);
  g_autofree char *zstd = g_build_filename (fixtures, "zstd", NULL);
  g_autofree char *root = g_dir_make_tmp ("lode-monorepo-XXXXXX", NULL);
  g_auto(Graph) copies = { 0 };
  g_auto(Graph) port = { 0 };
  g_autofree char *copies_text = NULL;
  g_autofree char *port_text = NULL;

  for (guint i = 1; i <= 2; i++)
    {
      g_autofree char *copy = g_strdup_printf ("%s/copy-%u", root, i);

      test_copy_tree (git, copy);
    }
  build_graph (root, &copies, PARSED);
  copies_text = describe_graph (&copies);
  for (guint i = 1; i <= 2; i++)
    {
      g_autofree char *expected = g_strdup_printf (
        "copy-%u/builtin/clone.c:19 0 parse_tree_indirect resolved import "
          "copy-%u/tree.c:parse_tree_indirect\n"
        "copy-%u/builtin/clone.c:21 0 strbuf_addf resolved import "
          "copy-%u/strbuf.c:strbuf_addf\n"
        "copy-%u/builtin/clone.c:22 0 strbuf_release resolved import "
          "copy-%u/strbuf.c:strbuf_release\n",
        i, i, i, i, i, i);

      g_assert_nonnull (strstr (copies_text, expected));
    }
  test_remove_tree (root);

  build_graph (zstd, &port, PARSED);
  port_text = describe_graph (&port);
  g_assert_nonnull (strstr (port_text,
                            "programs/bench.c:11 0 ZSTD_createCCtx resolved import "
                            "lib/compress/zstd_compress.c:ZSTD_createCCtx\n"
                            "programs/bench.c:15 0 ZSTD_freeCCtx resolved import "
                            "lib/compress/zstd_compress.c:ZSTD_freeCCtx\n"));
}

int
main (int    argc,
      char **argv)
{
  static const char * const languages[] = {
    "c", "cpp", "csharp", "go", "java", "javascript", "typescript", "python", "rust", "php",
    "ruby", "kotlin", "swift",
  };

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (languages); i++)
    {
      g_autofree char *path = g_strdup_printf ("/lode/calls/golden/%s", languages[i]);

      g_test_add_data_func (path, languages[i], test_language);
    }
  g_test_add_func ("/lode/calls/graph", test_call_graph);
  g_test_add_func ("/lode/calls/prototype", test_prototype);
  g_test_add_func ("/lode/calls/report", test_call_report);
  g_test_add_func ("/lode/calls/bytes", test_calls_bytes);
  g_test_add_func ("/lode/calls/self-assigned-field", test_self_assigned_field);
  g_test_add_func ("/lode/calls/c-conditionals", test_c_conditionals);
  g_test_add_func ("/lode/calls/monorepo", test_monorepo);
  return g_test_run ();
}
