/* lode-memory-query.c — memories' confidence, their search, and the code they name
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-knowledge"

#include "config.h"

#include <math.h>
#include <string.h>

#include "lode-memory.h"

/*
 * A memory's confidence falls with its age, at a rate set by its type (a convention holds
 * until someone changes it; a decision is revisited after months; a gotcha or a failure is
 * usually fixed sooner), and with changes to the code it names: each named file changed
 * since the memory was recorded takes away half its share, each one gone its whole share.
 * Below LODE_MEMORY_STALE_BELOW a memory is stale. "Changed" is what git says (the newest
 * commit touching the file), so a fresh clone does not make every memory stale.
 */

#define SECONDS_PER_DAY 86400.0

static double
half_life_days (const char *type)
{
  if (g_str_equal (type, "convention"))
    return INFINITY;
  if (g_str_equal (type, "decision"))
    return 180;
  return 90;   /* gotcha, failure */
}

/* Whether @token looks like code: snake_case, camelCase, a call, a scoped name. */
static gboolean
is_code_shaped (const char *token)
{
  gboolean lower = FALSE;

  if (!g_ascii_isalpha (token[0]) && token[0] != '_')
    return FALSE;
  if (strstr (token, "::") != NULL || strchr (token + 1, '_') != NULL)
    return TRUE;
  for (const char *p = token; *p != '\0'; p++)
    {
      if (g_ascii_islower (*p))
        lower = TRUE;
      else if (g_ascii_isupper (*p) && lower)
        return TRUE;
    }

  return FALSE;
}

static gboolean
is_identifier (const char *token)
{
  if (token[0] == '\0' || (!g_ascii_isalpha (token[0]) && token[0] != '_'))
    return FALSE;
  for (const char *p = token; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '_' && *p != ':' && *p != '.')
      return FALSE;
  return TRUE;
}

static void
add_path_or_name (const char   *root,
                  char         *token,
                  gboolean      quoted,
                  GHashTable   *seen,
                  GStrvBuilder *files,
                  GStrvBuilder *names)
{
  gsize n = strlen (token);

  while (n > 0 && strchr (".:!?", token[n - 1]) != NULL)
    token[--n] = '\0';
  if (n == 0)
    return;
  if (strchr (token, '/') != NULL || (strchr (token, '.') != NULL && !is_identifier (token)))
    {
      g_autofree char *path = g_build_filename (root, token, NULL);

      if (!g_path_is_absolute (token) && strstr (token, "..") == NULL &&
          g_file_test (path, G_FILE_TEST_IS_REGULAR) && g_hash_table_add (seen, token))
        g_strv_builder_add (files, token);
      return;
    }
  if (g_str_has_suffix (token, "()"))
    token[n - 2] = '\0';
  if (is_identifier (token) && (quoted || is_code_shaped (token)) &&
      g_hash_table_add (seen, token))
    g_strv_builder_add (names, token);
}

/* Reads the code a memory's text names: paths that exist under @root, and identifiers (in
 * backticks, or shaped like code). */
static void
detect_names (LodeMemory *memory,
              const char *root)
{
  g_autofree char *text = g_strconcat (memory->memory, "\n", memory->reason, NULL);
  g_autoptr(GStrvBuilder) names = g_strv_builder_new ();
  g_autoptr(GStrvBuilder) files = g_strv_builder_new ();
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_auto(GStrv) spans = g_strsplit (text, "`", -1);
  g_autoptr(GPtrArray) tokens = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);

  for (guint i = 0; memory->files[i] != NULL; i++)
    if (g_hash_table_add (seen, memory->files[i]))
      g_strv_builder_add (files, memory->files[i]);

  /* Odd spans are quoted in backticks. */
  for (guint i = 0; spans[i] != NULL; i++)
    {
      GStrv words = g_strsplit_set (spans[i], " \t\n\"'(),;", -1);

      g_ptr_array_add (tokens, words);
      for (guint w = 0; words[w] != NULL; w++)
        add_path_or_name (root, words[w], i % 2 == 1, seen, files, names);
    }

  g_strfreev (memory->names);
  memory->names = g_strv_builder_end (names);
  g_strfreev (memory->files);
  memory->files = g_strv_builder_end (files);
}

/**
 * lode_memories_assess:
 * @memories: (element-type LodeMemory): memories
 * @root: the project's root
 * @history: (nullable): its history, for the changes to the files they name
 * @now: the time to judge their age at, in seconds since the epoch
 *
 * Sets each memory's names, files, confidence, and the files changed or gone since.
 */
void
lode_memories_assess (GPtrArray      *memories,
                      const char     *root,
                      LodeGitHistory *history,
                      gint64          now)
{
  for (guint i = 0; i < memories->len; i++)
    {
      LodeMemory *memory = g_ptr_array_index (memories, i);
      g_autoptr(GStrvBuilder) changed = g_strv_builder_new ();
      g_autoptr(GStrvBuilder) gone = g_strv_builder_new ();
      double age_days = MAX (0, (now - memory->time) / SECONDS_PER_DAY);
      double confidence = exp2 (-age_days / half_life_days (memory->type));
      guint n_files;
      double lost = 0;

      if (memory->source != LODE_MEMORY_SOURCE_GIT)
        detect_names (memory, root);
      n_files = g_strv_length (memory->files);
      for (guint f = 0; f < n_files; f++)
        {
          const char *file = memory->files[f];
          g_autofree char *path = g_build_filename (root, file, NULL);
          gint64 time = history != NULL ? lode_git_history_get_file_time (history, file)
                                        : (g_file_test (path, G_FILE_TEST_EXISTS) ? 0 : -1);

          if (time < 0)
            {
              g_strv_builder_add (gone, file);
              lost += 1.0;
            }
          else if (time > memory->time)
            {
              g_strv_builder_add (changed, file);
              lost += 0.5;
            }
        }
      if (n_files > 0)
        confidence *= MAX (0.0, 1.0 - lost / n_files);

      memory->confidence = round (confidence * 100) / 100;
      g_strfreev (memory->changed);
      memory->changed = g_strv_builder_end (changed);
      g_strfreev (memory->gone);
      memory->gone = g_strv_builder_end (gone);
    }
}

/**
 * lode_memories_load:
 * @root: the project's root
 * @with_git: read git history too: the memories mined from it, and the changes to the
 *   files memories name; without it, a memory's confidence counts its age and the files
 *   gone, and no git process runs
 * @cancellable: (nullable): a #GCancellable
 * @notes: (element-type utf8): what could not be read, for the agent
 * @error: return location for a #GError
 *
 * Every memory of a project: .lode/memory.json, .codebase-context/memory.json, and (with
 * @with_git) those mined from git, assessed now.
 *
 * Returns: (transfer full) (element-type LodeMemory) (nullable): the memories, or %NULL when
 *   .lode/memory.json is malformed
 */
GPtrArray *
lode_memories_load (const char    *root,
                    gboolean       with_git,
                    GCancellable  *cancellable,
                    GPtrArray     *notes,
                    GError       **error)
{
  g_autoptr(GPtrArray) memories = lode_memory_file_read (root, error);
  g_autoptr(GPtrArray) theirs = NULL;
  g_autoptr(GPtrArray) mined = NULL;
  g_autoptr(LodeGitHistory) history = NULL;
  g_autoptr(GError) git_error = NULL;

  if (memories == NULL)
    return NULL;

  theirs = lode_memory_read_codebase_context (root, notes);
  g_ptr_array_extend_and_steal (memories, g_steal_pointer (&theirs));

  if (!with_git)
    {
      lode_memories_assess (memories, root, NULL, g_get_real_time () / G_USEC_PER_SEC);
      return g_steal_pointer (&memories);
    }
  history = lode_git_history_get (root, cancellable, &git_error);
  if (history == NULL)
    g_ptr_array_add (notes, g_strdup_printf ("Git history not read: %s", git_error->message));
  else
    {
      mined = lode_memory_mine_git (history);
      g_ptr_array_extend_and_steal (memories, g_steal_pointer (&mined));
    }

  lode_memories_assess (memories, root, history, g_get_real_time () / G_USEC_PER_SEC);

  return g_steal_pointer (&memories);
}

/* Lower-case words, identifiers cut at case changes and underscores, plural and verb
 * endings taken off: "Migrations" and "migrate" and "MigrationRunner" share "migrat". */
static void
add_terms (GHashTable *terms,
           const char *text)
{
  GString *word = g_string_new (NULL);

  for (const char *p = text; ; p++)
    {
      gboolean boundary = *p == '\0' || !g_ascii_isalnum (*p) ||
                          (word->len > 0 && g_ascii_isupper (*p) &&
                           g_ascii_islower (word->str[word->len - 1]));

      if (boundary && word->len > 1)
        {
          static const char *const endings[] = { "ions", "ing", "ion",
                                                 "es", "ed", "e", "s", NULL };
          char *lower = g_ascii_strdown (word->str, -1);
          gsize n = strlen (lower);

          for (guint e = 0; endings[e] != NULL; e++)
            {
              gsize m = strlen (endings[e]);

              if (n > m + 3 && g_str_has_suffix (lower, endings[e]))
                {
                  lower[n - m] = '\0';
                  break;
                }
            }
          g_hash_table_add (terms, lower);
        }
      if (boundary)
        g_string_truncate (word, 0);
      if (*p == '\0')
        break;
      if (g_ascii_isalnum (*p))
        g_string_append_c (word, *p);
    }
  g_string_free (word, TRUE);
}

static GHashTable *
memory_terms (const LodeMemory *memory,
              gboolean          text_only)
{
  GHashTable *terms = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  add_terms (terms, memory->memory);
  if (text_only)
    return terms;
  add_terms (terms, memory->reason);
  add_terms (terms, memory->category);
  add_terms (terms, memory->type);
  for (guint i = 0; memory->files[i] != NULL; i++)
    add_terms (terms, memory->files[i]);

  return terms;
}

static int
compare_scored (gconstpointer a,
                gconstpointer b,
                gpointer      user_data)
{
  GHashTable *scores = user_data;
  double x = *(double *) g_hash_table_lookup (scores, *(gpointer *) a);
  double y = *(double *) g_hash_table_lookup (scores, *(gpointer *) b);

  return (x < y) - (x > y);
}

static int
compare_recent (gconstpointer a,
                gconstpointer b)
{
  const LodeMemory *x = *(const LodeMemory **) a;
  const LodeMemory *y = *(const LodeMemory **) b;

  return (x->time < y->time) - (x->time > y->time);
}

/**
 * lode_memories_query:
 * @memories: (element-type LodeMemory): assessed memories
 * @type: (nullable): only this type
 * @category: (nullable): only this category
 * @query: (nullable): words; only memories holding one, best first: words of the rule count
 *   twice those of its reason, category and files, rare words more than common ones, and a
 *   confident memory above a stale one
 * @scores: (out) (optional) (transfer full) (element-type double): the query's score of each
 *   memory returned
 *
 * Returns: (transfer container) (element-type LodeMemory): the memories that pass, the
 *   newest first without a query
 */
GPtrArray *
lode_memories_query (GPtrArray   *memories,
                     const char  *type,
                     const char  *category,
                     const char  *query,
                     GArray     **scores)
{
  g_autoptr(GPtrArray) found = g_ptr_array_new ();
  g_autoptr(GHashTable) query_terms = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                             NULL);
  g_autoptr(GHashTable) by_memory = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_autoptr(GPtrArray) all_terms = g_ptr_array_new_with_free_func ((GDestroyNotify)
                                                                   g_hash_table_unref);
  g_autoptr(GPtrArray) text_terms = g_ptr_array_new_with_free_func ((GDestroyNotify)
                                                                    g_hash_table_unref);
  g_autoptr(GPtrArray) candidates = g_ptr_array_new ();

  if (query != NULL)
    add_terms (query_terms, query);

  for (guint i = 0; i < memories->len; i++)
    {
      LodeMemory *memory = g_ptr_array_index (memories, i);

      if ((type != NULL && !g_str_equal (memory->type, type)) ||
          (category != NULL && !g_str_equal (memory->category, category)))
        continue;
      g_ptr_array_add (candidates, memory);
      g_ptr_array_add (all_terms, memory_terms (memory, FALSE));
      g_ptr_array_add (text_terms, memory_terms (memory, TRUE));
    }

  for (guint i = 0; i < candidates->len; i++)
    {
      LodeMemory *memory = g_ptr_array_index (candidates, i);
      GHashTableIter iter;
      gpointer term;
      double score = 0;

      if (g_hash_table_size (query_terms) == 0)
        {
          g_ptr_array_add (found, memory);
          continue;
        }
      g_hash_table_iter_init (&iter, query_terms);
      while (g_hash_table_iter_next (&iter, &term, NULL))
        {
          guint df = 0;
          double idf;

          if (!g_hash_table_contains (g_ptr_array_index (all_terms, i), term))
            continue;
          for (guint j = 0; j < all_terms->len; j++)
            df += g_hash_table_contains (g_ptr_array_index (all_terms, j), term);
          idf = log (1.0 + (double) candidates->len / df);
          score += idf * (g_hash_table_contains (g_ptr_array_index (text_terms, i), term) ? 2
                                                                                           : 1);
        }
      if (score > 0)
        {
          double *value = g_new (double, 1);

          *value = score * (0.5 + 0.5 * memory->confidence);
          g_hash_table_insert (by_memory, memory, value);
          g_ptr_array_add (found, memory);
        }
    }

  if (g_hash_table_size (query_terms) > 0)
    g_ptr_array_sort_with_data (found, compare_scored, by_memory);
  else
    g_ptr_array_sort (found, compare_recent);

  if (scores != NULL)
    {
      *scores = g_array_sized_new (FALSE, FALSE, sizeof (double), found->len);
      for (guint i = 0; i < found->len; i++)
        {
          double *value = g_hash_table_lookup (by_memory, g_ptr_array_index (found, i));
          double score = value != NULL ? round (*value * 100) / 100 : 0;

          g_array_append_val (*scores, score);
        }
    }

  return g_steal_pointer (&found);
}

/**
 * lode_memory_names_file:
 * @memory: an assessed memory
 * @path: a file, relative to the project root
 *
 * Returns: whether @memory names @path (a path written as the end of @path counts)
 */
gboolean
lode_memory_names_file (const LodeMemory *memory,
                        const char       *path)
{
  for (guint i = 0; memory->files[i] != NULL; i++)
    {
      const char *file = memory->files[i];

      if (g_str_equal (file, path) ||
          (g_str_has_suffix (path, file) && path[strlen (path) - strlen (file) - 1] == '/'))
        return TRUE;
    }

  return FALSE;
}

/**
 * lode_memory_names_symbol:
 * @memory: an assessed memory
 * @name: a declaration's name
 *
 * Returns: whether @memory names @name, alone or as the last part of a scoped name
 *   (`Store::open`, `store.open`)
 */
gboolean
lode_memory_names_symbol (const LodeMemory *memory,
                          const char       *name)
{
  for (guint i = 0; memory->names[i] != NULL; i++)
    {
      const char *written = memory->names[i];
      const char *last = written;

      for (const char *p = written; *p != '\0'; p++)
        if (*p == '.' || *p == ':')
          last = p + 1;
      if (g_str_equal (written, name) || g_str_equal (last, name))
        return TRUE;
    }

  return FALSE;
}

static void
add_strv (JsonBuilder        *builder,
          const char         *member,
          const char *const  *values)
{
  if (values == NULL || values[0] == NULL)
    return;
  json_builder_set_member_name (builder, member);
  json_builder_begin_array (builder);
  for (guint i = 0; values[i] != NULL; i++)
    json_builder_add_string_value (builder, values[i]);
  json_builder_end_array (builder);
}

/**
 * lode_memory_to_json:
 * @memory: an assessed memory
 *
 * Returns: (transfer full): its JSON form (see LODE_MEMORY_SCHEMA in lode-knowledge-forms.h)
 */
JsonNode *
lode_memory_to_json (const LodeMemory *memory)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "id");
  json_builder_add_string_value (builder, memory->id);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, memory->type);
  json_builder_set_member_name (builder, "category");
  json_builder_add_string_value (builder, memory->category);
  json_builder_set_member_name (builder, "memory");
  json_builder_add_string_value (builder, memory->memory);
  json_builder_set_member_name (builder, "reason");
  json_builder_add_string_value (builder, memory->reason);
  json_builder_set_member_name (builder, "date");
  json_builder_add_string_value (builder, memory->date);
  json_builder_set_member_name (builder, "source");
  json_builder_add_string_value (builder, lode_memory_source_to_string (memory->source));
  if (memory->commit != NULL)
    {
      json_builder_set_member_name (builder, "commit");
      json_builder_add_string_value (builder, memory->commit);
    }
  add_strv (builder, "files", (const char *const *) memory->files);
  json_builder_set_member_name (builder, "confidence");
  json_builder_add_double_value (builder, memory->confidence);
  json_builder_set_member_name (builder, "stale");
  json_builder_add_boolean_value (builder, memory->confidence < LODE_MEMORY_STALE_BELOW);
  add_strv (builder, "codeChanged", (const char *const *) memory->changed);
  add_strv (builder, "codeGone", (const char *const *) memory->gone);
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}
