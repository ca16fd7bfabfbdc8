/* lode-project-lock.c — the writer lock of a project's index
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-project"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "lode-error.h"
#include "lode-project-private.h"

/* Another process may be indexing the same tree (a `lode --no-daemon` run, another daemon's
 * engine): the lock file beside the index admits one writer at a time. The holder's pid is
 * in the file, so that the one who waits can say for whom. */
#define LOCK_POLL_USEC (100 * 1000)

/* How often a writer looks for a request to stop, and how long `lode stop` and `lode remove`
 * wait for the writer they asked (it ends at its next check, within about a second). */
#define STOP_POLL_USEC (200 * 1000)
#define STOP_WAIT_USEC (60 * G_USEC_PER_SEC)

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

/* Whether the file open as @fd is no longer the one at @path. */
static gboolean
is_unlinked (int         fd,
             const char *path)
{
  struct stat held;
  struct stat named;

  return fstat (fd, &held) != 0 || held.st_nlink == 0 || g_stat (path, &named) != 0 ||
         held.st_ino != named.st_ino || held.st_dev != named.st_dev;
}

int
_lode_project_lock_writer (LodeProject            *self,
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

  /* A lock file unlinked while this run waited: `lode remove` deleted the index. */
  if (is_unlinked (fd, path))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_INDEXED,
                   "the index of %s was removed while this run waited for it", self->root);
      close (fd);
      return -1;
    }

  pid = g_strdup_printf ("%d\n", (int) getpid ());
  if (ftruncate (fd, 0) != 0 || write (fd, pid, strlen (pid)) < 0)
    g_debug ("Cannot note the writer's pid in %s: %s", path, g_strerror (errno));

  return fd;
}

void
_lode_project_unlock_writer (int fd)
{
  if (ftruncate (fd, 0) != 0)
    g_debug ("Cannot clear the writer's pid: %s", g_strerror (errno));
  close (fd);
}

/* ---- Stopping another process's writer ------------------------------------------------ */

/* The pid of the writer holding the lock file @path, 0 when it is free. */
static int
held_by (const char *path)
{
  g_autofree char *text = NULL;
  int fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);
  int pid = 0;

  if (fd < 0)
    return 0;
  if (flock (fd, LOCK_SH | LOCK_NB) == 0)
    {
      close (fd);
      return 0;
    }
  close (fd);

  if (g_file_get_contents (path, &text, NULL, NULL))
    pid = atoi (text);
  return pid > 0 ? pid : -1;
}

/* The pid of a writer of an index of @dir (`lock`, `branch-NAME.lock`), 0 when none. */
int
_lode_project_find_writer (const char *dir)
{
  g_autoptr(GDir) listing = g_dir_open (dir, 0, NULL);
  const char *name;

  while (listing != NULL && (name = g_dir_read_name (listing)) != NULL)
    {
      g_autofree char *path = NULL;
      int pid;

      if (!g_str_equal (name, "lock") && !g_str_has_suffix (name, ".lock"))
        continue;
      path = g_build_filename (dir, name, NULL);
      if ((pid = held_by (path)) != 0)
        return pid;
    }
  return 0;
}

/**
 * _lode_project_stop_writers:
 * @dir: a project's index directory
 * @reason: "stop" or "remove", which the writer says when it stops
 * @cancellable: (nullable): a #GCancellable, for the wait
 * @pid: (out) (optional): the writer that was asked to stop, else 0
 * @error: return location for a #GError
 *
 * Asks the process writing an index of @dir (another `lode`, a daemon) to stop: a `stop`
 * file beside the lock names the reason and the asker, and the writer, which looks for it
 * every STOP_POLL_USEC (see _lode_project_stop_watch_new()), cancels its run. Waits until no
 * writer lock of @dir is held. Blocks.
 *
 * Returns: %FALSE with @error set when the writer did not stop in time (or the wait was
 *   cancelled); %TRUE otherwise, with @pid 0 when nothing was being written
 */
gboolean
_lode_project_stop_writers (const char    *dir,
                            const char    *reason,
                            GCancellable  *cancellable,
                            int           *pid,
                            GError       **error)
{
  g_autofree char *stop_path = g_build_filename (dir, "stop", NULL);
  g_autofree char *request = g_strdup_printf ("%s %d\n", reason, (int) getpid ());
  gint64 deadline = g_get_monotonic_time () + STOP_WAIT_USEC;
  int writer = _lode_project_find_writer (dir);
  gboolean ok = TRUE;

  if (pid != NULL)
    *pid = writer;
  if (writer == 0)
    return TRUE;

  g_debug ("Asking the writer of %s (pid %d) to stop: %s", dir, writer, reason);
  if (!g_file_set_contents (stop_path, request, -1, error))
    return FALSE;

  while (_lode_project_find_writer (dir) != 0)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          ok = FALSE;
          break;
        }
      if (g_get_monotonic_time () > deadline)
        {
          g_set_error (error, LODE_ERROR, LODE_ERROR_FAILED,
                       "the process writing the index (pid %d) did not stop within %d s",
                       writer, (int) (STOP_WAIT_USEC / G_USEC_PER_SEC));
          ok = FALSE;
          break;
        }
      g_usleep (STOP_POLL_USEC);
    }

  g_unlink (stop_path);
  return ok;
}

/**
 * _lode_project_lock_dir:
 * @dir: a project's index directory
 *
 * Takes the writer lock of @dir's main index for whoever removes the directory: deleted
 * under it, the lock file is found unlinked by a writer that waited for it, which then
 * stops (see _lode_project_lock_writer()) instead of writing into a removed index. Blocks.
 *
 * Returns: the lock's file descriptor (g_auto(LodeProjectLock)), or -1 when @dir has none
 */
int
_lode_project_lock_dir (const char *dir)
{
  g_autofree char *path = g_build_filename (dir, "lock", NULL);
  int fd = g_open (path, O_RDWR | O_CLOEXEC, 0);

  if (fd >= 0 && flock (fd, LOCK_EX) != 0)
    {
      close (fd);
      return -1;
    }
  return fd;
}

struct _LodeProjectStopWatch
{
  GCancellable          *cancellable;   /* the run's */
  GCancellable          *parent;
  gulong                 parent_handler;
  LodeIndexProgressFunc  progress;
  gpointer               progress_data;
  char                  *stop_path;
  gint64                 since_usec;    /* real time: older requests were for an earlier run */
  gint64                 next_check;    /* monotonic */
  char                  *request;       /* what the stop file said, once it was obeyed */
};

static void
stop_watch_parent_cancelled_cb (GCancellable *parent,
                                gpointer      user_data)
{
  g_cancellable_cancel (user_data);
}

/* The request in the stop file, when it is newer than the watch. */
static char *
read_request (LodeProjectStopWatch *watch)
{
  g_autofree char *text = NULL;
  GStatBuf st;

  if (g_stat (watch->stop_path, &st) != 0 ||
      (gint64) st.st_mtime * G_USEC_PER_SEC + st.st_mtim.tv_nsec / 1000 < watch->since_usec ||
      !g_file_get_contents (watch->stop_path, &text, NULL, NULL))
    return NULL;

  return g_strstrip (g_steal_pointer (&text));
}

/**
 * _lode_project_stop_watch_progress:
 * @progress: the run's progress
 * @user_data: the #LodeProjectStopWatch
 *
 * The progress function a watched run reports to (the indexer calls it for every file, the
 * embedding pass for every batch): at most every STOP_POLL_USEC it looks for a request to
 * stop, which cancels the run; then it hands @progress on.
 */
void
_lode_project_stop_watch_progress (const LodeIndexProgress *progress,
                                   gpointer                 user_data)
{
  LodeProjectStopWatch *watch = user_data;
  gint64 now = g_get_monotonic_time ();

  if (watch->request == NULL && now >= watch->next_check)
    {
      watch->next_check = now + STOP_POLL_USEC;
      if ((watch->request = read_request (watch)) != NULL)
        g_cancellable_cancel (watch->cancellable);
    }
  if (watch->progress != NULL)
    watch->progress (progress, watch->progress_data);
}

/**
 * _lode_project_stop_watch_new:
 * @self: the project whose index the caller writes, holding its lock
 * @parent: (nullable): the caller's #GCancellable
 * @progress: (nullable): the caller's progress function
 * @progress_data: data for @progress
 *
 * Watches for a request of another process to stop this run (_lode_project_stop_writers()).
 * The run uses its cancellable instead of @parent (either cancels it) and reports to
 * _lode_project_stop_watch_progress() with the watch instead of @progress.
 *
 * Returns: (transfer full): the watch, to free with _lode_project_stop_watch_free()
 */
LodeProjectStopWatch *
_lode_project_stop_watch_new (LodeProject           *self,
                              GCancellable          *parent,
                              LodeIndexProgressFunc  progress,
                              gpointer               progress_data)
{
  LodeProjectStopWatch *watch = g_new0 (LodeProjectStopWatch, 1);

  watch->cancellable = g_cancellable_new ();
  if (parent != NULL)
    {
      watch->parent = g_object_ref (parent);
      watch->parent_handler = g_cancellable_connect (parent,
                                                     G_CALLBACK (stop_watch_parent_cancelled_cb),
                                                     watch->cancellable, NULL);
    }
  watch->progress = progress;
  watch->progress_data = progress_data;
  watch->stop_path = g_build_filename (self->dir, "stop", NULL);
  watch->since_usec = g_get_real_time ();

  return watch;
}

GCancellable *
_lode_project_stop_watch_get_cancellable (LodeProjectStopWatch *watch)
{
  return watch->cancellable;
}

/**
 * _lode_project_stop_watch_explain:
 * @watch: a watch
 * @error: (inout): the run's error
 *
 * A cancellation another process asked for says who asked, and why.
 */
void
_lode_project_stop_watch_explain (LodeProjectStopWatch  *watch,
                                  GError               **error)
{
  g_auto(GStrv) words = NULL;

  if (watch->request == NULL || error == NULL ||
      !g_error_matches (*error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
      (watch->parent != NULL && g_cancellable_is_cancelled (watch->parent)))
    return;

  words = g_strsplit (watch->request, " ", 2);
  g_clear_error (error);
  if (g_str_equal (words[0], "remove"))
    g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_INDEXED,
                 "its index was removed by another process (lode remove, pid %s); "
                 "stopped", words[1] != NULL ? words[1] : "?");
  else
    g_set_error (error, LODE_ERROR, LODE_ERROR_CANCELLED,
                 "stopped by another process (lode stop, pid %s); what was indexed so "
                 "far is kept", words[1] != NULL ? words[1] : "?");
}

void
_lode_project_stop_watch_free (LodeProjectStopWatch *watch)
{
  if (watch->parent != NULL)
    g_cancellable_disconnect (watch->parent, watch->parent_handler);
  g_clear_object (&watch->parent);
  g_clear_object (&watch->cancellable);
  g_free (watch->stop_path);
  g_free (watch->request);
  g_free (watch);
}
