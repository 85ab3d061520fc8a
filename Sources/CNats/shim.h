/*
 * Debian's NATS C client (libnats 3.4) for the bus between the nodes of a cluster.
 * Its own target so that only ParlorCluster links it.
 */
#ifndef PARLOR_NATS_SHIM_H
#define PARLOR_NATS_SHIM_H

#include <nats/nats.h>

#endif
