/* fuzz-ignore.c — the .gitignore parser and matcher (LodeIgnore, lode_glob_match)
 *
 * An input is ignore rules, a NUL byte, then paths, one a line; a path ending in '/' is a
 * directory. The rules are added at the root and in `sub`, then every path is matched, and
 * every rule line is also used as a glob against every path.
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "fuzz-common.h"
#include "lode-glob.h"
#include "lode-ignore.h"

/* Paths and patterns per input, and their length: matching is O(depth × length) per path,
 * so longer ones only slow the fuzzing down; seeds/ignore/deep-path.txt checks 8 KiB paths. */
#define MAX_LINES 64
#define MAX_LINE  1024

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const uint8_t *nul = memchr (data, '\0', size);
  gsize rules_len = nul != NULL ? (gsize) (nul - data) : size;
  g_autofree char *rules = g_strndup ((const char *) data, rules_len);
  g_autofree char *paths_text = NULL;
  g_auto(GStrv) paths = NULL;
  g_auto(GStrv) patterns = NULL;
  g_autoptr(LodeIgnore) ignore = lode_ignore_new ();
  g_autoptr(LodeIgnore) with_defaults = lode_ignore_new ();

  paths_text = nul != NULL ? g_strndup ((const char *) nul + 1, size - rules_len - 1)
                           : g_strdup ("");
  paths = g_strsplit (paths_text, "\n", -1);
  patterns = g_strsplit (rules, "\n", -1);

  lode_ignore_add_patterns (ignore, "", (const char *) data, rules_len);
  lode_ignore_add_patterns (ignore, "sub", (const char *) data, rules_len);
  lode_ignore_add_defaults (with_defaults);
  lode_ignore_add_patterns (with_defaults, "", rules, -1);

  for (guint i = 0; paths[i] != NULL && i < MAX_LINES; i++)
    {
      gsize len = strlen (paths[i]);
      gboolean is_dir;
      gboolean ignored;

      if (len > MAX_LINE)
        paths[i][len = MAX_LINE] = '\0';
      is_dir = len > 0 && paths[i][len - 1] == '/';
      ignored = lode_ignore_is_ignored (ignore, paths[i], is_dir);

      /* A directory that is ignored takes everything below it along. */
      if (ignored && is_dir)
        {
          g_autofree char *child = g_strconcat (paths[i], "x", NULL);

          g_assert_true (lode_ignore_is_ignored (ignore, child, FALSE));
        }
      lode_ignore_is_ignored (with_defaults, paths[i], is_dir);

      for (guint j = 0; patterns[j] != NULL && j < MAX_LINES; j++)
        {
          lode_glob_match (patterns[j], paths[i], 0);
          lode_glob_match (patterns[j], paths[i], LODE_GLOB_PATHNAME);
          lode_glob_match (patterns[j], paths[i], LODE_GLOB_PATHNAME | LODE_GLOB_CASEFOLD);
          lode_glob_match_path (patterns[j], paths[i]);
        }
    }

  return 0;
}
