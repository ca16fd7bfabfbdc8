/* fuzz-tool-arguments.c — the validation of tool arguments (lode_json_parse, then
 * lode_tool_registry_check_arguments against the real tools' input schemas)
 *
 * An input is a tool name, a newline, and arguments as JSON text. Arguments that pass must
 * pass again after the trip lode-mcp makes them take to the daemon (written with
 * lode_json_to_string, read with lode_json_parse): one verdict whichever process runs a tool.
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "fuzz-common.h"
#include "lode-error.h"
#include "lode-json.h"
#include "lode-tools.h"

static LodeToolRegistry *registry;
static GPtrArray *tools;

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  g_autoptr(LodeConfig) config = lode_config_new_default ();
  g_autoptr(LodeEngine) engine = NULL;

  engine = lode_engine_new (config);
  registry = lode_tools_new_registry (engine);
  tools = lode_tool_registry_list (registry);
  return 0;
}

static void
check (const char *name,
       JsonObject *arguments)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonNode) back = NULL;
  g_autofree char *text = NULL;

  if (!lode_tool_registry_check_arguments (registry, name, arguments, &error))
    {
      g_assert_true (g_error_matches (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT) ||
                     g_error_matches (error, LODE_ERROR, LODE_ERROR_NOT_FOUND));
      g_assert_true (g_utf8_validate (error->message, -1, NULL));
      return;
    }

  node = json_node_init_object (json_node_alloc (), arguments);
  text = lode_json_to_string (node, FALSE);
  back = lode_json_parse (text, -1, &error);
  g_assert_no_error (error);
  g_assert_true (lode_tool_registry_check_arguments (registry, name,
                                                     json_node_get_object (back), &error));
  g_assert_no_error (error);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *name = NULL;
  g_autofree char *json = NULL;
  g_autoptr(JsonNode) root = NULL;
  gsize len;

  fuzz_split_first_line (data, size, &name, &json, &len);
  root = lode_json_parse (json, len, NULL);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return 0;

  if (lode_tool_registry_lookup (registry, name) != NULL)
    check (name, json_node_get_object (root));
  else
    for (guint i = 0; i < tools->len; i++)
      check (((const LodeTool *) g_ptr_array_index (tools, i))->name,
             json_node_get_object (root));

  return 0;
}
