/* A VFS shim that coalesces the writes of a WAL commit.
 *
 * SQLite appends each page of a commit to the WAL as two writes, the 24-byte frame
 * header and then the page: a game move that changes a table page and three index
 * pages costs eight pwrite calls, as many system calls as the deliveries it makes.
 * Here the frames of a commit are gathered in memory while SQLite appends them and go
 * to the file in one write when the page of the commit frame (a frame header whose
 * "database size" field is not zero; the WAL file format) has been added, before
 * SQLite returns from writing it: before the commit is published in the WAL index,
 * so a reader on another connection never finds a frame that is not in the file yet,
 * and a failed write fails the commit, as it would have.
 *
 * Anything else done with a WAL file (a read, a sync, a truncation, its size, a write
 * that does not continue the buffered run or does not follow the header/page pattern)
 * first writes what is buffered, then is done as asked, so the file always sees the
 * same writes in the same order, only fewer of them. Other files pass straight through. */

#include "wal_buffer.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define FRAME_HEADER 24
/* The unix VFS writes at most 128 KiB - 1 in one call (and answers SQLITE_FULL to a
 * longer write): a run is written when it would pass this. */
#define BUFFER_CAP (120 * 1024)

typedef struct WBFile {
    sqlite3_file base;
    sqlite3_file *real;
    int isWal;
    int afterHeader;   /* the last buffered write was a frame header */
    int commitHeader;  /* ... of the frame that commits a transaction */
    int len;
    sqlite3_int64 start;
    unsigned char *buf;
    const char *name;
    long long asked, made;      /* writes SQLite asked for, and writes made */
    struct WBFile *nextWal;     /* the open WAL files, for parlor_walbuf_counters */
} WBFile;

static sqlite3_vfs *realVfs;
static sqlite3_vfs wbVfs;
static pthread_mutex_t walsLock = PTHREAD_MUTEX_INITIALIZER;
static WBFile *wals;

#define REAL(pf) (((WBFile *)(pf))->real)
#define ROUND8(n) (((n) + 7) & ~7)

static int wbRealWrite(WBFile *f, const void *data, int n, sqlite3_int64 off) {
    f->made++;
    return f->real->pMethods->xWrite(f->real, data, n, off);
}

static int wbFlush(WBFile *f) {
    f->afterHeader = 0;
    if (f->len == 0) return SQLITE_OK;
    int n = f->len;
    f->len = 0;
    return wbRealWrite(f, f->buf, n, f->start);
}

/* Appends to the run; false if there is no buffer to append to. */
static int wbAppend(WBFile *f, const void *data, int n, sqlite3_int64 off) {
    if (f->buf == NULL && (f->buf = malloc(BUFFER_CAP)) == NULL) return 0;
    if (f->len == 0) f->start = off;
    memcpy(f->buf + f->len, data, (size_t)n);
    f->len += n;
    return 1;
}

static int wbWrite(sqlite3_file *pf, const void *data, int n, sqlite3_int64 off) {
    WBFile *f = (WBFile *)pf;
    if (!f->isWal) return f->real->pMethods->xWrite(f->real, data, n, off);
    f->asked++;
    int continues = f->len > 0 && off == f->start + f->len;
    int rc;
    if (n == FRAME_HEADER || (f->afterHeader && continues)) {
        int isPage = n != FRAME_HEADER;
        if (!continues || f->len + n > BUFFER_CAP) {
            if ((rc = wbFlush(f)) != SQLITE_OK) return rc;
        }
        if (!wbAppend(f, data, n, off)) return wbRealWrite(f, data, n, off);
        if (!isPage) {
            const unsigned char *h = data;
            f->afterHeader = 1;
            f->commitHeader = (h[4] | h[5] | h[6] | h[7]) != 0;
            return SQLITE_OK;
        }
        f->afterHeader = 0;
        return f->commitHeader ? wbFlush(f) : SQLITE_OK;
    }
    if ((rc = wbFlush(f)) != SQLITE_OK) return rc;
    return wbRealWrite(f, data, n, off);
}

/* Every other method: what is buffered first, then the real file's own. */
#define FLUSHED(pf) do { int rc_ = wbFlush((WBFile *)(pf)); if (rc_ != SQLITE_OK) return rc_; } while (0)

static int wbClose(sqlite3_file *pf) {
    WBFile *f = (WBFile *)pf;
    if (f->isWal) {
        pthread_mutex_lock(&walsLock);
        for (WBFile **p = &wals; *p != NULL; p = &(*p)->nextWal) {
            if (*p == f) { *p = f->nextWal; break; }
        }
        pthread_mutex_unlock(&walsLock);
    }
    int rc = wbFlush(f);
    int rc2 = f->real->pMethods->xClose(f->real);
    free(f->buf);
    f->buf = NULL;
    return rc != SQLITE_OK ? rc : rc2;
}
static int wbRead(sqlite3_file *pf, void *data, int n, sqlite3_int64 off) {
    FLUSHED(pf);
    return REAL(pf)->pMethods->xRead(REAL(pf), data, n, off);
}
static int wbTruncate(sqlite3_file *pf, sqlite3_int64 size) {
    FLUSHED(pf);
    return REAL(pf)->pMethods->xTruncate(REAL(pf), size);
}
static int wbSync(sqlite3_file *pf, int flags) {
    FLUSHED(pf);
    return REAL(pf)->pMethods->xSync(REAL(pf), flags);
}
static int wbFileSize(sqlite3_file *pf, sqlite3_int64 *size) {
    FLUSHED(pf);
    return REAL(pf)->pMethods->xFileSize(REAL(pf), size);
}
static int wbLock(sqlite3_file *pf, int level) {
    FLUSHED(pf);
    return REAL(pf)->pMethods->xLock(REAL(pf), level);
}
static int wbUnlock(sqlite3_file *pf, int level) {
    FLUSHED(pf);
    return REAL(pf)->pMethods->xUnlock(REAL(pf), level);
}
static int wbCheckReservedLock(sqlite3_file *pf, int *out) {
    return REAL(pf)->pMethods->xCheckReservedLock(REAL(pf), out);
}
static int wbFileControl(sqlite3_file *pf, int op, void *arg) {
    FLUSHED(pf);
    return REAL(pf)->pMethods->xFileControl(REAL(pf), op, arg);
}
static int wbSectorSize(sqlite3_file *pf) { return REAL(pf)->pMethods->xSectorSize(REAL(pf)); }
static int wbDeviceCharacteristics(sqlite3_file *pf) {
    return REAL(pf)->pMethods->xDeviceCharacteristics(REAL(pf));
}
/* Shared memory (version 2) and memory mapping (version 3), where the real file has them. */
static int wbShmMap(sqlite3_file *pf, int page, int size, int extend, void volatile **out) {
    if (REAL(pf)->pMethods->iVersion < 2) return SQLITE_IOERR;
    return REAL(pf)->pMethods->xShmMap(REAL(pf), page, size, extend, out);
}
static int wbShmLock(sqlite3_file *pf, int offset, int n, int flags) {
    if (REAL(pf)->pMethods->iVersion < 2) return SQLITE_IOERR;
    return REAL(pf)->pMethods->xShmLock(REAL(pf), offset, n, flags);
}
static void wbShmBarrier(sqlite3_file *pf) {
    if (REAL(pf)->pMethods->iVersion >= 2) REAL(pf)->pMethods->xShmBarrier(REAL(pf));
}
static int wbShmUnmap(sqlite3_file *pf, int deleteFlag) {
    if (REAL(pf)->pMethods->iVersion < 2) return SQLITE_OK;
    return REAL(pf)->pMethods->xShmUnmap(REAL(pf), deleteFlag);
}
static int wbFetch(sqlite3_file *pf, sqlite3_int64 off, int n, void **out) {
    FLUSHED(pf);
    if (REAL(pf)->pMethods->iVersion < 3) { *out = NULL; return SQLITE_OK; }
    return REAL(pf)->pMethods->xFetch(REAL(pf), off, n, out);
}
static int wbUnfetch(sqlite3_file *pf, sqlite3_int64 off, void *p) {
    if (REAL(pf)->pMethods->iVersion < 3) return SQLITE_OK;
    return REAL(pf)->pMethods->xUnfetch(REAL(pf), off, p);
}

static const sqlite3_io_methods wbMethods = {
    3, wbClose, wbRead, wbWrite, wbTruncate, wbSync, wbFileSize, wbLock, wbUnlock,
    wbCheckReservedLock, wbFileControl, wbSectorSize, wbDeviceCharacteristics,
    wbShmMap, wbShmLock, wbShmBarrier, wbShmUnmap, wbFetch, wbUnfetch,
};

static int wbOpen(sqlite3_vfs *vfs, sqlite3_filename name, sqlite3_file *pf, int flags, int *outFlags) {
    (void)vfs;
    WBFile *f = (WBFile *)pf;
    memset(f, 0, sizeof *f);
    f->real = (sqlite3_file *)((char *)f + ROUND8(sizeof(WBFile)));
    int rc = realVfs->xOpen(realVfs, name, f->real, flags, outFlags);
    if (rc != SQLITE_OK) {
        if (f->real->pMethods != NULL) f->real->pMethods->xClose(f->real);
        f->base.pMethods = NULL;
        return rc;
    }
    if (f->real->pMethods == NULL) { f->base.pMethods = NULL; return rc; }
    f->isWal = (flags & SQLITE_OPEN_WAL) != 0;
    f->base.pMethods = &wbMethods;
    if (f->isWal && name != NULL) {
        f->name = name;
        pthread_mutex_lock(&walsLock);
        f->nextWal = wals;
        wals = f;
        pthread_mutex_unlock(&walsLock);
    }
    return SQLITE_OK;
}

/* The rest of the VFS is the real one's, called with the real VFS (the unix VFS reads
 * its own settings from the sqlite3_vfs it is given). */
static int wbDelete(sqlite3_vfs *v, const char *name, int syncDir) {
    (void)v; return realVfs->xDelete(realVfs, name, syncDir);
}
static int wbAccess(sqlite3_vfs *v, const char *name, int flags, int *out) {
    (void)v; return realVfs->xAccess(realVfs, name, flags, out);
}
static int wbFullPathname(sqlite3_vfs *v, const char *name, int n, char *out) {
    (void)v; return realVfs->xFullPathname(realVfs, name, n, out);
}
static void *wbDlOpen(sqlite3_vfs *v, const char *name) { (void)v; return realVfs->xDlOpen(realVfs, name); }
static void wbDlError(sqlite3_vfs *v, int n, char *out) { (void)v; realVfs->xDlError(realVfs, n, out); }
static void (*wbDlSym(sqlite3_vfs *v, void *h, const char *sym))(void) {
    (void)v; return realVfs->xDlSym(realVfs, h, sym);
}
static void wbDlClose(sqlite3_vfs *v, void *h) { (void)v; realVfs->xDlClose(realVfs, h); }
static int wbRandomness(sqlite3_vfs *v, int n, char *out) { (void)v; return realVfs->xRandomness(realVfs, n, out); }
static int wbSleep(sqlite3_vfs *v, int us) { (void)v; return realVfs->xSleep(realVfs, us); }
static int wbCurrentTime(sqlite3_vfs *v, double *out) { (void)v; return realVfs->xCurrentTime(realVfs, out); }
static int wbGetLastError(sqlite3_vfs *v, int n, char *out) {
    (void)v; return realVfs->xGetLastError(realVfs, n, out);
}
static int wbCurrentTimeInt64(sqlite3_vfs *v, sqlite3_int64 *out) {
    (void)v; return realVfs->xCurrentTimeInt64(realVfs, out);
}

static int registered = SQLITE_ERROR;

static void wbRegister(void) {
    /* Before anything initializes SQLite (sqlite3_vfs_find does). Every connection is
     * used by one thread at a time (the engine's through GRDB's queue, the
     * checkpointer's by its thread), so SQLite's per-connection mutexes (25 lock and
     * unlock pairs a send) and its memory statistics' mutex guard nothing here. */
    (void)sqlite3_config(SQLITE_CONFIG_MULTITHREAD);
    (void)sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    (void)parlor_pcache_install();
    realVfs = sqlite3_vfs_find(NULL);
    if (realVfs == NULL || realVfs->iVersion < 2) return;
    wbVfs.iVersion = 2;
    wbVfs.szOsFile = ROUND8((int)sizeof(WBFile)) + realVfs->szOsFile;
    wbVfs.mxPathname = realVfs->mxPathname;
    wbVfs.zName = "parlor-walbuf";
    wbVfs.xOpen = wbOpen;
    wbVfs.xDelete = wbDelete;
    wbVfs.xAccess = wbAccess;
    wbVfs.xFullPathname = wbFullPathname;
    wbVfs.xDlOpen = wbDlOpen;
    wbVfs.xDlError = wbDlError;
    wbVfs.xDlSym = wbDlSym;
    wbVfs.xDlClose = wbDlClose;
    wbVfs.xRandomness = wbRandomness;
    wbVfs.xSleep = wbSleep;
    wbVfs.xCurrentTime = wbCurrentTime;
    wbVfs.xGetLastError = wbGetLastError;
    wbVfs.xCurrentTimeInt64 = wbCurrentTimeInt64;
    registered = sqlite3_vfs_register(&wbVfs, 1);
}

int parlor_walbuf_register(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, wbRegister);
    return registered;
}

/* As the program (or the test bundle) is loaded, before any of its code can initialize
 * SQLite: once it is, every sqlite3_config is refused (SQLITE_MISUSE) and the page cache
 * and the thread mode above are SQLite's own. A unit test that opened a GRDB queue of
 * its own before the first SQLiteStore did that, and the page cache's test found its
 * counters at 0 (a fresh clone's `make test`). */
__attribute__((constructor)) static void wbRegisterAtLoad(void) { (void)parlor_walbuf_register(); }

parlor_walbuf_counts parlor_walbuf_counters(const char *walPath) {
    parlor_walbuf_counts c = { 0, 0 };
    pthread_mutex_lock(&walsLock);
    for (WBFile *f = wals; f != NULL; f = f->nextWal) {
        if (strcmp(f->name, walPath) == 0) { c.asked += f->asked; c.made += f->made; }
    }
    pthread_mutex_unlock(&walsLock);
    return c;
}
