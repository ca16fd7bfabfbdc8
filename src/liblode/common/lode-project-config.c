/* lode-project-config.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-config"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lode-error.h"
#include "lode-json.h"
#include "lode-project-config.h"

/* A project's own settings live in files at its root, beside the code they describe:
 * `.lode.json` ({"includeVendored": bool, "contextArtifacts": [{name, path, description}]})
 * and SocratiCode's `.socraticodecontextartifacts.json` ({"artifacts": […]}, the same
 * entries), so that a project set up for SocratiCode works as it is. Both are small; a file
 * larger than MAX_CONFIG_BYTES is refused rather than read. They come with the project, so
 * they are read as any input from outside: only regular files, opened without blocking (a
 * FIFO in their place hung `lode index`), with the size cap enforced while reading (a link
 * to /dev/zero grew without end), and parsed with lode_json_parse (100,000 nested `[`
 * overflowed json-glib's stack). */

#define MAX_CONFIG_BYTES (1024 * 1024)
#define MAX_NAME_BYTES   256

void
lode_artifact_spec_free (LodeArtifactSpec *spec)
{
  if (spec == NULL)
    return;

  g_free (spec->name);
  g_free (spec->path);
  g_free (spec->description);
  g_free (spec->source);
  g_free (spec);
}

void
lode_project_config_free (LodeProjectConfig *config)
{
  if (config == NULL)
    return;

  g_clear_pointer (&config->artifacts, g_ptr_array_unref);
  g_clear_pointer (&config->linked, g_ptr_array_unref);
  g_free (config);
}

static LodeProjectConfig *
project_config_new (void)
{
  LodeProjectConfig *config = g_new0 (LodeProjectConfig, 1);

  config->artifacts = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_artifact_spec_free);
  config->linked = g_ptr_array_new_with_free_func (g_free);
  return config;
}

/* The contents of the regular file @path, at most MAX_CONFIG_BYTES; a G_FILE_ERROR
 * otherwise (G_FILE_ERROR_NOENT when there is none). */
static gboolean
read_small_file (const char  *path,
                 char       **contents,
                 gsize       *length,
                 GError     **error)
{
  g_autofree char *buf = g_malloc (MAX_CONFIG_BYTES + 2);
  struct stat st;
  gsize done = 0;
  int fd;

  fd = open (path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0)
    {
      int saved_errno = errno;

      g_set_error_literal (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                           g_strerror (saved_errno));
      return FALSE;
    }
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      g_set_error_literal (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "not a regular file");
      close (fd);
      return FALSE;
    }

  /* One byte past the cap tells a file that is too large, whatever st_size says. */
  while (done <= MAX_CONFIG_BYTES)
    {
      gssize n = read (fd, buf + done, MAX_CONFIG_BYTES + 1 - done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved_errno = errno;

          g_set_error_literal (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                               g_strerror (saved_errno));
          close (fd);
          return FALSE;
        }
      if (n == 0)
        break;
      done += n;
    }
  close (fd);

  if (done > MAX_CONFIG_BYTES)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "larger than %d bytes",
                   MAX_CONFIG_BYTES);
      return FALSE;
    }

  buf[done] = '\0';
  *length = done;
  *contents = g_steal_pointer (&buf);
  return TRUE;
}

/* Reads @name at @root; FALSE with an error when it exists but cannot be used, TRUE with
 * *@root_node NULL when it does not exist. */
static gboolean
read_json (const char  *root,
           const char  *name,
           JsonNode   **root_node,
           GError     **error)
{
  g_autofree char *path = g_build_filename (root, name, NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(JsonNode) node = NULL;
  gsize len = 0;

  *root_node = NULL;
  if (!read_small_file (path, &text, &len, &local_error))
    {
      if (g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        return TRUE;
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT, "Cannot read %s: %s", path,
                   local_error->message);
      return FALSE;
    }

  node = lode_json_parse (text, len, &local_error);
  if (node == NULL)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT, "%s is not valid JSON: %s",
                   path, local_error->message);
      return FALSE;
    }
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                   "%s must hold a JSON object", path);
      return FALSE;
    }

  *root_node = g_steal_pointer (&node);
  return TRUE;
}

/* Adds the entries of @array (from @source) to @config; a name seen before keeps its first
 * declaration. */
static gboolean
add_artifacts (LodeProjectConfig  *config,
               JsonArray          *array,
               const char         *source,
               GError            **error)
{
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *node = json_array_get_element (array, i);
      g_autoptr(LodeArtifactSpec) spec = NULL;
      JsonObject *object;
      const char *name, *path;
      gboolean seen = FALSE;

      object = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      name = object != NULL ? lode_json_get_string (object, "name") : NULL;
      path = object != NULL ? lode_json_get_string (object, "path") : NULL;
      if (name == NULL || *name == '\0' || strlen (name) > MAX_NAME_BYTES || path == NULL ||
          *path == '\0')
        {
          g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                       "%s: artifact %u needs a “name” (at most %d bytes) and a “path”",
                       source, i + 1, MAX_NAME_BYTES);
          return FALSE;
        }

      for (guint j = 0; j < config->artifacts->len; j++)
        if (strcmp (((LodeArtifactSpec *) g_ptr_array_index (config->artifacts, j))->name,
                    name) == 0)
          seen = TRUE;
      if (seen)
        continue;

      spec = g_new0 (LodeArtifactSpec, 1);
      spec->name = g_strdup (name);
      spec->path = g_strdup (path);
      spec->description = g_strdup (lode_json_get_string (object, "description"));
      spec->source = g_strdup (source);
      g_ptr_array_add (config->artifacts, g_steal_pointer (&spec));
    }

  return TRUE;
}

static gboolean
array_member (JsonObject  *object,
              const char  *member,
              const char  *source,
              JsonArray  **array,
              GError     **error)
{
  JsonNode *node = json_object_get_member (object, member);

  *array = NULL;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                   "%s: “%s” must be an array", source, member);
      return FALSE;
    }
  *array = json_node_get_array (node);
  return TRUE;
}

/* Adds the paths of @object's `linkedProjects` (from @source) to @config, resolved against
 * @root. */
static gboolean
add_linked (LodeProjectConfig  *config,
            const char         *root,
            JsonObject         *object,
            const char         *source,
            GError            **error)
{
  JsonArray *array;

  if (!array_member (object, "linkedProjects", source, &array, error))
    return FALSE;
  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      JsonNode *node = json_array_get_element (array, i);
      const char *path = JSON_NODE_HOLDS_VALUE (node) &&
                         json_node_get_value_type (node) == G_TYPE_STRING
                         ? json_node_get_string (node) : NULL;

      if (path == NULL || *path == '\0')
        {
          g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                       "%s: linkedProjects[%u] must be a path", source, i);
          return FALSE;
        }
      g_ptr_array_add (config->linked, g_canonicalize_filename (path, root));
    }

  return TRUE;
}

/**
 * lode_project_config_load:
 * @root: the project's root directory
 * @error: return location for a #GError
 *
 * Reads `.lode.json`, `.socraticodecontextartifacts.json` and `.socraticode.json` at @root. Missing files give
 * the defaults; a file that cannot be read or has the wrong shape is an error that names it.
 * An artifact declared in both keeps the declaration of `.lode.json`.
 *
 * Returns: (transfer full) (nullable): the settings
 */
LodeProjectConfig *
lode_project_config_load (const char  *root,
                          GError     **error)
{
  g_autoptr(LodeProjectConfig) config = project_config_new ();
  g_autoptr(JsonNode) lode = NULL;
  g_autoptr(JsonNode) socraticode = NULL;
  g_autoptr(JsonNode) socraticode_config = NULL;
  JsonArray *array;

  g_return_val_if_fail (root != NULL, NULL);

  if (!read_json (root, LODE_PROJECT_CONFIG_NAME, &lode, error) ||
      !read_json (root, LODE_SOCRATICODE_ARTIFACTS_NAME, &socraticode, error) ||
      !read_json (root, LODE_SOCRATICODE_CONFIG_NAME, &socraticode_config, error))
    return NULL;

  if (lode != NULL)
    {
      JsonObject *object = json_node_get_object (lode);
      JsonNode *vendored = json_object_get_member (object, "includeVendored");

      if (vendored != NULL && (!JSON_NODE_HOLDS_VALUE (vendored) ||
                               json_node_get_value_type (vendored) != G_TYPE_BOOLEAN))
        {
          g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                       "%s: “includeVendored” must be true or false", LODE_PROJECT_CONFIG_NAME);
          return NULL;
        }
      config->include_vendored = vendored != NULL && json_node_get_boolean (vendored);

      if (!array_member (object, "contextArtifacts", LODE_PROJECT_CONFIG_NAME, &array, error) ||
          (array != NULL && !add_artifacts (config, array, LODE_PROJECT_CONFIG_NAME, error)) ||
          !add_linked (config, root, object, LODE_PROJECT_CONFIG_NAME, error))
        return NULL;
    }

  if (socraticode != NULL &&
      (!array_member (json_node_get_object (socraticode), "artifacts",
                      LODE_SOCRATICODE_ARTIFACTS_NAME, &array, error) ||
       (array != NULL && !add_artifacts (config, array, LODE_SOCRATICODE_ARTIFACTS_NAME, error))))
    return NULL;

  if (socraticode_config != NULL &&
      !add_linked (config, root, json_node_get_object (socraticode_config),
                   LODE_SOCRATICODE_CONFIG_NAME, error))
    return NULL;

  return g_steal_pointer (&config);
}

/**
 * lode_project_config_load_or_default:
 * @root: the project's root directory
 *
 * As lode_project_config_load(), for callers that must go on without the settings (the
 * scanner, the watcher): a broken file is logged and the defaults are used.
 *
 * Returns: (transfer full): the settings
 */
LodeProjectConfig *
lode_project_config_load_or_default (const char *root)
{
  g_autoptr(GError) error = NULL;
  LodeProjectConfig *config = lode_project_config_load (root, &error);

  if (config != NULL)
    return config;

  g_warning ("Using the default project settings: %s", error->message);
  return project_config_new ();
}
