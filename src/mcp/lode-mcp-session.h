/* lode-mcp-session.h — one MCP client: JSON-RPC framing aside, the whole protocol
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "lode-client.h"
#include "lode-tool-profile.h"

G_BEGIN_DECLS

#define LODE_MCP_LATEST_PROTOCOL "2025-11-25"

/**
 * LodeMcpSendFunc:
 * @message: (nullable): a JSON-RPC message to send, as compact JSON (one line: newlines in
 *   strings are escaped), or %NULL when @final closes an exchange without a response (a
 *   cancelled request gets none)
 * @tag: the tag given to lode_mcp_session_receive() with the request this message belongs
 *   to, or %NULL for messages of the session (log messages, requests to the client)
 * @final: this is the last message for @tag
 * @user_data: user data
 */
typedef void (*LodeMcpSendFunc) (const char *message,
                                 gpointer    tag,
                                 gboolean    final,
                                 gpointer    user_data);

#define LODE_TYPE_MCP_SESSION (lode_mcp_session_get_type ())
G_DECLARE_FINAL_TYPE (LodeMcpSession, lode_mcp_session, LODE, MCP_SESSION, GObject)

LodeMcpSession *lode_mcp_session_new                  (LodeClient       *client,
                                                       gboolean          server_requests,
                                                       LodeMcpSendFunc   send,
                                                       gpointer          send_data);
void            lode_mcp_session_set_profile          (LodeMcpSession   *self,
                                                       const LodeToolProfile *profile);
void            lode_mcp_session_receive              (LodeMcpSession   *self,
                                                       const char       *text,
                                                       gsize             length,
                                                       gpointer          tag);
void            lode_mcp_session_send_error           (LodeMcpSession   *self,
                                                       int               code,
                                                       const char       *message,
                                                       gpointer          tag);
void            lode_mcp_session_cancel_tag           (LodeMcpSession   *self,
                                                       gpointer          tag);
void            lode_mcp_session_end_input            (LodeMcpSession   *self);
void            lode_mcp_session_abandon              (LodeMcpSession   *self,
                                                       const char       *reason);
void            lode_mcp_session_close                (LodeMcpSession   *self);
gboolean        lode_mcp_protocol_is_supported        (const char       *version);

G_END_DECLS
