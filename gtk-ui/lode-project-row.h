/* lode-project-row.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "lode-project-item.h"

G_BEGIN_DECLS

#define LODE_TYPE_PROJECT_ROW (lode_project_row_get_type ())
G_DECLARE_FINAL_TYPE (LodeProjectRow, lode_project_row, LODE, PROJECT_ROW, AdwActionRow)

GtkWidget       *lode_project_row_new      (LodeProjectItem *item);
LodeProjectItem *lode_project_row_get_item (LodeProjectRow  *self);

G_END_DECLS
