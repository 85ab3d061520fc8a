/*
 * The one libcrypto call ParlorCore needs: SHA-256 for stored secret hashes and
 * content-addressed blobs. A target of its own so the domain does not link the
 * network library (libwebsockets) to hash a token.
 */
#ifndef PARLOR_CRYPTO_SHIM_H
#define PARLOR_CRYPTO_SHIM_H

#include <openssl/evp.h>

/* SHA-256 of a buffer into out[32]; returns 1 on success. */
static inline int parlor_sha256(const void *data, size_t len, unsigned char *out) {
    unsigned int outlen = 0;
    return EVP_Digest(data, len, out, &outlen, EVP_sha256(), NULL);
}

#endif
