/* lode-linked.c — the projects a project links to
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A project root may hold `.lode.json` or SocratiCode's `.socraticode.json`, read as-is by
 * lode_project_config_load(): their `linkedProjects` list other roots, absolute or relative
 * to the file. The searched project also links to the roots of SocratiCode's
 * `SOCRATICODE_LINKED_PROJECTS` (LodeConfig.linked_projects), relative to it, after those of
 * its files, as SocratiCode reads them. Links are followed transitively; what cannot be followed (a missing root, a
 * link back to a project already listed, a file that is not JSON) becomes a note, never an
 * error, so that a search of linked projects always searches what it can.
 */

#define G_LOG_DOMAIN "lode-linked"

#include "config.h"

#include "lode-linked.h"
#include "lode-project-config.h"

/* Appends the roots @root links to to @links: those of its link files, then @extra (relative
 * to @root). */
static void
read_links (const char         *root,
            const char * const *extra,
            GPtrArray          *links,
            GPtrArray          *notes)
{
  g_autoptr(LodeProjectConfig) config = NULL;
  g_autoptr(GError) error = NULL;

  config = lode_project_config_load (root, &error);
  if (config == NULL)
    {
      g_ptr_array_add (notes, g_strdup_printf ("The links of %s are not read: %s", root,
                                               error->message));
    }
  for (guint i = 0; config != NULL && i < config->linked->len; i++)
    g_ptr_array_add (links, g_strdup (g_ptr_array_index (config->linked, i)));
  for (guint i = 0; extra != NULL && extra[i] != NULL; i++)
    g_ptr_array_add (links, g_canonicalize_filename (extra[i], root));
}

/**
 * lode_linked_projects_resolve:
 * @root: an absolute, canonical project root
 * @extra: (nullable) (array zero-terminated=1): more roots @root links to, absolute or
 *   relative to @root (`SOCRATICODE_LINKED_PROJECTS`); the projects it links to do not
 *   inherit them
 * @notes: (element-type utf8): receives a sentence for each link that is not followed
 *
 * Follows the links of @root breadth first. A root that does not exist or is not a
 * directory, a link to a project already listed (a cycle, or two paths to one project) and
 * links past %LODE_LINKED_MAX_PROJECTS are noted and left out.
 *
 * Returns: (transfer full) (element-type utf8): @root, then every project it links to,
 *   directly or not, each once
 */
GPtrArray *
lode_linked_projects_resolve (const char         *root,
                              const char * const *extra,
                              GPtrArray          *notes)
{
  g_autoptr(GPtrArray) roots = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  g_return_val_if_fail (root != NULL && g_path_is_absolute (root), NULL);
  g_return_val_if_fail (notes != NULL, NULL);

  g_ptr_array_add (roots, g_strdup (root));
  g_hash_table_add (seen, roots->pdata[0]);

  /* roots grows while it is walked; every root is read once, so the walk ends. */
  for (guint i = 0; i < roots->len; i++)
    {
      const char *from = g_ptr_array_index (roots, i);
      g_autoptr(GPtrArray) links = g_ptr_array_new_with_free_func (g_free);

      read_links (from, i == 0 ? extra : NULL, links, notes);
      for (guint j = 0; j < links->len; j++)
        {
          char *link = g_ptr_array_index (links, j);

          if (g_hash_table_contains (seen, link))
            {
              g_ptr_array_add (notes, g_strdup_printf ("%s links to %s, which is already "
                                                       "searched", from, link));
              continue;
            }
          if (!g_file_test (link, G_FILE_TEST_IS_DIR))
            {
              g_ptr_array_add (notes, g_strdup_printf ("%s links to %s, which is not a "
                                                       "directory; left out", from, link));
              continue;
            }
          if (roots->len >= LODE_LINKED_MAX_PROJECTS)
            {
              g_ptr_array_add (notes, g_strdup_printf ("%s links to %s; left out: at most %d "
                                                       "projects are searched together", from,
                                                       link, LODE_LINKED_MAX_PROJECTS));
              continue;
            }
          g_ptr_array_add (roots, g_steal_pointer (&links->pdata[j]));
          g_hash_table_add (seen, g_ptr_array_index (roots, roots->len - 1));
        }
    }

  return g_steal_pointer (&roots);
}
