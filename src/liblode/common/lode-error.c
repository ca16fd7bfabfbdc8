/* lode-error.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-error"

#include "config.h"

#include <gio/gio.h>

#include "lode-error.h"

static const GDBusErrorEntry lode_error_entries[] = {
  { LODE_ERROR_FAILED,           LODE_DBUS_NAME ".Error.Failed" },
  { LODE_ERROR_NOT_INDEXED,      LODE_DBUS_NAME ".Error.NotIndexed" },
  { LODE_ERROR_INVALID_QUERY,    LODE_DBUS_NAME ".Error.InvalidQuery" },
  { LODE_ERROR_INVALID_ARGUMENT, LODE_DBUS_NAME ".Error.InvalidArgument" },
  { LODE_ERROR_NOT_FOUND,        LODE_DBUS_NAME ".Error.NotFound" },
  { LODE_ERROR_STORE,            LODE_DBUS_NAME ".Error.Store" },
  { LODE_ERROR_CANCELLED,        LODE_DBUS_NAME ".Error.Cancelled" },
  { LODE_ERROR_EMBEDDER,         LODE_DBUS_NAME ".Error.Embedder" },
  { LODE_ERROR_DAMAGED,          LODE_DBUS_NAME ".Error.Damaged" },
  { LODE_ERROR_UNSUPPORTED,      LODE_DBUS_NAME ".Error.Unsupported" },
};
G_STATIC_ASSERT (G_N_ELEMENTS (lode_error_entries) == LODE_N_ERRORS);

GQuark
lode_error_quark (void)
{
  static gsize quark;

  g_dbus_error_register_error_domain ("lode-error-quark", &quark, lode_error_entries,
                                      G_N_ELEMENTS (lode_error_entries));
  return (GQuark) quark;
}
