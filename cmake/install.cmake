# How gordian installs (docs/install.md): `cmake --install BUILD --prefix P`
# puts
#   P/bin/gordian
#   P/share/gordian/runtime/std   the Go runtime hooks the recorder overlays
#   P/share/gordian/irgen         the IR generator's sources with the vendored
#                                 x/tools (built with the user's Go on first
#                                 use, into the cache)
#   P/share/doc/gordian           README.md and docs/
#   P/share/man/man1/gordian.1    the man page
#   P/share/bash-completion/completions/gordian, and the zsh completion
# The binary finds share/gordian relative to itself (driver/work_dir.h,
# FindGordianDir), so any prefix works and the tree can be moved; bin and
# share/gordian are therefore fixed, not GNUInstallDirs variables. The man
# page and the completions are generated at build time from the built
# binary's --help texts (cmake/help_files.sh), so they list what it accepts.
include(GNUInstallDirs)

set(GORDIAN_ZSH_COMPLETION_DIR share/zsh/vendor-completions CACHE STRING
    "Where the zsh completion _gordian is installed, relative to the prefix (Debian's zsh reads share/zsh/vendor-completions)")

set(help_dir ${CMAKE_BINARY_DIR}/generated/help)
set(help_files ${help_dir}/gordian.1 ${help_dir}/gordian.bash ${help_dir}/_gordian)
add_custom_command(OUTPUT ${help_files}
  COMMAND bash ${CMAKE_SOURCE_DIR}/cmake/help_files.sh $<TARGET_FILE:gordian> ${help_dir}
  DEPENDS gordian ${CMAKE_SOURCE_DIR}/cmake/help_files.sh
  COMMENT "gordian: the man page and the shell completions from the --help texts"
  VERBATIM)
add_custom_target(gordian_help_files ALL DEPENDS ${help_files})

install(TARGETS gordian RUNTIME DESTINATION bin)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/runtime/std DESTINATION share/gordian/runtime)
install(FILES ${CMAKE_SOURCE_DIR}/runtime/go.mod ${CMAKE_SOURCE_DIR}/runtime/README.md
        DESTINATION share/gordian/runtime)
# The generator's tests and their testdata are not needed to build it.
install(DIRECTORY ${CMAKE_SOURCE_DIR}/tools/irgen/ DESTINATION share/gordian/irgen
        PATTERN testdata EXCLUDE
        PATTERN "*_test.go" EXCLUDE)
install(FILES ${CMAKE_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs)
install(FILES ${help_dir}/gordian.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${help_dir}/gordian.bash DESTINATION share/bash-completion/completions
        RENAME gordian)
install(FILES ${help_dir}/_gordian DESTINATION ${GORDIAN_ZSH_COMPLETION_DIR})
