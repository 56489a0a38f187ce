/* SPDX-License-Identifier: MIT */
/* csv_reference.c - plugins/rocprof/csv.c built without its fast path and
 * without reading ahead, as rocprof_csv_read_reference(): every row through
 * the state machine, every read made when it is parsed.  The reader as
 * built must report the same rows (check_rocprof_csv.c and the rocprof_csv
 * fuzz harness compare them). */
#define ROCPROF_CSV_FAST_PATH 0
#define ROCPROF_CSV_READ_AHEAD 0
#define rocprof_csv_read rocprof_csv_read_reference
#define rocprof_csv_missing rocprof_csv_missing_reference
#include "csv.c"
