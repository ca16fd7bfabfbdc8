/* lode-store-vectors.c — vectors, by the text and the model they belong to
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-store"

#include "config.h"

#include <string.h>

#include "lode-error.h"
#include "lode-store-private.h"

/* Vectors (issue #4). chunks.hash is the SHA-1 of the chunk's text (NULL for a blank chunk,
 * which is never embedded) and chunk ids are never reused (AUTOINCREMENT), so that an
 * in-memory matrix keyed by chunk id can be brought up to date incrementally. A vector
 * belongs to a text and a model, not to a chunk: identical text is embedded once, a chunk
 * that moves (or a file that is renamed) keeps its vector, and vectors of different models
 * never mix. `seq` grows with every vector stored, for the same incremental loading.
 * Vectors are float32 in host byte order (the index is a local cache). */
const char _lode_store_vectors_schema_sql[] =
  "CREATE TABLE IF NOT EXISTS vectors ("
  "  seq INTEGER PRIMARY KEY AUTOINCREMENT,"
  "  model TEXT NOT NULL,"
  "  hash TEXT NOT NULL,"
  "  dims INTEGER NOT NULL,"
  "  vector BLOB NOT NULL,"
  "  UNIQUE (model, hash)"
  ");";
const char _lode_store_vectors_lookup_sql[] =
  "CREATE INDEX IF NOT EXISTS chunks_hash ON chunks (hash);";

/* The text is read for the chunks chosen only: a join let SQLite walk chunks_fts first,
 * every row of it for every batch. */
static const char sql_todo[] =
  "SELECT c.id, c.hash, (SELECT body FROM chunks_fts WHERE rowid = c.id) FROM chunks c "
  "WHERE c.id > ?2 AND c.hash IS NOT NULL AND NOT EXISTS "
  "(SELECT 1 FROM vectors v WHERE v.model = ?1 AND v.hash = c.hash) ORDER BY c.id LIMIT ?3";
static const char sql_count_hash[] = "SELECT count(*) FROM chunks WHERE hash = ?1";
static const char sql_insert[] =
  "INSERT OR IGNORE INTO vectors (model, hash, dims, vector) VALUES (?1, ?2, ?3, ?4)";
static const char sql_dims[] = "SELECT dims FROM vectors WHERE model = ?1 LIMIT 1";
static const char sql_count_embedded[] =
  "SELECT count(*) FROM chunks c WHERE c.hash IS NOT NULL AND EXISTS "
  "(SELECT 1 FROM vectors v WHERE v.model = ?1 AND v.hash = c.hash)";
static const char sql_count_embeddable[] = "SELECT count(*) FROM chunks WHERE hash IS NOT NULL";
static const char sql_cursor[] =
  "SELECT (SELECT ifnull (max (id), 0) FROM chunks), "
  "(SELECT ifnull (max (seq), 0) FROM vectors)";
static const char sql_load[] =
  "SELECT c.id, v.vector FROM chunks c JOIN vectors v ON v.model = ?1 AND v.hash = c.hash "
  "WHERE c.id > ?2 AND c.id <= ?4 AND v.seq <= ?5 "
  "UNION ALL "
  "SELECT c.id, v.vector FROM vectors v JOIN chunks c ON c.hash = v.hash "
  "WHERE v.model = ?1 AND v.seq > ?3 AND v.seq <= ?5 AND c.id <= ?2";
static const char sql_chunk_ids[] = "SELECT id FROM chunks WHERE hash IS NOT NULL ORDER BY id";
static const char sql_filter_ids[] =
  "SELECT c.id FROM chunks c JOIN files f ON f.id = c.file_id "
  "WHERE (?1 IS NULL OR f.language = ?1 COLLATE NOCASE) "
  "AND (?2 IS NULL OR lode_glob (?2, f.path)) ORDER BY c.id";
static const char sql_delete_other_models[] = "DELETE FROM vectors WHERE model != ?1";
static const char sql_count_vectors[] = "SELECT count(*) FROM vectors WHERE model = ?1";
static const char sql_count_orphans[] =
  "SELECT count(*) FROM vectors v WHERE v.model = ?1 AND NOT EXISTS "
  "(SELECT 1 FROM chunks c WHERE c.hash = v.hash)";
static const char sql_delete_orphans[] =
  "DELETE FROM vectors WHERE seq IN (SELECT v.seq FROM vectors v WHERE v.model = ?1 AND "
  "NOT EXISTS (SELECT 1 FROM chunks c WHERE c.hash = v.hash) ORDER BY v.seq LIMIT ?2)";

static const char sql_data_version[] = "PRAGMA data_version";

const char * const _lode_store_vectors_sql[] = {
  sql_data_version, sql_todo, sql_count_hash, sql_insert, sql_dims, sql_count_embedded,
  sql_count_embeddable, sql_cursor, sql_load, sql_chunk_ids, sql_filter_ids,
  sql_delete_other_models, sql_count_vectors, sql_count_orphans, sql_delete_orphans, NULL
};

static gboolean
vector_count (LodeStore   *self,
              const char  *sql,
              const char  *model,
              guint       *count,
              GError     **error)
{
  sqlite3_stmt *s = _lode_store_stmt (self, sql);

  if (model != NULL)
    bind_text (s, 1, model);

  return _lode_store_step_count (self, s, count, error);
}

/* The next chunks, by id, whose text has no vector of @model. Several chunks may share a
 * text: each is listed, and the caller embeds their text once. */
static GPtrArray *
store_dup_unembedded (LodeIndexStore  *store,
                      const char      *model,
                      gint64           after_chunk,
                      guint            limit,
                      GError         **error)
{
  LodeStore *self = (LodeStore *) store;
  g_autoptr(GPtrArray) texts = NULL;
  sqlite3_stmt *s;
  int rc;

  g_return_val_if_fail (model != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  texts = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_store_embed_text_free);
  s = _lode_store_stmt (self, sql_todo);
  bind_text (s, 1, model);
  sqlite3_bind_int64 (s, 2, after_chunk);
  sqlite3_bind_int (s, 3, (int) MIN (limit, G_MAXINT));
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      LodeStoreEmbedText *text = g_new0 (LodeStoreEmbedText, 1);

      text->chunk_id = sqlite3_column_int64 (s, 0);
      text->hash = dup_column_text (s, 1);
      text->text = dup_column_text (s, 2);
      if (text->text == NULL)
        text->text = g_strdup ("");
      g_ptr_array_add (texts, text);
    }
  sqlite3_reset (s);

  if (rc != SQLITE_DONE)
    {
      _lode_store_set_error (self, rc, error, "Cannot read the chunks to embed");
      return NULL;
    }

  return g_steal_pointer (&texts);
}

/* Sets *@dims to the size of the stored vectors of @model, 0 when there are none. */
gboolean
_lode_store_get_vector_dims (LodeStore   *self,
                             const char  *model,
                             guint       *dims,
                             GError     **error)
{
  sqlite3_stmt *s;
  int rc;

  s = _lode_store_stmt (self, sql_dims);
  bind_text (s, 1, model);
  rc = sqlite3_step (s);
  *dims = rc == SQLITE_ROW ? (guint) sqlite3_column_int (s, 0) : 0;
  sqlite3_reset (s);

  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    return _lode_store_set_error (self, rc, error, "Cannot read vectors");

  return TRUE;
}

/* Stores a batch of vectors in one transaction (so that an interrupted embedding pass loses
 * at most the batch in flight). A vector of a hash that has one already is left alone.
 * Vectors whose dimensions differ from those stored for @model are refused: a provider that
 * changed its output under the same model name must not mix spaces. */
static gboolean
store_put_vectors (LodeIndexStore      *store,
                   const char          *model,
                   guint                dims,
                   const char * const  *hashes,
                   const float         *vectors,
                   guint                n_vectors,
                   guint               *n_chunks,
                   GError             **error)
{
  LodeStore *self = (LodeStore *) store;
  guint stored_dims = 0;
  guint covered = 0;

  g_return_val_if_fail (model != NULL, FALSE);
  g_return_val_if_fail (dims > 0, FALSE);
  g_return_val_if_fail (hashes != NULL || n_vectors == 0, FALSE);
  g_return_val_if_fail (vectors != NULL || n_vectors == 0, FALSE);
  g_return_val_if_fail (!self->in_transaction, FALSE);

  if (!_lode_store_get_vector_dims (self, model, &stored_dims, error))
    return FALSE;
  if (stored_dims != 0 && stored_dims != dims)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                   "The model %s gave %u-dimensional vectors; the index holds %u-dimensional "
                   "ones of the same model", model, dims, stored_dims);
      return FALSE;
    }

  if (!_lode_store_begin (self, error))
    return FALSE;

  for (guint i = 0; i < n_vectors; i++)
    {
      sqlite3_stmt *s = _lode_store_stmt (self, sql_insert);
      guint count = 0;

      bind_text (s, 1, model);
      bind_text (s, 2, hashes[i]);
      sqlite3_bind_int (s, 3, dims);
      sqlite3_bind_blob (s, 4, vectors + (gsize) i * dims, dims * sizeof (float), SQLITE_STATIC);
      if (!_lode_store_run (self, s, error, "Cannot store a vector"))
        {
          _lode_store_rollback (self);
          return FALSE;
        }
      if (sqlite3_changes (self->db) == 0)
        continue;

      s = _lode_store_stmt (self, sql_count_hash);
      bind_text (s, 1, hashes[i]);
      if (sqlite3_step (s) == SQLITE_ROW)
        count = sqlite3_column_int64 (s, 0);
      sqlite3_reset (s);
      covered += count;
    }

  if (!_lode_store_commit (self, error))
    return FALSE;

  if (n_chunks != NULL)
    *n_chunks = covered;

  return TRUE;
}

static gboolean
store_count_embedded (LodeIndexStore  *store,
                      const char      *model,
                      guint           *n_embedded,
                      guint           *n_embeddable,
                      GError         **error)
{
  LodeStore *self = (LodeStore *) store;

  g_return_val_if_fail (n_embedded != NULL && n_embeddable != NULL, FALSE);

  *n_embedded = 0;
  if (model != NULL && !vector_count (self, sql_count_embedded, model, n_embedded, error))
    return FALSE;

  return vector_count (self, sql_count_embeddable, NULL, n_embeddable, error);
}

/* Deletes the vectors of every other model, and, when the vectors of @model that no chunk
 * uses any more outnumber those in use, the oldest of them down to that number. Unused
 * vectors are kept up to that bound so that text that comes back (a reverted edit, a
 * branch switch) is not embedded again. */
static gboolean
store_prune_vectors (LodeIndexStore  *store,
                     const char      *model,
                     GError         **error)
{
  LodeStore *self = (LodeStore *) store;
  sqlite3_stmt *s;
  guint n_vectors = 0;
  guint n_orphans = 0;

  g_return_val_if_fail (model != NULL, FALSE);
  g_return_val_if_fail (!self->in_transaction, FALSE);

  if (!vector_count (self, sql_count_vectors, model, &n_vectors, error) ||
      !vector_count (self, sql_count_orphans, model, &n_orphans, error))
    return FALSE;

  if (!_lode_store_begin (self, error))
    return FALSE;

  s = _lode_store_stmt (self, sql_delete_other_models);
  bind_text (s, 1, model);
  if (!_lode_store_run (self, s, error, "Cannot delete vectors"))
    {
      _lode_store_rollback (self);
      return FALSE;
    }

  if (n_orphans > n_vectors - n_orphans)
    {
      s = _lode_store_stmt (self, sql_delete_orphans);
      bind_text (s, 1, model);
      sqlite3_bind_int64 (s, 2, n_orphans - (n_vectors - n_orphans));
      if (!_lode_store_run (self, s, error, "Cannot delete vectors"))
        {
          _lode_store_rollback (self);
          return FALSE;
        }
    }

  return _lode_store_commit (self, error);
}

/* A number that changes whenever another connection commits to the index (`PRAGMA
 * data_version`). */
gint64
_lode_store_get_data_version (LodeStore *self)
{
  sqlite3_stmt *s;
  gint64 version = -1;

  s = _lode_store_stmt (self, sql_data_version);
  if (sqlite3_step (s) == SQLITE_ROW)
    version = sqlite3_column_int64 (s, 0);
  sqlite3_reset (s);

  return version;
}

/* The ids @s yields. */
GArray *
_lode_store_read_ids (LodeStore     *self,
                      sqlite3_stmt  *s,
                      GError       **error)
{
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  int rc;

  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      gint64 id = sqlite3_column_int64 (s, 0);

      g_array_append_val (ids, id);
    }
  sqlite3_reset (s);

  if (rc != SQLITE_DONE)
    {
      _lode_store_set_error (self, rc, error, "Cannot read chunk ids");
      return NULL;
    }

  return g_steal_pointer (&ids);
}

/* The ids, ascending, of the chunks of files in @language whose path matches @path_glob;
 * with both %NULL, of all chunks that can have a vector. */
GArray *
_lode_store_dup_chunk_ids (LodeStore   *self,
                           const char  *language,
                           const char  *path_glob,
                           GError     **error)
{
  sqlite3_stmt *s;

  if (language == NULL && path_glob == NULL)
    return _lode_store_read_ids (self, _lode_store_stmt (self, sql_chunk_ids), error);

  s = _lode_store_stmt (self, sql_filter_ids);
  bind_text (s, 1, language);
  bind_text (s, 2, path_glob);
  return _lode_store_read_ids (self, s, error);
}

static gboolean
load_vector_rows (LodeStore              *self,
                  const char             *model,
                  guint                   dims,
                  const LodeVectorCursor *from,
                  const LodeVectorCursor *to,
                  LodeVectorFunc     func,
                  gpointer                user_data,
                  GError                **error)
{
  sqlite3_stmt *s = _lode_store_stmt (self, sql_load);
  int rc;

  bind_text (s, 1, model);
  sqlite3_bind_int64 (s, 2, from->last_chunk);
  sqlite3_bind_int64 (s, 3, from->last_seq);
  sqlite3_bind_int64 (s, 4, to->last_chunk);
  sqlite3_bind_int64 (s, 5, to->last_seq);
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      const void *blob = sqlite3_column_blob (s, 1);
      int size = sqlite3_column_bytes (s, 1);

      /* The dims are checked when vectors are stored; a row of another size is damage. */
      if (blob == NULL || size != (int) (dims * sizeof (float)))
        continue;
      func (sqlite3_column_int64 (s, 0), blob, user_data);
    }
  sqlite3_reset (s);

  if (rc != SQLITE_DONE)
    return _lode_store_set_error (self, rc, error, "Cannot read vectors");

  return TRUE;
}

/* Calls @func for every chunk that got a vector of @model since @cursor: new chunks that
 * have one, and older chunks whose text was embedded since. Reads one snapshot of the index
 * and moves @cursor to its end. Chunks never get another vector, and chunk ids are never
 * reused, so a caller that also drops the chunks that are gone (_lode_store_dup_chunk_ids())
 * stays exactly in sync. */
gboolean
_lode_store_load_vectors (LodeStore         *self,
                          const char        *model,
                          guint              dims,
                          LodeVectorCursor  *cursor,
                          LodeVectorFunc     func,
                          gpointer           user_data,
                          GError           **error)
{
  LodeVectorCursor to = { 0 };
  sqlite3_stmt *s;
  gboolean own;
  int rc;

  g_return_val_if_fail (!self->in_transaction, FALSE);

  /* Within a search's snapshot, that one is read. */
  if (!_lode_store_read_begin (self, &own, error))
    return FALSE;

  s = _lode_store_stmt (self, sql_cursor);
  rc = sqlite3_step (s);
  if (rc == SQLITE_ROW)
    {
      to.last_chunk = sqlite3_column_int64 (s, 0);
      to.last_seq = sqlite3_column_int64 (s, 1);
    }
  sqlite3_reset (s);

  if (rc != SQLITE_ROW)
    _lode_store_set_error (self, rc, error, "Cannot read vectors");
  if (rc != SQLITE_ROW ||
      !load_vector_rows (self, model, dims, cursor, &to, func, user_data, error))
    {
      _lode_store_read_end (self, own, NULL);
      return FALSE;
    }

  if (!_lode_store_read_end (self, own, error))
    return FALSE;

  *cursor = to;
  return TRUE;
}

static gboolean
store_foreach_vector (LodeIndexStore      *store,
                      const char          *model,
                      LodeVectorHashFunc   func,
                      gpointer             user_data,
                      GError             **error)
{
  LodeStore *self = (LodeStore *) store;
  sqlite3_stmt *s = NULL;
  int rc;

  g_return_val_if_fail (model != NULL && func != NULL, FALSE);

  rc = sqlite3_prepare_v2 (self->db,
                           "SELECT hash, dims, vector FROM vectors WHERE model = ?1 ORDER BY seq",
                           -1, &s, NULL);
  if (rc == SQLITE_OK)
    {
      bind_text (s, 1, model);
      while ((rc = sqlite3_step (s)) == SQLITE_ROW)
        {
          guint dims = sqlite3_column_int (s, 1);
          const float *vector = sqlite3_column_blob (s, 2);

          if ((gsize) sqlite3_column_bytes (s, 2) != dims * sizeof (float))
            continue;
          if (!func ((const char *) sqlite3_column_text (s, 0), vector, dims, user_data))
            {
              rc = SQLITE_DONE;
              break;
            }
        }
    }
  sqlite3_finalize (s);

  if (rc != SQLITE_DONE)
    {
      _lode_store_set_error (self, rc, error, "Cannot read vectors");
      return FALSE;
    }
  return TRUE;
}

void
_lode_store_vectors_init (LodeIndexStoreInterface *iface)
{
  iface->dup_unembedded = store_dup_unembedded;
  iface->put_vectors = store_put_vectors;
  iface->count_embedded = store_count_embedded;
  iface->prune_vectors = store_prune_vectors;
  iface->foreach_vector = store_foreach_vector;
}
