# formwire: one command to set up, build, test, demo and benchmark every implementation.
# Targets are documented by their `##` comments; `make help` lists them.

SHELL := /bin/bash
PYTHON ?= python3
CARGO ?= cargo
RUST_MANIFEST := rust/Cargo.toml
LANGS := $(strip $(if $(wildcard rust/Cargo.toml),rust) $(if $(wildcard ts/package.json),ts) $(if $(wildcard python/pyproject.toml),python) $(if $(wildcard go/go.mod),go))

.DEFAULT_GOAL := help
.PHONY: help setup build rust-build ts-build python-build go-build test conformance cross validate registry lint vectors demo bench bench-quick java-huge interop interop-smoke clean package

help: ## List the targets
	@grep -hE '^[a-zA-Z0-9_-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-14s %s\n", $$1, $$2}'

setup: ## Install dev dependencies from the public registries into ignored repo folders
	@scripts/setup

build: setup rust-build ts-build python-build go-build ## Build every implementation present

rust-build:
	@if [ -f $(RUST_MANIFEST) ]; then $(CARGO) build --release --quiet --manifest-path $(RUST_MANIFEST) --workspace; fi

ts-build:
	@if [ -f ts/package.json ]; then npm --prefix ts run --silent build; fi

python-build:
	@if [ -f python/pyproject.toml ]; then $(MAKE) --no-print-directory -C python build; fi

go-build:
	@if [ -f go/go.mod ]; then go build -C go ./... && go build -C go -trimpath -o bin/formwire-testee ./cmd/formwire-testee; fi

package: build ## npm tarball, `cargo package` of the publishable crates, abi3 wheel + sdist into target/package/, then install and run each in a clean environment
	@$(PYTHON) scripts/package.py test

test: build ## Unit tests + conformance for every language; ends with `N passed, N failed`
	@$(PYTHON) scripts/test-all.py

conformance: build ## Run the shared vectors against every implementation present
	@for l in $(LANGS); do echo "== $$l"; $(PYTHON) conformance/run --lang $$l || exit 1; done

cross: build ## Every encoder's output decoded by every other implementation
	@$(PYTHON) conformance/run --cross $(foreach l,$(LANGS),--lang $(l))

validate: ## Check every vector against vectors/schema.json and the spec rule IDs, and generated files against spec/registry.json
	@$(PYTHON) conformance/run --validate
	@$(PYTHON) scripts/registry/gen.py --check

lint: setup ## Every linter and formatter check (clippy, rustfmt, tsc, ruff, mypy, go vet/gofmt, javac -Werror), warnings as errors
	@scripts/lint

registry: ## Regenerate every language's limits/error constants and the spec tables from spec/registry.json
	@$(PYTHON) scripts/registry/gen.py

vectors: ## Regenerate the shared vectors from vectors/src/ (then validate)
	@for g in vectors/src/*/generate*; do echo "== $$g"; case $$g in *.py) $(PYTHON) $$g;; *.mjs) node $$g;; esac || exit 1; done
	@$(PYTHON) conformance/run --validate

demo: build ## The main job: encode a sample form with the CLI, decode it back, print parts and throughput
	@if [ -x scripts/demo ]; then scripts/demo; else $(MAKE) --no-print-directory conformance; fi

bench: build ## Benchmarks against the incumbents (filters: W=W1 LANG=ts, LANG read from the command line only); writes bench/results + BENCHMARKS.md
	@if [ -x bench/run ]; then bench/run $(if $(W),--workload $(W)) $(if $(filter command line,$(origin LANG)),--lang $(LANG)); else echo "bench/run not present yet"; exit 1; fi

bench-quick: ## Smoke run of the benchmark harness (small inputs, 1 repetition)
	@if [ -x bench/run ]; then bench/run --quick; else echo "bench/run not present yet"; fi

java-huge: ## Once, not in make test: a 19.5 GB upload streamed to WebFlux + formwire with -Xmx256m (FORMWIRE_HUGE_DIR: where the file lands, ~40 GB free)
	bench/java/run --huge

interop: build ## Interop matrix: Chromium, Node, Python, Go, curl against every implementation (saves new cap-live-* vectors)
	@interop/setup && $(PYTHON) interop/run

interop-smoke: build ## The interop matrix without Chromium; writes no vectors (part of make test)
	@interop/setup --smoke && $(PYTHON) interop/run --smoke

clean: ## Remove build outputs (keeps installed dependencies)
	@rm -rf rust/target ts/dist bench/.work
