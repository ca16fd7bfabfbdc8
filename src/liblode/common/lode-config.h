/* lode-config.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* How long a watched tree stays quiet before its changes are indexed, by default. */
#define LODE_WATCH_DEFAULT_DEBOUNCE_MSEC 100

/* The chunker's defaults, which are the settings' (and the schema's): the largest chunk in
 * estimated model tokens, and the CPU time parsing, querying and reading the imports of one
 * file may take (ms) before it is chunked by lines. */
#define LODE_CHUNKER_DEFAULT_MAX_TOKENS 512
#define LODE_CHUNKER_DEFAULT_TIME_BUDGET_MSEC 3000

/**
 * LodeConfig:
 * @max_file_size: files larger than this (bytes) are skipped
 * @chunk_max_tokens: largest chunk, in estimated model tokens
 * @index_threads: chunking threads; 0 means one per processor
 * @watch_debounce_msec: how long a watched tree stays quiet before its changes are indexed
 *   (`LODE_WATCH_DEBOUNCE_MSEC`)
 * @extra_extensions: "suffix=language" entries, e.g. ".tpl=html"
 * @data_dir: where indexes live (`$XDG_DATA_HOME/lode` unless overridden)
 * @embedding_provider: "builtin", "ollama", "openai" or "none" (issue #4)
 * @embedding_model: (nullable): the provider's model; %NULL for its default
 * @vector_int8: dense search scans int8 copies of the vectors and re-scores the best in
 *   float32
 * @ollama_url: (nullable): the Ollama server (`LODE_OLLAMA_URL`, `OLLAMA_HOST`)
 * @openai_url: (nullable): the OpenAI-compatible endpoint (`LODE_OPENAI_BASE_URL`,
 *   `OPENAI_BASE_URL`)
 * @openai_api_key: (nullable): an OpenAI key from the environment (`LODE_OPENAI_API_KEY`,
 *   `OPENAI_API_KEY`); without one the keyring is asked. Never logged.
 * @store: where indexes are kept: "sqlite" (embedded, the default) or "qdrant"
 *   (`LODE_STORE`)
 * @qdrant_url: (nullable): the Qdrant server (`LODE_QDRANT_URL`)
 * @qdrant_api_key: (nullable): its key from the environment (`LODE_QDRANT_API_KEY`,
 *   `QDRANT_API_KEY`); without one the keyring is asked. Never logged.
 * @qdrant_ca_file: (nullable): a PEM file of private CAs to trust (`LODE_QDRANT_CA_FILE`)
 * @qdrant_shards: shards of new collections, 0 for the server's default
 *   (`LODE_QDRANT_SHARDS`)
 * @qdrant_replicas: copies of each shard of new collections, 0 for the server's default
 *   (`LODE_QDRANT_REPLICAS`)
 * @linked_projects: (nullable): roots every searched project links to besides those of its
 *   link files, absolute or relative to the project (`SOCRATICODE_LINKED_PROJECTS`,
 *   comma-separated, as SocratiCode reads it)
 * @branch_aware: a git work tree gets one index per branch, switched when HEAD moves
 *   (`LODE_BRANCH_AWARE`)
 *
 * Settings come from the `io.github.lode.Lode` GSettings schema when it is installed, and
 * `LODE_*` environment variables override them: MCP hosts and CI set the environment, not
 * dconf.
 */
typedef struct
{
  guint64   max_file_size;
  guint     chunk_max_tokens;
  guint     parse_time_budget;
  guint     index_threads;
  guint     watch_debounce_msec;
  char    **extra_extensions;
  char     *data_dir;
  char     *embedding_provider;
  char     *embedding_model;
  gboolean  vector_int8;
  char     *ollama_url;
  char     *openai_url;
  char     *openai_api_key;
  char     *store;
  char     *qdrant_url;
  char     *qdrant_api_key;
  char     *qdrant_ca_file;
  guint     qdrant_shards;
  guint     qdrant_replicas;
  char    **linked_projects;
  gboolean  branch_aware;
} LodeConfig;

LodeConfig *lode_config_new_default (void);
LodeConfig *lode_config_load        (GError     **error);
LodeConfig *lode_config_copy        (const LodeConfig *config);
void        lode_config_free        (LodeConfig  *config);
guint       lode_config_get_threads (const LodeConfig *config);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeConfig, lode_config_free)

G_END_DECLS
