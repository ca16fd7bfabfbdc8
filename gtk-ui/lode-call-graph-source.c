/* lode-call-graph-source.c — a symbol's callers and callees, for the graph view
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-gtk"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "lode-call-graph-source.h"

/*
 * Nodes are definitions, keyed by their file and qualified name (a newline between: neither
 * holds one); edges are calls. The graph around a definition is its callers (codebase_symbol,
 * one call up) and its calls down to the source's depth (codebase_flow, a call back to a
 * definition on the way marked as a cycle); what reaches it is codebase_impact's callers,
 * REACH_DEPTH calls up, nearest first.
 */

#define CALLER_LIMIT 50
#define REACH_DEPTH  5

struct _LodeCallGraphSource
{
  GObject         parent_instance;
  LodeConnection *connection;
  guint           depth;
};

static void lode_call_graph_source_iface_init (LodeGraphSourceInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (LodeCallGraphSource, lode_call_graph_source, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (LODE_TYPE_GRAPH_SOURCE,
                                                      lode_call_graph_source_iface_init))

typedef struct
{
  char           *root;
  char           *file;
  char           *name;
  LodeGraphModel *model;
} Load;

static void
load_free (Load *load)
{
  g_free (load->root);
  g_free (load->file);
  g_free (load->name);
  g_clear_object (&load->model);
  g_free (load);
}

/**
 * lode_call_graph_source_new:
 * @connection: the connection to loded, whose client runs the call graph's tools
 *
 * Returns: (transfer full): the source
 */
LodeGraphSource *
lode_call_graph_source_new (LodeConnection *connection)
{
  LodeCallGraphSource *self;

  g_return_val_if_fail (LODE_IS_CONNECTION (connection), NULL);

  self = g_object_new (LODE_TYPE_CALL_GRAPH_SOURCE, NULL);
  self->connection = g_object_ref (connection);
  return LODE_GRAPH_SOURCE (self);
}

/**
 * lode_call_graph_source_set_depth:
 * @self: a #LodeCallGraphSource
 * @depth: how many calls down the graphs it finds go, from 1 to %LODE_CALL_GRAPH_MAX_DEPTH
 */
void
lode_call_graph_source_set_depth (LodeCallGraphSource *self,
                                  guint                depth)
{
  g_return_if_fail (LODE_IS_CALL_GRAPH_SOURCE (self));
  g_return_if_fail (depth >= 1 && depth <= LODE_CALL_GRAPH_MAX_DEPTH);

  self->depth = depth;
}

/**
 * lode_call_graph_source_make_key:
 * @file: a definition's file, relative to the project
 * @name: its name, qualified as the call graph prints it
 *
 * Returns: (transfer full): the key of its node
 */
char *
lode_call_graph_source_make_key (const char *file,
                                 const char *name)
{
  g_return_val_if_fail (file != NULL && name != NULL, NULL);

  return g_strconcat (file, "\n", name, NULL);
}

/**
 * lode_call_graph_source_split_key:
 * @key: a node's key
 * @file: (out): its file
 * @name: (out): its qualified name
 *
 * Returns: whether @key is a definition's
 */
gboolean
lode_call_graph_source_split_key (const char  *key,
                                  char       **file,
                                  char       **name)
{
  const char *newline;

  g_return_val_if_fail (key != NULL && file != NULL && name != NULL, FALSE);

  newline = strchr (key, '\n');
  if (newline == NULL)
    return FALSE;
  *file = g_strndup (key, newline - key);
  *name = g_strdup (newline + 1);
  return TRUE;
}

/**
 * lode_call_graph_source_name_of:
 * @definition: a definition as the call graph's tools answer it
 *
 * Returns: its qualified name, or its name when it has none: what names it to the tools
 */
const char *
lode_call_graph_source_name_of (JsonObject *definition)
{
  const char *qualified;

  g_return_val_if_fail (definition != NULL, NULL);

  qualified = json_object_get_string_member_with_default (definition, "qualifiedName", NULL);
  return qualified != NULL ? qualified : json_object_get_string_member (definition, "name");
}

/* The node of @definition, added unless it is there; its index. */
static guint
add_definition (LodeGraphModel *model,
                JsonObject     *definition)
{
  const char *path = json_object_get_string_member (definition, "path");
  g_autofree char *key =
    lode_call_graph_source_make_key (path, lode_call_graph_source_name_of (definition));
  LodeGraphNode node = { 0 };
  guint index;

  if (lode_graph_model_lookup (model, key, &index))
    return index;
  node.key = key;
  node.label = (char *) json_object_get_string_member (definition, "name");
  node.detail = (char *) path;
  node.path = (char *) path;
  node.line = json_object_get_int_member (definition, "startLine");
  node.kind = LODE_GRAPH_NODE_ITEM;
  node.count = 1;
  return lode_graph_model_add_node (model, &node);
}

static JsonObject *
call_arguments (const char *root,
                const char *name_member,
                const char *name,
                const char *file)
{
  JsonObject *arguments = json_object_new ();

  json_object_set_string_member (arguments, "projectPath", root);
  json_object_set_string_member (arguments, name_member, name);
  json_object_set_string_member (arguments, "file", file);
  return arguments;
}

/* @calls of the definition at @from, down the tree codebase_flow answered. */
static void
add_flow (LodeGraphModel *model,
          guint           from,
          JsonArray      *calls)
{
  for (guint i = 0; calls != NULL && i < json_array_get_length (calls); i++)
    {
      JsonObject *call = json_array_get_object_element (calls, i);
      gboolean cycle = json_object_get_boolean_member_with_default (call, "cycle", FALSE);
      guint to = add_definition (model, call);

      lode_graph_model_add_edge (model, from, to, 1, cycle);
      if (json_object_has_member (call, "calls"))
        add_flow (model, to, json_object_get_array_member (call, "calls"));
    }
}

static void
flow_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) flow = NULL;
  Load *load = g_task_get_task_data (task);
  JsonObject *root;

  flow = lode_connection_call_tool_finish (LODE_CONNECTION (object), result, &error);
  if (flow == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  root = json_object_get_object_member (flow, "root");
  if (root != NULL)
    add_flow (load->model, add_definition (load->model, root),
              json_object_get_array_member (root, "calls"));
  g_task_return_pointer (task, g_steal_pointer (&load->model), g_object_unref);
}

static void
symbol_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) report = NULL;
  Load *load = g_task_get_task_data (task);
  JsonObject *symbol;
  JsonArray *callers;
  JsonObject *arguments;
  guint focus;

  report = lode_connection_call_tool_finish (LODE_CONNECTION (object), result, &error);
  if (report == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  symbol = json_object_get_object_member (report, "symbol");
  if (symbol == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                               _("No definition %s in %s"), load->name, load->file);
      return;
    }

  focus = add_definition (load->model, symbol);
  callers = json_object_get_array_member (report, "callers");
  for (guint i = 0; i < json_array_get_length (callers); i++)
    {
      JsonObject *caller = json_array_get_object_element (callers, i);

      /* A call at a file's top level has no definition to draw. */
      if (json_object_get_int_member (caller, "startLine") > 0)
        lode_graph_model_add_edge (load->model, add_definition (load->model, caller), focus, 1,
                                   FALSE);
    }

  arguments = call_arguments (load->root, "entrypoint", load->name, load->file);
  json_object_set_int_member (arguments, "depth",
                              LODE_CALL_GRAPH_SOURCE (g_task_get_source_object (task))->depth);
  lode_connection_call_tool (LODE_CALL_GRAPH_SOURCE (g_task_get_source_object (task))->connection,
                             "codebase_flow", arguments, g_task_get_cancellable (task), flow_cb,
                             g_object_ref (task));
}

static void
call_load_async (LodeGraphSource     *source,
                 const char          *root,
                 const char          *key,
                 GCancellable        *cancellable,
                 GAsyncReadyCallback  callback,
                 gpointer             user_data)
{
  LodeCallGraphSource *self = LODE_CALL_GRAPH_SOURCE (source);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  Load *load = g_new0 (Load, 1);
  JsonObject *arguments;

  g_task_set_source_tag (task, call_load_async);
  g_task_set_task_data (task, load, (GDestroyNotify) load_free);
  if (!lode_call_graph_source_split_key (key, &load->file, &load->name))
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                               _("“%s” is not a definition’s key"), key);
      return;
    }
  load->root = g_strdup (root);
  load->model = lode_graph_model_new (key);

  arguments = call_arguments (root, "name", load->name, load->file);
  json_object_set_int_member (arguments, "limit", CALLER_LIMIT);
  lode_connection_call_tool (self->connection, "codebase_symbol", arguments, cancellable,
                             symbol_cb, g_steal_pointer (&task));
}

static LodeGraphModel *
call_load_finish (LodeGraphSource  *source,
                  GAsyncResult     *result,
                  GError          **error)
{
  g_return_val_if_fail (g_task_is_valid (result, source), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

typedef struct
{
  char *key;
  guint distance;
} Reached;

static int
compare_reached (gconstpointer a,
                 gconstpointer b)
{
  const Reached *ra = a;
  const Reached *rb = b;

  return (ra->distance > rb->distance) - (ra->distance < rb->distance);
}

static void
add_reached (GArray    *reached,
             JsonArray *callers)
{
  for (guint i = 0; i < json_array_get_length (callers); i++)
    {
      JsonObject *caller = json_array_get_object_element (callers, i);
      Reached item = { lode_call_graph_source_make_key (
                         json_object_get_string_member (caller, "path"),
                         lode_call_graph_source_name_of (caller)),
                       json_object_get_int_member (caller, "distance") };

      g_array_append_val (reached, item);
    }
}

static void
impact_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) impact = NULL;
  g_autoptr(GArray) reached = g_array_new (FALSE, FALSE, sizeof (Reached));
  GStrv keys;
  JsonArray *files;

  impact = lode_connection_call_tool_finish (LODE_CONNECTION (object), result, &error);
  if (impact == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  files = json_object_get_array_member (impact, "files");
  for (guint i = 0; i < json_array_get_length (files); i++)
    add_reached (reached, json_object_get_array_member (json_array_get_object_element (files, i),
                                                        "callers"));
  add_reached (reached, json_object_get_array_member (impact, "tests"));
  g_array_sort (reached, compare_reached);

  keys = g_new0 (char *, reached->len + 1);
  for (guint i = 0; i < reached->len; i++)
    keys[i] = g_array_index (reached, Reached, i).key;
  g_task_return_pointer (task, keys, (GDestroyNotify) g_strfreev);
}

static void
call_reach_async (LodeGraphSource     *source,
                  const char          *root,
                  const char          *key,
                  GCancellable        *cancellable,
                  GAsyncReadyCallback  callback,
                  gpointer             user_data)
{
  LodeCallGraphSource *self = LODE_CALL_GRAPH_SOURCE (source);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  g_autofree char *file = NULL;
  g_autofree char *name = NULL;
  JsonObject *arguments;

  g_task_set_source_tag (task, call_reach_async);
  if (!lode_call_graph_source_split_key (key, &file, &name))
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                               _("“%s” is not a definition’s key"), key);
      return;
    }
  arguments = call_arguments (root, "symbol", name, file);
  json_object_set_int_member (arguments, "depth", REACH_DEPTH);
  lode_connection_call_tool (self->connection, "codebase_impact", arguments, cancellable,
                             impact_cb, g_steal_pointer (&task));
}

static GStrv
call_reach_finish (LodeGraphSource  *source,
                   GAsyncResult     *result,
                   GError          **error)
{
  g_return_val_if_fail (g_task_is_valid (result, source), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
lode_call_graph_source_iface_init (LodeGraphSourceInterface *iface)
{
  iface->load_async = call_load_async;
  iface->load_finish = call_load_finish;
  iface->reach_async = call_reach_async;
  iface->reach_finish = call_reach_finish;
}

static void
lode_call_graph_source_finalize (GObject *object)
{
  LodeCallGraphSource *self = (LodeCallGraphSource *)object;

  g_clear_object (&self->connection);

  G_OBJECT_CLASS (lode_call_graph_source_parent_class)->finalize (object);
}

static void
lode_call_graph_source_class_init (LodeCallGraphSourceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = lode_call_graph_source_finalize;
}

static void
lode_call_graph_source_init (LodeCallGraphSource *self)
{
  self->depth = LODE_CALL_GRAPH_DEPTH;
}
