# Two commands on a fresh machine: `make gen`, then `make test`. Each bootstraps
# what it needs: a virtualenv in .venv, npm packages, cargo crates.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cksum < pyproject.toml | cut -d' ' -f1)

.PHONY: gen check test test-python test-typescript test-rust lint bench clean

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
	$(PY) -m pytest -q

## lint: ruff and mypy (strict) on the runtime and the generator
lint: $(STAMP)
	$(VENV)/bin/ruff check toolnexus codegen tests examples
	$(VENV)/bin/ruff format --check toolnexus codegen
	$(VENV)/bin/mypy toolnexus codegen

clean:
	rm -rf $(VENV) .cache generated/typescript/node_modules generated/rust/target
