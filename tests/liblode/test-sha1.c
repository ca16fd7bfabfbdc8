/* test-sha1.c — a file's hash is git's blob id, a chunk's text key the SHA-1 GLib computes
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>

#include "lode-sha1.h"

/* Lengths around SHA-1's 64-byte blocks and the 55 bytes that still leave room for the
 * length in the last one, and files of a few pages. */
static const gsize lengths[] = { 0, 1, 3, 55, 56, 57, 63, 64, 65, 119, 120, 128, 4096, 65543 };

static char *
text_of_length (gsize len)
{
  static const char line[] = "static int déjà_vu (const char *é) { return 0x7f; }\r\n\t\0";
  char *text = g_malloc (len + 1);

  for (gsize i = 0; i < len; i++)
    text[i] = line[(i * 7 + i / 61) % (sizeof line - 1)];
  text[len] = '\0';
  return text;
}

/* What `git hash-object` says of each file: the index's file hashes match `git ls-tree`. */
static void
test_blob_id (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("lode-sha1-XXXXXX", &error);

  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (lengths); i++)
    {
      g_autofree char *text = text_of_length (lengths[i]);
      g_autofree char *path = g_build_filename (dir, "file", NULL);
      const char *argv[] = { "git", "hash-object", "--no-filters", path, NULL };
      g_autofree char *out = NULL;
      g_autofree char *id = NULL;
      int status;

      g_file_set_contents (path, text, lengths[i], &error);
      g_assert_no_error (error);
      g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                    NULL, NULL, &out, NULL, &status, &error);
      g_assert_no_error (error);
      g_spawn_check_wait_status (status, &error);
      g_assert_no_error (error);

      id = lode_git_blob_id (text, lengths[i]);
      g_strchomp (out);
      g_test_message ("%zu bytes: git %s, Lode %s", lengths[i], out, id);
      g_assert_cmpstr (id, ==, out);
      g_unlink (path);
    }
  g_rmdir (dir);
}

static void
test_string (void)
{
  g_autofree char *abc = lode_sha1_string ("abc", 3);

  /* FIPS 180-2's first example. */
  g_assert_cmpstr (abc, ==, "a9993e364706816aba3e25717850c26c9cd0d89d");
  for (guint i = 0; i < G_N_ELEMENTS (lengths); i++)
    {
      g_autofree char *text = text_of_length (lengths[i]);
      g_autofree char *glib = g_compute_checksum_for_data (G_CHECKSUM_SHA1,
                                                           (const guchar *) text, lengths[i]);
      g_autofree char *sha = lode_sha1_string (text, lengths[i]);

      g_assert_cmpstr (sha, ==, glib);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/lode/sha1/blob-id", test_blob_id);
  g_test_add_func ("/lode/sha1/string", test_string);

  return g_test_run ();
}
