/* lode-graph-report.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The graph's answers as JSON objects and as markdown, once for every surface: the tool
 * registry (MCP, D-Bus) returns the objects and the markdown, the CLI prints one or the
 * other. The JSON members are the tools' output schemas (lode-graph-tools.c). */

#define G_LOG_DOMAIN "lode-graph"

#include "config.h"

#include <string.h>

#include "lode-error.h"
#include "lode-graph-diagram.h"
#include "lode-graph-report.h"
#include "lode-i18n.h"
#include "lode-impact.h"
#include "lode-json.h"
#include "lode-markdown.h"

static void
begin_report (JsonBuilder *builder,
              LodeProject *project)
{
  json_builder_begin_object (builder);
  lode_json_builder_add_string (builder, "projectPath", lode_project_get_root (project));
}

/* The id of @file in @graph, from a path as the user gave it. */
static gboolean
lookup_file (LodeProject  *project,
             LodeGraph    *graph,
             const char   *file,
             guint        *id,
             GError      **error)
{
  g_autofree char *relative = lode_project_dup_relative_path (project, file);

  if (relative == NULL)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT, "%s is outside %s", file,
                   lode_project_get_root (project));
      return FALSE;
    }
  if (!lode_graph_lookup (graph, relative, id))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_FOUND,
                   "%s is not an indexed file of %s; give its path relative to the project",
                   file, lode_project_get_root (project));
      return FALSE;
    }

  return TRUE;
}

static const char *
direction_to_string (LodeGraphDirection direction)
{
  switch (direction)
    {
    case LODE_GRAPH_INBOUND:
      return "inbound";
    case LODE_GRAPH_OUTBOUND:
      return "outbound";
    default:
      g_return_val_if_reached ("inbound");
    }
}

static void
add_counts (JsonBuilder           *builder,
            const LodeGraphCounts *counts)
{
  lode_json_builder_add_int (builder, "imports", counts->n_imports);
  lode_json_builder_add_int (builder, "internal", counts->n_internal);
  lode_json_builder_add_int (builder, "external", counts->n_external);
  lode_json_builder_add_int (builder, "unresolved",
                             counts->n_imports - counts->n_internal - counts->n_external);
}

/**
 * lode_graph_report_indexed:
 * @project: an indexed project
 * @report: the report of the indexing run that just brought the graph up to date
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): `{projectPath, files, parsed, imports, internal, external,
 *   unresolved, seconds}`
 */
JsonObject *
lode_graph_report_indexed (LodeProject            *project,
                           const LodeIndexReport  *report,
                           GError                **error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  LodeGraphCounts counts = { 0 };

  g_return_val_if_fail (LODE_IS_PROJECT (project), NULL);
  g_return_val_if_fail (report != NULL, NULL);

  if (!lode_project_get_graph_counts (project, &counts, NULL, error))
    return NULL;

  begin_report (builder, project);
  lode_json_builder_add_int (builder, "files", report->n_files);
  lode_json_builder_add_int (builder, "parsed", report->n_parsed);
  add_counts (builder, &counts);
  json_builder_set_member_name (builder, "seconds");
  json_builder_add_double_value (builder, report->elapsed);
  json_builder_end_object (builder);

  return lode_json_builder_steal_object (builder);
}

/**
 * lode_graph_report_query:
 * @project: an indexed project
 * @file: a file of the project
 * @direction: which way the N-hop walk goes
 * @depth: hops, 1 … %LODE_GRAPH_MAX_DEPTH
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): `{projectPath, file, language, imports: [{specifier, line,
 *   kind, targets: [path], package}], dependents: [path], direction, depth,
 *   reach: [{path, distance}]}`
 */
JsonObject *
lode_graph_report_query (LodeProject         *project,
                         const char          *file,
                         LodeGraphDirection   direction,
                         guint                depth,
                         GError             **error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(LodeGraph) graph = NULL;
  g_autoptr(GPtrArray) imports = NULL;
  g_autoptr(GArray) reach = NULL;
  const guint *dependents;
  guint n_dependents;
  guint id;

  g_return_val_if_fail (LODE_IS_PROJECT (project), NULL);
  g_return_val_if_fail (file != NULL, NULL);

  graph = lode_project_load_graph (project, error);
  if (graph == NULL || !lookup_file (project, graph, file, &id, error))
    return NULL;
  imports = lode_project_dup_imports (project, lode_graph_get_path (graph, id), error);
  if (imports == NULL)
    return NULL;

  depth = CLAMP (depth, 1, LODE_GRAPH_MAX_DEPTH);
  reach = lode_graph_impact (graph, &id, 1, direction, depth);

  begin_report (builder, project);
  lode_json_builder_add_string (builder, "file", lode_graph_get_path (graph, id));
  lode_json_builder_add_string (builder, "language", lode_graph_get_language (graph, id));

  json_builder_set_member_name (builder, "imports");
  json_builder_begin_array (builder);
  for (guint i = 0; i < imports->len; i++)
    {
      const LodeStoredImport *import = g_ptr_array_index (imports, i);

      json_builder_begin_object (builder);
      lode_json_builder_add_string (builder, "specifier", import->specifier);
      lode_json_builder_add_int (builder, "line", import->line);
      lode_json_builder_add_string (builder, "kind", import->kind);
      json_builder_set_member_name (builder, "targets");
      json_builder_begin_array (builder);
      for (guint j = 0; import->targets != NULL && import->targets[j] != NULL; j++)
        json_builder_add_string_value (builder, import->targets[j]);
      json_builder_end_array (builder);
      lode_json_builder_add_string (builder, "package", import->package);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  dependents = lode_graph_get_dependents (graph, id, &n_dependents);
  json_builder_set_member_name (builder, "dependents");
  json_builder_begin_array (builder);
  for (guint i = 0; i < n_dependents; i++)
    json_builder_add_string_value (builder, lode_graph_get_path (graph, dependents[i]));
  json_builder_end_array (builder);

  lode_json_builder_add_string (builder, "direction", direction_to_string (direction));
  lode_json_builder_add_int (builder, "depth", depth);
  json_builder_set_member_name (builder, "reach");
  json_builder_begin_array (builder);
  for (guint i = 1; i < reach->len; i++)
    {
      const LodeGraphHit *hit = &g_array_index (reach, LodeGraphHit, i);

      json_builder_begin_object (builder);
      lode_json_builder_add_string (builder, "path", lode_graph_get_path (graph, hit->file));
      lode_json_builder_add_int (builder, "distance", hit->distance);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  return lode_json_builder_steal_object (builder);
}

/**
 * lode_graph_report_stats:
 * @project: an indexed project
 * @top: how many of the most connected files, orphans and packages to list
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): `{projectPath, files, edges, externalEdges, imports,
 *   internal, external, unresolved, mostConnected: [{path, dependents, imports}],
 *   orphans: [path], orphanCount, packages: [{name, files}], packageCount}`
 */
JsonObject *
lode_graph_report_stats (LodeProject  *project,
                         guint         top,
                         GError      **error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(LodeGraph) graph = NULL;
  g_autoptr(LodeGraphStats) stats = NULL;
  LodeGraphCounts counts = { 0 };

  g_return_val_if_fail (LODE_IS_PROJECT (project), NULL);

  graph = lode_project_load_graph (project, error);
  if (graph == NULL || !lode_project_get_graph_counts (project, &counts, NULL, error))
    return NULL;

  top = CLAMP (top, 1, LODE_GRAPH_REPORT_MAX_ITEMS);
  stats = lode_graph_dup_stats (graph, top);

  begin_report (builder, project);
  lode_json_builder_add_int (builder, "files", stats->n_files);
  lode_json_builder_add_int (builder, "edges", stats->n_edges);
  lode_json_builder_add_int (builder, "externalEdges", stats->n_external_edges);
  add_counts (builder, &counts);

  json_builder_set_member_name (builder, "mostConnected");
  json_builder_begin_array (builder);
  for (guint i = 0; i < stats->most_connected->len; i++)
    {
      const LodeGraphRank *rank = &g_array_index (stats->most_connected, LodeGraphRank, i);

      json_builder_begin_object (builder);
      lode_json_builder_add_string (builder, "path", lode_graph_get_path (graph, rank->file));
      lode_json_builder_add_int (builder, "dependents", rank->n_in);
      lode_json_builder_add_int (builder, "imports", rank->n_out);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  lode_json_builder_add_int (builder, "orphanCount", stats->orphans->len);
  json_builder_set_member_name (builder, "orphans");
  json_builder_begin_array (builder);
  for (guint i = 0; i < MIN (stats->orphans->len, top); i++)
    json_builder_add_string_value (builder,
                                   lode_graph_get_path (graph, g_array_index (stats->orphans,
                                                                              guint, i)));
  json_builder_end_array (builder);

  lode_json_builder_add_int (builder, "packageCount", stats->packages->len);
  json_builder_set_member_name (builder, "packages");
  json_builder_begin_array (builder);
  for (guint i = 0; i < MIN (stats->packages->len, top); i++)
    {
      const LodeGraphPackage *package = &g_array_index (stats->packages, LodeGraphPackage, i);

      json_builder_begin_object (builder);
      lode_json_builder_add_string (builder, "name", package->package);
      lode_json_builder_add_int (builder, "files", package->n_files);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  return lode_json_builder_steal_object (builder);
}

static void
add_paths (JsonBuilder     *builder,
           const char      *name,
           const LodeGraph *graph,
           GArray          *ids)
{
  json_builder_set_member_name (builder, name);
  json_builder_begin_array (builder);
  for (guint i = 0; i < ids->len; i++)
    json_builder_add_string_value (builder,
                                   lode_graph_get_path (graph, g_array_index (ids, guint, i)));
  json_builder_end_array (builder);
}

/**
 * lode_graph_report_circular:
 * @project: an indexed project
 * @scope: (nullable): only cycles with a member whose path starts with this prefix
 * @limit: how many cycles to list
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): `{projectPath, count, filesInCycles,
 *   cycles: [{cycle: [path], members: [path]}]}`, largest first
 */
JsonObject *
lode_graph_report_circular (LodeProject  *project,
                            const char   *scope,
                            guint         limit,
                            GError      **error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(LodeGraph) graph = NULL;
  g_autoptr(GPtrArray) cycles = NULL;
  guint n_files = 0;

  g_return_val_if_fail (LODE_IS_PROJECT (project), NULL);

  graph = lode_project_load_graph (project, error);
  if (graph == NULL)
    return NULL;

  cycles = lode_graph_find_cycles (graph);
  limit = CLAMP (limit, 1, LODE_GRAPH_REPORT_MAX_ITEMS);
  for (guint i = cycles->len; scope != NULL && i-- > 0; )
    {
      const LodeGraphCycle *cycle = g_ptr_array_index (cycles, i);
      gboolean in_scope = FALSE;

      for (guint m = 0; m < cycle->members->len && !in_scope; m++)
        in_scope = g_str_has_prefix (lode_graph_get_path (graph, g_array_index (cycle->members,
                                                                                 guint, m)),
                                     scope);
      if (!in_scope)
        g_ptr_array_remove_index (cycles, i);
    }

  for (guint i = 0; i < cycles->len; i++)
    n_files += ((LodeGraphCycle *) g_ptr_array_index (cycles, i))->members->len;

  begin_report (builder, project);
  lode_json_builder_add_int (builder, "count", cycles->len);
  lode_json_builder_add_int (builder, "filesInCycles", n_files);
  json_builder_set_member_name (builder, "cycles");
  json_builder_begin_array (builder);
  for (guint i = 0; i < MIN (cycles->len, limit); i++)
    {
      const LodeGraphCycle *cycle = g_ptr_array_index (cycles, i);

      json_builder_begin_object (builder);
      add_paths (builder, "cycle", graph, cycle->cycle);
      add_paths (builder, "members", graph, cycle->members);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  return lode_json_builder_steal_object (builder);
}

static const char *
box_kind_to_string (LodeGraphBoxKind kind)
{
  switch (kind)
    {
    case LODE_GRAPH_BOX_FILE:
      return "file";
    case LODE_GRAPH_BOX_FOLDER:
      return "folder";
    case LODE_GRAPH_BOX_MORE:
      return "more";
    case LODE_GRAPH_BOX_DEFINITION:
      return "definition";
    default:
      g_return_val_if_reached ("file");
    }
}

static void
add_diagram (JsonBuilder            *builder,
             const LodeGraphDiagram *diagram)
{
  json_builder_set_member_name (builder, "nodes");
  json_builder_begin_array (builder);
  for (guint i = 0; i < diagram->boxes->len; i++)
    {
      const LodeGraphBox *box = &g_array_index (diagram->boxes, LodeGraphBox, i);
      g_autofree char *label = lode_graph_diagram_dup_label (box);

      json_builder_begin_object (builder);
      lode_json_builder_add_int (builder, "id", i);
      lode_json_builder_add_string (builder, "kind", box_kind_to_string (box->kind));
      lode_json_builder_add_string (builder, "path", box->path);
      lode_json_builder_add_string (builder, "label", label);
      lode_json_builder_add_string (builder, "language", box->language);
      lode_json_builder_add_int (builder, "files", box->n_files);
      json_builder_set_member_name (builder, "distance");
      if (box->distance != LODE_GRAPH_NO_DISTANCE)
        json_builder_add_int_value (builder, box->distance);
      else
        json_builder_add_null_value (builder);
      json_builder_set_member_name (builder, "focus");
      json_builder_add_boolean_value (builder, box->focus);
      json_builder_set_member_name (builder, "inCycle");
      json_builder_add_boolean_value (builder, box->in_cycle);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "edges");
  json_builder_begin_array (builder);
  for (guint i = 0; i < diagram->arrows->len; i++)
    {
      const LodeGraphArrow *arrow = &g_array_index (diagram->arrows, LodeGraphArrow, i);

      json_builder_begin_object (builder);
      lode_json_builder_add_int (builder, "from", arrow->from);
      lode_json_builder_add_int (builder, "to", arrow->to);
      lode_json_builder_add_int (builder, "count", arrow->count);
      json_builder_set_member_name (builder, "inCycle");
      json_builder_add_boolean_value (builder, arrow->in_cycle);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  lode_json_builder_add_int (builder, "hidden", diagram->n_hidden);
}

/**
 * lode_graph_report_visualize:
 * @project: an indexed project
 * @file: (nullable): draw this file's neighbourhood, or %NULL for the whole project
 * @depth: hops around @file
 * @max_nodes: boxes at most
 * @svg: (out) (optional) (transfer full): the diagram as an SVG document
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): `{projectPath, file, mermaid, nodes: [{id, kind, path,
 *   label, language, files, distance, focus, inCycle}], edges: [{from, to, count, inCycle}],
 *   hidden}`
 */
JsonObject *
lode_graph_report_visualize (LodeProject  *project,
                             const char   *file,
                             guint         depth,
                             guint         max_nodes,
                             char        **svg,
                             GError      **error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(LodeGraph) graph = NULL;
  g_autoptr(LodeGraphDiagram) diagram = NULL;
  g_autofree char *mermaid = NULL;
  guint id = 0;

  g_return_val_if_fail (LODE_IS_PROJECT (project), NULL);

  graph = lode_project_load_graph (project, error);
  if (graph == NULL || (file != NULL && !lookup_file (project, graph, file, &id, error)))
    return NULL;

  diagram = lode_graph_diagram_new (graph, file != NULL ? &id : NULL, depth,
                                    CLAMP (max_nodes, 1, LODE_GRAPH_REPORT_MAX_ITEMS));
  mermaid = lode_graph_diagram_to_mermaid (diagram);
  if (svg != NULL)
    *svg = lode_graph_diagram_to_svg (diagram);

  begin_report (builder, project);
  lode_json_builder_add_string (builder, "file", file != NULL ? lode_graph_get_path (graph, id) : NULL);
  lode_json_builder_add_string (builder, "mermaid", mermaid);
  add_diagram (builder, diagram);
  json_builder_end_object (builder);

  return lode_json_builder_steal_object (builder);
}

/* A definition of codebase_symbol's answer, by the name the call graph qualifies it with. */
static const char *
definition_name (JsonObject *definition)
{
  const char *qualified = lode_json_get_string (definition, "qualifiedName");

  return qualified != NULL ? qualified : lode_json_get_string (definition, "name");
}

/* The box of @definition, in the language of its file as the import graph has it. */
static guint
add_definition (LodeGraphDiagram *diagram,
                LodeGraph        *graph,
                JsonObject       *definition,
                gboolean          focus)
{
  const char *path = lode_json_get_string (definition, "path");
  guint id;

  return lode_graph_diagram_add_symbol (diagram, definition_name (definition), path,
                                        graph != NULL && lode_graph_lookup (graph, path, &id)
                                          ? lode_graph_get_language (graph, id) : NULL,
                                        focus ? 0 : 1, focus);
}

/**
 * lode_graph_report_visualize_symbol:
 * @project: an indexed project
 * @symbol_report: codebase_symbol's answer about one definition (lode_call_report_symbol())
 * @svg: (out) (optional) (transfer full): the diagram as an SVG document
 * @error: return location for a #GError
 *
 * The definition with its callers and the definitions it calls, as
 * lode_graph_report_visualize() draws a file's imports (calls to nothing the project defines
 * are left out).
 *
 * Returns: (transfer full) (nullable): `{projectPath, file, symbol, line, mermaid, nodes,
 *   edges, hidden}`
 */
JsonObject *
lode_graph_report_visualize_symbol (LodeProject  *project,
                                    JsonObject   *symbol_report,
                                    char        **svg,
                                    GError      **error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(LodeGraph) graph = NULL;
  g_autoptr(LodeGraphDiagram) diagram = lode_graph_diagram_new_empty ();
  g_autofree char *mermaid = NULL;
  JsonObject *symbol;
  JsonArray *callers;
  JsonArray *callees;
  guint focus;

  g_return_val_if_fail (LODE_IS_PROJECT (project), NULL);
  g_return_val_if_fail (symbol_report != NULL, NULL);

  symbol = json_object_get_object_member (symbol_report, "symbol");
  g_return_val_if_fail (symbol != NULL, NULL);
  graph = lode_project_load_graph (project, error);
  if (graph == NULL)
    return NULL;

  focus = add_definition (diagram, graph, symbol, TRUE);
  callers = json_object_get_array_member (symbol_report, "callers");
  for (guint i = 0; callers != NULL && i < json_array_get_length (callers); i++)
    lode_graph_diagram_add_call (diagram,
                                 add_definition (diagram, graph,
                                                 json_array_get_object_element (callers, i),
                                                 FALSE),
                                 focus);
  callees = json_object_get_array_member (symbol_report, "callees");
  for (guint i = 0; callees != NULL && i < json_array_get_length (callees); i++)
    lode_graph_diagram_add_call (diagram, focus,
                                 add_definition (diagram, graph,
                                                 json_array_get_object_element (callees, i),
                                                 FALSE));

  mermaid = lode_graph_diagram_to_mermaid (diagram);
  if (svg != NULL)
    *svg = lode_graph_diagram_to_svg (diagram);

  begin_report (builder, project);
  lode_json_builder_add_string (builder, "file", lode_json_get_string (symbol, "path"));
  lode_json_builder_add_string (builder, "symbol", definition_name (symbol));
  lode_json_builder_add_int (builder, "line", lode_json_get_int (symbol, "startLine", 0));
  lode_json_builder_add_string (builder, "mermaid", mermaid);
  add_diagram (builder, diagram);
  json_builder_end_object (builder);

  return lode_json_builder_steal_object (builder);
}

/**
 * lode_graph_report_status:
 * @project: a project
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): `{projectPath, indexed, enabled, state, indexedAt,
 *   files, imports, internal, external, unresolved}`
 */
JsonObject *
lode_graph_report_status (LodeProject  *project,
                          GError      **error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(LodeProjectStatus) status = NULL;
  LodeGraphCounts counts = { 0 };
  gboolean indexed;
  gboolean enabled = TRUE;

  g_return_val_if_fail (LODE_IS_PROJECT (project), NULL);

  indexed = lode_project_is_indexed (project);
  status = lode_project_dup_status (project, error);
  if (status == NULL ||
      (indexed && !lode_project_get_graph_counts (project, &counts, &enabled, error)))
    return NULL;

  begin_report (builder, project);
  json_builder_set_member_name (builder, "indexed");
  json_builder_add_boolean_value (builder, indexed);
  json_builder_set_member_name (builder, "enabled");
  json_builder_add_boolean_value (builder, enabled);
  lode_json_builder_add_string (builder, "state", lode_index_state_to_string (status->state));
  lode_json_builder_add_string (builder, "indexedAt", status->indexed_at);
  lode_json_builder_add_int (builder, "files", status->stats.n_files);
  add_counts (builder, &counts);
  json_builder_end_object (builder);

  return lode_json_builder_steal_object (builder);
}

/**
 * lode_graph_report_remove:
 * @project: an indexed project
 * @error: return location for a #GError
 *
 * Deletes the graph and stops indexing from maintaining it, until the next build.
 *
 * Returns: (transfer full) (nullable): `{projectPath, removed}`
 */
JsonObject *
lode_graph_report_remove (LodeProject  *project,
                          GError      **error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  g_return_val_if_fail (LODE_IS_PROJECT (project), NULL);

  if (!lode_project_set_graph_enabled (project, FALSE, error))
    return NULL;

  begin_report (builder, project);
  json_builder_set_member_name (builder, "removed");
  json_builder_add_boolean_value (builder, TRUE);
  json_builder_end_object (builder);

  return lode_json_builder_steal_object (builder);
}

static char
status_letter (const LodeChangedFile *file)
{
  return g_ascii_isalpha (file->status) || file->status == '?' ? file->status : 'M';
}

/**
 * lode_graph_report_impact:
 * @project: an indexed project inside a git work tree
 * @rev_range: (nullable): a revision range, or %NULL for the uncommitted changes
 * @depth: hops to follow from the changed files
 * @limit: affected files to list at most
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): `{projectPath, range, depth, changed: [{path, status,
 *   oldPath}], affected: [{path, distance, links, dependents}], affectedCount}`; the
 *   affected files exclude the changed ones
 */
JsonObject *
lode_graph_report_impact (LodeProject   *project,
                          const char    *rev_range,
                          guint          depth,
                          guint          limit,
                          GCancellable  *cancellable,
                          GError       **error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(LodeGraph) graph = NULL;
  g_autoptr(GPtrArray) changed = NULL;
  g_autoptr(GArray) ranked = NULL;
  guint n_affected = 0;
  guint n_listed = 0;

  g_return_val_if_fail (LODE_IS_PROJECT (project), NULL);

  graph = lode_project_load_graph (project, error);
  if (graph == NULL)
    return NULL;
  changed = lode_git_dup_changed_files (lode_project_get_root (project), rev_range,
                                        cancellable, error);
  if (changed == NULL)
    return NULL;

  depth = CLAMP (depth, 1, LODE_GRAPH_MAX_DEPTH);
  limit = CLAMP (limit, 1, LODE_GRAPH_REPORT_MAX_ITEMS);
  ranked = lode_impact_rank (graph, changed, depth);

  begin_report (builder, project);
  lode_json_builder_add_string (builder, "range", rev_range);
  lode_json_builder_add_int (builder, "depth", depth);
  json_builder_set_member_name (builder, "changed");
  json_builder_begin_array (builder);
  for (guint i = 0; i < changed->len; i++)
    {
      const LodeChangedFile *file = g_ptr_array_index (changed, i);
      char status[2] = { status_letter (file), '\0' };

      json_builder_begin_object (builder);
      lode_json_builder_add_string (builder, "path", file->path);
      lode_json_builder_add_string (builder, "status", status);
      lode_json_builder_add_string (builder, "oldPath", file->old_path);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "affected");
  json_builder_begin_array (builder);
  for (guint i = 0; i < ranked->len; i++)
    {
      const LodeImpactFile *file = &g_array_index (ranked, LodeImpactFile, i);

      if (file->distance == 0)
        continue;
      n_affected++;
      if (n_listed >= limit)
        continue;
      n_listed++;
      json_builder_begin_object (builder);
      lode_json_builder_add_string (builder, "path", file->path);
      lode_json_builder_add_int (builder, "distance", file->distance);
      lode_json_builder_add_int (builder, "links", file->links);
      lode_json_builder_add_int (builder, "dependents", file->n_dependents);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  lode_json_builder_add_int (builder, "affectedCount", n_affected);
  json_builder_end_object (builder);

  return lode_json_builder_steal_object (builder);
}

/* Markdown */

static void
append_counts (GString    *out,
               JsonObject *report)
{
  lode_append_count (out, lode_json_get_int (report, "imports", 0), "%u import", "%u imports");
  g_string_append_printf (out, ": %" G_GINT64_FORMAT " to project files, %" G_GINT64_FORMAT
                          " to external packages, %" G_GINT64_FORMAT " unresolved.\n",
                          lode_json_get_int (report, "internal", 0),
                          lode_json_get_int (report, "external", 0),
                          lode_json_get_int (report, "unresolved", 0));
}

static void
append_string_list (GString    *out,
                    JsonArray  *array,
                    const char *empty)
{
  guint n = array != NULL ? json_array_get_length (array) : 0;

  if (n == 0)
    g_string_append_printf (out, "%s\n", empty);
  for (guint i = 0; i < n; i++)
    {
      g_string_append (out, "- ");
      lode_markdown_append_code (out, json_array_get_string_element (array, i));
      g_string_append_c (out, '\n');
    }
}

char *
lode_graph_format_build (JsonObject *report)
{
  GString *out = g_string_new (NULL);

  g_string_append_printf (out, "Import graph of `%s` is up to date: ",
                          lode_json_get_string (report, "projectPath"));
  lode_append_count (out, lode_json_get_int (report, "files", 0), "%u file", "%u files");
  g_string_append_printf (out, ", %" G_GINT64_FORMAT " parsed in %.1f s.\n",
                          lode_json_get_int (report, "parsed", 0),
                          json_object_get_double_member_with_default (report, "seconds", 0));
  append_counts (out, report);

  return g_string_free (out, FALSE);
}

char *
lode_graph_format_query (JsonObject *report)
{
  GString *out = g_string_new (NULL);
  JsonArray *imports = lode_json_get_array (report, "imports");
  JsonArray *reach = lode_json_get_array (report, "reach");
  guint n_imports = imports != NULL ? json_array_get_length (imports) : 0;
  guint n_reach = reach != NULL ? json_array_get_length (reach) : 0;

  g_string_append (out, "## ");
  lode_markdown_append_code (out, lode_json_get_string (report, "file"));
  g_string_append_printf (out, " (%s)\n\n### Imports\n\n",
                          lode_json_get_string (report, "language"));
  if (n_imports == 0)
    g_string_append (out, "None.\n");
  for (guint i = 0; i < n_imports; i++)
    {
      JsonObject *import = json_array_get_object_element (imports, i);
      JsonArray *targets = lode_json_get_array (import, "targets");
      guint n_targets = targets != NULL ? json_array_get_length (targets) : 0;
      const char *package = lode_json_get_string (import, "package");

      g_string_append_printf (out, "- line %" G_GINT64_FORMAT ": ",
                              lode_json_get_int (import, "line", 0));
      lode_markdown_append_code (out, lode_json_get_string (import, "specifier"));
      g_string_append (out, " → ");
      for (guint j = 0; j < MIN (n_targets, 3); j++)
        {
          g_string_append (out, j > 0 ? ", " : "");
          lode_markdown_append_code (out, json_array_get_string_element (targets, j));
        }
      if (n_targets > 3)
        {
          g_string_append (out, " and ");
          lode_append_count (out, n_targets - 3, "%u more file", "%u more files");
          g_string_append_c (out, '\n');
        }
      else if (n_targets > 0)
        g_string_append_c (out, '\n');
      else if (package != NULL)
        g_string_append_printf (out, "package `%s`\n", package);
      else
        g_string_append (out, "unresolved\n");
    }

  g_string_append (out, "\n### Imported by\n\n");
  append_string_list (out, lode_json_get_array (report, "dependents"),
                      "No project file imports it.");

  if (lode_json_get_int (report, "depth", 0) > 1)
    {
      g_string_append (out, "\n### Within ");
      lode_append_count (out, lode_json_get_int (report, "depth", 0), "%u hop", "%u hops");
      g_string_append_printf (out, " (%s)\n\n", lode_json_get_string (report, "direction"));
      if (n_reach == 0)
        g_string_append (out, "None.\n");
      for (guint i = 0; i < n_reach; i++)
        {
          JsonObject *hit = json_array_get_object_element (reach, i);

          g_string_append (out, "- ");
          lode_markdown_append_code (out, lode_json_get_string (hit, "path"));
          g_string_append_printf (out, " (%" G_GINT64_FORMAT ")\n",
                                  lode_json_get_int (hit, "distance", 0));
        }
    }

  return g_string_free (out, FALSE);
}

char *
lode_graph_format_stats (JsonObject *report)
{
  GString *out = g_string_new (NULL);
  JsonArray *ranks = lode_json_get_array (report, "mostConnected");
  JsonArray *packages = lode_json_get_array (report, "packages");
  guint n_ranks = ranks != NULL ? json_array_get_length (ranks) : 0;
  guint n_packages = packages != NULL ? json_array_get_length (packages) : 0;

  g_string_append_printf (out, "## Import graph of `%s`\n\n",
                          lode_json_get_string (report, "projectPath"));
  lode_append_count (out, lode_json_get_int (report, "files", 0), "%u file", "%u files");
  g_string_append (out, ", ");
  lode_append_count (out, lode_json_get_int (report, "edges", 0), "%u file → file edge",
                     "%u file → file edges");
  g_string_append (out, ", ");
  lode_append_count (out, lode_json_get_int (report, "externalEdges", 0),
                     "%u file → package edge", "%u file → package edges");
  g_string_append (out, ".\n");
  append_counts (out, report);

  g_string_append (out, "\n### Most connected\n\n");
  if (n_ranks == 0)
    g_string_append (out, "No edges.\n");
  for (guint i = 0; i < n_ranks; i++)
    {
      JsonObject *rank = json_array_get_object_element (ranks, i);

      g_string_append (out, "- ");
      lode_markdown_append_code (out, lode_json_get_string (rank, "path"));
      g_string_append (out, ": ");
      lode_append_count (out, lode_json_get_int (rank, "dependents", 0), "%u dependent",
                         "%u dependents");
      g_string_append (out, ", ");
      lode_append_count (out, lode_json_get_int (rank, "imports", 0), "%u import", "%u imports");
      g_string_append_c (out, '\n');
    }

  g_string_append_printf (out, "\n### External packages (%" G_GINT64_FORMAT ")\n\n",
                          lode_json_get_int (report, "packageCount", 0));
  if (n_packages == 0)
    g_string_append (out, "None.\n");
  for (guint i = 0; i < n_packages; i++)
    {
      JsonObject *package = json_array_get_object_element (packages, i);

      g_string_append_printf (out, "- `%s`: ", lode_json_get_string (package, "name"));
      lode_append_count (out, lode_json_get_int (package, "files", 0), "%u file", "%u files");
      g_string_append_c (out, '\n');
    }

  g_string_append_printf (out, "\n### Orphans (%" G_GINT64_FORMAT ")\n\n",
                          lode_json_get_int (report, "orphanCount", 0));
  append_string_list (out, lode_json_get_array (report, "orphans"), "None.");

  return g_string_free (out, FALSE);
}

char *
lode_graph_format_circular (JsonObject *report)
{
  GString *out = g_string_new (NULL);
  JsonArray *cycles = lode_json_get_array (report, "cycles");
  guint n = cycles != NULL ? json_array_get_length (cycles) : 0;

  if (lode_json_get_int (report, "count", 0) == 0)
    {
      g_string_append_printf (out, "No import cycles in `%s`.\n",
                              lode_json_get_string (report, "projectPath"));
      return g_string_free (out, FALSE);
    }

  g_string_append (out, "## ");
  lode_append_count (out, lode_json_get_int (report, "count", 0), "%u import cycle",
                     "%u import cycles");
  g_string_append (out, " (");
  lode_append_count (out, lode_json_get_int (report, "filesInCycles", 0), "%u file", "%u files");
  g_string_append (out, ")\n\n");
  for (guint i = 0; i < n; i++)
    {
      JsonObject *cycle = json_array_get_object_element (cycles, i);
      JsonArray *path = lode_json_get_array (cycle, "cycle");
      JsonArray *members = lode_json_get_array (cycle, "members");
      guint n_path = json_array_get_length (path);
      guint n_members = json_array_get_length (members);

      g_string_append_printf (out, "%u. ", i + 1);
      for (guint j = 0; j < n_path; j++)
        {
          lode_markdown_append_code (out, json_array_get_string_element (path, j));
          g_string_append (out, " → ");
        }
      lode_markdown_append_code (out, json_array_get_string_element (path, 0));
      if (n_members > n_path)
        {
          g_string_append (out, " (one of the cycles among ");
          lode_append_count (out, n_members, "%u file", "%u files");
          g_string_append_c (out, ')');
        }
      g_string_append_c (out, '\n');
    }

  return g_string_free (out, FALSE);
}

char *
lode_graph_format_visualize (JsonObject *report)
{
  GString *out = g_string_new (NULL);
  const char *file = lode_json_get_string (report, "file");
  const char *symbol = lode_json_get_string (report, "symbol");
  const char *svg_path = lode_json_get_string (report, "svgPath");

  if (json_object_get_boolean_member_with_default (report, "opened", FALSE) && symbol != NULL)
    g_string_append_printf (out, "Opened Lode's symbol page on `%s` (`%s:%" G_GINT64_FORMAT
                            "`) in the desktop app.\n\n", symbol, file,
                            lode_json_get_int (report, "line", 0));
  else if (json_object_get_boolean_member_with_default (report, "opened", FALSE))
    g_string_append_printf (out, "Opened Lode's graph explorer on `%s` in the desktop app.\n\n",
                            file != NULL ? file : lode_json_get_string (report, "projectPath"));
  else if (svg_path != NULL)
    g_string_append_printf (out, "Lode's graph explorer cannot be shown here (%s). The diagram "
                            "is drawn in `%s`, and as Mermaid:\n\n",
                            lode_json_get_string (report, "reason"), svg_path);
  if (lode_json_get_int (report, "hidden", 0) > 0)
    {
      lode_append_count (out, lode_json_get_int (report, "hidden", 0), "%u file", "%u files");
      g_string_append (out, " not drawn (raise maxNodes to see them).\n\n");
    }
  g_string_append_printf (out, "```mermaid\n%s```\n", lode_json_get_string (report, "mermaid"));

  return g_string_free (out, FALSE);
}

char *
lode_graph_format_status (JsonObject *report)
{
  GString *out = g_string_new (NULL);

  if (!json_object_get_boolean_member_with_default (report, "indexed", FALSE))
    {
      g_string_append_printf (out, "`%s` is not indexed; build its graph first.\n",
                              lode_json_get_string (report, "projectPath"));
      return g_string_free (out, FALSE);
    }

  g_string_append_printf (out, "Import graph of `%s`: %s, index %s",
                          lode_json_get_string (report, "projectPath"),
                          json_object_get_boolean_member_with_default (report, "enabled", TRUE)
                            ? "maintained" : "removed",
                          lode_json_get_string (report, "state"));
  if (lode_json_get_string (report, "indexedAt") != NULL)
    g_string_append_printf (out, " (%s)", lode_json_get_string (report, "indexedAt"));
  g_string_append (out, ", ");
  lode_append_count (out, lode_json_get_int (report, "files", 0), "%u file", "%u files");
  g_string_append (out, ".\n");
  append_counts (out, report);

  return g_string_free (out, FALSE);
}

char *
lode_graph_format_remove (JsonObject *report)
{
  return g_strdup_printf ("Removed the import graph of `%s`; build it again to restore it.\n",
                          lode_json_get_string (report, "projectPath"));
}

char *
lode_graph_format_impact (JsonObject *report)
{
  GString *out = g_string_new (NULL);
  JsonArray *changed = lode_json_get_array (report, "changed");
  JsonArray *affected = lode_json_get_array (report, "affected");
  guint n_changed = changed != NULL ? json_array_get_length (changed) : 0;
  guint n_affected = affected != NULL ? json_array_get_length (affected) : 0;
  const char *range = lode_json_get_string (report, "range");

  g_string_append_printf (out, "## Impact of %s%s%s\n\n", range != NULL ? "`" : "",
                          range != NULL ? range : "the uncommitted changes",
                          range != NULL ? "`" : "");
  g_string_append_printf (out, "### Changed (%u)\n\n", n_changed);
  if (n_changed == 0)
    g_string_append (out, "Nothing.\n");
  for (guint i = 0; i < n_changed; i++)
    {
      JsonObject *file = json_array_get_object_element (changed, i);
      const char *old_path = lode_json_get_string (file, "oldPath");

      g_string_append_printf (out, "- %s ", lode_json_get_string (file, "status"));
      lode_markdown_append_code (out, lode_json_get_string (file, "path"));
      if (old_path != NULL)
        {
          g_string_append (out, " (from ");
          lode_markdown_append_code (out, old_path);
          g_string_append_c (out, ')');
        }
      g_string_append_c (out, '\n');
    }

  g_string_append_printf (out, "\n### Likely affected (%" G_GINT64_FORMAT ", within ",
                          lode_json_get_int (report, "affectedCount", 0));
  lode_append_count (out, lode_json_get_int (report, "depth", 0), "%u hop", "%u hops");
  g_string_append (out, ")\n\n");
  if (n_affected == 0)
    g_string_append (out, "No other file imports the changed files.\n");
  for (guint i = 0; i < n_affected; i++)
    {
      JsonObject *file = json_array_get_object_element (affected, i);

      g_string_append_printf (out, "%u. ", i + 1);
      lode_markdown_append_code (out, lode_json_get_string (file, "path"));
      g_string_append (out, ": ");
      lode_append_count (out, lode_json_get_int (file, "distance", 0), "%u hop", "%u hops");
      g_string_append (out, ", ");
      lode_append_count (out, lode_json_get_int (file, "links", 0), "%u link to the change",
                         "%u links to the change");
      g_string_append (out, ", ");
      lode_append_count (out, lode_json_get_int (file, "dependents", 0), "%u dependent",
                         "%u dependents");
      g_string_append_c (out, '\n');
    }

  return g_string_free (out, FALSE);
}
