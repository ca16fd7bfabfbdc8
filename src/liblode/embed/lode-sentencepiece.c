/* lode-sentencepiece.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-sentencepiece"

#include "config.h"

#include <string.h>

#include "lode-error.h"
#include "lode-json.h"
#include "lode-sentencepiece.h"

#define UNKNOWN_ID 0

/* "▁", which stands for a space and starts the text. */
#define SEPARATOR     "\xe2\x96\x81"
#define SEPARATOR_LEN 3

/* The pieces are kept as a byte trie: node 0 is the root, a child is found by the pair
 * (parent, byte) in @children, and @node_piece says which piece ends at a node (-1: none). */
struct _LodeSentencepiece
{
  GPtrArray  *pieces;      /* id → piece */
  GArray     *scores;      /* id → float log probability */
  GHashTable *children;    /* (parent << 8 | byte) → child node */
  GArray     *node_piece;  /* node → gint32 piece id or -1 */
};

static guint
trie_child (LodeSentencepiece *self,
            guint              node,
            guchar             byte)
{
  gsize key = ((gsize) node << 8) | byte;

  return GPOINTER_TO_UINT (g_hash_table_lookup (self->children, GSIZE_TO_POINTER (key)));
}

static void
trie_insert (LodeSentencepiece *self,
             const char        *piece,
             gint32             id)
{
  guint node = 0;

  for (const guchar *p = (const guchar *) piece; *p != '\0'; p++)
    {
      guint child = trie_child (self, node, *p);

      if (child == 0)
        {
          gint32 none = -1;
          gsize key = ((gsize) node << 8) | *p;

          child = self->node_piece->len;
          g_array_append_val (self->node_piece, none);
          g_hash_table_insert (self->children, GSIZE_TO_POINTER (key), GUINT_TO_POINTER (child));
        }
      node = child;
    }
  g_array_index (self->node_piece, gint32, node) = id;
}

/**
 * lode_sentencepiece_new_from_data:
 * @json: the vocabulary, a JSON array of `[piece, score]` pairs in id order (TensorFlow.js'
 *   `vocab.json`)
 * @length: its length in bytes, or -1 if nul-terminated
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the tokenizer, or %NULL with @error set
 */
LodeSentencepiece *
lode_sentencepiece_new_from_data (const char  *json,
                                  gssize       length,
                                  GError     **error)
{
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(LodeSentencepiece) self = NULL;
  JsonArray *array;
  gint32 none = -1;

  root = lode_json_parse (json, length, error);
  if (root == NULL)
    return NULL;
  if (!JSON_NODE_HOLDS_ARRAY (root) ||
      json_array_get_length (json_node_get_array (root)) <= LODE_SENTENCEPIECE_RESERVED)
    {
      g_set_error_literal (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                           "The vocabulary is not an array of [piece, score] pairs");
      return NULL;
    }
  array = json_node_get_array (root);

  self = g_new0 (LodeSentencepiece, 1);
  self->pieces = g_ptr_array_new_with_free_func (g_free);
  self->scores = g_array_new (FALSE, FALSE, sizeof (float));
  self->children = g_hash_table_new (NULL, NULL);
  self->node_piece = g_array_new (FALSE, FALSE, sizeof (gint32));
  g_array_append_val (self->node_piece, none);

  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *pair = json_array_get_element (array, i);
      JsonArray *items;
      JsonNode *piece, *score;
      float value;

      items = JSON_NODE_HOLDS_ARRAY (pair) ? json_node_get_array (pair) : NULL;
      piece = items != NULL && json_array_get_length (items) == 2
              ? json_array_get_element (items, 0) : NULL;
      score = piece != NULL ? json_array_get_element (items, 1) : NULL;
      /* A few pieces of the real vocabulary (`:`, `://`) have a null score, which
       * TensorFlow.js adds as 0. */
      if (piece == NULL || !JSON_NODE_HOLDS_VALUE (piece) ||
          json_node_get_value_type (piece) != G_TYPE_STRING ||
          json_node_get_string (piece)[0] == '\0' ||
          (!JSON_NODE_HOLDS_NULL (score) && (!JSON_NODE_HOLDS_VALUE (score) ||
           (json_node_get_value_type (score) != G_TYPE_DOUBLE &&
            json_node_get_value_type (score) != G_TYPE_INT64))))
        {
          g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                       "Entry %u of the vocabulary is not a [piece, score] pair", i);
          return NULL;
        }

      value = JSON_NODE_HOLDS_NULL (score) ? 0.0f
              : json_node_get_value_type (score) == G_TYPE_DOUBLE
              ? (float) json_node_get_double (score) : (float) json_node_get_int (score);
      g_ptr_array_add (self->pieces, g_strdup (json_node_get_string (piece)));
      g_array_append_val (self->scores, value);
      if (i >= LODE_SENTENCEPIECE_RESERVED)
        trie_insert (self, json_node_get_string (piece), (gint32) i);
    }

  return g_steal_pointer (&self);
}

/**
 * lode_sentencepiece_new_from_file:
 * @path: a `vocab.json` (see lode_sentencepiece_new_from_data())
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the tokenizer, or %NULL with @error set
 */
LodeSentencepiece *
lode_sentencepiece_new_from_file (const char  *path,
                                  GError     **error)
{
  g_autofree char *contents = NULL;
  gsize length = 0;
  LodeSentencepiece *self;

  if (!g_file_get_contents (path, &contents, &length, error))
    return NULL;
  self = lode_sentencepiece_new_from_data (contents, length, error);
  if (self == NULL)
    g_prefix_error (error, "%s: ", path);

  return self;
}

void
lode_sentencepiece_free (LodeSentencepiece *self)
{
  if (self == NULL)
    return;

  g_clear_pointer (&self->pieces, g_ptr_array_unref);
  g_clear_pointer (&self->scores, g_array_unref);
  g_clear_pointer (&self->children, g_hash_table_unref);
  g_clear_pointer (&self->node_piece, g_array_unref);
  g_free (self);
}

guint
lode_sentencepiece_get_vocab_size (LodeSentencepiece *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->pieces->len;
}

/**
 * lode_sentencepiece_get_piece:
 * @self: a #LodeSentencepiece
 * @id: a piece id
 *
 * Returns: (nullable): the piece, or %NULL if @id is out of range
 */
const char *
lode_sentencepiece_get_piece (LodeSentencepiece *self,
                              guint              id)
{
  g_return_val_if_fail (self != NULL, NULL);

  return id < self->pieces->len ? g_ptr_array_index (self->pieces, id) : NULL;
}

/**
 * lode_sentencepiece_get_score:
 * @self: a #LodeSentencepiece
 * @id: a piece id
 *
 * Returns: the piece's log probability, 0 if @id is out of range
 */
float
lode_sentencepiece_get_score (LodeSentencepiece *self,
                              guint              id)
{
  g_return_val_if_fail (self != NULL, 0.0f);

  return id < self->scores->len ? g_array_index (self->scores, float, id) : 0.0f;
}

/* The text the pieces are matched against: NFKC, "▁" first and for every space. */
static GString *
prepare (const char *text,
         gssize      length)
{
  g_autofree char *normal = g_utf8_normalize (text, length, G_NORMALIZE_NFKC);
  GString *out = g_string_new (NULL);

  if (normal == NULL || normal[0] == '\0')
    return out;
  g_string_append (out, SEPARATOR);
  for (const char *p = normal; *p != '\0'; p++)
    if (*p == ' ')
      g_string_append (out, SEPARATOR);
    else
      g_string_append_c (out, *p);

  return out;
}

/**
 * lode_sentencepiece_encode:
 * @self: a #LodeSentencepiece
 * @text: UTF-8 text (invalid sequences are left out)
 * @length: its length in bytes, or -1 if nul-terminated
 * @ids: a #GArray of #gint32 the piece ids are appended to
 *
 * Cuts @text into the pieces of highest total score. A character no piece starts with
 * becomes the unknown piece (id 0), and a run of them one unknown piece.
 */
void
lode_sentencepiece_encode (LodeSentencepiece *self,
                           const char        *text,
                           gssize             length,
                           GArray            *ids)
{
  g_autoptr(GString) input = NULL;
  g_autofree float *best = NULL;
  g_autofree gint32 *word = NULL;
  g_autofree guint *word_len = NULL;
  g_autoptr(GArray) reversed = NULL;
  g_autofree char *valid = NULL;
  gsize n;

  g_return_if_fail (self != NULL);
  g_return_if_fail (text != NULL);
  g_return_if_fail (ids != NULL);

  valid = g_utf8_make_valid (text, length);
  input = prepare (valid, -1);
  n = input->len;
  if (n == 0)
    return;

  /* best[j]: the highest score of a segmentation of the first j bytes (0: none yet, as in
   * TensorFlow.js, whose ties go to the later start); word[j] and word_len[j]: its last
   * piece. Every start position advances by one character. */
  best = g_new0 (float, n + 1);
  word = g_new0 (gint32, n + 1);
  word_len = g_new0 (guint, n + 1);
  for (gsize i = 0; i < n; i = g_utf8_next_char (input->str + i) - input->str)
    {
      gsize char_len = g_utf8_next_char (input->str + i) - (input->str + i);
      gboolean matched = FALSE;
      guint node = 0;

      for (gsize j = i; j < n; j++)
        {
          gint32 id;

          node = trie_child (self, node, (guchar) input->str[j]);
          if (node == 0)
            break;
          id = g_array_index (self->node_piece, gint32, node);
          if (id >= 0)
            {
              float score = g_array_index (self->scores, float, id) + best[i];

              matched = TRUE;
              if (best[j + 1] == 0.0f || score >= best[j + 1])
                {
                  best[j + 1] = score;
                  word[j + 1] = id;
                  word_len[j + 1] = j + 1 - i;
                }
            }
        }

      if (!matched && (best[i + char_len] == 0.0f || best[i] >= best[i + char_len]))
        {
          best[i + char_len] = best[i];
          word[i + char_len] = UNKNOWN_ID;
          word_len[i + char_len] = char_len;
        }
    }

  /* Back from the end, a piece at a time; a position no piece ends at (the middle of a
   * longer piece that lost) goes back one character as an unknown piece. */
  reversed = g_array_new (FALSE, FALSE, sizeof (gint32));
  for (gsize j = n; j > 0; )
    {
      gint32 id = word_len[j] > 0 ? word[j] : UNKNOWN_ID;

      g_array_append_val (reversed, id);
      if (word_len[j] > 0)
        j -= word_len[j];
      else
        j = g_utf8_prev_char (input->str + j) - input->str;
    }

  for (guint i = reversed->len; i > 0; i--)
    {
      gint32 id = g_array_index (reversed, gint32, i - 1);

      if (id == UNKNOWN_ID && i < reversed->len &&
          g_array_index (reversed, gint32, i) == UNKNOWN_ID)
        continue;
      g_array_append_val (ids, id);
    }
}
