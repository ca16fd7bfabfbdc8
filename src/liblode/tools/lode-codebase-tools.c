/* lode-codebase-tools.c — the codebase_* tools
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-tools"

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <sqlite3.h>
#include <unistd.h>

#include "lode-error.h"
#include "lode-i18n.h"
#include "lode-json-forms.h"
#include "lode-json.h"
#include "lode-language.h"
#include "lode-linked.h"
#include "lode-markdown.h"
#include "lode-preflight.h"
#include "lode-tools-private.h"

/*
 * Names and arguments follow SocratiCode's tools (projectPath, query, limit, fileFilter,
 * languageFilter, minScore, action), so that agent prompts written for it keep working.
 * Handlers run on worker threads and return the structured result; the format functions
 * render the same data as markdown.
 */

#define NO_INPUT "{\"type\": \"object\", \"properties\": {}, \"additionalProperties\": false}"

#define PROJECT_OUTPUT_PROPERTIES LODE_PROJECT_PROPERTIES

/* Helpers ------------------------------------------------------------------------------ */

static void
add_project (JsonBuilder *builder,
             const char  *root)
{
  g_autofree char *id = lode_project_id_for_path (root);

  json_builder_set_member_name (builder, "projectPath");
  json_builder_add_string_value (builder, root);
  json_builder_set_member_name (builder, "projectId");
  json_builder_add_string_value (builder, id);
}

/* codebase_index / codebase_update -------------------------------------------------- */

static JsonObject *
job_result (const char        *root,
            const char        *member,
            gboolean           value,
            const LodeJobInfo *job)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  json_builder_begin_object (builder);
  add_project (builder, root);
  json_builder_set_member_name (builder, member);
  json_builder_add_boolean_value (builder, value);
  if (job != NULL)
    {
      json_builder_set_member_name (builder, "job");
      json_builder_add_value (builder, lode_job_info_to_json (job));
    }
  json_builder_end_object (builder);

  return lode_json_builder_steal_object (builder);
}

/* Starts or joins the job, and waits for it unless it runs in the background: then nothing
 * but codebase_stop ends it. */
static JsonObject *
run_index (LodeToolCall      *call,
           LodeIndexRequest   request,
           gboolean           wait,
           gboolean           confirmed,
           GError           **error)
{
  LodeEngine *engine = lode_tool_call_get_engine (call);
  g_autofree char *path = NULL;
  g_autoptr(LodeJobInfo) job = NULL;
  g_autoptr(LodeProject) project = NULL;
  gboolean joined = FALSE;

  path = lode_tool_call_dup_project_path (call, error);
  if (path == NULL)
    return NULL;

  /* A first index of a whole system (/, /usr, the home directory) needs confirming. */
  project = lode_engine_open_project (engine, path, FALSE, error);
  if (project == NULL ||
      (!lode_project_is_indexed (project) &&
       !lode_engine_check_index_root (lode_project_get_root (project), confirmed,
                                      "call codebase_index with confirm: true "
                                      "(lode index --yes)", error)))
    return NULL;

  job = lode_engine_start_index (engine, path, request, !wait, &joined, error);
  if (job == NULL)
    return NULL;

  if (wait)
    {
      g_autofree char *id = g_strdup (job->project_id);
      g_autofree char *root = g_strdup (job->root);

      g_clear_pointer (&job, lode_job_info_free);
      job = lode_tool_call_wait_for_job (call, root, id, error);
      if (job == NULL)
        return NULL;
    }

  return job_result (job->root, "joined", joined, job);
}

static JsonObject *
codebase_index (LodeToolCall  *call,
                GError       **error)
{
  JsonObject *arguments = lode_tool_call_get_arguments (call);
  gboolean force = json_object_get_boolean_member_with_default (arguments, "force", FALSE);

  return run_index (call, force ? LODE_INDEX_REQUEST_REBUILD : LODE_INDEX_REQUEST_UPDATE,
                    json_object_get_boolean_member_with_default (arguments, "wait", FALSE),
                    json_object_get_boolean_member_with_default (arguments, "confirm", FALSE),
                    error);
}

static JsonObject *
codebase_update (LodeToolCall  *call,
                 GError       **error)
{
  return run_index (call, LODE_INDEX_REQUEST_UPDATE, TRUE, FALSE, error);
}

static char *
format_index (JsonObject *result)
{
  JsonObject *job = json_object_get_object_member (result, "job");
  GString *text = g_string_new (NULL);
  const char *root = lode_json_get_string (result, "projectPath");

  if (g_strcmp0 (lode_json_get_string (job, "state"), "running") != 0)
    g_string_append_printf (text, "Indexed %s.\n\n", root);
  else if (json_object_get_boolean_member (result, "joined"))
    g_string_append_printf (text, "%s is already being indexed; this request joined the "
                            "running job. Call codebase_status to follow it.\n\n", root);
  else
    g_string_append_printf (text, "Indexing started in the background for %s. Call "
                            "codebase_status to follow it; codebase_search works on what "
                            "is indexed so far.\n\n", root);
  lode_job_json_append_markdown (text, job);

  return g_string_free (text, FALSE);
}

#define INDEX_OUTPUT_SCHEMA \
  "{\"type\": \"object\", \"properties\": {" PROJECT_OUTPUT_PROPERTIES ", " \
  "\"joined\": {\"type\": \"boolean\"}, \"job\": " LODE_JOB_SCHEMA "}, " \
  "\"required\": [\"projectPath\", \"projectId\", \"joined\", \"job\"]}"

static const LodeTool codebase_index_tool = {
  .name = "codebase_index",
  .title = "Index a codebase",
  .description =
    "Index a project in the background (wait: true waits); a second call joins the job. "
    "Later runs re-read changed files; force: true rebuilds.",
  .input_schema =
    "{\"type\": \"object\", \"properties\": {" PROJECT_PATH_PROPERTY ", "
    "\"wait\": {\"type\": \"boolean\", \"default\": false, \"description\": "
    "\"Wait for the end, reporting progress\"}, "
    "\"force\": {\"type\": \"boolean\", \"default\": false, \"description\": "
    "\"Rebuild; searches use the old index meanwhile\"}, "
    "\"confirm\": {\"type\": \"boolean\", \"default\": false, \"description\": "
    "\"Index even /, a system directory or the home directory\"}}, "
    "\"additionalProperties\": false}",
  .output_schema = INDEX_OUTPUT_SCHEMA,
  .flags = LODE_TOOL_IDEMPOTENT | LODE_TOOL_EXACT_PROJECT,
  .func = codebase_index,
  .format = format_index,
};

static const LodeTool codebase_update_tool = {
  .name = "codebase_update",
  .title = "Update a codebase index",
  .description =
    "Bring a project's index up to date (new, changed and deleted files), waiting with "
    "progress; creates it if missing.",
  .input_schema = PROJECT_ONLY_INPUT,
  .output_schema = INDEX_OUTPUT_SCHEMA,
  .flags = LODE_TOOL_IDEMPOTENT,
  .func = codebase_update,
  .format = format_index,
};

/* codebase_stop ----------------------------------------------------------------------- */

static JsonObject *
codebase_stop (LodeToolCall  *call,
               GError       **error)
{
  LodeEngine *engine = lode_tool_call_get_engine (call);
  g_autofree char *path = NULL;
  g_autoptr(LodeProject) project = NULL;
  g_autoptr(LodeJobInfo) job = NULL;
  gboolean stopped;

  path = lode_tool_call_dup_project_path (call, error);
  if (path == NULL)
    return NULL;
  project = lode_engine_open_project (engine, path, FALSE, error);
  if (project == NULL)
    return NULL;

  /* Whoever started the job: a client, a tool, the watcher. */
  stopped = lode_engine_stop_index (engine, lode_project_get_id (project));
  if (stopped)
    {
      /* The indexer ends at its next check, within about a second. */
      job = lode_engine_wait_index (engine, lode_project_get_id (project),
                                    lode_tool_call_get_cancellable (call), NULL, NULL, error);
      if (job == NULL)
        return NULL;
    }
  else
    {
      /* Or another process: `lode index` or `lode watch` without the daemon. */
      int pid = 0;

      if (!lode_project_stop_writer (project, lode_tool_call_get_cancellable (call), &pid,
                                     error))
        return NULL;
      stopped = pid != 0;
    }

  return job_result (lode_project_get_root (project), "stopped", stopped, job);
}

static char *
format_stop (JsonObject *result)
{
  if (!json_object_get_boolean_member (result, "stopped"))
    return g_strdup_printf ("No indexing operation is currently running for %s.",
                            lode_json_get_string (result, "projectPath"));

  return g_strdup_printf ("Stopped indexing %s. What was indexed so far is kept; call "
                          "codebase_index to resume.",
                          lode_json_get_string (result, "projectPath"));
}

static const LodeTool codebase_stop_tool = {
  .name = "codebase_stop",
  .title = "Stop indexing",
  .description =
    "Stop a project's indexing job; what was indexed stays searchable and the next "
    "codebase_index resumes.",
  .input_schema = PROJECT_ONLY_INPUT,
  .output_schema =
    "{\"type\": \"object\", \"properties\": {" PROJECT_OUTPUT_PROPERTIES ", "
    "\"stopped\": {\"type\": \"boolean\"}, \"job\": " LODE_JOB_SCHEMA "}, "
    "\"required\": [\"projectPath\", \"projectId\", \"stopped\"]}",
  .flags = LODE_TOOL_IDEMPOTENT,
  .func = codebase_stop,
  .format = format_stop,
};

/* codebase_remove --------------------------------------------------------------------- */

static JsonObject *
codebase_remove (LodeToolCall  *call,
                 GError       **error)
{
  g_autofree char *path = NULL;
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  path = lode_tool_call_dup_project_path (call, error);
  if (path == NULL)
    return NULL;

  if (!lode_engine_remove_project (lode_tool_call_get_engine (call), path, error))
    {
      if (error != NULL && g_error_matches (*error, LODE_ERROR, LODE_ERROR_NOT_FOUND))
        g_prefix_error (error, "Nothing to remove: ");
      return NULL;
    }

  json_builder_begin_object (builder);
  add_project (builder, path);
  json_builder_set_member_name (builder, "removed");
  json_builder_add_boolean_value (builder, TRUE);
  json_builder_end_object (builder);

  return lode_json_builder_steal_object (builder);
}

static char *
format_remove (JsonObject *result)
{
  return g_strdup_printf ("Removed the index of %s. The files themselves are untouched.",
                          lode_json_get_string (result, "projectPath"));
}

static const LodeTool codebase_remove_tool = {
  .name = "codebase_remove",
  .title = "Remove a codebase index",
  .description =
    "Delete a project's index (stopping its job first); the project's files are never touched.",
  .input_schema = PROJECT_ONLY_INPUT,
  .output_schema =
    "{\"type\": \"object\", \"properties\": {" PROJECT_OUTPUT_PROPERTIES ", "
    "\"removed\": {\"type\": \"boolean\"}}, "
    "\"required\": [\"projectPath\", \"projectId\", \"removed\"]}",
  .flags = LODE_TOOL_DESTRUCTIVE,
  .func = codebase_remove,
  .format = format_remove,
};

/* codebase_status --------------------------------------------------------------------- */

static JsonObject *
codebase_status (LodeToolCall  *call,
                 GError       **error)
{
  g_autofree char *path = NULL;
  g_autoptr(LodeProjectStatus) status = NULL;
  g_autoptr(JsonNode) node = NULL;
  JsonObject *result;

  path = lode_tool_call_dup_project_path (call, error);
  if (path == NULL)
    return NULL;

  status = lode_engine_dup_status (lode_tool_call_get_engine (call), path, error);
  if (status == NULL)
    return NULL;

  node = lode_project_status_to_json (status);
  result = json_node_dup_object (node);
  /* Which store answered: after `lode migrate` a project has an index in both. */
  json_object_set_string_member (result, "store",
                                 lode_engine_get_config (lode_tool_call_get_engine (call))->store);
  return result;
}

static char *
format_status (JsonObject *result)
{
  GString *text = g_string_new (NULL);

  lode_status_json_append_markdown (text, result);
  return g_string_free (text, FALSE);
}

static const LodeTool codebase_status_tool = {
  .name = "codebase_status",
  .title = "Index status",
  .description =
    "A project's index: state, counts, languages, semantic coverage, store, watching, the "
    "running or last job.",
  .input_schema = PROJECT_ONLY_INPUT,
  .output_schema = LODE_STATUS_SCHEMA,
  .flags = LODE_TOOL_READ_ONLY | LODE_TOOL_IDEMPOTENT,
  .func = codebase_status,
  .format = format_status,
};

/* codebase_search --------------------------------------------------------------------- */

/* RRF's constant, as in the searcher's fusion of its two legs. */
#define LINKED_RRF_K 60

/* One result of a search of several projects. */
typedef struct
{
  const LodeSearchResult *result;
  const char             *project;
  double                  fused;
} LinkedHit;

static void
add_result (JsonBuilder            *builder,
            const LodeSearchResult *r,
            const char             *project)
{
  json_builder_begin_object (builder);
  if (project != NULL)
    {
      json_builder_set_member_name (builder, "project");
      json_builder_add_string_value (builder, project);
    }
  json_builder_set_member_name (builder, "path");
  json_builder_add_string_value (builder, r->path);
  json_builder_set_member_name (builder, "startLine");
  json_builder_add_int_value (builder, r->start_line);
  json_builder_set_member_name (builder, "endLine");
  json_builder_add_int_value (builder, r->end_line);
  json_builder_set_member_name (builder, "language");
  json_builder_add_string_value (builder, r->language);
  if (r->kind != NULL)
    {
      json_builder_set_member_name (builder, "kind");
      json_builder_add_string_value (builder, r->kind);
    }
  if (r->symbol != NULL)
    {
      json_builder_set_member_name (builder, "symbol");
      json_builder_add_string_value (builder, r->symbol);
      json_builder_set_member_name (builder, "symbolStartLine");
      json_builder_add_int_value (builder, r->symbol_start_line);
      json_builder_set_member_name (builder, "symbolEndLine");
      json_builder_add_int_value (builder, r->symbol_end_line);
    }
  if (r->container != NULL)
    {
      json_builder_set_member_name (builder, "container");
      json_builder_add_string_value (builder, r->container);
    }
  if (r->signature != NULL)
    {
      json_builder_set_member_name (builder, "signature");
      json_builder_add_string_value (builder, r->signature);
    }
  if (r->expanded_terms != NULL)
    {
      json_builder_set_member_name (builder, "expandedFrom");
      json_builder_begin_object (builder);
      for (guint j = 0; r->expanded_terms[j] != NULL; j++)
        {
          json_builder_set_member_name (builder, r->expanded_terms[j]);
          json_builder_add_string_value (builder, r->expanded_from[j]);
        }
      json_builder_end_object (builder);
    }
  if (r->symbols != NULL)
    {
      json_builder_set_member_name (builder, "symbols");
      json_builder_begin_array (builder);
      for (guint j = 0; j < r->symbols->len; j++)
        {
          const LodeSearchSymbol *symbol = g_ptr_array_index (r->symbols, j);

          json_builder_begin_object (builder);
          json_builder_set_member_name (builder, "name");
          json_builder_add_string_value (builder, symbol->name);
          if (symbol->kind != NULL)
            {
              json_builder_set_member_name (builder, "kind");
              json_builder_add_string_value (builder, symbol->kind);
            }
          json_builder_set_member_name (builder, "startLine");
          json_builder_add_int_value (builder, symbol->start_line);
          json_builder_set_member_name (builder, "endLine");
          json_builder_add_int_value (builder, symbol->end_line);
          json_builder_end_object (builder);
        }
      json_builder_end_array (builder);
    }
  json_builder_set_member_name (builder, "score");
  json_builder_add_double_value (builder, r->score);
  json_builder_set_member_name (builder, "snippet");
  json_builder_add_string_value (builder, r->snippet);
  json_builder_set_member_name (builder, "snippetStartLine");
  json_builder_add_int_value (builder, r->snippet_start_line);
  if (r->content != NULL)
    {
      json_builder_set_member_name (builder, "content");
      json_builder_add_string_value (builder, r->content);
    }
  json_builder_end_object (builder);
}

static int
compare_linked_hits (gconstpointer a,
                     gconstpointer b)
{
  const LinkedHit *x = a;
  const LinkedHit *y = b;

  if (x->fused != y->fused)
    return x->fused < y->fused ? 1 : -1;
  return (x->result->score < y->result->score) - (x->result->score > y->result->score);
}

/* Searches the projects @root links to (not @root itself) with @options, appending their
 * responses to @responses and what could not be searched to @notes. */
static void
search_linked (LodeToolCall             *call,
               const char               *root,
               const LodeSearchOptions  *options,
               GPtrArray                *responses,
               GPtrArray                *roots,
               GPtrArray                *notes)
{
  const LodeConfig *config = lode_engine_get_config (lode_tool_call_get_engine (call));
  g_autoptr(GPtrArray) linked =
    lode_linked_projects_resolve (root, (const char * const *) config->linked_projects, notes);

  for (guint i = 1; i < linked->len; i++)
    {
      const char *path = g_ptr_array_index (linked, i);
      g_autoptr(LodeProject) project = NULL;
      LodeSearchResponse *response = NULL;
      g_autoptr(GError) error = NULL;

      project = lode_tool_call_open_indexed (call, path, &error);
      if (project != NULL)
        response = lode_project_search_full (project, options,
                                             lode_tool_call_get_cancellable (call), &error);
      if (response == NULL)
        {
          g_ptr_array_add (notes, g_strdup_printf ("Linked project %s is not searched: %s",
                                                   path, error->message));
          continue;
        }
      g_ptr_array_add (responses, response);
      g_ptr_array_add (roots, g_strdup (lode_project_get_root (project)));
    }
}

/* The results of @responses (one per project of @roots) fused by reciprocal rank, best
 * first, at most @limit. */
static GArray *
fuse_linked (GPtrArray *responses,
             GPtrArray *roots,
             guint      limit)
{
  GArray *hits = g_array_new (FALSE, FALSE, sizeof (LinkedHit));

  for (guint p = 0; p < responses->len; p++)
    {
      GPtrArray *results = ((LodeSearchResponse *) g_ptr_array_index (responses, p))->results;

      for (guint rank = 0; rank < results->len; rank++)
        {
          LinkedHit hit = { g_ptr_array_index (results, rank), g_ptr_array_index (roots, p),
                            1.0 / (LINKED_RRF_K + rank + 1) };

          g_array_append_val (hits, hit);
        }
    }
  g_array_sort (hits, compare_linked_hits);
  if (hits->len > limit)
    g_array_set_size (hits, limit);

  return hits;
}

static JsonObject *
codebase_search (LodeToolCall  *call,
                 GError       **error)
{
  JsonObject *arguments = lode_tool_call_get_arguments (call);
  LodeSearchOptions options = LODE_SEARCH_OPTIONS_INIT;
  g_autofree char *path = NULL;
  g_autoptr(LodeProject) project = NULL;
  g_autoptr(GPtrArray) responses = NULL;
  g_autoptr(GPtrArray) roots = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) hits = NULL;
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autofree char *language = NULL;
  LodeSearchResponse *response;
  JsonObject *result;
  gboolean linked;

  path = lode_tool_call_dup_project_path (call, error);
  if (path == NULL)
    return NULL;

  options.query = json_object_get_string_member (arguments, "query");
  options.limit = json_object_get_int_member_with_default (arguments, "limit",
                                                           LODE_SEARCH_DEFAULT_LIMIT);
  options.path_glob = lode_json_get_string (arguments, "fileFilter");
  if (lode_json_get_string (arguments, "languageFilter") != NULL)
    language = g_ascii_strdown (lode_json_get_string (arguments, "languageFilter"), -1);
  options.language = language;
  options.min_score = json_object_get_double_member_with_default (arguments, "minScore", 0.0);
  options.one_per_file = json_object_get_boolean_member_with_default (arguments, "onePerFile",
                                                                      FALSE);
  options.include_content = json_object_get_boolean_member_with_default (arguments,
                                                                         "includeContent",
                                                                         FALSE);
  linked = json_object_get_boolean_member_with_default (arguments, "includeLinked", FALSE);
  /* The input schema admits the three names only. */
  lode_search_mode_from_string (json_object_get_string_member_with_default (arguments, "mode",
                                                                            "hybrid"),
                                &options.mode);

  if (options.language != NULL && lode_language_lookup (options.language) == NULL)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                   "Unknown language “%s” in languageFilter; codebase_status lists the "
                   "languages of a project (ids such as c, python, typescript)",
                   lode_json_get_string (arguments, "languageFilter"));
      return NULL;
    }

  project = lode_tool_call_open_indexed (call, path, error);
  if (project == NULL)
    return NULL;

  response = lode_project_search_full (project, &options,
                                       lode_tool_call_get_cancellable (call), error);
  if (response == NULL)
    return NULL;
  responses = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_search_response_free);
  g_ptr_array_add (responses, response);
  g_ptr_array_add (roots, g_strdup (lode_project_get_root (project)));
  if (linked)
    search_linked (call, lode_project_get_root (project), &options, responses, roots, notes);
  hits = fuse_linked (responses, roots, options.limit);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "query");
  json_builder_add_string_value (builder, options.query);
  json_builder_set_member_name (builder, "projectPath");
  json_builder_add_string_value (builder, lode_project_get_root (project));
  json_builder_set_member_name (builder, "mode");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "requested");
  json_builder_add_string_value (builder, lode_search_mode_to_string (response->requested_mode));
  json_builder_set_member_name (builder, "used");
  json_builder_add_string_value (builder, lode_search_mode_to_string (response->mode));
  if (response->notice != NULL)
    {
      json_builder_set_member_name (builder, "reason");
      json_builder_add_string_value (builder, response->notice);
    }
  if (response->model != NULL)
    {
      json_builder_set_member_name (builder, "model");
      json_builder_add_string_value (builder, response->model);
      json_builder_set_member_name (builder, "embeddedChunks");
      json_builder_add_int_value (builder, response->n_embedded);
      json_builder_set_member_name (builder, "chunks");
      json_builder_add_int_value (builder, response->n_chunks);
    }
  json_builder_end_object (builder);
  if (linked)
    {
      json_builder_set_member_name (builder, "projects");
      json_builder_begin_array (builder);
      for (guint i = 0; i < roots->len; i++)
        json_builder_add_string_value (builder, g_ptr_array_index (roots, i));
      json_builder_end_array (builder);
      json_builder_set_member_name (builder, "notes");
      json_builder_begin_array (builder);
      for (guint i = 0; i < notes->len; i++)
        json_builder_add_string_value (builder, g_ptr_array_index (notes, i));
      json_builder_end_array (builder);
    }
  json_builder_set_member_name (builder, "total");
  json_builder_add_int_value (builder, hits->len);
  json_builder_set_member_name (builder, "results");
  json_builder_begin_array (builder);
  for (guint i = 0; i < hits->len; i++)
    {
      const LinkedHit *hit = &g_array_index (hits, LinkedHit, i);

      add_result (builder, hit->result, linked ? hit->project : NULL);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  result = lode_json_builder_steal_object (builder);
  lode_preflight_add_to_search (result, project, lode_json_get_string (arguments, "intent"),
                                lode_tool_call_get_cancellable (call));
  return result;
}

/* Characters of a query a markdown heading shows: a pasted issue is only named by it. */
#define HEADING_QUERY_CHARS 80

/* @query for a heading: its first line, at most HEADING_QUERY_CHARS characters, with an
 * ellipsis when anything was left out. */
static char *
heading_query (const char *query)
{
  const char *nl = strchr (query, '\n');
  gsize line = nl != NULL ? (gsize) (nl - query) : strlen (query);
  glong n = g_utf8_strlen (query, line);
  g_autofree char *first = g_utf8_make_valid (query, line);

  g_strchomp (first);
  if (n <= HEADING_QUERY_CHARS && nl == NULL)
    return g_steal_pointer (&first);
  if (n > HEADING_QUERY_CHARS)
    *g_utf8_offset_to_pointer (first, HEADING_QUERY_CHARS) = '\0';
  return g_strconcat (first, "…", NULL);
}

static char *
format_search (JsonObject *result)
{
  JsonArray *results = json_object_get_array_member (result, "results");
  JsonObject *mode = json_object_get_object_member (result, "mode");
  GString *text = g_string_new (NULL);
  guint n = json_array_get_length (results);
  g_autofree char *query = heading_query (lode_json_get_string (result, "query"));

  g_string_append (text, "## ");
  lode_append_count (text, n, "%u result", "%u results");
  g_string_append_printf (text, " for “%s” (%s search)\n\n", query,
                          lode_json_get_string (mode, "used"));
  if (lode_json_get_string (mode, "reason") != NULL)
    g_string_append_printf (text, "> %s search was requested; %s\n\n",
                            lode_json_get_string (mode, "requested"),
                            lode_json_get_string (mode, "reason"));
  if (json_object_has_member (result, "notes"))
    {
      JsonArray *notes = json_object_get_array_member (result, "notes");

      for (guint i = 0; i < json_array_get_length (notes); i++)
        g_string_append_printf (text, "> %s\n", json_array_get_string_element (notes, i));
      if (json_array_get_length (notes) > 0)
        g_string_append (text, "\n");
    }
  if (n == 0)
    g_string_append (text, "Nothing matched. Try other words, an identifier, or fewer "
                     "filters.\n");

  for (guint i = 0; i < n; i++)
    {
      JsonObject *r = json_array_get_object_element (results, i);
      const char *symbol = lode_json_get_string (r, "symbol");
      const char *snippet = lode_json_get_string (r, "snippet");
      g_autofree char *location = NULL;

      g_string_append_printf (text, "%u. ", i + 1);
      if (lode_json_get_string (r, "project") != NULL)
        g_string_append_printf (text, "[%s] ", lode_json_get_string (r, "project"));
      location = g_strdup_printf ("%s:%" G_GINT64_FORMAT "-%" G_GINT64_FORMAT,
                                  lode_json_get_string (r, "path"),
                                  lode_json_get_int (r, "startLine", 0),
                                  lode_json_get_int (r, "endLine", 0));
      lode_markdown_append_code (text, location);
      if (symbol != NULL)
        g_string_append_printf (text, " %s %s", lode_json_get_string (r, "kind") != NULL
                                                ? lode_json_get_string (r, "kind") : "symbol",
                                symbol);
      g_string_append_printf (text, " (score %.2f)\n", json_object_get_double_member (r,
                                                                                   "score"));
      if (lode_json_get_string (r, "signature") != NULL)
        g_string_append_printf (text, "`%s`\n", lode_json_get_string (r, "signature"));
      if (lode_json_get_object (r, "expandedFrom") != NULL)
        {
          JsonObject *expanded = lode_json_get_object (r, "expandedFrom");
          g_autoptr(GList) terms = json_object_get_members (expanded);

          g_string_append (text, "(in other words:");
          for (GList *l = terms; l != NULL; l = l->next)
            g_string_append_printf (text, " %s for “%s”", (const char *) l->data,
                                    lode_json_get_string (expanded, l->data));
          g_string_append (text, ")\n");
        }
      if (lode_json_get_string (r, "content") != NULL)
        snippet = lode_json_get_string (r, "content");
      else if (lode_json_get_int (r, "snippetStartLine", 0) !=
               lode_json_get_int (r, "startLine", 0))
        g_string_append_printf (text, "from line %" G_GINT64_FORMAT ":\n",
                                lode_json_get_int (r, "snippetStartLine", 0));
      g_string_append_printf (text, "```%s\n%s%s```\n\n", lode_json_get_string (r, "language"),
                              snippet, g_str_has_suffix (snippet, "\n") ? "" : "\n");
    }
  lode_preflight_append_markdown (text, result);

  return g_string_free (text, FALSE);
}

static const LodeTool codebase_search_tool = {
  .name = "codebase_search",
  .title = "Search a codebase",
  .description =
    "Search an indexed project by identifier, path, question or pasted issue: ranked chunks "
    "with path, lines, symbol, snippet, score 0-1. Every line holding a string: "
    "codebase_grep.",
  .input_schema =
    "{\"type\": \"object\", \"properties\": {"
    "\"query\": {\"type\": \"string\", \"minLength\": 1, \"maxLength\": 65536, "
    "\"description\": \"Identifier, path, question or issue\"}, "
    PROJECT_PATH_PROPERTY ", "
    "\"limit\": {\"type\": \"integer\", \"minimum\": 1, \"maximum\": 100, \"default\": 10, "
    "\"description\": \"Results\"}, "
    "\"fileFilter\": {\"type\": \"string\", \"description\": \"Path glob (*.py, "
    "src/**/*.c) or substring\"}, "
    "\"languageFilter\": {\"type\": \"string\", \"description\": \"c, python, "
    "typescript…\"}, "
    "\"minScore\": {\"type\": \"number\", \"minimum\": 0, \"maximum\": 1, "
    "\"description\": \"Drop results below (a definition scores 0.5-1)\"}, "
    "\"onePerFile\": {\"type\": \"boolean\", \"default\": false, \"description\": "
    "\"Best result per file\"}, "
    "\"includeContent\": {\"type\": \"boolean\", \"default\": false, \"description\": "
    "\"Each chunk's whole text\"}, "
    "\"includeLinked\": {\"type\": \"boolean\", \"default\": false, \"description\": "
    "\"Also search linkedProjects\"}, "
    "\"mode\": {\"type\": \"string\", \"enum\": [\"hybrid\", \"lexical\", \"semantic\"], "
    "\"default\": \"hybrid\", \"description\": \"BM25 and vectors fused, BM25, "
    "or vectors (needs a model)\"}, "
    "\"intent\": {\"enum\": [\"explore\", \"edit\", \"refactor\", \"migrate\"], "
    "\"description\": \"edit, refactor or migrate add the preflight card\"}}, "
    "\"required\": [\"query\"], \"additionalProperties\": false}",
  .output_schema =
    "{\"type\": \"object\", \"properties\": {"
    "\"query\": {\"type\": \"string\"}, \"projectPath\": {\"type\": \"string\"}, "
    "\"projects\": {\"type\": \"array\", \"items\": {\"type\": \"string\"}}, "
    "\"notes\": {\"type\": \"array\", \"items\": {\"type\": \"string\"}}, "
    "\"mode\": {\"type\": \"object\", \"properties\": {"
    "\"requested\": {\"type\": \"string\", \"enum\": [\"hybrid\", \"lexical\", \"semantic\"]}, "
    "\"used\": {\"type\": \"string\", \"enum\": [\"hybrid\", \"lexical\", \"semantic\"]}, "
    "\"reason\": {\"type\": \"string\"}, \"model\": {\"type\": \"string\"}, "
    "\"embeddedChunks\": {\"type\": \"integer\", \"minimum\": 0}, "
    "\"chunks\": {\"type\": \"integer\", \"minimum\": 0}}, "
    "\"required\": [\"requested\", \"used\"]}, "
    "\"total\": {\"type\": \"integer\", \"minimum\": 0}, "
    "\"results\": {\"type\": \"array\", \"items\": {\"type\": \"object\", \"properties\": {"
    "\"project\": {\"type\": \"string\"}, \"path\": {\"type\": \"string\"}, "
    "\"startLine\": {\"type\": \"integer\", \"minimum\": 1}, "
    "\"endLine\": {\"type\": \"integer\", \"minimum\": 1}, "
    "\"language\": {\"type\": \"string\"}, \"kind\": {\"type\": \"string\"}, "
    "\"symbol\": {\"type\": \"string\"}, "
    "\"symbolStartLine\": {\"type\": \"integer\", \"minimum\": 1}, "
    "\"symbolEndLine\": {\"type\": \"integer\", \"minimum\": 1}, "
    "\"container\": {\"type\": \"string\"}, \"signature\": {\"type\": \"string\"}, "
    "\"symbols\": {\"type\": \"array\", \"items\": {\"type\": \"object\", "
    "\"properties\": {\"name\": {\"type\": \"string\"}, \"kind\": {\"type\": \"string\"}, "
    "\"startLine\": {\"type\": \"integer\", \"minimum\": 1}, "
    "\"endLine\": {\"type\": \"integer\", \"minimum\": 1}}, "
    "\"required\": [\"name\", \"startLine\", \"endLine\"]}}, "
    "\"score\": {\"type\": \"number\", \"minimum\": 0, \"maximum\": 1}, "
    "\"snippet\": {\"type\": \"string\"}, "
    "\"snippetStartLine\": {\"type\": \"integer\", \"minimum\": 1}, "
    "\"expandedFrom\": {\"type\": \"object\", "
    "\"additionalProperties\": {\"type\": \"string\"}}, "
    "\"content\": {\"type\": \"string\"}}, "
    "\"required\": [\"path\", \"startLine\", \"endLine\", \"language\", \"score\", "
    "\"snippet\", \"snippetStartLine\"]}}, "
    "\"memories\": {\"type\": \"array\", \"items\": " LODE_MEMORY_SCHEMA "}, "
    "\"preflight\": " LODE_PREFLIGHT_SCHEMA "}, "
    "\"required\": [\"query\", \"projectPath\", \"mode\", \"total\", \"results\"]}",
  .flags = LODE_TOOL_READ_ONLY | LODE_TOOL_IDEMPOTENT,
  .func = codebase_search,
  .format = format_search,
};

/* codebase_watch ---------------------------------------------------------------------- */

/* Runs on the main context, where watchers live (LODE_TOOL_MAIN_CONTEXT). */
static JsonObject *
codebase_watch (LodeToolCall  *call,
                GError       **error)
{
  LodeEngine *engine = lode_tool_call_get_engine (call);
  const char *action = json_object_get_string_member (lode_tool_call_get_arguments (call),
                                                      "action");
  g_autofree char *path = NULL;
  g_autoptr(LodeProjectStatus) status = NULL;
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) node = NULL;

  path = lode_tool_call_dup_project_path (call, error);
  if (path == NULL)
    return NULL;

  if (!g_str_equal (action, "status") &&
      !lode_engine_set_watching (engine, path, g_str_equal (action, "start"),
                                 json_object_get_boolean_member_with_default (
                                   lode_tool_call_get_arguments (call), "confirm", FALSE),
                                 error))
    return NULL;

  status = lode_engine_dup_status (engine, path, error);
  if (status == NULL)
    return NULL;
  node = lode_project_status_to_json (status);

  json_builder_begin_object (builder);
  add_project (builder, status->root);
  json_builder_set_member_name (builder, "watching");
  json_builder_add_boolean_value (builder, status->watched);
  json_builder_set_member_name (builder, "watch");
  json_builder_add_value (builder,
                          json_node_copy (json_object_get_member (json_node_get_object (node),
                                                                  "watch")));
  json_builder_end_object (builder);

  return lode_json_builder_steal_object (builder);
}

static char *
format_watch (JsonObject *result)
{
  JsonObject *watch = json_object_get_object_member (result, "watch");
  GString *text;

  if (!json_object_get_boolean_member (result, "watching"))
    return g_strdup_printf ("Not watching %s. Call codebase_watch with action start to keep "
                            "its index up to date as files change.",
                            lode_json_get_string (result, "projectPath"));
  if (lode_json_get_string (watch, "status") != NULL)
    return g_strdup_printf ("Watching %s: %s.", lode_json_get_string (result, "projectPath"),
                            lode_json_get_string (watch, "status"));

  text = g_string_new (NULL);
  g_string_append_printf (text, "Watching %s (", lode_json_get_string (result, "projectPath"));
  lode_append_count (text, lode_json_get_int (watch, "directories", 0), "%u directory",
                     "%u directories");
  g_string_append (text, "): changes are searchable within about a second.");

  return g_string_free (text, FALSE);
}

static const LodeTool codebase_watch_tool = {
  .name = "codebase_watch",
  .title = "Watch a codebase",
  .description =
    "Start or stop keeping a project's index up to date as files change, or ask whether it is "
    "watched.",
  .input_schema =
    "{\"type\": \"object\", \"properties\": {" PROJECT_PATH_PROPERTY ", "
    "\"action\": {\"type\": \"string\", \"enum\": [\"start\", \"stop\", \"status\"], "
    "\"description\": \"start, stop or status\"}, "
    "\"confirm\": {\"type\": \"boolean\", \"default\": false, \"description\": "
    "\"Watch the project even when it is the root of the file system, a directory of the "
    "system or the home directory, which are refused otherwise.\"}}, "
    "\"required\": [\"action\"], \"additionalProperties\": false}",
  .output_schema =
    "{\"type\": \"object\", \"properties\": {" PROJECT_OUTPUT_PROPERTIES ", "
    "\"watching\": {\"type\": \"boolean\"}, \"watch\": " LODE_WATCH_SCHEMA "}, "
    "\"required\": [\"projectPath\", \"projectId\", \"watching\", \"watch\"]}",
  .flags = LODE_TOOL_IDEMPOTENT | LODE_TOOL_MAIN_CONTEXT,
  .func = codebase_watch,
  .format = format_watch,
};

/* codebase_list_projects -------------------------------------------------------------- */

static JsonObject *
codebase_list_projects (LodeToolCall  *call,
                        GError       **error)
{
  LodeEngine *engine = lode_tool_call_get_engine (call);
  g_autoptr(GPtrArray) infos = NULL;
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  infos = lode_engine_list_projects (engine, error);
  if (infos == NULL)
    return NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "total");
  json_builder_add_int_value (builder, infos->len);
  json_builder_set_member_name (builder, "projects");
  json_builder_begin_array (builder);
  for (guint i = 0; i < infos->len; i++)
    {
      LodeProjectInfo *info = g_ptr_array_index (infos, i);
      g_autoptr(LodeProjectStatus) status = NULL;

      if (info->exists)
        status = lode_engine_dup_status (engine, info->root, NULL);
      json_builder_add_value (builder, lode_project_info_to_json (info, status));
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  return lode_json_builder_steal_object (builder);
}

static char *
format_list_projects (JsonObject *result)
{
  JsonArray *projects = json_object_get_array_member (result, "projects");
  GString *text = g_string_new (NULL);

  if (json_array_get_length (projects) == 0)
    {
      g_string_append (text, "No indexed projects found. Call codebase_index to index one.");
      return g_string_free (text, FALSE);
    }

  g_string_append (text, "## ");
  lode_append_count (text, json_array_get_length (projects), "%u indexed project",
                     "%u indexed projects");
  g_string_append (text, "\n\n");
  for (guint i = 0; i < json_array_get_length (projects); i++)
    {
      JsonObject *p = json_array_get_object_element (projects, i);

      g_string_append_printf (text, "- %s (id %s)", lode_json_get_string (p, "projectPath"),
                              lode_json_get_string (p, "projectId"));
      if (!json_object_get_boolean_member (p, "exists"))
        g_string_append (text, ": the directory no longer exists");
      else if (lode_json_get_string (p, "state") != NULL)
        {
          g_string_append_printf (text, ": %s, ", lode_json_get_string (p, "state"));
          lode_append_count (text, lode_json_get_int (p, "files", 0), "%u file", "%u files");
          g_string_append (text, ", ");
          lode_append_count (text, lode_json_get_int (p, "chunks", 0), "%u chunk", "%u chunks");
        }
      if (json_object_get_boolean_member (p, "indexing"))
        g_string_append (text, ", indexing now");
      if (json_object_get_boolean_member (p, "watching"))
        g_string_append (text, ", watched");
      g_string_append_c (text, '\n');
    }

  return g_string_free (text, FALSE);
}

static const LodeTool codebase_list_projects_tool = {
  .name = "codebase_list_projects",
  .title = "List indexed projects",
  .description = "List every project that has an index, with its path, id, state, size, and "
                 "whether it is being indexed or watched.",
  .input_schema = NO_INPUT,
  .output_schema =
    "{\"type\": \"object\", \"properties\": {"
    "\"total\": {\"type\": \"integer\", \"minimum\": 0}, "
    "\"projects\": {\"type\": \"array\", \"items\": " LODE_PROJECT_INFO_SCHEMA "}}, "
    "\"required\": [\"total\", \"projects\"]}",
  .flags = LODE_TOOL_READ_ONLY | LODE_TOOL_IDEMPOTENT,
  .func = codebase_list_projects,
  .format = format_list_projects,
};

/* codebase_health --------------------------------------------------------------------- */

/* The data directory is usable if it, or the closest existing parent, is writable. */
static gboolean
dir_is_writable (const char *dir)
{
  g_autofree char *path = g_strdup (dir);

  while (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      char *parent = g_path_get_dirname (path);

      if (g_str_equal (parent, path))
        {
          g_free (parent);
          return FALSE;
        }
      g_free (path);
      path = parent;
    }

  return g_file_test (path, G_FILE_TEST_IS_DIR) && g_access (path, W_OK) == 0;
}

/* The index needs FTS5; a SQLite built without it cannot create the table. */
static gboolean
has_fts5 (void)
{
  sqlite3 *db = NULL;
  gboolean ok;

  ok = sqlite3_open (":memory:", &db) == SQLITE_OK &&
       sqlite3_exec (db, "CREATE VIRTUAL TABLE probe USING fts5(x)", NULL, NULL,
                     NULL) == SQLITE_OK;
  sqlite3_close (db);

  return ok;
}

static JsonObject *
codebase_health (LodeToolCall  *call,
                 GError       **error)
{
  LodeEngine *engine = lode_tool_call_get_engine (call);
  const LodeConfig *config = lode_engine_get_config (engine);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autofree char *unavailable = NULL;
  g_autoptr(LodeEmbedder) embedder = lode_engine_dup_embedder (engine, &unavailable);
  gboolean remote = g_str_equal (config->embedding_provider, "ollama") ||
                    g_str_equal (config->embedding_provider, "openai");
  const LodeLanguage **languages;
  guint n_languages;
  guint n_grammars = 0;
  gboolean fts5 = has_fts5 ();
  gboolean writable = dir_is_writable (config->data_dir);

  languages = lode_language_get_all (&n_languages);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "healthy");
  json_builder_add_boolean_value (builder, writable && fts5);
  json_builder_set_member_name (builder, "version");
  json_builder_add_string_value (builder, PACKAGE_VERSION);

  json_builder_set_member_name (builder, "store");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "engine");
  json_builder_add_string_value (builder, "sqlite");
  json_builder_set_member_name (builder, "sqliteVersion");
  json_builder_add_string_value (builder, sqlite3_libversion ());
  json_builder_set_member_name (builder, "fts5");
  json_builder_add_boolean_value (builder, fts5);
  json_builder_set_member_name (builder, "dataDir");
  json_builder_add_string_value (builder, config->data_dir);
  json_builder_set_member_name (builder, "writable");
  json_builder_add_boolean_value (builder, writable);
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "grammars");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "languages");
  json_builder_begin_array (builder);
  for (guint i = 0; i < n_languages; i++)
    if (languages[i]->ts_language != NULL)
      {
        json_builder_add_string_value (builder, languages[i]->id);
        n_grammars++;
      }
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "count");
  json_builder_add_int_value (builder, n_grammars);
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "embeddings");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "available");
  json_builder_add_boolean_value (builder, embedder != NULL);
  json_builder_set_member_name (builder, "provider");
  json_builder_add_string_value (builder, config->embedding_provider);
  json_builder_set_member_name (builder, "model");
  json_builder_add_string_value (builder,
                                 embedder != NULL ? lode_embedder_get_model (embedder)
                                 : config->embedding_model != NULL ? config->embedding_model
                                 : "default");
  if (embedder != NULL && lode_embedder_get_dims (embedder) > 0)
    {
      json_builder_set_member_name (builder, "dims");
      json_builder_add_int_value (builder, lode_embedder_get_dims (embedder));
    }
  json_builder_set_member_name (builder, "message");
  json_builder_add_string_value (builder,
                                 embedder != NULL ? "ready: search is hybrid (BM25 + vectors)"
                                 : unavailable);
  json_builder_end_object (builder);

  /* The remote embedding service, probed when the provider was made. */
  json_builder_set_member_name (builder, "backends");
  json_builder_begin_array (builder);
  if (remote)
    {
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, config->embedding_provider);
      json_builder_set_member_name (builder, "reachable");
      json_builder_add_boolean_value (builder, embedder != NULL);
      if (embedder == NULL)
        {
          json_builder_set_member_name (builder, "message");
          json_builder_add_string_value (builder, unavailable);
        }
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  return lode_json_builder_steal_object (builder);
}

static char *
format_health (JsonObject *result)
{
  JsonObject *store = json_object_get_object_member (result, "store");
  JsonObject *grammars = json_object_get_object_member (result, "grammars");
  JsonObject *embeddings = json_object_get_object_member (result, "embeddings");
  GString *text = g_string_new (NULL);

  g_string_append_printf (text, "## Lode %s health: %s\n\n"
                          "- [%s] Store: SQLite %s, FTS5 %s, data in %s (%s)\n"
                          "- [OK] Grammars: ",
                          lode_json_get_string (result, "version"),
                          json_object_get_boolean_member (result, "healthy") ? "OK"
                                                                            : "problems",
                          json_object_get_boolean_member (store, "writable") ? "OK" : "FAIL",
                          lode_json_get_string (store, "sqliteVersion"),
                          json_object_get_boolean_member (store, "fts5") ? "available"
                                                                         : "missing",
                          lode_json_get_string (store, "dataDir"),
                          json_object_get_boolean_member (store, "writable") ? "writable"
                                                                             : "not writable");
  lode_append_count (text, lode_json_get_int (grammars, "count", 0), "%u tree-sitter language",
                     "%u tree-sitter languages");
  g_string_append_printf (text, "\n- [%s] Embeddings (%s, %s): %s\n",
                          json_object_get_boolean_member (embeddings, "available") ? "OK"
                                                                                   : "--",
                          lode_json_get_string (embeddings, "provider"),
                          lode_json_get_string (embeddings, "model"),
                          lode_json_get_string (embeddings, "message"));

  return g_string_free (text, FALSE);
}

static const LodeTool codebase_health_tool = {
  .name = "codebase_health",
  .title = "Health check",
  .description =
    "Every project that has an index: path, id, state, size, whether indexed or watched now.",
  .input_schema = NO_INPUT,
  .output_schema =
    "{\"type\": \"object\", \"properties\": {"
    "\"healthy\": {\"type\": \"boolean\"}, \"version\": {\"type\": \"string\"}, "
    "\"store\": {\"type\": \"object\", \"properties\": {"
    "\"engine\": {\"type\": \"string\"}, \"sqliteVersion\": {\"type\": \"string\"}, "
    "\"fts5\": {\"type\": \"boolean\"}, \"dataDir\": {\"type\": \"string\"}, "
    "\"writable\": {\"type\": \"boolean\"}}, "
    "\"required\": [\"engine\", \"sqliteVersion\", \"fts5\", \"dataDir\", \"writable\"]}, "
    "\"grammars\": {\"type\": \"object\", \"properties\": {"
    "\"count\": {\"type\": \"integer\", \"minimum\": 0}, "
    "\"languages\": {\"type\": \"array\", \"items\": {\"type\": \"string\"}}}, "
    "\"required\": [\"count\", \"languages\"]}, "
    "\"embeddings\": {\"type\": \"object\", \"properties\": {"
    "\"available\": {\"type\": \"boolean\"}, \"provider\": {\"type\": \"string\"}, "
    "\"model\": {\"type\": \"string\"}, \"dims\": {\"type\": \"integer\", \"minimum\": 1}, "
    "\"message\": {\"type\": \"string\"}}, "
    "\"required\": [\"available\", \"provider\", \"model\", \"message\"]}, "
    "\"backends\": {\"type\": \"array\", \"items\": {\"type\": \"object\", \"properties\": {"
    "\"name\": {\"type\": \"string\"}, \"url\": {\"type\": \"string\"}, "
    "\"reachable\": {\"type\": \"boolean\"}, \"message\": {\"type\": \"string\"}}, "
    "\"required\": [\"name\", \"reachable\"]}}}, "
    "\"required\": [\"healthy\", \"version\", \"store\", \"grammars\", \"embeddings\", "
    "\"backends\"]}",
  .flags = LODE_TOOL_READ_ONLY | LODE_TOOL_IDEMPOTENT,
  .func = codebase_health,
  .format = format_health,
};

/* codebase_about ---------------------------------------------------------------------- */

static JsonObject *
codebase_about (LodeToolCall  *call,
                GError       **error)
{
  g_autoptr(GPtrArray) tools = lode_tool_registry_list (lode_tool_call_get_registry (call));
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "name");
  json_builder_add_string_value (builder, "Lode");
  json_builder_set_member_name (builder, "version");
  json_builder_add_string_value (builder, PACKAGE_VERSION);
  json_builder_set_member_name (builder, "description");
  json_builder_add_string_value (builder,
                                 "Local code intelligence: tree-sitter chunking, a SQLite "
                                 "full-text index with code-aware tokenization and ranking, "
                                 "for agents (MCP), programs (D-Bus) and people (CLI).");
  json_builder_set_member_name (builder, "license");
  json_builder_add_string_value (builder, "GPL-3.0-or-later");
  json_builder_set_member_name (builder, "tools");
  json_builder_begin_array (builder);
  for (guint i = 0; i < tools->len; i++)
    json_builder_add_string_value (builder, ((const LodeTool *) g_ptr_array_index (tools,
                                                                                   i))->name);
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  return lode_json_builder_steal_object (builder);
}

static char *
format_about (JsonObject *result)
{
  JsonArray *tools = json_object_get_array_member (result, "tools");
  GString *text = g_string_new (NULL);

  g_string_append_printf (text, "## %s %s\n\n%s\n\nLicence: %s.\n\nTools:",
                          lode_json_get_string (result, "name"),
                          lode_json_get_string (result, "version"),
                          lode_json_get_string (result, "description"),
                          lode_json_get_string (result, "license"));
  for (guint i = 0; i < json_array_get_length (tools); i++)
    g_string_append_printf (text, "%s %s", i > 0 ? "," : "",
                            json_array_get_string_element (tools, i));
  g_string_append_c (text, '\n');

  return g_string_free (text, FALSE);
}

static const LodeTool codebase_about_tool = {
  .name = "codebase_about",
  .title = "About Lode",
  .description = "What Lode is, its version and the tools it offers.",
  .input_schema = NO_INPUT,
  .output_schema =
    "{\"type\": \"object\", \"properties\": {"
    "\"name\": {\"type\": \"string\"}, \"version\": {\"type\": \"string\"}, "
    "\"description\": {\"type\": \"string\"}, \"license\": {\"type\": \"string\"}, "
    "\"tools\": {\"type\": \"array\", \"items\": {\"type\": \"string\"}}}, "
    "\"required\": [\"name\", \"version\", \"description\", \"license\", \"tools\"]}",
  .flags = LODE_TOOL_READ_ONLY | LODE_TOOL_IDEMPOTENT,
  .func = codebase_about,
  .format = format_about,
};

/**
 * lode_codebase_tools_register:
 * @registry: a #LodeToolRegistry
 *
 * Adds the codebase_* tools: indexing, status, search, projects, health.
 */
void
lode_codebase_tools_register (LodeToolRegistry *registry)
{
  static const LodeTool *tools[] = {
    &codebase_search_tool,
    &codebase_index_tool,
    &codebase_update_tool,
    &codebase_status_tool,
    &codebase_stop_tool,
    &codebase_remove_tool,
    &codebase_watch_tool,
    &codebase_list_projects_tool,
    &codebase_health_tool,
    &codebase_about_tool,
  };

  for (guint i = 0; i < G_N_ELEMENTS (tools); i++)
    lode_tool_registry_add (registry, tools[i]);
}
