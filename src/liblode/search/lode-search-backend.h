/* lode-search-backend.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/**
 * LodeLexicalGroup:
 * @term: a token as the code tokenizer writes it (lower case)
 * @parts: (nullable) (array zero-terminated=1): tokens that, all present, also match the
 *   group (`parse`, `http`, `request` for `parsehttprequest`)
 * @weight: how much a match counts, relative to a plain word (1)
 *
 * One unit of a lexical query: @term, or all of @parts.
 */
typedef struct
{
  char   *term;
  char  **parts;
  double  weight;
} LodeLexicalGroup;

/**
 * LodeLexicalQuery:
 * @groups: (element-type LodeLexicalGroup): the units of the query
 * @require_all: a chunk must match every group (identifiers, paths), else any (words)
 * @path_only: match the file path only, not the chunk's text
 * @whole_only: a group matches by its term only, not by its parts
 *
 * What the lexical leg looks for, independent of any query language: each backend turns it
 * into its own (an FTS5 MATCH expression, a sparse vector).
 */
typedef struct
{
  GPtrArray *groups;
  gboolean   require_all;
  gboolean   path_only;
  gboolean   whole_only;
} LodeLexicalQuery;

/**
 * LodeSearchFilter:
 * @language: (nullable): only files of this language id
 * @path_glob: (nullable): only paths this filter matches (lode_search_path_filter_matches())
 */
typedef struct
{
  const char *language;
  const char *path_glob;
} LodeSearchFilter;

/**
 * LodeLexicalHit:
 * @chunk_id: the chunk
 * @score: its BM25 relevance (≥ 0, higher is better)
 */
typedef struct
{
  gint64 chunk_id;
  double score;
} LodeLexicalHit;

/**
 * LodeChunkRow:
 * @chunk_id: the chunk
 * @file_id: its file, unique within the index
 * @path: the file, relative to the project root
 * @language: the file's language id
 * @start_line: first line, 1-based
 * @end_line: last line, inclusive
 * @kind: (nullable): the declaration kind
 * @symbol: (nullable): the declaration's name (several space-separated in a merged chunk)
 * @container: (nullable): the enclosing class, module, namespace
 * @signature: (nullable): the declaration's head
 */
typedef struct
{
  gint64  chunk_id;
  gint64  file_id;
  char   *path;
  char   *language;
  guint   start_line;
  guint   end_line;
  char   *kind;
  char   *symbol;
  char   *container;
  char   *signature;
} LodeChunkRow;

/**
 * LodeSymbolRow:
 * @chunk_id: the chunk that holds the declaration's first line
 * @name: the declared name
 * @kind: (nullable): function, method, class, …
 * @container: (nullable): the enclosing class, module, namespace
 * @signature: (nullable): the declaration's head
 * @start_line: first line of the declaration
 * @end_line: last line of the declaration
 */
typedef struct
{
  gint64  chunk_id;
  char   *name;
  char   *kind;
  char   *container;
  char   *signature;
  guint   start_line;
  guint   end_line;
} LodeSymbolRow;

/**
 * LodePathRow:
 * @file_id: the file
 * @path: its path, relative to the project root
 * @language: its language id
 * @first_chunk: its first chunk, 0 for a file without chunks
 */
typedef struct
{
  gint64  file_id;
  char   *path;
  char   *language;
  gint64  first_chunk;
} LodePathRow;

typedef void (*LodeVectorFunc) (gint64       chunk_id,
                                const float *vector,
                                gpointer     user_data);

/**
 * LodeVectorCursor:
 * @last_chunk: the largest chunk id seen by the last load
 * @last_seq: the largest vector sequence number seen by the last load
 *
 * Where a load of vectors stopped; zero-filled for a first load.
 */
typedef struct
{
  gint64 last_chunk;
  gint64 last_seq;
} LodeVectorCursor;

#define LODE_TYPE_SEARCH_BACKEND (lode_search_backend_get_type ())
G_DECLARE_INTERFACE (LodeSearchBackend, lode_search_backend, LODE, SEARCH_BACKEND, GObject)

/**
 * LodeSearchBackendInterface:
 * @lexical: the best @limit chunks for @query that pass @filter, by BM25, best first, with
 *   the query's weight: the relevance a chunk holding each of its terms once in its body
 *   would get (what LodeSearcher scales relevance by)
 * @score_lexical: the BM25 relevance of given chunks for @query (0 where they do not match)
 * @find_symbols: declarations named @name, ignoring case
 * @find_chunk_symbols: the declarations whose first line a chunk holds, by line
 * @fetch_chunks: the rows of given chunks, %NULL for a chunk that is gone
 * @dup_chunk_text: the text of a chunk
 * @find_paths: files whose path contains @needle, ignoring ASCII case, passing @filter
 * @get_version: a number that changes whenever the index does
 * @dup_chunk_ids: the ids, ascending, of the chunks that can have a vector, or with a
 *   filter of every chunk that passes it
 * @get_vector_dims: dimensions of @model's stored vectors, 0 when there are none
 * @load_vectors: every chunk that got a vector of @model since @cursor, moving @cursor
 * @dense: (optional): a backend that searches vectors itself (a server): the best @limit
 *   chunks by cosine to @vector among those embedded with @model that pass @filter, best
 *   first, with how many chunks have a vector of @model and how many could; the searcher
 *   then keeps no vectors in memory
 * @doc_frequencies: (optional): how many chunks hold each of @terms (in any column) and how
 *   many chunks there are, so that a long query keeps its rarest words
 * @find_text: (optional): the chunks whose text holds @text (ASCII case folded), in no
 *   order; none, and @common set, when more than @max_chunks do
 *
 * The narrow interface between LodeSearcher, which ranks, and a store, which only returns
 * candidate rows and statistics. Each call runs on the searcher's thread; a backend is used
 * by one searcher at a time. See docs/architecture.md, "Search".
 */
struct _LodeSearchBackendInterface
{
  GTypeInterface parent_iface;

  gboolean   (*lexical)         (LodeSearchBackend       *self,
                                 const LodeLexicalQuery  *query,
                                 const LodeSearchFilter  *filter,
                                 guint                    limit,
                                 GCancellable            *cancellable,
                                 GArray                  *hits,
                                 double                  *weight,
                                 GError                 **error);
  gboolean   (*score_lexical)   (LodeSearchBackend       *self,
                                 const LodeLexicalQuery  *query,
                                 const gint64            *chunk_ids,
                                 guint                    n_chunks,
                                 double                  *scores,
                                 GError                 **error);
  GPtrArray *(*find_symbols)    (LodeSearchBackend       *self,
                                 const char              *name,
                                 guint                    limit,
                                 GError                 **error);
  GPtrArray *(*find_chunk_symbols) (LodeSearchBackend    *self,
                                 gint64                   chunk_id,
                                 GError                 **error);
  GPtrArray *(*fetch_chunks)    (LodeSearchBackend       *self,
                                 const gint64            *chunk_ids,
                                 guint                    n_chunks,
                                 GError                 **error);
  char      *(*dup_chunk_text)  (LodeSearchBackend       *self,
                                 gint64                   chunk_id,
                                 GError                 **error);
  GPtrArray *(*find_paths)      (LodeSearchBackend       *self,
                                 const char              *needle,
                                 const LodeSearchFilter  *filter,
                                 GError                 **error);
  gint64     (*get_version)     (LodeSearchBackend       *self);
  GArray    *(*dup_chunk_ids)   (LodeSearchBackend       *self,
                                 const LodeSearchFilter  *filter,
                                 GError                 **error);
  gboolean   (*get_vector_dims) (LodeSearchBackend       *self,
                                 const char              *model,
                                 guint                   *dims,
                                 GError                 **error);
  gboolean   (*load_vectors)    (LodeSearchBackend       *self,
                                 const char              *model,
                                 guint                    dims,
                                 LodeVectorCursor        *cursor,
                                 LodeVectorFunc           func,
                                 gpointer                 user_data,
                                 GError                 **error);
  gboolean   (*dense)           (LodeSearchBackend       *self,
                                 const char              *model,
                                 const float             *vector,
                                 guint                    dims,
                                 const LodeSearchFilter  *filter,
                                 guint                    limit,
                                 GArray                  *hits,
                                 guint                   *n_embedded,
                                 guint                   *n_embeddable,
                                 GError                 **error);
  gboolean   (*doc_frequencies) (LodeSearchBackend       *self,
                                 const char *const       *terms,
                                 guint                    n_terms,
                                 guint                   *counts,
                                 guint                   *n_chunks,
                                 GError                 **error);
  gboolean   (*find_text)       (LodeSearchBackend       *self,
                                 const char              *text,
                                 guint                    max_chunks,
                                 GArray                  *chunk_ids,
                                 gboolean                *common,
                                 GError                 **error);
  gboolean   (*begin_read)      (LodeSearchBackend       *self,
                                 GError                 **error);
  void       (*end_read)        (LodeSearchBackend       *self);
};

void      lode_lexical_query_free   (LodeLexicalQuery *query);
void      lode_chunk_row_free       (LodeChunkRow     *row);
void      lode_symbol_row_free      (LodeSymbolRow    *row);
void      lode_path_row_free        (LodePathRow      *row);
gboolean  lode_search_path_filter_matches (const char          *filter,
                                           const char          *path);
gboolean  lode_search_filter_accepts (const LodeSearchFilter *filter,
                                      const char             *language,
                                      const char             *path);

gboolean   lode_search_backend_lexical         (LodeSearchBackend       *self,
                                                const LodeLexicalQuery  *query,
                                                const LodeSearchFilter  *filter,
                                                guint                    limit,
                                                GCancellable            *cancellable,
                                                GArray                  *hits,
                                                double                  *weight,
                                                GError                 **error);
gboolean   lode_search_backend_score_lexical   (LodeSearchBackend       *self,
                                                const LodeLexicalQuery  *query,
                                                const gint64            *chunk_ids,
                                                guint                    n_chunks,
                                                double                  *scores,
                                                GError                 **error);
GPtrArray *lode_search_backend_find_symbols    (LodeSearchBackend       *self,
                                                const char              *name,
                                                guint                    limit,
                                                GError                 **error);
GPtrArray *lode_search_backend_find_chunk_symbols (LodeSearchBackend    *self,
                                                gint64                   chunk_id,
                                                GError                 **error);
GPtrArray *lode_search_backend_fetch_chunks    (LodeSearchBackend       *self,
                                                const gint64            *chunk_ids,
                                                guint                    n_chunks,
                                                GError                 **error);
char      *lode_search_backend_dup_chunk_text  (LodeSearchBackend       *self,
                                                gint64                   chunk_id,
                                                GError                 **error);
GPtrArray *lode_search_backend_find_paths      (LodeSearchBackend       *self,
                                                const char              *needle,
                                                const LodeSearchFilter  *filter,
                                                GError                 **error);
gint64     lode_search_backend_get_version     (LodeSearchBackend       *self);
GArray    *lode_search_backend_dup_chunk_ids   (LodeSearchBackend       *self,
                                                const LodeSearchFilter  *filter,
                                                GError                 **error);
gboolean   lode_search_backend_get_vector_dims (LodeSearchBackend       *self,
                                                const char              *model,
                                                guint                   *dims,
                                                GError                 **error);
gboolean   lode_search_backend_load_vectors    (LodeSearchBackend       *self,
                                                const char              *model,
                                                guint                    dims,
                                                LodeVectorCursor        *cursor,
                                                LodeVectorFunc           func,
                                                gpointer                 user_data,
                                                GError                 **error);
gboolean   lode_search_backend_doc_frequencies (LodeSearchBackend       *self,
                                                const char *const       *terms,
                                                guint                    n_terms,
                                                guint                   *counts,
                                                guint                   *n_chunks,
                                                GError                 **error);
gboolean   lode_search_backend_find_text       (LodeSearchBackend       *self,
                                                const char              *text,
                                                guint                    max_chunks,
                                                GArray                  *chunk_ids,
                                                gboolean                *common,
                                                GError                 **error);
gboolean   lode_search_backend_begin_read      (LodeSearchBackend       *self,
                                                GError                 **error);
void       lode_search_backend_end_read        (LodeSearchBackend       *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeLexicalQuery, lode_lexical_query_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeChunkRow, lode_chunk_row_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeSymbolRow, lode_symbol_row_free)

G_END_DECLS
