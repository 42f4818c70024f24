/* Which kernels this CPU runs: decided at run time, so one build runs anywhere. */

#include <string.h>

#include "kernels.h"

#if (defined(__SSE2__) || defined(_M_X64)) && !defined(KAYLES_PORTABLE_ONLY)
const char kayles_portable[] = "sse2";
#else
const char kayles_portable[] = "scalar";
#endif

int kayles_has_avx512(void) {
#if KAYLES_X86_VECTORS
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
#else
    return 0;
#endif
}

int kayles_has_gfni(void) {
#if KAYLES_X86_VECTORS
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("gfni");
#else
    return 0;
#endif
}

int kayles_has_avx2(void) {
#if KAYLES_X86_VECTORS
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2");
#else
    return 0;
#endif
}

const kayles_vectors *kayles_vectors_named(const char *name) {
#if KAYLES_X86_VECTORS
    if (strcmp(name, "avx512bw") == 0)
        return !kayles_has_avx512() ? NULL
               : kayles_has_gfni() ? &kayles_avx512_gfni_vectors : &kayles_avx512_vectors;
    if (strcmp(name, "avx2") == 0)
        return kayles_has_avx2() ? &kayles_avx2_vectors : NULL;
#endif
    return strcmp(name, kayles_portable) == 0 ? &kayles_portable_vectors : NULL;
}
