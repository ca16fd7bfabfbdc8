/* lode-json-forms.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-tools"

#include "config.h"

#include "lode-i18n.h"
#include "lode-json-forms.h"
#include "lode-markdown.h"
#include "lode-scanner.h"

static char *
iso8601_from_usec (gint64 usec)
{
  g_autoptr(GDateTime) time = g_date_time_new_from_unix_utc (usec / G_USEC_PER_SEC);

  return g_date_time_format_iso8601 (time);
}

static void
add_string (JsonBuilder *builder,
            const char  *member,
            const char  *value)
{
  if (value == NULL)
    return;
  json_builder_set_member_name (builder, member);
  json_builder_add_string_value (builder, value);
}

static void
add_int (JsonBuilder *builder,
         const char  *member,
         gint64       value)
{
  json_builder_set_member_name (builder, member);
  json_builder_add_int_value (builder, value);
}

static void
add_boolean (JsonBuilder *builder,
             const char  *member,
             gboolean     value)
{
  json_builder_set_member_name (builder, member);
  json_builder_add_boolean_value (builder, value);
}

static void
add_node (JsonBuilder *builder,
          const char  *member,
          JsonNode    *node)
{
  json_builder_set_member_name (builder, member);
  json_builder_add_value (builder, node);
}

/**
 * lode_index_report_to_json:
 * @report: what an indexing run did
 *
 * Returns: (transfer full): @report as an object valid against %LODE_REPORT_SCHEMA
 */
JsonNode *
lode_index_report_to_json (const LodeIndexReport *report)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  guint n_skipped = report->skipped != NULL ? report->skipped->len : 0;

  g_return_val_if_fail (report != NULL, NULL);

  json_builder_begin_object (builder);
  add_int (builder, "files", report->n_files);
  add_int (builder, "added", report->n_added);
  add_int (builder, "updated", report->n_updated);
  add_int (builder, "removed", report->n_removed);
  add_int (builder, "unchanged", report->n_unchanged);
  add_int (builder, "chunks", report->n_chunks);
  add_int (builder, "lines", report->n_lines);
  add_int (builder, "bytes", report->n_bytes);
  add_int (builder, "skipped", n_skipped);
  json_builder_set_member_name (builder, "skippedFiles");
  json_builder_begin_array (builder);
  for (guint i = 0; i < n_skipped; i++)
    {
      const LodeSkippedFile *file = g_ptr_array_index (report->skipped, i);

      json_builder_begin_object (builder);
      add_string (builder, "path", file->path);
      add_string (builder, "reason", lode_skip_reason_to_string (file->reason));
      add_string (builder, "detail", file->detail);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  add_boolean (builder, "resumed", report->resumed);
  add_boolean (builder, "incremental", report->incremental);
  add_boolean (builder, "rebuilt", report->reset);
  add_string (builder, "rebuiltBecause", report->reset_reason);
  json_builder_set_member_name (builder, "elapsedSeconds");
  json_builder_add_double_value (builder, report->elapsed);
  add_int (builder, "embedded", report->n_embedded);
  add_string (builder, "embeddingModel", report->embedding_model);
  add_string (builder, "embeddingNotice", report->embedding_notice);
  add_string (builder, "branch", report->branch);
  add_string (builder, "branchSeededFrom", report->branch_seeded_from);
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

/**
 * lode_job_info_to_json:
 * @job: an indexing job
 *
 * Returns: (transfer full): @job as an object valid against %LODE_JOB_SCHEMA
 */
JsonNode *
lode_job_info_to_json (const LodeJobInfo *job)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  g_return_val_if_fail (job != NULL, NULL);

  json_builder_begin_object (builder);
  add_string (builder, "kind", lode_job_kind_to_string (job->kind));
  add_string (builder, "state", lode_job_state_to_string (job->state));
  add_string (builder, "phase", lode_index_phase_to_string (job->progress.phase));
  add_int (builder, "done", job->progress.done);
  add_int (builder, "total", job->progress.total);
  if (job->started_at != 0)
    {
      g_autofree char *started = iso8601_from_usec (job->started_at);

      add_string (builder, "startedAt", started);
    }
  if (job->finished_at != 0)
    {
      g_autofree char *finished = iso8601_from_usec (job->finished_at);

      add_string (builder, "finishedAt", finished);
    }
  add_string (builder, "error", job->error);
  if (job->report != NULL)
    add_node (builder, "report", lode_index_report_to_json (job->report));
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

static int
compare_language_counts (gconstpointer a,
                         gconstpointer b,
                         gpointer      user_data)
{
  GHashTable *languages = user_data;
  guint ca = GPOINTER_TO_UINT (g_hash_table_lookup (languages, *(const char **) a));
  guint cb = GPOINTER_TO_UINT (g_hash_table_lookup (languages, *(const char **) b));

  if (ca != cb)
    return ca > cb ? -1 : 1;
  return g_strcmp0 (*(const char **) a, *(const char **) b);
}

/**
 * lode_project_status_to_json:
 * @status: a project's status, as lode_engine_dup_status() returns it
 *
 * Returns: (transfer full): @status as an object valid against %LODE_STATUS_SCHEMA;
 *   languages come most files first
 */
JsonNode *
lode_project_status_to_json (const LodeProjectStatus *status)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autofree gpointer *languages = NULL;
  guint n_languages;

  g_return_val_if_fail (status != NULL, NULL);

  json_builder_begin_object (builder);
  add_string (builder, "projectPath", status->root);
  add_string (builder, "projectId", status->id);
  add_boolean (builder, "indexed", status->state != LODE_INDEX_STATE_NONE);
  add_string (builder, "state", lode_index_state_to_string (status->state));
  add_string (builder, "damage", status->damage);
  add_boolean (builder, "indexing", status->job != NULL &&
                                    status->job->state == LODE_JOB_STATE_RUNNING);
  add_int (builder, "files", status->stats.n_files);
  add_int (builder, "chunks", status->stats.n_chunks);
  add_int (builder, "symbols", status->stats.n_symbols);
  add_int (builder, "lines", status->stats.n_lines);
  add_int (builder, "bytes", status->stats.n_bytes);
  add_int (builder, "databaseBytes", status->db_size);
  add_string (builder, "indexedAt", status->indexed_at);
  add_string (builder, "branch", status->branch);
  add_string (builder, "branchFallback", status->branch_fallback);

  json_builder_set_member_name (builder, "semantic");
  json_builder_begin_object (builder);
  add_boolean (builder, "available", status->semantic_notice == NULL);
  add_string (builder, "model", status->embedding_model);
  add_int (builder, "embeddedChunks", status->n_embedded);
  add_int (builder, "embeddableChunks", status->n_embeddable);
  add_string (builder, "notice", status->semantic_notice);
  json_builder_end_object (builder);

  languages = g_hash_table_get_keys_as_array (status->languages, &n_languages);
  g_qsort_with_data (languages, n_languages, sizeof (gpointer), compare_language_counts,
                     status->languages);
  json_builder_set_member_name (builder, "languages");
  json_builder_begin_array (builder);
  for (guint i = 0; i < n_languages; i++)
    {
      json_builder_begin_object (builder);
      add_string (builder, "language", languages[i]);
      add_int (builder, "files",
               GPOINTER_TO_UINT (g_hash_table_lookup (status->languages, languages[i])));
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "watch");
  json_builder_begin_object (builder);
  add_boolean (builder, "watching", status->watched);
  add_boolean (builder, "polling", status->polling);
  add_int (builder, "directories", status->n_watches);
  add_string (builder, "status", status->watch_status);
  json_builder_end_object (builder);

  if (status->job != NULL)
    add_node (builder, "job", lode_job_info_to_json (status->job));
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

/**
 * lode_project_info_to_json:
 * @info: an indexed tree, as lode_engine_list_projects() lists it
 * @status: (nullable): its status, for the state and sizes
 *
 * Returns: (transfer full): @info as an object valid against %LODE_PROJECT_INFO_SCHEMA
 */
JsonNode *
lode_project_info_to_json (const LodeProjectInfo   *info,
                           const LodeProjectStatus *status)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  g_return_val_if_fail (info != NULL, NULL);

  json_builder_begin_object (builder);
  add_string (builder, "projectPath", info->root);
  add_string (builder, "projectId", info->id);
  add_boolean (builder, "exists", info->exists);
  add_boolean (builder, "indexing", info->indexing);
  add_boolean (builder, "watching", info->watched);
  if (status != NULL)
    {
      add_string (builder, "state", lode_index_state_to_string (status->state));
      add_int (builder, "files", status->stats.n_files);
      add_int (builder, "chunks", status->stats.n_chunks);
    }
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

/* Markdown ----------------------------------------------------------------------------- */

/* Skipped files named in an index report's text; the structured result has them all. */
#define MAX_SKIPPED_LISTED 10

static const char *
string_member (JsonObject *object,
               const char *member)
{
  return json_object_get_string_member_with_default (object, member, NULL);
}

static gint64
int_member (JsonObject *object,
            const char *member)
{
  return json_object_get_int_member_with_default (object, member, 0);
}

/* json_object_get_object_member() is critical about missing members; optional ones use this. */
static JsonObject *
object_member (JsonObject *object,
               const char *member)
{
  JsonNode *node = json_object_get_member (object, member);

  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

/**
 * lode_job_json_append_markdown:
 * @text: where to write
 * @job: a job in the form of lode_job_info_to_json()
 *
 * Appends a few lines on @job for people and agents.
 */
void
lode_job_json_append_markdown (GString    *text,
                               JsonObject *job)
{
  const char *state = string_member (job, "state");
  JsonObject *report = object_member (job, "report");

  if (g_strcmp0 (state, "running") == 0)
    {
      if (g_strcmp0 (string_member (job, "phase"), "waiting") == 0)
        g_string_append (text, "- Indexing: waiting for the job before it\n");
      else if (int_member (job, "total") > 0)
        g_string_append_printf (text, "- Indexing: %s, %" G_GINT64_FORMAT " of %"
                                G_GINT64_FORMAT "\n", string_member (job, "phase"),
                                int_member (job, "done"), int_member (job, "total"));
      else
        g_string_append_printf (text, "- Indexing: %s\n", string_member (job, "phase"));
      return;
    }

  g_string_append_printf (text, "- Last indexing run: %s", state);
  if (string_member (job, "finishedAt") != NULL)
    g_string_append_printf (text, " at %s", string_member (job, "finishedAt"));
  g_string_append_c (text, '\n');
  if (string_member (job, "error") != NULL)
    g_string_append_printf (text, "- Error: %s\n", string_member (job, "error"));
  if (report == NULL)
    return;

  if (string_member (report, "rebuiltBecause") != NULL)
    g_string_append_printf (text, "- Note: %s\n", string_member (report, "rebuiltBecause"));
  if (string_member (report, "branch") != NULL)
    {
      const char *seeded_from = string_member (report, "branchSeededFrom");

      g_string_append_printf (text, "- Branch: %s", string_member (report, "branch"));
      if (seeded_from != NULL)
        g_string_append_printf (text, ", its index started as a copy of %s%s",
                                *seeded_from != '\0' ? seeded_from : "the project's index",
                                *seeded_from != '\0' ? "'s" : "");
      g_string_append_c (text, '\n');
    }
  g_string_append_printf (text, "- Changes: %" G_GINT64_FORMAT " added, %" G_GINT64_FORMAT
                          " updated, %" G_GINT64_FORMAT " removed, %" G_GINT64_FORMAT
                          " unchanged; ",
                          int_member (report, "added"), int_member (report, "updated"),
                          int_member (report, "removed"), int_member (report, "unchanged"));
  lode_append_count (text, int_member (report, "chunks"), "%u chunk written",
                     "%u chunks written");
  g_string_append_printf (text, " in %.1f s\n",
                          json_object_get_double_member_with_default (report, "elapsedSeconds",
                                                                      0));
  if (int_member (report, "skipped") > 0)
    {
      JsonArray *skipped = json_object_get_array_member (report, "skippedFiles");
      guint listed = skipped != NULL ? MIN (json_array_get_length (skipped),
                                            MAX_SKIPPED_LISTED) : 0;

      g_string_append (text, "- Skipped: ");
      lode_append_count (text, int_member (report, "skipped"), "%u file", "%u files");
      g_string_append (text, "\n");
      for (guint i = 0; i < listed; i++)
        {
          JsonObject *file = json_array_get_object_element (skipped, i);

          g_string_append (text, "  - ");
          lode_markdown_append_code (text, string_member (file, "path"));
          g_string_append_printf (text, ": %s%s%s\n", string_member (file, "reason"),
                                  string_member (file, "detail") != NULL ? ", " : "",
                                  string_member (file, "detail") != NULL
                                  ? string_member (file, "detail") : "");
        }
      if (int_member (report, "skipped") > listed)
        g_string_append_printf (text, "  - and %" G_GINT64_FORMAT " more (the structured "
                                "result lists them all)\n",
                                int_member (report, "skipped") - listed);
    }
  if (string_member (report, "embeddingModel") != NULL)
    {
      g_string_append (text, "- Embedded ");
      lode_append_count (text, int_member (report, "embedded"), "%u chunk", "%u chunks");
      g_string_append_printf (text, " with %s\n", string_member (report, "embeddingModel"));
    }
  if (string_member (report, "embeddingNotice") != NULL)
    g_string_append_printf (text, "- Note: %s\n", string_member (report, "embeddingNotice"));
}

/**
 * lode_status_json_append_markdown:
 * @text: where to write
 * @status: a status in the form of lode_project_status_to_json()
 *
 * Appends @status for people and agents.
 */
void
lode_status_json_append_markdown (GString    *text,
                                  JsonObject *status)
{
  JsonArray *languages = json_object_get_array_member (status, "languages");
  JsonObject *job = object_member (status, "job");
  JsonObject *semantic = json_object_get_object_member (status, "semantic");
  JsonObject *watch = object_member (status, "watch");

  g_string_append_printf (text, "## Index status of %s\n\n",
                          string_member (status, "projectPath"));
  if (string_member (status, "branch") != NULL)
    {
      g_string_append_printf (text, "- Branch: %s", string_member (status, "branch"));
      if (string_member (status, "branchFallback") != NULL)
        g_string_append_printf (text, " (not indexed yet: %s's index answers until the next "
                                "index run)", string_member (status, "branchFallback"));
      g_string_append_c (text, '\n');
    }
  if (string_member (status, "damage") != NULL)
    g_string_append_printf (text, "- State: damaged. %s\n", string_member (status, "damage"));
  else if (!json_object_get_boolean_member (status, "indexed"))
    g_string_append (text, "- State: not indexed. Call codebase_index to build the index.\n");
  else
    {
      g_string_append_printf (text, "- State: %s\n", string_member (status, "state"));
      g_string_append (text, "- ");
      lode_append_count (text, int_member (status, "files"), "%u file", "%u files");
      g_string_append (text, ", ");
      lode_append_count (text, int_member (status, "chunks"), "%u chunk", "%u chunks");
      g_string_append (text, ", ");
      lode_append_count (text, int_member (status, "symbols"), "%u symbol", "%u symbols");
      g_string_append (text, ", ");
      lode_append_count (text, int_member (status, "lines"), "%u line", "%u lines");
      g_string_append_c (text, '\n');
      if (string_member (status, "indexedAt") != NULL)
        g_string_append_printf (text, "- Last completed: %s\n",
                                string_member (status, "indexedAt"));
      if (string_member (semantic, "model") != NULL)
        {
          g_string_append_printf (text, "- Semantic search (%s): %" G_GINT64_FORMAT " of ",
                                  string_member (semantic, "model"),
                                  int_member (semantic, "embeddedChunks"));
          lode_append_count (text, int_member (semantic, "embeddableChunks"),
                             "%u chunk embedded", "%u chunks embedded");
          g_string_append_c (text, '\n');
        }
    }
  if (string_member (status, "store") != NULL)
    g_string_append_printf (text, "- Store: %s\n", string_member (status, "store"));
  if (string_member (semantic, "notice") != NULL)
    g_string_append_printf (text, "- Note: %s\n", string_member (semantic, "notice"));

  if (json_array_get_length (languages) > 0)
    {
      g_string_append (text, "- Languages:");
      for (guint i = 0; i < json_array_get_length (languages) && i < 12; i++)
        {
          JsonObject *language = json_array_get_object_element (languages, i);

          g_string_append_printf (text, "%s %s (%" G_GINT64_FORMAT ")", i > 0 ? "," : "",
                                  string_member (language, "language"),
                                  int_member (language, "files"));
        }
      g_string_append_c (text, '\n');
    }

  if (watch != NULL && json_object_get_boolean_member (watch, "watching"))
    {
      if (string_member (watch, "status") != NULL)
        g_string_append_printf (text, "- Watched: %s\n", string_member (watch, "status"));
      else
        {
          g_string_append (text, "- Watched: ");
          lode_append_count (text, int_member (watch, "directories"), "%u directory",
                             "%u directories");
          g_string_append (text, ", changes are indexed as they happen\n");
        }
    }

  if (job != NULL)
    lode_job_json_append_markdown (text, job);
}
