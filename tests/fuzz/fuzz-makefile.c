/* fuzz-makefile.c — the reader of the include directories a Makefile gives (-I, -iquote,
 * -isystem, with the Makefile's variables expanded) that the import resolver uses for C
 * and C++ projects without compile_commands.json
 *
 * An input is a Makefile's text.
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "fuzz-common.h"
#include "lode-import-makefile-private.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_auto(GStrv) dirs = _lode_import_parse_makefile_include_dirs ((const char *) data, size);

  /* Directories are words that are not flags and hold nothing left unknown, each once. */
  for (guint i = 0; dirs[i] != NULL; i++)
    {
      g_assert_cmpuint (strlen (dirs[i]), >, 0);
      g_assert_cmpint (dirs[i][0], !=, '-');
      g_assert_null (strpbrk (dirs[i], "$ \t\n\x01"));
      for (guint j = 0; j < i; j++)
        g_assert_cmpstr (dirs[j], !=, dirs[i]);
    }

  return 0;
}
