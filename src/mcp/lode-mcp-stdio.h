/* lode-mcp-stdio.h — MCP over stdin and stdout, one JSON message per line
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "lode-client.h"
#include "lode-tool-profile.h"

G_BEGIN_DECLS

#define LODE_TYPE_MCP_STDIO (lode_mcp_stdio_get_type ())
G_DECLARE_FINAL_TYPE (LodeMcpStdio, lode_mcp_stdio, LODE, MCP_STDIO, GObject)

void          lode_mcp_stdio_set_profile (LodeMcpStdio          *self,
                                          const LodeToolProfile *profile);
LodeMcpStdio *lode_mcp_stdio_new   (LodeClient       *client,
                                    GInputStream     *input,
                                    GOutputStream    *output);
void          lode_mcp_stdio_start (LodeMcpStdio     *self);
void          lode_mcp_stdio_stop  (LodeMcpStdio     *self);
void          lode_mcp_stdio_flush (LodeMcpStdio     *self);

G_END_DECLS
