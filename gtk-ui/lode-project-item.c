/* lode-project-item.c — one indexed tree, as the Projects page shows it
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-gtk"

#include "config.h"

#include <glib/gi18n.h>

#include "lode-project-item.h"

struct _LodeProjectItem
{
  GObject  parent_instance;
  char    *root;
  char    *name;
  char    *summary;
  double   fraction;
  guint    indexing : 1;
  guint    watched : 1;
};

G_DEFINE_FINAL_TYPE (LodeProjectItem, lode_project_item, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_ROOT,
  PROP_NAME,
  PROP_INDEXING,
  PROP_WATCHED,
  PROP_FRACTION,
  PROP_SUMMARY,
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

gboolean
lode_project_item_get_indexing (LodeProjectItem *self)
{
  g_return_val_if_fail (LODE_IS_PROJECT_ITEM (self), FALSE);

  return self->indexing;
}

static void
set_summary (LodeProjectItem *self,
             char            *summary)
{
  if (g_strcmp0 (self->summary, summary) == 0)
    {
      g_free (summary);
      return;
    }

  g_free (self->summary);
  self->summary = summary;
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

void
lode_project_item_set_indexing (LodeProjectItem *self,
                                gboolean         indexing)
{
  g_return_if_fail (LODE_IS_PROJECT_ITEM (self));

  indexing = !!indexing;
  if (self->indexing == indexing)
    return;

  self->indexing = indexing;
  if (indexing)
    {
      set_fraction (self, 0.0);
      set_summary (self, g_strdup (_("Waiting to start…")));
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_INDEXING]);
}

gboolean
lode_project_item_get_watched (LodeProjectItem *self)
{
  g_return_val_if_fail (LODE_IS_PROJECT_ITEM (self), FALSE);

  return self->watched;
}

void
lode_project_item_set_watched (LodeProjectItem *self,
                               gboolean         watched)
{
  g_return_if_fail (LODE_IS_PROJECT_ITEM (self));

  watched = !!watched;
  if (self->watched == watched)
    return;

  self->watched = watched;
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_WATCHED]);
}

double
lode_project_item_get_fraction (LodeProjectItem *self)
{
  g_return_val_if_fail (LODE_IS_PROJECT_ITEM (self), 0.0);

  return self->fraction;
}

/**
 * lode_project_item_set_progress:
 * @self: a #LodeProjectItem
 * @phase: the daemon's phase: "scanning", "indexing" or "finishing"
 * @done: units done
 * @total: units in all, 0 while unknown
 *
 * What a Progress signal of the daemon says about this tree.
 */
void
lode_project_item_set_progress (LodeProjectItem *self,
                                const char      *phase,
                                guint            done,
                                guint            total)
{
  g_return_if_fail (LODE_IS_PROJECT_ITEM (self));
  g_return_if_fail (phase != NULL);

  lode_project_item_set_indexing (self, TRUE);
  set_fraction (self, total > 0 ? MIN (1.0, (double) done / total) : 0.0);

  if (g_str_equal (phase, "scanning"))
    set_summary (self, g_strdup_printf (ngettext ("Looking for files: %u found",
                                                  "Looking for files: %u found", done),
                                        done));
  else if (g_str_equal (phase, "finishing"))
    set_summary (self, g_strdup (_("Finishing…")));
  else
    set_summary (self, g_strdup_printf (ngettext ("Indexing: %u of %u file",
                                                  "Indexing: %u of %u files", total),
                                        done, total));
}

/* The daemon said the index changed: the run is over (or watched changes were stored). */
void
lode_project_item_set_finished (LodeProjectItem *self)
{
  g_return_if_fail (LODE_IS_PROJECT_ITEM (self));

  set_fraction (self, 1.0);
  lode_project_item_set_indexing (self, FALSE);
  set_summary (self, g_strdup (_("Up to date")));
}

const char *
lode_project_item_get_summary (LodeProjectItem *self)
{
  g_return_val_if_fail (LODE_IS_PROJECT_ITEM (self), NULL);

  return self->summary;
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
      break;

    case PROP_INDEXING:
      lode_project_item_set_indexing (self, g_value_get_boolean (value));
      break;

    case PROP_WATCHED:
      lode_project_item_set_watched (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
lode_project_item_finalize (GObject *object)
{
  LodeProjectItem *self = (LodeProjectItem *)object;

  g_clear_pointer (&self->root, g_free);
  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->summary, g_free);

  G_OBJECT_CLASS (lode_project_item_parent_class)->finalize (object);
}

static void
lode_project_item_class_init (LodeProjectItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = lode_project_item_get_property;
  object_class->set_property = lode_project_item_set_property;
  object_class->finalize = lode_project_item_finalize;

  properties [PROP_ROOT] =
    g_param_spec_string ("root", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  properties [PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties [PROP_INDEXING] =
    g_param_spec_boolean ("indexing", NULL, NULL, FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties [PROP_WATCHED] =
    g_param_spec_boolean ("watched", NULL, NULL, FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties [PROP_FRACTION] =
    g_param_spec_double ("fraction", NULL, NULL, 0.0, 1.0, 0.0,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties [PROP_SUMMARY] =
    g_param_spec_string ("summary", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
lode_project_item_init (LodeProjectItem *self)
{
}
