# Included by tests/CMakeLists.txt (paths relative to tests/): the Python scripts and report.
# ---- scripts ----
find_package(Python3 COMPONENTS Interpreter)
if(Python3_FOUND)
  add_test(NAME merge_results COMMAND Python3::Interpreter
           ${CMAKE_CURRENT_SOURCE_DIR}/merge_results_test.py)
  set_tests_properties(merge_results PROPERTIES LABELS "scripts")
  add_test(NAME compare COMMAND Python3::Interpreter
           ${CMAKE_CURRENT_SOURCE_DIR}/compare_test.py)
  set_tests_properties(compare PROPERTIES LABELS "scripts")
  add_test(NAME compare_skips COMMAND Python3::Interpreter
           ${CMAKE_CURRENT_SOURCE_DIR}/compare_skips_test.py)
  set_tests_properties(compare_skips PROPERTIES LABELS "scripts")
  add_test(NAME compare_metrics COMMAND Python3::Interpreter
           ${CMAKE_CURRENT_SOURCE_DIR}/compare_metrics_test.py)
  set_tests_properties(compare_metrics PROPERTIES LABELS "scripts")
  add_test(NAME suite COMMAND Python3::Interpreter
           ${CMAKE_CURRENT_SOURCE_DIR}/suite_test.py $<TARGET_FILE:gpucmp-bench>)
  set_tests_properties(suite PROPERTIES LABELS "scripts;cli;opencl" TIMEOUT 900)
  # The multi-GPU parts' arguments for any GPU count and the jacobi part (stubs, no GPU).
  add_test(NAME suite_parts COMMAND Python3::Interpreter
           ${CMAKE_CURRENT_SOURCE_DIR}/suite_parts_test.py)
  set_tests_properties(suite_parts PROPERTIES LABELS "scripts")
  # Random option combinations and hostile values (seeded, 60 s): every run ends with
  # exit code 0, 1 or 2, a bad-input one as docs/usage.md says ("Exit codes").
  if(TARGET gpucmp-ptx)
    add_test(NAME cli_fuzz COMMAND Python3::Interpreter
             ${CMAKE_CURRENT_SOURCE_DIR}/cli_fuzz_test.py $<TARGET_FILE:gpucmp-bench>
             $<TARGET_FILE:gpucmp-ptx>)
    set_tests_properties(cli_fuzz PROPERTIES LABELS "scripts;cli" TIMEOUT 300)
  endif()
  add_test(NAME journal_report COMMAND Python3::Interpreter
           ${CMAKE_CURRENT_SOURCE_DIR}/journal_report_test.py)
  set_tests_properties(journal_report PROPERTIES LABELS "scripts")
  add_test(NAME tidy_keys COMMAND Python3::Interpreter
           ${CMAKE_CURRENT_SOURCE_DIR}/tidy_keys_test.py)
  set_tests_properties(tidy_keys PROPERTIES LABELS "scripts;style")
  add_test(NAME pair_shift COMMAND Python3::Interpreter
           ${CMAKE_CURRENT_SOURCE_DIR}/pair_shift_test.py)
  set_tests_properties(pair_shift PROPERTIES LABELS "scripts")
  add_test(NAME readme_tables COMMAND Python3::Interpreter
           ${CMAKE_CURRENT_SOURCE_DIR}/readme_tables_test.py)
  set_tests_properties(readme_tables PROPERTIES LABELS "scripts")
  # Each API at its best (scripts/best_table.py, gpucmp_report/api_best.py): the fastest
  # validated own row per family and API, never a cross-run, control or PTX-pass row.
  add_test(NAME best_table COMMAND Python3::Interpreter
           ${CMAKE_CURRENT_SOURCE_DIR}/best_table_test.py)
  set_tests_properties(best_table PROPERTIES LABELS "scripts")
  add_test(NAME report_at_best COMMAND Python3::Interpreter
           ${CMAKE_CURRENT_SOURCE_DIR}/report_at_best_test.py)
  set_tests_properties(report_at_best PROPERTIES LABELS "scripts")
  # Figures need matplotlib (python3-matplotlib); without it they skip, and so does this test.
  add_test(NAME report COMMAND Python3::Interpreter
           ${CMAKE_CURRENT_SOURCE_DIR}/report_test.py)
  set_tests_properties(report PROPERTIES LABELS "scripts"
                       SKIP_REGULAR_EXPRESSION "report_test: SKIPPED")
  # The report's analysis, in process: names, pairing, ratios, PTX steps, best variant, loading.
  add_test(NAME report_analysis COMMAND Python3::Interpreter
           ${CMAKE_CURRENT_SOURCE_DIR}/report_analysis_test.py)
  set_tests_properties(report_analysis PROPERTIES LABELS "scripts")
  # The startup, hot/cold and measurement quality sections: their rows, and whole runs.
  add_test(NAME report_sections COMMAND Python3::Interpreter
           ${CMAKE_CURRENT_SOURCE_DIR}/report_sections_test.py)
  set_tests_properties(report_sections PROPERTIES LABELS "scripts")
  # Partial files, benchmarks a GPU-less run skipped (not measured), bad input (exit 2).
  add_test(NAME report_inputs COMMAND Python3::Interpreter
           ${CMAKE_CURRENT_SOURCE_DIR}/report_inputs_test.py)
  set_tests_properties(report_inputs PROPERTIES LABELS "scripts")
  # The gap sections (split, SASS mix, ncu counters, explanations) and ncu_to_json.py;
  # regenerating the committed reports needs matplotlib (skipped without it).
  add_test(NAME report_gaps COMMAND Python3::Interpreter
           ${CMAKE_CURRENT_SOURCE_DIR}/report_gaps_test.py)
  set_tests_properties(report_gaps PROPERTIES LABELS "scripts"
                       SKIP_REGULAR_EXPRESSION "report_gaps_test: SKIPPED")
  # One cause for the variants a stem names; tuned rows left to "Each API at its best".
  add_test(NAME report_gaps_stems COMMAND Python3::Interpreter
           ${CMAKE_CURRENT_SOURCE_DIR}/report_gaps_stems_test.py)
  set_tests_properties(report_gaps_stems PROPERTIES LABELS "scripts")
  # The SASS files of "Why each gap": parsed, each pair's kernel found, read from the archive.
  add_test(NAME report_sass COMMAND Python3::Interpreter
           ${CMAKE_CURRENT_SOURCE_DIR}/report_sass_test.py)
  set_tests_properties(report_sass PROPERTIES LABELS "scripts")
  # pyproject.toml's distribution and its commands; no import circle in gpucmp_report.
  add_test(NAME python_package COMMAND Python3::Interpreter
           ${CMAKE_CURRENT_SOURCE_DIR}/python_package_test.py)
  set_tests_properties(python_package PROPERTIES LABELS "scripts")
  # The work-size tuning section (local:<spec> rows): best/worst shapes, rules, heat maps;
  # the figure tests need matplotlib (skipped without it).
  add_test(NAME report_worksize COMMAND Python3::Interpreter
           ${CMAKE_CURRENT_SOURCE_DIR}/report_worksize_test.py)
  set_tests_properties(report_worksize PROPERTIES LABELS "scripts"
                       SKIP_REGULAR_EXPRESSION "report_worksize_test: SKIPPED")
  # Kernel Tuner beside gpucmp's tuner: its picks (kernel-tuner.json of
  # scripts/kernel_tuner_side.py) and their re-time run, side files beside the results.
  add_test(NAME report_kernel_tuner COMMAND Python3::Interpreter
           ${CMAKE_CURRENT_SOURCE_DIR}/report_kernel_tuner_test.py)
  set_tests_properties(report_kernel_tuner PROPERTIES LABELS "scripts")
  # Rodinia's own heartwall beside gpucmp's rows (rodinia-heartwall.json of
  # scripts/rodinia_heartwall.py, a side file): medians, fit, agreement, runs set apart.
  add_test(NAME report_rodinia_heartwall COMMAND Python3::Interpreter
           ${CMAKE_CURRENT_SOURCE_DIR}/report_rodinia_heartwall_test.py)
  set_tests_properties(report_rodinia_heartwall PROPERTIES LABELS "scripts")
  # The data-layout section: kernels per layout, conversions, break-even.
  add_test(NAME report_layout COMMAND Python3::Interpreter
           ${CMAKE_CURRENT_SOURCE_DIR}/report_layout_test.py)
  set_tests_properties(report_layout PROPERTIES LABELS "scripts")
  # Reductions, scans and the AGPU model, and the measured roofline: the model's
  # fit, error per size and goal, CUB; ceilings, placed rows, ncu bytes.
  add_test(NAME report_agpu COMMAND Python3::Interpreter
           ${CMAKE_CURRENT_SOURCE_DIR}/report_agpu_test.py)
  set_tests_properties(report_agpu PROPERTIES LABELS "scripts")
  # Semi-Lagrangian advection against GPU Challenge 2010: time per step per grid,
  # the judged problems projected, measured full-length and on 2 and 4 GPUs over each
  # transport; the figure test needs matplotlib (skipped without it).
  add_test(NAME report_advection COMMAND Python3::Interpreter
           ${CMAKE_CURRENT_SOURCE_DIR}/report_advection_test.py)
  set_tests_properties(report_advection PROPERTIES LABELS "scripts")
  # Scaling over GPUs: the judged problems' fastest rows per GPU count and transport
  # beside NVIDIA's Jacobi (jacobi.json); the figure file needs matplotlib (skipped without).
  add_test(NAME report_scaling COMMAND Python3::Interpreter
           ${CMAKE_CURRENT_SOURCE_DIR}/report_scaling_test.py)
  set_tests_properties(report_scaling PROPERTIES LABELS "scripts")
  # NVIDIA's multi-GPU Jacobi as a reference (scripts/jacobi_reference.py), with stub
  # nvidia-smi, make, nvcc, mpirun and program: arguments, builds, runs, error rows, JSON.
  add_test(NAME jacobi_reference COMMAND Python3::Interpreter
           ${CMAKE_CURRENT_SOURCE_DIR}/jacobi_reference_test.py)
  set_tests_properties(jacobi_reference PROPERTIES LABELS "scripts")
  # Rodinia 3.1's own heartwall beside gpucmp's (scripts/rodinia_heartwall.py), with stub
  # nvidia-smi, make, gpucmp-bench and program: arguments, skip, parsing, builds, runs, JSON;
  # with GPUCMP_RODINIA_SRC set, Rodinia's OpenCL version on this machine's device at 3 frames.
  add_test(NAME rodinia_heartwall COMMAND Python3::Interpreter
           ${CMAKE_CURRENT_SOURCE_DIR}/rodinia_heartwall_test.py $<TARGET_FILE:gpucmp-bench>)
  set_tests_properties(rodinia_heartwall PROPERTIES LABELS "scripts" TIMEOUT 900)
  # What it reads of a run (stage times, platform, progress, track, agreement, fit), the row
  # of one run (an OpenCL run off NVIDIA's platform an error row where NVIDIA's library was
  # named) and ldd's libOpenCL line of the OpenCL program.
  add_test(NAME rodinia_heartwall_rows COMMAND Python3::Interpreter
           ${CMAKE_CURRENT_SOURCE_DIR}/rodinia_heartwall_rows_test.py)
  set_tests_properties(rodinia_heartwall_rows PROPERTIES LABELS "scripts")
  # Kernel Tuner beside gpucmp's tuner (scripts/kernel_tuner_side.py) with stub kernel_tuner,
  # pyopencl, cuda-python and gpucmp-bench: space (sizes set by --bench-args too), runs,
  # picks, skips, JSON, bad input.
  add_test(NAME kernel_tuner_side COMMAND Python3::Interpreter
           ${CMAKE_CURRENT_SOURCE_DIR}/kernel_tuner_side_test.py Stubbed)
  set_tests_properties(kernel_tuner_side PROPERTIES LABELS "scripts")
  # The kernels' sources and arguments (scripts/worksize_kernels.py).
  add_test(NAME kernel_tuner_kernels COMMAND Python3::Interpreter
           ${CMAKE_CURRENT_SOURCE_DIR}/kernel_tuner_kernels_test.py KernelSources)
  set_tests_properties(kernel_tuner_kernels PROPERTIES LABELS "scripts")
  # The real Kernel Tuner end to end on PoCL at tiny sizes (about 25 s), and the CUDA kernels
  # under NVRTC as its CUDA backend builds them; each skipped, said, without its packages
  # (requirements.txt), an OpenCL device or NVRTC.
  add_test(NAME kernel_tuner_side_pocl COMMAND Python3::Interpreter
           ${CMAKE_CURRENT_SOURCE_DIR}/kernel_tuner_kernels_test.py PoclEndToEnd)
  set_tests_properties(kernel_tuner_side_pocl PROPERTIES LABELS "scripts;opencl" TIMEOUT 900
                       SKIP_REGULAR_EXPRESSION "kernel_tuner_kernels_test: SKIPPED")
  add_test(NAME kernel_tuner_side_nvrtc COMMAND Python3::Interpreter
           ${CMAKE_CURRENT_SOURCE_DIR}/kernel_tuner_kernels_test.py CudaUnderNvrtc)
  set_tests_properties(kernel_tuner_side_nvrtc PROPERTIES LABELS "scripts"
                       SKIP_REGULAR_EXPRESSION "kernel_tuner_kernels_test: SKIPPED")
  # The tuner against the best shapes re-timed in one run: top shapes, the table.
  add_test(NAME worksize_retime COMMAND Python3::Interpreter
           ${CMAKE_CURRENT_SOURCE_DIR}/worksize_retime_test.py)
  set_tests_properties(worksize_retime PROPERTIES LABELS "scripts")
  add_test(NAME agpu_model COMMAND Python3::Interpreter
           ${CMAKE_CURRENT_SOURCE_DIR}/agpu_model_test.py)
  set_tests_properties(agpu_model PROPERTIES LABELS "scripts")
  add_test(NAME roofline COMMAND Python3::Interpreter ${CMAKE_CURRENT_SOURCE_DIR}/roofline_test.py)
  set_tests_properties(roofline PROPERTIES LABELS "scripts")
  # The layout accessors' generator: its header, and its errors.
  add_test(NAME gen_layouts COMMAND Python3::Interpreter
           ${CMAKE_CURRENT_SOURCE_DIR}/gen_layouts_test.py)
  set_tests_properties(gen_layouts PROPERTIES LABELS "scripts")
  # The work split section (split:<spec> rows, one kernel across devices): tables, closest
  # rule, figures; the figure tests need matplotlib (skipped without it).
  add_test(NAME report_split COMMAND Python3::Interpreter
           ${CMAKE_CURRENT_SOURCE_DIR}/report_split_test.py)
  set_tests_properties(report_split PROPERTIES LABELS "scripts"
                       SKIP_REGULAR_EXPRESSION "report_split_test: SKIPPED")
  # The report's package layout (one module per section) and the helpers shared with compare.py.
  add_test(NAME report_package COMMAND Python3::Interpreter
           ${CMAKE_CURRENT_SOURCE_DIR}/report_package_test.py)
  set_tests_properties(report_package PROPERTIES LABELS "scripts")
  add_test(NAME ruff COMMAND Python3::Interpreter -m ruff check --no-cache scripts tests
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(ruff PROPERTIES LABELS "style;scripts")
  add_test(NAME ncu_durations COMMAND Python3::Interpreter
           ${CMAKE_CURRENT_SOURCE_DIR}/ncu_durations_test.py)
  set_tests_properties(ncu_durations PROPERTIES LABELS "scripts")
  # gpucmp-bench's JSON has every field Google Benchmark's tools/compare.py reads
  # (a quick OpenCL run on the default device; label cli: it runs OpenCL).
  add_test(NAME gbench_json_shape COMMAND Python3::Interpreter
           ${CMAKE_CURRENT_SOURCE_DIR}/gbench_json_shape_test.py)
  set_tests_properties(gbench_json_shape PROPERTIES LABELS "scripts;cli" TIMEOUT 900
                       ENVIRONMENT "GPUCMP_BENCH=$<TARGET_FILE:gpucmp-bench>")
  # Each script given bad input (missing, folder, empty, binary, truncated, wrong
  # shape): exit 2, one line, no partial output (report.py with --no-plots: no
  # matplotlib needed).
  add_test(NAME scripts_bad_input COMMAND Python3::Interpreter
           ${CMAKE_CURRENT_SOURCE_DIR}/scripts_bad_input_test.py)
  set_tests_properties(scripts_bad_input PROPERTIES LABELS "scripts")
endif()
