#!/usr/bin/env bash
# Installs what trace-analyze needs on Debian/Ubuntu beyond Swift itself: PCRE2 (libpcre2-dev), ISA-L (libisal-dev,
# whose inflate reads gzip captures), libyaml (libyaml-dev, which reads configuration files) and pkg-config. With --for-tests, also zlib (zlib1g-dev: the tests compress their
# gzip inputs with it) and what the report tests drive: headless Chromium (the HTML report's screenshot and
# hostile-page tests), xmllint (the JUnit report's XSD check) and cmark-gfm (GitHub's Markdown engine, for the Markdown
# report's escaping); without those three the tests they drive are skipped, except in CI.
set -euo pipefail
run() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
packages=(libpcre2-dev libisal-dev libyaml-dev pkg-config)
if [ "${1:-}" = "--for-tests" ]; then packages+=(zlib1g-dev chromium libxml2-utils cmark-gfm); fi
export DEBIAN_FRONTEND=noninteractive
run apt-get update -qq
run apt-get install -y -qq "${packages[@]}" >/dev/null
pkg-config --modversion libpcre2-8 | sed 's/^/libpcre2-8 /'
pkg-config --modversion libisal | sed 's/^/libisal /'
pkg-config --modversion yaml-0.1 | sed 's/^/libyaml /'
if [ "${1:-}" = "--for-tests" ]; then pkg-config --modversion zlib | sed 's/^/zlib /'; fi
