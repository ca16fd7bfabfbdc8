/* lode-ignore-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "lode-ignore.h"

G_BEGIN_DECLS

/* Like lode_ignore_is_ignored(), but trusts the caller that no parent directory of @path is
 * ignored: a walker that never enters ignored directories knows that already, and skipping
 * the parent checks keeps the walk linear. @dir_len is the length of @path's directory part
 * (0 at the root, otherwise the offset of the last '/'). */
gboolean _lode_ignore_match_entry (LodeIgnore  *self,
                                   const char  *path,
                                   gsize        dir_len,
                                   gboolean     is_dir);

/* lode_ignore_add_file() relative to an open directory, so that a walker need not build
 * absolute paths. */
gboolean _lode_ignore_add_file_at (LodeIgnore  *self,
                                   const char  *base_dir,
                                   int          dir_fd,
                                   const char  *name,
                                   GError     **error);

G_END_DECLS
