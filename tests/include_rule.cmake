# The include rule of docs/DESIGN.md "Layers and includes", checked on the
# source tree: cmake -DSOURCE_DIR=<repo> -P tests/include_rule.cmake
#   (a) harness/ is API-neutral: it includes nothing from cuda/ or opencl/
#       (nor the APIs' own headers) and nothing from ptx/;
#   (b) only the entry points below include both cuda/ and opencl/ (a file
#       in cuda/ or opencl/ already knows its own API); gpucmp-bench's own
#       entry point, harness/main.cpp, is held to (a): the APIs register
#       themselves (harness/api_registry.h);
#   (c) the PTX library (ptx/, not ptx/tool/) includes nothing from cuda/ or
#       opencl/ (nor the APIs' own headers), nor from harness/: it stands alone.
# A quoted name is resolved the way the compiler would find it: next to the
# including file first, then (for a file in cuda/ or opencl/, study folders
# included) under its own API's root, else under any include root (harness/, cuda/,
# opencl/, ptx/, the top level). A name found only under the roots counts as
# every folder that holds it: "runners.h" outside cuda/ and opencl/ means both.
cmake_minimum_required(VERSION 3.24)
if(NOT SOURCE_DIR)
  get_filename_component(SOURCE_DIR "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
endif()

# The programs' entry points: the only files that know both APIs.
set(ENTRY_POINTS
    tests/runner_catalog_test.cpp)  # links both runner libraries, as gpucmp-bench does
# System headers that belong to one API.
set(CUDA_SYSTEM_HEADERS "^(cuda|cuda_runtime|cuda_runtime_api|cublas|cublas_v2|nvrtc|driver_types|vector_types)\\.h$")
set(OPENCL_SYSTEM_HEADERS "^(CL/.*|OpenCL/.*|clblast|clblast_c)\\.h$|^CL/")

list(JOIN ENTRY_POINTS ", " ENTRY_POINTS_TEXT)

set(FOLDERS harness cuda opencl ptx tests)
set(INCLUDE_ROOTS harness cuda opencl ptx .)

# harness, cuda, opencl, ptx, ptx/tool or tests: the layer a file belongs to.
function(layer_of path out)
  file(RELATIVE_PATH rel "${SOURCE_DIR}" "${path}")
  if(rel MATCHES "^ptx/tool/")
    set(${out} ptx/tool PARENT_SCOPE)
  elseif(rel MATCHES "^([^/]+)/")
    set(${out} ${CMAKE_MATCH_1} PARENT_SCOPE)
  else()
    set(${out} top PARENT_SCOPE)
  endif()
endfunction()

# The folders (harness, cuda, opencl, ptx, ...) an include can resolve to.
function(resolve_include file name out)
  get_filename_component(dir "${file}" DIRECTORY)
  set(candidate "${dir}/${name}")
  if(EXISTS "${candidate}" AND NOT IS_DIRECTORY "${candidate}")
    get_filename_component(candidate "${candidate}" ABSOLUTE)
    layer_of("${candidate}" layer)
    set(${out} ${layer} PARENT_SCOPE)
    return()
  endif()
  # An API library's own root comes first on its include path: a file under
  # cuda/ (or opencl/, in any study folder) finds the name there if it exists.
  layer_of("${file}" own)
  if(own STREQUAL "cuda" OR own STREQUAL "opencl")
    set(candidate "${SOURCE_DIR}/${own}/${name}")
    if(EXISTS "${candidate}" AND NOT IS_DIRECTORY "${candidate}")
      set(${out} ${own} PARENT_SCOPE)
      return()
    endif()
  endif()
  set(layers "")
  foreach(root IN LISTS INCLUDE_ROOTS)
    set(candidate "${SOURCE_DIR}/${root}/${name}")
    if(EXISTS "${candidate}" AND NOT IS_DIRECTORY "${candidate}")
      get_filename_component(candidate "${candidate}" ABSOLUTE)
      layer_of("${candidate}" layer)
      list(APPEND layers ${layer})
    endif()
  endforeach()
  list(REMOVE_DUPLICATES layers)
  set(${out} ${layers} PARENT_SCOPE)
endfunction()

set(sources "")
foreach(folder IN LISTS FOLDERS)
  file(GLOB_RECURSE found LIST_DIRECTORIES false
       "${SOURCE_DIR}/${folder}/*.h" "${SOURCE_DIR}/${folder}/*.hpp"
       "${SOURCE_DIR}/${folder}/*.cpp" "${SOURCE_DIR}/${folder}/*.cu"
       "${SOURCE_DIR}/${folder}/*.cuh")
  list(APPEND sources ${found})
endforeach()
list(FILTER sources EXCLUDE REGEX "/fixtures/")

set(violations "")
set(checked 0)
foreach(file IN LISTS sources)
  file(RELATIVE_PATH rel "${SOURCE_DIR}" "${file}")
  layer_of("${file}" layer)
  math(EXPR checked "${checked} + 1")
  set(knows "")  # the APIs (cuda, opencl) this file includes, with the includes that show it
  if(layer STREQUAL "cuda" OR layer STREQUAL "opencl")
    list(APPEND knows ${layer})
  endif()
  set(evidence "")
  set(touches_ptx "")
  set(ptx_uses_harness "")
  file(STRINGS "${file}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]")
  foreach(line IN LISTS lines)
    if(line MATCHES "#[ \t]*include[ \t]*\"([^\"]+)\"")
      resolve_include("${file}" "${CMAKE_MATCH_1}" targets)
      set(name "${CMAKE_MATCH_1}")
    elseif(line MATCHES "#[ \t]*include[ \t]*<([^>]+)>")
      set(name "${CMAKE_MATCH_1}")
      set(targets "")
      if(name MATCHES "${CUDA_SYSTEM_HEADERS}")
        set(targets cuda)
      elseif(name MATCHES "${OPENCL_SYSTEM_HEADERS}")
        set(targets opencl)
      endif()
    else()
      continue()
    endif()
    foreach(api cuda opencl)
      if(api IN_LIST targets)
        list(APPEND knows ${api})
        if(NOT api STREQUAL layer)
          list(APPEND evidence "${name} (${api})")
        endif()
      endif()
    endforeach()
    if("ptx" IN_LIST targets AND NOT layer STREQUAL "ptx")
      list(APPEND touches_ptx "${name}")
    endif()
    if("harness" IN_LIST targets AND layer STREQUAL "ptx")
      list(APPEND ptx_uses_harness "${name}")
    endif()
  endforeach()
  list(REMOVE_DUPLICATES knows)
  list(JOIN evidence ", " evidence_text)

  if(rel IN_LIST ENTRY_POINTS)
    continue()
  endif()
  if(layer STREQUAL "harness" AND evidence)
    list(APPEND violations "(a) ${rel}: harness/ is API-neutral but includes ${evidence_text}")
  endif()
  if(layer STREQUAL "harness" AND touches_ptx)
    list(JOIN touches_ptx ", " ptx_text)
    list(APPEND violations "(a) ${rel}: harness/ is below ptx/ but includes ${ptx_text}")
  endif()
  if("cuda" IN_LIST knows AND "opencl" IN_LIST knows)
    list(APPEND violations "(b) ${rel}: only ${ENTRY_POINTS_TEXT} may know both APIs but it includes ${evidence_text}")
  endif()
  if(layer STREQUAL "ptx" AND evidence)
    list(APPEND violations "(c) ${rel}: the PTX library is API-neutral but includes ${evidence_text}")
  endif()
  if(ptx_uses_harness)
    list(JOIN ptx_uses_harness ", " harness_text)
    list(APPEND violations "(c) ${rel}: the PTX library stands alone but includes ${harness_text} (harness)")
  endif()
endforeach()

if(violations)
  list(LENGTH violations count)
  foreach(v IN LISTS violations)
    message(NOTICE "include_rule: ${v}")
  endforeach()
  message(FATAL_ERROR "include_rule: ${count} violation(s) in ${checked} files (docs/DESIGN.md \"Layers and includes\")")
endif()
message(STATUS "include_rule: ${checked} files follow the layering (entry points: ${ENTRY_POINTS_TEXT})")
