"""Where the corpus of real files is: ``../shared/corpus``, beside the project's folder (it is
never copied into the project; a clone without it skips the tests that read it)."""

from pathlib import Path

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
