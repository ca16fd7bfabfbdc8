/* lode-memory-limit.h — running out of memory cleanly, for every program of Lode
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

void     lode_memory_limit_init        (void);
void     lode_memory_limit_thread_init (void);
gboolean lode_memory_limit_exhausted   (void);

G_END_DECLS
