/* lode-client.h — how every front end reaches the engine
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "lode.h"

G_BEGIN_DECLS

/**
 * LodeClientMode:
 * @LODE_CLIENT_AUTO: the daemon when a session bus is there and loded can be activated,
 *   else this process runs the engine (and the client's notice says why)
 * @LODE_CLIENT_IN_PROCESS: this process runs the engine (`--no-daemon`)
 * @LODE_CLIENT_DAEMON_ONLY: the daemon or nothing (the desktop app)
 */
typedef enum
{
  LODE_CLIENT_AUTO,
  LODE_CLIENT_IN_PROCESS,
  LODE_CLIENT_DAEMON_ONLY,
} LodeClientMode;

#define LODE_TYPE_CLIENT (lode_client_get_type ())
G_DECLARE_FINAL_TYPE (LodeClient, lode_client, LODE, CLIENT, GObject)

LodeClient       *lode_client_new              (const LodeConfig      *config,
                                                LodeClientMode         mode,
                                                GError               **error);
void              lode_client_new_async        (const LodeConfig      *config,
                                                LodeClientMode         mode,
                                                GCancellable          *cancellable,
                                                GAsyncReadyCallback    callback,
                                                gpointer               user_data);
LodeClient       *lode_client_new_finish       (GAsyncResult          *result,
                                                GError               **error);
gboolean          lode_client_is_remote        (LodeClient            *self);
const char       *lode_client_get_notice       (LodeClient            *self);
LodeEngine       *lode_client_get_engine       (LodeClient            *self);
LodeToolRegistry *lode_client_get_registry     (LodeClient            *self);

void              lode_client_call_tool_async  (LodeClient            *self,
                                                const char            *name,
                                                JsonObject            *arguments,
                                                const char            *default_project,
                                                LodeToolProgressFunc   progress,
                                                gpointer               progress_data,
                                                GDestroyNotify         progress_data_destroy,
                                                GCancellable          *cancellable,
                                                GAsyncReadyCallback    callback,
                                                gpointer               user_data);
LodeToolResult   *lode_client_call_tool_finish (LodeClient            *self,
                                                GAsyncResult          *result,
                                                GError               **error);
LodeToolResult   *lode_client_call_tool        (LodeClient            *self,
                                                const char            *name,
                                                JsonObject            *arguments,
                                                LodeToolProgressFunc   progress,
                                                gpointer               progress_data,
                                                GCancellable          *cancellable,
                                                GError               **error);

G_END_DECLS
