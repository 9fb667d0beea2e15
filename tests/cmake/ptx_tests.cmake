# Included by tests/CMakeLists.txt (paths relative to tests/): gpucmp-ptx and the PTX library.
# ---- gpucmp-ptx on the committed GPU fixtures: the report regenerates, and
# dump on a platform without PTX binaries (PoCL) is a clear usage error ----
if(TARGET gpucmp-ptx AND Python3_FOUND)
  add_test(NAME ptx_report
           COMMAND Python3::Interpreter ${PROJECT_SOURCE_DIR}/scripts/ptx_report.py
                   --gpucmp-ptx $<TARGET_FILE:gpucmp-ptx>
                   --fixtures ${CMAKE_CURRENT_SOURCE_DIR}/fixtures/ptx/gpu/h200-driver580.159.04-nvcc13.0
                   -o ${CMAKE_CURRENT_BINARY_DIR}/REPORT.md)
  set_tests_properties(ptx_report PROPERTIES LABELS "ptx;scripts"
                       PASS_REGULAR_EXPRESSION "wrote")
endif()
if(TARGET gpucmp-ptx)
  # Platform 0 is PoCL on CI and on the lent GPU machines alike.
  add_test(NAME ptx_dump_needs_ptx_binaries
           COMMAND gpucmp-ptx dump --api opencl --cl-platform 0
                   --out ${CMAKE_CURRENT_BINARY_DIR}/dump-pocl)
  set_tests_properties(ptx_dump_needs_ptx_binaries PROPERTIES LABELS "ptx;cli"
                       PASS_REGULAR_EXPRESSION "returns binaries that are not PTX")
  add_test(NAME ptx_diff_same_file
           COMMAND gpucmp-ptx diff
                   ${CMAKE_CURRENT_SOURCE_DIR}/fixtures/ptx/gpu/h200-driver580.159.04-nvcc13.0/opencl/mriq-fast.ptx
                   ${CMAKE_CURRENT_SOURCE_DIR}/fixtures/ptx/gpu/h200-driver580.159.04-nvcc13.0/opencl/mriq-fast.ptx)
  set_tests_properties(ptx_diff_same_file PROPERTIES LABELS "ptx;cli")
endif()

# gpucmp-ptx given bad PTX, SASS, cache folders and options: exit 2, one line,
# no output file; each case its own CTest test.
if(TARGET gpucmp-ptx)
  gpucmp_cli_test_executable(gpucmp_ptx_bad_input_tests cli_ptx_bad_input_test.cpp)
  target_compile_definitions(gpucmp_ptx_bad_input_tests PRIVATE
    GPUCMP_PTX_PATH="$<TARGET_FILE:gpucmp-ptx>"
    GPUCMP_TEST_FIXTURES="${CMAKE_CURRENT_SOURCE_DIR}/fixtures")
  add_dependencies(gpucmp_ptx_bad_input_tests gpucmp-ptx)
  gtest_discover_tests(gpucmp_ptx_bad_input_tests
    PROPERTIES LABELS "ptx;cli" SKIP_REGULAR_EXPRESSION "  SKIPPED ")
endif()

# ---- PTX library: parser, printer, CFG, normalize, stats, diff (no device) ----
# Fixtures: every tests/fixtures/ptx/**/*.ptx, listed at run time. ptxas (when
# found) checks that printed and normalized PTX still assembles.
if(TARGET gpucmp_ptx)
  find_program(GPUCMP_PTXAS ptxas HINTS ${CUDAToolkit_BIN_DIR} PATHS /usr/local/cuda/bin)
  add_executable(gpucmp_ptx_tests
    ptx_cfg_test.cpp
    ptx_diff_test.cpp
    ptx_fuzz_test.cpp
    ptx_gpu_fixtures_test.cpp
    ptx_normalize_test.cpp
    ptx_cuda_abi_test.cpp
    ptx_opencl_abi_test.cpp
    ptx_parser_test.cpp
    ptx_pass_align_test.cpp
    ptx_pass_cpasync_test.cpp
    ptx_pass_ftz_test.cpp
    ptx_pass_shared32_test.cpp
    ptx_pass_cleanup_test.cpp
    ptx_pass_cleanup_steps_test.cpp
    ptx_pass_cleanup_o0_test.cpp
    ptx_pass_unroll_test.cpp
    ptx_passes_test.cpp
    ptx_roundtrip_test.cpp
    ptx_stats_test.cpp
  )
  target_link_libraries(gpucmp_ptx_tests PRIVATE gpucmp_ptx GTest::gtest_main)
  target_compile_options(gpucmp_ptx_tests PRIVATE ${GPUCMP_WARNINGS})
  target_compile_definitions(gpucmp_ptx_tests PRIVATE
    GPUCMP_PTX_FIXTURES="${CMAKE_CURRENT_SOURCE_DIR}/fixtures/ptx"
    GPUCMP_PTXAS="$<$<BOOL:${GPUCMP_PTXAS}>:${GPUCMP_PTXAS}>")
  include(GoogleTest)
  gtest_discover_tests(gpucmp_ptx_tests
    PROPERTIES LABELS "ptx" TIMEOUT 300 SKIP_REGULAR_EXPRESSION "  SKIPPED ")
endif()
if(TARGET gpucmp-ptx)
  set(_o0 ${CMAKE_CURRENT_SOURCE_DIR}/fixtures/ptx/gpu/h200-driver580.159.04-nvcc13.0/opencl-O0)
  add_test(NAME ptx_opt_runs
           COMMAND gpucmp-ptx opt --passes cse,licm,mad ${_o0}/matrixMul-tile16-cloptdisable.ptx
                   -o ${CMAKE_CURRENT_BINARY_DIR}/opt-matrixMul.ptx)
  set_tests_properties(ptx_opt_runs PROPERTIES LABELS "ptx;cli")
  add_test(NAME ptx_opt_unknown_pass
           COMMAND gpucmp-ptx opt --passes cse,frobnicate ${_o0}/matrixMul-tile16-cloptdisable.ptx)
  set_tests_properties(ptx_opt_unknown_pass PROPERTIES LABELS "ptx;cli"
                       PASS_REGULAR_EXPRESSION "unknown PTX pass 'frobnicate'")
endif()
