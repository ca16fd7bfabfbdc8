/* lode-mcp-http.h — MCP over Streamable HTTP, on 127.0.0.1 only
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "lode-client.h"
#include "lode-tool-profile.h"

G_BEGIN_DECLS

#define LODE_TYPE_MCP_HTTP (lode_mcp_http_get_type ())
G_DECLARE_FINAL_TYPE (LodeMcpHttp, lode_mcp_http, LODE, MCP_HTTP, GObject)

void         lode_mcp_http_set_profile (LodeMcpHttp           *self,
                                        const LodeToolProfile *profile);
LodeMcpHttp *lode_mcp_http_new      (LodeClient        *client,
                                     const char        *token);
gboolean     lode_mcp_http_listen   (LodeMcpHttp       *self,
                                     guint              port,
                                     GError           **error);
guint        lode_mcp_http_get_port (LodeMcpHttp       *self);
void         lode_mcp_http_stop     (LodeMcpHttp       *self);

char        *lode_mcp_random_hex    (gsize              n_bytes,
                                     GError           **error);

G_END_DECLS
