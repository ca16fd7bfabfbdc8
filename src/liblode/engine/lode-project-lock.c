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
#include <unistd.h>

#include <glib/gstdio.h>

#include "lode-project-private.h"

/* Another process may be indexing the same tree (a `lode --no-daemon` run, another daemon's
 * engine): the lock file beside the index admits one writer at a time. The holder's pid is
 * in the file, so that the one who waits can say for whom. */
#define LOCK_POLL_USEC (100 * 1000)

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
