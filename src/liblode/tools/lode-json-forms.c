/* lode-json-forms.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-tools"

#include "config.h"

#include "lode-i18n.h"
#include "lode-json-forms.h"
#include "lode-json.h"
#include "lode-scanner.h"

static char *
iso8601_from_usec (gint64 usec)
{
  g_autoptr(GDateTime) time = g_date_time_new_from_unix_utc (usec / G_USEC_PER_SEC);

  return g_date_time_format_iso8601 (time);
}

/* A member left out when @value is NULL (lode_json_builder_add_string() writes null). */
static void
add_optional_string (JsonBuilder *builder,
                     const char  *member,
                     const char  *value)
{
  if (value == NULL)
    return;
  json_builder_set_member_name (builder, member);
  json_builder_add_string_value (builder, value);
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
  lode_json_builder_add_int (builder, "files", report->n_files);
  lode_json_builder_add_int (builder, "added", report->n_added);
  lode_json_builder_add_int (builder, "updated", report->n_updated);
  lode_json_builder_add_int (builder, "removed", report->n_removed);
  lode_json_builder_add_int (builder, "unchanged", report->n_unchanged);
  lode_json_builder_add_int (builder, "chunks", report->n_chunks);
  lode_json_builder_add_int (builder, "lines", report->n_lines);
  lode_json_builder_add_int (builder, "bytes", report->n_bytes);
  lode_json_builder_add_int (builder, "skipped", n_skipped);
  json_builder_set_member_name (builder, "skippedFiles");
  json_builder_begin_array (builder);
  for (guint i = 0; i < n_skipped; i++)
    {
      const LodeSkippedFile *file = g_ptr_array_index (report->skipped, i);

      json_builder_begin_object (builder);
      add_optional_string (builder, "path", file->path);
      add_optional_string (builder, "reason", lode_skip_reason_to_string (file->reason));
      add_optional_string (builder, "detail", file->detail);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  lode_json_builder_add_boolean (builder, "resumed", report->resumed);
  lode_json_builder_add_boolean (builder, "incremental", report->incremental);
  lode_json_builder_add_boolean (builder, "rebuilt", report->reset);
  add_optional_string (builder, "rebuiltBecause", report->reset_reason);
  json_builder_set_member_name (builder, "elapsedSeconds");
  json_builder_add_double_value (builder, report->elapsed);
  lode_json_builder_add_int (builder, "embedded", report->n_embedded);
  add_optional_string (builder, "embeddingModel", report->embedding_model);
  add_optional_string (builder, "embeddingNotice", report->embedding_notice);
  add_optional_string (builder, "branch", report->branch);
  add_optional_string (builder, "branchSeededFrom", report->branch_seeded_from);
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
  add_optional_string (builder, "kind", lode_job_kind_to_string (job->kind));
  add_optional_string (builder, "state", lode_job_state_to_string (job->state));
  add_optional_string (builder, "phase", lode_index_phase_to_string (job->progress.phase));
  lode_json_builder_add_int (builder, "done", job->progress.done);
  lode_json_builder_add_int (builder, "total", job->progress.total);
  if (job->started_at != 0)
    {
      g_autofree char *started = iso8601_from_usec (job->started_at);

      add_optional_string (builder, "startedAt", started);
    }
  if (job->finished_at != 0)
    {
      g_autofree char *finished = iso8601_from_usec (job->finished_at);

      add_optional_string (builder, "finishedAt", finished);
    }
  add_optional_string (builder, "error", job->error);
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
  add_optional_string (builder, "projectPath", status->root);
  add_optional_string (builder, "projectId", status->id);
  lode_json_builder_add_boolean (builder, "indexed", status->state != LODE_INDEX_STATE_NONE);
  add_optional_string (builder, "state", lode_index_state_to_string (status->state));
  add_optional_string (builder, "damage", status->damage);
  lode_json_builder_add_boolean (builder, "indexing",
                                 status->job != NULL &&
                                 status->job->state == LODE_JOB_STATE_RUNNING);
  lode_json_builder_add_int (builder, "files", status->stats.n_files);
  lode_json_builder_add_int (builder, "chunks", status->stats.n_chunks);
  lode_json_builder_add_int (builder, "symbols", status->stats.n_symbols);
  lode_json_builder_add_int (builder, "lines", status->stats.n_lines);
  lode_json_builder_add_int (builder, "bytes", status->stats.n_bytes);
  lode_json_builder_add_int (builder, "databaseBytes", status->db_size);
  add_optional_string (builder, "indexedAt", status->indexed_at);
  add_optional_string (builder, "branch", status->branch);
  add_optional_string (builder, "branchFallback", status->branch_fallback);

  json_builder_set_member_name (builder, "semantic");
  json_builder_begin_object (builder);
  lode_json_builder_add_boolean (builder, "available", status->semantic_notice == NULL);
  add_optional_string (builder, "model", status->embedding_model);
  lode_json_builder_add_int (builder, "embeddedChunks", status->n_embedded);
  lode_json_builder_add_int (builder, "embeddableChunks", status->n_embeddable);
  add_optional_string (builder, "notice", status->semantic_notice);
  json_builder_end_object (builder);

  languages = g_hash_table_get_keys_as_array (status->languages, &n_languages);
  g_qsort_with_data (languages, n_languages, sizeof (gpointer), compare_language_counts,
                     status->languages);
  json_builder_set_member_name (builder, "languages");
  json_builder_begin_array (builder);
  for (guint i = 0; i < n_languages; i++)
    {
      json_builder_begin_object (builder);
      add_optional_string (builder, "language", languages[i]);
      lode_json_builder_add_int (builder, "files",
                                 GPOINTER_TO_UINT (g_hash_table_lookup (status->languages,
                                                                        languages[i])));
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "watch");
  json_builder_begin_object (builder);
  lode_json_builder_add_boolean (builder, "watching", status->watched);
  lode_json_builder_add_boolean (builder, "polling", status->polling);
  lode_json_builder_add_int (builder, "directories", status->n_watches);
  add_optional_string (builder, "status", status->watch_status);
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
  add_optional_string (builder, "projectPath", info->root);
  add_optional_string (builder, "projectId", info->id);
  lode_json_builder_add_boolean (builder, "exists", info->exists);
  lode_json_builder_add_boolean (builder, "indexing", info->indexing);
  lode_json_builder_add_boolean (builder, "watching", info->watched);
  if (status != NULL)
    {
      add_optional_string (builder, "state", lode_index_state_to_string (status->state));
      lode_json_builder_add_int (builder, "files", status->stats.n_files);
      lode_json_builder_add_int (builder, "chunks", status->stats.n_chunks);
    }
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

/* Markdown ----------------------------------------------------------------------------- */

/* Skipped files named in an index report's text; the structured result has them all. */
#define MAX_SKIPPED_LISTED 10

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
  const char *state = lode_json_get_string (job, "state");
  JsonObject *report = lode_json_get_object (job, "report");

  if (g_strcmp0 (state, "running") == 0)
    {
      if (g_strcmp0 (lode_json_get_string (job, "phase"), "waiting") == 0)
        g_string_append (text, "- Indexing: waiting for the job before it\n");
      else if (lode_json_get_int (job, "total", 0) > 0)
        g_string_append_printf (text, "- Indexing: %s, %" G_GINT64_FORMAT " of %"
                                G_GINT64_FORMAT "\n", lode_json_get_string (job, "phase"),
                                lode_json_get_int (job, "done", 0),
                                lode_json_get_int (job, "total", 0));
      else
        g_string_append_printf (text, "- Indexing: %s\n", lode_json_get_string (job, "phase"));
      return;
    }

  g_string_append_printf (text, "- Last indexing run: %s", state);
  if (lode_json_get_string (job, "finishedAt") != NULL)
    g_string_append_printf (text, " at %s", lode_json_get_string (job, "finishedAt"));
  g_string_append_c (text, '\n');
  if (lode_json_get_string (job, "error") != NULL)
    g_string_append_printf (text, "- Error: %s\n", lode_json_get_string (job, "error"));
  if (report == NULL)
    return;

  if (lode_json_get_string (report, "rebuiltBecause") != NULL)
    g_string_append_printf (text, "- Note: %s\n", lode_json_get_string (report, "rebuiltBecause"));
  if (lode_json_get_string (report, "branch") != NULL)
    {
      const char *seeded_from = lode_json_get_string (report, "branchSeededFrom");

      g_string_append_printf (text, "- Branch: %s", lode_json_get_string (report, "branch"));
      if (seeded_from != NULL)
        g_string_append_printf (text, ", its index started as a copy of %s%s",
                                *seeded_from != '\0' ? seeded_from : "the project's index",
                                *seeded_from != '\0' ? "'s" : "");
      g_string_append_c (text, '\n');
    }
  g_string_append_printf (text, "- Changes: %" G_GINT64_FORMAT " added, %" G_GINT64_FORMAT
                          " updated, %" G_GINT64_FORMAT " removed, %" G_GINT64_FORMAT
                          " unchanged; ",
                          lode_json_get_int (report, "added", 0),
                          lode_json_get_int (report, "updated", 0),
                          lode_json_get_int (report, "removed", 0),
                          lode_json_get_int (report, "unchanged", 0));
  lode_append_count (text, lode_json_get_int (report, "chunks", 0), "%u chunk written",
                     "%u chunks written");
  g_string_append_printf (text, " in %.1f s\n",
                          json_object_get_double_member_with_default (report, "elapsedSeconds",
                                                                      0));
  if (lode_json_get_int (report, "skipped", 0) > 0)
    {
      JsonArray *skipped = json_object_get_array_member (report, "skippedFiles");
      guint listed = skipped != NULL ? MIN (json_array_get_length (skipped),
                                            MAX_SKIPPED_LISTED) : 0;

      g_string_append (text, "- Skipped: ");
      lode_append_count (text, lode_json_get_int (report, "skipped", 0), "%u file", "%u files");
      g_string_append (text, "\n");
      for (guint i = 0; i < listed; i++)
        {
          JsonObject *file = json_array_get_object_element (skipped, i);

          g_string_append_printf (text, "  - `%s`: %s%s%s\n", lode_json_get_string (file, "path"),
                                  lode_json_get_string (file, "reason"),
                                  lode_json_get_string (file, "detail") != NULL ? ", " : "",
                                  lode_json_get_string (file, "detail") != NULL
                                  ? lode_json_get_string (file, "detail") : "");
        }
      if (lode_json_get_int (report, "skipped", 0) > listed)
        g_string_append_printf (text, "  - and %" G_GINT64_FORMAT " more (the structured "
                                "result lists them all)\n",
                                lode_json_get_int (report, "skipped", 0) - listed);
    }
  if (lode_json_get_string (report, "embeddingModel") != NULL)
    {
      g_string_append (text, "- Embedded ");
      lode_append_count (text, lode_json_get_int (report, "embedded", 0), "%u chunk", "%u chunks");
      g_string_append_printf (text, " with %s\n", lode_json_get_string (report, "embeddingModel"));
    }
  if (lode_json_get_string (report, "embeddingNotice") != NULL)
    g_string_append_printf (text, "- Note: %s\n", lode_json_get_string (report, "embeddingNotice"));
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
  JsonObject *job = lode_json_get_object (status, "job");
  JsonObject *semantic = json_object_get_object_member (status, "semantic");
  JsonObject *watch = lode_json_get_object (status, "watch");

  g_string_append_printf (text, "## Index status of %s\n\n",
                          lode_json_get_string (status, "projectPath"));
  if (lode_json_get_string (status, "branch") != NULL)
    {
      g_string_append_printf (text, "- Branch: %s", lode_json_get_string (status, "branch"));
      if (lode_json_get_string (status, "branchFallback") != NULL)
        g_string_append_printf (text, " (not indexed yet: %s's index answers until the next "
                                "index run)", lode_json_get_string (status, "branchFallback"));
      g_string_append_c (text, '\n');
    }
  if (lode_json_get_string (status, "damage") != NULL)
    g_string_append_printf (text, "- State: damaged. %s\n",
                            lode_json_get_string (status, "damage"));
  else if (!json_object_get_boolean_member (status, "indexed"))
    g_string_append (text, "- State: not indexed. Call codebase_index to build the index.\n");
  else
    {
      g_string_append_printf (text, "- State: %s\n", lode_json_get_string (status, "state"));
      g_string_append (text, "- ");
      lode_append_count (text, lode_json_get_int (status, "files", 0), "%u file", "%u files");
      g_string_append (text, ", ");
      lode_append_count (text, lode_json_get_int (status, "chunks", 0), "%u chunk", "%u chunks");
      g_string_append (text, ", ");
      lode_append_count (text, lode_json_get_int (status, "symbols", 0), "%u symbol", "%u symbols");
      g_string_append (text, ", ");
      lode_append_count (text, lode_json_get_int (status, "lines", 0), "%u line", "%u lines");
      g_string_append_c (text, '\n');
      if (lode_json_get_string (status, "indexedAt") != NULL)
        g_string_append_printf (text, "- Last completed: %s\n",
                                lode_json_get_string (status, "indexedAt"));
      if (lode_json_get_string (semantic, "model") != NULL)
        {
          g_string_append_printf (text, "- Semantic search (%s): %" G_GINT64_FORMAT " of ",
                                  lode_json_get_string (semantic, "model"),
                                  lode_json_get_int (semantic, "embeddedChunks", 0));
          lode_append_count (text, lode_json_get_int (semantic, "embeddableChunks", 0),
                             "%u chunk embedded", "%u chunks embedded");
          g_string_append_c (text, '\n');
        }
    }
  if (lode_json_get_string (status, "store") != NULL)
    g_string_append_printf (text, "- Store: %s\n", lode_json_get_string (status, "store"));
  if (lode_json_get_string (semantic, "notice") != NULL)
    g_string_append_printf (text, "- Note: %s\n", lode_json_get_string (semantic, "notice"));

  if (json_array_get_length (languages) > 0)
    {
      g_string_append (text, "- Languages:");
      for (guint i = 0; i < json_array_get_length (languages) && i < 12; i++)
        {
          JsonObject *language = json_array_get_object_element (languages, i);

          g_string_append_printf (text, "%s %s (%" G_GINT64_FORMAT ")", i > 0 ? "," : "",
                                  lode_json_get_string (language, "language"),
                                  lode_json_get_int (language, "files", 0));
        }
      g_string_append_c (text, '\n');
    }

  if (watch != NULL && json_object_get_boolean_member (watch, "watching"))
    {
      if (lode_json_get_string (watch, "status") != NULL)
        g_string_append_printf (text, "- Watched: %s\n", lode_json_get_string (watch, "status"));
      else
        {
          g_string_append (text, "- Watched: ");
          lode_append_count (text, lode_json_get_int (watch, "directories", 0), "%u directory",
                             "%u directories");
          g_string_append (text, ", changes are indexed as they happen\n");
        }
    }

  if (job != NULL)
    lode_job_json_append_markdown (text, job);
}
