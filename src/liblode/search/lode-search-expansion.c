/* lode-search-expansion.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* A question widened by the code lexicon (lode-lexicon.c): each of its words brings the
 * lexicon's nearest words, and the question as a whole (its vector) the lexicon's words
 * nearest to it, as a lexical query of their own whose groups weigh EXPANSION_WEIGHT × their
 * similarity (a plain word weighs 1). The question's vector also measures how near a chunk's
 * text is to it. The searcher decides when and how much (lode-searcher-lexicon.c). Nothing
 * here asks the index: every store widens a question alike. */

#define G_LOG_DOMAIN "lode-search"

#include "config.h"

#include <string.h>

#include "lode-code-tokenizer.h"
#include "lode-search-private.h"
#include "lode-vector-index.h"

/* How much a neighbour counts, relative to a word of the question, at similarity 1. */
#define EXPANSION_WEIGHT          0.5
/* Neighbours kept of each word, the nearest that are similar enough (cosine). */
#define EXPANSION_PER_WORD        4
#define EXPANSION_MIN_SIMILARITY  0.4
/* Words kept nearest to the question as a whole, similar enough. */
#define EXPANSION_WHOLE           8
#define EXPANSION_WHOLE_MIN       0.5
/* At most this many terms in all. */
#define EXPANSION_MAX_TERMS       32
/* A word more common than one in a thousand of the corpus's (lode_lexicon_get_rarity() 0.5)
 * is left out: it says little, and the index's rows of it are long to walk (`format` and
 * `key` were 25 of the 30 ms a question about configuration files took on git). */
#define EXPANSION_MIN_RARITY      0.5

struct _LodeExpansion
{
  LodeLexicon      *lexicon;
  LodeLexicalQuery *query;
  GPtrArray        *from;     /* the question's word each group of @query stands for */
  float            *vector;   /* the question's, lode_lexicon_get_dims() floats */
};

void
_lode_expansion_free (LodeExpansion *expansion)
{
  if (expansion == NULL)
    return;

  g_clear_object (&expansion->lexicon);
  lode_lexical_query_free (expansion->query);
  g_clear_pointer (&expansion->from, g_ptr_array_unref);
  g_free (expansion->vector);
  g_free (expansion);
}

/* @word, or the form of it the lexicon knows: `contacting` → contact, `hammering` →
 * hammer, `refreshed` → refresh, `entries` → entry, `places` → place. NULL if none. */
static char *
lexicon_form (LodeLexicon *lexicon,
              const char  *word)
{
  static const char *const suffixes[] = { "ing", "ed", "ies", "es", "s", "ly", "er", NULL };
  gsize len = strlen (word);

  if (lode_lexicon_contains (lexicon, word))
    return g_strdup (word);

  for (guint i = 0; suffixes[i] != NULL; i++)
    {
      gsize n = strlen (suffixes[i]);
      g_autofree char *stem = NULL;
      g_autofree char *with_e = NULL;
      g_autofree char *with_y = NULL;

      if (len < n + 3 || !g_str_has_suffix (word, suffixes[i]))
        continue;
      stem = g_strndup (word, len - n);
      with_e = g_strconcat (stem, "e", NULL);
      with_y = g_strconcat (stem, "y", NULL);
      if (lode_lexicon_contains (lexicon, stem))
        return g_steal_pointer (&stem);
      if (lode_lexicon_contains (lexicon, with_e))
        return g_steal_pointer (&with_e);
      if (lode_lexicon_contains (lexicon, with_y))
        return g_steal_pointer (&with_y);
      /* `stopped` → stop */
      if (len - n >= 4 && stem[len - n - 1] == stem[len - n - 2])
        {
          stem[len - n - 1] = '\0';
          if (lode_lexicon_contains (lexicon, stem))
            return g_steal_pointer (&stem);
        }
    }

  return NULL;
}

/* Adds @term, standing for the question's word @from, unless the question says it, it is
 * there already or it is too common. */
static void
add_term (LodeExpansion       *expansion,
          const LodeQueryPlan *plan,
          GPtrArray           *forms,
          const char          *term,
          const char          *from,
          double               similarity)
{
  LodeLexicalQuery *query = expansion->query;
  LodeLexicalGroup *group;

  if (query->groups->len == EXPANSION_MAX_TERMS ||
      lode_lexicon_get_rarity (expansion->lexicon, term) < EXPANSION_MIN_RARITY ||
      g_strv_contains ((const char *const *) plan->terms, term) ||
      g_ptr_array_find_with_equal_func (forms, term, g_str_equal, NULL))
    return;
  for (guint i = 0; i < query->groups->len; i++)
    if (g_str_equal (((LodeLexicalGroup *) g_ptr_array_index (query->groups, i))->term, term))
      return;

  group = g_new0 (LodeLexicalGroup, 1);
  group->term = g_strdup (term);
  group->weight = EXPANSION_WEIGHT * similarity;
  g_ptr_array_add (query->groups, group);
  g_ptr_array_add (expansion->from, g_strdup (from));
}

typedef struct
{
  char *const *words;   /* the question's words that the lexicon knows */
  GPtrArray   *forms;   /* the forms the lexicon knows them by */
  GString     *text;
} Saying;

static gboolean
say_token_cb (const char *token,
              gsize       len,
              gsize       start,
              gsize       end,
              gboolean    colocated,
              gpointer    user_data)
{
  Saying *s = user_data;

  for (guint i = 0; i < s->forms->len; i++)
    if (strlen (s->words[i]) == len && memcmp (s->words[i], token, len) == 0)
      {
        g_string_append_printf (s->text, "%s ", (const char *) g_ptr_array_index (s->forms, i));
        break;
      }

  return TRUE;
}

/**
 * _lode_expansion_new:
 * @lexicon: the lexicon
 * @query: the question as asked
 * @plan: its plan (LODE_QUERY_NATURAL, with a lexical query)
 *
 * Returns: (transfer full) (nullable): the widened question; %NULL when the lexicon adds
 *   no word to it
 */
LodeExpansion *
_lode_expansion_new (LodeLexicon         *lexicon,
                     const char          *query,
                     const LodeQueryPlan *plan)
{
  g_autoptr(LodeExpansion) expansion = g_new0 (LodeExpansion, 1);
  g_autoptr(GPtrArray) forms = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) words = g_ptr_array_new ();   /* the question's word of each form */
  g_autoptr(GArray) whole = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  Saying saying = { NULL, forms, text };

  g_assert (plan->lexical != NULL && plan->words != NULL);

  for (guint i = 0; plan->words[i] != NULL; i++)
    {
      char *form = lexicon_form (lexicon, plan->words[i]);

      if (form == NULL)
        continue;
      g_ptr_array_add (forms, form);
      g_ptr_array_add (words, plan->words[i]);
    }
  if (forms->len == 0)
    return NULL;

  expansion->lexicon = g_object_ref (lexicon);
  expansion->query = _lode_lexical_query_new ();
  expansion->from = g_ptr_array_new_with_free_func (g_free);
  expansion->vector = g_new (float, lode_lexicon_get_dims (lexicon));

  /* Each word's nearest neighbours, in the question's order: a neighbour of several words
   * goes to the first. Whether the index holds them is left to the lexical leg. */
  for (guint i = 0; i < forms->len; i++)
    {
      g_autoptr(GArray) near = lode_lexicon_neighbours (lexicon, g_ptr_array_index (forms, i),
                                                        EXPANSION_PER_WORD,
                                                        EXPANSION_MIN_SIMILARITY);

      for (guint j = 0; j < near->len; j++)
        {
          const LodeLexiconTerm *t = &g_array_index (near, LodeLexiconTerm, j);

          add_term (expansion, plan, forms, t->term, g_ptr_array_index (words, i),
                    t->similarity);
        }
    }

  /* The question's vector: its words as often as it says them (a word it keeps coming back
   * to is what it is about). The words nearest to it, each standing for the question's word
   * nearest to it: what the question is about when no one of its words says it. */
  saying.words = (char *const *) words->pdata;
  lode_code_tokenize (query, strlen (query), LODE_TOKENIZE_SPLIT, say_token_cb, &saying);
  if (!lode_lexicon_embed (lexicon, text->str, text->len, expansion->vector))
    return NULL;
  whole = lode_lexicon_nearest (lexicon, expansion->vector, EXPANSION_WHOLE + forms->len,
                                EXPANSION_WHOLE_MIN);
  for (guint j = 0, n = 0; j < whole->len && n < EXPANSION_WHOLE; j++)
    {
      const LodeLexiconTerm *t = &g_array_index (whole, LodeLexiconTerm, j);
      guint best = 0;
      double best_similarity = -1.0;

      if (g_ptr_array_find_with_equal_func (forms, t->term, g_str_equal, NULL))
        continue;
      n++;
      for (guint i = 0; i < forms->len; i++)
        {
          double similarity = lode_lexicon_similarity (lexicon, t->term,
                                                       g_ptr_array_index (forms, i));

          if (similarity > best_similarity)
            {
              best = i;
              best_similarity = similarity;
            }
        }
      add_term (expansion, plan, forms, t->term, g_ptr_array_index (words, best),
                t->similarity);
    }

  if (expansion->query->groups->len == 0)
    return NULL;
  return g_steal_pointer (&expansion);
}

/* The lexical query of the neighbours. */
const LodeLexicalQuery *
_lode_expansion_get_query (const LodeExpansion *expansion)
{
  return expansion->query;
}

/* The lexicon vector of a chunk: of its path and text. */
static gboolean
embed_chunk (LodeLexicon *lexicon,
             const char  *path,
             const char  *body,
             float       *vector)
{
  g_autofree char *text = g_strconcat (path, "\n", body != NULL ? body : "", NULL);

  return lode_lexicon_embed (lexicon, text, strlen (text), vector);
}

/**
 * _lode_expansion_similarity:
 * @expansion: a widened question
 * @path: a chunk's path
 * @body: (nullable): its text
 *
 * Returns: the cosine of the chunk's lexicon vector and the question's, -1 … 1; 0 when the
 *   lexicon knows no word of it
 */
double
_lode_expansion_similarity (const LodeExpansion *expansion,
                            const char          *path,
                            const char          *body)
{
  guint dims = lode_lexicon_get_dims (expansion->lexicon);
  g_autofree float *vector = g_new (float, dims);
  double dot = 0.0;

  if (!embed_chunk (expansion->lexicon, path, body, vector))
    return 0.0;
  for (guint d = 0; d < dims; d++)
    dot += (double) vector[d] * expansion->vector[d];

  return dot;
}

/**
 * _lode_expansion_embed_chunks:
 * @lexicon: the lexicon
 * @backend: the index
 * @max_chunks: the most chunks to make vectors of
 * @vectors: (out) (transfer full) (nullable): the lexicon vector of every chunk of the index
 *   (its path and text); %NULL when it has more than @max_chunks chunks
 * @error: return location for a #GError
 *
 * Returns: %TRUE on success
 */
gboolean
_lode_expansion_embed_chunks (LodeLexicon        *lexicon,
                              LodeSearchBackend  *backend,
                              guint               max_chunks,
                              LodeVectorIndex   **vectors,
                              GError            **error)
{
  guint dims = lode_lexicon_get_dims (lexicon);
  g_autoptr(LodeVectorIndex) index = NULL;
  g_autoptr(GArray) ids = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autofree float *vector = g_new (float, dims);

  *vectors = NULL;
  ids = lode_search_backend_dup_chunk_ids (backend, NULL, error);
  if (ids == NULL)
    return FALSE;
  if (ids->len > max_chunks)
    return TRUE;
  rows = lode_search_backend_fetch_chunks (backend, (const gint64 *) ids->data, ids->len,
                                           error);
  if (rows == NULL)
    return FALSE;

  index = lode_vector_index_new (dims);
  for (guint i = 0; i < rows->len; i++)
    {
      const LodeChunkRow *row = g_ptr_array_index (rows, i);
      g_autoptr(GError) local_error = NULL;
      g_autofree char *body = NULL;

      if (row == NULL)
        continue;
      body = lode_search_backend_dup_chunk_text (backend, row->chunk_id, &local_error);
      if (local_error != NULL)
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }
      if (embed_chunk (lexicon, row->path, body, vector))
        lode_vector_index_add (index, row->chunk_id, vector);
    }

  *vectors = g_steal_pointer (&index);
  return TRUE;
}

/**
 * _lode_expansion_search:
 * @expansion: a widened question
 * @vectors: the chunks' lexicon vectors (_lode_expansion_embed_chunks())
 * @k: how many
 * @allowed_ids: (array length=n_allowed) (nullable): only these chunks, ascending
 * @n_allowed: their number
 *
 * Returns: (transfer full) (element-type LodeVectorHit): the @k chunks nearest to the
 *   question in the lexicon, by cosine, best first
 */
GArray *
_lode_expansion_search (const LodeExpansion *expansion,
                        LodeVectorIndex     *vectors,
                        guint                k,
                        const gint64        *allowed_ids,
                        gsize                n_allowed)
{
  return lode_vector_index_search (vectors, expansion->vector, k, allowed_ids, n_allowed);
}

typedef struct
{
  const LodeExpansion *expansion;
  GHashTable          *found;   /* group index + 1 of each neighbour the text holds */
} Matching;

static gboolean
match_token_cb (const char *token,
                gsize       len,
                gsize       start,
                gsize       end,
                gboolean    colocated,
                gpointer    user_data)
{
  Matching *m = user_data;
  GPtrArray *groups = m->expansion->query->groups;

  for (guint i = 0; i < groups->len; i++)
    {
      const char *term = ((const LodeLexicalGroup *) g_ptr_array_index (groups, i))->term;

      if (strlen (term) == len && memcmp (term, token, len) == 0)
        g_hash_table_add (m->found, GUINT_TO_POINTER (i + 1));
    }

  return TRUE;
}

/**
 * _lode_expansion_explain:
 * @expansion: a widened question
 * @text: a result's text
 * @terms: (out) (transfer full): the neighbours @text holds, or %NULL
 * @from: (out) (transfer full): for each, the question's word it stands for
 *
 * Why a result came: which words the question did not say but the lexicon added are in it.
 */
void
_lode_expansion_explain (const LodeExpansion  *expansion,
                         const char           *text,
                         char               ***terms,
                         char               ***from)
{
  g_autoptr(GHashTable) found = g_hash_table_new (NULL, NULL);
  Matching m = { expansion, found };
  g_autoptr(GStrvBuilder) term_builder = g_strv_builder_new ();
  g_autoptr(GStrvBuilder) from_builder = g_strv_builder_new ();

  *terms = NULL;
  *from = NULL;
  lode_code_tokenize (text, strlen (text), LODE_TOKENIZE_SPLIT, match_token_cb, &m);
  if (g_hash_table_size (found) == 0)
    return;

  for (guint i = 0; i < expansion->query->groups->len; i++)
    if (g_hash_table_contains (found, GUINT_TO_POINTER (i + 1)))
      {
        g_strv_builder_add (term_builder, ((const LodeLexicalGroup *)
                                           g_ptr_array_index (expansion->query->groups, i))->term);
        g_strv_builder_add (from_builder, g_ptr_array_index (expansion->from, i));
      }
  *terms = g_strv_builder_end (term_builder);
  *from = g_strv_builder_end (from_builder);
}

typedef struct
{
  char *const *words;
  gboolean    *held;
} Coverage;

/* A token holds a word when it starts with the word less a short suffix (`logins`, `login`;
 * `rendering`, `render`): at least 4 bytes of it, all but its last 3. */
static gboolean
coverage_token_cb (const char *token,
                   gsize       len,
                   gsize       start,
                   gsize       end,
                   gboolean    colocated,
                   gpointer    user_data)
{
  Coverage *c = user_data;

  for (guint i = 0; c->words[i] != NULL; i++)
    {
      gsize n = strlen (c->words[i]);
      gsize stem = n > 4 ? MAX (4, n - 3) : n;

      if (!c->held[i] && len >= stem && memcmp (token, c->words[i], stem) == 0)
        c->held[i] = TRUE;
    }

  return TRUE;
}

/**
 * _lode_question_coverage:
 * @plan: a question's plan
 * @text: a chunk's text
 *
 * Returns: the share of the question's words that @text holds, each counted as often as the
 *   question says it, 0 … 1
 */
double
_lode_question_coverage (const LodeQueryPlan *plan,
                         const char          *text)
{
  guint n = plan->words != NULL ? g_strv_length (plan->words) : 0;
  g_autofree gboolean *held = g_new0 (gboolean, MAX (n, 1));
  Coverage c = { plan->words, held };
  guint n_held = 0;
  guint n_said = 0;

  if (n == 0)
    return 1.0;
  lode_code_tokenize (text, strlen (text), LODE_TOKENIZE_SPLIT, coverage_token_cb, &c);
  for (guint i = 0; i < n; i++)
    {
      n_said += plan->repeats[i];
      n_held += held[i] ? plan->repeats[i] : 0;
    }

  return (double) n_held / n_said;
}
