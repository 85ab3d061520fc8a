/*
 * Chat-room relay written directly on libwebsockets 4.1 (Debian's libwebsockets-dev):
 * every text frame received is sent to every client connected on the same request
 * path (the room), the sender included.  One shared, refcounted buffer per message,
 * a per-connection queue of pointers, and exactly one lws_write() per
 * LWS_CALLBACK_SERVER_WRITEABLE — the floor of Parlor's own substrate.
 * No permessage-deflate, no HTTP_CONFIRM_UPGRADE handling.
 *
 * Usage: lws-peer PORT (or env PORT)
 *   LWS_EVLIB=ev|uv|glib  use that event-library plugin instead of lws's default
 *                         poll() loop (which costs O(connections) per loop turn)
 */
#include <libwebsockets.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct msg {
	int refs;
	size_t len;
	unsigned char buf[]; /* LWS_PRE + payload */
};

struct room;

struct pss {
	struct lws *wsi;
	struct room *room;
	struct pss *next, *prev;
	struct msg **q;
	unsigned qhead, qlen, qcap; /* ring */
	unsigned char *rx;
	size_t rxlen, rxcap;
};

struct room {
	struct room *next;
	struct pss *members;
	char path[];
};

#define NBUCKETS 4096
static struct room *buckets[NBUCKETS];
static volatile int interrupted;

static unsigned hash(const char *s)
{
	unsigned h = 2166136261u;
	while (*s) { h ^= (unsigned char)*s++; h *= 16777619u; }
	return h % NBUCKETS;
}

static struct room *room_get(const char *path)
{
	unsigned h = hash(path);
	for (struct room *r = buckets[h]; r; r = r->next)
		if (!strcmp(r->path, path)) return r;
	size_t n = strlen(path);
	struct room *r = calloc(1, sizeof(*r) + n + 1);
	memcpy(r->path, path, n + 1);
	r->next = buckets[h];
	buckets[h] = r;
	return r;
}

static void msg_unref(struct msg *m)
{
	if (--m->refs == 0) free(m);
}

static void q_push(struct pss *p, struct msg *m)
{
	if (p->qlen == p->qcap) {
		unsigned ncap = p->qcap ? p->qcap * 2 : 8;
		struct msg **nq = malloc(ncap * sizeof(*nq));
		for (unsigned i = 0; i < p->qlen; i++) nq[i] = p->q[(p->qhead + i) % p->qcap];
		free(p->q);
		p->q = nq; p->qcap = ncap; p->qhead = 0;
	}
	p->q[(p->qhead + p->qlen) % p->qcap] = m;
	p->qlen++;
	m->refs++;
}

static int callback_relay(struct lws *wsi, enum lws_callback_reasons reason,
			  void *user, void *in, size_t len)
{
	struct pss *p = (struct pss *)user;

	switch (reason) {
	case LWS_CALLBACK_ESTABLISHED: {
		char path[256] = "/";
		if (lws_hdr_copy(wsi, path, sizeof(path), WSI_TOKEN_GET_URI) <= 0)
			strcpy(path, "/");
		char *qm = strchr(path, '?');
		if (qm) *qm = 0;
		memset(p, 0, sizeof(*p));
		p->wsi = wsi;
		p->room = room_get(path);
		p->next = p->room->members;
		if (p->next) p->next->prev = p;
		p->room->members = p;
		break;
	}
	case LWS_CALLBACK_CLOSED:
		if (!p->room) break;
		if (p->prev) p->prev->next = p->next; else p->room->members = p->next;
		if (p->next) p->next->prev = p->prev;
		while (p->qlen) {
			msg_unref(p->q[p->qhead]);
			p->qhead = (p->qhead + 1) % p->qcap;
			p->qlen--;
		}
		free(p->q);
		free(p->rx);
		p->room = NULL;
		break;

	case LWS_CALLBACK_RECEIVE: {
		if (lws_frame_is_binary(wsi)) break;
		if (lws_is_first_fragment(wsi)) p->rxlen = 0;
		if (p->rxlen + len > p->rxcap) {
			p->rxcap = (p->rxlen + len) * 2;
			p->rx = realloc(p->rx, p->rxcap);
		}
		memcpy(p->rx + p->rxlen, in, len);
		p->rxlen += len;
		if (!lws_is_final_fragment(wsi) || lws_remaining_packet_payload(wsi))
			break;
		struct msg *m = malloc(sizeof(*m) + LWS_PRE + p->rxlen);
		m->refs = 1; /* held while fanning out */
		m->len = p->rxlen;
		memcpy(m->buf + LWS_PRE, p->rx, p->rxlen);
		p->rxlen = 0;
		for (struct pss *o = p->room->members; o; o = o->next) {
			q_push(o, m);
			lws_callback_on_writable(o->wsi);
		}
		msg_unref(m);
		break;
	}
	case LWS_CALLBACK_SERVER_WRITEABLE: {
		if (!p->qlen) break;
		struct msg *m = p->q[p->qhead];
		p->qhead = (p->qhead + 1) % p->qcap;
		p->qlen--;
		int n = lws_write(wsi, m->buf + LWS_PRE, m->len, LWS_WRITE_TEXT);
		msg_unref(m);
		if (n < 0) return -1;
		if (p->qlen) lws_callback_on_writable(wsi);
		break;
	}
	default:
		break;
	}
	return lws_callback_http_dummy(wsi, reason, user, in, len);
}

static const struct lws_protocols protocols[] = {
	{ "relay", callback_relay, sizeof(struct pss), 0, 0, NULL, 0 },
	{ NULL, NULL, 0, 0, 0, NULL, 0 }
};

static int using_evlib;

static void sigint_handler(int sig)
{
	(void)sig;
	if (using_evlib) _exit(0); /* the event library's loop does not return to us */
	interrupted = 1;
}

int main(int argc, char **argv)
{
	const char *ps = argc > 1 ? argv[1] : getenv("PORT");
	struct lws_context_creation_info info;
	struct lws_context *context;

	signal(SIGINT, sigint_handler);
	signal(SIGTERM, sigint_handler);
	signal(SIGPIPE, SIG_IGN);
	lws_set_log_level(LLL_ERR | LLL_WARN, NULL);

	memset(&info, 0, sizeof info);
	info.port = ps ? atoi(ps) : 9005;
	info.iface = "127.0.0.1";
	info.protocols = protocols;
	info.max_http_header_pool = 256;
	info.timeout_secs = 30;
	info.options = LWS_SERVER_OPTION_DISABLE_IPV6;
	const char *evlib = getenv("LWS_EVLIB");
	if (evlib && !strcmp(evlib, "ev")) info.options |= LWS_SERVER_OPTION_LIBEV;
	else if (evlib && !strcmp(evlib, "uv")) info.options |= LWS_SERVER_OPTION_LIBUV;
	else if (evlib && !strcmp(evlib, "glib")) info.options |= LWS_SERVER_OPTION_GLIB;
	using_evlib = evlib && *evlib;

	context = lws_create_context(&info);
	if (!context) {
		fprintf(stderr, "lws init failed\n");
		return 1;
	}
	printf("listening on http://127.0.0.1:%d\n", info.port);
	fflush(stdout);
	while (!interrupted)
		if (lws_service(context, 0) < 0) break;
	lws_context_destroy(context);
	return 0;
}
