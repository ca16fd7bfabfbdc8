/* lode-cli-common.c — the option, error and JSON output helpers every `lode` command uses
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-cli"

#include "config.h"

#include "lode-cli-common.h"
#include "lode-json.h"

gboolean lode_cli_json;

void
lode_cli_print_error (const GError *error)
{
  g_printerr ("lode: %s\n", error->message);
}

int
lode_cli_usage_error (GOptionContext *context,
                      const char     *message)
{
  g_autofree char *help = g_option_context_get_help (context, TRUE, NULL);

  g_printerr ("lode: %s\n\n%s", message, help);
  return 2;
}

gboolean
lode_cli_parse_options (GOptionContext  *context,
                        int             *argc,
                        char          ***argv)
{
  g_autoptr(GError) error = NULL;

  if (!g_option_context_parse (context, argc, argv, &error))
    {
      lode_cli_usage_error (context, error->message);
      return FALSE;
    }

  return TRUE;
}

void
lode_cli_print_json_node (JsonNode *root)
{
  g_autofree char *text = lode_json_to_string (root, TRUE);

  g_print ("%s\n", text);
}

void
lode_cli_print_json (JsonBuilder *builder)
{
  g_autoptr(JsonNode) root = json_builder_get_root (builder);

  lode_cli_print_json_node (root);
}
