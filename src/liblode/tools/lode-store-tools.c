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
  json_object_set_int_member (result, "artifacts", counts.n_artifacts);
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
    "Copy the project's index from the other store into to (sqlite or qdrant) without indexing or "
    "embedding again: files, chunks, declarations, graph, context artifacts, vectors. The source "
    "is kept.",
  .input_schema =
    "{\"type\": \"object\", \"properties\": {" PROJECT_PATH_PROPERTY ", "
    "\"to\": {\"type\": \"string\", \"enum\": [\"sqlite\", \"qdrant\"], \"description\": "
    "\"The store to copy the index into\"}}, "
    "\"required\": [\"to\"], \"additionalProperties\": false}",
  .output_schema =
    "{\"type\": \"object\", \"properties\": {"
    "\"project\": {\"type\": \"string\"}, \"from\": {\"type\": \"string\"}, "
    "\"to\": {\"type\": \"string\"}, \"files\": " COUNT ", \"chunks\": " COUNT ", "
    "\"imports\": " COUNT ", \"vectors\": " COUNT ", \"artifacts\": " COUNT ", "
    "\"model\": {\"type\": [\"string\", \"null\"]}}, "
    "\"required\": [\"project\", \"from\", \"to\", \"files\", \"chunks\", \"imports\", "
    "\"vectors\", \"model\"]}",
  .flags = LODE_TOOL_IDEMPOTENT,
  .func = migrate,
  .format = format_migrate,
};

/* codebase_branches -------------------------------------------------------------------- */

/* Whether @index is to be pruned: @prune is true (every branch gone from refs) or lists it. */
static gboolean
is_pruned (JsonNode              *prune,
           const LodeBranchIndex *index)
{
  JsonArray *names;

  if (prune == NULL || index->current)
    return FALSE;
  if (JSON_NODE_HOLDS_VALUE (prune))
    return json_node_get_boolean (prune) && !index->exists;

  names = json_node_get_array (prune);
  for (guint i = 0; i < json_array_get_length (names); i++)
    if (g_strcmp0 (json_array_get_string_element (names, i), index->branch) == 0)
      return TRUE;
  return FALSE;
}

static JsonObject *
branches (LodeToolCall  *call,
          GError       **error)
{
  JsonObject *arguments = lode_tool_call_get_arguments (call);
  JsonNode *prune = json_object_get_member (arguments, "prune");
  g_autofree char *path = lode_tool_call_dup_project_path (call, error);
  g_autoptr(LodeProject) project = NULL;
  g_autoptr(GPtrArray) indexes = NULL;
  g_autofree char *current = NULL;
  JsonArray *listed;
  JsonObject *result;

  if (path == NULL)
    return NULL;
  project = lode_engine_open_project (lode_tool_call_get_engine (call), path, FALSE, error);
  if (project == NULL)
    return NULL;
  indexes = lode_project_list_branches (project, error);
  if (indexes == NULL)
    return NULL;

  /* A name to prune that has no index, or is checked out, is an error: nothing is pruned. */
  if (prune != NULL && JSON_NODE_HOLDS_ARRAY (prune))
    {
      JsonArray *names = json_node_get_array (prune);

      for (guint i = 0; i < json_array_get_length (names); i++)
        {
          const char *name = json_array_get_string_element (names, i);
          gboolean found = FALSE;

          for (guint j = 0; j < indexes->len && !found; j++)
            {
              const LodeBranchIndex *index = g_ptr_array_index (indexes, j);

              found = g_str_equal (index->branch, name);
              if (found && index->current)
                {
                  g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                               "Branch %s is checked out: its index is in use and is kept",
                               name);
                  return NULL;
                }
            }
          if (!found)
            {
              g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_FOUND,
                           "Branch %s of %s has no index", name, lode_project_get_root (project));
              return NULL;
            }
        }
    }

  result = json_object_new ();
  json_object_set_string_member (result, "projectPath", lode_project_get_root (project));
  current = lode_project_dup_branch (project);
  if (current != NULL)
    json_object_set_string_member (result, "current", current);
  else
    json_object_set_null_member (result, "current");
  json_object_set_boolean_member (result, "branchAware",
                                  lode_engine_get_config (lode_tool_call_get_engine (call))
                                    ->branch_aware);
  listed = json_array_new ();
  for (guint i = 0; i < indexes->len; i++)
    {
      const LodeBranchIndex *index = g_ptr_array_index (indexes, i);
      JsonObject *entry = json_object_new ();
      gboolean pruned = is_pruned (prune, index);

      if (pruned &&
          !lode_project_remove_branch (project, index->branch,
                                       lode_tool_call_get_cancellable (call), error))
        {
          json_object_unref (entry);
          json_array_unref (listed);
          json_object_unref (result);
          return NULL;
        }
      json_object_set_string_member (entry, "branch", index->branch);
      json_object_set_boolean_member (entry, "current", index->current);
      json_object_set_boolean_member (entry, "exists", index->exists);
      json_object_set_int_member (entry, "bytes", index->db_size);
      if (index->indexed_at != NULL)
        json_object_set_string_member (entry, "indexedAt", index->indexed_at);
      json_object_set_boolean_member (entry, "pruned", pruned);
      json_array_add_object_element (listed, entry);
    }
  json_object_set_array_member (result, "branches", listed);

  return result;
}

static char *
format_branches (JsonObject *result)
{
  JsonArray *listed = json_object_get_array_member (result, "branches");
  const char *current = json_object_get_string_member_with_default (result, "current", NULL);
  guint n_stale = 0;
  GString *text = g_string_new (NULL);

  g_string_append_printf (text, "## Branch indexes of %s\n\n",
                          json_object_get_string_member (result, "projectPath"));
  if (!json_object_get_boolean_member (result, "branchAware"))
    g_string_append (text, "Branch-aware indexes are off (the branch-aware setting, or "
                           "LODE_BRANCH_AWARE=1).\n\n");
  else if (current != NULL)
    g_string_append_printf (text, "Checked out: %s\n\n", current);

  if (json_array_get_length (listed) == 0)
    g_string_append (text, "No branch has an index of its own.\n");
  for (guint i = 0; i < json_array_get_length (listed); i++)
    {
      JsonObject *entry = json_array_get_object_element (listed, i);
      g_autofree char *size = g_format_size (json_object_get_int_member (entry, "bytes"));
      const char *indexed_at = json_object_get_string_member_with_default (entry, "indexedAt",
                                                                           NULL);

      g_string_append_printf (text, "- %s: %s, last indexed %s%s%s\n",
                              json_object_get_string_member (entry, "branch"), size,
                              indexed_at != NULL ? indexed_at : "never (incomplete)",
                              json_object_get_boolean_member (entry, "current")
                              ? " (checked out)"
                              : json_object_get_boolean_member (entry, "exists")
                              ? "" : " (branch gone)",
                              json_object_get_boolean_member (entry, "pruned")
                              ? ": pruned" : "");
      if (!json_object_get_boolean_member (entry, "exists") &&
          !json_object_get_boolean_member (entry, "pruned"))
        n_stale++;
    }
  if (n_stale > 0)
    g_string_append_printf (text, "\n%u of them belong to branches that are gone: prune them "
                            "with codebase_branches {\"prune\": true} (lode branches "
                            "--prune).\n", n_stale);

  return g_string_free (text, FALSE);
}

static const LodeTool branches_tool = {
  .name = "codebase_branches",
  .title = "Branch indexes",
  .description =
    "The project's per-branch indexes (with branch-aware indexes on): size, last indexed, whether "
    "the branch still exists. prune: true deletes those of gone branches, a list of names deletes "
    "those; the checked-out branch's index is kept.",
  .input_schema =
    "{\"type\": \"object\", \"properties\": {" PROJECT_PATH_PROPERTY ", "
    "\"prune\": {\"type\": [\"boolean\", \"array\"], \"items\": {\"type\": \"string\", "
    "\"minLength\": 1}, \"description\": \"true: delete the indexes of branches that no "
    "longer exist; a list: delete the indexes of these branches\"}}, "
    "\"additionalProperties\": false}",
  .output_schema =
    "{\"type\": \"object\", \"properties\": {"
    "\"projectPath\": {\"type\": \"string\"}, "
    "\"current\": {\"type\": [\"string\", \"null\"]}, "
    "\"branchAware\": {\"type\": \"boolean\"}, "
    "\"branches\": {\"type\": \"array\", \"items\": {\"type\": \"object\", \"properties\": {"
    "\"branch\": {\"type\": \"string\"}, \"current\": {\"type\": \"boolean\"}, "
    "\"exists\": {\"type\": \"boolean\"}, \"bytes\": " COUNT ", "
    "\"indexedAt\": {\"type\": \"string\"}, \"pruned\": {\"type\": \"boolean\"}}, "
    "\"required\": [\"branch\", \"current\", \"exists\", \"bytes\", \"pruned\"]}}}, "
    "\"required\": [\"projectPath\", \"current\", \"branchAware\", \"branches\"]}",
  .flags = LODE_TOOL_DESTRUCTIVE,
  .func = branches,
  .format = format_branches,
};

void
lode_store_tools_register (LodeToolRegistry *registry)
{
  lode_tool_registry_add (registry, &migrate_tool);
  lode_tool_registry_add (registry, &branches_tool);
}
