# What makes a clean build fast: CI builds gordian three times from nothing
# (release, sanitizers, libFuzzer) on two cores, and a file takes 8 to 15 s
# to compile, 2.5 s of it the standard and fmt headers (gtest another 1 to
# 2 s in a test).
#
# Unity builds: the .cc files of a target are compiled in batches of 8, one
# compiler run per batch, so headers and templates are compiled once per
# batch. A file-local (anonymous namespace) name must therefore be unique
# within its target: two files of one library or test binary may not both
# define a static helper called At(). GORDIAN_UNITY=OFF compiles file by
# file (a touched file then recompiles alone, not its batch).
#
# Precompiled headers: the common headers compiled once per target.
# GORDIAN_PCH=OFF builds without them (e.g. to check that every file
# includes what it uses).
option(GORDIAN_UNITY "Compile each target's files in batches (unity build)" ON)
option(GORDIAN_PCH "Precompile the common standard, fmt and gtest headers" ON)
if(GORDIAN_UNITY)
  set(CMAKE_UNITY_BUILD ON)
  set(CMAKE_UNITY_BUILD_BATCH_SIZE 8)
endif()

set(GORDIAN_PCH_HEADERS
  <algorithm> <chrono> <cstdint> <cstdio> <cstdlib> <cstring> <filesystem>
  <fstream> <functional> <map> <memory> <set> <sstream> <string>
  <string_view> <unordered_map> <utility> <vector> <fmt/format.h>)

# gordian_precompile_headers(DIR): every library and executable defined in
# DIR and the directories below it gets the common headers precompiled;
# test executables (linking gtest) get gtest's header too.
function(gordian_precompile_headers dir)
  if(NOT GORDIAN_PCH)
    return()
  endif()
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(sub IN LISTS subdirs)
    gordian_precompile_headers(${sub})
  endforeach()
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  foreach(t IN LISTS targets)
    get_target_property(type ${t} TYPE)
    if(NOT type MATCHES "^(STATIC_LIBRARY|EXECUTABLE)$")
      continue()
    endif()
    get_target_property(libs ${t} LINK_LIBRARIES)
    set(headers ${GORDIAN_PCH_HEADERS})
    if("GTest::gtest" IN_LIST libs)
      list(APPEND headers <gtest/gtest.h>)
    endif()
    target_precompile_headers(${t} PRIVATE ${headers})
  endforeach()
endfunction()
