/* SQLite's own page cache, with one cost taken out of every commit.
 *
 * At the end of each write transaction SQLite drops the cached pages past the end of
 * the database (pcache1's xTruncate). pcache1 knows only the largest page number it
 * has held since the last truncation: when that is further past the end than it has
 * hash buckets, it walks every bucket and every cached page. SQLite 3.40 (Debian
 * bookworm's) swaps two pages' numbers during a B-tree balance through the pending-byte
 * page's number as a temporary key (page 262,145 with 4 KiB pages), so after any commit
 * that split a leaf in the middle of an index (a message in any room but the newest)
 * the next truncation walked the whole cache: 8,192 pages with Parlor's 32 MiB, ~3 % of
 * the server's CPU in the games benchmark (perf; docs/BENCHMARKS.md, session 16).
 *
 * This wraps the default methods and keeps, per cache, the largest page number it can
 * hold apart from that temporary key, and how many pages hold the temporary key right
 * now (a balance moves a page there and away again). A truncation that can find
 * nothing to drop is not passed on; any other is, exactly as asked. */

#include "wal_buffer.h"

#include <stdlib.h>

typedef struct {
    sqlite3_pcache *inner;
    unsigned int maxKey;       /* no page above this is cached, but at tempKey */
    unsigned int tempKey;      /* the pending-byte page: never a page of the database */
    int atTempKey;             /* pages holding tempKey now */
} WrappedCache;

static sqlite3_pcache_methods2 base;
static parlor_pcache_counts counts;

static sqlite3_pcache *pcCreate(int szPage, int szExtra, int bPurgeable) {
    WrappedCache *c = calloc(1, sizeof(WrappedCache));
    if (c == NULL) return NULL;
    c->inner = base.xCreate(szPage, szExtra, bPurgeable);
    if (c->inner == NULL) { free(c); return NULL; }
    /* PENDING_BYTE (0x40000000) / page size + 1: SQLite's PENDING_BYTE_PAGE. */
    c->tempKey = (unsigned int)(0x40000000u / (unsigned int)szPage) + 1;
    return (sqlite3_pcache *)c;
}

static void pcCachesize(sqlite3_pcache *p, int n) {
    base.xCachesize(((WrappedCache *)p)->inner, n);
}

static int pcPagecount(sqlite3_pcache *p) { return base.xPagecount(((WrappedCache *)p)->inner); }

static sqlite3_pcache_page *pcFetch(sqlite3_pcache *p, unsigned int key, int createFlag) {
    WrappedCache *c = (WrappedCache *)p;
    sqlite3_pcache_page *page = base.xFetch(c->inner, key, createFlag);
    if (page == NULL) return NULL;
    /* Fetched at tempKey only on a corrupt file (and dropped then): still, the next
     * truncation below it is passed on. */
    if (key == c->tempKey) c->atTempKey++;
    else if (key > c->maxKey) c->maxKey = key;
    return page;
}

static void pcUnpin(sqlite3_pcache *p, sqlite3_pcache_page *page, int discard) {
    base.xUnpin(((WrappedCache *)p)->inner, page, discard);
}

static void pcRekey(sqlite3_pcache *p, sqlite3_pcache_page *page, unsigned int oldKey, unsigned int newKey) {
    WrappedCache *c = (WrappedCache *)p;
    base.xRekey(c->inner, page, oldKey, newKey);
    if (oldKey == c->tempKey && c->atTempKey > 0) c->atTempKey--;
    if (newKey == c->tempKey) {
        c->atTempKey++;
        __atomic_add_fetch(&counts.tempKeyed, 1, __ATOMIC_RELAXED);
    } else if (newKey > c->maxKey) c->maxKey = newKey;
}

static void pcTruncate(sqlite3_pcache *p, unsigned int limit) {
    WrappedCache *c = (WrappedCache *)p;
    int dropsTemp = c->atTempKey > 0 && c->tempKey >= limit;
    if (limit > c->maxKey && !dropsTemp) {
        __atomic_add_fetch(&counts.skipped, 1, __ATOMIC_RELAXED);
        return;
    }
    __atomic_add_fetch(&counts.passed, 1, __ATOMIC_RELAXED);
    base.xTruncate(c->inner, limit);
    if (limit == 0) c->maxKey = 0;
    else if (limit - 1 < c->maxKey) c->maxKey = limit - 1;
    if (dropsTemp) c->atTempKey = 0;
}

static void pcDestroy(sqlite3_pcache *p) {
    WrappedCache *c = (WrappedCache *)p;
    base.xDestroy(c->inner);
    free(c);
}

static void pcShrink(sqlite3_pcache *p) { base.xShrink(((WrappedCache *)p)->inner); }

int parlor_pcache_install(void) {
    int rc = sqlite3_config(SQLITE_CONFIG_GETPCACHE2, &base);
    if (rc != SQLITE_OK || base.iVersion < 1 || base.xCreate == NULL || base.xShrink == NULL) return rc == SQLITE_OK ? SQLITE_ERROR : rc;
    sqlite3_pcache_methods2 wrapped = base;
    wrapped.xCreate = pcCreate;
    wrapped.xCachesize = pcCachesize;
    wrapped.xPagecount = pcPagecount;
    wrapped.xFetch = pcFetch;
    wrapped.xUnpin = pcUnpin;
    wrapped.xRekey = pcRekey;
    wrapped.xTruncate = pcTruncate;
    wrapped.xDestroy = pcDestroy;
    wrapped.xShrink = pcShrink;
    return sqlite3_config(SQLITE_CONFIG_PCACHE2, &wrapped);
}

parlor_pcache_counts parlor_pcache_counters(void) {
    parlor_pcache_counts c;
    c.passed = __atomic_load_n(&counts.passed, __ATOMIC_RELAXED);
    c.skipped = __atomic_load_n(&counts.skipped, __ATOMIC_RELAXED);
    c.tempKeyed = __atomic_load_n(&counts.tempKeyed, __ATOMIC_RELAXED);
    return c;
}
