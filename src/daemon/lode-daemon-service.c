/* lode-daemon-service.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-daemon"

#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lode-daemon-service.h"
#include "lode-scanner.h"

/*
 * The io.github.lode.Lode.Daemon1 object. Everything here runs on the main thread; indexing
 * runs in LodeProject's GTask thread and searches and status reads in GTask threads, so no
 * handler blocks the loop.
 *
 * Each project has at most one indexing run (a Job) at a time: the only writer of its index.
 * Clients that ask for a run while one is going join it and get its report. A run belongs to
 * the clients waiting for it (and to the watcher, for runs it asked for); when the last
 * client waiting for it leaves the bus and nothing else wants it, it is cancelled.
 */

#define MAX_PATH_BYTES   4096
#define MAX_QUERY_BYTES  4096
#define PROGRESS_USEC    (100 * G_TIME_SPAN_MILLISECOND)

typedef struct _ProjectEntry ProjectEntry;

typedef struct
{
  GDBusMethodInvocation *invocation;
  gboolean               joined;
  gboolean               update;
} Waiter;

typedef struct
{
  LodeDaemonService *service;
  ProjectEntry      *entry;
  GCancellable      *cancellable;
  GPtrArray         *waiters;       /* Waiter */
  guint              internal;      /* runs asked for by the watcher or AddProject */
  LodeIndexProgress  progress;
  gint64             last_signal;
  guint              has_progress : 1;
} Job;

struct _ProjectEntry
{
  char                  *root;
  LodeProject           *project;
  Job                   *job;
  LodeWatcher           *watcher;
  GDBusMethodInvocation *remove_invocation;
  guint                  rerun : 1;
};

typedef struct
{
  char         *sender;
  guint         watch_id;
  GCancellable *cancellable;        /* of the client's searches and status reads */
  GHashTable   *tool_calls;         /* (owned): call_id → (owned) GCancellable */
} Client;

struct _LodeDaemonService
{
  LodeDBusDaemon1Skeleton  parent_instance;

  GApplication            *app;
  LodeEngine              *engine;
  LodeToolRegistry        *registry;
  GHashTable              *projects;   /* canonical root → ProjectEntry */
  GHashTable              *clients;    /* unique bus name → Client */
  char                    *state_file;
  guint                    held : 1;
};

static void lode_daemon_service_iface_init (LodeDBusDaemon1Iface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (LodeDaemonService, lode_daemon_service,
                               LODE_DBUS_TYPE_DAEMON1_SKELETON,
                               G_IMPLEMENT_INTERFACE (LODE_DBUS_TYPE_DAEMON1,
                                                      lode_daemon_service_iface_init))

static void start_job (LodeDaemonService     *self,
                       ProjectEntry          *entry,
                       GDBusMethodInvocation *invocation,
                       gboolean               update);

static void
waiter_free (Waiter *waiter)
{
  g_clear_object (&waiter->invocation);
  g_free (waiter);
}

static void
project_entry_free (ProjectEntry *entry)
{
  /* A run still going at exit is left to the process's end; its callback never comes. */
  if (entry->watcher != NULL)
    {
      g_signal_handlers_disconnect_matched (entry->watcher, G_SIGNAL_MATCH_DATA,
                                            0, 0, NULL, NULL, entry);
      lode_watcher_stop (entry->watcher);
      g_clear_object (&entry->watcher);
    }
  g_clear_object (&entry->project);
  g_clear_object (&entry->remove_invocation);
  g_free (entry->root);
  g_free (entry);
}

static void
client_free (Client *client)
{
  GHashTableIter iter;
  GCancellable *cancellable;

  g_hash_table_iter_init (&iter, client->tool_calls);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &cancellable))
    g_cancellable_cancel (cancellable);
  g_hash_table_unref (client->tool_calls);
  g_cancellable_cancel (client->cancellable);
  g_clear_object (&client->cancellable);
  g_clear_handle_id (&client->watch_id, g_bus_unwatch_name);
  g_free (client->sender);
  g_free (client);
}

/* The daemon stays up while it indexes or watches anything; otherwise GApplication's
 * inactivity timeout ends it. */
static void
update_hold (LodeDaemonService *self)
{
  GHashTableIter iter;
  ProjectEntry *entry;
  gboolean busy = FALSE;

  g_hash_table_iter_init (&iter, self->projects);
  while (!busy && g_hash_table_iter_next (&iter, NULL, (gpointer *) &entry))
    busy = entry->job != NULL || entry->watcher != NULL;

  if (busy && !self->held)
    g_application_hold (self->app);
  else if (!busy && self->held)
    g_application_release (self->app);
  self->held = busy;
}

/* Every call restarts the inactivity timeout. */
static void
touch (LodeDaemonService *self)
{
  g_application_hold (self->app);
  g_application_release (self->app);
}

static void
return_error (GDBusMethodInvocation *invocation,
              const GError          *error)
{
  LodeError code = LODE_ERROR_FAILED;

  if (error->domain == LODE_ERROR)
    {
      g_dbus_method_invocation_return_gerror (invocation, error);
      return;
    }

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    code = LODE_ERROR_CANCELLED;
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND) ||
           g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
    code = LODE_ERROR_NOT_FOUND;

  g_dbus_method_invocation_return_error_literal (invocation, LODE_ERROR, code, error->message);
}

/* Paths from the bus: absolute, of bounded length; the engine checks the rest. */
static gboolean
check_path (const char  *path,
            GError     **error)
{
  if (strlen (path) > MAX_PATH_BYTES)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                   "Path longer than %d bytes", MAX_PATH_BYTES);
      return FALSE;
    }

  if (!g_path_is_absolute (path))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                   "“%s” is not an absolute path", path);
      return FALSE;
    }

  return TRUE;
}

static ProjectEntry *
lookup_entry (LodeDaemonService  *self,
              const char         *path,
              GError            **error)
{
  g_autoptr(LodeProject) project = NULL;
  ProjectEntry *entry;

  if (!check_path (path, error))
    return NULL;

  project = lode_engine_open_project (self->engine, path, FALSE, error);
  if (project == NULL)
    return NULL;

  entry = g_hash_table_lookup (self->projects, lode_project_get_root (project));
  if (entry != NULL)
    return entry;

  entry = g_new0 (ProjectEntry, 1);
  entry->root = g_strdup (lode_project_get_root (project));
  entry->project = g_steal_pointer (&project);
  g_hash_table_insert (self->projects, entry->root, entry);

  return entry;
}

static void
client_vanished_cb (GDBusConnection *connection,
                    const char      *name,
                    gpointer         user_data)
{
  LodeDaemonService *self = user_data;
  GHashTableIter iter;
  ProjectEntry *entry;

  g_debug ("Client %s left the bus", name);

  g_hash_table_iter_init (&iter, self->projects);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &entry))
    {
      Job *job = entry->job;

      if (job == NULL)
        continue;

      for (guint i = job->waiters->len; i > 0; i--)
        {
          Waiter *waiter = g_ptr_array_index (job->waiters, i - 1);

          if (g_strcmp0 (g_dbus_method_invocation_get_sender (waiter->invocation), name) == 0)
            g_ptr_array_remove_index (job->waiters, i - 1);
        }

      if (job->waiters->len == 0 && job->internal == 0)
        {
          g_debug ("Cancelling the run of %s: nobody waits for it", entry->root);
          g_cancellable_cancel (job->cancellable);
        }
    }

  /* Cancels the client's searches too. */
  g_hash_table_remove (self->clients, name);
}

static Client *
ensure_client (LodeDaemonService     *self,
               GDBusMethodInvocation *invocation)
{
  const char *sender = g_dbus_method_invocation_get_sender (invocation);
  Client *client;

  /* Peer-to-peer connections have no sender and nothing to watch. */
  if (sender == NULL)
    return NULL;

  client = g_hash_table_lookup (self->clients, sender);
  if (client != NULL)
    return client;

  client = g_new0 (Client, 1);
  client->sender = g_strdup (sender);
  client->cancellable = g_cancellable_new ();
  client->tool_calls = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  g_hash_table_insert (self->clients, client->sender, client);
  client->watch_id =
    g_bus_watch_name_on_connection (g_dbus_method_invocation_get_connection (invocation),
                                    sender, G_BUS_NAME_WATCHER_FLAGS_NONE, NULL,
                                    client_vanished_cb, self, NULL);

  return client;
}

static GCancellable *
client_cancellable (LodeDaemonService     *self,
                    GDBusMethodInvocation *invocation)
{
  Client *client = ensure_client (self, invocation);

  return client != NULL ? g_object_ref (client->cancellable) : g_cancellable_new ();
}

/* Watched projects ---------------------------------------------------------------------- */

static void
save_state (LodeDaemonService *self)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_path_get_dirname (self->state_file);
  GHashTableIter iter;
  ProjectEntry *entry;

  g_hash_table_iter_init (&iter, self->projects);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &entry))
    if (entry->watcher != NULL)
      g_string_append_printf (text, "%s\n", entry->root);

  if (g_mkdir_with_parents (dir, 0700) != 0 ||
      !g_file_set_contents (self->state_file, text->str, text->len, &error))
    g_warning ("Cannot remember the watched projects in %s: %s", self->state_file,
               error != NULL ? error->message : g_strerror (errno));
}

static void
request_update (ProjectEntry *entry,
                LodeDaemonService *self)
{
  if (entry->job != NULL)
    {
      /* Changes that arrive during a run may have been missed by it. */
      entry->rerun = TRUE;
      return;
    }

  start_job (self, entry, NULL, FALSE);
}

static void
watcher_changed_cb (LodeWatcher *watcher,
                    GPtrArray   *changes,
                    gpointer     user_data)
{
  ProjectEntry *entry = user_data;
  LodeDaemonService *self = g_object_get_data (G_OBJECT (watcher), "lode-service");

  g_debug ("%s: %u changes", entry->root, changes->len);
  request_update (entry, self);
}

static void
watcher_rescan_cb (LodeWatcher *watcher,
                   gpointer     user_data)
{
  ProjectEntry *entry = user_data;
  LodeDaemonService *self = g_object_get_data (G_OBJECT (watcher), "lode-service");

  request_update (entry, self);
}

static gboolean
start_watching (LodeDaemonService  *self,
                ProjectEntry       *entry,
                GError            **error)
{
  g_autoptr(LodeWatcher) watcher = NULL;
  const char *debounce = g_getenv ("LODE_WATCH_DEBOUNCE_MSEC");
  const char *max_watches = g_getenv ("LODE_WATCH_MAX_WATCHES");

  if (entry->watcher != NULL)
    return TRUE;

  watcher = lode_watcher_new (entry->root);
  if (debounce != NULL)
    lode_watcher_set_debounce_msec (watcher, MIN (g_ascii_strtoull (debounce, NULL, 10),
                                                  10000));
  if (max_watches != NULL)
    lode_watcher_set_max_watches (watcher, MIN (g_ascii_strtoull (max_watches, NULL, 10),
                                                G_MAXUINT));
  if (!lode_watcher_start (watcher, error))
    return FALSE;

  g_object_set_data (G_OBJECT (watcher), "lode-service", self);
  g_signal_connect (watcher, "changed", G_CALLBACK (watcher_changed_cb), entry);
  g_signal_connect (watcher, "rescan", G_CALLBACK (watcher_rescan_cb), entry);
  entry->watcher = g_steal_pointer (&watcher);

  /* Catch up with whatever changed before the monitors existed. */
  request_update (entry, self);
  update_hold (self);

  return TRUE;
}

static void
stop_watching (LodeDaemonService *self,
               ProjectEntry      *entry)
{
  if (entry->watcher == NULL)
    return;

  g_signal_handlers_disconnect_matched (entry->watcher, G_SIGNAL_MATCH_DATA,
                                        0, 0, NULL, NULL, entry);
  lode_watcher_stop (entry->watcher);
  g_clear_object (&entry->watcher);
  update_hold (self);
}

/**
 * lode_daemon_service_resume:
 * @self: a #LodeDaemonService
 *
 * Watches again the projects that were watched when the daemon last ran, each with a
 * catch-up update that finds what changed while the daemon was down.
 */
void
lode_daemon_service_resume (LodeDaemonService *self)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) roots = NULL;

  g_return_if_fail (LODE_IS_DAEMON_SERVICE (self));

  if (!g_file_get_contents (self->state_file, &text, NULL, NULL))
    return;

  roots = g_strsplit (text, "\n", -1);
  for (guint i = 0; roots[i] != NULL; i++)
    {
      g_autoptr(GError) error = NULL;
      ProjectEntry *entry;

      if (*roots[i] == '\0')
        continue;

      entry = lookup_entry (self, roots[i], &error);
      if (entry == NULL || !start_watching (self, entry, &error))
        g_warning ("Not watching %s again: %s", roots[i], error->message);
      else
        g_message ("Watching %s again", entry->root);
    }

  lode_dbus_daemon1_emit_projects_changed (LODE_DBUS_DAEMON1 (self));
}

/* Indexing runs ------------------------------------------------------------------------- */

static GVariant *
report_to_variant (ProjectEntry          *entry,
                   const LodeIndexReport *report,
                   gboolean               joined)
{
  g_auto(GVariantDict) dict = G_VARIANT_DICT_INIT (NULL);
  g_auto(GVariantBuilder) skipped = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE ("a(sss)"));

  for (guint i = 0; i < report->skipped->len; i++)
    {
      const LodeSkippedFile *file = g_ptr_array_index (report->skipped, i);

      g_variant_builder_add (&skipped, "(sss)", file->path,
                             lode_skip_reason_to_string (file->reason),
                             file->detail != NULL ? file->detail : "");
    }

  g_variant_dict_insert (&dict, "root", "s", entry->root);
  g_variant_dict_insert (&dict, "id", "s", lode_project_get_id (entry->project));
  g_variant_dict_insert_value (&dict, "skipped_files", g_variant_builder_end (&skipped));
  g_variant_dict_insert (&dict, "files", "u", report->n_files);
  g_variant_dict_insert (&dict, "added", "u", report->n_added);
  g_variant_dict_insert (&dict, "updated", "u", report->n_updated);
  g_variant_dict_insert (&dict, "removed", "u", report->n_removed);
  g_variant_dict_insert (&dict, "unchanged", "u", report->n_unchanged);
  g_variant_dict_insert (&dict, "chunks", "u", report->n_chunks);
  g_variant_dict_insert (&dict, "skipped", "u", report->skipped->len);
  g_variant_dict_insert (&dict, "lines", "t", report->n_lines);
  g_variant_dict_insert (&dict, "bytes", "t", report->n_bytes);
  g_variant_dict_insert (&dict, "seconds", "d", report->elapsed);
  g_variant_dict_insert (&dict, "resumed", "b", report->resumed);
  g_variant_dict_insert (&dict, "joined", "b", joined);
  g_variant_dict_insert (&dict, "embedded", "u", report->n_embedded);
  if (report->embedding_model != NULL)
    g_variant_dict_insert (&dict, "embedding_model", "s", report->embedding_model);
  if (report->embedding_notice != NULL)
    g_variant_dict_insert (&dict, "embedding_notice", "s", report->embedding_notice);

  return g_variant_dict_end (&dict);
}

static void
emit_progress (Job *job)
{
  lode_dbus_daemon1_emit_progress (LODE_DBUS_DAEMON1 (job->service), job->entry->root,
                                   lode_index_phase_to_string (job->progress.phase),
                                   job->progress.done, job->progress.total);
  job->last_signal = g_get_monotonic_time ();
}

static void
job_progress_cb (const LodeIndexProgress *progress,
                 gpointer                 user_data)
{
  Job *job = user_data;
  gboolean new_phase = !job->has_progress || progress->phase != job->progress.phase;

  job->progress = *progress;
  job->has_progress = TRUE;

  /* At most ten signals a second, but every phase change and the end of a phase. */
  if (new_phase || progress->done == progress->total ||
      g_get_monotonic_time () - job->last_signal >= PROGRESS_USEC)
    emit_progress (job);
}

static void
job_free (Job *job)
{
  g_clear_object (&job->cancellable);
  g_clear_pointer (&job->waiters, g_ptr_array_unref);
  g_free (job);
}

static void
finish_removal (LodeDaemonService *self,
                ProjectEntry      *entry)
{
  g_autoptr(GDBusMethodInvocation) invocation = g_steal_pointer (&entry->remove_invocation);
  g_autoptr(GError) error = NULL;
  g_autofree char *root = g_strdup (entry->root);

  stop_watching (self, entry);
  g_hash_table_remove (self->projects, root);
  save_state (self);

  if (!lode_engine_remove_project (self->engine, root, &error))
    return_error (g_steal_pointer (&invocation), error);
  else
    {
      lode_dbus_daemon1_complete_remove_project (LODE_DBUS_DAEMON1 (self),
                                                 g_steal_pointer (&invocation));
      lode_dbus_daemon1_emit_projects_changed (LODE_DBUS_DAEMON1 (self));
    }
  update_hold (self);
}

static void
job_done_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  Job *job = user_data;
  LodeDaemonService *self = job->service;
  ProjectEntry *entry = job->entry;
  g_autoptr(LodeIndexReport) report = NULL;
  g_autoptr(GError) error = NULL;

  report = lode_project_index_finish (LODE_PROJECT (object), result, &error);
  entry->job = NULL;

  if (job->has_progress)
    emit_progress (job);

  for (guint i = 0; i < job->waiters->len; i++)
    {
      Waiter *waiter = g_ptr_array_index (job->waiters, i);
      GDBusMethodInvocation *invocation = g_steal_pointer (&waiter->invocation);

      if (report == NULL)
        return_error (invocation, error);
      else if (waiter->update)
        lode_dbus_daemon1_complete_update (LODE_DBUS_DAEMON1 (self), invocation,
                                           report_to_variant (entry, report, waiter->joined));
      else
        lode_dbus_daemon1_complete_index (LODE_DBUS_DAEMON1 (self), invocation,
                                          report_to_variant (entry, report, waiter->joined));
    }

  if (report != NULL)
    lode_dbus_daemon1_emit_index_changed (LODE_DBUS_DAEMON1 (self), entry->root);
  else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_warning ("Indexing %s failed: %s", entry->root, error->message);

  job_free (job);

  if (entry->remove_invocation != NULL)
    {
      finish_removal (self, entry);
      return;
    }

  if (entry->rerun && entry->watcher != NULL)
    {
      entry->rerun = FALSE;
      start_job (self, entry, NULL, FALSE);
    }

  update_hold (self);
}

/* Starts a run of @entry or joins the one going. Without @invocation the run is the daemon's
 * own (watcher, AddProject) and no client leaving cancels it. */
static void
start_job (LodeDaemonService     *self,
           ProjectEntry          *entry,
           GDBusMethodInvocation *invocation,
           gboolean               update)
{
  Job *job = entry->job;
  gboolean joined = job != NULL;

  if (job == NULL)
    {
      job = g_new0 (Job, 1);
      job->service = self;
      job->entry = entry;
      job->cancellable = g_cancellable_new ();
      job->waiters = g_ptr_array_new_with_free_func ((GDestroyNotify) waiter_free);
      entry->job = job;
      entry->rerun = FALSE;

      lode_project_index_async (entry->project, job->cancellable, job_progress_cb, job, NULL,
                                job_done_cb, job);
      update_hold (self);
    }
  else if (job->has_progress)
    /* Whoever joins learns at once where the run is. */
    emit_progress (job);

  if (invocation != NULL)
    {
      Waiter *waiter = g_new0 (Waiter, 1);

      ensure_client (self, invocation);
      waiter->invocation = invocation;
      waiter->joined = joined;
      waiter->update = update;
      g_ptr_array_add (job->waiters, waiter);
    }
  else
    job->internal++;
}

/* Method handlers ----------------------------------------------------------------------- */

static gboolean
handle_add_project (LodeDBusDaemon1       *iface,
                    GDBusMethodInvocation *invocation,
                    const char            *path)
{
  LodeDaemonService *self = LODE_DAEMON_SERVICE (iface);
  g_autoptr(GError) error = NULL;
  ProjectEntry *entry;

  touch (self);
  entry = lookup_entry (self, path, &error);
  if (entry == NULL)
    {
      return_error (g_steal_pointer (&invocation), error);
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }

  request_update (entry, self);
  lode_dbus_daemon1_complete_add_project (iface, g_steal_pointer (&invocation), entry->root,
                                          lode_project_get_id (entry->project));
  lode_dbus_daemon1_emit_projects_changed (iface);

  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

static gboolean
handle_remove_project (LodeDBusDaemon1       *iface,
                       GDBusMethodInvocation *invocation,
                       const char            *path)
{
  LodeDaemonService *self = LODE_DAEMON_SERVICE (iface);
  g_autoptr(GError) error = NULL;
  g_autofree char *resolved = NULL;
  ProjectEntry *entry;

  touch (self);
  if (!check_path (path, &error))
    {
      return_error (g_steal_pointer (&invocation), error);
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }

  /* The tree may be gone: its index can still be removed. */
  resolved = realpath (path, NULL);
  entry = g_hash_table_lookup (self->projects, resolved != NULL ? resolved : path);
  if (entry == NULL)
    {
      if (!lode_engine_remove_project (self->engine, path, &error))
        return_error (g_steal_pointer (&invocation), error);
      else
        {
          lode_dbus_daemon1_complete_remove_project (iface, g_steal_pointer (&invocation));
          lode_dbus_daemon1_emit_projects_changed (iface);
        }
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }

  if (entry->remove_invocation != NULL)
    {
      g_dbus_method_invocation_return_error (g_steal_pointer (&invocation), LODE_ERROR,
                                             LODE_ERROR_FAILED, "%s is being removed already",
                                             entry->root);
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }

  entry->remove_invocation = g_steal_pointer (&invocation);
  if (entry->job != NULL)
    /* The run's writer must be done before its database goes; job_done_cb finishes. */
    g_cancellable_cancel (entry->job->cancellable);
  else
    finish_removal (self, entry);

  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

static gboolean
handle_list_projects (LodeDBusDaemon1       *iface,
                      GDBusMethodInvocation *invocation)
{
  LodeDaemonService *self = LODE_DAEMON_SERVICE (iface);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) infos = NULL;
  g_auto(GVariantBuilder) builder = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE ("aa{sv}"));

  touch (self);
  infos = lode_engine_list_projects (self->engine, &error);
  if (infos == NULL)
    {
      return_error (g_steal_pointer (&invocation), error);
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }

  for (guint i = 0; i < infos->len; i++)
    {
      const LodeProjectInfo *info = g_ptr_array_index (infos, i);
      ProjectEntry *entry = g_hash_table_lookup (self->projects, info->root);
      g_auto(GVariantDict) dict = G_VARIANT_DICT_INIT (NULL);

      g_variant_dict_insert (&dict, "root", "s", info->root);
      g_variant_dict_insert (&dict, "id", "s", info->id);
      g_variant_dict_insert (&dict, "exists", "b", g_file_test (info->root,
                                                                G_FILE_TEST_IS_DIR));
      g_variant_dict_insert (&dict, "watched", "b", entry != NULL && entry->watcher != NULL);
      g_variant_dict_insert (&dict, "indexing", "b", entry != NULL && entry->job != NULL);
      g_variant_builder_add_value (&builder, g_variant_dict_end (&dict));
    }

  lode_dbus_daemon1_complete_list_projects (iface, g_steal_pointer (&invocation),
                                            g_variant_builder_end (&builder));
  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

static gboolean
handle_index (LodeDBusDaemon1       *iface,
              GDBusMethodInvocation *invocation,
              const char            *path,
              gboolean               force)
{
  LodeDaemonService *self = LODE_DAEMON_SERVICE (iface);
  g_autoptr(GError) error = NULL;
  ProjectEntry *entry;

  touch (self);
  entry = lookup_entry (self, path, &error);
  if (entry == NULL)
    {
      return_error (g_steal_pointer (&invocation), error);
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }

  if (force && entry->job == NULL && lode_project_is_indexed (entry->project))
    {
      g_autoptr(LodeProject) fresh = NULL;

      if (!lode_engine_remove_project (self->engine, entry->root, &error))
        {
          return_error (g_steal_pointer (&invocation), error);
          return G_DBUS_METHOD_INVOCATION_HANDLED;
        }
      /* Searches still running keep the old project and its reader. */
      fresh = lode_project_new (entry->root, lode_engine_get_config (self->engine));
      g_set_object (&entry->project, fresh);
    }

  start_job (self, entry, g_steal_pointer (&invocation), FALSE);
  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

static gboolean
handle_update (LodeDBusDaemon1       *iface,
               GDBusMethodInvocation *invocation,
               const char            *path)
{
  LodeDaemonService *self = LODE_DAEMON_SERVICE (iface);
  g_autoptr(GError) error = NULL;
  ProjectEntry *entry;

  touch (self);
  entry = lookup_entry (self, path, &error);
  if (entry == NULL)
    {
      return_error (g_steal_pointer (&invocation), error);
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }

  if (entry->job == NULL && !lode_project_is_indexed (entry->project))
    {
      g_dbus_method_invocation_return_error (g_steal_pointer (&invocation), LODE_ERROR,
                                             LODE_ERROR_NOT_INDEXED,
                                             "%s is not indexed yet; index it first",
                                             entry->root);
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }

  start_job (self, entry, g_steal_pointer (&invocation), TRUE);
  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

static gboolean
handle_stop (LodeDBusDaemon1       *iface,
             GDBusMethodInvocation *invocation,
             const char            *path)
{
  LodeDaemonService *self = LODE_DAEMON_SERVICE (iface);
  g_autoptr(GError) error = NULL;
  ProjectEntry *entry;
  gboolean stopped = FALSE;

  touch (self);
  entry = lookup_entry (self, path, &error);
  if (entry == NULL)
    {
      return_error (g_steal_pointer (&invocation), error);
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }

  if (entry->job != NULL && !g_cancellable_is_cancelled (entry->job->cancellable))
    {
      g_cancellable_cancel (entry->job->cancellable);
      entry->rerun = FALSE;
      stopped = TRUE;
    }

  lode_dbus_daemon1_complete_stop (iface, g_steal_pointer (&invocation), stopped);
  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

/* Status: the database is read on a worker thread. */

static void
status_worker (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  LodeProject *project = task_data;
  GError *error = NULL;
  LodeProjectStatus *status = lode_project_dup_status (project, &error);

  if (status == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, status, (GDestroyNotify) lode_project_status_free);
}

static void
status_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  LodeDaemonService *self = LODE_DAEMON_SERVICE (object);
  g_autoptr(GDBusMethodInvocation) invocation = user_data;
  g_autoptr(LodeProjectStatus) status = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GVariantDict) dict = G_VARIANT_DICT_INIT (NULL);
  g_auto(GVariantBuilder) languages = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE ("a{su}"));
  LodeProject *project = g_task_get_task_data (G_TASK (result));
  ProjectEntry *entry;
  GHashTableIter iter;
  gpointer key, value;

  status = g_task_propagate_pointer (G_TASK (result), &error);
  if (status == NULL)
    {
      return_error (g_steal_pointer (&invocation), error);
      return;
    }

  entry = g_hash_table_lookup (self->projects, lode_project_get_root (project));
  g_variant_dict_insert (&dict, "root", "s", lode_project_get_root (project));
  g_variant_dict_insert (&dict, "id", "s", lode_project_get_id (project));
  g_variant_dict_insert (&dict, "state", "s", lode_index_state_to_string (status->state));
  if (status->indexed_at != NULL)
    g_variant_dict_insert (&dict, "indexed_at", "s", status->indexed_at);
  g_variant_dict_insert (&dict, "files", "u", status->stats.n_files);
  g_variant_dict_insert (&dict, "chunks", "u", status->stats.n_chunks);
  g_variant_dict_insert (&dict, "symbols", "u", status->stats.n_symbols);
  g_variant_dict_insert (&dict, "lines", "t", status->stats.n_lines);
  g_variant_dict_insert (&dict, "bytes", "t", status->stats.n_bytes);
  g_variant_dict_insert (&dict, "index_bytes", "t", status->db_size);
  if (status->embedding_model != NULL)
    g_variant_dict_insert (&dict, "embedding_model", "s", status->embedding_model);
  g_variant_dict_insert (&dict, "embedded_chunks", "u", status->n_embedded);
  g_variant_dict_insert (&dict, "embeddable_chunks", "u", status->n_embeddable);
  if (status->semantic_notice != NULL)
    g_variant_dict_insert (&dict, "semantic_notice", "s", status->semantic_notice);
  g_hash_table_iter_init (&iter, status->languages);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_variant_builder_add (&languages, "{su}", (const char *) key, GPOINTER_TO_UINT (value));
  g_variant_dict_insert_value (&dict, "languages", g_variant_builder_end (&languages));
  g_variant_dict_insert (&dict, "indexing", "b", entry != NULL && entry->job != NULL);
  if (entry != NULL && entry->job != NULL && entry->job->has_progress)
    {
      g_variant_dict_insert (&dict, "phase", "s",
                             lode_index_phase_to_string (entry->job->progress.phase));
      g_variant_dict_insert (&dict, "done", "u", entry->job->progress.done);
      g_variant_dict_insert (&dict, "total", "u", entry->job->progress.total);
    }
  g_variant_dict_insert (&dict, "watched", "b", entry != NULL && entry->watcher != NULL);
  if (entry != NULL && entry->watcher != NULL &&
      lode_watcher_get_status (entry->watcher) != NULL)
    g_variant_dict_insert (&dict, "watch_status", "s", lode_watcher_get_status (entry->watcher));

  lode_dbus_daemon1_complete_status (LODE_DBUS_DAEMON1 (self), g_steal_pointer (&invocation),
                                     g_variant_dict_end (&dict));
}

static gboolean
handle_status (LodeDBusDaemon1       *iface,
               GDBusMethodInvocation *invocation,
               const char            *path)
{
  LodeDaemonService *self = LODE_DAEMON_SERVICE (iface);
  g_autoptr(GError) error = NULL;
  g_autoptr(GCancellable) cancellable = NULL;
  g_autoptr(GTask) task = NULL;
  ProjectEntry *entry;

  touch (self);
  entry = lookup_entry (self, path, &error);
  if (entry == NULL)
    {
      return_error (g_steal_pointer (&invocation), error);
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }

  cancellable = client_cancellable (self, invocation);
  task = g_task_new (self, cancellable, status_done_cb, g_steal_pointer (&invocation));
  g_task_set_source_tag (task, handle_status);
  g_task_set_task_data (task, g_object_ref (entry->project), g_object_unref);
  g_task_run_in_thread (task, status_worker);

  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

/* Search: on a worker thread, with every limit from the bus clamped. */

typedef struct
{
  LodeProject    *project;
  char           *query;
  char           *language;
  char           *path_glob;
  guint           limit;
  double          min_score;
  gboolean        per_file;
  LodeSearchMode  mode;
} SearchData;

static void
search_data_free (SearchData *data)
{
  g_clear_object (&data->project);
  g_free (data->query);
  g_free (data->language);
  g_free (data->path_glob);
  g_free (data);
}

static gboolean
parse_search_options (GVariant    *options,
                      SearchData  *data,
                      GError     **error)
{
  GVariantIter iter;
  const char *key;
  GVariant *value;

  data->limit = LODE_SEARCH_DEFAULT_LIMIT;
  data->mode = LODE_SEARCH_MODE_HYBRID;
  g_variant_iter_init (&iter, options);
  while (g_variant_iter_loop (&iter, "{&sv}", &key, &value))
    {
      if (strcmp (key, "limit") == 0 && g_variant_is_of_type (value, G_VARIANT_TYPE_UINT32))
        data->limit = CLAMP (g_variant_get_uint32 (value), 1, LODE_SEARCH_MAX_LIMIT);
      else if (strcmp (key, "limit") == 0 && g_variant_is_of_type (value, G_VARIANT_TYPE_INT32))
        data->limit = CLAMP (g_variant_get_int32 (value), 1, LODE_SEARCH_MAX_LIMIT);
      else if (strcmp (key, "language") == 0 &&
               g_variant_is_of_type (value, G_VARIANT_TYPE_STRING))
        {
          g_free (data->language);
          data->language = g_variant_dup_string (value, NULL);
        }
      else if (strcmp (key, "path") == 0 && g_variant_is_of_type (value, G_VARIANT_TYPE_STRING))
        {
          g_free (data->path_glob);
          data->path_glob = g_variant_dup_string (value, NULL);
        }
      else if (strcmp (key, "min_score") == 0 &&
               g_variant_is_of_type (value, G_VARIANT_TYPE_DOUBLE))
        data->min_score = g_variant_get_double (value);
      else if (strcmp (key, "per_file") == 0 &&
               g_variant_is_of_type (value, G_VARIANT_TYPE_BOOLEAN))
        data->per_file = g_variant_get_boolean (value);
      else if (strcmp (key, "mode") == 0 &&
               g_variant_is_of_type (value, G_VARIANT_TYPE_STRING))
        {
          if (!lode_search_mode_from_string (g_variant_get_string (value, NULL), &data->mode))
            {
              g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                           "Unknown search mode “%s”: use hybrid, lexical or semantic",
                           g_variant_get_string (value, NULL));
              g_variant_unref (value);
              return FALSE;
            }
        }
      else
        {
          g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                       "Unknown search option “%s” of type %s", key,
                       g_variant_get_type_string (value));
          g_variant_unref (value);
          return FALSE;
        }
    }

  if ((data->language != NULL && strlen (data->language) > MAX_PATH_BYTES) ||
      (data->path_glob != NULL && strlen (data->path_glob) > MAX_PATH_BYTES))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                   "Search filters are limited to %d bytes", MAX_PATH_BYTES);
      return FALSE;
    }

  return TRUE;
}

static void
add_optional_string (GVariantDict *dict,
                     const char   *key,
                     const char   *value)
{
  if (value != NULL)
    g_variant_dict_insert (dict, key, "s", value);
}

static void
search_worker (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  SearchData *data = task_data;
  LodeSearchOptions options = LODE_SEARCH_OPTIONS_INIT;
  g_autoptr(LodeSearchResponse) response = NULL;
  g_auto(GVariantBuilder) builder = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE ("aa{sv}"));
  g_auto(GVariantDict) info = G_VARIANT_DICT_INIT (NULL);
  GPtrArray *results;
  GError *error = NULL;

  options.query = data->query;
  options.limit = data->limit;
  options.language = data->language;
  options.path_glob = data->path_glob;
  options.min_score = data->min_score;
  options.one_per_file = data->per_file;
  options.mode = data->mode;

  response = lode_project_search_full (data->project, &options, cancellable, &error);
  if (response == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  results = response->results;

  for (guint i = 0; i < results->len; i++)
    {
      const LodeSearchResult *r = g_ptr_array_index (results, i);
      g_auto(GVariantDict) dict = G_VARIANT_DICT_INIT (NULL);

      g_variant_dict_insert (&dict, "path", "s", r->path);
      g_variant_dict_insert (&dict, "start_line", "u", r->start_line);
      g_variant_dict_insert (&dict, "end_line", "u", r->end_line);
      add_optional_string (&dict, "language", r->language);
      add_optional_string (&dict, "kind", r->kind);
      add_optional_string (&dict, "symbol", r->symbol);
      add_optional_string (&dict, "container", r->container);
      g_variant_dict_insert (&dict, "score", "d", r->score);
      add_optional_string (&dict, "snippet", r->snippet);
      g_variant_builder_add_value (&builder, g_variant_dict_end (&dict));
    }

  g_variant_dict_insert (&info, "requested_mode", "s",
                         lode_search_mode_to_string (response->requested_mode));
  g_variant_dict_insert (&info, "mode", "s", lode_search_mode_to_string (response->mode));
  add_optional_string (&info, "notice", response->notice);
  add_optional_string (&info, "model", response->model);
  if (response->model != NULL)
    {
      g_variant_dict_insert (&info, "embedded_chunks", "u", response->n_embedded);
      g_variant_dict_insert (&info, "chunks", "u", response->n_chunks);
    }

  g_task_return_pointer (task,
                         g_variant_ref_sink (g_variant_new ("(@aa{sv}@a{sv})",
                                                            g_variant_builder_end (&builder),
                                                            g_variant_dict_end (&info))),
                         (GDestroyNotify) g_variant_unref);
}

static void
search_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GDBusMethodInvocation) invocation = user_data;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;

  reply = g_task_propagate_pointer (G_TASK (result), &error);
  if (reply == NULL)
    return_error (g_steal_pointer (&invocation), error);
  else
    g_dbus_method_invocation_return_value (g_steal_pointer (&invocation), reply);
}

static gboolean
handle_search (LodeDBusDaemon1       *iface,
               GDBusMethodInvocation *invocation,
               const char            *path,
               const char            *query,
               GVariant              *options)
{
  LodeDaemonService *self = LODE_DAEMON_SERVICE (iface);
  g_autoptr(GError) error = NULL;
  g_autoptr(GCancellable) cancellable = NULL;
  g_autoptr(GTask) task = NULL;
  g_autoptr(LodeProject) project = NULL;
  SearchData *data;

  touch (self);
  if (strlen (query) > MAX_QUERY_BYTES)
    {
      g_dbus_method_invocation_return_error (g_steal_pointer (&invocation), LODE_ERROR,
                                             LODE_ERROR_INVALID_QUERY,
                                             "The query is longer than %d bytes",
                                             MAX_QUERY_BYTES);
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }

  if (!check_path (path, &error) ||
      (project = lode_engine_open_project (self->engine, path, TRUE, &error)) == NULL)
    {
      return_error (g_steal_pointer (&invocation), error);
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }

  data = g_new0 (SearchData, 1);
  if (!parse_search_options (options, data, &error))
    {
      search_data_free (data);
      return_error (g_steal_pointer (&invocation), error);
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }
  data->query = g_strdup (query);

  /* The daemon's own project object, so that searches share its reader connection. */
  {
    ProjectEntry *entry = lookup_entry (self, path, NULL);

    data->project = entry != NULL ? g_object_ref (entry->project) : g_steal_pointer (&project);
  }

  cancellable = client_cancellable (self, invocation);
  task = g_task_new (self, cancellable, search_done_cb, g_steal_pointer (&invocation));
  g_task_set_source_tag (task, handle_search);
  g_task_set_task_data (task, data, (GDestroyNotify) search_data_free);
  g_task_run_in_thread (task, search_worker);

  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

static GVariant *
watch_status (ProjectEntry *entry)
{
  g_auto(GVariantDict) dict = G_VARIANT_DICT_INIT (NULL);

  g_variant_dict_insert (&dict, "root", "s", entry->root);
  g_variant_dict_insert (&dict, "watched", "b", entry->watcher != NULL);
  g_variant_dict_insert (&dict, "polling", "b",
                         entry->watcher != NULL && lode_watcher_get_polling (entry->watcher));
  g_variant_dict_insert (&dict, "directories", "u",
                         entry->watcher != NULL ? lode_watcher_get_n_watches (entry->watcher)
                                                : 0);
  if (entry->watcher != NULL && lode_watcher_get_status (entry->watcher) != NULL)
    g_variant_dict_insert (&dict, "watch_status", "s", lode_watcher_get_status (entry->watcher));

  return g_variant_dict_end (&dict);
}

/* Watch and the codebase_watch tool: starts or stops, remembers, tells every client. */
static gboolean
set_watching (LodeDaemonService  *self,
              ProjectEntry       *entry,
              gboolean            enable,
              GError            **error)
{
  gboolean was_watched = entry->watcher != NULL;

  if (enable && !start_watching (self, entry, error))
    return FALSE;
  if (!enable)
    stop_watching (self, entry);

  if (was_watched != (entry->watcher != NULL))
    {
      save_state (self);
      lode_dbus_daemon1_emit_projects_changed (LODE_DBUS_DAEMON1 (self));
    }

  return TRUE;
}

/* codebase_watch in the daemon: the tool runs on a worker thread, watching on the main
 * context, so the handler hands the work over and waits for it. */
typedef struct
{
  LodeDaemonService *self;
  char              *root;
  const char        *action;
  gboolean           watching;
  GError            *error;
  gboolean           done;
  GMutex             lock;
  GCond              cond;
} WatchCall;

static gboolean
watch_call_in_main (gpointer user_data)
{
  WatchCall *call = user_data;
  ProjectEntry *entry;

  touch (call->self);
  entry = lookup_entry (call->self, call->root, &call->error);
  if (entry != NULL && !g_str_equal (call->action, "status"))
    set_watching (call->self, entry, g_str_equal (call->action, "start"), &call->error);
  call->watching = entry != NULL && entry->watcher != NULL;

  g_mutex_lock (&call->lock);
  call->done = TRUE;
  g_cond_signal (&call->cond);
  g_mutex_unlock (&call->lock);

  return G_SOURCE_REMOVE;
}

static JsonObject *
daemon_codebase_watch (LodeToolCall  *tool_call,
                       GError       **error)
{
  LodeToolRegistry *registry = lode_tool_call_get_registry (tool_call);
  WatchCall call = { 0, };
  JsonObject *result;

  call.self = g_object_get_data (G_OBJECT (registry), "lode-service");
  call.action = json_object_get_string_member (lode_tool_call_get_arguments (tool_call),
                                               "action");
  call.root = lode_tool_call_dup_project_path (tool_call, error);
  if (call.root == NULL)
    return NULL;

  g_mutex_init (&call.lock);
  g_cond_init (&call.cond);
  g_main_context_invoke (NULL, watch_call_in_main, &call);
  g_mutex_lock (&call.lock);
  while (!call.done)
    g_cond_wait (&call.cond, &call.lock);
  g_mutex_unlock (&call.lock);
  g_mutex_clear (&call.lock);
  g_cond_clear (&call.cond);

  if (call.error != NULL)
    {
      g_propagate_error (error, call.error);
      g_free (call.root);
      return NULL;
    }

  result = json_object_new ();
  json_object_set_string_member (result, "projectPath", call.root);
  json_object_set_boolean_member (result, "watching", call.watching);
  g_free (call.root);

  return result;
}

static gboolean
handle_watch (LodeDBusDaemon1       *iface,
              GDBusMethodInvocation *invocation,
              const char            *path,
              gboolean               enable)
{
  LodeDaemonService *self = LODE_DAEMON_SERVICE (iface);
  g_autoptr(GError) error = NULL;
  ProjectEntry *entry;

  touch (self);
  entry = lookup_entry (self, path, &error);
  if (entry == NULL)
    {
      return_error (g_steal_pointer (&invocation), error);
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }

  if (!set_watching (self, entry, enable, &error))
    {
      return_error (g_steal_pointer (&invocation), error);
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }

  lode_dbus_daemon1_complete_watch (iface, g_steal_pointer (&invocation), watch_status (entry));
  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

/* CallTool: the tool registry, on its worker threads. A call with a call_id has its own
 * cancellable (CancelTool) and sends its progress to its caller. */

#define MAX_TOOL_ARGUMENTS_BYTES (1024 * 1024)
#define MAX_CALL_ID_BYTES        256

/* One CallTool call, shared by its progress reports (which go to the caller alone, the only
 * client that knows the call's id) and its completion. */
typedef struct
{
  LodeDaemonService     *service;
  GDBusMethodInvocation *invocation;
  char                  *call_id;      /* (nullable) */
} ToolCall;

static void
tool_call_clear (ToolCall *call)
{
  g_clear_object (&call->service);
  g_clear_object (&call->invocation);
  g_free (call->call_id);
}

static void
tool_call_unref (ToolCall *call)
{
  g_rc_box_release_full (call, (GDestroyNotify) tool_call_clear);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ToolCall, tool_call_unref)

static void
tool_progress_cb (double      done,
                  double      total,
                  const char *message,
                  gpointer    user_data)
{
  ToolCall *call = user_data;
  const char *sender = g_dbus_method_invocation_get_sender (call->invocation);
  g_autoptr(GError) error = NULL;

  if (!g_dbus_connection_emit_signal (g_dbus_method_invocation_get_connection (call->invocation),
                                      sender,
                                      g_dbus_method_invocation_get_object_path (call->invocation),
                                      LODE_DBUS_NAME ".Daemon1", "ToolProgress",
                                      g_variant_new ("(sdds)", call->call_id, done, total,
                                                     message != NULL ? message : ""),
                                      &error))
    g_debug ("Cannot send progress to %s: %s", sender, error->message);
}

static void
call_tool_done_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(ToolCall) call = user_data;
  g_autoptr(LodeToolResult) tool_result = NULL;
  g_autoptr(JsonObject) object_result = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;

  if (call->call_id != NULL)
    {
      Client *client = g_hash_table_lookup (call->service->clients,
                                            g_dbus_method_invocation_get_sender (call->invocation));

      if (client != NULL)
        g_hash_table_remove (client->tool_calls, call->call_id);
    }

  tool_result = lode_tool_registry_call_finish (LODE_TOOL_REGISTRY (object), result, &error);
  if (tool_result == NULL)
    {
      return_error (g_object_ref (call->invocation), error);
      return;
    }

  object_result = lode_tool_result_to_json (tool_result);
  node = json_node_init_object (json_node_alloc (), object_result);
  json = json_to_string (node, FALSE);
  g_dbus_method_invocation_return_value (g_object_ref (call->invocation),
                                         g_variant_new ("(s)", json));
}
static gboolean
handle_call_tool (LodeDBusDaemon1       *iface,
                  GDBusMethodInvocation *invocation,
                  const char            *name,
                  const char            *arguments,
                  GVariant              *options)
{
  LodeDaemonService *self = LODE_DAEMON_SERVICE (iface);
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GCancellable) cancellable = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(ToolCall) call = NULL;
  ToolCall *progress_call;
  const char *call_id = NULL;
  Client *client;

  touch (self);
  if (strlen (arguments) > MAX_TOOL_ARGUMENTS_BYTES)
    {
      g_dbus_method_invocation_return_error (g_steal_pointer (&invocation), LODE_ERROR,
                                             LODE_ERROR_INVALID_ARGUMENT,
                                             "Tool arguments are limited to %d bytes",
                                             MAX_TOOL_ARGUMENTS_BYTES);
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }

  node = json_from_string (*arguments != '\0' ? arguments : "{}", &error);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_dbus_method_invocation_return_error (g_steal_pointer (&invocation), LODE_ERROR,
                                             LODE_ERROR_INVALID_ARGUMENT,
                                             "The arguments of %s are not a JSON object%s%s",
                                             name, error != NULL ? ": " : "",
                                             error != NULL ? error->message : "");
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }

  if (lode_tool_registry_lookup (self->registry, name) == NULL)
    {
      g_dbus_method_invocation_return_error (g_steal_pointer (&invocation), LODE_ERROR,
                                             LODE_ERROR_NOT_FOUND,
                                             "Unknown tool “%s”; codebase_about lists them",
                                             name);
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }

  client = ensure_client (self, invocation);
  if (g_variant_lookup (options, "call_id", "&s", &call_id))
    {
      if (client == NULL || *call_id == '\0' || strlen (call_id) > MAX_CALL_ID_BYTES ||
          g_hash_table_contains (client->tool_calls, call_id))
        {
          g_dbus_method_invocation_return_error (g_steal_pointer (&invocation), LODE_ERROR,
                                                 LODE_ERROR_INVALID_ARGUMENT,
                                                 "call_id must be 1 to %d bytes and unique "
                                                 "among the caller's running calls",
                                                 MAX_CALL_ID_BYTES);
          return G_DBUS_METHOD_INVOCATION_HANDLED;
        }
      cancellable = g_cancellable_new ();
      g_hash_table_insert (client->tool_calls, g_strdup (call_id), g_object_ref (cancellable));
    }
  else
    cancellable = client_cancellable (self, invocation);

  call = g_rc_box_new0 (ToolCall);
  call->service = g_object_ref (self);
  call->invocation = g_steal_pointer (&invocation);
  call->call_id = g_strdup (call_id);
  progress_call = call_id != NULL ? g_rc_box_acquire (call) : NULL;
  lode_tool_registry_call_async (self->registry, name, json_node_get_object (node), NULL,
                                 call_id != NULL ? tool_progress_cb : NULL, progress_call,
                                 call_id != NULL ? (GDestroyNotify) tool_call_unref : NULL,
                                 cancellable, call_tool_done_cb, g_steal_pointer (&call));

  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

static gboolean
handle_cancel_tool (LodeDBusDaemon1       *iface,
                    GDBusMethodInvocation *invocation,
                    const char            *call_id)
{
  LodeDaemonService *self = LODE_DAEMON_SERVICE (iface);
  const char *sender = g_dbus_method_invocation_get_sender (invocation);
  Client *client = sender != NULL ? g_hash_table_lookup (self->clients, sender) : NULL;
  GCancellable *cancellable;

  touch (self);
  cancellable = client != NULL ? g_hash_table_lookup (client->tool_calls, call_id) : NULL;
  if (cancellable != NULL)
    g_cancellable_cancel (cancellable);

  lode_dbus_daemon1_complete_cancel_tool (iface, g_steal_pointer (&invocation));
  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

static void
lode_daemon_service_iface_init (LodeDBusDaemon1Iface *iface)
{
  iface->handle_call_tool = handle_call_tool;
  iface->handle_cancel_tool = handle_cancel_tool;
  iface->handle_add_project = handle_add_project;
  iface->handle_remove_project = handle_remove_project;
  iface->handle_list_projects = handle_list_projects;
  iface->handle_index = handle_index;
  iface->handle_update = handle_update;
  iface->handle_stop = handle_stop;
  iface->handle_status = handle_status;
  iface->handle_search = handle_search;
  iface->handle_watch = handle_watch;
}

static void
lode_daemon_service_finalize (GObject *object)
{
  LodeDaemonService *self = (LodeDaemonService *)object;

  g_clear_pointer (&self->clients, g_hash_table_unref);
  g_clear_pointer (&self->projects, g_hash_table_unref);
  g_clear_object (&self->registry);
  g_clear_object (&self->engine);
  g_free (self->state_file);

  G_OBJECT_CLASS (lode_daemon_service_parent_class)->finalize (object);
}

static void
lode_daemon_service_class_init (LodeDaemonServiceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = lode_daemon_service_finalize;
}

static void
lode_daemon_service_init (LodeDaemonService *self)
{
  self->projects = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                          (GDestroyNotify) project_entry_free);
  self->clients = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                         (GDestroyNotify) client_free);
  lode_dbus_daemon1_set_version (LODE_DBUS_DAEMON1 (self), 1);
}

/* Runs of the engine's own jobs (the tools that CallTool runs) are announced like the
 * daemon's. */
static void
engine_index_progress_cb (LodeEngine        *engine,
                          const char        *project_id,
                          const char        *root,
                          guint              phase,
                          guint              done,
                          guint              total,
                          LodeDaemonService *self)
{
  lode_dbus_daemon1_emit_progress (LODE_DBUS_DAEMON1 (self), root,
                                   lode_index_phase_to_string (phase), done, total);
}

static void
engine_index_changed_cb (LodeEngine        *engine,
                         const char        *project_id,
                         const char        *root,
                         LodeDaemonService *self)
{
  lode_dbus_daemon1_emit_index_changed (LODE_DBUS_DAEMON1 (self), root);
}

/**
 * lode_daemon_service_new:
 * @app: the daemon's application; held while anything is indexed or watched
 * @engine: the engine
 *
 * Returns: (transfer full): the service object, not exported yet
 */
LodeDaemonService *
lode_daemon_service_new (GApplication *app,
                         LodeEngine   *engine)
{
  /* One daemon per process: its codebase_watch, defined once. */
  static LodeTool watch_tool;
  LodeDaemonService *self;

  g_return_val_if_fail (G_IS_APPLICATION (app), NULL);
  g_return_val_if_fail (LODE_IS_ENGINE (engine), NULL);

  self = g_object_new (LODE_TYPE_DAEMON_SERVICE, NULL);
  self->app = app;
  self->engine = g_object_ref (engine);
  self->registry = lode_tools_new_registry (engine);
  g_object_set_data (G_OBJECT (self->registry), "lode-service", self);
  watch_tool = *lode_tool_registry_lookup (self->registry, "codebase_watch");
  watch_tool.description =
    "Start or stop keeping a project's index up to date as files change (Lode's daemon "
    "watches it, also across restarts), or ask whether it is watched.";
  watch_tool.func = daemon_codebase_watch;
  lode_tool_registry_replace (self->registry, &watch_tool);
  self->state_file = g_build_filename (lode_engine_get_config (engine)->data_dir,
                                       "watched", NULL);
  g_signal_connect_object (engine, "index-progress", G_CALLBACK (engine_index_progress_cb),
                           self, 0);
  g_signal_connect_object (engine, "index-changed", G_CALLBACK (engine_index_changed_cb),
                           self, 0);

  return self;
}

/**
 * lode_daemon_service_shutdown:
 * @self: a #LodeDaemonService
 *
 * Stops every watcher and cancels every run; what runs stored is kept.
 */
void
lode_daemon_service_shutdown (LodeDaemonService *self)
{
  GHashTableIter iter;
  ProjectEntry *entry;

  g_return_if_fail (LODE_IS_DAEMON_SERVICE (self));

  g_hash_table_iter_init (&iter, self->projects);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &entry))
    {
      if (entry->watcher != NULL)
        lode_watcher_stop (entry->watcher);
      if (entry->job != NULL)
        g_cancellable_cancel (entry->job->cancellable);
    }
}
