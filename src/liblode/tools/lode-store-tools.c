/* lode-store-tools.c — the tools that move an index between stores
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-tools"

#include "config.h"

#include "lode-error.h"
#include "lode-index-store.h"
#include "lode-tools-private.h"

/* codebase_migrate --------------------------------------------------------------------- */

static JsonObject *
migrate (LodeToolCall  *call,
         GError       **error)
{
  JsonObject *arguments = lode_tool_call_get_arguments (call);
  g_autofree char *path = lode_tool_call_dup_project_path (call, error);
  g_autoptr(LodeProject) project = NULL;
  g_autoptr(LodeJobInfo) job = NULL;
  g_autofree char *model = NULL;
  const char *to = json_object_get_string_member (arguments, "to");
  LodeStoreKind kind = LODE_STORE_KIND_SQLITE;
  LodeStoreCopyCounts counts;
  JsonObject *result;

  if (path == NULL)
    return NULL;
  /* The input schema allows only the known names. */
  g_assert (lode_store_kind_from_string (to, &kind));

  project = lode_engine_open_project (lode_tool_call_get_engine (call), path, FALSE, error);
  if (project == NULL)
    return NULL;

  job = lode_engine_dup_job (lode_tool_call_get_engine (call), lode_project_get_id (project));
  if (job != NULL && job->state == LODE_JOB_STATE_RUNNING)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_FAILED,
                   "%s is being indexed; wait for the job (codebase_status) or stop it "
                   "(codebase_stop), then call this again", lode_project_get_root (project));
      return NULL;
    }

  if (!lode_project_migrate (project, kind, lode_tool_call_get_cancellable (call), &counts,
                             &model, error))
    return NULL;

  result = json_object_new ();
  json_object_set_string_member (result, "project", lode_project_get_root (project));
  json_object_set_string_member (result, "from", kind == LODE_STORE_KIND_SQLITE ? "qdrant"
                                                                               : "sqlite");
  json_object_set_string_member (result, "to", to);
  json_object_set_int_member (result, "files", counts.n_files);
  json_object_set_int_member (result, "chunks", counts.n_chunks);
  json_object_set_int_member (result, "imports", counts.n_imports);
  json_object_set_int_member (result, "vectors", counts.n_vectors);
  if (model != NULL)
    json_object_set_string_member (result, "model", model);
  else
    json_object_set_null_member (result, "model");
  return result;
}

static char *
format_migrate (JsonObject *result)
{
  const char *model = json_object_get_string_member_with_default (result, "model", NULL);
  const char *to = json_object_get_string_member (result, "to");

  return g_strdup_printf ("Copied the %s index of `%s` into %s: %" G_GINT64_FORMAT " files, %"
                          G_GINT64_FORMAT " chunks, %" G_GINT64_FORMAT " imports, %"
                          G_GINT64_FORMAT " vectors%s%s%s.\n\nSet the store to %s (`store` "
                          "setting, or LODE_STORE=%s) to use it.\n",
                          json_object_get_string_member (result, "from"),
                          json_object_get_string_member (result, "project"), to,
                          json_object_get_int_member (result, "files"),
                          json_object_get_int_member (result, "chunks"),
                          json_object_get_int_member (result, "imports"),
                          json_object_get_int_member (result, "vectors"),
                          model != NULL ? " (" : "", model != NULL ? model : "",
                          model != NULL ? ")" : "", to, to);
}

#define COUNT "{\"type\": \"integer\", \"minimum\": 0}"

static const LodeTool migrate_tool = {
  .name = "codebase_migrate",
  .title = "Copy an index to another store",
  .description =
    "Copies the project's index from the other store into `to` (sqlite: the embedded index; "
    "qdrant: the Qdrant server of the settings) without indexing or embedding again: files, "
    "chunks, declarations, the import graph and the vectors of the embedding model. What "
    "`to` held of the project is replaced; the source is kept.",
  .input_schema =
    "{\"type\": \"object\", \"properties\": {" PROJECT_PATH_PROPERTY ", "
    "\"to\": {\"type\": \"string\", \"enum\": [\"sqlite\", \"qdrant\"], \"description\": "
    "\"The store to copy the index into\"}}, "
    "\"required\": [\"to\"], \"additionalProperties\": false}",
  .output_schema =
    "{\"type\": \"object\", \"properties\": {"
    "\"project\": {\"type\": \"string\"}, \"from\": {\"type\": \"string\"}, "
    "\"to\": {\"type\": \"string\"}, \"files\": " COUNT ", \"chunks\": " COUNT ", "
    "\"imports\": " COUNT ", \"vectors\": " COUNT ", "
    "\"model\": {\"type\": [\"string\", \"null\"]}}, "
    "\"required\": [\"project\", \"from\", \"to\", \"files\", \"chunks\", \"imports\", "
    "\"vectors\", \"model\"]}",
  .flags = LODE_TOOL_IDEMPOTENT,
  .func = migrate,
  .format = format_migrate,
};

void
lode_store_tools_register (LodeToolRegistry *registry)
{
  lode_tool_registry_add (registry, &migrate_tool);
}
