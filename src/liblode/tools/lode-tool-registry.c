/* lode-tool-registry.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-tool-registry"

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "lode-error.h"
#include "lode-json.h"
#include "lode-json-schema.h"
#include "lode-tool-registry.h"

/*
 * Every tool once, for every surface. A call validates its arguments against the tool's
 * input schema on the caller's thread (invalid arguments are an is_error result, like any
 * failure an agent can fix), then runs the handler on a GTask worker thread (or, for the few
 * tools flagged LODE_TOOL_MAIN_CONTEXT, right there); progress hops back to the caller's main
 * context.
 */

typedef struct
{
  const LodeTool *tool;
  JsonNode       *input_schema;
  JsonNode       *output_schema;
} Entry;

struct _LodeToolRegistry
{
  GObject     parent_instance;
  LodeEngine *engine;
  GPtrArray  *entries;   /* Entry, in the order tools were added */
  GHashTable *by_name;   /* name → Entry */
};

G_DEFINE_FINAL_TYPE (LodeToolRegistry, lode_tool_registry, G_TYPE_OBJECT)

/* Progress reports go to the caller's main context; after the call finished, none. */
typedef struct
{
  GMainContext         *context;
  LodeToolProgressFunc  func;
  gpointer              data;
  GDestroyNotify        destroy;
  gint                  closed;   /* atomic */
} ProgressSink;

struct _LodeToolCall
{
  LodeToolRegistry *registry;
  const LodeTool   *tool;
  JsonObject       *arguments;
  char             *default_project;
  GCancellable     *cancellable;
  ProgressSink     *sink;
};

typedef struct
{
  ProgressSink *sink;
  double        done;
  double        total;
  char         *message;
} ProgressReport;

static void
entry_free (Entry *entry)
{
  json_node_unref (entry->input_schema);
  json_node_unref (entry->output_schema);
  g_free (entry);
}

static void
progress_sink_clear (ProgressSink *sink)
{
  if (sink->destroy != NULL)
    sink->destroy (sink->data);
  g_main_context_unref (sink->context);
}

static void
progress_sink_unref (ProgressSink *sink)
{
  g_atomic_rc_box_release_full (sink, (GDestroyNotify) progress_sink_clear);
}

static void
progress_report_free (ProgressReport *report)
{
  progress_sink_unref (report->sink);
  g_free (report->message);
  g_free (report);
}

static gboolean
progress_report_deliver_cb (gpointer user_data)
{
  ProgressReport *report = user_data;

  if (!g_atomic_int_get (&report->sink->closed))
    report->sink->func (report->done, report->total, report->message, report->sink->data);

  return G_SOURCE_REMOVE;
}

static void
lode_tool_call_free (LodeToolCall *call)
{
  g_clear_object (&call->registry);
  g_clear_pointer (&call->arguments, json_object_unref);
  g_clear_object (&call->cancellable);
  g_clear_pointer (&call->sink, progress_sink_unref);
  g_free (call->default_project);
  g_free (call);
}

void
lode_tool_result_free (LodeToolResult *result)
{
  if (result == NULL)
    return;

  g_clear_pointer (&result->structured, json_object_unref);
  g_free (result->text);
  g_free (result->structured_json);
  g_free (result);
}

/* The structured result @structured_json holds: lode_json_parse() of what Lode wrote, which
 * only fails on a bug of the tool's writer. */
static JsonObject *
parse_structured (const LodeToolResult *result)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;

  node = lode_json_parse (result->structured_json, -1, &error);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_critical ("A tool wrote its structured result as invalid JSON: %s",
                  error != NULL ? error->message : "not an object");
      return json_object_new ();
    }
  return json_object_ref (json_node_get_object (node));
}

/**
 * lode_tool_result_get_structured:
 * @result: a #LodeToolResult
 *
 * The structured result, read from @structured_json the first time when the tool wrote it
 * as text.
 *
 * Returns: (transfer none) (nullable): the structured result; %NULL when @is_error
 */
JsonObject *
lode_tool_result_get_structured (LodeToolResult *result)
{
  g_return_val_if_fail (result != NULL, NULL);

  if (result->structured == NULL && result->structured_json != NULL)
    result->structured = parse_structured (result);
  return result->structured;
}

/**
 * lode_tool_result_to_json:
 * @result: a #LodeToolResult
 *
 * The result as an MCP `CallToolResult`: `content` (one text item, the markdown or the
 * error message), `structuredContent` when the tool succeeded, `isError`. What `lode-mcp`
 * sends and the daemon's `CallTool` returns.
 *
 * Returns: (transfer full): a new object
 */
JsonObject *
lode_tool_result_to_json (const LodeToolResult *result)
{
  JsonObject *object = json_object_new ();
  JsonArray *content = json_array_new ();
  JsonObject *text = json_object_new ();

  g_return_val_if_fail (result != NULL, object);

  json_object_set_string_member (text, "type", "text");
  json_object_set_string_member (text, "text", result->text);
  json_array_add_object_element (content, text);
  json_object_set_array_member (object, "content", content);
  if (result->structured != NULL)
    json_object_set_object_member (object, "structuredContent",
                                   json_object_ref (result->structured));
  else if (result->structured_json != NULL)
    json_object_set_object_member (object, "structuredContent", parse_structured (result));
  json_object_set_boolean_member (object, "isError", result->is_error);

  return object;
}

/**
 * lode_tool_result_write_json:
 * @result: a #LodeToolResult
 * @out: the text being written
 *
 * Appends lode_tool_result_to_json() as compact JSON, as lode_json_to_string() writes it,
 * without a tree when the tool wrote its structured result as text.
 */
void
lode_tool_result_write_json (const LodeToolResult *result,
                             GString              *out)
{
  g_return_if_fail (result != NULL && out != NULL);

  g_string_append (out, "{\"content\":[{\"type\":\"text\",\"text\":");
  lode_json_append_string (out, result->text);
  g_string_append (out, "}]");
  if (result->structured != NULL)
    {
      g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), result->structured);
      g_autofree char *json = lode_json_to_string (node, FALSE);

      g_string_append (out, ",\"structuredContent\":");
      g_string_append (out, json);
    }
  else if (result->structured_json != NULL)
    {
      g_string_append (out, ",\"structuredContent\":");
      g_string_append (out, result->structured_json);
    }
  g_string_append (out, result->is_error ? ",\"isError\":true}" : ",\"isError\":false}");
}

/**
 * lode_tool_result_from_json:
 * @object: an MCP CallToolResult, as lode_tool_result_to_json() writes it
 * @error: return location for a #GError
 *
 * Reads a result back, as it comes from another process (loded's CallTool).
 *
 * Returns: (transfer full) (nullable): the result, or %NULL if @object is not one
 */
LodeToolResult *
lode_tool_result_from_json (JsonObject  *object,
                            GError     **error)
{
  g_autoptr(LodeToolResult) result = g_new0 (LodeToolResult, 1);
  JsonNode *content = json_object_get_member (object, "content");
  JsonNode *structured = json_object_get_member (object, "structuredContent");
  JsonNode *is_error = json_object_get_member (object, "isError");
  JsonArray *items;

  g_return_val_if_fail (object != NULL, NULL);

  if (content == NULL || !JSON_NODE_HOLDS_ARRAY (content) ||
      (items = json_node_get_array (content), json_array_get_length (items) != 1) ||
      !JSON_NODE_HOLDS_OBJECT (json_array_get_element (items, 0)) ||
      json_object_get_string_member_with_default (json_array_get_object_element (items, 0),
                                                  "text", NULL) == NULL ||
      (structured != NULL && !JSON_NODE_HOLDS_OBJECT (structured)) ||
      is_error == NULL || json_node_get_value_type (is_error) != G_TYPE_BOOLEAN)
    {
      g_set_error_literal (error, LODE_ERROR, LODE_ERROR_FAILED,
                           "The answer is not a tool result");
      return NULL;
    }

  result->text = g_strdup (json_object_get_string_member (json_array_get_object_element (items,
                                                                                          0),
                                                          "text"));
  result->is_error = json_node_get_boolean (is_error);
  if (structured != NULL)
    result->structured = json_object_ref (json_node_get_object (structured));

  return g_steal_pointer (&result);
}

static void
lode_tool_registry_finalize (GObject *object)
{
  LodeToolRegistry *self = (LodeToolRegistry *)object;

  g_clear_object (&self->engine);
  g_clear_pointer (&self->by_name, g_hash_table_unref);
  g_clear_pointer (&self->entries, g_ptr_array_unref);

  G_OBJECT_CLASS (lode_tool_registry_parent_class)->finalize (object);
}

static void
lode_tool_registry_class_init (LodeToolRegistryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = lode_tool_registry_finalize;
}

static void
lode_tool_registry_init (LodeToolRegistry *self)
{
  self->entries = g_ptr_array_new_with_free_func ((GDestroyNotify) entry_free);
  self->by_name = g_hash_table_new (g_str_hash, g_str_equal);
}

/**
 * lode_tool_registry_new:
 * @engine: the engine the tools work on
 *
 * An empty registry: tool families add themselves (see lode_tools_new_registry()).
 *
 * Returns: (transfer full): a new registry
 */
LodeToolRegistry *
lode_tool_registry_new (LodeEngine *engine)
{
  LodeToolRegistry *self;

  g_return_val_if_fail (LODE_IS_ENGINE (engine), NULL);

  self = g_object_new (LODE_TYPE_TOOL_REGISTRY, NULL);
  self->engine = g_object_ref (engine);

  return self;
}

/**
 * lode_tool_registry_get_engine:
 * @self: a #LodeToolRegistry
 *
 * Returns: (transfer none): the engine the tools work on
 */
LodeEngine *
lode_tool_registry_get_engine (LodeToolRegistry *self)
{
  g_return_val_if_fail (LODE_IS_TOOL_REGISTRY (self), NULL);
  return self->engine;
}

static JsonNode *
parse_schema (const char *name,
              const char *text)
{
  g_autoptr(GError) error = NULL;
  JsonNode *node = json_from_string (text, &error);

  /* Schemas are constants in our sources: a broken one is a programmer error. */
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    g_error ("Tool %s has an invalid schema: %s", name,
             error != NULL ? error->message : "not an object");

  return node;
}

/**
 * lode_tool_registry_add:
 * @self: a #LodeToolRegistry
 * @tool: (transfer none): a tool; it must stay valid as long as @self (a static constant)
 *
 * Adds @tool. Its schemas are parsed once here.
 */
void
lode_tool_registry_add (LodeToolRegistry *self,
                        const LodeTool   *tool)
{
  Entry *entry;

  g_return_if_fail (LODE_IS_TOOL_REGISTRY (self));
  g_return_if_fail (tool != NULL && tool->name != NULL);
  g_return_if_fail ((tool->func != NULL && tool->format != NULL) != (tool->write != NULL));
  g_return_if_fail (tool->input_schema != NULL && tool->output_schema != NULL);
  g_return_if_fail (!g_hash_table_contains (self->by_name, tool->name));

  entry = g_new0 (Entry, 1);
  entry->tool = tool;
  entry->input_schema = parse_schema (tool->name, tool->input_schema);
  entry->output_schema = parse_schema (tool->name, tool->output_schema);
  g_ptr_array_add (self->entries, entry);
  g_hash_table_insert (self->by_name, (gpointer) tool->name, entry);
}

/**
 * lode_tool_registry_replace:
 * @self: a #LodeToolRegistry
 * @tool: (transfer none): a tool of the same name as one added before; it must outlive @self
 *
 * Puts @tool in place of the tool of its name, in the same position: a front end that can
 * do more than liblode alone (the daemon watches trees) gives the tool its own handler.
 * Call it before the registry runs any tool.
 */
void
lode_tool_registry_replace (LodeToolRegistry *self,
                            const LodeTool   *tool)
{
  Entry *entry;

  g_return_if_fail (LODE_IS_TOOL_REGISTRY (self));
  g_return_if_fail (tool != NULL && tool->name != NULL);
  g_return_if_fail ((tool->func != NULL && tool->format != NULL) != (tool->write != NULL));

  entry = g_hash_table_lookup (self->by_name, tool->name);
  g_return_if_fail (entry != NULL);

  g_hash_table_remove (self->by_name, entry->tool->name);
  json_node_unref (entry->input_schema);
  json_node_unref (entry->output_schema);
  entry->tool = tool;
  entry->input_schema = parse_schema (tool->name, tool->input_schema);
  entry->output_schema = parse_schema (tool->name, tool->output_schema);
  g_hash_table_insert (self->by_name, (gpointer) tool->name, entry);
}

/**
 * lode_tool_registry_lookup:
 * @self: a #LodeToolRegistry
 * @name: a tool name
 *
 * Returns: (transfer none) (nullable): the tool called @name
 */
const LodeTool *
lode_tool_registry_lookup (LodeToolRegistry *self,
                           const char       *name)
{
  Entry *entry;

  g_return_val_if_fail (LODE_IS_TOOL_REGISTRY (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  entry = g_hash_table_lookup (self->by_name, name);
  return entry != NULL ? entry->tool : NULL;
}

/**
 * lode_tool_registry_list:
 * @self: a #LodeToolRegistry
 *
 * Returns: (transfer container) (element-type LodeTool): every tool, in a stable order
 */
GPtrArray *
lode_tool_registry_list (LodeToolRegistry *self)
{
  GPtrArray *tools;

  g_return_val_if_fail (LODE_IS_TOOL_REGISTRY (self), NULL);

  tools = g_ptr_array_sized_new (self->entries->len);
  for (guint i = 0; i < self->entries->len; i++)
    g_ptr_array_add (tools, (gpointer) ((Entry *) g_ptr_array_index (self->entries, i))->tool);

  return tools;
}

static Entry *
lookup_entry (LodeToolRegistry *self,
              const char       *name)
{
  g_return_val_if_fail (LODE_IS_TOOL_REGISTRY (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  return g_hash_table_lookup (self->by_name, name);
}

/**
 * lode_tool_registry_get_input_schema:
 * @self: a #LodeToolRegistry
 * @name: a tool name
 *
 * Returns: (transfer none) (nullable): the parsed input schema of the tool called @name
 */
JsonNode *
lode_tool_registry_get_input_schema (LodeToolRegistry *self,
                                     const char       *name)
{
  Entry *entry = lookup_entry (self, name);

  return entry != NULL ? entry->input_schema : NULL;
}

/**
 * lode_tool_registry_get_output_schema:
 * @self: a #LodeToolRegistry
 * @name: a tool name
 *
 * Returns: (transfer none) (nullable): the parsed output schema of the tool called @name
 */
JsonNode *
lode_tool_registry_get_output_schema (LodeToolRegistry *self,
                                      const char       *name)
{
  Entry *entry = lookup_entry (self, name);

  return entry != NULL ? entry->output_schema : NULL;
}

/**
 * lode_tool_call_get_registry:
 * @call: a #LodeToolCall
 *
 * Returns: (transfer none): the registry that runs @call
 */
LodeToolRegistry *
lode_tool_call_get_registry (LodeToolCall *call)
{
  g_return_val_if_fail (call != NULL, NULL);
  return call->registry;
}

LodeEngine *
lode_tool_call_get_engine (LodeToolCall *call)
{
  g_return_val_if_fail (call != NULL, NULL);
  return call->registry->engine;
}

/**
 * lode_tool_call_get_arguments:
 * @call: a #LodeToolCall
 *
 * Returns: (transfer none): the arguments; valid against the tool's input schema
 */
JsonObject *
lode_tool_call_get_arguments (LodeToolCall *call)
{
  g_return_val_if_fail (call != NULL, NULL);
  return call->arguments;
}

GCancellable *
lode_tool_call_get_cancellable (LodeToolCall *call)
{
  g_return_val_if_fail (call != NULL, NULL);
  return call->cancellable;
}

/* Whether @root is the root of a project of @projects_dir: its folder, named by the root's
 * id (lode_project_id_for_path()), holds a root file that names it. */
static gboolean
is_project_root (const char *projects_dir,
                 const char *root)
{
  g_autofree char *id = lode_project_id_for_path (root);
  g_autofree char *root_file = g_build_filename (projects_dir, id, "root", NULL);
  g_autofree char *contents = NULL;

  return g_file_get_contents (root_file, &contents, NULL, NULL) &&
         strcmp (contents, root) == 0;
}

/* The indexed tree @path belongs to: @path itself when it is a project's root, else the
 * nearest enclosing root, so that a subfolder or a file of an indexed tree means that tree.
 * A path in no indexed tree stays as it is (codebase_index makes it a project). Every call
 * of a tool comes here: the path and its parents are looked up by id, a file each, rather
 * than every project's root file read. */
static char *
route_to_indexed (LodeEngine *engine,
                  const char *path)
{
  g_autofree char *real = realpath (path, NULL);
  g_autofree char *projects_dir = NULL;

  if (real == NULL)
    return g_strdup (path);

  projects_dir = g_build_filename (lode_engine_get_config (engine)->data_dir, "projects", NULL);
  for (char *end = real + strlen (real); ; )
    {
      if (is_project_root (projects_dir, real))
        return g_steal_pointer (&real);
      /* The parent: cut at the last slash, keeping "/" itself. */
      while (end > real && *end != '/')
        end--;
      if (end == real)
        {
          if (real[1] == '\0')
            break;
          real[1] = '\0';
        }
      else
        *end = '\0';
    }

  return g_strdup (path);
}

/**
 * lode_tool_call_dup_project_path:
 * @call: a #LodeToolCall
 * @error: return location for a #GError
 *
 * The project a call is about: its `projectPath` argument (an absolute path or a `file://`
 * URI), else the default project of the surface (for MCP, the client's root), else the
 * working directory; a folder or a file inside an indexed tree stands for that tree (except
 * for tools that make or delete an index, which act on exactly the tree named). A
 * relative `projectPath` is refused: the working directory of a server is not the agent's,
 * so resolving it would pick a tree nobody meant.
 *
 * Returns: (transfer full) (nullable): an absolute path
 */
char *
lode_tool_call_dup_project_path (LodeToolCall  *call,
                                 GError       **error)
{
  const char *argument = NULL;
  g_autofree char *path = NULL;

  g_return_val_if_fail (call != NULL, NULL);

  if (json_object_has_member (call->arguments, "projectPath"))
    argument = json_object_get_string_member (call->arguments, "projectPath");

  if (argument != NULL && g_str_has_prefix (argument, "file:"))
    {
      g_autoptr(GError) uri_error = NULL;
      g_autofree char *local = g_filename_from_uri (argument, NULL, &uri_error);

      if (local == NULL)
        {
          g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                       "Argument “projectPath” is not a local file URI (%s): %s", argument,
                       uri_error->message);
          return NULL;
        }
      path = g_canonicalize_filename (local, NULL);
    }
  else if (argument != NULL)
    {
      if (!g_path_is_absolute (argument))
        {
          g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                       "Argument “projectPath” must be an absolute path or a file:// URI "
                       "(got “%s”)", argument);
          return NULL;
        }
      path = g_canonicalize_filename (argument, NULL);
    }
  else if (call->default_project != NULL)
    path = g_strdup (call->default_project);
  else
    path = g_get_current_dir ();

  /* Making or deleting an index acts on exactly the tree named, never on one that
   * encloses it. */
  if (call->tool->flags & (LODE_TOOL_DESTRUCTIVE | LODE_TOOL_EXACT_PROJECT))
    return g_steal_pointer (&path);

  return route_to_indexed (lode_tool_call_get_engine (call), path);
}

/**
 * lode_tool_call_report_progress:
 * @call: a #LodeToolCall
 * @done: units done
 * @total: units in all, 0 when unknown
 * @message: (nullable): what is happening
 *
 * Reports progress to the caller, on its main context. Handlers rate-limit their reports:
 * each one may become a message to a client.
 */
void
lode_tool_call_report_progress (LodeToolCall *call,
                                double        done,
                                double        total,
                                const char   *message)
{
  ProgressReport *report;

  g_return_if_fail (call != NULL);

  if (call->sink == NULL)
    return;

  report = g_new0 (ProgressReport, 1);
  report->sink = g_atomic_rc_box_acquire (call->sink);
  report->done = done;
  report->total = total;
  report->message = g_strdup (message);
  g_main_context_invoke_full (call->sink->context, G_PRIORITY_DEFAULT,
                              progress_report_deliver_cb, report,
                              (GDestroyNotify) progress_report_free);
}

static gboolean
is_cancellation (const GError *error)
{
  return g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
         g_error_matches (error, LODE_ERROR, LODE_ERROR_CANCELLED);
}

static LodeToolResult *
error_result (const char *message)
{
  LodeToolResult *result = g_new0 (LodeToolResult, 1);

  result->text = g_strdup (message);
  result->is_error = TRUE;

  return result;
}

/**
 * lode_tool_registry_check_arguments:
 * @self: a #LodeToolRegistry
 * @name: the tool
 * @arguments: (nullable): its arguments; %NULL is the same as `{}`
 * @error: return location for a #GError
 *
 * Validates arguments as every call does, for front ends that hand a call on to another
 * process (lode-mcp to the daemon): the arguments must be valid against the tool's input
 * schema, and at most %LODE_TOOL_ARGUMENTS_MAX_BYTES written as compact JSON. Whichever
 * process runs the tool, the same arguments then get the same answer.
 *
 * Returns: %TRUE when @arguments may be passed to @name; %FALSE with %LODE_ERROR_NOT_FOUND
 *   for an unknown tool, %LODE_ERROR_INVALID_ARGUMENT with a message for the agent otherwise
 */
gboolean
lode_tool_registry_check_arguments (LodeToolRegistry  *self,
                                    const char        *name,
                                    JsonObject        *arguments,
                                    GError           **error)
{
  g_autoptr(JsonObject) empty = NULL;
  g_autoptr(JsonNode) instance = NULL;
  g_autofree char *text = NULL;
  Entry *entry;

  g_return_val_if_fail (LODE_IS_TOOL_REGISTRY (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  entry = g_hash_table_lookup (self->by_name, name);
  if (entry == NULL)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_FOUND, "Unknown tool “%s”", name);
      return FALSE;
    }

  if (arguments == NULL)
    arguments = empty = json_object_new ();
  instance = json_node_init_object (json_node_alloc (), arguments);
  if (!lode_json_schema_validate (entry->input_schema, instance, NULL, error))
    return FALSE;

  /* Valid arguments are small; this bounds what no schema keyword limits. */
  text = lode_json_to_string (instance, FALSE);
  if (strlen (text) > LODE_TOOL_ARGUMENTS_MAX_BYTES)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                   "The arguments of %s are %" G_GSIZE_FORMAT " bytes as JSON; the limit is %d",
                   name, strlen (text), LODE_TOOL_ARGUMENTS_MAX_BYTES);
      return FALSE;
    }

  return TRUE;
}

/* Runs on a worker thread, or for LODE_TOOL_MAIN_CONTEXT tools on the caller's thread. */
static void
lode_tool_registry_call_worker (GTask        *task,
                                gpointer      source_object,
                                gpointer      task_data,
                                GCancellable *cancellable)
{
  LodeToolCall *call = task_data;
  g_autoptr(JsonObject) structured = NULL;
  g_autoptr(GString) structured_json = NULL;
  g_autoptr(GString) text = NULL;
  g_autoptr(GError) error = NULL;
  LodeToolResult *result;
  gboolean done;

  if (g_task_return_error_if_cancelled (task))
    return;

  if (call->tool->write != NULL)
    {
      structured_json = g_string_sized_new (16 * 1024);
      text = g_string_sized_new (16 * 1024);
      done = call->tool->write (call, structured_json, text, &error);
    }
  else
    {
      structured = call->tool->func (call, &error);
      done = structured != NULL;
    }
  if (!done)
    {
      g_autofree char *message = NULL;

      if (is_cancellation (error) || g_cancellable_is_cancelled (cancellable))
        {
          g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                   "The call of %s was cancelled", call->tool->name);
          return;
        }
      /* liblode's own message names what a person types; an agent needs the tool. */
      if (g_error_matches (error, LODE_ERROR, LODE_ERROR_NOT_INDEXED))
        {
          g_autofree char *path = lode_tool_call_dup_project_path (call, NULL);

          message = g_strdup_printf ("%s is not indexed yet: call codebase_index first",
                                     path != NULL ? path : "The project");
        }
      g_task_return_pointer (task, error_result (message != NULL ? message : error->message),
                             (GDestroyNotify) lode_tool_result_free);
      return;
    }

  result = g_new0 (LodeToolResult, 1);
  result->structured = g_steal_pointer (&structured);
  if (structured_json != NULL)
    result->structured_json = g_string_free (g_steal_pointer (&structured_json), FALSE);
  /* Tools that take `output_format` give their text as JSON when asked. */
  if (g_strcmp0 (json_object_get_string_member_with_default (call->arguments, "output_format",
                                                             NULL), "json") == 0)
    {
      g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (),
                                                        lode_tool_result_get_structured (result));

      result->text = lode_json_to_string (node, TRUE);
    }
  else if (text != NULL)
    result->text = g_string_free (g_steal_pointer (&text), FALSE);
  else
    result->text = call->tool->format (result->structured);
  g_task_return_pointer (task, result, (GDestroyNotify) lode_tool_result_free);
}

/**
 * lode_tool_registry_call_async:
 * @self: a #LodeToolRegistry
 * @name: the tool
 * @arguments: (nullable): its arguments; %NULL is the same as `{}`
 * @default_project: (nullable): the project to use when @arguments name none
 * @progress: (nullable): called on the thread-default main context of the caller
 * @progress_data: data for @progress
 * @progress_data_destroy: (nullable): frees @progress_data once no more progress can come
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the call ends
 * @user_data: data for @callback
 *
 * Calls a tool. A tool whose arguments include `"output_format": "json"` gets the structured
 * result as its text, instead of the markdown. An unknown tool fails with
 * %LODE_ERROR_NOT_FOUND, a cancelled call with
 * %G_IO_ERROR_CANCELLED; everything else (invalid arguments, a failing handler) is a
 * #LodeToolResult with @is_error set and a message for the agent.
 */
void
lode_tool_registry_call_async (LodeToolRegistry     *self,
                               const char           *name,
                               JsonObject           *arguments,
                               const char           *default_project,
                               LodeToolProgressFunc  progress,
                               gpointer              progress_data,
                               GDestroyNotify        progress_data_destroy,
                               GCancellable         *cancellable,
                               GAsyncReadyCallback   callback,
                               gpointer              user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  LodeToolCall *call;

  g_return_if_fail (LODE_IS_TOOL_REGISTRY (self));
  g_return_if_fail (name != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, lode_tool_registry_call_async);

  call = g_new0 (LodeToolCall, 1);
  call->registry = g_object_ref (self);
  call->arguments = arguments != NULL ? json_object_ref (arguments) : json_object_new ();
  call->default_project = g_strdup (default_project);
  call->cancellable = cancellable != NULL ? g_object_ref (cancellable) : g_cancellable_new ();
  if (progress != NULL)
    {
      call->sink = g_atomic_rc_box_new0 (ProgressSink);
      call->sink->context = g_main_context_ref_thread_default ();
      call->sink->func = progress;
      call->sink->data = progress_data;
      call->sink->destroy = progress_data_destroy;
    }
  else if (progress_data_destroy != NULL)
    progress_data_destroy (progress_data);
  g_task_set_task_data (task, call, (GDestroyNotify) lode_tool_call_free);

  if (!lode_tool_registry_check_arguments (self, name, call->arguments, &error))
    {
      if (g_error_matches (error, LODE_ERROR, LODE_ERROR_NOT_FOUND))
        g_task_return_error (task, g_steal_pointer (&error));
      else
        g_task_return_pointer (task, error_result (error->message),
                               (GDestroyNotify) lode_tool_result_free);
      return;
    }
  call->tool = lode_tool_registry_lookup (self, name);

  if ((call->tool->flags & LODE_TOOL_MAIN_CONTEXT) != 0)
    lode_tool_registry_call_worker (task, self, call, cancellable);
  else
    g_task_run_in_thread (task, lode_tool_registry_call_worker);
}

/**
 * lode_tool_registry_call_finish:
 * @self: a #LodeToolRegistry
 * @result: the #GAsyncResult
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the result, or %NULL for an unknown tool or a
 *   cancelled call
 */
LodeToolResult *
lode_tool_registry_call_finish (LodeToolRegistry  *self,
                                GAsyncResult      *result,
                                GError           **error)
{
  LodeToolCall *call;

  g_return_val_if_fail (LODE_IS_TOOL_REGISTRY (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  /* Progress still queued on the main context after this point is dropped. */
  call = g_task_get_task_data (G_TASK (result));
  if (call->sink != NULL)
    g_atomic_int_set (&call->sink->closed, TRUE);

  return g_task_propagate_pointer (G_TASK (result), error);
}

typedef struct
{
  GMainContext   *context;
  LodeToolResult *result;
  GError         *error;
  gboolean        done;
} SyncCall;

static void
sync_call_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  SyncCall *sync = user_data;

  sync->result = lode_tool_registry_call_finish (LODE_TOOL_REGISTRY (object), result,
                                                 &sync->error);
  sync->done = TRUE;
  g_main_context_wakeup (sync->context);
}

/**
 * lode_tool_registry_call:
 * @self: a #LodeToolRegistry
 * @name: the tool
 * @arguments: (nullable): its arguments
 * @default_project: (nullable): the project to use when @arguments name none
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Calls a tool and waits, iterating a private main context. For the CLI and tests.
 *
 * Returns: (transfer full) (nullable): as lode_tool_registry_call_finish()
 */
LodeToolResult *
lode_tool_registry_call (LodeToolRegistry  *self,
                         const char        *name,
                         JsonObject        *arguments,
                         const char        *default_project,
                         GCancellable      *cancellable,
                         GError           **error)
{
  SyncCall sync = { 0 };

  g_return_val_if_fail (LODE_IS_TOOL_REGISTRY (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  sync.context = g_main_context_new ();
  g_main_context_push_thread_default (sync.context);
  lode_tool_registry_call_async (self, name, arguments, default_project, NULL, NULL, NULL,
                                 cancellable, sync_call_cb, &sync);
  while (!sync.done)
    g_main_context_iteration (sync.context, TRUE);
  g_main_context_pop_thread_default (sync.context);
  g_main_context_unref (sync.context);

  if (sync.error != NULL)
    g_propagate_error (error, sync.error);

  return sync.result;
}

/* Helpers for tool families -------------------------------------------------------- */

/* Progress reports reach clients as messages; one per PROGRESS_INTERVAL at most. */
#define PROGRESS_INTERVAL_USEC (100 * 1000)

/* Relays job progress to the caller as one monotonic figure: files done of files found.
 * Runs on the handler's thread (lode_engine_wait_index calls it there). */
typedef struct
{
  LodeToolCall   *call;
  gint64          last_report;
  LodeIndexPhase  last_phase;
} ProgressThrottle;

static void
job_progress_cb (const LodeIndexProgress *progress,
                 gpointer                 user_data)
{
  ProgressThrottle *throttle = user_data;
  gint64 now = g_get_monotonic_time ();
  g_autofree char *message = NULL;

  if (progress->phase == throttle->last_phase && progress->done != progress->total &&
      now - throttle->last_report < PROGRESS_INTERVAL_USEC)
    return;

  throttle->last_report = now;
  throttle->last_phase = progress->phase;
  switch (progress->phase)
    {
    case LODE_INDEX_PHASE_SCANNING:
      lode_tool_call_report_progress (throttle->call, 0, 0, "Scanning files");
      break;
    case LODE_INDEX_PHASE_INDEXING:
      message = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Indexed %u of %u file",
                                              "Indexed %u of %u files", progress->total),
                                 progress->done, progress->total);
      lode_tool_call_report_progress (throttle->call, progress->done, progress->total,
                                      message);
      break;
    case LODE_INDEX_PHASE_FINISHING:
      lode_tool_call_report_progress (throttle->call, progress->total, progress->total,
                                      "Finishing");
      break;
    case LODE_INDEX_PHASE_EMBEDDING:
      message = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Embedded %u of %u chunk",
                                              "Embedded %u of %u chunks", progress->total),
                                 progress->done, progress->total);
      lode_tool_call_report_progress (throttle->call, progress->done, progress->total,
                                      message);
      break;
    case LODE_INDEX_PHASE_WAITING:
      lode_tool_call_report_progress (throttle->call, 0, 0,
                                      "Waiting for another process that indexes this project");
      break;
    default:
      g_assert_not_reached ();
    }
}

/**
 * lode_tool_call_wait_for_job:
 * @call: the running call
 * @root: the project's tree, for messages
 * @project_id: the project
 * @error: return location for a #GError
 *
 * Waits for the job of @project_id, relaying its progress to the caller. Cancelling the call
 * stops the job: the request stood for the run.
 *
 * Returns: (transfer full) (nullable): the job as it ended, or %NULL with an error the agent
 *   can act on
 */
LodeJobInfo *
lode_tool_call_wait_for_job (LodeToolCall  *call,
                          const char    *root,
                          const char    *project_id,
                          GError       **error)
{
  LodeEngine *engine = lode_tool_call_get_engine (call);
  GCancellable *cancellable = lode_tool_call_get_cancellable (call);
  ProgressThrottle throttle = { call, 0, (LodeIndexPhase) -1 };
  g_autoptr(LodeJobInfo) job = NULL;

  job = lode_engine_wait_index (engine, project_id, cancellable, job_progress_cb, &throttle,
                                error);
  if (job == NULL)
    {
      if (g_cancellable_is_cancelled (cancellable))
        lode_engine_stop_index (engine, project_id);
      return NULL;
    }

  switch (job->state)
    {
    case LODE_JOB_STATE_SUCCEEDED:
      return g_steal_pointer (&job);
    case LODE_JOB_STATE_FAILED:
      g_set_error (error, LODE_ERROR, LODE_ERROR_FAILED, "%s", job->error);
      return NULL;
    case LODE_JOB_STATE_CANCELLED:
      g_set_error (error, LODE_ERROR, LODE_ERROR_FAILED,
                   "Indexing of %s was stopped before it finished; what was indexed is kept. "
                   "Call codebase_index to resume.", root);
      return NULL;
    case LODE_JOB_STATE_RUNNING:
    default:
      g_assert_not_reached ();
    }
}

/**
 * lode_tool_call_open_indexed:
 * @call: the running call
 * @path: the project's tree
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the project at @path, which must be indexed; else
 *   %LODE_ERROR_NOT_INDEXED, which the registry turns into a message naming codebase_index
 */
LodeProject *
lode_tool_call_open_indexed (LodeToolCall  *call,
                             const char    *path,
                             GError       **error)
{
  return lode_engine_open_project (lode_tool_call_get_engine (call), path, TRUE, error);
}
