#!/bin/bash
# SPDX-License-Identifier: MIT
# The bash completion (docs/completion/aorta-run), sourced into bash and
# asked as bash-completion asks it, offers what it should for a few
# prefixes; and every option `aorta-run --help` lists is in the completion,
# in aorta-run(1) and in the README, so an option added later cannot drift.
# Needs bash (the completion's language); skips (77) without it.
set -u
builddir=${AORTA_TEST_BUILDDIR:?}
srcdir=${AORTA_TEST_SRCDIR:?}
aorta=$builddir/core/aorta-run
completion=$srcdir/docs/completion/aorta-run
status=0
fail() { echo "FAIL: $*"; status=1; }

# shellcheck source=/dev/null
. "$completion" || { echo "FAIL: cannot source $completion"; exit 1; }

# What _aorta_run offers for the words given (the last one being completed).
offers() {
    COMP_WORDS=("$aorta" "$@")
    COMP_CWORD=$#
    COMPREPLY=()
    _aorta_run 2>/dev/null
    printf '%s\n' "${COMPREPLY[@]}"
}
expect() { # WHAT WORD... : the offers for the words must include WHAT
    local what=$1
    shift
    offers "$@" | grep -qxF -- "$what" || fail "completing '$*' does not offer '$what' (got: $(offers "$@" | tr '\n' ' '))"
}
expect_not() {
    local what=$1
    shift
    offers "$@" | grep -qxF -- "$what" && fail "completing '$*' offers '$what'"
}

expect --describe --desc
expect --check-collector --check
expect --dry-run --dry
expect_not --recipe --dry
expect rocprof --plugin-dir "$builddir/plugins" --describe ro
expect proton --plugin-dir "$builddir/plugins" --parse p
expect rocprof,proton --plugin-dir "$builddir/plugins" --collect rocprof,pr
# No duplicates: a collector the --collect list has, an option given once.
expect_not rocprof,rocprof --plugin-dir "$builddir/plugins" --collect rocprof,
expect rocprof,proton --plugin-dir "$builddir/plugins" --collect rocprof,
expect_not --recipe --recipe x.yaml --re
expect --plugin-dir --plugin-dir "$builddir/plugins" --plugin
[ "$(offers --dry | sort | uniq -d)" = "" ] || fail "completing '--dry' offers a word twice"
# No --plugin-dir and no collector installed for the tests: nothing.
expect_not rocprof --describe ro
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/sweep.yaml"
: >"$tmp/notes.txt"
: >"$tmp/extra.json"
expect "$tmp/sweep.yaml" --recipe "$tmp/s"
expect_not "$tmp/notes.txt" --recipe "$tmp/n"
expect "$tmp/extra.json" --mitigations-file "$tmp/e"
# After --, the command's own words.
expect "$tmp/notes.txt" -- sh "$tmp/n"

# Every option of --help, everywhere it must be.
options=$("$aorta" --help | sed -n 's/^  \(-[-a-z]*\).*/\1/p' | sort -u)
[ -n "$options" ] || fail "aorta-run --help lists no option"
for option in $options; do
    case " $(echo $_aorta_run_options) " in *" $option "*) ;; *) fail "$option (--help) is not in the completion" ;; esac
    man=$(printf '%s' "$option" | sed 's/-/\\\\-/g')
    grep -q -e "$man" -e "\\\\fB$option" "$srcdir/docs/aorta-run.1" || fail "$option (--help) is not in docs/aorta-run.1"
    grep -qF -- "$option" "$srcdir/README.md" || fail "$option (--help) is not in README.md"
done
# The long spellings of -v and -q, documented alike.
for option in --verbose --quiet; do
    "$aorta" --help | grep -qF -- "$option" || fail "$option is not in --help"
    man=$(printf '%s' "$option" | sed 's/-/\\\\-/g')
    grep -q -e "$man" "$srcdir/docs/aorta-run.1" || fail "$option is not in docs/aorta-run.1"
    grep -qF -- "$option" "$srcdir/README.md" || fail "$option is not in README.md"
done
# The man page's examples run from the build tree as written.
grep -q 'build/plugins' "$srcdir/docs/aorta-run.1" && fail "docs/aorta-run.1 names build/plugins, which no build makes"
grep -qF 'core/aorta\-run \-\-plugin\-dir plugins' "$srcdir/docs/aorta-run.1" || fail "docs/aorta-run.1's examples lack the in-tree line"
# And nothing in the completion that --help does not list.
for option in $_aorta_run_options; do
    echo "$options" | grep -qxF -- "$option" || fail "$option is in the completion but not in --help"
done
[ $status -eq 0 ] && echo "ok: completion offers, and --help, aorta-run(1), README agree on $(echo "$options" | wc -l) options"
exit $status
