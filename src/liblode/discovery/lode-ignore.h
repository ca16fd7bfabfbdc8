/* lode-ignore.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * LodeIgnore:
 *
 * The ignore rules of one directory tree, with git's .gitignore semantics: rules from a
 * directory's .gitignore (and .lodeignore) apply below it, later rules win, `!` negates,
 * a leading or middle `/` anchors, a trailing `/` matches directories only, `**` spans
 * directories, and nothing inside an excluded directory can be re-included.
 */
typedef struct _LodeIgnore LodeIgnore;

LodeIgnore *lode_ignore_new            (void);
LodeIgnore *lode_ignore_ref            (LodeIgnore  *self);
void        lode_ignore_unref          (LodeIgnore  *self);
void        lode_ignore_add_defaults   (LodeIgnore  *self);
void        lode_ignore_add_vendored   (LodeIgnore  *self);
void        lode_ignore_add_patterns   (LodeIgnore  *self,
                                        const char  *base_dir,
                                        const char  *text,
                                        gssize       len);
gboolean    lode_ignore_add_file       (LodeIgnore  *self,
                                        const char  *base_dir,
                                        const char  *filename,
                                        GError     **error);
gboolean    lode_ignore_is_ignored     (LodeIgnore  *self,
                                        const char  *path,
                                        gboolean     is_dir);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeIgnore, lode_ignore_unref)

G_END_DECLS
