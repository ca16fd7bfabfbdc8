/* lode.h — everything a front end needs from liblode
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "lode-chunk.h"
#include "lode-chunker.h"
#include "lode-config.h"
#include "lode-engine.h"
#include "lode-error.h"
#include "lode-indexer.h"
#include "lode-language.h"
#include "lode-project.h"
#include "lode-search.h"
#include "lode-store.h"
#include "lode-watcher.h"
