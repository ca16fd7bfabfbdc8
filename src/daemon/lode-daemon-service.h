/* lode-daemon-service.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "lode.h"
#include "lode-dbus-daemon.h"

G_BEGIN_DECLS

#define LODE_TYPE_DAEMON_SERVICE (lode_daemon_service_get_type ())
G_DECLARE_FINAL_TYPE (LodeDaemonService, lode_daemon_service, LODE, DAEMON_SERVICE,
                      LodeDBusDaemon1Skeleton)

LodeDaemonService *lode_daemon_service_new      (GApplication      *app,
                                                 LodeEngine        *engine);
void               lode_daemon_service_resume   (LodeDaemonService *self);
void               lode_daemon_service_shutdown (LodeDaemonService *self);

G_END_DECLS
