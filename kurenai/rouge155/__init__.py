"""ROUGE-1.5.5, the official Perl script, byte for byte in Python (placeholder)."""
