/* test-damage.h — damaging an index the way a disk or a crash does
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean test_garble_fts    (const char *db_path,
                             gboolean    whole);
void     test_truncate_file (const char *path,
                             goffset     length);

G_END_DECLS
