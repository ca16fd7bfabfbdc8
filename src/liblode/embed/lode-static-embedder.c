/* lode-static-embedder.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-static-embedder"

#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "lode-code-tokenizer.h"
#include "lode-error.h"
#include "lode-sentencepiece.h"
#include "lode-static-embedder.h"
#include "lode-use.h"

/*
 * A static embedding model in the manner of Model2Vec, distilled from the Universal Sentence
 * Encoder Lite on the user's machine: each of its 8,000 pieces, encoded alone, gives a
 * 512-dimensional vector; the vectors are centred and projected on their first
 * LODE_STATIC_EMBEDDER_DIMS principal components, and each is weighted by its piece's
 * information (−log p of the unigram model), so that frequent pieces count less. A text's
 * vector is then the normalised sum of its pieces' rows: microseconds, where the encoder
 * itself would take milliseconds per chunk, so that every chunk of a large tree gets a vector
 * in the lexical pass's time.
 *
 * Code is read as words: identifiers are cut into their parts (`purgeStaleSessions` →
 * purge stale sessions) by the index's own tokenizer, and each word is cut into pieces
 * once (a cache of words), as SentencePiece cuts a word after a space.
 *
 * The table (4 MB) is computed once per model, in a few seconds, and kept in Lode's cache
 * (`$XDG_CACHE_HOME/lode/static/`), named by a hash of the model's files.
 */

#define TABLE_MAGIC   "LODESTV1"
/* Words of a text that count: a chunk has far fewer; a pasted file is cut. */
#define MAX_WORDS     8192
/* Distinct words whose pieces are kept; the cache starts over when full. */
#define MAX_CACHED    200000
/* Bytes of a word that count (a long run of digits or letters is not a word). */
#define MAX_WORD_BYTES 64
/* Reported as the input limit: a static model has none, and texts are never split. */
#define MAX_TOKENS    (1u << 20)

struct _LodeStaticEmbedder
{
  GObject            parent_instance;
  char              *model;
  LodeSentencepiece *tokenizer;
  float             *table;      /* vocab × LODE_STATIC_EMBEDDER_DIMS, weighted rows */
  guint              vocab;

  GMutex             lock;       /* guards words */
  GHashTable        *words;      /* word → GArray of gint32 piece ids */
};

static void lode_static_embedder_iface_init (LodeEmbedderInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (LodeStaticEmbedder, lode_static_embedder, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (LODE_TYPE_EMBEDDER,
                                                      lode_static_embedder_iface_init))

static void
lode_static_embedder_finalize (GObject *object)
{
  LodeStaticEmbedder *self = (LodeStaticEmbedder *)object;

  g_free (self->model);
  g_clear_pointer (&self->tokenizer, lode_sentencepiece_free);
  g_free (self->table);
  g_clear_pointer (&self->words, g_hash_table_unref);
  g_mutex_clear (&self->lock);

  G_OBJECT_CLASS (lode_static_embedder_parent_class)->finalize (object);
}

static void
lode_static_embedder_class_init (LodeStaticEmbedderClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = lode_static_embedder_finalize;
}

static void
lode_static_embedder_init (LodeStaticEmbedder *self)
{
  g_mutex_init (&self->lock);
  self->words = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                       (GDestroyNotify) g_array_unref);
}

/* ---- distillation ------------------------------------------------------------------------ */

/* Eigenvalues and eigenvectors of the symmetric @n × @n matrix @a (destroyed) by cyclic
 * Jacobi rotations: @vectors gets the eigenvectors as columns, @values the eigenvalues.
 * Each sweep visits every pair once; the sweeps are bounded. */
static void
jacobi_eigen (double *a,
              guint   n,
              double *vectors,
              double *values)
{
  for (guint i = 0; i < n; i++)
    for (guint j = 0; j < n; j++)
      vectors[(gsize) i * n + j] = i == j ? 1.0 : 0.0;

  for (guint sweep = 0; sweep < 64; sweep++)
    {
      double off = 0.0, total = 0.0;

      for (guint i = 0; i < n; i++)
        for (guint j = 0; j < n; j++)
          {
            double v = a[(gsize) i * n + j] * a[(gsize) i * n + j];

            total += v;
            if (i != j)
              off += v;
          }
      if (off <= 1e-22 * total)
        break;

      for (guint p = 0; p < n; p++)
        for (guint q = p + 1; q < n; q++)
          {
            double apq = a[(gsize) p * n + q];
            double app = a[(gsize) p * n + p];
            double aqq = a[(gsize) q * n + q];
            double theta, t, c, s;

            if (fabs (apq) < 1e-300)
              continue;
            theta = (aqq - app) / (2.0 * apq);
            t = (theta >= 0.0 ? 1.0 : -1.0) / (fabs (theta) + sqrt (theta * theta + 1.0));
            c = 1.0 / sqrt (t * t + 1.0);
            s = t * c;

            for (guint k = 0; k < n; k++)
              {
                double akp = a[(gsize) k * n + p];
                double akq = a[(gsize) k * n + q];

                a[(gsize) k * n + p] = c * akp - s * akq;
                a[(gsize) k * n + q] = s * akp + c * akq;
              }
            for (guint k = 0; k < n; k++)
              {
                double apk = a[(gsize) p * n + k];
                double aqk = a[(gsize) q * n + k];

                a[(gsize) p * n + k] = c * apk - s * aqk;
                a[(gsize) q * n + k] = s * apk + c * aqk;
              }
            for (guint k = 0; k < n; k++)
              {
                double vkp = vectors[(gsize) k * n + p];
                double vkq = vectors[(gsize) k * n + q];

                vectors[(gsize) k * n + p] = c * vkp - s * vkq;
                vectors[(gsize) k * n + q] = s * vkp + c * vkq;
              }
          }
    }

  for (guint i = 0; i < n; i++)
    values[i] = a[(gsize) i * n + i];
}

/* The weighted, projected piece table of the encoder (see the comment at the top). */
static float *
distill (LodeUse *use,
         guint   *vocab_out)
{
  LodeSentencepiece *tokenizer = lode_use_get_tokenizer (use);
  guint vocab = lode_sentencepiece_get_vocab_size (tokenizer);
  guint d = lode_use_get_dims (use);
  guint dims = LODE_STATIC_EMBEDDER_DIMS;
  g_autofree gint32 *ids = g_new (gint32, vocab);
  g_autofree float *vectors = g_new (float, (gsize) vocab * d);
  g_autofree double *mean = g_new0 (double, d);
  g_autofree double *cov = g_new0 (double, (gsize) d * d);
  g_autofree double *eigen = g_new (double, (gsize) d * d);
  g_autofree double *values = g_new (double, d);
  g_autofree guint *order = g_new (guint, d);
  float *table = g_new0 (float, (gsize) vocab * dims);
  /* The reserved pieces (unknown, <s>, …) are never a word's: their rows stay zero. */
  guint first = MIN (LODE_SENTENCEPIECE_RESERVED, vocab);

  for (guint i = 0; i < vocab; i++)
    ids[i] = i;
  lode_use_embed_pieces (use, ids + first, vocab - first, vectors + (gsize) first * d);

  for (guint i = first; i < vocab; i++)
    for (guint c = 0; c < d; c++)
      mean[c] += vectors[(gsize) i * d + c];
  for (guint c = 0; c < d; c++)
    mean[c] /= MAX (vocab - first, 1);
  for (guint i = first; i < vocab; i++)
    {
      g_autofree double *x = g_new (double, d);

      for (guint c = 0; c < d; c++)
        x[c] = vectors[(gsize) i * d + c] - mean[c];
      for (guint r = 0; r < d; r++)
        for (guint c = r; c < d; c++)
          cov[(gsize) r * d + c] += x[r] * x[c];
    }
  for (guint r = 0; r < d; r++)
    for (guint c = 0; c < r; c++)
      cov[(gsize) r * d + c] = cov[(gsize) c * d + r];

  jacobi_eigen (cov, d, eigen, values);

  /* The components by decreasing variance. */
  for (guint i = 0; i < d; i++)
    order[i] = i;
  for (guint i = 0; i < d; i++)
    for (guint j = i + 1; j < d; j++)
      if (values[order[j]] > values[order[i]])
        {
          guint t = order[i];

          order[i] = order[j];
          order[j] = t;
        }

  for (guint i = first; i < vocab; i++)
    {
      float weight = MAX (0.0f, -lode_sentencepiece_get_score (tokenizer, i));

      for (guint k = 0; k < dims && k < d; k++)
        {
          double dot = 0.0;

          for (guint c = 0; c < d; c++)
            dot += (vectors[(gsize) i * d + c] - mean[c]) * eigen[(gsize) c * d + order[k]];
          table[(gsize) i * dims + k] = weight * dot;
        }
    }

  *vocab_out = vocab;
  return table;
}

/* ---- the table's cache ------------------------------------------------------------------- */

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* The cache file of a model folder, named after the model's files (the contents of the
 * small ones, the size and time of the weights), so that another model gets another table. */
static char *
table_path (const char  *dir,
            GError     **error)
{
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  g_autoptr(GDir) listing = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *key = NULL;
  guint32 dims = LODE_STATIC_EMBEDDER_DIMS;
  const char *name;

  listing = g_dir_open (dir, 0, error);
  if (listing == NULL)
    return NULL;
  while ((name = g_dir_read_name (listing)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);

  g_checksum_update (sum, (const guchar *) TABLE_MAGIC, -1);
  g_checksum_update (sum, (const guchar *) &dims, sizeof dims);
  for (guint i = 0; i < names->len; i++)
    {
      const char *file = g_ptr_array_index (names, i);
      g_autofree char *path = g_build_filename (dir, file, NULL);
      GStatBuf st;

      if (g_stat (path, &st) != 0 || !S_ISREG (st.st_mode))
        continue;
      g_checksum_update (sum, (const guchar *) file, strlen (file) + 1);
      if (g_str_has_suffix (file, ".json"))
        {
          g_autofree char *contents = NULL;
          gsize length = 0;

          if (!g_file_get_contents (path, &contents, &length, error))
            return NULL;
          g_checksum_update (sum, (const guchar *) contents, length);
        }
      else
        {
          gint64 stamp[2] = { st.st_size, st.st_mtime };

          g_checksum_update (sum, (const guchar *) stamp, sizeof stamp);
        }
    }

  key = g_strndup (g_checksum_get_string (sum), 32);
  return g_build_filename (g_get_user_cache_dir (), "lode", "static", key, NULL);
}

/* The table in @path, or NULL when it is missing or not a table for @vocab pieces. */
static float *
read_table (const char *path,
            guint       vocab)
{
  g_autofree char *contents = NULL;
  gsize length = 0;
  gsize expected = 8 + 2 * sizeof (guint32) + (gsize) vocab * LODE_STATIC_EMBEDDER_DIMS * 4;
  guint32 header[2];

  if (!g_file_get_contents (path, &contents, &length, NULL) || length != expected ||
      memcmp (contents, TABLE_MAGIC, 8) != 0)
    return NULL;
  memcpy (header, contents + 8, sizeof header);
  if (header[0] != vocab || header[1] != LODE_STATIC_EMBEDDER_DIMS)
    return NULL;

  return g_memdup2 (contents + 8 + sizeof header, length - 8 - sizeof header);
}

/* Keeps the table for the next start; a cache that cannot be written only costs time. */
static void
write_table (const char  *path,
             const float *table,
             guint        vocab)
{
  g_autofree char *folder = g_path_get_dirname (path);
  g_autoptr(GByteArray) data = g_byte_array_new ();
  g_autoptr(GError) error = NULL;
  guint32 header[2] = { vocab, LODE_STATIC_EMBEDDER_DIMS };

  g_byte_array_append (data, (const guint8 *) TABLE_MAGIC, 8);
  g_byte_array_append (data, (const guint8 *) header, sizeof header);
  g_byte_array_append (data, (const guint8 *) table,
                       (gsize) vocab * LODE_STATIC_EMBEDDER_DIMS * sizeof (float));
  if (g_mkdir_with_parents (folder, 0700) != 0 ||
      !g_file_set_contents (path, (const char *) data->data, data->len, &error))
    g_debug ("Cannot keep the static vectors in %s: %s", path,
             error != NULL ? error->message : g_strerror (errno));
}

/**
 * lode_static_embedder_new:
 * @model: the model's name, which vectors are stored under (`use-lite`)
 * @dir: the folder of the Universal Sentence Encoder Lite (see lode_use_new())
 * @error: return location for a #GError
 *
 * Loads the static vectors of the encoder in @dir, distilling them first (a few seconds)
 * when Lode's cache does not hold them yet.
 *
 * Returns: (transfer full) (nullable): the embedder, or %NULL with @error set
 *   (%LODE_ERROR_EMBEDDER: the model's files are missing or not the encoder's)
 */
LodeEmbedder *
lode_static_embedder_new (const char  *model,
                          const char  *dir,
                          GError     **error)
{
  g_autoptr(LodeStaticEmbedder) self = NULL;
  g_autofree char *vocab_path = NULL;
  g_autofree char *cache = NULL;

  g_return_val_if_fail (model != NULL, NULL);
  g_return_val_if_fail (dir != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_object_new (LODE_TYPE_STATIC_EMBEDDER, NULL);
  self->model = g_strdup (model);
  vocab_path = g_build_filename (dir, "vocab.json", NULL);
  self->tokenizer = lode_sentencepiece_new_from_file (vocab_path, error);
  if (self->tokenizer == NULL)
    return NULL;
  self->vocab = lode_sentencepiece_get_vocab_size (self->tokenizer);

  cache = table_path (dir, error);
  if (cache == NULL)
    return NULL;
  self->table = read_table (cache, self->vocab);
  if (self->table == NULL)
    {
      g_autoptr(LodeUse) use = lode_use_new (dir, error);
      guint vocab = 0;

      if (use == NULL)
        return NULL;
      g_debug ("Distilling static vectors from %s", dir);
      self->table = distill (use, &vocab);
      g_assert (vocab == self->vocab);
      write_table (cache, self->table, self->vocab);
    }

  return LODE_EMBEDDER (g_steal_pointer (&self));
}

/* ---- embedding --------------------------------------------------------------------------- */

typedef struct
{
  LodeStaticEmbedder *self;
  double             *sum;
  char               *pending;   /* the last whole token, kept until we know it has no parts */
  guint               n_words;
} Words;

static void
add_pieces (Words  *w,
            GArray *ids)
{
  for (guint i = 0; i < ids->len; i++)
    {
      gint32 id = g_array_index (ids, gint32, i);
      const float *row;

      if (id < 0 || (guint) id >= w->self->vocab)
        continue;
      row = w->self->table + (gsize) id * LODE_STATIC_EMBEDDER_DIMS;
      for (guint c = 0; c < LODE_STATIC_EMBEDDER_DIMS; c++)
        w->sum[c] += row[c];
    }
}

/* Adds the pieces of @word to the sum; a word longer than MAX_WORD_BYTES counts by its
 * start. */
static void
add_word (Words      *w,
          const char *word)
{
  LodeStaticEmbedder *self = w->self;
  g_autofree char *cut = NULL;
  GArray *ids;

  if (w->n_words++ >= MAX_WORDS)
    return;
  if (strlen (word) > MAX_WORD_BYTES)
    word = cut = g_utf8_make_valid (word, MAX_WORD_BYTES);

  g_mutex_lock (&self->lock);
  ids = g_hash_table_lookup (self->words, word);
  if (ids != NULL)
    g_array_ref (ids);
  g_mutex_unlock (&self->lock);

  if (ids == NULL)
    {
      ids = g_array_new (FALSE, FALSE, sizeof (gint32));
      lode_sentencepiece_encode (self->tokenizer, word, -1, ids);
      g_mutex_lock (&self->lock);
      if (g_hash_table_size (self->words) >= MAX_CACHED)
        g_hash_table_remove_all (self->words);
      g_hash_table_replace (self->words, g_strdup (word), g_array_ref (ids));
      g_mutex_unlock (&self->lock);
    }

  add_pieces (w, ids);
  g_array_unref (ids);
}

/* The index's tokenizer gives a compound identifier whole, then its parts (colocated): the
 * parts are the words, the whole counts only when it has none. */
static gboolean
word_cb (const char *token,
         gsize       len,
         gsize       start,
         gsize       end,
         gboolean    colocated,
         gpointer    user_data)
{
  Words *w = user_data;

  if (!colocated && w->pending != NULL)
    add_word (w, w->pending);
  g_clear_pointer (&w->pending, g_free);

  if (colocated)
    {
      g_autofree char *part = g_strndup (token, len);

      add_word (w, part);
    }
  else
    w->pending = g_strndup (token, len);

  return w->n_words < MAX_WORDS;
}

/**
 * lode_static_embedder_embed:
 * @self: a #LodeStaticEmbedder
 * @text: UTF-8 text
 * @out: room for %LODE_STATIC_EMBEDDER_DIMS floats: the text's vector, of length 1
 *
 * Embeds @text at once, on the calling thread.
 */
void
lode_static_embedder_embed (LodeStaticEmbedder *self,
                            const char         *text,
                            float              *out)
{
  double sum[LODE_STATIC_EMBEDDER_DIMS] = { 0 };
  Words w = { self, sum, NULL, 0 };
  double norm = 0.0;

  g_return_if_fail (LODE_IS_STATIC_EMBEDDER (self));
  g_return_if_fail (text != NULL);
  g_return_if_fail (out != NULL);

  lode_code_tokenize (text, strlen (text), LODE_TOKENIZE_SPLIT, word_cb, &w);
  if (w.pending != NULL)
    add_word (&w, w.pending);
  g_free (w.pending);

  /* Text without words (punctuation, a blank chunk) is cut into pieces as it stands;
   * nothing at all gets the first axis, so that every text has a vector of length 1. */
  for (guint c = 0; c < LODE_STATIC_EMBEDDER_DIMS; c++)
    norm += sum[c] * sum[c];
  if (norm == 0.0)
    {
      g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint32));

      lode_sentencepiece_encode (self->tokenizer, text, MIN (strlen (text), 4096), ids);
      add_pieces (&w, ids);
      for (guint c = 0; c < LODE_STATIC_EMBEDDER_DIMS; c++)
        norm += sum[c] * sum[c];
    }
  if (norm == 0.0)
    {
      sum[0] = 1.0;
      norm = 1.0;
    }

  norm = 1.0 / sqrt (norm);
  for (guint c = 0; c < LODE_STATIC_EMBEDDER_DIMS; c++)
    out[c] = sum[c] * norm;
}

static void
lode_static_embedder_embed_async (LodeEmbedder        *embedder,
                                  const char * const  *texts,
                                  LodeEmbedPurpose     purpose,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  LodeStaticEmbedder *self = LODE_STATIC_EMBEDDER (embedder);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  guint n = g_strv_length ((char **) texts);
  LodeEmbeddings *embeddings;

  g_task_set_source_tag (task, lode_static_embedder_embed_async);
  if (g_task_return_error_if_cancelled (task))
    return;

  /* A sum of table rows per text: less work than a thread hop. */
  embeddings = lode_embeddings_new (n, LODE_STATIC_EMBEDDER_DIMS);
  for (guint i = 0; i < n; i++)
    lode_static_embedder_embed (self, texts[i],
                                embeddings->data + (gsize) i * LODE_STATIC_EMBEDDER_DIMS);
  g_task_return_pointer (task, embeddings, (GDestroyNotify) lode_embeddings_free);
}

static LodeEmbeddings *
lode_static_embedder_embed_finish (LodeEmbedder  *embedder,
                                   GAsyncResult  *result,
                                   GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, embedder), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static const char *
lode_static_embedder_get_model (LodeEmbedder *embedder)
{
  return LODE_STATIC_EMBEDDER (embedder)->model;
}

static guint
lode_static_embedder_get_dims (LodeEmbedder *embedder)
{
  return LODE_STATIC_EMBEDDER_DIMS;
}

static guint
lode_static_embedder_get_max_tokens (LodeEmbedder *embedder)
{
  return MAX_TOKENS;
}

static void
lode_static_embedder_iface_init (LodeEmbedderInterface *iface)
{
  iface->get_model = lode_static_embedder_get_model;
  iface->get_dims = lode_static_embedder_get_dims;
  iface->get_max_tokens = lode_static_embedder_get_max_tokens;
  iface->embed_async = lode_static_embedder_embed_async;
  iface->embed_finish = lode_static_embedder_embed_finish;
}
