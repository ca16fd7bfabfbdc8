/* lode-wordpiece.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-wordpiece"

#include "config.h"

#include <string.h>

#include <json-glib/json-glib.h>

#include "lode-error.h"
#include "lode-json.h"
#include "lode-wordpiece.h"

/* Longer words become one [UNK] (BERT's max_input_chars_per_word). */
#define DEFAULT_MAX_WORD_CHARS 100
/* A config value above this is a "no limit" placeholder (transformers writes 1e30). */
#define MAX_SANE_TOKENS 1000000

struct _LodeWordpiece
{
  GHashTable   *vocab;        /* token (in strings) → id + 1 */
  GStringChunk *strings;
  char         *prefix;       /* continuing-subword prefix, "##" */
  gsize         prefix_len;
  guint         vocab_size;   /* highest id + 1 */
  guint         max_word_chars;
  guint         max_tokens;   /* 0 when the files name no limit */
  gint32        unk_id;
  gint32        cls_id;
  gint32        sep_id;
  guint         lowercase : 1;
  guint         strip_accents : 1;
  guint         clean_text : 1;
  guint         chinese_chars : 1;
};

static LodeWordpiece *
wordpiece_alloc (void)
{
  LodeWordpiece *self = g_new0 (LodeWordpiece, 1);

  self->vocab = g_hash_table_new (g_str_hash, g_str_equal);
  self->strings = g_string_chunk_new (64 * 1024);
  self->prefix = g_strdup ("##");
  self->prefix_len = 2;
  self->max_word_chars = DEFAULT_MAX_WORD_CHARS;
  self->lowercase = TRUE;
  self->strip_accents = TRUE;
  self->clean_text = TRUE;
  self->chinese_chars = TRUE;
  return self;
}

void
lode_wordpiece_free (LodeWordpiece *self)
{
  if (self == NULL)
    return;

  g_hash_table_unref (self->vocab);
  g_string_chunk_free (self->strings);
  g_free (self->prefix);
  g_free (self);
}

static gboolean
wordpiece_add_token (LodeWordpiece  *self,
                     const char     *token,
                     gint64          id,
                     const char     *path,
                     GError        **error)
{
  if (id < 0 || id >= G_MAXINT32)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER, "%s: token id %" G_GINT64_FORMAT
                   " out of range", path, id);
      return FALSE;
    }

  /* A repeated token keeps its first id, as in a vocab.txt read top to bottom. */
  if (!g_hash_table_contains (self->vocab, token))
    g_hash_table_insert (self->vocab, g_string_chunk_insert (self->strings, token),
                         GINT_TO_POINTER ((gint) id + 1));
  self->vocab_size = MAX (self->vocab_size, (guint) id + 1);
  return TRUE;
}

/* Resolves the special tokens once the vocabulary is complete. */
static gboolean
wordpiece_finish (LodeWordpiece  *self,
                  const char     *unk_token,
                  const char     *path,
                  GError        **error)
{
  self->unk_id = lode_wordpiece_lookup (self, unk_token);
  self->cls_id = lode_wordpiece_lookup (self, "[CLS]");
  self->sep_id = lode_wordpiece_lookup (self, "[SEP]");

  if (self->unk_id < 0 || self->cls_id < 0 || self->sep_id < 0)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                   "%s: the vocabulary lacks %s, [CLS] or [SEP]", path, unk_token);
      return FALSE;
    }

  return TRUE;
}

/* The object at the root of @path, which *@root holds. */
static JsonObject *
load_json_object (JsonNode   **root,
                  const char  *path,
                  GError     **error)
{
  *root = lode_json_parse_file (path, error);
  if (*root == NULL)
    {
      g_prefix_error (error, "%s: ", path);
      return NULL;
    }

  if (!JSON_NODE_HOLDS_OBJECT (*root))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER, "%s: not a JSON object", path);
      return NULL;
    }

  return json_node_get_object (*root);
}

/* A string member of a file from outside, or @def when it is absent or of another type. */
static const char *
member_string (JsonObject *object,
               const char *name,
               const char *def)
{
  const char *value = lode_json_get_string (object, name);

  return value != NULL ? value : def;
}

static guint
member_limit (JsonObject *object,
              const char *name)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;
  double value;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return 0;
  if (json_node_get_value_type (node) != G_TYPE_INT64 &&
      json_node_get_value_type (node) != G_TYPE_DOUBLE)
    return 0;

  value = json_node_get_double (node);
  if (value < 2 || value > MAX_SANE_TOKENS)
    return 0;

  return (guint) value;
}

static guint
min_limit (guint a,
           guint b)
{
  if (a == 0)
    return b;
  if (b == 0)
    return a;
  return MIN (a, b);
}

/**
 * lode_wordpiece_new_from_tokenizer_json:
 * @path: a Hugging Face `tokenizer.json` with a WordPiece model
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the tokenizer, or %NULL with @error set
 */
LodeWordpiece *
lode_wordpiece_new_from_tokenizer_json (const char  *path,
                                        GError     **error)
{
  g_autoptr(LodeWordpiece) self = NULL;
  g_autoptr(JsonNode) json = NULL;
  JsonObject *root;
  JsonObject *model;
  JsonObject *vocab;
  JsonObject *normalizer;
  JsonObject *truncation;
  JsonObjectIter iter;
  const char *token;
  JsonNode *value;
  const char *type;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  root = load_json_object (&json, path, error);
  if (root == NULL)
    return NULL;

  model = lode_json_get_object (root, "model");
  type = member_string (model, "type", NULL);
  if (g_strcmp0 (type, "WordPiece") != 0)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                   "%s: not a WordPiece tokenizer (model type “%s”)", path,
                   type != NULL ? type : "none");
      return NULL;
    }

  vocab = lode_json_get_object (model, "vocab");
  if (vocab == NULL || json_object_get_size (vocab) == 0)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER, "%s: no vocabulary", path);
      return NULL;
    }

  self = wordpiece_alloc ();
  json_object_iter_init (&iter, vocab);
  while (json_object_iter_next (&iter, &token, &value))
    {
      if (!JSON_NODE_HOLDS_VALUE (value) || json_node_get_value_type (value) != G_TYPE_INT64)
        {
          g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                       "%s: the id of “%s” is not an integer", path, token);
          return NULL;
        }
      if (!wordpiece_add_token (self, token, json_node_get_int (value), path, error))
        return NULL;
    }

  g_free (self->prefix);
  self->prefix = g_strdup (member_string (model, "continuing_subword_prefix", "##"));
  self->prefix_len = strlen (self->prefix);
  self->max_word_chars = CLAMP (lode_json_get_int (model, "max_input_chars_per_word",
                                                   DEFAULT_MAX_WORD_CHARS),
                                1, 10000);

  /* Only BertNormalizer is understood; any other normaliser is refused rather than
   * silently approximated. */
  normalizer = lode_json_get_object (root, "normalizer");
  if (normalizer != NULL)
    {
      const char *normalizer_type = member_string (normalizer, "type", NULL);

      if (g_strcmp0 (normalizer_type, "BertNormalizer") != 0)
        {
          g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                       "%s: unsupported normalizer “%s”", path,
                       normalizer_type != NULL ? normalizer_type : "none");
          return NULL;
        }
      self->clean_text = lode_json_get_boolean (normalizer, "clean_text", TRUE);
      self->chinese_chars = lode_json_get_boolean (normalizer, "handle_chinese_chars", TRUE);
      self->lowercase = lode_json_get_boolean (normalizer, "lowercase", TRUE);
      /* null means: strip accents when lowercasing (BERT's uncased models). */
      self->strip_accents = lode_json_get_boolean (normalizer, "strip_accents", self->lowercase);
    }

  truncation = lode_json_get_object (root, "truncation");
  self->max_tokens = member_limit (truncation, "max_length");

  if (!wordpiece_finish (self, member_string (model, "unk_token", "[UNK]"), path, error))
    return NULL;

  return g_steal_pointer (&self);
}

/**
 * lode_wordpiece_new_from_vocab_txt:
 * @path: a BERT `vocab.txt`, one token per line, the line number being its id
 * @lowercase: whether the model is uncased (lowercase and strip accents)
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the tokenizer, or %NULL with @error set
 */
LodeWordpiece *
lode_wordpiece_new_from_vocab_txt (const char  *path,
                                   gboolean     lowercase,
                                   GError     **error)
{
  g_autoptr(LodeWordpiece) self = NULL;
  g_autoptr(GMappedFile) file = NULL;
  const char *data;
  const char *end;
  gint64 id = 0;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  file = g_mapped_file_new (path, FALSE, error);
  if (file == NULL)
    return NULL;

  data = g_mapped_file_get_contents (file);
  end = data + g_mapped_file_get_length (file);
  if (data == NULL || !g_utf8_validate (data, end - data, NULL))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER, "%s: empty or not UTF-8", path);
      return NULL;
    }

  self = wordpiece_alloc ();
  self->lowercase = lowercase;
  self->strip_accents = lowercase;

  while (data < end)
    {
      const char *eol = memchr (data, '\n', end - data);
      const char *line_end = eol != NULL ? eol : end;
      g_autofree char *token = NULL;

      if (line_end > data && line_end[-1] == '\r')
        line_end--;
      token = g_strndup (data, line_end - data);
      if (!wordpiece_add_token (self, token, id++, path, error))
        return NULL;
      data = eol != NULL ? eol + 1 : end;
    }

  if (!wordpiece_finish (self, "[UNK]", path, error))
    return NULL;

  return g_steal_pointer (&self);
}

/**
 * lode_wordpiece_new_from_dir:
 * @dir: a Hugging Face model folder
 * @error: return location for a #GError
 *
 * Loads `tokenizer.json` when the folder has one, else `vocab.txt` with the casing of
 * `tokenizer_config.json`. The token limit is the smaller of the tokenizer's truncation
 * length and `model_max_length`.
 *
 * Returns: (transfer full) (nullable): the tokenizer, or %NULL with @error set
 */
LodeWordpiece *
lode_wordpiece_new_from_dir (const char  *dir,
                             GError     **error)
{
  g_autofree char *json_path = NULL;
  g_autofree char *vocab_path = NULL;
  g_autofree char *config_path = NULL;
  g_autoptr(JsonNode) json = NULL;
  g_autoptr(LodeWordpiece) self = NULL;
  JsonObject *config = NULL;

  g_return_val_if_fail (dir != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  config_path = g_build_filename (dir, "tokenizer_config.json", NULL);
  if (g_file_test (config_path, G_FILE_TEST_EXISTS))
    {
      config = load_json_object (&json, config_path, error);
      if (config == NULL)
        return NULL;
    }

  json_path = g_build_filename (dir, "tokenizer.json", NULL);
  vocab_path = g_build_filename (dir, "vocab.txt", NULL);
  if (g_file_test (json_path, G_FILE_TEST_EXISTS))
    self = lode_wordpiece_new_from_tokenizer_json (json_path, error);
  else if (g_file_test (vocab_path, G_FILE_TEST_EXISTS))
    {
      gboolean lowercase = lode_json_get_boolean (config, "do_lower_case", TRUE);

      self = lode_wordpiece_new_from_vocab_txt (vocab_path, lowercase, error);
      if (self != NULL && config != NULL)
        {
          self->strip_accents = lode_json_get_boolean (config, "strip_accents", self->lowercase);
          self->chinese_chars = lode_json_get_boolean (config, "tokenize_chinese_chars", TRUE);
        }
    }
  else
    g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                 "%s has neither tokenizer.json nor vocab.txt", dir);

  if (self == NULL)
    return NULL;

  self->max_tokens = min_limit (self->max_tokens, member_limit (config, "model_max_length"));
  return g_steal_pointer (&self);
}

guint
lode_wordpiece_get_vocab_size (LodeWordpiece *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->vocab_size;
}

/**
 * lode_wordpiece_get_max_tokens:
 * @self: a #LodeWordpiece
 *
 * Returns: the tokenizer's own limit, special tokens included, or 0 when it names none
 */
guint
lode_wordpiece_get_max_tokens (LodeWordpiece *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->max_tokens;
}

/**
 * lode_wordpiece_lookup:
 * @self: a #LodeWordpiece
 * @token: a token as written in the vocabulary (`"##ing"`, `"[CLS]"`)
 *
 * Returns: the token's id, or -1 when it is not in the vocabulary
 */
gint32
lode_wordpiece_lookup (LodeWordpiece *self,
                       const char    *token)
{
  g_return_val_if_fail (self != NULL, -1);
  g_return_val_if_fail (token != NULL, -1);

  return GPOINTER_TO_INT (g_hash_table_lookup (self->vocab, token)) - 1;
}

gint32
lode_wordpiece_get_cls_id (LodeWordpiece *self)
{
  g_return_val_if_fail (self != NULL, -1);

  return self->cls_id;
}

gint32
lode_wordpiece_get_sep_id (LodeWordpiece *self)
{
  g_return_val_if_fail (self != NULL, -1);

  return self->sep_id;
}

/* ---- normalisation ---------------------------------------------------------------------- */

/* Rust's char::is_whitespace (the Unicode White_Space property), which the Hugging Face
 * normaliser and pre-tokenizer use. */
static inline gboolean
is_whitespace (gunichar c)
{
  if (c < 0x80)
    return c == ' ' || (c >= '\t' && c <= '\r');

  switch (c)
    {
    case 0x85: case 0xA0: case 0x1680: case 0x2028: case 0x2029: case 0x202F: case 0x205F:
    case 0x3000:
      return TRUE;
    default:
      return c >= 0x2000 && c <= 0x200A;
    }
}

/* GUnicodeType categories as bit sets, tested with one shift. */
#define TYPE_BIT(type) (1u << (type))

static const guint control_types =
  TYPE_BIT (G_UNICODE_CONTROL) | TYPE_BIT (G_UNICODE_FORMAT) | TYPE_BIT (G_UNICODE_UNASSIGNED) |
  TYPE_BIT (G_UNICODE_PRIVATE_USE) | TYPE_BIT (G_UNICODE_SURROGATE);

static const guint punctuation_types =
  TYPE_BIT (G_UNICODE_CONNECT_PUNCTUATION) | TYPE_BIT (G_UNICODE_DASH_PUNCTUATION) |
  TYPE_BIT (G_UNICODE_CLOSE_PUNCTUATION) | TYPE_BIT (G_UNICODE_FINAL_PUNCTUATION) |
  TYPE_BIT (G_UNICODE_INITIAL_PUNCTUATION) | TYPE_BIT (G_UNICODE_OTHER_PUNCTUATION) |
  TYPE_BIT (G_UNICODE_OPEN_PUNCTUATION);

/* Control characters (the C* categories) are dropped by clean_text; \t, \n and \r count as
 * whitespace. */
static inline gboolean
is_control (gunichar c)
{
  if (c == '\t' || c == '\n' || c == '\r')
    return FALSE;
  if (c < 0x80)
    return c < 0x20 || c == 0x7F;

  return (TYPE_BIT (g_unichar_type (c)) & control_types) != 0;
}

/* BERT's _is_punctuation: all of ASCII's non-alphanumeric symbols (so `$`, `+`, `^`, `` ` ``
 * split words although Unicode calls them symbols) and every Unicode P* category. */
static inline gboolean
is_punctuation (gunichar c)
{
  if (c < 0x80)
    return (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) ||
           (c >= 123 && c <= 126);

  return (TYPE_BIT (g_unichar_type (c)) & punctuation_types) != 0;
}

/* The CJK Unified Ideographs blocks that BERT surrounds with spaces. Hangul, kana and CJK
 * punctuation are not in them. */
static inline gboolean
is_chinese_char (gunichar c)
{
  return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) ||
         (c >= 0x20000 && c <= 0x2A6DF) || (c >= 0x2A700 && c <= 0x2B73F) ||
         (c >= 0x2B740 && c <= 0x2B81F) || (c >= 0x2B820 && c <= 0x2CEAF) ||
         (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x2F800 && c <= 0x2FA1F);
}

/* ---- WordPiece -------------------------------------------------------------------------- */

/* Buffers of one tokenize call, reused for every word of the text. */
typedef struct
{
  GString *word;     /* the current word, normalised UTF-8 */
  GArray  *offsets;  /* byte offset of each of its characters, then its length */
  GString *piece;    /* prefix + the part of the word being matched */
  GArray  *ids;
  guint    limit;
  gboolean full;     /* the limit was reached and a piece was dropped */
} Scratch;

static inline gboolean
scratch_push (Scratch *scratch,
              gint32   id)
{
  if (scratch->limit != 0 && scratch->ids->len >= scratch->limit)
    {
      scratch->full = TRUE;
      return FALSE;
    }

  g_array_append_val (scratch->ids, id);
  return TRUE;
}

/* Greedy longest-match-first over the current word. Returns FALSE once the limit is
 * reached. The whole word is matched before the limit applies: a word that turns out to be
 * unknown after some pieces is one [UNK], cut or not, as when the whole text is tokenized
 * and then truncated. */
static gboolean
wordpiece_flush_word (LodeWordpiece *self,
                      Scratch       *scratch)
{
  guint n_chars = scratch->offsets->len;
  const guint *offsets;
  gsize first_piece = scratch->ids->len;
  guint start = 0;
  gboolean ok = TRUE;

  if (n_chars == 0)
    return TRUE;

  g_array_append_val (scratch->offsets, scratch->word->len);
  offsets = (const guint *) (gpointer) scratch->offsets->data;

  if (n_chars > self->max_word_chars)
    {
      ok = scratch_push (scratch, self->unk_id);
      goto out;
    }

  while (start < n_chars)
    {
      gsize head;
      gint32 id = -1;
      guint end;

      /* piece = (prefix if not at the start) + word[start:], cut at each candidate end. */
      g_string_truncate (scratch->piece, 0);
      if (start > 0)
        g_string_append_len (scratch->piece, self->prefix, self->prefix_len);
      head = scratch->piece->len;
      g_string_append_len (scratch->piece, scratch->word->str + offsets[start],
                           offsets[n_chars] - offsets[start]);

      for (end = n_chars; end > start; end--)
        {
          char *cut = scratch->piece->str + head + (offsets[end] - offsets[start]);
          char saved = *cut;

          *cut = '\0';
          id = GPOINTER_TO_INT (g_hash_table_lookup (self->vocab, scratch->piece->str)) - 1;
          *cut = saved;
          if (id >= 0)
            break;
        }

      if (id < 0)
        {
          /* No piece matches: the whole word is unknown, as in BERT. */
          g_array_set_size (scratch->ids, first_piece);
          ok = scratch_push (scratch, self->unk_id);
          goto out;
        }

      g_array_append_val (scratch->ids, id);
      start = end;
    }

  if (scratch->limit != 0 && scratch->ids->len > scratch->limit)
    {
      g_array_set_size (scratch->ids, scratch->limit);
      scratch->full = TRUE;
      ok = FALSE;
    }

out:
  g_string_truncate (scratch->word, 0);
  g_array_set_size (scratch->offsets, 0);
  return ok;
}

static inline void
word_append (Scratch  *scratch,
             gunichar  c)
{
  guint offset = scratch->word->len;

  g_array_append_val (scratch->offsets, offset);
  g_string_append_unichar (scratch->word, c);
}

/* One character after normalisation: punctuation is a word of its own, whitespace ends a
 * word. */
static inline gboolean
wordpiece_feed (LodeWordpiece *self,
                Scratch       *scratch,
                gunichar       c)
{
  if (is_whitespace (c))
    return wordpiece_flush_word (self, scratch);

  if (is_punctuation (c))
    {
      if (!wordpiece_flush_word (self, scratch))
        return FALSE;
      word_append (scratch, c);
      return wordpiece_flush_word (self, scratch);
    }

  word_append (scratch, c);
  return TRUE;
}

/* Accent stripping (the canonical decomposition, NFD, without its non-spacing marks) and
 * lowercasing of one character. Returns the number of characters written to @out. */
static gsize
wordpiece_normalize_char (LodeWordpiece *self,
                          gunichar       c,
                          gunichar       out[G_UNICHAR_MAX_DECOMPOSITION_LENGTH])
{
  gunichar decomposed[G_UNICHAR_MAX_DECOMPOSITION_LENGTH];
  gsize n_decomposed;
  gsize n = 0;

  if (!self->strip_accents)
    {
      out[0] = self->lowercase ? g_unichar_tolower (c) : c;
      return 1;
    }

  n_decomposed = g_unichar_fully_decompose (c, FALSE, decomposed, G_N_ELEMENTS (decomposed));
  for (gsize i = 0; i < n_decomposed; i++)
    {
      if (g_unichar_type (decomposed[i]) == G_UNICODE_NON_SPACING_MARK)
        continue;
      out[n++] = self->lowercase ? g_unichar_tolower (decomposed[i]) : decomposed[i];
    }

  return n;
}

/**
 * lode_wordpiece_tokenize:
 * @self: a #LodeWordpiece
 * @text: UTF-8 text
 * @limit: stop when @ids holds this many ids; 0 for no limit
 * @ids: (element-type gint32): the array the word-piece ids are appended to (no special tokens)
 * @truncated: (out) (optional): set to whether pieces were dropped at @limit
 * @error: return location for a #GError
 *
 * Returns: %FALSE with @error set when @text is not valid UTF-8
 */
gboolean
lode_wordpiece_tokenize (LodeWordpiece  *self,
                         const char     *text,
                         guint           limit,
                         GArray         *ids,
                         gboolean       *truncated,
                         GError        **error)
{
  Scratch scratch = { 0 };
  const char *end;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (ids != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!g_utf8_validate (text, -1, &end))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                   "text is not valid UTF-8 (at byte %" G_GSIZE_FORMAT ")",
                   (gsize) (end - text));
      return FALSE;
    }

  scratch.word = g_string_sized_new (64);
  scratch.offsets = g_array_sized_new (FALSE, FALSE, sizeof (guint), 64);
  scratch.piece = g_string_sized_new (64);
  scratch.ids = ids;
  scratch.limit = limit;

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);
      gunichar normalized[G_UNICHAR_MAX_DECOMPOSITION_LENGTH];
      gsize n_normalized;
      gboolean chinese;
      gboolean ok = TRUE;

      if (self->clean_text)
        {
          if (c == 0xFFFD || is_control (c))
            continue;
          if (is_whitespace (c))
            c = ' ';
        }

      if (c < 0x80)
        {
          if (self->lowercase)
            c = g_ascii_tolower (c);
          if (!wordpiece_feed (self, &scratch, c))
            break;
          continue;
        }

      /* Ideographs become words of their own before the rest of the normalisation. */
      chinese = self->chinese_chars && is_chinese_char (c);
      if (chinese && !wordpiece_flush_word (self, &scratch))
        break;

      n_normalized = wordpiece_normalize_char (self, c, normalized);
      for (gsize i = 0; i < n_normalized && ok; i++)
        {
          if (chinese)
            word_append (&scratch, normalized[i]);
          else
            ok = wordpiece_feed (self, &scratch, normalized[i]);
        }

      if (!ok || (chinese && !wordpiece_flush_word (self, &scratch)))
        break;
    }
  wordpiece_flush_word (self, &scratch);

  if (truncated != NULL)
    *truncated = scratch.full;

  g_string_free (scratch.word, TRUE);
  g_array_unref (scratch.offsets);
  g_string_free (scratch.piece, TRUE);
  return TRUE;
}

/**
 * lode_wordpiece_encode:
 * @self: a #LodeWordpiece
 * @text: UTF-8 text
 * @max_tokens: the most ids to return; 0 for the tokenizer's own limit (none when it has none)
 * @truncated: (out) (optional): set to whether the text was cut at @max_tokens
 * @error: return location for a #GError
 *
 * Tokenizes one text as a BERT input: [CLS], its word pieces, [SEP]. A longer input is cut
 * after @max_tokens ids, [SEP] included, as transformers.js does (and the reference vectors
 * of the tests were made); Python's tokenizers would end the cut sequence with [SEP]
 * instead. Callers that must not lose text split it instead (see #LodeBuiltinEmbedder).
 *
 * Returns: (transfer full) (element-type gint32) (nullable): the ids, or %NULL with @error set
 *   when @text is not valid UTF-8
 */
GArray *
lode_wordpiece_encode (LodeWordpiece  *self,
                       const char     *text,
                       guint           max_tokens,
                       gboolean       *truncated,
                       GError        **error)
{
  g_autoptr(GArray) ids = g_array_sized_new (FALSE, FALSE, sizeof (gint32), 32);
  gboolean cut = FALSE;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (text != NULL, NULL);
  g_return_val_if_fail (max_tokens == 0 || max_tokens >= 2, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (max_tokens == 0)
    max_tokens = self->max_tokens;

  g_array_append_val (ids, self->cls_id);
  if (!lode_wordpiece_tokenize (self, text, max_tokens, ids, &cut, error))
    return NULL;
  if (max_tokens == 0 || ids->len < max_tokens)
    g_array_append_val (ids, self->sep_id);
  else
    cut = TRUE;  /* at least [SEP] did not fit */

  if (truncated != NULL)
    *truncated = cut;

  return g_steal_pointer (&ids);
}
