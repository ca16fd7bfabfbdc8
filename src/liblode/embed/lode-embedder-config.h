/* lode-embedder-config.h — the embedding provider the settings name
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "lode-config.h"
#include "lode-embedder.h"

G_BEGIN_DECLS

LodeEmbedder *lode_embedder_new_for_config (const LodeConfig  *config,
                                            GError           **error);

G_END_DECLS
