/* fuzz-mcp.c — lode-mcp's stdio transport and session: the line reader, JSON-RPC validation,
 * every method, and the validation of tool arguments against the real tools' schemas
 *
 * An input is what a client writes on lode-mcp's stdin. The tools of the real registry are
 * there with their schemas, but their handlers are stubs: no tree is indexed or read. Every
 * line lode-mcp writes must be one valid JSON-RPC 2.0 message in valid UTF-8 without raw
 * control characters.
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>

#include "fuzz-common.h"
#include "lode-client.h"
#include "lode-json.h"
#include "lode-mcp-stdio.h"

static LodeClient *client;

static JsonObject *
stub_func (LodeToolCall  *call,
           GError       **error)
{
  return json_object_new ();
}

static char *
stub_format (JsonObject *result)
{
  return g_strdup ("");
}

static char *data_dir;

/* The stub tools write nothing there: the folder is empty when libFuzzer exits. */
static void
remove_data_dir (void)
{
  g_rmdir (data_dir);
}

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  g_autoptr(LodeConfig) config = NULL;
  g_autoptr(GPtrArray) tools = NULL;
  g_autoptr(GError) error = NULL;
  LodeToolRegistry *registry;

  data_dir = g_dir_make_tmp ("lode-fuzz-mcp-XXXXXX", NULL);
  atexit (remove_data_dir);
  g_setenv ("LODE_DATA_DIR", data_dir, TRUE);
  g_setenv ("LODE_NO_DAEMON", "1", TRUE);
  config = lode_config_new_default ();
  client = lode_client_new (config, LODE_CLIENT_IN_PROCESS, &error);
  g_assert_no_error (error);
  registry = lode_client_get_registry (client);

  tools = lode_tool_registry_list (registry);
  for (guint i = 0; i < tools->len; i++)
    {
      LodeTool *stub = g_memdup2 (g_ptr_array_index (tools, i), sizeof (LodeTool));

      stub->func = stub_func;
      stub->format = stub_format;
      stub->write = NULL;
      lode_tool_registry_replace (registry, stub);
    }

  return 0;
}

static void
closed_cb (LodeMcpStdio *stdio,
           gboolean     *closed)
{
  *closed = TRUE;
}

static void
check_line (const char *line,
            gsize       len)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) message = NULL;
  JsonObject *object;

  g_assert_true (g_utf8_validate_len (line, len, NULL));
  for (gsize i = 0; i < len; i++)
    g_assert_cmpint ((guchar) line[i], >=, 0x20);

  message = lode_json_parse (line, len, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (message));
  object = json_node_get_object (message);
  g_assert_cmpstr (json_object_get_string_member_with_default (object, "jsonrpc", ""), ==,
                   "2.0");
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GInputStream) input = NULL;
  g_autoptr(GOutputStream) output = NULL;
  g_autoptr(LodeMcpStdio) stdio = NULL;
  gboolean closed = FALSE;
  const char *out;
  gsize out_len;

  input = g_memory_input_stream_new_from_data (g_memdup2 (data, size), size, g_free);
  output = g_memory_output_stream_new_resizable ();
  stdio = lode_mcp_stdio_new (client, input, output);
  g_signal_connect (stdio, "closed", G_CALLBACK (closed_cb), &closed);

  lode_mcp_stdio_start (stdio);
  while (!closed)
    g_main_context_iteration (NULL, TRUE);
  /* As lode-mcp at the end of its input: cancel what runs, write what is queued. */
  lode_mcp_stdio_stop (stdio);
  lode_mcp_stdio_flush (stdio);
  while (g_main_context_iteration (NULL, FALSE))
    ;

  out = g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (output));
  out_len = g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (output));
  for (gsize start = 0; start < out_len;)
    {
      const char *nl = memchr (out + start, '\n', out_len - start);

      g_assert_nonnull (nl);
      check_line (out + start, nl - (out + start));
      start = nl - out + 1;
    }

  return 0;
}
