# GPUCMP_GIT_REVISION: `git describe --always --dirty` at configure time.
find_package(Git QUIET)
set(GPUCMP_GIT_REVISION "unknown")
if(DEFINED ENV{GPUCMP_GIT_REVISION})  # a copy of the tree without .git (lent GPU machines)
  set(GPUCMP_GIT_REVISION "$ENV{GPUCMP_GIT_REVISION}")
elseif(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} describe --always --dirty --abbrev=12
                  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
                  OUTPUT_VARIABLE _rev RESULT_VARIABLE _rc ERROR_QUIET
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(_rc EQUAL 0)
    set(GPUCMP_GIT_REVISION "${_rev}")
  endif()
endif()
