/*
 * parlor-loadgen: a WebSocket load generator in C over epoll, for Parlor and the
 * relay peers in bench/peers/.  One thread, many client connections; it does its
 * own HTTP upgrade, masking and framing, so that it is never the bottleneck.
 *
 * Modes
 *   relay   a peer: connect to /r/<room> (or / when there is one room) and send
 *           text frames; every frame received is a delivery.
 *   parlor  Parlor's protocol (docs/PROTOCOL.md): register, create a conversation
 *           (first member of each room) or join it with the invite, subscribe,
 *           then `send` frames with unique clientIds; `message` events are the
 *           deliveries, `result`s of sends are the acknowledgements.
 *
 * Every payload carries a marker  ~T<ns>~S<sender>~N<msgno>~  where <ns> is the
 * CLOCK_MONOTONIC time the message was *scheduled* (open-loop, --rate) or sent
 * (closed-loop, --window), so each receiver computes its latency.  Rooms never span
 * processes, so the sender's slot (and broadcast completion) is local.
 *
 * Sending
 *   --rate R     per room, R messages/s on a fixed schedule; the room's senders
 *                take turns.  Latency counts from the scheduled time.
 *   --window W   each sender keeps W messages in flight (not yet delivered to every
 *                room member and, for Parlor, not yet acknowledged): max throughput.
 *
 * The first --warmup seconds of load are sent but not counted (connection buffers,
 * allocators and caches warm up); --duration seconds are measured after that.
 *
 * With --sync it prints "READY <ok> <failed> <setup s>" once every connection is
 * set up, starts sending on a "GO" line on stdin, prints "MEASURE" when the warm-up
 * ends, "RESULT {json}" when done, and holds the connections until "QUIT" (or stdin
 * closes, or --timeout).  The loadgen's own CPU share (getrusage over the measured
 * window) and "loop_delay" (time from epoll_wait returning to reading a delivery:
 * the loadgen's own share of each latency) are in the result.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------------ config */

enum { MODE_RELAY, MODE_PARLOR };
enum { KIND_TEXT, KIND_SESSION };

static struct {
	int mode;
	int kind;
	const char *host;
	int port;
	int conns;
	int room_size;
	int senders_per_room;
	int window;
	double rate;
	double duration;
	double drain;
	double warmup;
	int payload;
	int src_base, src_count;
	int room_base;
	int proc_id;
	int sync;
	int connect_conc;
	double setup_timeout;
	double hard_timeout;
	const char *app_id;
	int verbose;
	int trace;
} cfg = {
	.mode = MODE_RELAY, .kind = KIND_TEXT, .host = "127.0.0.1", .port = 9001,
	.conns = 16, .room_size = 0, .senders_per_room = -1, .window = 0, .rate = 0,
	.duration = 3, .drain = 3, .warmup = 0.5, .payload = 128, .src_base = 1, .src_count = 1,
	.room_base = 0, .proc_id = 0, .sync = 0, .connect_conc = 200,
	.setup_timeout = 60, .hard_timeout = 300, .app_id = "wenderpic", .verbose = 0,
};

/* ------------------------------------------------------------------ time */

static inline int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static double cpu_seconds(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec +
	       ru.ru_stime.tv_usec / 1e6;
}

/* ------------------------------------------------------------------ histogram
 * HDR-style log-linear buckets: exact below 128 ns, then 64 sub-buckets per power
 * of two (relative error < 1.6 %).  Bucket index <-> value is mirrored in bench/run
 * for merging histograms of several processes. */

#define H_SUB 64
#define H_LIN 128
#define H_N (H_LIN + 57 * H_SUB)

typedef struct {
	uint64_t b[H_N];
	uint64_t count;
	int64_t min, max;
	double sum;
} hist_t;

static inline int h_index(int64_t v)
{
	if (v < 0) v = 0;
	if (v < H_LIN) return (int)v;
	int e = 63 - __builtin_clzll((uint64_t)v); /* >= 7 */
	int mant = (int)((v >> (e - 6)) & 63);
	return H_LIN + (e - 7) * H_SUB + mant;
}

static inline int64_t h_upper(int i) /* highest value in bucket i */
{
	if (i < H_LIN) return i;
	int e = (i - H_LIN) / H_SUB + 7, mant = (i - H_LIN) % H_SUB;
	return ((int64_t)(64 + mant) << (e - 6)) + ((int64_t)1 << (e - 6)) - 1;
}

static inline void h_rec(hist_t *h, int64_t v)
{
	if (v < 0) v = 0;
	h->b[h_index(v)]++;
	if (!h->count || v < h->min) h->min = v;
	if (v > h->max) h->max = v;
	h->count++;
	h->sum += (double)v;
}

static int64_t h_pct(const hist_t *h, double p)
{
	if (!h->count) return 0;
	uint64_t want = (uint64_t)((p / 100.0) * (double)h->count + 0.5);
	if (want < 1) want = 1;
	uint64_t acc = 0;
	for (int i = 0; i < H_N; i++) {
		acc += h->b[i];
		if (acc >= want) {
			int64_t u = h_upper(i);
			return u > h->max ? h->max : u;
		}
	}
	return h->max;
}

static void h_json(FILE *f, const char *name, const hist_t *h)
{
	fprintf(f, "\"%s\":{\"count\":%" PRIu64 ",\"min\":%" PRId64 ",\"max\":%" PRId64
		   ",\"mean\":%.0f,\"p50\":%" PRId64 ",\"p90\":%" PRId64 ",\"p99\":%" PRId64
		   ",\"p999\":%" PRId64 ",\"buckets\":[",
		name, h->count, h->min, h->max, h->count ? h->sum / (double)h->count : 0.0,
		h_pct(h, 50), h_pct(h, 90), h_pct(h, 99), h_pct(h, 99.9));
	int first = 1;
	for (int i = 0; i < H_N; i++)
		if (h->b[i]) {
			fprintf(f, "%s[%d,%" PRIu64 "]", first ? "" : ",", i, h->b[i]);
			first = 0;
		}
	fprintf(f, "]}");
}

/* ------------------------------------------------------------------ state */

enum { C_IDLE, C_CONNECTING, C_HANDSHAKE, C_OPEN, C_DEAD };
enum { P_NONE, P_REGISTER, P_INSTALL, P_CREATE, P_WAIT_INVITE, P_JOIN, P_JOINED,
       P_SUBSCRIBE, P_READY };

typedef struct {
	uint64_t msgno;
	int64_t t0;
	int64_t base; /* session updates: the base version of its last attempt */
	int32_t remaining;
	uint8_t used, acked, tries;
} slot_t;

typedef struct conn {
	int fd, idx, room, state, phase;
	uint8_t *in;
	size_t inlen, incap;
	uint8_t *out;
	size_t outlen, outoff, outcap;
	uint8_t *frag;
	size_t fraglen, fragcap;
	bool want_out, counted_setup;
	/* sender state */
	slot_t *ring;
	uint32_t ring_mask;
	uint64_t next_msgno;
	int inflight;
	int64_t session_version;
	int close_code;
} conn_t;

typedef struct {
	int first, n, senders;
	int creator_done;
	char conv[80];
	char invite[160];
	int64_t next_send;
	uint64_t turn;
	int64_t next_base; /* session: the version the room's next update builds on */
} room_t;

static conn_t *conns;
static room_t *rooms;
static int nrooms;
static int epfd;
static int64_t t_wake; /* when the current epoll_wait returned */
static int sending;      /* send phase on */
static int measuring;    /* counting deliveries */
static int64_t interval_ns;
static uint64_t rng = 0x9E3779B97F4A7C15ULL;

static struct {
	uint64_t sent, deliveries, acks, frames_in, bytes_in, other_events;
	uint64_t errors, error_frames, send_errors, conflicts, retries, busy, busy_retries, closes, connect_failures;
	uint64_t setup_failures, lost, overruns, bad_frames;
	int64_t t_start, t_meas, t_send_end, t_last_delivery, t_end;
	hist_t lat, ack, completion, lag, loop;
	uint64_t outstanding; /* slots in flight */
	char samples[8][240];
	int nsamples;
} st;

static int n_connected_inflight; /* connects in flight during setup */
static int n_settled, n_ready, n_joined_or_dead, next_connect;

static void sample(const char *fmt, ...)
{
	if (st.nsamples >= 8) return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(st.samples[st.nsamples++], sizeof st.samples[0], fmt, ap);
	va_end(ap);
}

static inline uint64_t xrand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* ------------------------------------------------------------------ output */

static void ep_mod(conn_t *c, bool want_out)
{
	if (c->want_out == want_out || c->fd < 0) return;
	struct epoll_event ev = { .events = EPOLLIN | (want_out ? EPOLLOUT : 0), .data.ptr = c };
	epoll_ctl(epfd, EPOLL_CTL_MOD, c->fd, &ev);
	c->want_out = want_out;
}

static void conn_kill(conn_t *c, const char *why);

static void flush_out(conn_t *c)
{
	while (c->outoff < c->outlen) {
		ssize_t n = write(c->fd, c->out + c->outoff, c->outlen - c->outoff);
		if (n > 0) { c->outoff += (size_t)n; continue; }
		if (n < 0 && errno == EINTR) continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
		conn_kill(c, "write failed");
		return;
	}
	if (c->outoff == c->outlen) { c->outoff = c->outlen = 0; ep_mod(c, false); }
	else ep_mod(c, true);
}

static void out_append(conn_t *c, const void *p, size_t n)
{
	if (c->outlen + n > c->outcap) {
		if (c->outoff) {
			memmove(c->out, c->out + c->outoff, c->outlen - c->outoff);
			c->outlen -= c->outoff;
			c->outoff = 0;
		}
		if (c->outlen + n > c->outcap) {
			size_t cap = c->outcap ? c->outcap : 1024;
			while (cap < c->outlen + n) cap *= 2;
			c->out = realloc(c->out, cap);
			c->outcap = cap;
		}
	}
	memcpy(c->out + c->outlen, p, n);
	c->outlen += n;
}

static void conn_write(conn_t *c, const void *p, size_t n)
{
	if (c->state == C_DEAD) return;
	if (c->outlen == c->outoff) {
		c->outlen = c->outoff = 0;
		ssize_t w;
		do w = write(c->fd, p, n); while (w < 0 && errno == EINTR);
		if (w == (ssize_t)n) return;
		if (w < 0) {
			if (errno != EAGAIN && errno != EWOULDBLOCK) { conn_kill(c, "write failed"); return; }
			w = 0;
		}
		out_append(c, (const uint8_t *)p + w, n - (size_t)w);
		ep_mod(c, true);
		return;
	}
	out_append(c, p, n);
}

static uint8_t fbuf[1 << 17];

/* one masked client frame */
static void ws_send(conn_t *c, int opcode, const void *payload, size_t n)
{
	uint8_t *f = fbuf;
	size_t h = 0;
	uint8_t *dyn = NULL;
	if (n + 14 > sizeof fbuf) f = dyn = malloc(n + 14);
	f[h++] = 0x80 | (uint8_t)opcode;
	if (n < 126) f[h++] = 0x80 | (uint8_t)n;
	else if (n < 65536) { f[h++] = 0x80 | 126; f[h++] = (uint8_t)(n >> 8); f[h++] = (uint8_t)n; }
	else {
		f[h++] = 0x80 | 127;
		for (int i = 7; i >= 0; i--) f[h++] = (uint8_t)((uint64_t)n >> (8 * i));
	}
	uint32_t key = (uint32_t)xrand();
	uint8_t mk[4];
	memcpy(mk, &key, 4);
	memcpy(f + h, mk, 4);
	h += 4;
	const uint8_t *s = payload;
	uint8_t *d = f + h;
	size_t i = 0;
	uint64_t k8;
	uint8_t k8b[8] = { mk[0], mk[1], mk[2], mk[3], mk[0], mk[1], mk[2], mk[3] };
	memcpy(&k8, k8b, 8);
	for (; i + 8 <= n; i += 8) {
		uint64_t v;
		memcpy(&v, s + i, 8);
		v ^= k8;
		memcpy(d + i, &v, 8);
	}
	for (; i < n; i++) d[i] = s[i] ^ mk[i & 3];
	conn_write(c, f, h + n);
	free(dyn);
}

static void ws_text(conn_t *c, const char *s, size_t n) { ws_send(c, 1, s, n); }

/* ------------------------------------------------------------------ JSON helpers
 * Frames are small JSON objects; we find keys by text search.  Payload markers
 * contain no quotes, and only the top-level object of a frame has a "type" key. */

static const char *json_find(const char *p, size_t n, const char *key, size_t *vlen, bool *is_str)
{
	char pat[64];
	int pl = snprintf(pat, sizeof pat, "\"%s\"", key);
	const char *end = p + n, *q = p;
	while ((q = memmem(q, (size_t)(end - q), pat, (size_t)pl))) {
		const char *v = q + pl;
		while (v < end && (*v == ' ' || *v == '\t' || *v == '\n' || *v == '\r')) v++;
		if (v >= end || *v != ':') { q += pl; continue; }
		v++;
		while (v < end && (*v == ' ' || *v == '\t' || *v == '\n' || *v == '\r')) v++;
		if (v >= end) return NULL;
		if (*v == '"') {
			const char *s = ++v;
			while (v < end && *v != '"') { if (*v == '\\') v++; v++; }
			if (v >= end) return NULL;
			*vlen = (size_t)(v - s);
			if (is_str) *is_str = true;
			return s;
		}
		const char *s = v;
		while (v < end && *v != ',' && *v != '}' && *v != ']' && *v != ' ') v++;
		*vlen = (size_t)(v - s);
		if (is_str) *is_str = false;
		return s;
	}
	return NULL;
}


/* ------------------------------------------------------------------ payloads */

static const char *PAD = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

static size_t make_marker(char *b, size_t cap, int64_t t, int sender, uint64_t msgno, int target)
{
	int n = snprintf(b, cap, "~T%" PRId64 "~S%d~N%" PRIu64 "~", t, sender, msgno);
	while (n < target && (size_t)n < cap - 1) { b[n] = PAD[n % 62]; n++; }
	b[n] = 0;
	return (size_t)n;
}

static bool parse_marker(const char *p, size_t n, int64_t *t, int *sender, uint64_t *msgno)
{
	const char *m = memmem(p, n, "~T", 2);
	if (!m) return false;
	const char *end = p + n;
	m += 2;
	int64_t tv = 0;
	while (m < end && *m >= '0' && *m <= '9') tv = tv * 10 + (*m++ - '0');
	if (m + 2 > end || m[0] != '~' || m[1] != 'S') return false;
	m += 2;
	int sv = 0;
	while (m < end && *m >= '0' && *m <= '9') sv = sv * 10 + (*m++ - '0');
	if (m + 2 > end || m[0] != '~' || m[1] != 'N') return false;
	m += 2;
	uint64_t nv = 0;
	while (m < end && *m >= '0' && *m <= '9') nv = nv * 10 + (uint64_t)(*m++ - '0');
	*t = tv; *sender = sv; *msgno = nv;
	return true;
}

/* ------------------------------------------------------------------ sending */

static void slot_done(conn_t *s, slot_t *sl, int64_t now)
{
	if (sl->t0 >= st.t_meas) h_rec(&st.completion, now - sl->t0);
	if (cfg.trace)
		fprintf(stderr, "trace sender=%d msg=%" PRIu64 " t=%.3fms completion=%.3fms\n", s->idx,
			sl->msgno, (double)(sl->t0 - st.t_start) / 1e6, (double)(now - sl->t0) / 1e6);
	sl->used = 0;
	st.outstanding--;
	s->inflight--;
}

static void send_message(conn_t *c, int64_t t_sched);
static void send_frame(conn_t *c, uint64_t no, int64_t t_sched, int attempt, int64_t base);

/* Sends answered server_busy, due again at `due`: a min-heap. */
typedef struct { int64_t due; conn_t *c; uint64_t no; } busy_t;
static busy_t *busyq;
static int busyn, busycap;

static void busy_push(int64_t due, conn_t *c, uint64_t no)
{
	if (busyn == busycap) {
		busycap = busycap ? 2 * busycap : 1024;
		busyq = realloc(busyq, (size_t)busycap * sizeof *busyq);
		if (!busyq) { perror("realloc"); exit(1); }
	}
	int i = busyn++;
	busyq[i] = (busy_t){ due, c, no };
	while (i && busyq[i].due < busyq[(i - 1) / 2].due) {
		busy_t t = busyq[(i - 1) / 2]; busyq[(i - 1) / 2] = busyq[i]; busyq[i] = t; i = (i - 1) / 2;
	}
}

static void run_busy(int64_t now)
{
	while (busyn && busyq[0].due <= now) {
		busy_t b = busyq[0];
		busyq[0] = busyq[--busyn];
		for (int i = 0;;) {
			int l = 2 * i + 1, r = l + 1, m = i;
			if (l < busyn && busyq[l].due < busyq[m].due) m = l;
			if (r < busyn && busyq[r].due < busyq[m].due) m = r;
			if (m == i) break;
			busy_t t = busyq[m]; busyq[m] = busyq[i]; busyq[i] = t; i = m;
		}
		slot_t *sl = b.c->ring ? &b.c->ring[b.no & b.c->ring_mask] : NULL;
		if (!sl || !sl->used || sl->msgno != b.no || b.c->state != C_OPEN) continue;
		st.busy_retries++;
		send_frame(b.c, b.no, sl->t0, sl->tries, sl->base);
	}
}

static void maybe_refill(conn_t *c)
{
	if (cfg.window > 0 && sending && c->state == C_OPEN)
		while (c->inflight < cfg.window) send_message(c, now_ns());
}

static void slot_check(conn_t *s, slot_t *sl, int64_t now)
{
	if (sl->remaining <= 0 && (cfg.mode == MODE_RELAY || sl->acked)) {
		slot_done(s, sl, now);
		maybe_refill(s);
	}
}

static void send_message(conn_t *c, int64_t t_sched)
{
	if (c->state != C_OPEN || !c->ring) return;
	uint64_t no = c->next_msgno++;
	slot_t *sl = &c->ring[no & c->ring_mask];
	if (sl->used) { /* overrun: the old message never completed */
		st.overruns++;
		st.lost += (uint64_t)(sl->remaining > 0 ? sl->remaining : 0);
		sl->used = 0;
		st.outstanding--;
		c->inflight--;
	}
	room_t *r = &rooms[c->room];
	sl->msgno = no;
	sl->t0 = t_sched;
	sl->remaining = r->n;
	sl->acked = 0;
	sl->tries = 0;
	sl->used = 1;
	st.outstanding++;
	c->inflight++;
	sl->base = r->next_base++;
	send_frame(c, no, t_sched, 0, sl->base);
	if (t_sched >= st.t_meas) st.sent++;
}

/* A clientId as the web client makes them (Public/js/net/frames.js): a version 7 UUID,
 * 48 bits of Unix milliseconds first, so ids made at about the same time sort together
 * in the server's index of them. The rest is this process, connection and message, so
 * an id never repeats; a retry after session_conflict adds "r<attempt>". */
static void client_id(char *out, size_t n, const conn_t *c, uint64_t no, int attempt)
{
	static uint64_t last_ms;
	static unsigned counter;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	uint64_t ms = (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
	if (ms > last_ms) {
		last_ms = ms;
		counter = 0;
	} else {
		counter = (counter + 1) & 0xfff;
	}
	char retry[8] = "";
	if (attempt) snprintf(retry, sizeof retry, "r%d", attempt);
	snprintf(out, n, "%08x-%04x-7%03x-%04x-%04x%08x%s", (unsigned)(ms >> 16), (unsigned)(ms & 0xffff),
		 counter, 0x8000 | (cfg.proc_id & 0x3fff), (unsigned)c->idx & 0xffff, (unsigned)no, retry);
}

/* encode and write one message; a retry after session_conflict gets a new clientId */
static void send_frame(conn_t *c, uint64_t no, int64_t t_sched, int attempt, int64_t base)
{
	room_t *r = &rooms[c->room];
	char mk[11000];
	size_t ml = make_marker(mk, sizeof mk, t_sched, c->idx, no, cfg.payload);
	static char buf[12000];
	char cid[64];
	client_id(cid, sizeof cid, c, no, attempt);
	int n;
	if (cfg.mode == MODE_RELAY) {
		ws_text(c, mk, ml);
	} else if (cfg.kind == KIND_TEXT) {
		n = snprintf(buf, sizeof buf,
			     "{\"type\":\"send\",\"id\":\"s%" PRIu64 "\",\"conversationId\":\"%s\","
			     "\"clientId\":\"%s\",\"message\":{\"kind\":\"text\",\"text\":\"%s\"}}",
			     no, r->conv, cid, mk);
		ws_text(c, buf, (size_t)n);
	} else {
		n = snprintf(buf, sizeof buf,
			     "{\"type\":\"send\",\"id\":\"s%" PRIu64 "\",\"conversationId\":\"%s\","
			     "\"clientId\":\"%s\",\"message\":{\"kind\":\"app\",\"appId\":\"%s\","
			     "\"url\":\"?word=cat&ink=120&b=%s\",\"summaryText\":\"b%d drew something\","
			     "\"layout\":{\"caption\":\"Guess my WenderPic!\",\"subcaption\":\"$%d\"},"
			     "\"session\":{\"id\":\"g%d\",\"baseVersion\":%" PRId64 "},\"live\":false}}",
			     no, r->conv, cid, cfg.app_id, mk, c->idx, c->idx,
			     c->room, base);
		ws_text(c, buf, (size_t)n);
	}
}

/* ------------------------------------------------------------------ connection */

static void setup_settle(conn_t *c, bool ok)
{
	if (c->counted_setup) return;
	c->counted_setup = true;
	n_settled++;
	if (ok) n_ready++;
	else st.setup_failures++;
}

static void joined_or_dead(conn_t *c)
{
	(void)c;
	n_joined_or_dead++;
	n_connected_inflight--;
}

static void conn_kill(conn_t *c, const char *why)
{
	if (c->state == C_DEAD) return;
	int was = c->state, phase = c->phase;
	if (c->fd >= 0) { epoll_ctl(epfd, EPOLL_CTL_DEL, c->fd, NULL); close(c->fd); }
	c->fd = -1;
	c->state = C_DEAD;
	if (!c->counted_setup) {
		if (cfg.verbose) fprintf(stderr, "conn %d failed in setup: %s\n", c->idx, why);
		sample("conn %d setup: %s (close code %d)", c->idx, why, c->close_code);
		if (was == C_CONNECTING) st.connect_failures++;
		if (cfg.mode == MODE_PARLOR ? phase < P_JOINED : 1) joined_or_dead(c);
		setup_settle(c, false);
	} else if (!st.t_end) {
		st.closes++;
		sample("conn %d closed (%s, code %d)", c->idx, why, c->close_code);
	}
}

static void send_json(conn_t *c, const char *fmt, ...)
{
	char b[1024];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(b, sizeof b, fmt, ap);
	va_end(ap);
	ws_text(c, b, (size_t)n);
}

static void parlor_join(conn_t *c)
{
	room_t *r = &rooms[c->room];
	c->phase = P_JOIN;
	send_json(c, "{\"type\":\"conversations.join\",\"id\":\"join\",\"invite\":\"%s\"}", r->invite);
}

static void parlor_after_register(conn_t *c)
{
	room_t *r = &rooms[c->room];
	if (c->idx == r->first) {
		c->phase = P_CREATE;
		send_json(c, "{\"type\":\"conversations.create\",\"id\":\"create\",\"title\":\"bench %d.%d\"}",
			  cfg.proc_id, c->room);
	} else if (r->creator_done) {
		parlor_join(c);
	} else {
		c->phase = P_WAIT_INVITE;
	}
}

static void mark_ready(conn_t *c)
{
	c->phase = P_READY;
	setup_settle(c, true);
}

static void on_open(conn_t *c)
{
	if (cfg.mode == MODE_RELAY) {
		n_connected_inflight--;
		n_joined_or_dead++;
		mark_ready(c);
		return;
	}
	c->phase = P_REGISTER;
	send_json(c, "{\"type\":\"register\",\"id\":\"reg\",\"name\":\"bench %d.%d\"}", cfg.proc_id, c->idx);
}

static void on_delivery(conn_t *c, const char *p, size_t n, int64_t now)
{
	(void)c;
	int64_t t;
	int sender;
	uint64_t no;
	if (!parse_marker(p, n, &t, &sender, &no)) { st.other_events++; return; }
	if (!measuring) return;
	if (sender >= 0 && sender < cfg.conns && conns[sender].ring) {
		conn_t *s = &conns[sender];
		slot_t *sl = &s->ring[no & s->ring_mask];
		if (sl->used && sl->msgno == no) { sl->remaining--; slot_check(s, sl, now); }
	}
	if (t < st.t_meas) return; /* warm-up */
	st.deliveries++;
	st.t_last_delivery = now;
	h_rec(&st.lat, now - t);
	h_rec(&st.loop, now - t_wake); /* the loadgen's own share of that latency */
}

static void parlor_text(conn_t *c, const char *p, size_t n, int64_t now)
{
	size_t tl;
	bool str;
	const char *type = json_find(p, n, "type", &tl, &str);
	if (!type || !str) { st.bad_frames++; return; }
	if (tl == 7 && !memcmp(type, "message", 7)) {
		if (cfg.kind == KIND_SESSION) {
			size_t vl;
			const char *v = json_find(p, n, "version", &vl, NULL);
			if (v) {
				int64_t ver = strtoll(v, NULL, 10);
				if (ver > c->session_version) c->session_version = ver;
			}
		}
		on_delivery(c, p, n, now);
		return;
	}
	size_t rl = 0;
	const char *re = json_find(p, n, "re", &rl, &str);
	if (tl == 5 && !memcmp(type, "error", 5)) {
		size_t cl = 0;
		const char *code = json_find(p, n, "code", &cl, NULL);
		if (re && rl > 1 && re[0] == 's' && re[1] >= '0' && re[1] <= '9' && c->ring) { /* a send was refused */
			uint64_t no = strtoull(re + 1, NULL, 10);
			slot_t *sl = &c->ring[no & c->ring_mask];
			if (code && cl == 16 && !memcmp(code, "session_conflict", 16)) {
				/* another member moved the session on: take its version from
				 * `current` and try again, as an app merges and retries */
				st.conflicts++;
				size_t vl;
				const char *v = json_find(p, n, "version", &vl, NULL);
				int64_t ver = v ? strtoll(v, NULL, 10) : -1;
				if (ver > c->session_version) c->session_version = ver;
				room_t *r = &rooms[c->room];
				if (ver >= 0 && ver + 1 > r->next_base) r->next_base = ver + 1;
				if (ver >= 0 && sl->used && sl->msgno == no && sl->tries < 5 && c->state == C_OPEN) {
					sl->tries++;
					st.retries++;
					sl->base = ver;
					send_frame(c, no, sl->t0, sl->tries, ver);
					return;
				}
				st.send_errors++;
			} else if (code && cl == 11 && !memcmp(code, "server_busy", 11)) {
				/* turned away unread: the same frame again after the time given, as the
				 * client's outbox does (its latency keeps counting from t0) */
				st.busy++;
				size_t vl;
				const char *v = json_find(p, n, "retryAfterMs", &vl, NULL);
				int64_t ms = v ? strtoll(v, NULL, 10) : 1000;
				if (sl->used && sl->msgno == no && c->state == C_OPEN) {
					busy_push(now + (ms + 50) * 1000000LL, c, no);
					return;
				}
				st.send_errors++;
			} else {
				st.send_errors++;
			}
			st.error_frames++;
			if (st.send_errors + st.conflicts <= 3 || cfg.verbose)
				sample("send error: %.*s", (int)(n > 200 ? 200 : n), p);
			if (sl->used && sl->msgno == no) {
				st.lost += (uint64_t)(sl->remaining > 0 ? sl->remaining : 0);
				sl->used = 0;
				st.outstanding--;
				c->inflight--;
				maybe_refill(c);
			}
			return;
		}
		st.error_frames++;
		if (cfg.verbose) fprintf(stderr, "conn %d error: %.*s\n", c->idx, (int)n, p);
		sample("conn %d error: %.*s", c->idx, (int)(n > 180 ? 180 : n), p);
		if (c->phase == P_INSTALL) { /* app install is best effort */
			parlor_after_register(c);
			return;
		}
		if (c->phase < P_READY) conn_kill(c, "setup request refused");
		return;
	}
	if (tl == 6 && !memcmp(type, "result", 6) && re) {
		if (rl > 1 && re[0] == 's' && re[1] >= '0' && re[1] <= '9') {
			if (!c->ring || !measuring) return;
			uint64_t no = strtoull(re + 1, NULL, 10);
			slot_t *sl = &c->ring[no & c->ring_mask];
			if (!sl->used || sl->msgno != no) return;
			if (sl->t0 >= st.t_meas) { st.acks++; h_rec(&st.ack, now - sl->t0); }
			sl->acked = 1;
			slot_check(c, sl, now);
			return;
		}
		if (rl == 3 && !memcmp(re, "reg", 3)) {
			if (cfg.kind == KIND_SESSION) {
				c->phase = P_INSTALL;
				send_json(c, "{\"type\":\"apps.install\",\"id\":\"inst\",\"appId\":\"%s\"}", cfg.app_id);
			} else {
				parlor_after_register(c);
			}
			return;
		}
		if (rl == 4 && !memcmp(re, "inst", 4)) { parlor_after_register(c); return; }
		if ((rl == 6 && !memcmp(re, "create", 6)) || (rl == 4 && !memcmp(re, "join", 4))) {
			room_t *r = &rooms[c->room];
			const char *cv = memmem(p, n, "\"conversation\"", 14);
			size_t il = 0;
			const char *id = cv ? json_find(cv, n - (size_t)(cv - p), "id", &il, NULL) : NULL;
			if (!id || il >= sizeof r->conv) { conn_kill(c, "no conversation id in result"); return; }
			if (!r->conv[0]) { memcpy(r->conv, id, il); r->conv[il] = 0; }
			if (c->phase == P_CREATE) {
				size_t vl = 0;
				const char *inv = json_find(p, n, "invite", &vl, NULL);
				if (!inv || vl >= sizeof r->invite) { conn_kill(c, "no invite in result"); return; }
				memcpy(r->invite, inv, vl);
				r->invite[vl] = 0;
				r->creator_done = 1;
				for (int i = r->first + 1; i < r->first + r->n; i++)
					if (conns[i].phase == P_WAIT_INVITE && conns[i].state == C_OPEN) parlor_join(&conns[i]);
			}
			c->phase = P_JOINED;
			joined_or_dead(c);
			return;
		}
		if (rl == 3 && !memcmp(re, "sub", 3)) { mark_ready(c); return; }
		return;
	}
	st.other_events++; /* presence, member, ... */
}

static void on_text(conn_t *c, const char *p, size_t n, int64_t now)
{
	if (cfg.mode == MODE_RELAY) on_delivery(c, p, n, now);
	else parlor_text(c, p, n, now);
}

static void on_frame(conn_t *c, int fin, int op, uint8_t *p, size_t n, int64_t now)
{
	st.frames_in++;
	switch (op) {
	case 0x9: ws_send(c, 0xA, p, n); return;           /* ping -> pong */
	case 0xA: return;
	case 0x8:
		c->close_code = n >= 2 ? (p[0] << 8 | p[1]) : 1005;
		if (n >= 2) ws_send(c, 0x8, p, 2); else ws_send(c, 0x8, NULL, 0);
		conn_kill(c, "close frame from server");
		return;
	case 0x2:
		st.bad_frames++;
		return;
	case 0x1:
	case 0x0:
		if (op == 0x1 && fin) { on_text(c, (const char *)p, n, now); return; }
		if (op == 0x1) c->fraglen = 0;
		if (c->fraglen + n > c->fragcap) {
			c->fragcap = (c->fraglen + n) * 2;
			c->frag = realloc(c->frag, c->fragcap);
		}
		memcpy(c->frag + c->fraglen, p, n);
		c->fraglen += n;
		if (fin) { on_text(c, (const char *)c->frag, c->fraglen, now); c->fraglen = 0; }
		return;
	default:
		st.bad_frames++;
	}
}

/* parse as many frames as buf holds; returns bytes consumed */
static size_t parse_frames(conn_t *c, uint8_t *b, size_t len, int64_t now)
{
	size_t pos = 0;
	if (c->state == C_HANDSHAKE) {
		uint8_t *e = memmem(b, len, "\r\n\r\n", 4);
		if (!e) return 0;
		if (len < 12 || memcmp(b + 9, "101", 3)) {
			sample("conn %d handshake refused: %.*s", c->idx, (int)(len > 60 ? 60 : len), b);
			conn_kill(c, "handshake refused");
			return len;
		}
		pos = (size_t)(e - b) + 4;
		c->state = C_OPEN;
		on_open(c);
	}
	while (c->state == C_OPEN && len - pos >= 2) {
		uint8_t *f = b + pos;
		size_t avail = len - pos, h = 2;
		int fin = f[0] >> 7, op = f[0] & 0xF, masked = f[1] >> 7;
		uint64_t pl = f[1] & 0x7F;
		if (pl == 126) {
			if (avail < 4) break;
			pl = (uint64_t)f[2] << 8 | f[3];
			h = 4;
		} else if (pl == 127) {
			if (avail < 10) break;
			pl = 0;
			for (int i = 0; i < 8; i++) pl = pl << 8 | f[2 + i];
			h = 10;
		}
		if (masked) h += 4;
		if (avail < h + pl) {
			/* make room for a frame bigger than the buffer */
			if (h + pl > c->incap) {
				c->incap = h + pl + 4096;
				c->in = realloc(c->in, c->incap);
			}
			break;
		}
		uint8_t *p = f + h;
		if (masked) for (uint64_t i = 0; i < pl; i++) p[i] ^= f[h - 4 + (i & 3)];
		on_frame(c, fin, op, p, (size_t)pl, now);
		pos += h + pl;
	}
	return pos;
}

static uint8_t rbuf[1 << 20];

static void on_readable(conn_t *c)
{
	for (int loops = 0; loops < 4 && c->state >= C_HANDSHAKE && c->state != C_DEAD; loops++) {
		ssize_t n;
		int64_t now;
		if (c->inlen == 0) {
			n = read(c->fd, rbuf, sizeof rbuf);
			if (n <= 0) goto rd_err;
			now = now_ns();
			st.bytes_in += (uint64_t)n;
			size_t used = parse_frames(c, rbuf, (size_t)n, now);
			if (c->state == C_DEAD) return;
			size_t left = (size_t)n - used;
			if (left) {
				if (c->incap < left + 65536) {
					c->incap = left + 65536;
					c->in = realloc(c->in, c->incap);
				}
				memcpy(c->in, rbuf + used, left);
				c->inlen = left;
			}
			if ((size_t)n < sizeof rbuf) return;
		} else {
			if (c->incap - c->inlen < 65536) {
				c->incap = c->inlen + 65536 * 2;
				c->in = realloc(c->in, c->incap);
			}
			n = read(c->fd, c->in + c->inlen, c->incap - c->inlen);
			if (n <= 0) goto rd_err;
			now = now_ns();
			st.bytes_in += (uint64_t)n;
			c->inlen += (size_t)n;
			size_t used = parse_frames(c, c->in, c->inlen, now);
			if (c->state == C_DEAD) return;
			if (used) { memmove(c->in, c->in + used, c->inlen - used); c->inlen -= used; }
			if (c->inlen + 65536 * 2 < c->incap && c->incap > (1 << 20)) {
				c->incap = c->inlen + 65536;
				c->in = realloc(c->in, c->incap);
			}
			if (c->inlen == 0 && c->incap > 262144) { free(c->in); c->in = NULL; c->incap = 0; }
		}
		continue;
	rd_err:
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return;
		conn_kill(c, n == 0 ? "eof" : "read error");
		return;
	}
}

static const char *b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static void send_handshake(conn_t *c)
{
	char key[25], path[64], req[512];
	uint8_t raw[18] = { 0 };
	for (int i = 0; i < 16; i++) raw[i] = (uint8_t)xrand();
	for (int i = 0, j = 0; i < 18; i += 3) {
		uint32_t v = (uint32_t)raw[i] << 16 | (uint32_t)raw[i + 1] << 8 | raw[i + 2];
		key[j++] = b64[(v >> 18) & 63]; key[j++] = b64[(v >> 12) & 63];
		key[j++] = b64[(v >> 6) & 63];  key[j++] = b64[v & 63];
	}
	key[22] = key[23] = '=';
	key[24] = 0;
	if (cfg.mode == MODE_PARLOR) snprintf(path, sizeof path, "/ws");
	else if (nrooms == 1) snprintf(path, sizeof path, "/");
	else snprintf(path, sizeof path, "/r/%d", cfg.room_base + c->room);
	int n = snprintf(req, sizeof req,
			 "GET %s HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
			 "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n%s\r\n",
			 path, cfg.host, cfg.port, key,
			 cfg.mode == MODE_PARLOR ? "Sec-WebSocket-Protocol: parlor.v1\r\n" : "");
	c->state = C_HANDSHAKE;
	conn_write(c, req, (size_t)n);
}

static void start_connect(conn_t *c)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) { c->fd = -1; n_connected_inflight++; conn_kill(c, "socket() failed"); return; }
	int one = 1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	if (cfg.src_count > 0) {
		struct sockaddr_in src = { .sin_family = AF_INET };
		char ip[32];
		snprintf(ip, sizeof ip, "127.0.0.%d", cfg.src_base + c->idx % cfg.src_count);
		inet_pton(AF_INET, ip, &src.sin_addr);
#ifdef IP_BIND_ADDRESS_NO_PORT
		setsockopt(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof one);
#endif
		bind(fd, (struct sockaddr *)&src, sizeof src);
	}
	struct sockaddr_in dst = { .sin_family = AF_INET, .sin_port = htons((uint16_t)cfg.port) };
	inet_pton(AF_INET, cfg.host, &dst.sin_addr);
	c->fd = fd;
	c->state = C_CONNECTING;
	n_connected_inflight++;
	struct epoll_event ev = { .events = EPOLLIN | EPOLLOUT, .data.ptr = c };
	c->want_out = true;
	epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev);
	if (connect(fd, (struct sockaddr *)&dst, sizeof dst) < 0 && errno != EINPROGRESS)
		conn_kill(c, "connect failed");
}

static void on_event(conn_t *c, uint32_t ev)
{
	if (c->state == C_DEAD) return;
	if (c->state == C_CONNECTING) {
		if (ev & (EPOLLOUT | EPOLLERR | EPOLLHUP)) {
			int err = 0;
			socklen_t l = sizeof err;
			getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &l);
			if (err) { conn_kill(c, strerror(err)); return; }
			ep_mod(c, false);
			send_handshake(c);
		}
		return;
	}
	if (ev & EPOLLIN) on_readable(c);
	if (c->state != C_DEAD && (ev & EPOLLOUT)) flush_out(c);
	if (c->state != C_DEAD && (ev & (EPOLLERR | EPOLLHUP)) && !(ev & EPOLLIN)) conn_kill(c, "hangup");
}

/* ------------------------------------------------------------------ scheduling (rate mode) */

static int *heap, heapn;

static inline bool hlt(int a, int b) { return rooms[a].next_send < rooms[b].next_send; }

static void heap_push(int r)
{
	int i = heapn++;
	heap[i] = r;
	while (i && hlt(heap[i], heap[(i - 1) / 2])) {
		int p = (i - 1) / 2, t = heap[p];
		heap[p] = heap[i]; heap[i] = t; i = p;
	}
}

static int heap_pop(void)
{
	int top = heap[0];
	heap[0] = heap[--heapn];
	int i = 0;
	for (;;) {
		int l = 2 * i + 1, r = l + 1, m = i;
		if (l < heapn && hlt(heap[l], heap[m])) m = l;
		if (r < heapn && hlt(heap[r], heap[m])) m = r;
		if (m == i) break;
		int t = heap[m]; heap[m] = heap[i]; heap[i] = t; i = m;
	}
	return top;
}

static void run_schedule(int64_t now)
{
	while (heapn && rooms[heap[0]].next_send <= now) {
		int ri = heap_pop();
		room_t *r = &rooms[ri];
		int64_t t = r->next_send;
		/* the room's senders take turns; skip dead ones */
		for (int k = 0; k < r->senders; k++) {
			conn_t *c = &conns[r->first + (int)(r->turn++ % (uint64_t)r->senders)];
			if (c->state == C_OPEN && c->phase == P_READY) {
				h_rec(&st.lag, now - t);
				send_message(c, t);
				break;
			}
		}
		r->next_send = t + interval_ns;
		if (r->next_send < st.t_send_end) heap_push(ri);
	}
}

/* ------------------------------------------------------------------ main */

static int stdin_cmd(void)
{
	char b[256];
	ssize_t n = read(0, b, sizeof b - 1);
	if (n <= 0) return 'Q';
	b[n] = 0;
	if (strstr(b, "QUIT")) return 'Q';
	if (strstr(b, "GO")) return 'G';
	return 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: loadgen --mode relay|parlor --port P [--host 127.0.0.1] --conns N\n"
		"  [--room-size K (0: one room)] [--senders-per-room S] (--window W | --rate R/s per room)\n"
		"  [--duration s] [--warmup s] [--drain s] [--payload bytes] [--kind text|session] [--app-id id]\n"
		"  [--src-base 1 --src-count 1 (127.0.0.x sources)] [--room-base n] [--proc-id n]\n"
		"  [--connect-concurrency n] [--setup-timeout s] [--timeout s] [--sync] [--verbose] [--trace]\n");
	exit(2);
}

/* One turn of the event loop: socket events, and the driver's commands on stdin
 * (Q quits, G starts the load). */
static void pump(struct epoll_event *evs, int timeout_ms, bool *quit, bool *go)
{
	int n = epoll_wait(epfd, evs, 1024, timeout_ms);
	for (int i = 0; i < n; i++) {
		conn_t *c = evs[i].data.ptr;
		if (!c) {
			int cmd = stdin_cmd();
			if (cmd == 'Q') *quit = true;
			else if (cmd == 'G') *go = true;
			continue;
		}
		on_event(c, evs[i].events);
	}
}

int main(int argc, char **argv)
{
	static struct option opts[] = {
		{ "mode", 1, 0, 'm' }, { "host", 1, 0, 'h' }, { "port", 1, 0, 'p' },
		{ "conns", 1, 0, 'n' }, { "room-size", 1, 0, 'k' }, { "senders-per-room", 1, 0, 's' },
		{ "window", 1, 0, 'w' }, { "rate", 1, 0, 'r' }, { "duration", 1, 0, 'd' },
		{ "drain", 1, 0, 'D' }, { "warmup", 1, 0, 'W' }, { "payload", 1, 0, 'b' }, { "kind", 1, 0, 'K' },
		{ "src-base", 1, 0, 'S' }, { "src-count", 1, 0, 'C' }, { "room-base", 1, 0, 'R' },
		{ "proc-id", 1, 0, 'P' }, { "sync", 0, 0, 'y' }, { "connect-concurrency", 1, 0, 'c' },
		{ "setup-timeout", 1, 0, 'T' }, { "timeout", 1, 0, 't' }, { "app-id", 1, 0, 'A' },
		{ "verbose", 0, 0, 'v' }, { "trace", 0, 0, 'x' }, { 0, 0, 0, 0 }
	};
	int o;
	while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (o) {
		case 'm': cfg.mode = !strcmp(optarg, "parlor") ? MODE_PARLOR : MODE_RELAY; break;
		case 'h': cfg.host = optarg; break;
		case 'p': cfg.port = atoi(optarg); break;
		case 'n': cfg.conns = atoi(optarg); break;
		case 'k': cfg.room_size = atoi(optarg); break;
		case 's': cfg.senders_per_room = atoi(optarg); break;
		case 'w': cfg.window = atoi(optarg); break;
		case 'r': cfg.rate = atof(optarg); break;
		case 'd': cfg.duration = atof(optarg); break;
		case 'D': cfg.drain = atof(optarg); break;
		case 'W': cfg.warmup = atof(optarg); break;
		case 'b': cfg.payload = atoi(optarg); break;
		case 'K': cfg.kind = !strcmp(optarg, "session") ? KIND_SESSION : KIND_TEXT; break;
		case 'S': cfg.src_base = atoi(optarg); break;
		case 'C': cfg.src_count = atoi(optarg); break;
		case 'R': cfg.room_base = atoi(optarg); break;
		case 'P': cfg.proc_id = atoi(optarg); break;
		case 'y': cfg.sync = 1; break;
		case 'c': cfg.connect_conc = atoi(optarg); break;
		case 'T': cfg.setup_timeout = atof(optarg); break;
		case 't': cfg.hard_timeout = atof(optarg); break;
		case 'A': cfg.app_id = optarg; break;
		case 'v': cfg.verbose = 1; break;
		case 'x': cfg.trace = 1; break;
		default: usage();
		}
	}
	if (cfg.conns <= 0 || cfg.port <= 0) usage();
	if (cfg.payload < 40) cfg.payload = 40;
	if (cfg.payload > 10000) cfg.payload = 10000;
	if (cfg.room_size <= 0 || cfg.room_size > cfg.conns) cfg.room_size = cfg.conns;
	if (cfg.senders_per_room < 0) cfg.senders_per_room = cfg.room_size;
	signal(SIGPIPE, SIG_IGN);
	rng ^= (uint64_t)now_ns() * 2654435761ULL + (uint64_t)getpid();

	int64_t t_begin = now_ns();
	int64_t hard_deadline = t_begin + (int64_t)(cfg.hard_timeout * 1e9);

	conns = calloc((size_t)cfg.conns, sizeof *conns);
	nrooms = (cfg.conns + cfg.room_size - 1) / cfg.room_size;
	rooms = calloc((size_t)nrooms, sizeof *rooms);
	heap = calloc((size_t)nrooms, sizeof *heap);
	for (int r = 0; r < nrooms; r++) {
		rooms[r].first = r * cfg.room_size;
		rooms[r].n = cfg.conns - rooms[r].first < cfg.room_size ? cfg.conns - rooms[r].first : cfg.room_size;
		rooms[r].senders = cfg.senders_per_room < rooms[r].n ? cfg.senders_per_room : rooms[r].n;
	}
	/* ring per sender: enough for the window, or for ~8 s of its share of the rate */
	for (int i = 0; i < cfg.conns; i++) {
		conn_t *c = &conns[i];
		c->fd = -1;
		c->idx = i;
		c->room = i / cfg.room_size;
		room_t *r = &rooms[c->room];
		bool sender = (cfg.window > 0 || cfg.rate > 0) && i - r->first < r->senders;
		if (sender) {
			double need = cfg.window > 0 ? cfg.window * 2.0 : cfg.rate * 8.0 / r->senders + 8;
			uint32_t sz = 8;
			while (sz < need && sz < (1u << 16)) sz <<= 1;
			c->ring = calloc(sz, sizeof(slot_t));
			c->ring_mask = sz - 1;
		}
	}

	epfd = epoll_create1(EPOLL_CLOEXEC);
	if (cfg.sync) {
		struct epoll_event ev = { .events = EPOLLIN, .data.ptr = NULL };
		epoll_ctl(epfd, EPOLL_CTL_ADD, 0, &ev);
	}
	struct epoll_event evs[1024];

	/* ---------------- setup: connect, upgrade, (parlor) register/create/join/subscribe */
	int64_t setup_deadline = t_begin + (int64_t)(cfg.setup_timeout * 1e9);
	bool subscribed = cfg.mode == MODE_RELAY;
	bool quit = false, go = !cfg.sync;
	while (n_settled < cfg.conns && !quit) {
		int64_t now = now_ns();
		if (now > setup_deadline || now > hard_deadline) break;
		while (next_connect < cfg.conns && n_connected_inflight < cfg.connect_conc)
			start_connect(&conns[next_connect++]);
		if (!subscribed && n_joined_or_dead == cfg.conns) {
			/* everyone has joined: subscribe now, so that joins caused no member-event storm */
			subscribed = true;
			for (int i = 0; i < cfg.conns; i++) {
				conn_t *c = &conns[i];
				if (c->state == C_OPEN && c->phase == P_JOINED) {
					c->phase = P_SUBSCRIBE;
					send_json(c, "{\"type\":\"subscribe\",\"id\":\"sub\",\"conversationId\":\"%s\",\"afterSeq\":0}",
						  rooms[c->room].conv);
				}
			}
		}
		pump(evs, 20, &quit, &go);
	}
	double setup_s = (double)(now_ns() - t_begin) / 1e9;
	int not_ready = cfg.conns - n_ready;
	if (cfg.sync) { printf("READY %d %d %.3f\n", n_ready, not_ready, setup_s); fflush(stdout); }
	else fprintf(stderr, "ready %d/%d in %.2fs\n", n_ready, cfg.conns, setup_s);

	/* ---------------- wait for GO */
	while (!go && !quit && now_ns() < hard_deadline) {
		pump(evs, 100, &quit, &go);
	}

	/* ---------------- measure */
	bool has_senders = cfg.window > 0 || cfg.rate > 0;
	double cpu0 = cpu_seconds();
	st.t_start = now_ns();
	st.t_meas = st.t_start + (has_senders ? (int64_t)(cfg.warmup * 1e9) : 0);
	st.t_send_end = st.t_meas + (int64_t)(cfg.duration * 1e9);
	bool in_warmup = true;
	int64_t drain_deadline = st.t_send_end + (int64_t)(cfg.drain * 1e9);
	measuring = 1;
	if (!quit && has_senders) {
		sending = 1;
		if (cfg.rate > 0) {
			interval_ns = (int64_t)(1e9 / cfg.rate);
			for (int r = 0; r < nrooms; r++) {
				if (!rooms[r].senders) continue;
				rooms[r].next_send = st.t_start + (int64_t)(xrand() % (uint64_t)interval_ns);
				rooms[r].turn = xrand() % (uint64_t)rooms[r].senders;
				heap_push(r);
			}
		} else {
			for (int i = 0; i < cfg.conns; i++)
				if (conns[i].ring && conns[i].phase == P_READY) maybe_refill(&conns[i]);
		}
	}
	while (!quit) {
		int64_t now = now_ns();
		if (now > hard_deadline) break;
		if (in_warmup && now >= st.t_meas) {
			in_warmup = false;
			cpu0 = cpu_seconds();
			if (cfg.sync) { printf("MEASURE\n"); fflush(stdout); }
		}
		if (sending && now >= st.t_send_end) sending = 0;
		if (!sending && (st.outstanding == 0 || now >= drain_deadline || !has_senders)) break;
		if (sending && cfg.rate > 0) run_schedule(now);
		run_busy(now);
		int64_t wait = 50000000; /* 50 ms */
		if (busyn) {
			int64_t d = busyq[0].due - now_ns();
			if (d < wait) wait = d < 0 ? 0 : d;
		}
		if (sending && heapn) {
			int64_t d = rooms[heap[0]].next_send - now_ns();
			if (d < wait) wait = d < 0 ? 0 : d;
		}
		if (sending && st.t_send_end - now < wait) wait = st.t_send_end - now;
		if (in_warmup && st.t_meas - now < wait) wait = st.t_meas - now;
		if (wait < 0) wait = 0;
		struct timespec ts = { .tv_sec = wait / 1000000000, .tv_nsec = wait % 1000000000 };
		int n = epoll_pwait2(epfd, evs, 1024, &ts, NULL);
		if (n < 0 && errno == ENOSYS) n = epoll_wait(epfd, evs, 1024, (int)(wait / 1000000));
		t_wake = now_ns();
		for (int i = 0; i < n; i++) {
			conn_t *c = evs[i].data.ptr;
			if (!c) { if (stdin_cmd() == 'Q') quit = true; continue; }
			on_event(c, evs[i].events);
		}
	}
	st.t_end = now_ns();
	measuring = 0;
	double cpu1 = cpu_seconds();
	/* whatever is still in flight never reached everyone */
	for (int i = 0; i < cfg.conns; i++) {
		conn_t *c = &conns[i];
		if (!c->ring) continue;
		for (uint32_t j = 0; j <= c->ring_mask; j++)
			if (c->ring[j].used) st.lost += (uint64_t)(c->ring[j].remaining > 0 ? c->ring[j].remaining : 0);
	}
	int open_now = 0;
	for (int i = 0; i < cfg.conns; i++) open_now += conns[i].state == C_OPEN;

	if (in_warmup) { cpu0 = cpu_seconds(); st.t_meas = st.t_end; }
	double wall = (double)(st.t_end - st.t_meas) / 1e9;
	double active = st.t_last_delivery > st.t_meas ? (double)(st.t_last_delivery - st.t_meas) / 1e9 : wall;
	st.errors = st.error_frames + st.closes + st.setup_failures + st.bad_frames + st.overruns +
		    (st.lost ? 1 : 0);
	FILE *f = stdout;
	fprintf(f, "RESULT {\"proc\":%d,\"mode\":\"%s\",\"conns\":%d,\"ready\":%d,\"open_at_end\":%d,"
		   "\"rooms\":%d,\"room_size\":%d,\"setup_s\":%.3f,\"wall_s\":%.4f,\"active_s\":%.4f,"
		   "\"sent\":%" PRIu64 ",\"deliveries\":%" PRIu64 ",\"acks\":%" PRIu64
		   ",\"frames_in\":%" PRIu64 ",\"bytes_in\":%" PRIu64 ",\"other_events\":%" PRIu64
		   ",\"error_frames\":%" PRIu64 ",\"send_errors\":%" PRIu64 ",\"conflicts\":%" PRIu64 ",\"retries\":%" PRIu64 ",\"busy\":%" PRIu64 ",\"busy_retries\":%" PRIu64
		   ",\"closes\":%" PRIu64 ",\"connect_failures\":%" PRIu64 ",\"setup_failures\":%" PRIu64
		   ",\"lost_deliveries\":%" PRIu64 ",\"overruns\":%" PRIu64 ",\"bad_frames\":%" PRIu64
		   ",\"loadgen_cpu_s\":%.4f,\"loadgen_cpu_share\":%.4f,",
		cfg.proc_id, cfg.mode == MODE_PARLOR ? "parlor" : "relay", cfg.conns, n_ready, open_now,
		nrooms, cfg.room_size, setup_s, wall, active, st.sent, st.deliveries, st.acks,
		st.frames_in, st.bytes_in, st.other_events, st.error_frames, st.send_errors,
		st.conflicts, st.retries, st.busy, st.busy_retries, st.closes, st.connect_failures, st.setup_failures, st.lost, st.overruns,
		st.bad_frames, cpu1 - cpu0, wall > 0 ? (cpu1 - cpu0) / wall : 0);
	h_json(f, "latency", &st.lat);
	fputc(',', f);
	h_json(f, "ack", &st.ack);
	fputc(',', f);
	h_json(f, "completion", &st.completion);
	fputc(',', f);
	h_json(f, "send_lag", &st.lag);
	fputc(',', f);
	h_json(f, "loop_delay", &st.loop);
	fprintf(f, ",\"samples\":[");
	for (int i = 0; i < st.nsamples; i++) {
		fputs(i ? ",\"" : "\"", f);
		for (const char *s = st.samples[i]; *s; s++) {
			if (*s == '"' || *s == '\\') fputc('\\', f);
			if ((unsigned char)*s >= 32) fputc(*s, f);
		}
		fputc('"', f);
	}
	fprintf(f, "]}\n");
	fflush(f);

	/* ---------------- hold the connections until QUIT (the runner samples the server) */
	while (cfg.sync && !quit && now_ns() < hard_deadline) {
		int n = epoll_wait(epfd, evs, 1024, 100);
		for (int i = 0; i < n; i++) {
			conn_t *c = evs[i].data.ptr;
			if (!c) { if (stdin_cmd() == 'Q') quit = true; continue; }
			on_event(c, evs[i].events);
		}
	}
	return 0;
}
