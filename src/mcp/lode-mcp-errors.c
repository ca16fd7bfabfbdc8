/* lode-mcp-errors.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-mcp"

#include "config.h"

#include "lode-error.h"
#include "lode-mcp-errors.h"

/* The one table that maps Lode's public errors to JSON-RPC codes. Failures of a tool never
 * come this way: they are tool results with isError set. */
static const struct
{
  LodeError        error;
  LodeMcpErrorCode code;
} lode_mcp_error_map[] = {
  { LODE_ERROR_FAILED,           LODE_MCP_INTERNAL_ERROR },
  { LODE_ERROR_NOT_INDEXED,      LODE_MCP_INTERNAL_ERROR },
  { LODE_ERROR_INVALID_QUERY,    LODE_MCP_INVALID_PARAMS },
  { LODE_ERROR_INVALID_ARGUMENT, LODE_MCP_INVALID_PARAMS },
  { LODE_ERROR_NOT_FOUND,        LODE_MCP_INVALID_PARAMS },
  { LODE_ERROR_STORE,            LODE_MCP_INTERNAL_ERROR },
  { LODE_ERROR_CANCELLED,        LODE_MCP_INTERNAL_ERROR },
  { LODE_ERROR_EMBEDDER,         LODE_MCP_INTERNAL_ERROR },
  { LODE_ERROR_DAMAGED,          LODE_MCP_INTERNAL_ERROR },
  { LODE_ERROR_UNSUPPORTED,      LODE_MCP_INTERNAL_ERROR },
};
G_STATIC_ASSERT (G_N_ELEMENTS (lode_mcp_error_map) == LODE_N_ERRORS);

int
lode_mcp_error_code_for (const GError *error)
{
  g_return_val_if_fail (error != NULL, LODE_MCP_INTERNAL_ERROR);

  if (error->domain == LODE_ERROR)
    for (guint i = 0; i < G_N_ELEMENTS (lode_mcp_error_map); i++)
      if ((int) lode_mcp_error_map[i].error == error->code)
        return lode_mcp_error_map[i].code;

  return LODE_MCP_INTERNAL_ERROR;
}
