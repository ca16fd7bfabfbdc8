/* lode-linked.h — the projects a project links to (.lode.json, .socraticode.json,
 * SOCRATICODE_LINKED_PROJECTS)
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* More linked projects than this are left out, with a note. */
#define LODE_LINKED_MAX_PROJECTS 32

GPtrArray *lode_linked_projects_resolve (const char         *root,
                                         const char * const *extra,
                                         GPtrArray          *notes);

G_END_DECLS
