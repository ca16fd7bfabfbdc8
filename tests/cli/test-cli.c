/* test-cli.c — drives the built `lode` binary as a user would
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <signal.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "qdrant-server.h"
#include "test-damage.h"
#include "test-helpers.h"

typedef struct
{
  int   status;
  char *out;
  char *err;
} Run;

static char *data_dir;
static char *tree;

static void
run_clear (Run *run)
{
  g_free (run->out);
  g_free (run->err);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, run_clear)

/* Each thread of the process @pid: its name, state and the kernel function it sleeps in
 * (/proc), to say where a run that never ended was stuck. */
static char *
dup_threads (const char *pid)
{
  g_autofree char *tasks = g_build_filename ("/proc", pid, "task", NULL);
  g_autoptr(GDir) dir = g_dir_open (tasks, 0, NULL);
  g_autoptr(GString) out = g_string_new (NULL);
  const char *tid;

  while (dir != NULL && (tid = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *stat_path = g_build_filename (tasks, tid, "stat", NULL);
      g_autofree char *wchan_path = g_build_filename (tasks, tid, "wchan", NULL);
      g_autofree char *stat = NULL;
      g_autofree char *wchan = NULL;
      const char *end;

      g_file_get_contents (stat_path, &stat, NULL, NULL);
      g_file_get_contents (wchan_path, &wchan, NULL, NULL);
      /* "TID (NAME) STATE …": the name may hold spaces and parentheses. */
      end = stat != NULL ? strrchr (stat, ')') : NULL;
      if (end != NULL && strlen (end) >= 3)
        g_string_append_printf (out, "  %.*s %s\n", (int) (end + 3 - stat), stat,
                                wchan != NULL && !g_str_equal (wchan, "0") ? wchan : "");
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static void
communicated_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static gboolean
expired_cb (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Runs @argv from @launcher to its end, its output and status into @run. A run that has not
 * ended in two minutes (more under sanitizers) fails, naming the command and its threads'
 * states: a hang was otherwise only the suite's timeout, with nothing of where it stood. */
static void
communicate (GSubprocessLauncher *launcher,
             GPtrArray           *argv,
             Run                 *run)
{
  g_autoptr(GMainContext) context = g_main_context_new ();
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  guint seconds = test_timeout_seconds (120);
  g_autoptr(GSource) timeout = g_timeout_source_new_seconds (seconds);
  gboolean expired = FALSE;

  g_main_context_push_thread_default (context);
  process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8_async (process, NULL, NULL, communicated_cb, &result);
  g_source_set_callback (timeout, expired_cb, &expired, NULL);
  g_source_attach (timeout, context);
  while (result == NULL && !expired)
    g_main_context_iteration (context, TRUE);
  g_source_destroy (timeout);
  if (result == NULL)
    {
      g_autofree char *command = g_strjoinv (" ", (char **) argv->pdata);
      g_autofree char *threads = dup_threads (g_subprocess_get_identifier (process));

      g_subprocess_force_exit (process);
      g_error ("`%s` has not ended in %u s; its threads:\n%s", command, seconds, threads);
    }
  g_subprocess_communicate_utf8_finish (process, result, &run->out, &run->err, &error);
  g_assert_no_error (error);
  g_main_context_pop_thread_default (context);
  if (!g_subprocess_get_if_exited (process))
    {
      g_autofree char *command = g_strjoinv (" ", (char **) argv->pdata);

      g_error ("`%s` was killed by signal %d; its error output:\n%s", command,
               g_subprocess_get_if_signaled (process) ? g_subprocess_get_term_sig (process) : 0,
               run->err);
    }
  run->status = g_subprocess_get_exit_status (process);
}

/* Runs `lode ARGS…`; with @language set, in that language, from the build tree's catalogs. */
static void
lode_valist (Run        *run,
             const char *language,
             const char *first,
             va_list     args)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();

  g_ptr_array_add (argv, (char *) g_getenv ("LODE_CLI"));
  for (const char *arg = first; arg != NULL; arg = va_arg (args, const char *))
    g_ptr_array_add (argv, (char *) arg);
  g_ptr_array_add (argv, NULL);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                        G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_setenv (launcher, "LODE_DATA_DIR", data_dir, TRUE);
  if (language != NULL)
    {
      g_subprocess_launcher_setenv (launcher, "LANGUAGE", language, TRUE);
      g_subprocess_launcher_setenv (launcher, "LODE_LOCALEDIR", LODE_BUILD_LOCALEDIR, TRUE);
    }
  g_subprocess_launcher_set_cwd (launcher, tree);
  communicate (launcher, argv, run);
}

static void
lode (Run        *run,
      const char *first,
      ...)
{
  va_list args;

  va_start (args, first);
  lode_valist (run, NULL, first, args);
  va_end (args);
}

static void
lode_in (Run        *run,
         const char *language,
         const char *first,
         ...)
{
  va_list args;

  va_start (args, first);
  lode_valist (run, language, first, args);
  va_end (args);
}

static JsonNode *
parse_json (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

static void
test_help (void)
{
  static const char *commands[] = { "index", "update", "search", "status", "projects",
                                    "remove", "model", "secret",
                                    "graph", "impact", "embed", "symbol" };

  {
    g_auto(Run) run = { 0 };

    lode (&run, "--help", NULL);
    g_assert_cmpint (run.status, ==, 0);
    for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
      g_assert_nonnull (strstr (run.out, commands[i]));
  }

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      g_auto(Run) run = { 0 };

      lode (&run, commands[i], "--help", NULL);
      g_assert_cmpint (run.status, ==, 0);
      g_assert_nonnull (strstr (run.out, "Usage:"));
    }
}

/* In French: the usage, a command's help (its summary and options) and an error. */
static void
test_french (void)
{
  g_auto(Run) usage = { 0 };
  g_auto(Run) search = { 0 };
  g_auto(Run) unknown = { 0 };

  lode_in (&usage, "fr", "--help", NULL);
  g_assert_cmpint (usage.status, ==, 0);
  g_assert_nonnull (strstr (usage.out, "Utilisation\u00a0: lode COMMANDE [OPTION…]"));
  g_assert_nonnull (strstr (usage.out, "Commandes\u00a0:"));
  g_assert_nonnull (strstr (usage.out, "Chercher dans une arborescence indexée"));
  g_assert_null (strstr (usage.out, "Search an indexed tree"));

  lode_in (&search, "fr", "search", "--help", NULL);
  g_assert_cmpint (search.status, ==, 0);
  g_assert_nonnull (strstr (search.out, "REQUÊTE peut être un identifiant"));
  g_assert_nonnull (strstr (search.out, "Nombre de résultats (10 par défaut)"));

  lode_in (&unknown, "fr", "frobnicate", NULL);
  g_assert_cmpint (unknown.status, ==, 2);
  g_assert_nonnull (strstr (unknown.err, "lode\u00a0: commande inconnue «\u00a0frobnicate\u00a0»"));
}

static void
test_errors (void)
{
  g_auto(Run) unknown = { 0 };
  g_auto(Run) not_indexed = { 0 };
  g_auto(Run) bad_limit = { 0 };
  g_auto(Run) missing = { 0 };

  lode (&unknown, "frobnicate", NULL);
  g_assert_cmpint (unknown.status, ==, 2);
  g_assert_nonnull (strstr (unknown.err, "frobnicate"));

  /* Errors go to stderr; stdout stays empty (it may be parsed as JSON). */
  lode (&not_indexed, "search", "--json", "anything", NULL);
  g_assert_cmpint (not_indexed.status, ==, 1);
  g_assert_cmpstr (not_indexed.out, ==, "");
  g_assert_nonnull (strstr (not_indexed.err, "not indexed"));

  lode (&bad_limit, "search", "-n", "1000", "x", NULL);
  g_assert_cmpint (bad_limit.status, ==, 2);

  lode (&missing, "index", "/nonexistent/lode/path", NULL);
  g_assert_cmpint (missing.status, ==, 1);
  g_assert_nonnull (strstr (missing.err, "/nonexistent/lode/path"));

  /* `lode tool` reads its arguments as MCP messages are read: 100,000 nested `[` crashed it
   * (SIGSEGV), "ping\u0000x" was searched as "ping", and 1e400 was not refused as a
   * number out of range, as MCP and the daemon refuse it. */
  {
    g_autofree char *nested = g_strnfill (100000, '[');
    g_auto(Run) deep = { 0 };
    g_auto(Run) nul = { 0 };
    g_auto(Run) huge = { 0 };

    lode (&deep, "tool", "codebase_about", nested, NULL);
    g_assert_cmpint (deep.status, ==, 2);
    g_assert_nonnull (strstr (deep.err, "nested deeper than 128 levels"));
    lode (&nul, "tool", "codebase_search", "{\"query\": \"ping\\u0000x\"}", NULL);
    g_assert_cmpint (nul.status, ==, 2);
    g_assert_nonnull (strstr (nul.err, "U+0000"));
    lode (&huge, "tool", "codebase_search", "{\"query\": \"x\", \"limit\": 1e400}", NULL);
    g_assert_cmpint (huge.status, ==, 2);
    g_assert_nonnull (strstr (huge.err, "the number 1e400 at byte 24 is out of range"));
  }
}

/* The report of `lode index --json`: the job's, as codebase_index returns it. */
static JsonObject *
report_of (JsonNode *root)
{
  JsonObject *job = json_object_get_object_member (json_node_get_object (root), "job");

  g_assert_cmpstr (json_object_get_string_member (job, "state"), ==, "succeeded");
  return json_object_get_object_member (job, "report");
}

static void
test_index_search_status (void)
{
  g_auto(Run) index = { 0 };
  g_auto(Run) search = { 0 };
  g_auto(Run) status = { 0 };
  g_auto(Run) projects = { 0 };
  g_auto(Run) update = { 0 };
  g_auto(Run) remove = { 0 };
  g_auto(Run) after = { 0 };
  g_autoptr(JsonNode) root = NULL;
  JsonObject *object;
  JsonArray *results;
  JsonObject *first;

  test_write_file (tree, "src/ring.c",
                   "/* A fixed-size ring buffer. */\n"
                   "int\n"
                   "ring_buffer_push (struct ring *r, int value)\n"
                   "{\n"
                   "  r->data[r->head++ % r->size] = value;\n"
                   "  return 0;\n"
                   "}\n");
  test_write_file (tree, "tools/report.py",
                   "def render_report(rows):\n"
                   "    \"\"\"Render rows as a table.\"\"\"\n"
                   "    return '\\n'.join(str(r) for r in rows)\n");

  lode (&index, "index", "--json", NULL);
  g_assert_cmpint (index.status, ==, 0);
  root = parse_json (index.out);
  object = report_of (root);
  g_assert_cmpint (json_object_get_int_member (object, "files"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (object, "added"), ==, 2);
  g_clear_pointer (&root, json_node_unref);

  lode (&search, "search", "--json", "ring_buffer_push", NULL);
  g_assert_cmpint (search.status, ==, 0);
  root = parse_json (search.out);
  results = json_object_get_array_member (json_node_get_object (root), "results");
  g_assert_cmpuint (json_array_get_length (results), >=, 1);
  first = json_array_get_object_element (results, 0);
  g_assert_cmpstr (json_object_get_string_member (first, "path"), ==, "src/ring.c");
  g_assert_cmpstr (json_object_get_string_member (first, "symbol"), ==, "ring_buffer_push");
  g_assert_cmpstr (json_object_get_string_member (first, "language"), ==, "c");
  g_assert_cmpint (json_object_get_int_member (first, "startLine"), <=, 3);
  g_assert_cmpint (json_object_get_int_member (first, "endLine"), >=, 7);
  for (guint i = 0; i < json_array_get_length (results); i++)
    {
      JsonObject *r = json_array_get_object_element (results, i);
      static const char *members[] = { "path", "startLine", "endLine", "language", "score",
                                       "snippet" };

      for (guint m = 0; m < G_N_ELEMENTS (members); m++)
        g_assert_true (json_object_has_member (r, members[m]));
    }
  g_clear_pointer (&root, json_node_unref);

  lode (&status, "status", "--json", NULL);
  g_assert_cmpint (status.status, ==, 0);
  root = parse_json (status.out);
  object = json_node_get_object (root);
  g_assert_cmpstr (json_object_get_string_member (object, "state"), ==, "ready");
  g_assert_cmpint (json_object_get_int_member (object, "files"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (object, "symbols"), >=, 2);
  g_clear_pointer (&root, json_node_unref);

  lode (&projects, "projects", "--json", NULL);
  g_assert_cmpint (projects.status, ==, 0);
  g_assert_nonnull (strstr (projects.out, tree));

  test_write_file (tree, "tools/report.py", "def render_summary(rows):\n    return len(rows)\n");
  lode (&update, "update", NULL);
  g_assert_cmpint (update.status, ==, 0);
  g_assert_nonnull (strstr (update.out, "1 updated"));

  lode (&remove, "remove", tree, NULL);
  g_assert_cmpint (remove.status, ==, 0);
  lode (&after, "search", "ring_buffer_push", NULL);
  g_assert_cmpint (after.status, ==, 1);
}

static JsonObject *
run_json (Run        *run,
          JsonNode  **root)
{
  g_assert_cmpint (run->status, ==, 0);
  *root = parse_json (run->out);
  return json_node_get_object (*root);
}

static void
test_graph (void)
{
  g_auto(Run) index = { 0 };
  g_auto(Run) stats = { 0 };
  g_auto(Run) query = { 0 };
  g_auto(Run) dependents = { 0 };
  g_auto(Run) missing = { 0 };
  g_auto(Run) visualize = { 0 };
  g_auto(Run) circular = { 0 };
  g_auto(Run) remove = { 0 };
  g_auto(Run) status = { 0 };
  g_auto(Run) impact = { 0 };
  g_auto(Run) bad_depth = { 0 };
  g_autoptr(JsonNode) root = NULL;
  JsonObject *object;
  JsonObject *import;
  JsonArray *array;

  test_write_file (tree, "graph/main.c",
                   "#include <stdio.h>\n#include \"util.h\"\n"
                   "int main (void) { return util (); }\n");
  test_write_file (tree, "graph/util.h", "int util (void);\n");

  lode (&index, "index", NULL);
  g_assert_cmpint (index.status, ==, 0);

  lode (&stats, "graph", "stats", "--json", NULL);
  object = run_json (&stats, &root);
  g_assert_cmpint (json_object_get_int_member (object, "files"), ==,
                   json_object_get_int_member (object, "orphanCount") +
                   json_array_get_length (json_object_get_array_member (object,
                                                                        "mostConnected")));
  g_assert_true (json_object_has_member (object, "packages"));
  g_clear_pointer (&root, json_node_unref);

  lode (&query, "graph", "query", "graph/main.c", "--json", NULL);
  object = run_json (&query, &root);
  g_assert_cmpstr (json_object_get_string_member (object, "file"), ==, "graph/main.c");
  g_assert_cmpstr (json_object_get_string_member (object, "language"), ==, "c");
  array = json_object_get_array_member (object, "imports");
  g_assert_cmpuint (json_array_get_length (array), ==, 2);
  import = json_array_get_object_element (array, 0);
  g_assert_cmpstr (json_object_get_string_member (import, "specifier"), ==, "stdio.h");
  g_assert_cmpstr (json_object_get_string_member (import, "kind"), ==, "include-system");
  g_assert_cmpstr (json_object_get_string_member (import, "package"), ==, "stdio.h");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (import, "targets")),
                    ==, 0);
  import = json_array_get_object_element (array, 1);
  g_assert_cmpstr (json_object_get_string_member (import, "specifier"), ==, "util.h");
  g_assert_cmpint (json_object_get_int_member (import, "line"), ==, 2);
  g_assert_cmpstr (json_array_get_string_element (json_object_get_array_member (import,
                                                                                "targets"), 0),
                   ==, "graph/util.h");
  g_clear_pointer (&root, json_node_unref);

  lode (&dependents, "graph", "query", "graph/util.h", "--json", NULL);
  object = run_json (&dependents, &root);
  array = json_object_get_array_member (object, "dependents");
  g_assert_cmpuint (json_array_get_length (array), ==, 1);
  g_assert_cmpstr (json_array_get_string_element (array, 0), ==, "graph/main.c");
  g_clear_pointer (&root, json_node_unref);

  lode (&missing, "graph", "query", "graph/nope.c", NULL);
  g_assert_cmpint (missing.status, ==, 1);
  g_assert_nonnull (strstr (missing.err, "graph/nope.c"));

  lode (&visualize, "graph", "visualize", "--json", NULL);
  object = run_json (&visualize, &root);
  g_assert_true (g_str_has_prefix (json_object_get_string_member (object, "mermaid"),
                                   "flowchart LR\n"));
  g_clear_pointer (&root, json_node_unref);

  lode (&circular, "graph", "circular", NULL);
  g_assert_cmpint (circular.status, ==, 0);
  g_assert_nonnull (strstr (circular.out, "No import cycles"));

  lode (&remove, "graph", "remove", NULL);
  g_assert_cmpint (remove.status, ==, 0);
  lode (&status, "graph", "status", "--json", NULL);
  object = run_json (&status, &root);
  g_assert_false (json_object_get_boolean_member (object, "enabled"));
  g_assert_cmpint (json_object_get_int_member (object, "imports"), ==, 0);
  g_clear_pointer (&root, json_node_unref);

  /* The tree is no git work tree. */
  lode (&impact, "impact", NULL);
  g_assert_cmpint (impact.status, ==, 1);
  g_assert_nonnull (strstr (impact.err, "not inside a git work tree"));

  lode (&bad_depth, "graph", "query", "--depth", "9", "graph/main.c", NULL);
  g_assert_cmpint (bad_depth.status, ==, 2);
}

/* Search modes and the notice when no embedding model is there (issue #4): the test
 * environment has none, so hybrid falls back to BM25 and says so. */
static void
test_modes (void)
{
  g_auto(Run) index = { 0 };
  g_auto(Run) hybrid = { 0 };
  g_auto(Run) text = { 0 };
  g_auto(Run) lexical = { 0 };
  g_auto(Run) semantic = { 0 };
  g_auto(Run) bad = { 0 };
  g_auto(Run) status = { 0 };
  g_autoptr(JsonNode) root = NULL;
  JsonObject *object;
  JsonObject *mode;
  const char *notice = "semantic search unavailable: no embedding model (run `lode model pull`)";

  test_write_file (tree, "modes/queue.c",
                   "int\nqueue_pop (struct queue *q)\n{\n  return q->items[--q->n];\n}\n");
  lode (&index, "index", "--json", "modes", NULL);
  g_assert_cmpint (index.status, ==, 0);
  root = parse_json (index.out);
  object = report_of (root);
  g_assert_cmpint (json_object_get_int_member (object, "embedded"), ==, 0);
  g_assert_cmpstr (json_object_get_string_member (object, "embeddingNotice"), ==, notice);
  g_clear_pointer (&root, json_node_unref);

  lode (&hybrid, "search", "-p", "modes", "--json", "queue_pop", NULL);
  g_assert_cmpint (hybrid.status, ==, 0);
  root = parse_json (hybrid.out);
  object = json_node_get_object (root);
  mode = json_object_get_object_member (object, "mode");
  g_assert_cmpstr (json_object_get_string_member (mode, "requested"), ==, "hybrid");
  g_assert_cmpstr (json_object_get_string_member (mode, "used"), ==, "lexical");
  g_assert_nonnull (strstr (json_object_get_string_member (mode, "reason"), notice));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (object, "results")),
                    >=, 1);
  g_clear_pointer (&root, json_node_unref);

  /* People read what agents read: the results and why the search was lexical. */
  lode (&text, "search", "-p", "modes", "queue_pop", NULL);
  g_assert_cmpint (text.status, ==, 0);
  g_assert_nonnull (strstr (text.out, notice));
  g_assert_nonnull (strstr (text.out, "queue.c"));

  lode (&lexical, "search", "-p", "modes", "--mode", "lexical", "--json", "queue_pop", NULL);
  g_assert_cmpint (lexical.status, ==, 0);
  root = parse_json (lexical.out);
  object = json_node_get_object (root);
  mode = json_object_get_object_member (object, "mode");
  g_assert_cmpstr (json_object_get_string_member (mode, "used"), ==, "lexical");
  g_assert_false (json_object_has_member (mode, "reason"));
  g_clear_pointer (&root, json_node_unref);

  lode (&semantic, "search", "-p", "modes", "--mode", "semantic", "queue_pop", NULL);
  g_assert_cmpint (semantic.status, ==, 1);
  g_assert_nonnull (strstr (semantic.err, "lode model pull"));

  lode (&bad, "search", "-p", "modes", "--mode", "fuzzy", "queue_pop", NULL);
  g_assert_cmpint (bad.status, ==, 2);
  g_assert_nonnull (strstr (bad.err, "mode"));

  lode (&status, "status", "--json", "modes", NULL);
  g_assert_cmpint (status.status, ==, 0);
  root = parse_json (status.out);
  object = json_object_get_object_member (json_node_get_object (root), "semantic");
  g_assert_false (json_object_get_boolean_member (object, "available"));
  g_assert_cmpint (json_object_get_int_member (object, "embeddedChunks"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (object, "embeddableChunks"), >=, 1);
  g_assert_cmpstr (json_object_get_string_member (object, "notice"), ==, notice);
}

static void
test_model_and_secret (void)
{
  g_auto(Run) list = { 0 };
  g_auto(Run) unknown = { 0 };
  g_auto(Run) offline = { 0 };
  g_auto(Run) bad_provider = { 0 };
  g_auto(Run) bad_action = { 0 };
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *cache = g_build_filename (data_dir, "cache", NULL);

  /* An empty cache: no models, ours or Hugging Face's. */
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  g_setenv ("HF_HOME", cache, TRUE);
  lode (&list, "model", "list", "--json", NULL);
  g_assert_cmpint (list.status, ==, 0);
  root = parse_json (list.out);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (json_node_get_object (root),
                                                                          "models")), ==, 0);

  lode (&unknown, "model", "pull", "no-such-model", NULL);
  g_assert_cmpint (unknown.status, ==, 2);
  g_assert_nonnull (strstr (unknown.err, "bge-small-en-v1.5"));

  /* Nothing listens on port 1: a clear error, exit status 1. */
  g_setenv ("LODE_HF_ENDPOINT", "http://127.0.0.1:1", TRUE);
  lode (&offline, "model", "pull", "gte-small", NULL);
  g_unsetenv ("LODE_HF_ENDPOINT");
  g_assert_cmpint (offline.status, ==, 1);
  g_assert_nonnull (strstr (offline.err, "Cannot download http://127.0.0.1:1/thenlper/gte-small/"));

  lode (&bad_provider, "secret", "set", "Open AI", NULL);
  g_assert_cmpint (bad_provider.status, ==, 2);
  lode (&bad_action, "secret", "show", "openai", NULL);
  g_assert_cmpint (bad_action.status, ==, 2);
}

static const char *
tiny_bert_dir (void)
{
  return g_test_get_filename (G_TEST_BUILT, "liblode", "fixtures", "tiny-bert-random", NULL);
}

/* `lode embed --json` against the reference of the tiny random BERT, every case in one
 * call (2 to 256 tokens). */
static void
assert_embed_reference (const char *pooling,
                        const char *member)
{
  g_autofree char *path = g_build_filename (tiny_bert_dir (), "reference.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  JsonArray *cases;
  JsonObject *result;
  JsonArray *ids;
  JsonArray *vectors;

  json_parser_load_from_mapped_file (parser, path, &error);
  g_assert_no_error (error);
  cases = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                        "cases");

  g_ptr_array_add (argv, (char *) g_getenv ("LODE_CLI"));
  g_ptr_array_add (argv, "embed");
  g_ptr_array_add (argv, "--model-dir");
  g_ptr_array_add (argv, (char *) tiny_bert_dir ());
  g_ptr_array_add (argv, "--pooling");
  g_ptr_array_add (argv, (char *) pooling);
  g_ptr_array_add (argv, "--json");
  for (guint i = 0; i < json_array_get_length (cases); i++)
    g_ptr_array_add (argv, (char *) json_object_get_string_member (
      json_array_get_object_element (cases, i), "text"));
  g_ptr_array_add (argv, NULL);

  process = g_subprocess_newv ((const char * const *) argv->pdata,
                               G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                               &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (process, NULL, NULL, &out, &err, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 0);

  root = parse_json (out);
  result = json_node_get_object (root);
  g_assert_cmpstr (json_object_get_string_member (result, "model"), ==, "tiny-bert-random");
  g_assert_cmpint (json_object_get_int_member (result, "dims"), ==, 32);
  g_assert_cmpstr (json_object_get_string_member (result, "pooling"), ==, pooling);
  ids = json_object_get_array_member (result, "input_ids");
  vectors = json_object_get_array_member (result, "vectors");
  g_assert_cmpuint (json_array_get_length (ids), ==, json_array_get_length (cases));
  g_assert_cmpuint (json_array_get_length (vectors), ==, json_array_get_length (cases));

  for (guint i = 0; i < json_array_get_length (cases); i++)
    {
      JsonObject *c = json_array_get_object_element (cases, i);
      JsonArray *expected_ids = json_object_get_array_member (c, "input_ids");
      JsonArray *expected = json_object_get_array_member (c, member);
      JsonArray *got_ids = json_array_get_array_element (ids, i);
      JsonArray *got = json_array_get_array_element (vectors, i);

      g_assert_cmpuint (json_array_get_length (got_ids), ==, json_array_get_length (expected_ids));
      for (guint j = 0; j < json_array_get_length (expected_ids); j++)
        g_assert_cmpint (json_array_get_int_element (got_ids, j), ==,
                         json_array_get_int_element (expected_ids, j));
      g_assert_cmpuint (json_array_get_length (got), ==, 32);
      for (guint d = 0; d < 32; d++)
        g_assert_cmpfloat_with_epsilon (json_array_get_double_element (got, d),
                                        json_array_get_double_element (expected, d), 1e-4);
    }
}

static void
test_embed (void)
{
  g_auto(Run) missing = { 0 };
  g_auto(Run) text = { 0 };
  g_auto(Run) no_text = { 0 };
  g_auto(Run) both = { 0 };
  g_auto(Run) bad_pooling = { 0 };
  g_auto(Run) bad_utf8 = { 0 };
  g_auto(Run) bad_dir = { 0 };
  g_autofree char *cache = g_build_filename (data_dir, "embed-cache", NULL);

  assert_embed_reference ("mean", "mean_normalized");
  assert_embed_reference ("cls", "cls_normalized");

  lode (&text, "embed", "--model-dir", tiny_bert_dir (), "hello world", NULL);
  g_assert_cmpint (text.status, ==, 0);
  g_assert_nonnull (strstr (text.out, "tiny-bert-random, 32 dimensions, mean pooling"));
  g_assert_nonnull (strstr (text.out, "4 tokens: "));

  /* No model installed anywhere: say how to get it; stdout stays empty. */
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  g_setenv ("HF_HOME", cache, TRUE);
  lode (&missing, "embed", "--json", "hello", NULL);
  g_assert_cmpint (missing.status, ==, 1);
  g_assert_cmpstr (missing.out, ==, "");
  g_assert_nonnull (strstr (missing.err, "lode model pull bge-small-en-v1.5"));

  lode (&no_text, "embed", "--model-dir", tiny_bert_dir (), NULL);
  g_assert_cmpint (no_text.status, ==, 2);
  lode (&both, "embed", "--model", "gte-small", "--model-dir", tiny_bert_dir (), "x", NULL);
  g_assert_cmpint (both.status, ==, 2);
  lode (&bad_pooling, "embed", "--model-dir", tiny_bert_dir (), "--pooling", "max", "x", NULL);
  g_assert_cmpint (bad_pooling.status, ==, 2);
  lode (&bad_dir, "embed", "--model-dir", data_dir, "x", NULL);
  g_assert_cmpint (bad_dir.status, ==, 1);
  g_assert_nonnull (strstr (bad_dir.err, "lode: "));

  lode (&bad_utf8, "embed", "--model-dir", tiny_bert_dir (), "ok", "bad \xff", NULL);
  g_assert_cmpint (bad_utf8.status, ==, 1);
  g_assert_nonnull (strstr (bad_utf8.err, "Text 2"));
}

static void
write_many (const char *dir,
            guint       n)
{
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *rel = g_strdup_printf ("%s/d%u/file%u.c", dir, i % 32, i);
      g_autofree char *text = g_strdup_printf ("/* Generated file %u. */\n"
                                               "int\ngenerated_function_%u (int x)\n{\n"
                                               "  int y = x * %u;\n  y += x / 3;\n"
                                               "  return y + generated_function_%u (x);\n"
                                               "}\n", i, i, i, i / 2);

      test_write_file (tree, rel, text);
    }
}

static GSubprocess *
spawn_lode (GSubprocessFlags  flags,
            const char       *first,
            ...)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (flags);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  GSubprocess *process;
  va_list args;

  g_ptr_array_add (argv, (char *) g_getenv ("LODE_CLI"));
  va_start (args, first);
  for (const char *arg = first; arg != NULL; arg = va_arg (args, const char *))
    g_ptr_array_add (argv, (char *) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  g_subprocess_launcher_setenv (launcher, "LODE_DATA_DIR", data_dir, TRUE);
  g_subprocess_launcher_set_cwd (launcher, tree);
  process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  return process;
}

/* SIGTERM, SIGINT and SIGHUP end an index run promptly, with the status of the signal, and
 * leave an index the next run resumes. */
static void
test_signals (void)
{
  static const int signals[] = { SIGTERM, SIGINT, SIGHUP };
  g_auto(Run) status = { 0 };
  g_auto(Run) last = { 0 };
  g_autoptr(JsonNode) root = NULL;
  JsonObject *report;

  write_many ("signals", 6000);
  for (guint i = 0; i < G_N_ELEMENTS (signals); i++)
    {
      g_autoptr(GSubprocess) process = NULL;
      g_autoptr(GDataInputStream) err = NULL;
      g_autoptr(GError) error = NULL;
      char *line;
      gint64 sent;

      process = spawn_lode (G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                            "--no-daemon", "index", "signals", NULL);
      err = g_data_input_stream_new (g_subprocess_get_stderr_pipe (process));
      /* Indexing has begun: chunks are being written. */
      while ((line = g_data_input_stream_read_line_utf8 (err, NULL, NULL, &error)) != NULL &&
             strstr (line, "Indexed") == NULL)
        g_free (line);
      g_assert_nonnull (line);
      g_free (line);

      sent = g_get_monotonic_time ();
      g_subprocess_send_signal (process, signals[i]);
      g_subprocess_wait (process, NULL, &error);
      g_assert_no_error (error);
      /* Within a second on an idle machine; this bound only catches a hang. */
      g_assert_cmpint (g_get_monotonic_time () - sent, <, 10 * G_USEC_PER_SEC);
      g_assert_true (g_subprocess_get_if_exited (process));
      g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 128 + signals[i]);
    }

  lode (&status, "--no-daemon", "status", "--json", "signals", NULL);
  g_assert_cmpint (status.status, ==, 0);
  root = parse_json (status.out);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (root), "state"), ==,
                   "incomplete");
  g_clear_pointer (&root, json_node_unref);

  lode (&last, "--no-daemon", "index", "--json", "signals", NULL);
  g_assert_cmpint (last.status, ==, 0);
  root = parse_json (last.out);
  report = report_of (root);
  g_assert_true (json_object_get_boolean_member (report, "resumed"));
  g_assert_cmpint (json_object_get_int_member (report, "files"), ==, 6000);
  g_assert_cmpint (json_object_get_int_member (report, "unchanged"), >, 0);
}

/* Two processes that index one tree without the daemon: one writes, the other waits for it
 * and then finds nothing left to do. Neither takes the other's run for an interrupted one. */
static void
test_one_writer (void)
{
  g_autoptr(GSubprocess) first = NULL;
  g_autoptr(GSubprocess) second = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *first_out = NULL;
  g_autofree char *second_out = NULL;
  const char *out[2];
  guint added = 0;
  guint unchanged = 0;

  write_many ("writers", 3000);
  first = spawn_lode (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_SILENCE,
                      "--no-daemon", "index", "--json", "writers", NULL);
  second = spawn_lode (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_SILENCE,
                       "--no-daemon", "index", "--json", "writers", NULL);
  g_subprocess_communicate_utf8 (first, NULL, NULL, &first_out, NULL, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (second, NULL, NULL, &second_out, NULL, &error);
  g_assert_no_error (error);
  out[0] = first_out;
  out[1] = second_out;

  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(JsonNode) root = parse_json (out[i]);
      JsonObject *report = report_of (root);

      g_assert_false (json_object_get_boolean_member (report, "resumed"));
      g_assert_cmpint (json_object_get_int_member (report, "files"), ==, 3000);
      added += json_object_get_int_member (report, "added");
      unchanged += json_object_get_int_member (report, "unchanged");
    }
  g_assert_cmpuint (added, ==, 3000);
  g_assert_cmpuint (unchanged, ==, 3000);
}

static void
assert_said_once (const char *text,
                  const char *words)
{
  const char *first = strstr (text, words);

  if (first == NULL || strstr (first + 1, words) != NULL)
    g_error ("“%s” is not said once in: %s", words, text);
}

/* The folder of the index of the tree @name (in the shared tree): projects/ID, the ID being
 * the first 12 hex digits of the SHA-256 of the canonical path, which goes to @canonical. */
static char *
dup_project_dir (const char  *name,
                 char       **canonical)
{
  g_autofree char *absolute = g_build_filename (tree, name, NULL);
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  g_autofree char *id = NULL;

  *canonical = realpath (absolute, NULL);
  g_assert_nonnull (*canonical);
  g_checksum_update (sum, (const guchar *) *canonical, -1);
  id = g_strndup (g_checksum_get_string (sum), 12);
  return g_build_filename (data_dir, "projects", id, NULL);
}

/* How many damaged indexes were kept aside in @project_dir. */
static guint
count_kept (const char *project_dir)
{
  g_autoptr(GDir) dir = g_dir_open (project_dir, 0, NULL);
  const char *name;
  guint kept = 0;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    kept += g_str_has_prefix (name, "index.db.damaged-") && !g_str_has_suffix (name, "-wal");
  return kept;
}

/* `lode index --json NAME` rebuilt the damaged index: kept aside, made anew, all files in. */
static void
assert_rebuilt (const char *name,
                guint       n_files,
                const char *because)
{
  g_auto(Run) again = { 0 };
  g_autoptr(JsonNode) root = NULL;
  JsonObject *report;
  const char *reason;

  lode (&again, "--no-daemon", "index", "--json", name, NULL);
  g_assert_cmpint (again.status, ==, 0);
  root = parse_json (again.out);
  report = report_of (root);
  g_assert_true (json_object_get_boolean_member (report, "rebuilt"));
  reason = json_object_get_string_member (report, "rebuiltBecause");
  g_assert_nonnull (strstr (reason, "kept as"));
  if (because != NULL && strstr (reason, because) == NULL)
    g_error ("“%s” is not in the reason of the rebuild: %s", because, reason);
  g_assert_cmpint (json_object_get_int_member (report, "added"), ==, n_files);
}

/* `lode search -p NAME generated_function_7` finds file7.c. */
static void
assert_search_works (const char *name)
{
  g_auto(Run) search = { 0 };

  lode (&search, "--no-daemon", "search", "-p", name, "generated_function_7", NULL);
  g_assert_cmpint (search.status, ==, 0);
  g_assert_nonnull (strstr (search.out, "file7.c"));
}

/* `lode search` fails with the damage explained once, not SQLite's bare words. */
static void
assert_search_explains (const char *name,
                        const char *canonical)
{
  g_auto(Run) search = { 0 };

  lode (&search, "--no-daemon", "search", "-p", name, "generated_function_7", NULL);
  g_assert_cmpint (search.status, ==, 1);
  g_assert_nonnull (strstr (search.err, "damaged"));
  g_assert_nonnull (strstr (search.err, canonical));
  assert_said_once (search.err, "cannot be used");
  assert_said_once (search.err, "Index the project again");
}

/* `lode status --json NAME` says damaged, with the remedy; returns why. */
static char *
dup_status_damage (const char *name,
                   const char *canonical)
{
  g_auto(Run) status = { 0 };
  g_autoptr(JsonNode) root = NULL;
  JsonObject *object;
  const char *damage;

  lode (&status, "--no-daemon", "status", "--json", name, NULL);
  g_assert_cmpint (status.status, ==, 0);
  root = parse_json (status.out);
  object = json_node_get_object (root);
  g_assert_cmpstr (json_object_get_string_member (object, "state"), ==, "damaged");
  damage = json_object_get_string_member (object, "damage");
  g_assert_nonnull (strstr (damage, canonical));
  g_assert_nonnull (strstr (damage, "lode index"));
  assert_said_once (damage, "cannot be used");
  assert_said_once (damage, "Index the project again");
  return g_strdup (damage);
}

/* Overwrites everything of the index after its first page. */
static void
damage_index (const char *project_dir)
{
  g_autofree char *db = g_build_filename (project_dir, "index.db", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  gsize length;

  g_file_get_contents (db, &contents, &length, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (length, >, 8192);
  memset (contents + 4096, 0x5a, length - 4096);
  g_file_set_contents (db, contents, length, &error);
  g_assert_no_error (error);
}

/* A damaged index: status says so and how to repair it, a search fails saying the same, and
 * the next index run keeps the damaged file aside and rebuilds. A read never deletes it. */
static void
test_damaged_index (void)
{
  g_auto(Run) index = { 0 };
  g_auto(Run) status = { 0 };
  g_auto(Run) search = { 0 };
  g_auto(Run) again = { 0 };
  g_auto(Run) after = { 0 };
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GDir) dir = NULL;
  g_autofree char *project_dir = NULL;
  g_autofree char *id = NULL;
  g_autofree char *canonical = NULL;
  g_autofree char *absolute = g_build_filename (tree, "damaged", NULL);
  JsonObject *object;
  const char *name;
  guint kept = 0;

  write_many ("damaged", 300);
  lode (&index, "--no-daemon", "index", "damaged", NULL);
  g_assert_cmpint (index.status, ==, 0);
  {
    g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);

    canonical = realpath (absolute, NULL);
    g_checksum_update (sum, (const guchar *) canonical, -1);
    id = g_strndup (g_checksum_get_string (sum), 12);
  }
  project_dir = g_build_filename (data_dir, "projects", id, NULL);
  damage_index (project_dir);

  lode (&status, "--no-daemon", "status", "--json", "damaged", NULL);
  g_assert_cmpint (status.status, ==, 0);
  root = parse_json (status.out);
  object = json_node_get_object (root);
  g_assert_cmpstr (json_object_get_string_member (object, "state"), ==, "damaged");
  g_assert_nonnull (strstr (json_object_get_string_member (object, "damage"), canonical));
  g_assert_nonnull (strstr (json_object_get_string_member (object, "damage"), "lode index"));
  /* Said once: the reader's explanation was wrapped in the same words a second time. */
  assert_said_once (json_object_get_string_member (object, "damage"), "cannot be used");
  assert_said_once (json_object_get_string_member (object, "damage"), "Index the project again");

  lode (&search, "--no-daemon", "search", "-p", "damaged", "generated_function_7", NULL);
  g_assert_cmpint (search.status, ==, 1);
  g_assert_nonnull (strstr (search.err, "damaged"));
  g_assert_nonnull (strstr (search.err, canonical));
  assert_said_once (search.err, "cannot be used");
  assert_said_once (search.err, "Index the project again");

  lode (&again, "--no-daemon", "index", "--json", "damaged", NULL);
  g_assert_cmpint (again.status, ==, 0);
  g_clear_pointer (&root, json_node_unref);
  root = parse_json (again.out);
  object = report_of (root);
  g_assert_true (json_object_get_boolean_member (object, "rebuilt"));
  g_assert_nonnull (strstr (json_object_get_string_member (object, "rebuiltBecause"),
                            "kept as"));
  g_assert_cmpint (json_object_get_int_member (object, "added"), ==, 300);

  dir = g_dir_open (project_dir, 0, NULL);
  while ((name = g_dir_read_name (dir)) != NULL)
    kept += g_str_has_prefix (name, "index.db.damaged-") && !g_str_has_suffix (name, "-wal");
  g_assert_cmpuint (kept, ==, 1);

  lode (&after, "--no-daemon", "search", "-p", "damaged", "generated_function_7", NULL);
  g_assert_cmpint (after.status, ==, 0);
  g_assert_nonnull (strstr (after.out, "file7.c"));
}

/* Garbled pages of the full-text index only (the report of issue 16): the index opens and its
 * counts read well, so nothing but a search came across the damage. A search explains it;
 * status says damaged rather than ready (it checks the pages, with or without a search before
 * it); and `lode index` with nothing changed does not end well on a broken index: it checks,
 * keeps it aside and rebuilds. */
static void
test_damaged_fts (void)
{
  g_auto(Run) index = { 0 };
  g_autofree char *project_dir = NULL;
  g_autofree char *canonical = NULL;
  g_autofree char *db = NULL;
  g_autofree char *damage = NULL;
  g_autofree char *mark = NULL;

  write_many ("damaged-fts", 300);
  lode (&index, "--no-daemon", "index", "damaged-fts", NULL);
  g_assert_cmpint (index.status, ==, 0);
  project_dir = dup_project_dir ("damaged-fts", &canonical);
  db = g_build_filename (project_dir, "index.db", NULL);
  mark = g_strconcat (db, "-damaged", NULL);

  /* A search first: it reads the broken pages and says so, in Lode's words. */
  if (!test_garble_fts (db, FALSE))
    return;
  assert_search_explains ("damaged-fts", canonical);
  damage = dup_status_damage ("damaged-fts", canonical);
  g_clear_pointer (&damage, g_free);
  assert_rebuilt ("damaged-fts", 300, NULL);
  g_assert_cmpuint (count_kept (project_dir), ==, 1);
  assert_search_works ("damaged-fts");

  /* Status first: no search has marked it, status's own check finds it. */
  test_garble_fts (db, FALSE);
  g_assert_false (g_file_test (mark, G_FILE_TEST_EXISTS));
  damage = dup_status_damage ("damaged-fts", canonical);
  g_assert_nonnull (strstr (damage, "quick_check"));
  assert_search_explains ("damaged-fts", canonical);
  assert_rebuilt ("damaged-fts", 300, NULL);
  g_assert_cmpuint (count_kept (project_dir), ==, 2);

  /* Nothing before the index run, which changes no file: its check finds the damage. */
  test_garble_fts (db, FALSE);
  assert_rebuilt ("damaged-fts", 300, "quick_check");
  g_assert_cmpuint (count_kept (project_dir), ==, 3);
  assert_search_works ("damaged-fts");
  g_assert_false (g_file_test (mark, G_FILE_TEST_EXISTS));
}

/* An index cut at half its size (a crash, a full disk, a copy cut short): a read-only
 * status reports it and leaves the file as it is; a search explains it; the next index run
 * keeps it aside, whole as it was, and rebuilds. */
static void
test_truncated_index (void)
{
  g_auto(Run) index = { 0 };
  g_autofree char *project_dir = NULL;
  g_autofree char *canonical = NULL;
  g_autofree char *db = NULL;
  g_autofree char *wal = NULL;
  g_autofree char *damage = NULL;
  g_autoptr(GDir) dir = NULL;
  const char *name;
  GStatBuf st;
  goffset half;

  write_many ("truncated", 300);
  lode (&index, "--no-daemon", "index", "truncated", NULL);
  g_assert_cmpint (index.status, ==, 0);
  project_dir = dup_project_dir ("truncated", &canonical);
  db = g_build_filename (project_dir, "index.db", NULL);
  wal = g_strconcat (db, "-wal", NULL);

  /* The last connection folded the WAL into the file: all of the index is in it. */
  g_assert_false (g_file_test (wal, G_FILE_TEST_EXISTS));
  g_assert_cmpint (g_stat (db, &st), ==, 0);
  g_assert_cmpint (st.st_size, >, 16 * 4096);
  half = st.st_size / 2;
  test_truncate_file (db, half);

  damage = dup_status_damage ("truncated", canonical);
  g_assert_cmpint (g_stat (db, &st), ==, 0);
  g_assert_cmpint (st.st_size, ==, half);
  g_assert_cmpuint (count_kept (project_dir), ==, 0);

  assert_search_explains ("truncated", canonical);
  g_assert_cmpint (g_stat (db, &st), ==, 0);
  g_assert_cmpint (st.st_size, ==, half);

  assert_rebuilt ("truncated", 300, NULL);
  g_assert_cmpuint (count_kept (project_dir), ==, 1);
  dir = g_dir_open (project_dir, 0, NULL);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_prefix (name, "index.db.damaged-") && !g_str_has_suffix (name, "-wal"))
      {
        g_autofree char *kept = g_build_filename (project_dir, name, NULL);

        g_assert_cmpint (g_stat (kept, &st), ==, 0);
        g_assert_cmpint (st.st_size, ==, half);
      }
  assert_search_works ("truncated");
}

/* Indexed text holding U+001F made `--json` invalid: json-glib escapes control characters
 * below it but writes U+001F itself raw. */
static void
test_json_control_characters (void)
{
  g_autofree char *dir = g_build_filename (data_dir, "..", "controls", NULL);
  g_autofree char *file = g_build_filename (dir, "fields.txt", NULL);
  g_autoptr(GError) error = NULL;
  g_auto(Run) index = { 0 };
  g_auto(Run) search = { 0 };
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *snippet = NULL;
  JsonArray *results;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_file_set_contents (file, "unitsep field\x1fseparated\x01record\n", -1, &error);
  g_assert_no_error (error);

  lode (&index, "--no-daemon", "index", "--json", dir, NULL);
  g_assert_cmpint (index.status, ==, 0);
  lode (&search, "--no-daemon", "search", "--json", "-p", dir, "unitsep", NULL);
  g_assert_cmpint (search.status, ==, 0);

  /* Valid JSON has no raw control character; pretty printing adds only newlines. */
  for (const char *p = search.out; *p != '\0'; p++)
    if ((guchar) *p < 0x20 && *p != '\n')
      g_error ("raw control character 0x%02x in --json output: %s", *p, search.out);

  root = parse_json (search.out);
  results = json_object_get_array_member (json_node_get_object (root), "results");
  g_assert_cmpuint (json_array_get_length (results), ==, 1);
  snippet = g_strdup (json_object_get_string_member (json_array_get_object_element (results, 0),
                                                     "snippet"));
  g_assert_nonnull (strstr (snippet, "field\x1fseparated\x01record"));
}

/* `lode index /` (or the home directory) reads nothing without --yes. */
static void
test_whole_system (void)
{
  g_auto(Run) root = { 0 };
  g_auto(Run) home = { 0 };
  g_auto(Run) confirmed = { 0 };
  g_autofree char *home_dir = g_build_filename (data_dir, "..", "home", NULL);
  g_autofree char *canonical = NULL;
  const char *saved_home = g_getenv ("HOME");
  g_autofree char *saved = g_strdup (saved_home);

  lode (&root, "--no-daemon", "index", "/", NULL);
  g_assert_cmpint (root.status, ==, 1);
  g_assert_nonnull (strstr (root.err, "/ is the root of the file system"));
  g_assert_nonnull (strstr (root.err, "--yes"));

  /* The child's home directory is the one it sees in HOME. */
  g_assert_cmpint (g_mkdir_with_parents (home_dir, 0755), ==, 0);
  canonical = realpath (home_dir, NULL);
  g_setenv ("HOME", canonical, TRUE);
  lode (&home, "--no-daemon", "index", canonical, NULL);
  g_assert_cmpint (home.status, ==, 1);
  g_assert_nonnull (strstr (home.err, "home directory"));
  lode (&confirmed, "--no-daemon", "index", "--yes", canonical, NULL);
  g_assert_cmpint (confirmed.status, ==, 0);
  g_setenv ("HOME", saved, TRUE);
}

/* Runs `lode ARGS…` for at most @seconds, then ends it with SIGTERM (`lode watch` without
 * the daemon watches until it is told to stop). */
static void
lode_for (Run        *run,
          guint       seconds,
          const char *first,
          ...)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  va_list args;

  g_ptr_array_add (argv, g_strdup ("timeout"));
  g_ptr_array_add (argv, g_strdup ("--preserve-status"));
  g_ptr_array_add (argv, g_strdup_printf ("%u", seconds));
  g_ptr_array_add (argv, g_strdup (g_getenv ("LODE_CLI")));
  va_start (args, first);
  for (const char *arg = first; arg != NULL; arg = va_arg (args, const char *))
    g_ptr_array_add (argv, g_strdup (arg));
  va_end (args);
  g_ptr_array_add (argv, NULL);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                        G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_setenv (launcher, "LODE_DATA_DIR", data_dir, TRUE);
  g_subprocess_launcher_set_cwd (launcher, tree);
  communicate (launcher, argv, run);
}

/* `lode watch` of the home directory or / watches nothing without --yes. */
static void
test_watch_whole_system (void)
{
  g_auto(Run) home = { 0 };
  g_auto(Run) root = { 0 };
  g_auto(Run) confirmed = { 0 };
  g_autofree char *home_dir = g_build_filename (data_dir, "..", "watch-home", NULL);
  g_autofree char *canonical = NULL;
  g_autofree char *saved = g_strdup (g_getenv ("HOME"));

  g_assert_cmpint (g_mkdir_with_parents (home_dir, 0755), ==, 0);
  canonical = realpath (home_dir, NULL);
  g_setenv ("HOME", canonical, TRUE);

  lode_for (&home, 20, "--no-daemon", "watch", canonical, NULL);
  g_assert_cmpint (home.status, ==, 1);
  g_assert_nonnull (strstr (home.err, "home directory"));
  g_assert_nonnull (strstr (home.err, "--yes"));

  lode_for (&root, 20, "--no-daemon", "watch", "/", NULL);
  g_assert_cmpint (root.status, ==, 1);
  g_assert_nonnull (strstr (root.err, "/ is the root of the file system"));

  /* Confirmed, it watches until told to stop. */
  lode_for (&confirmed, 3, "--no-daemon", "watch", "--yes", canonical, NULL);
  g_assert_cmpint (confirmed.status, ==, 128 + SIGTERM);
  g_assert_nonnull (strstr (confirmed.err, "Watching in this process"));
  g_setenv ("HOME", saved, TRUE);
}

static void
limit_address_space (gpointer user_data)
{
  struct rlimit limit = { GPOINTER_TO_SIZE (user_data), GPOINTER_TO_SIZE (user_data) };

  setrlimit (RLIMIT_AS, &limit);
}

/* Under `ulimit -v` of 250–400 MiB, `lode index` died of a signal: glibc's per-thread malloc
 * arenas ran out of address space, and GLib's allocation-failure path overflowed its stack
 * (or tree-sitter aborted). It indexes, or says that memory ran out and exits with 1. */
static void
test_memory_limit (void)
{
  g_autofree char *source = g_build_filename (g_getenv ("LODE_SOURCE_ROOT"), "src", NULL);
  const gsize limits_mib[] = { 150, 250, 300, 400 };

#if defined(__SANITIZE_ADDRESS__)
  g_test_skip ("AddressSanitizer reserves terabytes of address space");
  return;
#endif

  for (guint i = 0; i < G_N_ELEMENTS (limits_mib); i++)
    {
      g_autoptr(GSubprocessLauncher) launcher = NULL;
      g_autoptr(GSubprocess) process = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *err = NULL;
      g_autofree char *dir = g_strdup_printf ("%s-limit-%zu", data_dir, limits_mib[i]);

      launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE |
                                            G_SUBPROCESS_FLAGS_STDERR_PIPE);
      g_subprocess_launcher_setenv (launcher, "LODE_DATA_DIR", dir, TRUE);
      g_subprocess_launcher_setenv (launcher, "LODE_EMBEDDING_PROVIDER", "none", TRUE);
      g_subprocess_launcher_set_child_setup (launcher, limit_address_space,
                                             GSIZE_TO_POINTER (limits_mib[i] << 20), NULL);
      process = g_subprocess_launcher_spawn (launcher, &error, "timeout", "-k", "5", "120",
                                             g_getenv ("LODE_CLI"), "--no-daemon", "index",
                                             source, NULL);
      g_assert_no_error (error);
      g_subprocess_communicate_utf8 (process, NULL, NULL, NULL, &err, &error);
      g_assert_no_error (error);
      g_test_message ("%zu MiB: wait status %d: %s", limits_mib[i],
                      g_subprocess_get_status (process), err);
      /* timeout passes the child's end on: 128 + N for a signal, 124 for a hang. */
      g_assert_true (g_subprocess_get_if_exited (process));
      if (g_subprocess_get_exit_status (process) != 0)
        {
          g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 1);
          g_assert_nonnull (strstr (err, "out of memory"));
        }
      test_remove_tree (dir);
    }
}

typedef struct
{
  GSubprocess *process;
  GMainLoop   *loop;
  gboolean     exited;
  gboolean     timed_out;
} SignalRun;

static gboolean
send_sigterm_cb (gpointer user_data)
{
  SignalRun *run = user_data;

  g_subprocess_send_signal (run->process, SIGTERM);
  return G_SOURCE_REMOVE;
}

static gboolean
watchdog_cb (gpointer user_data)
{
  SignalRun *run = user_data;

  run->timed_out = TRUE;
  g_main_loop_quit (run->loop);
  return G_SOURCE_REMOVE;
}

static void
exited_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  SignalRun *run = user_data;

  g_subprocess_wait_finish (G_SUBPROCESS (object), result, NULL);
  run->exited = TRUE;
  g_main_loop_quit (run->loop);
}

/* SIGTERM during a parse that takes half a minute (two megabytes of punctuation, with a
 * time budget that lets it run): `lode index` stops within seconds, not after the parse. */
static void
test_sigterm_during_parse (void)
{
  g_autofree char *dir = g_build_filename (data_dir, "..", "noise", NULL);
  g_autofree char *file = g_build_filename (dir, "noise.c", NULL);
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr(GRand) rand = g_rand_new_with_seed (1);
  g_autoptr(GString) noise = g_string_sized_new (2000000);
  g_autoptr(GError) error = NULL;
  static const char alphabet[] = "{}()[]<>;,=+*/&|!?:\"'#\n abcx0";
  SignalRun run = { NULL, loop, FALSE, FALSE };
  guint watchdog;

  for (guint i = 0; i < 2000000; i++)
    g_string_append_c (noise, alphabet[g_rand_int_range (rand, 0, sizeof alphabet - 1)]);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_file_set_contents (file, noise->str, noise->len, &error);
  g_assert_no_error (error);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE |
                                        G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  g_subprocess_launcher_setenv (launcher, "LODE_DATA_DIR", data_dir, TRUE);
  g_subprocess_launcher_setenv (launcher, "LODE_NO_DAEMON", "1", TRUE);
  g_subprocess_launcher_setenv (launcher, "LODE_EMBEDDING_PROVIDER", "none", TRUE);
  g_subprocess_launcher_setenv (launcher, "LODE_PARSE_TIME_BUDGET", "600000", TRUE);
  process = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("LODE_CLI"), "index", dir,
                                         NULL);
  g_assert_no_error (error);
  run.process = process;

  g_subprocess_wait_async (process, NULL, exited_cb, &run);
  g_timeout_add (1000, send_sigterm_cb, &run);
  watchdog = g_timeout_add_seconds (test_timeout_seconds (15), watchdog_cb, &run);
  g_main_loop_run (loop);

  if (run.timed_out)
    {
      g_subprocess_force_exit (process);
      g_error ("lode index was still parsing 14 s after SIGTERM");
    }
  g_source_remove (watchdog);
  g_assert_true (run.exited);
  /* Interrupted: the signal's exit status, what was indexed is kept. */
  g_assert_true (g_subprocess_get_if_exited (process));
  g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 128 + SIGTERM);
}

/* lode symbol: the symbol tools under one command, in markdown or as JSON. */
static void
test_symbol (void)
{
  g_autofree char *parent = g_path_get_dirname (tree);
  g_autofree char *root = g_build_filename (parent, "symbol-tree", NULL);
  g_autofree char *header = g_build_filename (root, "geometry.h", NULL);
  g_autofree char *source = g_build_filename (root, "geometry.c", NULL);
  g_autofree char *doc = g_build_filename (root, "README.md", NULL);
  g_auto(Run) index = { 0 };
  g_auto(Run) type = { 0 };
  g_auto(Run) function = { 0 };
  g_auto(Run) exports = { 0 };
  g_auto(Run) refs = { 0 };
  g_auto(Run) group = { 0 };
  g_auto(Run) unknown = { 0 };
  g_autoptr(JsonNode) root_node = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *object;
  JsonArray *array;

  g_assert_cmpint (g_mkdir_with_parents (root, 0755), ==, 0);
  g_file_set_contents (header,
                       "/* A point in the plane. */\n"
                       "struct point { int x; int y; };\n"
                       "int point_distance (const struct point *a, const struct point *b);\n",
                       -1, &error);
  g_assert_no_error (error);
  g_file_set_contents (source,
                       "#include \"geometry.h\"\n"
                       "int\n"
                       "point_distance (const struct point *a, const struct point *b)\n"
                       "{\n"
                       "  return (a->x - b->x) + (a->y - b->y);\n"
                       "}\n"
                       "/* point_distance in a comment is no reference. */\n"
                       "int twice (const struct point *p) { return 2 * point_distance (p, p); }\n",
                       -1, &error);
  g_assert_no_error (error);
  g_file_set_contents (doc, "Call point_distance.\n", -1, &error);
  g_assert_no_error (error);

  lode (&index, "index", root, NULL);
  g_assert_cmpint (index.status, ==, 0);

  lode (&type, "symbol", "type", "point", "-p", root, NULL);
  g_assert_cmpint (type.status, ==, 0);
  g_assert_nonnull (strstr (type.out, "point"));
  g_assert_nonnull (strstr (type.out, "A point in the plane."));

  lode (&function, "symbol", "function", "point_distance", "-p", root, "--json", NULL);
  object = json_object_get_object_member (run_json (&function, &root_node), "function");
  g_assert_cmpstr (json_object_get_string_member (object, "name"), ==, "point_distance");
  /* The definition, not the declaration in the header. */
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (object,
                                                                                 "location"),
                                                  "file_path"), ==, "geometry.c");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (object, "parameters")),
                    ==, 2);
  g_clear_pointer (&root_node, json_node_unref);

  lode (&exports, "symbol", "exports", "geometry.h", "-p", root, "--json", NULL);
  array = json_object_get_array_member (run_json (&exports, &root_node), "exports");
  g_assert_cmpuint (json_array_get_length (array), ==, 2);
  g_clear_pointer (&root_node, json_node_unref);

  /* Code only: the header, the definition and the call, not the comment or the README. */
  lode (&refs, "symbol", "refs", "point_distance", "-p", root, "--json", NULL);
  object = run_json (&refs, &root_node);
  g_assert_cmpint (json_object_get_int_member (object, "total"), ==, 3);
  g_clear_pointer (&root_node, json_node_unref);

  lode (&group, "symbol", "--help", NULL);
  g_assert_cmpint (group.status, ==, 0);
  g_assert_nonnull (strstr (group.out, "Usage: lode symbol ACTION"));
  g_assert_nonnull (strstr (group.out, "refs"));
  lode (&unknown, "symbol", "frobnicate", NULL);
  g_assert_cmpint (unknown.status, ==, 2);
  g_assert_nonnull (strstr (unknown.err, "unknown symbol action “frobnicate”"));
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return g_strcmp0 (*(const char **) a, *(const char **) b);
}

/* The files of `lode search --json` results, sorted and joined by spaces. */
static char *
result_files (const char *json)
{
  g_autoptr(JsonNode) root = parse_json (json);
  JsonArray *results = json_object_get_array_member (json_node_get_object (root), "results");
  g_autoptr(GPtrArray) files = g_ptr_array_new ();

  for (guint i = 0; i < json_array_get_length (results); i++)
    {
      const char *path = json_object_get_string_member (json_array_get_object_element (results,
                                                                                        i),
                                                        "path");

      if (!g_ptr_array_find_with_equal_func (files, path, g_str_equal, NULL))
        g_ptr_array_add (files, (char *) path);
    }
  g_ptr_array_sort (files, compare_strings);
  g_ptr_array_add (files, NULL);
  return g_strjoinv (" ", (char **) files->pdata);
}

/* `lode search --json -p PROJECT widget`: the files it finds, in the store LODE_STORE names. */
static char *
search_files (const char *project)
{
  g_auto(Run) run = { 0 };

  lode (&run, "search", "-p", project, "--mode", "lexical", "--json", "widget", NULL);
  g_assert_cmpint (run.status, ==, 0);
  return result_files (run.out);
}

/* `lode status` in both forms: the store it names, and the files it counts. */
static void
assert_status (const char *project,
               const char *store,
               gint64      files)
{
  g_auto(Run) text = { 0 };
  g_auto(Run) json = { 0 };
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *line = g_strdup_printf ("- Store: %s\n", store);
  JsonObject *object;

  lode (&text, "status", project, NULL);
  g_assert_cmpint (text.status, ==, 0);
  g_assert_nonnull (strstr (text.out, line));
  g_assert_nonnull (strstr (text.out, "- State: ready"));

  lode (&json, "status", project, "--json", NULL);
  g_assert_cmpint (json.status, ==, 0);
  root = parse_json (json.out);
  object = json_node_get_object (root);
  g_assert_cmpstr (json_object_get_string_member (object, "store"), ==, store);
  g_assert_cmpstr (json_object_get_string_member (object, "state"), ==, "ready");
  g_assert_cmpint (json_object_get_int_member (object, "files"), ==, files);
}

/* `lode migrate --to qdrant|sqlite` against the loopback Qdrant server: an index copied into
 * Qdrant answers `LODE_STORE=qdrant lode search` with the same files and `lode status` names
 * the store; updated in Qdrant and copied back, SQLite finds the new file too. Failures say
 * what failed, exit 1 (2 for a usage error) and lose nothing. */
static void
test_migrate (void)
{
  g_autoptr(QdrantServer) server = qdrant_server_new_loopback (NULL);
  /* Beside the shared tree, which other cases index as a whole. */
  g_autofree char *base = g_path_get_dirname (tree);
  g_autofree char *project = g_build_filename (base, "migrate", NULL);
  g_autofree char *empty = g_build_filename (base, "migrate-empty", NULL);
  g_autofree char *copied = NULL;
  g_autofree char *sqlite_files = NULL;
  g_autofree char *qdrant_files = NULL;
  g_autofree char *back_files = NULL;
  g_autofree char *stale_files = NULL;
  g_autofree char *after_failure = NULL;
  g_autoptr(JsonNode) state = NULL;
  guint queries;

  test_write_file (tree, "../migrate/src/widget.c",
                   "int\nwidget_resize (struct widget *w, int width)\n{\n  w->width = width;\n"
                   "  return 0;\n}\n");
  test_write_file (tree, "../migrate/ui/widget_view.py",
                   "def draw_widget(canvas, widget):\n    \"\"\"Draw a widget.\"\"\"\n"
                   "    return canvas.rect(widget.x, widget.y)\n");
  test_write_file (tree, "../migrate/web/widget.js",
                   "export function mountWidget (root, widget) {\n  root.append (widget);\n}\n");
  test_write_file (tree, "../migrate/README.md", "# Gadgets\n\nNothing to see.\n");
  test_write_file (tree, "../migrate-empty/main.c", "int main (void) { return 0; }\n");

  {
    g_auto(Run) index = { 0 };

    lode (&index, "index", project, NULL);
    g_assert_cmpint (index.status, ==, 0);
  }
  sqlite_files = search_files (project);
  g_assert_cmpstr (sqlite_files, ==, "src/widget.c ui/widget_view.py web/widget.js");
  assert_status (project, "sqlite", 4);

  /* Usage errors, and a tree with no index at all. */
  {
    g_auto(Run) no_store = { 0 };
    g_auto(Run) bad_store = { 0 };
    g_auto(Run) not_indexed = { 0 };

    lode (&no_store, "migrate", project, NULL);
    g_assert_cmpint (no_store.status, ==, 2);
    g_assert_nonnull (strstr (no_store.err, "Missing option --to"));
    lode (&bad_store, "migrate", "--to", "postgres", project, NULL);
    g_assert_cmpint (bad_store.status, ==, 2);
    g_assert_nonnull (strstr (bad_store.err, "sqlite, qdrant"));
    lode (&not_indexed, "migrate", "--to", "qdrant", empty, NULL);
    g_assert_cmpint (not_indexed.status, ==, 1);
    g_assert_cmpstr (not_indexed.out, ==, "");
    g_assert_nonnull (strstr (not_indexed.err, "migrate-empty is not indexed"));
  }

  /* Qdrant unreachable (nothing listens on port 1): the error names the server, and the
   * SQLite index still answers. */
  {
    g_auto(Run) unreachable = { 0 };

    g_setenv ("LODE_QDRANT_URL", "http://127.0.0.1:1", TRUE);
    lode (&unreachable, "migrate", "--to", "qdrant", project, NULL);
    g_assert_cmpint (unreachable.status, ==, 1);
    g_assert_cmpstr (unreachable.out, ==, "");
    g_assert_nonnull (strstr (unreachable.err, "Cannot copy the index of"));
    g_assert_nonnull (strstr (unreachable.err, "Qdrant at http://127.0.0.1:1 did not answer"));
    after_failure = search_files (project);
    g_assert_cmpstr (after_failure, ==, sqlite_files);
  }

  g_setenv ("LODE_QDRANT_URL", server->url, TRUE);
  {
    g_auto(Run) migrate = { 0 };

    lode (&migrate, "migrate", "--to", "qdrant", project, NULL);
    g_assert_cmpint (migrate.status, ==, 0);
    g_test_message ("%s", migrate.out);
    copied = g_strdup_printf ("Copied the sqlite index of `%s` into qdrant: 4 files, ", project);
    g_assert_nonnull (strstr (migrate.out, copied));
    g_assert_nonnull (strstr (migrate.out, "LODE_STORE=qdrant"));
  }
  state = qdrant_server_dup_state (server);
  g_assert_cmpuint (json_object_get_size (json_object_get_object_member (
                      json_node_get_object (state), "collections")), >, 0);

  /* The Qdrant store answers, and says so. */
  g_setenv ("LODE_STORE", "qdrant", TRUE);
  queries = qdrant_server_count_requests (server, "POST", "/points/query", NULL);
  qdrant_files = search_files (project);
  g_assert_cmpstr (qdrant_files, ==, sqlite_files);
  g_assert_cmpuint (qdrant_server_count_requests (server, "POST", "/points/query", NULL), >,
                    queries);
  assert_status (project, "qdrant", 4);

  /* A file indexed into Qdrant only, then the index copied back: SQLite now finds it. */
  test_write_file (tree, "../migrate/web/widget_list.js",
                   "export function listWidgets (root) {\n  return root.widgets;\n}\n");
  {
    g_auto(Run) update = { 0 };
    g_auto(Run) migrate = { 0 };

    lode (&update, "update", project, NULL);
    g_assert_cmpint (update.status, ==, 0);
    g_setenv ("LODE_STORE", "sqlite", TRUE);
    stale_files = search_files (project);
    g_assert_cmpstr (stale_files, ==, sqlite_files);

    lode (&migrate, "migrate", "--to", "sqlite", project, NULL);
    g_assert_cmpint (migrate.status, ==, 0);
    g_clear_pointer (&copied, g_free);
    copied = g_strdup_printf ("Copied the qdrant index of `%s` into sqlite: 5 files, ", project);
    g_assert_nonnull (strstr (migrate.out, copied));
  }
  back_files = search_files (project);
  g_assert_cmpstr (back_files, ==, "src/widget.c ui/widget_view.py web/widget.js "
                                   "web/widget_list.js");
  assert_status (project, "sqlite", 5);

  /* A tree indexed straight into Qdrant has nothing to copy there. */
  {
    g_auto(Run) index = { 0 };
    g_auto(Run) already = { 0 };

    g_setenv ("LODE_STORE", "qdrant", TRUE);
    lode (&index, "index", empty, NULL);
    g_assert_cmpint (index.status, ==, 0);
    lode (&already, "migrate", "--to", "qdrant", empty, NULL);
    g_assert_cmpint (already.status, ==, 1);
    g_assert_nonnull (strstr (already.err, "migrate-empty has no sqlite index to copy: its "
                                           "index is already in qdrant"));
  }

  qdrant_server_assert_valid (server);
  g_unsetenv ("LODE_STORE");
  g_unsetenv ("LODE_QDRANT_URL");
}

/* lode memory add|list|remove: the memory tools, on the project of the working directory. */
static void
test_memory (void)
{
  g_autofree char *dir = g_build_filename (tree, ".lode", NULL);
  g_auto(Run) add = { 0 };
  g_auto(Run) again = { 0 };
  g_auto(Run) missing = { 0 };
  g_auto(Run) list = { 0 };
  g_auto(Run) none = { 0 };
  g_auto(Run) removed = { 0 };
  g_auto(Run) gone = { 0 };
  g_auto(Run) malformed = { 0 };
  g_autoptr(JsonNode) root = NULL;
  JsonObject *memory;
  const char *id;

  lode (&add, "memory", "add", "--type", "decision", "--category", "dependencies", "--reason",
        "It retries and logs", "Use", "the", "http", "wrapper", NULL);
  g_assert_cmpint (add.status, ==, 0);
  g_assert_true (g_str_has_prefix (add.out, "Recorded in .lode/memory.json"));
  lode (&again, "memory", "add", "-t", "gotcha", "-c", "tooling", "-r", "x",
        "use the HTTP wrapper.", NULL);
  g_assert_cmpint (again.status, ==, 0);
  g_assert_true (g_str_has_prefix (again.out, "Not recorded"));
  lode (&missing, "memory", "add", "--category", "tooling", "--reason", "x", "Rule", NULL);
  g_assert_cmpint (missing.status, ==, 2);
  g_assert_nonnull (strstr (missing.err, "--type"));

  lode (&list, "memory", "list", "--category", "dependencies", "--json", NULL);
  g_assert_cmpint (list.status, ==, 0);
  root = parse_json (list.out);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (root), "total"), ==, 1);
  memory = json_array_get_object_element (json_object_get_array_member (json_node_get_object (root),
                                                                        "memories"), 0);
  g_assert_cmpstr (json_object_get_string_member (memory, "memory"), ==, "Use the http wrapper");
  g_assert_cmpstr (json_object_get_string_member (memory, "source"), ==, "user");
  id = json_object_get_string_member (memory, "id");
  lode (&none, "memory", "list", "--type", "failure", NULL);
  g_assert_cmpint (none.status, ==, 0);
  g_assert_true (g_str_has_prefix (none.out, "## 0 memories"));

  lode (&removed, "memory", "remove", id, NULL);
  g_assert_cmpint (removed.status, ==, 0);
  lode (&gone, "memory", "remove", id, NULL);
  g_assert_cmpint (gone.status, ==, 1);
  g_assert_nonnull (strstr (gone.err, "No memory"));

  test_write_file (tree, ".lode/memory.json", "{\"broken\": ");
  lode (&malformed, "memory", "list", NULL);
  g_assert_cmpint (malformed.status, ==, 1);
  g_assert_nonnull (strstr (malformed.err, "not valid JSON"));
  test_remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autofree char *base = NULL;
  g_autofree char *canonical = NULL;
  int ret;

  test_kill_descendants_at_exit ();
  /* Isolated XDG dirs hide the desktop schemas the GNOME proxy resolver reads. */
  g_setenv ("GIO_USE_PROXY_RESOLVER", "dummy", TRUE);
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  base = g_dir_make_tmp ("lode-cli-XXXXXX", &error);
  g_assert_no_error (error);
  /* The CLI reports canonical paths; resolve /tmp links here too. */
  canonical = realpath (base, NULL);
  data_dir = g_build_filename (canonical, "data", NULL);
  tree = g_build_filename (canonical, "tree", NULL);
  g_assert_cmpint (g_mkdir_with_parents (tree, 0755), ==, 0);

  g_test_add_func ("/lode/cli/help", test_help);
  g_test_add_func ("/lode/cli/errors", test_errors);
  g_test_add_func ("/lode/cli/french", test_french);
  g_test_add_func ("/lode/cli/index-search-status", test_index_search_status);
  g_test_add_func ("/lode/cli/modes", test_modes);
  g_test_add_func ("/lode/cli/model-and-secret", test_model_and_secret);
  g_test_add_func ("/lode/cli/graph", test_graph);
  g_test_add_func ("/lode/cli/embed", test_embed);
  g_test_add_func ("/lode/cli/signals", test_signals);
  g_test_add_func ("/lode/cli/one-writer", test_one_writer);
  g_test_add_func ("/lode/cli/damaged-index", test_damaged_index);
  g_test_add_func ("/lode/cli/damaged-fts", test_damaged_fts);
  g_test_add_func ("/lode/cli/truncated-index", test_truncated_index);
  g_test_add_func ("/lode/cli/json-control-characters", test_json_control_characters);
  g_test_add_func ("/lode/cli/sigterm-during-parse", test_sigterm_during_parse);
  g_test_add_func ("/lode/cli/whole-system", test_whole_system);
  g_test_add_func ("/lode/cli/watch-whole-system", test_watch_whole_system);
  g_test_add_func ("/lode/cli/memory-limit", test_memory_limit);
  g_test_add_func ("/lode/cli/symbol", test_symbol);
  g_test_add_func ("/lode/cli/migrate", test_migrate);
  g_test_add_func ("/lode/cli/memory", test_memory);

  ret = g_test_run ();
  test_remove_tree (canonical);
  g_free (data_dir);
  g_free (tree);
  return ret;
}
