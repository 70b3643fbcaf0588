# The packages `cmake --build BUILD --target package` writes into BUILD
# (CPack, from the install rules of cmake/install.cmake):
#   gordian_<version>_amd64.deb       installs under /usr
#   gordian-<version>-linux-amd64.tar.gz  bin/, share/ under one directory
# The .deb depends on the shared libraries the binary links (found by
# dpkg-shlibdeps: libc6, libstdc++6, libfmt9, ...); Go is a Recommends, since
# users bring their own (any go on PATH or $GORDIAN_GO will do), and SPIN,
# for the Promela `gordian verify -promela` writes, a Suggests.
set(CPACK_PACKAGE_NAME gordian)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "finds concurrency bugs in Go programs and proves them")
set(CPACK_PACKAGE_DESCRIPTION
    "Records a run of a Go program or its tests with the stock Go toolchain, predicts what
other schedules of the same run can do (deadlocks, goroutine leaks, sends on closed
channels, lock-order inversions, data races with -race), and replays a schedule to
confirm each bug. Also checks models of the code for every interleaving (gordian
verify) and explores schedules (gordian fuzz). Reports as text, JSON, SARIF and HTML.")
set(CPACK_PACKAGE_CONTACT "gordian maintainers")
set(CPACK_GENERATOR DEB TGZ)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGE_FILE_NAME gordian-${PROJECT_VERSION}-linux-amd64)
set(CPACK_INCLUDE_TOPLEVEL_DIRECTORY ON)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# golang-go's epoch is 2; Debian 12's own is 1.19, too old, so there the
# Recommends is not met and the user's Go is used.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "golang-go (>= 2:1.23~)")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "spin")
find_program(GORDIAN_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(GORDIAN_DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
  message(WARNING "dpkg-shlibdeps (Debian's dpkg-dev) not found: the .deb of --target "
                  "package lists no libraries in Depends; install dpkg-dev, or name them "
                  "with -DGORDIAN_DEB_DEPENDS=...")
  set(GORDIAN_DEB_DEPENDS "" CACHE STRING "Depends of the .deb when dpkg-shlibdeps is missing")
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "${GORDIAN_DEB_DEPENDS}")
endif()
include(CPack)
