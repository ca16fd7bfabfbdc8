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
 * Typing in the overview searches every indexed project for definitions whose symbol name
 * contains the first term (lexical search, which ranks identifier definitions first). A
 * result identifier carries all that its metadata and its activation need — absolute path,
 * line, kind and symbol, separated by newlines — so the provider keeps no state between
 * calls. Activating a result opens the file at the line in the user's editor; LaunchSearch
 * opens the app (DBusActivatable) on the query with its "search" action.
 */

#define MAX_RESULTS      10
#define MAX_PER_PROJECT  5
#define MAX_TERMS_BYTES  1024
/* GetResultMetas answers for the results a search gave (MAX_RESULTS); a caller asking for
 * many more, or for long ones, gets metas for these many, so that the reply stays far
 * below the bus's message limit (past it, the bus drops the daemon). */
#define MAX_METAS        64
#define MAX_ID_BYTES     8192

struct _LodeSearchProvider
{
  LodeShellSearchProvider2Skeleton  parent_instance;
  GApplication                     *app;
  LodeEngine                       *engine;
};

static void lode_search_provider_iface_init (LodeShellSearchProvider2Iface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (LodeSearchProvider, lode_search_provider,
                               LODE_SHELL_TYPE_SEARCH_PROVIDER2_SKELETON,
                               G_IMPLEMENT_INTERFACE (LODE_SHELL_TYPE_SEARCH_PROVIDER2,
                                                      lode_search_provider_iface_init))

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
  return self;
}

typedef struct
{
  char      *needle;   /* the first term, casefolded */
  char      *query;    /* all terms */
  GPtrArray *projects; /* LodeProject */
} SearchData;

static void
search_data_free (SearchData *data)
{
  g_free (data->needle);
  g_free (data->query);
  g_ptr_array_unref (data->projects);
  g_free (data);
}

static char *
result_id (const char             *root,
           const LodeSearchResult *result)
{
  g_autofree char *path = g_build_filename (root, result->path, NULL);

  return g_strdup_printf ("%s\n%u\n%s\n%s", path, result->start_line, result->kind,
                          result->symbol);
}

/* Runs on a worker thread. */
static void
search_worker (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  SearchData *data = task_data;
  g_autoptr(GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);
  LodeSearchOptions options = LODE_SEARCH_OPTIONS_INIT;

  options.query = data->query;
  options.mode = LODE_SEARCH_MODE_LEXICAL;
  options.limit = 4 * MAX_PER_PROJECT;

  for (guint i = 0; i < data->projects->len && ids->len < MAX_RESULTS; i++)
    {
      LodeProject *project = g_ptr_array_index (data->projects, i);
      g_autoptr(GError) error = NULL;
      g_autoptr(GPtrArray) results = lode_project_search (project, &options, cancellable,
                                                          &error);
      guint taken = 0;

      if (results == NULL)
        {
          g_debug ("Searching %s: %s", lode_project_get_root (project), error->message);
          continue;
        }

      for (guint j = 0; j < results->len && taken < MAX_PER_PROJECT && ids->len < MAX_RESULTS;
           j++)
        {
          LodeSearchResult *result = g_ptr_array_index (results, j);
          g_autofree char *folded = NULL;

          if (result->symbol == NULL || result->kind == NULL)
            continue;
          folded = g_utf8_casefold (result->symbol, -1);
          if (strstr (folded, data->needle) == NULL)
            continue;

          g_ptr_array_add (ids, result_id (lode_project_get_root (project), result));
          taken++;
        }
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
  data->needle = g_utf8_casefold (terms[0], -1);
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

/* path, line, kind, symbol; FALSE for an identifier this provider did not make. */
static gboolean
parse_id (const char  *id,
          char      ***parts,
          guint       *line)
{
  g_auto(GStrv) fields = g_strsplit (id, "\n", 4);
  guint64 value = 0;

  if (g_strv_length (fields) != 4 || !g_path_is_absolute (fields[0]) ||
      !g_ascii_string_to_unsigned (fields[1], 10, 1, G_MAXUINT, &value, NULL))
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

static gboolean
handle_activate_result (LodeShellSearchProvider2 *iface,
                        GDBusMethodInvocation    *invocation,
                        const char               *identifier,
                        const char * const       *terms,
                        guint                     timestamp)
{
  g_auto(GStrv) parts = NULL;
  g_autoptr(GError) error = NULL;
  guint line;

  if (!parse_id (identifier, &parts, &line))
    {
      g_dbus_method_invocation_return_error (g_steal_pointer (&invocation), LODE_ERROR,
                                             LODE_ERROR_INVALID_ARGUMENT,
                                             _("Not a result of this provider: “%s”"), identifier);
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }

  if (!lode_open_location (parts[0], line, NULL, &error))
    {
      g_prefix_error (&error, _("Cannot open %s: "), parts[0]);
      g_dbus_method_invocation_return_gerror (g_steal_pointer (&invocation), error);
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }

  lode_shell_search_provider2_complete_activate_result (iface, g_steal_pointer (&invocation));
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
  g_autofree char *app_path = g_strconcat ("/", LODE_APP_ID, NULL);
  GDBusConnection *connection = g_dbus_method_invocation_get_connection (invocation);
  GVariantBuilder platform_data;

  /* org.freedesktop.Application's object path is the app id with dots as slashes. */
  g_strdelimit (app_path, ".", '/');
  g_variant_builder_init (&platform_data, G_VARIANT_TYPE_VARDICT);
  g_dbus_connection_call (connection, LODE_APP_ID, app_path, "org.freedesktop.Application",
                          "ActivateAction",
                          g_variant_new ("(s@ava{sv})", "search",
                                         g_variant_new_parsed ("[<%s>]", query),
                                         &platform_data),
                          NULL, G_DBUS_CALL_FLAGS_NONE, -1, NULL, launch_search_cb,
                          g_steal_pointer (&invocation));
  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

static void
lode_search_provider_finalize (GObject *object)
{
  LodeSearchProvider *self = (LodeSearchProvider *)object;

  g_clear_object (&self->engine);

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
}
