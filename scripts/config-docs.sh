#!/usr/bin/env bash
# Regenerates the reference tables of docs/configuration.md from every service's @ConfigMapping interfaces and
# application.properties (ConfigurationReferenceTest with -Dtrimus.docs.write=true); the same test without the
# property, part of ./trimus test, fails when the page and the code disagree. Extra arguments go to Maven (e.g. -o).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
exec ./mvnw -B "$@" -pl testing -am verify -Dtest=ConfigurationReferenceTest -Dsurefire.failIfNoSpecifiedTests=false \
  -Dtrimus.docs.write=true
