/* lode.h — everything a front end needs from liblode
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "lode-builtin-embedder.h"
#include "lode-chunk.h"
#include "lode-chunker.h"
#include "lode-config.h"
#include "lode-embedder.h"
#include "lode-engine.h"
#include "lode-error.h"
#include "lode-import-resolver.h"
#include "lode-imports.h"
#include "lode-indexer.h"
#include "lode-json.h"
#include "lode-json-forms.h"
#include "lode-json-schema.h"
#include "lode-language.h"
#include "lode-locale.h"
#include "lode-project.h"
#include "lode-scanner.h"
#include "lode-search.h"
#include "lode-searcher.h"
#include "lode-tool-registry.h"
#include "lode-tools.h"
#include "lode-watcher.h"
