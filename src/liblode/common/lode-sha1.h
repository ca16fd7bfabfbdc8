/* lode-sha1.h — content names: git's blob ids and the stores' text keys
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

char *lode_sha1_string  (const char *data,
                         gsize       len);
char *lode_git_blob_id  (const char *data,
                         gsize       len);

G_END_DECLS
