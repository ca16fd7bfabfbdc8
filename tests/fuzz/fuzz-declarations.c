/* fuzz-declarations.c — the scanner of declared packages and namespaces (Java, Kotlin,
 * Scala, C#, PHP) that the import resolver reads from the head of every such file
 *
 * An input is a file name, a newline, and the file's text.
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "fuzz-common.h"
#include "lode-import-declarations-private.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *path = NULL;
  g_autofree char *text = NULL;
  g_auto(GStrv) declared = NULL;
  gsize len;

  fuzz_split_first_line (data, size, &path, &text, &len);
  declared = _lode_import_parse_declarations (path, text, len);

  /* Names are made of the name characters of the text, never empty. */
  for (guint i = 0; declared[i] != NULL; i++)
    {
      g_assert_cmpuint (strlen (declared[i]), >, 0);
      g_assert_cmpuint (strlen (declared[i]), <=, 2 * len + 1);
    }

  return 0;
}
