/* lode-model-pull.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-model-pull"

#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <libsoup/soup.h>

#include "lode-error.h"
#include "lode-model-pull.h"

#define DEFAULT_ENDPOINT "https://huggingface.co"
#define READ_SIZE (256 * 1024)

typedef struct
{
  const LodeModelInfo   *info;
  char                  *dest_dir;
  char                  *endpoint;
  LodeModelPullFlags     flags;
  LodeModelPullProgress  progress;
  gpointer               progress_data;
  GMainContext          *context;

  /* Progress, coalesced: the worker overwrites these, one idle on the caller's context
   * reports the latest values. */
  GMutex                 lock;
  const char            *pending_file;
  guint64                pending_received;
  guint64                pending_total;
  gboolean               pending_scheduled;
} PullData;

static void
pull_data_free (PullData *data)
{
  g_free (data->dest_dir);
  g_free (data->endpoint);
  g_main_context_unref (data->context);
  g_mutex_clear (&data->lock);
  g_free (data);
}

static gboolean
report_progress_cb (gpointer user_data)
{
  GTask *task = user_data;
  PullData *data = g_task_get_task_data (task);
  const char *file;
  guint64 received, total;

  g_mutex_lock (&data->lock);
  file = data->pending_file;
  received = data->pending_received;
  total = data->pending_total;
  data->pending_scheduled = FALSE;
  g_mutex_unlock (&data->lock);

  data->progress (file, received, total, data->progress_data);
  return G_SOURCE_REMOVE;
}

/* Runs on the worker thread. */
static void
post_progress (GTask      *task,
               PullData   *data,
               const char *file,
               guint64     received,
               guint64     total)
{
  gboolean schedule;

  if (data->progress == NULL)
    return;

  g_mutex_lock (&data->lock);
  data->pending_file = file;
  data->pending_received = received;
  data->pending_total = total;
  schedule = !data->pending_scheduled;
  data->pending_scheduled = TRUE;
  g_mutex_unlock (&data->lock);

  if (schedule)
    g_main_context_invoke_full (data->context, G_PRIORITY_DEFAULT, report_progress_cb,
                                g_object_ref (task), g_object_unref);
}

/* Runs on the worker thread. */
static char *
file_sha256 (const char  *path,
             GError     **error)
{
  g_autoptr(GChecksum) checksum = g_checksum_new (G_CHECKSUM_SHA256);
  g_autofree guchar *buffer = g_malloc (READ_SIZE);
  FILE *fp = fopen (path, "rb");
  size_t n;

  if (fp == NULL)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "Cannot read %s: %s",
                   path, g_strerror (saved));
      return NULL;
    }

  while ((n = fread (buffer, 1, READ_SIZE, fp)) > 0)
    g_checksum_update (checksum, buffer, n);

  if (ferror (fp))
    {
      fclose (fp);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "Cannot read %s", path);
      return NULL;
    }

  fclose (fp);
  return g_strdup (g_checksum_get_string (checksum));
}

static gboolean
hash_matches (const LodeModelFile *file,
              const char          *path,
              gboolean             verify,
              GError             **error)
{
  g_autofree char *digest = NULL;

  if (!verify)
    return TRUE;

  digest = file_sha256 (path, error);
  if (digest == NULL)
    return FALSE;

  if (g_ascii_strcasecmp (digest, file->sha256) != 0)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                   "SHA-256 mismatch for %s: expected %s, got %s", file->name, file->sha256,
                   digest);
      return FALSE;
    }

  return TRUE;
}

/* Parses "bytes START-END/TOTAL". */
static gboolean
parse_content_range (const char *value,
                     guint64    *start,
                     guint64    *total)
{
  guint64 end;

  *total = 0;
  if (value == NULL)
    return FALSE;
  if (sscanf (value, "bytes %" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT,
              start, &end, total) == 3)
    return TRUE;
  return sscanf (value, "bytes %" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT, start, &end) == 2;
}

/* Runs on the worker thread. Downloads one file into FILE.part (appending to what an earlier
 * attempt left there), checks it, then renames it into place. */
static gboolean
pull_file (GTask               *task,
           PullData            *data,
           SoupSession         *session,
           const LodeModelFile *file,
           GCancellable        *cancellable,
           GError             **error)
{
  gboolean verify = (data->flags & LODE_MODEL_PULL_NO_VERIFY) == 0;
  g_autofree char *final = g_build_filename (data->dest_dir, file->name, NULL);
  g_autofree char *part = g_strconcat (final, ".part", NULL);
  g_autofree char *url = NULL;
  g_autoptr(SoupMessage) message = NULL;
  g_autoptr(GInputStream) stream = NULL;
  g_autofree guchar *buffer = NULL;
  g_autoptr(GError) local_error = NULL;
  GStatBuf st;
  guint64 offset = 0;
  guint64 total = file->size;
  guint status;
  FILE *fp;

  if (verify && file->sha256 == NULL)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                   "No verified SHA-256 is known for %s of %s; refusing to download it "
                   "unchecked (pass --no-verify to accept it anyway)",
                   file->name, data->info->name);
      return FALSE;
    }

  if (g_file_test (final, G_FILE_TEST_IS_REGULAR))
    {
      if (hash_matches (file, final, verify, &local_error))
        {
          post_progress (task, data, file->name, file->size, file->size);
          return TRUE;
        }
      g_debug ("Replacing %s: %s", final, local_error->message);
      g_clear_error (&local_error);
      g_unlink (final);
    }

  if (g_stat (part, &st) == 0 && S_ISREG (st.st_mode))
    offset = st.st_size;

  url = g_strdup_printf ("%s/%s/resolve/%s/%s", data->endpoint, data->info->hf_repo,
                         data->info->revision, file->name);
  message = soup_message_new (SOUP_METHOD_GET, url);
  if (message == NULL)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT, "Invalid download URL %s", url);
      return FALSE;
    }
  if (offset > 0)
    soup_message_headers_set_range (soup_message_get_request_headers (message), offset, -1);

  stream = soup_session_send (session, message, cancellable, error);
  if (stream == NULL)
    {
      g_prefix_error (error, "Cannot download %s: ", url);
      return FALSE;
    }

  status = soup_message_get_status (message);
  if (status == SOUP_STATUS_REQUESTED_RANGE_NOT_SATISFIABLE && offset > 0)
    {
      /* The part file already holds everything the server has. */
      g_input_stream_close (stream, NULL, NULL);
      g_clear_object (&stream);
    }
  else if (status == SOUP_STATUS_PARTIAL_CONTENT && offset > 0)
    {
      guint64 start;
      const char *range = soup_message_headers_get_one (soup_message_get_response_headers (message),
                                                        "Content-Range");

      if (!parse_content_range (range, &start, &total) || start != offset)
        {
          g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                       "Cannot resume %s: the server answered with range “%s”", url,
                       range != NULL ? range : "");
          g_unlink (part);
          return FALSE;
        }
    }
  else if (status == SOUP_STATUS_OK)
    {
      goffset length = soup_message_headers_get_content_length (soup_message_get_response_headers (message));

      /* The server ignored the range: start over. */
      offset = 0;
      if (length > 0)
        total = length;
    }
  else
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER, "Cannot download %s: HTTP %u %s", url,
                   status, soup_message_get_reason_phrase (message));
      return FALSE;
    }

  if (stream != NULL)
    {
      fp = fopen (part, offset > 0 ? "ab" : "wb");
      if (fp == NULL)
        {
          int saved = errno;

          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "Cannot write %s: %s",
                       part, g_strerror (saved));
          return FALSE;
        }

      buffer = g_malloc (READ_SIZE);
      for (;;)
        {
          gssize n = g_input_stream_read (stream, buffer, READ_SIZE, cancellable, &local_error);

          if (n < 0 || (n > 0 && fwrite (buffer, 1, n, fp) != (size_t) n))
            {
              /* What arrived stays in the part file for the next attempt. */
              fclose (fp);
              if (local_error != NULL)
                {
                  g_propagate_prefixed_error (error, g_steal_pointer (&local_error),
                                              "Download of %s interrupted: ", url);
                }
              else
                g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "Cannot write %s", part);
              return FALSE;
            }
          if (n == 0)
            break;
          offset += n;
          post_progress (task, data, file->name, offset, total);
        }

      if (fflush (fp) != 0 || fsync (fileno (fp)) != 0)
        {
          int saved = errno;

          fclose (fp);
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "Cannot write %s: %s",
                       part, g_strerror (saved));
          return FALSE;
        }
      fclose (fp);
    }

  if (!hash_matches (file, part, verify, error))
    {
      /* A wrong file is never kept, neither installed nor resumed from. */
      g_unlink (part);
      g_prefix_error (error, "Refusing %s: ", url);
      return FALSE;
    }

  if (g_rename (part, final) != 0)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "Cannot rename %s: %s",
                   part, g_strerror (saved));
      return FALSE;
    }

  return TRUE;
}

static void
lode_model_pull_worker (GTask        *task,
                        gpointer      source_object,
                        gpointer      task_data,
                        GCancellable *cancellable)
{
  PullData *data = task_data;
  g_autoptr(SoupSession) session = NULL;
  g_autofree char *user_agent = g_strdup_printf ("lode/%s", PACKAGE_VERSION);
  GError *error = NULL;

  if (g_mkdir_with_parents (data->dest_dir, 0755) != 0)
    {
      int saved = errno;

      g_task_return_new_error (task, G_IO_ERROR, g_io_error_from_errno (saved),
                               "Cannot create %s: %s", data->dest_dir, g_strerror (saved));
      return;
    }

  session = soup_session_new_with_options ("timeout", 60, "user-agent", user_agent, NULL);
  for (guint i = 0; i < LODE_MODEL_MAX_FILES && data->info->files[i].name != NULL; i++)
    {
      if (!pull_file (task, data, session, &data->info->files[i], cancellable, &error))
        {
          g_task_return_error (task, error);
          return;
        }
    }

  g_task_return_boolean (task, TRUE);
}

/**
 * lode_model_pull_async:
 * @info: the model; must stay valid until @callback runs (entries of the known-model table do)
 * @dest_dir: (nullable): where to put the files, by default `$XDG_CACHE_HOME/lode/models/NAME`
 * @flags: %LODE_MODEL_PULL_NO_VERIFY accepts files whose hash is unknown or wrong
 * @progress: (nullable) (scope notified): called as bytes arrive
 * @progress_data: data for @progress
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when every file is installed, or on the first failure
 * @user_data: data for @callback
 *
 * Downloads the files of @info from `$LODE_HF_ENDPOINT` (default https://huggingface.co),
 * `ENDPOINT/REPO/resolve/REVISION/FILE`. Each file goes to `FILE.part` first; an interrupted
 * download resumes from there with a Range request. A file is renamed into place only once
 * its SHA-256 matches the pinned value. Files already in place and intact are kept.
 */
void
lode_model_pull_async (const LodeModelInfo   *info,
                       const char            *dest_dir,
                       LodeModelPullFlags     flags,
                       LodeModelPullProgress  progress,
                       gpointer               progress_data,
                       GCancellable          *cancellable,
                       GAsyncReadyCallback    callback,
                       gpointer               user_data)
{
  g_autoptr(GTask) task = NULL;
  PullData *data;
  const char *endpoint = g_getenv ("LODE_HF_ENDPOINT");

  g_return_if_fail (info != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  data = g_new0 (PullData, 1);
  data->info = info;
  if (dest_dir != NULL)
    data->dest_dir = g_strdup (dest_dir);
  else
    {
      g_autofree char *cache = lode_models_dup_cache_dir ();

      data->dest_dir = g_build_filename (cache, info->name, NULL);
    }
  data->endpoint = g_strdup (endpoint != NULL && *endpoint != '\0' ? endpoint : DEFAULT_ENDPOINT);
  while (g_str_has_suffix (data->endpoint, "/"))
    data->endpoint[strlen (data->endpoint) - 1] = '\0';
  data->flags = flags;
  data->progress = progress;
  data->progress_data = progress_data;
  data->context = g_main_context_ref_thread_default ();
  g_mutex_init (&data->lock);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, lode_model_pull_async);
  g_task_set_task_data (task, data, (GDestroyNotify) pull_data_free);
  g_task_run_in_thread (task, lode_model_pull_worker);
}

gboolean
lode_model_pull_finish (GAsyncResult  *result,
                        GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
