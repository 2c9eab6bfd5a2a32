# Shortcuts for the scripts (each makes or reuses the project's .venv, see scripts/_venv.sh).
.PHONY: play test docs docs-build

play:
	bash scripts/play.sh

test:
	bash scripts/test.sh

docs:           ## serve the documentation site at http://127.0.0.1:8000/
	bash scripts/docs.sh serve

docs-build:     ## build it into site/ with --strict, as CI does
	bash scripts/docs.sh build
