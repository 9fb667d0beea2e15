// pass_unroll (ptx/passes.h).
#include <gtest/gtest.h>

#include "ptx/passes.h"
