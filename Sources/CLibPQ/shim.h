/*
 * Debian's libpq (PostgreSQL's own C client) for the PostgreSQL store. Synchronous
 * calls suit the engine thread, which owns its one connection and blocks on it.
 */
#ifndef PARLOR_LIBPQ_SHIM_H
#define PARLOR_LIBPQ_SHIM_H

#include <libpq-fe.h>

#endif
