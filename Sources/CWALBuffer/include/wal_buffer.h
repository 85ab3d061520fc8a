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

/* Installs SQLite's default page cache with truncations that can drop nothing skipped
 * (page_cache.c says why). Before SQLite is initialized: parlor_walbuf_register does
 * it first. SQLITE_OK, or SQLite's error (then the default cache is used as it is). */
int parlor_pcache_install(void);

/* For tests: truncations passed on to SQLite's cache, and skipped; pages a balance
 * moved to the temporary page number. */
typedef struct { long long passed; long long skipped; long long tempKeyed; } parlor_pcache_counts;
parlor_pcache_counts parlor_pcache_counters(void);

#endif
