/* lode-doc-comment.h — the text of doc comments and their summaries
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

void  lode_doc_comment_append  (GString    *out,
                                const char *comment,
                                gsize       len,
                                gsize       max);
char *lode_doc_comment_summary (const char *doc,
                                gsize       max);

G_END_DECLS
