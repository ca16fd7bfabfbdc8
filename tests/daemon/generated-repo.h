/* generated-repo.h — a generated git repository with two branches, for the daemon tests
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

void test_write_generated_tree (const char *root,
                                guint       version);
void test_git                  (const char *root,
                                ...) G_GNUC_NULL_TERMINATED;
void test_make_repository      (const char *root);

G_END_DECLS
