/* lode-store-artifacts.c — the index's space for context artifacts
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-store"

#include "config.h"

#include "lode-error.h"
#include "lode-store-private.h"

/*
 * Context artifacts (issue #15) live beside the code in the project's index but apart from
 * it: `artifacts` (one row per artifact: its declaration, the content hash it was indexed
 * at, counts), `artifact_chunks` (the pieces, by artifact) and `artifact_fts` (their title
 * and text, with the code tokenizer). Code search never sees them, and removing an
 * artifact touches nothing else.
 */

const char _lode_store_artifacts_schema_sql[] =
  "CREATE TABLE IF NOT EXISTS artifacts ("
  "  name TEXT PRIMARY KEY,"
  "  path TEXT NOT NULL,"
  "  description TEXT,"
  "  hash TEXT NOT NULL,"
  "  indexed_at INTEGER NOT NULL,"
  "  n_files INTEGER NOT NULL,"
  "  n_chunks INTEGER NOT NULL"
  ") WITHOUT ROWID;"
  "CREATE TABLE IF NOT EXISTS artifact_chunks ("
  "  id INTEGER PRIMARY KEY,"
  "  artifact TEXT NOT NULL,"
  "  path TEXT NOT NULL,"
  "  start_line INTEGER NOT NULL,"
  "  end_line INTEGER NOT NULL,"
  "  kind TEXT,"
  "  title TEXT"
  ");"
  "CREATE INDEX IF NOT EXISTS artifact_chunks_artifact ON artifact_chunks (artifact);"
  "CREATE VIRTUAL TABLE IF NOT EXISTS artifact_fts USING fts5 ("
  "  title, body,"
  "  tokenize = '" LODE_STORE_TOKENIZER "'"
  ");";

static const char sql_list[] =
  "SELECT name, path, description, hash, indexed_at, n_files, n_chunks FROM artifacts "
  "ORDER BY name";
static const char sql_delete_fts[] =
  "DELETE FROM artifact_fts WHERE rowid IN (SELECT id FROM artifact_chunks WHERE artifact = ?1)";
static const char sql_delete_chunks[] = "DELETE FROM artifact_chunks WHERE artifact = ?1";
static const char sql_delete_artifact[] = "DELETE FROM artifacts WHERE name = ?1";
static const char sql_insert_artifact[] =
  "INSERT INTO artifacts (name, path, description, hash, indexed_at, n_files, n_chunks) "
  "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)";
static const char sql_insert_chunk[] =
  "INSERT INTO artifact_chunks (artifact, path, start_line, end_line, kind, title) "
  "VALUES (?1, ?2, ?3, ?4, ?5, ?6)";
static const char sql_insert_fts[] =
  "INSERT INTO artifact_fts (rowid, title, body) VALUES (?1, ?2, ?3)";
static const char sql_count_pieces[] = "SELECT count(*) FROM artifact_chunks";
static const char sql_count_tokens[] =
  "SELECT lode_total_tokens (artifact_fts) FROM artifact_fts LIMIT 1";
static const char sql_count_holding[] =
  "SELECT count(*) FROM artifact_fts WHERE artifact_fts MATCH ?1";
/* FTS5's bm25() only picks the pieces when more match than asked for. */
static const char sql_find[] =
  "SELECT c.artifact, c.path, c.start_line, c.end_line, c.kind, c.title, f.body "
  "FROM artifact_fts f JOIN artifact_chunks c ON c.id = f.rowid "
  "WHERE artifact_fts MATCH ?1 AND (?2 IS NULL OR c.artifact = ?2) "
  "ORDER BY bm25 (artifact_fts, ?4, 1.0) LIMIT ?3";
static const char sql_chunks[] =
  "SELECT c.path, c.start_line, c.end_line, c.kind, c.title, f.body FROM artifact_chunks c "
  "JOIN artifact_fts f ON f.rowid = c.id WHERE c.artifact = ?1 ORDER BY c.id";

static GPtrArray *
store_dup_artifacts (LodeIndexStore  *store,
                     GError         **error)
{
  LodeStore *self = (LodeStore *) store;
  g_autoptr(GPtrArray) artifacts =
    g_ptr_array_new_with_free_func ((GDestroyNotify) lode_stored_artifact_free);
  sqlite3_stmt *s;
  int rc;

  s = _lode_store_statement (self, sql_list, error);
  if (s == NULL)
    return NULL;
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      LodeStoredArtifact *artifact = g_new0 (LodeStoredArtifact, 1);

      artifact->name = dup_column_text (s, 0);
      artifact->path = dup_column_text (s, 1);
      artifact->description = dup_column_text (s, 2);
      artifact->hash = dup_column_text (s, 3);
      artifact->indexed_at = sqlite3_column_int64 (s, 4);
      artifact->n_files = sqlite3_column_int (s, 5);
      artifact->n_chunks = sqlite3_column_int (s, 6);
      g_ptr_array_add (artifacts, artifact);
    }
  sqlite3_reset (s);
  if (rc != SQLITE_DONE)
    {
      _lode_store_set_error (self, rc, error, "Cannot list context artifacts");
      return NULL;
    }
  return g_steal_pointer (&artifacts);
}

static gboolean
delete_rows (LodeStore   *self,
             const char  *name,
             GError     **error)
{
  const char *deletes[] = { sql_delete_fts, sql_delete_chunks, sql_delete_artifact };

  for (guint i = 0; i < G_N_ELEMENTS (deletes); i++)
    {
      sqlite3_stmt *s = _lode_store_statement (self, deletes[i], error);

      if (s == NULL)
        return FALSE;
      bind_text (s, 1, name);
      if (!_lode_store_run (self, s, error, "Cannot write a context artifact"))
        return FALSE;
    }
  return TRUE;
}

static gboolean
put_rows (LodeStore                 *self,
          const LodeStoredArtifact  *artifact,
          GPtrArray                 *chunks,
          GError                   **error)
{
  sqlite3_stmt *s;

  if (!delete_rows (self, artifact->name, error))
    return FALSE;

  s = _lode_store_statement (self, sql_insert_artifact, error);
  if (s == NULL)
    return FALSE;
  bind_text (s, 1, artifact->name);
  bind_text (s, 2, artifact->path);
  bind_text (s, 3, artifact->description);
  bind_text (s, 4, artifact->hash);
  sqlite3_bind_int64 (s, 5, artifact->indexed_at);
  sqlite3_bind_int (s, 6, artifact->n_files);
  sqlite3_bind_int (s, 7, chunks->len);
  if (!_lode_store_run (self, s, error, "Cannot write a context artifact"))
    return FALSE;

  for (guint i = 0; i < chunks->len; i++)
    {
      const LodeArtifactChunk *chunk = g_ptr_array_index (chunks, i);
      gint64 id;

      s = _lode_store_statement (self, sql_insert_chunk, error);
      if (s == NULL)
        return FALSE;
      bind_text (s, 1, artifact->name);
      bind_text (s, 2, chunk->path);
      sqlite3_bind_int (s, 3, chunk->start_line);
      sqlite3_bind_int (s, 4, chunk->end_line);
      bind_text (s, 5, chunk->kind);
      bind_text (s, 6, chunk->title);
      if (!_lode_store_run (self, s, error, "Cannot write a context artifact"))
        return FALSE;
      id = sqlite3_last_insert_rowid (self->db);

      s = _lode_store_statement (self, sql_insert_fts, error);
      if (s == NULL)
        return FALSE;
      sqlite3_bind_int64 (s, 1, id);
      bind_text (s, 2, chunk->title);
      bind_text (s, 3, chunk->body);
      if (!_lode_store_run (self, s, error, "Cannot write a context artifact"))
        return FALSE;
    }
  return TRUE;
}

/* Replaces what is stored for @artifact's name, in a transaction of its own. */
static gboolean
store_put_artifact (LodeIndexStore            *store,
                    const LodeStoredArtifact  *artifact,
                    GPtrArray                 *chunks,
                    GError                   **error)
{
  LodeStore *self = (LodeStore *) store;

  g_return_val_if_fail (artifact != NULL && artifact->name != NULL, FALSE);
  g_return_val_if_fail (chunks != NULL, FALSE);

  if (!_lode_store_begin (self, error))
    return FALSE;
  if (!put_rows (self, artifact, chunks, error))
    {
      _lode_store_rollback (self);
      return FALSE;
    }
  return _lode_store_commit (self, error);
}

static gboolean
store_remove_artifact (LodeIndexStore  *store,
                       const char      *name,
                       GError         **error)
{
  LodeStore *self = (LodeStore *) store;

  g_return_val_if_fail (name != NULL, FALSE);

  if (!_lode_store_begin (self, error))
    return FALSE;
  if (!delete_rows (self, name, error))
    {
      _lode_store_rollback (self);
      return FALSE;
    }
  return _lode_store_commit (self, error);
}

static GPtrArray *
store_dup_artifact_chunks (LodeIndexStore  *store,
                           const char      *name,
                           GError         **error)
{
  LodeStore *self = (LodeStore *) store;
  g_autoptr(GPtrArray) chunks =
    g_ptr_array_new_with_free_func ((GDestroyNotify) lode_artifact_chunk_free);
  sqlite3_stmt *s;
  int rc;

  g_return_val_if_fail (name != NULL, NULL);

  s = _lode_store_statement (self, sql_chunks, error);
  if (s == NULL)
    return NULL;
  bind_text (s, 1, name);
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      LodeArtifactChunk *chunk = g_new0 (LodeArtifactChunk, 1);

      chunk->path = dup_column_text (s, 0);
      chunk->start_line = sqlite3_column_int (s, 1);
      chunk->end_line = sqlite3_column_int (s, 2);
      chunk->kind = dup_column_text (s, 3);
      chunk->title = dup_column_text (s, 4);
      chunk->body = dup_column_text (s, 5);
      g_ptr_array_add (chunks, chunk);
    }
  sqlite3_reset (s);
  if (rc != SQLITE_DONE)
    {
      _lode_store_set_error (self, rc, error, "Cannot read a context artifact");
      return NULL;
    }
  return g_steal_pointer (&chunks);
}

/* `"word"* OR "other"*`: each prefix is quoted (the caller keeps to letters, digits and _),
 * so MATCH sees no operator. */
static char *
match_expression (const char * const *prefixes)
{
  GString *match = g_string_new (NULL);

  for (guint i = 0; prefixes[i] != NULL; i++)
    g_string_append_printf (match, "%s\"%s\"*", i > 0 ? " OR " : "", prefixes[i]);
  return g_string_free (match, FALSE);
}

/* Steps @s, which yields one count. */
static gboolean
step_count (LodeStore     *self,
            sqlite3_stmt  *s,
            guint64       *count,
            GError       **error)
{
  int rc = sqlite3_step (s);

  *count = rc == SQLITE_ROW ? (guint64) sqlite3_column_int64 (s, 0) : 0;
  sqlite3_reset (s);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    return _lode_store_set_error (self, rc, error, "Cannot count context artifacts");
  return TRUE;
}

/* The statistics BM25 takes from FTS5: rows, their tokens, the rows holding each prefix. */
static gboolean
artifact_stats (LodeStore           *self,
                const char * const  *prefixes,
                LodeArtifactStats   *stats,
                GError             **error)
{
  sqlite3_stmt *s;

  if ((s = _lode_store_statement (self, sql_count_pieces, error)) == NULL ||
      !step_count (self, s, &stats->n_pieces, error) ||
      (s = _lode_store_statement (self, sql_count_tokens, error)) == NULL ||
      !step_count (self, s, &stats->n_tokens, error))
    return FALSE;

  for (guint i = 0; prefixes[i] != NULL; i++)
    {
      const char *one[] = { prefixes[i], NULL };
      g_autofree char *match = match_expression (one);

      s = _lode_store_statement (self, sql_count_holding, error);
      if (s == NULL)
        return FALSE;
      bind_text (s, 1, match);
      if (!step_count (self, s, &stats->n_holding[i], error))
        return FALSE;
    }
  return TRUE;
}

static GPtrArray *
store_find_artifact_pieces (LodeIndexStore      *store,
                            const char * const  *prefixes,
                            const char          *artifact,
                            guint                limit,
                            LodeArtifactStats   *stats,
                            GError             **error)
{
  LodeStore *self = (LodeStore *) store;
  g_autoptr(GPtrArray) hits =
    g_ptr_array_new_with_free_func ((GDestroyNotify) lode_artifact_hit_free);
  g_autofree char *match = match_expression (prefixes);
  sqlite3_stmt *s;
  int rc;

  if (!artifact_stats (self, prefixes, stats, error))
    return NULL;

  s = _lode_store_statement (self, sql_find, error);
  if (s == NULL)
    return NULL;
  bind_text (s, 1, match);
  bind_text (s, 2, artifact);
  sqlite3_bind_int (s, 3, limit);
  sqlite3_bind_double (s, 4, LODE_ARTIFACT_TITLE_WEIGHT);
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      LodeArtifactHit *hit = g_new0 (LodeArtifactHit, 1);

      hit->artifact = dup_column_text (s, 0);
      hit->path = dup_column_text (s, 1);
      hit->start_line = sqlite3_column_int (s, 2);
      hit->end_line = sqlite3_column_int (s, 3);
      hit->kind = dup_column_text (s, 4);
      hit->title = dup_column_text (s, 5);
      hit->body = dup_column_text (s, 6);
      g_ptr_array_add (hits, hit);
    }
  sqlite3_reset (s);
  if (rc != SQLITE_DONE)
    {
      _lode_store_set_error (self, rc, error, "Cannot search context artifacts");
      return NULL;
    }
  return g_steal_pointer (&hits);
}

/* lode_total_tokens (artifact_fts): the tokens of every row and column, which bm25() divides
 * by the rows for their average length. */
static void
total_tokens_func (const Fts5ExtensionApi  *api,
                   Fts5Context             *fts,
                   sqlite3_context         *context,
                   int                      argc,
                   sqlite3_value          **argv)
{
  sqlite3_int64 n = 0;
  int rc = api->xColumnTotalSize (fts, -1, &n);

  if (rc == SQLITE_OK)
    sqlite3_result_int64 (context, n);
  else
    sqlite3_result_error_code (context, rc);
}

gboolean
_lode_store_register_artifacts (LodeStore  *self,
                                GError    **error)
{
  fts5_api *api = _lode_store_get_fts5 (self->db, error);
  int rc;

  if (api == NULL)
    return FALSE;
  rc = api->xCreateFunction (api, "lode_total_tokens", NULL, total_tokens_func, NULL);
  if (rc != SQLITE_OK)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_STORE,
                   "Cannot register lode_total_tokens(): %s", sqlite3_errstr (rc));
      return FALSE;
    }
  return TRUE;
}

void
_lode_store_artifacts_init (LodeIndexStoreInterface *iface)
{
  iface->dup_artifacts = store_dup_artifacts;
  iface->dup_artifact_chunks = store_dup_artifact_chunks;
  iface->put_artifact = store_put_artifact;
  iface->remove_artifact = store_remove_artifact;
  iface->find_artifact_pieces = store_find_artifact_pieces;
}
