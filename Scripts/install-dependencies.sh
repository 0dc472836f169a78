#!/usr/bin/env bash
# Installs what trace-analyze needs on Debian/Ubuntu beyond Swift itself: PCRE2 (libpcre2-dev) and pkg-config,
# and xmllint (libxml2-utils), which the tests use to check the JUnit report against its schema.
set -euo pipefail
run() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
export DEBIAN_FRONTEND=noninteractive
run apt-get update -qq
run apt-get install -y -qq libpcre2-dev pkg-config libxml2-utils >/dev/null
pkg-config --modversion libpcre2-8 | sed 's/^/libpcre2-8 /'
