/* indexed-tree.c — an engine and a tree it has indexed, for the search tests
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "indexed-tree.h"
#include "test-helpers.h"

/**
 * test_indexed_tree_setup:
 * @tree: the fixture to fill
 * @write_tree: writes the tree's files under the root it is given
 *
 * Writes the tree in the test's cache folder and indexes it with an engine of the default
 * configuration, without embeddings, whose data goes in the cache folder as well.
 */
void
test_indexed_tree_setup (TestIndexedTree *tree,
                         TestWriteTree    write_tree)
{
  g_autoptr(LodeConfig) config = lode_config_new_default ();
  g_autoptr(LodeIndexReport) report = NULL;
  g_autoptr(GError) error = NULL;

  tree->root = g_build_filename (g_get_user_cache_dir (), "tree", NULL);
  write_tree (tree->root);

  g_free (config->data_dir);
  config->data_dir = g_build_filename (g_get_user_cache_dir (), "lode-test-data", NULL);
  g_free (config->embedding_provider);
  config->embedding_provider = g_strdup ("none");
  tree->engine = lode_engine_new (config);
  tree->project = lode_engine_open_project (tree->engine, tree->root, FALSE, &error);
  g_assert_no_error (error);
  report = lode_project_index (tree->project, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (report);
}

/**
 * test_indexed_tree_teardown:
 * @tree: a fixture filled by test_indexed_tree_setup()
 * @data: unused; a #GTestFixtureFunc's
 *
 * Frees the engine and removes the tree and the index.
 */
void
test_indexed_tree_teardown (TestIndexedTree *tree,
                            gconstpointer    data)
{
  g_autofree char *data_dir = g_build_filename (g_get_user_cache_dir (), "lode-test-data",
                                                NULL);

  g_clear_object (&tree->project);
  g_clear_object (&tree->engine);
  test_remove_tree (tree->root);
  test_remove_tree (data_dir);
  g_free (tree->root);
}
