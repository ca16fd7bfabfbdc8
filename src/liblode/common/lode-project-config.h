/* lode-project-config.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define LODE_PROJECT_CONFIG_NAME ".lode.json"
#define LODE_SOCRATICODE_ARTIFACTS_NAME ".socraticodecontextartifacts.json"
#define LODE_SOCRATICODE_CONFIG_NAME ".socraticode.json"

/**
 * LodeArtifactSpec:
 * @name: the artifact's name, unique in the project
 * @path: a file or folder, relative to the project root (or absolute)
 * @description: (nullable): what it is, for agents choosing what to search
 * @source: the configuration file that declared it
 *
 * A context artifact: a schema, a specification or a document that explains the code
 * (issue #15), declared in `.lode.json` (`contextArtifacts`) or in SocratiCode's
 * `.socraticodecontextartifacts.json` (`artifacts`).
 */
typedef struct
{
  char *name;
  char *path;
  char *description;
  char *source;
} LodeArtifactSpec;

/**
 * LodeProjectConfig:
 * @include_vendored: index third-party folders (`vendor/`, `Pods/`, …) that the built-in
 *   ignore rules leave out; `"includeVendored": true` in `.lode.json`
 * @artifacts: (element-type LodeArtifactSpec): the context artifacts, in declaration order
 * @linked: (element-type utf8): the roots of linked projects, canonical, in declaration
 *   order: `linkedProjects` of `.lode.json`, then of SocratiCode's `.socraticode.json`,
 *   relative to the root or absolute
 *
 * A project's own settings, read from files at its root.
 */
typedef struct
{
  gboolean   include_vendored;
  GPtrArray *artifacts;
  GPtrArray *linked;
} LodeProjectConfig;

void               lode_artifact_spec_free    (LodeArtifactSpec  *spec);
void               lode_project_config_free   (LodeProjectConfig *config);
LodeProjectConfig *lode_project_config_load   (const char        *root,
                                               GError           **error);
LodeProjectConfig *lode_project_config_load_or_default (const char *root);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeArtifactSpec, lode_artifact_spec_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeProjectConfig, lode_project_config_free)

G_END_DECLS
