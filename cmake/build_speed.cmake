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
# No precompiled headers: with one per target (about 45 targets, a few
# files each) they cost more than they saved (761 s of compiler time for
# the headers alone in a clean release build, against about 2.5 s saved
# per file).
option(GORDIAN_UNITY "Compile each target's files in batches (unity build)" ON)
if(GORDIAN_UNITY)
  set(CMAKE_UNITY_BUILD ON)
  set(CMAKE_UNITY_BUILD_BATCH_SIZE 8)
endif()
