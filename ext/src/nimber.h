/* Nimber arithmetic on 64-bit words: the field of order 2**64, table-driven.

   The nimbers below 2**(2**k) form a field; the one below F = 2**(2**(k-1)) is a
   subfield, and over it the field below F * F is the quadratic extension by F, whose
   minimal polynomial is x**2 + x + F/2 (F (x) F = F + F/2 in nim arithmetic).  So with
   a = a1 F + a0 and b = b1 F + b0 (halves in the subfield),

       a (x) b = ((a0 + a1)(b0 + b1) + a0 b0) F + (a0 b0 + a1 b1 (x) F/2)

   three products of halves (Karatsuba) and one by the constant F/2.  At the bottom the
   field of 2**16 nimbers multiplies by logarithm tables (kayles_nim_init builds them from
   a primitive element found by trying, with a slow product made from the definition
   above); 32 and 64 bits are the decomposition twice.  Inverses come from the norm to
   the subfield, square roots from the Frobenius map undone half by half (nimber.c).

   kayles_nim_init must run once before any other function (ext/_nimber.pyx does so at
   import, under the GIL); after it the tables are only read, by any thread. */

#ifndef KAYLES_NIMBER_H
#define KAYLES_NIMBER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KAYLES_NIMBER_BITS 64      /* the word: nimbers 0 to 2**64 - 1 */
#define KAYLES_NIMBER_TABLE_BITS 16  /* the subfield multiplied by logarithm tables */

void kayles_nim_init(void);
uint64_t kayles_nim_mul(uint64_t a, uint64_t b);
uint64_t kayles_nim_square(uint64_t a);
uint64_t kayles_nim_inverse(uint64_t a);   /* a != 0 */
uint64_t kayles_nim_sqrt(uint64_t a);
uint64_t kayles_nim_pow(uint64_t a, uint64_t k);   /* 0 ** 0 == 1 */
/* out[i] = a[i] (x) b[i]; out may be a or b */
void kayles_nim_mul_many(const uint64_t *a, const uint64_t *b, uint64_t *out, size_t n);
/* out[i] = a[i] (x) s */
void kayles_nim_scale(const uint64_t *a, uint64_t s, uint64_t *out, size_t n);
/* the nim sum (XOR) of a[i] (x) b[i] */
uint64_t kayles_nim_dot(const uint64_t *a, const uint64_t *b, size_t n);

#ifdef __cplusplus
}
#endif

#endif
