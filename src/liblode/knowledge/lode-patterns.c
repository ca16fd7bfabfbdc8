/* lode-patterns.c — the alternatives a team uses for each concern, and where it is heading
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-knowledge"

#include "config.h"

#include <string.h>

#include "lode-i18n.h"
#include "lode-patterns.h"

/*
 * Which alternative each file uses for each concern comes from the import graph's external
 * packages and, for what needs no import, the file's text (lode-pattern-catalog). Whether an
 * alternative rises or declines comes from when its files last changed (git): the concern's
 * files are split at their median date, and an alternative whose share of the newer half
 * exceeds its share of the older half by LODE_PATTERN_TREND_DELTA is rising (the reverse:
 * declining). Two alternatives that each hold a fifth of the files, with neither rising, are
 * a conflict: the team has not decided; one rising past another is a migration under way.
 * Golden files use the most preferred alternatives and no declining one, recent first.
 */

/* Concerns with fewer files show no trend: a handful of dates says nothing. */
#define MIN_FILES_FOR_TREND 4
#define MAX_GOLDEN 5
#define MAX_EXAMPLES 3
#define MAX_SHAPE_BYTES (1024 * 1024)

static void
use_free (LodePatternUse *use)
{
  g_free (use->alternative);
  g_ptr_array_unref (use->files);
  g_free (use);
}

static void
pattern_free (LodePattern *pattern)
{
  g_ptr_array_unref (pattern->uses);
  g_free (pattern);
}

void
lode_patterns_free (LodePatterns *patterns)
{
  if (patterns == NULL)
    return;

  g_ptr_array_unref (patterns->patterns);
  g_ptr_array_unref (patterns->golden);
  g_free (patterns);
}

static gboolean
package_matches (const char *package,
                 const char *name)
{
  gsize n = strlen (name);

  return strncmp (package, name, n) == 0 &&
         (package[n] == '\0' || strchr ("/.:\\", package[n]) != NULL);
}

/* category → alternative → files (path → unused) */
static void
record (GHashTable *found,
        const char *category,
        const char *family,
        const char *alternative,
        const char *path)
{
  g_autofree char *key = g_strconcat (category, "|", family, NULL);
  GHashTable *alternatives = g_hash_table_lookup (found, key);
  GHashTable *files;

  if (alternatives == NULL)
    {
      alternatives = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                            (GDestroyNotify) g_hash_table_unref);
      g_hash_table_insert (found, g_steal_pointer (&key), alternatives);
    }
  files = g_hash_table_lookup (alternatives, alternative);
  if (files == NULL)
    {
      files = g_hash_table_new (g_str_hash, g_str_equal);
      g_hash_table_insert (alternatives, (gpointer) alternative, files);
    }
  g_hash_table_add (files, (gpointer) path);
}

/* Code the team did not write: fixtures copied from other projects, vendored trees. */
static gboolean
is_borrowed (const char *path)
{
  static const char *const components[] = {
    "fixtures", "fixture", "__fixtures__", "testdata", "vendor", "third_party", "third-party",
    "node_modules", NULL
  };
  g_auto(GStrv) parts = g_strsplit (path, "/", -1);

  for (guint i = 0; parts[i] != NULL && parts[i + 1] != NULL; i++)
    if (g_strv_contains (components, parts[i]))
      return TRUE;

  return FALSE;
}

static gboolean
family_has_shapes (const char *family)
{
  guint n;
  const LodePatternRule *rules = lode_pattern_rules (&n);

  for (guint i = 0; i < n; i++)
    if (rules[i].match == LODE_PATTERN_MATCH_SHAPE && g_str_equal (rules[i].family, family))
      return TRUE;

  return FALSE;
}

static void
scan_file (GHashTable      *found,
           const char      *root,
           const LodeGraph *graph,
           guint            file)
{
  const char *path = lode_graph_get_path (graph, file);
  const char *family = lode_pattern_family (lode_graph_get_language (graph, file));
  g_autoptr(GPtrArray) packages = NULL;
  guint n_rules;
  const LodePatternRule *rules = lode_pattern_rules (&n_rules);

  if (family == NULL)
    return;

  packages = lode_graph_dup_packages (graph, file);
  for (guint p = 0; p < packages->len; p++)
    {
      const LodePatternRule *best = NULL;

      for (guint i = 0; i < n_rules; i++)
        if (rules[i].match == LODE_PATTERN_MATCH_PACKAGE && g_str_equal (rules[i].family, family) &&
            package_matches (g_ptr_array_index (packages, p), rules[i].text) &&
            (best == NULL || strlen (rules[i].text) > strlen (best->text)))
          best = &rules[i];
      if (best != NULL)
        record (found, best->category, family, best->alternative, path);
    }

  if (family_has_shapes (family))
    {
      g_autofree char *full = g_build_filename (root, path, NULL);
      g_autofree char *text = NULL;
      gsize length;

      if (!g_file_get_contents (full, &text, &length, NULL) || length > MAX_SHAPE_BYTES)
        return;
      for (guint i = 0; i < n_rules; i++)
        if (rules[i].match == LODE_PATTERN_MATCH_SHAPE && g_str_equal (rules[i].family, family) &&
            strstr (text, rules[i].text) != NULL)
          record (found, rules[i].category, family, rules[i].alternative, path);
    }
}

/* When files last changed, asked of the history once per file. */
typedef struct
{
  LodeGitHistory *history;
  GHashTable     *times;    /* path → gint64 * */
} Dates;

static gint64
file_time (Dates      *dates,
           const char *path)
{
  gint64 *time = g_hash_table_lookup (dates->times, path);

  if (time == NULL)
    {
      time = g_new (gint64, 1);
      *time = dates->history != NULL ? lode_git_history_get_file_time (dates->history, path)
                                     : 0;
      g_hash_table_insert (dates->times, g_strdup (path), time);
    }

  return *time;
}

static int
compare_recent (gconstpointer a,
                gconstpointer b,
                gpointer      user_data)
{
  Dates *history = user_data;
  const char *x = *(const char **) a;
  const char *y = *(const char **) b;
  gint64 tx = file_time (history, x);
  gint64 ty = file_time (history, y);

  if (tx != ty)
    return (tx < ty) - (tx > ty);
  return strcmp (x, y);
}

static int
compare_times (gconstpointer a,
               gconstpointer b)
{
  gint64 x = *(const gint64 *) a;
  gint64 y = *(const gint64 *) b;

  return (x > y) - (x < y);
}

static int
compare_uses (gconstpointer a,
              gconstpointer b)
{
  const LodePatternUse *x = *(const LodePatternUse **) a;
  const LodePatternUse *y = *(const LodePatternUse **) b;

  if (x->files->len != y->files->len)
    return (x->files->len < y->files->len) - (x->files->len > y->files->len);
  if (x->newest != y->newest)
    return (x->newest < y->newest) - (x->newest > y->newest);
  return strcmp (x->alternative, y->alternative);
}

static LodePattern *
pattern_new (const char     *category,
             const char     *family,
             GHashTable     *alternatives,
             Dates          *history)
{
  LodePattern *pattern = g_new0 (LodePattern, 1);
  g_autoptr(GHashTable) all = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (gint64));
  GHashTableIter iter;
  gpointer name, files;
  gint64 median = 0;
  guint n_newer = 0, n_older = 0;
  guint wide = 0;
  gboolean rising = FALSE;

  pattern->category = category;
  pattern->family = family;
  pattern->uses = g_ptr_array_new_with_free_func ((GDestroyNotify) use_free);

  g_hash_table_iter_init (&iter, alternatives);
  while (g_hash_table_iter_next (&iter, &name, &files))
    {
      LodePatternUse *use = g_new0 (LodePatternUse, 1);
      GHashTableIter f;
      gpointer path;

      use->alternative = g_strdup (name);
      use->files = g_ptr_array_new_with_free_func (g_free);
      g_hash_table_iter_init (&f, files);
      while (g_hash_table_iter_next (&f, &path, NULL))
        {
          g_ptr_array_add (use->files, g_strdup (path));
          g_hash_table_add (all, path);
        }
      g_ptr_array_sort_with_data (use->files, compare_recent, history);
      use->newest = file_time (history, g_ptr_array_index (use->files, 0));
      use->trend = "stable";
      g_ptr_array_add (pattern->uses, use);
    }
  pattern->n_files = g_hash_table_size (all);

  /* The median date of the concern's files splits them into older and newer. */
  g_hash_table_iter_init (&iter, all);
  while (g_hash_table_iter_next (&iter, &name, NULL))
    {
      gint64 t = file_time (history, name);

      g_array_append_val (times, t);
    }
  g_array_sort (times, compare_times);
  if (times->len > 0)
    median = g_array_index (times, gint64, (times->len - 1) / 2);
  for (guint i = 0; i < times->len; i++)
    g_array_index (times, gint64, i) > median ? n_newer++ : n_older++;
  /* Most files share the latest date: the newer half is those of that date. */
  if (n_newer == 0 && times->len > 0 && g_array_index (times, gint64, 0) < median)
    {
      median--;
      n_newer = n_older = 0;
      for (guint i = 0; i < times->len; i++)
        g_array_index (times, gint64, i) > median ? n_newer++ : n_older++;
    }

  for (guint u = 0; u < pattern->uses->len; u++)
    {
      LodePatternUse *use = g_ptr_array_index (pattern->uses, u);
      guint newer = 0, older = 0;
      double delta;

      use->share = (double) use->files->len / pattern->n_files;
      if (pattern->uses->len < 2 || pattern->n_files < MIN_FILES_FOR_TREND || n_newer == 0 ||
          n_older == 0)
        continue;
      for (guint i = 0; i < use->files->len; i++)
        file_time (history, g_ptr_array_index (use->files, i)) > median ? newer++ : older++;
      delta = (double) newer / n_newer - (double) older / n_older;
      if (delta >= LODE_PATTERN_TREND_DELTA)
        use->trend = "rising";
      else if (delta <= -LODE_PATTERN_TREND_DELTA)
        use->trend = "declining";
    }
  g_ptr_array_sort (pattern->uses, compare_uses);

  for (guint u = 0; u < pattern->uses->len; u++)
    {
      LodePatternUse *use = g_ptr_array_index (pattern->uses, u);

      if (g_str_equal (use->trend, "rising"))
        {
          rising = TRUE;
          if (pattern->preferred == NULL)
            pattern->preferred = use->alternative;
        }
      if (use->share >= LODE_PATTERN_CONFLICT_SHARE && use->files->len >= 2)
        wide++;
    }
  for (guint u = 0; u < pattern->uses->len && pattern->preferred == NULL; u++)
    {
      LodePatternUse *use = g_ptr_array_index (pattern->uses, u);

      if (!g_str_equal (use->trend, "declining"))
        pattern->preferred = use->alternative;
    }
  pattern->conflict = wide >= 2 && !rising;
  /* While the team has not decided, nothing is preferred. */
  if (pattern->conflict)
    pattern->preferred = NULL;

  return pattern;
}

static int
compare_scores (gconstpointer a,
                gconstpointer b,
                gpointer      user_data)
{
  GHashTable *scores = user_data;
  double x = *(double *) g_hash_table_lookup (scores, *(gpointer *) a);
  double y = *(double *) g_hash_table_lookup (scores, *(gpointer *) b);

  if (x != y)
    return (x < y) - (x > y);
  return strcmp (*(const char **) a, *(const char **) b);
}

static GPtrArray *
golden_files (GPtrArray      *patterns,
              Dates          *history)
{
  g_autoptr(GHashTable) scores = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  g_autoptr(GPtrArray) paths = g_ptr_array_new ();
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (gint64));
  GPtrArray *golden = g_ptr_array_new_with_free_func (g_free);
  GHashTableIter iter;
  gpointer path, value;

  for (guint p = 0; p < patterns->len; p++)
    {
      LodePattern *pattern = g_ptr_array_index (patterns, p);

      for (guint u = 0; u < pattern->uses->len; u++)
        {
          LodePatternUse *use = g_ptr_array_index (pattern->uses, u);
          double weight = g_strcmp0 (use->alternative, pattern->preferred) == 0 ? 1.0
                          : g_str_equal (use->trend, "declining") ? -1.0 : 0.0;

          for (guint f = 0; f < use->files->len; f++)
            {
              double *score = g_hash_table_lookup (scores, g_ptr_array_index (use->files, f));

              if (score == NULL)
                {
                  score = g_new0 (double, 1);
                  g_hash_table_insert (scores, g_ptr_array_index (use->files, f), score);
                }
              *score += weight;
            }
        }
    }

  /* Newer files are better examples: up to half a point by their rank in time. */
  g_hash_table_iter_init (&iter, scores);
  while (g_hash_table_iter_next (&iter, &path, NULL))
    {
      gint64 t = file_time (history, path);

      g_array_append_val (times, t);
    }
  g_array_sort (times, compare_times);
  g_hash_table_iter_init (&iter, scores);
  while (g_hash_table_iter_next (&iter, &path, &value))
    {
      gint64 t = file_time (history, path);
      guint rank = 0;

      while (rank < times->len && g_array_index (times, gint64, rank) < t)
        rank++;
      if (*(double *) value >= 1.0)
        {
          *(double *) value += 0.5 * rank / MAX (times->len, 1);
          g_ptr_array_add (paths, path);
        }
    }
  g_ptr_array_sort_with_data (paths, compare_scores, scores);
  for (guint i = 0; i < paths->len && i < MAX_GOLDEN; i++)
    g_ptr_array_add (golden, g_strdup (g_ptr_array_index (paths, i)));

  return golden;
}

/**
 * lode_patterns_analyse:
 * @root: the project's root
 * @graph: its import graph
 * @history: (nullable): its history, for the files' dates
 * @cancellable: (nullable): a #GCancellable
 *
 * Returns: (transfer full): the concerns the project's files show, their trends, conflicts
 *   and golden files
 */
LodePatterns *
lode_patterns_analyse (const char      *root,
                       const LodeGraph *graph,
                       LodeGitHistory  *history,
                       GCancellable    *cancellable)
{
  g_autoptr(GHashTable) found = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                       (GDestroyNotify) g_hash_table_unref);
  const char *const *categories = lode_pattern_categories ();
  static const char *const families[] = {
    "js", "python", "go", "rust", "jvm", "csharp", "php", "ruby", "c", NULL
  };
  LodePatterns *patterns = g_new0 (LodePatterns, 1);
  g_autoptr(GHashTable) times = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  Dates dates = { history, times };

  for (guint f = 0; f < lode_graph_get_n_files (graph); f++)
    {
      if (g_cancellable_is_cancelled (cancellable))
        break;
      if (!is_borrowed (lode_graph_get_path (graph, f)))
        scan_file (found, root, graph, f);
    }

  patterns->patterns = g_ptr_array_new_with_free_func ((GDestroyNotify) pattern_free);
  for (guint c = 0; categories[c] != NULL; c++)
    for (guint f = 0; families[f] != NULL; f++)
      {
        g_autofree char *key = g_strconcat (categories[c], "|", families[f], NULL);
        GHashTable *alternatives = g_hash_table_lookup (found, key);

        if (alternatives != NULL)
          g_ptr_array_add (patterns->patterns, pattern_new (categories[c], families[f],
                                                            alternatives, &dates));
      }
  patterns->golden = golden_files (patterns->patterns, &dates);

  return patterns;
}

/**
 * lode_patterns_for_project:
 * @project: an indexed project
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): lode_patterns_analyse() over the project's graph and
 *   history
 */
LodePatterns *
lode_patterns_for_project (LodeProject   *project,
                           GCancellable  *cancellable,
                           GError       **error)
{
  const char *root = lode_project_get_root (project);
  g_autoptr(LodeGraph) graph = lode_project_load_graph (project, error);
  g_autoptr(LodeGitHistory) history = NULL;

  if (graph == NULL)
    return NULL;
  /* Without git, the files' modification times. */
  history = lode_git_history_get (root, cancellable, NULL);

  return lode_patterns_analyse (root, graph, history, cancellable);
}

static char *
format_date (gint64 time)
{
  g_autoptr(GDateTime) date = g_date_time_new_from_unix_utc (MAX (time, 0));

  return g_date_time_format (date, "%Y-%m-%d");
}

/**
 * lode_patterns_report:
 * @patterns: the analysis
 * @root: the project's root
 * @category: (nullable): only this concern (lode_pattern_category_for()); "all" or %NULL for
 *   every one
 *
 * Returns: (transfer full): `{projectPath, patterns, goldenFiles, conflicts}`
 */
JsonObject *
lode_patterns_report (LodePatterns *patterns,
                      const char   *root,
                      const char   *category)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) node = NULL;

  if (category != NULL && g_str_equal (category, "all"))
    category = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "projectPath");
  json_builder_add_string_value (builder, root);
  json_builder_set_member_name (builder, "patterns");
  json_builder_begin_array (builder);
  for (guint p = 0; p < patterns->patterns->len; p++)
    {
      LodePattern *pattern = g_ptr_array_index (patterns->patterns, p);

      if (category != NULL && !g_str_equal (category, pattern->category))
        continue;
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "category");
      json_builder_add_string_value (builder, pattern->category);
      json_builder_set_member_name (builder, "languages");
      json_builder_add_string_value (builder, pattern->family);
      json_builder_set_member_name (builder, "files");
      json_builder_add_int_value (builder, pattern->n_files);
      if (pattern->preferred != NULL)
        {
          json_builder_set_member_name (builder, "preferred");
          json_builder_add_string_value (builder, pattern->preferred);
        }
      json_builder_set_member_name (builder, "conflict");
      json_builder_add_boolean_value (builder, pattern->conflict);
      json_builder_set_member_name (builder, "alternatives");
      json_builder_begin_array (builder);
      for (guint u = 0; u < pattern->uses->len; u++)
        {
          LodePatternUse *use = g_ptr_array_index (pattern->uses, u);
          g_autofree char *date = format_date (use->newest);

          json_builder_begin_object (builder);
          json_builder_set_member_name (builder, "name");
          json_builder_add_string_value (builder, use->alternative);
          json_builder_set_member_name (builder, "files");
          json_builder_add_int_value (builder, use->files->len);
          json_builder_set_member_name (builder, "share");
          json_builder_add_double_value (builder, (double) (gint64) (use->share * 100) / 100);
          json_builder_set_member_name (builder, "trend");
          json_builder_add_string_value (builder, use->trend);
          json_builder_set_member_name (builder, "lastChanged");
          json_builder_add_string_value (builder, date);
          json_builder_set_member_name (builder, "examples");
          json_builder_begin_array (builder);
          for (guint f = 0; f < use->files->len && f < MAX_EXAMPLES; f++)
            json_builder_add_string_value (builder, g_ptr_array_index (use->files, f));
          json_builder_end_array (builder);
          json_builder_end_object (builder);
        }
      json_builder_end_array (builder);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "goldenFiles");
  json_builder_begin_array (builder);
  for (guint i = 0; i < patterns->golden->len; i++)
    json_builder_add_string_value (builder, g_ptr_array_index (patterns->golden, i));
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "conflicts");
  json_builder_begin_array (builder);
  for (guint p = 0; p < patterns->patterns->len; p++)
    {
      LodePattern *pattern = g_ptr_array_index (patterns->patterns, p);
      GString *note;
      guint listed = 0;

      if (!pattern->conflict || (category != NULL && !g_str_equal (category, pattern->category)))
        continue;
      note = g_string_new ("Split decision: ");
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "category");
      json_builder_add_string_value (builder, pattern->category);
      json_builder_set_member_name (builder, "languages");
      json_builder_add_string_value (builder, pattern->family);
      json_builder_set_member_name (builder, "alternatives");
      json_builder_begin_array (builder);
      for (guint u = 0; u < pattern->uses->len; u++)
        {
          LodePatternUse *use = g_ptr_array_index (pattern->uses, u);

          if (use->share < LODE_PATTERN_CONFLICT_SHARE || use->files->len < 2)
            continue;
          json_builder_add_string_value (builder, use->alternative);
          g_string_append_printf (note, "%s%s in %.0f%% of the files", listed++ > 0 ? ", " : "",
                                  use->alternative, 100 * use->share);
        }
      json_builder_end_array (builder);
      json_builder_set_member_name (builder, "note");
      g_string_append (note, "; ask which to follow, or follow the code around the change");
      json_builder_add_string_value (builder, note->str);
      g_string_free (note, TRUE);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  node = json_builder_get_root (builder);
  return json_node_dup_object (node);
}

/**
 * lode_patterns_format:
 * @report: what lode_patterns_report() returned
 *
 * Returns: (transfer full): @report as markdown
 */
char *
lode_patterns_format (JsonObject *report)
{
  JsonArray *patterns = json_object_get_array_member (report, "patterns");
  JsonArray *golden = json_object_get_array_member (report, "goldenFiles");
  JsonArray *conflicts = json_object_get_array_member (report, "conflicts");
  GString *text = g_string_new ("## Team patterns\n\n");

  if (json_array_get_length (patterns) == 0)
    g_string_append (text, "No known library or idiom was found for these concerns.\n");
  for (guint p = 0; p < json_array_get_length (patterns); p++)
    {
      JsonObject *pattern = json_array_get_object_element (patterns, p);
      JsonArray *alternatives = json_object_get_array_member (pattern, "alternatives");

      g_string_append_printf (text, "### %s, %s (",
                              json_object_get_string_member (pattern, "category"),
                              json_object_get_string_member (pattern, "languages"));
      lode_append_count (text, json_object_get_int_member (pattern, "files"), "%u file",
                         "%u files");
      g_string_append (text, ")");
      if (json_object_has_member (pattern, "preferred"))
        g_string_append_printf (text, ": use %s",
                                json_object_get_string_member (pattern, "preferred"));
      else if (json_object_get_boolean_member (pattern, "conflict"))
        g_string_append (text, ": no agreement");
      g_string_append (text, "\n\n");
      for (guint a = 0; a < json_array_get_length (alternatives); a++)
        {
          JsonObject *alternative = json_array_get_object_element (alternatives, a);

          g_string_append_printf (text, "- %s: %" G_GINT64_FORMAT " files (%.0f%%), %s, last "
                                  "changed %s, e.g. `%s`\n",
                                  json_object_get_string_member (alternative, "name"),
                                  json_object_get_int_member (alternative, "files"),
                                  100 * json_object_get_double_member (alternative, "share"),
                                  json_object_get_string_member (alternative, "trend"),
                                  json_object_get_string_member (alternative, "lastChanged"),
                                  json_array_get_string_element (json_object_get_array_member (alternative,
                                                                                               "examples"),
                                                                 0));
        }
      g_string_append (text, "\n");
    }
  if (json_array_get_length (golden) > 0)
    {
      g_string_append (text, "Golden files (follow these):");
      for (guint i = 0; i < json_array_get_length (golden); i++)
        g_string_append_printf (text, " `%s`", json_array_get_string_element (golden, i));
      g_string_append (text, "\n");
    }
  for (guint i = 0; i < json_array_get_length (conflicts); i++)
    g_string_append_printf (text, "\n> %s: %s\n",
                            json_object_get_string_member (json_array_get_object_element (conflicts,
                                                                                          i),
                                                           "category"),
                            json_object_get_string_member (json_array_get_object_element (conflicts,
                                                                                          i),
                                                           "note"));

  return g_string_free (text, FALSE);
}
