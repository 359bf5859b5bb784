"""Shared fixtures for the training tests: one small corpus and tokenizer per session."""

from __future__ import annotations

import pytest

from training.corpus import build_corpus, texts_for_tokenizer
from training.tokenizer import train_tokenizer


@pytest.fixture(scope="session")
def small_corpus():
    return build_corpus(seed=3, size=3000)


@pytest.fixture(scope="session")
def small_tokenizer(small_corpus):
    return train_tokenizer(texts_for_tokenizer(small_corpus), vocab_size=1024)
