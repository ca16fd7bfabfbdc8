/* lode-watcher.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-watcher"

#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>

#include "lode-config.h"
#include "lode-ignore-private.h"
#include "lode-project-config.h"
#include "lode-watcher.h"

/*
 * Watches one tree with a GFileMonitor per directory (inotify: one watch each). Ignore rules
 * are applied while the tree is walked, before any monitor is made, so that node_modules,
 * build outputs and .git never cost a watch. Events are coalesced per path and delivered as
 * one batch once the tree has been quiet for debounce-msec (or at the latest after
 * MAX_WAIT_FACTOR times that), so that a `git checkout` touching thousands of files becomes
 * one update.
 *
 * inotify watches are a per-user kernel budget shared with every other program (editors, file
 * managers, other indexers). All watchers of this process count against one budget that
 * leaves a quarter of the kernel's limit to the rest of the session; a tree that does not fit
 * is not watched live at all but rescanned periodically, and the status says so.
 */

#define DEFAULT_RESCAN_SECONDS  60
#define MAX_WAIT_FACTOR         10
/* How often the root is looked at: a monitor follows its directory's inode wherever it
 * goes, and nothing watches the root's parent, so that a root moved away, replaced or
 * deleted and made again is noticed this way (or by an event on the root itself). */
#define ROOT_CHECK_SECONDS      2
/* The kernel default on older systems, when /proc cannot be read. */
#define FALLBACK_KERNEL_LIMIT   8192

struct _LodeWatcher
{
  GObject     parent_instance;

  char       *root;
  GFile      *root_file;
  LodeIgnore *ignore;
  GHashTable *monitors;      /* relative dir → GFileMonitor, value-destroy cancels */
  GHashTable *pending;       /* relative path → LodeChange, coalesced until flush */
  char       *status;
  dev_t       root_dev;      /* the directory the monitors were put on */
  ino_t       root_ino;
  gint64      first_pending;
  guint       flush_source;
  guint       rescan_source;
  guint       root_check_source;
  guint       debounce_msec;
  guint       max_watches;
  guint       rescan_interval;

  guint       started : 1;
  guint       polling : 1;
  guint       rewatch : 1;
  guint       root_lost : 1;  /* an event said the root was deleted or moved away */
  guint       root_gone : 1;  /* nothing is at the root (or no directory): nothing watched */
};

G_DEFINE_FINAL_TYPE (LodeWatcher, lode_watcher, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_ROOT,
  PROP_DEBOUNCE_MSEC,
  PROP_MAX_WATCHES,
  PROP_RESCAN_INTERVAL,
  PROP_POLLING,
  PROP_STATUS,
  N_PROPS
};

enum {
  CHANGED,
  RESCAN,
  N_SIGNALS
};

static GParamSpec *properties [N_PROPS];
static guint signals [N_SIGNALS];

/* Watches held by every watcher of this process; only touched on the main thread. */
static guint watches_in_use;

void
lode_change_free (LodeChange *change)
{
  if (change == NULL)
    return;

  g_free (change->path);
  g_free (change->old_path);
  g_free (change);
}

const char *
lode_change_kind_to_string (LodeChangeKind kind)
{
  switch (kind)
    {
    case LODE_CHANGE_CREATED:
      return "created";
    case LODE_CHANGE_CHANGED:
      return "changed";
    case LODE_CHANGE_DELETED:
      return "deleted";
    case LODE_CHANGE_RENAMED:
      return "renamed";
    default:
      g_return_val_if_reached ("unknown");
    }
}

static LodeChange *
change_new (LodeChangeKind  kind,
            const char     *path,
            const char     *old_path)
{
  LodeChange *change = g_new0 (LodeChange, 1);

  change->kind = kind;
  change->path = g_strdup (path);
  change->old_path = g_strdup (old_path);

  return change;
}

static void
monitor_free (gpointer data)
{
  GFileMonitor *monitor = data;

  g_signal_handlers_disconnect_matched (monitor, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, NULL);
  g_file_monitor_cancel (monitor);
  g_object_unref (monitor);
  g_assert (watches_in_use > 0);
  watches_in_use--;
}

/**
 * lode_watcher_get_inotify_budget:
 *
 * Returns: how many inotify watches all watchers of this process may hold together: three
 *   quarters of the kernel's per-user limit (`fs.inotify.max_user_watches`), the rest being
 *   left to the other programs of the session
 */
guint
lode_watcher_get_inotify_budget (void)
{
  g_autofree char *text = NULL;
  guint64 limit = FALLBACK_KERNEL_LIMIT;

  if (g_file_get_contents ("/proc/sys/fs/inotify/max_user_watches", &text, NULL, NULL))
    {
      guint64 value = g_ascii_strtoull (text, NULL, 10);

      if (value > 0)
        limit = MIN (value, G_MAXUINT);
    }

  return (guint) (limit - limit / 4);
}

static guint
effective_budget (LodeWatcher *self)
{
  return self->max_watches != 0 ? self->max_watches : lode_watcher_get_inotify_budget ();
}

static void
set_status (LodeWatcher *self,
            char        *status)
{
  if (g_strcmp0 (self->status, status) == 0)
    {
      g_free (status);
      return;
    }

  g_free (self->status);
  self->status = status;
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_STATUS]);
}

static void
lode_watcher_dispose (GObject *object)
{
  LodeWatcher *self = (LodeWatcher *)object;

  lode_watcher_stop (self);

  G_OBJECT_CLASS (lode_watcher_parent_class)->dispose (object);
}

static void
lode_watcher_finalize (GObject *object)
{
  LodeWatcher *self = (LodeWatcher *)object;

  g_clear_pointer (&self->monitors, g_hash_table_unref);
  g_clear_pointer (&self->pending, g_hash_table_unref);
  g_clear_pointer (&self->ignore, lode_ignore_unref);
  g_clear_object (&self->root_file);
  g_free (self->root);
  g_free (self->status);

  G_OBJECT_CLASS (lode_watcher_parent_class)->finalize (object);
}

static void
lode_watcher_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  LodeWatcher *self = LODE_WATCHER (object);

  switch (prop_id)
    {
    case PROP_ROOT:
      g_value_set_string (value, self->root);
      break;

    case PROP_DEBOUNCE_MSEC:
      g_value_set_uint (value, self->debounce_msec);
      break;

    case PROP_MAX_WATCHES:
      g_value_set_uint (value, self->max_watches);
      break;

    case PROP_RESCAN_INTERVAL:
      g_value_set_uint (value, self->rescan_interval);
      break;

    case PROP_POLLING:
      g_value_set_boolean (value, self->polling);
      break;

    case PROP_STATUS:
      g_value_set_string (value, self->status);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
lode_watcher_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  LodeWatcher *self = LODE_WATCHER (object);

  switch (prop_id)
    {
    case PROP_ROOT:
      self->root = g_value_dup_string (value);
      break;

    case PROP_DEBOUNCE_MSEC:
      lode_watcher_set_debounce_msec (self, g_value_get_uint (value));
      break;

    case PROP_MAX_WATCHES:
      lode_watcher_set_max_watches (self, g_value_get_uint (value));
      break;

    case PROP_RESCAN_INTERVAL:
      lode_watcher_set_rescan_interval (self, g_value_get_uint (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
lode_watcher_class_init (LodeWatcherClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = lode_watcher_dispose;
  object_class->finalize = lode_watcher_finalize;
  object_class->get_property = lode_watcher_get_property;
  object_class->set_property = lode_watcher_set_property;

  properties [PROP_ROOT] =
    g_param_spec_string ("root", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  properties [PROP_DEBOUNCE_MSEC] =
    g_param_spec_uint ("debounce-msec", NULL, NULL,
                       0, 10000, LODE_WATCH_DEFAULT_DEBOUNCE_MSEC,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /* 0: lode_watcher_get_inotify_budget(). */
  properties [PROP_MAX_WATCHES] =
    g_param_spec_uint ("max-watches", NULL, NULL,
                       0, G_MAXUINT, 0,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties [PROP_RESCAN_INTERVAL] =
    g_param_spec_uint ("rescan-interval", NULL, NULL,
                       1, 24 * 3600, DEFAULT_RESCAN_SECONDS,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties [PROP_POLLING] =
    g_param_spec_boolean ("polling", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  properties [PROP_STATUS] =
    g_param_spec_string ("status", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * LodeWatcher::changed:
   * @changes: (element-type LodeChange): the coalesced changes, sorted by path
   *
   * Emitted on the main context once the tree has been quiet for debounce-msec.
   */
  signals [CHANGED] =
    g_signal_new ("changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_PTR_ARRAY);

  /**
   * LodeWatcher::rescan:
   *
   * Emitted every rescan-interval seconds while the tree cannot be watched live (see
   * #LodeWatcher:polling), and when another directory took the root's place (moved there,
   * or made again after the root was deleted): anything may have changed.
   */
  signals [RESCAN] =
    g_signal_new ("rescan",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
}

static void
lode_watcher_init (LodeWatcher *self)
{
  self->debounce_msec = LODE_WATCH_DEFAULT_DEBOUNCE_MSEC;
  self->rescan_interval = DEFAULT_RESCAN_SECONDS;
  self->monitors = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, monitor_free);
  self->pending = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                         (GDestroyNotify) lode_change_free);
}

/**
 * lode_watcher_new:
 * @root: the canonical absolute path of the tree
 *
 * Returns: (transfer full): a watcher; nothing is watched until lode_watcher_start()
 */
LodeWatcher *
lode_watcher_new (const char *root)
{
  g_return_val_if_fail (root != NULL && g_path_is_absolute (root), NULL);

  return g_object_new (LODE_TYPE_WATCHER, "root", root, NULL);
}

const char *
lode_watcher_get_root (LodeWatcher *self)
{
  g_return_val_if_fail (LODE_IS_WATCHER (self), NULL);
  return self->root;
}

guint
lode_watcher_get_debounce_msec (LodeWatcher *self)
{
  g_return_val_if_fail (LODE_IS_WATCHER (self), 0);
  return self->debounce_msec;
}

void
lode_watcher_set_debounce_msec (LodeWatcher *self,
                                guint        debounce_msec)
{
  g_return_if_fail (LODE_IS_WATCHER (self));

  if (self->debounce_msec == debounce_msec)
    return;

  self->debounce_msec = debounce_msec;
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_DEBOUNCE_MSEC]);
}

guint
lode_watcher_get_max_watches (LodeWatcher *self)
{
  g_return_val_if_fail (LODE_IS_WATCHER (self), 0);
  return self->max_watches;
}

/**
 * lode_watcher_set_max_watches:
 * @self: a #LodeWatcher
 * @max_watches: the most inotify watches this process may hold, 0 for the default
 *   (lode_watcher_get_inotify_budget())
 *
 * Takes effect the next time the watcher starts or adds directories.
 */
void
lode_watcher_set_max_watches (LodeWatcher *self,
                              guint        max_watches)
{
  g_return_if_fail (LODE_IS_WATCHER (self));

  if (self->max_watches == max_watches)
    return;

  self->max_watches = max_watches;
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_MAX_WATCHES]);
}

guint
lode_watcher_get_rescan_interval (LodeWatcher *self)
{
  g_return_val_if_fail (LODE_IS_WATCHER (self), 0);
  return self->rescan_interval;
}

void
lode_watcher_set_rescan_interval (LodeWatcher *self,
                                  guint        seconds)
{
  g_return_if_fail (LODE_IS_WATCHER (self));
  g_return_if_fail (seconds > 0);

  if (self->rescan_interval == seconds)
    return;

  self->rescan_interval = seconds;
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_RESCAN_INTERVAL]);
}

guint
lode_watcher_get_n_watches (LodeWatcher *self)
{
  g_return_val_if_fail (LODE_IS_WATCHER (self), 0);
  return g_hash_table_size (self->monitors);
}

/**
 * lode_watcher_get_polling:
 * @self: a #LodeWatcher
 *
 * Returns: %TRUE when the tree does not fit in the inotify budget and is rescanned every
 *   rescan-interval seconds instead of being watched live
 */
gboolean
lode_watcher_get_polling (LodeWatcher *self)
{
  g_return_val_if_fail (LODE_IS_WATCHER (self), FALSE);
  return self->polling;
}

/**
 * lode_watcher_get_status:
 * @self: a #LodeWatcher
 *
 * Returns: (nullable): a sentence for people on how the tree is watched
 */
const char *
lode_watcher_get_status (LodeWatcher *self)
{
  g_return_val_if_fail (LODE_IS_WATCHER (self), NULL);
  return self->status;
}

/* "" for the root itself, NULL for files outside it. */
static char *
relative_path (LodeWatcher *self,
               GFile       *file)
{
  if (file == NULL)
    return NULL;
  if (g_file_equal (file, self->root_file))
    return g_strdup ("");
  return g_file_get_relative_path (self->root_file, file);
}

static char *
absolute_path (LodeWatcher *self,
               const char  *rel)
{
  return *rel == '\0' ? g_strdup (self->root) : g_build_filename (self->root, rel, NULL);
}

static gboolean
is_ignore_file (const char *rel)
{
  const char *base = strrchr (rel, '/');

  base = base != NULL ? base + 1 : rel;
  /* The root's .lode.json may let third-party folders in or keep them out. */
  return strcmp (base, ".gitignore") == 0 || strcmp (base, ".lodeignore") == 0 ||
         strcmp (rel, LODE_PROJECT_CONFIG_NAME) == 0;
}

static void
load_ignore_files (LodeWatcher *self,
                   const char  *rel,
                   int          dir_fd)
{
  static const char *const names[] = { ".gitignore", ".lodeignore" };

  /* The .lodeignore comes second so that it can override the .gitignore with `!`. */
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr(GError) error = NULL;

      if (faccessat (dir_fd, names[i], F_OK, 0) != 0)
        continue;
      if (!_lode_ignore_add_file_at (self->ignore, rel, dir_fd, names[i], &error))
        g_debug ("Skipping %s/%s: %s", rel, names[i], error->message);
    }
}

/* Lists the directories to watch below @start (included), skipping ignored ones and never
 * following symbolic links, and loads their ignore files on the way down. */
static void
collect_dirs (LodeWatcher *self,
              const char  *start,
              GPtrArray   *dirs)
{
  g_autoptr(GPtrArray) stack = g_ptr_array_new_with_free_func (g_free);

  g_ptr_array_add (stack, g_strdup (start));
  while (stack->len > 0)
    {
      g_autofree char *rel = g_ptr_array_steal_index (stack, stack->len - 1);
      g_autofree char *abs = absolute_path (self, rel);
      gsize dir_len = *rel == '\0' ? 0 : strlen (rel);
      struct dirent *de;
      DIR *dir;
      int fd;

      fd = open (abs, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY);
      if (fd < 0 || (dir = fdopendir (fd)) == NULL)
        {
          if (fd >= 0)
            close (fd);
          continue;
        }

      load_ignore_files (self, rel, fd);
      g_ptr_array_add (dirs, g_strdup (rel));

      while ((de = readdir (dir)) != NULL)
        {
          g_autofree char *child = NULL;
          gboolean is_dir = de->d_type == DT_DIR;
          struct stat st;

          if (de->d_name[0] == '.' &&
              (de->d_name[1] == '\0' || (de->d_name[1] == '.' && de->d_name[2] == '\0')))
            continue;

          if (de->d_type == DT_UNKNOWN)
            is_dir = fstatat (fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
                     S_ISDIR (st.st_mode);
          if (!is_dir)
            continue;

          child = *rel == '\0' ? g_strdup (de->d_name)
                               : g_strconcat (rel, "/", de->d_name, NULL);
          if (!_lode_ignore_match_entry (self->ignore, child, dir_len, TRUE))
            g_ptr_array_add (stack, g_steal_pointer (&child));
        }

      closedir (dir);
    }
}

static void monitor_changed_cb (GFileMonitor      *monitor,
                                GFile             *file,
                                GFile             *other,
                                GFileMonitorEvent  event,
                                gpointer           user_data);

static void
drop_monitors (LodeWatcher *self)
{
  g_hash_table_remove_all (self->monitors);
}

static gboolean
rescan_cb (gpointer user_data)
{
  LodeWatcher *self = user_data;

  g_signal_emit (self, signals [RESCAN], 0);
  return G_SOURCE_CONTINUE;
}

static void
enter_polling (LodeWatcher *self,
               guint        wanted,
               const char  *reason)
{
  drop_monitors (self);
  g_hash_table_remove_all (self->pending);
  g_clear_handle_id (&self->flush_source, g_source_remove);

  if (!self->polling)
    {
      self->polling = TRUE;
      g_message ("Not watching %s live: %s; rescanning every %u s instead",
                 self->root, reason, self->rescan_interval);
      g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_POLLING]);
    }

  set_status (self, g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                  "Not watching live: %s (%u directory). "
                                                  "Rescanning every %u s instead; raise "
                                                  "fs.inotify.max_user_watches to watch live.",
                                                  "Not watching live: %s (%u directories). "
                                                  "Rescanning every %u s instead; raise "
                                                  "fs.inotify.max_user_watches to watch live.",
                                                  wanted),
                                     reason, wanted, self->rescan_interval));
  g_clear_handle_id (&self->rescan_source, g_source_remove);
  self->rescan_source = g_timeout_add_seconds (self->rescan_interval, rescan_cb, self);
}

static void
update_status (LodeWatcher *self)
{
  guint n = g_hash_table_size (self->monitors);

  set_status (self, g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                  "Watching %u directory live",
                                                  "Watching %u directories live", n), n));
}

/* Adds monitors for @dirs; falls back to polling when they do not fit in the budget. */
static void
watch_dirs (LodeWatcher *self,
            GPtrArray   *dirs)
{
  guint budget = effective_budget (self);
  guint wanted = 0;

  for (guint i = 0; i < dirs->len; i++)
    if (!g_hash_table_contains (self->monitors, g_ptr_array_index (dirs, i)))
      wanted++;

  if (watches_in_use + wanted > budget)
    {
      g_autofree char *reason =
        g_strdup_printf (_("the tree needs more inotify watches than the budget allows "
                           "(%u in use, %u more needed, budget %u)"),
                         watches_in_use, wanted, budget);

      enter_polling (self, g_hash_table_size (self->monitors) + wanted, reason);
      return;
    }

  for (guint i = 0; i < dirs->len; i++)
    {
      const char *rel = g_ptr_array_index (dirs, i);
      g_autofree char *abs = NULL;
      g_autoptr(GFile) file = NULL;
      g_autoptr(GFileMonitor) monitor = NULL;
      g_autoptr(GError) error = NULL;

      if (g_hash_table_contains (self->monitors, rel))
        continue;

      abs = absolute_path (self, rel);
      file = g_file_new_for_path (abs);
      monitor = g_file_monitor_directory (file, G_FILE_MONITOR_WATCH_MOVES, NULL, &error);
      if (monitor == NULL)
        {
          /* ENOSPC from inotify: other programs took the rest of the kernel's budget. */
          if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE))
            {
              enter_polling (self, g_hash_table_size (self->monitors) + wanted,
                             _("the kernel's inotify watch limit is reached"));
              return;
            }
          g_debug ("Cannot watch %s: %s", abs, error->message);
          continue;
        }

      g_signal_connect (monitor, "changed", G_CALLBACK (monitor_changed_cb), self);
      watches_in_use++;
      g_hash_table_insert (self->monitors, g_strdup (rel), g_steal_pointer (&monitor));
    }

  update_status (self);
}

static void
watch_tree (LodeWatcher *self,
            const char  *start)
{
  g_autoptr(GPtrArray) dirs = g_ptr_array_new_with_free_func (g_free);

  if (self->polling)
    return;

  collect_dirs (self, start, dirs);
  watch_dirs (self, dirs);
}

static void
unwatch_tree (LodeWatcher *self,
              const char  *rel)
{
  GHashTableIter iter;
  const char *key;
  gsize len = strlen (rel);

  g_hash_table_iter_init (&iter, self->monitors);
  while (g_hash_table_iter_next (&iter, (gpointer *) &key, NULL))
    if (strncmp (key, rel, len) == 0 && (key[len] == '\0' || key[len] == '/'))
      g_hash_table_iter_remove (&iter);
}

static void
reset_ignore (LodeWatcher *self)
{
  g_autofree char *exclude = g_build_filename (self->root, ".git", "info", "exclude", NULL);
  g_autoptr(LodeProjectConfig) project_config = NULL;
  g_autoptr(GError) error = NULL;

  g_clear_pointer (&self->ignore, lode_ignore_unref);
  self->ignore = lode_ignore_new ();
  lode_ignore_add_defaults (self->ignore);
  project_config = lode_project_config_load_or_default (self->root);
  if (!project_config->include_vendored)
    lode_ignore_add_vendored (self->ignore);
  if (g_file_test (exclude, G_FILE_TEST_EXISTS) &&
      !lode_ignore_add_file (self->ignore, "", exclude, &error))
    g_debug ("Skipping .git/info/exclude: %s", error->message);
}

static void
rewatch (LodeWatcher *self)
{
  self->rewatch = FALSE;
  drop_monitors (self);
  reset_ignore (self);
  watch_tree (self, "");
}

/* Whether the directory at the root is still the one the monitors were put on. When it is
 * not, what they report happens elsewhere (the old root moved away: deleting one of its
 * files must not delete the file of the same name in the new root), so they are dropped
 * with the changes they reported; a new directory at the root is watched afresh and, since
 * anything may differ, the whole tree is read again (#LodeWatcher::rescan). While nothing
 * is there, nothing is watched and the status says so. */
static gboolean
check_root (LodeWatcher *self)
{
  struct stat st;
  gboolean present = lstat (self->root, &st) == 0 && S_ISDIR (st.st_mode);

  if (present && !self->root_lost && !self->root_gone &&
      st.st_dev == self->root_dev && st.st_ino == self->root_ino)
    return TRUE;

  self->root_lost = FALSE;
  drop_monitors (self);
  g_hash_table_remove_all (self->pending);
  g_clear_handle_id (&self->flush_source, g_source_remove);

  if (!present)
    {
      if (!self->root_gone)
        g_message ("%s is gone: not watching it until a folder is there again", self->root);
      self->root_gone = TRUE;
      set_status (self, g_strdup (_("Not watching: the folder was removed or moved away. "
                                    "It is watched again, and read again, once a folder is "
                                    "back at its place.")));
      return FALSE;
    }

  g_message ("%s is another folder now: watching it and reading it again", self->root);
  self->root_gone = FALSE;
  self->root_dev = st.st_dev;
  self->root_ino = st.st_ino;
  rewatch (self);
  g_signal_emit (self, signals [RESCAN], 0);
  return FALSE;
}

static gboolean
root_check_cb (gpointer user_data)
{
  check_root (user_data);
  return G_SOURCE_CONTINUE;
}

static int
compare_changes (gconstpointer a,
                 gconstpointer b)
{
  const LodeChange *ca = *(LodeChange * const *) a;
  const LodeChange *cb = *(LodeChange * const *) b;

  return strcmp (ca->path, cb->path);
}

static gboolean
flush_cb (gpointer user_data)
{
  LodeWatcher *self = user_data;
  g_autoptr(GPtrArray) changes = NULL;
  GHashTableIter iter;
  gpointer key, value;

  self->flush_source = 0;

  /* Changes seen in a folder that is no longer the root are not the tree's. */
  if (!check_root (self))
    return G_SOURCE_REMOVE;

  /* An ignore file changed: what is watched may change too. */
  if (self->rewatch)
    rewatch (self);

  changes = g_ptr_array_new_full (g_hash_table_size (self->pending),
                                  (GDestroyNotify) lode_change_free);
  g_hash_table_iter_init (&iter, self->pending);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      /* Stealing takes the key out as well: it is the path the change holds a copy of. */
      g_ptr_array_add (changes, value);
      g_hash_table_iter_steal (&iter);
      g_free (key);
    }
  g_ptr_array_sort (changes, compare_changes);

  g_debug ("%s: %u changes", self->root, changes->len);
  if (changes->len > 0)
    g_signal_emit (self, signals [CHANGED], 0, changes);

  return G_SOURCE_REMOVE;
}

/* Trailing debounce: every event pushes the flush back, but never beyond MAX_WAIT_FACTOR times
 * the debounce after the first pending event, so that a steady stream still gets through. */
static void
schedule_flush (LodeWatcher *self)
{
  gint64 now = g_get_monotonic_time ();
  gint64 max_wait = (gint64) self->debounce_msec * MAX_WAIT_FACTOR * 1000;

  if (self->flush_source == 0)
    self->first_pending = now;
  else if (now - self->first_pending >= max_wait)
    return;

  g_clear_handle_id (&self->flush_source, g_source_remove);
  self->flush_source = g_timeout_add (self->debounce_msec, flush_cb, self);
}

static void
record (LodeWatcher    *self,
        LodeChangeKind  kind,
        const char     *path)
{
  LodeChange *change = g_hash_table_lookup (self->pending, path);
  g_autofree char *old_path = NULL;

  schedule_flush (self);

  if (change == NULL)
    {
      g_hash_table_insert (self->pending, g_strdup (path), change_new (kind, path, NULL));
      return;
    }

  switch (kind)
    {
    case LODE_CHANGE_CREATED:
    case LODE_CHANGE_CHANGED:
      /* Deleted and back again: changed. Otherwise the first kind says more. */
      if (change->kind == LODE_CHANGE_DELETED)
        change->kind = LODE_CHANGE_CHANGED;
      break;

    case LODE_CHANGE_DELETED:
      if (change->kind == LODE_CHANGE_CREATED)
        g_hash_table_remove (self->pending, path);
      else if (change->kind == LODE_CHANGE_RENAMED)
        {
          /* Moved here and then deleted: what is gone is the old path. */
          old_path = g_steal_pointer (&change->old_path);
          g_hash_table_remove (self->pending, path);
          record (self, LODE_CHANGE_DELETED, old_path);
        }
      else
        change->kind = LODE_CHANGE_DELETED;
      break;

    case LODE_CHANGE_RENAMED:
    default:
      g_assert_not_reached ();
    }
}

static void
record_move (LodeWatcher *self,
             const char  *from,
             const char  *to)
{
  g_autofree char *key = NULL;
  g_autoptr(LodeChange) source = NULL;
  LodeChange *change;

  schedule_flush (self);

  if (g_hash_table_steal_extended (self->pending, from, (gpointer *) &key, (gpointer *) &source))
    {
      switch (source->kind)
        {
        case LODE_CHANGE_CREATED:
          change = change_new (LODE_CHANGE_CREATED, to, NULL);
          break;

        case LODE_CHANGE_RENAMED:
          change = strcmp (source->old_path, to) == 0
                   ? change_new (LODE_CHANGE_CHANGED, to, NULL)
                   : change_new (LODE_CHANGE_RENAMED, to, source->old_path);
          break;

        case LODE_CHANGE_DELETED:
          /* Cannot move what is gone; keep the deletion and take the move as a creation. */
          g_hash_table_insert (self->pending, g_steal_pointer (&key), g_steal_pointer (&source));
          change = change_new (LODE_CHANGE_CREATED, to, NULL);
          break;

        case LODE_CHANGE_CHANGED:
        default:
          change = change_new (LODE_CHANGE_RENAMED, to, from);
          break;
        }
    }
  else
    change = change_new (LODE_CHANGE_RENAMED, to, from);

  /* Whatever was at @to before has been replaced. */
  g_hash_table_insert (self->pending, g_strdup (to), change);
}

static gboolean
is_directory (LodeWatcher *self,
              const char  *rel)
{
  g_autofree char *abs = absolute_path (self, rel);
  struct stat st;

  return lstat (abs, &st) == 0 && S_ISDIR (st.st_mode);
}

static gboolean
is_ignored (LodeWatcher *self,
            const char  *rel,
            gboolean     is_dir)
{
  return lode_ignore_is_ignored (self->ignore, rel, is_dir);
}

static void
handle_appeared (LodeWatcher *self,
                 const char  *rel,
                 const char  *from)
{
  gboolean is_dir = is_directory (self, rel);
  gboolean from_ignored = from == NULL || is_ignored (self, from, is_dir);

  if (from != NULL)
    unwatch_tree (self, from);

  if (is_ignored (self, rel, is_dir))
    {
      if (!from_ignored)
        record (self, LODE_CHANGE_DELETED, from);
      return;
    }

  if (is_dir)
    watch_tree (self, rel);
  if (is_ignore_file (rel) || (from != NULL && is_ignore_file (from)))
    self->rewatch = TRUE;

  if (from_ignored)
    record (self, LODE_CHANGE_CREATED, rel);
  else
    record_move (self, from, rel);
}

static void
handle_gone (LodeWatcher *self,
             const char  *rel)
{
  unwatch_tree (self, rel);
  if (is_ignore_file (rel))
    self->rewatch = TRUE;
  if (!is_ignored (self, rel, FALSE))
    record (self, LODE_CHANGE_DELETED, rel);
}

static void
monitor_changed_cb (GFileMonitor      *monitor,
                    GFile             *file,
                    GFile             *other,
                    GFileMonitorEvent  event,
                    gpointer           user_data)
{
  LodeWatcher *self = user_data;
  g_autofree char *rel = relative_path (self, file);
  g_autofree char *other_rel = relative_path (self, other);

  g_assert (LODE_IS_WATCHER (self));

  /* The root itself deleted or moved away: its monitors no longer watch the tree. Other
   * events on it (or outside it) change no indexed path. */
  if (rel != NULL && *rel == '\0')
    {
      if (event == G_FILE_MONITOR_EVENT_DELETED || event == G_FILE_MONITOR_EVENT_MOVED_OUT ||
          event == G_FILE_MONITOR_EVENT_RENAMED || event == G_FILE_MONITOR_EVENT_MOVED)
        {
          self->root_lost = TRUE;
          check_root (self);
        }
      return;
    }
  if (rel == NULL)
    return;
  if (other_rel != NULL && *other_rel == '\0')
    g_clear_pointer (&other_rel, g_free);

  switch (event)
    {
    case G_FILE_MONITOR_EVENT_CHANGED:
      if (is_ignore_file (rel))
        self->rewatch = TRUE;
      if (!is_ignored (self, rel, FALSE))
        record (self, LODE_CHANGE_CHANGED, rel);
      break;

    case G_FILE_MONITOR_EVENT_CREATED:
      handle_appeared (self, rel, NULL);
      break;

    case G_FILE_MONITOR_EVENT_DELETED:
      handle_gone (self, rel);
      break;

    case G_FILE_MONITOR_EVENT_MOVED_IN:
      handle_appeared (self, rel, other_rel);
      break;

    case G_FILE_MONITOR_EVENT_RENAMED:
      if (other_rel != NULL)
        handle_appeared (self, other_rel, rel);
      else
        handle_gone (self, rel);
      break;

    case G_FILE_MONITOR_EVENT_MOVED_OUT:
      /* A move inside the tree is also reported as MOVED_IN by the destination's monitor. */
      if (other_rel != NULL)
        handle_appeared (self, other_rel, rel);
      else
        handle_gone (self, rel);
      break;

    case G_FILE_MONITOR_EVENT_ATTRIBUTE_CHANGED:
      /* A file touched, copied with its times (`cp -a`) or made unreadable: the index
       * stores its modification time and leaves out what cannot be read. A directory's
       * times and links say nothing of the files in it. */
      if (!is_directory (self, rel) && !is_ignored (self, rel, FALSE))
        record (self, LODE_CHANGE_CHANGED, rel);
      break;

    case G_FILE_MONITOR_EVENT_CHANGES_DONE_HINT:
    case G_FILE_MONITOR_EVENT_PRE_UNMOUNT:
    case G_FILE_MONITOR_EVENT_UNMOUNTED:
    case G_FILE_MONITOR_EVENT_MOVED:
    default:
      break;
    }

  if (self->polling)
    g_hash_table_remove_all (self->pending);
}

/**
 * lode_watcher_start:
 * @self: a #LodeWatcher
 * @error: return location for a #GError
 *
 * Walks the tree and puts a monitor on every directory that is not ignored, or falls back to
 * periodic rescans (#LodeWatcher::rescan) when they do not fit in the inotify budget. Changes
 * made before the call are not reported: the caller runs a catch-up update after it. Walking
 * reads directories only; it takes a few milliseconds for a tree of thousands of files.
 *
 * Returns: %TRUE on success; %FALSE if the root is not a readable directory
 */
gboolean
lode_watcher_start (LodeWatcher  *self,
                    GError      **error)
{
  struct stat st;

  g_return_val_if_fail (LODE_IS_WATCHER (self), FALSE);
  g_return_val_if_fail (!error || !*error, FALSE);

  if (self->started)
    return TRUE;

  if (lstat (self->root, &st) != 0 || !S_ISDIR (st.st_mode))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_DIRECTORY,
                   "Cannot watch %s: not a directory", self->root);
      return FALSE;
    }

  g_clear_object (&self->root_file);
  self->root_file = g_file_new_for_path (self->root);
  self->started = TRUE;
  self->root_lost = FALSE;
  self->root_gone = FALSE;
  self->root_dev = st.st_dev;
  self->root_ino = st.st_ino;
  rewatch (self);
  self->root_check_source = g_timeout_add_seconds (ROOT_CHECK_SECONDS, root_check_cb, self);

  return TRUE;
}

/**
 * lode_watcher_stop:
 * @self: a #LodeWatcher
 *
 * Cancels every monitor and drops pending changes.
 */
void
lode_watcher_stop (LodeWatcher *self)
{
  g_return_if_fail (LODE_IS_WATCHER (self));

  drop_monitors (self);
  g_hash_table_remove_all (self->pending);
  g_clear_handle_id (&self->flush_source, g_source_remove);
  g_clear_handle_id (&self->rescan_source, g_source_remove);
  g_clear_handle_id (&self->root_check_source, g_source_remove);
  self->started = FALSE;
  if (self->polling)
    {
      self->polling = FALSE;
      g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_POLLING]);
    }
  set_status (self, NULL);
}
