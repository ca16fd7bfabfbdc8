/* test-text-files.h — the files an index names for a grep pattern, as the tests compare them
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "lode-index-store.h"

G_BEGIN_DECLS

char *test_dup_text_files (LodeIndexStore *store,
                           const char     *pattern,
                           gboolean        regex,
                           gboolean       *indexed);

G_END_DECLS
