/* lode-application.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "lode-client.h"

G_BEGIN_DECLS

#define LODE_TYPE_APPLICATION (lode_application_get_type ())
G_DECLARE_FINAL_TYPE (LodeApplication, lode_application, LODE, APPLICATION, AdwApplication)

LodeApplication *lode_application_new          (void);
LodeClient      *lode_application_get_client   (LodeApplication *self);
GSettings       *lode_application_get_settings (LodeApplication *self);

G_END_DECLS
