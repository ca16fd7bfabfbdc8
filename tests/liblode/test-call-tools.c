/* test-call-tools.c — the call graph's tools on an index kept up to date
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "lode.h"
#include "lode-json-schema.h"
#include "lode-store.h"
#include "lode-tools.h"
#include "lode-watcher.h"
#include "test-helpers.h"

/*
 * The project is the Python golden project of test-calls.c (a service calling models and two
 * same-named `render`s, a test calling a recursive function, calls nothing defines), indexed
 * and edited as an agent would: each answer of codebase_symbol after an edit must equal the
 * answer of a fresh index of the edited tree, whether the edit reached the index through
 * codebase_update or through the watcher's change list.
 */

typedef struct
{
  char             *root;
  char             *fresh_root;
  LodeEngine       *engine;
  LodeToolRegistry *registry;
} Fixture;

static LodeEngine *
engine_new (const char *name)
{
  g_autoptr(LodeConfig) config = lode_config_new_default ();

  g_free (config->data_dir);
  config->data_dir = g_build_filename (g_get_user_cache_dir (), name, NULL);
  return lode_engine_new (config);
}

static void
setup (Fixture       *fixture,
       gconstpointer  data)
{
  g_autofree char *golden = g_test_build_filename (G_TEST_DIST, "liblode", "fixtures", "calls",
                                                   "python", NULL);

  fixture->root = g_build_filename (g_get_user_cache_dir (), "shop", NULL);
  test_copy_tree (golden, fixture->root);
  fixture->engine = engine_new ("lode-data");
  fixture->registry = lode_tools_new_registry (fixture->engine);
}

static void
teardown (Fixture       *fixture,
          gconstpointer  data)
{
  g_clear_object (&fixture->registry);
  g_clear_object (&fixture->engine);
  g_free (fixture->root);
}

static JsonObject *
call_tool (LodeToolRegistry *registry,
           const char       *tool,
           const char       *json,
           const char       *project)
{
  g_autoptr(JsonNode) node = json_from_string (json, NULL);
  g_autoptr(JsonObject) arguments = json_node_dup_object (node);
  g_autoptr(LodeToolResult) result = NULL;
  g_autoptr(JsonNode) instance = NULL;
  g_autoptr(GError) error = NULL;

  result = lode_tool_registry_call (registry, tool, arguments, project, NULL, &error);
  g_assert_no_error (error);
  if (result->is_error)
    g_error ("%s failed: %s", tool, result->text);
  g_assert_cmpstr (result->text, !=, "");
  instance = json_node_init_object (json_node_alloc (), result->structured);
  lode_json_schema_validate (lode_tool_registry_get_output_schema (registry, tool), instance,
                             "result", &error);
  g_assert_no_error (error);
  return json_object_ref (result->structured);
}

static void
append_items (GString    *out,
              const char *title,
              JsonArray  *items)
{
  g_string_append_printf (out, "%s:", title);
  for (guint i = 0; i < json_array_get_length (items); i++)
    {
      JsonObject *item = json_array_get_object_element (items, i);

      g_string_append_printf (out, " %s:%s@%" G_GINT64_FORMAT,
                              json_object_get_string_member_with_default (item, "path", "?"),
                              json_object_get_string_member (item, "name"),
                              json_object_get_int_member (item, "callLine"));
      if (json_object_has_member (item, "resolution"))
        g_string_append_printf (out, "/%s", json_object_get_string_member (item, "resolution"));
    }
  g_string_append_c (out, '\n');
}

/* codebase_symbol's answer for @name, as one text: the definition, its callers, callees and
 * unresolved callees. */
static char *
symbol_text (LodeToolRegistry *registry,
             const char       *root,
             const char       *name)
{
  g_autofree char *json = g_strdup_printf ("{\"name\": \"%s\", \"projectPath\": \"%s\"}", name,
                                           root);
  g_autoptr(JsonObject) report = call_tool (registry, "codebase_symbol", json, root);
  JsonObject *symbol = json_object_get_object_member (report, "symbol");
  GString *out = g_string_new (NULL);

  if (symbol == NULL)
    return g_string_free (out, FALSE);
  g_string_append_printf (out, "%s %s:%" G_GINT64_FORMAT "\n",
                          json_object_get_string_member (symbol, "qualifiedName"),
                          json_object_get_string_member (symbol, "path"),
                          json_object_get_int_member (symbol, "startLine"));
  append_items (out, "callers", json_object_get_array_member (report, "callers"));
  append_items (out, "callees", json_object_get_array_member (report, "callees"));
  append_items (out, "unresolved", json_object_get_array_member (report, "unresolvedCallees"));
  return g_string_free (out, FALSE);
}

/* The answers a fresh index of the tree as it is now gives. */
static char *
fresh_text (Fixture    *fixture,
            const char *name)
{
  static guint n;
  g_autofree char *data = g_strdup_printf ("lode-fresh-%u", n);
  g_autofree char *copy = g_build_filename (g_get_user_cache_dir (), "fresh", data, "shop",
                                            NULL);
  g_autoptr(LodeEngine) engine = engine_new (data);
  g_autoptr(LodeToolRegistry) registry = lode_tools_new_registry (engine);
  g_autofree char *json = g_strdup_printf ("{\"projectPath\": \"%s\"}", copy);
  g_autoptr(JsonObject) report = NULL;
  g_autofree char *text = NULL;
  g_autofree char *relative = NULL;

  n++;
  test_copy_tree (fixture->root, copy);
  report = call_tool (registry, "codebase_update", json, copy);
  text = symbol_text (registry, copy, name);
  g_clear_object (&registry);
  g_clear_object (&engine);
  test_remove_tree (copy);
  return g_steal_pointer (&text);
}

static void
update (Fixture *fixture)
{
  g_autofree char *json = g_strdup_printf ("{\"projectPath\": \"%s\"}", fixture->root);
  g_autoptr(JsonObject) report = call_tool (fixture->registry, "codebase_update", json,
                                            fixture->root);

  g_assert_nonnull (report);
}

/* The watcher's way: only the changed paths are read. */
static void
update_changed (Fixture    *fixture,
                const char *path,
                gboolean    deleted)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeProject) project = lode_engine_open_project (fixture->engine, fixture->root,
                                                             FALSE, &error);
  g_autoptr(GPtrArray) changes = g_ptr_array_new_with_free_func ((GDestroyNotify)
                                                                 lode_change_free);
  g_autoptr(LodeIndexReport) report = NULL;
  LodeChange *change = g_new0 (LodeChange, 1);

  g_assert_no_error (error);
  change->kind = deleted ? LODE_CHANGE_DELETED : LODE_CHANGE_CHANGED;
  change->path = g_strdup (path);
  g_ptr_array_add (changes, change);
  report = lode_project_index_with (project, 0, changes, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (report->n_updated + report->n_removed + report->n_added, ==, 1);
}

static void
write_source (Fixture    *fixture,
              const char *path,
              const char *text)
{
  test_write_file (fixture->root, path, text);
}

/* Replaces @from by @to in the file @path under @root. */
static void
edit_file (const char *root,
           const char *path,
           const char *from,
           const char *to)
{
  g_autofree char *full = g_build_filename (root, path, NULL);
  g_autofree char *text = NULL;
  g_autoptr(GString) edited = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_get_contents (full, &text, NULL, &error));
  g_assert_no_error (error);
  g_assert_nonnull (strstr (text, from));
  edited = g_string_new (text);
  g_string_replace (edited, from, to, 1);
  test_write_file (root, path, edited->str);
}

/* codebase_symbol's answer for @name holds each of @present and none of @absent, and is the
 * answer a fresh index of the tree gives. */
static void
assert_symbol (Fixture            *fixture,
               const char         *name,
               const char * const *present,
               const char * const *absent)
{
  g_autofree char *got = symbol_text (fixture->registry, fixture->root, name);
  g_autofree char *fresh = fresh_text (fixture, name);

  g_assert_cmpstr (got, ==, fresh);
  for (guint i = 0; present != NULL && present[i] != NULL; i++)
    if (strstr (got, present[i]) == NULL)
      g_error ("%s: “%s” is not in\n%s", name, present[i], got);
  for (guint i = 0; absent != NULL && absent[i] != NULL; i++)
    if (strstr (got, absent[i]) != NULL)
      g_error ("%s: “%s” is in\n%s", name, absent[i], got);
}

#define LIST(...) ((const char * const[]) { __VA_ARGS__, NULL })

#define AUDIT \
  "\"\"\"Audits of the ledger.\"\"\"\n\n" \
  "from app.models import Ledger\n\n\n" \
  "def audit(ledger: Ledger):\n" \
  "    return ledger.record(0)\n"

/* An edit that adds a call, renames a callee, deletes a function: codebase_symbol after
 * codebase_update answers as a fresh index does. */
static void
test_update (Fixture       *fixture,
             gconstpointer  data)
{
  update (fixture);
  assert_symbol (fixture, "Ledger.record",
                 LIST ("app.models.Ledger.record app/models.py:21\n",
                       "callers: app/models.py:post@34/receiver\n"), NULL);

  /* A call added, in a new file. */
  write_source (fixture, "app/audit.py", AUDIT);
  update (fixture);
  assert_symbol (fixture, "Ledger.record",
                 LIST ("callers: app/audit.py:audit@7/receiver app/models.py:post@34/receiver\n"),
                 NULL);

  /* The callee renamed: its callers are left with nothing to reach, not with another
   * `record`. */
  edit_file (fixture->root, "app/models.py", "def record(self", "def record_entry(self");
  update (fixture);
  assert_symbol (fixture, "audit", LIST ("callees:\n", "unresolved: ?:record@7\n"), NULL);
  assert_symbol (fixture, "Invoice.post", LIST ("?:record@34"), NULL);
  assert_symbol (fixture, "Ledger.record_entry", LIST ("callers:\n"), LIST ("post@"));

  /* A function deleted: its callers' calls are unresolved. */
  edit_file (fixture->root, "app/service.py",
               "def factorial(n):\n    return 1 if n <= 1 else n * factorial(n - 1)\n", "");
  update (fixture);
  assert_symbol (fixture, "test_take", LIST ("?:factorial@8"), LIST ("app/service.py"));
}

/* The same kinds of edit through the watcher's change lists. */
static void
test_watcher (Fixture       *fixture,
              gconstpointer  data)
{
  update (fixture);
  write_source (fixture, "app/audit.py", AUDIT);
  update_changed (fixture, "app/audit.py", FALSE);
  assert_symbol (fixture, "audit", LIST ("callees: app/models.py:record@7/receiver\n"), NULL);
  assert_symbol (fixture, "Ledger.record", LIST ("app/audit.py:audit@7/receiver"), NULL);

  edit_file (fixture->root, "app/models.py", "def record(self", "def record_entry(self");
  update_changed (fixture, "app/models.py", FALSE);
  assert_symbol (fixture, "audit", LIST ("unresolved: ?:record@7\n"), NULL);

  {
    g_autofree char *gone = g_build_filename (fixture->root, "app", "audit.py", NULL);

    g_assert_cmpint (g_remove (gone), ==, 0);
  }
  update_changed (fixture, "app/audit.py", TRUE);
  assert_symbol (fixture, "Ledger.record_entry", LIST ("callers:\n"), LIST ("audit"));
  assert_symbol (fixture, "audit", NULL, LIST ("audit"));
}

/* flow, trace and impact by symbol answer on the index, and their output fits the schema. */
static void
test_walks (Fixture       *fixture,
            gconstpointer  data)
{
  g_autofree char *json = NULL;
  g_autoptr(JsonObject) report = NULL;
  JsonArray *array;

  update (fixture);

  json = g_strdup_printf ("{\"projectPath\": \"%s\"}", fixture->root);
  report = call_tool (fixture->registry, "codebase_flow", json, fixture->root);
  array = json_object_get_array_member (report, "entryPoints");
  g_assert_cmpuint (json_array_get_length (array), >=, 3);
  g_clear_pointer (&report, json_object_unref);
  g_free (json);

  json = g_strdup_printf ("{\"projectPath\": \"%s\", \"entrypoint\": \"summarize\"}",
                          fixture->root);
  report = call_tool (fixture->registry, "codebase_flow", json, fixture->root);
  array = json_object_get_array_member (json_object_get_object_member (report, "root"),
                                        "calls");
  g_assert_cmpuint (json_array_get_length (array), >=, 3);
  g_clear_pointer (&report, json_object_unref);
  g_free (json);

  json = g_strdup_printf ("{\"projectPath\": \"%s\", \"from\": \"summarize\", "
                          "\"to\": \"Ledger.record\"}", fixture->root);
  report = call_tool (fixture->registry, "codebase_trace", json, fixture->root);
  g_assert_true (json_object_get_boolean_member (report, "reached"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (report, "path")), ==,
                    3);
  g_clear_pointer (&report, json_object_unref);
  g_free (json);

  json = g_strdup_printf ("{\"projectPath\": \"%s\", \"symbol\": \"factorial\"}", fixture->root);
  report = call_tool (fixture->registry, "codebase_impact", json, fixture->root);
  g_assert_cmpint (json_object_get_int_member (report, "callerCount"), ==, 1);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (report, "tests")), ==,
                    1);
  g_clear_pointer (&report, json_object_unref);
  g_free (json);

  json = g_strdup_printf ("{\"projectPath\": \"%s\", \"file\": \"app/models.py\"}",
                          fixture->root);
  report = call_tool (fixture->registry, "codebase_symbols", json, fixture->root);
  g_assert_cmpint (json_object_get_int_member (report, "total"), >=, 10);
}

/* The graph a project keeps in memory between calls: the same object while the index does not
 * change, never the old one after a writer of another process or a forced rebuild changed
 * it. */
static void
test_kept_graph (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeProject) project = NULL;
  g_autoptr(LodeCallGraph) first = NULL;
  g_autoptr(LodeCallGraph) again = NULL;
  g_autoptr(LodeCallGraph) after_update = NULL;
  g_autoptr(LodeCallGraph) after_rebuild = NULL;
  g_autoptr(LodeIndexReport) report = NULL;
  g_autofree char *audit = g_build_filename (fixture->root, "app", "audit.py", NULL);

  update (fixture);
  project = lode_engine_open_project (fixture->engine, fixture->root, TRUE, &error);
  g_assert_no_error (error);
  first = lode_project_dup_call_graph (project, &error);
  g_assert_no_error (error);
  again = lode_project_dup_call_graph (project, &error);
  g_assert_no_error (error);
  g_assert_true (again == first);
  assert_symbol (fixture, "Ledger.record", NULL, LIST ("audit"));

  /* Another process's writer: an engine of its own on the same data directory. */
  write_source (fixture, "app/audit.py", AUDIT);
  {
    g_autoptr(LodeEngine) engine = engine_new ("lode-data");
    g_autoptr(LodeToolRegistry) registry = lode_tools_new_registry (engine);
    g_autofree char *json = g_strdup_printf ("{\"projectPath\": \"%s\"}", fixture->root);
    g_autoptr(JsonObject) updated = call_tool (registry, "codebase_update", json,
                                               fixture->root);
  }
  after_update = lode_project_dup_call_graph (project, &error);
  g_assert_no_error (error);
  g_assert_true (after_update != first);
  assert_symbol (fixture, "Ledger.record", LIST ("app/audit.py:audit@7/receiver"), NULL);

  /* A forced rebuild without the new file. */
  g_assert_cmpint (g_remove (audit), ==, 0);
  report = lode_project_index_with (project, LODE_INDEX_FORCE, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  after_rebuild = lode_project_dup_call_graph (project, &error);
  g_assert_no_error (error);
  g_assert_true (after_rebuild != after_update);
  assert_symbol (fixture, "Ledger.record", NULL, LIST ("audit"));
}

/* Entry points the code registers (fixtures/entries: the shapes of git's `commands[]`, Go
 * net/http and Gin, Express, Flask, FastAPI and Django, Spring, Axum and Actix, Laravel). */
typedef struct
{
  const char *project;
  const char *present[8];  /* "name reason label", each among the entry points */
  const char *absent[4];   /* names that must not be registered */
} EntryCase;

static const EntryCase entry_cases[] = {
  { "c",
    { "cmd_add command add", "cmd_commit command commit", "cmd_version command version",
      "main main -" },
    { "git_hash_sha1_init" } },
  { "go",
    { "GetOrder route GET /orders/:id", "CreateOrder route POST /orders",
      "handleHealth route GET /healthz", "metrics route /metrics", "legacy route /legacy" },
    { "routes" } },
  { "javascript",
    { "health route GET /health", "show route GET /users/:id", "create route POST /users" },
    { "defaultTheme", "get" } },
  { "python",
    { "read_order route GET /orders/{order_id}", "show_order route /orders/<int:order_id>",
      "create_order route POST /orders", "order_detail route /orders/<int:pk>/",
      "helper uncalled -" },
    { "login_required" } },
  { "java",
    { "get route GET /api/orders/{id}", "search route /api/orders/search",
      "legacy uncalled -" } },
  { "rust",
    { "show route GET /orders/:id", "remove route DELETE /orders/:id",
      "items route GET /orders/{id}/items", "health route GET /health" },
    { "load" } },
  { "php",
    { "show route GET /orders/{order}", "store route POST /orders" },
    { "find" } },
};

static void
test_entry_points (void)
{
  for (guint c = 0; c < G_N_ELEMENTS (entry_cases); c++)
    {
      const EntryCase *test = &entry_cases[c];
      g_autofree char *golden = g_test_build_filename (G_TEST_DIST, "liblode", "fixtures",
                                                       "entries", test->project, NULL);
      g_autofree char *root = g_build_filename (g_get_user_cache_dir (), "entries",
                                                test->project, NULL);
      g_autofree char *data = g_strdup_printf ("lode-entries-%s", test->project);
      g_autoptr(LodeEngine) engine = engine_new (data);
      g_autoptr(LodeToolRegistry) registry = lode_tools_new_registry (engine);
      g_autofree char *json = g_strdup_printf ("{\"projectPath\": \"%s\"}", root);
      g_autoptr(JsonObject) updated = NULL;
      g_autoptr(JsonObject) report = NULL;
      g_autoptr(GString) listed = g_string_new ("\n");
      JsonArray *entries;

      test_copy_tree (golden, root);
      updated = call_tool (registry, "codebase_update", json, root);
      report = call_tool (registry, "codebase_flow", json, root);
      entries = json_object_get_array_member (report, "entryPoints");
      for (guint i = 0; i < json_array_get_length (entries); i++)
        {
          JsonObject *entry = json_array_get_object_element (entries, i);

          g_string_append_printf (listed, "%s %s %s\n",
                                  json_object_get_string_member (entry, "name"),
                                  json_object_get_string_member (entry, "reason"),
                                  json_object_get_string_member_with_default (entry, "label",
                                                                              "-"));
        }
      for (guint i = 0; i < G_N_ELEMENTS (test->present) && test->present[i] != NULL; i++)
        {
          g_autofree char *line = g_strdup_printf ("\n%s\n", test->present[i]);

          if (strstr (listed->str, line) == NULL)
            g_error ("%s: no entry point \"%s\" in:%s", test->project, test->present[i],
                     listed->str);
        }
      for (guint i = 0; i < G_N_ELEMENTS (test->absent) && test->absent[i] != NULL; i++)
        {
          g_autofree char *line = g_strdup_printf ("\n%s ", test->absent[i]);

          if (strstr (listed->str, line) != NULL)
            g_error ("%s: %s is no entry point:%s", test->project, test->absent[i],
                     listed->str);
        }
      test_remove_tree (root);
    }
}

/* A table's row names its function, it does not call it: git.c is no caller of cmd_add, and
 * the flow from the command goes on into what it calls. */
static void
test_registration_is_no_call (void)
{
  g_autofree char *golden = g_test_build_filename (G_TEST_DIST, "liblode", "fixtures",
                                                   "entries", "c", NULL);
  g_autofree char *root = g_build_filename (g_get_user_cache_dir (), "git", NULL);
  g_autoptr(LodeEngine) engine = engine_new ("lode-registered");
  g_autoptr(LodeToolRegistry) registry = lode_tools_new_registry (engine);
  g_autofree char *json = g_strdup_printf ("{\"projectPath\": \"%s\"}", root);
  g_autofree char *flow = g_strdup_printf ("{\"projectPath\": \"%s\", "
                                           "\"entrypoint\": \"cmd_add\"}", root);
  g_autofree char *text = NULL;
  g_autoptr(JsonObject) updated = NULL;
  g_autoptr(JsonObject) report = NULL;
  JsonArray *callers, *calls;

  test_copy_tree (golden, root);
  updated = call_tool (registry, "codebase_update", json, root);
  text = symbol_text (registry, root, "cmd_add");
  g_assert_nonnull (strstr (text, "callees: builtin/add.c:add_files@11/local\n"));
  report = call_tool (registry, "codebase_symbol",
                      "{\"name\": \"cmd_add\"}", root);
  callers = json_object_get_array_member (report, "callers");
  g_assert_cmpuint (json_array_get_length (callers), ==, 2);
  for (guint i = 0; i < json_array_get_length (callers); i++)
    g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (callers, i),
                                                    "status"), ==, "registered");
  g_clear_pointer (&report, json_object_unref);

  report = call_tool (registry, "codebase_flow", flow, root);
  calls = json_object_get_array_member (json_object_get_object_member (report, "root"),
                                        "calls");
  g_assert_cmpuint (json_array_get_length (calls), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (calls, 0),
                                                  "name"), ==, "add_files");
  test_remove_tree (root);
}

/* Every call row of the index of @project, one per line. */
static char *
calls_text (LodeProject *project)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeIndexStore) store = LODE_INDEX_STORE (lode_store_open (
    lode_project_get_db_path (project), &error));
  g_autoptr(GPtrArray) files = NULL;
  GString *out = g_string_new (NULL);

  g_assert_no_error (error);
  files = lode_index_store_dup_files (store, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < files->len; i++)
    {
      const LodeStoredFile *file = g_ptr_array_index (files, i);
      g_autoptr(GPtrArray) calls = lode_index_store_dup_calls (store, file->path, &error);

      g_assert_no_error (error);
      for (guint c = 0; c < calls->len; c++)
        {
          const LodeStoredCall *call = g_ptr_array_index (calls, c);

          g_string_append_printf (out, "%s:%u %s@%u → %s %s %s %s:%u %s\n", file->path,
                                  call->line, call->caller, call->caller_line, call->callee,
                                  lode_call_status_to_string (call->status),
                                  lode_call_rule_to_string (call->rule),
                                  call->target_path != NULL ? call->target_path : "-",
                                  call->target_line, call->package != NULL ? call->package : "-");
        }
    }
  return g_string_free (out, FALSE);
}

/* Indexes @root (which @engine indexed before) again, and checks that its calls are those of
 * a fresh index of the tree; returns the files whose calls were resolved. */
static guint
index_again (LodeEngine *engine,
             const char *root)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeProject) project = lode_engine_open_project (engine, root, FALSE, &error);
  static guint n;
  g_autofree char *fresh_data = g_strdup_printf ("lode-fresh-edits-%u", n++);
  g_autoptr(LodeEngine) fresh_engine = engine_new (fresh_data);
  g_autoptr(LodeProject) fresh = NULL;
  g_autoptr(LodeIndexReport) report = NULL;
  g_autoptr(LodeIndexReport) fresh_report = NULL;
  g_autofree char *got = NULL;
  g_autofree char *expected = NULL;

  g_assert_no_error (error);
  report = lode_project_index (project, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  fresh = lode_engine_open_project (fresh_engine, root, FALSE, &error);
  g_assert_no_error (error);
  fresh_report = lode_project_index (fresh, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  got = calls_text (project);
  expected = calls_text (fresh);
  g_assert_cmpstr (got, ==, expected);
  g_assert_nonnull (strstr (got, "src/main.c:"));
  return report->n_calls_resolved;
}

/* Edits of a C project, each followed by a run of the indexer: its calls are those of a fresh
 * index, whether the run resolved the edited file's calls alone (an edit inside a body, every
 * definition where it was) or every file's (definitions moved, a wrapper made, a header's
 * language changed). */
static void
test_edits_in_place (void)
{
  g_autofree char *golden = g_test_build_filename (G_TEST_DIST, "liblode", "fixtures", "calls",
                                                   "c", NULL);
  g_autofree char *root = g_build_filename (g_get_user_cache_dir (), "invoices", NULL);
  g_autoptr(LodeEngine) engine = engine_new ("lode-data");
  g_autoptr(LodeProject) project = NULL;
  g_autoptr(LodeIndexReport) report = NULL;
  g_autoptr(GError) error = NULL;
  guint n_with_calls;

  test_copy_tree (golden, root);
  project = lode_engine_open_project (engine, root, FALSE, &error);
  g_assert_no_error (error);
  report = lode_project_index (project, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  n_with_calls = report->n_calls_resolved;
  g_assert_cmpuint (n_with_calls, >=, 5);
  g_clear_object (&project);

  /* Another callee on the same line: only this file's calls change. */
  edit_file (root, "src/invoice.c", "return fact(n) > 1", "return invoice_total(0) > 1");
  g_assert_cmpuint (index_again (engine, root), ==, 1);

  /* A line above invoice_total(): main.c's call of it names the new line. */
  edit_file (root, "src/invoice.c", "#include \"invoice.h\"\n",
                  "#include \"invoice.h\"\n\n");
  g_assert_cmpuint (index_again (engine, root), ==, n_with_calls);

  /* A body that now calls its own name (a wrapper, which others' calls see through). */
  edit_file (root, "src/invoice.c", "return invoice_total(0) > 1", "return describe(n) > 1");
  g_assert_cmpuint (index_again (engine, root), ==, n_with_calls);

  /* A header's body: its definitions stay where they were. */
  edit_file (root, "include/invoice.h", "return invoice_total(inv) == 0;",
             "return invoice_total(inv) != 0;");
  g_assert_cmpuint (index_again (engine, root), ==, 1);

  /* A comment below them that makes the header C++ (its text decides its language, a
   * line at a time). */
  edit_file (root, "include/invoice.h", "#endif /* INVOICE_H */\n",
             "#endif /* INVOICE_H */\n/*\nclass invoice_printer;\n */\n");
  g_assert_cmpuint (index_again (engine, root), ==, n_with_calls);

  test_remove_tree (root);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add ("/lode/call-tools/update", Fixture, NULL, setup, test_update, teardown);
  g_test_add ("/lode/call-tools/watcher", Fixture, NULL, setup, test_watcher, teardown);
  g_test_add ("/lode/call-tools/walks", Fixture, NULL, setup, test_walks, teardown);
  g_test_add ("/lode/call-tools/kept-graph", Fixture, NULL, setup, test_kept_graph, teardown);
  g_test_add_func ("/lode/call-tools/entry-points", test_entry_points);
  g_test_add_func ("/lode/call-tools/registration-is-no-call", test_registration_is_no_call);
  g_test_add_func ("/lode/call-tools/edits-in-place", test_edits_in_place);
  return g_test_run ();
}
