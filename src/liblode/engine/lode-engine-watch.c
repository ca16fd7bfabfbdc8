/* lode-engine-watch.c — LodeEngine's watchers and the list of watched trees
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-engine"

#include "config.h"

#include <errno.h>
#include <string.h>
#include <glib/gstdio.h>

#include "lode-engine-private.h"

/* The watch list ----------------------------------------------------------------------- */

/* One root per line; a whole system the user confirmed watching is marked (roots are
 * absolute, so the mark cannot start one). */
#define CONFIRMED_PREFIX "confirmed:"

/* How a user confirms watching a whole system, for the message that refuses it. */
#define HOW_TO_CONFIRM "call codebase_watch with confirm: true (lode watch --yes)"

/* Writes the roots the engine watches, when it remembers them. Called with the lock held. */
void
_lode_engine_save_watch_list (LodeEngine *self)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  GHashTableIter iter;
  LodeEngineEntry *entry;

  if (self->watch_list == NULL)
    return;

  g_hash_table_iter_init (&iter, self->entries);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &entry))
    if (entry->watcher != NULL)
      g_string_append_printf (text, "%s%s\n", entry->watch_confirmed ? CONFIRMED_PREFIX : "",
                              lode_project_get_root (entry->project));

  dir = g_path_get_dirname (self->watch_list);
  if (g_mkdir_with_parents (dir, 0700) != 0 ||
      !g_file_set_contents (self->watch_list, text->str, text->len, &error))
    g_warning ("Cannot remember the watched projects in %s: %s", self->watch_list,
               error != NULL ? error->message : g_strerror (errno));
}

/* Watching ----------------------------------------------------------------------------- */

/* A watcher's batch: a job that re-reads just those paths, run by the watcher. */
static void
watcher_changed_cb (LodeWatcher     *watcher,
                    GPtrArray       *changes,
                    LodeEngineEntry *entry)
{
  LodeEngine *self = entry->engine;
  gboolean joined;
  LodeEngineJob *job;

  g_debug ("%s: %u changes", lode_watcher_get_root (watcher), changes->len);
  g_mutex_lock (&self->lock);
  job = _lode_engine_request_job (self, entry, LODE_JOB_CHANGES, changes, &joined);
  job->n_owners++;
  g_mutex_unlock (&self->lock);
}

/* The tree does not fit in the inotify budget: it is scanned every rescan-interval. */
static void
watcher_rescan_cb (LodeWatcher     *watcher,
                   LodeEngineEntry *entry)
{
  LodeEngine *self = entry->engine;
  gboolean joined;
  LodeEngineJob *job;

  g_mutex_lock (&self->lock);
  job = _lode_engine_request_job (self, entry, LODE_JOB_UPDATE, NULL, &joined);
  job->n_owners++;
  g_mutex_unlock (&self->lock);
}

static LodeWatcher *
new_watcher (LodeEngine  *self,
             const char  *root,
             GError     **error)
{
  g_autoptr(LodeWatcher) watcher = lode_watcher_new (root);
  const char *max_watches = g_getenv ("LODE_WATCH_MAX_WATCHES");

  /* The settings' watch delay (the Preferences window's), or LODE_WATCH_DEBOUNCE_MSEC. */
  lode_watcher_set_debounce_msec (watcher, self->config->watch_debounce_msec);
  if (max_watches != NULL)
    lode_watcher_set_max_watches (watcher, MIN (g_ascii_strtoull (max_watches, NULL, 10),
                                                G_MAXUINT));
  if (!lode_watcher_start (watcher, error))
    return NULL;

  return g_steal_pointer (&watcher);
}

static gboolean set_watching (LodeEngine  *self,
                              const char  *path,
                              gboolean     watch,
                              gboolean     confirmed,
                              GError     **error);

/**
 * lode_engine_set_watching:
 * @self: a #LodeEngine
 * @path: a directory
 * @watch: start (%TRUE) or stop watching
 * @confirmed: the user confirmed watching @path even if it is a whole system
 * @error: return location for a #GError
 *
 * Keeps the index of @path up to date as files change: each batch of changes the watcher
 * reports becomes a job that re-reads just those paths. Starting runs a catch-up update.
 * Watching a whole system (see lode_engine_check_index_root()) is refused unless
 * @confirmed, whether or not it is indexed: it would read everything on it, then follow
 * every change made there, again after each restart of a service that remembers it.
 * Call it on the thread that runs the engine's main context (or when no thread runs it).
 *
 * Returns: %TRUE on success
 */
gboolean
lode_engine_set_watching (LodeEngine  *self,
                          const char  *path,
                          gboolean     watch,
                          gboolean     confirmed,
                          GError     **error)
{
  gboolean ok;

  g_return_val_if_fail (LODE_IS_ENGINE (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  /* Monitors deliver their events to the engine's context: they are made on its thread. */
  if (!g_main_context_acquire (self->context))
    g_return_val_if_reached (FALSE);
  ok = set_watching (self, path, watch, confirmed, error);
  g_main_context_release (self->context);

  return ok;
}

/* lode_engine_set_watching() with the engine's context acquired. */
static gboolean
set_watching (LodeEngine  *self,
              const char  *path,
              gboolean     watch,
              gboolean     confirmed,
              GError     **error)
{
  g_autoptr(LodeWatcher) started = NULL;
  g_autoptr(LodeWatcher) stopped = NULL;
  g_autofree char *root = NULL;
  gboolean changed = FALSE;
  gboolean joined;
  LodeEngineEntry *entry;

  root = _lode_engine_canonical_dir (path, error);
  if (root == NULL)
    return FALSE;

  /* Monitors are made outside the lock: walking a large tree takes a while. */
  g_mutex_lock (&self->lock);
  entry = _lode_engine_ensure_entry (self, root);
  changed = (entry->watcher == NULL) == watch;
  g_mutex_unlock (&self->lock);
  if (!changed)
    return TRUE;

  if (watch && !lode_engine_check_index_root (root, confirmed, HOW_TO_CONFIRM, error))
    return FALSE;
  if (watch && (started = new_watcher (self, root, error)) == NULL)
    return FALSE;

  g_mutex_lock (&self->lock);
  entry = _lode_engine_ensure_entry (self, root);
  if (watch && entry->watcher == NULL)
    {
      entry->watcher = g_steal_pointer (&started);
      /* Remembered only where it matters: a whole system. */
      entry->watch_confirmed = confirmed &&
                               !lode_engine_check_index_root (root, FALSE, HOW_TO_CONFIRM,
                                                              NULL);
      g_signal_connect (entry->watcher, "changed", G_CALLBACK (watcher_changed_cb), entry);
      g_signal_connect (entry->watcher, "rescan", G_CALLBACK (watcher_rescan_cb), entry);

      /* Catch up with whatever changed before the monitors existed. */
      _lode_engine_request_job (self, entry, LODE_JOB_UPDATE, NULL, &joined)->n_owners++;
    }
  else if (!watch && entry->watcher != NULL)
    {
      g_signal_handlers_disconnect_matched (entry->watcher, G_SIGNAL_MATCH_DATA, 0, 0, NULL,
                                            NULL, entry);
      stopped = g_steal_pointer (&entry->watcher);
      _lode_engine_entry_clear_retry (entry, TRUE);
    }
  _lode_engine_save_watch_list (self);
  g_mutex_unlock (&self->lock);

  if (stopped != NULL)
    lode_watcher_stop (stopped);
  if (started != NULL)
    lode_watcher_stop (started);
  _lode_engine_emit_later (self, LODE_ENGINE_PROJECTS_CHANGED, NULL, NULL);

  return TRUE;
}

/**
 * lode_engine_set_persist_watches:
 * @self: a #LodeEngine
 * @persist: remember the watched roots in the data directory (`watched`)
 *
 * A long-lived service remembers what it watches, so that lode_engine_resume_watching()
 * watches it again after a restart. Other processes watch only while they run.
 */
void
lode_engine_set_persist_watches (LodeEngine *self,
                                 gboolean    persist)
{
  g_return_if_fail (LODE_IS_ENGINE (self));

  g_mutex_lock (&self->lock);
  g_clear_pointer (&self->watch_list, g_free);
  if (persist)
    self->watch_list = g_build_filename (self->config->data_dir, "watched", NULL);
  g_mutex_unlock (&self->lock);
}

/**
 * lode_engine_resume_watching:
 * @self: a #LodeEngine
 *
 * Watches again the roots that were watched when the engine's service last ran (see
 * lode_engine_set_persist_watches()), each with a catch-up update that finds what changed
 * meanwhile. A root that cannot be watched any more is dropped from the list, and so is a
 * whole system whose watching the user never confirmed (a list written before that was
 * asked).
 */
void
lode_engine_resume_watching (LodeEngine *self)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) roots = NULL;
  g_autofree char *list = NULL;

  g_return_if_fail (LODE_IS_ENGINE (self));

  g_mutex_lock (&self->lock);
  list = g_strdup (self->watch_list);
  g_mutex_unlock (&self->lock);
  if (list == NULL || !g_file_get_contents (list, &text, NULL, NULL))
    return;

  roots = g_strsplit (text, "\n", -1);
  for (guint i = 0; roots[i] != NULL; i++)
    {
      g_autoptr(GError) error = NULL;
      gboolean confirmed = g_str_has_prefix (roots[i], CONFIRMED_PREFIX);
      const char *root = roots[i] + (confirmed ? strlen (CONFIRMED_PREFIX) : 0);

      if (*root == '\0')
        continue;
      if (!lode_engine_set_watching (self, root, TRUE, confirmed, &error))
        g_warning ("Not watching %s again: %s", root, error->message);
      else
        g_message ("Watching %s again", root);
    }

  g_mutex_lock (&self->lock);
  _lode_engine_save_watch_list (self);
  g_mutex_unlock (&self->lock);
}

/**
 * lode_engine_stop_watching_all:
 * @self: a #LodeEngine
 *
 * Stops every watcher without forgetting what was watched, for a service that exits.
 */
void
lode_engine_stop_watching_all (LodeEngine *self)
{
  g_autoptr(GPtrArray) watchers = g_ptr_array_new_with_free_func (g_object_unref);
  GHashTableIter iter;
  LodeEngineEntry *entry;

  g_return_if_fail (LODE_IS_ENGINE (self));

  g_mutex_lock (&self->lock);
  g_hash_table_iter_init (&iter, self->entries);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &entry))
    if (entry->watcher != NULL)
      {
        g_signal_handlers_disconnect_matched (entry->watcher, G_SIGNAL_MATCH_DATA, 0, 0,
                                              NULL, NULL, entry);
        g_ptr_array_add (watchers, g_steal_pointer (&entry->watcher));
        _lode_engine_entry_clear_retry (entry, TRUE);
      }
  g_mutex_unlock (&self->lock);

  for (guint i = 0; i < watchers->len; i++)
    lode_watcher_stop (g_ptr_array_index (watchers, i));
}

