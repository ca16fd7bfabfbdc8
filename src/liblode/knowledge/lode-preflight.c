/* lode-preflight.c — what an agent should know before it edits: the preflight card
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-knowledge"

#include "config.h"

#include <string.h>

#include "lode-call-graph.h"
#include "lode-memory.h"
#include "lode-patterns.h"
#include "lode-preflight.h"

/*
 * codebase_search attaches to its results the memories (at most three) that name the code
 * they found, and, for an edit (intent edit, refactor or migrate), a card that says whether
 * the agent has enough to go on. Ready is decided by the checks the card shows, each with
 * its evidence:
 *
 *   code      pass: the best result scores at least LODE_PREFLIGHT_STRONG_MATCH (the search's
 *                   0–1 scale: an identifier's definition, a chunk holding every word);
 *             warn: at least LODE_PREFLIGHT_WEAK_MATCH; fail: below, or nothing found
 *   patterns  pass: the concerns the results' files use agree (no conflict); warn: none
 *             covers them; fail: two alternatives are in wide use and none is rising
 *   memories  fail: a failure recorded about this code (someone tried, it did not work);
 *             warn: a gotcha; pass: none, or decisions and conventions that guide the edit
 *   impact    the files that import the results' files (two hops) and the definitions that
 *             call the results' declarations (two calls); warns past 20 files, never fails:
 *             it says what to check after the edit
 *
 * The card is ready when the code check passes and no check fails. Impact is built in one
 * place (add_impact): the dependents of the import graph and, beside them, the callers of the
 * results' declarations in the call graph (two calls away).
 */

#define IMPACT_DEPTH   2
#define IMPACT_SHOWN   10
#define IMPACT_WIDE    20
#define IMPACT_TARGETS 5

typedef enum
{
  CHECK_PASS,
  CHECK_WARN,
  CHECK_FAIL,
} CheckStatus;

static const char *const check_names[] = { "pass", "warn", "fail" };

typedef struct
{
  JsonBuilder *evidence;
  GPtrArray   *help;       /* what would make a check pass */
  gboolean     ready;
  char        *next;       /* the first failing check's remedy */
} Card;

static void
check (Card        *card,
       const char  *name,
       CheckStatus  status,
       const char  *detail,
       const char  *remedy)
{
  json_builder_begin_object (card->evidence);
  json_builder_set_member_name (card->evidence, "check");
  json_builder_add_string_value (card->evidence, name);
  json_builder_set_member_name (card->evidence, "status");
  json_builder_add_string_value (card->evidence, check_names[status]);
  json_builder_set_member_name (card->evidence, "detail");
  json_builder_add_string_value (card->evidence, detail);
  json_builder_end_object (card->evidence);

  if (status == CHECK_FAIL || (status == CHECK_WARN && g_str_equal (name, "code")))
    {
      card->ready = FALSE;
      if (card->next == NULL)
        card->next = g_strdup (remedy);
    }
  if (status != CHECK_PASS && remedy != NULL)
    g_ptr_array_add (card->help, g_strdup (remedy));
}

/* The results of the searched project (linked projects' results name theirs). */
static GPtrArray *
own_results (JsonObject *search,
             const char *root)
{
  JsonArray *results = json_object_get_array_member (search, "results");
  GPtrArray *own = g_ptr_array_new ();

  for (guint i = 0; i < json_array_get_length (results); i++)
    {
      JsonObject *result = json_array_get_object_element (results, i);
      const char *project = json_object_get_string_member_with_default (result, "project",
                                                                        NULL);

      if (project == NULL || g_str_equal (project, root))
        g_ptr_array_add (own, result);
    }

  return own;
}

/* How many of @results a memory names: their files, their declarations. */
static guint
touches (const LodeMemory *memory,
         GPtrArray        *results)
{
  guint n = 0;

  for (guint i = 0; i < results->len; i++)
    {
      JsonObject *result = g_ptr_array_index (results, i);
      const char *symbol = json_object_get_string_member_with_default (result, "symbol", NULL);
      gboolean hit = lode_memory_names_file (memory,
                                             json_object_get_string_member (result, "path")) ||
                     (symbol != NULL && lode_memory_names_symbol (memory, symbol));
      JsonNode *symbols = json_object_get_member (result, "symbols");

      for (guint s = 0; !hit && symbols != NULL &&
                        s < json_array_get_length (json_node_get_array (symbols)); s++)
        hit = lode_memory_names_symbol (memory,
                                        json_object_get_string_member (json_array_get_object_element (json_node_get_array (symbols),
                                                                                                      s),
                                                                       "name"));
      n += hit;
    }

  return n;
}

typedef struct
{
  LodeMemory *memory;
  guint       touches;
} Related;

static int
compare_related (gconstpointer a,
                 gconstpointer b)
{
  const Related *x = a;
  const Related *y = b;

  if (x->touches != y->touches)
    return (x->touches < y->touches) - (x->touches > y->touches);
  if (x->memory->confidence != y->memory->confidence)
    return (x->memory->confidence < y->memory->confidence) -
           (x->memory->confidence > y->memory->confidence);
  return (x->memory->time < y->memory->time) - (x->memory->time > y->memory->time);
}

/* The memories, not stale, that name code of @results: most results touched first. */
static GArray *
related_memories (GPtrArray *memories,
                  GPtrArray *results)
{
  GArray *related = g_array_new (FALSE, FALSE, sizeof (Related));

  for (guint i = 0; i < memories->len; i++)
    {
      Related r = { g_ptr_array_index (memories, i), 0 };

      if (r.memory->confidence < LODE_MEMORY_STALE_BELOW)
        continue;
      r.touches = touches (r.memory, results);
      if (r.touches > 0)
        g_array_append_val (related, r);
    }
  g_array_sort (related, compare_related);
  if (related->len > LODE_PREFLIGHT_MAX_MEMORIES)
    g_array_set_size (related, LODE_PREFLIGHT_MAX_MEMORIES);

  return related;
}

static void
check_code (Card      *card,
            GPtrArray *results)
{
  double best = 0;
  g_autofree char *detail = NULL;

  for (guint i = 0; i < results->len; i++)
    best = MAX (best, json_object_get_double_member (g_ptr_array_index (results, i), "score"));
  if (results->len == 0)
    detail = g_strdup ("nothing matched");
  else
    detail = g_strdup_printf ("best match %.2f (%s:%" G_GINT64_FORMAT "), %u results", best,
                              json_object_get_string_member (g_ptr_array_index (results, 0),
                                                             "path"),
                              json_object_get_int_member (g_ptr_array_index (results, 0),
                                                          "startLine"),
                              results->len);
  check (card, "code",
         best >= LODE_PREFLIGHT_STRONG_MATCH ? CHECK_PASS
         : best >= LODE_PREFLIGHT_WEAK_MATCH ? CHECK_WARN : CHECK_FAIL,
         detail,
         "Search again with an identifier, a file name or the error text of the code to "
         "change, so that the code is found for certain");
}

static gboolean
pattern_touches (const LodePattern *pattern,
                 GHashTable        *files)
{
  for (guint u = 0; u < pattern->uses->len; u++)
    {
      LodePatternUse *use = g_ptr_array_index (pattern->uses, u);

      for (guint f = 0; f < use->files->len; f++)
        if (g_hash_table_contains (files, g_ptr_array_index (use->files, f)))
          return TRUE;
    }

  return FALSE;
}

/* Follow, avoid and the patterns check, over the concerns the results' files use. */
static void
check_patterns (Card         *card,
                JsonBuilder  *builder,
                LodePatterns *patterns,
                GHashTable   *files)
{
  g_autoptr(GPtrArray) follow = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) avoid = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GString) conflicts = g_string_new (NULL);
  const char *example = NULL;
  guint relevant = 0;

  for (guint p = 0; patterns != NULL && p < patterns->patterns->len; p++)
    {
      LodePattern *pattern = g_ptr_array_index (patterns->patterns, p);

      if (!pattern_touches (pattern, files))
        continue;
      relevant++;
      if (pattern->conflict)
        g_string_append_printf (conflicts, "%s%s (%s)", conflicts->len > 0 ? ", " : "",
                                pattern->category, pattern->family);
      for (guint u = 0; u < pattern->uses->len; u++)
        {
          LodePatternUse *use = g_ptr_array_index (pattern->uses, u);
          g_autofree char *text = g_strdup_printf ("%s for %s (%s, %.0f%% of %u files)",
                                                   use->alternative, pattern->category,
                                                   use->trend, 100 * use->share,
                                                   pattern->n_files);

          if (g_strcmp0 (use->alternative, pattern->preferred) == 0)
            g_ptr_array_add (follow, g_steal_pointer (&text));
          else if (g_str_equal (use->trend, "declining"))
            g_ptr_array_add (avoid, g_steal_pointer (&text));
        }
    }
  for (guint g = 0; patterns != NULL && g < patterns->golden->len && example == NULL; g++)
    example = g_ptr_array_index (patterns->golden, g);

  if (conflicts->len > 0)
    {
      g_autofree char *detail = g_strdup_printf ("the team is split on %s", conflicts->str);

      check (card, "patterns", CHECK_FAIL, detail,
             "Ask which alternative to follow (get_team_patterns shows the split), or follow "
             "the file being edited");
    }
  else if (relevant == 0)
    check (card, "patterns", CHECK_WARN, "no known pattern covers these files",
           "Call get_style_guide for the rules the project states");
  else
    {
      g_autofree char *detail = g_strdup_printf ("%u concerns agree", relevant);

      check (card, "patterns", CHECK_PASS, detail, NULL);
    }

  json_builder_set_member_name (builder, "follow");
  json_builder_begin_array (builder);
  for (guint i = 0; i < follow->len; i++)
    json_builder_add_string_value (builder, g_ptr_array_index (follow, i));
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "avoid");
  json_builder_begin_array (builder);
  for (guint i = 0; i < avoid->len; i++)
    json_builder_add_string_value (builder, g_ptr_array_index (avoid, i));
  json_builder_end_array (builder);
  if (example != NULL)
    {
      json_builder_set_member_name (builder, "bestExample");
      json_builder_add_string_value (builder, example);
    }
}

static void
check_memories (Card        *card,
                JsonBuilder *builder,
                GArray      *related)
{
  const LodeMemory *failure = NULL;
  const LodeMemory *gotcha = NULL;

  json_builder_set_member_name (builder, "memories");
  json_builder_begin_array (builder);
  for (guint i = 0; i < related->len; i++)
    {
      const LodeMemory *memory = g_array_index (related, Related, i).memory;
      g_autofree char *text = g_strdup_printf ("%s: %s (id %s, confidence %.2f)", memory->type,
                                               memory->memory, memory->id,
                                               memory->confidence);

      json_builder_add_string_value (builder, text);
      if (failure == NULL && g_str_equal (memory->type, "failure"))
        failure = memory;
      if (gotcha == NULL && g_str_equal (memory->type, "gotcha"))
        gotcha = memory;
    }
  json_builder_end_array (builder);

  if (failure != NULL)
    {
      g_autofree char *detail = g_strdup_printf ("a failure is recorded about this code: %s",
                                                 failure->memory);
      g_autofree char *remedy = g_strdup_printf ("Read memory %s (get_memory) and make sure "
                                                 "this change does not repeat it",
                                                 failure->id);

      check (card, "memories", CHECK_FAIL, detail, remedy);
    }
  else if (gotcha != NULL)
    {
      g_autofree char *detail = g_strdup_printf ("a gotcha is recorded: %s", gotcha->memory);

      check (card, "memories", CHECK_WARN, detail, "Keep the recorded gotcha in mind");
    }
  else
    {
      g_autofree char *detail = related->len > 0
                                ? g_strdup_printf ("%u recorded decisions or conventions "
                                                   "apply", related->len)
                                : g_strdup ("no memory names this code");

      check (card, "memories", CHECK_PASS, detail, NULL);
    }
}

/* The files that import the results' files, nearest first. */
/* The definitions that call the results' declarations, within IMPACT_DEPTH calls: `callers`
 * (path:name, at most IMPACT_SHOWN) and `callerCount`. Returns the count. */
static guint
add_callers (JsonBuilder   *builder,
             LodeCallGraph *calls,
             GPtrArray     *results)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);
  guint n = 0;

  json_builder_set_member_name (builder, "callers");
  json_builder_begin_array (builder);
  for (guint i = 0; calls != NULL && i < results->len && i < IMPACT_TARGETS; i++)
    {
      JsonObject *result = g_ptr_array_index (results, i);
      g_autoptr(GArray) reach = NULL;
      guint node;

      if (!lode_call_graph_lookup (calls, json_object_get_string_member (result, "path"),
                                   json_object_get_int_member_with_default (result,
                                                                            "symbolStartLine",
                                                                            0),
                                   &node))
        continue;
      g_hash_table_add (seen, GUINT_TO_POINTER (node + 1));
      reach = lode_call_graph_reach (calls, node, TRUE, IMPACT_DEPTH);
      for (guint r = 1; r < reach->len; r++)
        {
          const LodeCallNode *caller;
          guint id = g_array_index (reach, LodeCallReach, r).node;

          if (!g_hash_table_add (seen, GUINT_TO_POINTER (id + 1)))
            continue;
          caller = lode_call_graph_get_node (calls, id);
          if (n++ < IMPACT_SHOWN)
            {
              g_autofree char *text = g_strdup_printf ("%s:%s", caller->path, caller->name);

              json_builder_add_string_value (builder, text);
            }
        }
    }
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "callerCount");
  json_builder_add_int_value (builder, n);
  return n;
}

static void
add_impact (Card            *card,
            JsonBuilder     *builder,
            const LodeGraph *graph,
            LodeCallGraph   *calls,
            GPtrArray       *results)
{
  g_autoptr(GArray) start = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) hits = NULL;
  g_autofree char *detail = NULL;
  guint dependents = 0;
  guint n_callers;

  for (guint i = 0; graph != NULL && i < results->len && start->len < IMPACT_TARGETS; i++)
    {
      guint file;

      gboolean seen = FALSE;

      if (!lode_graph_lookup (graph, json_object_get_string_member (g_ptr_array_index (results,
                                                                                      i),
                                                                    "path"), &file))
        continue;
      for (guint s = 0; s < start->len && !seen; s++)
        seen = g_array_index (start, guint, s) == file;
      if (!seen)
        g_array_append_val (start, file);
    }
  if (start->len > 0)
    hits = lode_graph_impact (graph, (const guint *) start->data, start->len,
                              LODE_GRAPH_INBOUND, IMPACT_DEPTH);

  json_builder_set_member_name (builder, "impact");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "files");
  json_builder_begin_array (builder);
  for (guint i = 0; hits != NULL && i < hits->len; i++)
    {
      const LodeGraphHit *hit = &g_array_index (hits, LodeGraphHit, i);

      if (hit->distance == 0)
        continue;
      if (dependents++ < IMPACT_SHOWN)
        json_builder_add_string_value (builder, lode_graph_get_path (graph, hit->file));
    }
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "dependents");
  json_builder_add_int_value (builder, dependents);
  n_callers = add_callers (builder, calls, results);
  json_builder_end_object (builder);

  detail = graph == NULL ? g_strdup ("no import graph (codebase_graph_build makes one)")
                         : g_strdup_printf ("%u files import the results' files within %d hops; "
                                            "%u definitions call their declarations within %d "
                                            "calls", dependents, IMPACT_DEPTH, n_callers,
                                            IMPACT_DEPTH);
  check (card, "impact", graph == NULL || dependents > IMPACT_WIDE ? CHECK_WARN : CHECK_PASS,
         detail, "Check the files listed under impact after the edit; run their tests");
}

static void
add_card (JsonObject    *search,
          LodeProject   *project,
          const char    *intent,
          GPtrArray     *results,
          GArray        *related,
          GCancellable  *cancellable)
{
  const char *root = lode_project_get_root (project);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(LodeGraph) graph = lode_project_load_graph (project, NULL);
  g_autoptr(LodeCallGraph) calls = lode_project_dup_call_graph (project, NULL);
  g_autoptr(LodeGitHistory) history = lode_git_history_get (root, cancellable, NULL);
  g_autoptr(LodePatterns) patterns = NULL;
  g_autoptr(GHashTable) files = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(JsonNode) evidence = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GPtrArray) help = g_ptr_array_new_with_free_func (g_free);
  Card card = { json_builder_new (), help, TRUE, NULL };

  if (graph != NULL)
    patterns = lode_patterns_analyse (root, graph, history, cancellable);
  for (guint i = 0; i < results->len; i++)
    g_hash_table_add (files, (gpointer) json_object_get_string_member (g_ptr_array_index (results,
                                                                                          i),
                                                                       "path"));

  json_builder_begin_array (card.evidence);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "intent");
  json_builder_add_string_value (builder, intent);
  check_code (&card, results);
  check_patterns (&card, builder, patterns, files);
  check_memories (&card, builder, related);
  add_impact (&card, builder, graph, calls, results);
  json_builder_end_array (card.evidence);

  json_builder_set_member_name (builder, "ready");
  json_builder_add_boolean_value (builder, card.ready);
  json_builder_set_member_name (builder, "nextAction");
  if (card.ready)
    {
      JsonObject *best = g_ptr_array_index (results, 0);
      g_autofree char *next = g_strdup_printf ("Edit %s around line %" G_GINT64_FORMAT ", "
                                               "following the patterns listed, then check the "
                                               "impact files",
                                               json_object_get_string_member (best, "path"),
                                               json_object_get_int_member (best, "startLine"));

      json_builder_add_string_value (builder, next);
    }
  else
    json_builder_add_string_value (builder, card.next);
  evidence = json_builder_get_root (card.evidence);
  json_builder_set_member_name (builder, "evidence");
  json_builder_add_value (builder, g_steal_pointer (&evidence));
  if (!card.ready)
    {
      json_builder_set_member_name (builder, "whatWouldHelp");
      json_builder_begin_array (builder);
      for (guint i = 0; i < help->len; i++)
        json_builder_add_string_value (builder, g_ptr_array_index (help, i));
      json_builder_end_array (builder);
    }
  json_builder_end_object (builder);

  node = json_builder_get_root (builder);
  json_object_set_member (search, "preflight", g_steal_pointer (&node));
  g_object_unref (card.evidence);
  g_free (card.next);
}

/**
 * lode_preflight_add_to_search:
 * @search: codebase_search's result, to which `memories` and `preflight` are added
 * @project: the project searched
 * @intent: (nullable): explore, edit, refactor or migrate; the last three add the card
 * @cancellable: (nullable): a #GCancellable
 *
 * Adds the memories that name the code found (at most three), and for an edit the
 * preflight card. A malformed memory file is said in `notes`; the search stands.
 */
void
lode_preflight_add_to_search (JsonObject   *search,
                              LodeProject  *project,
                              const char   *intent,
                              GCancellable *cancellable)
{
  const char *root = lode_project_get_root (project);
  g_autoptr(GPtrArray) results = own_results (search, root);
  g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) memories = NULL;
  g_autoptr(GArray) related = NULL;
  g_autoptr(GError) error = NULL;
  gboolean edit = intent != NULL && (g_str_equal (intent, "edit") ||
                                     g_str_equal (intent, "refactor") ||
                                     g_str_equal (intent, "migrate"));

  /* Every search reads the recorded memories, and no more: git runs for an edit only (its
   * card reads the history for the patterns anyway), which adds the memories mined from it
   * and the changes to the code memories name. History that cannot be read leaves the
   * memories without it; a malformed memory file is said, and the search stands. */
  memories = lode_memories_load (root, edit, cancellable, notes, &error);
  if (memories == NULL)
    {
      JsonArray *array = json_object_has_member (search, "notes")
                         ? json_object_get_array_member (search, "notes") : NULL;

      if (array == NULL)
        {
          array = json_array_new ();
          json_object_set_array_member (search, "notes", array);
        }
      json_array_add_string_element (array, error->message);
      memories = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_memory_free);
    }
  related = related_memories (memories, results);
  if (related->len > 0)
    {
      JsonArray *array = json_array_new ();

      for (guint i = 0; i < related->len; i++)
        json_array_add_element (array,
                                lode_memory_to_json (g_array_index (related, Related, i).memory));
      json_object_set_array_member (search, "memories", array);
    }

  if (edit)
    add_card (search, project, intent, results, related, cancellable);
}

/**
 * lode_preflight_append_markdown:
 * @text: where to append
 * @search: codebase_search's result
 *
 * Appends its memories and its preflight card, when it has them.
 */
void
lode_preflight_append_markdown (GString    *text,
                                JsonObject *search)
{
  JsonObject *card = json_object_has_member (search, "preflight")
                     ? json_object_get_object_member (search, "preflight") : NULL;

  if (json_object_has_member (search, "memories"))
    {
      JsonArray *memories = json_object_get_array_member (search, "memories");

      g_string_append (text, "### Team memories about this code\n\n");
      for (guint i = 0; i < json_array_get_length (memories); i++)
        {
          JsonObject *memory = json_array_get_object_element (memories, i);

          g_string_append_printf (text, "- **%s**: %s (id `%s`)\n",
                                  json_object_get_string_member (memory, "type"),
                                  json_object_get_string_member (memory, "memory"),
                                  json_object_get_string_member (memory, "id"));
        }
      g_string_append (text, "\n");
    }
  if (card == NULL)
    return;

  g_string_append_printf (text, "### Preflight (%s): %s\n\n",
                          json_object_get_string_member (card, "intent"),
                          json_object_get_boolean_member (card, "ready") ? "ready"
                                                                         : "not ready");
  g_string_append_printf (text, "Next: %s\n\n", json_object_get_string_member (card,
                                                                                "nextAction"));
  for (guint i = 0; i < json_array_get_length (json_object_get_array_member (card, "evidence"));
       i++)
    {
      JsonObject *e = json_array_get_object_element (json_object_get_array_member (card,
                                                                                   "evidence"),
                                                     i);

      g_string_append_printf (text, "- %s: %s — %s\n", json_object_get_string_member (e, "check"),
                              json_object_get_string_member (e, "status"),
                              json_object_get_string_member (e, "detail"));
    }
  for (guint i = 0; i < json_array_get_length (json_object_get_array_member (card, "follow"));
       i++)
    g_string_append_printf (text, "- follow: %s\n",
                            json_array_get_string_element (json_object_get_array_member (card,
                                                                                         "follow"),
                                                           i));
  for (guint i = 0; i < json_array_get_length (json_object_get_array_member (card, "avoid"));
       i++)
    g_string_append_printf (text, "- avoid: %s\n",
                            json_array_get_string_element (json_object_get_array_member (card,
                                                                                         "avoid"),
                                                           i));
  if (json_object_has_member (card, "bestExample"))
    g_string_append_printf (text, "- best example: `%s`\n",
                            json_object_get_string_member (card, "bestExample"));
  if (json_object_has_member (card, "whatWouldHelp"))
    for (guint i = 0;
         i < json_array_get_length (json_object_get_array_member (card, "whatWouldHelp")); i++)
      g_string_append_printf (text, "- would help: %s\n",
                              json_array_get_string_element (json_object_get_array_member (card,
                                                                                           "whatWouldHelp"),
                                                             i));
}
