/* lode-search-provider.c — GNOME Shell's search provider: symbols of the indexed projects
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-search-provider"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "lode-open-location.h"
#include "lode-search-provider.h"

/*
 * Typing in the overview searches the names of every indexed project's declarations the way
 * other providers search theirs: a name that starts with what was typed (`Semaph` finds
 * Semaphore), or one of whose parts does (`config` finds parse_widget_config), and a
 * qualified name (`tokio::spawn`, `os.path.join`, `App\\Models\\User`) by its last part,
 * whose qualifier must name the declaration's container, package or folders. Results come
 * best first: the exact name, then names it starts, then parts; types before functions
 * before constants before the rest (an `impl` block, a module); within those, declarations
 * whose container the qualifier names, shorter names, paths. More terms narrow the results
 * (a subsearch): each must be in the name, the container or the path.
 *
 * Each project's names are read once from its index (lode_project_read) and kept in memory
 * until the engine says the index changed. A result identifier carries all that its
 * metadata and its activation need — absolute path, line, kind and symbol, separated by
 * newlines, then the project's root — so the provider keeps no state about results between
 * calls. Activating a result opens the app (DBusActivatable) on the declaration's Symbol page
 * with its "show-symbol" action, or, where the app cannot start, the file at the line in the
 * user's editor; LaunchSearch opens the app on the query with its "search" action.
 */

#define MAX_RESULTS      10
#define MAX_PER_PROJECT  5
#define MAX_TERMS_BYTES  1024
/* GetResultMetas answers for the results a search gave (MAX_RESULTS); a caller asking for
 * many more, or for long ones, gets metas for these many, so that the reply stays far
 * below the bus's message limit (past it, the bus drops the daemon). */
#define MAX_METAS        64
#define MAX_ID_BYTES     8192

/* Declarations read from a project at most: a big monorepo's, not a generated one's. */
#define MAX_NAMES        500000

/* One declaration of a project; its strings are in its index's chunk. */
typedef struct
{
  const char *name;
  const char *folded;      /* the name, lower-case */
  const char *kind;
  const char *container;   /* (nullable) */
  const char *package;     /* (nullable) */
  const char *path;        /* absolute */
  guint       line;
} Name;

/* A project's declarations, immutable once built, shared by searches in several threads
 * (each one a scan: prefixes of parts need every name). Kinds, containers, packages and paths repeat: the chunk
 * keeps one copy of each. */
typedef struct
{
  GArray       *names;     /* Name */
  GStringChunk *strings;
} NameIndex;

struct _LodeSearchProvider
{
  LodeShellSearchProvider2Skeleton  parent_instance;
  GApplication                     *app;
  LodeEngine                       *engine;
  GMutex                            lock;
  GHashTable                       *indexes;   /* root → NameIndex (refcounted), under lock */
};

static void lode_search_provider_iface_init (LodeShellSearchProvider2Iface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (LodeSearchProvider, lode_search_provider,
                               LODE_SHELL_TYPE_SEARCH_PROVIDER2_SKELETON,
                               G_IMPLEMENT_INTERFACE (LODE_SHELL_TYPE_SEARCH_PROVIDER2,
                                                      lode_search_provider_iface_init))

static void
name_index_clear (NameIndex *index)
{
  g_array_unref (index->names);
  g_string_chunk_free (index->strings);
}

static void
name_index_unref (NameIndex *index)
{
  g_atomic_rc_box_release_full (index, (GDestroyNotify) name_index_clear);
}

/* A changed index makes the names of its project stale. */
static void
index_changed_cb (LodeSearchProvider *self,
                  const char         *root)
{
  g_mutex_lock (&self->lock);
  g_hash_table_remove (self->indexes, root);
  g_mutex_unlock (&self->lock);
}

LodeSearchProvider *
lode_search_provider_new (GApplication *app,
                          LodeEngine   *engine)
{
  LodeSearchProvider *self;

  g_return_val_if_fail (G_IS_APPLICATION (app), NULL);
  g_return_val_if_fail (LODE_IS_ENGINE (engine), NULL);

  self = g_object_new (LODE_TYPE_SEARCH_PROVIDER, NULL);
  self->app = app;
  self->engine = g_object_ref (engine);
  g_signal_connect_object (engine, "index-changed", G_CALLBACK (index_changed_cb), self,
                           G_CONNECT_SWAPPED);
  return self;
}

typedef struct
{
  char      *query;    /* all terms */
  GStrv      terms;    /* casefolded */
  GPtrArray *projects; /* LodeProject */
} SearchData;

static void
search_data_free (SearchData *data)
{
  g_free (data->query);
  g_strfreev (data->terms);
  g_ptr_array_unref (data->projects);
  g_free (data);
}

static const char *
intern (GStringChunk *strings,
        const char   *text)
{
  return text != NULL ? g_string_chunk_insert_const (strings, text) : NULL;
}

/* Runs on a worker thread, with the project's reader. */
static gpointer
read_names (LodeProject     *project,
            LodeIndexStore  *store,
            gpointer         data,
            GError         **error)
{
  g_autoptr(GPtrArray) symbols = lode_index_store_dup_package_symbols (store, NULL, "**",
                                                                       MAX_NAMES, error);
  NameIndex *index;

  if (symbols == NULL)
    return NULL;

  index = g_atomic_rc_box_new0 (NameIndex);
  index->names = g_array_sized_new (FALSE, FALSE, sizeof (Name), symbols->len);
  index->strings = g_string_chunk_new (64 * 1024);
  for (guint i = 0; i < symbols->len; i++)
    {
      const LodeStoredSymbol *symbol = g_ptr_array_index (symbols, i);
      g_autofree char *folded = NULL;
      g_autofree char *path = NULL;
      Name name;

      if (symbol->name == NULL || symbol->kind == NULL)
        continue;
      folded = g_utf8_casefold (symbol->name, -1);
      path = g_build_filename (lode_project_get_root (project), symbol->path, NULL);
      name.name = intern (index->strings, symbol->name);
      name.folded = intern (index->strings, folded);
      name.kind = intern (index->strings, symbol->kind);
      name.container = intern (index->strings, symbol->container);
      name.package = intern (index->strings, symbol->package);
      name.path = intern (index->strings, path);
      name.line = MAX (symbol->start_line, 1);
      g_array_append_val (index->names, name);
    }

  return index;
}

/* Runs on a worker thread. */
static NameIndex *
dup_name_index (LodeSearchProvider  *self,
                LodeProject         *project,
                GError             **error)
{
  const char *root = lode_project_get_root (project);
  NameIndex *index;

  g_mutex_lock (&self->lock);
  index = g_hash_table_lookup (self->indexes, root);
  if (index != NULL)
    index = g_atomic_rc_box_acquire (index);
  g_mutex_unlock (&self->lock);
  if (index != NULL)
    return index;

  index = lode_project_read (project, read_names, NULL, error);
  if (index == NULL)
    return NULL;

  g_mutex_lock (&self->lock);
  g_hash_table_replace (self->indexes, g_strdup (root), g_atomic_rc_box_acquire (index));
  g_mutex_unlock (&self->lock);
  return index;
}

/* The qualifier and the last part of a qualified name: "tokio::spawn" → "tokio", "spawn";
 * NULL qualifier for a plain name. */
static char *
split_qualified (const char  *term,
                 char       **qualifier)
{
  static const char *const separators[] = { "::", "->", ".", "#", "\\", "/" };
  const char *last = NULL;
  gsize length = 0;

  for (guint i = 0; i < G_N_ELEMENTS (separators); i++)
    {
      const char *found = g_strrstr (term, separators[i]);

      if (found != NULL && found > term && (last == NULL || found > last))
        {
          last = found;
          length = strlen (separators[i]);
        }
    }

  if (last == NULL || last[length] == '\0')
    {
      *qualifier = NULL;
      return g_strdup (term);
    }

  *qualifier = g_strndup (term, last - term);
  return g_strdup (last + length);
}

/* @qualifier with every separator as '/': "App\\Models" → "app/models". */
static char *
normalise_qualifier (const char *qualifier)
{
  g_autofree char *folded = g_utf8_casefold (qualifier, -1);
  GString *out = g_string_new (NULL);

  for (const char *p = folded; *p != '\0'; p++)
    {
      if (*p == ':' && p[1] == ':')
        {
          g_string_append_c (out, '/');
          p++;
        }
      else if (*p == '-' && p[1] == '>')
        {
          g_string_append_c (out, '/');
          p++;
        }
      else
        g_string_append_c (out, strchr (".#\\", *p) != NULL ? '/' : *p);
    }

  return g_string_free (out, FALSE);
}

/* Whether @text holds @part ('/'-separated words) as whole words: at its start or after a
 * separator, ending at its end or before one. */
static gboolean
has_words (const char *text,
           const char *part)
{
  gsize n = strlen (part);

  for (const char *p = strstr (text, part); p != NULL; p = strstr (p + 1, part))
    if ((p == text || p[-1] == '/') && (p[n] == '\0' || p[n] == '/' || p[n] == '.'))
      return TRUE;

  return FALSE;
}

/* How well @qualifier (normalised) names where @name is: 2 its container or package, 1 its
 * folders, 0 not at all. */
static guint
qualifier_match (const Name *name,
                 const char *qualifier)
{
  const char *candidates[] = { name->container, name->package };

  for (guint i = 0; i < G_N_ELEMENTS (candidates); i++)
    if (candidates[i] != NULL)
      {
        g_autofree char *normalised = normalise_qualifier (candidates[i]);

        if (has_words (normalised, qualifier))
          return 2;
      }

  {
    g_autofree char *path = g_utf8_casefold (name->path, -1);

    return has_words (path, qualifier) ? 1 : 0;
  }
}

/* Types, then functions, then values, then the rest: impl blocks, modules, fields. */
static guint
kind_rank (const char *kind)
{
  static const char *const types[] = {
    "class", "struct", "interface", "trait", "enum", "union", "type", "record", "object",
    "protocol", "typedef",
  };
  static const char *const functions[] = {
    "function", "method", "constructor", "macro",
  };
  static const char *const values[] = { "constant", "variable", "prototype" };

  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    if (g_str_equal (kind, types[i]))
      return 0;
  for (guint i = 0; i < G_N_ELEMENTS (functions); i++)
    if (g_str_equal (kind, functions[i]))
      return 1;
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    if (g_str_equal (kind, values[i]))
      return 2;
  return 3;
}

/* Where @needle starts a part of @folded (after '_', '-', a digit run, or where the declared
 * name goes from a small letter to a capital): the offset of the part, or -1. */
static int
part_match (const Name *name,
            const char *needle)
{
  gsize n = strlen (needle);

  /* Casefolding keeps an ASCII name's bytes where they are; other names are compared as far
   * as both go. */
  for (gsize i = 1; name->folded[i] != '\0' && name->name[i] != '\0'; i++)
    {
      char before = name->name[i - 1];
      char c = name->name[i];
      gboolean starts = (!g_ascii_isalnum (before) && g_ascii_isalnum (c)) ||
                        (g_ascii_islower (before) && g_ascii_isupper (c)) ||
                        (g_ascii_isdigit (before) != g_ascii_isdigit (c) && g_ascii_isalnum (c));

      if (starts && strncmp (name->folded + i, needle, n) == 0)
        return i;
    }

  return -1;
}

typedef struct
{
  const Name *name;
  guint       match;     /* 0 exact, 1 prefix, 2 part */
  guint       place;     /* 0 the qualifier names its container or package, 1 other */
  guint       kind;
} Hit;

static int
compare_hits (gconstpointer a,
              gconstpointer b)
{
  const Hit *ha = a;
  const Hit *hb = b;
  gsize la, lb;

  if (ha->match != hb->match)
    return ha->match < hb->match ? -1 : 1;
  if (ha->place != hb->place)
    return ha->place < hb->place ? -1 : 1;
  if (ha->kind != hb->kind)
    return ha->kind < hb->kind ? -1 : 1;
  la = strlen (ha->name->name);
  lb = strlen (hb->name->name);
  if (la != lb)
    return la < lb ? -1 : 1;
  return g_strcmp0 (ha->name->path, hb->name->path);
}

/* Whether every further term is in @name's name, container or path. */
static gboolean
has_terms (const Name         *name,
           const char * const *terms)
{
  g_autofree char *container = name->container != NULL ? g_utf8_casefold (name->container, -1)
                                                        : NULL;
  g_autofree char *path = g_utf8_casefold (name->path, -1);

  for (guint i = 0; terms[i] != NULL; i++)
    if (strstr (name->folded, terms[i]) == NULL &&
        (container == NULL || strstr (container, terms[i]) == NULL) &&
        strstr (path, terms[i]) == NULL)
      return FALSE;

  return TRUE;
}

/* The declarations of @index matching @terms, best first. */
static GArray *
find_names (NameIndex          *index,
            const char * const *terms)
{
  g_autofree char *qualifier = NULL;
  g_autofree char *needle = split_qualified (terms[0], &qualifier);
  g_autofree char *normalised = qualifier != NULL ? normalise_qualifier (qualifier) : NULL;
  GArray *hits = g_array_new (FALSE, FALSE, sizeof (Hit));
  gsize n = strlen (needle);

  if (n == 0)
    return hits;

  for (guint i = 0; i < index->names->len; i++)
    {
      const Name *name = &g_array_index (index->names, Name, i);
      Hit hit = { name, 0, 1, kind_rank (name->kind) };

      if (strncmp (name->folded, needle, n) == 0)
        hit.match = name->folded[n] == '\0' ? 0 : 1;
      else if (part_match (name, needle) >= 0)
        hit.match = 2;
      else
        continue;

      if (normalised != NULL)
        {
          guint place = qualifier_match (name, normalised);

          if (place == 0)
            continue;
          /* `a::b` with a no container of b names b as an item of a module: free items
           * before members of unrelated types. */
          hit.place = place == 2 || name->container == NULL ? 0 : 1;
        }
      if (!has_terms (name, terms + 1))
        continue;
      g_array_append_val (hits, hit);
    }

  g_array_sort (hits, compare_hits);
  return hits;
}

static char *
result_id (const char *root,
           const Name *name)
{
  return g_strdup_printf ("%s\n%u\n%s\n%s\n%s", name->path, name->line, name->kind, name->name,
                          root);
}

/* Runs on a worker thread. */
static void
search_worker (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  LodeSearchProvider *self = source_object;
  SearchData *data = task_data;
  g_autoptr(GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < data->projects->len && ids->len < MAX_RESULTS; i++)
    {
      LodeProject *project = g_ptr_array_index (data->projects, i);
      g_autoptr(GError) error = NULL;
      NameIndex *index = dup_name_index (self, project, &error);
      g_autoptr(GArray) hits = NULL;

      if (index == NULL)
        {
          g_debug ("Searching %s: %s", lode_project_get_root (project), error->message);
          continue;
        }

      hits = find_names (index, (const char * const *) data->terms);
      for (guint j = 0; j < hits->len && j < MAX_PER_PROJECT && ids->len < MAX_RESULTS; j++)
        g_ptr_array_add (ids, result_id (lode_project_get_root (project),
                                         g_array_index (hits, Hit, j).name));
      name_index_unref (index);
    }

  g_ptr_array_add (ids, NULL);
  g_task_return_pointer (task, g_ptr_array_free (g_steal_pointer (&ids), FALSE),
                         (GDestroyNotify) g_strfreev);
}

static void
search_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GDBusMethodInvocation) invocation = user_data;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) ids = g_task_propagate_pointer (G_TASK (result), &error);

  if (ids == NULL)
    {
      g_dbus_method_invocation_return_gerror (g_steal_pointer (&invocation), error);
      return;
    }

  g_dbus_method_invocation_return_value (g_steal_pointer (&invocation),
                                         g_variant_new ("(^as)", ids));
}

/* Both result-set methods: a fresh search over every indexed project. */
static void
start_search (LodeSearchProvider    *self,
              GDBusMethodInvocation *invocation,
              const char * const    *terms)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GPtrArray) infos = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *query = g_strjoinv (" ", (char **) terms);
  SearchData *data;

  /* A search is activity: it restarts the daemon's inactivity timeout. */
  g_application_hold (self->app);
  g_application_release (self->app);

  if (terms[0] == NULL || strlen (query) > MAX_TERMS_BYTES || *g_strstrip (query) == '\0')
    {
      g_dbus_method_invocation_return_value (invocation, g_variant_new_parsed ("(@as [],)"));
      return;
    }

  infos = lode_engine_list_projects (self->engine, &error);
  if (infos == NULL)
    {
      g_dbus_method_invocation_return_gerror (invocation, error);
      return;
    }

  data = g_new0 (SearchData, 1);
  data->terms = g_new0 (char *, g_strv_length ((char **) terms) + 1);
  for (guint i = 0; terms[i] != NULL; i++)
    data->terms[i] = g_utf8_casefold (terms[i], -1);
  data->query = g_steal_pointer (&query);
  data->projects = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < infos->len; i++)
    {
      LodeProjectInfo *info = g_ptr_array_index (infos, i);
      g_autoptr(GError) open_error = NULL;
      LodeProject *project = lode_engine_open_project (self->engine, info->root, TRUE,
                                                       &open_error);

      if (project != NULL)
        g_ptr_array_add (data->projects, project);
      else
        g_debug ("Skipping %s: %s", info->root, open_error->message);
    }

  task = g_task_new (self, NULL, search_done_cb, invocation);
  g_task_set_source_tag (task, start_search);
  g_task_set_task_data (task, data, (GDestroyNotify) search_data_free);
  g_task_run_in_thread (task, search_worker);
}

static gboolean
handle_get_initial_result_set (LodeShellSearchProvider2 *iface,
                               GDBusMethodInvocation    *invocation,
                               const char * const       *terms)
{
  start_search (LODE_SEARCH_PROVIDER (iface), g_steal_pointer (&invocation), terms);
  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

static gboolean
handle_get_subsearch_result_set (LodeShellSearchProvider2 *iface,
                                 GDBusMethodInvocation    *invocation,
                                 const char * const       *previous_results,
                                 const char * const       *terms)
{
  start_search (LODE_SEARCH_PROVIDER (iface), g_steal_pointer (&invocation), terms);
  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

/* path, line, kind, symbol, root; FALSE for an identifier this provider did not make. */
static gboolean
parse_id (const char  *id,
          char      ***parts,
          guint       *line)
{
  g_auto(GStrv) fields = g_strsplit (id, "\n", 5);
  guint64 value = 0;

  if (g_strv_length (fields) != 5 || !g_path_is_absolute (fields[0]) ||
      !g_ascii_string_to_unsigned (fields[1], 10, 1, G_MAXUINT, &value, NULL) ||
      !g_path_is_absolute (fields[4]) || !g_str_has_prefix (fields[0], fields[4]) ||
      !G_IS_DIR_SEPARATOR (fields[0][strlen (fields[4])]))
    return FALSE;

  *line = value;
  *parts = g_steal_pointer (&fields);
  return TRUE;
}

static gboolean
handle_get_result_metas (LodeShellSearchProvider2 *iface,
                         GDBusMethodInvocation    *invocation,
                         const char * const       *identifiers)
{
  g_auto(GVariantBuilder) metas = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE ("aa{sv}"));

  for (guint i = 0; identifiers[i] != NULL && i < MAX_METAS; i++)
    {
      g_auto(GStrv) parts = NULL;
      g_autoptr(GIcon) icon = NULL;
      g_autoptr(GVariant) serialized = NULL;
      g_autofree char *basename = NULL;
      g_autofree char *description = NULL;
      guint line;

      if (strlen (identifiers[i]) > MAX_ID_BYTES || !parse_id (identifiers[i], &parts, &line))
        continue;

      basename = g_path_get_basename (parts[0]);
      /* Translators: a search result: kind of symbol, file name, line (“function · lode.c:12”). */
      description = g_strdup_printf (_("%s · %s:%u — %s"), parts[2], basename, line, parts[0]);
      icon = g_themed_icon_new ("text-x-script");
      serialized = g_icon_serialize (icon);

      g_variant_builder_open (&metas, G_VARIANT_TYPE ("a{sv}"));
      g_variant_builder_add (&metas, "{sv}", "id", g_variant_new_string (identifiers[i]));
      g_variant_builder_add (&metas, "{sv}", "name", g_variant_new_string (parts[3]));
      g_variant_builder_add (&metas, "{sv}", "description", g_variant_new_string (description));
      g_variant_builder_add (&metas, "{sv}", "icon", serialized);
      g_variant_builder_close (&metas);
    }

  g_dbus_method_invocation_return_value (g_steal_pointer (&invocation),
                                         g_variant_new ("(aa{sv})", &metas));
  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

/* What org.freedesktop.Application's ActivateAction of the app needs: its object path (the
 * app id with dots as slashes) and the action with its parameter. */
static void
activate_app_action (GDBusConnection     *connection,
                     const char          *action,
                     GVariant            *parameter,
                     GAsyncReadyCallback  callback,
                     gpointer             user_data)
{
  g_autofree char *app_path = g_strconcat ("/", LODE_APP_ID, NULL);
  GVariantBuilder platform_data;

  g_strdelimit (app_path, ".", '/');
  g_variant_builder_init (&platform_data, G_VARIANT_TYPE_VARDICT);
  g_dbus_connection_call (connection, LODE_APP_ID, app_path, "org.freedesktop.Application",
                          "ActivateAction",
                          g_variant_new ("(s@ava{sv})", action,
                                         g_variant_new_parsed ("[%v]", parameter),
                                         &platform_data),
                          NULL, G_DBUS_CALL_FLAGS_NONE, -1, NULL, callback, user_data);
}

static void
show_symbol_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GDBusMethodInvocation) invocation = user_data;
  LodeShellSearchProvider2 *iface = g_object_get_data (G_OBJECT (invocation), "lode-provider");
  const char *identifier = g_object_get_data (G_OBJECT (invocation), "lode-id");
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) parts = NULL;
  guint line;

  reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (object), result, &error);
  if (reply == NULL)
    {
      /* No app to show it (none installed, no display): the declaration in the editor. */
      g_debug ("Cannot show the symbol in the app: %s", error->message);
      g_clear_error (&error);
      parse_id (identifier, &parts, &line);
      if (!lode_open_location (parts[0], line, NULL, &error))
        {
          g_prefix_error (&error, _("Cannot open %s: "), parts[0]);
          g_dbus_method_invocation_return_gerror (g_steal_pointer (&invocation), error);
          return;
        }
    }

  lode_shell_search_provider2_complete_activate_result (iface, g_steal_pointer (&invocation));
}

static gboolean
handle_activate_result (LodeShellSearchProvider2 *iface,
                        GDBusMethodInvocation    *invocation,
                        const char               *identifier,
                        const char * const       *terms,
                        guint                     timestamp)
{
  GDBusConnection *connection = g_dbus_method_invocation_get_connection (invocation);
  g_auto(GStrv) parts = NULL;
  guint line;

  if (!parse_id (identifier, &parts, &line))
    {
      g_dbus_method_invocation_return_error (g_steal_pointer (&invocation), LODE_ERROR,
                                             LODE_ERROR_INVALID_ARGUMENT,
                                             _("Not a result of this provider: “%s”"), identifier);
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }

  /* (root, name, file relative to the root): the app's Symbol page. */
  g_object_set_data_full (G_OBJECT (invocation), "lode-provider", g_object_ref (iface),
                          g_object_unref);
  g_object_set_data_full (G_OBJECT (invocation), "lode-id", g_strdup (identifier), g_free);
  activate_app_action (connection, "show-symbol",
                       g_variant_new ("(sss)", parts[4], parts[3],
                                      parts[0] + strlen (parts[4]) + 1),
                       show_symbol_cb, g_steal_pointer (&invocation));
  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

static void
launch_search_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GDBusMethodInvocation) invocation = user_data;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;

  reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (object), result, &error);
  if (reply == NULL)
    {
      g_dbus_error_strip_remote_error (error);
      g_prefix_error (&error, _("Cannot open Lode: "));
      g_dbus_method_invocation_return_gerror (g_steal_pointer (&invocation), error);
      return;
    }

  g_dbus_method_invocation_return_value (g_steal_pointer (&invocation), NULL);
}

static gboolean
handle_launch_search (LodeShellSearchProvider2 *iface,
                      GDBusMethodInvocation    *invocation,
                      const char * const       *terms,
                      guint                     timestamp)
{
  g_autofree char *query = g_strjoinv (" ", (char **) terms);
  GDBusConnection *connection = g_dbus_method_invocation_get_connection (invocation);

  activate_app_action (connection, "search", g_variant_new_string (query), launch_search_cb,
                       g_steal_pointer (&invocation));
  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

static void
lode_search_provider_finalize (GObject *object)
{
  LodeSearchProvider *self = (LodeSearchProvider *)object;

  g_clear_object (&self->engine);
  g_hash_table_unref (self->indexes);
  g_mutex_clear (&self->lock);

  G_OBJECT_CLASS (lode_search_provider_parent_class)->finalize (object);
}

static void
lode_search_provider_iface_init (LodeShellSearchProvider2Iface *iface)
{
  iface->handle_get_initial_result_set = handle_get_initial_result_set;
  iface->handle_get_subsearch_result_set = handle_get_subsearch_result_set;
  iface->handle_get_result_metas = handle_get_result_metas;
  iface->handle_activate_result = handle_activate_result;
  iface->handle_launch_search = handle_launch_search;
}

static void
lode_search_provider_class_init (LodeSearchProviderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = lode_search_provider_finalize;
}

static void
lode_search_provider_init (LodeSearchProvider *self)
{
  g_mutex_init (&self->lock);
  self->indexes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                         (GDestroyNotify) name_index_unref);
}
