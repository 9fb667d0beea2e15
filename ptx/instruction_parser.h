// PTX instructions and their operands: the part of the parser (parser.h)
// below a function body's statements. A guard, an opcode split into its
// modifiers, and operands (registers, predicates, immediates, symbols with
// offsets, addresses, vectors and lists, nested at most 3 deep).
#pragma once
#include <string>

#include "ir.h"
#include "token_stream.h"

namespace gpucmp::ptx {

// A token that names something: a word not starting with '.'.
bool is_name(const Token& t);

class InstructionParser : protected TokenStream {
 public:
  using TokenStream::TokenStream;

 protected:
  // "[@[!]pred] opcode[.mod...] [operand[, operand...]];" at cur(); fails
  // (ParseError) on anything else.
  Instruction instruction();

 private:
  Operand operand(int depth);
  void number(Operand& op, bool negative);
  void named(Operand& op);
  void memory(Operand& op, int depth);
};

}  // namespace gpucmp::ptx
