/*
 * stalls: takes a core away from everything else on it for MS milliseconds every
 * EVERY milliseconds, as a hypervisor's steal does on a shared virtual machine, so a
 * server's recovery from a stall can be compared between builds on the same stalls
 * rather than on whatever the host happens to do (bench/run --stalls MS/EVERY).
 *
 * Pinned to --cpu N at SCHED_FIFO (root or CAP_SYS_NICE: without it the stall would
 * only be a busy neighbour, so it refuses), it spins through each stall; it exits when
 * stdin closes.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

int main(int argc, char **argv)
{
	int cpu = 0, stall_ms = 0, every_ms = 0;
	for (int i = 1; i + 1 < argc; i++) {
		if (!strcmp(argv[i], "--cpu")) cpu = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--stall")) sscanf(argv[++i], "%d/%d", &stall_ms, &every_ms);
	}
	if (stall_ms <= 0 || every_ms <= stall_ms) {
		fprintf(stderr, "usage: stalls --cpu N --stall MS/EVERY (EVERY > MS > 0)\n");
		return 2;
	}
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	struct sched_param prio = { .sched_priority = 50 };
	if (sched_setaffinity(0, sizeof set, &set) || sched_setscheduler(0, SCHED_FIFO, &prio)) {
		perror("stalls: pinning at SCHED_FIFO");
		return 1;
	}
	printf("STALLING\n");
	fflush(stdout);
	struct pollfd in = { .fd = 0, .events = POLLIN };
	for (;;) {
		int r = poll(&in, 1, every_ms - stall_ms);
		if (r > 0) {
			char b[64];
			if (read(0, b, sizeof b) <= 0) return 0;
		}
		uint64_t until = now_ns() + (uint64_t)stall_ms * 1000000u;
		while (now_ns() < until) {}
	}
}
