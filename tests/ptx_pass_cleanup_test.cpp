// pass_cleanup (ptx/passes.h).
#include <gtest/gtest.h>

#include "ptx/passes.h"
