# The two commands of the README: `make demo` and `make test`.
.PHONY: setup demo test lint

setup:
	@bash scripts/setup.sh

demo: setup
	.venv/bin/diffvoice run --input voice/assets/question.wav --output reply.wav

test: setup
	.venv/bin/python -m pytest -q

lint: setup
	.venv/bin/ruff check .
