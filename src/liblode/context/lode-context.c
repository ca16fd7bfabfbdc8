/* lode-context.c — a project's context artifacts: state, indexing, search
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-context"

#include "config.h"

#include <string.h>

#include "lode-artifact-chunker.h"
#include "lode-artifact-search.h"
#include "lode-context.h"
#include "lode-error.h"
#include "lode-i18n.h"
#include "lode-index-store.h"
#include "lode-json.h"
#include "lode-project-config.h"
#include "lode-scanner.h"
#include "lode-search.h"

/*
 * Context artifacts are declared in `.lode.json` (`contextArtifacts`) or SocratiCode's
 * `.socraticodecontextartifacts.json` (`artifacts`): a name, a file or folder (relative to
 * the project) and a description. The declarations come with the project, so a hostile one
 * may name `~/.ssh/id_rsa`: an artifact must lie inside the project, as written and once its
 * symbolic links are followed (lode_project_dup_real_path()); one that does not is refused,
 * and what the index held of it is removed. Each is indexed into its own space
 * of the project's index, whichever store keeps it (lode-store-artifacts.c, the end of
 * lode-qdrant-store.c), with the hash of its content, written under the index's writer lock
 * (lode_project_write()); an artifact whose content no longer has that hash is stale and is
 * indexed again by codebase_context_index, and before any search; an artifact dropped from
 * the configuration leaves the index at the next index or search. Search is BM25 over the
 * pieces' titles and text, each word also matching its longer forms (`user` finds `users`)
 * after a light English stemming (`addresses` → `address`).
 */

#define MAX_FILE_BYTES     (4 * 1024 * 1024)
#define MAX_ARTIFACT_BYTES (32 * 1024 * 1024)
#define MAX_FILES          2000
#define MAX_QUERY_TERMS    32
#define SNIPPET_MAX        2000
/* Pieces each search brings when a pasted issue's title and its whole text are merged. */
#define MERGE_CANDIDATES   100

typedef enum
{
  STATE_INDEXED,
  STATE_STALE,
  STATE_NOT_INDEXED,
  STATE_MISSING,
  STATE_UNREADABLE,
} ArtifactState;

static const char *
state_to_string (ArtifactState state)
{
  static const char * const names[] = {
    [STATE_INDEXED] = "indexed",
    [STATE_STALE] = "stale",
    [STATE_NOT_INDEXED] = "not_indexed",
    [STATE_MISSING] = "missing",
    [STATE_UNREADABLE] = "unreadable",
  };

  return names[state];
}

/* One artifact as it is on disk now. */
typedef struct
{
  const LodeArtifactSpec *spec;
  char                   *hash;      /* NULL when missing or unreadable */
  GPtrArray              *paths;     /* displayed paths of its files */
  GPtrArray              *texts;     /* their contents */
  char                   *problem;   /* why it cannot be read */
  ArtifactState           state;
  gboolean                outside;   /* refused: it lies outside the project */
  LodeStoredArtifact     *stored;    /* (nullable) borrowed */
} Current;

static void
current_clear (Current *current)
{
  g_free (current->hash);
  g_clear_pointer (&current->paths, g_ptr_array_unref);
  g_clear_pointer (&current->texts, g_ptr_array_unref);
  g_free (current->problem);
}

static gboolean
read_file (Current     *current,
           const char  *absolute,
           const char  *shown,
           gsize       *total,
           GChecksum   *checksum)
{
  g_autofree char *contents = NULL;
  g_autofree char *repaired = NULL;
  g_autoptr(GError) error = NULL;
  LodeSkipReason reason;
  gsize len = 0;

  /* The path comes from the project's configuration: a FIFO there hung the tool for good (and
   * SIGTERM with it), /dev/zero grew until memory ran out. Read as the indexer reads files:
   * regular files only, opened without blocking, the cap enforced while reading. */
  contents = lode_read_file (absolute, MAX_FILE_BYTES, &len, NULL, &reason, &error);
  if (contents == NULL && reason != LODE_SKIP_TOO_LARGE)
    {
      current->problem = g_strdup_printf ("%s: %s (%s)", shown,
                                          lode_skip_reason_to_string (reason), error->message);
      return FALSE;
    }
  if (contents == NULL || *total + len > MAX_ARTIFACT_BYTES)
    {
      current->problem = g_strdup_printf ("%s is too large (files of at most %d MB, %d MB "
                                          "in all)", shown, MAX_FILE_BYTES >> 20,
                                          MAX_ARTIFACT_BYTES >> 20);
      return FALSE;
    }
  *total += len;
  switch (lode_content_check (contents, len, &repaired))
    {
    case LODE_CONTENT_BINARY:
      /* Folders may hold images and the like: they are no context. */
      return TRUE;
    case LODE_CONTENT_REPAIRED:
      g_clear_pointer (&contents, g_free);
      contents = g_steal_pointer (&repaired);
      break;
    case LODE_CONTENT_TEXT:
    default:
      break;
    }

  g_checksum_update (checksum, (const guchar *) shown, strlen (shown) + 1);
  g_checksum_update (checksum, (const guchar *) contents, strlen (contents) + 1);
  g_ptr_array_add (current->paths, g_strdup (shown));
  g_ptr_array_add (current->texts, g_steal_pointer (&contents));
  return TRUE;
}

/* Reads the artifact's files and their hash; a problem sets its state. */
static void
read_current (LodeProject *project,
              Current     *current)
{
  g_autofree char *absolute = NULL;
  g_autoptr(GChecksum) checksum = g_checksum_new (G_CHECKSUM_SHA1);
  g_autoptr(GError) local_error = NULL;
  gsize total = 0;

  current->paths = g_ptr_array_new_with_free_func (g_free);
  current->texts = g_ptr_array_new_with_free_func (g_free);

  /* Only ever a path inside the project, links resolved: what is read is what was checked. */
  absolute = lode_project_dup_real_path (project, current->spec->path, &local_error);
  if (absolute == NULL)
    {
      current->outside = g_error_matches (local_error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
      current->state = g_error_matches (local_error, LODE_ERROR, LODE_ERROR_NOT_FOUND)
                       ? STATE_MISSING : STATE_UNREADABLE;
      current->problem = current->outside
                         ? g_strdup_printf ("Artifact “%s” is refused: %s, and context "
                                            "artifacts must lie inside it",
                                            current->spec->name, local_error->message)
                         : g_strdup (local_error->message);
      return;
    }

  if (g_file_test (absolute, G_FILE_TEST_IS_DIR))
    {
      g_autoptr(LodeScanner) scanner = lode_scanner_new (absolute);
      g_autoptr(GPtrArray) files = NULL;
      g_autoptr(GPtrArray) skipped = NULL;
      g_autoptr(GError) error = NULL;

      if (!lode_scanner_scan (scanner, NULL, &files, &skipped, &error))
        {
          current->state = STATE_UNREADABLE;
          current->problem = g_strdup (error->message);
          return;
        }
      if (files->len > MAX_FILES)
        {
          current->state = STATE_UNREADABLE;
          current->problem = g_strdup_printf ("%s holds more than %d files", absolute,
                                              MAX_FILES);
          return;
        }
      for (guint i = 0; i < files->len; i++)
        {
          const LodeScanFile *file = g_ptr_array_index (files, i);
          g_autofree char *full = g_build_filename (absolute, file->path, NULL);
          g_autofree char *shown = g_build_filename (current->spec->path, file->path, NULL);

          if (!read_file (current, full, shown, &total, checksum))
            {
              current->state = STATE_UNREADABLE;
              return;
            }
        }
    }
  else if (!read_file (current, absolute, current->spec->path, &total, checksum))
    {
      current->state = STATE_UNREADABLE;
      return;
    }

  current->hash = g_strdup (g_checksum_get_string (checksum));
  current->state = current->stored == NULL                     ? STATE_NOT_INDEXED
                   : strcmp (current->stored->hash, current->hash) == 0 &&
                     g_strcmp0 (current->stored->path, current->spec->path) == 0
                                                               ? STATE_INDEXED
                                                               : STATE_STALE;
}

static LodeStoredArtifact *
find_stored (GPtrArray  *stored,
             const char *name)
{
  for (guint i = 0; i < stored->len; i++)
    {
      LodeStoredArtifact *artifact = g_ptr_array_index (stored, i);

      if (strcmp (artifact->name, name) == 0)
        return artifact;
    }
  return NULL;
}

static gpointer
read_stored (LodeProject     *project,
             LodeIndexStore  *store,
             gpointer         data,
             GError         **error)
{
  return lode_index_store_dup_artifacts (store, error);
}

/* The configuration, what the index holds, and each declared artifact as it is now. */
typedef struct
{
  LodeProjectConfig *config;
  GPtrArray         *stored;     /* LodeStoredArtifact */
  GArray            *current;    /* Current, one per declared artifact */
} Context;

static void
context_clear (Context *context)
{
  g_clear_pointer (&context->config, lode_project_config_free);
  g_clear_pointer (&context->stored, g_ptr_array_unref);
  g_clear_pointer (&context->current, g_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Context, context_clear)

static gboolean
context_load (LodeProject  *project,
              const char   *only,
              Context      *context,
              GError      **error)
{
  context->config = lode_project_config_load (lode_project_get_root (project), error);
  if (context->config == NULL)
    return FALSE;
  context->stored = lode_project_read (project, read_stored, NULL, error);
  if (context->stored == NULL)
    return FALSE;

  context->current = g_array_new (FALSE, TRUE, sizeof (Current));
  g_array_set_clear_func (context->current, (GDestroyNotify) current_clear);
  for (guint i = 0; i < context->config->artifacts->len; i++)
    {
      const LodeArtifactSpec *spec = g_ptr_array_index (context->config->artifacts, i);
      Current current = { spec };

      if (only != NULL && strcmp (spec->name, only) != 0)
        continue;
      current.stored = find_stored (context->stored, spec->name);
      read_current (project, &current);
      g_array_append_val (context->current, current);
    }

  if (only != NULL && context->current->len == 0)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_FOUND,
                   "No context artifact named “%s” is declared (in .lode.json "
                   "contextArtifacts or .socraticodecontextartifacts.json); "
                   "codebase_context lists them", only);
      return FALSE;
    }
  return TRUE;
}

static gboolean
is_declared (Context    *context,
             const char *name)
{
  for (guint i = 0; i < context->config->artifacts->len; i++)
    if (strcmp (((LodeArtifactSpec *) g_ptr_array_index (context->config->artifacts, i))->name,
                name) == 0)
      return TRUE;
  return FALSE;
}

static char *
iso_time (gint64 usec)
{
  g_autoptr(GDateTime) time = g_date_time_new_from_unix_utc (usec / G_USEC_PER_SEC);

  return time != NULL ? g_date_time_format_iso8601 (time) : NULL;
}

static void
add_current (JsonBuilder   *builder,
             const Current *current)
{
  g_autofree char *indexed_at = current->stored != NULL ? iso_time (current->stored->indexed_at)
                                                        : NULL;

  json_builder_begin_object (builder);
  lode_json_builder_add_string (builder, "name", current->spec->name);
  lode_json_builder_add_string (builder, "path", current->spec->path);
  lode_json_builder_add_string (builder, "description", current->spec->description);
  lode_json_builder_add_string (builder, "source", current->spec->source);
  lode_json_builder_add_string (builder, "state", state_to_string (current->state));
  lode_json_builder_add_string (builder, "problem", current->problem);
  lode_json_builder_add_string (builder, "indexedAt", indexed_at);
  json_builder_set_member_name (builder, "files");
  json_builder_add_int_value (builder, current->stored != NULL ? current->stored->n_files : 0);
  json_builder_set_member_name (builder, "chunks");
  json_builder_add_int_value (builder, current->stored != NULL ? current->stored->n_chunks : 0);
  json_builder_end_object (builder);
}

static JsonObject *
builder_object (JsonBuilder *builder)
{
  g_autoptr(JsonNode) root = json_builder_get_root (builder);

  return json_object_ref (json_node_get_object (root));
}

/**
 * lode_context_report_list:
 * @project: an indexed project
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): `{project, artifacts: [{name, path, description,
 *   source, state, problem, indexedAt, files, chunks}], undeclared: [name]}`; state is
 *   indexed, stale, not_indexed, missing or unreadable
 */
JsonObject *
lode_context_report_list (LodeProject  *project,
                          GError      **error)
{
  g_auto(Context) context = { 0 };
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  if (!context_load (project, NULL, &context, error))
    return NULL;

  json_builder_begin_object (builder);
  lode_json_builder_add_string (builder, "project", lode_project_get_root (project));
  json_builder_set_member_name (builder, "artifacts");
  json_builder_begin_array (builder);
  for (guint i = 0; i < context.current->len; i++)
    add_current (builder, &g_array_index (context.current, Current, i));
  json_builder_end_array (builder);
  /* Indexed, but no longer declared: the next index or search removes them. */
  json_builder_set_member_name (builder, "undeclared");
  json_builder_begin_array (builder);
  for (guint i = 0; i < context.stored->len; i++)
    {
      LodeStoredArtifact *stored = g_ptr_array_index (context.stored, i);

      if (!is_declared (&context, stored->name))
        json_builder_add_string_value (builder, stored->name);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  return builder_object (builder);
}

/* Whether bringing the index in line with the declarations writes anything. */
static gboolean
needs_writing (Context  *context,
               gboolean  remove_undeclared)
{
  for (guint i = 0; i < context->current->len; i++)
    {
      const Current *current = &g_array_index (context->current, Current, i);

      if (current->state == STATE_STALE || current->state == STATE_NOT_INDEXED ||
          (current->outside && current->stored != NULL))
        return TRUE;
    }
  for (guint i = 0; remove_undeclared && i < context->stored->len; i++)
    if (!is_declared (context, ((LodeStoredArtifact *) g_ptr_array_index (context->stored,
                                                                           i))->name))
      return TRUE;
  return FALSE;
}

typedef struct
{
  Context      *context;
  gboolean      remove_undeclared;
  GCancellable *cancellable;
  JsonBuilder  *builder;      /* (nullable) */
} Sync;

/* Stale and new artifacts indexed, dropped ones and those refused for lying outside the
 * project removed, in @store (%NULL when there is nothing to write). Fills the builder's
 * `artifacts` with what was done to each. */
static gboolean
sync_in_store (LodeProject     *project,
               LodeIndexStore  *store,
               gpointer         data,
               GError         **error)
{
  Sync *sync = data;
  Context *context = sync->context;
  JsonBuilder *builder = sync->builder;

  if (builder != NULL)
    {
      json_builder_set_member_name (builder, "artifacts");
      json_builder_begin_array (builder);
    }

  for (guint i = 0; i < context->current->len; i++)
    {
      Current *current = &g_array_index (context->current, Current, i);
      const char *action = "unchanged";
      guint n_chunks = current->stored != NULL ? current->stored->n_chunks : 0;

      if (g_cancellable_set_error_if_cancelled (sync->cancellable, error))
        return FALSE;

      if (current->state == STATE_STALE || current->state == STATE_NOT_INDEXED)
        {
          g_autoptr(GPtrArray) chunks =
            g_ptr_array_new_with_free_func ((GDestroyNotify) lode_artifact_chunk_free);
          LodeStoredArtifact artifact = {
            current->spec->name, current->spec->path, current->spec->description,
            current->hash, g_get_real_time (), current->paths->len, 0
          };

          for (guint f = 0; f < current->paths->len; f++)
            {
              const char *text = g_ptr_array_index (current->texts, f);
              g_autoptr(GPtrArray) pieces = lode_artifact_chunk_text (g_ptr_array_index (
                                                                        current->paths, f),
                                                                      text, strlen (text));

              g_ptr_array_extend_and_steal (chunks, g_steal_pointer (&pieces));
            }
          if (!lode_index_store_put_artifact (store, &artifact, chunks, error))
            return FALSE;
          action = current->state == STATE_STALE ? "reindexed" : "indexed";
          n_chunks = chunks->len;
          current->state = STATE_INDEXED;
        }
      else if (current->state == STATE_MISSING || current->state == STATE_UNREADABLE)
        action = "failed";

      /* Indexed before the rule, or by a link that has since turned outside: not served. */
      if (current->outside && current->stored != NULL)
        {
          if (!lode_index_store_remove_artifact (store, current->spec->name, error))
            return FALSE;
          current->stored = NULL;
          n_chunks = 0;
        }

      if (builder != NULL)
        {
          json_builder_begin_object (builder);
          lode_json_builder_add_string (builder, "name", current->spec->name);
          lode_json_builder_add_string (builder, "action", action);
          lode_json_builder_add_string (builder, "state", state_to_string (current->state));
          lode_json_builder_add_string (builder, "problem", current->problem);
          json_builder_set_member_name (builder, "files");
          json_builder_add_int_value (builder, current->paths->len);
          json_builder_set_member_name (builder, "chunks");
          json_builder_add_int_value (builder, n_chunks);
          json_builder_end_object (builder);
        }
    }

  if (builder != NULL)
    {
      json_builder_end_array (builder);
      json_builder_set_member_name (builder, "removed");
      json_builder_begin_array (builder);
    }
  for (guint i = 0; sync->remove_undeclared && i < context->stored->len; i++)
    {
      LodeStoredArtifact *stored = g_ptr_array_index (context->stored, i);

      if (is_declared (context, stored->name))
        continue;
      if (!lode_index_store_remove_artifact (store, stored->name, error))
        return FALSE;
      if (builder != NULL)
        json_builder_add_string_value (builder, stored->name);
    }
  if (builder != NULL)
    json_builder_end_array (builder);

  return TRUE;
}

/* Brings the index in line with the declarations, through the project's own index under its
 * writer lock (lode_project_write()), which is taken only when there is something to write. */
static gboolean
sync_artifacts (LodeProject   *project,
                Context       *context,
                gboolean       remove_undeclared,
                GCancellable  *cancellable,
                JsonBuilder   *builder,
                GError       **error)
{
  Sync sync = { context, remove_undeclared, cancellable, builder };

  if (!needs_writing (context, remove_undeclared))
    return sync_in_store (project, NULL, &sync, error);
  return lode_project_write (project, sync_in_store, &sync, cancellable, error);
}

/**
 * lode_context_report_index:
 * @project: an indexed project
 * @name: (nullable): only this artifact
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Indexes the declared artifacts that are new or changed, and (when @name is %NULL) removes
 * those no longer declared.
 *
 * Returns: (transfer full) (nullable): `{project, artifacts: [{name, action, state, problem,
 *   files, chunks}], removed: [name]}`; action is indexed, reindexed, unchanged or failed
 */
JsonObject *
lode_context_report_index (LodeProject   *project,
                           const char    *name,
                           GCancellable  *cancellable,
                           GError       **error)
{
  g_auto(Context) context = { 0 };
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  if (!context_load (project, name, &context, error))
    return NULL;

  json_builder_begin_object (builder);
  lode_json_builder_add_string (builder, "project", lode_project_get_root (project));
  if (!sync_artifacts (project, &context, name == NULL, cancellable, builder, error))
    return NULL;
  json_builder_end_object (builder);

  return builder_object (builder);
}

typedef struct
{
  GPtrArray   *stored;
  const char  *name;       /* (nullable) */
  JsonBuilder *builder;
} Removal;

static gboolean
remove_in_store (LodeProject     *project,
                 LodeIndexStore  *store,
                 gpointer         data,
                 GError         **error)
{
  Removal *removal = data;

  for (guint i = 0; i < removal->stored->len; i++)
    {
      LodeStoredArtifact *artifact = g_ptr_array_index (removal->stored, i);

      if (removal->name != NULL && strcmp (artifact->name, removal->name) != 0)
        continue;
      if (!lode_index_store_remove_artifact (store, artifact->name, error))
        return FALSE;
      json_builder_add_string_value (removal->builder, artifact->name);
    }
  return TRUE;
}

/**
 * lode_context_report_remove:
 * @project: an indexed project
 * @name: (nullable): the artifact to remove; %NULL for all
 * @error: return location for a #GError
 *
 * Removes artifacts from the index (the files stay; declared ones come back at the next
 * index or search).
 *
 * Returns: (transfer full) (nullable): `{project, removed: [name]}`
 */
JsonObject *
lode_context_report_remove (LodeProject  *project,
                            const char   *name,
                            GError      **error)
{
  g_autoptr(GPtrArray) stored = lode_project_read (project, read_stored, NULL, error);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  Removal removal = { stored, name, builder };

  if (stored == NULL)
    return NULL;
  if (name != NULL && find_stored (stored, name) == NULL)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_FOUND,
                   "No context artifact named “%s” is indexed; codebase_context lists them",
                   name);
      return NULL;
    }

  json_builder_begin_object (builder);
  lode_json_builder_add_string (builder, "project", lode_project_get_root (project));
  json_builder_set_member_name (builder, "removed");
  json_builder_begin_array (builder);
  if (stored->len > 0 && !lode_project_write (project, remove_in_store, &removal, NULL, error))
    return NULL;
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  return builder_object (builder);
}

/* Search ------------------------------------------------------------------------------ */

static gboolean
is_stop_word (const char *word)
{
  static const char * const words[] = {
    "a", "an", "the", "of", "to", "in", "on", "for", "and", "or", "is", "are", "was", "were",
    "be", "by", "with", "which", "what", "where", "who", "whom", "how", "does", "do", "did",
    "this", "that", "these", "those", "it", "its", "from", "at", "as", "into", "about", "there",
    "can", "i", "we", "you", "my", "our", "me", "should", "would", "could", "any", "all",
    NULL
  };

  return g_strv_contains (words, word);
}

/* A light English stemming, so that a word also finds its other forms through the prefix
 * match: addresses → address, categories → categor, stored → stor. */
static void
stem (GString *word)
{
  static const char * const suffixes[] = { "ies", "es", "s", "ing", "ed", NULL };

  for (guint i = 0; suffixes[i] != NULL; i++)
    {
      gsize n = strlen (suffixes[i]);

      if (word->len > n + 3 && g_str_has_suffix (word->str, suffixes[i]) &&
          !(n == 1 && g_str_has_suffix (word->str, "ss")))
        {
          g_string_truncate (word, word->len - n);
          return;
        }
    }
}

/* The query's words, lower-cased and stemmed, each once (a piece matches a word when one
 * of its tokens starts with it); NULL when the query holds no word worth searching for. */
static GStrv
query_prefixes (const char *query)
{
  g_autoptr(GStrvBuilder) prefixes = g_strv_builder_new ();
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *lower = g_utf8_strdown (query, -1);
  const char *p = lower;
  guint n = 0;

  while (*p != '\0' && n < MAX_QUERY_TERMS)
    {
      g_autoptr(GString) word = g_string_new (NULL);

      while (*p != '\0' && !g_unichar_isalnum (g_utf8_get_char (p)) && *p != '_')
        p = g_utf8_next_char (p);
      while (*p != '\0' && (g_unichar_isalnum (g_utf8_get_char (p)) || *p == '_'))
        {
          const char *next = g_utf8_next_char (p);

          g_string_append_len (word, p, next - p);
          p = next;
        }
      if (word->len < 2 || is_stop_word (word->str))
        continue;
      stem (word);
      if (!g_hash_table_add (seen, g_strdup (word->str)))
        continue;
      g_strv_builder_add (prefixes, word->str);
      n++;
    }

  return n > 0 ? g_strv_builder_end (prefixes) : NULL;
}

typedef struct
{
  const char * const *prefixes;
  const char * const *title;     /* NULL unless the query is a pasted issue */
  const char         *artifact;
  guint               limit;
} SearchQuery;

static char *
hit_key (const LodeArtifactHit *hit)
{
  return g_strdup_printf ("%s\n%s\n%u", hit->artifact, hit->path, hit->start_line);
}

static int
compare_relevance (gconstpointer a,
                   gconstpointer b)
{
  const LodeArtifactHit *x = *(LodeArtifactHit * const *) a;
  const LodeArtifactHit *y = *(LodeArtifactHit * const *) b;

  return x->relevance < y->relevance ? 1 : x->relevance > y->relevance ? -1 : 0;
}

/* A piece scores its BM25 for the whole text plus LODE_SEARCH_TITLE_WEIGHT times that for
 * the title, as in codebase_search: the body's steps and logs share words with every piece. */
static GPtrArray *
merge_title (GPtrArray *hits,
             GPtrArray *title_hits,
             guint      limit)
{
  g_autoptr(GHashTable) by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < hits->len; i++)
    {
      LodeArtifactHit *hit = g_ptr_array_index (hits, i);

      g_hash_table_insert (by_key, hit_key (hit), hit);
    }
  /* Backwards, as a piece only the title found moves over to @hits. */
  for (guint i = title_hits->len; i-- > 0;)
    {
      LodeArtifactHit *hit = g_ptr_array_index (title_hits, i);
      g_autofree char *key = hit_key (hit);
      LodeArtifactHit *same = g_hash_table_lookup (by_key, key);

      if (same != NULL)
        same->relevance += LODE_SEARCH_TITLE_WEIGHT * hit->relevance;
      else
        {
          hit->relevance *= LODE_SEARCH_TITLE_WEIGHT;
          g_ptr_array_add (hits, g_ptr_array_steal_index (title_hits, i));
        }
    }
  g_ptr_array_sort (hits, compare_relevance);
  if (hits->len > limit)
    g_ptr_array_set_size (hits, limit);
  return hits;
}

static gpointer
search_store (LodeProject     *project,
              LodeIndexStore  *store,
              gpointer         data,
              GError         **error)
{
  const SearchQuery *query = data;
  g_autoptr(GPtrArray) hits = NULL;
  g_autoptr(GPtrArray) title_hits = NULL;

  if (query->title == NULL)
    return lode_artifact_search (store, query->prefixes, query->artifact, query->limit, error);

  hits = lode_artifact_search (store, query->prefixes, query->artifact,
                               MAX (query->limit, MERGE_CANDIDATES), error);
  if (hits != NULL)
    title_hits = lode_artifact_search (store, query->title, query->artifact,
                                       MAX (query->limit, MERGE_CANDIDATES), error);
  if (title_hits == NULL)
    return NULL;
  return merge_title (g_steal_pointer (&hits), title_hits, query->limit);
}

/**
 * lode_context_report_search:
 * @project: an indexed project
 * @query: words or a question
 * @artifact: (nullable): only this artifact
 * @limit: results at most
 * @min_score: leave out results scoring below this (scores are relative to the best, 0-1)
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Indexes new and changed artifacts first, then searches them.
 *
 * Returns: (transfer full) (nullable): `{project, query, total, results: [{artifact, path,
 *   startLine, endLine, kind, title, score, snippet}], indexed: [name]}`
 */
JsonObject *
lode_context_report_search (LodeProject   *project,
                            const char    *query,
                            const char    *artifact,
                            guint          limit,
                            double         min_score,
                            GCancellable  *cancellable,
                            GError       **error)
{
  g_auto(Context) context = { 0 };
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(GPtrArray) hits = NULL;
  g_auto(GStrv) prefixes = query_prefixes (query);
  g_autofree char *title = lode_search_dup_title (query);
  g_auto(GStrv) title_prefixes = title != NULL ? query_prefixes (title) : NULL;
  SearchQuery search = { (const char * const *) prefixes, (const char * const *) title_prefixes,
                         artifact, MIN (limit, LODE_CONTEXT_SEARCH_MAX_LIMIT) };
  double top;
  guint n = 0;

  if (prefixes == NULL)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_QUERY,
                   "“%s” holds no word to search for; ask with the names or terms the "
                   "artifacts use", query);
      return NULL;
    }
  if (!context_load (project, artifact, &context, error) ||
      !sync_artifacts (project, &context, artifact == NULL, cancellable, NULL, error))
    return NULL;

  hits = lode_project_read (project, search_store, &search, error);
  if (hits == NULL)
    return NULL;
  top = hits->len > 0 ? ((LodeArtifactHit *) g_ptr_array_index (hits, 0))->relevance : 0.0;

  json_builder_begin_object (builder);
  lode_json_builder_add_string (builder, "project", lode_project_get_root (project));
  lode_json_builder_add_string (builder, "query", query);
  json_builder_set_member_name (builder, "results");
  json_builder_begin_array (builder);
  for (guint i = 0; i < hits->len; i++)
    {
      LodeArtifactHit *hit = g_ptr_array_index (hits, i);
      double score = top > 0.0 ? hit->relevance / top : 0.0;
      g_autofree char *snippet = NULL;

      if (score < min_score)
        continue;
      snippet = g_utf8_substring (hit->body, 0, MIN (g_utf8_strlen (hit->body, -1),
                                                     SNIPPET_MAX));
      json_builder_begin_object (builder);
      lode_json_builder_add_string (builder, "artifact", hit->artifact);
      lode_json_builder_add_string (builder, "path", hit->path);
      json_builder_set_member_name (builder, "startLine");
      json_builder_add_int_value (builder, hit->start_line);
      json_builder_set_member_name (builder, "endLine");
      json_builder_add_int_value (builder, hit->end_line);
      lode_json_builder_add_string (builder, "kind", hit->kind);
      lode_json_builder_add_string (builder, "title", hit->title);
      json_builder_set_member_name (builder, "score");
      json_builder_add_double_value (builder, score);
      lode_json_builder_add_string (builder, "snippet", snippet);
      json_builder_end_object (builder);
      n++;
    }
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "total");
  json_builder_add_int_value (builder, n);
  json_builder_end_object (builder);

  return builder_object (builder);
}

/* Markdown ------------------------------------------------------------------------------ */

char *
lode_context_format_list (JsonObject *report)
{
  GString *out = g_string_new (NULL);
  JsonArray *artifacts = json_object_get_array_member (report, "artifacts");
  JsonArray *undeclared = json_object_get_array_member (report, "undeclared");
  guint n = json_array_get_length (artifacts);

  if (n == 0)
    g_string_append (out, "No context artifacts are declared. Declare schemas, API specs and "
                     "documents under \"contextArtifacts\" in .lode.json (or \"artifacts\" in "
                     ".socraticodecontextartifacts.json): [{\"name\", \"path\", "
                     "\"description\"}].\n");
  else
    {
      g_string_append (out, "## ");
      lode_append_count (out, n, "%u context artifact", "%u context artifacts");
      g_string_append (out, "\n\n");
    }
  for (guint i = 0; i < n; i++)
    {
      JsonObject *a = json_array_get_object_element (artifacts, i);

      g_string_append_printf (out, "- **%s** (`%s`): %s", lode_json_get_string (a, "name"),
                              lode_json_get_string (a, "path"), lode_json_get_string (a, "state"));
      if (g_strcmp0 (lode_json_get_string (a, "state"), "indexed") == 0)
        {
          g_string_append (out, ", ");
          lode_append_count (out, json_object_get_int_member (a, "chunks"), "%u chunk",
                             "%u chunks");
        }
      if (lode_json_get_string (a, "problem") != NULL)
        g_string_append_printf (out, " (%s)", lode_json_get_string (a, "problem"));
      if (lode_json_get_string (a, "description") != NULL)
        g_string_append_printf (out, " — %s", lode_json_get_string (a, "description"));
      g_string_append_c (out, '\n');
    }
  for (guint i = 0; i < json_array_get_length (undeclared); i++)
    g_string_append_printf (out, "- %s: indexed but no longer declared\n",
                            json_array_get_string_element (undeclared, i));
  if (n > 0)
    g_string_append (out, "\nSearch them with codebase_context_search; stale ones are indexed "
                     "again first.\n");
  return g_string_free (out, FALSE);
}

char *
lode_context_format_index (JsonObject *report)
{
  GString *out = g_string_new (NULL);
  JsonArray *artifacts = json_object_get_array_member (report, "artifacts");
  JsonArray *removed = json_object_get_array_member (report, "removed");

  if (json_array_get_length (artifacts) == 0 && json_array_get_length (removed) == 0)
    g_string_append (out, "No context artifacts are declared.\n");
  for (guint i = 0; i < json_array_get_length (artifacts); i++)
    {
      JsonObject *a = json_array_get_object_element (artifacts, i);

      g_string_append_printf (out, "- %s: %s, ", lode_json_get_string (a, "name"),
                              lode_json_get_string (a, "action"));
      lode_append_count (out, json_object_get_int_member (a, "chunks"), "%u chunk",
                         "%u chunks");
      if (lode_json_get_string (a, "problem") != NULL)
        g_string_append_printf (out, " (%s)", lode_json_get_string (a, "problem"));
      g_string_append_c (out, '\n');
    }
  for (guint i = 0; i < json_array_get_length (removed); i++)
    g_string_append_printf (out, "- %s: removed (no longer declared)\n",
                            json_array_get_string_element (removed, i));
  return g_string_free (out, FALSE);
}

char *
lode_context_format_remove (JsonObject *report)
{
  GString *out = g_string_new (NULL);
  JsonArray *removed = json_object_get_array_member (report, "removed");

  if (json_array_get_length (removed) == 0)
    g_string_append (out, "No context artifacts were indexed.\n");
  else
    {
      g_string_append (out, "Removed from the index (the files are untouched): ");
      for (guint i = 0; i < json_array_get_length (removed); i++)
        g_string_append_printf (out, "%s%s", i > 0 ? ", " : "",
                                json_array_get_string_element (removed, i));
      g_string_append (out, ". Declared artifacts come back at the next "
                       "codebase_context_index or codebase_context_search.\n");
    }
  return g_string_free (out, FALSE);
}

char *
lode_context_format_search (JsonObject *report)
{
  GString *out = g_string_new (NULL);
  JsonArray *results = json_object_get_array_member (report, "results");
  guint n = json_array_get_length (results);

  g_string_append (out, "## ");
  lode_append_count (out, n, "%u context result", "%u context results");
  g_string_append_printf (out, " for “%s”\n\n", lode_json_get_string (report, "query"));
  if (n == 0)
    g_string_append (out, "Nothing matched; codebase_context lists the artifacts and their "
                     "state.\n");
  for (guint i = 0; i < n; i++)
    {
      JsonObject *r = json_array_get_object_element (results, i);

      g_string_append_printf (out, "%u. **%s** `%s:%" G_GINT64_FORMAT "-%" G_GINT64_FORMAT "`",
                              i + 1, lode_json_get_string (r, "artifact"),
                              lode_json_get_string (r, "path"),
                              json_object_get_int_member (r, "startLine"),
                              json_object_get_int_member (r, "endLine"));
      if (lode_json_get_string (r, "title") != NULL)
        g_string_append_printf (out, " %s", lode_json_get_string (r, "title"));
      g_string_append_printf (out, " (score %.2f)\n```\n%s\n```\n\n",
                              json_object_get_double_member (r, "score"),
                              lode_json_get_string (r, "snippet"));
    }
  return g_string_free (out, FALSE);
}
