/* lode-tools.h — the tool families of liblode
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "lode-tool-registry.h"

G_BEGIN_DECLS

LodeToolRegistry *lode_tools_new_registry (LodeEngine *engine);

G_END_DECLS
