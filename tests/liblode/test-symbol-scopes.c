/* test-symbol-scopes.c — the symbol tools on the shapes of real code that broke them
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib.h>

#include "lode.h"
#include "lode-symbol-scope.h"
#include "test-helpers.h"

/*
 * fixtures/symbol-scopes/ is a workspace shaped like tokio (issue 28): its public API in
 * `cfg_*!` blocks, four types named Semaphore, `pub use` re-exports, `pub(crate)` loom mocks,
 * and tokio-util, a second crate with its own `crate::sync`; beside it grpc-go's ClientConn.
 * Each test is one of the cases found by trying the tools on tokio and grpc-go. The tree is
 * indexed once for all tests.
 */

static LodeEngine *engine;
static LodeToolRegistry *registry;
static char *fixture_root;

static JsonObject *
call (const char *tool,
      const char *arguments_json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = json_from_string (arguments_json, &error);
  g_autoptr(LodeToolResult) result = NULL;
  JsonObject *arguments;

  g_assert_no_error (error);
  arguments = json_node_get_object (node);
  json_object_set_string_member (arguments, "projectPath", fixture_root);
  result = lode_tool_registry_call (registry, tool, arguments, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (result);
  if (result->is_error)
    g_error ("%s %s failed: %s", tool, arguments_json, result->text);
  return json_object_ref (result->structured);
}

/* The only type @name names. */
static JsonObject *
type_of (const char *name)
{
  g_autofree char *arguments = g_strdup_printf ("{\"type_name\": \"%s\"}", name);
  g_autoptr(JsonObject) report = call ("find_type_definition", arguments);

  if (json_object_get_int_member (report, "count") != 1)
    g_error ("%s names %" G_GINT64_FORMAT " types", name,
             json_object_get_int_member (report, "count"));
  return json_object_ref (json_object_get_object_member (report, "type"));
}

/* The only function @name names. */
static JsonObject *
function_of (const char *name)
{
  g_autofree char *arguments = g_strdup_printf ("{\"function_name\": \"%s\"}", name);
  g_autoptr(JsonObject) report = call ("get_function_details", arguments);

  if (json_object_get_int_member (report, "count") != 1)
    g_error ("%s names %" G_GINT64_FORMAT " functions", name,
             json_object_get_int_member (report, "count"));
  return json_object_ref (json_object_get_object_member (report, "function"));
}

/* @member of each item of @array, space-separated. */
static char *
join_member (JsonArray  *array,
             const char *member)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < json_array_get_length (array); i++)
    g_string_append_printf (out, "%s%s", i > 0 ? " " : "",
                            json_object_get_string_member (json_array_get_object_element (array,
                                                                                          i),
                                                           member));
  return g_string_free (out, FALSE);
}

static const char *
location_path (JsonObject *descriptor)
{
  return json_object_get_string_member (json_object_get_object_member (descriptor, "location"),
                                        "file_path");
}

/* `lode symbol type TcpListener` said "No type named", `spawn_blocking` was not found: both
 * are declared in cfg_*! blocks; so was `mod semaphore;`, missing from the import graph. */
static void
test_macro_items (void)
{
  g_autoptr(JsonObject) listener = type_of ("TcpListener");
  g_autoptr(JsonObject) spawn = function_of ("crate::task::blocking::spawn_blocking");
  g_autoptr(JsonObject) all = call ("get_function_details",
                                    "{\"function_name\": \"spawn_blocking\"}");
  g_autoptr(JsonObject) graph = call ("codebase_graph_query",
                                      "{\"filePath\": \"tokio/src/sync/semaphore.rs\"}");
  g_autofree char *methods = join_member (json_object_get_array_member (listener, "methods"),
                                          "full_name");
  g_autofree char *candidates = join_member (json_object_get_array_member (all, "candidates"),
                                             "full_name");
  g_autofree char *importers = NULL;

  g_assert_cmpstr (json_object_get_string_member (listener, "full_name"), ==,
                   "crate::net::tcp::listener::TcpListener");
  g_assert_cmpstr (json_object_get_string_member (listener, "description"), ==,
                   "A TCP socket server, listening for connections.");
  g_assert_cmpstr (methods, ==,
                   "crate::net::tcp::listener::TcpListener::bind "
                   "crate::net::tcp::listener::TcpListener::accept");

  g_assert_cmpstr (location_path (spawn), ==, "tokio/src/task/blocking.rs");
  g_assert_cmpstr (json_object_get_string_member (spawn, "description"), ==,
                   "Runs the provided closure on a thread where blocking is acceptable.");
  g_assert_cmpstr (candidates, ==,
                   "crate::runtime::blocking::pool::spawn_blocking "
                   "crate::task::blocking::spawn_blocking");

  importers = json_to_string (json_object_get_member (graph, "dependents"), FALSE);
  g_assert_cmpstr (importers, ==, "[\"tokio/src/sync/mod.rs\"]");
}

/* `crate::sync::semaphore::Semaphore` listed 50 methods: batch_semaphore::Semaphore's and
 * the chan::Semaphore trait's three times each. A type's members are its own declarations
 * and the impls of that type, wherever they are. */
static void
test_same_named_types (void)
{
  g_autoptr(JsonObject) all = call ("find_type_definition", "{\"type_name\": \"Semaphore\"}");
  g_autoptr(JsonObject) semaphore = type_of ("crate::sync::semaphore::Semaphore");
  g_autoptr(JsonObject) low_level = type_of ("crate::sync::batch_semaphore::Semaphore");
  g_autoptr(JsonObject) bounded = type_of ("bounded::Semaphore");
  g_autoptr(JsonObject) trait = type_of ("chan::Semaphore");
  g_autofree char *candidates = join_member (json_object_get_array_member (all, "candidates"),
                                             "full_name");
  g_autofree char *methods = join_member (json_object_get_array_member (semaphore, "methods"),
                                          "full_name");
  g_autofree char *low_methods = join_member (json_object_get_array_member (low_level,
                                                                            "methods"),
                                              "name");
  g_autofree char *low_relations = join_member (json_object_get_array_member (low_level,
                                                                              "relations"),
                                                "name");
  g_autofree char *bounded_methods = join_member (json_object_get_array_member (bounded,
                                                                                "methods"),
                                                  "full_name");
  g_autofree char *bounded_relations = join_member (json_object_get_array_member (bounded,
                                                                                  "relations"),
                                                    "name");
  g_autofree char *trait_methods = join_member (json_object_get_array_member (trait, "methods"),
                                                "name");

  g_assert_cmpstr (candidates, ==,
                   "crate::sync::batch_semaphore::Semaphore crate::sync::mpsc::bounded::Semaphore "
                   "crate::sync::mpsc::chan::Semaphore crate::sync::semaphore::Semaphore");
  g_assert_cmpstr (methods, ==,
                   "crate::sync::semaphore::Semaphore::new "
                   "crate::sync::semaphore::Semaphore::acquire "
                   "crate::sync::semaphore::Semaphore::close");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (semaphore,
                                                                         "relations")), ==, 0);
  g_assert_cmpstr (low_methods, ==, "new acquire close fmt");
  g_assert_cmpstr (low_relations, ==, "fmt::Debug");
  /* `impl Semaphore for bounded::Semaphore` in chan.rs is bounded's. */
  g_assert_cmpstr (bounded_methods, ==,
                   "crate::sync::mpsc::bounded::Semaphore::add_permit "
                   "crate::sync::mpsc::bounded::Semaphore::is_idle "
                   "crate::sync::mpsc::bounded::Semaphore::close");
  g_assert_cmpstr (bounded_relations, ==, "Semaphore");
  g_assert_cmpstr (trait_methods, ==, "is_idle add_permit close");
}

/* The tools accept the names they print: `crate::sync::semaphore::Semaphore::acquire` was
 * "No function named"; `Notify.notify_waiters` also gave `NotifyGuard::notify_waiters`. */
static void
test_qualified_names (void)
{
  g_autoptr(JsonObject) acquire = function_of ("crate::sync::semaphore::Semaphore::acquire");
  g_autoptr(JsonObject) notify = function_of ("Notify.notify_waiters");
  g_autoptr(JsonObject) by_crate = type_of ("tokio::sync::Notify");
  g_autoptr(JsonObject) reexported = function_of ("crate::task::spawn_blocking");
  g_autoptr(JsonObject) public_path = type_of ("tokio::sync::Semaphore");
  g_autoptr(JsonObject) both = call ("get_function_details",
                                     "{\"function_name\": \"Semaphore::acquire\"}");
  g_autoptr(JsonObject) util = type_of ("tokio_util::sync::PollSemaphore");

  g_assert_cmpstr (location_path (acquire), ==, "tokio/src/sync/semaphore.rs");
  g_assert_cmpstr (json_object_get_string_member (acquire, "class_name"), ==, "Semaphore");
  g_assert_cmpstr (json_object_get_string_member (notify, "full_name"), ==,
                   "crate::sync::notify::Notify::notify_waiters");
  g_assert_cmpstr (location_path (by_crate), ==, "tokio/src/sync/notify.rs");
  /* The paths `pub use` makes: crate::task re-exports blocking::spawn_blocking, crate::sync
   * semaphore::Semaphore (one of four Semaphores whose scope holds `sync`). */
  g_assert_cmpstr (location_path (reexported), ==, "tokio/src/task/blocking.rs");
  g_assert_cmpstr (json_object_get_string_member (public_path, "full_name"), ==,
                   "crate::sync::semaphore::Semaphore");
  g_assert_cmpint (json_object_get_int_member (both, "count"), ==, 2);
  g_assert_cmpstr (location_path (util), ==, "tokio-util/src/sync/poll_semaphore.rs");

  /* Each printed full name finds its function again. */
  for (guint t = 0; t < 3; t++)
    {
      static const char * const types[] = {
        "crate::sync::semaphore::Semaphore", "bounded::Semaphore", "TcpListener"
      };
      g_autoptr(JsonObject) type = type_of (types[t]);
      JsonArray *methods = json_object_get_array_member (type, "methods");

      for (guint i = 0; i < json_array_get_length (methods); i++)
        {
          JsonObject *method = json_array_get_object_element (methods, i);
          g_autoptr(JsonObject) found = function_of (json_object_get_string_member (method,
                                                                                    "full_name"));

          g_assert_cmpstr (json_object_get_string_member (found, "full_name"), ==,
                           json_object_get_string_member (method, "full_name"));
        }
    }
}

/* grpc-go's ClientConn: `cancel` carried `ctx`'s comment, `parsedTarget` `target`'s. */
static void
test_field_comments (void)
{
  g_autoptr(JsonObject) conn = type_of ("grpc.ClientConn");
  JsonArray *fields = json_object_get_array_member (conn, "fields");
  static const char * const expected[][2] = {
    { "ctx", "Initialized using the background context at dial time." },
    { "cancel", "Cancelled on close." },
    { "target", "User's dial target." },
    { "parsedTarget", "See initParsedTarget()." },
  };

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      JsonObject *f = json_array_get_object_element (fields, i);

      g_assert_cmpstr (json_object_get_string_member (f, "name"), ==, expected[i][0]);
      g_assert_cmpstr (json_object_get_string_member (f, "description"), ==, expected[i][1]);
    }
}

/* tokio's Semaphore was described by "[`Semaphore::acquire_owned`]: crate::…", the last line
 * of its doc. */
static void
test_doc_summary (void)
{
  g_autoptr(JsonObject) semaphore = type_of ("crate::sync::semaphore::Semaphore");
  g_autoptr(JsonObject) new = function_of ("crate::sync::semaphore::Semaphore::new");
  JsonArray *fields = json_object_get_array_member (semaphore, "fields");

  g_assert_cmpstr (json_object_get_string_member (semaphore, "description"), ==,
                   "Counting semaphore performing asynchronous permit acquisition.");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (fields, 0),
                                                  "description"), ==,
                   "The low level semaphore");
  /* Above #[track_caller]. */
  g_assert_cmpstr (json_object_get_string_member (new, "description"), ==,
                   "Creates a new semaphore with the initial number of permits.");
}

static gint
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* "name file" of each export of @package, sorted, one a line. */
static char *
exports_of (const char *package)
{
  g_autofree char *arguments = g_strdup_printf ("{\"package\": \"%s\"}", package);
  g_autoptr(JsonObject) report = call ("list_package_exports", arguments);
  JsonArray *exports = json_object_get_array_member (report, "exports");
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  GString *out = g_string_new (NULL);

  g_assert_cmpint (json_object_get_int_member (report, "total"), ==,
                   json_array_get_length (exports));
  for (guint i = 0; i < json_array_get_length (exports); i++)
    {
      JsonObject *e = json_array_get_object_element (exports, i);

      g_ptr_array_add (lines, g_strdup_printf ("%s %s", json_object_get_string_member (e, "name"),
                                               location_path (e)));
    }
  g_ptr_array_sort (lines, compare_strings);
  for (guint i = 0; i < lines->len; i++)
    g_string_append_printf (out, "%s\n", (char *) g_ptr_array_index (lines, i));
  return g_string_free (out, FALSE);
}

/* `lode symbol exports crate::sync` gave 0 symbols and `exports sync` the `pub(crate)` loom
 * mocks. A module exports its `pub` items, its `pub mod`s' exports and what it re-exports
 * with `pub use` (also from inside an inline module); `pub(crate)` items, modules and
 * re-exports are not exports. */
static void
test_rust_exports (void)
{
  static const char tokio_sync[] =
    "AcquireError tokio/src/sync/batch_semaphore.rs\n"
    "Notified tokio/src/sync/notify.rs\n"
    "Notify tokio/src/sync/notify.rs\n"
    "%s"
    "Receiver tokio/src/sync/mpsc/bounded.rs\n"
    "Semaphore tokio/src/sync/semaphore.rs\n"
    "SemaphorePermit tokio/src/sync/semaphore.rs\n"
    "Sender tokio/src/sync/mpsc/bounded.rs\n"
    "TryAcquireError tokio/src/sync/batch_semaphore.rs\n"
    "channel tokio/src/sync/mpsc/bounded.rs\n"
    "futures tokio/src/sync/mod.rs\n"
    "mpsc tokio/src/sync/mod.rs\n";
  g_autofree char *both_crates =
    g_strdup_printf (tokio_sync, "PollSemaphore tokio-util/src/sync/poll_semaphore.rs\n");
  g_autofree char *tokio_only = g_strdup_printf (tokio_sync, "");
  g_autofree char *by_module = exports_of ("crate::sync");
  g_autofree char *by_name = exports_of ("sync");
  g_autofree char *by_folder = exports_of ("tokio/src/sync");
  g_autofree char *net = exports_of ("crate::net");

  /* tokio-util has a crate::sync of its own. */
  g_assert_cmpstr (by_module, ==, both_crates);
  g_assert_cmpstr (by_name, ==, both_crates);
  g_assert_cmpstr (by_folder, ==, tokio_only);
  /* TcpListener sits in a pub(crate) module, re-exported by a pub use in cfg_net!. */
  g_assert_cmpstr (net, ==,
                   "TcpListener tokio/src/net/tcp/listener.rs\ntcp tokio/src/net/mod.rs\n");
}

/* The module a file is, from its path: a Rust crate's layout (test and example files are
 * crates of their own), Python packages, JavaScript modules, Swift modules. */
static void
test_file_modules (void)
{
  static const char * const cases[][3] = {
    { "rust", "tokio/src/sync/semaphore.rs", "crate::sync::semaphore" },
    { "rust", "tokio/src/sync/mod.rs", "crate::sync" },
    { "rust", "tokio/src/lib.rs", "crate" },
    { "rust", "tokio/src/bin/tool.rs", "crate" },
    { "rust", "tokio/tests/sync_semaphore.rs", "crate" },
    { "rust", "tokio/tests/support/mpsc_stream.rs", "crate::support::mpsc_stream" },
    { "rust", "examples/chat/main.rs", "crate" },
    { "rust", "ledger.rs", "crate::ledger" },
    { "python", "src/pkg/sub/models.py", "pkg.sub.models" },
    { "python", "pkg/sub/__init__.py", "pkg.sub" },
    { "typescript", "src/api/client.ts", "src/api/client" },
    { "swift", "Sources/Counting/Counter.swift", "Counting" },
    { "go", "grpc/clientconn.go", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *module = lode_symbol_file_module (cases[i][0], cases[i][1]);

      g_assert_cmpstr (module, ==, cases[i][2]);
    }
}

/* Qualified names split where any language joins them, and compare part by part. */
static void
test_name_parts (void)
{
  g_auto(GStrv) rust = lode_symbol_name_parts ("crate::sync::notify::NotifyGuard");
  g_auto(GStrv) php = lode_symbol_name_parts ("App\\Models\\User::posts");
  g_auto(GStrv) js = lode_symbol_name_parts ("src/api/client.Client");
  g_auto(GStrv) notify = lode_symbol_name_parts ("Notify");
  g_auto(GStrv) guard = lode_symbol_name_parts ("notify.NotifyGuard");
  g_auto(GStrv) sync = lode_symbol_name_parts ("crate::sync");
  g_autofree char *php_joined = g_strjoinv (" ", php);
  g_autofree char *js_joined = g_strjoinv (" ", js);

  g_assert_cmpstr (php_joined, ==, "App Models User posts");
  g_assert_cmpstr (js_joined, ==, "src api client Client");
  g_assert_false (lode_symbol_parts_end_with ((const char * const *) rust,
                                              (const char * const *) notify));
  g_assert_true (lode_symbol_parts_end_with ((const char * const *) rust,
                                             (const char * const *) guard));
  g_assert_true (lode_symbol_parts_contain ((const char * const *) rust,
                                            (const char * const *) sync));
  g_assert_false (lode_symbol_parts_contain ((const char * const *) sync,
                                             (const char * const *) rust));
}

/* Rust paths from the crate root, as impls and re-exports write them. */
static void
test_rust_paths (void)
{
  g_autoptr(GHashTable) uses = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) children = g_hash_table_new (g_str_hash, g_str_equal);
  static const char * const cases[][3] = {
    { "crate::sync::mpsc::chan", "bounded::Semaphore", "crate::sync::mpsc::bounded::Semaphore" },
    { "crate::sync::mpsc::chan", "Semaphore", "crate::sync::mpsc::chan::Semaphore" },
    { "crate::sync::semaphore", "super::batch_semaphore::Semaphore",
      "crate::sync::batch_semaphore::Semaphore" },
    { "crate::sync::mpsc::chan", "super::super::Notify", "crate::sync::Notify" },
    { "crate::sync", "self::semaphore::Semaphore", "crate::sync::semaphore::Semaphore" },
    { "crate::sync", "semaphore::Semaphore", "crate::sync::semaphore::Semaphore" },
    { "crate::sync", "std::fmt::Debug", "std::fmt::Debug" },
    { "crate::sync", "crate::loom::Mutex", "crate::loom::Mutex" },
  };

  g_hash_table_insert (uses, "bounded", "crate::sync::mpsc::bounded");
  g_hash_table_add (children, "semaphore");
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = lode_symbol_rust_resolve (cases[i][0], cases[i][1], uses,
                                                        children);

      g_assert_cmpstr (path, ==, cases[i][2]);
    }
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(LodeConfig) config = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) update = NULL;
  g_autofree char *root = NULL;
  g_autofree char *data_dir = NULL;
  int status;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  /* One index for every test: the isolated directories exist only while a test runs. */
  data_dir = g_dir_make_tmp ("lode-test-symbol-scopes-XXXXXX", &error);
  g_assert_no_error (error);
  config = lode_config_new_default ();
  g_free (config->data_dir);
  config->data_dir = g_strdup (data_dir);
  root = g_test_build_filename (G_TEST_DIST, "liblode", "fixtures", "symbol-scopes", NULL);
  fixture_root = g_canonicalize_filename (root, NULL);
  engine = lode_engine_new (config);
  registry = lode_tools_new_registry (engine);

  g_test_add_func ("/lode/symbol-scopes/file-modules", test_file_modules);
  g_test_add_func ("/lode/symbol-scopes/name-parts", test_name_parts);
  g_test_add_func ("/lode/symbol-scopes/rust-paths", test_rust_paths);
  g_test_add_func ("/lode/symbol-scopes/macro-items", test_macro_items);
  g_test_add_func ("/lode/symbol-scopes/same-named-types", test_same_named_types);
  g_test_add_func ("/lode/symbol-scopes/qualified-names", test_qualified_names);
  g_test_add_func ("/lode/symbol-scopes/field-comments", test_field_comments);
  g_test_add_func ("/lode/symbol-scopes/doc-summary", test_doc_summary);
  g_test_add_func ("/lode/symbol-scopes/rust-exports", test_rust_exports);

  update = call ("codebase_update", "{}");

  status = g_test_run ();

  g_clear_object (&registry);
  g_clear_object (&engine);
  g_free (fixture_root);
  test_remove_tree (data_dir);
  return status;
}
