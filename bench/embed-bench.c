/* embed-bench.c — throughput of the built-in BERT encoder
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "embed-bench"

#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>

#include "lode-bert.h"
#include "lode-wordpiece.h"

/*
 * Runs the encoder of a model folder on batches of B sequences of S tokens and prints the
 * mean time per batch and tokens per second, in the same shapes, with the same token ids and
 * in the same format as ../shared/tools/bench.mjs prints for onnxruntime-node, so that
 * bench/embed-bench.sh can put both side by side. One warm-up batch, then --repeat batches.
 * Never a pass/fail test; see bench/README.md.
 */

static int opt_repeat = 5;
static char *opt_shapes;
static char *opt_pooling;
static char *opt_tokenizer;
static char *opt_text;

static const GOptionEntry entries[] = {
  { "repeat", 'r', 0, G_OPTION_ARG_INT, &opt_repeat,
    "Timed batches per shape after one warm-up (default: 5)", "N" },
  { "shapes", 's', 0, G_OPTION_ARG_STRING, &opt_shapes,
    "Comma-separated BxS shapes (default: 1x32,1x128,8x128,4x256,1x512)", "LIST" },
  { "pooling", 'p', 0, G_OPTION_ARG_STRING, &opt_pooling,
    "mean or cls (default: mean)", "POOLING" },
  { "tokenizer", 't', 0, G_OPTION_ARG_FILENAME, &opt_tokenizer,
    "Instead, time the WordPiece tokenizer of the model folder DIR on --text", "DIR" },
  { "text", 0, 0, G_OPTION_ARG_FILENAME, &opt_text,
    "The UTF-8 text file for --tokenizer", "FILE" },
  { NULL }
};

static gboolean
run_shape (LodeBert    *bert,
           const char  *label,
           guint        batch,
           guint        seq_len,
           LodePooling  pooling,
           GError     **error)
{
  gsize n = (gsize) batch * seq_len;
  g_autofree gint32 *ids = g_new (gint32, n);
  g_autofree const gint32 **rows = g_new (const gint32 *, batch);
  g_autofree guint *lengths = g_new (guint, batch);
  g_autofree float *out = g_new (float, (gsize) batch * lode_bert_get_dims (bert));
  gint64 start;
  double ms;

  /* The ids bench.mjs uses. */
  for (gsize i = 0; i < n; i++)
    ids[i] = 1000 + (gint32) ((i * 7919) % 20000);
  for (guint b = 0; b < batch; b++)
    {
      rows[b] = ids + (gsize) b * seq_len;
      lengths[b] = seq_len;
    }

  if (!lode_bert_embed (bert, batch, rows, lengths, pooling, out, NULL, error))
    return FALSE;

  start = g_get_monotonic_time ();
  for (int r = 0; r < opt_repeat; r++)
    if (!lode_bert_embed (bert, batch, rows, lengths, pooling, out, NULL, error))
      return FALSE;
  ms = (g_get_monotonic_time () - start) / 1000.0 / opt_repeat;

  g_print ("%s B=%u S=%u: %.1f ms/batch, %.0f tokens/s\n", label, batch, seq_len, ms,
           n / ms * 1000.0);
  return TRUE;
}

/* Tokenizes the file line by line (as chunks of code would be), --repeat times. */
static int
run_tokenizer (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeWordpiece) wordpiece = lode_wordpiece_new_from_dir (opt_tokenizer, &error);
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint32));
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  gsize length = 0;
  gsize pieces = 0;
  gint64 start;
  double seconds;

  if (wordpiece == NULL || !g_file_get_contents (opt_text, &contents, &length, &error))
    {
      g_printerr ("embed-bench: %s\n", error->message);
      return 1;
    }

  lines = g_strsplit (contents, "\n", -1);
  start = g_get_monotonic_time ();
  for (int r = 0; r < opt_repeat; r++)
    for (guint i = 0; lines[i] != NULL; i++)
      {
        g_array_set_size (ids, 0);
        if (!lode_wordpiece_tokenize (wordpiece, lines[i], 0, ids, NULL, &error))
          {
            g_printerr ("embed-bench: line %u: %s\n", i + 1, error->message);
            return 1;
          }
        pieces += ids->len;
      }
  seconds = (g_get_monotonic_time () - start) / 1e6;

  g_print ("tokenizer: %.1f MB in %.3f s, %.1f MB/s, %.0f pieces/s\n",
           length * opt_repeat / 1e6, seconds, length * opt_repeat / 1e6 / seconds,
           pieces / seconds);
  return 0;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeBert) bert = NULL;
  g_auto(GStrv) shapes = NULL;
  g_autofree char *label = NULL;
  LodePooling pooling = LODE_POOLING_MEAN;

  setlocale (LC_ALL, "");
  context = g_option_context_new ("MODEL_DIR");
  g_option_context_set_summary (context, "Time the built-in encoder on a model folder "
                                "(config.json + model.safetensors).");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || opt_repeat < 1)
    {
      g_printerr ("embed-bench: %s\n", error != NULL ? error->message : "--repeat must be ≥ 1");
      return 2;
    }
  if (opt_tokenizer != NULL && opt_text != NULL)
    return run_tokenizer ();
  if (argc != 2)
    {
      g_printerr ("embed-bench: expected one MODEL_DIR, or --tokenizer DIR --text FILE\n");
      return 2;
    }
  if (g_strcmp0 (opt_pooling, "cls") == 0)
    pooling = LODE_POOLING_CLS;

  bert = lode_bert_new (argv[1], &error);
  if (bert == NULL)
    {
      g_printerr ("embed-bench: %s\n", error->message);
      return 1;
    }

  label = g_path_get_basename (argv[1]);
  shapes = g_strsplit (opt_shapes != NULL ? opt_shapes : "1x32,1x128,8x128,4x256,1x512", ",", -1);
  for (guint i = 0; shapes[i] != NULL; i++)
    {
      guint batch = 0;
      guint seq_len = 0;

      if (sscanf (shapes[i], "%ux%u", &batch, &seq_len) != 2 || batch == 0 || batch > 1024 ||
          seq_len == 0)
        {
          g_printerr ("embed-bench: bad shape “%s” (expected BxS, e.g. 8x128)\n", shapes[i]);
          return 2;
        }
      if (!run_shape (bert, label, batch, seq_len, pooling, &error))
        {
          g_printerr ("embed-bench: %s\n", error->message);
          return 1;
        }
    }

  return 0;
}
