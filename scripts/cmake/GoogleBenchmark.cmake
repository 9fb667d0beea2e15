# Google Benchmark, pinned and built with the project in Release, never the
# system's: Debian 12 ships 1.7.1 and the GPU machines' image 1.8.3, both
# built without NDEBUG, so every report said "library_build_type": "debug" and
# every run printed Google Benchmark's DEBUG warning. The source is upstream's
# 1.9.1 release as Debian packages it (benchmark_1.9.1.orig.tar.gz), checked
# by its SHA-256 (the one Debian's Sources index lists). A copy in .debs/
# (machines without network, README "Running on a GPU") is taken first.
set(GPUCMP_BENCHMARK_VERSION 1.9.1)
set(_gpucmp_gb_file benchmark_${GPUCMP_BENCHMARK_VERSION}.orig.tar.gz)
# One URL, not a list: CMake refuses a local file in a list of URLs.
if(EXISTS ${PROJECT_SOURCE_DIR}/.debs/${_gpucmp_gb_file})
  set(_gpucmp_gb_urls ${PROJECT_SOURCE_DIR}/.debs/${_gpucmp_gb_file})
else()
  set(_gpucmp_gb_urls http://deb.debian.org/debian/pool/main/b/benchmark/${_gpucmp_gb_file})
endif()

set(BENCHMARK_ENABLE_TESTING OFF CACHE BOOL "" FORCE)
set(BENCHMARK_ENABLE_GTEST_TESTS OFF CACHE BOOL "" FORCE)
set(BENCHMARK_ENABLE_INSTALL OFF CACHE BOOL "" FORCE)
set(BENCHMARK_INSTALL_DOCS OFF CACHE BOOL "" FORCE)
set(BENCHMARK_ENABLE_WERROR OFF CACHE BOOL "" FORCE)
set(BENCHMARK_ENABLE_LIBPFM OFF CACHE BOOL "" FORCE)
set(BENCHMARK_USE_BUNDLED_GTEST OFF CACHE BOOL "" FORCE)
# POSIX regular expressions for --benchmark_filter, not std::regex: libstdc++'s
# backtracking engine takes exponential time on a filter such as "(.*)*x" (a
# run that never starts), glibc's regexec does not. Marking std::regex as
# failed its feature check makes the library take its POSIX backend; gpucmp
# matches filters with the same engine (harness/name_filter.h).
set(COMPILE_HAVE_STD_REGEX FALSE CACHE INTERNAL "" FORCE)
set(RUN_HAVE_STD_REGEX 1 CACHE INTERNAL "" FORCE)
include(FetchContent)
FetchContent_Declare(gpucmp_google_benchmark
  URL ${_gpucmp_gb_urls}
  URL_HASH SHA256=32131c08ee31eeff2c8968d7e874f3cb648034377dfc32a4c377fa8796d84981
  DOWNLOAD_EXTRACT_TIMESTAMP TRUE)
FetchContent_MakeAvailable(gpucmp_google_benchmark)
# Release whatever the project's build type (the sanitizer preset is Debug):
# the library reports "release" exactly when it is compiled with NDEBUG.
target_compile_definitions(benchmark PRIVATE NDEBUG)
target_compile_options(benchmark PRIVATE -O2)
set(benchmark_VERSION ${GPUCMP_BENCHMARK_VERSION})
unset(_gpucmp_gb_file)
unset(_gpucmp_gb_urls)
