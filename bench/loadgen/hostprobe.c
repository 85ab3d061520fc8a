/*
 * hostprobe: how steady the core under a benchmark is.
 *
 * On a virtual machine the hypervisor can take a core away or share it (steal time
 * the guest does not always see, a busy neighbour on the same physical core): for
 * tens of milliseconds everything on that core runs several times slower, and a
 * server's latency tail shows it whatever its own code does. This measures it from
 * inside: every millisecond, one fixed unit of arithmetic (no memory, no system
 * call), timed by the thread's own CPU clock, so waiting behind the benchmark's
 * other threads does not count; only the core going slower does.
 *
 * Pinned to one core (--cpu N); runs until stdin closes or SIGTERM, then prints one
 * JSON line: units done, the median unit's CPU time, and the share of units that
 * took more than 2x and 4x that median. About 1 % of the core.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <poll.h>

#define MAX_UNITS (1 << 20)
#define UNIT_ITERATIONS 5000

static volatile sig_atomic_t stop;
static void on_term(int sig) { (void)sig; stop = 1; }

static uint64_t clock_ns(clockid_t c)
{
	struct timespec t;
	clock_gettime(c, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static int by_value(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	int cpu = -1;
	for (int i = 1; i + 1 < argc; i++)
		if (!strcmp(argv[i], "--cpu")) cpu = atoi(argv[++i]);
	if (cpu >= 0) {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof set, &set)) { perror("sched_setaffinity"); return 1; }
	}
	signal(SIGTERM, on_term);
	uint64_t *cost = malloc(MAX_UNITS * sizeof *cost);
	if (!cost) return 1;
	size_t n = 0;
	volatile uint64_t x = 1;
	struct pollfd in = { .fd = 0, .events = POLLIN };
	while (!stop && n < MAX_UNITS) {
		uint64_t c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
		for (int i = 0; i < UNIT_ITERATIONS; i++) x = x * 6364136223846793005u + 1442695040888963407u;
		cost[n++] = clock_ns(CLOCK_THREAD_CPUTIME_ID) - c0;
		/* a millisecond's sleep that ends early when stdin closes */
		if (poll(&in, 1, 1) > 0) {
			char b[64];
			if (read(0, b, sizeof b) <= 0) break;
		}
	}
	if (n == 0) { printf("{\"units\":0}\n"); return 0; }
	uint64_t *sorted = malloc(n * sizeof *sorted);
	if (!sorted) return 1;
	memcpy(sorted, cost, n * sizeof *cost);
	qsort(sorted, n, sizeof *sorted, by_value);
	uint64_t median = sorted[n / 2];
	size_t over2 = 0, over4 = 0;
	for (size_t i = 0; i < n; i++) {
		over2 += cost[i] > 2 * median;
		over4 += cost[i] > 4 * median;
	}
	printf("{\"units\":%zu,\"median_us\":%.2f,\"slow2x\":%.4f,\"slow4x\":%.4f}\n",
	       n, median / 1e3, (double)over2 / n, (double)over4 / n);
	return 0;
}
