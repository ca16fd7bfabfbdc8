/* lode-projects-page.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "lode-connection.h"

G_BEGIN_DECLS

#define LODE_TYPE_PROJECTS_PAGE (lode_projects_page_get_type ())
G_DECLARE_FINAL_TYPE (LodeProjectsPage, lode_projects_page, LODE, PROJECTS_PAGE, GtkWidget)

void        lode_projects_page_set_connection (LodeProjectsPage *self,
                                               LodeConnection   *connection);
GListModel *lode_projects_page_get_model      (LodeProjectsPage *self);
void        lode_projects_page_add_folder     (LodeProjectsPage *self,
                                               GFile            *folder);

G_END_DECLS
