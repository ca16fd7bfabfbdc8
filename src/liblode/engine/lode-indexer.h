/* lode-indexer.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "lode-config.h"
#include "lode-index-store.h"

G_BEGIN_DECLS

typedef enum
{
  LODE_INDEX_PHASE_SCANNING,
  LODE_INDEX_PHASE_INDEXING,
  LODE_INDEX_PHASE_FINISHING,
  LODE_INDEX_PHASE_EMBEDDING,
  LODE_INDEX_PHASE_WAITING,
} LodeIndexPhase;

typedef struct
{
  LodeIndexPhase phase;
  guint          done;
  guint          total;
} LodeIndexProgress;

/* Called on the thread that runs the indexer. */
typedef void (*LodeIndexProgressFunc) (const LodeIndexProgress *progress,
                                       gpointer                 user_data);

/**
 * LodeIndexReport:
 * @n_files: text files in the tree that are indexed now
 * @n_added: files indexed for the first time
 * @n_updated: files whose content changed and were re-chunked
 * @n_removed: files gone from the tree and from the index
 * @n_unchanged: files left untouched because their content hash is unchanged
 * @n_parsed: files read by the chunker (parsed, where their language has a grammar); files
 *   whose content hash is unchanged are never parsed
 * @n_chunks: chunks written by this run
 * @n_bytes: bytes read and chunked by this run
 * @n_lines: lines chunked by this run
 * @n_calls_resolved: files whose call sites this run resolved again: every file with calls
 *   after files came or went, only the changed ones after edits that left every definition,
 *   binding and import where it was
 * @skipped: (element-type LodeSkippedFile): files not indexed, each with its reason, and
 *   files indexed only in part (%LODE_SKIP_OVER_TIME_BUDGET: chunked by lines, or without
 *   their imports, because their parse went over the time budget)
 * @resumed: an earlier run was interrupted and this one completed it
 * @reset: the index was started anew (another schema version, damaged, or a forced rebuild)
 * @reset_reason: (nullable): why, for people
 * @incremental: the run read only the paths of a change list instead of scanning the tree
 * @elapsed: seconds
 * @n_embedded: chunks that got a vector in this run (issue #4)
 * @embedding_model: (nullable): the embedding model, %NULL when semantic search is
 *   unavailable
 * @embedding_notice: (nullable): why chunks were not embedded (no model, provider failure),
 *   for people; the lexical index is complete all the same
 * @branch: (nullable): the git branch (or detached commit) indexed, when indexes are
 *   branch-aware (issue #14)
 * @branch_seeded_from: (nullable): the branch whose index this branch's was copied from
 *   before the run ("" for the project's index of before branch-aware indexes); %NULL when
 *   the branch had an index already or was indexed from scratch
 */
typedef struct
{
  guint      n_files;
  guint      n_added;
  guint      n_updated;
  guint      n_removed;
  guint      n_unchanged;
  guint      n_parsed;
  guint      n_chunks;
  guint64    n_bytes;
  guint64    n_lines;
  guint      n_calls_resolved;
  GPtrArray *skipped;
  gboolean   resumed;
  gboolean   reset;
  char      *reset_reason;
  gboolean   incremental;
  double     elapsed;
  guint      n_embedded;
  char      *embedding_model;
  char      *embedding_notice;
  char      *branch;
  char      *branch_seeded_from;
} LodeIndexReport;

void             lode_index_report_free (LodeIndexReport        *report);
LodeIndexReport *lode_index_report_copy (const LodeIndexReport  *report);
const char      *lode_index_phase_to_string (LodeIndexPhase      phase);

LodeIndexReport *lode_indexer_run       (const char             *root,
                                         LodeIndexStore         *store,
                                         const LodeConfig       *config,
                                         GPtrArray              *changes,
                                         GCancellable           *cancellable,
                                         LodeIndexProgressFunc   progress,
                                         gpointer                progress_data,
                                         GError                **error);
guint           *lode_indexer_attribute_symbols (GPtrArray      *chunks,
                                                 GPtrArray      *symbols);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeIndexReport, lode_index_report_free)

G_END_DECLS
