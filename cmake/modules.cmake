# The modules of gordian, bottom to top, each with the modules it uses: the
# one list of the architecture (docs/architecture.md draws it). A module's
# library links the modules it lists (gordian_link_modules), and its files
# may include the headers of those modules and of theirs, nothing else:
# cmake/check_layers.cmake checks every #include (the unit test
# ModuleLayers.IncludesFollowTheModuleTable). A new module, or a new use of
# one module by another, is a line here first.
set(GORDIAN_MODULES
  # helpers and the Go parser
  "util:"
  "syntax: util"
  # the trace format, and the runtime hooks that write it
  "trace: util"
  "instrument: trace"
  # findings and their reports
  "report: syntax util"
  # analysis of a trace: happens-before, detectors, data races
  "hb: trace"
  "detect: hb report trace util"
  "race: report trace"
  # schedules: the format, and predicted findings rewritten into one
  "schedule: trace"
  "rewrite: detect hb report schedule trace"
  # running Go: the toolchain, test binaries, recording
  "driver: instrument race util"
  # static verification: the IR, its generator, the model checker
  "ir:"
  "irgen: driver util"
  "verify: ir report util"
  # the flows: record, analyse, confirm; fuzz campaigns
  "pipeline: detect driver hb ir race report rewrite schedule trace util verify"
  "fuzz: detect driver hb pipeline report rewrite schedule trace util"
  # the command line: parses flags, calls a flow, prints
  "cli: driver fuzz ir irgen pipeline report schedule syntax trace util verify"
)

# gordian_module_deps(MODULE OUT): the modules MODULE lists.
function(gordian_module_deps mod out)
  foreach(entry IN LISTS GORDIAN_MODULES)
    if(entry MATCHES "^([a-z]+):(.*)$" AND CMAKE_MATCH_1 STREQUAL mod)
      string(STRIP "${CMAKE_MATCH_2}" deps)
      separate_arguments(deps UNIX_COMMAND "${deps}")
      set(${out} "${deps}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  message(FATAL_ERROR "${mod} is not a module of cmake/modules.cmake")
endfunction()

# gordian_module_names(OUT): every module, bottom to top.
function(gordian_module_names out)
  set(names "")
  foreach(entry IN LISTS GORDIAN_MODULES)
    if(entry MATCHES "^([a-z]+):")
      list(APPEND names ${CMAKE_MATCH_1})
    endif()
  endforeach()
  set(${out} "${names}" PARENT_SCOPE)
endfunction()
