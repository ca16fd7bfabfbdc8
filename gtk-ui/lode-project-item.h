/* lode-project-item.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define LODE_TYPE_PROJECT_ITEM (lode_project_item_get_type ())
G_DECLARE_FINAL_TYPE (LodeProjectItem, lode_project_item, LODE, PROJECT_ITEM, GObject)

LodeProjectItem *lode_project_item_new           (const char      *root);
const char      *lode_project_item_get_root      (LodeProjectItem *self);
const char      *lode_project_item_get_name      (LodeProjectItem *self);
const char      *lode_project_item_get_display_name (LodeProjectItem *self);
void             lode_project_item_set_display_name (LodeProjectItem *self,
                                                     gboolean         unique);
const char      *lode_project_item_get_location  (LodeProjectItem *self);
const char      *lode_project_item_get_state     (LodeProjectItem *self);
gboolean         lode_project_item_get_indexing  (LodeProjectItem *self);
void             lode_project_item_set_indexing  (LodeProjectItem *self,
                                                  gboolean         indexing);
gboolean         lode_project_item_get_watched   (LodeProjectItem *self);
double           lode_project_item_get_fraction  (LodeProjectItem *self);
const char      *lode_project_item_get_summary   (LodeProjectItem *self);
void             lode_project_item_set_progress  (LodeProjectItem *self,
                                                  const char      *phase,
                                                  guint            done,
                                                  guint            total);
void             lode_project_item_update_info   (LodeProjectItem *self,
                                                  JsonObject      *info);
void             lode_project_item_update_status (LodeProjectItem *self,
                                                  JsonObject      *status);
void             lode_project_item_set_status_error (LodeProjectItem *self,
                                                     const char      *message);

G_END_DECLS
