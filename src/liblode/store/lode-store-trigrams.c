/* lode-store-trigrams.c — the SQLite index's trigrams, for codebase_grep
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-store"

#include "config.h"

#include "lode-error.h"
#include "lode-store-private.h"

/*
 * `chunks_tri` indexes every chunk's text (rowid = the chunk's id) with SQLite's own
 * `trigram` tokenizer, case folded, `detail=none`: a document list per trigram and nothing
 * else (no positions, no copy of the text, which `chunks_fts` already holds). FTS5 keeps
 * those lists as merged segments, so a file's edit writes only its own chunks' lists.
 * A contentless table forgets a row only when given the text it was indexed with (SQLite
 * 3.40 has no `contentless_delete`): a file's chunks are forgotten with their text from
 * `chunks_fts`, before those rows go.
 *
 * Why chunks and not files: a line lies whole in a chunk (the chunker covers every line),
 * so the trigrams a pattern requires on one line are all in one chunk; a chunk-level AND
 * names fewer files than a file-level one, at no cost in lines found.
 */

const char _lode_store_trigrams_schema_sql[] =
  "CREATE VIRTUAL TABLE IF NOT EXISTS chunks_tri USING fts5 ("
  "  body, tokenize = 'trigram', detail = none, content = '', columnsize = 0"
  ");";

static const char sql_forget_file[] =
  "INSERT INTO chunks_tri (chunks_tri, rowid, body) "
  "SELECT 'delete', c.id, f.body FROM chunks c JOIN chunks_fts f ON f.rowid = c.id "
  "WHERE c.file_id = ?1";
static const char sql_put_chunk[] = "INSERT INTO chunks_tri (rowid, body) VALUES (?1, ?2)";
static const char sql_find_files[] =
  "SELECT path, language, hash, size, mtime, n_lines FROM files WHERE id IN ("
  "  SELECT file_id FROM chunks WHERE id IN ("
  "    SELECT rowid FROM chunks_tri WHERE chunks_tri MATCH ?1)) "
  "ORDER BY path";

static gboolean
step_done (LodeStore     *self,
           sqlite3_stmt  *s,
           GError       **error,
           const char    *what)
{
  int rc = sqlite3_step (s);

  sqlite3_reset (s);
  if (rc != SQLITE_DONE)
    return _lode_store_set_error (self, rc, error, what);
  return TRUE;
}

/* Runs on the writer's thread, inside its batch, before the chunks of @file_id go. */
gboolean
_lode_store_trigrams_forget_file (LodeStore  *self,
                                  gint64      file_id,
                                  GError    **error)
{
  sqlite3_stmt *s = _lode_store_statement (self, sql_forget_file, error);

  if (s == NULL)
    return FALSE;
  sqlite3_bind_int64 (s, 1, file_id);
  return step_done (self, s, error, "Cannot forget a file's trigrams");
}

gboolean
_lode_store_trigrams_put_chunk (LodeStore   *self,
                                gint64       chunk_id,
                                const char  *text,
                                GError     **error)
{
  sqlite3_stmt *s = _lode_store_statement (self, sql_put_chunk, error);

  if (s == NULL)
    return FALSE;
  sqlite3_bind_int64 (s, 1, chunk_id);
  sqlite3_bind_text (s, 2, text != NULL ? text : "", -1, SQLITE_STATIC);
  return step_done (self, s, error, "Cannot index a chunk's trigrams");
}

/* @query as an FTS5 expression over single trigrams (each quoted, so that no character of
 * the user's pattern reaches FTS5's parser as syntax). */
static void
append_match (GString             *out,
              const LodeGrepQuery *query)
{
  switch (query->kind)
    {
    case LODE_GREP_QUERY_LITERAL:
      {
        g_autoptr(GPtrArray) trigrams = lode_grep_literal_trigrams (query->literal);

        g_string_append_c (out, '(');
        for (guint i = 0; i < trigrams->len; i++)
          {
            const char *t = trigrams->pdata[i];

            if (i > 0)
              g_string_append (out, " AND ");
            g_string_append_c (out, '"');
            for (const char *p = t; *p != '\0'; p++)
              {
                if (*p == '"')
                  g_string_append_c (out, '"');
                g_string_append_c (out, *p);
              }
            g_string_append_c (out, '"');
          }
        g_string_append_c (out, ')');
      }
      break;
    case LODE_GREP_QUERY_AND:
    case LODE_GREP_QUERY_OR:
      g_string_append_c (out, '(');
      for (guint i = 0; i < query->children->len; i++)
        {
          if (i > 0)
            g_string_append (out, query->kind == LODE_GREP_QUERY_AND ? " AND " : " OR ");
          append_match (out, query->children->pdata[i]);
        }
      g_string_append_c (out, ')');
      break;
    case LODE_GREP_QUERY_ALL:
    default:
      /* ALL is absorbed by the AND and OR above it, and the caller answers a query that is
       * ALL itself without the index. */
      g_assert_not_reached ();
    }
}

GPtrArray *
_lode_store_find_text_files (LodeStore            *self,
                             const LodeGrepQuery  *query,
                             GError              **error)
{
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_stored_file_free);
  g_autoptr(GString) match = g_string_new (NULL);
  sqlite3_stmt *s;
  int rc;

  append_match (match, query);
  s = _lode_store_statement (self, sql_find_files, error);
  if (s == NULL)
    return NULL;
  sqlite3_bind_text (s, 1, match->str, match->len, SQLITE_TRANSIENT);
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      LodeStoredFile *file = g_new0 (LodeStoredFile, 1);

      file->path = g_strdup ((const char *) sqlite3_column_text (s, 0));
      file->language = g_strdup ((const char *) sqlite3_column_text (s, 1));
      file->hash = g_strdup ((const char *) sqlite3_column_text (s, 2));
      file->size = sqlite3_column_int64 (s, 3);
      file->mtime_usec = sqlite3_column_int64 (s, 4);
      file->n_lines = sqlite3_column_int (s, 5);
      g_ptr_array_add (files, file);
    }
  sqlite3_reset (s);
  if (rc != SQLITE_DONE)
    {
      _lode_store_set_error (self, rc, error, "Cannot look up trigrams");
      return NULL;
    }
  return g_steal_pointer (&files);
}
