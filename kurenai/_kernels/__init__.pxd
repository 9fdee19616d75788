# Marks kurenai/_kernels/ as a package for cimport on every Cython 3 release
# (3.0.x resolves cimports from a folder without one unreliably).  No
# __init__.py: nothing here is imported from Python; the modules cimport these
# inline parts and include these headers at compile time.
