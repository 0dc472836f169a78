#!/usr/bin/env bash
# Checks the vector keyword search and chunk scan (Sources/CSIMD) against naive loops with a small C harness
# (Tests/CSIMDHarness/harness.c): built natively (AVX-512 where the processor has it, then again as AVX2 with
# CSIMD_NO_AVX512, and with AVX-512 VBMI's whole-byte lookups turned off with CSIMD_NO_VBMI; NEON on AArch64), and
# for AArch64 under
# qemu where `aarch64-linux-gnu-gcc` and `qemu-aarch64` are installed (Debian: gcc-aarch64-linux-gnu
# libc6-dev-arm64-cross qemu-user), so the NEON path Apple silicon runs is checked on an x86 machine too.
# The Swift tests check the path of the machine they run on through the library; this covers the other one.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
sources=(Tests/CSIMDHarness/harness.c Sources/CSIMD/literals.c Sources/CSIMD/header_run.c)
cc=${CC:-$(command -v cc || command -v clang || command -v gcc)}
echo "== native ($(uname -m)), $cc"
"$cc" -O2 -Wall -Wextra -ISources/CSIMD/include "${sources[@]}" -o "$out/native"
if grep -qw avx512bw /proc/cpuinfo 2> /dev/null; then
    echo "== native, AVX2 where AVX-512 would run (CSIMD_NO_AVX512)"
    CSIMD_NO_AVX512=1 "$out/native"
fi
if grep -qw avx512vbmi /proc/cpuinfo 2> /dev/null; then
    echo "== native, AVX-512 nibble tables where VBMI lookups would run (CSIMD_NO_VBMI)"
    CSIMD_NO_VBMI=1 "$out/native"
fi
"$out/native"
if command -v aarch64-linux-gnu-gcc > /dev/null && command -v qemu-aarch64 > /dev/null; then
    echo "== aarch64 (NEON) under qemu"
    aarch64-linux-gnu-gcc -O2 -Wall -Wextra -static -ISources/CSIMD/include "${sources[@]}" -o "$out/aarch64"
    qemu-aarch64 "$out/aarch64"
else
    echo "== aarch64: skipped (needs aarch64-linux-gnu-gcc and qemu-aarch64)"
fi
