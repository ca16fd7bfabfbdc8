/* lode-glob.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Flags for lode_glob_match(). */
typedef enum
{
  LODE_GLOB_NONE       = 0,
  /* `*` and `?` never match '/'; `**` as a whole path component matches any number of them. */
  LODE_GLOB_PATHNAME   = 1 << 0,
  LODE_GLOB_CASEFOLD   = 1 << 1,
} LodeGlobFlags;

gboolean lode_glob_match      (const char    *pattern,
                               const char    *text,
                               LodeGlobFlags  flags);
gboolean lode_glob_match_path (const char    *pattern,
                               const char    *path);

G_END_DECLS
