/* lode-tool-profile.h — the tool lists an MCP client is shown: Lode's, or another server's
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "lode-tool-registry.h"

G_BEGIN_DECLS

/* The profile lode-mcp uses without --profile or LODE_MCP_PROFILE. */
#define LODE_TOOL_PROFILE_DEFAULT "lode"

typedef struct _LodeToolProfile LodeToolProfile;

const LodeToolProfile *lode_tool_profile_lookup     (const char             *name);
const char            *lode_tool_profile_get_name   (const LodeToolProfile  *profile);
char                  *lode_tool_profile_dup_names  (void);
JsonArray             *lode_tool_profile_list_tools (const LodeToolProfile  *profile,
                                                     LodeToolRegistry       *registry);
gboolean               lode_tool_profile_has_tool   (const LodeToolProfile  *profile,
                                                     LodeToolRegistry       *registry,
                                                     const char             *name);
gboolean               lode_tool_profile_map_call   (const LodeToolProfile  *profile,
                                                     LodeToolRegistry       *registry,
                                                     const char             *name,
                                                     JsonObject             *arguments,
                                                     char                  **tool,
                                                     JsonObject            **tool_arguments,
                                                     gboolean               *json_text,
                                                     GError                **error);

JsonObject            *lode_tool_to_mcp_json        (LodeToolRegistry       *registry,
                                                     const LodeTool         *tool);

G_END_DECLS
