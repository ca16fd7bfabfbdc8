/* lode-preflight.h — what an agent should know before it edits: the preflight card
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "lode-project.h"

G_BEGIN_DECLS

/* A best result scoring below this matched the question too weakly to edit on. */
#define LODE_PREFLIGHT_STRONG_MATCH 0.5
#define LODE_PREFLIGHT_WEAK_MATCH   0.2
/* Memories attached to a search's results at most. */
#define LODE_PREFLIGHT_MAX_MEMORIES 3

void lode_preflight_add_to_search (JsonObject    *search,
                                   LodeProject   *project,
                                   const char    *intent,
                                   GCancellable  *cancellable);
void lode_preflight_append_markdown (GString     *text,
                                     JsonObject  *search);

G_END_DECLS
