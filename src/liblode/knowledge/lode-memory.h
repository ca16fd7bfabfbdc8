/* lode-memory.h — the team's memories: decisions, gotchas, conventions and failures
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "lode-git-history.h"

G_BEGIN_DECLS

/* The team's file, in the project; codebase-context's is read too, never written. */
#define LODE_MEMORY_FILE              ".lode/memory.json"
#define LODE_MEMORY_CODEBASE_CONTEXT  ".codebase-context/memory.json"

/* Below this confidence a memory is stale: shown, but not trusted. */
#define LODE_MEMORY_STALE_BELOW 0.3

/**
 * LodeMemorySource:
 * @LODE_MEMORY_SOURCE_USER: recorded with `remember` (or written by hand) in .lode/memory.json
 * @LODE_MEMORY_SOURCE_CODEBASE_CONTEXT: read from .codebase-context/memory.json
 * @LODE_MEMORY_SOURCE_GIT: mined from a commit subject
 */
typedef enum
{
  LODE_MEMORY_SOURCE_USER,
  LODE_MEMORY_SOURCE_CODEBASE_CONTEXT,
  LODE_MEMORY_SOURCE_GIT,
} LodeMemorySource;

/**
 * LodeMemory:
 * @id: twelve hex digits; for recorded memories the start of the SHA-256 of the normalised
 *   text, so that the same rule cannot be recorded twice
 * @type: decision, gotcha, convention or failure
 * @category: tooling, architecture, testing, dependencies or conventions
 * @memory: the rule, in a sentence
 * @reason: why it matters
 * @date: when it was recorded (ISO 8601)
 * @time: @date in seconds since the epoch
 * @files: (array zero-terminated=1): the files it names: given, written in its text, or (for
 *   a mined memory) touched by its commit
 * @names: (array zero-terminated=1): the identifiers its text names (`lode_store_open`)
 * @source: where it comes from
 * @commit: (nullable): the commit a mined memory comes from
 * @confidence: 0–1, lower with age (by type) and with changes to @files since @date
 * @changed: (array zero-terminated=1): files of @files changed since @date
 * @gone: (array zero-terminated=1): files of @files that no longer exist
 *
 * A memory; @confidence, @changed and @gone are set by lode_memories_assess().
 */
typedef struct
{
  char             *id;
  char             *type;
  char             *category;
  char             *memory;
  char             *reason;
  char             *date;
  gint64            time;
  GStrv             files;
  GStrv             names;
  LodeMemorySource  source;
  char             *commit;
  double            confidence;
  GStrv             changed;
  GStrv             gone;
} LodeMemory;

void              lode_memory_free            (LodeMemory        *memory);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeMemory, lode_memory_free)

const char *const *lode_memory_types          (void);
const char *const *lode_memory_categories     (void);
const char        *lode_memory_source_to_string (LodeMemorySource source);
char              *lode_memory_dup_id         (const char        *text);

/* lode-memory.c: the file */
GPtrArray         *lode_memory_file_read      (const char        *root,
                                               GError           **error);
gboolean           lode_memory_file_add       (const char        *root,
                                               const char        *type,
                                               const char        *category,
                                               const char        *memory,
                                               const char        *reason,
                                               const char *const *files,
                                               LodeMemory       **added,
                                               LodeMemory       **existing,
                                               GError           **error);
LodeMemory        *lode_memory_file_remove    (const char        *root,
                                               const char        *id,
                                               GError           **error);
GPtrArray         *lode_memory_read_codebase_context (const char *root,
                                               GPtrArray         *notes);

/* lode-memory-git.c: memories mined from commit subjects */
GPtrArray         *lode_memory_mine_git       (LodeGitHistory    *history);

/* lode-memory-query.c: confidence, search, and what a search's results touch */
GPtrArray         *lode_memories_load         (const char        *root,
                                               gboolean           with_git,
                                               GCancellable      *cancellable,
                                               GPtrArray         *notes,
                                               GError           **error);
void               lode_memories_assess       (GPtrArray         *memories,
                                               const char        *root,
                                               LodeGitHistory    *history,
                                               gint64             now);
GPtrArray         *lode_memories_query        (GPtrArray         *memories,
                                               const char        *type,
                                               const char        *category,
                                               const char        *query,
                                               GArray           **scores);
gboolean           lode_memory_names_file     (const LodeMemory  *memory,
                                               const char        *path);
gboolean           lode_memory_names_symbol   (const LodeMemory  *memory,
                                               const char        *name);
JsonNode          *lode_memory_to_json        (const LodeMemory  *memory);

G_END_DECLS
