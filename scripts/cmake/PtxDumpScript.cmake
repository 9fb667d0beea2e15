# Script mode, run by the ptx-dump target: copies the PTX files of the kernel
# sources into OUT as <kernel>.ptx / <kernel>-fast.ptx with a header naming the
# flags, and writes <kernel>[-fast].sass with cuobjdump -sass where available,
# its first line naming the source.
file(MAKE_DIRECTORY "${OUT}")
foreach(kind "" "_FAST")
  set(suffix "")
  set(flags "${FLAGS}")
  if(kind STREQUAL "_FAST")
    set(suffix "-fast")
    set(flags "${FLAGS} --use_fast_math")
  endif()
  string(REPLACE "|" ";" ptx_files "${PTX${kind}}")
  foreach(ptx IN LISTS ptx_files)
    get_filename_component(name "${ptx}" NAME)
    string(REGEX REPLACE "\\.cu\\.ptx$|\\.ptx$" "" name "${name}")
    file(READ "${ptx}" text)
    file(WRITE "${OUT}/${name}${suffix}.ptx" "// gpucmp ptx-dump: nvcc ${flags}\n${text}")
  endforeach()
  string(REPLACE "|" ";" objects "${OBJ${kind}}")
  foreach(obj IN LISTS objects)
    get_filename_component(name "${obj}" NAME)
    string(REGEX REPLACE "\\.cu\\.o$|\\.o$" "" name "${name}")
    if(CUOBJDUMP)
      execute_process(COMMAND "${CUOBJDUMP}" -sass "${obj}"
                      OUTPUT_VARIABLE sass RESULT_VARIABLE rc)
      if(NOT rc EQUAL 0)
        message(WARNING "cuobjdump -sass ${obj} failed (${rc})")
      endif()
      # The first line names the source (gpucmp-ptx stats prints it).
      file(WRITE "${OUT}/${name}${suffix}.sass"
           "// SASS: nvcc ${NVCC_VERSION} cubin of the executable (cuobjdump)\n${sass}")
      # Registers, shared/local/constant bytes per kernel as ptxas allocated them.
      execute_process(COMMAND "${CUOBJDUMP}" -res-usage "${obj}"
                      OUTPUT_FILE "${OUT}/${name}${suffix}.res-usage" RESULT_VARIABLE rc)
    endif()
  endforeach()
endforeach()
if(NOT CUOBJDUMP)
  message(STATUS "ptx-dump: no cuobjdump found: PTX only, no SASS")
endif()
message(STATUS "ptx-dump: wrote ${OUT}")
