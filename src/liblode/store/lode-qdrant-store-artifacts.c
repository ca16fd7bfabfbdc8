/* lode-qdrant-store-artifacts.c — the Qdrant store's context artifacts
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-qdrant"

#include "config.h"

#include <string.h>

#include "lode-code-tokenizer.h"
#include "lode-json.h"
#include "lode-qdrant-store-private.h"
#include "lode-sparse-vector.h"

/* ---- context artifacts ------------------------------------------------------------------
 *
 * Two more kinds of points, apart from the code (no query of code, files, symbols, stats or
 * the graph selects their types):
 *
 * - "artifact_piece" (UUID from the artifact's name and the piece's order): artifact, seq,
 *   path, lines, kind, title, text, its token ids (`terms`) and its length in tokens; the
 *   sparse vector `artifact_bm25`, the client-side BM25 of Lode's tokenizer as chunks get,
 *   the title weighed 4 and the text 1 as the SQLite store weighs them. It is a vector of its
 *   own so that the server's IDF of either space is over that space alone: artifacts do not
 *   move code scores, nor code artifact scores.
 * - "artifact" (UUID from the name): what #LodeStoredArtifact holds, its tokens in all
 *   (`n_tokens`) and its vocabulary (every token of its pieces).
 *
 * Each query word is a prefix: the vocabularies give each word the tokens that start with it,
 * the server finds the pieces holding any of them (its BM25 picks the candidates) and counts
 * the pieces holding each word; lode_artifact_search() ranks them, as for the SQLite store.
 *
 * An artifact is put in the order that makes a crash harmless: its record goes first, then
 * its old pieces; the new pieces are upserted, and the record with its hash comes last. A
 * crash in between leaves no record, so the artifact is indexed again; search reads only
 * pieces of artifacts that have a record.
 */

#define ARTIFACT_VECTOR "artifact_bm25"
/* Tokens a query word stands for at most (its longer forms in the vocabularies). */
#define MAX_PREFIX_TERMS 256

static const char * const artifact_fields[] = {
  "artifact", "path", "description", "hash", "indexed_at", "n_files", "n_chunks", NULL
};

static const char * const piece_fields[] = {
  "artifact", "seq", "path", "start_line", "end_line", "kind", "title", "text", NULL
};

static JsonNode *
artifact_filter (const char *type,
                 const char *name)
{
  return lode_qdrant_filter_and (_lode_qdrant_store_filter_type (type),
                                 name != NULL ? lode_qdrant_filter_match ("artifact", name)
                                              : NULL);
}

/* Pieces of the artifacts @names. */
static JsonNode *
pieces_of (GPtrArray *names)
{
  return lode_qdrant_filter_and (_lode_qdrant_store_filter_type ("artifact_piece"),
                                 lode_qdrant_filter_match_any ("artifact",
                                                               (const char * const *)
                                                                 names->pdata, names->len));
}

/* What a piece's tokens give: the artifact's vocabulary, the piece's token ids and its length
 * (tokens that are not parts of the one before, as FTS5 counts a row's size). */
typedef struct
{
  GHashTable *vocabulary;
  GHashTable *ids;
  guint       length;
} PieceTokens;

static gboolean
piece_token_cb (const char *token,
                gsize       len,
                gsize       start,
                gsize       end,
                gboolean    colocated,
                gpointer    user_data)
{
  PieceTokens *tokens = user_data;
  g_autofree char *copy = g_strndup (token, len);

  g_hash_table_add (tokens->ids, GUINT_TO_POINTER (lode_sparse_token_id (token, len)));
  if (!g_hash_table_contains (tokens->vocabulary, copy))
    g_hash_table_add (tokens->vocabulary, g_steal_pointer (&copy));
  if (!colocated)
    tokens->length++;
  return TRUE;
}

static JsonNode *
piece_point (const char              *name,
             guint                    seq,
             const LodeArtifactChunk *chunk,
             GHashTable              *vocabulary,
             guint                   *length)
{
  g_autofree char *key = g_strdup_printf ("%s\n%u", name, seq);
  g_autofree char *id = _lode_qdrant_store_name_uuid ("artifact_piece", key);
  const char *fields[LODE_SPARSE_N_FIELDS] = { NULL, chunk->title, NULL, chunk->body };
  const char *texts[] = { chunk->title, chunk->body };
  g_autoptr(LodeSparseVector) sparse = lode_sparse_vector_for_fields (fields);
  g_autoptr(GHashTable) ids = g_hash_table_new (NULL, NULL);
  PieceTokens tokens = { vocabulary, ids, 0 };
  JsonObject *point = json_object_new ();
  JsonObject *vector = json_object_new ();
  JsonObject *payload = json_object_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  for (guint t = 0; t < G_N_ELEMENTS (texts); t++)
    if (texts[t] != NULL)
      lode_code_tokenize (texts[t], strlen (texts[t]), LODE_TOKENIZE_SPLIT, piece_token_cb,
                          &tokens);
  *length = tokens.length;

  json_object_set_string_member (point, "id", id);
  json_object_set_member (vector, ARTIFACT_VECTOR, lode_qdrant_sparse_node (sparse));
  json_object_set_object_member (point, "vector", vector);
  json_object_set_string_member (payload, "type", "artifact_piece");
  json_object_set_string_member (payload, "artifact", name);
  json_object_set_int_member (payload, "seq", seq);
  _lode_qdrant_store_set_string (payload, "path", chunk->path);
  json_object_set_int_member (payload, "start_line", chunk->start_line);
  json_object_set_int_member (payload, "end_line", chunk->end_line);
  _lode_qdrant_store_set_string (payload, "kind", chunk->kind);
  _lode_qdrant_store_set_string (payload, "title", chunk->title);
  json_object_set_string_member (payload, "text", chunk->body != NULL ? chunk->body : "");
  json_object_set_array_member (payload, "terms", _lode_qdrant_store_terms_array (sparse));
  json_object_set_int_member (payload, "length", tokens.length);
  json_object_set_object_member (point, "payload", payload);
  json_node_take_object (node, point);
  return node;
}

static gint
compare_tokens (gconstpointer a,
                gconstpointer b,
                gpointer      data)
{
  return strcmp (*(const char **) a, *(const char **) b);
}

static JsonNode *
artifact_point (const LodeStoredArtifact *artifact,
                guint                     n_chunks,
                guint64                   n_tokens,
                GHashTable               *vocabulary)
{
  g_autofree char *id = _lode_qdrant_store_name_uuid ("artifact", artifact->name);
  g_autofree const char **tokens = NULL;
  JsonObject *point = json_object_new ();
  JsonObject *payload = json_object_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);
  guint n = 0;

  tokens = (const char **) g_hash_table_get_keys_as_array (vocabulary, &n);
  g_qsort_with_data (tokens, n, sizeof (char *), compare_tokens, NULL);

  json_object_set_string_member (point, "id", id);
  json_object_set_object_member (point, "vector", json_object_new ());
  json_object_set_string_member (payload, "type", "artifact");
  json_object_set_string_member (payload, "artifact", artifact->name);
  _lode_qdrant_store_set_string (payload, "path", artifact->path);
  _lode_qdrant_store_set_string (payload, "description", artifact->description);
  _lode_qdrant_store_set_string (payload, "hash", artifact->hash);
  json_object_set_int_member (payload, "indexed_at", artifact->indexed_at);
  json_object_set_int_member (payload, "n_files", artifact->n_files);
  json_object_set_int_member (payload, "n_chunks", n_chunks);
  json_object_set_int_member (payload, "n_tokens", (gint64) n_tokens);
  json_object_set_array_member (payload, "vocabulary", _lode_qdrant_store_strv_to_array (tokens));
  json_object_set_object_member (point, "payload", payload);
  json_node_take_object (node, point);
  return node;
}

static gboolean
delete_artifact_points (LodeQdrantStore  *self,
                        const char       *name,
                        GError          **error)
{
  g_autoptr(JsonNode) record = artifact_filter ("artifact", name);
  g_autoptr(JsonNode) pieces = artifact_filter ("artifact_piece", name);

  return lode_qdrant_client_delete (self->client, self->collection, record, NULL, error) &&
         lode_qdrant_client_delete (self->client, self->collection, pieces, NULL, error);
}

/* Replaces what is stored for @artifact's name (see the order above), outside any batch. */
static gboolean
qdrant_store_put_artifact (LodeIndexStore            *store,
                           const LodeStoredArtifact  *artifact,
                           GPtrArray                 *chunks,
                           GError                   **error)
{
  LodeQdrantStore *self = (LodeQdrantStore *) store;
  g_autoptr(GHashTable) vocabulary = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                            NULL);
  g_autoptr(GPtrArray) points = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  guint64 n_tokens = 0;

  g_return_val_if_fail (self->writer && !self->in_batch, FALSE);

  for (guint i = 0; i < chunks->len; i++)
    {
      guint length = 0;

      g_ptr_array_add (points, piece_point (artifact->name, i, g_ptr_array_index (chunks, i),
                                            vocabulary, &length));
      n_tokens += length;
    }

  if (!delete_artifact_points (self, artifact->name, error) ||
      !lode_qdrant_client_upsert (self->client, self->collection, points, NULL, error))
    goto failed;
  g_ptr_array_set_size (points, 0);
  g_ptr_array_add (points, artifact_point (artifact, chunks->len, n_tokens, vocabulary));
  if (!lode_qdrant_client_upsert (self->client, self->collection, points, NULL, error))
    goto failed;
  return TRUE;

failed:
  g_prefix_error (error, "Cannot write the context artifact %s to the Qdrant collection %s: ",
                  artifact->name, self->collection);
  return FALSE;
}

static gboolean
qdrant_store_remove_artifact (LodeIndexStore  *store,
                              const char      *name,
                              GError         **error)
{
  LodeQdrantStore *self = (LodeQdrantStore *) store;

  g_return_val_if_fail (self->writer && !self->in_batch, FALSE);

  if (delete_artifact_points (self, name, error))
    return TRUE;
  g_prefix_error (error, "Cannot remove the context artifact %s from the Qdrant collection %s: ",
                  name, self->collection);
  return FALSE;
}

static int
compare_artifacts (gconstpointer a,
                   gconstpointer b)
{
  return strcmp ((*(LodeStoredArtifact **) a)->name, (*(LodeStoredArtifact **) b)->name);
}

/* The indexed artifacts, by name. */
static GPtrArray *
qdrant_store_dup_artifacts (LodeIndexStore  *store,
                            GError         **error)
{
  LodeQdrantStore *self = (LodeQdrantStore *) store;
  g_autoptr(JsonNode) filter = _lode_qdrant_store_filter_type ("artifact");
  g_autoptr(GPtrArray) points = NULL;
  GPtrArray *artifacts;

  points = lode_qdrant_client_scroll (self->client, self->collection, filter, artifact_fields,
                                      NULL, 0, NULL, error);
  if (points == NULL)
    return NULL;

  artifacts = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_stored_artifact_free);
  for (guint i = 0; i < points->len; i++)
    {
      JsonObject *payload = ((LodeQdrantHit *) g_ptr_array_index (points, i))->payload;
      LodeStoredArtifact *artifact;

      if (payload == NULL || lode_json_get_string (payload, "artifact") == NULL)
        continue;
      artifact = g_new0 (LodeStoredArtifact, 1);
      artifact->name = g_strdup (lode_json_get_string (payload, "artifact"));
      artifact->path = g_strdup (lode_json_get_string (payload, "path"));
      artifact->description = g_strdup (lode_json_get_string (payload, "description"));
      artifact->hash = g_strdup (lode_json_get_string (payload, "hash"));
      artifact->indexed_at = json_object_get_int_member_with_default (payload, "indexed_at", 0);
      artifact->n_files = json_object_get_int_member_with_default (payload, "n_files", 0);
      artifact->n_chunks = json_object_get_int_member_with_default (payload, "n_chunks", 0);
      g_ptr_array_add (artifacts, artifact);
    }
  g_ptr_array_sort (artifacts, compare_artifacts);
  return artifacts;
}

static gint64
piece_seq (LodeQdrantHit *hit)
{
  return json_object_get_int_member_with_default (hit->payload, "seq", 0);
}

static int
compare_pieces (gconstpointer a,
                gconstpointer b)
{
  gint64 x = piece_seq (*(LodeQdrantHit **) a);
  gint64 y = piece_seq (*(LodeQdrantHit **) b);

  return (x > y) - (x < y);
}

static LodeArtifactChunk *
piece_from_payload (JsonObject *payload)
{
  LodeArtifactChunk *chunk = g_new0 (LodeArtifactChunk, 1);

  chunk->path = g_strdup (lode_json_get_string (payload, "path"));
  chunk->start_line = json_object_get_int_member_with_default (payload, "start_line", 0);
  chunk->end_line = json_object_get_int_member_with_default (payload, "end_line", 0);
  chunk->kind = g_strdup (lode_json_get_string (payload, "kind"));
  chunk->title = g_strdup (lode_json_get_string (payload, "title"));
  chunk->body = g_strdup (lode_json_get_string (payload, "text"));
  return chunk;
}

/* An artifact's pieces, in the order they were put. */
static GPtrArray *
qdrant_store_dup_artifact_chunks (LodeIndexStore  *store,
                                  const char      *name,
                                  GError         **error)
{
  LodeQdrantStore *self = (LodeQdrantStore *) store;
  g_autoptr(JsonNode) filter = artifact_filter ("artifact_piece", name);
  g_autoptr(GPtrArray) points = NULL;
  GPtrArray *chunks;

  points = lode_qdrant_client_scroll (self->client, self->collection, filter, piece_fields, NULL,
                                      0, NULL, error);
  if (points == NULL)
    return NULL;

  for (guint i = points->len; i-- > 0;)
    if (((LodeQdrantHit *) g_ptr_array_index (points, i))->payload == NULL)
      g_ptr_array_remove_index (points, i);
  g_ptr_array_sort (points, compare_pieces);
  chunks = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_artifact_chunk_free);
  for (guint i = 0; i < points->len; i++)
    {
      LodeQdrantHit *point = g_ptr_array_index (points, i);

      g_ptr_array_add (chunks, piece_from_payload (point->payload));
    }
  return chunks;
}

/* One query word and the tokens it stands for. */
typedef struct
{
  const char *prefix;
  GPtrArray  *tokens;     /* (element-type utf8) (owned) */
} Phrase;

static void
phrase_clear (Phrase *phrase)
{
  g_clear_pointer (&phrase->tokens, g_ptr_array_unref);
}

/* Adds the tokens of @vocabulary that start with each phrase's prefix. */
static void
expand_phrases (JsonArray *vocabulary,
                GArray    *phrases)
{
  for (guint i = 0; i < json_array_get_length (vocabulary); i++)
    {
      JsonNode *item = json_array_get_element (vocabulary, i);
      const char *token;

      if (!JSON_NODE_HOLDS_VALUE (item) || json_node_get_value_type (item) != G_TYPE_STRING)
        continue;
      token = json_node_get_string (item);
      for (guint p = 0; p < phrases->len; p++)
        {
          Phrase *phrase = &g_array_index (phrases, Phrase, p);

          if (phrase->tokens->len < MAX_PREFIX_TERMS && g_str_has_prefix (token, phrase->prefix) &&
              !g_ptr_array_find_with_equal_func (phrase->tokens, token, g_str_equal, NULL))
            g_ptr_array_add (phrase->tokens, g_strdup (token));
        }
    }
}

/* Condition: the payload list @key holds one of the ids of @tokens. */
static JsonNode *
holds_any_token (const char *key,
                 GPtrArray  *tokens)
{
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);
  JsonObject *condition = json_object_new ();
  JsonObject *match = json_object_new ();
  JsonArray *any = json_array_sized_new (tokens->len);

  for (guint i = 0; i < tokens->len; i++)
    json_array_add_int_element (any, _lode_qdrant_store_token_id (g_ptr_array_index (tokens, i)));
  json_object_set_array_member (match, "any", any);
  json_object_set_string_member (condition, "key", key);
  json_object_set_object_member (condition, "match", match);
  json_node_take_object (node, condition);
  return node;
}

/* How many pieces of the artifacts @names hold one of each phrase's tokens. */
static gboolean
count_holding (LodeQdrantStore  *self,
               GArray           *phrases,
               GPtrArray        *names,
               guint64          *n_holding,
               GError          **error)
{
  for (guint p = 0; p < phrases->len; p++)
    {
      Phrase *phrase = &g_array_index (phrases, Phrase, p);
      g_autoptr(JsonNode) filter = NULL;

      n_holding[p] = 0;
      if (phrase->tokens->len == 0)
        continue;
      filter = lode_qdrant_filter_and (pieces_of (names),
                                       holds_any_token ("terms", phrase->tokens));
      if (!lode_qdrant_client_count (self->client, self->collection, filter, &n_holding[p], NULL,
                                     error))
        return FALSE;
    }
  return TRUE;
}

static LodeArtifactHit *
hit_from_point (LodeQdrantHit *point)
{
  g_autoptr(LodeArtifactChunk) piece = piece_from_payload (point->payload);
  LodeArtifactHit *hit = g_new0 (LodeArtifactHit, 1);

  hit->artifact = g_strdup (lode_json_get_string (point->payload, "artifact"));
  hit->path = g_steal_pointer (&piece->path);
  hit->start_line = piece->start_line;
  hit->end_line = piece->end_line;
  hit->kind = g_steal_pointer (&piece->kind);
  hit->title = g_steal_pointer (&piece->title);
  hit->body = g_steal_pointer (&piece->body);
  return hit;
}

/* The statistics are over every artifact with a record, the pieces of @artifact only when it
 * is set. */
static GPtrArray *
qdrant_store_find_artifact_pieces (LodeIndexStore      *store,
                                   const char * const  *prefixes,
                                   const char          *artifact,
                                   guint                limit,
                                   LodeArtifactStats   *stats,
                                   GError             **error)
{
  LodeQdrantStore *self = (LodeQdrantStore *) store;
  const char *record_fields[] = { "artifact", "n_chunks", "n_tokens", "vocabulary", NULL };
  g_autoptr(JsonNode) records_filter = _lode_qdrant_store_filter_type ("artifact");
  g_autoptr(GPtrArray) records = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autoptr(GPtrArray) scope = g_ptr_array_new ();
  g_autoptr(GArray) phrases = g_array_new (FALSE, TRUE, sizeof (Phrase));
  g_autoptr(GPtrArray) terms = g_ptr_array_new ();
  g_autoptr(LodeSparseVector) sparse = NULL;
  g_autoptr(JsonNode) filter = NULL;
  g_autoptr(GPtrArray) points = NULL;
  g_autoptr(GPtrArray) hits =
    g_ptr_array_new_with_free_func ((GDestroyNotify) lode_artifact_hit_free);

  g_array_set_clear_func (phrases, (GDestroyNotify) phrase_clear);
  for (guint i = 0; prefixes[i] != NULL; i++)
    {
      Phrase phrase = { prefixes[i], g_ptr_array_new_with_free_func (g_free) };

      g_array_append_val (phrases, phrase);
    }

  records = lode_qdrant_client_scroll (self->client, self->collection, records_filter,
                                       record_fields, NULL, 0, NULL, error);
  if (records == NULL)
    return NULL;
  stats->n_pieces = stats->n_tokens = 0;
  for (guint i = 0; i < records->len; i++)
    {
      JsonObject *payload = ((LodeQdrantHit *) g_ptr_array_index (records, i))->payload;
      const char *name = payload != NULL ? lode_json_get_string (payload, "artifact") : NULL;
      JsonNode *vocabulary = name != NULL ? json_object_get_member (payload, "vocabulary") : NULL;

      if (name == NULL)
        continue;
      g_ptr_array_add (names, (char *) name);
      if (artifact == NULL || strcmp (name, artifact) == 0)
        g_ptr_array_add (scope, (char *) name);
      stats->n_pieces += json_object_get_int_member_with_default (payload, "n_chunks", 0);
      stats->n_tokens += json_object_get_int_member_with_default (payload, "n_tokens", 0);
      if (vocabulary != NULL && JSON_NODE_HOLDS_ARRAY (vocabulary))
        expand_phrases (json_node_get_array (vocabulary), phrases);
    }
  for (guint p = 0; p < phrases->len; p++)
    g_ptr_array_extend (terms, g_array_index (phrases, Phrase, p).tokens, NULL, NULL);
  if (!count_holding (self, phrases, names, stats->n_holding, error))
    return NULL;
  if (scope->len == 0 || terms->len == 0 || limit == 0)
    return g_steal_pointer (&hits);

  sparse = lode_sparse_vector_for_terms ((const char * const *) terms->pdata, NULL, terms->len);
  /* Only pieces of artifacts with a record: not those a crash left behind. */
  filter = pieces_of (scope);
  points = lode_qdrant_client_query (self->client, self->collection, ARTIFACT_VECTOR, NULL, 0,
                                     sparse, filter, limit, piece_fields, NULL, error);
  if (points == NULL)
    return NULL;

  for (guint i = 0; i < points->len; i++)
    {
      LodeQdrantHit *point = g_ptr_array_index (points, i);

      if (point->payload != NULL)
        g_ptr_array_add (hits, hit_from_point (point));
    }
  return g_steal_pointer (&hits);
}

void
_lode_qdrant_store_artifacts_init (LodeIndexStoreInterface *iface)
{
  iface->dup_artifacts = qdrant_store_dup_artifacts;
  iface->dup_artifact_chunks = qdrant_store_dup_artifact_chunks;
  iface->put_artifact = qdrant_store_put_artifact;
  iface->remove_artifact = qdrant_store_remove_artifact;
  iface->find_artifact_pieces = qdrant_store_find_artifact_pieces;
}
