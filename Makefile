# Two commands on a fresh machine: `make gen`, then `make test`. Each bootstraps
# what it needs: a virtualenv in .venv, npm packages, cargo crates.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
SUM := $(shell cksum < pyproject.toml | cut -d' ' -f1)
# npm, in every target that installs packages (the tests' lock files, make dist's scratch
# projects): a registry download that stalls gives up after a minute and is tried again, instead
# of npm's own five minutes a try (a stalled tarball once held a CI run for twenty).
export npm_config_fetch_timeout := 60000
export npm_config_fetch_retries := 4
export npm_config_fetch_retry_maxtimeout := 20000
# What the generator needs (the `gen` pins only), and what the tests and linters need.
GEN_STAMP := $(VENV)/.gen-$(SUM)
STAMP := $(VENV)/.installed-$(SUM)

.PHONY: gen check test test-fast test-floor lint lint-python lint-typescript lint-rust bench clean fuzz breaking changelog dist docs

$(GEN_STAMP): pyproject.toml codegen/pins.py
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check $$($(PYTHON) codegen/pins.py extra gen)
	@rm -f $(VENV)/.gen-*
	@touch $(GEN_STAMP)

$(STAMP): $(GEN_STAMP)
	$(PY) -m pip install -q --disable-pip-version-check -e '.[dev]'
	@rm -f $(VENV)/.installed-*
	@touch $(STAMP)

## gen: regenerate generated/ from idl/ (Python, TypeScript, Rust, bundled JSON Schema);
## installs only the generator's pinned tools
gen: $(GEN_STAMP)
	$(PY) -m codegen gen

## check: fail with a diff when generated/, the reference pages in docs/reference/ or the
## wire changes in CHANGELOG.md do not match idl/
check: $(GEN_STAMP)
	$(PY) -m codegen check
	$(PY) -m codegen changelog --check

## test: every test in every language, including cross-language conformance; each language
## runs even when another fails, and a summary line per language ends the output
test: $(STAMP)
	bash tests/run_all.sh $(PY)

## test-fast: the quick Python subset (no package builds, no large property runs), a worker per core
test-fast: $(STAMP)
	$(PY) -m pytest -q -m "not slow" -n auto --dist loadgroup

## test-floor: the wire and runtime tests on the lowest versions pyproject.toml allows
## (pydantic, orjson), in a virtualenv of their own; `make test` covers the pinned top
FLOOR_VENV := .venv-floor
test-floor: $(STAMP)
	@test -x $(FLOOR_VENV)/bin/python || $(PYTHON) -m venv $(FLOOR_VENV)
	$(FLOOR_VENV)/bin/python -m pip install -q --disable-pip-version-check \
		$$($(PY) codegen/pins.py floor) $$($(PY) codegen/pins.py test-tools)
	PYTHONPATH=$(CURDIR):$(CURDIR)/support/python $(FLOOR_VENV)/bin/python -m pytest -q -p no:cacheprovider -n auto \
		tests/wire/test_wire.py tests/wire/test_fast_wire.py tests/runtime/test_tool.py tests/runtime/test_tool_decorator.py tests/wire/test_suspend.py \
		tests/wire/test_content_part.py tests/project/test_public_api.py tests/runtime/test_toolkit.py tests/wire/test_conformance.py

## docs: the docs site into site/ (MkDocs, strict: a broken link or anchor is an error); the
## wire type pages come from `make gen`; the guides are docs/guides/
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --quiet
	@echo "docs: site/index.html"

## dist: the wheel and sdist, the npm tarball and the .crate, into dist/
dist: $(STAMP)
	bash tests/dist/python.sh dist
	bash tests/dist/typescript.sh dist
	bash tests/dist/rust.sh dist

## lint: ruff and mypy (strict) on the runtime, the generator and the wire package (support/python);
## tsc on the TypeScript package (support/typescript), rustfmt and clippy on the crate (support/rust)
## (one target per language, which .pre-commit-config.yaml runs too)
lint: lint-python lint-typescript lint-rust

lint-python: $(STAMP)
	$(VENV)/bin/ruff check toolnexus codegen tests examples bench support/python
	$(VENV)/bin/ruff format --check toolnexus codegen support/python
	$(VENV)/bin/mypy toolnexus codegen
	$(VENV)/bin/mypy -p toolnexus_wire

lint-typescript:
	bash tests/typescript/run.sh lint

lint-rust:
	bash tests/rust/run.sh lint

## bench: time the hot paths against their peers, and the loop against the agent frameworks
## (pydantic-ai, the OpenAI Agents SDK, LangGraph, the upstream port in .venv-upstream), and write
## bench/RESULTS.md and its plot docs/assets/bench-overhead.svg; the durable hosts (the store
## against raw sqlite3, Temporal against a bare workflow) into bench/DURABLE.md, and the
## PostgreSQL store (against raw psycopg; wait against polling) into bench/POSTGRES.md (not in CI)
UPSTREAM_VENV := .venv-upstream
bench: $(STAMP)
	$(PY) -m pip install -q --disable-pip-version-check -e '.[dev,bench]'
	@test -x $(UPSTREAM_VENV)/bin/python || $(PYTHON) -m venv $(UPSTREAM_VENV)
	$(UPSTREAM_VENV)/bin/python -m pip install -q --disable-pip-version-check \
		$$($(PY) codegen/pins.py extra bench-upstream) \
		|| echo "bench: the upstream port did not install; bench/RESULTS.md says so and leaves it out"
	$(PY) bench/bench.py
	$(PY) bench/durable.py
	$(PY) bench/postgres.py

## fuzz: the cross-language differential fuzzer over FUZZ_COUNT generated documents (Python,
## TypeScript and Rust must agree on every verdict and on the bytes), then the property tests
## (wire round trips, hostile input, the fast paths against the reference paths) FUZZ_SCALE times longer
FUZZ_SCALE ?= 50
FUZZ_COUNT ?= 100000
FUZZ_SEED ?= 1
fuzz: $(STAMP)
	$(PY) -m tests.fuzz --count $(FUZZ_COUNT) --seed $(FUZZ_SEED) --quiet
	TOOLNEXUS_FUZZ_SCALE=$(FUZZ_SCALE) $(PY) -m pytest -q -s -p no:cacheprovider \
		tests/wire/test_properties.py tests/wire/test_fast_wire.py tests/runtime/test_fast_checks.py

## breaking: grade every change to idl/ since the last release in idl/releases.json (or since
## AGAINST=<git ref>) as wire-breaking, source-breaking per language, additive or docs, and fail
## unless the manifest's version moved enough (docs/versioning.md)
breaking: $(GEN_STAMP)
	$(PY) -m codegen breaking $(if $(AGAINST),--against $(AGAINST))

## changelog: write the graded wire changes of the schema version into CHANGELOG.md (a marked
## block; everything else there is hand-written and kept)
changelog: $(GEN_STAMP)
	$(PY) -m codegen changelog

clean:
	rm -rf $(VENV) $(FLOOR_VENV) $(UPSTREAM_VENV) dist site .cache tests/typescript/node_modules tests/typescript/.cache support/typescript/dist support/typescript/node_modules support/rust/target
