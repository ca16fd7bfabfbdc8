/* generated-repo.c — a generated git repository with two branches, for the daemon tests
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib.h>

#include "generated-repo.h"
#include "test-helpers.h"

/* The generated tree ---------------------------------------------------------------------- */

/* File @i of the tree as of @version: five languages in turn, each file importing two
 * others of its language, with a handful of declarations. Version 1 (the other branch)
 * changes every seventh file, drops every eleventh and adds a tenth more. */
static char *
generated_file (guint   i,
                guint   version,
                char  **relative)
{
  guint a = (i * 7 + 3) % 60, b = (i * 13 + 5) % 60;
  const char *change = version == 1 && i % 7 == 0 ? " + 1" : "";
  GString *text = g_string_new (NULL);

  switch (i % 5)
    {
    case 0:
      *relative = g_strdup_printf ("c/mod%03u/unit%u.c", i / 5 % 60, i);
      g_string_append_printf (text, "#include <stdio.h>\n#include \"../mod%03u/unit%u.h\"\n"
                              "#include \"../mod%03u/unit%u.h\"\n\n", a, a * 5, b, b * 5);
      for (guint f = 0; f < 6; f++)
        g_string_append_printf (text, "/* Computes part %u of unit %u. */\nint\n"
                                "unit%u_part%u (int value, const char *name)\n{\n"
                                "  int total = value * %u%s;\n\n"
                                "  for (int k = 0; name[k] != '\\0'; k++)\n"
                                "    total += name[k];\n  return total;\n}\n\n",
                                f, i, i, f, f + 1, change);
      break;
    case 1:
      *relative = g_strdup_printf ("py/pkg%02u/module_%u.py", i / 5 % 30, i);
      g_string_append_printf (text, "import os\nfrom pkg%02u import module_%u\n\n\n",
                              a % 30, a * 5 + 1);
      for (guint f = 0; f < 4; f++)
        g_string_append_printf (text, "class Handler%u_%u:\n    \"\"\"Handles request kind %u."
                                "\"\"\"\n\n    def __init__(self, retries=3):\n"
                                "        self.retries = retries%s\n\n"
                                "    def handle_%u(self, request):\n"
                                "        return [r * %u for r in range(self.retries)]\n\n\n",
                                i, f, f, change, f, f);
      break;
    case 2:
      *relative = g_strdup_printf ("ts/feature%02u/service%u.ts", i / 5 % 30, i);
      g_string_append_printf (text, "import { Service%u } from \"../feature%02u/service%u\";\n"
                              "import * as path from \"path\";\n\n", a * 5 + 2, a % 30,
                              a * 5 + 2);
      for (guint f = 0; f < 4; f++)
        g_string_append_printf (text, "export class Service%u_%u {\n"
                                "  private count = %u%s;\n\n"
                                "  fetchItems(limit: number): string[] {\n"
                                "    return Array.from({ length: limit }, (_, k) => `${k}`);\n"
                                "  }\n}\n\n", i, f, f, change);
      break;
    case 3:
      *relative = g_strdup_printf ("go/pkg%02u/file%u.go", i / 5 % 30, i);
      g_string_append_printf (text, "package pkg%02u\n\nimport (\n\t\"fmt\"\n"
                              "\t\"example.com/tree/go/pkg%02u\"\n)\n\n", i / 5 % 30, b % 30);
      for (guint f = 0; f < 5; f++)
        g_string_append_printf (text, "// Run%u_%u runs step %u.\nfunc Run%u_%u(n int) int {\n"
                                "\ttotal := n * %u%s\n\tfmt.Println(total)\n"
                                "\treturn total\n}\n\n", i, f, f, i, f, f, change);
      break;
    default:
      *relative = g_strdup_printf ("rs/src/m%u.rs", i);
      g_string_append_printf (text, "use crate::m%u::Thing%u;\nuse std::collections::HashMap;\n\n",
                              a * 5 + 4, a * 5 + 4);
      for (guint f = 0; f < 4; f++)
        g_string_append_printf (text, "pub struct Thing%u_%u {\n    pub value: u32,\n}\n\n"
                                "impl Thing%u_%u {\n    pub fn compute(&self) -> u32 {\n"
                                "        self.value * %u%s\n    }\n}\n\n", i, f, i, f, f, change);
      break;
    }

  return g_string_free (text, FALSE);
}

#define TREE_FILES 600

/* Writes version @version of the tree under @root. */
void
test_write_generated_tree (const char *root,
                           guint       version)
{
  guint n = version == 1 ? TREE_FILES + TREE_FILES / 10 : TREE_FILES;

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *relative = NULL;
      g_autofree char *text = NULL;

      if (version == 1 && i % 11 == 0)
        continue;
      text = generated_file (i, version, &relative);
      test_write_file (root, relative, text);
    }
  test_write_file (root, "README.md", "# Generated tree\n\nFor the fault tests of Lode.\n");
  test_write_file (root, "go.mod", "module example.com/tree\n\ngo 1.21\n");
  test_write_file (root, "rs/Cargo.toml", "[package]\nname = \"tree\"\nversion = \"0.1.0\"\n");
}

/* Runs git in @root with the arguments that follow, up to a NULL; fails the test if git
 * fails. */
void
test_git (const char *root,
          ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;
  int status;
  va_list args;

  g_ptr_array_add (argv, (char *) "git");
  g_ptr_array_add (argv, (char *) "-c");
  g_ptr_array_add (argv, (char *) "user.name=Lode Tests");
  g_ptr_array_add (argv, (char *) "-c");
  g_ptr_array_add (argv, (char *) "user.email=tests@lode.invalid");
  va_start (args, root);
  for (const char *arg = va_arg (args, const char *); arg != NULL;
       arg = va_arg (args, const char *))
    g_ptr_array_add (argv, (char *) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  g_spawn_sync (root, (char **) argv->pdata, NULL, G_SPAWN_SEARCH_PATH |
                G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &err, &status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("git %s failed: %s", (char *) argv->pdata[5], err);
}

/* A git repository whose branch `main` holds version 0 of the tree and `feature` version 1. */
void
test_make_repository (const char *root)
{
  test_write_generated_tree (root, 0);
  test_git (root, "init", "-q", "-b", "main", NULL);
  test_git (root, "add", "-A", NULL);
  test_git (root, "commit", "-q", "-m", "version 0", NULL);
  test_git (root, "checkout", "-q", "-b", "feature", NULL);
  test_git (root, "rm", "-q", "-r", ".", NULL);
  test_write_generated_tree (root, 1);
  test_git (root, "add", "-A", NULL);
  test_git (root, "commit", "-q", "-m", "version 1", NULL);
  test_git (root, "checkout", "-q", "main", NULL);
}
