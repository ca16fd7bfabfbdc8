/* lode-searcher-paths.c — the index's files in memory: path queries, name evidence
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-search"

#define _GNU_SOURCE  /* memmem() */

#include "config.h"

#include <math.h>
#include <string.h>

#include "lode-code-tokenizer.h"
#include "lode-searcher-private.h"

/* A query term that a file's name holds adds this many times its weight times its rarity
 * among file names (see _lode_searcher_name_evidence()). */
#define NAME_EVIDENCE_WEIGHT    6.0

/* Forgets the files of the index, which the next _lode_searcher_ensure_files() reads again. */
void
_lode_searcher_clear_files (LodeSearcher *self)
{
  for (guint i = 0; self->path_tokens != NULL && self->path_tokens[i] != NULL; i++)
    g_strfreev (self->path_tokens[i]);
  g_clear_pointer (&self->path_tokens, g_free);
  g_clear_pointer (&self->files, g_ptr_array_unref);
  g_clear_pointer (&self->lower_paths, g_free);
  g_clear_pointer (&self->lower_offsets, g_free);
  g_clear_pointer (&self->name_counts, g_hash_table_unref);
}

/* The tokens of a file's name without its extension, split as the tokenizer splits code
 * (`zstd_compress.c` → zstd_compress, zstd, compress), each once. */
static char **
name_tokens (const char *path)
{
  const char *base = strrchr (path, '/');
  g_autofree char *stem = g_strdup (base != NULL ? base + 1 : path);
  char *dot = stem[0] != '\0' ? strchr (stem + 1, '.') : NULL;
  g_auto(GStrv) tokens = NULL;
  GPtrArray *unique = g_ptr_array_new ();

  if (dot != NULL)
    *dot = '\0';
  tokens = lode_code_tokenize_to_strv (stem, LODE_TOKENIZE_SPLIT);
  for (guint i = 0; tokens[i] != NULL; i++)
    if (!g_ptr_array_find_with_equal_func (unique, tokens[i], g_str_equal, NULL))
      g_ptr_array_add (unique, g_strdup (tokens[i]));
  g_ptr_array_add (unique, NULL);

  return (char **) g_ptr_array_free (unique, FALSE);
}

/* Reads every file of the index once per version of it: their paths (also in lower case,
 * for path queries) and how many files' names hold each token (a token few names hold says
 * which file a question means). */
gboolean
_lode_searcher_ensure_files (const Search  *search,
                             GError       **error)
{
  LodeSearcher *self = search->searcher;
  gint64 version = lode_search_backend_get_version (search->backend);
  g_autoptr(GPtrArray) rows = NULL;
  GString *lower;

  if (self->files != NULL && self->files_version == version)
    return TRUE;

  rows = lode_search_backend_find_paths (search->backend, "", NULL, error);
  if (rows == NULL)
    return FALSE;

  _lode_searcher_clear_files (self);
  lower = g_string_new (NULL);
  self->lower_offsets = g_new (guint, rows->len + 1);
  self->name_counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < rows->len; i++)
    {
      const LodePathRow *row = g_ptr_array_index (rows, i);
      g_auto(GStrv) tokens = name_tokens (row->path);
      g_autofree char *lower_path = g_ascii_strdown (row->path, -1);

      self->lower_offsets[i] = lower->len;
      g_string_append_len (lower, lower_path, strlen (lower_path) + 1);
      for (guint j = 0; tokens[j] != NULL; j++)
        {
          guint n = GPOINTER_TO_UINT (g_hash_table_lookup (self->name_counts, tokens[j]));

          g_hash_table_insert (self->name_counts, g_strdup (tokens[j]), GUINT_TO_POINTER (n + 1));
        }
    }
  self->lower_offsets[rows->len] = lower->len;
  self->lower_paths = g_string_free (lower, FALSE);
  self->files = g_steal_pointer (&rows);
  self->files_version = version;

  return TRUE;
}

/* The first file from @from on whose lower-case path holds @needle (not empty), or the
 * number of files. One memmem() over all the paths: a match cannot span two of them, since
 * @needle holds no NUL. */
static guint
next_path_holding (LodeSearcher *self,
                   guint         from,
                   const char   *needle,
                   gsize         needle_len)
{
  const char *start;
  const char *end = self->lower_paths + self->lower_offsets[self->files->len];
  const char *hit;
  guint lo, hi;

  if (from >= self->files->len)
    return self->files->len;
  start = self->lower_paths + self->lower_offsets[from];
  hit = memmem (start, end - start, needle, needle_len);
  if (hit == NULL)
    return self->files->len;

  /* The path that holds the hit: offsets[lo] <= hit < offsets[hi]. */
  lo = from;
  hi = self->files->len;
  while (hi - lo > 1)
    {
      guint mid = lo + (hi - lo) / 2;

      if (self->lower_paths + self->lower_offsets[mid] <= hit)
        lo = mid;
      else
        hi = mid;
    }

  return lo;
}

/* The tokens of every path, as the index's tokenizer cuts them, for path queries that match
 * words; once per version of the index, after ensure_files(). */
static void
ensure_path_tokens (LodeSearcher *self)
{
  if (self->path_tokens != NULL)
    return;

  self->path_tokens = g_new0 (char **, self->files->len + 1);
  for (guint i = 0; i < self->files->len; i++)
    self->path_tokens[i] = lode_code_tokenize_to_strv (
      ((const LodePathRow *) g_ptr_array_index (self->files, i))->path, LODE_TOKENIZE_SPLIT);
}

/* A file whose name holds a word of the question is more likely the one meant, the more so
 * the fewer names hold that word: each such term adds its weight times log (N / n), N files
 * in the index, n of them with the word in their name. */
double
_lode_searcher_name_evidence (const Search *search,
                              const char   *path)
{
  LodeSearcher *self = search->searcher;
  g_auto(GStrv) tokens = name_tokens (path);
  double evidence = 0.0;

  for (guint i = 0; i < search->plan->lexical->groups->len; i++)
    {
      const LodeLexicalGroup *group = g_ptr_array_index (search->plan->lexical->groups, i);
      guint n;

      if (!g_strv_contains ((const char *const *) tokens, group->term))
        continue;
      n = GPOINTER_TO_UINT (g_hash_table_lookup (self->name_counts, group->term));
      evidence += group->weight * log ((self->files->len + 1.0) / MAX (n, 1));
    }

  return NAME_EVIDENCE_WEIGHT * evidence;
}

/* Path queries: paths that end with the query (best when it is a whole trailing component:
 * `lode-store.c` → src/liblode/lode-store.c) or contain it; then, if that is not enough,
 * files whose paths hold all of its words (`cli/main` → src/cli/lode-main.c would not,
 * src/cli/main.c would). Each file is represented by its first chunk. Scores: 1 for a whole
 * trailing component, 2/3 for a trailing part, 1/3 for a part elsewhere, each less up to a
 * sixth for long paths; below 1/3 for files that only hold the query's words. */
GPtrArray *
_lode_searcher_search_paths (Search   *search,
                             GError  **error)
{
  LodeSearcher *self = search->searcher;
  g_autoptr(GArray) candidates = _lode_searcher_candidates_new ();
  g_autoptr(GHashTable) seen = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autofree char *query = NULL;
  const char *typed = search->plan->path;
  gsize query_len;
  guint n_files = 0;

  /* A leading "./" or "/" says nothing about the relative paths in the index. */
  while (typed[0] == '.' && typed[1] == '/')
    typed += 2;
  while (typed[0] == '/')
    typed++;
  query = g_ascii_strdown (typed, -1);
  query_len = strlen (query);

  /* The index's paths are in memory: a path query reads no row but its results'. */
  if (query_len > 0)
    {
      if (!_lode_searcher_ensure_files (search, error))
        return NULL;
      n_files = self->files->len;
    }

  for (guint i = n_files > 0 ? next_path_holding (self, 0, query, query_len) : 0;
       i < n_files;
       i = next_path_holding (self, i + 1, query, query_len))
    {
      const LodePathRow *p = g_ptr_array_index (self->files, i);
      const char *lower = self->lower_paths + self->lower_offsets[i];
      gsize path_len = self->lower_offsets[i + 1] - self->lower_offsets[i] - 1;
      double score;
      Candidate c = { 0 };

      if (p->first_chunk == 0 ||
          !lode_search_filter_accepts (&search->filter, p->language, p->path))
        continue;
      if (path_len >= query_len && strcmp (lower + path_len - query_len, query) == 0)
        score = (path_len == query_len || lower[path_len - query_len - 1] == '/') ? 3.0 : 2.0;
      else
        score = 1.0;

      c.chunk_id = p->first_chunk;
      /* Shorter paths first among equals: `main.c` over `t/helper/main.c`. */
      c.score = (score - MIN (path_len, 999) / 1000.0 * 0.5) / 3.0;
      g_array_append_val (candidates, c);
    }

  if (!_lode_searcher_load_candidates (search, candidates, error))
    return NULL;
  for (guint i = 0; i < candidates->len; i++)
    g_hash_table_add (seen, &g_array_index (candidates, Candidate, i).row->file_id);

  /* Files whose paths hold every word of the query (as the index's tokenizer cuts paths),
   * scored below 1/3, shorter paths first; a file's first chunk stands for it. */
  if (candidates->len < search->limit && search->plan->terms != NULL &&
      search->plan->terms[0] != NULL && query_len > 0)
    {
      g_autoptr(GArray) words = _lode_searcher_candidates_new ();
      const char *ascii = NULL;
      gsize ascii_len = 0;

      /* An ASCII token of a path is a part of its lower-case form: the paths that hold the
       * first ASCII word are the only ones whose tokens need comparing. */
      for (guint t = 0; ascii == NULL && search->plan->terms[t] != NULL; t++)
        if (search->plan->terms[t][0] != '\0' && g_str_is_ascii (search->plan->terms[t]))
          ascii = search->plan->terms[t];
      if (ascii != NULL)
        ascii_len = strlen (ascii);

      ensure_path_tokens (self);
      for (guint i = ascii != NULL ? next_path_holding (self, 0, ascii, ascii_len) : 0;
           i < n_files;
           i = ascii != NULL ? next_path_holding (self, i + 1, ascii, ascii_len) : i + 1)
        {
          const LodePathRow *p = g_ptr_array_index (self->files, i);
          gboolean all = TRUE;
          Candidate c = { 0 };

          if (p->first_chunk == 0 || g_hash_table_contains (seen, &p->file_id) ||
              !lode_search_filter_accepts (&search->filter, p->language, p->path))
            continue;
          for (guint t = 0; all && search->plan->terms[t] != NULL; t++)
            all = g_strv_contains ((const char *const *) self->path_tokens[i],
                                   search->plan->terms[t]);
          if (!all)
            continue;
          c.chunk_id = p->first_chunk;
          c.score = (1.0 - MIN (strlen (p->path), 999) / 1000.0 * 0.5) / 4.0;
          g_array_append_val (words, c);
        }
      g_array_sort (words, _lode_searcher_compare_scores);
      if (words->len > SEARCH_MAX_CANDIDATES)
        g_array_set_size (words, SEARCH_MAX_CANDIDATES);
      if (!_lode_searcher_load_candidates (search, words, error))
        return NULL;
      g_array_append_vals (candidates, words->data, words->len);
      /* The rows moved to candidates. */
      g_array_set_clear_func (words, NULL);
    }

  g_array_sort (candidates, _lode_searcher_compare_candidates);

  return _lode_searcher_make_results (search, candidates, error);
}
