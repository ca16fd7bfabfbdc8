/* lode-cli-common.h — the option, error and JSON output helpers every `lode` command uses
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* --json: only JSON on stdout. */
extern gboolean lode_cli_json;

void     lode_cli_print_error     (const GError    *error);
int      lode_cli_usage_error     (GOptionContext  *context,
                                   const char      *message);
gboolean lode_cli_parse_options   (GOptionContext  *context,
                                   int             *argc,
                                   char          ***argv);
void     lode_cli_print_json_node (JsonNode        *root);
void     lode_cli_print_json      (JsonBuilder     *builder);

G_END_DECLS
