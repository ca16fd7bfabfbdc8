/* lode-import-graph-source.c — a project's import graph, for the graph explorer
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-gtk"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "lode-import-graph-source.h"

/*
 * Nodes are files, keyed by their path in the project; edges are imports. The graph around
 * a file is codebase_graph_visualize's diagram, one hop each way (its farther files drawn
 * one box per folder past the bound); what reaches a file is codebase_graph_query inbound,
 * as deep as the tool goes (LODE_GRAPH_MAX_DEPTH hops).
 */

#define REACH_DEPTH 5

struct _LodeImportGraphSource
{
  GObject         parent_instance;
  LodeConnection *connection;
};

static void lode_import_graph_source_iface_init (LodeGraphSourceInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (LodeImportGraphSource, lode_import_graph_source, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (LODE_TYPE_GRAPH_SOURCE,
                                                      lode_import_graph_source_iface_init))

/**
 * lode_import_graph_source_new:
 * @connection: the connection to loded, whose client runs the graph tools
 *
 * Returns: (transfer full): the source
 */
LodeGraphSource *
lode_import_graph_source_new (LodeConnection *connection)
{
  LodeImportGraphSource *self;

  g_return_val_if_fail (LODE_IS_CONNECTION (connection), NULL);

  self = g_object_new (LODE_TYPE_IMPORT_GRAPH_SOURCE, NULL);
  self->connection = g_object_ref (connection);
  return LODE_GRAPH_SOURCE (self);
}

static JsonObject *
file_arguments (const char *root,
                const char *key)
{
  JsonObject *arguments = json_object_new ();

  json_object_set_string_member (arguments, "projectPath", root);
  json_object_set_string_member (arguments, "filePath", key);
  return arguments;
}

/* A diagram's node as a node of the model: files by their name and folder, folders by their
 * path and size, the files left out by their number. */
static void
add_node (LodeGraphModel *model,
          JsonObject     *object,
          const char     *focus)
{
  const char *kind = json_object_get_string_member (object, "kind");
  const char *path = json_object_get_string_member_with_default (object, "path", NULL);
  guint files = json_object_get_int_member (object, "files");
  g_autofree char *key = NULL;
  g_autofree char *label = NULL;
  g_autofree char *detail = NULL;
  LodeGraphNode node = { 0 };

  node.language = (char *) json_object_get_string_member (object, "language");
  node.in_cycle = json_object_get_boolean_member (object, "inCycle");
  node.count = files;

  if (g_strcmp0 (kind, "file") == 0 && path != NULL)
    {
      const char *slash = strrchr (path, '/');

      node.kind = LODE_GRAPH_NODE_ITEM;
      key = g_strdup (path);
      label = g_strdup (slash != NULL ? slash + 1 : path);
      detail = slash != NULL ? g_strndup (path, slash - path + 1) : NULL;
      node.path = (char *) path;
    }
  else if (g_strcmp0 (kind, "folder") == 0 && path != NULL)
    {
      node.kind = LODE_GRAPH_NODE_GROUP;
      key = g_strconcat ("folder:", path, NULL);
      label = g_strdup (path);
      /* Translators: a box of the graph standing for the files of a folder. */
      detail = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u file", "%u files", files),
                                files);
    }
  else
    {
      node.kind = LODE_GRAPH_NODE_MORE;
      key = g_strconcat ("more:", focus, NULL);
      /* Translators: a box of the graph counting the files it does not draw. */
      label = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u more file", "%u more files",
                                            files), files);
    }

  node.key = key;
  node.label = label;
  node.detail = detail;
  lode_graph_model_add_node (model, &node);
}

static void
visualize_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) diagram = NULL;
  g_autoptr(LodeGraphModel) model = NULL;
  const char *focus = g_task_get_task_data (task);
  JsonArray *nodes;
  JsonArray *edges;

  diagram = lode_connection_call_tool_finish (LODE_CONNECTION (object), result, &error);
  if (diagram == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  model = lode_graph_model_new (focus);
  nodes = json_object_get_array_member (diagram, "nodes");
  edges = json_object_get_array_member (diagram, "edges");
  for (guint i = 0; i < json_array_get_length (nodes); i++)
    add_node (model, json_array_get_object_element (nodes, i), focus);
  for (guint i = 0; i < json_array_get_length (edges); i++)
    {
      JsonObject *edge = json_array_get_object_element (edges, i);
      guint from = json_object_get_int_member (edge, "from");
      guint to = json_object_get_int_member (edge, "to");
      guint n_nodes = lode_graph_model_get_n_nodes (model);

      if (from < n_nodes && to < n_nodes)
        lode_graph_model_add_edge (model, from, to, json_object_get_int_member (edge, "count"),
                                   json_object_get_boolean_member (edge, "inCycle"));
    }

  g_task_return_pointer (task, g_steal_pointer (&model), g_object_unref);
}

static void
import_load_async (LodeGraphSource     *source,
                   const char          *root,
                   const char          *key,
                   GCancellable        *cancellable,
                   GAsyncReadyCallback  callback,
                   gpointer             user_data)
{
  LodeImportGraphSource *self = LODE_IMPORT_GRAPH_SOURCE (source);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  JsonObject *arguments = file_arguments (root, key);

  g_task_set_source_tag (task, import_load_async);
  g_task_set_task_data (task, g_strdup (key), g_free);
  json_object_set_int_member (arguments, "depth", 1);
  json_object_set_int_member (arguments, "maxNodes", LODE_IMPORT_GRAPH_MAX_BOXES);
  lode_connection_call_tool (self->connection, "codebase_graph_visualize", arguments,
                             cancellable, visualize_cb, g_steal_pointer (&task));
}

static LodeGraphModel *
import_load_finish (LodeGraphSource  *source,
                    GAsyncResult     *result,
                    GError          **error)
{
  g_return_val_if_fail (g_task_is_valid (result, source), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
query_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) query = NULL;
  g_autoptr(GStrvBuilder) keys = g_strv_builder_new ();
  JsonArray *reach;

  query = lode_connection_call_tool_finish (LODE_CONNECTION (object), result, &error);
  if (query == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  reach = json_object_get_array_member (query, "reach");
  for (guint i = 0; i < json_array_get_length (reach); i++)
    g_strv_builder_add (keys, json_object_get_string_member (
                                json_array_get_object_element (reach, i), "path"));
  g_task_return_pointer (task, g_strv_builder_end (keys), (GDestroyNotify) g_strfreev);
}

static void
import_reach_async (LodeGraphSource     *source,
                    const char          *root,
                    const char          *key,
                    GCancellable        *cancellable,
                    GAsyncReadyCallback  callback,
                    gpointer             user_data)
{
  LodeImportGraphSource *self = LODE_IMPORT_GRAPH_SOURCE (source);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  JsonObject *arguments = file_arguments (root, key);

  g_task_set_source_tag (task, import_reach_async);
  json_object_set_string_member (arguments, "direction", "inbound");
  json_object_set_int_member (arguments, "depth", REACH_DEPTH);
  lode_connection_call_tool (self->connection, "codebase_graph_query", arguments, cancellable,
                             query_cb, g_steal_pointer (&task));
}

static GStrv
import_reach_finish (LodeGraphSource  *source,
                     GAsyncResult     *result,
                     GError          **error)
{
  g_return_val_if_fail (g_task_is_valid (result, source), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
lode_import_graph_source_iface_init (LodeGraphSourceInterface *iface)
{
  iface->load_async = import_load_async;
  iface->load_finish = import_load_finish;
  iface->reach_async = import_reach_async;
  iface->reach_finish = import_reach_finish;
}

static void
lode_import_graph_source_finalize (GObject *object)
{
  LodeImportGraphSource *self = (LodeImportGraphSource *)object;

  g_clear_object (&self->connection);

  G_OBJECT_CLASS (lode_import_graph_source_parent_class)->finalize (object);
}

static void
lode_import_graph_source_class_init (LodeImportGraphSourceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = lode_import_graph_source_finalize;
}

static void
lode_import_graph_source_init (LodeImportGraphSource *self)
{
}
