#!/bin/sh
# SPDX-License-Identifier: MIT
# Regenerate the build system from configure.ac and the Makefile fragments.
set -e
cd "$(dirname "$0")"
exec autoreconf -fi
