/* test-text-files.c — the files an index names for a grep pattern, as the tests compare them
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "lode-grep-query.h"
#include "test-text-files.h"

/* The files @store names for @pattern (lode_index_store_find_text_files()), by path, joined
 * by spaces; whether they came from its trigrams into @indexed. */
char *
test_dup_text_files (LodeIndexStore *store,
                     const char     *pattern,
                     gboolean        regex,
                     gboolean       *indexed)
{
  g_autoptr(LodeGrepQuery) query = lode_grep_query_for_pattern (pattern, regex);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) files = lode_index_store_find_text_files (store, query, indexed, &error);
  GString *out = g_string_new (NULL);

  g_assert_no_error (error);
  for (guint i = 0; i < files->len; i++)
    g_string_append_printf (out, "%s%s", i > 0 ? " " : "",
                            ((LodeStoredFile *) g_ptr_array_index (files, i))->path);
  return g_string_free (out, FALSE);
}
