/* lode-search-expansion.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* A question widened by the code lexicon (lode-lexicon.c): each of its words brings the
 * lexicon's nearest words that the project's index holds, as a lexical query of their own
 * whose groups weigh EXPANSION_WEIGHT × their similarity (a plain word weighs 1); the question
 * gets a vector, and so does every chunk (its path and text), kept by the searcher per
 * version of the index, so that the chunks nearest to the question can be found. The
 * searcher decides when and how much (lode-searcher.c: lexicon_gate, expansion_leg,
 * lexicon_leg). */

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
/* At most this many terms in all. */
#define EXPANSION_MAX_TERMS       32

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

static gboolean
is_query_term (const LodeQueryPlan *plan,
               const char          *term)
{
  return g_strv_contains ((const char *const *) plan->terms, term);
}

/**
 * _lode_expansion_new:
 * @lexicon: the lexicon
 * @plan: a question's plan (LODE_QUERY_NATURAL, with a lexical query)
 * @backend: the index, for which of the neighbours it holds
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the widened question; %NULL when the lexicon knows
 *   none of its words
 */
LodeExpansion *
_lode_expansion_new (LodeLexicon          *lexicon,
                     const LodeQueryPlan  *plan,
                     LodeSearchBackend    *backend,
                     GError              **error)
{
  g_autoptr(LodeExpansion) expansion = g_new0 (LodeExpansion, 1);
  g_autoptr(GPtrArray) terms = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) from = g_ptr_array_new ();
  g_autoptr(GArray) similarity = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GPtrArray) forms = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *words = NULL;

  g_assert (plan->lexical != NULL && plan->words != NULL);

  /* Each word's nearest neighbours, in order: more than are kept, as the index may lack
   * the nearest ones. A neighbour of several words goes to the first. */
  for (guint i = 0; plan->words[i] != NULL; i++)
    {
      g_autofree char *form = lexicon_form (lexicon, plan->words[i]);
      g_autoptr(GArray) near = NULL;

      if (form == NULL)
        continue;
      g_ptr_array_add (forms, g_strdup (form));
      near = lode_lexicon_neighbours (lexicon, form, EXPANSION_PER_WORD,
                                      EXPANSION_MIN_SIMILARITY);

      for (guint j = 0; j < near->len; j++)
        {
          LodeLexiconTerm *t = &g_array_index (near, LodeLexiconTerm, j);

          if (is_query_term (plan, t->term) || g_str_equal (t->term, form) ||
              g_ptr_array_find_with_equal_func (terms, t->term, g_str_equal, NULL))
            continue;
          g_ptr_array_add (terms, g_steal_pointer (&t->term));
          g_ptr_array_add (from, plan->words[i]);
          g_array_append_val (similarity, t->similarity);
        }
    }
  if (terms->len == 0)
    return NULL;

  /* The EXPANSION_PER_WORD nearest of each word. Whether the index holds them is left to
   * the lexical leg, so that every store widens a question alike. */
  expansion->query = _lode_lexical_query_new ();
  expansion->from = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0, kept = 0; i < terms->len; i++)
    {
      LodeLexicalGroup *group;

      if (i > 0 && g_ptr_array_index (from, i) != g_ptr_array_index (from, i - 1))
        kept = 0;
      if (kept == EXPANSION_PER_WORD || expansion->query->groups->len == EXPANSION_MAX_TERMS)
        continue;
      kept++;
      group = g_new0 (LodeLexicalGroup, 1);
      group->term = g_strdup (g_ptr_array_index (terms, i));
      group->weight = EXPANSION_WEIGHT * g_array_index (similarity, double, i);
      g_ptr_array_add (expansion->query->groups, group);
      g_ptr_array_add (expansion->from, g_strdup (g_ptr_array_index (from, i)));
    }
  if (expansion->query->groups->len == 0)
    return NULL;

  g_ptr_array_add (forms, NULL);
  words = g_strjoinv (" ", (char **) forms->pdata);
  expansion->lexicon = g_object_ref (lexicon);
  expansion->vector = g_new (float, lode_lexicon_get_dims (lexicon));
  if (!lode_lexicon_embed (lexicon, words, strlen (words), expansion->vector))
    return NULL;

  return g_steal_pointer (&expansion);
}

/* The lexical query of the neighbours. */
const LodeLexicalQuery *
_lode_expansion_get_query (const LodeExpansion *expansion)
{
  return expansion->query;
}

/**
 * _lode_expansion_sync_chunks:
 * @lexicon: the lexicon
 * @backend: the index
 * @vectors: (inout) (transfer full) (nullable): the lexicon vectors of the index's chunks
 * @version: (inout): the index's version they were made for
 * @error: return location for a #GError
 *
 * Brings @vectors up to date: when the index changed since @version, every chunk's lexicon
 * vector (its path and text), made again.
 */
gboolean
_lode_expansion_sync_chunks (LodeLexicon        *lexicon,
                             LodeSearchBackend  *backend,
                             LodeVectorIndex   **vectors,
                             gint64             *version,
                             GError            **error)
{
  gint64 now = lode_search_backend_get_version (backend);
  guint dims = lode_lexicon_get_dims (lexicon);
  g_autoptr(LodeVectorIndex) index = NULL;
  g_autoptr(GArray) ids = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autofree float *vector = g_new (float, dims);

  if (*vectors != NULL && *version == now)
    return TRUE;

  ids = lode_search_backend_dup_chunk_ids (backend, NULL, error);
  if (ids == NULL)
    return FALSE;
  rows = lode_search_backend_fetch_chunks (backend, (const gint64 *) ids->data, ids->len,
                                           error);
  if (rows == NULL)
    return FALSE;

  index = lode_vector_index_new (dims);
  for (guint i = 0; i < rows->len; i++)
    {
      const LodeChunkRow *row = g_ptr_array_index (rows, i);
      g_autoptr(GError) local_error = NULL;
      g_autofree char *body = lode_search_backend_dup_chunk_text (backend, row->chunk_id,
                                                                  &local_error);
      g_autofree char *text = NULL;

      if (local_error != NULL)
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }
      text = g_strconcat (row->path, "\n", body != NULL ? body : "", NULL);
      if (lode_lexicon_embed (lexicon, text, strlen (text), vector))
        lode_vector_index_add (index, row->chunk_id, vector);
    }

  g_clear_object (vectors);
  *vectors = g_steal_pointer (&index);
  *version = now;
  return TRUE;
}

/**
 * _lode_expansion_search:
 * @expansion: a widened question
 * @vectors: the chunks' lexicon vectors (_lode_expansion_sync_chunks())
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
 * Returns: the share of the question's words that @text holds, 0 … 1
 */
double
_lode_question_coverage (const LodeQueryPlan *plan,
                         const char          *text)
{
  guint n = plan->words != NULL ? g_strv_length (plan->words) : 0;
  g_autofree gboolean *held = g_new0 (gboolean, MAX (n, 1));
  Coverage c = { plan->words, held };
  guint n_held = 0;

  if (n == 0)
    return 1.0;
  lode_code_tokenize (text, strlen (text), LODE_TOKENIZE_SPLIT, coverage_token_cb, &c);
  for (guint i = 0; i < n; i++)
    n_held += held[i];

  return (double) n_held / n;
}
