/* lode-project.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-project"

#include "config.h"

#include <errno.h>
#include <string.h>
#include <glib/gstdio.h>

#include "lode-error.h"
#include "lode-project.h"

/*
 * A project is one source tree and its index: `<data-dir>/projects/<id>/index.db`, where the
 * id is the first 12 hex digits of the SHA-256 of the tree's canonical path. A plain `root`
 * file next to the database names the tree, so that listing projects never has to open (and
 * possibly migrate) a database.
 */

struct _LodeProject
{
  GObject     parent_instance;

  char       *root;
  char       *id;
  char       *dir;
  char       *db_path;
  LodeConfig *config;

  /* Searches share one read connection; SQLite connections are not used concurrently. */
  GMutex      reader_lock;
  LodeStore  *reader;
};

G_DEFINE_FINAL_TYPE (LodeProject, lode_project, G_TYPE_OBJECT)

/* Marshals progress from the indexing thread to the caller's main context, coalesced: at most
 * one idle is pending, and it delivers the latest figures. */
typedef struct
{
  GMainContext          *context;
  LodeIndexProgressFunc  func;
  gpointer               data;
  GDestroyNotify         destroy;
  GMutex                 lock;
  LodeIndexProgress      latest;
  guint                  pending : 1;
  guint                  closed : 1;
} ProgressRelay;

static void
progress_relay_clear (ProgressRelay *relay)
{
  if (relay->destroy != NULL)
    relay->destroy (relay->data);
  g_main_context_unref (relay->context);
  g_mutex_clear (&relay->lock);
}

static void
progress_relay_unref (ProgressRelay *relay)
{
  g_atomic_rc_box_release_full (relay, (GDestroyNotify) progress_relay_clear);
}

static gboolean
progress_relay_deliver_cb (gpointer user_data)
{
  ProgressRelay *relay = user_data;
  LodeIndexProgress progress;
  gboolean closed;

  g_mutex_lock (&relay->lock);
  progress = relay->latest;
  relay->pending = FALSE;
  closed = relay->closed;
  g_mutex_unlock (&relay->lock);

  if (!closed)
    relay->func (&progress, relay->data);

  return G_SOURCE_REMOVE;
}

/* Runs on the indexing thread. */
static void
progress_relay_post (const LodeIndexProgress *progress,
                     gpointer                 user_data)
{
  ProgressRelay *relay = user_data;
  gboolean schedule;

  g_mutex_lock (&relay->lock);
  relay->latest = *progress;
  schedule = !relay->pending;
  relay->pending = TRUE;
  g_mutex_unlock (&relay->lock);

  if (schedule)
    g_main_context_invoke_full (relay->context, G_PRIORITY_DEFAULT,
                                progress_relay_deliver_cb,
                                g_atomic_rc_box_acquire (relay),
                                (GDestroyNotify) progress_relay_unref);
}

static void
lode_project_finalize (GObject *object)
{
  LodeProject *self = (LodeProject *)object;

  g_clear_object (&self->reader);
  g_mutex_clear (&self->reader_lock);
  g_clear_pointer (&self->config, lode_config_free);
  g_free (self->root);
  g_free (self->id);
  g_free (self->dir);
  g_free (self->db_path);

  G_OBJECT_CLASS (lode_project_parent_class)->finalize (object);
}

static void
lode_project_class_init (LodeProjectClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = lode_project_finalize;
}

static void
lode_project_init (LodeProject *self)
{
  g_mutex_init (&self->reader_lock);
}

/**
 * lode_project_id_for_path:
 * @canonical_path: an absolute path with symbolic links resolved
 *
 * Returns: (transfer full): the first 12 hex digits of the SHA-256 of @canonical_path
 */
char *
lode_project_id_for_path (const char *canonical_path)
{
  g_autofree char *sha = NULL;

  g_return_val_if_fail (canonical_path != NULL, NULL);

  sha = g_compute_checksum_for_string (G_CHECKSUM_SHA256, canonical_path, -1);
  return g_strndup (sha, 12);
}

/**
 * lode_project_new:
 * @root: the canonical absolute path of the tree
 * @config: settings; copied
 *
 * Returns: (transfer full): a project; nothing is created on disk until it is indexed
 */
LodeProject *
lode_project_new (const char       *root,
                  const LodeConfig *config)
{
  LodeProject *self;

  g_return_val_if_fail (root != NULL && g_path_is_absolute (root), NULL);
  g_return_val_if_fail (config != NULL, NULL);

  self = g_object_new (LODE_TYPE_PROJECT, NULL);
  self->root = g_strdup (root);
  self->id = lode_project_id_for_path (root);
  self->config = lode_config_copy (config);
  self->dir = g_build_filename (config->data_dir, "projects", self->id, NULL);
  self->db_path = g_build_filename (self->dir, "index.db", NULL);

  return self;
}

const char *
lode_project_get_id (LodeProject *self)
{
  g_return_val_if_fail (LODE_IS_PROJECT (self), NULL);
  return self->id;
}

const char *
lode_project_get_root (LodeProject *self)
{
  g_return_val_if_fail (LODE_IS_PROJECT (self), NULL);
  return self->root;
}

const char *
lode_project_get_db_path (LodeProject *self)
{
  g_return_val_if_fail (LODE_IS_PROJECT (self), NULL);
  return self->db_path;
}

gboolean
lode_project_is_indexed (LodeProject *self)
{
  g_return_val_if_fail (LODE_IS_PROJECT (self), FALSE);
  return g_file_test (self->db_path, G_FILE_TEST_IS_REGULAR);
}

static gboolean
prepare_dir (LodeProject  *self,
             GError      **error)
{
  g_autofree char *root_file = g_build_filename (self->dir, "root", NULL);

  if (g_mkdir_with_parents (self->dir, 0700) != 0)
    {
      int errsv = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                   "Cannot create index directory %s: %s", self->dir, g_strerror (errsv));
      return FALSE;
    }

  return g_file_set_contents (root_file, self->root, -1, error);
}

/**
 * lode_project_index:
 * @self: a #LodeProject
 * @cancellable: (nullable): a #GCancellable
 * @progress: (nullable) (scope call): called on this thread as work advances
 * @progress_data: data for @progress
 * @error: return location for a #GError
 *
 * Indexes the tree synchronously (new, changed and deleted files only). For the CLI's
 * helpers and tests; everything else uses lode_project_index_async().
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
  LodeIndexReport *report;

  g_return_val_if_fail (LODE_IS_PROJECT (self), NULL);
  g_return_val_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable), NULL);

  if (!prepare_dir (self, error))
    return NULL;

  report = lode_indexer_run (self->root, self->db_path, self->config, cancellable,
                             progress, progress_data, error);
  if (report == NULL)
    g_prefix_error (error, "Cannot index %s: ", self->root);

  return report;
}

static void
lode_project_index_worker (GTask        *task,
                           gpointer      source_object,
                           gpointer      task_data,
                           GCancellable *cancellable)
{
  LodeProject *self = source_object;
  ProgressRelay *relay = task_data;
  LodeIndexReport *report;
  GError *error = NULL;

  report = lode_project_index (self, cancellable,
                               relay != NULL ? progress_relay_post : NULL, relay, &error);
  if (report == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, report, (GDestroyNotify) lode_index_report_free);
}

/**
 * lode_project_index_async:
 * @self: a #LodeProject
 * @cancellable: (nullable): a #GCancellable
 * @progress: (nullable): called on the thread-default main context of the caller,
 *   coalesced, while the index is built
 * @progress_data: data for @progress
 * @progress_data_destroy: (nullable): frees @progress_data once no more progress can come
 * @callback: called when indexing ends
 * @user_data: data for @callback
 *
 * Indexes the tree on a worker thread; the main loop never blocks.
 */
void
lode_project_index_async (LodeProject           *self,
                          GCancellable          *cancellable,
                          LodeIndexProgressFunc  progress,
                          gpointer               progress_data,
                          GDestroyNotify         progress_data_destroy,
                          GAsyncReadyCallback    callback,
                          gpointer               user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (LODE_IS_PROJECT (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, lode_project_index_async);

  if (progress != NULL)
    {
      ProgressRelay *relay = g_atomic_rc_box_new0 (ProgressRelay);

      relay->context = g_main_context_ref_thread_default ();
      relay->func = progress;
      relay->data = progress_data;
      relay->destroy = progress_data_destroy;
      g_mutex_init (&relay->lock);
      g_task_set_task_data (task, relay, (GDestroyNotify) progress_relay_unref);
    }
  else if (progress_data_destroy != NULL)
    progress_data_destroy (progress_data);

  g_task_run_in_thread (task, lode_project_index_worker);
}

/**
 * lode_project_index_finish:
 * @self: a #LodeProject
 * @result: the #GAsyncResult
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the report, or %NULL on error
 */
LodeIndexReport *
lode_project_index_finish (LodeProject   *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  ProgressRelay *relay;

  g_return_val_if_fail (LODE_IS_PROJECT (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  /* No progress after the result: a late idle is dropped. */
  relay = g_task_get_task_data (G_TASK (result));
  if (relay != NULL)
    {
      g_mutex_lock (&relay->lock);
      relay->closed = TRUE;
      g_mutex_unlock (&relay->lock);
    }

  return g_task_propagate_pointer (G_TASK (result), error);
}

static LodeStore *
dup_reader (LodeProject  *self,
            GError      **error)
{
  LodeStore *store;

  if (!lode_project_is_indexed (self))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_INDEXED,
                   "%s is not indexed yet; run “lode index %s” first", self->root, self->root);
      return NULL;
    }

  if (self->reader == NULL)
    self->reader = lode_store_open (self->db_path, error);

  store = self->reader != NULL ? g_object_ref (self->reader) : NULL;
  return store;
}

static gboolean
is_blank (const char *text)
{
  for (; *text != '\0'; text++)
    if (!g_ascii_isspace (*text))
      return FALSE;

  return TRUE;
}

/**
 * lode_project_search:
 * @self: a #LodeProject
 * @options: the query and its filters
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Searches the index; safe to call while the project is being indexed (WAL readers see the
 * last committed batch).
 *
 * Returns: (transfer full) (element-type LodeSearchResult): results, best first
 */
GPtrArray *
lode_project_search (LodeProject              *self,
                     const LodeSearchOptions  *options,
                     GCancellable             *cancellable,
                     GError                  **error)
{
  g_autoptr(LodeStore) store = NULL;
  GPtrArray *results;

  g_return_val_if_fail (LODE_IS_PROJECT (self), NULL);
  g_return_val_if_fail (options != NULL, NULL);
  g_return_val_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable), NULL);

  if (options->query == NULL || is_blank (options->query))
    {
      g_set_error_literal (error, LODE_ERROR, LODE_ERROR_INVALID_QUERY, "The query is empty");
      return NULL;
    }

  g_mutex_lock (&self->reader_lock);
  store = dup_reader (self, error);
  results = store != NULL ? lode_store_search (store, options, cancellable, error) : NULL;
  g_mutex_unlock (&self->reader_lock);

  return results;
}

void
lode_project_status_free (LodeProjectStatus *status)
{
  if (status == NULL)
    return;

  g_clear_pointer (&status->languages, g_hash_table_unref);
  g_free (status->indexed_at);
  g_free (status);
}

const char *
lode_index_state_to_string (LodeIndexState state)
{
  switch (state)
    {
    case LODE_INDEX_STATE_NONE:
      return "not indexed";
    case LODE_INDEX_STATE_INCOMPLETE:
      return "incomplete";
    case LODE_INDEX_STATE_READY:
      return "ready";
    default:
      g_return_val_if_reached ("unknown");
    }
}

static guint64
file_size (const char *path)
{
  GStatBuf st;

  return g_stat (path, &st) == 0 ? (guint64) st.st_size : 0;
}

/**
 * lode_project_dup_status:
 * @self: a #LodeProject
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the index state and its figures
 */
LodeProjectStatus *
lode_project_dup_status (LodeProject  *self,
                         GError      **error)
{
  g_autoptr(LodeStore) store = NULL;
  g_autofree char *state = NULL;
  g_autofree char *wal = NULL;
  LodeProjectStatus *status;

  g_return_val_if_fail (LODE_IS_PROJECT (self), NULL);

  status = g_new0 (LodeProjectStatus, 1);
  if (!lode_project_is_indexed (self))
    {
      status->languages = g_hash_table_new (g_str_hash, g_str_equal);
      return status;
    }

  g_mutex_lock (&self->reader_lock);
  store = dup_reader (self, error);
  if (store == NULL ||
      !lode_store_get_stats (store, &status->stats, error) ||
      (status->languages = lode_store_dup_language_counts (store, error)) == NULL)
    {
      g_mutex_unlock (&self->reader_lock);
      lode_project_status_free (status);
      return NULL;
    }
  state = lode_store_dup_meta (store, "state");
  status->indexed_at = lode_store_dup_meta (store, "indexed_at");
  g_mutex_unlock (&self->reader_lock);

  status->state = g_strcmp0 (state, "ready") == 0 ? LODE_INDEX_STATE_READY
                                                  : LODE_INDEX_STATE_INCOMPLETE;
  wal = g_strconcat (self->db_path, "-wal", NULL);
  status->db_size = file_size (self->db_path) + file_size (wal);

  return status;
}

/* Import graph (issue #6) */

/**
 * lode_project_load_graph:
 * @self: a #LodeProject
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the import graph of the index, frozen
 */
LodeGraph *
lode_project_load_graph (LodeProject  *self,
                         GError      **error)
{
  g_autoptr(LodeStore) store = NULL;
  LodeGraph *graph;

  g_return_val_if_fail (LODE_IS_PROJECT (self), NULL);

  g_mutex_lock (&self->reader_lock);
  store = dup_reader (self, error);
  graph = store != NULL ? lode_store_load_graph (store, error) : NULL;
  g_mutex_unlock (&self->reader_lock);

  return graph;
}

/**
 * lode_project_dup_imports:
 * @self: a #LodeProject
 * @path: a file, relative to the root
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (element-type LodeStoredImport): the imports of @path, by line
 */
GPtrArray *
lode_project_dup_imports (LodeProject  *self,
                          const char   *path,
                          GError      **error)
{
  g_autoptr(LodeStore) store = NULL;
  GPtrArray *imports;

  g_return_val_if_fail (LODE_IS_PROJECT (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  g_mutex_lock (&self->reader_lock);
  store = dup_reader (self, error);
  imports = store != NULL ? lode_store_dup_imports (store, path, error) : NULL;
  g_mutex_unlock (&self->reader_lock);

  return imports;
}

/**
 * lode_project_get_graph_counts:
 * @self: a #LodeProject
 * @counts: (out caller-allocates): imports and how they resolve
 * @enabled: (out) (optional): whether indexing maintains the graph
 * @error: return location for a #GError
 *
 * Returns: %TRUE on success
 */
gboolean
lode_project_get_graph_counts (LodeProject      *self,
                               LodeGraphCounts  *counts,
                               gboolean         *enabled,
                               GError          **error)
{
  g_autoptr(LodeStore) store = NULL;
  g_autofree char *state = NULL;
  gboolean ok;

  g_return_val_if_fail (LODE_IS_PROJECT (self), FALSE);
  g_return_val_if_fail (counts != NULL, FALSE);

  g_mutex_lock (&self->reader_lock);
  store = dup_reader (self, error);
  ok = store != NULL && lode_store_get_graph_counts (store, counts, error);
  if (ok)
    state = lode_store_dup_meta (store, LODE_GRAPH_META_KEY);
  g_mutex_unlock (&self->reader_lock);

  if (ok && enabled != NULL)
    *enabled = g_strcmp0 (state, "off") != 0;

  return ok;
}

/**
 * lode_project_set_graph_enabled:
 * @self: a #LodeProject
 * @enabled: whether indexing maintains the import graph
 * @error: return location for a #GError
 *
 * Turning the graph off deletes it; indexing then skips import extraction. Turning it back
 * on makes the next indexing run parse every file again, since the imports of unchanged files
 * are gone. Not to be called while the project is being indexed.
 *
 * Returns: %TRUE on success
 */
gboolean
lode_project_set_graph_enabled (LodeProject  *self,
                                gboolean      enabled,
                                GError      **error)
{
  g_autoptr(LodeStore) store = NULL;
  g_autofree char *state = NULL;
  gboolean was_enabled;

  g_return_val_if_fail (LODE_IS_PROJECT (self), FALSE);

  if (!lode_project_is_indexed (self))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_INDEXED,
                   "%s is not indexed yet; run “lode index %s” first", self->root, self->root);
      return FALSE;
    }

  /* A connection of its own: the shared one is for reading. */
  store = lode_store_open (self->db_path, error);
  if (store == NULL)
    return FALSE;

  state = lode_store_dup_meta (store, LODE_GRAPH_META_KEY);
  was_enabled = g_strcmp0 (state, "off") != 0;
  if (was_enabled == enabled)
    return TRUE;

  return lode_store_clear_graph (store, enabled, error) &&
         lode_store_set_meta (store, LODE_GRAPH_META_KEY, enabled ? "on" : "off", error);
}

/**
 * lode_project_dup_relative_path:
 * @self: a #LodeProject
 * @path: a path as a user gives it: relative to the root (`src/a.c`, `./src/a.c`) or
 *   absolute inside it
 *
 * Returns: (transfer full) (nullable): @path relative to the root, `/`-separated, or %NULL
 *   when it leads outside the root
 */
char *
lode_project_dup_relative_path (LodeProject *self,
                                const char  *path)
{
  g_autofree char *absolute = NULL;
  g_autofree char *canonical = NULL;
  gsize root_len;

  g_return_val_if_fail (LODE_IS_PROJECT (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  absolute = g_path_is_absolute (path) ? g_strdup (path)
                                       : g_build_filename (self->root, path, NULL);
  canonical = g_canonicalize_filename (absolute, NULL);
  root_len = strlen (self->root);

  if (strncmp (canonical, self->root, root_len) != 0 || canonical[root_len] != '/')
    return NULL;

  return g_strdup (canonical + root_len + 1);
}
