/* Whether this CPU runs the pruned search as compiled (search.h: POPCNT on x86-64).
 * Compiled apart from the search, for any x86-64 CPU. */
int kb_cpu_ok(void);

int kb_cpu_ok(void) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && \
    !defined(KAYLES_PORTABLE_ONLY)
    __builtin_cpu_init();
    return __builtin_cpu_supports("popcnt");
#else
    return 1;
#endif
}
