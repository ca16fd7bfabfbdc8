/* indexed-tree.h — an engine and a tree it has indexed, for the search tests
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "lode.h"

G_BEGIN_DECLS

/* An engine without embeddings, its data in the test's cache folder, and the tree that a
 * TestWriteTree wrote there (folder "tree"), indexed. */
typedef struct
{
  LodeEngine  *engine;
  LodeProject *project;
  char        *root;
} TestIndexedTree;

typedef void (*TestWriteTree) (const char *root);

void test_indexed_tree_setup    (TestIndexedTree *tree,
                                 TestWriteTree    write_tree);
void test_indexed_tree_teardown (TestIndexedTree *tree,
                                 gconstpointer    data);

G_END_DECLS
