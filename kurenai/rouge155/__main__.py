"""``python -m kurenai.rouge155``: ROUGE-1.5.5.pl's command line, without Perl."""

import sys

from kurenai.rouge155.cli import main

sys.exit(main())
