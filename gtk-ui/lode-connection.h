/* lode-connection.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "lode-client.h"

G_BEGIN_DECLS

#define LODE_TYPE_CONNECTION (lode_connection_get_type ())
G_DECLARE_FINAL_TYPE (LodeConnection, lode_connection, LODE, CONNECTION, GObject)

LodeConnection *lode_connection_new               (GCancellable         *cancellable);
LodeClient     *lode_connection_get_client        (LodeConnection       *self);
const GError   *lode_connection_get_client_error  (LodeConnection       *self);
GSettings      *lode_connection_get_settings      (LodeConnection       *self);
void            lode_connection_call_tool         (LodeConnection       *self,
                                                   const char           *name,
                                                   JsonObject           *arguments,
                                                   GCancellable         *cancellable,
                                                   GAsyncReadyCallback   callback,
                                                   gpointer              user_data);
JsonObject     *lode_connection_call_tool_finish  (LodeConnection       *self,
                                                   GAsyncResult         *result,
                                                   GError              **error);

G_END_DECLS
