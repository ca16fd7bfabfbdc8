/* lode-index-store.h — the one interface to a project's index, and the rows it holds
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "lode-calls.h"
#include "lode-chunk.h"
#include "lode-graph.h"
#include "lode-grep-query.h"
#include "lode-references.h"

G_BEGIN_DECLS

/* Meta key: "off" when the import graph was removed and indexing leaves it alone. */
#define LODE_GRAPH_META_KEY "graph"

/* Meta key: "stale" from the batch that changed a file until its calls are resolved again. */
#define LODE_CALLS_META_KEY "calls"

/* In a symbol's attribution (put_file): it belongs to no chunk. */
#define LODE_INDEX_STORE_NO_CHUNK G_MAXUINT

/* The rows of an index ------------------------------------------------------------------ */

/**
 * LodeFileInfo:
 * @path: relative to the project root, `/`-separated
 * @language: (nullable): its language id; %NULL is stored as "text"
 * @hash: (nullable): the git blob id (SHA-1 hex) of its content
 * @size: bytes
 * @mtime_usec: modification time
 * @n_lines: lines
 * @prepared: (nullable): what lode_index_store_prepare_file() made of the chunks put with it
 *
 * A file as the indexer writes it (borrowed strings).
 */
typedef struct
{
  const char *path;
  const char *language;
  const char *hash;
  guint64     size;
  gint64      mtime_usec;
  guint       n_lines;
  GBytes     *prepared;
} LodeFileInfo;

/**
 * LodeStoredFile:
 * @path: relative to the project root
 * @language: its language id
 * @hash: (nullable): its content hash
 * @size: bytes
 * @mtime_usec: modification time
 * @n_lines: lines
 *
 * A file as the index holds it.
 */
typedef struct
{
  char    *path;
  char    *language;
  char    *hash;
  guint64  size;
  gint64   mtime_usec;
  guint    n_lines;
} LodeStoredFile;

/**
 * LodeStoreStats:
 * @n_files: files
 * @n_chunks: chunks
 * @n_symbols: declarations
 * @n_bytes: source bytes indexed
 * @n_lines: source lines indexed
 */
typedef struct
{
  guint   n_files;
  guint   n_chunks;
  guint   n_symbols;
  guint64 n_bytes;
  guint64 n_lines;
} LodeStoreStats;

/**
 * LodeStoredImport:
 * @id: its id in the index (ignored by put_imports): what set_import_targets takes
 * @path: the importing file
 * @specifier: the import as written (`./util`, `os.path`, `foo.h`)
 * @name: (nullable): the name imported from @specifier where it may be a module (#LodeImport)
 * @kind: (nullable): how it is written, lode_import_kind_to_string()
 * @line: 1-based line of the import
 * @key: (nullable): the resolver's candidate key, see dup_imports_for_key
 * @targets: (nullable) (array zero-terminated=1): the project files it resolves to, best
 *   first (several for a Go package, a C# namespace, a wildcard); empty or %NULL for none
 * @package: (nullable): the external package it resolves to when no project file matches
 *
 * An import of the graph (issue #6) with its resolution. Neither a target nor @package: not
 * resolved.
 */
typedef struct
{
  gint64  id;
  char   *path;
  char   *specifier;
  char   *name;
  char   *kind;
  guint   line;
  char   *key;
  GStrv   targets;
  char   *package;
} LodeStoredImport;

/**
 * LodeGraphCounts:
 * @n_imports: imports
 * @n_internal: imports resolved to a project file
 * @n_external: imports resolved to a package only
 */
typedef struct
{
  guint n_imports;
  guint n_internal;
  guint n_external;
} LodeGraphCounts;

/**
 * LodeStoreEmbedText:
 * @chunk_id: the chunk
 * @hash: the hash of its text (lode_index_store_text_hash()), which keys its vector
 * @text: the text to embed
 */
typedef struct
{
  gint64  chunk_id;
  char   *hash;
  char   *text;
} LodeStoreEmbedText;

/**
 * LodeVectorHashFunc:
 * @hash: the text hash the vector belongs to
 * @vector: (array length=dims): the vector, valid during the call only
 * @dims: its size
 * @user_data: closure
 *
 * Returns: %FALSE to stop
 */
typedef gboolean (*LodeVectorHashFunc) (const char  *hash,
                                        const float *vector,
                                        guint        dims,
                                        gpointer     user_data);

/**
 * LodeStoredSymbol:
 * @path: the file
 * @language: its language id
 * @name: the symbol's name
 * @kind: (nullable): its kind ("function", "class", …)
 * @container: (nullable): the enclosing class, impl, namespace or module
 * @signature: (nullable): the declaration's head
 * @start_line: first line, 1-based
 * @end_line: last line
 * @package: (nullable): the module, package or namespace it belongs to (#LodeSymbol)
 * @scope: (nullable): its scope path (#LodeSymbol)
 * @detail: (nullable): the details the chunker extracted, as JSON
 *
 * A declaration with its file, for the symbol tools.
 */
typedef struct
{
  char  *path;
  char  *language;
  char  *name;
  char  *kind;
  char  *container;
  char  *signature;
  guint  start_line;
  guint  end_line;
  char  *package;
  char  *scope;
  char  *detail;
} LodeStoredSymbol;

/**
 * LodeStoredCall:
 * @path: the file of the call
 * @caller: (nullable): the enclosing definition's name; %NULL at file level
 * @caller_line: the enclosing definition's first line; 0 at file level
 * @callee: the callee's name as written
 * @qualifier: (nullable): the receiver or path written before it
 * @line: the call's line
 * @status: how its resolution ended
 * @rule: the rule that decided it
 * @confidence: 0–1
 * @target_path: (nullable): the file of the definition it reaches (resolved), or of one
 *   candidate (ambiguous: one row per candidate)
 * @target_line: that definition's first line
 * @package: (nullable): the dependency of an external call
 *
 * One call as the index keeps it. A definition is named by its file and first line, which
 * the symbols of that file hold (#LodeStoredSymbol).
 */
typedef struct
{
  char           *path;
  char           *caller;
  guint           caller_line;
  char           *callee;
  char           *qualifier;
  guint           line;
  LodeCallStatus  status;
  LodeCallRule    rule;
  double          confidence;
  char           *target_path;
  guint           target_line;
  char           *package;
} LodeStoredCall;

/**
 * LodeStoredReferences:
 * @path: the file
 * @language: its language id
 * @sites: (element-type guint32): where the name appears, see lode_reference_site_line()
 *
 * The sites of one name in one file.
 */
typedef struct
{
  char   *path;
  char   *language;
  GArray *sites;
} LodeStoredReferences;

/**
 * LodeStoredArtifact:
 * @name: the artifact's name
 * @path: its path as declared
 * @description: (nullable): what it is
 * @hash: the content hash it was indexed at
 * @indexed_at: when (µs since the epoch)
 * @n_files: files indexed
 * @n_chunks: pieces indexed
 */
typedef struct
{
  char   *name;
  char   *path;
  char   *description;
  char   *hash;
  gint64  indexed_at;
  guint   n_files;
  guint   n_chunks;
} LodeStoredArtifact;

/**
 * LodeArtifactChunk:
 * @path: the file it comes from, as given to lode_artifact_chunk_text()
 * @start_line: first line, 1-based
 * @end_line: last line, inclusive
 * @kind: what the piece is: "sql", "openapi-path", "openapi-schema", "section", "block",
 *   "text"
 * @title: (nullable): its name: `CREATE TABLE users`, `GET /users/{id}`, `schema User`,
 *   a heading, `message Order`
 * @body: the text
 *
 * A searchable piece of a context artifact (lode-artifact-chunker.h cuts them).
 */
typedef struct
{
  char  *path;
  guint  start_line;
  guint  end_line;
  char  *kind;
  char  *title;
  char  *body;
} LodeArtifactChunk;

/**
 * LodeArtifactHit:
 * @artifact: the artifact's name
 * @path: the file of the piece
 * @start_line: first line
 * @end_line: last line
 * @kind: (nullable): the piece's kind (lode_artifact_chunk_text())
 * @title: (nullable): its title
 * @body: its text
 * @relevance: BM25, higher is better: set by lode_artifact_search(), 0 as a store returns it
 */
typedef struct
{
  char   *artifact;
  char   *path;
  guint   start_line;
  guint   end_line;
  char   *kind;
  char   *title;
  char   *body;
  double  relevance;
} LodeArtifactHit;

/* In BM25 over context artifacts, a hit in a piece's title counts this many times one in its
 * text: a question naming a table matches its statement. */
#define LODE_ARTIFACT_TITLE_WEIGHT 4.0

/**
 * LodeArtifactStats:
 * @n_pieces: the pieces of every artifact
 * @n_tokens: their length in tokens, all together: the tokens of their titles and texts as
 *   the code tokenizer cuts them, an identifier's parts counting once with it
 * @n_holding: (array): for each prefix asked about, the pieces of every artifact that hold a
 *   token starting with it (caller-allocated)
 *
 * What BM25 needs to know of all the pieces, for lode_artifact_search().
 */
typedef struct
{
  guint64  n_pieces;
  guint64  n_tokens;
  guint64 *n_holding;
} LodeArtifactStats;

void lode_stored_file_free       (LodeStoredFile       *file);
void lode_stored_import_free     (LodeStoredImport     *import);
void lode_store_embed_text_free  (LodeStoreEmbedText   *text);
void lode_stored_symbol_free     (LodeStoredSymbol     *symbol);
void lode_stored_references_free (LodeStoredReferences *references);
void lode_stored_call_free       (LodeStoredCall       *call);
void lode_stored_artifact_free   (LodeStoredArtifact   *artifact);
void lode_artifact_chunk_free    (LodeArtifactChunk    *chunk);
void lode_artifact_hit_free      (LodeArtifactHit      *hit);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeStoredFile, lode_stored_file_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeStoredImport, lode_stored_import_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeStoreEmbedText, lode_store_embed_text_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeStoredSymbol, lode_stored_symbol_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeStoredReferences, lode_stored_references_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeStoredCall, lode_stored_call_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeStoredArtifact, lode_stored_artifact_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeArtifactChunk, lode_artifact_chunk_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeArtifactHit, lode_artifact_hit_free)

/* The interface ------------------------------------------------------------------------- */

#define LODE_TYPE_INDEX_STORE (lode_index_store_get_type ())
G_DECLARE_INTERFACE (LodeIndexStore, lode_index_store, LODE, INDEX_STORE, GObject)

/**
 * LodeIndexStoreInterface:
 * @get_was_reset: whether opening for writing found an unusable index (another schema
 *   version, damaged, unfinished) and started a new, empty one
 * @get_reset_reason: (nullable): why it did, for people; %NULL when it did not
 * @check: (optional): checks what only a search would read (every page of a file, say); a
 *   damaged index fails with %LODE_ERROR_DAMAGED and is marked so, and the next writer
 *   starts it anew. Without it a store is taken as whole
 * @is_damaged: (optional): whether a query found the index damaged since it was opened: the
 *   store is of no further use, open it again. Without it: never
 * @dup_file_hashes: path → content hash (%NULL where forgotten, see @clear_graph) of every
 *   file
 * @dup_files: every file (#LodeStoredFile), by path
 * @begin: opens a batch, which lands whole at @commit or not at all (@rollback, a failed
 *   @commit, a crash): after a crash every file of the batch is as it was before or as the
 *   batch put it, and one left as before keeps its old hash (or none), so the next run puts
 *   it again. One batch at a time
 * @commit: writes the batch; on failure it is dropped
 * @rollback: drops everything since @begin; does nothing outside a batch
 * @end_files: (optional): says, outside a batch, that the run has put every file it will:
 *   what follows (imports, calls, the run's end) holds long batches over pages already
 *   written, so the SQLite store leaves a new index's rollback journal for WAL here, where
 *   readers never wait for the writer. Without it: nothing
 * @prepare_file: (optional): does ahead, on any thread and while the index is being written,
 *   what storing @file with @chunks needs of neither (the SQLite store tokenizes their text);
 *   what it gives goes to @put_file in #LodeFileInfo.prepared. Without it, or when it gives
 *   %NULL: @put_file does everything
 * @put_file: replaces everything stored from @file's path by @chunks (in their order; each
 *   gets a chunk id never used before) and @symbols, each with the chunk it belongs to:
 *   @symbol_chunks[i] is the index in @chunks of the chunk of @symbols[i], as the indexer
 *   decided it (lode_indexer_attribute_symbols()); a symbol without a name or a chunk
 *   (%LODE_INDEX_STORE_NO_CHUNK) is not stored. Inside a batch a failure may leave the file
 *   half written: the caller rolls back. Outside a batch it is a batch of its own, as are the
 *   other writes of files, imports and meta
 * @put_references: replaces the references of @path, a file put before (in the same batch);
 *   %NULL or none stores none. %LODE_ERROR_NOT_FOUND for a path the index does not hold
 * @set_file_stamp: stores @size and @mtime_usec as those of @path, whose content the index
 *   holds as it is (a file touched, or copied with its times): nothing else changes. A path
 *   the index does not hold is left alone
 * @remove_file: removes @path and everything stored from it; the imports that reached it
 *   lose it as a target. A path the index does not hold is removed at once
 * @dup_meta: (nullable): the value stored under @key
 * @set_meta: stores @value under @key
 * @get_stats: counts of files, chunks and declarations, source bytes and lines
 * @dup_language_counts: language id → number of files
 * @dup_chunks_for_file: the chunks of @path by start line, end line, then in the order they
 *   were put, with their text and the context of their search text
 *   (lode_chunk_set_search_text()); none for a path not held
 * @dup_symbols_for_file: the declarations (#LodeSymbol) of @path, by line then in the order
 *   they were put, and (@symbol_chunks, optional) the chunk each belongs to, as an index into
 *   what @dup_chunks_for_file returns: what put_file was given, so that a copy keeps it
 * @put_imports: replaces the imports (#LodeStoredImport) of @path, a file put before, with
 *   their resolution. %LODE_ERROR_NOT_FOUND for a path the index does not hold
 * @dup_imports: the imports of @path by line, or of every file with %NULL
 * @dup_imports_for_key: the imports whose resolution a file with the candidate key @key
 *   could change
 * @dup_imports_to: the imports resolved to the project file @target
 * @set_import_targets: records a new resolution of one import (its id from the calls above);
 *   an import that is gone since (its file was removed) is left alone
 * @load_graph: the import graph: every file, every resolved import whose target is a file
 *   the index holds, external packages
 * @get_graph_counts: how many imports there are and how many are resolved
 * @clear_graph: deletes every import, call site and call, outside a batch; with
 *   @forget_hashes the files' hashes too, so that the next run reads every file again
 * @put_call_sites: replaces the call sites of @path, a file put before (in the same batch):
 *   lode_calls_to_bytes()'s bytes, kept as they are. %LODE_ERROR_NOT_FOUND for a path the
 *   index does not hold
 * @dup_call_sites: path → the call sites (#GBytes) of every file that has them
 * @dup_file_call_sites: the call sites of @path alone, %NULL (without @error) when it has none
 * @put_calls: replaces the calls (#LodeStoredCall) of @path, a file put before, in the order
 *   given; their @path is ignored. %LODE_ERROR_NOT_FOUND for a path the index does not hold
 * @dup_calls: the calls of @path in the order they were put, or of every file with %NULL
 * @dup_unembedded: the next chunks after @after_chunk (by id, 0 for all), at most @limit,
 *   whose text has no vector of @model (#LodeStoreEmbedText): each chunk is listed even when
 *   several share a text, which the caller embeds once
 * @put_vectors: gives every chunk whose text has one of @hashes its vector of @model, in a
 *   write of its own (outside a batch); a vector of a different size than @model's stored
 *   ones is refused. @n_chunks: the chunks that got one
 * @count_embedded: chunks whose text has a vector of @model (%NULL: none) and chunks that can
 *   have one (all but blank ones)
 * @prune_vectors: drops the vectors of every model but @model (a model change embeds again)
 * @foreach_vector: each vector of @model with the text hash it belongs to, each hash once
 * @find_symbols: the declarations named @name (#LodeStoredSymbol), at most @limit, by path and
 *   line; with @ignore_case, those whose name differs in ASCII case only too
 * @dup_file_symbols: the declarations of @path with their file, by line
 * @dup_file_symbol_spans: (optional) the declarations of @path whose lines meet @first_line
 *   to @last_line, as @dup_file_symbols orders them, with their name and lines only
 * @dup_package_symbols: the declarations of a declared package, or (@path_glob, one of the
 *   two) of the files whose path matches the glob (`*` any run of characters, `/` included),
 *   by path and line
 * @find_container_members: the declarations whose container is @container, by path and line
 * @find_references: the files where the identifier @name appears in code
 *   (#LodeStoredReferences), by path
 * @dup_references_for_file: the references stored for @path (none for a path not held)
 * @dup_line_chunks: the chunks of @path that span lines @first to @last (their lines and
 *   text), by start line then end line
 * @dup_artifacts: the context artifacts (#LodeStoredArtifact), by name
 * @dup_artifact_chunks: the pieces of artifact @name in the order they were put
 * @put_artifact: replaces what is stored under @artifact's name by it and @chunks
 *   (#LodeArtifactChunk; its @n_chunks is ignored), outside a batch. Artifacts live apart
 *   from the code: no code query, count or graph sees them
 * @remove_artifact: removes an artifact and its pieces (none stored: done)
 * @find_artifact_pieces: the pieces (#LodeArtifactHit) that hold a token starting with one of
 *   @prefixes (lower-case words), of @artifact when set, with the statistics of all pieces
 *   (@stats). At most @limit: which, when more match, is the store's choice (each picks by
 *   its own BM25, titles weighing %LODE_ARTIFACT_TITLE_WEIGHT); their order means nothing
 * @find_text_files: (optional): the files (#LodeStoredFile, by path; their path and
 *   language, the rest may be unset) whose indexed text holds what @query requires (each trigram of each literal, by its AND and OR, case
 *   folded), never fewer: codebase_grep reads them. Without it every file is read; see
 *   lode_index_store_find_text_files()
 *
 * A project's index, wherever it is kept: the SQLite store (#LodeStore, on this machine) or
 * the Qdrant store (#LodeQdrantStore, a server). The indexer, the embedding pass, a project,
 * the symbol tools and the context tools see the index through it alone (searches go
 * through #LodeSearchBackend, which both stores implement too); open one with
 * lode_index_store_open().
 *
 * A store stores and fetches: what a row means (which chunk a declaration belongs to, how
 * artifacts rank, how an import resolves) is decided above it, once for both stores
 * (lode_indexer_attribute_symbols(), lode_artifact_search(), #LodeImportResolver). A
 * store is used from one thread at a time, and every call may block on disk or network:
 * call it from worker threads. Calls fail with a #GError: %LODE_ERROR_STORE when the index
 * cannot be read or written (a full disk said so), %LODE_ERROR_DAMAGED for a damaged one,
 * and the codes a call names above; text to store (paths, code, names) is stored as given.
 */
struct _LodeIndexStoreInterface
{
  GTypeInterface parent_iface;

  gboolean    (*get_was_reset)       (LodeIndexStore      *self);
  const char *(*get_reset_reason)    (LodeIndexStore      *self);
  gboolean    (*check)               (LodeIndexStore      *self,
                                      GError             **error);
  gboolean    (*is_damaged)          (LodeIndexStore      *self);

  /* Files and batches */
  GHashTable *(*dup_file_hashes)     (LodeIndexStore      *self,
                                      GError             **error);
  GPtrArray  *(*dup_files)           (LodeIndexStore      *self,
                                      GError             **error);
  gboolean    (*begin)               (LodeIndexStore      *self,
                                      GError             **error);
  gboolean    (*commit)              (LodeIndexStore      *self,
                                      GError             **error);
  void        (*rollback)            (LodeIndexStore      *self);
  gboolean    (*end_files)           (LodeIndexStore      *self,
                                      GError             **error);
  GBytes     *(*prepare_file)        (LodeIndexStore      *self,
                                      const LodeFileInfo  *file,
                                      GPtrArray           *chunks);
  gboolean    (*put_file)            (LodeIndexStore      *self,
                                      const LodeFileInfo  *file,
                                      GPtrArray           *chunks,
                                      GPtrArray           *symbols,
                                      const guint         *symbol_chunks,
                                      GError             **error);
  gboolean    (*put_references)      (LodeIndexStore      *self,
                                      const char          *path,
                                      LodeReferences      *references,
                                      GError             **error);
  gboolean    (*set_file_stamp)      (LodeIndexStore      *self,
                                      const char          *path,
                                      guint64              size,
                                      gint64               mtime_usec,
                                      GError             **error);
  gboolean    (*remove_file)         (LodeIndexStore      *self,
                                      const char          *path,
                                      GError             **error);
  char       *(*dup_meta)            (LodeIndexStore      *self,
                                      const char          *key);
  gboolean    (*set_meta)            (LodeIndexStore      *self,
                                      const char          *key,
                                      const char          *value,
                                      GError             **error);
  gboolean    (*get_stats)           (LodeIndexStore      *self,
                                      LodeStoreStats      *stats,
                                      GError             **error);
  GHashTable *(*dup_language_counts) (LodeIndexStore      *self,
                                      GError             **error);
  GPtrArray  *(*dup_chunks_for_file) (LodeIndexStore      *self,
                                      const char          *path,
                                      GError             **error);
  GPtrArray  *(*dup_symbols_for_file) (LodeIndexStore     *self,
                                      const char          *path,
                                      GArray             **symbol_chunks,
                                      GError             **error);

  /* The import graph (issue #6) */
  gboolean    (*put_imports)         (LodeIndexStore      *self,
                                      const char          *path,
                                      GPtrArray           *imports,
                                      GError             **error);
  GPtrArray  *(*dup_imports)         (LodeIndexStore      *self,
                                      const char          *path,
                                      GError             **error);
  GPtrArray  *(*dup_imports_for_key) (LodeIndexStore      *self,
                                      const char          *key,
                                      GError             **error);
  GPtrArray  *(*dup_imports_to)      (LodeIndexStore      *self,
                                      const char          *target,
                                      GError             **error);
  gboolean    (*set_import_targets)  (LodeIndexStore      *self,
                                      gint64               import_id,
                                      const char * const  *targets,
                                      const char          *package,
                                      GError             **error);
  LodeGraph  *(*load_graph)          (LodeIndexStore      *self,
                                      GError             **error);
  gboolean    (*get_graph_counts)    (LodeIndexStore      *self,
                                      LodeGraphCounts     *counts,
                                      GError             **error);
  gboolean    (*clear_graph)         (LodeIndexStore      *self,
                                      gboolean             forget_hashes,
                                      GError             **error);

  /* The call graph (issue #28) */
  gboolean    (*put_call_sites)      (LodeIndexStore      *self,
                                      const char          *path,
                                      GBytes              *sites,
                                      GError             **error);
  GHashTable *(*dup_call_sites)      (LodeIndexStore      *self,
                                      GError             **error);
  GBytes     *(*dup_file_call_sites) (LodeIndexStore      *self,
                                      const char          *path,
                                      GError             **error);
  gboolean    (*put_calls)           (LodeIndexStore      *self,
                                      const char          *path,
                                      GPtrArray           *calls,
                                      GError             **error);
  GPtrArray  *(*dup_calls)           (LodeIndexStore      *self,
                                      const char          *path,
                                      GError             **error);

  /* Vectors (issue #4) */
  GPtrArray  *(*dup_unembedded)      (LodeIndexStore      *self,
                                      const char          *model,
                                      gint64               after_chunk,
                                      guint                limit,
                                      GError             **error);
  gboolean    (*put_vectors)         (LodeIndexStore      *self,
                                      const char          *model,
                                      guint                dims,
                                      const char * const  *hashes,
                                      const float         *vectors,
                                      guint                n_vectors,
                                      guint               *n_chunks,
                                      GError             **error);
  gboolean    (*count_embedded)      (LodeIndexStore      *self,
                                      const char          *model,
                                      guint               *n_embedded,
                                      guint               *n_embeddable,
                                      GError             **error);
  gboolean    (*prune_vectors)       (LodeIndexStore      *self,
                                      const char          *model,
                                      GError             **error);
  gboolean    (*foreach_vector)      (LodeIndexStore      *self,
                                      const char          *model,
                                      LodeVectorHashFunc   func,
                                      gpointer             user_data,
                                      GError             **error);

  /* What the symbol tools read (issue #15) */
  GPtrArray  *(*find_symbols)        (LodeIndexStore      *self,
                                      const char          *name,
                                      gboolean             ignore_case,
                                      guint                limit,
                                      GError             **error);
  GPtrArray  *(*dup_file_symbols)    (LodeIndexStore      *self,
                                      const char          *path,
                                      GError             **error);
  GPtrArray  *(*dup_file_symbol_spans) (LodeIndexStore    *self,
                                      const char          *path,
                                      guint                first_line,
                                      guint                last_line,
                                      GError             **error);
  GPtrArray  *(*dup_package_symbols) (LodeIndexStore      *self,
                                      const char          *package,
                                      const char          *path_glob,
                                      guint                limit,
                                      GError             **error);
  GPtrArray  *(*find_container_members) (LodeIndexStore   *self,
                                      const char          *container,
                                      guint                limit,
                                      GError             **error);
  GPtrArray  *(*find_references)     (LodeIndexStore      *self,
                                      const char          *name,
                                      GError             **error);
  LodeReferences *(*dup_references_for_file) (LodeIndexStore *self,
                                      const char          *path,
                                      GError             **error);
  GPtrArray  *(*dup_line_chunks)     (LodeIndexStore      *self,
                                      const char          *path,
                                      guint                first,
                                      guint                last,
                                      GError             **error);

  /* Context artifacts (issue #15) */
  GPtrArray  *(*dup_artifacts)       (LodeIndexStore      *self,
                                      GError             **error);
  GPtrArray  *(*dup_artifact_chunks) (LodeIndexStore      *self,
                                      const char          *name,
                                      GError             **error);
  gboolean    (*put_artifact)        (LodeIndexStore      *self,
                                      const LodeStoredArtifact *artifact,
                                      GPtrArray           *chunks,
                                      GError             **error);
  gboolean    (*remove_artifact)     (LodeIndexStore      *self,
                                      const char          *name,
                                      GError             **error);
  GPtrArray  *(*find_artifact_pieces) (LodeIndexStore     *self,
                                      const char * const  *prefixes,
                                      const char          *artifact,
                                      guint                limit,
                                      LodeArtifactStats   *stats,
                                      GError             **error);

  /* Exact and regex search (issue 29) */
  GPtrArray  *(*find_text_files)     (LodeIndexStore      *self,
                                      const LodeGrepQuery *query,
                                      GError             **error);
};

char       *lode_index_store_text_hash           (const char          *text);

gboolean    lode_index_store_get_was_reset       (LodeIndexStore      *self);
const char *lode_index_store_get_reset_reason    (LodeIndexStore      *self);
gboolean    lode_index_store_check               (LodeIndexStore      *self,
                                                  GError             **error);
gboolean    lode_index_store_is_damaged          (LodeIndexStore      *self);

GHashTable *lode_index_store_dup_file_hashes     (LodeIndexStore      *self,
                                                  GError             **error);
GPtrArray  *lode_index_store_dup_files           (LodeIndexStore      *self,
                                                  GError             **error);
gboolean    lode_index_store_begin               (LodeIndexStore      *self,
                                                  GError             **error);
gboolean    lode_index_store_commit              (LodeIndexStore      *self,
                                                  GError             **error);
void        lode_index_store_rollback            (LodeIndexStore      *self);
gboolean    lode_index_store_end_files           (LodeIndexStore      *self,
                                                  GError             **error);
GBytes     *lode_index_store_prepare_file        (LodeIndexStore      *self,
                                                  const LodeFileInfo  *file,
                                                  GPtrArray           *chunks);
gboolean    lode_index_store_put_file            (LodeIndexStore      *self,
                                                  const LodeFileInfo  *file,
                                                  GPtrArray           *chunks,
                                                  GPtrArray           *symbols,
                                                  const guint         *symbol_chunks,
                                                  GError             **error);
gboolean    lode_index_store_put_references      (LodeIndexStore      *self,
                                                  const char          *path,
                                                  LodeReferences      *references,
                                                  GError             **error);
gboolean    lode_index_store_set_file_stamp      (LodeIndexStore      *self,
                                                  const char          *path,
                                                  guint64              size,
                                                  gint64               mtime_usec,
                                                  GError             **error);
gboolean    lode_index_store_remove_file         (LodeIndexStore      *self,
                                                  const char          *path,
                                                  GError             **error);
char       *lode_index_store_dup_meta            (LodeIndexStore      *self,
                                                  const char          *key);
gboolean    lode_index_store_set_meta            (LodeIndexStore      *self,
                                                  const char          *key,
                                                  const char          *value,
                                                  GError             **error);
gboolean    lode_index_store_get_stats           (LodeIndexStore      *self,
                                                  LodeStoreStats      *stats,
                                                  GError             **error);
GHashTable *lode_index_store_dup_language_counts (LodeIndexStore      *self,
                                                  GError             **error);
GPtrArray  *lode_index_store_dup_chunks_for_file (LodeIndexStore      *self,
                                                  const char          *path,
                                                  GError             **error);
GPtrArray  *lode_index_store_dup_symbols_for_file (LodeIndexStore     *self,
                                                  const char          *path,
                                                  GArray             **symbol_chunks,
                                                  GError             **error);

gboolean    lode_index_store_put_imports         (LodeIndexStore      *self,
                                                  const char          *path,
                                                  GPtrArray           *imports,
                                                  GError             **error);
GPtrArray  *lode_index_store_dup_imports         (LodeIndexStore      *self,
                                                  const char          *path,
                                                  GError             **error);
GPtrArray  *lode_index_store_dup_imports_for_key (LodeIndexStore      *self,
                                                  const char          *key,
                                                  GError             **error);
GPtrArray  *lode_index_store_dup_imports_to      (LodeIndexStore      *self,
                                                  const char          *target,
                                                  GError             **error);
gboolean    lode_index_store_set_import_targets  (LodeIndexStore      *self,
                                                  gint64               import_id,
                                                  const char * const  *targets,
                                                  const char          *package,
                                                  GError             **error);
LodeGraph  *lode_index_store_load_graph          (LodeIndexStore      *self,
                                                  GError             **error);
gboolean    lode_index_store_get_graph_counts    (LodeIndexStore      *self,
                                                  LodeGraphCounts     *counts,
                                                  GError             **error);
gboolean    lode_index_store_clear_graph         (LodeIndexStore      *self,
                                                  gboolean             forget_hashes,
                                                  GError             **error);

gboolean    lode_index_store_put_call_sites      (LodeIndexStore      *self,
                                                  const char          *path,
                                                  GBytes              *sites,
                                                  GError             **error);
GHashTable *lode_index_store_dup_call_sites      (LodeIndexStore      *self,
                                                  GError             **error);
GBytes     *lode_index_store_dup_file_call_sites (LodeIndexStore      *self,
                                                  const char          *path,
                                                  GError             **error);
gboolean    lode_index_store_put_calls           (LodeIndexStore      *self,
                                                  const char          *path,
                                                  GPtrArray           *calls,
                                                  GError             **error);
GPtrArray  *lode_index_store_dup_calls           (LodeIndexStore      *self,
                                                  const char          *path,
                                                  GError             **error);

GPtrArray  *lode_index_store_dup_unembedded      (LodeIndexStore      *self,
                                                  const char          *model,
                                                  gint64               after_chunk,
                                                  guint                limit,
                                                  GError             **error);
gboolean    lode_index_store_put_vectors         (LodeIndexStore      *self,
                                                  const char          *model,
                                                  guint                dims,
                                                  const char * const  *hashes,
                                                  const float         *vectors,
                                                  guint                n_vectors,
                                                  guint               *n_chunks,
                                                  GError             **error);
gboolean    lode_index_store_count_embedded      (LodeIndexStore      *self,
                                                  const char          *model,
                                                  guint               *n_embedded,
                                                  guint               *n_embeddable,
                                                  GError             **error);
gboolean    lode_index_store_prune_vectors       (LodeIndexStore      *self,
                                                  const char          *model,
                                                  GError             **error);
gboolean    lode_index_store_foreach_vector      (LodeIndexStore      *self,
                                                  const char          *model,
                                                  LodeVectorHashFunc   func,
                                                  gpointer             user_data,
                                                  GError             **error);

GPtrArray  *lode_index_store_find_symbols        (LodeIndexStore      *self,
                                                  const char          *name,
                                                  guint                limit,
                                                  GError             **error);
GPtrArray  *lode_index_store_dup_file_symbols    (LodeIndexStore      *self,
                                                  const char          *path,
                                                  GError             **error);
GPtrArray  *lode_index_store_dup_file_symbol_spans (LodeIndexStore    *self,
                                                  const char          *path,
                                                  guint                first_line,
                                                  guint                last_line,
                                                  GError             **error);
GPtrArray  *lode_index_store_dup_package_symbols (LodeIndexStore      *self,
                                                  const char          *package,
                                                  const char          *path_glob,
                                                  guint                limit,
                                                  GError             **error);
GPtrArray  *lode_index_store_find_container_members (LodeIndexStore   *self,
                                                  const char          *container,
                                                  guint                limit,
                                                  GError             **error);
GPtrArray  *lode_index_store_find_references     (LodeIndexStore      *self,
                                                  const char          *name,
                                                  GError             **error);
LodeReferences *lode_index_store_dup_references_for_file (LodeIndexStore *self,
                                                  const char          *path,
                                                  GError             **error);
GPtrArray  *lode_index_store_dup_line_texts      (LodeIndexStore      *self,
                                                  const char          *path,
                                                  const guint         *lines,
                                                  guint                n_lines,
                                                  GError             **error);
char       *lode_index_store_dup_lines           (LodeIndexStore      *self,
                                                  const char          *path,
                                                  guint                first,
                                                  guint                last,
                                                  GError             **error);

GPtrArray  *lode_index_store_dup_artifacts       (LodeIndexStore      *self,
                                                  GError             **error);
GPtrArray  *lode_index_store_dup_artifact_chunks (LodeIndexStore      *self,
                                                  const char          *name,
                                                  GError             **error);
gboolean    lode_index_store_put_artifact        (LodeIndexStore      *self,
                                                  const LodeStoredArtifact *artifact,
                                                  GPtrArray           *chunks,
                                                  GError             **error);
gboolean    lode_index_store_remove_artifact     (LodeIndexStore      *self,
                                                  const char          *name,
                                                  GError             **error);
GPtrArray  *lode_index_store_find_artifact_pieces (LodeIndexStore     *self,
                                                  const char * const  *prefixes,
                                                  const char          *artifact,
                                                  guint                limit,
                                                  LodeArtifactStats   *stats,
                                                  GError             **error);
GPtrArray  *lode_index_store_find_text_files     (LodeIndexStore      *self,
                                                  const LodeGrepQuery *query,
                                                  gboolean            *indexed,
                                                  GError             **error);

G_END_DECLS
