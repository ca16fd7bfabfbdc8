/* lode-tools.h — the tools of liblode, registered by lode_tool_registry_new()
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "lode-tool-registry.h"

G_BEGIN_DECLS

void lode_tools_add_codebase (LodeToolRegistry *registry);
void lode_tools_add_graph    (LodeToolRegistry *registry);

G_END_DECLS
