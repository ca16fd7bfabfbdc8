/* test-search.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "lode.h"

/*
 * End-to-end search tests: a real tree goes through discovery, chunking, the store and the
 * ranking, and we check what a user would check — the first hits.
 */

typedef struct
{
  LodeEngine  *engine;
  LodeProject *project;
  char        *root;
} SearchFixture;

static void
fixture_index (SearchFixture *fixture,
               const char    *root)
{
  g_autoptr(LodeConfig) config = lode_config_new_default ();
  g_autoptr(LodeIndexReport) report = NULL;
  g_autoptr(GError) error = NULL;

  /* G_TEST_OPTION_ISOLATE_DIRS gives each test a private, self-cleaning cache dir. */
  g_free (config->data_dir);
  config->data_dir = g_build_filename (g_get_user_cache_dir (), "lode-test-data", NULL);

  fixture->root = g_strdup (root);
  fixture->engine = lode_engine_new (config);
  fixture->project = lode_engine_open_project (fixture->engine, root, FALSE, &error);
  g_assert_no_error (error);
  g_assert_nonnull (fixture->project);

  report = lode_project_index (fixture->project, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (report);
  g_assert_cmpuint (report->n_files, >, 0);
}

static void
corpus_setup (SearchFixture *fixture,
              gconstpointer  data)
{
  fixture_index (fixture,
                 g_test_get_filename (G_TEST_DIST, "liblode", "fixtures", "corpus", NULL));
}

static void
repository_setup (SearchFixture *fixture,
                  gconstpointer  data)
{
  const char *root = g_getenv ("LODE_SOURCE_ROOT");

  /* Set by tests/meson.build; running the binary by hand needs it too. */
  g_assert_nonnull (root);
  fixture_index (fixture, root);
}

static void
search_teardown (SearchFixture *fixture,
                 gconstpointer  data)
{
  g_clear_object (&fixture->project);
  g_clear_object (&fixture->engine);
  g_clear_pointer (&fixture->root, g_free);
}

static GPtrArray *
search (SearchFixture *fixture,
        const char    *query,
        guint          limit,
        const char    *language,
        const char    *path_glob,
        gboolean       one_per_file)
{
  LodeSearchOptions options = LODE_SEARCH_OPTIONS_INIT;
  g_autoptr(GPtrArray) results = NULL;
  g_autoptr(GError) error = NULL;

  options.query = query;
  options.limit = limit;
  options.language = language;
  options.path_glob = path_glob;
  options.one_per_file = one_per_file;

  results = lode_project_search (fixture->project, &options, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (results);
  g_assert_cmpuint (results->len, <=, limit);

  for (guint i = 0; i < results->len; i++)
    {
      LodeSearchResult *result = g_ptr_array_index (results, i);

      g_assert_nonnull (result->path);
      g_assert_nonnull (result->language);
      g_assert_nonnull (result->snippet);
      g_assert_cmpuint (result->start_line, >=, 1);
      g_assert_cmpuint (result->end_line, >=, result->start_line);
      if (i > 0)
        g_assert_cmpfloat (result->score, <=,
                           ((LodeSearchResult *) g_ptr_array_index (results, i - 1))->score);
    }

  return g_steal_pointer (&results);
}

static char *
describe_results (GPtrArray *results,
                  guint      n)
{
  GString *out = g_string_new (NULL);

  if (results->len == 0)
    g_string_append (out, "(no results)");

  for (guint i = 0; i < results->len && i < n; i++)
    {
      LodeSearchResult *result = g_ptr_array_index (results, i);

      g_string_append_printf (out, "%s%u. %s:%u-%u %s %s (%.3f)", i > 0 ? "; " : "", i + 1,
                              result->path, result->start_line, result->end_line,
                              result->kind ? result->kind : "-",
                              result->symbol ? result->symbol : "-", result->score);
    }

  return g_string_free (out, FALSE);
}

/* Own functions ------------------------------------------------------------------------------ */

/*
 * The oracle for "where is this function defined" must not share code with the chunker, or a
 * chunker bug would hide itself. It relies on our house style instead: in a definition the
 * function name starts at column 0 and is followed by " (", the return type being on the
 * line above; the parameter list is then followed by "{". Comments, string literals and
 * macro bodies are skipped.
 */

typedef struct
{
  char  *path;   /* relative to the repository root */
  guint  line;   /* 1-based line of the function name */
} Definition;

static void
definition_free (Definition *definition)
{
  g_free (definition->path);
  g_free (definition);
}

static gboolean
is_ident_start (char c)
{
  return (c >= 'a' && c <= 'z') || c == '_';
}

static gboolean
is_ident_char (char c)
{
  return is_ident_start (c) || (c >= '0' && c <= '9');
}

/* Returns the name defined by the line starting at @start, or %NULL. */
static char *
definition_at (const char *text,
               gsize       len,
               gsize       start)
{
  static const char * const keywords[] = {
    "if", "for", "while", "switch", "return", "sizeof", "do", "case", "else",
  };
  gsize name_end = start;
  gsize i;
  int depth = 0;

  if (!is_ident_start (text[start]))
    return NULL;
  while (name_end < len && is_ident_char (text[name_end]))
    name_end++;
  if (name_end + 1 >= len || text[name_end] != ' ' || text[name_end + 1] != '(')
    return NULL;

  for (i = name_end + 1; i < len; i++)
    {
      if (text[i] == '(')
        depth++;
      else if (text[i] == ')' && --depth == 0)
        break;
      else if (text[i] == ';' || text[i] == '{')
        return NULL;
    }
  if (i >= len)
    return NULL;
  for (i++; i < len && g_ascii_isspace (text[i]); i++)
    ;
  if (i >= len || text[i] != '{')
    return NULL;

  for (guint k = 0; k < G_N_ELEMENTS (keywords); k++)
    if (strlen (keywords[k]) == name_end - start &&
        strncmp (text + start, keywords[k], name_end - start) == 0)
      return NULL;

  return g_strndup (text + start, name_end - start);
}

static void
add_definition (GHashTable *definitions,
                const char *name,
                const char *rel_path,
                guint       line)
{
  GPtrArray *list = g_hash_table_lookup (definitions, name);
  Definition *definition = g_new0 (Definition, 1);

  if (list == NULL)
    {
      list = g_ptr_array_new_with_free_func ((GDestroyNotify) definition_free);
      g_hash_table_insert (definitions, g_strdup (name), list);
    }
  definition->path = g_strdup (rel_path);
  definition->line = line;
  g_ptr_array_add (list, definition);
}

/* The functions a Python file defines (`def name(`, at any depth): the bench scripts define
 * names that src/'s functions share, and a search may rightly answer with them. */
static void
scan_python_source (const char *text,
                    const char *rel_path,
                    GHashTable *definitions)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *p = lines[i] + strspn (lines[i], " \t");
      gsize n;

      if (g_str_has_prefix (p, "async def "))
        p += strlen ("async ");
      if (!g_str_has_prefix (p, "def "))
        continue;
      p += strlen ("def ");
      n = strspn (p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
      if (n > 0 && p[n] == '(')
        {
          g_autofree char *name = g_strndup (p, n);

          add_definition (definitions, name, rel_path, i + 1);
        }
    }
}

static void
scan_c_source (const char *text,
               gsize       len,
               const char *rel_path,
               GHashTable *definitions)
{
  enum { CODE, BLOCK_COMMENT, LINE_COMMENT, STRING, CHAR } state = CODE;
  gboolean in_directive = FALSE;
  guint line = 1;
  gsize i = 0;

  while (i < len)
    {
      gboolean continued;

      if (state == CODE && !in_directive)
        {
          g_autofree char *name = definition_at (text, len, i);
          gsize j;

          if (name != NULL)
            {
              add_definition (definitions, name, rel_path, line);
            }

          for (j = i; j < len && (text[j] == ' ' || text[j] == '\t'); j++)
            ;
          in_directive = j < len && text[j] == '#';
        }

      for (; i < len && text[i] != '\n'; i++)
        {
          char c = text[i];
          char next = i + 1 < len ? text[i + 1] : '\0';

          switch (state)
            {
            case CODE:
              if (c == '/' && (next == '*' || next == '/'))
                {
                  state = next == '*' ? BLOCK_COMMENT : LINE_COMMENT;
                  i++;
                }
              else if (c == '"')
                state = STRING;
              else if (c == '\'')
                state = CHAR;
              break;
            case BLOCK_COMMENT:
              if (c == '*' && next == '/')
                {
                  state = CODE;
                  i++;
                }
              break;
            case STRING:
            case CHAR:
              if (c == '\\' && next != '\n')
                i++;
              else if (c == (state == STRING ? '"' : '\''))
                state = CODE;
              break;
            case LINE_COMMENT:
            default:
              break;
            }
        }

      continued = i > 0 && text[i - 1] == '\\';
      if (!continued)
        {
          in_directive = FALSE;
          if (state == LINE_COMMENT || state == STRING || state == CHAR)
            state = CODE;
        }
      i++;
      line++;
    }
}

static void
collect_definitions (const char *root,
                     const char *rel_dir,
                     GHashTable *definitions)
{
  g_autofree char *dir_path = g_build_filename (root, rel_dir, NULL);
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GError) error = NULL;
  const char *name;

  dir = g_dir_open (dir_path, 0, &error);
  g_assert_no_error (error);

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *rel_path = g_build_filename (rel_dir, name, NULL);
      g_autofree char *path = g_build_filename (root, rel_path, NULL);

      if (name[0] == '.' || g_str_has_prefix (name, "_build"))
        continue;

      if (g_file_test (path, G_FILE_TEST_IS_SYMLINK))
        continue;

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        {
          collect_definitions (root, rel_path, definitions);
        }
      else if (g_str_has_suffix (name, ".c"))
        {
          g_autofree char *contents = NULL;
          gsize len;

          g_file_get_contents (path, &contents, &len, &error);
          g_assert_no_error (error);
          scan_c_source (contents, len, rel_path, definitions);
        }
      else if (g_str_has_suffix (name, ".py"))
        {
          g_autofree char *contents = NULL;

          g_file_get_contents (path, &contents, NULL, &error);
          g_assert_no_error (error);
          scan_python_source (contents, rel_path, definitions);
        }
    }
}

static gboolean
result_is_definition (LodeSearchResult *result,
                      GPtrArray        *candidates)
{
  for (guint i = 0; i < candidates->len; i++)
    {
      Definition *definition = g_ptr_array_index (candidates, i);

      if (g_strcmp0 (result->path, definition->path) == 0 &&
          result->start_line <= definition->line && definition->line <= result->end_line)
        return TRUE;
    }

  return FALSE;
}

static gboolean
defined_under_src (GPtrArray *candidates)
{
  for (guint i = 0; i < candidates->len; i++)
    if (g_str_has_prefix (((Definition *) g_ptr_array_index (candidates, i))->path, "src/"))
      return TRUE;

  return FALSE;
}

static void
test_own_functions (SearchFixture *fixture,
                    gconstpointer  data)
{
  g_autoptr(GHashTable) definitions = NULL;
  static const char *const other_dirs[] = { "tests", "bench", "gtk-ui" };
  GList *names;
  guint n_checked = 0;
  guint n_failed = 0;

  definitions = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                       (GDestroyNotify) g_ptr_array_unref);
  /* Definitions anywhere in the tree count as correct answers (several test programs define
   * main, for instance), but only the functions of src/ are looked up. */
  collect_definitions (fixture->root, "src", definitions);
  for (guint i = 0; i < G_N_ELEMENTS (other_dirs); i++)
    {
      g_autofree char *dir = g_build_filename (fixture->root, other_dirs[i], NULL);

      if (g_file_test (dir, G_FILE_TEST_IS_DIR))
        collect_definitions (fixture->root, other_dirs[i], definitions);
    }

  /* Sorted, so that failure messages come in a stable order. */
  names = g_list_sort (g_hash_table_get_keys (definitions), (GCompareFunc) strcmp);

  for (const GList *l = names; l != NULL; l = l->next)
    {
      const char *name = l->data;
      GPtrArray *candidates = g_hash_table_lookup (definitions, name);
      g_autoptr(GPtrArray) results = NULL;

      if (!defined_under_src (candidates))
        continue;

      n_checked++;
      results = search (fixture, name, 3, NULL, NULL, FALSE);
      if (results->len == 0 || !result_is_definition (g_ptr_array_index (results, 0), candidates))
        {
          Definition *expected = g_ptr_array_index (candidates, 0);
          g_autofree char *got = describe_results (results, 3);

          n_failed++;
          g_test_message ("%s: expected %s:%u, got %s", name, expected->path, expected->line, got);
        }
    }

  g_list_free (names);

  g_test_message ("%u of %u functions found first", n_checked - n_failed, n_checked);
  /* Guards against an oracle that silently stops finding anything. */
  g_assert_cmpuint (n_checked, >=, 50);
  g_assert_cmpuint (n_failed, ==, 0);
}

/* Natural language ----------------------------------------------------------------------------- */

typedef struct
{
  const char *query;
  const char *expected;
} NaturalQuery;

/* Phrased the way people ask, not with the identifiers of the expected file. */
static const NaturalQuery natural_queries[] = {
  { "where do we retry failed http requests", "services/http/retry.py" },
  { "evict the least recently used entry when the cache is full", "internal/cache/lru.go" },
  { "check the signature and expiry of an access token", "crates/auth/src/jwt.rs" },
  { "split a comma separated line with quoted fields",
    "src/main/java/com/example/csv/CsvReader.java" },
  { "limit how many requests a client can make per second",
    "web/src/middleware/rateLimiter.ts" },
  { "how are passwords hashed", "app/Security/PasswordHasher.php" },
  { "render markdown headings and links as html", "lib/markdown/renderer.rb" },
  { "show a timestamp as minutes ago or yesterday",
    "android/app/src/main/kotlin/com/example/util/RelativeTime.kt" },
  { "resize uploaded photos into small previews", "services/media/thumbnails.py" },
  { "is this email address valid", "web/src/validation/email.js" },
  { "environment variables override values from the config file", "internal/config/config.go" },
  { "run jobs on a fixed number of worker threads", "native/worker_pool.c" },
  { "autocomplete search terms by prefix", "web/src/search/trie.ts" },
  { "find the fastest route between two points on the road network",
    "src/main/java/com/example/routing/ShortestPath.java" },
  { "detect dead websocket connections with ping and pong", "web/src/realtime/keepalive.js" },
  { "build a select query with where conditions and parameters", "Data/SqlBuilder.cs" },
  { "debounce file change events before rebuilding", "crates/devserver/src/watch.rs" },
  { "convert miles to kilometers and fahrenheit to celsius",
    "ios/Sources/Units/UnitConverter.swift" },
  { "round currency amounts to cents", "services/billing/money.py" },
  { "dispatch the most urgent task first", "internal/scheduler/priority_queue.go" },
  { "compress a large file with gzip without reading it all into memory", "native/gzip_stream.c" },
  { "parse command line options and print usage help", "scripts/release.sh" },
  { "subscribe to events and publish them to listeners", "game/events/event_bus.lua" },
  { "fetch all pages of a paginated api listing", "web/src/api/paginate.ts" },
  { "when does a cron job run next", "lib/scheduling/cron.rb" },
  { "make a url friendly slug from an article title", "app/Support/Slugger.php" },
  { "detect when the device loses internet connectivity",
    "ios/Sources/Network/ConnectivityMonitor.swift" },
  { "stop calling a payment provider that keeps failing", "Services/CircuitBreaker.cs" },
  /* Fewer words in common with the code. */
  { "which algorithm finds the shortest path",
    "src/main/java/com/example/routing/ShortestPath.java" },
  { "reject tokens signed with alg none", "crates/auth/src/jwt.rs" },
  { "split a bill into equal shares without losing a cent", "services/billing/money.py" },
  { "rotate phone photos using exif orientation", "services/media/thumbnails.py" },
  { "suggest a fix when someone mistypes gmail", "web/src/validation/email.js" },
  { "strip accents from titles", "app/Support/Slugger.php" },
  { "keep memory flat when compressing huge logs", "native/gzip_stream.c" },
  { "handlers with a higher priority run first", "game/events/event_bus.lua" },
};

static void
test_natural_language (SearchFixture *fixture,
                       gconstpointer  data)
{
  guint n_failed = 0;
  guint n_first = 0;

  G_STATIC_ASSERT (G_N_ELEMENTS (natural_queries) >= 20);

  for (guint i = 0; i < G_N_ELEMENTS (natural_queries); i++)
    {
      const NaturalQuery *q = &natural_queries[i];
      g_autofree char *expected_path = g_build_filename (fixture->root, q->expected, NULL);
      g_autoptr(GPtrArray) results = NULL;
      guint rank = 0;

      /* A typo in the table must not pass as a ranking failure, nor the other way round. */
      g_assert_true (g_file_test (expected_path, G_FILE_TEST_IS_REGULAR));

      results = search (fixture, q->query, 3, NULL, NULL, TRUE);
      for (guint j = 0; j < results->len && rank == 0; j++)
        if (g_strcmp0 (((LodeSearchResult *) g_ptr_array_index (results, j))->path,
                       q->expected) == 0)
          rank = j + 1;

      if (rank == 1)
        n_first++;
      if (rank == 0)
        {
          g_autofree char *got = describe_results (results, 3);

          n_failed++;
          g_test_message ("\"%s\": expected %s in the top 3, got %s", q->query, q->expected, got);
        }
    }

  g_test_message ("%u of %u natural-language queries found their file in the top 3, %u first",
                  (guint) G_N_ELEMENTS (natural_queries) - n_failed,
                  (guint) G_N_ELEMENTS (natural_queries), n_first);
  g_assert_cmpuint (n_failed, ==, 0);
}

/* Filters ------------------------------------------------------------------------------------- */

static guint
count_languages (GPtrArray *results)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < results->len; i++)
    g_hash_table_add (seen, ((LodeSearchResult *) g_ptr_array_index (results, i))->language);

  return g_hash_table_size (seen);
}

static void
test_filters (SearchFixture *fixture,
              gconstpointer  data)
{
  g_autoptr(GPtrArray) all = NULL;
  g_autoptr(GPtrArray) go_only = NULL;
  g_autoptr(GPtrArray) web_only = NULL;
  g_autoptr(GPtrArray) go_files = NULL;
  g_autoptr(GPtrArray) billing_python = NULL;
  g_autoptr(GPtrArray) none = NULL;
  g_autoptr(GPtrArray) one = NULL;
  g_autoptr(GPtrArray) four = NULL;
  g_autoptr(GPtrArray) per_file = NULL;
  g_autoptr(GHashTable) paths = g_hash_table_new (g_str_hash, g_str_equal);

  /* Unfiltered, "error" is found in many languages, so each filter below has work to do. */
  all = search (fixture, "error", 50, NULL, NULL, FALSE);
  g_assert_cmpuint (count_languages (all), >=, 3);

  go_only = search (fixture, "error", 50, "go", NULL, FALSE);
  g_assert_cmpuint (go_only->len, >, 0);
  for (guint i = 0; i < go_only->len; i++)
    {
      LodeSearchResult *result = g_ptr_array_index (go_only, i);

      g_assert_cmpstr (result->language, ==, "go");
      g_assert_true (g_str_has_suffix (result->path, ".go"));
    }

  web_only = search (fixture, "error", 50, NULL, "web/**", FALSE);
  g_assert_cmpuint (web_only->len, >, 0);
  for (guint i = 0; i < web_only->len; i++)
    g_assert_true (g_str_has_prefix (((LodeSearchResult *) g_ptr_array_index (web_only, i))->path,
                                     "web/"));

  go_files = search (fixture, "error", 50, NULL, "**/*.go", FALSE);
  g_assert_cmpuint (go_files->len, >, 0);
  for (guint i = 0; i < go_files->len; i++)
    g_assert_true (g_str_has_suffix (((LodeSearchResult *) g_ptr_array_index (go_files, i))->path,
                                     ".go"));

  /* Both filters at once: the intersection. */
  billing_python = search (fixture, "currency", 50, "python", "services/billing/**", FALSE);
  g_assert_cmpuint (billing_python->len, >, 0);
  for (guint i = 0; i < billing_python->len; i++)
    {
      LodeSearchResult *result = g_ptr_array_index (billing_python, i);

      g_assert_cmpstr (result->language, ==, "python");
      g_assert_true (g_str_has_prefix (result->path, "services/billing/"));
    }

  /* A language with no files in the corpus is an empty answer, not an error. */
  none = search (fixture, "error", 10, "scala", NULL, FALSE);
  g_assert_cmpuint (none->len, ==, 0);

  /* "return" occurs in nearly every file: the limit, not the matches, decides the count. */
  one = search (fixture, "return", 1, NULL, NULL, FALSE);
  g_assert_cmpuint (one->len, ==, 1);
  four = search (fixture, "return", 4, NULL, NULL, FALSE);
  g_assert_cmpuint (four->len, ==, 4);

  per_file = search (fixture, "return", 20, NULL, NULL, TRUE);
  g_assert_cmpuint (per_file->len, >=, 10);
  for (guint i = 0; i < per_file->len; i++)
    g_assert_true (g_hash_table_add (paths,
                                     ((LodeSearchResult *) g_ptr_array_index (per_file, i))->path));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add ("/lode/search/own-functions", SearchFixture, NULL,
              repository_setup, test_own_functions, search_teardown);
  g_test_add ("/lode/search/natural-language", SearchFixture, NULL,
              corpus_setup, test_natural_language, search_teardown);
  g_test_add ("/lode/search/filters", SearchFixture, NULL,
              corpus_setup, test_filters, search_teardown);

  return g_test_run ();
}
