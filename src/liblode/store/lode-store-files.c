/* lode-store-files.c — files, their chunks and declarations, meta, counts
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* `files` (one row per indexed file), `chunks` (line ranges and metadata, no text),
 * `symbols` (declarations, each pointing at the chunk it belongs to) and the FTS5 table
 * `chunks_fts` (rowid = chunks.id) holding the searchable text: the symbol name, `sig`
 * (signature, doc comment, container, context), the file path and the content. The content
 * lives only there, so it is stored once. */

#define G_LOG_DOMAIN "lode-store"

#include "config.h"

#include <string.h>

#include "lode-error.h"
#include "lode-store-private.h"

const char _lode_store_files_schema_sql[] =
  "CREATE TABLE IF NOT EXISTS meta ("
  "  key TEXT PRIMARY KEY,"
  "  value TEXT"
  ") WITHOUT ROWID;"
  "CREATE TABLE IF NOT EXISTS files ("
  "  id INTEGER PRIMARY KEY,"
  "  path TEXT NOT NULL UNIQUE,"
  "  language TEXT NOT NULL,"
  "  hash TEXT,"
  "  size INTEGER NOT NULL,"
  "  mtime INTEGER NOT NULL,"
  "  n_lines INTEGER NOT NULL"
  ");"
  "CREATE TABLE IF NOT EXISTS chunks ("
  "  id INTEGER PRIMARY KEY AUTOINCREMENT,"
  "  file_id INTEGER NOT NULL,"
  "  start_line INTEGER NOT NULL,"
  "  end_line INTEGER NOT NULL,"
  "  kind TEXT,"
  "  symbol TEXT,"
  "  container TEXT,"
  "  signature TEXT,"
  "  hash TEXT"
  ");"
  "CREATE INDEX IF NOT EXISTS chunks_file ON chunks (file_id, start_line);"
  "CREATE TABLE IF NOT EXISTS symbols ("
  "  id INTEGER PRIMARY KEY,"
  "  file_id INTEGER NOT NULL,"
  "  chunk_id INTEGER,"
  "  name TEXT NOT NULL,"
  "  kind TEXT,"
  "  container TEXT,"
  "  start_line INTEGER NOT NULL,"
  "  end_line INTEGER NOT NULL,"
  "  signature TEXT,"
  "  package TEXT,"
  "  scope TEXT,"
  "  detail TEXT"
  ");"
  "CREATE INDEX IF NOT EXISTS symbols_file ON symbols (file_id, start_line);"
  "CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5 ("
  "  symbol, sig, path, body,"
  "  tokenize = '" LODE_STORE_TOKENIZER "'"
  ");"
  /* See _lode_store_files_end_first_run(). */
  "INSERT INTO chunks_fts (chunks_fts, rank) VALUES ('automerge', 16);";
const char _lode_store_files_lookup_sql[] =
  "CREATE INDEX IF NOT EXISTS symbols_name ON symbols (name COLLATE NOCASE);"
  "CREATE INDEX IF NOT EXISTS symbols_chunk ON symbols (chunk_id);"
  "CREATE INDEX IF NOT EXISTS symbols_package ON symbols (package);";

static const char sql_file_insert[] =
  "INSERT INTO files (path, language, hash, size, mtime, n_lines) "
  "VALUES (?1, ?2, ?3, ?4, ?5, ?6)";
static const char sql_file_update[] =
  "UPDATE files SET language = ?2, hash = ?3, size = ?4, mtime = ?5, n_lines = ?6 "
  "WHERE id = ?1";
static const char sql_file_delete[] = "DELETE FROM files WHERE id = ?1";
static const char sql_file_stamp[] = "UPDATE files SET size = ?2, mtime = ?3 WHERE path = ?1";
static const char sql_fts_delete_file[] =
  "DELETE FROM chunks_fts WHERE rowid IN (SELECT id FROM chunks WHERE file_id = ?1)";
static const char sql_chunks_delete_file[] = "DELETE FROM chunks WHERE file_id = ?1";
static const char sql_symbols_delete_file[] = "DELETE FROM symbols WHERE file_id = ?1";
static const char sql_refs_delete_file[] = "DELETE FROM refs WHERE file_id = ?1";
static const char sql_spans_delete_file[] = "DELETE FROM symbol_spans WHERE file_id = ?1";
static const char sql_chunk_insert[] =
  "INSERT INTO chunks (file_id, start_line, end_line, kind, symbol, container, signature, "
  "hash) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)";
static const char sql_fts_insert[] =
  "INSERT INTO chunks_fts (rowid, symbol, sig, path, body) VALUES (?1, ?2, ?3, ?4, ?5)";
static const char sql_symbol_insert[] =
  "INSERT INTO symbols (file_id, chunk_id, name, kind, container, start_line, end_line, "
  "signature, package, scope, detail) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)";
static const char sql_hashes[] = "SELECT path, hash FROM files";
static const char sql_meta_get[] = "SELECT value FROM meta WHERE key = ?1";
static const char sql_meta_set[] = "INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)";
static const char sql_stats_files[] = "SELECT count(*), total(size), total(n_lines) FROM files";
static const char sql_stats_chunks[] = "SELECT count(*) FROM chunks";
static const char sql_stats_symbols[] = "SELECT count(*) FROM symbols";
static const char sql_languages[] = "SELECT language, count(*) FROM files GROUP BY language";
static const char sql_file_chunks[] =
  "SELECT c.start_line, c.end_line, c.kind, c.symbol, c.container, c.signature, fts.body, "
  "fts.sig "
  "FROM chunks c JOIN chunks_fts fts ON fts.rowid = c.id "
  "WHERE c.file_id = (SELECT id FROM files WHERE path = ?1) "
  "ORDER BY c.start_line, c.end_line, c.id";

const char * const _lode_store_files_sql[] = {
  sql_file_insert, sql_file_update, sql_file_delete, sql_file_stamp, sql_fts_delete_file, sql_chunks_delete_file,
  sql_symbols_delete_file, sql_refs_delete_file, sql_spans_delete_file, sql_chunk_insert,
  sql_fts_insert,
  sql_symbol_insert, sql_hashes, sql_meta_get, sql_meta_set, sql_stats_files, sql_stats_chunks,
  sql_stats_symbols, sql_languages, sql_file_chunks, NULL
};

typedef struct
{
  const LodeFileInfo *file;
  GPtrArray          *chunks;
  GPtrArray          *symbols;
  const guint        *symbol_chunks;
} PutFile;

/* Deletes the trigrams, chunks, FTS rows and symbols of file @id. */
static gboolean
delete_file_contents (LodeStore  *self,
                      gint64      id,
                      GError    **error)
{
  const char *deletes[] = {
    sql_fts_delete_file, sql_chunks_delete_file, sql_symbols_delete_file, sql_spans_delete_file,
    sql_refs_delete_file
  };

  /* Forgotten with the text chunks_fts still holds. */
  if (!_lode_store_trigrams_forget_file (self, id, error))
    return FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (deletes); i++)
    {
      sqlite3_stmt *s = _lode_store_stmt (self, deletes[i]);

      sqlite3_bind_int64 (s, 1, id);
      if (!_lode_store_run (self, s, error, "Cannot delete the old rows of a file"))
        return FALSE;
    }

  return _lode_store_delete_file_calls (self, id, error);
}

/* The chunks' rows, their text in `chunks_fts` and the file's trigrams; @chunk_ids gets the
 * id of each. With @file's prepared tokens (store_prepare_file()), FTS5 is given those. */
static gboolean
put_chunk_rows (LodeStore          *self,
                const LodeFileInfo *file,
                gint64              file_id,
                GPtrArray          *chunks,
                gint64             *chunk_ids,
                GError            **error)
{
  for (guint i = 0; chunks != NULL && i < chunks->len; i++)
    {
      const LodeChunk *chunk = g_ptr_array_index (chunks, i);
      g_autofree char *chunk_hash = NULL;
      sqlite3_stmt *s;
      gint64 chunk_id;

      s = _lode_store_stmt (self, sql_chunk_insert);
      sqlite3_bind_int64 (s, 1, file_id);
      sqlite3_bind_int (s, 2, chunk->start_line);
      sqlite3_bind_int (s, 3, chunk->end_line);
      bind_text (s, 4, chunk->kind);
      bind_text (s, 5, chunk->symbol);
      bind_text (s, 6, chunk->container);
      bind_text (s, 7, chunk->signature);
      chunk_hash = lode_index_store_text_hash (chunk->content);
      bind_text (s, 8, chunk_hash);
      if (!_lode_store_run (self, s, error, "Cannot store a chunk"))
        return FALSE;
      chunk_id = sqlite3_last_insert_rowid (self->db);

      g_string_truncate (self->sig, 0);
      lode_chunk_append_search_text (chunk, self->sig);

      /* The columns in the order store_prepare_file() tokenizes them. */
      s = _lode_store_stmt (self, sql_fts_insert);
      sqlite3_bind_int64 (s, 1, chunk_id);
      bind_text (s, 2, chunk->symbol);
      sqlite3_bind_text (s, 3, self->sig->str, self->sig->len, SQLITE_STATIC);
      bind_text (s, 4, file->path);
      bind_text (s, 5, chunk->content != NULL ? chunk->content : "");
      if (!_lode_store_run (self, s, error, "Cannot index a chunk"))
        return FALSE;

      chunk_ids[i] = chunk_id;
    }

  return _lode_store_trigrams_put_file (self, file_id, chunks, error);
}

static gboolean
put_file_rows (LodeStore      *self,
               gconstpointer   data,
               GError        **error)
{
  const PutFile *put = data;
  const LodeFileInfo *file = put->file;
  GPtrArray *chunks = put->chunks;
  GPtrArray *symbols = put->symbols;
  g_autofree gint64 *chunk_ids = NULL;
  g_autoptr(GPtrArray) stored = g_ptr_array_new ();
  sqlite3_stmt *s;
  gint64 file_id = 0;
  gboolean ok;

  if (!_lode_store_lookup_file_id (self, file->path, &file_id, error))
    return FALSE;

  if (file_id != 0)
    {
      if (!delete_file_contents (self, file_id, error))
        return FALSE;
      s = _lode_store_stmt (self, sql_file_update);
      sqlite3_bind_int64 (s, 1, file_id);
    }
  else
    {
      s = _lode_store_stmt (self, sql_file_insert);
      bind_text (s, 1, file->path);
    }

  bind_text (s, 2, file->language != NULL ? file->language : "text");
  bind_text (s, 3, file->hash);
  sqlite3_bind_int64 (s, 4, (sqlite3_int64) file->size);
  sqlite3_bind_int64 (s, 5, file->mtime_usec);
  sqlite3_bind_int64 (s, 6, file->n_lines);
  if (!_lode_store_run (self, s, error, "Cannot store a file"))
    return FALSE;
  if (file_id == 0)
    file_id = sqlite3_last_insert_rowid (self->db);

  chunk_ids = g_new (gint64, chunks != NULL ? chunks->len + 1 : 1);
  _lode_store_tokens_begin (file->prepared);
  ok = put_chunk_rows (self, file, file_id, chunks, chunk_ids, error);
  _lode_store_tokens_end (ok ? file->path : NULL);
  if (!ok)
    return FALSE;

  for (guint i = 0; symbols != NULL && i < symbols->len; i++)
    {
      const LodeSymbol *symbol = g_ptr_array_index (symbols, i);
      guint chunk = put->symbol_chunks[i];

      if (symbol->name == NULL || chunks == NULL || chunk >= chunks->len)
        continue;

      s = _lode_store_stmt (self, sql_symbol_insert);
      sqlite3_bind_int64 (s, 1, file_id);
      sqlite3_bind_int64 (s, 2, chunk_ids[chunk]);
      bind_text (s, 3, symbol->name);
      bind_text (s, 4, symbol->kind);
      bind_text (s, 5, symbol->container);
      sqlite3_bind_int (s, 6, symbol->start_line);
      sqlite3_bind_int (s, 7, symbol->end_line);
      bind_text (s, 8, symbol->signature);
      bind_text (s, 9, symbol->package);
      bind_text (s, 10, symbol->scope);
      bind_text (s, 11, symbol->detail);
      if (!_lode_store_run (self, s, error, "Cannot store a symbol"))
        return FALSE;
      g_ptr_array_add (stored, (gpointer) symbol);
    }

  return _lode_store_put_symbol_spans (self, file_id, stored, error);
}

static gboolean
remove_file_rows (LodeStore      *self,
                  gconstpointer   data,
                  GError        **error)
{
  const gint64 *file_id = data;
  sqlite3_stmt *s;

  if (!delete_file_contents (self, *file_id, error) ||
      !_lode_store_delete_file_graph (self, *file_id, error))
    return FALSE;

  s = _lode_store_stmt (self, sql_file_delete);
  sqlite3_bind_int64 (s, 1, *file_id);

  return _lode_store_run (self, s, error, "Cannot delete a file");
}

/* Runs on a chunking thread: the tokens put_chunk_rows() has FTS5 store, in the order it
 * stores them (each chunk's symbol, search text, path and content, then the file's
 * trigrams). */
static GBytes *
store_prepare_file (LodeIndexStore     *store,
                    const LodeFileInfo *file,
                    GPtrArray          *chunks)
{
  g_autoptr(GByteArray) out = g_byte_array_new ();
  g_autoptr(GString) sig = g_string_new (NULL);

  for (guint i = 0; chunks != NULL && i < chunks->len; i++)
    {
      const LodeChunk *chunk = g_ptr_array_index (chunks, i);
      const char *content = chunk->content != NULL ? chunk->content : "";

      g_string_truncate (sig, 0);
      lode_chunk_append_search_text (chunk, sig);
      _lode_store_tokens_record_code (out, chunk->symbol,
                                      chunk->symbol != NULL ? strlen (chunk->symbol) : 0);
      _lode_store_tokens_record_code (out, sig->str, sig->len);
      _lode_store_tokens_record_code (out, file->path, strlen (file->path));
      _lode_store_tokens_record_code (out, content, strlen (content));
    }
  _lode_store_trigrams_record (out, chunks);

  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

/* A file put outside a batch, in a transaction of its own, which writes its trigrams too. */
static gboolean
put_file_alone_rows (LodeStore      *self,
                     gconstpointer   data,
                     GError        **error)
{
  if (put_file_rows (self, data, error) && _lode_store_trigrams_flush (self, error))
    return TRUE;
  _lode_store_trigrams_discard (self);
  return FALSE;
}

/* There is no savepoint per file: FTS5 flushes its pending terms at every savepoint, which
 * made bulk indexing half as fast. So a failure inside a batch leaves the file half written,
 * and the caller rolls the batch back. */
static gboolean
store_put_file (LodeIndexStore      *store,
                const LodeFileInfo  *file,
                GPtrArray           *chunks,
                GPtrArray           *symbols,
                const guint         *symbol_chunks,
                GError             **error)
{
  LodeStore *self = (LodeStore *) store;
  PutFile put = { file, chunks, symbols, symbol_chunks };

  if (!self->in_transaction)
    return _lode_store_write_alone (self, put_file_alone_rows, &put, error);

  if (!put_file_rows (self, &put, error))
    {
      g_prefix_error (error, "%s: ", file->path);
      return FALSE;
    }

  return TRUE;
}

typedef struct
{
  const char *path;
  guint64     size;
  gint64      mtime_usec;
} FileStamp;

static gboolean
set_file_stamp_row (LodeStore      *self,
                    gconstpointer   data,
                    GError        **error)
{
  const FileStamp *stamp = data;
  sqlite3_stmt *s = _lode_store_stmt (self, sql_file_stamp);

  bind_text (s, 1, stamp->path);
  sqlite3_bind_int64 (s, 2, (sqlite3_int64) stamp->size);
  sqlite3_bind_int64 (s, 3, stamp->mtime_usec);
  return _lode_store_run (self, s, error, "Cannot store a file's size and time");
}

static gboolean
store_set_file_stamp (LodeIndexStore  *store,
                      const char      *path,
                      guint64          size,
                      gint64           mtime_usec,
                      GError         **error)
{
  LodeStore *self = (LodeStore *) store;
  FileStamp stamp = { path, size, mtime_usec };

  if (!self->in_transaction)
    return _lode_store_write_alone (self, set_file_stamp_row, &stamp, error);
  return set_file_stamp_row (self, &stamp, error);
}

static gboolean
store_remove_file (LodeIndexStore  *store,
                   const char      *path,
                   GError         **error)
{
  LodeStore *self = (LodeStore *) store;
  gint64 file_id = 0;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!_lode_store_lookup_file_id (self, path, &file_id, error))
    return FALSE;
  if (file_id == 0)
    return TRUE;

  if (!self->in_transaction)
    return _lode_store_write_alone (self, remove_file_rows, &file_id, error);

  return remove_file_rows (self, &file_id, error);
}

static GHashTable *
store_dup_file_hashes (LodeIndexStore  *store,
                       GError         **error)
{
  LodeStore *self = (LodeStore *) store;
  g_autoptr(GHashTable) hashes = NULL;
  sqlite3_stmt *s;
  int rc;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  hashes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  s = _lode_store_stmt (self, sql_hashes);
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    g_hash_table_insert (hashes, dup_column_text (s, 0), dup_column_text (s, 1));
  sqlite3_reset (s);

  if (rc != SQLITE_DONE)
    {
      _lode_store_set_error (self, rc, error, "Cannot read file hashes");
      return NULL;
    }

  return g_steal_pointer (&hashes);
}

static char *
store_dup_meta (LodeIndexStore *store,
                const char     *key)
{
  LodeStore *self = (LodeStore *) store;
  sqlite3_stmt *s;
  char *value = NULL;

  g_return_val_if_fail (key != NULL, NULL);

  s = _lode_store_stmt (self, sql_meta_get);
  bind_text (s, 1, key);
  if (sqlite3_step (s) == SQLITE_ROW)
    value = dup_column_text (s, 0);
  sqlite3_reset (s);

  return value;
}

/* FTS5 writes each batch's rows as a segment of its own and merges a level's segments into
 * one of the next when there are `automerge` of them; a search reads every segment, one
 * look-up per word each. A new index's first run writes with `automerge` at 16 (the schema),
 * which rewrites each row fewer times than FTS5's 4 and leaves fewer segments: on git
 * v2.47.0 6 instead of 10 for 2.6 % fewer instructions in the whole run, on five copies 3
 * instead of 12; a search's median CPU drops by a sixth to a quarter, its p99 by a third to
 * a half (bench/README.md, "The text index's segments"). Later runs, a few files each, merge
 * 4 at a time, so that the segments they add stay few. Folding all into one at the first
 * run's end ('optimize') halved the p99 again but wrote a sixth more: not kept. */
static const char sql_fts_merge_default[] =
  "INSERT INTO chunks_fts (chunks_fts, rank) VALUES ('automerge', 4)";

/* A first run's end: chunks_fts merges as FTS5 does by default from now on. */
gboolean
_lode_store_files_end_first_run (LodeStore  *self,
                                 GError    **error)
{
  int rc = sqlite3_exec (self->db, sql_fts_merge_default, NULL, NULL, NULL);

  if (rc != SQLITE_OK)
    return _lode_store_set_error (self, rc, error, "Cannot set how the text index merges");
  return TRUE;
}

/* Stores one metadata value; lode-store.c's set_meta does what a run's end asks first. */
gboolean
_lode_store_files_set_meta (LodeStore   *self,
                            const char  *key,
                            const char  *value,
                            GError     **error)
{
  sqlite3_stmt *s;

  s = _lode_store_stmt (self, sql_meta_set);
  bind_text (s, 1, key);
  bind_text (s, 2, value);

  return _lode_store_run (self, s, error, "Cannot store metadata");
}

static gboolean
store_get_stats (LodeIndexStore  *store,
                 LodeStoreStats  *stats,
                 GError         **error)
{
  LodeStore *self = (LodeStore *) store;
  sqlite3_stmt *s;
  int rc;

  g_return_val_if_fail (stats != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  memset (stats, 0, sizeof *stats);

  s = _lode_store_stmt (self, sql_stats_files);
  rc = sqlite3_step (s);
  if (rc == SQLITE_ROW)
    {
      stats->n_files = sqlite3_column_int64 (s, 0);
      stats->n_bytes = (guint64) sqlite3_column_double (s, 1);
      stats->n_lines = (guint64) sqlite3_column_double (s, 2);
    }
  sqlite3_reset (s);
  if (rc != SQLITE_ROW)
    return _lode_store_set_error (self, rc, error, "Cannot count files");

  return _lode_store_step_count (self, _lode_store_stmt (self, sql_stats_chunks), &stats->n_chunks,
                                 error) &&
         _lode_store_step_count (self, _lode_store_stmt (self, sql_stats_symbols),
                                 &stats->n_symbols, error);
}

static GHashTable *
store_dup_language_counts (LodeIndexStore  *store,
                           GError         **error)
{
  LodeStore *self = (LodeStore *) store;
  g_autoptr(GHashTable) counts = NULL;
  sqlite3_stmt *s;
  int rc;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  s = _lode_store_stmt (self, sql_languages);
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    g_hash_table_insert (counts, dup_column_text (s, 0),
                         GUINT_TO_POINTER ((guint) sqlite3_column_int64 (s, 1)));
  sqlite3_reset (s);

  if (rc != SQLITE_DONE)
    {
      _lode_store_set_error (self, rc, error, "Cannot count languages");
      return NULL;
    }

  return g_steal_pointer (&counts);
}

/* The stored chunks of @path, ordered by start line, with their content. The doc comment
 * and context are stored only as part of the searchable text: what it holds besides the
 * signature and container comes back as the context (lode_chunk_set_search_text()). */
static GPtrArray *
store_dup_chunks_for_file (LodeIndexStore  *store,
                           const char      *path,
                           GError         **error)
{
  LodeStore *self = (LodeStore *) store;
  g_autoptr(GPtrArray) chunks = NULL;
  sqlite3_stmt *s;
  int rc;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  chunks = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_chunk_free);
  s = _lode_store_stmt (self, sql_file_chunks);
  bind_text (s, 1, path);
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      LodeChunk *chunk = lode_chunk_new ();

      chunk->start_line = sqlite3_column_int (s, 0);
      chunk->end_line = sqlite3_column_int (s, 1);
      chunk->kind = g_intern_string ((const char *) sqlite3_column_text (s, 2));
      chunk->symbol = dup_column_text (s, 3);
      chunk->container = dup_column_text (s, 4);
      chunk->signature = dup_column_text (s, 5);
      chunk->content = dup_column_text (s, 6);
      lode_chunk_set_search_text (chunk, (const char *) sqlite3_column_text (s, 7));
      g_ptr_array_add (chunks, chunk);
    }
  sqlite3_reset (s);

  if (rc != SQLITE_DONE)
    {
      _lode_store_set_error (self, rc, error, "Cannot read chunks");
      return NULL;
    }

  return g_steal_pointer (&chunks);
}

static GPtrArray *
store_dup_files (LodeIndexStore  *store,
                 GError         **error)
{
  LodeStore *self = (LodeStore *) store;
  g_autoptr(GPtrArray) files = NULL;
  sqlite3_stmt *s = NULL;
  int rc;

  files = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_stored_file_free);
  rc = sqlite3_prepare_v2 (self->db,
                           "SELECT path, language, hash, size, mtime, n_lines FROM files "
                           "ORDER BY path", -1, &s, NULL);
  while (s != NULL && (rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      LodeStoredFile *file = g_new0 (LodeStoredFile, 1);

      file->path = dup_column_text (s, 0);
      file->language = dup_column_text (s, 1);
      file->hash = dup_column_text (s, 2);
      file->size = sqlite3_column_int64 (s, 3);
      file->mtime_usec = sqlite3_column_int64 (s, 4);
      file->n_lines = sqlite3_column_int (s, 5);
      g_ptr_array_add (files, file);
    }
  sqlite3_finalize (s);

  if (rc != SQLITE_DONE)
    {
      _lode_store_set_error (self, rc, error, "Cannot read files");
      return NULL;
    }
  return g_steal_pointer (&files);
}

/* The chunk of each symbol, as the index of its chunk among the file's in the order
 * store_dup_chunks_for_file() returns them. */
static GArray *
dup_symbol_chunks (LodeStore    *self,
                   const char   *path,
                   GArray       *chunk_ids,
                   GError      **error)
{
  g_autoptr(GHashTable) index = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autoptr(GArray) ids = NULL;
  GArray *chunks;
  sqlite3_stmt *s = NULL;
  int rc;

  rc = sqlite3_prepare_v2 (self->db,
                           "SELECT c.id FROM chunks c JOIN files f ON f.id = c.file_id "
                           "WHERE f.path = ?1 ORDER BY c.start_line, c.end_line, c.id", -1,
                           &s, NULL);
  if (rc != SQLITE_OK)
    {
      _lode_store_set_error (self, rc, error, "Cannot read chunks");
      return NULL;
    }
  bind_text (s, 1, path);
  ids = _lode_store_read_ids (self, s, error);
  sqlite3_finalize (s);
  if (ids == NULL)
    return NULL;

  for (guint i = 0; i < ids->len; i++)
    g_hash_table_insert (index, &g_array_index (ids, gint64, i), GUINT_TO_POINTER (i + 1));
  chunks = g_array_sized_new (FALSE, FALSE, sizeof (guint), chunk_ids->len);
  for (guint i = 0; i < chunk_ids->len; i++)
    {
      guint found = GPOINTER_TO_UINT (g_hash_table_lookup (index,
                                                           &g_array_index (chunk_ids, gint64, i)));
      guint chunk = found > 0 ? found - 1 : LODE_INDEX_STORE_NO_CHUNK;

      g_array_append_val (chunks, chunk);
    }
  return chunks;
}

static GPtrArray *
store_dup_symbols_for_file (LodeIndexStore  *store,
                            const char      *path,
                            GArray         **symbol_chunks,
                            GError         **error)
{
  LodeStore *self = (LodeStore *) store;
  g_autoptr(GPtrArray) symbols = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_symbol_free);
  g_autoptr(GArray) chunk_ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  sqlite3_stmt *s = NULL;
  int rc;

  rc = sqlite3_prepare_v2 (self->db,
                           "SELECT s.name, s.kind, s.container, s.signature, s.start_line, "
                           "s.end_line, s.package, s.scope, s.detail, s.chunk_id FROM symbols s "
                           "JOIN files f ON f.id = s.file_id "
                           "WHERE f.path = ?1 ORDER BY s.start_line, s.id", -1, &s, NULL);
  if (rc == SQLITE_OK)
    {
      bind_text (s, 1, path);
      while ((rc = sqlite3_step (s)) == SQLITE_ROW)
        {
          LodeSymbol *symbol = lode_symbol_new ();
          const char *kind = (const char *) sqlite3_column_text (s, 1);
          gint64 chunk_id = sqlite3_column_int64 (s, 9);

          symbol->name = dup_column_text (s, 0);
          symbol->kind = kind != NULL ? g_intern_string (kind) : NULL;
          symbol->container = dup_column_text (s, 2);
          symbol->signature = dup_column_text (s, 3);
          symbol->start_line = sqlite3_column_int (s, 4);
          symbol->end_line = sqlite3_column_int (s, 5);
          symbol->package = dup_column_text (s, 6);
          symbol->scope = dup_column_text (s, 7);
          symbol->detail = dup_column_text (s, 8);
          g_ptr_array_add (symbols, symbol);
          g_array_append_val (chunk_ids, chunk_id);
        }
    }
  sqlite3_finalize (s);

  if (rc != SQLITE_DONE)
    {
      _lode_store_set_error (self, rc, error, "Cannot read symbols");
      return NULL;
    }
  if (symbol_chunks != NULL &&
      (*symbol_chunks = dup_symbol_chunks (self, path, chunk_ids, error)) == NULL)
    return NULL;
  return g_steal_pointer (&symbols);
}

void
_lode_store_files_init (LodeIndexStoreInterface *iface)
{
  iface->dup_file_hashes = store_dup_file_hashes;
  iface->dup_files = store_dup_files;
  iface->prepare_file = store_prepare_file;
  iface->put_file = store_put_file;
  iface->set_file_stamp = store_set_file_stamp;
  iface->remove_file = store_remove_file;
  iface->dup_meta = store_dup_meta;
  iface->get_stats = store_get_stats;
  iface->dup_language_counts = store_dup_language_counts;
  iface->dup_chunks_for_file = store_dup_chunks_for_file;
  iface->dup_symbols_for_file = store_dup_symbols_for_file;
}
