/* test-store.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <sqlite3.h>

#include "lode-error.h"
#include "lode-grep-query.h"
#include "lode-index-store.h"
#include "lode-indexer.h"
#include "lode-searcher.h"
#include "lode-store.h"
#include "test-text-files.h"

typedef struct
{
  char           *db_path;
  LodeIndexStore *store;
} StoreFixture;

static void
store_setup (StoreFixture  *fixture,
             gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  /* The parent directory does not exist yet: opening creates it. */
  fixture->db_path = g_build_filename (g_get_user_data_dir (), "lode", "projects", "test",
                                       "index.db", NULL);
  fixture->store = LODE_INDEX_STORE (lode_store_open (fixture->db_path, &error));
  g_assert_no_error (error);
  g_assert_nonnull (fixture->store);
}

static void
store_teardown (StoreFixture  *fixture,
                gconstpointer  data)
{
  g_clear_object (&fixture->store);
  g_free (fixture->db_path);
}

static LodeChunk *
chunk_new (guint       start_line,
           guint       end_line,
           const char *kind,
           const char *symbol,
           const char *signature,
           const char *content)
{
  LodeChunk *chunk = lode_chunk_new ();

  chunk->start_line = start_line;
  chunk->end_line = end_line;
  chunk->kind = kind != NULL ? g_intern_string (kind) : NULL;
  chunk->symbol = g_strdup (symbol);
  chunk->signature = g_strdup (signature);
  chunk->content = g_strdup (content);

  return chunk;
}

static LodeSymbol *
symbol_new (const char *name,
            const char *kind,
            const char *container,
            guint       start_line,
            guint       end_line,
            const char *signature)
{
  LodeSymbol *symbol = lode_symbol_new ();

  symbol->name = g_strdup (name);
  symbol->kind = g_intern_string (kind);
  symbol->container = g_strdup (container);
  symbol->start_line = start_line;
  symbol->end_line = end_line;
  symbol->signature = g_strdup (signature);

  return symbol;
}

static GPtrArray *
chunks_new (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) lode_chunk_free);
}

static GPtrArray *
symbols_new (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) lode_symbol_free);
}

static void
put_file (LodeIndexStore *store,
          const char     *path,
          const char     *language,
          GPtrArray      *chunks,
          GPtrArray      *symbols)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *hash = g_compute_checksum_for_string (G_CHECKSUM_SHA1, path, -1);
  LodeFileInfo info = { path, language, hash, 0, 1700000000000000, 0 };
  g_autofree guint *symbol_chunks = lode_indexer_attribute_symbols (chunks, symbols);

  for (guint i = 0; i < chunks->len; i++)
    {
      LodeChunk *chunk = g_ptr_array_index (chunks, i);

      info.size += strlen (chunk->content);
      info.n_lines = MAX (info.n_lines, chunk->end_line);
    }

  g_assert_true (lode_index_store_put_file (store, &info, chunks, symbols, symbol_chunks,
                                            &error));
  g_assert_no_error (error);
}

/* One chunk holding @content, no symbols. */
static void
put_text (LodeIndexStore *store,
          const char     *path,
          const char     *language,
          const char     *content)
{
  g_autoptr(GPtrArray) chunks = chunks_new ();
  gsize len = strlen (content);
  guint n_lines = len > 0 && content[len - 1] != '\n';

  for (const char *p = content; *p != '\0'; p++)
    n_lines += *p == '\n';
  g_ptr_array_add (chunks, chunk_new (1, n_lines, NULL, NULL, NULL, content));
  put_file (store, path, language, chunks, NULL);
}

/* The lexical leg of a LodeSearcher over @store. */
static GPtrArray *
store_search (LodeIndexStore           *store,
              const LodeSearchOptions  *options,
              GCancellable             *cancellable,
              GError                  **error)
{
  g_autoptr(LodeSearcher) searcher = lode_searcher_new ();
  g_autoptr(LodeSearchResponse) response = NULL;
  LodeSearchOptions lexical = *options;

  lexical.mode = LODE_SEARCH_MODE_LEXICAL;
  response = lode_searcher_search (searcher, LODE_SEARCH_BACKEND (store), &lexical, NULL, NULL,
                                   cancellable, error);

  return response != NULL ? g_steal_pointer (&response->results) : NULL;
}

static GPtrArray *
search_full (LodeIndexStore          *store,
             const LodeSearchOptions *options)
{
  g_autoptr(GError) error = NULL;
  GPtrArray *results = store_search (store, options, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (results);

  for (guint i = 0; i < results->len; i++)
    {
      LodeSearchResult *r = g_ptr_array_index (results, i);

      g_test_message ("  %u. %s:%u-%u %s %s %.3f", i + 1, r->path, r->start_line, r->end_line,
                      r->kind != NULL ? r->kind : "-", r->symbol != NULL ? r->symbol : "-",
                      r->score);
      /* Best first. */
      if (i > 0)
        g_assert_cmpfloat (r->score, <=,
                           ((LodeSearchResult *) g_ptr_array_index (results, i - 1))->score);
    }

  return results;
}

static GPtrArray *
search (LodeIndexStore *store,
        const char     *query)
{
  LodeSearchOptions options = LODE_SEARCH_OPTIONS_INIT;
  g_autofree char *printable = g_utf8_make_valid (query, -1);

  /* Some queries are deliberately invalid UTF-8; TAP output must stay valid. */
  g_test_message ("search: %s", printable);
  options.query = query;
  return search_full (store, &options);
}

static LodeSearchResult *
result (GPtrArray *results,
        guint      i)
{
  g_assert_cmpuint (i, <, results->len);
  return g_ptr_array_index (results, i);
}

static gboolean
has_path (GPtrArray  *results,
          const char *path)
{
  for (guint i = 0; i < results->len; i++)
    if (g_strcmp0 (result (results, i)->path, path) == 0)
      return TRUE;

  return FALSE;
}

static void
test_create (StoreFixture  *fixture,
             gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) hashes = NULL;
  g_autofree char *missing = NULL;
  g_autofree char *value = NULL;
  LodeStoreStats stats;

  g_assert_true (g_file_test (fixture->db_path, G_FILE_TEST_IS_REGULAR));
  g_assert_false (lode_index_store_get_was_reset (fixture->store));

  g_assert_true (lode_index_store_get_stats (fixture->store, &stats, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (stats.n_files, ==, 0);
  g_assert_cmpuint (stats.n_chunks, ==, 0);
  g_assert_cmpuint (stats.n_symbols, ==, 0);

  hashes = lode_index_store_dup_file_hashes (fixture->store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_hash_table_size (hashes), ==, 0);

  missing = lode_index_store_dup_meta (fixture->store, "state");
  g_assert_null (missing);
  g_assert_true (lode_index_store_set_meta (fixture->store, "state", "indexing", &error));
  g_assert_true (lode_index_store_set_meta (fixture->store, "state", "ready", &error));
  g_assert_no_error (error);
  value = lode_index_store_dup_meta (fixture->store, "state");
  g_assert_cmpstr (value, ==, "ready");
}

static void
test_reopen (StoreFixture  *fixture,
             gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) results = NULL;
  g_autofree char *root = NULL;
  LodeStoreStats stats;

  put_text (fixture->store, "src/main.c", "c", "int\nmain (void)\n{\n  return frobnicate ();\n}\n");
  g_assert_true (lode_index_store_set_meta (fixture->store, "root", "/home/me/project", &error));
  g_clear_object (&fixture->store);

  fixture->store = LODE_INDEX_STORE (lode_store_open (fixture->db_path, &error));
  g_assert_no_error (error);
  g_assert_false (lode_index_store_get_was_reset (fixture->store));

  root = lode_index_store_dup_meta (fixture->store, "root");
  g_assert_cmpstr (root, ==, "/home/me/project");
  g_assert_true (lode_index_store_get_stats (fixture->store, &stats, &error));
  g_assert_cmpuint (stats.n_files, ==, 1);
  g_assert_cmpuint (stats.n_chunks, ==, 1);

  results = search (fixture->store, "frobnicate");
  g_assert_cmpuint (results->len, ==, 1);
  g_assert_cmpstr (result (results, 0)->path, ==, "src/main.c");
}

static void
exec_sql (const char *path,
          const char *sql)
{
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, sql, NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);
}

static void
assert_reset_and_usable (StoreFixture *fixture)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) results = NULL;
  LodeStoreStats stats;

  g_clear_object (&fixture->store);
  fixture->store = LODE_INDEX_STORE (lode_store_open (fixture->db_path, &error));
  g_assert_no_error (error);
  g_assert_nonnull (fixture->store);
  g_assert_true (lode_index_store_get_was_reset (fixture->store));

  g_assert_true (lode_index_store_get_stats (fixture->store, &stats, &error));
  g_assert_cmpuint (stats.n_files, ==, 0);

  put_text (fixture->store, "a.py", "python", "def quux():\n    pass\n");
  results = search (fixture->store, "quux");
  g_assert_cmpuint (results->len, ==, 1);

  /* The new index is a good one: the next open keeps it. */
  g_clear_object (&fixture->store);
  fixture->store = LODE_INDEX_STORE (lode_store_open (fixture->db_path, &error));
  g_assert_no_error (error);
  g_assert_false (lode_index_store_get_was_reset (fixture->store));
}

/* The one value @sql gives on @path's database, as text. */
static char *
query_text (const char *path,
            const char *sql)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *s = NULL;
  char *text;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &s, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (s), ==, SQLITE_ROW);
  text = g_strdup ((const char *) sqlite3_column_text (s, 0));
  sqlite3_finalize (s);
  sqlite3_close (db);

  return text;
}

/* The one integer @sql gives on @path's database. */
static int
query_int (const char *path,
           const char *sql)
{
  g_autofree char *text = query_text (path, sql);

  return text != NULL ? (int) g_ascii_strtoll (text, NULL, 10) : 0;
}

/* How many of the indexes only look-ups use @path's database has. */
static int
count_lookup_indexes (const char *path)
{
  return query_int (path, "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name IN "
                    "('symbols_name', 'symbols_chunk', 'symbols_package', 'refs_name', "
                    "'imports_key', 'edges_to', 'chunks_hash')");
}

/* How many segments the trigrams of @path's files are in. */
static int
count_trigram_segments (const char *path)
{
  return query_int (path, "SELECT count (DISTINCT segment) FROM trigram_blocks");
}

/* The symbol tools find the same declarations while a new index is built without its
 * look-up indexes and once the run has ended and made them. */
static void
test_lookup_indexes (StoreFixture  *fixture,
                     gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) chunks = chunks_new ();
  g_autoptr(GPtrArray) symbols = symbols_new ();
  g_autoptr(GPtrArray) during = NULL;
  g_autoptr(GPtrArray) after = NULL;

  g_ptr_array_add (chunks, chunk_new (1, 4, "function", "strbuf_addf", "void strbuf_addf "
                                      "(struct strbuf *sb, const char *fmt, ...)",
                                      "void strbuf_addf (struct strbuf *sb, const char *fmt, ...)\n"
                                      "{\n  va_list ap;\n}\n"));
  g_ptr_array_add (symbols, symbol_new ("strbuf_addf", "function", NULL, 1, 4,
                                        "void strbuf_addf (struct strbuf *sb, const char *fmt, ...)"));
  g_assert_true (lode_index_store_set_meta (fixture->store, "state", "indexing", &error));
  put_file (fixture->store, "strbuf.c", "c", chunks, symbols);
  put_text (fixture->store, "strbuf.h", "c", "void strbuf_addf (struct strbuf *sb, ...);\n");
  g_assert_cmpint (count_lookup_indexes (fixture->db_path), ==, 0);
  /* A segment of trigrams per batch. */
  g_assert_cmpint (count_trigram_segments (fixture->db_path), ==, 2);

  during = lode_index_store_find_symbols (fixture->store, "STRBUF_ADDF", 10, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (during->len, ==, 1);

  g_assert_true (lode_index_store_set_meta (fixture->store, "state", "ready", &error));
  g_assert_no_error (error);
  g_assert_cmpint (count_lookup_indexes (fixture->db_path), ==, 7);
  g_assert_cmpint (count_trigram_segments (fixture->db_path), ==, 1);
  after = lode_index_store_find_symbols (fixture->store, "STRBUF_ADDF", 10, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (after->len, ==, 1);
  g_assert_cmpstr (((LodeStoredSymbol *) after->pdata[0])->path, ==, "strbuf.c");
  g_assert_cmpuint (((LodeStoredSymbol *) after->pdata[0])->start_line, ==, 1);

  /* Ending another run finds them there, and leaves its batch's trigrams in a segment of
   * their own, until there are many. */
  put_text (fixture->store, "strbuf-2.h", "c", "void strbuf_addstr (struct strbuf *sb);\n");
  g_assert_true (lode_index_store_set_meta (fixture->store, "state", "ready", &error));
  g_assert_no_error (error);
  g_assert_cmpint (count_trigram_segments (fixture->db_path), ==, 2);
}

static char *dup_table_rows (const char *path,
                             const char *sql);

static void
assert_text_files (LodeIndexStore *store,
                   const char     *pattern,
                   const char     *expected)
{
  gboolean indexed = FALSE;
  g_autofree char *files = test_dup_text_files (store, pattern, FALSE, &indexed);

  g_assert_true (indexed);
  g_assert_cmpstr (files, ==, expected);
}

/* What a watcher's runs do to the trigrams: each edit lands in a segment of its own, where
 * the file's old trigrams no longer name it; once a run ends with more than three, they are
 * folded into one, exactly what a new index of the same files holds; a batch rolled back
 * leaves none of its trigrams. */
static void
test_trigram_segments (StoreFixture  *fixture,
                       gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *fresh_path = g_build_filename (g_get_user_data_dir (), "fresh.db", NULL);
  g_autoptr(LodeStore) fresh = lode_store_open (fresh_path, &error);
  const char *run_text = "int run_timer_list (struct timer_base *base);\n";
  const char *edited = "int expire_timers (struct timer_base *base, struct hlist_head *head);\n";
  g_autofree char *folded = NULL;
  g_autofree char *expected = NULL;

  g_assert_no_error (error);
  put_text (fixture->store, "kernel/time/timer.c", "c", run_text);
  g_assert_true (lode_index_store_set_meta (fixture->store, "state", "ready", &error));
  g_assert_cmpint (count_trigram_segments (fixture->db_path), ==, 1);

  /* A watcher's edits, each in a transaction of its own. */
  for (guint i = 0; i < 8; i++)
    {
      g_autofree char *path = g_strdup_printf ("kernel/time/tick-%u.c", i);
      g_autofree char *text = g_strdup_printf ("void tick_sched_timer_%u (void);\n", i);

      put_text (fixture->store, path, "c", text);
    }
  put_text (fixture->store, "kernel/time/timer.c", "c", edited);
  g_assert_cmpint (count_trigram_segments (fixture->db_path), ==, 10);
  assert_text_files (fixture->store, "run_timer_list", "");
  assert_text_files (fixture->store, "expire_timers", "kernel/time/timer.c");
  assert_text_files (fixture->store, "tick_sched_timer_5", "kernel/time/tick-5.c");
  assert_text_files (fixture->store, "struct timer_base", "kernel/time/timer.c");

  /* Rolled back: neither its file nor its trigrams. */
  g_assert_true (lode_index_store_begin (fixture->store, &error));
  put_text (fixture->store, "kernel/time/hrtimer.c", "c", "void hrtimer_interrupt (void);\n");
  lode_index_store_rollback (fixture->store);
  assert_text_files (fixture->store, "hrtimer_interrupt", "");
  g_assert_cmpint (count_trigram_segments (fixture->db_path), ==, 10);

  g_assert_true (lode_index_store_set_meta (fixture->store, "state", "ready", &error));
  g_assert_no_error (error);
  g_assert_cmpint (count_trigram_segments (fixture->db_path), ==, 1);
  assert_text_files (fixture->store, "run_timer_list", "");
  assert_text_files (fixture->store, "expire_timers", "kernel/time/timer.c");
  assert_text_files (fixture->store, "tick_sched_timer_5", "kernel/time/tick-5.c");
  assert_text_files (fixture->store, "tick_sched_timer",
                   "kernel/time/tick-0.c kernel/time/tick-1.c kernel/time/tick-2.c "
                   "kernel/time/tick-3.c kernel/time/tick-4.c kernel/time/tick-5.c "
                   "kernel/time/tick-6.c kernel/time/tick-7.c");

  /* The same files, put at once in the same order (so with the same ids), in a new index. */
  g_assert_true (lode_index_store_begin (LODE_INDEX_STORE (fresh), &error));
  put_text (LODE_INDEX_STORE (fresh), "kernel/time/timer.c", "c", edited);
  for (guint i = 0; i < 8; i++)
    {
      g_autofree char *path = g_strdup_printf ("kernel/time/tick-%u.c", i);
      g_autofree char *text = g_strdup_printf ("void tick_sched_timer_%u (void);\n", i);

      put_text (LODE_INDEX_STORE (fresh), path, "c", text);
    }
  g_assert_true (lode_index_store_commit (LODE_INDEX_STORE (fresh), &error));
  g_assert_true (lode_index_store_set_meta (LODE_INDEX_STORE (fresh), "state", "ready", &error));
  g_assert_no_error (error);
  folded = dup_table_rows (fixture->db_path, "SELECT first, quote (data) FROM trigram_blocks ORDER BY first");
  expected = dup_table_rows (fresh_path, "SELECT first, quote (data) FROM trigram_blocks ORDER BY first");
  g_assert_cmpstr (folded, ==, expected);
}

/* @i's text: lines of hex digits, whose trigrams most files share (long lists of ids). */
static char *
hex_text (guint i)
{
  GString *text = g_string_new (NULL);

  for (guint line = 0; line < 16; line++)
    {
      g_autofree char *seed = g_strdup_printf ("%u.%u", i, line);
      g_autofree char *hex = g_compute_checksum_for_string (G_CHECKSUM_SHA256, seed, -1);

      g_string_append_printf (text, "%s\n", hex);
    }
  return g_string_free (text, FALSE);
}

/* The blocks of the oldest trigram segment of @db_path are @expected, byte for byte. */
static void
assert_oldest_blocks (const char *db_path,
                      const char *expected)
{
  g_autofree char *blocks = dup_table_rows (db_path, "SELECT id, quote (data) FROM trigram_blocks "
                                            "WHERE segment = (SELECT min (segment) "
                                            "FROM trigram_blocks)");

  g_assert_cmpstr (blocks, ==, expected);
}

/* Small segments beside a large one are folded without it, which keeps its blocks; once they
 * are large beside it, everything is folded. Either way an edited file's old text is not
 * found. */
static void
test_trigram_small_folds (StoreFixture  *fixture,
                          gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *base_blocks = NULL;
  g_autofree char *hex = g_compute_checksum_for_string (G_CHECKSUM_SHA256, "150.0", -1);

  g_assert_true (lode_index_store_begin (fixture->store, &error));
  for (guint i = 0; i < 200; i++)
    {
      g_autofree char *path = g_strdup_printf ("vendor/blob-%03u.txt", i);
      g_autofree char *text = hex_text (i);

      put_text (fixture->store, path, "text", text);
    }
  put_text (fixture->store, "src/main.c", "c", "int main (void) { return run_everything (); }\n");
  g_assert_true (lode_index_store_commit (fixture->store, &error));
  g_assert_true (lode_index_store_set_meta (fixture->store, "state", "ready", &error));
  g_assert_no_error (error);
  g_assert_cmpint (count_trigram_segments (fixture->db_path), ==, 1);
  g_assert_cmpint (query_int (fixture->db_path, "SELECT count (*) FROM trigram_blocks"), >, 40);
  base_blocks = dup_table_rows (fixture->db_path, "SELECT id, quote (data) FROM trigram_blocks");

  /* Nine edits of a watcher, one file each. */
  put_text (fixture->store, "src/main.c", "c", "int main (void) { return run_nothing (); }\n");
  for (guint i = 0; i < 8; i++)
    {
      g_autofree char *path = g_strdup_printf ("src/tool-%u.c", i);
      g_autofree char *text = g_strdup_printf ("int tool_%u_main (void);\n", i);

      put_text (fixture->store, path, "c", text);
    }
  g_assert_true (lode_index_store_set_meta (fixture->store, "state", "ready", &error));
  g_assert_no_error (error);
  g_assert_cmpint (count_trigram_segments (fixture->db_path), ==, 2);
  assert_oldest_blocks (fixture->db_path, base_blocks);
  assert_text_files (fixture->store, "run_everything", "");
  assert_text_files (fixture->store, "run_nothing", "src/main.c");
  assert_text_files (fixture->store, "tool_7_main", "src/tool-7.c");
  hex[24] = '\0';
  assert_text_files (fixture->store, hex, "vendor/blob-150.txt");

  /* Runs of one edit each: a run that leaves four segments (four block reads per trigram
   * in a look-up) folds the small ones again. */
  for (guint i = 0; i < 3; i++)
    {
      static const int segments[] = { 3, 2, 3 };
      g_autofree char *text = g_strdup_printf ("int tool_0_step_%u (void);\n", i);

      put_text (fixture->store, "src/tool-0.c", "c", text);
      g_assert_true (lode_index_store_set_meta (fixture->store, "state", "ready", &error));
      g_assert_no_error (error);
      g_assert_cmpint (count_trigram_segments (fixture->db_path), ==, segments[i]);
    }
  assert_oldest_blocks (fixture->db_path, base_blocks);
  assert_text_files (fixture->store, "tool_0_step_1", "");
  assert_text_files (fixture->store, "tool_0_step_2", "src/tool-0.c");
  assert_text_files (fixture->store, "tool_1_main", "src/tool-1.c");

  /* Half of the large files edited at once, then more single edits: all is folded. */
  g_assert_true (lode_index_store_begin (fixture->store, &error));
  for (guint i = 0; i < 100; i++)
    {
      g_autofree char *path = g_strdup_printf ("vendor/blob-%03u.txt", i);
      g_autofree char *text = hex_text (1000 + i);

      put_text (fixture->store, path, "text", text);
    }
  g_assert_true (lode_index_store_commit (fixture->store, &error));
  for (guint i = 0; i < 7; i++)
    {
      g_autofree char *path = g_strdup_printf ("src/tool-%u.c", i);
      g_autofree char *text = g_strdup_printf ("int tool_%u_done (void);\n", i);

      put_text (fixture->store, path, "c", text);
    }
  g_assert_cmpint (count_trigram_segments (fixture->db_path), ==, 11);
  g_assert_true (lode_index_store_set_meta (fixture->store, "state", "ready", &error));
  g_assert_no_error (error);
  g_assert_cmpint (count_trigram_segments (fixture->db_path), ==, 1);
  assert_text_files (fixture->store, "tool_3_main", "");
  assert_text_files (fixture->store, "tool_3_done", "src/tool-3.c");
  assert_text_files (fixture->store, "tool_7_main", "src/tool-7.c");
  assert_text_files (fixture->store, "run_nothing", "src/main.c");
  assert_text_files (fixture->store, hex, "vendor/blob-150.txt");
}

/* A block of trigrams cut short is a damaged index, for a look-up and for a fold alike, and
 * says so; nothing reads past it. */
static void
test_damaged_trigrams (StoreFixture  *fixture,
                       gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) fold_error = NULL;
  g_autoptr(LodeGrepQuery) query = lode_grep_query_for_pattern ("refs_read_ref", FALSE);
  g_autoptr(GPtrArray) files = NULL;
  gboolean indexed = FALSE;

  put_text (fixture->store, "refs.c", "c",
            "int refs_read_ref (struct ref_store *refs, const char *refname);\n");
  put_text (fixture->store, "refs.h", "c", "struct ref_store;\n");
  g_clear_object (&fixture->store);
  exec_sql (fixture->db_path, "UPDATE trigram_blocks SET data = substr (data, 1, 7)");
  fixture->store = LODE_INDEX_STORE (lode_store_open (fixture->db_path, &error));
  g_assert_no_error (error);

  files = lode_index_store_find_text_files (fixture->store, query, &indexed, &error);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_DAMAGED);
  g_assert_null (files);
  g_assert_false (lode_index_store_set_meta (fixture->store, "state", "ready", &fold_error));
  g_assert_error (fold_error, LODE_ERROR, LODE_ERROR_DAMAGED);
}

/* An index built aside is written without a journal, replaces whatever the file held, and
 * is a journaled index like any other once its run has ended. */
static void
test_aside (StoreFixture  *fixture,
            gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *aside = g_strconcat (fixture->db_path, ".new", NULL);
  g_autofree char *wal = g_strconcat (aside, "-wal", NULL);
  g_autofree char *mode = NULL;
  g_autoptr(LodeStore) store = NULL;
  g_autoptr(GPtrArray) results = NULL;
  LodeStoreStats stats;

  g_assert_true (g_file_set_contents (aside, "left by a killed run", -1, &error));
  store = lode_store_open_aside (aside, &error);
  g_assert_no_error (error);
  g_assert_false (lode_index_store_get_was_reset (LODE_INDEX_STORE (store)));

  g_assert_true (lode_index_store_begin (LODE_INDEX_STORE (store), &error));
  put_text (LODE_INDEX_STORE (store), "src/main.c", "c",
            "int\nmain (void)\n{\n  return frobnicate ();\n}\n");
  g_assert_true (lode_index_store_commit (LODE_INDEX_STORE (store), &error));
  g_assert_no_error (error);
  g_assert_false (g_file_test (wal, G_FILE_TEST_EXISTS));

  g_assert_true (lode_index_store_set_meta (LODE_INDEX_STORE (store), "state", "ready", &error));
  g_assert_no_error (error);
  g_assert_true (lode_store_end_aside (store, &error));
  g_assert_no_error (error);
  g_clear_object (&store);
  mode = query_text (aside, "PRAGMA journal_mode");
  g_assert_cmpstr (mode, ==, "wal");

  g_assert_true (lode_store_install (aside, fixture->db_path, &error));
  g_assert_no_error (error);
  g_assert_true (lode_index_store_get_stats (fixture->store, &stats, &error));
  g_assert_cmpuint (stats.n_files, ==, 1);
  results = search (fixture->store, "frobnicate");
  g_assert_cmpuint (results->len, ==, 1);
  g_assert_cmpstr (result (results, 0)->path, ==, "src/main.c");
}

/* A run that stops before it ends still leaves a journaled file when installed. */
static void
test_aside_ended_early (StoreFixture  *fixture,
                        gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *aside = g_strconcat (fixture->db_path, ".new", NULL);
  g_autofree char *mode = NULL;
  g_autoptr(LodeStore) store = NULL;

  store = lode_store_open_aside (aside, &error);
  g_assert_no_error (error);
  put_text (LODE_INDEX_STORE (store), "a.py", "python", "def quux():\n    pass\n");
  g_assert_true (lode_store_end_aside (store, &error));
  g_assert_no_error (error);
  g_clear_object (&store);
  mode = query_text (aside, "PRAGMA journal_mode");
  g_assert_cmpstr (mode, ==, "wal");
}

/* A new index's first run writes its files with a rollback journal, which copies none of
 * the pages they add, and a reader searches what its batches committed meanwhile; a first
 * run that stopped early resumes the same way. Once its files are written it turns WAL on,
 * so that readers never wait for the writer again, through the long batches of the run's
 * end either. */
static void
test_first_run_journal (StoreFixture  *fixture,
                        gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeStore) reader = NULL;
  g_autoptr(GPtrArray) first = NULL;
  g_autoptr(GPtrArray) after = NULL;
  g_autofree char *journal = g_strconcat (fixture->db_path, "-journal", NULL);
  g_autofree char *wal = g_strconcat (fixture->db_path, "-wal", NULL);
  g_autofree char *mode = NULL;
  g_autofree char *resumed = NULL;
  g_autofree char *written = NULL;
  g_autofree char *ended = NULL;

  put_text (fixture->store, "src/main.c", "c",
            "int\nmain (void)\n{\n  return frobnicate ();\n}\n");
  mode = query_text (fixture->db_path, "PRAGMA journal_mode");
  g_assert_cmpstr (mode, ==, "delete");
  g_assert_false (g_file_test (wal, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (journal, G_FILE_TEST_EXISTS));

  reader = lode_store_open_reader (fixture->db_path, &error);
  g_assert_no_error (error);
  first = search (LODE_INDEX_STORE (reader), "frobnicate");
  g_assert_cmpuint (first->len, ==, 1);

  g_clear_object (&fixture->store);
  fixture->store = LODE_INDEX_STORE (lode_store_open (fixture->db_path, &error));
  g_assert_no_error (error);
  put_text (fixture->store, "src/frob.c", "c", "int\nfrobnicate (void)\n{\n  return 1;\n}\n");
  resumed = query_text (fixture->db_path, "PRAGMA journal_mode");
  g_assert_cmpstr (resumed, ==, "delete");

  g_assert_true (lode_index_store_end_files (fixture->store, &error));
  g_assert_no_error (error);
  written = query_text (fixture->db_path, "PRAGMA journal_mode");
  g_assert_cmpstr (written, ==, "wal");
  g_assert_true (lode_index_store_set_meta (fixture->store, "state", "ready", &error));
  g_assert_no_error (error);
  ended = query_text (fixture->db_path, "PRAGMA journal_mode");
  g_assert_cmpstr (ended, ==, "wal");
  after = search (LODE_INDEX_STORE (reader), "frobnicate");
  g_assert_cmpuint (after->len, ==, 2);
}

/* A first run that ends without saying its files were written (lode_index_store_end_files())
 * leaves its rollback journal at its end all the same. */
static void
test_first_run_ends_in_wal (StoreFixture  *fixture,
                            gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *mode = NULL;

  put_text (fixture->store, "a.py", "python", "def quux():\n    pass\n");
  g_assert_true (lode_index_store_set_meta (fixture->store, "state", "ready", &error));
  g_assert_no_error (error);
  mode = query_text (fixture->db_path, "PRAGMA journal_mode");
  g_assert_cmpstr (mode, ==, "wal");
}

/* A first run's batches are merged 16 at a time, later runs' 4 at a time (FTS5's own), and
 * searches find what both wrote. */
static void
test_first_run_merges_text (StoreFixture  *fixture,
                            gconstpointer  data)
{
  const char automerge[] = "SELECT v FROM chunks_fts_config WHERE k = 'automerge'";
  LodeSearchOptions options = LODE_SEARCH_OPTIONS_INIT;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) found = NULL;
  g_autoptr(GPtrArray) again = NULL;

  /* One batch each, as the indexer's. */
  for (guint i = 0; i < 24; i++)
    {
      g_autofree char *path = g_strdup_printf ("src/part%02u.c", i);
      g_autofree char *text = g_strdup_printf ("int\npart%02u (void)\n{\n  return gizmo ();\n}\n",
                                               i);

      put_text (fixture->store, path, "c", text);
    }
  g_assert_cmpint (query_int (fixture->db_path, automerge), ==, 16);

  g_assert_true (lode_index_store_set_meta (fixture->store, "state", "ready", &error));
  g_assert_no_error (error);
  g_assert_cmpint (query_int (fixture->db_path, automerge), ==, 4);
  options.query = "gizmo";
  options.limit = 50;
  found = search_full (fixture->store, &options);
  g_assert_cmpuint (found->len, ==, 24);

  put_text (fixture->store, "src/late.c", "c", "int\nlate (void)\n{\n  return gizmo ();\n}\n");
  g_assert_true (lode_index_store_set_meta (fixture->store, "state", "ready", &error));
  g_assert_no_error (error);
  g_assert_cmpint (query_int (fixture->db_path, automerge), ==, 4);
  again = search_full (fixture->store, &options);
  g_assert_cmpuint (again->len, ==, 25);
}

/* Every row @sql (two columns) gives in the database @path, as one string. */
static char *
dup_table_rows (const char *path,
                const char *sql)
{
  GString *rows = g_string_new (NULL);
  sqlite3 *db = NULL;
  sqlite3_stmt *s = NULL;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &s, NULL), ==, SQLITE_OK);
  while (sqlite3_step (s) == SQLITE_ROW)
    g_string_append_printf (rows, "%s %s\n", sqlite3_column_text (s, 0),
                            sqlite3_column_text (s, 1));
  sqlite3_finalize (s);
  sqlite3_close (db);

  return g_string_free (rows, FALSE);
}

/* A C file cut as the chunker cuts one: a declaration with its comment, a chunk without a
 * symbol, an empty one, and text past ASCII, with a run of CJK (git's po/zh_CN.po) longer
 * than a token's 64 bytes. */
static GPtrArray *
strbuf_chunks (void)
{
  GPtrArray *chunks = chunks_new ();
  LodeChunk *chunk;

  chunk = chunk_new (1, 6, "function", "strbuf_addf",
                     "void strbuf_addf(struct strbuf *sb, const char *fmt, ...)",
                     "/* Appends a formatted string; « sb » grows as needed. */\n"
                     "void strbuf_addf(struct strbuf *sb, const char *fmt, ...)\n{\n"
                     "\tva_list ap;\n\tva_start(ap, fmt);\n\tstrbuf_vaddf(sb, fmt, ap);\n}\n");
  chunk->container = g_strdup ("strbuf");
  chunk->doc = g_strdup ("Appends a formatted string.");
  g_ptr_array_add (chunks, chunk);
  g_ptr_array_add (chunks, chunk_new (7, 9, NULL, NULL, NULL,
                                      "#define STRBUF_INIT  { .alloc = 0, .len = 0, "
                                      ".buf = strbuf_slopbuf }\n"
                                      "/* 您的过滤器必须在其输入和输出的行之间保持一一对应的关系。 */\n"));
  g_ptr_array_add (chunks, chunk_new (10, 10, NULL, NULL, NULL, ""));

  return chunks;
}

/* A file put with its tokens prepared on another thread is stored as it is without them:
 * the same full-text and trigram entries, byte for byte. */
static void
test_prepared_tokens (StoreFixture  *fixture,
                      gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *plain_path = g_build_filename (g_get_user_data_dir (), "plain.db", NULL);
  g_autoptr(LodeStore) plain = lode_store_open (plain_path, &error);
  g_autoptr(GPtrArray) chunks = strbuf_chunks ();
  g_autoptr(GBytes) prepared = NULL;
  g_autoptr(GPtrArray) results = NULL;
  LodeFileInfo info = { "strbuf.c", "c", "0123456789abcdef0123456789abcdef01234567", 300, 0, 10 };
  const char *tables[] = {
    "SELECT quote (id), quote (block) FROM chunks_fts_data ORDER BY id",
    "SELECT segment || ' ' || first, quote (data) FROM trigram_blocks ORDER BY id",
  };

  g_assert_no_error (error);
  prepared = lode_index_store_prepare_file (fixture->store, &info, chunks);
  g_assert_nonnull (prepared);
  g_assert_cmpuint (g_bytes_get_size (prepared), >, 0);

  g_assert_true (lode_index_store_put_file (LODE_INDEX_STORE (plain), &info, chunks, NULL,
                                            NULL, &error));
  g_assert_no_error (error);
  info.prepared = prepared;
  g_assert_true (lode_index_store_put_file (fixture->store, &info, chunks, NULL, NULL, &error));
  g_assert_no_error (error);

  for (guint i = 0; i < G_N_ELEMENTS (tables); i++)
    {
      g_autofree char *expected = dup_table_rows (plain_path, tables[i]);
      g_autofree char *got = dup_table_rows (fixture->db_path, tables[i]);

      g_assert_cmpstr (got, ==, expected);
    }
  results = search (fixture->store, "strbuf_slopbuf");
  g_assert_cmpuint (results->len, ==, 1);
  g_assert_cmpuint (result (results, 0)->start_line, ==, 7);
}

/* Tokens prepared for other chunks are not replayed: the file is tokenized as usual, and the
 * store says something is wrong with it. */
static void
test_prepared_tokens_mismatch (StoreFixture  *fixture,
                               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) chunks = strbuf_chunks ();
  g_autoptr(GPtrArray) other = chunks_new ();
  g_autoptr(GPtrArray) results = NULL;
  LodeFileInfo info = { "strbuf.c", "c", "0123456789abcdef0123456789abcdef01234567", 300, 0, 10 };

  g_ptr_array_add (other, chunk_new (1, 1, NULL, NULL, NULL, "int frobnicate;\n"));
  info.prepared = lode_index_store_prepare_file (fixture->store, &info, other);
  g_test_expect_message ("lode-store", G_LOG_LEVEL_WARNING, "strbuf.c: its prepared tokens*");
  g_assert_true (lode_index_store_put_file (fixture->store, &info, chunks, NULL, NULL, &error));
  g_test_assert_expected_messages ();
  g_assert_no_error (error);
  g_bytes_unref (info.prepared);

  results = search (fixture->store, "strbuf_slopbuf");
  g_assert_cmpuint (results->len, ==, 1);
  g_clear_pointer (&results, g_ptr_array_unref);
  results = search (fixture->store, "frobnicate");
  g_assert_cmpuint (results->len, ==, 0);
}

/* A new index has pages of 16 KiB; one made with SQLite's 4 KiB, as every index was before,
 * opens as it is, without a rebuild, and takes new files. */
static void
test_page_size (StoreFixture  *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) old = NULL;
  g_autoptr(GPtrArray) added = NULL;
  LodeStoreStats stats;

  put_text (fixture->store, "src/old.c", "c", "int\nold_frobnicate (void)\n{\n  return 1;\n}\n");
  g_assert_cmpint (query_int (fixture->db_path, "PRAGMA page_size"), ==, 16384);
  g_clear_object (&fixture->store);
  exec_sql (fixture->db_path, "PRAGMA journal_mode = DELETE; PRAGMA page_size = 4096; VACUUM;");
  g_assert_cmpint (query_int (fixture->db_path, "PRAGMA page_size"), ==, 4096);

  fixture->store = LODE_INDEX_STORE (lode_store_open (fixture->db_path, &error));
  g_assert_no_error (error);
  g_assert_false (lode_index_store_get_was_reset (fixture->store));
  put_text (fixture->store, "src/new.c", "c", "int\nnew_frobnicate (void)\n{\n  return 2;\n}\n");
  g_assert_true (lode_index_store_set_meta (fixture->store, "state", "ready", &error));
  g_assert_no_error (error);

  g_assert_true (lode_index_store_get_stats (fixture->store, &stats, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (stats.n_files, ==, 2);
  old = search (fixture->store, "old_frobnicate");
  g_assert_cmpuint (old->len, ==, 1);
  g_assert_cmpstr (result (old, 0)->path, ==, "src/old.c");
  added = search (fixture->store, "new_frobnicate");
  g_assert_cmpuint (added->len, ==, 1);
  g_assert_cmpstr (result (added, 0)->path, ==, "src/new.c");
  g_clear_object (&fixture->store);
  g_assert_cmpint (query_int (fixture->db_path, "PRAGMA page_size"), ==, 4096);
}

static void
test_other_version (StoreFixture  *fixture,
                    gconstpointer  data)
{
  g_autofree char *sql = g_strdup_printf ("PRAGMA user_version = %d",
                                          LODE_STORE_SCHEMA_VERSION + 1);

  put_text (fixture->store, "old.c", "c", "int old;\n");
  g_clear_object (&fixture->store);
  exec_sql (fixture->db_path, sql);

  assert_reset_and_usable (fixture);
}

/* An index of this version whose full-text table SQLite cannot read (its configuration
 * gone): a reader says so, with SQLite's reason and the remedy, and does not blame another
 * version of Lode; a writer rebuilds it. */
static void
test_unreadable_fts (StoreFixture  *fixture,
                     gconstpointer  data)
{
  g_autoptr(LodeStore) reader = NULL;
  g_autoptr(GError) error = NULL;

  put_text (fixture->store, "kept.c", "c", "int kept;\n");
  g_clear_object (&fixture->store);
  exec_sql (fixture->db_path, "DELETE FROM chunks_fts_config");

  reader = lode_store_open_reader (fixture->db_path, &error);
  g_assert_null (reader);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_STORE);
  g_assert_nonnull (strstr (error->message, "cannot read the index"));
  g_assert_nonnull (strstr (error->message, "fts5"));
  g_assert_nonnull (strstr (error->message, "index the project again"));
  g_assert_null (strstr (error->message, "another version"));

  assert_reset_and_usable (fixture);
}

/* The columns of @path's index @name, comma-separated. */
static char *
dup_index_columns (const char *path,
                   const char *name)
{
  g_autofree char *sql = g_strdup_printf ("SELECT group_concat (name, ',') FROM "
                                          "(SELECT name FROM pragma_index_info ('%s') "
                                          "ORDER BY seqno)", name);

  return query_text (path, sql);
}

/* An index of schema 12, which named a grep match's declaration from `symbols_file` holding
 * each declaration's lines and name, is made anew with a `symbol_spans` row per file, and
 * the new one names the declarations that meet a range of lines. */
static void
test_version_12_symbol_spans (StoreFixture  *fixture,
                              gconstpointer  data)
{
  g_autoptr(GPtrArray) chunks = chunks_new ();
  g_autoptr(GPtrArray) symbols = symbols_new ();
  g_autoptr(GPtrArray) spans = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *columns = NULL;

  put_text (fixture->store, "old.c", "c", "int old;\n");
  g_clear_object (&fixture->store);
  exec_sql (fixture->db_path, "DROP TABLE symbol_spans;"
            "DROP INDEX symbols_file;"
            "CREATE INDEX symbols_file ON symbols (file_id, start_line, id, end_line, name);"
            "PRAGMA user_version = 12");

  assert_reset_and_usable (fixture);
  columns = dup_index_columns (fixture->db_path, "symbols_file");
  g_assert_cmpstr (columns, ==, "file_id,start_line");

  /* The shape of git's refs.c: a struct, then functions, one holding a matched line. */
  g_ptr_array_add (chunks, chunk_new (1, 24, NULL, NULL, NULL,
                                      "struct ref_store {\n  const char *gitdir;\n};\n\n"
                                      "int refs_read_ref (struct ref_store *refs, const char *ref,\n"
                                      "                   struct object_id *oid)\n{\n"
                                      "  return refs_resolve_ref_unsafe (refs, ref, 0, oid, NULL)"
                                      " ? 0 : -1;\n}\n\n"
                                      "int refs_update_ref (struct ref_store *refs, const char *msg,\n"
                                      "                     const char *refname)\n{\n"
                                      "  struct strbuf err = STRBUF_INIT;\n\n"
                                      "  if (ref_transaction_commit (t, &err))\n"
                                      "    return error (\"%s\", err.buf);\n"
                                      "  strbuf_release (&err);\n  return 0;\n}\n"));
  g_ptr_array_add (symbols, symbol_new ("ref_store", "struct", NULL, 1, 3, NULL));
  g_ptr_array_add (symbols, symbol_new ("gitdir", "field", "ref_store", 2, 2, NULL));
  g_ptr_array_add (symbols, symbol_new ("refs_read_ref", "function", NULL, 5, 9, NULL));
  g_ptr_array_add (symbols, symbol_new ("refs_update_ref", "function", NULL, 11, 19, NULL));
  put_file (fixture->store, "refs.c", "c", chunks, symbols);

  spans = lode_index_store_dup_file_symbol_spans (fixture->store, "refs.c", 15, 17, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (spans->len, ==, 1);
  g_assert_cmpstr (((LodeStoredSymbol *) spans->pdata[0])->name, ==, "refs_update_ref");
  g_clear_pointer (&spans, g_ptr_array_unref);
  spans = lode_index_store_dup_file_symbol_spans (fixture->store, "refs.c", 2, 8, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (spans->len, ==, 3);
  g_assert_cmpstr (((LodeStoredSymbol *) spans->pdata[0])->name, ==, "ref_store");
  g_assert_cmpstr (((LodeStoredSymbol *) spans->pdata[1])->name, ==, "gitdir");
  g_assert_cmpstr (((LodeStoredSymbol *) spans->pdata[2])->name, ==, "refs_read_ref");
}

/* A `symbol_spans` row that does not hold whole declarations (a damaged page, a blob cut
 * short) is a damaged index, said with the file's path, never a read past the blob: every
 * cut of a real row is tried. */
static void
test_damaged_symbol_spans (StoreFixture  *fixture,
                           gconstpointer  data)
{
  g_autoptr(GPtrArray) chunks = chunks_new ();
  g_autoptr(GPtrArray) symbols = symbols_new ();
  g_autofree char *hex = NULL;
  guint size;

  g_ptr_array_add (chunks, chunk_new (1, 9, NULL, NULL, NULL,
                                      "struct ref_store {\n  const char *gitdir;\n};\n\n"
                                      "int refs_read_ref (struct ref_store *refs)\n{\n"
                                      "  return 0;\n}\n"));
  g_ptr_array_add (symbols, symbol_new ("ref_store", "struct", NULL, 1, 3, NULL));
  g_ptr_array_add (symbols, symbol_new ("refs_read_ref", "function", NULL, 5, 8, NULL));
  put_file (fixture->store, "refs.c", "c", chunks, symbols);
  g_clear_object (&fixture->store);
  hex = query_text (fixture->db_path, "SELECT hex (spans) FROM symbol_spans");
  size = strlen (hex) / 2;
  g_assert_cmpuint (size, ==, 2 * 12 + strlen ("ref_store") + strlen ("refs_read_ref"));

  for (guint cut = 1; cut < size; cut++)
    {
      g_autoptr(GPtrArray) spans = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *sql = g_strdup_printf ("UPDATE symbol_spans SET spans = "
                                              "x'%.*s'", cut * 2, hex);

      exec_sql (fixture->db_path, sql);
      fixture->store = LODE_INDEX_STORE (lode_store_open (fixture->db_path, NULL));
      g_assert_nonnull (fixture->store);
      spans = lode_index_store_dup_file_symbol_spans (fixture->store, "refs.c", 1, 8, &error);
      /* A cut between two whole declarations leaves the first: a shorter, valid row. */
      if (cut == 12 + strlen ("ref_store"))
        {
          g_assert_no_error (error);
          g_assert_cmpuint (spans->len, ==, 1);
        }
      else
        {
          g_assert_error (error, LODE_ERROR, LODE_ERROR_DAMAGED);
          g_assert_nonnull (strstr (error->message, "refs.c"));
          g_assert_null (spans);
        }
      g_clear_object (&fixture->store);
    }
  fixture->store = LODE_INDEX_STORE (lode_store_open (fixture->db_path, NULL));
}

static void
test_foreign_database (StoreFixture  *fixture,
                       gconstpointer  data)
{
  g_clear_object (&fixture->store);
  g_assert_cmpint (g_unlink (fixture->db_path), ==, 0);
  exec_sql (fixture->db_path, "CREATE TABLE contacts (name TEXT); INSERT INTO contacts VALUES ('x')");

  assert_reset_and_usable (fixture);
}

static void
test_garbage_file (StoreFixture  *fixture,
                   gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) garbage = g_string_new (NULL);
  g_autofree char *wal = g_strconcat (fixture->db_path, "-wal", NULL);
  g_autofree char *shm = g_strconcat (fixture->db_path, "-shm", NULL);

  g_clear_object (&fixture->store);
  g_unlink (wal);
  g_unlink (shm);
  for (guint i = 0; i < 2000; i++)
    g_string_append (garbage, "this is not a database\n");
  g_assert_true (g_file_set_contents (fixture->db_path, garbage->str, garbage->len, &error));
  g_assert_no_error (error);

  assert_reset_and_usable (fixture);
}

static void
assert_stats (LodeIndexStore *store,
              guint           n_files,
              guint           n_chunks,
              guint           n_symbols)
{
  g_autoptr(GError) error = NULL;
  LodeStoreStats stats;

  g_assert_true (lode_index_store_get_stats (store, &stats, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (stats.n_files, ==, n_files);
  g_assert_cmpuint (stats.n_chunks, ==, n_chunks);
  g_assert_cmpuint (stats.n_symbols, ==, n_symbols);
}

static void
test_put_replace_remove (StoreFixture  *fixture,
                         gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) chunks = chunks_new ();
  g_autoptr(GPtrArray) symbols = symbols_new ();
  g_autoptr(GPtrArray) stored = NULL;
  g_autoptr(GPtrArray) results = NULL;
  g_autoptr(GHashTable) hashes = NULL;
  g_autoptr(GHashTable) languages = NULL;
  LodeStoreStats stats;

  g_ptr_array_add (chunks, chunk_new (5, 9, "function", "load_widget",
                                      "static Widget *load_widget (const char *name)",
                                      "static Widget *\nload_widget (const char *name)\n{\n"
                                      "  return widget_cache_lookup (name);\n}"));
  g_ptr_array_add (chunks, chunk_new (1, 4, NULL, NULL, NULL,
                                      "#include \"widget.h\"\n\n/* Widgets. */\n"));
  g_ptr_array_add (symbols, symbol_new ("load_widget", "function", NULL, 6, 9, NULL));
  put_file (fixture->store, "src/widget.c", "c", chunks, symbols);
  put_text (fixture->store, "README.md", "markdown", "# Widgets\n\nLoad them.\n");

  assert_stats (fixture->store, 2, 3, 1);
  g_assert_true (lode_index_store_get_stats (fixture->store, &stats, &error));
  g_assert_cmpuint (stats.n_lines, ==, 9 + 3);

  hashes = lode_index_store_dup_file_hashes (fixture->store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_hash_table_size (hashes), ==, 2);
  g_assert_true (g_hash_table_contains (hashes, "src/widget.c"));

  languages = lode_index_store_dup_language_counts (fixture->store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (languages, "c")), ==, 1);
  g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (languages, "markdown")), ==, 1);

  /* Chunks come back ordered by line, with their content. */
  stored = lode_index_store_dup_chunks_for_file (fixture->store, "src/widget.c", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (stored->len, ==, 2);
  g_assert_cmpuint (((LodeChunk *) stored->pdata[0])->start_line, ==, 1);
  g_assert_cmpuint (((LodeChunk *) stored->pdata[1])->start_line, ==, 5);
  g_assert_cmpstr (((LodeChunk *) stored->pdata[1])->symbol, ==, "load_widget");
  g_assert_cmpstr (((LodeChunk *) stored->pdata[1])->kind, ==, "function");
  g_assert_true (g_str_has_suffix (((LodeChunk *) stored->pdata[1])->content, "(name);\n}"));
  g_clear_pointer (&stored, g_ptr_array_unref);

  results = search (fixture->store, "widget_cache_lookup");
  g_assert_cmpuint (results->len, ==, 1);
  g_assert_cmpuint (result (results, 0)->start_line, ==, 5);
  g_assert_cmpuint (result (results, 0)->end_line, ==, 9);
  g_assert_cmpstr (result (results, 0)->language, ==, "c");
  g_assert_cmpstr (result (results, 0)->symbol, ==, "load_widget");
  g_clear_pointer (&results, g_ptr_array_unref);

  /* Replacing the file drops every old row. */
  g_ptr_array_set_size (chunks, 0);
  g_ptr_array_set_size (symbols, 0);
  g_ptr_array_add (chunks, chunk_new (1, 3, "function", "unload_gadget", NULL,
                                      "void\nunload_gadget (void)\n{ gadget_free (); }"));
  g_ptr_array_add (symbols, symbol_new ("unload_gadget", "function", NULL, 1, 3, NULL));
  g_ptr_array_add (symbols, symbol_new ("gadget_helper", "function", NULL, 3, 3, NULL));
  put_file (fixture->store, "src/widget.c", "c", chunks, symbols);

  assert_stats (fixture->store, 2, 2, 2);
  results = search (fixture->store, "widget_cache_lookup");
  g_assert_cmpuint (results->len, ==, 0);
  g_clear_pointer (&results, g_ptr_array_unref);
  results = search (fixture->store, "gadget_free");
  g_assert_cmpuint (results->len, ==, 1);
  g_assert_cmpstr (result (results, 0)->path, ==, "src/widget.c");
  g_clear_pointer (&results, g_ptr_array_unref);

  /* Removing it too. */
  g_assert_true (lode_index_store_remove_file (fixture->store, "src/widget.c", &error));
  g_assert_no_error (error);
  g_assert_true (lode_index_store_remove_file (fixture->store, "not/indexed.c", &error));
  g_assert_no_error (error);
  assert_stats (fixture->store, 1, 1, 0);
  results = search (fixture->store, "gadget_free");
  g_assert_cmpuint (results->len, ==, 0);
  g_clear_pointer (&results, g_ptr_array_unref);
  results = search (fixture->store, "unload_gadget");
  g_assert_cmpuint (results->len, ==, 0);

  stored = lode_index_store_dup_chunks_for_file (fixture->store, "src/widget.c", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (stored->len, ==, 0);
}

static void
test_batches (StoreFixture  *fixture,
              gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) results = NULL;

  /* A rolled-back batch leaves nothing behind. */
  g_assert_true (lode_index_store_begin (fixture->store, &error));
  put_text (fixture->store, "a.c", "c", "int alpha_value;\n");
  put_text (fixture->store, "b.c", "c", "int beta_value;\n");
  lode_index_store_rollback (fixture->store);

  assert_stats (fixture->store, 0, 0, 0);
  results = search (fixture->store, "alpha_value");
  g_assert_cmpuint (results->len, ==, 0);
  g_clear_pointer (&results, g_ptr_array_unref);

  /* A committed one is there, and visible to another connection. */
  g_assert_true (lode_index_store_begin (fixture->store, &error));
  put_text (fixture->store, "a.c", "c", "int alpha_value;\n");
  put_text (fixture->store, "b.c", "c", "int beta_value;\n");
  g_assert_true (lode_index_store_commit (fixture->store, &error));
  g_assert_no_error (error);

  {
    g_autoptr(LodeIndexStore) reader = NULL;

    reader = LODE_INDEX_STORE (lode_store_open (fixture->db_path, &error));
    g_assert_no_error (error);
    assert_stats (reader, 2, 2, 0);
    results = search (reader, "beta_value");
    g_assert_cmpuint (results->len, ==, 1);
  }
}

/* A C function in three places: its definition, its prototype, and calls. */
static void
put_parse_config_corpus (LodeIndexStore *store)
{
  g_autoptr(GPtrArray) chunks = chunks_new ();
  g_autoptr(GPtrArray) symbols = symbols_new ();

  g_ptr_array_add (chunks, chunk_new (10, 40, "function", "parse_config",
                                      "gboolean parse_config (const char *path, GError **error)",
                                      "gboolean\nparse_config (const char *path,\n"
                                      "              GError    **error)\n{\n"
                                      "  g_autoptr(GKeyFile) file = g_key_file_new ();\n\n"
                                      "  return g_key_file_load_from_file (file, path, 0, error);\n"
                                      "}"));
  g_ptr_array_add (symbols, symbol_new ("parse_config", "function", NULL, 10, 40,
                                        "gboolean parse_config (const char *path, GError **error)"));
  put_file (store, "src/config.c", "c", chunks, symbols);
  g_ptr_array_set_size (chunks, 0);
  g_ptr_array_set_size (symbols, 0);

  g_ptr_array_add (chunks, chunk_new (1, 8, NULL, NULL, NULL,
                                      "#pragma once\n\n"
                                      "gboolean parse_config (const char  *path,\n"
                                      "                       GError     **error);\n"));
  g_ptr_array_add (symbols, symbol_new ("parse_config", "function", NULL, 3, 4,
                                        "gboolean parse_config (const char  *path,\n"
                                        "                       GError     **error);"));
  put_file (store, "src/config.h", "c", chunks, symbols);
  g_ptr_array_set_size (chunks, 0);
  g_ptr_array_set_size (symbols, 0);

  /* Many uses, in a chunk whose own name mentions the function too: the best bm25 match. */
  g_ptr_array_add (chunks, chunk_new (1, 20, "function", "parse_config_or_die",
                                      "void parse_config_or_die (void)",
                                      "void\nparse_config_or_die (void)\n{\n"
                                      "  if (!parse_config (\"a\", NULL)) abort ();\n"
                                      "  if (!parse_config (\"b\", NULL)) abort ();\n"
                                      "  if (!parse_config (\"c\", NULL)) abort ();\n"
                                      "  /* parse_config parse_config parse_config */\n}"));
  g_ptr_array_add (symbols, symbol_new ("parse_config_or_die", "function", NULL, 1, 20, NULL));
  put_file (store, "src/main.c", "c", chunks, symbols);
  g_ptr_array_set_size (chunks, 0);
  g_ptr_array_set_size (symbols, 0);

  g_ptr_array_add (chunks, chunk_new (1, 12, "class", "ConfigParser", "class ConfigParser:",
                                      "class ConfigParser:\n    def parse(self, text):\n"
                                      "        return parse_config(text)\n"));
  g_ptr_array_add (symbols, symbol_new ("ConfigParser", "class", NULL, 1, 12, NULL));
  g_ptr_array_add (symbols, symbol_new ("parse", "method", "ConfigParser", 2, 3, NULL));
  put_file (store, "tools/config_parser.py", "python", chunks, symbols);
  g_ptr_array_set_size (chunks, 0);
  g_ptr_array_set_size (symbols, 0);

  g_ptr_array_add (chunks, chunk_new (1, 5, "class", "HtmlParser", "class HtmlParser:",
                                      "class HtmlParser:\n    def parse(self, text):\n"
                                      "        return text\n"));
  g_ptr_array_add (symbols, symbol_new ("HtmlParser", "class", NULL, 1, 5, NULL));
  g_ptr_array_add (symbols, symbol_new ("parse", "method", "HtmlParser", 2, 3, NULL));
  put_file (store, "tools/html_parser.py", "python", chunks, symbols);
}

static void
test_identifier_definition_first (StoreFixture  *fixture,
                                  gconstpointer  data)
{
  const char *queries[] = { "parse_config", "PARSE_CONFIG", "parse_config()" };

  put_parse_config_corpus (fixture->store);

  for (guint i = 0; i < G_N_ELEMENTS (queries); i++)
    {
      g_autoptr(GPtrArray) results = search (fixture->store, queries[i]);

      g_assert_cmpuint (results->len, >=, 3);
      g_assert_cmpstr (result (results, 0)->path, ==, "src/config.c");
      g_assert_cmpuint (result (results, 0)->start_line, ==, 10);
      g_assert_cmpstr (result (results, 0)->kind, ==, "function");
      g_assert_cmpstr (result (results, 0)->symbol, ==, "parse_config");
      /* The prototype before the uses. */
      g_assert_cmpstr (result (results, 1)->path, ==, "src/config.h");
      g_assert_cmpstr (result (results, 2)->path, ==, "src/main.c");
    }
}

static void
test_identifier_container (StoreFixture  *fixture,
                           gconstpointer  data)
{
  g_autoptr(GPtrArray) results = NULL;

  put_parse_config_corpus (fixture->store);

  results = search (fixture->store, "HtmlParser::parse");
  g_assert_cmpuint (results->len, >=, 2);
  g_assert_cmpstr (result (results, 0)->path, ==, "tools/html_parser.py");
  g_clear_pointer (&results, g_ptr_array_unref);

  results = search (fixture->store, "ConfigParser.parse");
  g_assert_cmpuint (results->len, >=, 2);
  g_assert_cmpstr (result (results, 0)->path, ==, "tools/config_parser.py");
}

static void
test_path_query (StoreFixture  *fixture,
                 gconstpointer  data)
{
  g_autoptr(GPtrArray) results = NULL;
  g_autoptr(GPtrArray) chunks = chunks_new ();

  put_text (fixture->store, "src/liblode/lode-store.c", "c", "/* the store */\nint x;\n");
  put_text (fixture->store, "src/liblode/lode-store.h", "c", "#pragma once\n");
  put_text (fixture->store, "tests/liblode/test-store.c", "c", "int main (void);\n");
  put_text (fixture->store, "src/cli/main.c", "c", "int main (void) { return 0; }\n");
  put_text (fixture->store, "docs/store.c.md", "markdown", "lode-store.c explained\n");
  g_ptr_array_add (chunks, chunk_new (1, 2, NULL, NULL, NULL, "first\nlines\n"));
  g_ptr_array_add (chunks, chunk_new (3, 4, NULL, NULL, NULL, "more\nlines\n"));
  put_file (fixture->store, "src/store.c", "c", chunks, NULL);

  results = search (fixture->store, "lode-store.c");
  g_assert_cmpuint (results->len, >=, 1);
  g_assert_cmpstr (result (results, 0)->path, ==, "src/liblode/lode-store.c");
  g_assert_cmpuint (result (results, 0)->start_line, ==, 1);
  g_assert_cmpstr (result (results, 0)->snippet, ==, "/* the store */\nint x;");
  g_clear_pointer (&results, g_ptr_array_unref);

  /* A whole trailing component beats a mere suffix, which beats a substring, which beats
   * paths that only share words; one result per file, its first chunk. */
  results = search (fixture->store, "store.c");
  g_assert_cmpuint (results->len, ==, 5);
  g_assert_cmpstr (result (results, 0)->path, ==, "src/store.c");
  g_assert_cmpuint (result (results, 0)->start_line, ==, 1);
  g_assert_true (has_path (results, "src/liblode/lode-store.c"));
  g_assert_true (has_path (results, "tests/liblode/test-store.c"));
  g_assert_cmpstr (result (results, 3)->path, ==, "docs/store.c.md");
  g_assert_cmpstr (result (results, 4)->path, ==, "src/liblode/lode-store.h");
  g_clear_pointer (&results, g_ptr_array_unref);

  results = search (fixture->store, "src/cli/main.c");
  g_assert_cmpuint (results->len, >=, 1);
  g_assert_cmpstr (result (results, 0)->path, ==, "src/cli/main.c");
  g_clear_pointer (&results, g_ptr_array_unref);

  results = search (fixture->store, "./liblode/");
  g_assert_cmpuint (results->len, ==, 3);
  g_assert_false (has_path (results, "src/cli/main.c"));
}

static void
test_natural_query (StoreFixture  *fixture,
                    gconstpointer  data)
{
  g_autoptr(GPtrArray) results = NULL;
  g_autoptr(GPtrArray) chunks = chunks_new ();
  LodeChunk *chunk;

  chunk = chunk_new (1, 20, "function", "scanner_skip_binary", NULL,
                     "static gboolean\nscanner_skip_binary (LodeScanner *self, GFile *file)\n{\n"
                     "  return has_nul_byte (file);\n}\n");
  chunk->doc = g_strdup ("Binary files are skipped when a NUL byte shows up in the head.");
  g_ptr_array_add (chunks, chunk);
  put_file (fixture->store, "src/scanner.c", "c", chunks, NULL);
  put_text (fixture->store, "src/ignore.c", "c",
            "/* Parses the ignore rules of a .gitignore file. */\nvoid parse_ignore_rules (void);\n");
  put_text (fixture->store, "NOTES.txt", "text",
            "How does the thing do what it does? Where is it, and why? What does it do to them?\n");

  results = search (fixture->store, "how does the scanner skip binary files");
  g_assert_cmpuint (results->len, >=, 1);
  g_assert_cmpstr (result (results, 0)->path, ==, "src/scanner.c");
  /* Stop words alone match nothing. */
  g_assert_false (has_path (results, "NOTES.txt"));
  g_clear_pointer (&results, g_ptr_array_unref);

  /* Word forms: "parsed" finds "parses" and "parse". */
  results = search (fixture->store, "where are ignore rules parsed");
  g_assert_cmpuint (results->len, >=, 1);
  g_assert_cmpstr (result (results, 0)->path, ==, "src/ignore.c");
  g_assert_false (has_path (results, "NOTES.txt"));
  g_clear_pointer (&results, g_ptr_array_unref);

  /* A query of stop words only still searches. */
  results = search (fixture->store, "what does it do");
  g_assert_cmpuint (results->len, ==, 1);
  g_assert_cmpstr (result (results, 0)->path, ==, "NOTES.txt");
}

/* In a question, what stands in backticks is code, and counts more than the prose around
 * it: two words as rare as each other, and the one in backticks wins. In a fenced block only
 * compound identifiers are code: its plain words are mostly a shell session's (`cd`, `make`)
 * and stay prose. Ties are ordered by path, so total.c only comes first by weight. */
static void
test_code_words (StoreFixture  *fixture,
                 gconstpointer  data)
{
  g_autoptr(GPtrArray) first = NULL;
  g_autoptr(GPtrArray) second = NULL;

  put_text (fixture->store, "total.c", "c", "int total;\n");
  put_text (fixture->store, "balance.c", "c", "int balance;\n");
  put_text (fixture->store, "other.c", "c", "int other;\n");

  first = search (fixture->store, "the `total` is wrong in the balance");
  g_assert_cmpuint (first->len, ==, 2);
  g_assert_cmpstr (result (first, 0)->path, ==, "total.c");

  second = search (fixture->store, "the `total` is wrong:\n```\nbalance\n```");
  g_assert_cmpuint (second->len, ==, 2);
  g_assert_cmpstr (result (second, 0)->path, ==, "total.c");
}

/* The backend's statistics for a long query's term selection: in how many chunks each word
 * occurs, whatever the column, and how many chunks there are. */
static void
test_doc_frequencies (StoreFixture  *fixture,
                      gconstpointer  data)
{
  const char *const terms[] = { "apple", "banana", "durian", "fruit" };
  guint counts[G_N_ELEMENTS (terms)];
  guint n_chunks = 0;
  g_autoptr(GError) error = NULL;

  put_text (fixture->store, "a.c", "c", "apple banana\n");
  put_text (fixture->store, "b.c", "c", "apple apple apple\n");
  put_text (fixture->store, "fruit/c.c", "c", "cherry\n");

  g_assert_true (lode_search_backend_doc_frequencies (LODE_SEARCH_BACKEND (fixture->store),
                                                      terms, G_N_ELEMENTS (terms), counts,
                                                      &n_chunks, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n_chunks, ==, 3);
  g_assert_cmpuint (counts[0], ==, 2);
  g_assert_cmpuint (counts[1], ==, 1);
  g_assert_cmpuint (counts[2], ==, 0);
  /* The path is a column too. */
  g_assert_cmpuint (counts[3], ==, 1);
}

/* A warm server keeps the rows of common words between searches: a change made through
 * another connection (the indexer's), or through its own, is seen by the next search. */
static void
test_common_words_current (StoreFixture  *fixture,
                           gconstpointer  data)
{
  const char *question = "where is the widget";
  g_autoptr(LodeIndexStore) reader = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) before = NULL;
  g_autoptr(GPtrArray) after = NULL;
  g_autoptr(GPtrArray) own = NULL;
  g_autoptr(GPtrArray) own_after = NULL;

  /* More files hold the word than a search reads again every time. */
  for (guint i = 0; i < 600; i++)
    {
      g_autofree char *path = g_strdup_printf ("src/part%03u.c", i);

      put_text (fixture->store, path, "c", "widget\n");
    }

  reader = LODE_INDEX_STORE (lode_store_open_reader (fixture->db_path, &error));
  g_assert_no_error (error);
  before = search (reader, question);
  g_assert_false (has_path (before, "src/best.c"));

  /* Another connection adds a file that holds it more often than any. */
  put_text (fixture->store, "src/best.c", "c", "widget widget widget\n");
  after = search (reader, question);
  g_assert_cmpstr (result (after, 0)->path, ==, "src/best.c");

  /* The writer's own connection, which searches too (the indexer's reports). */
  own = search (fixture->store, question);
  g_assert_cmpstr (result (own, 0)->path, ==, "src/best.c");
  put_text (fixture->store, "src/newer.c", "c", "widget widget widget widget\n");
  own_after = search (fixture->store, question);
  g_assert_cmpstr (result (own_after, 0)->path, ==, "src/newer.c");
}

/* A lexical query of @words (borrowed) as groups of weight 1: any of them, or all. */
static LodeLexicalQuery
lexical_query (const char *const *words,
               gboolean           require_all)
{
  LodeLexicalQuery query = { g_ptr_array_new_with_free_func (g_free), require_all, FALSE, FALSE };

  for (guint i = 0; words[i] != NULL; i++)
    {
      LodeLexicalGroup *group = g_new0 (LodeLexicalGroup, 1);

      group->term = (char *) words[i];
      group->weight = 1.0;
      g_ptr_array_add (query.groups, group);
    }
  return query;
}

/* The lexical leg's best @limit hits for @words, any of them (a question's words). */
static GArray *
lexical_hits (LodeIndexStore     *store,
              const char *const  *words,
              const char         *path_glob,
              guint               limit)
{
  LodeLexicalQuery query = lexical_query (words, FALSE);
  LodeSearchFilter filter = { NULL, path_glob };
  g_autoptr(GArray) hits = g_array_new (FALSE, FALSE, sizeof (LodeLexicalHit));
  g_autoptr(GError) error = NULL;
  double weight = 0.0;

  g_assert_true (lode_search_backend_lexical (LODE_SEARCH_BACKEND (store), &query, &filter,
                                              limit, NULL, hits, &weight, &error));
  g_assert_no_error (error);
  g_ptr_array_unref (query.groups);

  return g_steal_pointer (&hits);
}

/* @hits are the first of @all, the same rows with the same scores in the same order. */
static void
assert_hits_lead (GArray *hits,
                  GArray *all)
{
  g_assert_cmpuint (hits->len, <=, all->len);
  for (guint i = 0; i < hits->len; i++)
    {
      const LodeLexicalHit *a = &g_array_index (hits, LodeLexicalHit, i);
      const LodeLexicalHit *b = &g_array_index (all, LodeLexicalHit, i);

      g_assert_cmpint (a->chunk_id, ==, b->chunk_id);
      g_assert_true (a->score == b->score);
    }
}

/* The rows of a kettle: 4,800 in 48 files, that hold "water", "steam", "kettle" and
 * "spout" in different measures. */
static void
put_kettle_rows (LodeIndexStore *store)
{
  g_autoptr(GError) error = NULL;

  /* A third of the rows hold the common word, from once to seven times; a quarter the
   * middling one; a few the rare ones. The ones with the rare word differ by how often they
   * hold the common one, so that it decides between them, and some are alike: they tie. The
   * rows are twelve ids apart (others hold none of the words between them), more than a
   * window of ids apart from first to last. */
  g_assert_true (lode_index_store_begin (store, &error));
  for (guint f = 0; f < 48; f++)
    {
      g_autofree char *path = g_strdup_printf ("%s/file%02u.c", f % 3 ? "src" : "lib", f);
      g_autoptr(GPtrArray) chunks = chunks_new ();

      for (guint r = f * 100; r < (f + 1) * 100; r++)
        {
          g_autoptr(GString) text = g_string_new (NULL);
          guint i = r / 12;

          if (r % 12 == 0 && i % 10 < 3)
            for (guint j = 0; j <= (i / 10) % 7; j++)
              g_string_append (text, "water ");
          if (r % 12 == 0 && i % 4 == 2)
            g_string_append (text, "steam ");
          if (r % 12 == 0 && i % 20 == 2)
            g_string_append (text, "kettle ");
          if (r % 12 == 0 && i % 40 == 13)
            g_string_append (text, "spout ");
          g_string_append (text, "pot\n");
          g_ptr_array_add (chunks, chunk_new (r % 100 + 1, r % 100 + 1, NULL, NULL, NULL,
                                              text->str));
        }
      put_file (store, path, "c", chunks, NULL);
    }
  g_assert_true (lode_index_store_commit (store, &error));
  g_assert_no_error (error);
}

/* A question's few best rows, found without adding up every common word's rows (once the
 * best rows outscore what the commoner words can add, those are only looked up in the rows
 * the rarer ones found), are the first rows of the full ranking: same rows, same scores, ties
 * in the same order; and again once the common words' rows are kept between searches, and
 * within a path filter. */
static void
test_common_words_bounded (StoreFixture  *fixture,
                           gconstpointer  data)
{
  const char *const words[] = { "water", "kettle", "steam", "spout", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) all = NULL;
  g_autoptr(GArray) again = NULL;
  g_autoptr(GArray) all_filtered = NULL;
  g_autoptr(GArray) best_filtered = NULL;
  guint cut_ties = 0;

  put_kettle_rows (fixture->store);

  all = lexical_hits (fixture->store, words, NULL, 1000);
  g_assert_cmpuint (all->len, ==, 190);
  for (guint limit = 1; limit <= 60; limit++)
    {
      g_autoptr(GArray) some = lexical_hits (fixture->store, words, NULL, limit);

      g_assert_cmpuint (some->len, ==, limit);
      assert_hits_lead (some, all);
      if (g_array_index (all, LodeLexicalHit, limit - 1).score ==
          g_array_index (all, LodeLexicalHit, limit).score)
        cut_ties++;
    }
  g_assert_cmpuint (cut_ties, >, 0);
  again = lexical_hits (fixture->store, words, NULL, 5);
  assert_hits_lead (again, all);

  all_filtered = lexical_hits (fixture->store, words, "src/**", 1000);
  g_assert_cmpuint (all_filtered->len, <, all->len);
  best_filtered = lexical_hits (fixture->store, words, "src/**", 7);
  g_assert_cmpuint (best_filtered->len, ==, 7);
  assert_hits_lead (best_filtered, all_filtered);
}

/* The relevance the searcher asks for of chunks found another way (a pasted issue's
 * literals, the neighbours of vectors) is the one the lexical leg ranks them by, for a
 * question's words (any of them) and for an identifier's parts (all of them); a chunk that
 * holds none of the words has none. */
static void
test_scores_of_given_chunks (StoreFixture  *fixture,
                             gconstpointer  data)
{
  const char *const words[] = { "water", "kettle", "steam", "spout", NULL };
  const char *const parts[] = { "water", "steam", NULL };

  put_kettle_rows (fixture->store);

  for (guint all_of = 0; all_of < 2; all_of++)
    {
      LodeLexicalQuery query = lexical_query (all_of ? parts : words, all_of);
      LodeSearchFilter filter = { NULL, NULL };
      g_autoptr(GArray) hits = g_array_new (FALSE, FALSE, sizeof (LodeLexicalHit));
      g_autoptr(GError) error = NULL;
      g_autofree gint64 *ids = NULL;
      g_autofree double *scores = NULL;
      double weight = 0.0;
      guint n;

      g_assert_true (lode_search_backend_lexical (LODE_SEARCH_BACKEND (fixture->store), &query,
                                                  &filter, 1000, NULL, hits, &weight, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (hits->len, >, 10);

      /* The hits, and after them a row between two of them, which holds no word. */
      n = hits->len + 1;
      ids = g_new (gint64, n);
      scores = g_new (double, n);
      for (guint i = 0; i < hits->len; i++)
        ids[i] = g_array_index (hits, LodeLexicalHit, i).chunk_id;
      ids[hits->len] = ids[0] + 1;
      for (guint i = 0; i < hits->len; i++)
        g_assert_cmpint (ids[i], !=, ids[hits->len]);

      g_assert_true (lode_search_backend_score_lexical (LODE_SEARCH_BACKEND (fixture->store),
                                                        &query, ids, n, scores, &error));
      g_assert_no_error (error);
      for (guint i = 0; i < hits->len; i++)
        {
          double ranked = g_array_index (hits, LodeLexicalHit, i).score;

          g_assert_cmpfloat (ranked, >, 0.0);
          g_assert_cmpfloat_with_epsilon (scores[i], ranked, ranked * 1e-9);
        }
      g_assert_cmpfloat (scores[hits->len], ==, 0.0);
      g_ptr_array_unref (query.groups);
    }
}

/* The chunks that hold @text word for word, through the backend. */
static GArray *
text_chunks (LodeIndexStore *store,
             const char     *text)
{
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GError) error = NULL;
  gboolean common = TRUE;

  g_assert_true (lode_search_backend_find_text (LODE_SEARCH_BACKEND (store), text, 64, ids,
                                                &common, &error));
  g_assert_no_error (error);
  g_assert_false (common);

  return g_steal_pointer (&ids);
}

/* A message's words are common words whose rows a question kept: the chunk that says it word
 * for word is still found, one whose words no chunk holds together is not looked for (no
 * chunk holds it), and a chunk written since is found. */
static void
test_common_words_literal (StoreFixture  *fixture,
                           gconstpointer  data)
{
  const char *const words[] = { "unable", "read", "tree", "steam", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) hits = NULL;
  g_autoptr(GArray) found = NULL;
  g_autoptr(GArray) none = NULL;
  g_autoptr(GArray) later = NULL;

  g_assert_true (lode_index_store_begin (fixture->store, &error));
  for (guint i = 0; i < 300; i++)
    {
      g_autofree char *src = g_strdup_printf ("src/file%03u.c", i);
      g_autofree char *lib = g_strdup_printf ("lib/file%03u.c", i);

      put_text (fixture->store, src, "c",
                i == 150 ? "die (\"unable to read tree %s\", oid);\n"
                         : "tree = read_tree (); if (!tree) unable ();\n");
      put_text (fixture->store, lib, "c", "steam ();\n");
    }
  g_assert_true (lode_index_store_commit (fixture->store, &error));

  /* The question keeps the words' rows. */
  hits = lexical_hits (fixture->store, words, NULL, 10);
  g_assert_cmpuint (hits->len, ==, 10);

  found = text_chunks (fixture->store, "unable to read tree");
  g_assert_cmpuint (found->len, ==, 1);
  none = text_chunks (fixture->store, "unable to steam");
  g_assert_cmpuint (none->len, ==, 0);

  put_text (fixture->store, "src/new.c", "c", "warn (\"unable to steam\");\n");
  later = text_chunks (fixture->store, "unable to steam");
  g_assert_cmpuint (later->len, ==, 1);
}

/* Files that each hold some of the everyday words of an issue, so that they are common in
 * the project, as in a real one. */
static void
put_everyday_files (LodeIndexStore *store)
{
  static const char *const words[] = {
    "value", "update", "config", "error", "result", "check", "return", "message", "handle",
    "start", "number", "order", "state", "field", "event", "list",
  };

  for (guint i = 0; i < 40; i++)
    {
      g_autofree char *path = g_strdup_printf ("src/module%u.py", i);
      g_autoptr(GString) text = g_string_new (NULL);

      for (guint j = 0; j < G_N_ELEMENTS (words); j++)
        if ((i + j) % 3 != 0)
          g_string_append_printf (text, "%s ", words[j]);
      g_string_append_c (text, '\n');
      put_text (store, path, "python", text->str);
    }
}

/* A pasted issue with a traceback: the frame's file and function say where the bug is,
 * although the prose matches another file better. */
static void
test_issue_traceback (StoreFixture  *fixture,
                      gconstpointer  data)
{
  g_autoptr(GPtrArray) results = NULL;

  put_everyday_files (fixture->store);
  put_text (fixture->store, "shop/billing/ledger.py", "python",
            "def settle(order):\n    return order.amount - order.paid\n");
  put_text (fixture->store, "shop/pages/receipt.py", "python",
            "# The receipt page lists each refund the customer got, and the balance.\n"
            "def render(customer, refunds, balance): pass\n");

  results = search (fixture->store,
                    "Refund shown twice on the receipt page\n\n"
                    "When a customer gets a refund, the receipt page shows the refund twice and "
                    "the balance is wrong. Every payment after that is off by the amount of the "
                    "refund. The customer sees a negative balance on the receipt.\n\n"
                    "Traceback (most recent call last):\n"
                    "  File \"/usr/lib/python3/site-packages/shop/billing/ledger.py\", line 2, "
                    "in settle\n"
                    "    return order.amount - order.paid\n"
                    "ValueError: negative amount\n");
  g_assert_cmpuint (results->len, >=, 2);
  g_assert_cmpstr (result (results, 0)->path, ==, "shop/billing/ledger.py");
}

/* Links, addresses, handles, versions, hashes and template headings of a pasted issue name
 * no code: files that only share those words are not found. */
static void
test_issue_noise (StoreFixture  *fixture,
                  gconstpointer  data)
{
  g_autoptr(GPtrArray) results = NULL;

  put_everyday_files (fixture->store);
  put_text (fixture->store, "src/refund.c", "c",
            "/* A refund is booked once per order. */\nvoid book_refund (void);\n");
  put_text (fixture->store, "src/download.c", "c",
            "/* Fetches releases from the download mirror (example host, github). */\n"
            "void fetch_release (const char *version, const char *notes);\n");
  put_text (fixture->store, "docs/CONTRIBUTING.md", "markdown",
            "Describe the bug, the steps to reproduce it, the expected behavior and your "
            "environment.\n");

  results = search (fixture->store,
                    "**Describe the bug**\n"
                    "A refund is booked twice, see https://github.com/example/shop/releases/"
                    "download/v2.47.0/notes.html and commit 1a2b3c4d5e6f7a8b, reported by "
                    "@someone (bob@example.org).\n\n"
                    "**Steps to reproduce**\n1. Book a refund\n\n"
                    "**Expected behavior**\nOnce.\n\n"
                    "**Environment**\n- version 2.47.0\n");
  g_assert_cmpuint (results->len, >=, 1);
  g_assert_cmpstr (result (results, 0)->path, ==, "src/refund.c");
  g_assert_false (has_path (results, "src/download.c"));
  g_assert_false (has_path (results, "docs/CONTRIBUTING.md"));
}

/* The first line of a pasted issue is its title, the reporter's summary: its words count
 * more than the body's, which wander (here to the logger, named more often). A one-line
 * question has no title, and its words count alike. */
static void
test_issue_title (StoreFixture  *fixture,
                  gconstpointer  data)
{
  const char *body = "**Describe the bug**\n"
                     "The logger prints a warning and then the logger stops; the logger "
                     "rotation might be involved.\n";
  g_autofree char *issue = g_strconcat ("Scheduler misses its deadline\n", body, NULL);
  g_autofree char *one_line = g_strdup ("the scheduler misses its deadline when the logger "
                                        "stops and the logger rotation and the logger warning");
  g_autoptr(GPtrArray) results = NULL;
  g_autoptr(GPtrArray) untitled = NULL;
  g_autoptr(GPtrArray) line = NULL;

  put_everyday_files (fixture->store);
  put_text (fixture->store, "src/scheduler.c", "c",
            "/* Runs each task before its deadline. */\nvoid scheduler_run (void);\n");
  put_text (fixture->store, "src/logger.c", "c",
            "/* The logger writes a warning and rotates its files. */\n"
            "void logger_write (int level);\n");

  results = search (fixture->store, issue);
  g_assert_cmpuint (results->len, >=, 2);
  g_assert_cmpstr (result (results, 0)->path, ==, "src/scheduler.c");

  /* The same body under a first line too long for a title. */
  untitled = search (fixture->store, one_line);
  g_assert_cmpuint (untitled->len, >=, 2);
  g_assert_cmpstr (result (untitled, 0)->path, ==, "src/logger.c");

  line = search (fixture->store, body);
  g_assert_cmpstr (result (line, 0)->path, ==, "src/logger.c");
}

/* A long issue keeps the words that say most in this project: the one rare word of a
 * thousand-word paste still finds its file, whatever else the paste holds. */
static void
test_issue_long (StoreFixture  *fixture,
                 gconstpointer  data)
{
  g_autoptr(GString) issue = g_string_new ("The spooler hangs when the config has an error.\n");
  g_autoptr(GPtrArray) results = NULL;

  put_everyday_files (fixture->store);
  put_text (fixture->store, "src/spooler.c", "c", "void spooler_drain (void);\n");
  for (guint i = 0; i < 300; i++)
    g_string_append_printf (issue, "Unheardofword%c%c%c, ", 'a' + i % 26, 'a' + i / 26 % 26,
                            'a' + i / 676);
  g_string_append (issue, "value update result check state event list.\n");

  results = search (fixture->store, issue->str);
  g_assert_cmpuint (results->len, >=, 2);
  g_assert_cmpstr (result (results, 0)->path, ==, "src/spooler.c");
}

static void
test_filters (StoreFixture  *fixture,
              gconstpointer  data)
{
  LodeSearchOptions options = LODE_SEARCH_OPTIONS_INIT;
  g_autoptr(GPtrArray) results = NULL;
  g_autoptr(GPtrArray) chunks = chunks_new ();

  put_text (fixture->store, "src/a.c", "c", "void teapot_brew (void);\n");
  put_text (fixture->store, "src/b.py", "python", "def teapot_brew(): pass\n");
  put_text (fixture->store, "tests/c.py", "python", "teapot_brew()\n");
  for (guint i = 0; i < 5; i++)
    {
      g_autofree char *text = g_strdup_printf ("teapot_brew (%u);\n", i);

      g_ptr_array_add (chunks, chunk_new (i + 1, i + 1, NULL, NULL, NULL, text));
    }
  put_file (fixture->store, "src/many.c", "c", chunks, NULL);

  options.query = "teapot_brew";
  options.language = "python";
  results = search_full (fixture->store, &options);
  g_assert_cmpuint (results->len, ==, 2);
  for (guint i = 0; i < results->len; i++)
    g_assert_cmpstr (result (results, i)->language, ==, "python");
  g_clear_pointer (&results, g_ptr_array_unref);

  options.path_glob = "src/**";
  results = search_full (fixture->store, &options);
  g_assert_cmpuint (results->len, ==, 1);
  g_assert_cmpstr (result (results, 0)->path, ==, "src/b.py");
  g_clear_pointer (&results, g_ptr_array_unref);

  options.language = NULL;
  options.path_glob = "*.c";
  results = search_full (fixture->store, &options);
  g_assert_cmpuint (results->len, ==, 6);
  for (guint i = 0; i < results->len; i++)
    g_assert_true (g_str_has_suffix (result (results, i)->path, ".c"));
  g_clear_pointer (&results, g_ptr_array_unref);

  options.path_glob = "tests/";
  results = search_full (fixture->store, &options);
  g_assert_cmpuint (results->len, ==, 1);
  g_assert_cmpstr (result (results, 0)->path, ==, "tests/c.py");
  g_clear_pointer (&results, g_ptr_array_unref);

  options.language = "rust";
  options.path_glob = NULL;
  results = search_full (fixture->store, &options);
  g_assert_cmpuint (results->len, ==, 0);
  g_clear_pointer (&results, g_ptr_array_unref);

  /* Path queries take the filters too. */
  options.query = "src/";
  options.language = "c";
  results = search_full (fixture->store, &options);
  g_assert_cmpuint (results->len, ==, 2);
  g_clear_pointer (&results, g_ptr_array_unref);

  options.query = "teapot_brew";
  options.language = NULL;
  options.one_per_file = TRUE;
  results = search_full (fixture->store, &options);
  g_assert_cmpuint (results->len, ==, 4);
  for (guint i = 0; i < results->len; i++)
    for (guint j = 0; j < i; j++)
      g_assert_cmpstr (result (results, i)->path, !=, result (results, j)->path);
  g_clear_pointer (&results, g_ptr_array_unref);

  options.one_per_file = FALSE;
  options.min_score = 1e9;
  results = search_full (fixture->store, &options);
  g_assert_cmpuint (results->len, ==, 0);
  g_clear_pointer (&results, g_ptr_array_unref);

  options.min_score = 0.0;
  options.limit = 0;
  results = search_full (fixture->store, &options);
  g_assert_cmpuint (results->len, ==, 1);
  g_clear_pointer (&results, g_ptr_array_unref);

  options.limit = 3;
  results = search_full (fixture->store, &options);
  g_assert_cmpuint (results->len, ==, 3);
}

static void
test_limit_clamp (StoreFixture  *fixture,
                  gconstpointer  data)
{
  LodeSearchOptions options = LODE_SEARCH_OPTIONS_INIT;
  g_autoptr(GPtrArray) results = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (lode_index_store_begin (fixture->store, &error));
  for (guint i = 0; i < 130; i++)
    {
      g_autofree char *path = g_strdup_printf ("gen/file%03u.c", i);

      put_text (fixture->store, path, "c", "int zorglub;\n");
    }
  g_assert_true (lode_index_store_commit (fixture->store, &error));

  options.query = "zorglub";
  options.limit = 1000;
  results = search_full (fixture->store, &options);
  g_assert_cmpuint (results->len, ==, LODE_SEARCH_MAX_LIMIT);
  g_clear_pointer (&results, g_ptr_array_unref);

  options.one_per_file = TRUE;
  results = search_full (fixture->store, &options);
  g_assert_cmpuint (results->len, ==, LODE_SEARCH_MAX_LIMIT);
}

static void
test_hostile_queries (StoreFixture  *fixture,
                      gconstpointer  data)
{
  const char *queries[] = {
    "\"", "\"\"", "\"foo", "foo\"bar", "(", ")", "(foo", "foo AND", "AND", "OR OR OR", "NOT",
    "foo NOT bar", "NEAR(foo bar)", "NEAR(foo bar, 2)", "*", "foo*", "^foo", "foo:bar",
    "symbol:foo", "{symbol body}: foo", "body : \"x\"", "a OR", "-", "--", "'", "\\", "%", "_",
    "::", "->", ".", "()", "#", "$", "@", "+", "\xff\xfe\xfd", "caf\xc3", "日本語", "   ",
    "foo\tbar\nbaz", "\"\" OR \"\"", "fo\"o AND (bar OR \"baz", "x", "1", "a b c d e f",
    "/", "//", "./", "*.c", "src/*.c", "[abc]", "foo.c)", "NEAR", "\"NEAR\"",
  };
  g_autoptr(GString) long_query = g_string_new (NULL);

  put_text (fixture->store, "src/foo.c", "c", "int foo (int bar) { return bar * baz; }\n");
  put_text (fixture->store, "notes.md", "markdown", "near and far, or not, and so on\n");

  for (guint i = 0; i < G_N_ELEMENTS (queries); i++)
    {
      g_autoptr(GPtrArray) results = search (fixture->store, queries[i]);

      for (guint j = 0; j < results->len; j++)
        g_assert_true (g_utf8_validate (result (results, j)->snippet, -1, NULL));
    }

  for (guint i = 0; i < 2000; i++)
    g_string_append_printf (long_query, "w%u \"( ", i);
  {
    g_autoptr(GPtrArray) results = search (fixture->store, long_query->str);

    g_assert_nonnull (results);
  }
}

static void
test_snippet (StoreFixture  *fixture,
              gconstpointer  data)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GPtrArray) results = NULL;
  const char *snippet;
  guint n_lines = 1;

  for (guint i = 1; i <= 40; i++)
    g_string_append_printf (text, "line %u filler filler filler filler filler filler\n", i);
  g_string_append (text, "here comes the needle_word in line 41\n");
  for (guint i = 42; i <= 80; i++)
    g_string_append_printf (text, "line %u %s\n", i, "ééééééééééééééééééééééééééééééé");
  put_text (fixture->store, "big.txt", "text", text->str);

  results = search (fixture->store, "needle_word");
  g_assert_cmpuint (results->len, ==, 1);
  snippet = result (results, 0)->snippet;
  g_assert_true (g_str_has_prefix (snippet, "here comes the needle_word"));
  g_assert_cmpuint (strlen (snippet), <=, 600);
  g_assert_true (g_utf8_validate (snippet, -1, NULL));
  for (const char *p = snippet; *p != '\0'; p++)
    n_lines += *p == '\n';
  g_assert_cmpuint (n_lines, <=, 10);
  /* The chunk's lines, not the snippet's. */
  g_assert_cmpuint (result (results, 0)->start_line, ==, 1);
}

static void
test_cancel (StoreFixture  *fixture,
             gconstpointer  data)
{
  LodeSearchOptions options = LODE_SEARCH_OPTIONS_INIT;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) results = NULL;

  put_text (fixture->store, "a.c", "c", "int cancel_me;\n");
  g_cancellable_cancel (cancellable);

  options.query = "cancel_me";
  results = store_search (fixture->store, &options, cancellable, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (results);
  g_clear_error (&error);

  /* The store works on afterwards. */
  results = store_search (fixture->store, &options, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (results->len, ==, 1);
}

static void
test_classify (void)
{
  static const struct
  {
    const char    *query;
    LodeQueryKind  kind;
  } cases[] = {
    { "lode_store_open", LODE_QUERY_IDENTIFIER },
    { "parseHttpRequest", LODE_QUERY_IDENTIFIER },
    { "Foo::bar", LODE_QUERY_IDENTIFIER },
    { "obj.method", LODE_QUERY_IDENTIFIER },
    { "self->priv", LODE_QUERY_IDENTIFIER },
    { "lode-store", LODE_QUERY_IDENTIFIER },
    { "Scanner", LODE_QUERY_IDENTIFIER },
    { "  lode_store_open()  ", LODE_QUERY_IDENTIFIER },
    { "$count", LODE_QUERY_IDENTIFIER },
    { "src/cli/main.c", LODE_QUERY_PATH },
    { "lode-store.c", LODE_QUERY_PATH },
    { "README.md", LODE_QUERY_PATH },
    { "Makefile.am", LODE_QUERY_PATH },
    { "src/", LODE_QUERY_PATH },
    { "where are ignore rules parsed", LODE_QUERY_NATURAL },
    { "parse config", LODE_QUERY_NATURAL },
    { "foo(bar)", LODE_QUERY_NATURAL },
    { "", LODE_QUERY_NATURAL },
    { "!!!", LODE_QUERY_NATURAL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_test_message ("%s", cases[i].query);
      g_assert_cmpint (lode_query_classify (cases[i].query), ==, cases[i].kind);
    }
}

static LodeStoredImport *
import_new (const char *specifier,
            guint       line,
            const char *key,
            const char *target,
            const char *package)
{
  LodeStoredImport *import = g_new0 (LodeStoredImport, 1);

  import->specifier = g_strdup (specifier);
  import->kind = g_strdup ("include-local");
  import->line = line;
  import->key = g_strdup (key);
  if (target != NULL)
    import->targets = g_strsplit (target, " ", -1);
  import->package = g_strdup (package);

  return import;
}

static char *
graph_edges_to_string (LodeGraph *graph)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < lode_graph_get_n_files (graph); i++)
    {
      g_autoptr(GPtrArray) packages = lode_graph_dup_packages (graph, i);
      const guint *imports;
      guint n;

      imports = lode_graph_get_imports (graph, i, &n);
      for (guint j = 0; j < n; j++)
        g_string_append_printf (out, "%s>%s ", lode_graph_get_path (graph, i),
                                lode_graph_get_path (graph, imports[j]));
      for (guint j = 0; j < packages->len; j++)
        g_string_append_printf (out, "%s>pkg:%s ", lode_graph_get_path (graph, i),
                                (const char *) g_ptr_array_index (packages, j));
    }

  return g_string_free (out, FALSE);
}

static void
test_graph (StoreFixture  *fixture,
            gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) imports = NULL;
  g_autoptr(GPtrArray) by_key = NULL;
  g_autoptr(GPtrArray) to_util = NULL;
  g_autoptr(GPtrArray) stored = NULL;
  g_autoptr(LodeGraph) graph = NULL;
  g_autoptr(LodeGraph) after = NULL;
  g_autofree char *edges = NULL;
  g_autofree char *edges_after = NULL;
  LodeStoredImport *import;
  LodeGraphCounts counts;

  put_text (fixture->store, "main.c", "c", "#include \"util.h\"\n");
  put_text (fixture->store, "util.h", "c", "int util (void);\n");
  put_text (fixture->store, "util.c", "c", "#include \"util.h\"\n");

  imports = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_stored_import_free);
  g_ptr_array_add (imports, import_new ("stdio.h", 2, "stdio.h", NULL, "libc"));
  g_ptr_array_add (imports, import_new ("util.h", 1, "util.h", "util.h", NULL));
  g_ptr_array_add (imports, import_new ("gone.h", 3, "gone.h", NULL, NULL));
  g_ptr_array_add (imports, import_new ("both.h", 4, "both", "util.h util.c", NULL));
  g_assert_true (lode_index_store_put_imports (fixture->store, "main.c", imports, &error));
  g_assert_no_error (error);
  g_ptr_array_set_size (imports, 0);
  g_ptr_array_add (imports, import_new ("util.h", 1, "util.h", "util.h", NULL));
  g_assert_true (lode_index_store_put_imports (fixture->store, "util.c", imports, &error));
  g_assert_no_error (error);

  /* A file that is not indexed cannot have imports. */
  g_assert_false (lode_index_store_put_imports (fixture->store, "nowhere.c", imports, &error));
  g_assert_error (error, LODE_ERROR, LODE_ERROR_NOT_FOUND);
  g_clear_error (&error);

  graph = lode_index_store_load_graph (fixture->store, &error);
  g_assert_no_error (error);
  edges = graph_edges_to_string (graph);
  g_assert_cmpstr (edges, ==, "main.c>util.c main.c>util.h main.c>pkg:libc util.c>util.h ");

  /* An import reaching three files counts once. */
  g_assert_true (lode_index_store_get_graph_counts (fixture->store, &counts, &error));
  g_assert_cmpuint (counts.n_imports, ==, 5);
  g_assert_cmpuint (counts.n_internal, ==, 3);
  g_assert_cmpuint (counts.n_external, ==, 1);

  stored = lode_index_store_dup_imports (fixture->store, "main.c", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (stored->len, ==, 4);
  import = g_ptr_array_index (stored, 0);
  g_assert_cmpstr (import->specifier, ==, "util.h");
  g_assert_cmpstrv (import->targets, ((const char *[]) { "util.h", NULL }));
  g_assert_cmpuint (import->line, ==, 1);
  import = g_ptr_array_index (stored, 1);
  g_assert_cmpstr (import->package, ==, "libc");
  g_assert_cmpstrv (import->targets, ((const char *[]) { NULL }));
  import = g_ptr_array_index (stored, 3);
  g_assert_cmpstrv (import->targets, ((const char *[]) { "util.h", "util.c", NULL }));

  /* Removing util.h leaves its importers' edges unresolved, found by key and re-resolvable. */
  g_assert_true (lode_index_store_remove_file (fixture->store, "util.h", &error));
  g_assert_no_error (error);
  to_util = lode_index_store_dup_imports_to (fixture->store, "util.h", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (to_util->len, ==, 0);
  g_clear_pointer (&to_util, g_ptr_array_unref);
  to_util = lode_index_store_dup_imports_to (fixture->store, "util.c", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (to_util->len, ==, 1);
  import = g_ptr_array_index (to_util, 0);
  g_assert_cmpstrv (import->targets, ((const char *[]) { "util.c", NULL }));
  by_key = lode_index_store_dup_imports_for_key (fixture->store, "util.h", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (by_key->len, ==, 2);
  import = g_ptr_array_index (by_key, 0);
  g_assert_cmpstrv (import->targets, ((const char *[]) { NULL }));
  g_assert_true (lode_index_store_set_import_targets (fixture->store, import->id, NULL, "util",
                                                      &error));
  g_assert_no_error (error);
  import = g_ptr_array_index (by_key, 1);
  g_assert_true (lode_index_store_set_import_targets (fixture->store, import->id,
                                                      (const char *[]) { "main.c", NULL }, NULL,
                                                      &error));
  g_assert_no_error (error);

  after = lode_index_store_load_graph (fixture->store, &error);
  g_assert_no_error (error);
  edges_after = graph_edges_to_string (after);
  g_assert_cmpstr (edges_after, ==,
                   "main.c>util.c main.c>pkg:libc main.c>pkg:util util.c>main.c ");

  /* Removing a file takes its own imports along. */
  g_assert_true (lode_index_store_remove_file (fixture->store, "main.c", &error));
  g_assert_true (lode_index_store_get_graph_counts (fixture->store, &counts, &error));
  g_assert_cmpuint (counts.n_imports, ==, 1);

  g_assert_true (lode_index_store_clear_graph (fixture->store, FALSE, &error));
  g_assert_no_error (error);
  g_assert_true (lode_index_store_get_graph_counts (fixture->store, &counts, &error));
  g_assert_cmpuint (counts.n_imports, ==, 0);
  g_assert_cmpuint (counts.n_internal, ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(name, func) \
  g_test_add ("/lode/store/" name, StoreFixture, NULL, store_setup, func, store_teardown)

  ADD ("create", test_create);
  ADD ("reopen", test_reopen);
  ADD ("lookup-indexes", test_lookup_indexes);
  ADD ("trigram-segments", test_trigram_segments);
  ADD ("trigram-small-folds", test_trigram_small_folds);
  ADD ("damaged-trigrams", test_damaged_trigrams);
  ADD ("aside", test_aside);
  ADD ("aside-ended-early", test_aside_ended_early);
  ADD ("first-run-journal", test_first_run_journal);
  ADD ("first-run-ends-in-wal", test_first_run_ends_in_wal);
  ADD ("first-run-merges-text", test_first_run_merges_text);
  ADD ("prepared-tokens", test_prepared_tokens);
  ADD ("prepared-tokens-mismatch", test_prepared_tokens_mismatch);
  ADD ("page-size", test_page_size);
  ADD ("other-version", test_other_version);
  ADD ("unreadable-fts", test_unreadable_fts);
  ADD ("version-12-symbol-spans", test_version_12_symbol_spans);
  ADD ("damaged-symbol-spans", test_damaged_symbol_spans);
  ADD ("foreign-database", test_foreign_database);
  ADD ("garbage-file", test_garbage_file);
  ADD ("put-replace-remove", test_put_replace_remove);
  ADD ("batches", test_batches);
  ADD ("identifier-definition-first", test_identifier_definition_first);
  ADD ("identifier-container", test_identifier_container);
  ADD ("path-query", test_path_query);
  ADD ("natural-query", test_natural_query);
  ADD ("code-words", test_code_words);
  ADD ("doc-frequencies", test_doc_frequencies);
  ADD ("common-words-current", test_common_words_current);
  ADD ("common-words-bounded", test_common_words_bounded);
  ADD ("common-words-literal", test_common_words_literal);
  ADD ("scores-of-given-chunks", test_scores_of_given_chunks);
  ADD ("issue-title", test_issue_title);
  ADD ("issue-traceback", test_issue_traceback);
  ADD ("issue-noise", test_issue_noise);
  ADD ("issue-long", test_issue_long);
  ADD ("filters", test_filters);
  ADD ("limit-clamp", test_limit_clamp);
  ADD ("hostile-queries", test_hostile_queries);
  ADD ("snippet", test_snippet);
  ADD ("cancel", test_cancel);
  ADD ("graph", test_graph);
  g_test_add_func ("/lode/store/classify", test_classify);

#undef ADD

  return g_test_run ();
}
