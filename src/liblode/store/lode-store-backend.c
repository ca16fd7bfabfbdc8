/* lode-store-backend.c — the searcher's rows: the SQLite store as a LodeSearchBackend
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Rows and statistics only; LodeSearcher ranks. The lexical leg is in lode-store-rank.c. */

#define G_LOG_DOMAIN "lode-store"

#include "config.h"

#include <string.h>

#include "lode-error.h"
#include "lode-store-private.h"

static const char sql_symbol_lookup[] =
  "SELECT chunk_id, name, kind, container, signature, start_line, end_line FROM symbols "
  "WHERE name = ?1 COLLATE NOCASE AND chunk_id IS NOT NULL LIMIT ?2";
static const char sql_chunk_symbols[] =
  "SELECT chunk_id, name, kind, container, signature, start_line, end_line FROM symbols "
  "WHERE chunk_id = ?1 "
  "ORDER BY start_line, end_line DESC";
/* The rows of a JSON array of chunk ids, in one statement (a question loads 600). */
static const char sql_chunk_meta[] =
  "SELECT c.start_line, c.end_line, c.kind, c.symbol, c.container, c.file_id, f.path, "
  "f.language, c.signature, c.id FROM json_each (?1) j JOIN chunks c ON c.id = j.value "
  "JOIN files f ON f.id = c.file_id";
static const char sql_body[] = "SELECT body FROM chunks_fts WHERE rowid = ?1";
/* The chunks whose words hold @text's as a phrase (FTS5's positions, of the code tokenizer,
 * which drops punctuation), then those whose text holds it (SQLite's lower() folds ASCII
 * only, as the caller is told). */
static const char sql_text_chunks[] =
  "SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ?1 AND instr (lower (body), ?2) > 0 "
  "LIMIT ?3";
static const char sql_find_paths[] =
  "SELECT f.id, f.path, f.language, "
  "(SELECT c.id FROM chunks c WHERE c.file_id = f.id ORDER BY c.start_line LIMIT 1) "
  "FROM files f WHERE f.path LIKE ?1 ESCAPE '\\' "
  "AND (?2 IS NULL OR f.language = ?2 COLLATE NOCASE) "
  "AND (?3 IS NULL OR lode_glob (?3, f.path))";

const char * const _lode_store_backend_sql[] = {
  sql_symbol_lookup, sql_chunk_symbols, sql_chunk_meta, sql_body, sql_find_paths, NULL
};

static GPtrArray *
read_symbol_rows (LodeStore     *self,
                  sqlite3_stmt  *s,
                  GError       **error)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_symbol_row_free);
  int rc;

  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      LodeSymbolRow *row = g_new0 (LodeSymbolRow, 1);

      row->chunk_id = sqlite3_column_int64 (s, 0);
      row->name = dup_column_text (s, 1);
      row->kind = dup_column_text (s, 2);
      row->container = dup_column_text (s, 3);
      row->signature = dup_column_text (s, 4);
      row->start_line = sqlite3_column_int (s, 5);
      row->end_line = sqlite3_column_int (s, 6);
      g_ptr_array_add (rows, row);
    }
  sqlite3_reset (s);

  if (rc != SQLITE_DONE)
    {
      _lode_store_set_error (self, rc, error, "Symbol look-up failed");
      return NULL;
    }

  return g_steal_pointer (&rows);
}

static GPtrArray *
backend_find_symbols (LodeSearchBackend  *backend,
                      const char         *name,
                      guint               limit,
                      GError            **error)
{
  LodeStore *self = (LodeStore *) backend;
  sqlite3_stmt *s = _lode_store_stmt (self, sql_symbol_lookup);

  bind_text (s, 1, name);
  sqlite3_bind_int (s, 2, limit);
  return read_symbol_rows (self, s, error);
}

static GPtrArray *
backend_find_chunk_symbols (LodeSearchBackend  *backend,
                            gint64              chunk_id,
                            GError            **error)
{
  LodeStore *self = (LodeStore *) backend;
  sqlite3_stmt *s = _lode_store_stmt (self, sql_chunk_symbols);

  sqlite3_bind_int64 (s, 1, chunk_id);
  return read_symbol_rows (self, s, error);
}

static GPtrArray *
backend_fetch_chunks (LodeSearchBackend  *backend,
                      const gint64       *chunk_ids,
                      guint               n_chunks,
                      GError            **error)
{
  LodeStore *self = (LodeStore *) backend;
  g_autoptr(GPtrArray) rows = g_ptr_array_new_full (n_chunks,
                                                    (GDestroyNotify) lode_chunk_row_free);
  g_autoptr(GHashTable) position = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autoptr(GString) ids = g_string_new ("[");
  sqlite3_stmt *s;
  int rc;

  for (guint i = 0; i < n_chunks; i++)
    {
      g_string_append_printf (ids, "%s%" G_GINT64_FORMAT, i > 0 ? "," : "", chunk_ids[i]);
      g_ptr_array_add (rows, NULL);
      if (!g_hash_table_contains (position, &chunk_ids[i]))
        g_hash_table_insert (position, (gpointer) &chunk_ids[i], GUINT_TO_POINTER (i));
    }
  g_string_append_c (ids, ']');

  s = _lode_store_stmt (self, sql_chunk_meta);
  bind_text (s, 1, ids->str);
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      gint64 id = sqlite3_column_int64 (s, 9);
      gpointer at;
      LodeChunkRow *row;

      if (!g_hash_table_lookup_extended (position, &id, NULL, &at) ||
          g_ptr_array_index (rows, GPOINTER_TO_UINT (at)) != NULL)
        continue;
      row = g_new0 (LodeChunkRow, 1);
      row->chunk_id = id;
      row->start_line = sqlite3_column_int (s, 0);
      row->end_line = sqlite3_column_int (s, 1);
      row->kind = dup_column_text (s, 2);
      row->symbol = dup_column_text (s, 3);
      row->container = dup_column_text (s, 4);
      row->file_id = sqlite3_column_int64 (s, 5);
      row->path = dup_column_text (s, 6);
      row->language = dup_column_text (s, 7);
      row->signature = dup_column_text (s, 8);
      rows->pdata[GPOINTER_TO_UINT (at)] = row;
    }
  sqlite3_reset (s);

  if (rc != SQLITE_DONE)
    {
      _lode_store_set_error (self, rc, error, "Cannot read a chunk");
      return NULL;
    }

  /* An id asked for twice gets its row twice. */
  for (guint i = 0; i < n_chunks; i++)
    {
      guint first = GPOINTER_TO_UINT (g_hash_table_lookup (position, &chunk_ids[i]));
      const LodeChunkRow *row = g_ptr_array_index (rows, first);

      if (first != i && row != NULL)
        {
          LodeChunkRow *copy = g_memdup2 (row, sizeof *row);

          copy->path = g_strdup (row->path);
          copy->language = g_strdup (row->language);
          copy->kind = g_strdup (row->kind);
          copy->symbol = g_strdup (row->symbol);
          copy->container = g_strdup (row->container);
          copy->signature = g_strdup (row->signature);
          rows->pdata[i] = copy;
        }
    }

  return g_steal_pointer (&rows);
}

static char *
backend_dup_chunk_text (LodeSearchBackend  *backend,
                        gint64              chunk_id,
                        GError            **error)
{
  LodeStore *self = (LodeStore *) backend;
  sqlite3_stmt *s = _lode_store_stmt (self, sql_body);
  char *body;
  int rc;

  sqlite3_bind_int64 (s, 1, chunk_id);
  rc = sqlite3_step (s);
  body = rc == SQLITE_ROW ? dup_column_text (s, 0) : NULL;
  sqlite3_reset (s);

  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    _lode_store_set_error (self, rc, error, "Cannot read a chunk");

  return body;
}

static GPtrArray *
backend_find_paths (LodeSearchBackend       *backend,
                    const char              *needle,
                    const LodeSearchFilter  *filter,
                    GError                 **error)
{
  LodeStore *self = (LodeStore *) backend;
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_path_row_free);
  sqlite3_stmt *s = _lode_store_stmt (self, sql_find_paths);
  g_autoptr(GString) pattern = g_string_new ("%");
  int rc;

  /* LIKE ignores ASCII case, as lower() does, without a copy of every path: the needle's
   * own wildcards are escaped. */
  for (const char *p = needle; *p != '\0'; p++)
    {
      if (*p == '%' || *p == '_' || *p == '\\')
        g_string_append_c (pattern, '\\');
      g_string_append_c (pattern, *p);
    }
  g_string_append_c (pattern, '%');
  bind_text (s, 1, pattern->str);
  bind_text (s, 2, filter != NULL ? filter->language : NULL);
  bind_text (s, 3, filter != NULL ? filter->path_glob : NULL);
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      LodePathRow *row = g_new0 (LodePathRow, 1);

      row->file_id = sqlite3_column_int64 (s, 0);
      row->path = dup_column_text (s, 1);
      row->language = dup_column_text (s, 2);
      row->first_chunk = sqlite3_column_int64 (s, 3);
      g_ptr_array_add (rows, row);
    }
  sqlite3_reset (s);

  if (rc != SQLITE_DONE)
    {
      _lode_store_set_error (self, rc, error, "Cannot read paths");
      return NULL;
    }

  return g_steal_pointer (&rows);
}

/* The chunks that hold @text: a phrase query narrows them to those that hold its words in
 * order, and only their text is read (on zstd, reading the text of every file whose trigrams
 * allow a message cost 20 ms). Past @max_chunks the literal is common. */
static gboolean
backend_find_text (LodeSearchBackend  *backend,
                   const char         *text,
                   guint               max_chunks,
                   GArray             *chunk_ids,
                   gboolean           *common,
                   GError            **error)
{
  LodeStore *self = (LodeStore *) backend;
  g_autoptr(GString) match = g_string_new ("body : ");
  g_autofree char *lower = g_ascii_strdown (text, -1);
  sqlite3_stmt *s;
  guint n = 0;
  int rc;

  *common = FALSE;
  if (!_lode_store_rank_may_hold (self, text))
    return TRUE;
  _lode_store_append_fts5_string (match, text);

  s = _lode_store_statement (self, sql_text_chunks, error);
  if (s == NULL)
    return FALSE;
  sqlite3_bind_text (s, 1, match->str, match->len, SQLITE_STATIC);
  sqlite3_bind_text (s, 2, lower, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (s, 3, (gint64) max_chunks + 1);
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      gint64 id = sqlite3_column_int64 (s, 0);

      g_array_append_val (chunk_ids, id);
      n++;
    }
  sqlite3_reset (s);
  if (rc != SQLITE_DONE)
    {
      g_array_set_size (chunk_ids, chunk_ids->len - n);
      _lode_store_set_error (self, rc, error, "Cannot look up a text");
      return FALSE;
    }
  if (n > max_chunks)
    {
      g_array_set_size (chunk_ids, chunk_ids->len - n);
      *common = TRUE;
    }

  return TRUE;
}

static gint64
backend_get_version (LodeSearchBackend *backend)
{
  return _lode_store_get_data_version ((LodeStore *) backend);
}

static GArray *
backend_dup_chunk_ids (LodeSearchBackend       *backend,
                       const LodeSearchFilter  *filter,
                       GError                 **error)
{
  return _lode_store_dup_chunk_ids ((LodeStore *) backend,
                                    filter != NULL ? filter->language : NULL,
                                    filter != NULL ? filter->path_glob : NULL, error);
}

static gboolean
backend_get_vector_dims (LodeSearchBackend  *backend,
                         const char         *model,
                         guint              *dims,
                         GError            **error)
{
  return _lode_store_get_vector_dims ((LodeStore *) backend, model, dims, error);
}

static gboolean
backend_load_vectors (LodeSearchBackend  *backend,
                      const char         *model,
                      guint               dims,
                      LodeVectorCursor   *cursor,
                      LodeVectorFunc      func,
                      gpointer            user_data,
                      GError            **error)
{
  return _lode_store_load_vectors ((LodeStore *) backend, model, dims, cursor, func, user_data,
                                   error);
}

/* One read transaction for the whole of a search: its statements see one version of the
 * index, and the connection takes its shared lock once instead of at each of them (a
 * question's 600 candidate rows took 600 lock and unlock calls). */
static gboolean
backend_begin_read (LodeSearchBackend  *backend,
                    GError            **error)
{
  LodeStore *self = (LodeStore *) backend;
  gboolean own = FALSE;

  if (!_lode_store_read_begin (self, &own, error))
    return FALSE;
  self->in_read = own;

  return TRUE;
}

static void
backend_end_read (LodeSearchBackend *backend)
{
  LodeStore *self = (LodeStore *) backend;

  if (!self->in_read)
    return;
  self->in_read = FALSE;
  _lode_store_read_end (self, TRUE, NULL);
}

void
_lode_store_backend_init (LodeSearchBackendInterface *iface)
{
  iface->find_symbols = backend_find_symbols;
  iface->find_chunk_symbols = backend_find_chunk_symbols;
  iface->fetch_chunks = backend_fetch_chunks;
  iface->dup_chunk_text = backend_dup_chunk_text;
  iface->find_paths = backend_find_paths;
  iface->get_version = backend_get_version;
  iface->dup_chunk_ids = backend_dup_chunk_ids;
  iface->get_vector_dims = backend_get_vector_dims;
  iface->load_vectors = backend_load_vectors;
  iface->find_text = backend_find_text;
  iface->begin_read = backend_begin_read;
  iface->end_read = backend_end_read;
}
