/* Nimber arithmetic on 64-bit words (nimber.h says how it works).

   The 16-bit field multiplies through LOG and EXP: x (x) y = EXP[LOG[x] + LOG[y]] for
   x, y != 0, EXP holding two periods of the multiplicative group so that no sum needs a
   reduction; a zero factor is masked out without a branch (the halves of real operands
   are zero often, and not in a pattern a branch predictor learns).  A product by the
   constant 2**15 (the F/2 of the 32-bit level) adds its logarithm LOG_HALF; the 64-bit
   level's F/2 = 2**31 = 2**15 (x) 2**16 splits into two of those (mul_half31). */

#include "nimber.h"

#define ORDER 65535u /* the multiplicative group of the 16-bit field */

static uint16_t LOG[1u << 16];    /* LOG[EXP[i]] == i; LOG[0] == 0, masked out */
static uint16_t EXP[2 * ORDER];   /* g ** i, i < 2 * ORDER, g the primitive element found */
static uint32_t LOG_HALF;         /* the logarithm of 2**15 */
static uint32_t LOG_HALF_SQUARED; /* ... of 2**15 (x) 2**15 */
static int ready;

/* -- the recursion of nimber.h, bit by bit: slow, the tables' source ---------------- */

static uint64_t mul_slow(uint64_t a, uint64_t b, int bits) {
    if (bits == 1) return a & b & 1;
    int half = bits / 2;
    uint64_t mask = (1ULL << half) - 1;
    uint64_t a0 = a & mask, a1 = a >> half, b0 = b & mask, b1 = b >> half;
    uint64_t low = mul_slow(a0, b0, half);
    uint64_t high = mul_slow(a1, b1, half);
    uint64_t mixed = mul_slow(a0 ^ a1, b0 ^ b1, half);
    return ((mixed ^ low) << half) | (low ^ mul_slow(high, 1ULL << (half - 1), half));
}

void kayles_nim_init(void) {
    if (ready) return;
    /* Multiplication by g is linear over GF(2): the images of the 16 bits, then each
       power of g costs 16 XORs at most.  g is primitive when its first return to 1 is
       after ORDER steps; elements below 256 lie in the field of 256 and fail at once. */
    for (uint32_t g = 2;; g++) {
        uint32_t image[16];
        for (int bit = 0; bit < 16; bit++)
            image[bit] = (uint32_t)mul_slow(1ULL << bit, g, 16);
        uint32_t x = 1, n;
        for (n = 0; n < ORDER; n++) {
            EXP[n] = (uint16_t)x;
            uint32_t next = 0;
            for (int bit = 0; bit < 16; bit++)
                if (x >> bit & 1) next ^= image[bit];
            x = next;
            if (x == 1) break;
        }
        if (n == ORDER - 1) break;
    }
    for (uint32_t n = 0; n < ORDER; n++) {
        EXP[n + ORDER] = EXP[n];
        LOG[EXP[n]] = (uint16_t)n;
    }
    LOG[0] = 0;
    LOG_HALF = LOG[1u << 15];
    LOG_HALF_SQUARED = LOG[EXP[2 * LOG_HALF]];
    ready = 1;
}

/* -- 16 bits -------------------------------------------------------------------------- */

static inline uint32_t nonzero(uint32_t x) { return -(uint32_t)(x != 0); } /* all ones or 0 */

static inline uint32_t mul16(uint32_t a, uint32_t b) {
    return EXP[LOG[a] + LOG[b]] & (nonzero(a) & nonzero(b));
}

static inline uint32_t mul16_log(uint32_t a, uint32_t log_c) { /* a (x) c, c != 0 */
    return EXP[LOG[a] + log_c] & nonzero(a);
}

static inline uint32_t square16(uint32_t a) { return EXP[2u * LOG[a]] & nonzero(a); }

static inline uint32_t inverse16(uint32_t a) { return EXP[ORDER - LOG[a]]; }

static inline uint32_t sqrt16(uint32_t a) {
    uint32_t l = LOG[a];
    l += (l & 1) * ORDER; /* an even logarithm of the same element */
    return EXP[l >> 1] & nonzero(a);
}

/* -- 32 bits: F = 2**16, F/2 = 2**15 -------------------------------------------------- */

static inline uint32_t mul32(uint32_t a, uint32_t b) {
    uint32_t a0 = a & 0xFFFF, a1 = a >> 16, b0 = b & 0xFFFF, b1 = b >> 16;
    uint32_t low = mul16(a0, b0), high = mul16(a1, b1), mixed = mul16(a0 ^ a1, b0 ^ b1);
    return ((mixed ^ low) << 16) | (low ^ mul16_log(high, LOG_HALF));
}

/* z (x) 2**31, 2**31 = 2**15 (x) F: (z1 F + z0) 2**15 F = (z1 + z0) 2**15 F + z1 2**15 2**15 */
static inline uint32_t mul_half31(uint32_t z) {
    uint32_t z0 = z & 0xFFFF, z1 = z >> 16;
    return (mul16_log(z0 ^ z1, LOG_HALF) << 16) | mul16_log(z1, LOG_HALF_SQUARED);
}

static inline uint32_t square32(uint32_t a) {
    uint32_t high = square16(a >> 16);
    return (high << 16) | (square16(a & 0xFFFF) ^ mul16_log(high, LOG_HALF));
}

/* a**-1 = conj(a) / N(a): conj(a1 F + a0) = a1 F + (a0 + a1), N(a) = a0 (a0 + a1) + a1**2 F/2 */
static inline uint32_t inverse32(uint32_t a) {
    uint32_t a0 = a & 0xFFFF, a1 = a >> 16;
    uint32_t norm = mul16(a0, a0 ^ a1) ^ mul16_log(square16(a1), LOG_HALF);
    uint32_t inv = inverse16(norm);
    return (mul16(a1, inv) << 16) | mul16(a0 ^ a1, inv);
}

/* (x1 F + x0)**2 = x1**2 F + (x1**2 F/2 + x0**2): x1 = sqrt(a1), x0 = sqrt(a0 + a1 F/2) */
static inline uint32_t sqrt32(uint32_t a) {
    uint32_t a0 = a & 0xFFFF, a1 = a >> 16;
    return (sqrt16(a1) << 16) | sqrt16(a0 ^ mul16_log(a1, LOG_HALF));
}

/* -- 64 bits: F = 2**32, F/2 = 2**31 -------------------------------------------------- */

uint64_t kayles_nim_mul(uint64_t a, uint64_t b) {
    uint32_t a0 = (uint32_t)a, a1 = (uint32_t)(a >> 32);
    uint32_t b0 = (uint32_t)b, b1 = (uint32_t)(b >> 32);
    uint32_t low = mul32(a0, b0), high = mul32(a1, b1), mixed = mul32(a0 ^ a1, b0 ^ b1);
    return ((uint64_t)(mixed ^ low) << 32) | (low ^ mul_half31(high));
}

uint64_t kayles_nim_square(uint64_t a) {
    uint32_t high = square32((uint32_t)(a >> 32));
    return ((uint64_t)high << 32) | (square32((uint32_t)a) ^ mul_half31(high));
}

uint64_t kayles_nim_inverse(uint64_t a) {
    uint32_t a0 = (uint32_t)a, a1 = (uint32_t)(a >> 32);
    uint32_t norm = mul32(a0, a0 ^ a1) ^ mul_half31(square32(a1));
    uint32_t inv = inverse32(norm);
    return ((uint64_t)mul32(a1, inv) << 32) | mul32(a0 ^ a1, inv);
}

uint64_t kayles_nim_sqrt(uint64_t a) {
    uint32_t a0 = (uint32_t)a, a1 = (uint32_t)(a >> 32);
    return ((uint64_t)sqrt32(a1) << 32) | sqrt32(a0 ^ mul_half31(a1));
}

uint64_t kayles_nim_pow(uint64_t a, uint64_t k) {
    uint64_t result = 1;
    while (k) {
        if (k & 1) result = kayles_nim_mul(result, a);
        k >>= 1;
        if (k) a = kayles_nim_square(a);
    }
    return result;
}

/* -- buffers -------------------------------------------------------------------------- */

void kayles_nim_mul_many(const uint64_t *a, const uint64_t *b, uint64_t *out, size_t n) {
    for (size_t i = 0; i < n; i++) out[i] = kayles_nim_mul(a[i], b[i]);
}

void kayles_nim_scale(const uint64_t *a, uint64_t s, uint64_t *out, size_t n) {
    for (size_t i = 0; i < n; i++) out[i] = kayles_nim_mul(a[i], s);
}

uint64_t kayles_nim_dot(const uint64_t *a, const uint64_t *b, size_t n) {
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++) total ^= kayles_nim_mul(a[i], b[i]);
    return total;
}
