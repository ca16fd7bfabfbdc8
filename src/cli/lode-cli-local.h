/* lode-cli-local.h — the `lode` commands that need no engine (lode-cli-local.c)
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

int lode_cli_model  (int    argc,
                    char **argv);
int lode_cli_embed  (int    argc,
                    char **argv);
int lode_cli_secret (int    argc,
                    char **argv);

G_END_DECLS
