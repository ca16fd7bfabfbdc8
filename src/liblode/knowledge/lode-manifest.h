/* lode-manifest.h — what a project's manifests say it depends on
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * LodeDependency:
 * @name: as the manifest names it (`serde`, `org.slf4j:slf4j-api`, `glib-2.0`)
 * @version: (nullable): the version or range written
 * @scope: runtime, dev, test, build, peer, optional or indirect
 */
typedef struct
{
  char *name;
  char *version;
  char *scope;
} LodeDependency;

/**
 * LodeManifest:
 * @path: relative to the project root
 * @kind: npm, go, cargo, python, pip, composer, maven, gradle, bundler, meson, cmake, nuget
 * @name: (nullable): the package or project it declares
 * @version: (nullable): its version
 * @dependencies: (element-type LodeDependency)
 * @entry_points: (element-type utf8): programs and modules it declares (`bin/cli.js`,
 *   `myapp.cli:main`, the executables of a build)
 * @frameworks: (element-type utf8): frameworks it names outside its dependencies (a .NET
 *   SDK, a Gradle plugin)
 */
typedef struct
{
  char       *path;
  const char *kind;
  char       *name;
  char       *version;
  GPtrArray  *dependencies;
  GPtrArray  *entry_points;
  GPtrArray  *frameworks;
} LodeManifest;

void          lode_manifest_free          (LodeManifest *manifest);
const char   *lode_manifest_kind_for_path (const char   *path);
LodeManifest *lode_manifest_read          (const char   *root,
                                           const char   *path,
                                           GError      **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeManifest, lode_manifest_free)

G_END_DECLS
