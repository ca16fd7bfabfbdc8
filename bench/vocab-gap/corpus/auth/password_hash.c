#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kdf.h"

#define SALT_BYTES 16
#define DIGEST_BYTES 32
#define ROUNDS 600000

/* Derives a digest from a passphrase with a random salt; only salt and digest are kept. */
int
derive_key (const char *passphrase,
            uint8_t     salt[SALT_BYTES],
            uint8_t     digest[DIGEST_BYTES])
{
  if (random_bytes (salt, SALT_BYTES) != 0)
    return -1;

  return pbkdf2_sha256 ((const uint8_t *) passphrase, strlen (passphrase),
                        salt, SALT_BYTES, ROUNDS, digest, DIGEST_BYTES);
}

int
verify_key (const char    *passphrase,
            const uint8_t  salt[SALT_BYTES],
            const uint8_t  expected[DIGEST_BYTES])
{
  uint8_t digest[DIGEST_BYTES];
  uint8_t diff = 0;

  if (pbkdf2_sha256 ((const uint8_t *) passphrase, strlen (passphrase),
                     salt, SALT_BYTES, ROUNDS, digest, DIGEST_BYTES) != 0)
    return -1;
  for (size_t i = 0; i < DIGEST_BYTES; i++)
    diff |= digest[i] ^ expected[i];

  return diff == 0 ? 0 : 1;
}
