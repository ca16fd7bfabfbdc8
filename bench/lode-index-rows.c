/* lode-index-rows.c: print what an index holds, one line per row, without its row ids
 *
 * Copyright 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * lode-index-rows INDEX.DB | LC_ALL=C sort > rows.txt
 *
 * Two builds that index the same tree must store the same rows, but their row ids differ with
 * the order the chunking threads finish in. This prints each table's rows with the ids replaced
 * by what they stand for (a file's path, a chunk's path and lines), so that `sort` and `diff`
 * of two indexes compare them by content. The FTS5 indexes are compared by what they hold:
 * every term's document and occurrence counts (`fts5vocab` rows), and for every document an
 * order-independent digest of its (term, column, offset) instances, which changes if a single
 * token or position does. The tokenizers are registered as stubs that fail if called: reading
 * an FTS5 index back never tokenizes.
 */

#include <glib.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int
stub_create (void        *user_data,
             const char **argv,
             int          argc,
             Fts5Tokenizer **out)
{
  *out = (Fts5Tokenizer *) user_data;
  return SQLITE_OK;
}

static void
stub_delete (Fts5Tokenizer *tokenizer)
{
}

static int
stub_tokenize (Fts5Tokenizer *tokenizer,
               void          *ctx,
               int            flags,
               const char    *text,
               int            n_text,
               int (*token_cb) (void *, int, const char *, int, int, int))
{
  return SQLITE_ERROR;
}

static void
register_stubs (sqlite3 *db)
{
  static fts5_tokenizer stub = { stub_create, stub_delete, stub_tokenize };
  fts5_api *api = NULL;
  sqlite3_stmt *stmt = NULL;

  if (sqlite3_prepare_v2 (db, "SELECT fts5(?1)", -1, &stmt, NULL) != SQLITE_OK)
    g_error ("no FTS5: %s", sqlite3_errmsg (db));
  sqlite3_bind_pointer (stmt, 1, &api, "fts5_api_ptr", NULL);
  sqlite3_step (stmt);
  sqlite3_finalize (stmt);
  if (api == NULL)
    g_error ("no FTS5 API");
  api->xCreateTokenizer (api, "lode_code", &stub, &stub, NULL);
}

/* Prints every row of @sql, its columns separated by tabs (blobs in hex), after @table. */
static void
print_rows (sqlite3    *db,
            const char *table,
            const char *sql)
{
  sqlite3_stmt *stmt = NULL;
  int rc;

  if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) != SQLITE_OK)
    g_error ("%s: %s", table, sqlite3_errmsg (db));
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      GString *line = g_string_new (table);

      for (int i = 0; i < sqlite3_column_count (stmt); i++)
        {
          g_string_append_c (line, '\t');
          if (sqlite3_column_type (stmt, i) == SQLITE_BLOB)
            {
              const guint8 *data = sqlite3_column_blob (stmt, i);

              for (int j = 0; j < sqlite3_column_bytes (stmt, i); j++)
                g_string_append_printf (line, "%02x", data[j]);
            }
          else if (sqlite3_column_type (stmt, i) == SQLITE_NULL)
            g_string_append (line, "NULL");
          else
            {
              g_autofree char *text = g_strescape ((const char *) sqlite3_column_text (stmt, i), NULL);
              g_string_append (line, text);
            }
        }
      puts (line->str);
      g_string_free (line, TRUE);
    }
  if (rc != SQLITE_DONE)
    g_error ("%s: %s", table, sqlite3_errmsg (db));
  sqlite3_finalize (stmt);
}

typedef struct {
  guint64 sum;
  guint64 n;
} Digest;

/* For each document of @vocab (an `fts5vocab` instance table), the sum of a hash of each of
 * its instances and their number, printed after the document's key from @keys (doc → key). */
static void
print_instances (sqlite3    *db,
                 const char *table,
                 const char *vocab,
                 const char *keys)
{
  g_autoptr (GHashTable) digests = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  g_autofree char *sql = g_strdup_printf ("SELECT doc, term, col, offset FROM %s", vocab);
  sqlite3_stmt *stmt = NULL;
  GHashTableIter iter;
  gint64 *doc;
  Digest *digest;

  if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) != SQLITE_OK)
    g_error ("%s: %s", table, sqlite3_errmsg (db));
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      gint64 id = sqlite3_column_int64 (stmt, 0);
      g_autofree char *instance = g_strdup_printf ("%s\x1f%s\x1f%lld",
                                                   (const char *) sqlite3_column_text (stmt, 1),
                                                   sqlite3_column_type (stmt, 2) == SQLITE_NULL ?
                                                   "" : (const char *) sqlite3_column_text (stmt, 2),
                                                   (long long) sqlite3_column_int64 (stmt, 3));
      g_autoptr (GChecksum) checksum = g_checksum_new (G_CHECKSUM_SHA1);
      guint8 bytes[20];
      gsize n_bytes = sizeof bytes;
      guint64 hash;

      digest = g_hash_table_lookup (digests, &id);
      if (digest == NULL)
        {
          digest = g_new0 (Digest, 1);
          g_hash_table_insert (digests, g_memdup2 (&id, sizeof id), digest);
        }
      g_checksum_update (checksum, (const guchar *) instance, -1);
      g_checksum_get_digest (checksum, bytes, &n_bytes);
      memcpy (&hash, bytes, sizeof hash);
      digest->sum += hash;
      digest->n++;
    }
  sqlite3_finalize (stmt);

  if (sqlite3_prepare_v2 (db, keys, -1, &stmt, NULL) != SQLITE_OK)
    g_error ("%s: %s", table, sqlite3_errmsg (db));
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      gint64 id = sqlite3_column_int64 (stmt, 0);

      digest = g_hash_table_lookup (digests, &id);
      printf ("%s\t%s\t%" G_GUINT64_FORMAT "\t%016" G_GINT64_MODIFIER "x\n", table,
              (const char *) sqlite3_column_text (stmt, 1),
              digest ? digest->n : 0, digest ? digest->sum : 0);
      g_hash_table_remove (digests, &id);
    }
  sqlite3_finalize (stmt);

  g_hash_table_iter_init (&iter, digests);
  while (g_hash_table_iter_next (&iter, (gpointer *) &doc, (gpointer *) &digest))
    printf ("%s\tunknown document\t%" G_GUINT64_FORMAT "\n", table, digest->n);
}

#define CHUNK_KEY "f.path || ':' || c.start_line || '-' || c.end_line || ':' || ifnull (c.kind, '')"

int
main (int   argc,
      char *argv[])
{
  sqlite3 *db = NULL;

  if (argc != 2)
    {
      fprintf (stderr, "usage: %s INDEX.DB\n", argv[0]);
      return 2;
    }
  if (sqlite3_open_v2 (argv[1], &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
    g_error ("%s: %s", argv[1], sqlite3_errmsg (db));
  register_stubs (db);

  print_rows (db, "files", "SELECT path, language, hash, size, mtime, n_lines FROM files");
  print_rows (db, "chunks",
              "SELECT " CHUNK_KEY ", c.symbol, c.container, c.signature, c.hash, "
              "t.c0, t.c1, t.c2, t.c3 FROM chunks c JOIN files f ON f.id = c.file_id "
              "LEFT JOIN chunks_fts_content t ON t.id = c.id");
  print_rows (db, "symbols",
              "SELECT f.path, (SELECT " CHUNK_KEY " FROM chunks c WHERE c.id = s.chunk_id), "
              "s.name, s.kind, s.container, s.start_line, s.end_line, s.signature, s.package, "
              "s.scope, s.detail FROM symbols s JOIN files f ON f.id = s.file_id");
  print_rows (db, "refs",
              "SELECT f.path, n.name, r.sites FROM refs r JOIN files f ON f.id = r.file_id "
              "JOIN ref_names n ON n.id = r.name_id");
  print_rows (db, "imports",
              "SELECT f.path, i.specifier, i.name, i.kind, i.line, i.key, e.to_path, e.package "
              "FROM imports i JOIN files f ON f.id = i.file_id "
              "LEFT JOIN edges e ON e.import_id = i.id");
  print_rows (db, "edges_orphan",
              "SELECT e.to_path FROM edges e WHERE e.import_id NOT IN (SELECT id FROM imports)");
  print_rows (db, "call_sites",
              "SELECT f.path, s.data FROM call_sites s JOIN files f ON f.id = s.file_id");
  print_rows (db, "calls",
              "SELECT f.path, c.caller, c.caller_line, c.callee, c.qualifier, c.line, c.status, "
              "c.rule, c.confidence, c.target_path, c.target_line, c.package FROM calls c "
              "JOIN files f ON f.id = c.file_id");
  print_rows (db, "meta", "SELECT key, value FROM meta WHERE key NOT IN ('generation', 'indexed_at')");
  /* Trigram blocks hold file ids, the same in two indexes of one tree (the writer stores
   * files in the tree's order), and segments, the same when both were folded whole. */
  print_rows (db, "trigram_files",
              "SELECT f.path, f.id, t.segment FROM trigram_files t JOIN files f ON f.id = t.file_id");
  print_rows (db, "trigram_blocks", "SELECT segment, first, hex (data) FROM trigram_blocks");

  sqlite3_exec (db,
                "CREATE VIRTUAL TABLE temp.chunks_row USING fts5vocab (main, chunks_fts, row);"
                "CREATE VIRTUAL TABLE temp.chunks_inst USING fts5vocab (main, chunks_fts, instance);",
                NULL, NULL, NULL);
  print_rows (db, "chunks_fts_terms", "SELECT term, doc, cnt FROM temp.chunks_row");
  print_instances (db, "chunks_fts_instances", "temp.chunks_inst",
                   "SELECT c.id, " CHUNK_KEY " FROM chunks c JOIN files f ON f.id = c.file_id");

  sqlite3_close (db);
  return 0;
}
