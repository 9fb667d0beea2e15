// Modes in which an executable runs one job for its parent process and exits:
// e.g. an OpenCL build kept out of the parent process (opencl/isolated_build.h).
// A mode registers its flag at static initialisation, as runners do; main()
// runs it when argv[1] is that flag, before anything else.
#pragma once
#include <string>

namespace gpucmp {

using ChildMain = int (*)(int argc, char** argv);

// Registers `run` under `flag` (which must start with "--gpucmp-child-");
// returns true, for a static initialiser. Throws std::logic_error on a second
// registration of one flag.
bool register_child_mode(const std::string& flag, ChildMain run);

// The exit code of the child mode that argv[1] names, or -1 where it names
// none (a normal run).
int run_child_mode(int argc, char** argv);

}  // namespace gpucmp
