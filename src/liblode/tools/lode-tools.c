/* lode-tools.c — every tool family of liblode in one registry
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-tools"

#include "config.h"

#include "lode-tools-private.h"
#include "lode-tools.h"

typedef void (*LodeToolFamilyRegister) (LodeToolRegistry *registry);

/* The order is the order of MCP `tools/list`. */
static const LodeToolFamilyRegister families[] = {
  lode_codebase_tools_register,
  lode_graph_tools_register,
  lode_symbol_tools_register,
  lode_context_tools_register,
  lode_store_tools_register,
  lode_memory_tools_register,
  lode_knowledge_tools_register,
};

/**
 * lode_tools_new_registry:
 * @engine: the engine the tools work on
 *
 * Returns: (transfer full): a registry holding every tool Lode has
 */
LodeToolRegistry *
lode_tools_new_registry (LodeEngine *engine)
{
  LodeToolRegistry *registry;

  g_return_val_if_fail (LODE_IS_ENGINE (engine), NULL);

  registry = lode_tool_registry_new (engine);
  for (guint i = 0; i < G_N_ELEMENTS (families); i++)
    families[i] (registry);

  return registry;
}
