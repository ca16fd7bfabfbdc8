/* lode-cli.h — what the command-line tool's files share
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* --json: only JSON on stdout. */
extern gboolean lode_cli_json;

void     lode_cli_print_error   (const GError    *error);
int      lode_cli_usage_error   (GOptionContext  *context,
                                 const char      *message);
gboolean lode_cli_parse_options (GOptionContext  *context,
                                 int             *argc,
                                 char          ***argv);
void     lode_cli_print_json    (JsonBuilder     *builder);

/* The commands that need no engine (lode-cli-local.c). */
int      lode_cli_model         (int              argc,
                                 char           **argv);
int      lode_cli_embed         (int              argc,
                                 char           **argv);
int      lode_cli_secret        (int              argc,
                                 char           **argv);

G_END_DECLS
