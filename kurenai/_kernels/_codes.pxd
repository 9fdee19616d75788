# The ROUGE kind codes in C: the numbers of kurenai/_data/codes.py, declared
# once for every module that switches on them (kurenai/_fused.pyx and
# kurenai/_perl.pyx, which hold them to kurenai._data.codes.check_c_kinds
# when they load).  Compile-time, as the counting branches on them.
#
# Declarations only: nothing here is compiled on its own.

cdef enum Kind:
    NGRAM = 0
    LCS = 1
    LSUM = 2
    WLCS = 3
    SKIP = 4
