/* lode-memory.c — the team's memory file
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-knowledge"

#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

#include "lode-error.h"
#include "lode-json.h"
#include "lode-memory.h"

/*
 * Memories are the team's, so they live in the project, in .lode/memory.json, to be read and
 * reviewed like code:
 *
 *   {
 *     "1f0c9a7e52d4": {"type":"decision","category":"dependencies","memory":"…","reason":"…",
 *                      "date":"2026-04-02T09:15:00Z","files":["src/http.c"]},
 *     "9b77…": {…},
 *     "format": 1
 *   }
 *
 * One memory per line, sorted by id, and a last member that is not a memory: every memory's
 * line ends with a comma, so adding one never changes another line, and two branches that
 * each add one merge without a conflict (the file's .gitattributes asks git for its `union`
 * merge, which keeps both sides' lines where they touch). A file edited by hand may take any
 * layout, or be an array of memories (codebase-context's form); it is written back in this
 * one, its members kept. A file that does not parse, or whose memories lack what a memory
 * needs, is an error that names the file and the place, and it is never written over.
 */

#define FORMAT_MEMBER "format"
#define FORMAT_VERSION 1
#define GITATTRIBUTES "memory.json merge=union\n"

static const char *const types[] = { "decision", "gotcha", "convention", "failure", NULL };
static const char *const categories[] = {
  "tooling", "architecture", "testing", "dependencies", "conventions", NULL
};

void
lode_memory_free (LodeMemory *memory)
{
  if (memory == NULL)
    return;

  g_free (memory->id);
  g_free (memory->type);
  g_free (memory->category);
  g_free (memory->memory);
  g_free (memory->reason);
  g_free (memory->date);
  g_strfreev (memory->files);
  g_strfreev (memory->names);
  g_free (memory->commit);
  g_strfreev (memory->changed);
  g_strfreev (memory->gone);
  g_free (memory);
}

/**
 * lode_memory_types:
 *
 * Returns: (transfer none): the types of memory: decision, gotcha, convention, failure
 */
const char *const *
lode_memory_types (void)
{
  return types;
}

/**
 * lode_memory_categories:
 *
 * Returns: (transfer none): the categories, as codebase-context names them
 */
const char *const *
lode_memory_categories (void)
{
  return categories;
}

const char *
lode_memory_source_to_string (LodeMemorySource source)
{
  switch (source)
    {
    case LODE_MEMORY_SOURCE_USER:
      return "user";
    case LODE_MEMORY_SOURCE_CODEBASE_CONTEXT:
      return "codebase-context";
    case LODE_MEMORY_SOURCE_GIT:
      return "git";
    default:
      g_assert_not_reached ();
    }
}

/* The text that two memories share when they say the same thing: case folded, runs of
 * white space as one space, without the full stop at the end. */
static char *
normalise_text (const char *text)
{
  g_autofree char *folded = g_utf8_casefold (text, -1);
  GString *out = g_string_new (NULL);
  gboolean space = FALSE;

  for (const char *p = folded; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (g_unichar_isspace (c))
        {
          space = out->len > 0;
          continue;
        }
      if (space)
        g_string_append_c (out, ' ');
      space = FALSE;
      g_string_append_unichar (out, c);
    }
  while (out->len > 0 && strchr (".!;", out->str[out->len - 1]) != NULL)
    g_string_truncate (out, out->len - 1);

  return g_string_free (out, FALSE);
}

/**
 * lode_memory_dup_id:
 * @text: a memory's text
 *
 * Returns: (transfer full): the id of a memory saying @text: the first twelve hex digits of
 *   the SHA-256 of its normalised text (case, spacing and a final full stop do not count)
 */
char *
lode_memory_dup_id (const char *text)
{
  g_autofree char *normal = normalise_text (text);
  g_autofree char *sha = g_compute_checksum_for_string (G_CHECKSUM_SHA256, normal, -1);

  return g_strndup (sha, 12);
}

static gint64
parse_date (const char *date)
{
  g_autoptr(GDateTime) time = NULL;
  g_autoptr(GTimeZone) utc = g_time_zone_new_utc ();

  if (date == NULL)
    return -1;
  time = g_date_time_new_from_iso8601 (date, utc);
  if (time == NULL && strlen (date) == 10)
    {
      /* A day alone, as people write it by hand. */
      g_autofree char *midnight = g_strconcat (date, "T00:00:00Z", NULL);

      time = g_date_time_new_from_iso8601 (midnight, utc);
    }

  return time != NULL ? g_date_time_to_unix (time) : -1;
}

static char *
dup_now (void)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();

  return g_date_time_format (now, "%Y-%m-%dT%H:%M:%SZ");
}

static GStrv
dup_string_array (JsonObject *object,
                  const char *member)
{
  JsonNode *node = json_object_get_member (object, member);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  if (node != NULL && JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *element = json_array_get_element (array, i);

          if (JSON_NODE_HOLDS_VALUE (element) &&
              json_node_get_value_type (element) == G_TYPE_STRING)
            g_strv_builder_add (builder, json_node_get_string (element));
        }
    }

  return g_strv_builder_end (builder);
}

static const char *
string_member (JsonObject *object,
               const char *member)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;

  return json_node_get_string (node);
}

static gboolean
is_blank (const char *text)
{
  if (text == NULL)
    return TRUE;
  for (; *text != '\0'; text++)
    if (!g_ascii_isspace (*text))
      return FALSE;
  return TRUE;
}

/* A memory from its object; NULL with the reason in @problem when it lacks something. */
static LodeMemory *
memory_from_object (const char        *id,
                    JsonObject        *object,
                    LodeMemorySource   source,
                    char             **problem)
{
  g_autoptr(LodeMemory) memory = g_new0 (LodeMemory, 1);
  const char *text = string_member (object, "memory");
  const char *type = string_member (object, "type");
  const char *category = string_member (object, "category");
  const char *date = string_member (object, "date");
  JsonNode *files = json_object_get_member (object, "files");

  /* codebase-context's older files name the text `decision`, and a missing type means a
   * decision. */
  if (text == NULL)
    text = string_member (object, "decision");
  if (type == NULL && !json_object_has_member (object, "type"))
    type = "decision";

  if (is_blank (text))
    *problem = g_strdup ("it has no “memory” text");
  else if (type == NULL || !g_strv_contains (types, type))
    *problem = g_strdup ("its “type” is not one of decision, gotcha, convention, failure");
  else if (category == NULL || category[0] == '\0')
    *problem = g_strdup ("it has no “category”");
  else if (json_object_has_member (object, "reason") && string_member (object, "reason") == NULL)
    *problem = g_strdup ("its “reason” is not a string");
  else if (parse_date (date) < 0)
    *problem = g_strdup ("its “date” is not an ISO 8601 date (2026-04-02 or "
                         "2026-04-02T09:15:00Z)");
  else if (files != NULL && !JSON_NODE_HOLDS_ARRAY (files))
    *problem = g_strdup ("its “files” is not a list of paths");
  if (*problem != NULL)
    return NULL;

  memory->id = g_strdup (id != NULL ? id : string_member (object, "id"));
  if (memory->id == NULL)
    memory->id = lode_memory_dup_id (text);
  memory->type = g_strdup (type);
  memory->category = g_strdup (category);
  memory->memory = g_strdup (text);
  memory->reason = g_strdup (string_member (object, "reason") != NULL
                             ? string_member (object, "reason") : "");
  memory->date = g_strdup (date);
  memory->time = parse_date (date);
  memory->files = dup_string_array (object, "files");
  memory->names = g_new0 (char *, 1);
  memory->changed = g_new0 (char *, 1);
  memory->gone = g_new0 (char *, 1);
  memory->source = source;
  memory->confidence = 1.0;

  return g_steal_pointer (&memory);
}

/* The memories of a parsed file, and its members keyed by id (the form it is written in). */
typedef struct
{
  GPtrArray  *memories;   /* LodeMemory */
  JsonObject *members;    /* id → the memory's object, as read */
} MemoryFile;

static void
memory_file_clear (MemoryFile *file)
{
  g_clear_pointer (&file->memories, g_ptr_array_unref);
  g_clear_pointer (&file->members, json_object_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (MemoryFile, memory_file_clear)

static gboolean
add_entry (MemoryFile        *file,
           const char        *path,
           const char        *where,
           const char        *id,
           JsonNode          *node,
           LodeMemorySource   source,
           GError           **error)
{
  g_autofree char *problem = NULL;
  LodeMemory *memory;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    problem = g_strdup ("it is not an object");
  memory = problem == NULL ? memory_from_object (id, json_node_get_object (node), source,
                                                 &problem)
                           : NULL;
  if (memory == NULL)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                   "%s: the memory %s is malformed: %s. Fix it by hand; Lode does not "
                   "write the file while it is malformed", path, where, problem);
      return FALSE;
    }
  if (json_object_has_member (file->members, memory->id))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                   "%s: the id %s is used twice. Fix it by hand; Lode does not write the "
                   "file while it is malformed", path, memory->id);
      lode_memory_free (memory);
      return FALSE;
    }
  json_object_set_member (file->members, memory->id, json_node_copy (node));
  g_ptr_array_add (file->memories, memory);

  return TRUE;
}

/* Reads @path: %TRUE with no memories when it does not exist. */
static gboolean
memory_file_read (MemoryFile        *file,
                  const char        *path,
                  LodeMemorySource   source,
                  GError           **error)
{
  g_autofree char *contents = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(JsonNode) root = NULL;
  gsize length;

  file->memories = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_memory_free);
  file->members = json_object_new ();

  if (!g_file_get_contents (path, &contents, &length, &local_error))
    {
      if (g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        return TRUE;
      g_propagate_prefixed_error (error, g_steal_pointer (&local_error), "%s: ", path);
      return FALSE;
    }

  root = lode_json_parse (contents, length, &local_error);
  if (root == NULL)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                   "%s is not valid JSON (%s). Fix it by hand; Lode does not write the file "
                   "while it is malformed", path, local_error->message);
      return FALSE;
    }

  if (JSON_NODE_HOLDS_ARRAY (root))
    {
      JsonArray *array = json_node_get_array (root);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          g_autofree char *where = g_strdup_printf ("at index %u", i);

          if (!add_entry (file, path, where, NULL, json_array_get_element (array, i), source,
                          error))
            return FALSE;
        }
    }
  else if (JSON_NODE_HOLDS_OBJECT (root))
    {
      JsonObject *object = json_node_get_object (root);
      g_autoptr(GList) names = json_object_get_members (object);

      for (GList *l = names; l != NULL; l = l->next)
        {
          g_autofree char *where = g_strdup_printf ("“%s”", (const char *) l->data);

          if (g_str_equal (l->data, FORMAT_MEMBER))
            continue;
          if (!add_entry (file, path, where, l->data, json_object_get_member (object, l->data),
                          source, error))
            return FALSE;
        }
    }
  else
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                   "%s holds neither an object of memories nor a list of them. Fix it by "
                   "hand; Lode does not write the file while it is malformed", path);
      return FALSE;
    }

  return TRUE;
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char **) a, *(const char **) b);
}

/* The file's text: one member per line, sorted, the format member last. */
static char *
memory_file_to_text (MemoryFile *file)
{
  g_autoptr(GPtrArray) ids = g_ptr_array_new ();
  g_autoptr(GList) names = json_object_get_members (file->members);
  GString *text = g_string_new ("{\n");

  for (GList *l = names; l != NULL; l = l->next)
    g_ptr_array_add (ids, l->data);
  g_ptr_array_sort (ids, compare_strings);
  for (guint i = 0; i < ids->len; i++)
    {
      g_autoptr(JsonNode) key = json_node_init_string (json_node_alloc (),
                                                       g_ptr_array_index (ids, i));
      g_autofree char *key_text = lode_json_to_string (key, FALSE);
      g_autofree char *value = lode_json_to_string (json_object_get_member (file->members,
                                                                            g_ptr_array_index (ids,
                                                                                               i)),
                                                    FALSE);

      g_string_append_printf (text, "  %s: %s,\n", key_text, value);
    }
  g_string_append_printf (text, "  \"" FORMAT_MEMBER "\": %d\n}\n", FORMAT_VERSION);

  return g_string_free (text, FALSE);
}

static gboolean
memory_file_write (MemoryFile  *file,
                   const char  *root,
                   GError     **error)
{
  g_autofree char *dir = g_build_filename (root, ".lode", NULL);
  g_autofree char *path = g_build_filename (root, LODE_MEMORY_FILE, NULL);
  g_autofree char *attributes = g_build_filename (dir, ".gitattributes", NULL);
  g_autofree char *text = memory_file_to_text (file);

  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      int saved = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   "Cannot create %s: %s", dir, g_strerror (saved));
      return FALSE;
    }
  /* Two branches that each add a memory merge line by line (see above). */
  if (!g_file_test (attributes, G_FILE_TEST_EXISTS) &&
      !g_file_set_contents (attributes, GITATTRIBUTES, -1, error))
    return FALSE;

  return g_file_set_contents (path, text, -1, error);
}

/**
 * lode_memory_file_read:
 * @root: the project's root
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (element-type LodeMemory) (nullable): the memories of
 *   .lode/memory.json (none when it does not exist), or %NULL when the file is malformed:
 *   the error says where
 */
GPtrArray *
lode_memory_file_read (const char  *root,
                       GError     **error)
{
  g_auto(MemoryFile) file = { NULL };
  g_autofree char *path = g_build_filename (root, LODE_MEMORY_FILE, NULL);

  g_return_val_if_fail (root != NULL, NULL);

  if (!memory_file_read (&file, path, LODE_MEMORY_SOURCE_USER, error))
    return NULL;

  return g_steal_pointer (&file.memories);
}

/**
 * lode_memory_read_codebase_context:
 * @root: the project's root
 * @notes: (element-type utf8): where a file that cannot be read is reported
 *
 * Returns: (transfer full) (element-type LodeMemory): the memories of
 *   .codebase-context/memory.json, read only; none when it is missing or malformed
 */
GPtrArray *
lode_memory_read_codebase_context (const char *root,
                                   GPtrArray  *notes)
{
  g_auto(MemoryFile) file = { NULL };
  g_autofree char *path = g_build_filename (root, LODE_MEMORY_CODEBASE_CONTEXT, NULL);
  g_autoptr(GError) error = NULL;

  if (!memory_file_read (&file, path, LODE_MEMORY_SOURCE_CODEBASE_CONTEXT, &error))
    {
      g_ptr_array_add (notes, g_strdup_printf ("Skipped: %s", error->message));
      return g_ptr_array_new_with_free_func ((GDestroyNotify) lode_memory_free);
    }

  return g_steal_pointer (&file.memories);
}

static LodeMemory *
find_same_text (GPtrArray  *memories,
                const char *text)
{
  g_autofree char *normal = normalise_text (text);

  for (guint i = 0; i < memories->len; i++)
    {
      LodeMemory *memory = g_ptr_array_index (memories, i);
      g_autofree char *other = normalise_text (memory->memory);

      if (g_str_equal (normal, other))
        return memory;
    }

  return NULL;
}

static LodeMemory *
memory_copy (const LodeMemory *memory)
{
  LodeMemory *copy = g_new0 (LodeMemory, 1);

  *copy = *memory;
  copy->id = g_strdup (memory->id);
  copy->type = g_strdup (memory->type);
  copy->category = g_strdup (memory->category);
  copy->memory = g_strdup (memory->memory);
  copy->reason = g_strdup (memory->reason);
  copy->date = g_strdup (memory->date);
  copy->files = g_strdupv (memory->files);
  copy->names = g_strdupv (memory->names);
  copy->commit = g_strdup (memory->commit);
  copy->changed = g_strdupv (memory->changed);
  copy->gone = g_strdupv (memory->gone);

  return copy;
}

/**
 * lode_memory_file_add:
 * @root: the project's root
 * @type: one of lode_memory_types()
 * @category: one of lode_memory_categories()
 * @memory: the rule
 * @reason: why
 * @files: (nullable) (array zero-terminated=1): the files it is about, relative to @root
 * @added: (out) (optional) (transfer full): the memory recorded
 * @existing: (out) (optional) (transfer full): when the same rule is already recorded (here
 *   or in codebase-context's file), that memory; nothing is written then
 * @error: return location for a #GError
 *
 * Records a memory in .lode/memory.json (made with its .gitattributes when missing). The
 * file is read again just before it is written, so that memories recorded meanwhile stay.
 *
 * Returns: %TRUE when the memory was recorded or found; %FALSE when the file is malformed
 *   (it is left as it is) or cannot be written
 */
gboolean
lode_memory_file_add (const char         *root,
                      const char         *type,
                      const char         *category,
                      const char         *memory,
                      const char         *reason,
                      const char *const  *files,
                      LodeMemory        **added,
                      LodeMemory        **existing,
                      GError            **error)
{
  g_auto(MemoryFile) file = { NULL };
  g_autofree char *path = g_build_filename (root, LODE_MEMORY_FILE, NULL);
  g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) theirs = NULL;
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *id = NULL;
  g_autofree char *date = dup_now ();
  g_autofree char *problem = NULL;
  LodeMemory *same;
  LodeMemory *memory_value;

  g_return_val_if_fail (root != NULL && type != NULL && category != NULL, FALSE);
  g_return_val_if_fail (memory != NULL && reason != NULL, FALSE);

  /* The files a memory names are the project's: never a path out of it. */
  for (guint i = 0; files != NULL && files[i] != NULL; i++)
    if (g_path_is_absolute (files[i]) || g_str_equal (files[i], "..") ||
        g_str_has_prefix (files[i], "../") || strstr (files[i], "/../") != NULL ||
        g_str_has_suffix (files[i], "/.."))
      {
        g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                     "“%s” is not a path inside the project: name files relative to its root "
                     "(src/net/http.c)", files[i]);
        return FALSE;
      }

  if (!memory_file_read (&file, path, LODE_MEMORY_SOURCE_USER, error))
    return FALSE;

  theirs = lode_memory_read_codebase_context (root, notes);
  same = find_same_text (file.memories, memory);
  if (same == NULL)
    same = find_same_text (theirs, memory);
  if (same != NULL)
    {
      if (existing != NULL)
        *existing = memory_copy (same);
      return TRUE;
    }

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, type);
  json_builder_set_member_name (builder, "category");
  json_builder_add_string_value (builder, category);
  json_builder_set_member_name (builder, "memory");
  json_builder_add_string_value (builder, memory);
  json_builder_set_member_name (builder, "reason");
  json_builder_add_string_value (builder, reason);
  json_builder_set_member_name (builder, "date");
  json_builder_add_string_value (builder, date);
  if (files != NULL && files[0] != NULL)
    {
      json_builder_set_member_name (builder, "files");
      json_builder_begin_array (builder);
      for (guint i = 0; files[i] != NULL; i++)
        json_builder_add_string_value (builder, files[i]);
      json_builder_end_array (builder);
    }
  json_builder_end_object (builder);
  node = json_builder_get_root (builder);

  id = lode_memory_dup_id (memory);
  memory_value = memory_from_object (id, json_node_get_object (node), LODE_MEMORY_SOURCE_USER,
                                     &problem);
  g_assert (memory_value != NULL);
  json_object_set_member (file.members, id, g_steal_pointer (&node));
  g_ptr_array_add (file.memories, memory_value);

  if (!memory_file_write (&file, root, error))
    return FALSE;
  if (added != NULL)
    *added = memory_copy (memory_value);

  return TRUE;
}

/**
 * lode_memory_file_remove:
 * @root: the project's root
 * @id: the memory's id
 * @error: return location for a #GError
 *
 * Removes a memory from .lode/memory.json. Memories mined from git and those of
 * codebase-context's file are not the file's: asking for them is an error that says so.
 *
 * Returns: (transfer full) (nullable): the memory removed
 */
LodeMemory *
lode_memory_file_remove (const char  *root,
                         const char  *id,
                         GError     **error)
{
  g_auto(MemoryFile) file = { NULL };
  g_autofree char *path = g_build_filename (root, LODE_MEMORY_FILE, NULL);
  g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) theirs = NULL;
  LodeMemory *removed = NULL;

  g_return_val_if_fail (root != NULL && id != NULL, NULL);

  if (!memory_file_read (&file, path, LODE_MEMORY_SOURCE_USER, error))
    return NULL;

  for (guint i = 0; i < file.memories->len; i++)
    {
      LodeMemory *memory = g_ptr_array_index (file.memories, i);

      if (g_str_equal (memory->id, id))
        {
          removed = g_ptr_array_steal_index (file.memories, i);
          break;
        }
    }
  if (removed == NULL)
    {
      theirs = lode_memory_read_codebase_context (root, notes);
      for (guint i = 0; i < theirs->len; i++)
        if (g_str_equal (((LodeMemory *) g_ptr_array_index (theirs, i))->id, id))
          {
            g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                         "The memory %s is codebase-context's (%s), which Lode only reads: "
                         "edit that file", id, LODE_MEMORY_CODEBASE_CONTEXT);
            return NULL;
          }
      g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_FOUND,
                   "No memory %s in %s (memories mined from git cannot be removed; "
                   "get_memory lists the ids)", id, path);
      return NULL;
    }

  json_object_remove_member (file.members, id);
  if (!memory_file_write (&file, root, error))
    {
      lode_memory_free (removed);
      return NULL;
    }

  return removed;
}
