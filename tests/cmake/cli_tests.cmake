# Included by tests/CMakeLists.txt (paths relative to tests/): whole runs of gpucmp-bench.
# ---- whole runs of gpucmp-bench: OpenCL on the default device, bad input ----
function(gpucmp_cli_test_executable target)
  add_executable(${target} bench_process.cpp ${ARGN})
  target_link_libraries(${target} PRIVATE gpucmp_harness nlohmann_json::nlohmann_json
                        GTest::gtest_main)
  target_compile_definitions(${target} PRIVATE GPUCMP_BENCH_PATH="$<TARGET_FILE:gpucmp-bench>")
  target_compile_options(${target} PRIVATE ${GPUCMP_WARNINGS})
  add_dependencies(${target} gpucmp-bench)
endfunction()

# Each bad-input case is its own CTest test.
gpucmp_cli_test_executable(gpucmp_bad_input_tests cli_bad_input_test.cpp cli_parboil_files_test.cpp
                           cli_parboil_local_bad_input_test.cpp cli_worksize_bad_input_test.cpp
                           cli_layout_bad_input_test.cpp cli_reduce_bad_input_test.cpp
                           cli_advection_bad_input_test.cpp cli_heartwall_bad_input_test.cpp)
gtest_discover_tests(gpucmp_bad_input_tests
  PROPERTIES LABELS "cli" SKIP_REGULAR_EXPRESSION "  SKIPPED ")

# The Parboil kernels' local size (--cp-local, --mriq-local, --mrifhd-local):
# listings, and non-default sizes validated on the default OpenCL device.
gpucmp_cli_test_executable(gpucmp_parboil_local_tests cli_parboil_local_test.cpp)
gtest_discover_tests(gpucmp_parboil_local_tests PROPERTIES LABELS "cli;opencl" TIMEOUT 300)

# scan's --scan-poll and --scan-load: the poll:spin and load:batched rows they
# add, and runs validated on the default OpenCL device.
gpucmp_cli_test_executable(gpucmp_scan_poll_tests cli_scan_poll_test.cpp)
gtest_discover_tests(gpucmp_scan_poll_tests PROPERTIES LABELS "cli;opencl" TIMEOUT 300)

# The advection variants computing the step as weights give one field, bit
# for bit, on the default OpenCL device.
gpucmp_cli_test_executable(gpucmp_advection_field_tests cli_advection_same_field_test.cpp)
gtest_discover_tests(gpucmp_advection_field_tests PROPERTIES LABELS "cli;opencl" TIMEOUT 300)

# --cl-build-options: refused options are bad input; accepted ones reach every
# OpenCL build and the JSON context, on the default OpenCL device.
gpucmp_cli_test_executable(gpucmp_build_options_tests cli_build_options_test.cpp)
gtest_discover_tests(gpucmp_build_options_tests PROPERTIES LABELS "cli;opencl" TIMEOUT 300)

# --launch-floor: the probe and the launch-bound mark on by default, off for a
# profiler; any other value is bad input.
gpucmp_cli_test_executable(gpucmp_launch_floor_tests cli_launch_floor_test.cpp)
gtest_discover_tests(gpucmp_launch_floor_tests PROPERTIES LABELS "cli;opencl" TIMEOUT 300)

# Google Benchmark's own flags with bad values (filter, out file): exit 2, one line.
gpucmp_cli_test_executable(gpucmp_gbench_flags_tests cli_gbench_flags_test.cpp)
gtest_discover_tests(gpucmp_gbench_flags_tests PROPERTIES LABELS "cli")

# Split rows on OpenCL: bad input, and every split of the
# splittable work-size kernels validated on the default device named twice.
gpucmp_cli_test_executable(gpucmp_split_tests cli_split_test.cpp)
gtest_discover_tests(gpucmp_split_tests
  PROPERTIES LABELS "cli;opencl" SKIP_REGULAR_EXPRESSION "  SKIPPED " TIMEOUT 300)

# Split rows over MPI ranks: 2 ranks against 1 under
# mpirun on OpenCL, bit for bit; bad input. Without MPI the runs skip.
gpucmp_cli_test_executable(gpucmp_mpi_split_tests cli_mpi_split_test.cpp cli_halo_test.cpp)
target_compile_definitions(gpucmp_mpi_split_tests PRIVATE GPUCMP_MPIEXEC="${GPUCMP_MPIEXEC}")
gtest_discover_tests(gpucmp_mpi_split_tests
  PROPERTIES LABELS "cli;opencl;mpi" SKIP_REGULAR_EXPRESSION "  SKIPPED " TIMEOUT 600)

# reduce and scan over a non-commutative operator (affine16): which
# algorithms keep the words' order, validated on the default OpenCL device.
gpucmp_cli_test_executable(gpucmp_agpu_order_tests cli_agpu_order_test.cpp cli_agpu_any_n_test.cpp)
gtest_discover_tests(gpucmp_agpu_order_tests
  PROPERTIES LABELS "cli;opencl" SKIP_REGULAR_EXPRESSION "  SKIPPED " TIMEOUT 300)

# Runs stopped by SIGTERM / SIGINT keep a valid, partial JSON report.
gpucmp_cli_test_executable(gpucmp_interrupt_tests cli_interrupt_test.cpp)
gtest_discover_tests(gpucmp_interrupt_tests PROPERTIES LABELS "cli;opencl" TIMEOUT 120)

# The forms that close compiler-made gaps (cp by value and prefetch, MRI
# prefetch, reduce's register cap), validated on the default OpenCL device.
gpucmp_cli_test_executable(gpucmp_gap_forms_tests cli_gap_forms_test.cpp)
gtest_discover_tests(gpucmp_gap_forms_tests PROPERTIES LABELS "cli;opencl" TIMEOUT 600)

# heartwall validated against its CPU reference: both layouts on the default
# OpenCL device over 3 frames; GPU-only: both APIs over 12 frames (skips, not
# fails, without a CUDA device).
gpucmp_cli_test_executable(gpucmp_heartwall_tests cli_heartwall_test.cpp)
add_test(NAME heartwall_opencl COMMAND gpucmp_heartwall_tests
         --gtest_filter=HeartWall.BothLayoutsValidateOnOpenCL)
set_tests_properties(heartwall_opencl PROPERTIES LABELS "cli;opencl" TIMEOUT 300)
# --heartwall-write-rodinia: Rodinia's test.avi and input.txt and the reference's
# track, written with no device (scripts/rodinia_heartwall.py's inputs).
add_test(NAME heartwall_rodinia_files COMMAND gpucmp_heartwall_tests
         --gtest_filter=HeartWall.WritesRodiniasFilesWithoutADevice)
set_tests_properties(heartwall_rodinia_files PROPERTIES LABELS "cli" TIMEOUT 300)
add_test(NAME gpu_heartwall COMMAND gpucmp_heartwall_tests
         --gtest_filter=HeartWall.GpuBothApisValidateThroughAnUpdate)
set_tests_properties(gpu_heartwall PROPERTIES LABELS "gpu;cli" TIMEOUT 600
                     SKIP_REGULAR_EXPRESSION "  SKIPPED ")

# The quick-run checks share one run of the suite: one CTest test.
gpucmp_cli_test_executable(gpucmp_quick_run_tests cli_run_test.cpp)
add_test(NAME quick_run COMMAND gpucmp_quick_run_tests --gtest_filter=-QuickRun.GpuBothApisRunAndPair)
set_tests_properties(quick_run PROPERTIES LABELS "cli;opencl" TIMEOUT 900)
# GPU-only: both APIs run and pair; skips (not fails) without a CUDA device.
add_test(NAME gpu_quick_run COMMAND gpucmp_quick_run_tests --gtest_filter=QuickRun.GpuBothApisRunAndPair)
set_tests_properties(gpu_quick_run PROPERTIES LABELS "gpu;cli" TIMEOUT 900
                     SKIP_REGULAR_EXPRESSION "  SKIPPED ")

# Protocol options (--cache, sampling, --startup, --progress): short runs on
# the default OpenCL device, each test its own CTest test.
gpucmp_cli_test_executable(gpucmp_protocol_tests cli_protocol_test.cpp)
gtest_discover_tests(gpucmp_protocol_tests PROPERTIES LABELS "cli" TIMEOUT 300)

# Cross-run rows (cuda/cross_runners.h): listed, skipped without a GPU, validated on one.
gpucmp_cli_test_executable(gpucmp_cross_run_tests cli_cross_run_test.cpp)
gtest_discover_tests(gpucmp_cross_run_tests
  PROPERTIES LABELS "cli" TIMEOUT 300 SKIP_REGULAR_EXPRESSION "  SKIPPED ")
