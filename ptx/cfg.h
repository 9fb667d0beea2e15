// Control flow of a function body: basic blocks, dominators, natural loops.
#pragma once
#include <vector>

#include "ir.h"

namespace gpucmp::ptx {

// bra, brx, ret, exit, trap: the instructions that end a basic block.
bool is_terminator(const Instruction& ins);

// Splits f.body into f.blocks: a block starts at the first statement, at a label
// that follows an instruction, and at the first statement after a bra, brx, ret,
// exit or trap. Successors: the branch target and, unless the block ends in an
// unconditional bra/ret/exit/trap, the next block. The parser calls this; call
// it again after editing a body.
void build_blocks(Function& f);

// The block that holds each body statement (-1 for none).
std::vector<int> block_of_statements(const Function& f);

// Immediate dominator of each block (Cooper, Harvey, Kennedy); the entry block
// is its own, unreachable blocks get -1.
std::vector<int> immediate_dominators(const Function& f);

// Whether block a dominates block b, given immediate_dominators().
bool dominates(const std::vector<int>& idom, int a, int b);

struct Loop {
  int header = 0;           // block index
  std::vector<int> blocks;  // sorted block indices, the header included
  int depth = 1;            // 1 = outermost
  int parent = -1;          // index into the returned vector, -1 for outermost
};

// Natural loops from back edges (an edge t -> h where h dominates t); loops with
// the same header are merged. Sorted by header block index.
std::vector<Loop> find_loops(const Function& f);

}  // namespace gpucmp::ptx
