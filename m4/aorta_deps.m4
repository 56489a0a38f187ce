dnl SPDX-License-Identifier: MIT
# aorta_deps.m4 - dependency checks that stop with the Debian package to install.

# AORTA_REQUIRE_PKG(VARIABLE-PREFIX, MODULES, DEBIAN-PACKAGE)
# pkg-config check; a missing module stops configure naming the package.
AC_DEFUN([AORTA_REQUIRE_PKG], [
  PKG_CHECK_MODULES([$1], [$2], [],
    [AC_MSG_ERROR([$2 not found: install the Debian package '$3' (apt-get install -y $3)])])
])

# AORTA_REQUIRE_LTDL
# The system libltdl (never bundled); sets LTDL_LIBS.
AC_DEFUN([AORTA_REQUIRE_LTDL], [
  AC_CHECK_HEADER([ltdl.h], [],
    [AC_MSG_ERROR([ltdl.h not found: install the Debian package 'libltdl-dev' (apt-get install -y libltdl-dev)])])
  aorta_save_LIBS=$LIBS
  AC_SEARCH_LIBS([lt_dladvise_init], [ltdl], [],
    [AC_MSG_ERROR([libltdl not found: install the Debian package 'libltdl-dev' (apt-get install -y libltdl-dev)])])
  LIBS=$aorta_save_LIBS
  LTDL_LIBS="-lltdl"
  AC_SUBST([LTDL_LIBS])
])

# AORTA_CHECK_CHECK(MIN-VERSION)
# Check runs the tests.  configure stops without it unless --without-check
# was given (a build for packaging that never runs `make check`).
AC_DEFUN([AORTA_CHECK_CHECK], [
  AC_ARG_WITH([check],
    [AS_HELP_STRING([--without-check], [build without the test suite's Check dependency])],
    [], [with_check=yes])
  have_check=no
  AS_IF([test "x$with_check" != xno],
    [PKG_CHECK_MODULES([CHECK], [check >= $1], [have_check=yes],
      [AC_MSG_ERROR([check >= $1 not found: install the Debian package 'check' (apt-get install -y check), or configure --without-check])])])
  AM_CONDITIONAL([HAVE_CHECK], [test "x$have_check" = xyes])
])
