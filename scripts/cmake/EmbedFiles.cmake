# gpucmp_embed_sources(<target> <namespace> FILES a.cl b.cl ...)
# Embeds text files into <target> as a table {file name -> contents}: the map
# <namespace>::embedded_sources(), looked up by file name ("a.cl"); the caller
# declares it where it reads it (opencl/session.cpp, opencl/variant_ptx.cpp). The
# files are re-embedded when they change.
function(gpucmp_embed_sources target ns)
  cmake_parse_arguments(ARG "" "" "FILES" ${ARGN})
  string(REPLACE "::" "_" ns_file "${ns}")
  set(out "${CMAKE_CURRENT_BINARY_DIR}/${target}_${ns_file}_embedded.cpp")
  set(inputs)
  foreach(f IN LISTS ARG_FILES)
    get_filename_component(abs "${f}" ABSOLUTE)
    list(APPEND inputs "${abs}")
  endforeach()
  string(REPLACE ";" "|" inputs_arg "${inputs}")  # one argument on the command line
  add_custom_command(
    OUTPUT "${out}"
    COMMAND ${CMAKE_COMMAND} -DOUT=${out} -DNS=${ns} "-DINPUTS=${inputs_arg}"
            -P "${PROJECT_SOURCE_DIR}/scripts/cmake/EmbedFilesScript.cmake"
    DEPENDS ${inputs} "${PROJECT_SOURCE_DIR}/scripts/cmake/EmbedFilesScript.cmake"
    COMMENT "Embedding ${ns} sources"
    VERBATIM)
  target_sources(${target} PRIVATE "${out}")
endfunction()
