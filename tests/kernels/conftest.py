"""Kernel tests run the Triton path (under the interpreter when there is no GPU)."""

from collections.abc import Iterator

import pytest

pytest.importorskip("triton")

import kernels  # noqa: E402  (after the importorskip above)


@pytest.fixture(autouse=True)
def triton_backend() -> Iterator[None]:
    """Force the public functions onto the Triton path for each test, then restore."""
    old = kernels.set_backend("triton")
    try:
        yield
    finally:
        kernels.set_backend(old)
