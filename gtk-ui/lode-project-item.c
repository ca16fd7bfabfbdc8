/* lode-project-item.c — one indexed tree, as the Projects page shows it
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-gtk"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "lode-format.h"
#include "lode-project-item.h"

/*
 * What codebase_list_projects and codebase_status say about a tree (their JSON forms are in
 * lode-json-forms.h), and what the client's index-progress signal says while it is indexed.
 * The summary is the line the row shows under the folder's name.
 */

struct _LodeProjectItem
{
  GObject    parent_instance;
  char      *root;
  char      *name;
  char      *display_name; /* the name, with its parent when another project has it too */
  char      *location;     /* the root, ~ for the home folder */
  char      *state;        /* "not indexed", "incomplete", "ready" or "damaged" */
  char      *problem;      /* (nullable): damage, or the last job's error */
  char      *status_error; /* (nullable): why the last status could not be read */
  char      *summary;
  char      *progress;     /* (nullable): the progress line while indexing */
  GDateTime *indexed_at;   /* (nullable) */
  double     fraction;
  guint      files;
  guint      chunks;
  guint      vectors;
  guint64    bytes;
  guint64    index_bytes;
  guint      exists : 1;
  guint      indexing : 1;
  guint      elsewhere : 1; /* indexing is another process's (`lode index`, another daemon) */
  guint      watched : 1;
  guint      semantic : 1; /* semantic search answers for the tree */
};

G_DEFINE_FINAL_TYPE (LodeProjectItem, lode_project_item, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_ROOT,
  PROP_NAME,
  PROP_DISPLAY_NAME,
  PROP_LOCATION,
  PROP_STATE,
  PROP_INDEXING,
  PROP_WATCHED,
  PROP_FRACTION,
  PROP_SUMMARY,
  PROP_FILES,
  PROP_CHUNKS,
  PROP_VECTORS,
  N_PROPS
};
static GParamSpec *properties [N_PROPS];

LodeProjectItem *
lode_project_item_new (const char *root)
{
  g_return_val_if_fail (root != NULL, NULL);

  return g_object_new (LODE_TYPE_PROJECT_ITEM, "root", root, NULL);
}

const char *
lode_project_item_get_root (LodeProjectItem *self)
{
  g_return_val_if_fail (LODE_IS_PROJECT_ITEM (self), NULL);

  return self->root;
}

const char *
lode_project_item_get_state (LodeProjectItem *self)
{
  g_return_val_if_fail (LODE_IS_PROJECT_ITEM (self), NULL);

  return self->state;
}

gboolean
lode_project_item_get_indexing (LodeProjectItem *self)
{
  g_return_val_if_fail (LODE_IS_PROJECT_ITEM (self), FALSE);

  return self->indexing;
}

gboolean
lode_project_item_get_watched (LodeProjectItem *self)
{
  g_return_val_if_fail (LODE_IS_PROJECT_ITEM (self), FALSE);

  return self->watched;
}

double
lode_project_item_get_fraction (LodeProjectItem *self)
{
  g_return_val_if_fail (LODE_IS_PROJECT_ITEM (self), 0.0);

  return self->fraction;
}

const char *
lode_project_item_get_summary (LodeProjectItem *self)
{
  g_return_val_if_fail (LODE_IS_PROJECT_ITEM (self), NULL);

  return self->summary;
}

/* "today at 14:03", or the date for an older index. */
static char *
format_when (GDateTime *when)
{
  g_autoptr(GDateTime) local = g_date_time_to_local (when);
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();

  if (g_date_time_get_year (local) == g_date_time_get_year (now) &&
      g_date_time_get_day_of_year (local) == g_date_time_get_day_of_year (now))
    {
      g_autofree char *time = g_date_time_format (local, "%R");

      /* Translators: when a folder was indexed; %s is a time such as 14:03. */
      return g_strdup_printf (_("indexed today at %s"), time);
    }
  else
    {
      g_autofree char *date = g_date_time_format (local, "%x");

      /* Translators: when a folder was indexed; %s is a date. */
      return g_strdup_printf (_("indexed on %s"), date);
    }
}

static char *
build_summary (LodeProjectItem *self)
{
  g_autoptr(GString) text = NULL;
  g_autofree char *size = NULL;
  g_autofree char *index_size = NULL;
  g_autofree char *files = NULL;
  g_autofree char *chunks = NULL;

  if (!self->exists)
    return g_strdup (_("The folder no longer exists"));
  if (self->indexing)
    {
      if (self->progress != NULL)
        return g_strdup (self->progress);
      if (self->elsewhere)
        /* Translators: a process other than Lode's service indexes the folder, such as a
         * `lode index` run in a terminal. */
        return g_strdup (_("Being indexed by another program…"));
      return g_strdup (_("Waiting to start…"));
    }
  if (self->status_error != NULL)
    /* Translators: %s says why Lode's service could not tell how the folder's index is. */
    return g_strdup_printf (_("Status unavailable: %s"), self->status_error);
  if (g_strcmp0 (self->state, "damaged") == 0)
    /* Translators: %s says what is wrong with the index and how to repair it. */
    return g_strdup_printf (_("Damaged: %s"), self->problem != NULL ? self->problem : "");
  if (self->problem != NULL)
    /* Translators: %s is the error of the last indexing run. */
    return g_strdup_printf (_("Indexing failed: %s"), self->problem);
  if (self->state == NULL || g_str_equal (self->state, "not indexed"))
    return g_strdup (_("Not indexed yet"));

  text = g_string_new (g_str_equal (self->state, "ready") ? _("Ready")
                                                          : _("Incomplete: index it again"));
  size = g_format_size (self->bytes);
  index_size = g_format_size (self->index_bytes);
  files = lode_format_count (self->files);
  chunks = lode_format_count (self->chunks);
  g_string_append (text, " · ");
  /* Translators: a number of files (such as 1,234), and their size such as 1.2 MB. */
  g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "%s file (%s)", "%s files (%s)",
                                             self->files), files, size);
  g_string_append (text, " · ");
  /* Translators: a number such as 10,795. */
  g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "%s chunk", "%s chunks",
                                             self->chunks), chunks);
  /* Vectors only where semantic search runs or ran: otherwise "0 vectors" says nothing. */
  if (self->semantic || self->vectors > 0)
    {
      g_autofree char *vectors = lode_format_count (self->vectors);

      g_string_append (text, " · ");
      /* Translators: chunks that semantic search can find (embedded as vectors); a number
       * such as 10,795. */
      g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "%s vector", "%s vectors",
                                                 self->vectors), vectors);
    }
  g_string_append (text, " · ");
  /* Translators: %s is the size of the index on disk, such as 1.2 MB. */
  g_string_append_printf (text, _("index %s"), index_size);
  if (self->indexed_at != NULL)
    {
      g_autofree char *when = format_when (self->indexed_at);

      g_string_append_printf (text, " · %s", when);
    }

  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* Recomputes the summary and notifies what changed; every setter ends here. The public ones
 * hold the notifications back until all of it is set: a listener that reads the item when
 * its state changes must not see the indexing flag, or the summary, from before (the Graph
 * page would ask for lists it cancels at once, or clear the ones it shows). */
static void
changed (LodeProjectItem *self)
{
  g_autofree char *summary = build_summary (self);

  if (g_strcmp0 (summary, self->summary) == 0)
    return;

  g_free (self->summary);
  self->summary = g_steal_pointer (&summary);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_SUMMARY]);
}

static void
set_fraction (LodeProjectItem *self,
              double           fraction)
{
  if (self->fraction == fraction)
    return;

  self->fraction = fraction;
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_FRACTION]);
}

static void
set_string (LodeProjectItem  *self,
            char            **field,
            const char       *value,
            GParamSpec       *pspec)
{
  if (g_strcmp0 (*field, value) == 0)
    return;

  g_free (*field);
  *field = g_strdup (value);
  if (pspec != NULL)
    g_object_notify_by_pspec (G_OBJECT (self), pspec);
}

static void
set_count (LodeProjectItem *self,
           guint           *field,
           gint64           value,
           GParamSpec      *pspec)
{
  guint count = CLAMP (value, 0, G_MAXUINT);

  if (*field == count)
    return;

  *field = count;
  if (pspec != NULL)
    g_object_notify_by_pspec (G_OBJECT (self), pspec);
}

static void
set_watched (LodeProjectItem *self,
             gboolean         watched)
{
  watched = !!watched;
  if (self->watched == watched)
    return;

  self->watched = watched;
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_WATCHED]);
}

static void
set_indexing (LodeProjectItem *self,
              gboolean         indexing)
{
  indexing = !!indexing;
  if (self->indexing == indexing)
    return;

  self->indexing = indexing;
  if (indexing)
    {
      set_fraction (self, 0.0);
      g_clear_pointer (&self->progress, g_free);
      g_clear_pointer (&self->problem, g_free);
      g_clear_pointer (&self->status_error, g_free);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_INDEXING]);
}

/**
 * lode_project_item_set_indexing:
 * @self: a #LodeProjectItem
 * @indexing: whether a job runs for the tree
 *
 * What the app knows before the daemon says more: a job was asked for, or failed to start.
 */
void
lode_project_item_set_indexing (LodeProjectItem *self,
                                gboolean         indexing)
{
  g_return_if_fail (LODE_IS_PROJECT_ITEM (self));

  g_object_freeze_notify (G_OBJECT (self));
  set_indexing (self, indexing);
  changed (self);
  g_object_thaw_notify (G_OBJECT (self));
}

/**
 * lode_project_item_set_progress:
 * @self: a #LodeProjectItem
 * @phase: the engine's phase: "scanning", "indexing", "finishing", "embedding" or "waiting"
 * @done: units done
 * @total: units in all, 0 while unknown
 *
 * What the client's index-progress signal says about this tree.
 */
void
lode_project_item_set_progress (LodeProjectItem *self,
                                const char      *phase,
                                guint            done,
                                guint            total)
{
  g_autofree char *progress = NULL;

  g_return_if_fail (LODE_IS_PROJECT_ITEM (self));
  g_return_if_fail (phase != NULL);

  g_object_freeze_notify (G_OBJECT (self));
  set_indexing (self, TRUE);
  set_fraction (self, total > 0 ? MIN (1.0, (double) done / total) : 0.0);

  if (g_str_equal (phase, "scanning"))
    progress = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Looking for files: %u found",
                                             "Looking for files: %u found", done), done);
  else if (g_str_equal (phase, "finishing"))
    progress = g_strdup (_("Finishing…"));
  else if (g_str_equal (phase, "embedding"))
    progress = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Embedding: %u of %u chunk",
                                             "Embedding: %u of %u chunks", total), done, total);
  else if (g_str_equal (phase, "waiting"))
    progress = g_strdup (_("Waiting for another job to end…"));
  else
    progress = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Indexing: %u of %u file",
                                             "Indexing: %u of %u files", total), done, total);

  g_free (self->progress);
  self->progress = g_steal_pointer (&progress);
  changed (self);
  g_object_thaw_notify (G_OBJECT (self));
}

/**
 * lode_project_item_update_info:
 * @self: a #LodeProjectItem
 * @info: the tree's entry in codebase_list_projects' result
 */
void
lode_project_item_update_info (LodeProjectItem *self,
                               JsonObject      *info)
{
  g_return_if_fail (LODE_IS_PROJECT_ITEM (self));
  g_return_if_fail (info != NULL);

  g_object_freeze_notify (G_OBJECT (self));
  self->exists = json_object_get_boolean_member_with_default (info, "exists", TRUE);
  set_watched (self, json_object_get_boolean_member_with_default (info, "watching", FALSE));
  set_string (self, &self->state, json_object_get_string_member_with_default (info, "state",
                                                                              NULL),
              properties [PROP_STATE]);
  set_count (self, &self->files, json_object_get_int_member_with_default (info, "files", 0),
             properties [PROP_FILES]);
  set_count (self, &self->chunks, json_object_get_int_member_with_default (info, "chunks", 0),
             properties [PROP_CHUNKS]);
  if (json_object_get_boolean_member_with_default (info, "indexing", FALSE))
    set_indexing (self, TRUE);
  changed (self);
  g_object_thaw_notify (G_OBJECT (self));
}

/**
 * lode_project_item_update_status:
 * @self: a #LodeProjectItem
 * @status: codebase_status' result for the tree
 *
 * Takes everything the status says; a job that is no longer running ends the progress.
 */
void
lode_project_item_update_status (LodeProjectItem *self,
                                 JsonObject      *status)
{
  JsonObject *semantic;
  JsonObject *watch;
  JsonObject *job;
  const char *indexed_at;
  const char *problem;
  gboolean indexing;

  g_return_if_fail (LODE_IS_PROJECT_ITEM (self));
  g_return_if_fail (status != NULL);

  semantic = json_object_get_object_member (status, "semantic");
  watch = json_object_get_object_member (status, "watch");
  job = json_object_has_member (status, "job")
        ? json_object_get_object_member (status, "job") : NULL;
  indexing = json_object_get_boolean_member_with_default (status, "indexing", FALSE);

  g_object_freeze_notify (G_OBJECT (self));
  self->exists = TRUE;
  g_clear_pointer (&self->status_error, g_free);
  set_string (self, &self->state, json_object_get_string_member (status, "state"),
              properties [PROP_STATE]);
  set_count (self, &self->files, json_object_get_int_member (status, "files"),
             properties [PROP_FILES]);
  set_count (self, &self->chunks, json_object_get_int_member (status, "chunks"),
             properties [PROP_CHUNKS]);
  set_count (self, &self->vectors,
             semantic != NULL
             ? json_object_get_int_member_with_default (semantic, "embeddedChunks", 0) : 0,
             properties [PROP_VECTORS]);
  self->semantic = semantic != NULL &&
                   json_object_get_boolean_member_with_default (semantic, "available", FALSE);
  self->bytes = MAX (json_object_get_int_member (status, "bytes"), 0);
  self->index_bytes = MAX (json_object_get_int_member (status, "databaseBytes"), 0);
  if (watch != NULL)
    set_watched (self, json_object_get_boolean_member_with_default (watch, "watching", FALSE));

  indexed_at = json_object_get_string_member_with_default (status, "indexedAt", NULL);
  g_clear_pointer (&self->indexed_at, g_date_time_unref);
  if (indexed_at != NULL)
    self->indexed_at = g_date_time_new_from_iso8601 (indexed_at, NULL);

  set_indexing (self, indexing);
  self->elsewhere = json_object_has_member (status, "indexingProcess");
  if (!indexing)
    {
      problem = json_object_get_string_member_with_default (status, "damage", NULL);
      if (problem == NULL && job != NULL &&
          g_strcmp0 (json_object_get_string_member (job, "state"), "failed") == 0)
        problem = json_object_get_string_member_with_default (job, "error", NULL);
      set_string (self, &self->problem, problem, NULL);
      set_fraction (self, g_strcmp0 (self->state, "ready") == 0 ? 1.0 : 0.0);
    }

  changed (self);
  g_object_thaw_notify (G_OBJECT (self));
}

/**
 * lode_project_item_set_status_error:
 * @self: a #LodeProjectItem
 * @message: why codebase_status failed for the tree
 *
 * What the row says when the tree's status cannot be read: no job is shown running any more
 * (the one that ran may have ended, and nothing would end its progress), and the summary
 * says why. The next status, or the next job, replaces it.
 */
void
lode_project_item_set_status_error (LodeProjectItem *self,
                                    const char      *message)
{
  g_return_if_fail (LODE_IS_PROJECT_ITEM (self));
  g_return_if_fail (message != NULL);

  g_object_freeze_notify (G_OBJECT (self));
  set_indexing (self, FALSE);
  set_string (self, &self->status_error, message, NULL);
  changed (self);
  g_object_thaw_notify (G_OBJECT (self));
}

/* The root as people read it: ~ for the home folder. */
static char *
dup_location (const char *root)
{
  const char *home = g_get_home_dir ();
  gsize n = strlen (home);

  if (n > 1 && strncmp (root, home, n) == 0 && (root[n] == '/' || root[n] == '\0'))
    return g_strconcat ("~", root + n, NULL);
  return g_strdup (root);
}

const char *
lode_project_item_get_display_name (LodeProjectItem *self)
{
  g_return_val_if_fail (LODE_IS_PROJECT_ITEM (self), NULL);

  return self->display_name;
}

const char *
lode_project_item_get_location (LodeProjectItem *self)
{
  g_return_val_if_fail (LODE_IS_PROJECT_ITEM (self), NULL);

  return self->location;
}

/**
 * lode_project_item_set_display_name:
 * @self: a #LodeProjectItem
 * @unique: whether no other project has the same name
 *
 * The name drop-downs and rows show: the folder's name, or, when two projects have the
 * same, with the folder it is in ("a/src", "b/src").
 */
void
lode_project_item_set_display_name (LodeProjectItem *self,
                                    gboolean         unique)
{
  g_autofree char *parent = NULL;
  g_autofree char *name = NULL;

  g_return_if_fail (LODE_IS_PROJECT_ITEM (self));

  if (unique)
    name = g_strdup (self->name);
  else
    {
      g_autofree char *dir = g_path_get_dirname (self->root);

      parent = g_path_get_basename (dir);
      name = g_build_filename (parent, self->name, NULL);
    }

  if (g_strcmp0 (name, self->display_name) == 0)
    return;
  g_free (self->display_name);
  self->display_name = g_steal_pointer (&name);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_DISPLAY_NAME]);
}

/**
 * lode_project_item_get_name:
 * @self: a #LodeProjectItem
 *
 * Returns: the folder's name
 */
const char *
lode_project_item_get_name (LodeProjectItem *self)
{
  g_return_val_if_fail (LODE_IS_PROJECT_ITEM (self), NULL);

  return self->name;
}

static void
lode_project_item_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  LodeProjectItem *self = LODE_PROJECT_ITEM (object);

  switch (prop_id)
    {
    case PROP_ROOT:
      g_value_set_string (value, self->root);
      break;

    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;

    case PROP_DISPLAY_NAME:
      g_value_set_string (value, self->display_name);
      break;

    case PROP_LOCATION:
      g_value_set_string (value, self->location);
      break;

    case PROP_STATE:
      g_value_set_string (value, self->state);
      break;

    case PROP_INDEXING:
      g_value_set_boolean (value, self->indexing);
      break;

    case PROP_WATCHED:
      g_value_set_boolean (value, self->watched);
      break;

    case PROP_FRACTION:
      g_value_set_double (value, self->fraction);
      break;

    case PROP_SUMMARY:
      g_value_set_string (value, self->summary);
      break;

    case PROP_FILES:
      g_value_set_uint (value, self->files);
      break;

    case PROP_CHUNKS:
      g_value_set_uint (value, self->chunks);
      break;

    case PROP_VECTORS:
      g_value_set_uint (value, self->vectors);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
lode_project_item_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  LodeProjectItem *self = LODE_PROJECT_ITEM (object);

  switch (prop_id)
    {
    case PROP_ROOT:
      self->root = g_value_dup_string (value);
      self->name = g_path_get_basename (self->root);
      self->display_name = g_strdup (self->name);
      self->location = dup_location (self->root);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
lode_project_item_constructed (GObject *object)
{
  G_OBJECT_CLASS (lode_project_item_parent_class)->constructed (object);

  changed (LODE_PROJECT_ITEM (object));
}

static void
lode_project_item_finalize (GObject *object)
{
  LodeProjectItem *self = (LodeProjectItem *)object;

  g_clear_pointer (&self->root, g_free);
  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->display_name, g_free);
  g_clear_pointer (&self->location, g_free);
  g_clear_pointer (&self->state, g_free);
  g_clear_pointer (&self->problem, g_free);
  g_clear_pointer (&self->status_error, g_free);
  g_clear_pointer (&self->summary, g_free);
  g_clear_pointer (&self->progress, g_free);
  g_clear_pointer (&self->indexed_at, g_date_time_unref);

  G_OBJECT_CLASS (lode_project_item_parent_class)->finalize (object);
}

static void
lode_project_item_class_init (LodeProjectItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = lode_project_item_get_property;
  object_class->set_property = lode_project_item_set_property;
  object_class->constructed = lode_project_item_constructed;
  object_class->finalize = lode_project_item_finalize;

  properties [PROP_ROOT] =
    g_param_spec_string ("root", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  properties [PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties [PROP_DISPLAY_NAME] =
    g_param_spec_string ("display-name", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties [PROP_LOCATION] =
    g_param_spec_string ("location", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties [PROP_STATE] =
    g_param_spec_string ("state", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties [PROP_INDEXING] =
    g_param_spec_boolean ("indexing", NULL, NULL, FALSE,
                          (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties [PROP_WATCHED] =
    g_param_spec_boolean ("watched", NULL, NULL, FALSE,
                          (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties [PROP_FRACTION] =
    g_param_spec_double ("fraction", NULL, NULL, 0.0, 1.0, 0.0,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties [PROP_SUMMARY] =
    g_param_spec_string ("summary", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties [PROP_FILES] =
    g_param_spec_uint ("files", NULL, NULL, 0, G_MAXUINT, 0,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties [PROP_CHUNKS] =
    g_param_spec_uint ("chunks", NULL, NULL, 0, G_MAXUINT, 0,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties [PROP_VECTORS] =
    g_param_spec_uint ("vectors", NULL, NULL, 0, G_MAXUINT, 0,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
lode_project_item_init (LodeProjectItem *self)
{
  self->exists = TRUE;
}
