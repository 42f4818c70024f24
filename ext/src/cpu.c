/* Which kernels this CPU runs: decided at run time, so one build runs anywhere. */

#include "kernels.h"

#if (defined(__SSE2__) || defined(_M_X64)) && !defined(KAYLES_PORTABLE_ONLY)
const char kayles_portable[] = "sse2";
#else
const char kayles_portable[] = "scalar";
#endif

int kayles_has_avx512(void) {
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) && \
    !defined(KAYLES_PORTABLE_ONLY)
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
#else
    return 0;
#endif
}

int kayles_has_avx2(void) {
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) && \
    !defined(KAYLES_PORTABLE_ONLY)
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2");
#else
    return 0;
#endif
}
