/* lode-open-location.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-client"

#include "config.h"

#include "lode-open-location.h"

/* Editors that take a line on their command line, by executable name. */
static const struct
{
  const char *executable;
  const char *format;   /* %1$s: the file, %2$u: the line */
} line_editors[] = {
  { "gnome-text-editor", "+%2$u %1$s" },
  { "gedit", "+%2$u %1$s" },
  { "emacs", "+%2$u %1$s" },
  { "emacsclient", "+%2$u %1$s" },
  { "geany", "+%2$u %1$s" },
  { "gvim", "+%2$u %1$s" },
  { "kate", "--line %2$u %1$s" },
  { "code", "--goto %1$s:%2$u" },
  { "codium", "--goto %1$s:%2$u" },
};

static GAppInfo *
app_info_at_line (GAppInfo   *app,
                  const char *path,
                  guint       line)
{
  g_autofree char *name = g_path_get_basename (g_app_info_get_executable (app));

  for (guint i = 0; i < G_N_ELEMENTS (line_editors); i++)
    if (g_str_equal (name, line_editors[i].executable))
      {
        g_autofree char *quoted = g_shell_quote (path);
        g_autofree char *arguments = g_strdup_printf (line_editors[i].format, quoted, line);
        g_autofree char *commandline = g_strdup_printf ("%s %s",
                                                        g_app_info_get_executable (app),
                                                        arguments);

        return g_app_info_create_from_commandline (commandline, g_app_info_get_name (app),
                                                   G_APP_INFO_CREATE_NONE, NULL);
      }

  return NULL;
}

/**
 * lode_open_location:
 * @path: an absolute path
 * @line: a line of it, from 1
 * @context: (nullable): the launch context of the caller's display
 * @error: return location for a #GError
 *
 * Opens @path in the default application for its type, at @line when that application is
 * an editor known to take one on its command line. Without a default application (inside a
 * sandbox, for one) the file goes to the OpenURI portal, which opens it without a line.
 *
 * Returns: whether the application was launched
 */
gboolean
lode_open_location (const char         *path,
                    guint               line,
                    GAppLaunchContext  *context,
                    GError            **error)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GAppInfo) app = NULL;
  g_autoptr(GAppInfo) at_line = NULL;
  g_autolist(GFile) files = NULL;

  g_return_val_if_fail (path != NULL && g_path_is_absolute (path), FALSE);
  g_return_val_if_fail (!context || G_IS_APP_LAUNCH_CONTEXT (context), FALSE);

  file = g_file_new_for_path (path);
  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_CONTENT_TYPE,
                            G_FILE_QUERY_INFO_NONE, NULL, error);
  if (info == NULL)
    return FALSE;

  app = g_app_info_get_default_for_type (g_file_info_get_content_type (info), FALSE);
  if (app == NULL)
    app = g_app_info_get_default_for_type ("text/plain", FALSE);
  if (app == NULL)
    {
      g_autofree char *uri = g_file_get_uri (file);

      /* Inside a sandbox this is the OpenURI portal. */
      return g_app_info_launch_default_for_uri (uri, context, error);
    }

  at_line = app_info_at_line (app, path, line);
  if (at_line != NULL)
    return g_app_info_launch (at_line, NULL, context, error);

  files = g_list_prepend (NULL, g_object_ref (file));
  return g_app_info_launch (app, files, context, error);
}
