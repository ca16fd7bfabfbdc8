/* knowledge-helpers.h — git repositories with a known history, for the knowledge tests
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

void  test_git        (const char *root,
                       const char *date,
                       const char *args);
void  test_git_commit (const char *root,
                       const char *date,
                       const char *message);
char *test_read_file  (const char *root,
                       const char *relative);

G_END_DECLS
