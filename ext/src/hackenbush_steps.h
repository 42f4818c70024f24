/* What hackenbush.c and hackenbush_cuts.c share: the look every so many steps (TICK),
   allocation (NEED, block, ints, filled, grow) and growing lists of ints.  Private to them. */

#ifndef KAYLES_HACKENBUSH_STEPS_H
#define KAYLES_HACKENBUSH_STEPS_H

#include "hackenbush.h"

#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#define RANDOM 16   /* a step that misses the caches (a probe, a search step) counts this many */

static inline int tick(kayles_hb_pulse *pulse, ptrdiff_t steps)
{
    pulse->steps += steps;
    if (pulse->steps < KAYLES_HB_PULSE)
        return 0;
    pulse->steps = 0;
    return pulse->look != NULL && pulse->look(pulse->context) != 0;
}

#define TICK(steps) do { if (tick(pulse, (steps))) { rc = KAYLES_HB_STOPPED; goto done; } } while (0)
#define NEED(pointer) do { if ((pointer) == NULL) { rc = KAYLES_HB_NO_MEMORY; goto done; } } while (0)

#define HUGE_PAGE ((size_t)2 << 20)

/* `bytes` (at least one), zeroed or not, freed by free().  A large block is asked for in
   2 MB pages where Linux gives them (MADV_HUGEPAGE): the passes read their arrays at random
   places, and with 4 KB pages each such read also misses the TLB (a random tree of 10^6
   edges reads its 16 MB names table 1.5 times faster so). */
static inline void *block(size_t bytes, int zero)
{
    if (bytes == 0)
        bytes = 1;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (bytes >= 2 * HUGE_PAGE) {
        void *out;
        bytes = (bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);   /* aligned_alloc: a multiple */
        out = aligned_alloc(HUGE_PAGE, bytes);
        if (out != NULL) {
            madvise(out, bytes, MADV_HUGEPAGE);   /* a hint: no matter if refused */
            if (zero)
                memset(out, 0, bytes);
        }
        return out;
    }
#endif
    return zero ? calloc(bytes, 1) : malloc(bytes);
}

static inline int *ints(ptrdiff_t count)   /* count ints (at least one), uninitialised */
{
    return block((size_t)(count > 0 ? count : 1) * sizeof(int), 0);
}

static inline int *filled(ptrdiff_t count, int value)
{
    int *out = ints(count);
    if (out != NULL)
        for (ptrdiff_t i = 0; i < count; i++)
            out[i] = value;
    return out;
}

static inline int grow(void **items, ptrdiff_t *room, ptrdiff_t need, size_t size)
{
    ptrdiff_t wanted = *room > 0 ? *room : 16;
    void *grown;
    if (need <= *room)
        return 0;
    while (wanted < need)
        wanted *= 2;
    grown = realloc(*items, (size_t)wanted * size);
    if (grown == NULL)
        return -1;
    *items = grown;
    *room = wanted;
    return 0;
}

typedef struct {   /* a growing list of ints */
    int *at;
    ptrdiff_t count, room;
} list_t;

static inline int append(list_t *list, int value)
{
    if (grow((void **)&list->at, &list->room, list->count + 1, sizeof(int)))
        return -1;
    list->at[list->count++] = value;
    return 0;
}

#endif
