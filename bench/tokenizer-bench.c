/* tokenizer-bench.c — the code tokenizer over a tree: its CPU time and what it gives
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Usage: tokenizer-bench [--rounds N] FILE-LIST
 *
 * FILE-LIST names one file per line (`find TREE -type f -size -1024k > list`). Each file is
 * read once, then tokenized as the FTS5 index's documents are (LODE_TOKENIZE_SPLIT) N times
 * (default 5); prints the tokens' count and SHA-256 (token, offsets, colocation), whole mode
 * included, so that two builds can be shown to give the same tokens, then the thread CPU
 * time of each round.
 */

#include "config.h"

#include <stdio.h>
#include <time.h>

#include "lode-code-tokenizer.h"

typedef struct
{
  GChecksum *sum;
  guint64    n;
} Digest;

static gboolean
digest_cb (const char *token,
           gsize       len,
           gsize       start,
           gsize       end,
           gboolean    colocated,
           gpointer    user_data)
{
  Digest *digest = user_data;
  guint64 record[3] = { start, end, colocated };

  g_checksum_update (digest->sum, (const guchar *) token, len);
  g_checksum_update (digest->sum, (const guchar *) record, sizeof record);
  digest->n++;
  return TRUE;
}

static gboolean
count_cb (const char *token,
          gsize       len,
          gsize       start,
          gsize       end,
          gboolean    colocated,
          gpointer    user_data)
{
  (*(guint64 *) user_data)++;
  return TRUE;
}

static double
thread_cpu (void)
{
  struct timespec now;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &now);
  return now.tv_sec + now.tv_nsec / 1e9;
}

int
main (int    argc,
      char **argv)
{
  int rounds = 5;
  GOptionEntry entries[] = {
    { "rounds", 'r', 0, G_OPTION_ARG_INT, &rounds, "Timed rounds", "N" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("FILE-LIST");
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autofree char *list = NULL;
  g_auto(GStrv) paths = NULL;
  Digest digest = { g_checksum_new (G_CHECKSUM_SHA256), 0 };
  guint64 bytes = 0;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc != 2 ||
      !g_file_get_contents (argv[1], &list, NULL, &error))
    {
      g_printerr ("tokenizer-bench: %s\n", error != NULL ? error->message : "one FILE-LIST");
      return 2;
    }

  paths = g_strsplit (list, "\n", -1);
  for (guint i = 0; paths[i] != NULL; i++)
    {
      char *contents;
      gsize len;

      if (*paths[i] == '\0')
        continue;
      if (!g_file_get_contents (paths[i], &contents, &len, &error))
        {
          g_printerr ("tokenizer-bench: %s\n", error->message);
          return 1;
        }
      g_ptr_array_add (texts, g_bytes_new_take (contents, len));
      bytes += len;
    }

  for (guint i = 0; i < texts->len; i++)
    {
      gsize len;
      const char *text = g_bytes_get_data (g_ptr_array_index (texts, i), &len);

      lode_code_tokenize (text, len, LODE_TOKENIZE_SPLIT, digest_cb, &digest);
      lode_code_tokenize (text, len, LODE_TOKENIZE_WHOLE, digest_cb, &digest);
    }
  printf ("%u files, %" G_GUINT64_FORMAT " bytes: %" G_GUINT64_FORMAT " tokens, sha256 %s\n",
          texts->len, bytes, digest.n, g_checksum_get_string (digest.sum));
  g_checksum_free (digest.sum);

  for (int r = 0; r < rounds; r++)
    {
      double start = thread_cpu ();
      guint64 n = 0;

      for (guint i = 0; i < texts->len; i++)
        {
          gsize len;
          const char *text = g_bytes_get_data (g_ptr_array_index (texts, i), &len);

          lode_code_tokenize (text, len, LODE_TOKENIZE_SPLIT, count_cb, &n);
        }
      printf ("round %d: %.3f s of CPU, %" G_GUINT64_FORMAT " tokens\n", r + 1,
              thread_cpu () - start, n);
    }

  return 0;
}
