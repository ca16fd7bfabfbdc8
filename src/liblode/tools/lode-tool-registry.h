/* lode-tool-registry.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "lode-engine.h"

G_BEGIN_DECLS

/**
 * LodeToolFlags:
 * @LODE_TOOL_READ_ONLY: the tool changes nothing (MCP `readOnlyHint`)
 * @LODE_TOOL_DESTRUCTIVE: the tool may delete data (MCP `destructiveHint`)
 * @LODE_TOOL_IDEMPOTENT: calling it twice has the effect of calling it once (`idempotentHint`)
 * @LODE_TOOL_OPEN_WORLD: the tool reaches outside the machine (`openWorldHint`)
 * @LODE_TOOL_MAIN_CONTEXT: the handler runs on the caller's main context, not on a worker
 *   thread: it works with what lives there (watchers); it must be quick
 * @LODE_TOOL_EXACT_PROJECT: the tool makes an index of exactly the tree its projectPath
 *   names, even inside an indexed tree (no MCP hint)
 */
typedef enum
{
  LODE_TOOL_READ_ONLY     = 1 << 0,
  LODE_TOOL_DESTRUCTIVE   = 1 << 1,
  LODE_TOOL_IDEMPOTENT    = 1 << 2,
  LODE_TOOL_OPEN_WORLD    = 1 << 3,
  LODE_TOOL_MAIN_CONTEXT  = 1 << 4,
  LODE_TOOL_EXACT_PROJECT = 1 << 5,
} LodeToolFlags;

/* The largest arguments a tool takes, written as compact JSON. */
#define LODE_TOOL_ARGUMENTS_MAX_BYTES (1024 * 1024)

typedef struct _LodeToolCall LodeToolCall;

/**
 * LodeToolFunc:
 * @call: the invocation: engine, arguments, default project, progress, cancellable
 * @error: set when the tool fails; the message is shown to the agent as is, so it says
 *   what to do next ("No index for /x: call codebase_index first")
 *
 * Runs on a worker thread (or, with %LODE_TOOL_MAIN_CONTEXT, on the caller's main context).
 * Returns the structured result, an object valid against the tool's output schema.
 */
typedef JsonObject *(*LodeToolFunc) (LodeToolCall  *call,
                                     GError       **error);

/**
 * LodeToolFormatFunc:
 * @result: what the #LodeToolFunc returned
 *
 * Returns: concise markdown for people and agents reading text rather than structure.
 */
typedef char *(*LodeToolFormatFunc) (JsonObject *result);

/**
 * LodeToolWriteFunc:
 * @call: the invocation, as for a #LodeToolFunc
 * @structured: where to write the structured result, as compact JSON: an object valid
 *   against the tool's output schema
 * @text: where to write its markdown
 * @error: set when the tool fails, as for a #LodeToolFunc
 *
 * A handler that writes its result as text, for a tool whose result is large and called
 * often (codebase_grep's lines): a JsonObject tree of it, read back for the markdown and
 * written out again for the client, cost more than finding the lines.
 *
 * Returns: whether the tool succeeded
 */
typedef gboolean (*LodeToolWriteFunc) (LodeToolCall  *call,
                                       GString       *structured,
                                       GString       *text,
                                       GError       **error);

/**
 * LodeTool:
 * @name: `codebase_search`, …; compatible with SocratiCode's names
 * @title: a short human title
 * @description: what it does and when to use it, for agents
 * @input_schema: JSON Schema (an object schema, as text) of the arguments
 * @output_schema: JSON Schema (as text) of the structured result
 * @flags: behaviour hints
 * @func: the handler
 * @format: the markdown rendering of a result
 * @write: a handler that writes its result as text, instead of @func and @format
 *
 * A tool, defined once for every surface: MCP `tools/list` and `tools/call`, the daemon's
 * `CallTool`, and the CLI.
 */
typedef struct
{
  const char         *name;
  const char         *title;
  const char         *description;
  const char         *input_schema;
  const char         *output_schema;
  LodeToolFlags       flags;
  LodeToolFunc        func;
  LodeToolFormatFunc  format;
  LodeToolWriteFunc   write;
} LodeTool;

/**
 * LodeToolResult:
 * @structured: (nullable): the structured result; %NULL when @is_error, or when the tool
 *   wrote it as @structured_json (lode_tool_result_get_structured() reads it then)
 * @text: markdown for the result, or the error message when @is_error
 * @is_error: the tool ran and failed, or its arguments did not validate; the message says why
 * @structured_json: (nullable): the structured result as compact JSON, from a
 *   #LodeToolWriteFunc
 */
typedef struct
{
  JsonObject *structured;
  char       *text;
  gboolean    is_error;
  char       *structured_json;
} LodeToolResult;

void        lode_tool_result_free    (LodeToolResult       *result);
JsonObject *lode_tool_result_get_structured (LodeToolResult *result);
JsonObject *lode_tool_result_to_json (const LodeToolResult *result);
void        lode_tool_result_write_json (const LodeToolResult *result,
                                         GString              *out);
LodeToolResult *lode_tool_result_from_json (JsonObject    *object,
                                            GError       **error);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeToolResult, lode_tool_result_free)

/**
 * LodeToolProgressFunc:
 * @done: units done
 * @total: units in all, 0 when unknown
 * @message: (nullable): what is happening
 *
 * Called on the main context of the caller of lode_tool_registry_call_async().
 */
typedef void (*LodeToolProgressFunc) (double      done,
                                      double      total,
                                      const char *message,
                                      gpointer    user_data);

/* For handlers (on their worker thread). */
LodeEngine   *lode_tool_call_get_engine          (LodeToolCall  *call);
JsonObject   *lode_tool_call_get_arguments       (LodeToolCall  *call);
GCancellable *lode_tool_call_get_cancellable     (LodeToolCall  *call);
char         *lode_tool_call_dup_project_path    (LodeToolCall  *call,
                                                  GError       **error);
void          lode_tool_call_report_progress     (LodeToolCall  *call,
                                                  double         done,
                                                  double         total,
                                                  const char    *message);
LodeProject  *lode_tool_call_open_indexed        (LodeToolCall  *call,
                                                  const char    *path,
                                                  GError       **error);
LodeJobInfo  *lode_tool_call_wait_for_job        (LodeToolCall  *call,
                                                  const char    *root,
                                                  const char    *project_id,
                                                  GError       **error);

#define LODE_TYPE_TOOL_REGISTRY (lode_tool_registry_get_type ())
G_DECLARE_FINAL_TYPE (LodeToolRegistry, lode_tool_registry, LODE, TOOL_REGISTRY, GObject)

LodeToolRegistry  *lode_tool_call_get_registry   (LodeToolCall         *call);

LodeToolRegistry  *lode_tool_registry_new         (LodeEngine           *engine);
LodeEngine        *lode_tool_registry_get_engine  (LodeToolRegistry     *self);
JsonNode          *lode_tool_registry_get_input_schema  (LodeToolRegistry *self,
                                                         const char       *name);
JsonNode          *lode_tool_registry_get_output_schema (LodeToolRegistry *self,
                                                         const char       *name);
void               lode_tool_registry_add         (LodeToolRegistry     *self,
                                                   const LodeTool       *tool);
void               lode_tool_registry_replace     (LodeToolRegistry     *self,
                                                   const LodeTool       *tool);
const LodeTool    *lode_tool_registry_lookup      (LodeToolRegistry     *self,
                                                   const char           *name);
GPtrArray         *lode_tool_registry_list        (LodeToolRegistry     *self);
gboolean           lode_tool_registry_check_arguments (LodeToolRegistry *self,
                                                       const char       *name,
                                                       JsonObject       *arguments,
                                                       GError          **error);
void               lode_tool_registry_call_async  (LodeToolRegistry     *self,
                                                   const char           *name,
                                                   JsonObject           *arguments,
                                                   const char           *default_project,
                                                   LodeToolProgressFunc  progress,
                                                   gpointer              progress_data,
                                                   GDestroyNotify        progress_data_destroy,
                                                   GCancellable         *cancellable,
                                                   GAsyncReadyCallback   callback,
                                                   gpointer              user_data);
LodeToolResult    *lode_tool_registry_call_finish (LodeToolRegistry     *self,
                                                   GAsyncResult         *result,
                                                   GError              **error);
LodeToolResult    *lode_tool_registry_call        (LodeToolRegistry     *self,
                                                   const char           *name,
                                                   JsonObject           *arguments,
                                                   const char           *default_project,
                                                   GCancellable         *cancellable,
                                                   GError              **error);

G_END_DECLS
