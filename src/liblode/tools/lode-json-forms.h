/* lode-json-forms.h — the one JSON form of each engine struct
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "lode-engine.h"

G_BEGIN_DECLS

/* Each struct the engine returns has one JSON form (camelCase, as SocratiCode's tools) and
 * its schema here. The tools return these forms; `lode --json` and the app print and show
 * what the tools return, so no other serialisation of them exists. */

#define LODE_REPORT_SCHEMA \
  "{\"type\": \"object\", \"properties\": {" \
  "\"files\": {\"type\": \"integer\", \"minimum\": 0}, " \
  "\"added\": {\"type\": \"integer\", \"minimum\": 0}, " \
  "\"updated\": {\"type\": \"integer\", \"minimum\": 0}, " \
  "\"removed\": {\"type\": \"integer\", \"minimum\": 0}, " \
  "\"unchanged\": {\"type\": \"integer\", \"minimum\": 0}, " \
  "\"chunks\": {\"type\": \"integer\", \"minimum\": 0}, " \
  "\"lines\": {\"type\": \"integer\", \"minimum\": 0}, " \
  "\"bytes\": {\"type\": \"integer\", \"minimum\": 0}, " \
  "\"skipped\": {\"type\": \"integer\", \"minimum\": 0}, " \
  "\"skippedFiles\": {\"type\": \"array\", \"items\": {\"type\": \"object\", \"properties\": {" \
  "\"path\": {\"type\": \"string\"}, \"reason\": {\"type\": \"string\"}, " \
  "\"detail\": {\"type\": \"string\"}}, \"required\": [\"path\", \"reason\"]}}, " \
  "\"resumed\": {\"type\": \"boolean\"}, " \
  "\"incremental\": {\"type\": \"boolean\"}, " \
  "\"rebuilt\": {\"type\": \"boolean\"}, " \
  "\"rebuiltBecause\": {\"type\": \"string\"}, " \
  "\"elapsedSeconds\": {\"type\": \"number\", \"minimum\": 0}, " \
  "\"embedded\": {\"type\": \"integer\", \"minimum\": 0}, " \
  "\"embeddingModel\": {\"type\": \"string\"}, " \
  "\"embeddingNotice\": {\"type\": \"string\"}, " \
  "\"branch\": {\"type\": \"string\"}, " \
  "\"branchSeededFrom\": {\"type\": \"string\"}}, " \
  "\"required\": [\"files\", \"added\", \"updated\", \"removed\", \"unchanged\", " \
  "\"chunks\", \"skipped\", \"skippedFiles\", \"resumed\", \"incremental\", \"rebuilt\", " \
  "\"elapsedSeconds\", \"embedded\"]}"

#define LODE_JOB_SCHEMA \
  "{\"type\": \"object\", \"properties\": {" \
  "\"kind\": {\"type\": \"string\", \"enum\": [\"changes\", \"update\", \"rebuild\"]}, " \
  "\"state\": {\"type\": \"string\", \"enum\": [\"running\", \"succeeded\", \"failed\", " \
  "\"cancelled\"]}, " \
  "\"phase\": {\"type\": \"string\", \"enum\": [\"scanning\", \"indexing\", \"finishing\", " \
  "\"embedding\", \"waiting\"]}, " \
  "\"done\": {\"type\": \"integer\", \"minimum\": 0}, " \
  "\"total\": {\"type\": \"integer\", \"minimum\": 0}, " \
  "\"startedAt\": {\"type\": \"string\"}, " \
  "\"finishedAt\": {\"type\": \"string\"}, " \
  "\"error\": {\"type\": \"string\"}, " \
  "\"report\": " LODE_REPORT_SCHEMA "}, " \
  "\"required\": [\"kind\", \"state\", \"phase\", \"done\", \"total\"]}"

#define LODE_PROJECT_PROPERTIES \
  "\"projectPath\": {\"type\": \"string\"}, \"projectId\": {\"type\": \"string\"}"

#define LODE_INDEX_STATES \
  "[\"not indexed\", \"incomplete\", \"ready\", \"damaged\"]"

#define LODE_STATUS_SCHEMA \
  "{\"type\": \"object\", \"properties\": {" LODE_PROJECT_PROPERTIES ", " \
  "\"indexed\": {\"type\": \"boolean\"}, " \
  "\"state\": {\"type\": \"string\", \"enum\": " LODE_INDEX_STATES "}, " \
  "\"damage\": {\"type\": \"string\"}, " \
  "\"store\": {\"type\": \"string\", \"enum\": [\"sqlite\", \"qdrant\"]}, " \
  "\"indexing\": {\"type\": \"boolean\"}, " \
  "\"indexingProcess\": {\"type\": \"integer\", \"minimum\": 0}, " \
  "\"files\": {\"type\": \"integer\", \"minimum\": 0}, " \
  "\"chunks\": {\"type\": \"integer\", \"minimum\": 0}, " \
  "\"symbols\": {\"type\": \"integer\", \"minimum\": 0}, " \
  "\"lines\": {\"type\": \"integer\", \"minimum\": 0}, " \
  "\"bytes\": {\"type\": \"integer\", \"minimum\": 0}, " \
  "\"databaseBytes\": {\"type\": \"integer\", \"minimum\": 0}, " \
  "\"indexedAt\": {\"type\": \"string\"}, " \
  "\"branch\": {\"type\": \"string\"}, " \
  "\"branchFallback\": {\"type\": \"string\"}, " \
  "\"semantic\": {\"type\": \"object\", \"properties\": {" \
  "\"available\": {\"type\": \"boolean\"}, \"model\": {\"type\": \"string\"}, " \
  "\"embeddedChunks\": {\"type\": \"integer\", \"minimum\": 0}, " \
  "\"embeddableChunks\": {\"type\": \"integer\", \"minimum\": 0}, " \
  "\"notice\": {\"type\": \"string\"}}, " \
  "\"required\": [\"available\", \"embeddedChunks\", \"embeddableChunks\"]}, " \
  "\"languages\": {\"type\": \"array\", \"items\": {\"type\": \"object\", \"properties\": {" \
  "\"language\": {\"type\": \"string\"}, \"files\": {\"type\": \"integer\", \"minimum\": 0}}, " \
  "\"required\": [\"language\", \"files\"]}}, " \
  "\"watch\": " LODE_WATCH_SCHEMA ", " \
  "\"job\": " LODE_JOB_SCHEMA "}, " \
  "\"required\": [\"projectPath\", \"projectId\", \"indexed\", \"state\", \"indexing\", " \
  "\"files\", \"chunks\", \"symbols\", \"lines\", \"bytes\", \"databaseBytes\", " \
  "\"semantic\", \"languages\", \"watch\"]}"

#define LODE_WATCH_SCHEMA \
  "{\"type\": \"object\", \"properties\": {" \
  "\"watching\": {\"type\": \"boolean\"}, " \
  "\"polling\": {\"type\": \"boolean\"}, " \
  "\"directories\": {\"type\": \"integer\", \"minimum\": 0}, " \
  "\"status\": {\"type\": \"string\"}}, " \
  "\"required\": [\"watching\", \"polling\", \"directories\"]}"

#define LODE_PROJECT_INFO_SCHEMA \
  "{\"type\": \"object\", \"properties\": {" LODE_PROJECT_PROPERTIES ", " \
  "\"exists\": {\"type\": \"boolean\"}, " \
  "\"indexing\": {\"type\": \"boolean\"}, " \
  "\"watching\": {\"type\": \"boolean\"}, " \
  "\"state\": {\"type\": \"string\", \"enum\": " LODE_INDEX_STATES "}, " \
  "\"files\": {\"type\": \"integer\", \"minimum\": 0}, " \
  "\"chunks\": {\"type\": \"integer\", \"minimum\": 0}}, " \
  "\"required\": [\"projectPath\", \"projectId\", \"exists\", \"indexing\", \"watching\"]}"

JsonNode *lode_index_report_to_json    (const LodeIndexReport   *report);
JsonNode *lode_job_info_to_json        (const LodeJobInfo       *job);
JsonNode *lode_project_status_to_json  (const LodeProjectStatus *status);
JsonNode *lode_project_info_to_json    (const LodeProjectInfo   *info,
                                        const LodeProjectStatus *status);

void      lode_job_json_append_markdown    (GString    *text,
                                            JsonObject *job);
void      lode_status_json_append_markdown (GString    *text,
                                            JsonObject *status);

G_END_DECLS
