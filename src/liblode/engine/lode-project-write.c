/* lode-project-write.c — what writes a project's index
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-project"

#include "config.h"

#include <errno.h>

#include <glib/gstdio.h>

#include "lode-embed-pass.h"
#include "lode-error.h"
#include "lode-project-private.h"

/* The project's index, open for writing: made when missing, reset when of another version. */
static LodeIndexStore *
open_writer (LodeProject   *self,
             const char    *db_path,
             GCancellable  *cancellable,
             GError       **error)
{
  return lode_index_store_open (self->config, self->store_kind, db_path,
                                _lode_project_embedder_dims (self, cancellable), TRUE, cancellable,
                                error);
}

/* open_writer() for a run over the whole tree, which first checks every page of a SQLite
 * index (lode_index_store_check()): a run that finds nothing changed reads none of the index, so
 * damage that no query has come across yet (garbled pages of the full-text index, a truncated
 * file) would stay, and the run end well. A damaged index is kept aside and this run builds
 * it anew. The check takes 0.13 s of CPU for the 110 MB index of git's tree, where the run
 * that finds nothing changed takes 0.4 s; runs of a watcher's changes are not checked. */
static LodeIndexStore *
open_checked_writer (LodeProject   *self,
                     const char    *db_path,
                     GCancellable  *cancellable,
                     GError       **error)
{
  g_autoptr(LodeIndexStore) store = open_writer (self, db_path, cancellable, error);
  g_autoptr(GError) local_error = NULL;

  if (store == NULL || lode_index_store_get_was_reset (store) ||
      lode_index_store_check (store, &local_error))
    return g_steal_pointer (&store);

  if (!g_error_matches (local_error, LODE_ERROR, LODE_ERROR_DAMAGED))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  /* Marked damaged: opened again, it is kept aside and made anew. */
  g_clear_object (&store);
  return open_writer (self, db_path, cancellable, error);
}

static gboolean
prepare_dir (LodeProject  *self,
             GError      **error)
{
  g_autofree char *root_file = g_build_filename (self->dir, "root", NULL);
  g_autofree char *written = NULL;

  if (g_mkdir_with_parents (self->dir, 0700) != 0)
    {
      int errsv = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                   "Cannot create index directory %s: %s", self->dir, g_strerror (errsv));
      return FALSE;
    }

  /* Written once: a watcher's every batch rewriting it would fail first on a full disk,
   * with a message less clear than the store's. */
  if (g_file_get_contents (root_file, &written, NULL, NULL) && g_str_equal (written, self->root))
    return TRUE;
  return g_file_set_contents (root_file, self->root, -1, error);
}

/* The embedding pass after the lexical one. Only a cancellation fails the run: without a
 * provider, or when it fails, the lexical index is complete and the report says why there
 * are no (or not all) vectors. */
static gboolean
embed_after_index (LodeProject            *self,
                   LodeIndexStore         *store,
                   LodeIndexReport        *report,
                   GCancellable           *cancellable,
                   LodeIndexProgressFunc   progress,
                   gpointer                progress_data,
                   GError                **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(LodeEmbedder) embedder = NULL;
  g_autofree char *unavailable = NULL;

  embedder = _lode_project_dup_embedder (self, &unavailable);
  if (embedder == NULL)
    {
      report->embedding_notice = g_strdup_printf ("semantic search unavailable: %s",
                                                  unavailable);
      return TRUE;
    }

  report->embedding_model = g_strdup (lode_embedder_get_model (embedder));
  if (lode_embed_pass_run (store, embedder, cancellable, progress,
                           progress_data, &report->n_embedded, &local_error))
    return TRUE;

  if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  g_warning ("Embedding %s stopped: %s", self->root, local_error->message);
  report->embedding_notice = g_strdup_printf ("embedding stopped: %s; lexical search is "
                                              "complete, the next index run resumes embedding",
                                              local_error->message);
  return TRUE;
}

/* Puts the index a forced run or a migration built aside in place of @db_path
 * (lode_index_store_install()) and makes searches start afresh from it: a new connection,
 * and a searcher with no vectors of the old index in memory. Takes @store. */
static gboolean
install_aside (LodeProject     *self,
               LodeStoreKind    kind,
               LodeIndexStore  *store,
               const char      *db_path,
               GError         **error)
{
  g_autofree char *generation = g_uuid_string_random ();

  /* Readers in other processes learn of the new index from its generation. */
  if (!lode_index_store_set_meta (store, GENERATION_META_KEY, generation, error))
    {
      lode_index_store_discard (kind, store, db_path);
      return FALSE;
    }

  /* Searches go on from the old index until the new one is whole. */
  if (!lode_index_store_install (self->config, kind, store, db_path, error))
    return FALSE;

  g_mutex_lock (&self->reader_lock);
  g_clear_object (&self->reader);
  g_mutex_unlock (&self->reader_lock);
  return TRUE;
}

/**
 * lode_project_index:
 * @self: a #LodeProject
 * @cancellable: (nullable): a #GCancellable
 * @progress: (nullable) (scope call): called on this thread as work advances
 * @progress_data: data for @progress
 * @error: return location for a #GError
 *
 * lode_project_index_with() with no flags and no change list: brings the index up to date
 * with the whole tree.
 *
 * Returns: (transfer full) (nullable): the report, or %NULL on error
 */
LodeIndexReport *
lode_project_index (LodeProject            *self,
                    GCancellable           *cancellable,
                    LodeIndexProgressFunc   progress,
                    gpointer                progress_data,
                    GError                **error)
{
  return lode_project_index_with (self, LODE_INDEX_FLAGS_NONE, NULL, cancellable, progress,
                                  progress_data, error);
}

/* lode_project_index_with() once the writer lock is held. */
static LodeIndexReport *
index_locked (LodeProject            *self,
              LodeIndexFlags          flags,
              GPtrArray              *changes,
              const char             *db_path,
              LodeGitHead            *head,
              char                  **seeded_from,
              GCancellable           *cancellable,
              LodeIndexProgressFunc   progress,
              gpointer                progress_data,
              GError                **error)
{
  g_autoptr(LodeIndexStore) store = NULL;
  gboolean force = (flags & LODE_INDEX_FORCE) != 0;
  LodeIndexReport *report;

  /* What a forced run killed before it finished left aside. */
  if (!lode_index_store_remove_leftovers (self->store_kind, db_path, error))
    return NULL;

  if (head != NULL)
    {
      g_autofree char *last = _lode_project_dup_last_branch (self);

      /* A change list tells what changed since the last run, which was on another branch:
       * after a switch the whole tree is compared (by content hash) with this branch's
       * index. */
      if (g_strcmp0 (last, head->name) != 0)
        changes = NULL;
      if (!force && !_lode_project_seed_branch (self, head->name, db_path, cancellable,
                                                seeded_from, error))
        return NULL;
    }

  /* A forced run builds the new index aside: searches answer from the old one meanwhile,
   * and a cancelled, failed or killed run leaves it. */
  if (force)
    store = lode_index_store_open_aside (self->config, self->store_kind, db_path,
                                         _lode_project_embedder_dims (self, cancellable),
                                         cancellable, error);
  else if (changes == NULL)
    store = open_checked_writer (self, db_path, cancellable, error);
  else
    store = open_writer (self, db_path, cancellable, error);
  if (store == NULL)
    return NULL;

  report = lode_indexer_run (self->root, store, self->config, force ? NULL : changes,
                             cancellable, progress, progress_data, error);
  if (report != NULL && force)
    {
      report->reset = TRUE;
      g_free (report->reset_reason);
      report->reset_reason = g_strdup ("the index was rebuilt from scratch, as asked");
    }
  if (report != NULL &&
      !embed_after_index (self, store, report, cancellable, progress, progress_data, error))
    g_clear_pointer (&report, lode_index_report_free);

  if (force)
    {
      if (report == NULL)
        lode_index_store_discard (self->store_kind, g_steal_pointer (&store), db_path);
      else if (!install_aside (self, self->store_kind, g_steal_pointer (&store), db_path, error))
        g_clear_pointer (&report, lode_index_report_free);
    }

  return report;
}

/**
 * lode_project_index_with:
 * @self: a #LodeProject
 * @flags: %LODE_INDEX_FORCE to build the index from scratch: it is built aside (SQLite
 *   `index.db.new`, a new generation of the Qdrant collection) and replaces the old one when
 *   it is complete; searches answer from the old one meanwhile, a cancelled, failed or killed
 *   run leaves it
 * @changes: (nullable) (element-type LodeChange): what changed since the last run (a
 *   watcher's batch); %NULL to scan the whole tree
 * @cancellable: (nullable): a #GCancellable
 * @progress: (nullable) (scope call): called on this thread as work advances
 * @progress_data: data for @progress
 * @error: return location for a #GError
 *
 * Indexes the tree synchronously (new, changed and deleted files only, see
 * lode_indexer_run()), then embeds the chunks that have no vector yet when an embedder is
 * set (progress phase %LODE_INDEX_PHASE_EMBEDDING). Only one writer works on an index at a
 * time, in this process or another: a run waits for the one before it (progress phase
 * %LODE_INDEX_PHASE_WAITING). Blocks; #LodeEngine runs it on a job's thread.
 *
 * Returns: (transfer full) (nullable): the report, or %NULL on error
 */
LodeIndexReport *
lode_project_index_with (LodeProject            *self,
                         LodeIndexFlags          flags,
                         GPtrArray              *changes,
                         GCancellable           *cancellable,
                         LodeIndexProgressFunc   progress,
                         gpointer                progress_data,
                         GError                **error)
{
  g_auto(LodeProjectLock) lock = -1;
  g_autoptr(LodeProjectStopWatch) watch = NULL;
  g_autoptr(LodeGitHead) head = NULL;
  g_autofree char *seeded_from = NULL;
  const char *db_path;
  LodeIndexReport *report;

  g_return_val_if_fail (LODE_IS_PROJECT (self), NULL);
  g_return_val_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable), NULL);

  /* A watcher's changes are only ever applied to an index: one removed meanwhile (lode
   * remove in another process) is not made again with them alone. */
  if (changes != NULL && !g_file_test (self->dir, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_INDEXED,
                   "Cannot index changes of %s: its index was removed; index it again to "
                   "start over", self->root);
      return NULL;
    }

  head = _lode_project_read_head (self);
  db_path = _lode_project_branch_db_path (self, head != NULL ? head->name : NULL);
  if (!prepare_dir (self, error) ||
      (lock = _lode_project_lock_writer (self, db_path, cancellable, progress, progress_data,
                                         error)) < 0)
    {
      g_prefix_error (error, "Cannot index %s: ", self->root);
      return NULL;
    }

  /* From here on the run also ends when another process asks it to (lode stop, lode
   * remove): its progress looks for the request. */
  watch = _lode_project_stop_watch_new (self, cancellable, progress, progress_data);
  report = index_locked (self, flags, changes, db_path, head, &seeded_from,
                         _lode_project_stop_watch_get_cancellable (watch),
                         _lode_project_stop_watch_progress, watch, error);
  if (report == NULL)
    {
      _lode_project_stop_watch_explain (watch, error);
      g_prefix_error (error, "Cannot index %s: ", self->root);
      return NULL;
    }

  if (head != NULL)
    {
      g_autofree char *branch_file = g_build_filename (self->dir, "branch", NULL);
      g_autoptr(GError) local_error = NULL;

      report->branch = g_strdup (head->name);
      report->branch_seeded_from = g_steal_pointer (&seeded_from);
      if (!g_file_set_contents (branch_file, head->name, -1, &local_error))
        g_warning ("Cannot note the branch of %s: %s", self->root, local_error->message);
    }

  return report;
}

/**
 * lode_project_write:
 * @self: a #LodeProject
 * @func: what to run
 * @data: data for @func
 * @cancellable: (nullable): a #GCancellable, for the wait for the lock
 * @error: return location for a #GError
 *
 * Runs @func with the index reads use (lode_project_read()), open for writing under its
 * writer lock, as an index run holds it: it waits for a run in this process or another. An
 * index is never made: a project not indexed (a branch before its first run: the index it
 * reads from) fails with %LODE_ERROR_NOT_INDEXED. For writers of the index outside this
 * file, such as the context artifacts. Blocks; call it from a worker thread.
 *
 * Returns: what @func returned; %FALSE with @error set when the index cannot be opened
 */
gboolean
lode_project_write (LodeProject           *self,
                    LodeProjectWriteFunc   func,
                    gpointer               data,
                    GCancellable          *cancellable,
                    GError               **error)
{
  g_autoptr(LodeIndexStore) store = NULL;
  g_auto(LodeProjectLock) lock = -1;
  const char *db_path;

  g_return_val_if_fail (LODE_IS_PROJECT (self), FALSE);
  g_return_val_if_fail (func != NULL, FALSE);

  db_path = _lode_project_reading_db_path (self, NULL, NULL);
  if (!lode_index_store_exists (self->store_kind, db_path))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_INDEXED,
                   "%s is not indexed yet; run “lode index %s” first", self->root, self->root);
      return FALSE;
    }

  lock = _lode_project_lock_writer (self, db_path, cancellable, NULL, NULL, error);
  if (lock < 0)
    return FALSE;
  store = open_writer (self, db_path, cancellable, error);
  if (store == NULL)
    {
      _lode_project_explain_damage (self, error);
      return FALSE;
    }
  return func (self, store, data, error);
}

/**
 * lode_project_set_graph_enabled:
 * @self: a #LodeProject
 * @enabled: whether indexing maintains the import graph
 * @error: return location for a #GError
 *
 * Turning the graph off deletes it; indexing then skips import extraction. Turning it back
 * on makes the next indexing run parse every file again, since the imports of unchanged files
 * are gone. Waits for an indexing run of another process to end; the engine's own jobs end
 * before its tools call this.
 *
 * Returns: %TRUE on success
 */
gboolean
lode_project_set_graph_enabled (LodeProject  *self,
                                gboolean      enabled,
                                GError      **error)
{
  g_autoptr(LodeIndexStore) store = NULL;
  g_autofree char *state = NULL;
  g_auto(LodeProjectLock) lock = -1;
  gboolean was_enabled;
  const char *db_path;

  g_return_val_if_fail (LODE_IS_PROJECT (self), FALSE);

  db_path = lode_project_get_db_path (self);
  if (!lode_index_store_exists (self->store_kind, db_path))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_INDEXED,
                   "%s is not indexed yet; run “lode index %s” first", self->root, self->root);
      return FALSE;
    }

  /* A writer like an indexing run, and one at a time like it; a connection of its own, since
   * the shared one is for reading. */
  lock = _lode_project_lock_writer (self, db_path, NULL, NULL, NULL, error);
  if (lock < 0)
    return FALSE;
  store = open_writer (self, db_path, NULL, error);
  if (store == NULL)
    return FALSE;

  state = lode_index_store_dup_meta (store, LODE_GRAPH_META_KEY);
  was_enabled = g_strcmp0 (state, "off") != 0;
  if (was_enabled == enabled)
    return TRUE;

  return lode_index_store_clear_graph (store, enabled, error) &&
         lode_index_store_set_meta (store, LODE_GRAPH_META_KEY, enabled ? "on" : "off", error);
}

/* Migration ------------------------------------------------------------------------------ */

static gboolean
first_dims_cb (const char  *hash,
               const float *vector,
               guint        dims,
               gpointer     user_data)
{
  *(guint *) user_data = dims;
  return FALSE;
}

/**
 * lode_project_migrate:
 * @self: a #LodeProject
 * @to: the store to copy the index into
 * @cancellable: (nullable): a #GCancellable
 * @counts: (out caller-allocates): what was copied
 * @model: (out) (optional) (transfer full) (nullable): the model whose vectors were copied
 * @error: return location for a #GError
 *
 * Copies the project's index from the other store into @to (`lode migrate`), replacing
 * what @to held of it, without chunking or embedding anything again; the vectors copied are
 * those of the project's embedding model. The copy is built aside
 * (lode_index_store_open_aside()): what @to held stays searchable until the copy replaces
 * it whole, and a failed copy leaves it. The source is left as it is. Waits for and holds
 * the writer lock, like an index run. Blocks; call it from a worker thread.
 *
 * Returns: %TRUE on success
 */
gboolean
lode_project_migrate (LodeProject          *self,
                      LodeStoreKind         to,
                      GCancellable         *cancellable,
                      LodeStoreCopyCounts  *counts,
                      char                **model,
                      GError              **error)
{
  LodeStoreKind from = to == LODE_STORE_KIND_SQLITE ? LODE_STORE_KIND_QDRANT
                                                    : LODE_STORE_KIND_SQLITE;
  g_auto(LodeProjectLock) lock = -1;
  g_autoptr(LodeIndexStore) source = NULL;
  g_autoptr(LodeIndexStore) target = NULL;
  g_autoptr(LodeEmbedder) embedder = NULL;
  g_autofree char *embedding_model = NULL;
  const char *db_path;
  guint dims = 0;

  g_return_val_if_fail (LODE_IS_PROJECT (self), FALSE);

  db_path = lode_project_get_db_path (self);
  if (!lode_index_store_exists (from, db_path))
    {
      /* Only with no index at all is the remedy to index it. */
      if (lode_index_store_exists (to, self->db_path))
        g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_FOUND,
                     "%s has no %s index to copy: its index is already in %s", self->root,
                     lode_store_kind_to_string (from), lode_store_kind_to_string (to));
      else
        g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_INDEXED,
                     "%s has no %s index to copy", self->root,
                     lode_store_kind_to_string (from));
      return FALSE;
    }
  if (!prepare_dir (self, error) ||
      (lock = _lode_project_lock_writer (self, db_path, cancellable, NULL, NULL, error)) < 0)
    return FALSE;

  embedder = _lode_project_dup_embedder (self, NULL);
  if (embedder != NULL)
    embedding_model = g_strdup (lode_embedder_get_model (embedder));

  source = lode_index_store_open (self->config, from, db_path, 0, FALSE, cancellable,
                                  error);
  if (source == NULL ||
      (embedding_model != NULL &&
       !lode_index_store_foreach_vector (source, embedding_model, first_dims_cb, &dims, error)))
    return FALSE;

  target = lode_index_store_open_aside (self->config, to, db_path, dims, cancellable, error);
  if (target != NULL &&
      !lode_index_store_copy (source, target, dims > 0 ? embedding_model : NULL, cancellable,
                              counts, error))
    lode_index_store_discard (to, g_steal_pointer (&target), db_path);
  if (target == NULL || !install_aside (self, to, g_steal_pointer (&target), db_path, error))
    {
      g_prefix_error (error, "Cannot copy the index of %s into %s: ", self->root,
                      lode_store_kind_to_string (to));
      return FALSE;
    }

  if (model != NULL)
    *model = dims > 0 ? g_steal_pointer (&embedding_model) : NULL;
  return TRUE;
}

/**
 * lode_project_stop_writer:
 * @self: a #LodeProject
 * @cancellable: (nullable): a #GCancellable, for the wait
 * @pid: (out) (optional): the process that was writing, else 0
 * @error: return location for a #GError
 *
 * Stops an index run of another process (or of another engine of this one): `lode stop`
 * without the daemon, for a `lode index` or `lode watch` elsewhere. The run ends at its next
 * check, within about a second, keeping what it indexed; this waits for it. Blocks.
 *
 * Returns: %TRUE when nothing was writing or the writer stopped (@pid says which)
 */
gboolean
lode_project_stop_writer (LodeProject   *self,
                          GCancellable  *cancellable,
                          int           *pid,
                          GError       **error)
{
  g_return_val_if_fail (LODE_IS_PROJECT (self), FALSE);
  g_return_val_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable), FALSE);

  return _lode_project_stop_writers (self->dir, "stop", cancellable, pid, error);
}
