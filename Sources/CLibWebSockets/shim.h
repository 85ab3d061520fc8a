/*
 * The C surface Parlor uses: Debian's libwebsockets 4.1 (and OpenSSL's
 * TLS options). Hashing lives in CCrypto, apart from the network.
 *
 * Swift imports functions and structs but drops macro expressions, so every helper
 * here wraps exactly one such macro or a call whose C signature does not import
 * cleanly. Each is prefixed `parlor_` to keep it apart from the libraries' names.
 */
#ifndef PARLOR_SHIM_H
#define PARLOR_SHIM_H

#include <libwebsockets.h>
#include <openssl/ssl.h>
#include <malloc.h>

/* LWS_PRE is `#define LWS_PRE _LWS_PAD(...)`: headroom lws_write needs before a buffer. */
static inline size_t parlor_lws_pre(void) { return LWS_PRE; }

/* lws_write takes an enum that Swift imports as a struct; these keep call sites short. */
static inline int parlor_write_raw(struct lws *wsi, unsigned char *buf, size_t len) {
    return lws_write(wsi, buf, len, LWS_WRITE_RAW);
}
static inline int parlor_write_http(struct lws *wsi, unsigned char *buf, size_t len, int final) {
    return lws_write(wsi, buf, len, final ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP);
}

/* Closes a connection from outside its own callback (a timer): lws kills it on its next
 * service turn. LWS_TO_KILL_ASYNC is a macro constant. */
static inline void parlor_kill_async(struct lws *wsi) {
    lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, LWS_TO_KILL_ASYNC);
}

/* Drops a connection being closed if it is still there in `seconds` (lws replaces this
 * with its own close-ack wait once the close frame is sent). The reason is an enum
 * constant Swift imports as a struct. */
static inline void parlor_close_within(struct lws *wsi, int seconds) {
    lws_set_timeout(wsi, PENDING_TIMEOUT_CLOSE_SEND, seconds);
}

/* glibc's malloc_trim(0): gives the heap's whole free pages back to the system, also
 * those between live blocks (free() only ever shrinks the top). Not in Swift's Glibc
 * module (<malloc.h>). LWSServer.sweep calls it after a burst of releases. */
static inline void parlor_trim_heap(void) { malloc_trim(0); }

/* Server options are 64-bit macro constants built from shifts. `libev` runs the loop on
 * lws's libev plugin (epoll), whose cost does not grow with idle connections as poll()'s does. */
static inline uint64_t parlor_server_options(int tls, int validate_utf8, int libev, int ipv4_only) {
    uint64_t o = 0;
    /* lws 4.1 puts an IPv4 --host into an IPv6 socket's address wrongly and binds ::
     * (every interface): an IPv4 address needs an IPv4 socket. */
    if (ipv4_only) o |= LWS_SERVER_OPTION_DISABLE_IPV6;
    if (tls) o |= LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
    if (validate_utf8) o |= LWS_SERVER_OPTION_VALIDATE_UTF8;
    if (libev) o |= LWS_SERVER_OPTION_LIBEV;
    return o;
}

/* TLS 1.2 and 1.3 only, the server's cipher order (SSL_OP_* are macros). */
static inline long parlor_tls_options(void) {
    return SSL_OP_NO_SSLv3 | SSL_OP_NO_TLSv1 | SSL_OP_NO_TLSv1_1 | SSL_OP_CIPHER_SERVER_PREFERENCE;
}

/* A timer on the service thread: lws's sorted usec list entry plus a back pointer.
 * lws_container_of is a macro, so finding the timer from its list entry lives here. */
struct parlor_timer {
    lws_sorted_usec_list_t sul;
    void *user;
};
static inline struct parlor_timer *parlor_timer_of(lws_sorted_usec_list_t *sul) {
    return lws_container_of(sul, struct parlor_timer, sul);
}

#endif
