/* lode-artifact-chunker.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "lode-index-store.h"

G_BEGIN_DECLS

GPtrArray *lode_artifact_chunk_text   (const char        *path,
                                       const char        *text,
                                       gsize              len);

G_END_DECLS
