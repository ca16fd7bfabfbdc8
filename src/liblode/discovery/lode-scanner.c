/* lode-scanner.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-scanner"

#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "lode-error.h"
#include "lode-ignore-private.h"
#include "lode-project-config.h"
#include "lode-scanner.h"
#include "lode-utf8.h"

#define DEFAULT_MAX_FILE_SIZE (2 * 1024 * 1024)

/* Binary sniffing looks at this much of the start of a file, as git and grep do. */
#define SNIFF_SIZE 8192

struct _LodeScanner
{
  GObject  parent_instance;
  char    *root;
  guint64  max_file_size;
};

G_DEFINE_FINAL_TYPE (LodeScanner, lode_scanner, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_ROOT,
  PROP_MAX_FILE_SIZE,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

typedef struct
{
  dev_t dev;
  ino_t ino;
} FileId;

typedef struct
{
  char   *rel;             /* where the walk reports it, "" for the root */
  char   *abs;             /* where it really is; canonical for symlink targets */
  char   *target_rel;      /* for symlinked directories: the target relative to the root */
  FileId  id;
} PendingDir;

typedef struct
{
  char        *rel;
  char        *target;     /* canonical */
  struct stat  st;         /* of the target */
} PendingFile;

typedef struct
{
  char   *name;
  guchar  type;            /* d_type, DT_UNKNOWN on file systems that do not fill it in */
} Entry;

typedef struct
{
  const char   *root;      /* canonical */
  gsize         root_len;
  guint64       max_file_size;
  LodeIgnore   *ignore;
  GHashTable   *dirs_seen;     /* FileId set: every directory is walked at most once */
  GArray       *file_ids;      /* FileId of every file found, to spot symlinked duplicates */
  GPtrArray    *stack;         /* PendingDir, real directories still to walk */
  GPtrArray    *link_dirs;     /* PendingDir, symlinked directories found so far */
  GPtrArray    *link_files;    /* PendingFile, symlinked files found so far */
  GPtrArray    *files;
  GPtrArray    *skipped;
  uid_t         euid;
} Walk;

static guint
file_id_hash (gconstpointer key)
{
  const FileId *id = key;

  guint64 ino = id->ino;

  return (guint) (ino ^ (ino >> 32)) ^ ((guint) id->dev * 2654435761u);
}

static gboolean
file_id_equal (gconstpointer a,
               gconstpointer b)
{
  const FileId *ia = a;
  const FileId *ib = b;

  return ia->dev == ib->dev && ia->ino == ib->ino;
}

static void
pending_dir_free (gpointer data)
{
  PendingDir *dir = data;

  g_free (dir->rel);
  g_free (dir->abs);
  g_free (dir->target_rel);
  g_free (dir);
}

static void
pending_file_free (gpointer data)
{
  PendingFile *file = data;

  g_free (file->rel);
  g_free (file->target);
  g_free (file);
}

static void
entry_clear (gpointer data)
{
  Entry *entry = data;

  g_clear_pointer (&entry->name, g_free);
}

/**
 * lode_scan_file_free:
 * @file: (transfer full): a #LodeScanFile
 */
void
lode_scan_file_free (LodeScanFile *file)
{
  if (file == NULL)
    return;

  g_free (file->path);
  g_free (file);
}

/**
 * lode_skipped_file_free:
 * @skipped: (transfer full): a #LodeSkippedFile
 */
void
lode_skipped_file_free (LodeSkippedFile *skipped)
{
  if (skipped == NULL)
    return;

  g_free (skipped->path);
  g_free (skipped->detail);
  g_free (skipped);
}

/**
 * lode_skip_reason_to_string:
 * @reason: a #LodeSkipReason
 *
 * Returns: a short English phrase for @reason, e.g. "larger than the size limit". It is also
 *   used as a stable value in JSON output.
 */
const char *
lode_skip_reason_to_string (LodeSkipReason reason)
{
  switch (reason)
    {
    case LODE_SKIP_TOO_LARGE:
      return "larger than the size limit";
    case LODE_SKIP_BINARY:
      return "binary content";
    case LODE_SKIP_UNREADABLE:
      return "unreadable";
    case LODE_SKIP_SYMLINK_OUTSIDE:
      return "symbolic link leading outside the project";
    case LODE_SKIP_SYMLINK_LOOP:
      return "looping or dangling symbolic link";
    case LODE_SKIP_NOT_REGULAR:
      return "not a regular file";
    case LODE_SKIP_SPECIAL_FS:
      return "on a special file system";
    case LODE_SKIP_OVER_TIME_BUDGET:
      return "over the time budget";
    default:
      return "unknown reason";
    }
}

static void
lode_scanner_finalize (GObject *object)
{
  LodeScanner *self = (LodeScanner *)object;

  g_clear_pointer (&self->root, g_free);

  G_OBJECT_CLASS (lode_scanner_parent_class)->finalize (object);
}

static void
lode_scanner_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  LodeScanner *self = LODE_SCANNER (object);

  switch (prop_id)
    {
    case PROP_ROOT:
      g_value_set_string (value, self->root);
      break;

    case PROP_MAX_FILE_SIZE:
      g_value_set_uint64 (value, self->max_file_size);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
lode_scanner_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  LodeScanner *self = LODE_SCANNER (object);

  switch (prop_id)
    {
    case PROP_ROOT:
      self->root = g_value_dup_string (value);
      break;

    case PROP_MAX_FILE_SIZE:
      lode_scanner_set_max_file_size (self, g_value_get_uint64 (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
lode_scanner_class_init (LodeScannerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = lode_scanner_finalize;
  object_class->get_property = lode_scanner_get_property;
  object_class->set_property = lode_scanner_set_property;

  properties [PROP_ROOT] =
    g_param_spec_string ("root", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  properties [PROP_MAX_FILE_SIZE] =
    g_param_spec_uint64 ("max-file-size", NULL, NULL,
                         0, G_MAXUINT64, DEFAULT_MAX_FILE_SIZE,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
lode_scanner_init (LodeScanner *self)
{
  self->max_file_size = DEFAULT_MAX_FILE_SIZE;
}

/**
 * lode_scanner_new:
 * @root: the absolute path of the project root
 *
 * Returns: (transfer full): a scanner for the tree below @root
 */
LodeScanner *
lode_scanner_new (const char *root)
{
  g_return_val_if_fail (root != NULL, NULL);
  g_return_val_if_fail (g_path_is_absolute (root), NULL);

  return g_object_new (LODE_TYPE_SCANNER, "root", root, NULL);
}

/**
 * lode_scanner_set_max_file_size:
 * @self: a #LodeScanner
 * @max_file_size: the size cap in bytes
 *
 * Files larger than @max_file_size are reported as skipped instead of being returned. The
 * default is 2 MiB.
 */
void
lode_scanner_set_max_file_size (LodeScanner *self,
                                guint64      max_file_size)
{
  g_return_if_fail (LODE_IS_SCANNER (self));

  if (self->max_file_size == max_file_size)
    return;

  self->max_file_size = max_file_size;
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_MAX_FILE_SIZE]);
}

/* The kernel's own file systems: their files are not source, their sizes say nothing (0 or
 * 4096), and some never end (/proc/self/pagemap) or block on read. tmpfs and devtmpfs share a
 * magic number, so /dev is not among them; its devices are skipped as not regular. */
static const char *
special_fs_name (int fd)
{
  struct statfs fs;

  if (fstatfs (fd, &fs) != 0)
    return NULL;

  switch ((unsigned long) fs.f_type)
    {
    case PROC_SUPER_MAGIC: return "procfs";
    case SYSFS_MAGIC: return "sysfs";
    case DEVPTS_SUPER_MAGIC: return "devpts";
    case DEBUGFS_MAGIC: return "debugfs";
    case TRACEFS_MAGIC: return "tracefs";
    case SECURITYFS_MAGIC: return "securityfs";
    case CGROUP_SUPER_MAGIC: return "cgroup";
    case CGROUP2_SUPER_MAGIC: return "cgroup2";
    case BPF_FS_MAGIC: return "bpf";
    case PSTOREFS_MAGIC: return "pstore";
    case EFIVARFS_MAGIC: return "efivarfs";
    case HUGETLBFS_MAGIC: return "hugetlbfs";
    case BINFMTFS_MAGIC: return "binfmt_misc";
    case SELINUX_MAGIC: return "selinuxfs";
    case NSFS_MAGIC: return "nsfs";
    default: return NULL;
    }
}

static void
add_skipped (Walk           *w,
             const char     *rel,
             LodeSkipReason  reason,
             char           *detail)
{
  LodeSkippedFile *skipped = g_new0 (LodeSkippedFile, 1);

  skipped->path = g_strdup (rel);
  skipped->reason = reason;
  skipped->detail = detail;
  g_ptr_array_add (w->skipped, skipped);
}

static const char *
describe_type (mode_t mode)
{
  if (S_ISFIFO (mode))
    return "FIFO";
  if (S_ISSOCK (mode))
    return "socket";
  if (S_ISCHR (mode))
    return "character device";
  if (S_ISBLK (mode))
    return "block device";
  return "special file";
}

/* Whether the current user may read a file, decided without opening it: opening could block
 * (on a FIFO swapped in meanwhile) and costs far more. The owner's read bit settles the usual
 * case; everything else asks the kernel. */
static gboolean
check_readable (Walk              *w,
                int                dir_fd,
                const char        *name,
                const struct stat *st,
                char             **detail)
{
  if (w->euid == 0 || (st->st_uid == w->euid && (st->st_mode & S_IRUSR) != 0))
    return TRUE;

  if (faccessat (dir_fd, name, R_OK, 0) == 0)
    return TRUE;

  *detail = g_strdup (g_strerror (errno));
  return FALSE;
}

/* A file's modification time as the index stores it. */
static gint64
mtime_usec (const struct stat *st)
{
  return (gint64) st->st_mtim.tv_sec * G_USEC_PER_SEC + st->st_mtim.tv_nsec / 1000;
}

/* Adds a regular file to the results unless it is too large or unreadable. */
static void
add_file (Walk              *w,
          const char        *rel,
          int                dir_fd,
          const char        *name,
          const struct stat *st)
{
  LodeScanFile *file;
  FileId id = { st->st_dev, st->st_ino };
  char *detail = NULL;

  if ((guint64) st->st_size > w->max_file_size)
    {
      g_autofree char *size = NULL;
      g_autofree char *limit = NULL;

      /* Exact byte counts too: rounded sizes just above the limit read like the limit. */
      size = g_format_size_full (st->st_size,
                                 G_FORMAT_SIZE_IEC_UNITS | G_FORMAT_SIZE_LONG_FORMAT);
      limit = g_format_size_full (w->max_file_size,
                                  G_FORMAT_SIZE_IEC_UNITS | G_FORMAT_SIZE_LONG_FORMAT);
      add_skipped (w, rel, LODE_SKIP_TOO_LARGE,
                   g_strdup_printf ("%s, the limit is %s", size, limit));
      return;
    }

  if (!check_readable (w, dir_fd, name, st, &detail))
    {
      add_skipped (w, rel, LODE_SKIP_UNREADABLE, detail);
      return;
    }

  file = g_new0 (LodeScanFile, 1);
  file->path = g_strdup (rel);
  file->language = lode_language_for_path (rel);
  file->size = st->st_size;
  file->mtime_usec = mtime_usec (st);
  g_ptr_array_add (w->files, file);
  g_array_append_val (w->file_ids, id);
}

static gboolean
is_inside_root (Walk        *w,
                const char  *canonical,
                const char **target_rel)
{
  if (w->root_len == 1)
    {
      *target_rel = canonical + 1;
      return TRUE;
    }

  if (strncmp (canonical, w->root, w->root_len) != 0)
    return FALSE;
  if (canonical[w->root_len] == '\0')
    {
      *target_rel = "";
      return TRUE;
    }
  if (canonical[w->root_len] == '/')
    {
      *target_rel = canonical + w->root_len + 1;
      return TRUE;
    }

  return FALSE;
}

/* Resolves a symbolic link found during the walk. Links are followed only to targets inside
 * the root; directories and files behind them are queued and taken once the real tree has been
 * walked, so that what a link leads to is reported under its real path whenever it has one,
 * whatever order readdir() returns entries in. */
static void
handle_symlink (Walk       *w,
                const char *rel,
                gsize       dir_len,
                const char *abs)
{
  g_autofree char *target = NULL;
  const char *target_rel = NULL;
  struct stat st;

  target = realpath (abs, NULL);
  if (target == NULL || stat (target, &st) != 0)
    {
      int saved_errno = errno;

      if (_lode_ignore_match_entry (w->ignore, rel, dir_len, FALSE))
        return;

      if (saved_errno == EACCES)
        add_skipped (w, rel, LODE_SKIP_UNREADABLE, g_strdup (g_strerror (saved_errno)));
      else if (saved_errno == ELOOP)
        add_skipped (w, rel, LODE_SKIP_SYMLINK_LOOP, g_strdup (g_strerror (saved_errno)));
      else
        add_skipped (w, rel, LODE_SKIP_SYMLINK_LOOP,
                     g_strdup_printf ("dangling: %s", g_strerror (saved_errno)));
      return;
    }

  if (_lode_ignore_match_entry (w->ignore, rel, dir_len, S_ISDIR (st.st_mode)))
    return;

  if (!is_inside_root (w, target, &target_rel))
    {
      add_skipped (w, rel, LODE_SKIP_SYMLINK_OUTSIDE, g_strdup_printf ("points to %s", target));
      return;
    }

  if (S_ISDIR (st.st_mode))
    {
      PendingDir *dir = g_new0 (PendingDir, 1);

      dir->rel = g_strdup (rel);
      dir->target_rel = g_strdup (target_rel);
      dir->abs = g_steal_pointer (&target);
      dir->id.dev = st.st_dev;
      dir->id.ino = st.st_ino;
      g_ptr_array_add (w->link_dirs, dir);
    }
  else if (S_ISREG (st.st_mode))
    {
      PendingFile *file = g_new0 (PendingFile, 1);

      file->rel = g_strdup (rel);
      file->target = g_steal_pointer (&target);
      file->st = st;
      g_ptr_array_add (w->link_files, file);
    }
  else
    {
      add_skipped (w, rel, LODE_SKIP_NOT_REGULAR, g_strdup (describe_type (st.st_mode)));
    }
}

static void
push_dir (Walk              *w,
          const char        *rel,
          const char        *abs,
          const struct stat *st)
{
  PendingDir *dir;
  FileId *id = g_new (FileId, 1);

  id->dev = st->st_dev;
  id->ino = st->st_ino;
  /* A directory reachable twice without symlinks (a bind mount) is walked once. */
  if (!g_hash_table_add (w->dirs_seen, id))
    return;

  dir = g_new0 (PendingDir, 1);
  dir->rel = g_strdup (rel);
  dir->abs = g_strdup (abs);
  g_ptr_array_add (w->stack, dir);
}

static int
compare_entries (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (((const Entry *) a)->name, ((const Entry *) b)->name);
}

static void
load_ignore_file (Walk       *w,
                  const char *rel,
                  int         dir_fd,
                  const char *name)
{
  g_autoptr(GError) error = NULL;

  if (!_lode_ignore_add_file_at (w->ignore, rel, dir_fd, name, &error))
    g_debug ("Skipping %s%s%s: %s", rel, *rel ? "/" : "", name, error->message);
}

static void
walk_dir (Walk       *w,
          PendingDir *pending)
{
  g_autoptr(GArray) entries = g_array_new (FALSE, FALSE, sizeof (Entry));
  g_autoptr(GString) rel = g_string_new (pending->rel);
  g_autoptr(GString) abs = g_string_new (pending->abs);
  gboolean has_gitignore = FALSE;
  gboolean has_lodeignore = FALSE;
  const char *special;
  gsize rel_len;
  gsize abs_len;
  struct dirent *de;
  DIR *dir;
  int fd;

  g_array_set_clear_func (entries, entry_clear);

  fd = open (pending->abs, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY);
  if (fd < 0 || (dir = fdopendir (fd)) == NULL)
    {
      int saved_errno = errno;

      if (fd >= 0)
        close (fd);
      add_skipped (w, pending->rel, LODE_SKIP_UNREADABLE, g_strdup (g_strerror (saved_errno)));
      return;
    }

  if ((special = special_fs_name (fd)) != NULL)
    {
      add_skipped (w, *pending->rel != '\0' ? pending->rel : ".", LODE_SKIP_SPECIAL_FS,
                   g_strdup (special));
      closedir (dir);
      return;
    }

  for (;;)
    {
      Entry entry;

      errno = 0;
      de = readdir (dir);
      if (de == NULL)
        {
          if (errno != 0)
            add_skipped (w, pending->rel, LODE_SKIP_UNREADABLE, g_strdup (g_strerror (errno)));
          break;
        }

      if (de->d_name[0] == '.' &&
          (de->d_name[1] == '\0' || (de->d_name[1] == '.' && de->d_name[2] == '\0')))
        continue;

      if (strcmp (de->d_name, ".gitignore") == 0)
        has_gitignore = TRUE;
      else if (strcmp (de->d_name, ".lodeignore") == 0)
        has_lodeignore = TRUE;

      entry.name = g_strdup (de->d_name);
      entry.type = de->d_type;
      g_array_append_val (entries, entry);
    }

  /* Rules must be in place before any entry of this directory is judged. The .lodeignore
   * comes second so that it can override the .gitignore with `!`. */
  if (has_gitignore)
    load_ignore_file (w, pending->rel, fd, ".gitignore");
  if (has_lodeignore)
    load_ignore_file (w, pending->rel, fd, ".lodeignore");

  /* Sorted entries make the order of symlink targets, and so which path wins, stable. */
  g_array_sort (entries, compare_entries);

  if (rel->len > 0)
    g_string_append_c (rel, '/');
  rel_len = rel->len;
  g_string_append_c (abs, '/');
  abs_len = abs->len;

  for (guint i = 0; i < entries->len; i++)
    {
      const Entry *entry = &g_array_index (entries, Entry, i);
      gsize dir_len = rel_len > 0 ? rel_len - 1 : 0;
      gboolean checked = FALSE;
      struct stat st;

      g_string_truncate (rel, rel_len);
      g_string_append (rel, entry->name);
      g_string_truncate (abs, abs_len);
      g_string_append (abs, entry->name);

      /* Paths end up in SQLite, JSON and terminals; a name that is not UTF-8 cannot be shown
       * faithfully anywhere, so it is reported instead. */
      if (!g_utf8_validate_len (entry->name, strlen (entry->name), NULL))
        {
          g_autofree char *shown = g_utf8_make_valid (rel->str, rel->len);

          add_skipped (w, shown, LODE_SKIP_UNREADABLE, g_strdup ("file name is not valid UTF-8"));
          continue;
        }

      /* Most file systems tell the type in the entry: ignored entries then cost no stat. */
      if (entry->type == DT_DIR || entry->type == DT_REG)
        {
          if (_lode_ignore_match_entry (w->ignore, rel->str, dir_len, entry->type == DT_DIR))
            continue;
          checked = TRUE;
        }

      if (fstatat (fd, entry->name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        {
          if (errno != ENOENT)
            add_skipped (w, rel->str, LODE_SKIP_UNREADABLE, g_strdup (g_strerror (errno)));
          continue;
        }

      if (S_ISLNK (st.st_mode))
        {
          handle_symlink (w, rel->str, dir_len, abs->str);
          continue;
        }

      if (!checked && _lode_ignore_match_entry (w->ignore, rel->str, dir_len,
                                                S_ISDIR (st.st_mode)))
        continue;

      if (S_ISDIR (st.st_mode))
        push_dir (w, rel->str, abs->str, &st);
      else if (S_ISREG (st.st_mode))
        add_file (w, rel->str, fd, entry->name, &st);
      else
        add_skipped (w, rel->str, LODE_SKIP_NOT_REGULAR, g_strdup (describe_type (st.st_mode)));
    }

  closedir (dir);
}

static int
compare_pending_dirs (gconstpointer a,
                      gconstpointer b)
{
  const PendingDir *da = *(PendingDir * const *) a;
  const PendingDir *db = *(PendingDir * const *) b;

  return strcmp (da->rel, db->rel);
}

static int
compare_pending_files (gconstpointer a,
                       gconstpointer b)
{
  const PendingFile *fa = *(PendingFile * const *) a;
  const PendingFile *fb = *(PendingFile * const *) b;

  return strcmp (fa->rel, fb->rel);
}

/* Symlinked directories, taken after the real tree. Each target is walked once, under the first
 * link (in path order) that reaches it, and only if the real walk did not reach it. */
static void
queue_link_dirs (Walk *w)
{
  gsize n_links = 0;
  PendingDir **links = (PendingDir **) g_ptr_array_steal (w->link_dirs, &n_links);

  qsort (links, n_links, sizeof *links, compare_pending_dirs);

  for (gsize i = 0; i < n_links; i++)
    {
      PendingDir *link = links[i];
      gsize tlen = strlen (link->target_rel);

      if (!g_hash_table_contains (w->dirs_seen, &link->id))
        {
          g_hash_table_add (w->dirs_seen, g_memdup2 (&link->id, sizeof link->id));
          g_ptr_array_add (w->stack, link);
          continue;
        }

      /* A link to one of its own parents would repeat the tree forever; a link to a directory
       * walked elsewhere only repeats files that are already listed. */
      if (tlen == 0 || (strncmp (link->rel, link->target_rel, tlen) == 0 &&
                        link->rel[tlen] == '/'))
        add_skipped (w, link->rel, LODE_SKIP_SYMLINK_LOOP,
                     g_strdup_printf ("points to its parent directory “%s”",
                                      tlen == 0 ? "." : link->target_rel));
      else
        g_debug ("Not following %s: %s is already listed", link->rel, link->target_rel);
      pending_dir_free (link);
    }

  g_free (links);
}

/* Symlinked files, taken last: one whose target is already listed under another path would
 * only duplicate it. */
static void
add_link_files (Walk *w)
{
  g_autoptr(GHashTable) seen = NULL;

  if (w->link_files->len == 0)
    return;

  g_ptr_array_sort (w->link_files, compare_pending_files);
  seen = g_hash_table_new_full (file_id_hash, file_id_equal, g_free, NULL);
  for (guint i = 0; i < w->file_ids->len; i++)
    g_hash_table_add (seen, g_memdup2 (&g_array_index (w->file_ids, FileId, i), sizeof (FileId)));

  for (guint i = 0; i < w->link_files->len; i++)
    {
      PendingFile *link = g_ptr_array_index (w->link_files, i);
      FileId id = { link->st.st_dev, link->st.st_ino };
      guint n_ids = w->file_ids->len;

      if (g_hash_table_contains (seen, &id))
        continue;

      add_file (w, link->rel, AT_FDCWD, link->target, &link->st);
      if (w->file_ids->len > n_ids)
        g_hash_table_add (seen, g_memdup2 (&id, sizeof id));
    }
}

static int
compare_files (gconstpointer a,
               gconstpointer b)
{
  const LodeScanFile *fa = *(LodeScanFile * const *) a;
  const LodeScanFile *fb = *(LodeScanFile * const *) b;

  return strcmp (fa->path, fb->path);
}

static int
compare_skipped (gconstpointer a,
                 gconstpointer b)
{
  const LodeSkippedFile *sa = *(LodeSkippedFile * const *) a;
  const LodeSkippedFile *sb = *(LodeSkippedFile * const *) b;

  return strcmp (sa->path, sb->path);
}

/**
 * lode_scanner_scan:
 * @self: a #LodeScanner
 * @cancellable: (nullable): a #GCancellable
 * @files: (out) (transfer full) (element-type LodeScanFile): the files to index, sorted by path
 * @skipped: (out) (transfer full) (element-type LodeSkippedFile): files that are not ignored
 *   but cannot be indexed, with the reason, sorted by path
 * @error: return location for a #GError
 *
 * Walks the tree below the root. Ignore rules come from Lode's defaults (third-party folders
 * such as `vendor/` included, unless `.lode.json` says otherwise), `.git/info/exclude` at
 * the root, and every `.gitignore` and `.lodeignore` on the way down (see #LodeIgnore); ignored
 * files are not reported and ignored directories are not entered. Nothing is opened but
 * directories and ignore files: binary content is detected later, by lode_content_check().
 * Symbolic links are followed only to targets inside the root, and every directory is walked
 * at most once, so link loops end.
 *
 * This does blocking I/O: call it from a worker thread.
 *
 * Returns: %TRUE on success; %FALSE if the root is not a readable directory or @cancellable
 *   was cancelled
 */
gboolean
lode_scanner_scan (LodeScanner   *self,
                   GCancellable  *cancellable,
                   GPtrArray    **files,
                   GPtrArray    **skipped,
                   GError       **error)
{
  g_autoptr(LodeIgnore) ignore = lode_ignore_new ();
  g_autoptr(GHashTable) dirs_seen = g_hash_table_new_full (file_id_hash, file_id_equal,
                                                           g_free, NULL);
  g_autoptr(GArray) file_ids = g_array_new (FALSE, FALSE, sizeof (FileId));
  g_autoptr(GPtrArray) stack = g_ptr_array_new_with_free_func (pending_dir_free);
  g_autoptr(GPtrArray) link_dirs = g_ptr_array_new_with_free_func (pending_dir_free);
  g_autoptr(GPtrArray) link_files = g_ptr_array_new_with_free_func (pending_file_free);
  g_autoptr(GPtrArray) found =
    g_ptr_array_new_with_free_func ((GDestroyNotify) lode_scan_file_free);
  g_autoptr(GPtrArray) skips =
    g_ptr_array_new_with_free_func ((GDestroyNotify) lode_skipped_file_free);
  g_autofree char *root = NULL;
  g_autoptr(LodeProjectConfig) project_config = NULL;
  g_autoptr(GError) local_error = NULL;
  struct stat st;
  Walk w = { 0 };
  int root_fd;

  g_return_val_if_fail (LODE_IS_SCANNER (self), FALSE);
  g_return_val_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable), FALSE);
  g_return_val_if_fail (files != NULL, FALSE);
  g_return_val_if_fail (skipped != NULL, FALSE);
  g_return_val_if_fail (!error || !*error, FALSE);

  root = realpath (self->root, NULL);
  if (root == NULL)
    {
      int saved_errno = errno;

      if (saved_errno == ENOENT || saved_errno == ENOTDIR)
        g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_FOUND,
                     "Project root %s does not exist", self->root);
      else
        g_set_error (error, LODE_ERROR, LODE_ERROR_FAILED,
                     "Cannot resolve project root %s: %s", self->root, g_strerror (saved_errno));
      return FALSE;
    }

  if (stat (root, &st) != 0 || !S_ISDIR (st.st_mode))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                   "Project root %s is not a directory", self->root);
      return FALSE;
    }

  /* An unreadable root is an error rather than an empty project. */
  root_fd = open (root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (root_fd < 0)
    {
      int saved_errno = errno;

      g_set_error (error, LODE_ERROR, LODE_ERROR_FAILED,
                   "Cannot read project root %s: %s", self->root, g_strerror (saved_errno));
      return FALSE;
    }

  /* info/exclude ranks below the root .gitignore, so it is loaded first. The user's global
   * core.excludesFile is deliberately not read: the index must not depend on who runs it. */
  lode_ignore_add_defaults (ignore);
  project_config = lode_project_config_load_or_default (root);
  if (!project_config->include_vendored)
    lode_ignore_add_vendored (ignore);
  if (faccessat (root_fd, ".git/info/exclude", F_OK, 0) == 0 &&
      !_lode_ignore_add_file_at (ignore, "", root_fd, ".git/info/exclude", &local_error))
    g_debug ("Skipping .git/info/exclude: %s", local_error->message);
  close (root_fd);

  w.root = root;
  w.root_len = strlen (root);
  w.max_file_size = self->max_file_size;
  w.ignore = ignore;
  w.dirs_seen = dirs_seen;
  w.file_ids = file_ids;
  w.stack = stack;
  w.link_dirs = link_dirs;
  w.link_files = link_files;
  w.files = found;
  w.skipped = skips;
  w.euid = geteuid ();

  push_dir (&w, "", root, &st);

  for (;;)
    {
      while (w.stack->len > 0)
        {
          PendingDir *dir;

          if (g_cancellable_set_error_if_cancelled (cancellable, error))
            return FALSE;

          dir = g_ptr_array_steal_index (w.stack, w.stack->len - 1);
          walk_dir (&w, dir);
          pending_dir_free (dir);
        }

      if (w.link_dirs->len == 0)
        break;
      queue_link_dirs (&w);
    }

  add_link_files (&w);

  g_ptr_array_sort (found, compare_files);
  g_ptr_array_sort (skips, compare_skipped);

  *files = g_steal_pointer (&found);
  *skipped = g_steal_pointer (&skips);
  return TRUE;
}

/**
 * lode_content_check:
 * @data: file content
 * @len: length of @data in bytes
 * @repaired: (out) (optional) (transfer full) (nullable): a repaired copy of @data, set only
 *   for %LODE_CONTENT_REPAIRED, %NULL otherwise
 *
 * Decides whether file content is text worth indexing. Content with a NUL byte in its first
 * 8 KiB, or in which more than one byte in ten of those is a control character other than
 * whitespace, backspace and escape, is binary. Otherwise it is text; when it is not valid UTF-8
 * (Latin-1 files, stray bytes, NUL bytes further in) every invalid byte is replaced by U+FFFD
 * in @repaired, which keeps every line where it was.
 *
 * Returns: the verdict
 */
LodeContentVerdict
lode_content_check (const char  *data,
                    gsize        len,
                    char       **repaired)
{
  gsize sniff = MIN (len, SNIFF_SIZE);
  gsize controls = 0;

  g_return_val_if_fail (data != NULL || len == 0, LODE_CONTENT_BINARY);

  if (repaired != NULL)
    *repaired = NULL;

  if (len == 0)
    return LODE_CONTENT_TEXT;

  if (memchr (data, '\0', sniff) != NULL)
    return LODE_CONTENT_BINARY;

  for (gsize i = 0; i < sniff; i++)
    {
      guchar c = data[i];

      if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v' &&
           c != '\b' && c != 0x1b) || c == 0x7f)
        controls++;
    }
  if (controls * 10 > sniff)
    return LODE_CONTENT_BINARY;

  if (lode_utf8_validate_len (data, len, NULL))
    return LODE_CONTENT_TEXT;

  if (repaired != NULL)
    *repaired = g_utf8_make_valid (data, len);
  return LODE_CONTENT_REPAIRED;
}

/**
 * lode_scanner_scan_paths:
 * @self: a #LodeScanner
 * @paths: (array zero-terminated=1): paths relative to the root, '/'-separated, that are not
 *   ignored (a watcher's change list)
 * @files: (out) (transfer full) (element-type LodeScanFile): those that are files to index
 * @skipped: (out) (transfer full) (element-type LodeSkippedFile): those that cannot be
 *   indexed, with the reason
 * @gone: (out) (transfer full) (element-type utf8): those that no longer exist
 *
 * Classifies a few paths as lode_scanner_scan() would, without walking the tree. Only a walk
 * can judge a directory (what is below it), a symbolic link (which of a file's names is
 * indexed) or an ignore file (a change of rules); with such a path this returns %FALSE and
 * the caller scans the tree.
 *
 * Returns: %TRUE when every path was classified
 */
gboolean
lode_scanner_scan_paths (LodeScanner         *self,
                         const char * const  *paths,
                         GPtrArray          **files,
                         GPtrArray          **skipped,
                         GPtrArray          **gone)
{
  g_autoptr(GArray) file_ids = g_array_new (FALSE, FALSE, sizeof (FileId));
  g_autoptr(GPtrArray) found =
    g_ptr_array_new_with_free_func ((GDestroyNotify) lode_scan_file_free);
  g_autoptr(GPtrArray) skips =
    g_ptr_array_new_with_free_func ((GDestroyNotify) lode_skipped_file_free);
  g_autoptr(GPtrArray) missing = g_ptr_array_new_with_free_func (g_free);
  Walk w = { 0 };

  g_return_val_if_fail (LODE_IS_SCANNER (self), FALSE);
  g_return_val_if_fail (paths != NULL, FALSE);
  g_return_val_if_fail (files != NULL && skipped != NULL && gone != NULL, FALSE);

  w.root = self->root;
  w.root_len = strlen (self->root);
  w.max_file_size = self->max_file_size;
  w.file_ids = file_ids;
  w.files = found;
  w.skipped = skips;
  w.euid = geteuid ();

  for (guint i = 0; paths[i] != NULL; i++)
    {
      g_autofree char *abs = g_build_filename (self->root, paths[i], NULL);
      const char *base = strrchr (paths[i], '/');
      struct stat st;

      base = base != NULL ? base + 1 : paths[i];
      if (strcmp (base, ".gitignore") == 0 || strcmp (base, ".lodeignore") == 0)
        return FALSE;

      if (!g_utf8_validate (paths[i], -1, NULL))
        {
          g_autofree char *shown = g_utf8_make_valid (paths[i], -1);

          add_skipped (&w, shown, LODE_SKIP_UNREADABLE, g_strdup ("file name is not valid UTF-8"));
          continue;
        }

      if (lstat (abs, &st) != 0)
        {
          if (errno == ENOENT || errno == ENOTDIR)
            g_ptr_array_add (missing, g_strdup (paths[i]));
          else
            add_skipped (&w, paths[i], LODE_SKIP_UNREADABLE, g_strdup (g_strerror (errno)));
          continue;
        }

      if (S_ISDIR (st.st_mode) || S_ISLNK (st.st_mode))
        return FALSE;

      if (S_ISREG (st.st_mode))
        add_file (&w, paths[i], AT_FDCWD, abs, &st);
      else
        add_skipped (&w, paths[i], LODE_SKIP_NOT_REGULAR, g_strdup (describe_type (st.st_mode)));
    }

  g_ptr_array_sort (found, compare_files);
  *files = g_steal_pointer (&found);
  *skipped = g_steal_pointer (&skips);
  *gone = g_steal_pointer (&missing);

  return TRUE;
}

/* Whether @a and @b are the same version of a file's content, as far as a stat can tell. */
static gboolean
same_version (const struct stat *a,
              const struct stat *b)
{
  return a->st_size == b->st_size && a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
         a->st_mtim.tv_nsec == b->st_mtim.tv_nsec && a->st_ctim.tv_sec == b->st_ctim.tv_sec &&
         a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

/* Reads @fd from its start into @buf (its size, at most @max_size + 1 bytes, grows as
 * needed): the bytes read, or -1 with errno set. */
static gssize
read_all (int      fd,
          guint64  max_size,
          char   **buf,
          gsize   *size)
{
  gsize done = 0;

  if (lseek (fd, 0, SEEK_SET) < 0)
    return -1;
  for (;;)
    {
      gssize n;

      if (done == *size)
        {
          if (*size > max_size)
            break;
          *size = MIN (*size * 2, max_size + 1);
          *buf = g_realloc (*buf, *size + 1);
        }

      n = read (fd, *buf + done, *size - done);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return -1;
      if (n == 0)
        break;
      done += n;
    }
  return done;
}

/* How often a file written to while it is read is read again. */
#define MAX_READS 3

/**
 * lode_read_file:
 * @path: the file
 * @max_size: the size cap in bytes
 * @length: (out): the length of the contents
 * @mtime: (out) (optional): the modification time (in microseconds) of the contents read
 * @reason: (out): why the file cannot be read, when it cannot
 * @error: return location for a #GError; its message is the detail of @reason
 *
 * Reads a file found by a scan, with the size cap enforced while reading: a file can grow
 * after the scan, and the sizes of special files say nothing (/proc/self/pagemap reports 0
 * and never ends). A file that is not regular, or lives on one of the kernel's file systems,
 * is not read at all; opening never blocks (a FIFO put in place meanwhile).
 *
 * The scan's stat may be older than the contents: @mtime is the open file's, taken before
 * and after the read; a file written to meanwhile is read again (a few times at most), so
 * that @length and @mtime are those of the bytes returned, and an index that stores them
 * describes what it indexed.
 *
 * Returns: (transfer full) (nullable): the contents, nul-terminated, or %NULL with @reason
 *   and @error set
 */
char *
lode_read_file (const char      *path,
                guint64          max_size,
                gsize           *length,
                gint64          *mtime,
                LodeSkipReason  *reason,
                GError         **error)
{
  g_autofree char *buf = NULL;
  g_autofree char *limit = NULL;
  const char *special;
  struct stat st;
  struct stat after = { 0 };
  gsize size = 0;
  gssize done = 0;
  int fd;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (length != NULL, NULL);
  g_return_val_if_fail (reason != NULL, NULL);

  fd = open (path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0)
    {
      int saved_errno = errno;

      *reason = LODE_SKIP_UNREADABLE;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno), "%s",
                   g_strerror (saved_errno));
      return NULL;
    }

  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      *reason = LODE_SKIP_NOT_REGULAR;
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE, "%s",
                   describe_type (st.st_mode));
      close (fd);
      return NULL;
    }

  if ((special = special_fs_name (fd)) != NULL)
    {
      *reason = LODE_SKIP_SPECIAL_FS;
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "%s", special);
      close (fd);
      return NULL;
    }

  /* st_size is a hint: read at most one byte past the cap, whatever it says. */
  size = (gsize) MIN ((guint64) MAX (st.st_size, 0), max_size) + 1;
  buf = g_malloc (size + 1);
  for (guint i = 0; i < MAX_READS; i++)
    {
      done = read_all (fd, max_size, &buf, &size);
      if (done >= 0 && fstat (fd, &after) != 0)
        done = -1;
      if (done < 0 || (guint64) done > max_size || same_version (&st, &after))
        break;
      g_debug ("%s changed while it was read", path);
      st = after;
    }
  if (done < 0)
    {
      int saved_errno = errno;

      *reason = LODE_SKIP_UNREADABLE;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno), "%s",
                   g_strerror (saved_errno));
      close (fd);
      return NULL;
    }
  close (fd);

  if ((guint64) done > max_size)
    {
      limit = g_format_size_full (max_size, G_FORMAT_SIZE_IEC_UNITS | G_FORMAT_SIZE_LONG_FORMAT);
      *reason = LODE_SKIP_TOO_LARGE;
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   "grew past the limit of %s while being read", limit);
      return NULL;
    }

  buf[done] = '\0';
  *length = done;
  if (mtime != NULL)
    *mtime = mtime_usec (&after);
  return g_steal_pointer (&buf);
}
