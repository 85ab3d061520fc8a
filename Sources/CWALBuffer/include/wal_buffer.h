#ifndef PARLOR_WAL_BUFFER_H
#define PARLOR_WAL_BUFFER_H

#include <sqlite3.h>

/* Makes "parlor-walbuf" SQLite's default VFS: the default one, with the frames of one
 * WAL commit written in one system call instead of two per page. Once per process,
 * before the first database is opened; SQLITE_OK, or SQLite's error (then nothing
 * changed and the default VFS is used as it is). */
int parlor_walbuf_register(void);

/* For tests: the writes SQLite asked of the open WAL files at this path (its full
 * path, as SQLite names it), and the writes made to them. Read while nothing writes. */
typedef struct { long long asked; long long made; } parlor_walbuf_counts;
parlor_walbuf_counts parlor_walbuf_counters(const char *walPath);

#endif
