/* lode-ignore.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-ignore"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gio/gio.h>

#include "lode-error.h"
#include "lode-glob.h"
#include "lode-ignore-private.h"

/* Ignore files are a few KiB; anything far larger is not an ignore file worth holding. */
#define MAX_IGNORE_FILE_SIZE (4 * 1024 * 1024)

typedef struct
{
  char  *pattern;          /* without the '!', the leading '/' and the trailing '/' */
  gsize  len;
  gsize  prefix_len;       /* leading bytes without glob characters */
  guint  negated  : 1;
  guint  dir_only : 1;
  guint  anchored : 1;     /* matched against the path below the base, else the base name */
  guint  literal  : 1;     /* no glob characters: a plain comparison */
  guint  suffix   : 1;     /* `*` and a literal: compare the end of the base name */
} Rule;

/* The rules of one directory's ignore files, in file order (.gitignore, then .lodeignore). */
typedef struct
{
  char   *base;            /* directory relative to the root, "" for the root itself */
  gsize   base_len;
  GArray *rules;           /* Rule */
} RuleSet;

struct _LodeIgnore
{
  gatomicrefcount  ref_count;
  GHashTable      *sets;           /* RuleSet (hashed by base) → itself */
  GHashTable      *base_lengths;   /* base_len + 1 of every set: the only ancestor lengths
                                    * worth a lookup, so that a deep path costs no hashing of
                                    * all its prefixes */
  RuleSet         *defaults;       /* below every ignore file, so that any of them can undo it */
  guint            has_defaults : 1;
  guint            has_vendored : 1;
};

/* Lode's built-in rules. Each entry must earn its place: it is either never hand-written source
 * (VCS metadata, dependencies installed by package managers, lock files, generated bundles,
 * compiler output and tool caches) or so large and repetitive that it would drown search
 * results (SVG path data, source maps). Build directories are only the conventional names:
 * `build*` would also hide hand-written directories such as `buildtools/`, and meson build
 * directories need no rule at all because meson writes a `.gitignore` containing `*` into each
 * one. Images, archives and other binaries are left to content sniffing, which reports them
 * instead of dropping them silently. A project re-includes anything here with a `!` rule in its
 * .lodeignore (or .gitignore). */
static const char default_rules[] =
  /* Version control metadata; `.git` is a file in worktrees and submodules. */
  ".git\n.hg\n.svn\n.bzr\n_darcs\n.jj\nCVS/\n"
  /* Installed dependencies. */
  "node_modules/\nbower_components/\n"
  /* Build outputs. */
  "build/\n_build/\ndist/\nout/\ntarget/\nCMakeFiles/\ncmake-build-*/\n"
  ".next/\n.nuxt/\n.svelte-kit/\n.output/\n.parcel-cache/\n.turbo/\n*.egg-info/\n"
  "*.o\n*.obj\n*.a\n*.lib\n*.so\n*.dylib\n*.dll\n*.exe\n*.class\n*.pyc\n*.pyo\n"
  /* Caches, virtual environments, coverage, editor state. */
  "__pycache__/\n.venv/\nvenv/\n.tox/\n.nox/\n.mypy_cache/\n.pytest_cache/\n.ruff_cache/\n"
  ".gradle/\n.cache/\ncoverage/\n.nyc_output/\n.idea/\n.vscode/\n.DS_Store\n"
  /* Lock files: generated, huge, and full of hashes. */
  "package-lock.json\nnpm-shrinkwrap.json\nyarn.lock\npnpm-lock.yaml\nbun.lock\nbun.lockb\n"
  "Cargo.lock\npoetry.lock\nPipfile.lock\nuv.lock\nGemfile.lock\ncomposer.lock\ngo.sum\n"
  /* Minified or generated bundles, source maps, vector image data. */
  "*.min.js\n*.min.css\n*.bundle.js\n*.map\n*.svg\n";

/* Third-party code kept inside the tree: Composer's and Go's `vendor/` (also Bundler's and
 * Rails'), CocoaPods, Carthage, jspm, Bundler's settings and gems, and the conventional
 * folders of copied C/C++ libraries. Someone else's code drowns search results and the
 * graph in matches the project did not write; `"includeVendored": true` in `.lode.json`
 * leaves these rules out (see lode_ignore_add_vendored()). */
static const char vendored_rules[] =
  "vendor/\nPods/\nCarthage/\njspm_packages/\n.bundle/\nthird_party/\nthird-party/\n"
  "3rdparty/\n";

static guint
rule_set_hash (gconstpointer key)
{
  const RuleSet *set = key;
  guint h = 5381;

  for (gsize i = 0; i < set->base_len; i++)
    h = h * 33 + (guchar) set->base[i];

  return h;
}

static gboolean
rule_set_equal (gconstpointer a,
                gconstpointer b)
{
  const RuleSet *sa = a;
  const RuleSet *sb = b;

  return sa->base_len == sb->base_len && memcmp (sa->base, sb->base, sa->base_len) == 0;
}

static void
rule_clear (gpointer data)
{
  Rule *rule = data;

  g_clear_pointer (&rule->pattern, g_free);
}

static RuleSet *
rule_set_new (const char *base,
              gsize       base_len)
{
  RuleSet *set = g_new0 (RuleSet, 1);

  set->base = g_strndup (base, base_len);
  set->base_len = base_len;
  set->rules = g_array_new (FALSE, FALSE, sizeof (Rule));
  g_array_set_clear_func (set->rules, rule_clear);

  return set;
}

static void
rule_set_free (gpointer data)
{
  RuleSet *set = data;

  g_clear_pointer (&set->rules, g_array_unref);
  g_clear_pointer (&set->base, g_free);
  g_free (set);
}

/**
 * lode_ignore_new:
 *
 * Creates an empty rule set: nothing is ignored until rules are added.
 *
 * Returns: (transfer full): a new #LodeIgnore
 */
LodeIgnore *
lode_ignore_new (void)
{
  LodeIgnore *self = g_new0 (LodeIgnore, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->sets = g_hash_table_new_full (rule_set_hash, rule_set_equal, NULL, rule_set_free);
  self->base_lengths = g_hash_table_new (NULL, NULL);
  self->defaults = rule_set_new ("", 0);

  return self;
}

/**
 * lode_ignore_ref:
 * @self: a #LodeIgnore
 *
 * Returns: (transfer full): @self
 */
LodeIgnore *
lode_ignore_ref (LodeIgnore *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

/**
 * lode_ignore_unref:
 * @self: (transfer full): a #LodeIgnore
 */
void
lode_ignore_unref (LodeIgnore *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;

  g_clear_pointer (&self->sets, g_hash_table_unref);
  g_clear_pointer (&self->base_lengths, g_hash_table_unref);
  g_clear_pointer (&self->defaults, rule_set_free);
  g_free (self);
}

/* Length of @line once trailing spaces are dropped; a space quoted with '\' stays. */
static gsize
trimmed_length (const char *line,
                gsize       len)
{
  gsize keep = 0;

  for (gsize i = 0; i < len; i++)
    {
      if (line[i] == '\\' && i + 1 < len)
        {
          i++;
          keep = i + 1;
        }
      else if (line[i] != ' ')
        {
          keep = i + 1;
        }
    }

  return keep;
}

static gsize
literal_prefix_len (const char *s,
                    gsize       len)
{
  for (gsize i = 0; i < len; i++)
    if (s[i] == '*' || s[i] == '?' || s[i] == '[' || s[i] == '\\')
      return i;

  return len;
}

static gboolean
has_glob_chars (const char *s,
                gsize       len)
{
  return literal_prefix_len (s, len) < len;
}

static void
parse_line (RuleSet    *set,
            const char *line,
            gsize       len)
{
  Rule rule = { 0 };

  if (len > 0 && line[len - 1] == '\r')
    len--;
  if (len == 0 || line[0] == '#')
    return;

  len = trimmed_length (line, len);
  if (len > 0 && line[0] == '!')
    {
      rule.negated = TRUE;
      line++;
      len--;
    }
  if (len > 0 && line[len - 1] == '/' && !(len > 1 && line[len - 2] == '\\'))
    {
      rule.dir_only = TRUE;
      len--;
    }
  if (len > 0 && line[0] == '/')
    {
      rule.anchored = TRUE;
      line++;
      len--;
    }
  if (len == 0)
    return;

  if (memchr (line, '/', len) != NULL)
    rule.anchored = TRUE;
  rule.prefix_len = literal_prefix_len (line, len);
  rule.literal = rule.prefix_len == len;
  rule.suffix = !rule.anchored && len > 1 && line[0] == '*' && !has_glob_chars (line + 1, len - 1);
  rule.pattern = g_strndup (line, len);
  rule.len = len;

  g_array_append_val (set->rules, rule);
}

static void
parse_text (RuleSet    *set,
            const char *text,
            gsize       len)
{
  const char *end = text + len;

  /* git skips a UTF-8 byte order mark, which some editors put at the start. */
  if (len >= 3 && memcmp (text, "\xef\xbb\xbf", 3) == 0)
    text += 3;

  while (text < end)
    {
      const char *nl = memchr (text, '\n', end - text);
      const char *line_end = nl != NULL ? nl : end;

      parse_line (set, text, line_end - text);
      text = line_end + 1;
    }
}

/* The set for @base_dir, created on first use. The base is normalised so that "", "." and
 * "./src/" name the same directories as "" and "src". */
static RuleSet *
ensure_set (LodeIgnore *self,
            const char *base_dir)
{
  RuleSet key;
  RuleSet *set;
  gsize len;

  while (g_str_has_prefix (base_dir, "./"))
    base_dir += 2;
  if (strcmp (base_dir, ".") == 0)
    base_dir = "";
  while (*base_dir == '/')
    base_dir++;
  len = strlen (base_dir);
  while (len > 0 && base_dir[len - 1] == '/')
    len--;

  key.base = (char *) base_dir;
  key.base_len = len;
  set = g_hash_table_lookup (self->sets, &key);
  if (set == NULL)
    {
      set = rule_set_new (base_dir, len);
      g_hash_table_add (self->sets, set);
      g_hash_table_add (self->base_lengths, GSIZE_TO_POINTER (len + 1));
    }

  return set;
}

/**
 * lode_ignore_add_vendored:
 * @self: a #LodeIgnore
 *
 * Adds the built-in rules for third-party code kept in the tree: `vendor/` (Composer, Go,
 * Bundler), `Pods/`, `Carthage/`, `jspm_packages/`, `.bundle/`, `third_party/`,
 * `third-party/` and `3rdparty/`. Like the defaults they rank below every ignore file. The
 * scanner and the watcher add them unless the project's `.lode.json` says
 * `"includeVendored": true`. Adding them twice has no further effect.
 */
void
lode_ignore_add_vendored (LodeIgnore *self)
{
  g_return_if_fail (self != NULL);

  if (self->has_vendored)
    return;

  parse_text (self->defaults, vendored_rules, sizeof vendored_rules - 1);
  self->has_vendored = TRUE;
}

/**
 * lode_ignore_add_defaults:
 * @self: a #LodeIgnore
 *
 * Adds Lode's built-in rules: version control directories, installed dependencies, build
 * outputs, caches, lock files, minified bundles and source maps. They rank below every ignore
 * file, so a `!` rule in any .gitignore or .lodeignore re-includes what they exclude. Adding
 * them twice has no further effect.
 */
void
lode_ignore_add_defaults (LodeIgnore *self)
{
  g_return_if_fail (self != NULL);

  if (self->has_defaults)
    return;

  parse_text (self->defaults, default_rules, sizeof default_rules - 1);
  self->has_defaults = TRUE;
}

/**
 * lode_ignore_add_patterns:
 * @self: a #LodeIgnore
 * @base_dir: the directory the rules come from, relative to the root ("" for the root)
 * @text: rules in .gitignore syntax
 * @len: length of @text, or -1 if it is nul-terminated
 *
 * Adds the rules of an ignore file found in @base_dir. They apply to paths below @base_dir
 * only. Rules of deeper directories take precedence over those of shallower ones whatever the
 * order of the calls, and within one directory later rules win, so add a directory's
 * .gitignore before its .lodeignore.
 */
void
lode_ignore_add_patterns (LodeIgnore *self,
                          const char *base_dir,
                          const char *text,
                          gssize      len)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (base_dir != NULL);
  g_return_if_fail (text != NULL || len == 0);

  if (len < 0)
    len = strlen (text);

  parse_text (ensure_set (self, base_dir), text, len);
}

/* Reads @name (relative to @dir_fd) without blocking on FIFOs or following a final symlink:
 * git refuses symlinked ignore files too. */
gboolean
_lode_ignore_add_file_at (LodeIgnore  *self,
                          const char  *base_dir,
                          int          dir_fd,
                          const char  *name,
                          GError     **error)
{
  g_autofree char *buf = NULL;
  struct stat st;
  gsize done = 0;
  int fd;

  g_assert (self != NULL);
  g_assert (base_dir != NULL);
  g_assert (name != NULL);

  fd = openat (dir_fd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
  if (fd < 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   "Cannot open ignore file %s: %s", name, g_strerror (saved_errno));
      return FALSE;
    }

  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode) || st.st_size > MAX_IGNORE_FILE_SIZE)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                   "Ignore file %s is not a regular file of at most %d bytes",
                   name, MAX_IGNORE_FILE_SIZE);
      close (fd);
      return FALSE;
    }

  buf = g_malloc (st.st_size + 1);
  while (done < (gsize) st.st_size)
    {
      gssize n = read (fd, buf + done, st.st_size - done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved_errno = errno;

          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                       "Cannot read ignore file %s: %s", name, g_strerror (saved_errno));
          close (fd);
          return FALSE;
        }
      if (n == 0)
        break;
      done += n;
    }
  close (fd);

  parse_text (ensure_set (self, base_dir), buf, done);
  return TRUE;
}

/**
 * lode_ignore_add_file:
 * @self: a #LodeIgnore
 * @base_dir: the directory the file belongs to, relative to the root ("" for the root)
 * @filename: the ignore file to read (a .gitignore, a .lodeignore or `.git/info/exclude`)
 * @error: return location for a #GError
 *
 * Reads @filename and adds its rules as lode_ignore_add_patterns() does. Only regular files are
 * read, and a symbolic link as the last component is not followed (as git does for ignore
 * files in the work tree).
 *
 * Returns: %TRUE on success
 */
gboolean
lode_ignore_add_file (LodeIgnore  *self,
                      const char  *base_dir,
                      const char  *filename,
                      GError     **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (base_dir != NULL, FALSE);
  g_return_val_if_fail (filename != NULL, FALSE);
  g_return_val_if_fail (!error || !*error, FALSE);

  return _lode_ignore_add_file_at (self, base_dir, AT_FDCWD, filename, error);
}

static gboolean
rule_matches (const Rule *rule,
              const char *rel,
              gsize       rel_len,
              const char *basename,
              gsize       basename_len,
              gboolean    is_dir)
{
  if (rule->dir_only && !is_dir)
    return FALSE;

  /* Large projects list hundreds of anchored names in their root .gitignore, and every path
   * meets all of them: compare the literal start before running the matcher. Like git, only
   * the rest goes to the matcher, which then sees a component start there: `/b**` + `/x`
   * behaves as `/b` + `**` + `/x`. */
  if (rule->anchored)
    {
      if (rule->literal)
        return rule->len == rel_len && memcmp (rule->pattern, rel, rel_len) == 0;
      if (rel_len < rule->prefix_len || memcmp (rule->pattern, rel, rule->prefix_len) != 0)
        return FALSE;
      return lode_glob_match (rule->pattern + rule->prefix_len, rel + rule->prefix_len,
                              LODE_GLOB_PATHNAME);
    }

  if (rule->literal)
    return rule->len == basename_len && memcmp (rule->pattern, basename, basename_len) == 0;
  if (rule->suffix)
    return basename_len >= rule->len - 1 &&
           memcmp (basename + basename_len - (rule->len - 1), rule->pattern + 1,
                   rule->len - 1) == 0;
  return lode_glob_match (rule->pattern, basename, LODE_GLOB_PATHNAME);
}

/* The last rule of @set matching the path, or NULL. */
static const Rule *
last_match (const RuleSet *set,
            const char    *path,
            gsize          path_len,
            const char    *basename,
            gsize          basename_len,
            gboolean       is_dir)
{
  gsize skip = set->base_len == 0 ? 0 : set->base_len + 1;

  for (guint i = set->rules->len; i > 0; i--)
    {
      const Rule *rule = &g_array_index (set->rules, Rule, i - 1);

      if (rule_matches (rule, path + skip, path_len - skip, basename, basename_len, is_dir))
        return rule;
    }

  return NULL;
}

gboolean
_lode_ignore_match_entry (LodeIgnore *self,
                          const char *path,
                          gsize       dir_len,
                          gboolean    is_dir)
{
  const char *basename = dir_len == 0 ? path : path + dir_len + 1;
  gsize basename_len = strlen (basename);
  gsize path_len = (basename - path) + basename_len;
  gsize n = dir_len;
  const Rule *rule;

  g_assert (self != NULL);
  g_assert (dir_len == 0 || path[dir_len] == '/');

  /* The deepest ignore file speaks first; git's precedence between levels. */
  if (g_hash_table_size (self->sets) > 0)
    {
      for (;;)
        {
          RuleSet key = { (char *) path, n, NULL };
          const RuleSet *set = NULL;

          if (g_hash_table_contains (self->base_lengths, GSIZE_TO_POINTER (n + 1)))
            set = g_hash_table_lookup (self->sets, &key);

          if (set != NULL &&
              (rule = last_match (set, path, path_len, basename, basename_len, is_dir)))
            return !rule->negated;
          if (n == 0)
            break;
          while (n > 0 && path[n - 1] != '/')
            n--;
          if (n > 0)
            n--;
        }
    }

  rule = last_match (self->defaults, path, path_len, basename, basename_len, is_dir);
  return rule != NULL && !rule->negated;
}

/**
 * lode_ignore_is_ignored:
 * @self: a #LodeIgnore
 * @path: a '/'-separated path relative to the root
 * @is_dir: whether @path is a directory
 *
 * Decides whether @path is ignored. As in git, a path below an ignored directory is ignored
 * whatever the rules say about the path itself: git never looks inside an excluded directory,
 * so a `!` rule cannot re-include anything in it. This gives the same answer as a walk that
 * skips ignored directories (which is what #LodeScanner does).
 *
 * Returns: %TRUE if @path is ignored
 */
gboolean
lode_ignore_is_ignored (LodeIgnore *self,
                        const char *path,
                        gboolean    is_dir)
{
  g_autofree char *buf = NULL;
  gsize len;
  gsize dir_len = 0;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  while (g_str_has_prefix (path, "./"))
    path += 2;
  while (*path == '/')
    path++;
  len = strlen (path);
  while (len > 0 && path[len - 1] == '/')
    len--;
  if (len == 0)
    return FALSE;

  buf = g_strndup (path, len);
  for (gsize i = 0; i < len; i++)
    {
      if (buf[i] != '/')
        continue;

      buf[i] = '\0';
      if (_lode_ignore_match_entry (self, buf, dir_len, TRUE))
        return TRUE;
      buf[i] = '/';
      dir_len = i;
    }

  return _lode_ignore_match_entry (self, buf, dir_len, is_dir);
}
