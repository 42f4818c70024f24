# cython: language_level=3
"""The C of ext/src/hackenbush.h (Green Hackenbush's kernel), declared once: see that
header for each."""


cdef extern from "hackenbush.h" nogil:
    enum:
        HB_EDGES "KAYLES_HB_EDGES"          # edges of one picture
        HB_STOPPED "KAYLES_HB_STOPPED"      # a look said stop (the exception is set)
        HB_NO_MEMORY "KAYLES_HB_NO_MEMORY"

    ctypedef int (*look_t "kayles_hb_look")(void* context) noexcept nogil
    ctypedef struct pulse_t "kayles_hb_pulse":
        look_t look
        void* context
        Py_ssize_t steps

    ctypedef struct parsed_t "kayles_hb_parsed":
        int* us
        int* vs
        Py_ssize_t edges
        int vertices
        Py_ssize_t bad
    int hb_parse "kayles_hb_parse"(const char* text, Py_ssize_t length, Py_ssize_t most,
                                   Py_ssize_t chunk, parsed_t* out, pulse_t* pulse) noexcept
    void hb_parsed_free "kayles_hb_parsed_free"(parsed_t* parsed) noexcept
    Py_ssize_t hb_characters "kayles_hb_characters"(const char* text, Py_ssize_t size) noexcept
    Py_ssize_t hb_names_size "kayles_hb_names_size"(const parsed_t* parsed) noexcept
    void hb_names_join "kayles_hb_names_join"(const parsed_t* parsed, char* out) noexcept

    ctypedef struct search_t "kayles_hb_search":
        int n
        Py_ssize_t m
        int value
    int hb_search_open "kayles_hb_search_open"(search_t* s, int n, int* us, int* vs,
                                               Py_ssize_t m, pulse_t* pulse) noexcept
    void hb_search_free "kayles_hb_search_free"(search_t* s) noexcept
    int hb_grounded "kayles_hb_grounded"(const search_t* s, unsigned char* out,
                                         pulse_t* pulse) noexcept
    int hb_cuts "kayles_hb_cuts"(const search_t* s, int want, int direct_per_level, int** won,
                                 Py_ssize_t* count, pulse_t* pulse) noexcept

    int hb_chain_values "kayles_hb_chain_values"(const int* weights, Py_ssize_t m,
                                                 int direct_per_level, int* out,
                                                 pulse_t* pulse) noexcept
    int hb_chain_direct "kayles_hb_chain_direct"(const int* weights, Py_ssize_t m, int* out,
                                                 pulse_t* pulse) noexcept
    int hb_chain_trie "kayles_hb_chain_trie"(const int* weights, Py_ssize_t m, int* out,
                                             pulse_t* pulse) noexcept
