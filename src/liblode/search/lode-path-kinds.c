/* lode-path-kinds.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* What kind of file a path names, for the ranking of a question in words (see
 * secondary_factor() in lode-searcher.c): a test, code nobody edits by hand, documentation
 * or an example. By the path alone, as conventions across languages name them. */

#define G_LOG_DOMAIN "lode-search"

#include "config.h"

#include <string.h>

#include "lode-search-private.h"

static gboolean
has_path_component (const char         *path,
                    const char *const  *names)
{
  for (guint i = 0; names[i] != NULL; i++)
    {
      gsize n = strlen (names[i]);

      for (const char *p = path; p != NULL; p = strchr (p, '/'), p = p != NULL ? p + 1 : NULL)
        if (g_ascii_strncasecmp (p, names[i], n) == 0 && p[n] == '/')
          return TRUE;
    }

  return FALSE;
}

/* Whether one of the first two components of @path is one of @names: where documentation
 * and example folders live (`docs/`, `contrib/examples/`). Deeper, such a name is usually a
 * namespace, as in Java's `src/main/java/com/example/`. */
static gboolean
has_leading_component (const char         *path,
                       const char *const  *names)
{
  const char *second = strchr (path, '/');

  for (guint i = 0; names[i] != NULL; i++)
    {
      gsize n = strlen (names[i]);

      if ((g_ascii_strncasecmp (path, names[i], n) == 0 && path[n] == '/') ||
          (second != NULL && g_ascii_strncasecmp (second + 1, names[i], n) == 0 &&
           second[1 + n] == '/'))
        return TRUE;
    }

  return FALSE;
}

static const char *
base_name (const char *path)
{
  const char *slash = strrchr (path, '/');

  return slash != NULL ? slash + 1 : path;
}

/* A test by its folder (test/, __tests__/, testdata/) or its name (test_x.py, x_test.go,
 * x.test.ts, x.spec.js, XTest.java, XTests.cs). */
gboolean
_lode_path_is_test (const char *path)
{
  const char *base = base_name (path);

  return g_str_has_prefix (path, "test/") || g_str_has_prefix (path, "tests/") ||
         strstr (path, "/test/") != NULL || strstr (path, "/tests/") != NULL ||
         strstr (path, "/__tests__/") != NULL || strstr (path, "/testdata/") != NULL ||
         g_str_has_prefix (base, "test_") || strstr (base, "_test.") != NULL ||
         strstr (base, ".test.") != NULL || strstr (base, ".spec.") != NULL ||
         strstr (base, "Test.") != NULL || strstr (base, "Tests.") != NULL;
}

/* Code nobody edits by hand in this tree: copies of other projects, build output, generated
 * sources, lock files, and libraries bundled under their version (jquery-3.5.1.js). */
gboolean
_lode_path_is_generated (const char *path)
{
  static const char *const dirs[] = {
    "vendor", "vendored", "third_party", "third-party", "thirdparty", "node_modules",
    "bower_components", "generated", "__generated__", "gen", "dist", NULL,
  };
  static const char *const suffixes[] = {
    ".min.js", ".min.css", "_pb2.py", "_pb2_grpc.py", ".pb.go", ".pb.cc", ".pb.h", ".pb.c",
    ".pb-c.c", ".pb-c.h", "_generated.go", ".generated.cs", ".g.dart", ".designer.cs",
  };
  static const char *const names[] = {
    "package-lock.json", "yarn.lock", "pnpm-lock.yaml", "cargo.lock", "go.sum",
    "poetry.lock", "composer.lock", "gemfile.lock",
  };
  g_autofree char *lower = g_ascii_strdown (base_name (path), -1);
  const char *dash = strrchr (lower, '-');

  if (has_path_component (path, dirs))
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    if (g_str_has_suffix (lower, suffixes[i]))
      return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (strcmp (lower, names[i]) == 0)
      return TRUE;

  /* name-1.2.3.ext: a version of at least two numbers before the extension. */
  if (dash != NULL && g_ascii_isdigit (dash[1]))
    {
      const char *p = dash + 1;
      guint dots = 0;

      for (; g_ascii_isdigit (*p) || (*p == '.' && g_ascii_isdigit (p[1])); p++)
        dots += *p == '.';
      if (dots >= 1 && *p == '.')
        return TRUE;
    }

  return FALSE;
}

/* Documentation and examples, by their folder. */
gboolean
_lode_path_is_documentation (const char *path)
{
  static const char *const dirs[] = {
    "doc", "docs", "documentation", "example", "examples", "sample", "samples", NULL,
  };

  return has_leading_component (path, dirs);
}
