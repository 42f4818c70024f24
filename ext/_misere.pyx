# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True, embedsignature=True
"""The compiled misère search: values of whole positions by exhaustive, memoised search.

kayles/kernels/pure/_misere.py is the twin (same names, results and errors) and says what
the search computes and which reductions it makes.

Misère Grundy values v of positions: a multiset of game heaps, plus ``twos`` nim
heaps *2 and ``ones`` (0 or 1) nim heap *1; v(terminal) = 1, otherwise the mex
over the options.  Same reductions, order of search, budget and errors as the
twin: heaps with no move vanish, heaps that are the game *1 become *1, *1 + *1
cancels.

A position is a key of 32-bit words (twos, ones, live heaps ascending).  Stored
keys sit in one arena as [length, words...]; an open-addressing table (linear
probing, at most half full) maps them to their values.  The depth-first search
keeps its own stack: each frame's options are written after its key in a second
arena and dropped when the frame is done.  The two arenas together may hold at
most budget * WORDS_PER_POSITION + WORDS_SLACK words (checked after each option
written and before each key stored, as the twin counts them): past it, ValueError.
The search runs without the GIL, taking it every LOOK_WORDS words of work (each key
written or looked up counts its words: some 1-5 ms, however many or large the heaps, one
position's options included) to look at Ctrl-C and at the interrupt hook
(kayles.kernels.limits.set_interrupt), and to raise.
"""

from cpython.exc cimport PyErr_CheckSignals
from cpython.pythread cimport (
    PyThread_allocate_lock,
    PyThread_free_lock,
    PyThread_release_lock,
    PyThread_type_lock,
)
from libc.stdint cimport uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcmp, memcpy, memset

from _common cimport MAX_KINDS, Kind, allows, hold, load_kinds, reserve

from kayles.kernels import checks as _args
from kayles.kernels import limits as _limits
from kayles.errors import ResourceError

cdef enum:
    SHAPE_LIVE = 0
    SHAPE_DEAD = 1
    SHAPE_STAR1 = 2
    EMPTY_SLOT = 0xFFFFFFFF  # a slot's offset when it holds no key
    FIRST_SLOTS = 1024       # table size to start with (a power of two)
    LOOK_WORDS = 1 << 22     # words of work between looks at signals and the hook
    WORDS_PER_POSITION = 16  # the budget's weight: kayles/kernels/constants.py (a test checks)
    WORDS_SLACK = 65536      # ... and its room beyond that (kayles/kernels/constants.py)


cdef struct Slot:
    uint64_t hash
    uint32_t offset          # where the key starts in the arena (EMPTY_SLOT: none)
    int value


cdef struct Frame:
    Py_ssize_t key_at        # the key's place in the pending arena
    Py_ssize_t options_at    # its options: [options_at, options_end)
    Py_ssize_t options_end
    Py_ssize_t next          # the first option whose value is not known yet


cdef struct Words:           # a growable array of 32-bit words
    uint32_t* data
    Py_ssize_t length
    Py_ssize_t room


cdef inline int reserve_words(Words* w, Py_ssize_t more) except -1 nogil:
    return reserve(<void**> &w.data, &w.room, w.length + more, sizeof(uint32_t))


cdef inline uint64_t hash_words(const uint32_t* words, Py_ssize_t n) noexcept nogil:
    cdef uint64_t h = 1469598103934665603ULL  # FNV-1a offset basis, over whole words
    cdef Py_ssize_t i
    for i in range(n):
        h = (h ^ words[i]) * 1099511628211ULL   # FNV prime
    return h ^ (h >> 29)


cdef class MisereMemo:
    """The misère values found so far for one game (kinds as in rules.encode).

    One call at a time uses a memo: a call from another thread waits for the one under
    way to end (its lock).
    """

    cdef PyThread_type_lock lock
    cdef Kind kinds[MAX_KINDS]
    cdef int nkinds
    cdef readonly Py_ssize_t budget
    cdef Py_ssize_t word_limit   # budget * WORDS_PER_POSITION: the arenas' room
    cdef Py_ssize_t count
    cdef Slot* slots
    cdef Py_ssize_t nslots
    cdef Words stored            # stored keys: [length, words...]
    cdef Words pending           # keys of the search in progress: [length, words...]
    cdef Frame* frames
    cdef Py_ssize_t nframes, frame_room
    cdef unsigned char* shapes
    cdef Py_ssize_t nshapes, shape_room
    cdef unsigned char* flags    # scratch for the mex
    cdef Py_ssize_t work         # words written or looked up since the last look
    cdef Py_ssize_t flag_room

    def __cinit__(self, kinds, budget):
        cdef Py_ssize_t i
        self.lock = PyThread_allocate_lock()
        if self.lock == NULL:
            raise MemoryError()
        self.nkinds = load_kinds(kinds, self.kinds)
        self.budget = _args.check_count(budget, "the budget")
        self.word_limit = budget * WORDS_PER_POSITION + WORDS_SLACK
        self.slots = <Slot*> malloc(FIRST_SLOTS * sizeof(Slot))
        if self.slots == NULL:
            raise MemoryError()
        self.nslots = FIRST_SLOTS
        for i in range(FIRST_SLOTS):
            self.slots[i].offset = EMPTY_SLOT

    def __dealloc__(self):
        if self.lock != NULL:
            PyThread_free_lock(self.lock)
        free(self.slots)
        free(self.stored.data)
        free(self.pending.data)
        free(self.frames)
        free(self.shapes)
        free(self.flags)

    def __len__(self):
        return self.count

    cdef inline int spend(self, Py_ssize_t words) except -1 nogil:
        """Count words of work; past LOOK_WORDS, look at Ctrl-C and at the interrupt
        hook (either raises to end the search), the GIL taken for that alone."""
        self.work += words
        if self.work >= LOOK_WORDS:
            self.work = 0
            with gil:
                PyErr_CheckSignals()  # Ctrl-C (KeyboardInterrupt) ends a long search
                _limits.interrupt()   # ... and so may a hook (a server's time cap)
        return 0

    cdef int too_heavy(self) except -1 nogil:
        with gil:
            raise ResourceError(f"the misère search needs more memory than its budget allows "
                                f"({self.budget} positions of {WORDS_PER_POSITION} words on "
                                "average)")

    cdef int find(self, const uint32_t* words, Py_ssize_t n) noexcept nogil:
        """The stored value of the key, or -1."""
        cdef uint64_t h = hash_words(words, n)
        cdef Py_ssize_t mask = self.nslots - 1, i = <Py_ssize_t> (h & <uint64_t> mask)
        cdef const uint32_t* key
        while self.slots[i].offset != EMPTY_SLOT:
            if self.slots[i].hash == h:
                key = self.stored.data + self.slots[i].offset
                if key[0] == n and memcmp(key + 1, words, n * sizeof(uint32_t)) == 0:
                    return self.slots[i].value
            i = (i + 1) & mask
        return -1

    cdef int grow_table(self) except -1 nogil:
        cdef Py_ssize_t old_n = self.nslots, n = 2 * old_n, i, j
        cdef Slot* old = self.slots
        cdef Slot* slots = <Slot*> malloc(n * sizeof(Slot))
        if slots == NULL:
            with gil:
                raise MemoryError()
        for i in range(n):
            slots[i].offset = EMPTY_SLOT
        for i in range(old_n):
            if old[i].offset != EMPTY_SLOT:
                j = <Py_ssize_t> (old[i].hash & <uint64_t> (n - 1))
                while slots[j].offset != EMPTY_SLOT:
                    j = (j + 1) & (n - 1)
                slots[j] = old[i]
        self.slots, self.nslots = slots, n
        free(old)
        return 0

    cdef int remember(self, const uint32_t* words, Py_ssize_t n, int value) except -1 nogil:
        """Add a key that is not stored yet (words must not point into the stored arena)."""
        cdef uint64_t h
        cdef Py_ssize_t i
        if self.count >= self.budget:
            with gil:
                raise ResourceError(
                    f"the misère search needs more than {self.budget} positions (its budget)")
        if self.stored.length + n + 1 + self.pending.length > self.word_limit:
            self.too_heavy()
        if 2 * (self.count + 1) > self.nslots:
            self.grow_table()
        reserve_words(&self.stored, n + 1)
        if self.stored.length >= EMPTY_SLOT:
            with gil:
                raise MemoryError("the misère memo's key arena is full")
        h = hash_words(words, n)
        i = <Py_ssize_t> (h & <uint64_t> (self.nslots - 1))
        while self.slots[i].offset != EMPTY_SLOT:
            i = (i + 1) & (self.nslots - 1)
        self.slots[i].hash = h
        self.slots[i].offset = <uint32_t> self.stored.length
        self.slots[i].value = value
        self.stored.data[self.stored.length] = <uint32_t> n
        memcpy(self.stored.data + self.stored.length + 1, words, n * sizeof(uint32_t))
        self.stored.length += n + 1
        self.count += 1
        return 0

    cdef int grow_shapes(self, Py_ssize_t h) except -1 nogil:
        cdef Py_ssize_t n, a, b, rest, j
        cdef int k, shape
        cdef Kind* kind
        if h < self.nshapes:
            return 0
        reserve(<void**> &self.shapes, &self.shape_room, h + 1, 1)
        for n in range(self.nshapes, h + 1):
            shape = SHAPE_DEAD
            for k in range(self.nkinds):
                kind = &self.kinds[k]
                rest = n - kind.span  # may be < 0: no move of this kind
                for a in range(rest // 2 + 1 if rest >= 0 else 0):
                    b = rest - a
                    if not allows(kind, a, b):
                        continue
                    shape = SHAPE_STAR1
                    if self.shapes[a] != SHAPE_DEAD or self.shapes[b] != SHAPE_DEAD:
                        shape = SHAPE_LIVE
                    for j in range(kind.nkept):
                        if self.shapes[kind.kept[j]] != SHAPE_DEAD:
                            shape = SHAPE_LIVE
                    if shape == SHAPE_LIVE:
                        break
                if shape == SHAPE_LIVE:
                    break
            self.shapes[n] = shape
        self.nshapes = h + 1
        return 0

    cdef int push_frame(self, Py_ssize_t key_at) except -1 nogil:
        reserve(<void**> &self.frames, &self.frame_room, self.nframes + 1, sizeof(Frame))
        self.frames[self.nframes].key_at = key_at
        self.frames[self.nframes].options_at = self.pending.length
        self.write_options(key_at)
        self.frames[self.nframes].options_end = self.pending.length
        self.frames[self.nframes].next = self.frames[self.nframes].options_at
        self.nframes += 1
        return 0

    cdef int write_options(self, Py_ssize_t key_at) except -1 nogil:
        """Append every option of the pending key at key_at to the pending arena."""
        cdef Py_ssize_t n = self.pending.data[key_at], i, j, a, b, rest, start, count
        cdef uint32_t h
        cdef int k, t
        cdef Kind* kind
        cdef uint32_t* old
        cdef uint32_t* words
        if n > 2:
            self.grow_shapes(self.pending.data[key_at + n])  # the largest heap
        for i in range(2, n):
            old = self.pending.data + key_at + 1
            h = old[i]
            if i > 2 and old[i - 1] == h:
                continue  # equal heaps have the same options
            for k in range(self.nkinds):
                kind = &self.kinds[k]
                rest = <Py_ssize_t> h - kind.span
                for a in range(rest // 2 + 1 if rest >= 0 else 0):
                    b = rest - a
                    if not allows(kind, a, b):
                        continue
                    reserve_words(&self.pending, n + 1 + 2 + 8)  # two parts and eight kept runs
                    old = self.pending.data + key_at + 1
                    start = self.pending.length
                    words = self.pending.data + start + 1
                    words[0] = old[0]
                    words[1] = old[1]
                    count = 2
                    for j in range(2, n):
                        if j != i:
                            words[count] = old[j]  # already ascending
                            count += 1
                    add_part(self.shapes, words, &count, a)
                    add_part(self.shapes, words, &count, b)
                    for t in range(kind.nkept):
                        add_part(self.shapes, words, &count, kind.kept[t])
                    self.pending.data[start] = <uint32_t> count
                    self.pending.length += count + 1
                    if self.stored.length + self.pending.length > self.word_limit:
                        self.too_heavy()
                    self.spend(count + 1)
        for t in range(3):  # *2 -> *1, *2 -> 0, *1 -> 0
            reserve_words(&self.pending, n + 1)
            old = self.pending.data + key_at + 1
            if (t < 2 and not old[0]) or (t == 2 and not old[1]):
                continue
            start = self.pending.length
            words = self.pending.data + start + 1
            memcpy(words, old, n * sizeof(uint32_t))
            if t < 2:
                words[0] = old[0] - 1
                words[1] = old[1] ^ (1 - t)
            else:
                words[1] = 0
            self.pending.data[start] = <uint32_t> n
            self.pending.length += n + 1
            if self.stored.length + self.pending.length > self.word_limit:
                self.too_heavy()
            self.spend(n + 1)
        return 0

    cdef int finish(self, Frame* f) except -1 nogil:
        """Store the value of a frame whose options are all known."""
        cdef Py_ssize_t at = f.options_at, n, noptions = 0, m
        cdef int v, value
        while at < f.options_end:
            noptions += 1
            at += self.pending.data[at] + 1
        if noptions == 0:
            value = 1
        else:
            reserve(<void**> &self.flags, &self.flag_room, noptions + 1, 1)
            memset(self.flags, 0, noptions + 1)
            at = f.options_at
            while at < f.options_end:
                n = self.pending.data[at]
                v = self.find(self.pending.data + at + 1, n)
                if v <= noptions:
                    self.flags[v] = 1
                at += n + 1
                self.spend(n + 1)
            m = 0
            while self.flags[m]:
                m += 1
            value = <int> m
        self.remember(self.pending.data + f.key_at + 1, self.pending.data[f.key_at], value)
        return 0


cdef inline void insert_heap(uint32_t* words, Py_ssize_t* count, uint32_t h) noexcept nogil:
    """Insert h into the ascending heaps words[2:count] (insertion step)."""
    cdef Py_ssize_t i = count[0]
    while i > 2 and words[i - 1] > h:
        words[i] = words[i - 1]
        i -= 1
    words[i] = h
    count[0] += 1


cdef inline void add_part(const unsigned char* shapes, uint32_t* words, Py_ssize_t* count,
                          Py_ssize_t h) noexcept nogil:
    cdef unsigned char shape = shapes[h]
    if shape == SHAPE_STAR1:
        words[1] ^= 1
    elif shape == SHAPE_LIVE:
        insert_heap(words, count, <uint32_t> h)


def misere_value(memo, heaps, twos):
    """The misère Grundy value of the heaps plus ``twos`` nim heaps *2 (0: a loss to move)."""
    _args.check_memo(memo, MisereMemo)
    heaps = _args.check_heaps(heaps)
    twos = _args.check_count(twos, "the number of *2 heaps")
    cdef MisereMemo own = memo
    hold(own.lock)
    try:
        return value_of(own, heaps, twos)
    finally:
        PyThread_release_lock(own.lock)


cdef int value_of(MisereMemo memo, tuple heaps, Py_ssize_t twos) except -1:
    """misere_value, its arguments checked."""
    cdef Py_ssize_t count = 2, h, top = 0
    cdef int found
    for h in heaps:
        if h > top:
            top = h
    memo.grow_shapes(top)
    memo.pending.length = 0
    memo.nframes = 0
    reserve_words(&memo.pending, len(heaps) + 3)
    memo.pending.data[1] = <uint32_t> twos
    memo.pending.data[2] = 0
    for h in heaps:
        add_part(memo.shapes, memo.pending.data + 1, &count, h)
    memo.pending.data[0] = <uint32_t> count
    memo.pending.length = count + 1
    found = memo.find(memo.pending.data + 1, count)
    if found >= 0:
        return found
    try:
        with nogil:
            search(memo)
    finally:
        memo.nframes = 0
    return memo.find(memo.pending.data + 1, count)


cdef int search(MisereMemo memo) except -1 nogil:
    """The depth-first search from the pending key at 0, without the GIL: it takes it back
    every LOOK_WORDS words of work to look at Ctrl-C and at the interrupt hook (spend)."""
    cdef Py_ssize_t n
    cdef Frame* f
    memo.work = 0
    memo.push_frame(0)
    while memo.nframes:
        memo.spend(1)
        f = &memo.frames[memo.nframes - 1]
        while f.next < f.options_end:
            n = memo.pending.data[f.next]
            memo.spend(n + 1)
            if memo.find(memo.pending.data + f.next + 1, n) < 0:
                break
            f.next += n + 1
        if f.next < f.options_end:
            memo.push_frame(f.next)  # the child's key stays in its parent's options
            continue
        memo.finish(f)
        memo.pending.length = f.options_at
        memo.nframes -= 1
    return 0


def misere_layers_agree(memo, low, high):
    """Whether every position stored with ``high`` nim heaps *2 has the value it has with ``low``.

    See kayles/kernels/pure/_misere.py for why that proves the values alternate from ``low`` on.
    """
    _args.check_memo(memo, MisereMemo)
    low = _args.check_count(low, "low")
    high = _args.check_count(high, "high")
    cdef MisereMemo own = memo
    hold(own.lock)
    cdef Py_ssize_t below = low, above = high
    cdef int agree
    try:
        with nogil:
            agree = layers_agree(own, below, above)
    finally:
        PyThread_release_lock(own.lock)
    return bool(agree)


cdef int layers_agree(MisereMemo memo, Py_ssize_t low, Py_ssize_t high) except -1 nogil:
    """misere_layers_agree, its arguments checked."""
    cdef Py_ssize_t i, n
    cdef const uint32_t* key
    cdef uint32_t* words
    memo.work = 0
    for i in range(memo.nslots):
        if memo.slots[i].offset == EMPTY_SLOT:
            continue
        key = memo.stored.data + memo.slots[i].offset
        memo.spend(1)
        if key[1] != <uint32_t> high:
            continue
        n = key[0]
        memo.spend(2 * n)
        memo.pending.length = 0
        reserve_words(&memo.pending, n)
        words = memo.pending.data
        memcpy(words, key + 1, n * sizeof(uint32_t))
        words[0] = <uint32_t> low
        if memo.find(words, n) != memo.slots[i].value:
            return False
    return True
