/* lode-engine.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "lode-config.h"
#include "lode-embedder.h"
#include "lode-project.h"

G_BEGIN_DECLS

typedef struct
{
  char *id;
  char *root;
  char *db_path;
} LodeProjectInfo;

void lode_project_info_free (LodeProjectInfo *info);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeProjectInfo, lode_project_info_free)

#define LODE_TYPE_ENGINE (lode_engine_get_type ())
G_DECLARE_FINAL_TYPE (LodeEngine, lode_engine, LODE, ENGINE, GObject)

LodeEngine        *lode_engine_new            (const LodeConfig  *config);
const LodeConfig  *lode_engine_get_config     (LodeEngine        *self);
LodeProject       *lode_engine_open_project   (LodeEngine        *self,
                                               const char        *path,
                                               gboolean           must_be_indexed,
                                               GError           **error);
GPtrArray         *lode_engine_list_projects  (LodeEngine        *self,
                                               GError           **error);
gboolean           lode_engine_remove_project (LodeEngine        *self,
                                               const char        *path,
                                               GError           **error);
void               lode_engine_set_embedder   (LodeEngine        *self,
                                               LodeEmbedder      *embedder);
LodeEmbedder      *lode_engine_dup_embedder   (LodeEngine        *self,
                                               char             **unavailable);

G_END_DECLS
