/* lode-graph-tools.c — the import graph's tools
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-tools"

#include "config.h"

#include <errno.h>

#include "lode-app-action.h"
#include "lode-error.h"
#include "lode-graph-diagram.h"
#include "lode-graph-report.h"
#include "lode-tools-private.h"

/*
 * codebase_graph_* and codebase_impact, named and shaped like SocratiCode's tools so that
 * agent prompts written for it keep working. The answers and their markdown are
 * lode-graph-report.c's, shared with `lode graph` and `lode impact`; this file maps
 * arguments and keeps the graph's switches away from a running indexing job. Handlers run on
 * worker threads.
 */

/* Starting the desktop app takes a few seconds on a slow machine. */
#define OPEN_TIMEOUT_MSEC 30000

#define NULLABLE_STRING "{\"type\": [\"string\", \"null\"]}"
#define STRING_ARRAY "{\"type\": \"array\", \"items\": {\"type\": \"string\"}}"
#define COUNT "{\"type\": \"integer\", \"minimum\": 0}"

#define FILE_PATH_PROPERTY(what) \
  "\"filePath\": {\"type\": \"string\", \"minLength\": 1, \"description\": \"" what \
  ", relative to the project root (or absolute inside it)\"}"

#define DEPTH_PROPERTY(default) \
  "\"depth\": {\"type\": \"integer\", \"minimum\": 1, \"maximum\": 5, \"default\": " default \
  ", \"description\": \"Hops to follow\"}"

#define LIMIT_PROPERTY(default, what) \
  "\"limit\": {\"type\": \"integer\", \"minimum\": 1, \"maximum\": 500, \"default\": " default \
  ", \"description\": \"" what "\"}"

/* The import counts every graph answer shares (lode-graph-report.c, add_counts). */
#define COUNTS_PROPERTIES \
  "\"imports\": " COUNT ", \"internal\": " COUNT ", \"external\": " COUNT ", " \
  "\"unresolved\": " COUNT

#define COUNTS_REQUIRED "\"imports\", \"internal\", \"external\", \"unresolved\""

static guint
uint_argument (LodeToolCall *call,
               const char   *name,
               guint         fallback)
{
  JsonObject *arguments = lode_tool_call_get_arguments (call);

  /* The input schema bounded it already. */
  return (guint) json_object_get_int_member_with_default (arguments, name, fallback);
}

static const char *
string_argument (LodeToolCall *call,
                 const char   *name)
{
  return json_object_get_string_member_with_default (lode_tool_call_get_arguments (call), name,
                                                     NULL);
}

static LodeProject *
open_indexed (LodeToolCall  *call,
              GError       **error)
{
  g_autofree char *path = lode_tool_call_dup_project_path (call, error);

  return path != NULL ? lode_tool_call_open_indexed (call, path, error) : NULL;
}

/* Refuses while @project is being indexed: the graph's switch rewrites what the job writes. */
static gboolean
check_no_job (LodeToolCall  *call,
              LodeProject   *project,
              GError       **error)
{
  g_autoptr(LodeJobInfo) job = lode_engine_dup_job (lode_tool_call_get_engine (call),
                                                    lode_project_get_id (project));

  if (job != NULL && job->state == LODE_JOB_STATE_RUNNING)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_FAILED,
                   "%s is being indexed; wait for the job (codebase_status) or stop it "
                   "(codebase_stop), then call this again", lode_project_get_root (project));
      return FALSE;
    }

  return TRUE;
}

/* codebase_graph_build ----------------------------------------------------------------- */

static JsonObject *
graph_build (LodeToolCall  *call,
             GError       **error)
{
  LodeEngine *engine = lode_tool_call_get_engine (call);
  g_autofree char *path = NULL;
  g_autoptr(LodeProject) project = NULL;
  g_autoptr(LodeJobInfo) job = NULL;
  const char *id;

  path = lode_tool_call_dup_project_path (call, error);
  if (path == NULL)
    return NULL;
  project = lode_engine_open_project (engine, path, FALSE, error);
  if (project == NULL ||
      (!lode_project_is_indexed (project) &&
       !lode_engine_check_index_root (lode_project_get_root (project), FALSE,
                                      "index it first: codebase_index with confirm: true",
                                      error)))
    return NULL;
  id = lode_project_get_id (project);

  /* A run in progress ends first; the graph is switched on between runs only. */
  job = lode_engine_dup_job (engine, id);
  if (job != NULL && job->state == LODE_JOB_STATE_RUNNING)
    {
      g_clear_pointer (&job, lode_job_info_free);
      job = lode_tool_call_wait_for_job (call, lode_project_get_root (project), id, error);
      if (job == NULL)
        return NULL;
    }
  g_clear_pointer (&job, lode_job_info_free);

  if (lode_project_is_indexed (project) && !lode_project_set_graph_enabled (project, TRUE, error))
    return NULL;

  job = lode_engine_start_index (engine, path, LODE_INDEX_REQUEST_UPDATE, FALSE, NULL, error);
  if (job == NULL)
    return NULL;
  g_clear_pointer (&job, lode_job_info_free);
  job = lode_tool_call_wait_for_job (call, lode_project_get_root (project), id, error);
  if (job == NULL)
    return NULL;

  return lode_graph_report_indexed (project, job->report, error);
}

static const LodeTool graph_build_tool = {
  .name = "codebase_graph_build",
  .title = "Build the import graph",
  .description =
    "Bring the import graph up to date by indexing changed files, and wait; after "
    "codebase_graph_remove.",
  .input_schema = PROJECT_ONLY_INPUT,
  .output_schema =
    "{\"type\": \"object\", \"properties\": {"
    "\"projectPath\": {\"type\": \"string\"}, \"files\": " COUNT ", \"parsed\": " COUNT ", "
    COUNTS_PROPERTIES ", \"seconds\": {\"type\": \"number\", \"minimum\": 0}}, "
    "\"required\": [\"projectPath\", \"files\", \"parsed\", " COUNTS_REQUIRED ", \"seconds\"]}",
  .flags = LODE_TOOL_IDEMPOTENT,
  .func = graph_build,
  .format = lode_graph_format_build,
};

/* codebase_graph_query ----------------------------------------------------------------- */

static JsonObject *
graph_query (LodeToolCall  *call,
             GError       **error)
{
  g_autoptr(LodeProject) project = open_indexed (call, error);
  const char *direction = string_argument (call, "direction");

  if (project == NULL)
    return NULL;

  return lode_graph_report_query (project, string_argument (call, "filePath"),
                                  g_strcmp0 (direction, "outbound") == 0 ? LODE_GRAPH_OUTBOUND
                                                                         : LODE_GRAPH_INBOUND,
                                  uint_argument (call, "depth", 1), error);
}

static const LodeTool graph_query_tool = {
  .name = "codebase_graph_query",
  .title = "Imports and dependents of a file",
  .description =
    "A file's imports, its importers, and the files within depth hops, inbound (what a change "
    "can break) or outbound.",
  .input_schema =
    "{\"type\": \"object\", \"properties\": {" PROJECT_PATH_PROPERTY ", "
    FILE_PATH_PROPERTY ("The file") ", " DEPTH_PROPERTY ("1") ", "
    "\"direction\": {\"type\": \"string\", \"enum\": [\"inbound\", \"outbound\"], "
    "\"default\": \"inbound\", \"description\": \"inbound: what imports it; outbound: what "
    "it imports\"}}, "
    "\"required\": [\"filePath\"], \"additionalProperties\": false}",
  .output_schema =
    "{\"type\": \"object\", \"properties\": {"
    "\"projectPath\": {\"type\": \"string\"}, \"file\": {\"type\": \"string\"}, "
    "\"language\": " NULLABLE_STRING ", "
    "\"imports\": {\"type\": \"array\", \"items\": {\"type\": \"object\", \"properties\": {"
    "\"specifier\": {\"type\": \"string\"}, \"line\": " COUNT ", \"kind\": " NULLABLE_STRING
    ", \"targets\": " STRING_ARRAY ", \"package\": " NULLABLE_STRING "}, "
    "\"required\": [\"specifier\", \"line\", \"kind\", \"targets\", \"package\"]}}, "
    "\"dependents\": " STRING_ARRAY ", "
    "\"direction\": {\"type\": \"string\", \"enum\": [\"inbound\", \"outbound\"]}, "
    "\"depth\": " COUNT ", "
    "\"reach\": {\"type\": \"array\", \"items\": {\"type\": \"object\", \"properties\": {"
    "\"path\": {\"type\": \"string\"}, \"distance\": " COUNT "}, "
    "\"required\": [\"path\", \"distance\"]}}}, "
    "\"required\": [\"projectPath\", \"file\", \"language\", \"imports\", \"dependents\", "
    "\"direction\", \"depth\", \"reach\"]}",
  .flags = LODE_TOOL_READ_ONLY | LODE_TOOL_IDEMPOTENT,
  .func = graph_query,
  .format = lode_graph_format_query,
};

/* codebase_graph_stats ----------------------------------------------------------------- */

static JsonObject *
graph_stats (LodeToolCall  *call,
             GError       **error)
{
  g_autoptr(LodeProject) project = open_indexed (call, error);

  if (project == NULL)
    return NULL;

  return lode_graph_report_stats (project, uint_argument (call, "limit", 20), error);
}

static const LodeTool graph_stats_tool = {
  .name = "codebase_graph_stats",
  .title = "Import graph statistics",
  .description =
    "The import graph's size, how imports resolve, the most connected files, orphans and "
    "external packages by use.",
  .input_schema =
    "{\"type\": \"object\", \"properties\": {" PROJECT_PATH_PROPERTY ", "
    LIMIT_PROPERTY ("20", "Most connected files, orphans and packages to list") "}, "
    "\"additionalProperties\": false}",
  .output_schema =
    "{\"type\": \"object\", \"properties\": {"
    "\"projectPath\": {\"type\": \"string\"}, \"files\": " COUNT ", \"edges\": " COUNT ", "
    "\"externalEdges\": " COUNT ", " COUNTS_PROPERTIES ", "
    "\"mostConnected\": {\"type\": \"array\", \"items\": {\"type\": \"object\", "
    "\"properties\": {\"path\": {\"type\": \"string\"}, \"dependents\": " COUNT ", "
    "\"imports\": " COUNT "}, \"required\": [\"path\", \"dependents\", \"imports\"]}}, "
    "\"orphanCount\": " COUNT ", \"orphans\": " STRING_ARRAY ", "
    "\"packageCount\": " COUNT ", "
    "\"packages\": {\"type\": \"array\", \"items\": {\"type\": \"object\", \"properties\": {"
    "\"name\": {\"type\": \"string\"}, \"files\": " COUNT "}, "
    "\"required\": [\"name\", \"files\"]}}}, "
    "\"required\": [\"projectPath\", \"files\", \"edges\", \"externalEdges\", " COUNTS_REQUIRED
    ", \"mostConnected\", \"orphanCount\", \"orphans\", \"packageCount\", \"packages\"]}",
  .flags = LODE_TOOL_READ_ONLY | LODE_TOOL_IDEMPOTENT,
  .func = graph_stats,
  .format = lode_graph_format_stats,
};

/* codebase_graph_circular -------------------------------------------------------------- */

static JsonObject *
graph_circular (LodeToolCall  *call,
                GError       **error)
{
  g_autoptr(LodeProject) project = open_indexed (call, error);

  if (project == NULL)
    return NULL;

  return lode_graph_report_circular (project,
                                     json_object_get_string_member_with_default (lode_tool_call_get_arguments (call),
                                                                                 "scope", NULL),
                                     uint_argument (call, "limit", 20), error);
}

static const LodeTool graph_circular_tool = {
  .name = "codebase_graph_circular",
  .title = "Import cycles",
  .description =
    "Import cycles, largest first: for each group of files importing each other, a shortest "
    "cycle and its files.",
  .input_schema =
    "{\"type\": \"object\", \"properties\": {" PROJECT_PATH_PROPERTY ", "
    LIMIT_PROPERTY ("20", "Cycles to list") ", \"scope\": {\"type\": \"string\", "
    "\"description\": \"Only cycles with a file under this path prefix (src/net/)\"}}, "
    "\"additionalProperties\": false}",
  .output_schema =
    "{\"type\": \"object\", \"properties\": {"
    "\"projectPath\": {\"type\": \"string\"}, \"count\": " COUNT ", \"filesInCycles\": " COUNT
    ", \"cycles\": {\"type\": \"array\", \"items\": {\"type\": \"object\", \"properties\": {"
    "\"cycle\": " STRING_ARRAY ", \"members\": " STRING_ARRAY "}, "
    "\"required\": [\"cycle\", \"members\"]}}}, "
    "\"required\": [\"projectPath\", \"count\", \"filesInCycles\", \"cycles\"]}",
  .flags = LODE_TOOL_READ_ONLY | LODE_TOOL_IDEMPOTENT,
  .func = graph_circular,
  .format = lode_graph_format_circular,
};

/* codebase_graph_visualize ------------------------------------------------------------- */

/* The desktop app's @action with @parameter ("show-graph" on a project and file,
 * "show-symbol" on a definition), through D-Bus activation (the app is DBusActivatable):
 * FALSE when there is no session bus, no app, or no display for it to start on. */
static gboolean
open_explorer (const char    *action,
               GVariant      *parameter,
               GCancellable  *cancellable,
               GError       **error)
{
  g_autoptr(GDBusConnection) bus = NULL;
  g_autoptr(GDBusMessage) message = lode_app_action_message_new (action, parameter);
  g_autoptr(GDBusMessage) reply = NULL;

  bus = g_bus_get_sync (G_BUS_TYPE_SESSION, cancellable, error);
  if (bus == NULL)
    return FALSE;

  reply = g_dbus_connection_send_message_with_reply_sync (bus, message,
                                                          G_DBUS_SEND_MESSAGE_FLAGS_NONE,
                                                          OPEN_TIMEOUT_MSEC, NULL, cancellable,
                                                          error);
  if (reply == NULL || g_dbus_message_to_gerror (reply, error))
    {
      g_dbus_error_strip_remote_error (*error);
      return FALSE;
    }

  return TRUE;
}

/* Where the picture goes when the app cannot show it: the user's cache, one file per
 * project and file drawn. */
static char *
write_svg (const char  *root,
           const char  *file,
           const char  *svg,
           GError     **error)
{
  g_autofree char *dir = g_build_filename (g_get_user_cache_dir (), "lode", "graphs", NULL);
  g_autofree char *key = g_strconcat (root, "\n", file != NULL ? file : "", NULL);
  g_autofree char *hash = g_compute_checksum_for_string (G_CHECKSUM_SHA1, key, -1);
  g_autofree char *base = g_path_get_basename (file != NULL ? file : root);
  g_autofree char *name = NULL;
  g_autofree char *path = NULL;

  hash[12] = '\0';
  g_strdelimit (base, "/\\:", '_');
  name = g_strdup_printf ("%s-%s.svg", base, hash);
  path = g_build_filename (dir, name, NULL);
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "Cannot create %s: %s",
                   dir, g_strerror (saved));
      return NULL;
    }
  if (!g_file_set_contents (path, svg, -1, error))
    return NULL;

  return g_steal_pointer (&path);
}

/* The answer with the explorer opened on it (@action, @parameter), or with the SVG written
 * under the name @what where the explorer cannot be shown. */
static JsonObject *
open_or_write (LodeToolCall  *call,
               LodeProject   *project,
               JsonObject    *report,
               const char    *action,
               GVariant      *parameter,
               const char    *what,
               const char    *svg,
               GError       **error)
{
  g_autoptr(GError) open_error = NULL;
  g_autofree char *svg_path = NULL;

  if (open_explorer (action, parameter, lode_tool_call_get_cancellable (call), &open_error))
    {
      json_object_set_boolean_member (report, "opened", TRUE);
      return report;
    }

  g_debug ("No graph explorer: %s", open_error->message);
  svg_path = write_svg (lode_project_get_root (project), what, svg, error);
  if (svg_path == NULL)
    {
      json_object_unref (report);
      return NULL;
    }
  json_object_set_boolean_member (report, "opened", FALSE);
  json_object_set_string_member (report, "svgPath", svg_path);
  json_object_set_string_member (report, "reason", open_error->message);
  return report;
}

/* A definition with its callers and callees; interactive: the app's Symbol page. */
static JsonObject *
symbol_visualize (LodeToolCall  *call,
                  LodeProject   *project,
                  gboolean       interactive,
                  GError       **error)
{
  const char *file = string_argument (call, "filePath");
  g_autofree char *relative = NULL;
  g_autoptr(JsonObject) found = NULL;
  g_autofree char *svg = NULL;
  g_autofree char *what = NULL;
  /* maxNodes: half callers, half callees at most. */
  LodeCallQuery query = { .name = string_argument (call, "symbol"),
                          .limit = MAX (uint_argument (call, "maxNodes",
                                                       LODE_GRAPH_DIAGRAM_MAX_BOXES) / 2, 1) };
  JsonObject *report;

  if (file != NULL)
    {
      relative = lode_project_dup_relative_path (project, file);
      if (relative == NULL)
        {
          g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT, "%s is outside %s", file,
                       lode_project_get_root (project));
          return NULL;
        }
      query.file = relative;
    }
  found = lode_call_tools_run (call, lode_call_report_symbol, &query, error);
  if (found == NULL)
    return NULL;
  if (json_object_get_object_member (found, "symbol") == NULL)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_FOUND, "%s: %s", query.name,
                   json_object_get_string_member (found, "hint"));
      return NULL;
    }

  report = lode_graph_report_visualize_symbol (project, found, interactive ? &svg : NULL, error);
  if (report == NULL || !interactive)
    return report;

  what = g_strdup_printf ("%s-%s", json_object_get_string_member (report, "file"),
                          json_object_get_string_member (report, "symbol"));
  return open_or_write (call, project, report, "show-symbol",
                        g_variant_new ("(sss)", lode_project_get_root (project),
                                       json_object_get_string_member (report, "symbol"),
                                       json_object_get_string_member (report, "file")),
                        what, svg, error);
}

static JsonObject *
graph_visualize (LodeToolCall  *call,
                 GError       **error)
{
  g_autoptr(LodeProject) project = open_indexed (call, error);
  gboolean interactive = g_strcmp0 (string_argument (call, "mode"), "interactive") == 0;
  g_autofree char *svg = NULL;
  JsonObject *report;
  const char *file;

  if (project == NULL)
    return NULL;
  if (string_argument (call, "symbol") != NULL)
    return symbol_visualize (call, project, interactive, error);

  report = lode_graph_report_visualize (project, string_argument (call, "filePath"),
                                        uint_argument (call, "depth", 1),
                                        uint_argument (call, "maxNodes",
                                                       LODE_GRAPH_DIAGRAM_MAX_BOXES),
                                        interactive ? &svg : NULL, error);
  if (report == NULL || !interactive)
    return report;

  file = json_object_get_string_member_with_default (report, "file", NULL);
  return open_or_write (call, project, report, "show-graph",
                        g_variant_new ("(ss)", lode_project_get_root (project),
                                       file != NULL ? file : ""),
                        file, svg, error);
}

static const LodeTool graph_visualize_tool = {
  .name = "codebase_graph_visualize",
  .title = "Draw the import graph",
  .description =
    "A Mermaid flowchart of a file's neighbourhood or the whole project, cycles marked; or, "
    "with symbol, of a definition's callers and callees. mode interactive opens Lode's "
    "explorer.",
  .input_schema =
    "{\"type\": \"object\", \"properties\": {" PROJECT_PATH_PROPERTY ", "
    FILE_PATH_PROPERTY ("This file's neighbourhood (omit for the whole project), or symbol's "
                        "file") ", "
    "\"symbol\": {\"type\": \"string\", \"minLength\": 1, \"description\": \"A definition, "
    "plain or qualified: its callers and callees\"}, "
    DEPTH_PROPERTY ("1") ", "
    "\"maxNodes\": {\"type\": \"integer\", \"minimum\": 1, \"maximum\": 500, "
    "\"default\": 60, \"description\": \"Boxes at most\"}, "
    "\"mode\": {\"type\": \"string\", \"enum\": [\"mermaid\", \"interactive\"], "
    "\"default\": \"mermaid\", \"description\": \"interactive: the desktop "
    "explorer\"}}, "
    "\"additionalProperties\": false}",
  .output_schema =
    "{\"type\": \"object\", \"properties\": {"
    "\"projectPath\": {\"type\": \"string\"}, \"file\": " NULLABLE_STRING ", "
    "\"mermaid\": {\"type\": \"string\"}, "
    "\"nodes\": {\"type\": \"array\", \"items\": {\"type\": \"object\", \"properties\": {"
    "\"id\": " COUNT ", \"kind\": {\"type\": \"string\", \"enum\": [\"file\", \"folder\", "
    "\"more\", \"definition\"]}, \"path\": " NULLABLE_STRING ", \"label\": {\"type\": \"string\"}, "
    "\"language\": {\"type\": \"string\"}, \"files\": " COUNT ", "
    "\"distance\": {\"type\": [\"integer\", \"null\"]}, \"focus\": {\"type\": \"boolean\"}, "
    "\"inCycle\": {\"type\": \"boolean\"}}, "
    "\"required\": [\"id\", \"kind\", \"path\", \"label\", \"language\", \"files\", "
    "\"distance\", \"focus\", \"inCycle\"]}}, "
    "\"edges\": {\"type\": \"array\", \"items\": {\"type\": \"object\", \"properties\": {"
    "\"from\": " COUNT ", \"to\": " COUNT ", \"count\": " COUNT ", "
    "\"inCycle\": {\"type\": \"boolean\"}}, "
    "\"required\": [\"from\", \"to\", \"count\", \"inCycle\"]}}, "
    "\"hidden\": " COUNT ", \"symbol\": {\"type\": \"string\"}, \"line\": " COUNT ", "
    "\"opened\": {\"type\": \"boolean\"}, "
    "\"svgPath\": {\"type\": \"string\"}, \"reason\": {\"type\": \"string\"}}, "
    "\"required\": [\"projectPath\", \"file\", \"mermaid\", \"nodes\", \"edges\", "
    "\"hidden\"]}",
  .flags = LODE_TOOL_READ_ONLY | LODE_TOOL_IDEMPOTENT,
  .func = graph_visualize,
  .format = lode_graph_format_visualize,
};

/* codebase_graph_status ---------------------------------------------------------------- */

static JsonObject *
graph_status (LodeToolCall  *call,
              GError       **error)
{
  g_autofree char *path = lode_tool_call_dup_project_path (call, error);
  g_autoptr(LodeProject) project = NULL;

  if (path == NULL)
    return NULL;
  project = lode_engine_open_project (lode_tool_call_get_engine (call), path, FALSE, error);
  if (project == NULL)
    return NULL;

  return lode_graph_report_status (project, error);
}

static const LodeTool graph_status_tool = {
  .name = "codebase_graph_status",
  .title = "Import graph status",
  .description =
    "Whether the project is indexed and its import graph maintained, and how imports resolve.",
  .input_schema = PROJECT_ONLY_INPUT,
  .output_schema =
    "{\"type\": \"object\", \"properties\": {"
    "\"projectPath\": {\"type\": \"string\"}, \"indexed\": {\"type\": \"boolean\"}, "
    "\"enabled\": {\"type\": \"boolean\"}, \"state\": {\"type\": \"string\"}, "
    "\"indexedAt\": " NULLABLE_STRING ", \"files\": " COUNT ", " COUNTS_PROPERTIES "}, "
    "\"required\": [\"projectPath\", \"indexed\", \"enabled\", \"state\", \"indexedAt\", "
    "\"files\", " COUNTS_REQUIRED "]}",
  .flags = LODE_TOOL_READ_ONLY | LODE_TOOL_IDEMPOTENT,
  .func = graph_status,
  .format = lode_graph_format_status,
};

/* codebase_graph_remove ---------------------------------------------------------------- */

static JsonObject *
graph_remove (LodeToolCall  *call,
              GError       **error)
{
  g_autoptr(LodeProject) project = open_indexed (call, error);

  if (project == NULL || !check_no_job (call, project, error))
    return NULL;

  return lode_graph_report_remove (project, error);
}

static const LodeTool graph_remove_tool = {
  .name = "codebase_graph_remove",
  .title = "Remove the import graph",
  .description =
    "Delete the import graph and stop maintaining it; the search index stays. codebase_graph_build "
    "brings it back.",
  .input_schema = PROJECT_ONLY_INPUT,
  .output_schema =
    "{\"type\": \"object\", \"properties\": {"
    "\"projectPath\": {\"type\": \"string\"}, \"removed\": {\"type\": \"boolean\"}}, "
    "\"required\": [\"projectPath\", \"removed\"]}",
  .flags = LODE_TOOL_DESTRUCTIVE | LODE_TOOL_IDEMPOTENT,
  .func = graph_remove,
  .format = lode_graph_format_remove,
};

/* codebase_impact ---------------------------------------------------------------------- */

/* A symbol's impact: the callers of the call graph, in the answer's file-mode members too
 * (no changed files, none affected by imports), so that one output schema holds both. */
static JsonObject *
symbol_impact (LodeToolCall  *call,
               GError       **error)
{
  LodeCallQuery query = { .name = string_argument (call, "symbol"),
                          .file = string_argument (call, "file"),
                          .depth = uint_argument (call, "depth", 0) };
  JsonObject *report = lode_call_tools_run (call, lode_call_report_impact, &query, error);

  if (report == NULL)
    return NULL;
  json_object_set_string_member (report, "projectPath",
                                 json_object_get_string_member (report, "project"));
  json_object_remove_member (report, "project");
  json_object_set_null_member (report, "range");
  json_object_set_array_member (report, "changed", json_array_new ());
  json_object_set_array_member (report, "affected", json_array_new ());
  json_object_set_int_member (report, "affectedCount", 0);
  return report;
}

static JsonObject *
impact (LodeToolCall  *call,
        GError       **error)
{
  g_autoptr(LodeProject) project = NULL;

  if (string_argument (call, "symbol") != NULL)
    return symbol_impact (call, error);
  project = open_indexed (call, error);
  if (project == NULL)
    return NULL;

  return lode_graph_report_impact (project, string_argument (call, "range"),
                                   MIN (uint_argument (call, "depth", 3), 5),
                                   uint_argument (call, "limit", 50),
                                   lode_tool_call_get_cancellable (call), error);
}

static char *
format_impact (JsonObject *report)
{
  if (json_object_has_member (report, "symbol"))
    return lode_call_format_impact (report);
  return lode_graph_format_impact (report);
}

static const LodeTool impact_tool = {
  .name = "codebase_impact",
  .title = "Impact of a change",
  .description =
    "What a change may affect: files, for the uncommitted work or a git range; or, with symbol, "
    "its callers to depth, tests apart.",
  .input_schema =
    "{\"type\": \"object\", \"properties\": {" PROJECT_PATH_PROPERTY ", "
    "\"range\": {\"type\": \"string\", \"minLength\": 1, \"description\": \"A git range; "
    "else the uncommitted changes\"}, "
    "\"symbol\": {\"type\": \"string\", \"minLength\": 1, \"description\": \"A definition, "
    "plain or qualified\"}, \"file\": {\"type\": \"string\", \"minLength\": 1, "
    "\"description\": \"symbol's file\"}, "
    "\"depth\": {\"type\": \"integer\", \"minimum\": 1, \"maximum\": 10, \"default\": 3, "
    "\"description\": \"Hops to follow (files: at most 5)\"}, "
    LIMIT_PROPERTY ("50", "Affected files to list") "}, "
    "\"additionalProperties\": false}",
  .output_schema =
    "{\"type\": \"object\", \"properties\": {"
    "\"projectPath\": {\"type\": \"string\"}, \"range\": " NULLABLE_STRING ", "
    "\"depth\": " COUNT ", "
    "\"changed\": {\"type\": \"array\", \"items\": {\"type\": \"object\", \"properties\": {"
    "\"path\": {\"type\": \"string\"}, \"status\": {\"type\": \"string\"}, "
    "\"oldPath\": " NULLABLE_STRING "}, \"required\": [\"path\", \"status\", \"oldPath\"]}}, "
    "\"affected\": {\"type\": \"array\", \"items\": {\"type\": \"object\", \"properties\": {"
    "\"path\": {\"type\": \"string\"}, \"distance\": " COUNT ", \"links\": " COUNT ", "
    "\"dependents\": " COUNT "}, "
    "\"required\": [\"path\", \"distance\", \"links\", \"dependents\"]}}, "
    "\"affectedCount\": " COUNT ", \"symbol\": {\"type\": [\"object\", \"null\"]}, "
    "\"callerCount\": " COUNT ", \"files\": {\"type\": \"array\"}, "
    "\"tests\": {\"type\": \"array\"}}, "
    "\"required\": [\"projectPath\", \"range\", \"depth\", \"changed\", \"affected\", "
    "\"affectedCount\"]}",
  .flags = LODE_TOOL_READ_ONLY | LODE_TOOL_IDEMPOTENT,
  .func = impact,
  .format = format_impact,
};

/**
 * lode_graph_tools_register:
 * @registry: a #LodeToolRegistry
 *
 * Adds the import graph's tools: codebase_graph_build, _query, _stats, _circular,
 * _visualize, _status, _remove and codebase_impact.
 */
void
lode_graph_tools_register (LodeToolRegistry *registry)
{
  static const LodeTool *tools[] = {
    &graph_build_tool,
    &graph_query_tool,
    &graph_stats_tool,
    &graph_circular_tool,
    &graph_visualize_tool,
    &graph_status_tool,
    &graph_remove_tool,
    &impact_tool,
  };

  g_return_if_fail (LODE_IS_TOOL_REGISTRY (registry));

  for (guint i = 0; i < G_N_ELEMENTS (tools); i++)
    lode_tool_registry_add (registry, tools[i]);
}
