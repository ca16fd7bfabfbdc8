/* lode-models-page.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>
#include <json-glib/json-glib.h>

#include "lode-connection.h"

G_BEGIN_DECLS

#define LODE_TYPE_MODELS_PAGE (lode_models_page_get_type ())
G_DECLARE_FINAL_TYPE (LodeModelsPage, lode_models_page, LODE, MODELS_PAGE, GtkWidget)

void lode_models_page_set_connection (LodeModelsPage *self,
                                      LodeConnection *connection);
void lode_models_page_download       (LodeModelsPage *self);
void lode_models_page_show_health    (LodeModelsPage *self,
                                      JsonObject     *health);

G_END_DECLS
