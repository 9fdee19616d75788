"""The bottom row of kurenai: data every layer reads, importing nothing of
kurenai (the kind codes, the tokenization rules, the near misses every
registry's refusal names, Perl's rounding)."""
