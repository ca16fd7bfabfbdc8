/* lode-mcp-errors.h — JSON-RPC error codes and the mapping of Lode's errors to them
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  LODE_MCP_PARSE_ERROR        = -32700,
  LODE_MCP_INVALID_REQUEST    = -32600,
  LODE_MCP_METHOD_NOT_FOUND   = -32601,
  LODE_MCP_INVALID_PARAMS     = -32602,
  LODE_MCP_INTERNAL_ERROR     = -32603,
  LODE_MCP_RESOURCE_NOT_FOUND = -32002,
} LodeMcpErrorCode;

int lode_mcp_error_code_for (const GError *error);

G_END_DECLS
