/* lode-error.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define LODE_DBUS_NAME "io.github.lode.Lode"
#define LODE_ERROR (lode_error_quark ())

/**
 * LodeError:
 * @LODE_ERROR_FAILED: a failure with no more specific code
 * @LODE_ERROR_NOT_INDEXED: the project has no index yet
 * @LODE_ERROR_INVALID_QUERY: the search query cannot be used
 * @LODE_ERROR_INVALID_ARGUMENT: an argument is out of range or malformed
 * @LODE_ERROR_NOT_FOUND: a path or project does not exist
 * @LODE_ERROR_STORE: the index database failed
 * @LODE_ERROR_CANCELLED: the operation was cancelled
 * @LODE_ERROR_EMBEDDER: an embedding provider or model failed (unreachable server, HTTP error,
 *   malformed answer, wrong dimensions, missing or corrupt model files)
 * @LODE_ERROR_DAMAGED: the index database is damaged (corrupt or truncated); indexing again
 *   keeps the damaged file aside and rebuilds the index from scratch
 * @LODE_ERROR_UNSUPPORTED: the daemon cannot serve the request as asked (a configuration it
 *   cannot take on); the client then does the work itself
 *
 * The public error domain. It crosses process boundaries (D-Bus, MCP), so codes are only
 * ever appended.
 */
typedef enum
{
  LODE_ERROR_FAILED,
  LODE_ERROR_NOT_INDEXED,
  LODE_ERROR_INVALID_QUERY,
  LODE_ERROR_INVALID_ARGUMENT,
  LODE_ERROR_NOT_FOUND,
  LODE_ERROR_STORE,
  LODE_ERROR_CANCELLED,
  LODE_ERROR_EMBEDDER,
  LODE_ERROR_DAMAGED,
  LODE_ERROR_UNSUPPORTED,
} LodeError;

#define LODE_N_ERRORS (LODE_ERROR_UNSUPPORTED + 1)

GQuark lode_error_quark (void);

G_END_DECLS
