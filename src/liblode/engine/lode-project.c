/* lode-project.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-project"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "lode-embed-pass.h"
#include "lode-error.h"
#include "lode-git.h"
#include "lode-project.h"
#include "lode-searcher.h"

/*
 * A project is one source tree and its index: `<data-dir>/projects/<id>/index.db`, where the
 * id is the first 12 hex digits of the SHA-256 of the tree's canonical path. A plain `root`
 * file next to the database names the tree, so that listing projects never has to open (and
 * possibly migrate) a database.
 *
 * With branch-aware indexes (issue #14) a project in a git work tree has one index per
 * branch, `branch-NAME.db` beside `index.db` (NAME escaped by lode_git_escape_branch(), a
 * detached HEAD named by its commit), each with its own writer lock `branch-NAME.lock`. HEAD
 * is read at every run and search, so a switch is seen at once. The `branch` file names the
 * branch of the last index run: the branch a new one came from. A new branch's index starts
 * as a copy of that one's, and until its first run, reads answer from that one.
 */

struct _LodeProject
{
  GObject     parent_instance;

  char       *root;
  char       *id;
  char       *dir;
  const char *db_path;           /* (interned) index.db: the index when not branch-aware */
  LodeConfig *config;

  /* Searches share one read connection and one searcher (which keeps the dense leg's
   * vectors in memory); neither is used concurrently. The connection is opened again when
   * the database file was replaced (a rebuild, here or elsewhere). */
  GMutex        reader_lock;
  LodeIndexStore *reader;
  const char   *reader_path;       /* (interned) the index @reader reads */
  ino_t         reader_inode;
  LodeSearcher *searcher;
  char         *generation;    /* the index's, when the searcher last saw it */
  char         *checked;       /* the files of the index status last found whole */

  LodeEmbedder *embedder;          /* (nullable) */
  char         *embedder_notice;   /* why there is no embedder */
};

/* A meta key set on every index a forced run builds: a new value means a new index. */
#define GENERATION_META_KEY "generation"

G_DEFINE_FINAL_TYPE (LodeProject, lode_project, G_TYPE_OBJECT)

static void
lode_project_finalize (GObject *object)
{
  LodeProject *self = (LodeProject *)object;

  g_clear_object (&self->reader);
  g_mutex_clear (&self->reader_lock);
  g_clear_object (&self->searcher);
  g_free (self->generation);
  g_free (self->checked);
  g_clear_object (&self->embedder);
  g_free (self->embedder_notice);
  g_clear_pointer (&self->config, lode_config_free);
  g_free (self->root);
  g_free (self->id);
  g_free (self->dir);

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
  self->embedder_notice = g_strdup ("no embedding provider");
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
  g_autofree char *index_path = NULL;
  LodeProject *self;

  g_return_val_if_fail (root != NULL && g_path_is_absolute (root), NULL);
  g_return_val_if_fail (config != NULL, NULL);

  self = g_object_new (LODE_TYPE_PROJECT, NULL);
  self->root = g_strdup (root);
  self->id = lode_project_id_for_path (root);
  self->config = lode_config_copy (config);
  self->dir = g_build_filename (config->data_dir, "projects", self->id, NULL);
  index_path = g_build_filename (self->dir, "index.db", NULL);
  self->db_path = g_intern_string (index_path);

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

/* Where the settings keep indexes (issue #14): the SQLite file, or a Qdrant collection. */
static LodeStoreKind
store_kind (LodeProject *self)
{
  LodeStoreKind kind = LODE_STORE_KIND_SQLITE;

  lode_store_kind_from_string (self->config->store, &kind);
  return kind;
}

/* Branch-aware indexes (issue #14) ------------------------------------------------------ */

/* The checked-out branch (or commit) when indexes are branch-aware and the tree is a git work
 * tree, else NULL: the one index.db. Read anew each time (a few bytes), so that a switch is
 * seen by the next run or search. */
static LodeGitHead *
read_head (LodeProject *self)
{
  g_autoptr(GError) error = NULL;
  LodeGitHead *head;

  if (!self->config->branch_aware)
    return NULL;

  head = lode_git_read_head (self->root, &error);
  if (error != NULL)
    g_warning ("Cannot tell the git branch of %s, using its one index: %s", self->root,
               error->message);
  return head;
}

/* Returns: (transfer none): the index file of @branch (interned: paths handed out stay valid
 * when the branch changes); index.db for NULL */
static const char *
branch_db_path (LodeProject *self,
                const char  *branch)
{
  g_autofree char *escaped = NULL;
  g_autofree char *name = NULL;
  g_autofree char *path = NULL;

  if (branch == NULL)
    return self->db_path;

  escaped = lode_git_escape_branch (branch);
  name = g_strconcat ("branch-", escaped, ".db", NULL);
  path = g_build_filename (self->dir, name, NULL);
  return g_intern_string (path);
}

/* The writer lock of the index @db_path: `lock` for index.db, `branch-NAME.lock` beside
 * `branch-NAME.db`. */
static char *
dup_lock_path (LodeProject *self,
               const char  *db_path)
{
  g_autofree char *base = NULL;

  if (db_path == self->db_path)
    return g_build_filename (self->dir, "lock", NULL);

  base = g_strndup (db_path, strlen (db_path) - strlen (".db"));
  return g_strconcat (base, ".lock", NULL);
}

/* Returns: (transfer full) (nullable): the branch of the last index run */
static char *
dup_last_branch (LodeProject *self)
{
  g_autofree char *path = g_build_filename (self->dir, "branch", NULL);
  char *branch = NULL;

  if (!g_file_get_contents (path, &branch, NULL, NULL))
    return NULL;
  return g_strchomp (branch);
}

/* Returns: (transfer none) (nullable): the index a first run of @branch starts from, and that
 * answers for it until then: the index of the last run's branch, else index.db (the index of
 * before branch-aware indexes were on); NULL when there is none. */
static const char *
origin_db_path (LodeProject *self,
                const char  *branch)
{
  g_autofree char *last = dup_last_branch (self);
  const char *path;

  if (last != NULL && g_strcmp0 (last, branch) != 0)
    {
      path = branch_db_path (self, last);
      if (lode_index_store_exists (store_kind (self), path))
        return path;
    }
  if (lode_index_store_exists (store_kind (self), self->db_path))
    return self->db_path;
  return NULL;
}

/**
 * lode_project_get_db_path:
 * @self: a #LodeProject
 *
 * Returns: (transfer none): the index file of the checked-out branch when indexes are
 *   branch-aware, else `index.db` (also the name the Qdrant collection is made from); the
 *   string stays valid as long as the process
 */
const char *
lode_project_get_db_path (LodeProject *self)
{
  g_autoptr(LodeGitHead) head = NULL;

  g_return_val_if_fail (LODE_IS_PROJECT (self), NULL);

  head = read_head (self);
  return branch_db_path (self, head != NULL ? head->name : NULL);
}

/**
 * lode_project_dup_branch:
 * @self: a #LodeProject
 *
 * Returns: (transfer full) (nullable): the branch (or detached commit) whose index the
 *   project uses; %NULL when indexes are not branch-aware or the tree is not a git work tree
 */
char *
lode_project_dup_branch (LodeProject *self)
{
  g_autoptr(LodeGitHead) head = NULL;

  g_return_val_if_fail (LODE_IS_PROJECT (self), NULL);

  head = read_head (self);
  return head != NULL ? g_steal_pointer (&head->name) : NULL;
}

/* Returns: (transfer none): the index reads use: the checked-out branch's, or until its
 * first run the one it will start from (@from names its branch; NULL for index.db); index.db
 * when not branch-aware. @branch gets the branch. */
static const char *
reading_db_path (LodeProject  *self,
                 char        **branch,
                 char        **from)
{
  g_autoptr(LodeGitHead) head = read_head (self);
  const char *path = branch_db_path (self, head != NULL ? head->name : NULL);
  const char *origin;

  if (head != NULL && !lode_index_store_exists (store_kind (self), path) &&
      (origin = origin_db_path (self, head->name)) != NULL)
    {
      if (from != NULL && origin != self->db_path)
        *from = dup_last_branch (self);
      path = origin;
    }
  if (branch != NULL)
    *branch = head != NULL ? g_steal_pointer (&head->name) : NULL;

  return path;
}

gboolean
lode_project_is_indexed (LodeProject *self)
{
  g_return_val_if_fail (LODE_IS_PROJECT (self), FALSE);
  return lode_index_store_exists (store_kind (self), reading_db_path (self, NULL, NULL));
}

/* A Qdrant collection is made with the size of its dense vectors, which a remote provider
 * only tells with its first answer: it is asked once here. 0 without an embedder (the
 * collection then holds no dense vectors) or for the SQLite store, which needs no size. */
static guint
embedder_dims (LodeProject  *self,
               GCancellable *cancellable)
{
  g_autoptr(LodeEmbedder) embedder = NULL;
  g_autoptr(LodeEmbeddings) probe = NULL;
  g_autoptr(GError) error = NULL;
  const char *texts[] = { "dimensions", NULL };
  guint dims;

  if (store_kind (self) != LODE_STORE_KIND_QDRANT)
    return 0;

  g_mutex_lock (&self->reader_lock);
  if (self->embedder != NULL)
    embedder = g_object_ref (self->embedder);
  g_mutex_unlock (&self->reader_lock);
  if (embedder == NULL)
    return 0;

  dims = lode_embedder_get_dims (embedder);
  if (dims > 0)
    return dims;

  probe = lode_embedder_embed_sync (embedder, texts, LODE_EMBED_DOCUMENT, cancellable, &error);
  if (probe == NULL)
    {
      g_warning ("Cannot learn the size of %s's vectors: %s", lode_embedder_get_model (embedder),
                 error->message);
      return 0;
    }
  return probe->dims;
}

/* The project's index, open for writing: made when missing, reset when of another version. */
static LodeIndexStore *
open_writer (LodeProject   *self,
             const char    *db_path,
             GCancellable  *cancellable,
             GError       **error)
{
  return lode_index_store_open (self->config, store_kind (self), db_path,
                                embedder_dims (self, cancellable), TRUE, cancellable, error);
}

/* open_writer() for a run over the whole tree, which first checks every page of a SQLite
 * index (lode_store_check()): a run that finds nothing changed reads none of the index, so
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

  if (store == NULL || !LODE_IS_STORE (store) || lode_store_get_was_reset (LODE_STORE (store)) ||
      lode_store_check (LODE_STORE (store), &local_error))
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

  if (g_mkdir_with_parents (self->dir, 0700) != 0)
    {
      int errsv = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                   "Cannot create index directory %s: %s", self->dir, g_strerror (errsv));
      return FALSE;
    }

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

  g_mutex_lock (&self->reader_lock);
  if (self->embedder != NULL)
    embedder = g_object_ref (self->embedder);
  else
    report->embedding_notice = g_strdup_printf ("semantic search unavailable: %s",
                                                self->embedder_notice);
  g_mutex_unlock (&self->reader_lock);

  if (embedder == NULL)
    return TRUE;

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

/* Another process may be indexing the same tree (a `lode --no-daemon` run, another daemon's
 * engine): the lock file beside the index admits one writer at a time. The holder's pid is
 * in the file, so that the one who waits can say for whom. */
#define LOCK_POLL_USEC (100 * 1000)

static int
lock_writer (LodeProject            *self,
             const char             *db_path,
             GCancellable           *cancellable,
             LodeIndexProgressFunc   progress,
             gpointer                progress_data,
             GError                **error)
{
  g_autofree char *path = dup_lock_path (self, db_path);
  g_autofree char *pid = NULL;
  gboolean told = FALSE;
  int fd;

  fd = g_open (path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   "Cannot open %s: %s", path, g_strerror (saved_errno));
      return -1;
    }

  while (flock (fd, LOCK_EX | LOCK_NB) != 0)
    {
      int saved_errno = errno;

      if (saved_errno != EWOULDBLOCK && saved_errno != EINTR)
        {
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                       "Cannot lock %s: %s", path, g_strerror (saved_errno));
          close (fd);
          return -1;
        }
      if (!told)
        {
          LodeIndexProgress waiting = { LODE_INDEX_PHASE_WAITING, 0, 0 };
          g_autofree char *holder = NULL;

          g_file_get_contents (path, &holder, NULL, NULL);
          g_message ("%s is being indexed by another process%s%s; waiting for it", self->root,
                     holder != NULL && *holder != '\0' ? " with pid " : "",
                     holder != NULL ? g_strstrip (holder) : "");
          if (progress != NULL)
            progress (&waiting, progress_data);
          told = TRUE;
        }
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          close (fd);
          return -1;
        }
      g_usleep (LOCK_POLL_USEC);
    }

  pid = g_strdup_printf ("%d\n", (int) getpid ());
  if (ftruncate (fd, 0) != 0 || write (fd, pid, strlen (pid)) < 0)
    g_debug ("Cannot note the writer's pid in %s: %s", path, g_strerror (errno));

  return fd;
}

static void
unlock_writer (int fd)
{
  if (ftruncate (fd, 0) != 0)
    g_debug ("Cannot clear the writer's pid: %s", g_strerror (errno));
  close (fd);
}

typedef int WriterLock;
G_DEFINE_AUTO_CLEANUP_FREE_FUNC (WriterLock, unlock_writer, -1)

/* A branch indexed for the first time starts as a copy of the index of the branch it came
 * from (origin_db_path()), so that the run after it re-reads only the files that differ.
 * Called with @db_path's writer lock held; the origin is copied as a consistent snapshot,
 * even while a writer works on it. A copy that fails is said and the run indexes the branch
 * from scratch: nothing is lost. @from gets the origin's branch (or "" for index.db). */
static gboolean
seed_branch (LodeProject   *self,
             const char    *branch,
             const char    *db_path,
             GCancellable  *cancellable,
             char         **from,
             GError       **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(LodeEmbedder) embedder = NULL;
  const char *origin;

  if (lode_index_store_exists (store_kind (self), db_path))
    return TRUE;
  origin = origin_db_path (self, branch);
  if (origin == NULL)
    return TRUE;

  g_mutex_lock (&self->reader_lock);
  if (self->embedder != NULL)
    embedder = g_object_ref (self->embedder);
  g_mutex_unlock (&self->reader_lock);

  if (lode_index_store_seed (self->config, store_kind (self), origin, db_path,
                             embedder_dims (self, cancellable),
                             embedder != NULL ? lode_embedder_get_model (embedder) : NULL,
                             cancellable, &local_error))
    {
      *from = origin == self->db_path ? g_strdup ("") : dup_last_branch (self);
      return TRUE;
    }
  if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  g_warning ("Cannot start the index of branch %s of %s from a copy, indexing it from "
             "scratch: %s", branch, self->root, local_error->message);
  return lode_index_store_remove (self->config, store_kind (self), db_path, error);
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
  g_auto(WriterLock) lock = -1;
  g_autoptr(LodeIndexStore) store = NULL;
  g_autoptr(LodeGitHead) head = NULL;
  g_autofree char *seeded_from = NULL;
  gboolean force = (flags & LODE_INDEX_FORCE) != 0;
  const char *db_path;
  LodeIndexReport *report;

  g_return_val_if_fail (LODE_IS_PROJECT (self), NULL);
  g_return_val_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable), NULL);

  head = read_head (self);
  db_path = branch_db_path (self, head != NULL ? head->name : NULL);
  if (!prepare_dir (self, error) ||
      (lock = lock_writer (self, db_path, cancellable, progress, progress_data, error)) < 0)
    {
      g_prefix_error (error, "Cannot index %s: ", self->root);
      return NULL;
    }

  /* What a forced run killed before it finished left aside. */
  if (!lode_index_store_remove_leftovers (store_kind (self), db_path, error))
    {
      g_prefix_error (error, "Cannot index %s: ", self->root);
      return NULL;
    }

  if (head != NULL)
    {
      g_autofree char *last = dup_last_branch (self);

      /* A change list tells what changed since the last run, which was on another branch:
       * after a switch the whole tree is compared (by content hash) with this branch's
       * index. */
      if (g_strcmp0 (last, head->name) != 0)
        changes = NULL;
      if (!force && !seed_branch (self, head->name, db_path, cancellable, &seeded_from, error))
        return NULL;
    }

  /* A forced run builds the new index aside: searches answer from the old one meanwhile,
   * and a cancelled, failed or killed run leaves it. */
  if (force)
    store = lode_index_store_open_aside (self->config, store_kind (self), db_path,
                                         embedder_dims (self, cancellable), cancellable, error);
  else if (changes == NULL)
    store = open_checked_writer (self, db_path, cancellable, error);
  else
    store = open_writer (self, db_path, cancellable, error);
  if (store == NULL)
    {
      g_prefix_error (error, "Cannot index %s: ", self->root);
      return NULL;
    }

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
        lode_index_store_discard (store_kind (self), g_steal_pointer (&store), db_path);
      else if (!install_aside (self, store_kind (self), g_steal_pointer (&store), db_path, error))
        g_clear_pointer (&report, lode_index_report_free);
    }

  if (report == NULL)
    {
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

/* A damaged index (found on opening it, or by a query that read a broken page) gets the
 * project's name and the remedy, for every front end, once: dup_reader() explains what it
 * finds, and status and search explain what their queries find after it. */
static void
explain_damage (LodeProject  *self,
                GError      **error)
{
  g_autoptr(GError) damage = NULL;
  g_autofree char *prefix = NULL;

  if (error == NULL || !g_error_matches (*error, LODE_ERROR, LODE_ERROR_DAMAGED))
    return;
  prefix = g_strdup_printf ("The index of %s cannot be used: ", self->root);
  if (g_str_has_prefix ((*error)->message, prefix))
    return;

  damage = g_steal_pointer (error);
  g_set_error (error, LODE_ERROR, LODE_ERROR_DAMAGED,
               "%s%s. Index the project again (codebase_index, or `lode index %s`): the "
               "damaged file is kept aside and the index is rebuilt from scratch.", prefix,
               damage->message, self->root);
}

/* The SQLite half of dup_reader(). */
static gboolean
dup_sqlite_reader (LodeProject  *self,
                   const char   *db_path,
                   GError      **error)
{
  GStatBuf st;

  if (self->reader != NULL && (!LODE_IS_STORE (self->reader) ||
                               lode_store_is_damaged (LODE_STORE (self->reader)) ||
                               g_stat (db_path, &st) != 0 ||
                               st.st_ino != self->reader_inode))
    g_clear_object (&self->reader);

  if (self->reader == NULL)
    {
      self->reader = LODE_INDEX_STORE (lode_store_open_reader (db_path, error));
      if (self->reader == NULL)
        {
          explain_damage (self, error);
          return FALSE;
        }
      self->reader_inode = g_stat (db_path, &st) == 0 ? st.st_ino : 0;
    }
  return TRUE;
}

/* Called with reader_lock held. A SQLite reader is opened again when the file was
 * replaced or found damaged; a Qdrant reader reads the file points again when the data
 * version moved (lode_search_backend_get_version()). Either way, a new generation (a forced
 * run or a migration replaced the index) drops the searcher's vectors. */
static LodeIndexStore *
dup_reader (LodeProject  *self,
            GError      **error)
{
  const char *db_path = reading_db_path (self, NULL, NULL);
  g_autofree char *generation = NULL;

  /* The first read, or another branch's index: the searcher's vectors in memory are of the
   * other one. */
  if (db_path != self->reader_path)
    {
      g_clear_object (&self->reader);
      g_clear_object (&self->searcher);
      self->searcher = lode_searcher_new ();
      lode_searcher_set_quantized (self->searcher, self->config->vector_int8);
      self->reader_path = db_path;
    }

  if (!lode_index_store_exists (store_kind (self), db_path))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_INDEXED,
                   "%s is not indexed yet; run “lode index %s” first", self->root, self->root);
      return NULL;
    }

  if (store_kind (self) == LODE_STORE_KIND_QDRANT)
    {
      if (self->reader != NULL && LODE_IS_STORE (self->reader))
        g_clear_object (&self->reader);
      if (self->reader == NULL)
        self->reader = lode_index_store_open (self->config, LODE_STORE_KIND_QDRANT,
                                              db_path, 0, FALSE, NULL, error);
      else
        lode_search_backend_get_version (LODE_SEARCH_BACKEND (self->reader));
      if (self->reader == NULL)
        return NULL;
    }
  else if (!dup_sqlite_reader (self, db_path, error))
    return NULL;

  /* A forced run elsewhere replaced the index under the same name: chunk and vector ids
   * start over, so the searcher's vectors in memory are of no use. */
  generation = lode_index_store_dup_meta (self->reader, GENERATION_META_KEY);
  if (g_strcmp0 (generation, self->generation) != 0)
    {
      g_clear_object (&self->searcher);
      self->searcher = lode_searcher_new ();
      lode_searcher_set_quantized (self->searcher, self->config->vector_int8);
      g_free (self->generation);
      self->generation = g_steal_pointer (&generation);
    }

  return g_object_ref (self->reader);
}

/**
 * lode_project_read:
 * @self: a #LodeProject
 * @func: what to run
 * @data: data for @func
 * @error: return location for a #GError
 *
 * Runs @func with the project's read connection (opened once, shared with searches), which
 * no other caller uses meanwhile. For readers of the index outside this file, such as the
 * symbol tools.
 *
 * Returns: (nullable): what @func returned; %NULL with @error set when the project is not
 *   indexed or its index cannot be opened
 */
gpointer
lode_project_read (LodeProject          *self,
                   LodeProjectReadFunc   func,
                   gpointer              data,
                   GError              **error)
{
  g_autoptr(LodeIndexStore) store = NULL;
  gpointer result = NULL;

  g_return_val_if_fail (LODE_IS_PROJECT (self), NULL);
  g_return_val_if_fail (func != NULL, NULL);

  g_mutex_lock (&self->reader_lock);
  store = dup_reader (self, error);
  if (store != NULL)
    result = func (self, store, data, error);
  g_mutex_unlock (&self->reader_lock);

  return result;
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
  g_auto(WriterLock) lock = -1;
  const char *db_path;

  g_return_val_if_fail (LODE_IS_PROJECT (self), FALSE);
  g_return_val_if_fail (func != NULL, FALSE);

  db_path = reading_db_path (self, NULL, NULL);
  if (!lode_index_store_exists (store_kind (self), db_path))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_INDEXED,
                   "%s is not indexed yet; run “lode index %s” first", self->root, self->root);
      return FALSE;
    }

  lock = lock_writer (self, db_path, cancellable, NULL, NULL, error);
  if (lock < 0)
    return FALSE;
  store = open_writer (self, db_path, cancellable, error);
  if (store == NULL)
    {
      explain_damage (self, error);
      return FALSE;
    }
  return func (self, store, data, error);
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
 * @options: the query, its filters and mode
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * lode_project_search_full() without what the response says about the mode.
 *
 * Returns: (transfer full) (element-type LodeSearchResult): results, best first
 */
GPtrArray *
lode_project_search (LodeProject              *self,
                     const LodeSearchOptions  *options,
                     GCancellable             *cancellable,
                     GError                  **error)
{
  g_autoptr(LodeSearchResponse) response = NULL;

  g_return_val_if_fail (LODE_IS_PROJECT (self), NULL);
  g_return_val_if_fail (options != NULL, NULL);
  g_return_val_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable), NULL);

  response = lode_project_search_full (self, options, cancellable, error);
  if (response == NULL)
    return NULL;

  return g_steal_pointer (&response->results);
}

void
lode_project_status_free (LodeProjectStatus *status)
{
  if (status == NULL)
    return;

  g_clear_pointer (&status->languages, g_hash_table_unref);
  g_free (status->indexed_at);
  g_free (status->embedding_model);
  g_free (status->semantic_notice);
  g_free (status->damage);
  g_free (status->root);
  g_free (status->id);
  g_free (status->branch);
  g_free (status->branch_fallback);
  g_clear_pointer (&status->job, lode_job_info_free);
  g_free (status->watch_status);
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
    case LODE_INDEX_STATE_DAMAGED:
      return "damaged";
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

/* Why semantic search is off or covers only part of the index; NULL when it covers all.
 * Called with reader_lock held. */
static char *
dup_coverage_notice (LodeProject *self,
                     guint        n_embedded,
                     guint        n_embeddable)
{
  if (self->embedder == NULL)
    return g_strdup_printf ("semantic search unavailable: %s", self->embedder_notice);

  return lode_search_dup_coverage_notice (n_embedded, n_embeddable);
}

/* The largest index status checks, database and WAL: 0.15 s of CPU (git's index of 110 MB
 * takes 0.13 s, where status without the check takes 0.01 s). */
#define STATUS_CHECK_MAX_SIZE (128 * 1024 * 1024)

/* Whether the index @store reads is whole, for status, which must not call ready an index a
 * search would find damaged (garbled pages of the full-text index are read by searches
 * only). A SQLite index of up to STATUS_CHECK_MAX_SIZE is checked (lode_store_check()) once
 * for each state of its files (their size and time of change); larger ones are left to index
 * runs, which check them, and to the searches that come across the damage. Called with
 * reader_lock held. */
static gboolean
check_reader (LodeProject     *self,
              LodeIndexStore  *store,
              const char      *db_path,
              GError         **error)
{
  g_autofree char *wal_path = g_strconcat (db_path, "-wal", NULL);
  g_autofree char *files = NULL;
  GStatBuf db;
  GStatBuf wal;

  if (!LODE_IS_STORE (store) || g_stat (db_path, &db) != 0)
    return TRUE;
  if (g_stat (wal_path, &wal) != 0)
    memset (&wal, 0, sizeof wal);
  if (db.st_size + wal.st_size > STATUS_CHECK_MAX_SIZE)
    return TRUE;

  files = g_strdup_printf ("%" G_GUINT64_FORMAT " %" G_GINT64_FORMAT ".%ld %" G_GINT64_FORMAT
                           " %" G_GINT64_FORMAT ".%ld %" G_GINT64_FORMAT,
                           (guint64) db.st_ino, (gint64) db.st_mtim.tv_sec, db.st_mtim.tv_nsec,
                           (gint64) db.st_size, (gint64) wal.st_mtim.tv_sec, wal.st_mtim.tv_nsec,
                           (gint64) wal.st_size);
  if (g_strcmp0 (files, self->checked) == 0)
    return TRUE;
  if (!lode_store_check (LODE_STORE (store), error))
    return FALSE;

  g_free (self->checked);
  self->checked = g_steal_pointer (&files);
  return TRUE;
}

/* A status that says the index is damaged, and how to repair it. */
static void
set_damaged (LodeProjectStatus *status,
             const char        *damage)
{
  status->state = LODE_INDEX_STATE_DAMAGED;
  status->damage = g_strdup (damage);
  g_clear_pointer (&status->languages, g_hash_table_unref);
  status->languages = g_hash_table_new (g_str_hash, g_str_equal);
  memset (&status->stats, 0, sizeof status->stats);
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
  g_autoptr(LodeIndexStore) store = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *state = NULL;
  g_autofree char *wal = NULL;
  LodeProjectStatus *status;
  const char *db_path;

  g_return_val_if_fail (LODE_IS_PROJECT (self), NULL);

  status = g_new0 (LodeProjectStatus, 1);
  status->root = g_strdup (self->root);
  status->id = g_strdup (self->id);
  db_path = reading_db_path (self, &status->branch, &status->branch_fallback);
  if (!lode_index_store_exists (store_kind (self), db_path))
    {
      status->languages = g_hash_table_new (g_str_hash, g_str_equal);
      g_mutex_lock (&self->reader_lock);
      if (self->embedder == NULL)
        status->semantic_notice = dup_coverage_notice (self, 0, 0);
      g_mutex_unlock (&self->reader_lock);
      return status;
    }

  g_mutex_lock (&self->reader_lock);
  store = dup_reader (self, &local_error);
  if (store == NULL ||
      !lode_index_store_get_stats (store, &status->stats, &local_error) ||
      (status->languages = lode_index_store_dup_language_counts (store, &local_error)) == NULL)
    {
      g_mutex_unlock (&self->reader_lock);
      explain_damage (self, &local_error);
      if (g_error_matches (local_error, LODE_ERROR, LODE_ERROR_NOT_INDEXED))
        {
          /* The first run has only just created the file. */
          status->state = LODE_INDEX_STATE_INCOMPLETE;
          g_clear_pointer (&status->languages, g_hash_table_unref);
          status->languages = g_hash_table_new (g_str_hash, g_str_equal);
          memset (&status->stats, 0, sizeof status->stats);
          return status;
        }
      if (g_error_matches (local_error, LODE_ERROR, LODE_ERROR_DAMAGED))
        {
          /* Damage is a state to report, with its remedy, not a failure to read it. */
          set_damaged (status, local_error->message);
          return status;
        }
      lode_project_status_free (status);
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }
  if (self->embedder != NULL)
    status->embedding_model = g_strdup (lode_embedder_get_model (self->embedder));
  if (!lode_index_store_count_embedded (store, status->embedding_model, &status->n_embedded,
                                  &status->n_embeddable, error))
    {
      g_mutex_unlock (&self->reader_lock);
      lode_project_status_free (status);
      return NULL;
    }
  state = lode_index_store_dup_meta (store, "state");
  status->indexed_at = lode_index_store_dup_meta (store, "indexed_at");
  status->semantic_notice = dup_coverage_notice (self, status->n_embedded,
                                                 status->n_embeddable);
  /* An index being written is checked once it is ready. */
  if (g_strcmp0 (state, "ready") == 0)
    check_reader (self, store, db_path, &local_error);
  g_mutex_unlock (&self->reader_lock);

  status->state = g_strcmp0 (state, "ready") == 0 ? LODE_INDEX_STATE_READY
                                                  : LODE_INDEX_STATE_INCOMPLETE;
  if (local_error != NULL)
    {
      explain_damage (self, &local_error);
      if (!g_error_matches (local_error, LODE_ERROR, LODE_ERROR_DAMAGED))
        {
          lode_project_status_free (status);
          g_propagate_error (error, g_steal_pointer (&local_error));
          return NULL;
        }
      set_damaged (status, local_error->message);
    }
  wal = g_strconcat (db_path, "-wal", NULL);
  status->db_size = file_size (db_path) + file_size (wal);

  return status;
}

/* Semantic search (issue #4) */

/**
 * lode_project_set_embedder:
 * @self: a #LodeProject
 * @embedder: (nullable): the provider that embeds this project's chunks and queries
 * @unavailable: (nullable): without @embedder, why there is none (it completes
 *   "semantic search unavailable: …")
 *
 * Sets the embedding provider. Vectors of another model are never mixed with those of
 * @embedder: the next index run embeds the chunks for @embedder's model, and searches use
 * only that model's vectors.
 */
void
lode_project_set_embedder (LodeProject  *self,
                           LodeEmbedder *embedder,
                           const char   *unavailable)
{
  g_return_if_fail (LODE_IS_PROJECT (self));
  g_return_if_fail (embedder == NULL || LODE_IS_EMBEDDER (embedder));

  g_mutex_lock (&self->reader_lock);
  g_set_object (&self->embedder, embedder);
  g_free (self->embedder_notice);
  self->embedder_notice = g_strdup (unavailable != NULL ? unavailable
                                                        : "no embedding provider");
  g_mutex_unlock (&self->reader_lock);
}

/**
 * lode_project_get_embedder:
 * @self: a #LodeProject
 *
 * Returns: (transfer none) (nullable): the embedding provider
 */
LodeEmbedder *
lode_project_get_embedder (LodeProject *self)
{
  g_return_val_if_fail (LODE_IS_PROJECT (self), NULL);

  return self->embedder;
}

/**
 * lode_project_search_full:
 * @self: a #LodeProject
 * @options: the query, its filters and mode
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Searches the index; safe to call while the project is being indexed or embedded (WAL
 * readers see the last committed batch, and the dense leg covers the chunks embedded so far).
 *
 * Hybrid mode fuses BM25 and the vector neighbours of the query (see
 * lode_searcher_search()). Without an embedder, or when the query cannot be embedded,
 * hybrid runs BM25 alone and the response says so (mode lexical, a notice); semantic mode
 * fails with %LODE_ERROR_EMBEDDER instead. Embedding the query blocks (a model run or an
 * HTTP request): call this from a worker thread or a command-line tool.
 *
 * Returns: (transfer full): the results and the mode that ran
 */
LodeSearchResponse *
lode_project_search_full (LodeProject              *self,
                          const LodeSearchOptions  *options,
                          GCancellable             *cancellable,
                          GError                  **error)
{
  g_autoptr(LodeIndexStore) store = NULL;
  g_autoptr(LodeEmbedder) embedder = NULL;
  g_autoptr(LodeEmbeddings) embedding = NULL;
  g_autoptr(GError) embed_error = NULL;
  g_autofree char *unavailable = NULL;
  LodeQueryVector query = { 0 };
  LodeSearchResponse *response = NULL;

  g_return_val_if_fail (LODE_IS_PROJECT (self), NULL);
  g_return_val_if_fail (options != NULL, NULL);
  g_return_val_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable), NULL);

  if (options->query == NULL || is_blank (options->query))
    {
      g_set_error_literal (error, LODE_ERROR, LODE_ERROR_INVALID_QUERY, "The query is empty");
      return NULL;
    }

  g_mutex_lock (&self->reader_lock);
  if (self->embedder != NULL)
    embedder = g_object_ref (self->embedder);
  else
    unavailable = g_strdup (self->embedder_notice);
  g_mutex_unlock (&self->reader_lock);

  /* The query is embedded outside the lock: it may take a while. */
  if (options->mode != LODE_SEARCH_MODE_LEXICAL && embedder != NULL)
    {
      const char *texts[] = { options->query, NULL };

      embedding = lode_embedder_embed_sync (embedder, texts, LODE_EMBED_QUERY, cancellable,
                                            &embed_error);
      if (embedding != NULL && embedding->n_vectors != 1)
        {
          g_set_error (&embed_error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                       "%s returned %u vectors for one query", lode_embedder_get_model (embedder),
                       embedding->n_vectors);
          g_clear_pointer (&embedding, lode_embeddings_free);
        }
      if (g_error_matches (embed_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_propagate_error (error, g_steal_pointer (&embed_error));
          return NULL;
        }
      if (embedding == NULL)
        unavailable = g_strdup (embed_error->message);
      else
        {
          query.model = lode_embedder_get_model (embedder);
          query.dims = embedding->dims;
          query.vector = embedding->data;
        }
    }

  g_mutex_lock (&self->reader_lock);
  store = dup_reader (self, error);
  if (store != NULL)
    response = lode_searcher_search (self->searcher, LODE_SEARCH_BACKEND (store), options,
                                     embedding != NULL ? &query : NULL, unavailable,
                                     cancellable, error);
  g_mutex_unlock (&self->reader_lock);

  if (response == NULL)
    explain_damage (self, error);

  return response;
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
  g_autoptr(LodeIndexStore) store = NULL;
  LodeGraph *graph;

  g_return_val_if_fail (LODE_IS_PROJECT (self), NULL);

  g_mutex_lock (&self->reader_lock);
  store = dup_reader (self, error);
  graph = store != NULL ? lode_index_store_load_graph (store, error) : NULL;
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
  g_autoptr(LodeIndexStore) store = NULL;
  GPtrArray *imports;

  g_return_val_if_fail (LODE_IS_PROJECT (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  g_mutex_lock (&self->reader_lock);
  store = dup_reader (self, error);
  imports = store != NULL ? lode_index_store_dup_imports (store, path, error) : NULL;
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
  g_autoptr(LodeIndexStore) store = NULL;
  g_autofree char *state = NULL;
  gboolean ok;

  g_return_val_if_fail (LODE_IS_PROJECT (self), FALSE);
  g_return_val_if_fail (counts != NULL, FALSE);

  g_mutex_lock (&self->reader_lock);
  store = dup_reader (self, error);
  ok = store != NULL && lode_index_store_get_graph_counts (store, counts, error);
  if (ok)
    state = lode_index_store_dup_meta (store, LODE_GRAPH_META_KEY);
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
  g_auto(WriterLock) lock = -1;
  gboolean was_enabled;
  const char *db_path;

  g_return_val_if_fail (LODE_IS_PROJECT (self), FALSE);

  db_path = lode_project_get_db_path (self);
  if (!lode_index_store_exists (store_kind (self), db_path))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_INDEXED,
                   "%s is not indexed yet; run “lode index %s” first", self->root, self->root);
      return FALSE;
    }

  /* A writer like an indexing run, and one at a time like it; a connection of its own, since
   * the shared one is for reading. */
  lock = lock_writer (self, db_path, NULL, NULL, NULL, error);
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

/* Whether the canonical @path is @root or lies under it. */
static gboolean
is_inside (const char *root,
           const char *path)
{
  gsize root_len = strlen (root);

  if (strcmp (root, "/") == 0)
    return path[0] == '/';
  return strncmp (path, root, root_len) == 0 &&
         (path[root_len] == '\0' || path[root_len] == '/');
}

/**
 * lode_project_dup_real_path:
 * @self: a #LodeProject
 * @path: a path the project's own files name (a context artifact of `.lode.json`): relative
 *   to the root or absolute
 * @error: return location for a #GError
 *
 * What the project's files name comes with the project, and a hostile one may name anything
 * (`../../.ssh/id_rsa`, `/etc/shadow`, a link to either). @path must lie inside the root (or
 * be the root) both as written, with `.` and `..` resolved, and once its symbolic links are
 * followed; the result is the path to open.
 *
 * Returns: (transfer full) (nullable): the canonical absolute path @path leads to, links
 *   resolved; %NULL with %LODE_ERROR_INVALID_ARGUMENT when it lies outside the root, with
 *   %LODE_ERROR_NOT_FOUND when it does not exist, %LODE_ERROR_FAILED when it cannot be
 *   resolved
 */
char *
lode_project_dup_real_path (LodeProject  *self,
                            const char   *path,
                            GError      **error)
{
  g_autofree char *absolute = NULL;
  g_autofree char *canonical = NULL;
  g_autofree char *root = NULL;
  g_autofree char *real = NULL;

  g_return_val_if_fail (LODE_IS_PROJECT (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  root = realpath (self->root, NULL);
  if (root == NULL)
    root = g_strdup (self->root);

  /* As written first: a path outside is refused without looking at what is there. */
  absolute = g_path_is_absolute (path) ? g_strdup (path)
                                       : g_build_filename (self->root, path, NULL);
  canonical = g_canonicalize_filename (absolute, NULL);
  if (!is_inside (self->root, canonical) && !is_inside (root, canonical))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                   "%s lies outside the project", path);
      return NULL;
    }

  real = realpath (canonical, NULL);
  if (real == NULL)
    {
      int saved_errno = errno;

      if (saved_errno == ENOENT)
        g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_FOUND, "%s does not exist", path);
      else
        g_set_error (error, LODE_ERROR, LODE_ERROR_FAILED, "Cannot resolve %s: %s", path,
                     g_strerror (saved_errno));
      return NULL;
    }
  if (!is_inside (root, real))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                   "%s leads outside the project through a symbolic link", path);
      return NULL;
    }

  return g_steal_pointer (&real);
}

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
  g_auto(WriterLock) lock = -1;
  g_autoptr(LodeIndexStore) source = NULL;
  g_autoptr(LodeIndexStore) target = NULL;
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
      (lock = lock_writer (self, db_path, cancellable, NULL, NULL, error)) < 0)
    return FALSE;

  g_mutex_lock (&self->reader_lock);
  if (self->embedder != NULL)
    embedding_model = g_strdup (lode_embedder_get_model (self->embedder));
  g_mutex_unlock (&self->reader_lock);

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

/* Branch-aware indexes (issue #14): listing and pruning -------------------------------- */

void
lode_branch_index_free (LodeBranchIndex *index)
{
  if (index == NULL)
    return;

  g_free (index->branch);
  g_free (index->indexed_at);
  g_free (index);
}

static int
compare_branch_indexes (gconstpointer a,
                        gconstpointer b)
{
  const LodeBranchIndex *ia = *(LodeBranchIndex * const *) a;
  const LodeBranchIndex *ib = *(LodeBranchIndex * const *) b;

  return g_strcmp0 (ia->branch, ib->branch);
}

/**
 * lode_project_list_branches:
 * @self: a #LodeProject
 * @error: return location for a #GError
 *
 * Lists the branch indexes of the project in the store of the settings (`branch-NAME.db`,
 * or the `branch-NAME.qdrant` markers of Qdrant collections), whether or not indexes are
 * branch-aware now.
 *
 * Returns: (transfer full) (element-type LodeBranchIndex): the indexes, by branch name
 */
GPtrArray *
lode_project_list_branches (LodeProject  *self,
                            GError      **error)
{
  g_autoptr(GPtrArray) indexes = NULL;
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(LodeGitHead) head = NULL;
  const char *suffix = store_kind (self) == LODE_STORE_KIND_QDRANT ? ".qdrant" : ".db";
  const char *name;

  g_return_val_if_fail (LODE_IS_PROJECT (self), NULL);

  indexes = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_branch_index_free);
  dir = g_dir_open (self->dir, 0, &local_error);
  if (dir == NULL)
    {
      if (g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        return g_steal_pointer (&indexes);
      g_propagate_prefixed_error (error, g_steal_pointer (&local_error),
                                  "Cannot list the branch indexes of %s: ", self->root);
      return NULL;
    }

  head = lode_git_read_head (self->root, NULL);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *escaped = NULL;
      g_autofree char *branch = NULL;
      g_autoptr(LodeIndexStore) store = NULL;
      LodeBranchIndex *index;
      const char *db_path;

      if (!g_str_has_prefix (name, "branch-") || !g_str_has_suffix (name, suffix))
        continue;
      escaped = g_strndup (name + strlen ("branch-"),
                           strlen (name) - strlen ("branch-") - strlen (suffix));
      branch = lode_git_unescape_branch (escaped);
      if (branch == NULL)
        continue;

      index = g_new0 (LodeBranchIndex, 1);
      db_path = branch_db_path (self, branch);
      index->current = head != NULL && g_str_equal (head->name, branch);
      index->exists = index->current ||
                      (head != NULL && lode_git_branch_exists (head->common_dir, branch));
      if (store_kind (self) == LODE_STORE_KIND_SQLITE)
        {
          g_autofree char *wal = g_strconcat (db_path, "-wal", NULL);

          index->db_size = file_size (db_path) + file_size (wal);
        }
      store = lode_index_store_open (self->config, store_kind (self), db_path, 0, FALSE, NULL,
                                     NULL);
      if (store != NULL)
        index->indexed_at = lode_index_store_dup_meta (store, "indexed_at");
      index->branch = g_steal_pointer (&branch);
      g_ptr_array_add (indexes, index);
    }

  g_ptr_array_sort (indexes, compare_branch_indexes);
  return g_steal_pointer (&indexes);
}

/**
 * lode_project_remove_branch:
 * @self: a #LodeProject
 * @branch: a branch with an index
 * @cancellable: (nullable): a #GCancellable, while waiting for a writer of that index
 * @error: return location for a #GError
 *
 * Deletes the index of @branch (the SQLite files, or the Qdrant collection), once a run
 * writing it has ended. The index of the branch checked out is never deleted.
 *
 * Returns: %TRUE on success; %LODE_ERROR_NOT_FOUND when @branch has no index,
 *   %LODE_ERROR_INVALID_ARGUMENT when it is checked out
 */
gboolean
lode_project_remove_branch (LodeProject   *self,
                            const char    *branch,
                            GCancellable  *cancellable,
                            GError       **error)
{
  g_autoptr(LodeGitHead) head = NULL;
  g_auto(WriterLock) lock = -1;
  const char *db_path;

  g_return_val_if_fail (LODE_IS_PROJECT (self), FALSE);
  g_return_val_if_fail (branch != NULL, FALSE);

  db_path = branch_db_path (self, branch);
  if (!lode_index_store_exists (store_kind (self), db_path))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_FOUND, "Branch %s of %s has no index",
                   branch, self->root);
      return FALSE;
    }
  head = lode_git_read_head (self->root, NULL);
  if (head != NULL && g_str_equal (head->name, branch))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                   "Branch %s is checked out in %s: its index is in use and is kept", branch,
                   self->root);
      return FALSE;
    }

  lock = lock_writer (self, db_path, cancellable, NULL, NULL, error);
  if (lock < 0 || !lode_index_store_remove (self->config, store_kind (self), db_path, error))
    {
      g_prefix_error (error, "Cannot delete the index of branch %s of %s: ", branch,
                      self->root);
      return FALSE;
    }

  /* The lock file stays (empty): a writer waiting on it must find the same file. */
  return TRUE;
}
