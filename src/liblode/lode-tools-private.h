/* lode-tools-private.h — what the tool files of liblode share
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "lode-tool-registry.h"

G_BEGIN_DECLS

#define PROJECT_PATH_PROPERTY \
  "\"projectPath\": {\"type\": \"string\", \"minLength\": 1, \"description\": " \
  "\"Absolute path of the project. Defaults to the client's first root, then the server's " \
  "working directory.\"}"

#define PROJECT_ONLY_INPUT \
  "{\"type\": \"object\", \"properties\": {" PROJECT_PATH_PROPERTY "}, " \
  "\"additionalProperties\": false}"

LodeProject *_lode_tools_open_indexed (LodeToolCall  *call,
                                       const char    *path,
                                       GError       **error);
LodeJobInfo *_lode_tools_wait_for_job (LodeToolCall  *call,
                                       const char    *root,
                                       const char    *project_id,
                                       GError       **error);

G_END_DECLS
