# Two commands on a fresh machine: `make gen`, then `make test`. Each bootstraps
# what it needs: a virtualenv in .venv, npm packages, cargo crates.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cksum < pyproject.toml | cut -d' ' -f1)

.PHONY: gen check test test-python test-typescript test-rust lint bench clean fuzz breaking

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check -e '.[dev]'
	@rm -f $(VENV)/.installed-*
	@touch $(STAMP)

## gen: regenerate generated/ from idl/ (Python, TypeScript, Rust, bundled JSON Schema)
gen: $(STAMP)
	$(PY) -m codegen gen

## check: fail with a diff when generated/ does not match idl/
check: $(STAMP)
	$(PY) -m codegen check

## test: every test in every language, including cross-language conformance
test: $(STAMP)
	bash tests/typescript/run.sh
	bash tests/rust/run.sh
	$(PY) -m pytest -q

## lint: ruff and mypy (strict) on the runtime and the generator
lint: $(STAMP)
	$(VENV)/bin/ruff check toolnexus codegen tests examples bench
	$(VENV)/bin/ruff format --check toolnexus codegen
	$(VENV)/bin/mypy toolnexus codegen

## bench: time the hot paths against their peers and write bench/RESULTS.md (about 3 minutes; not in CI)
bench: $(STAMP)
	$(PY) -m pip install -q --disable-pip-version-check -e '.[dev,bench]'
	$(PY) bench/bench.py

## fuzz: the property tests (wire round trips, hostile input, the fast paths against the reference paths) with FUZZ_SCALE times the examples
FUZZ_SCALE ?= 50
fuzz: $(STAMP)
	TOOLNEXUS_FUZZ_SCALE=$(FUZZ_SCALE) $(PY) -m pytest -q -s -p no:cacheprovider \
		tests/test_properties.py tests/test_fast_wire.py tests/test_fast_checks.py

## breaking: list breaking wire changes in idl/ since AGAINST (default: the previous commit)
AGAINST ?= HEAD~1
breaking: $(STAMP)
	$(PY) -m codegen breaking --against $(AGAINST)

clean:
	rm -rf $(VENV) .cache tests/typescript/node_modules tests/typescript/.cache generated/typescript/dist generated/rust/target
