#include "instruction_parser.h"

#include <cctype>

#include "lexer.h"
#include "literals.h"
#include "registers.h"

namespace gpucmp::ptx {

bool is_name(const Token& t) { return t.kind == Token::Kind::Word && t.text[0] != '.'; }

namespace {
// Splits "ld.global.nc.f32" into opcode and modifiers; false on an empty part.
bool split_opcode(std::string_view word, Instruction& ins) {
  std::size_t start = 0;
  bool first = true;
  while (true) {
    const std::size_t dot = word.find('.', start);
    const std::string_view part =
        word.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    if (part.empty()) return false;
    if (first) {
      ins.opcode = std::string(part);
      first = false;
    } else {
      ins.modifiers.emplace_back(part);
    }
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}
}  // namespace

Instruction InstructionParser::instruction() {
  Instruction ins;
  if (accept('@')) {
    ins.guard_negated = accept('!');
    ins.guard = name("a predicate register after '@'");
  }
  const Token& op = cur();
  if (op.kind != Token::Kind::Word || !std::isalpha(static_cast<unsigned char>(op.text[0])) ||
      !split_opcode(op.text, ins))
    fail("an instruction opcode");
  take();
  if (accept(';')) return ins;
  if (cur().is('}') || cur().kind == Token::Kind::End) fail("';'");
  ins.operands.reserve(4);
  do ins.operands.push_back(operand(0));
  while (accept(','));
  expect(';');
  return ins;
}

Operand InstructionParser::operand(int depth) {
  if (depth > 3) fail("a simpler operand (nesting too deep)");
  const std::size_t start = position();
  const Token& t = cur();
  Operand op;
  if (t.is('{') || t.is('(')) {
    const char close = t.is('{') ? '}' : ')';
    op.kind = t.is('{') ? Operand::Kind::Vector : Operand::Kind::List;
    take();
    if (!cur().is(close)) {
      do op.elements.push_back(operand(depth + 1));
      while (accept(','));
    }
    expect(close);
  } else if (t.is('[')) {
    memory(op, depth);
  } else if (t.is('!')) {
    take();
    if (cur().kind != Token::Kind::Word || cur().text[0] != '%')
      fail("a predicate register after '!'");
    op.kind = Operand::Kind::Register;
    op.name = std::string(take().text);
    op.negated = true;
  } else if (t.is('-') || t.kind == Token::Kind::Number) {
    const bool negative = t.is('-');
    if (negative) take();
    number(op, negative);
  } else if (is_name(t)) {
    named(op);
  } else {
    fail("an operand");
  }
  op.text = source_since(start);
  return op;
}

void InstructionParser::number(Operand& op, bool negative) {
  const Token& t = cur();
  if (t.kind != Token::Kind::Number) fail("a number");
  const NumberKind kind = classify_number(t.text);
  if (kind == NumberKind::Invalid || (kind == NumberKind::Integer && !fits_in_64_bits(t.text)))
    fail("a number");
  op.kind = kind == NumberKind::Float ? Operand::Kind::FloatImmediate : Operand::Kind::Immediate;
  op.value = (negative ? "-" : "") + std::string(take().text);
}

void InstructionParser::named(Operand& op) {
  const std::string word(take().text);
  if (word == "_") {
    op.kind = Operand::Kind::Sink;
  } else if (word[0] == '%') {
    op.kind = is_special_register(word) ? Operand::Kind::SpecialRegister : Operand::Kind::Register;
    op.name = word;
    if (accept('|')) {
      Operand first = op;
      first.text = word;
      op = Operand{};
      op.kind = Operand::Kind::PredicatePair;
      op.elements.push_back(std::move(first));
      if (cur().kind != Token::Kind::Word || cur().text[0] != '%')
        fail("a predicate register after '|'");
      Operand second;
      second.kind = Operand::Kind::Register;
      second.name = second.text = std::string(take().text);
      op.elements.push_back(std::move(second));
    }
  } else {
    op.kind = Operand::Kind::Symbol;
    op.name = word;
    op.has_offset = offset(op.offset);
  }
}

void InstructionParser::memory(Operand& op, int depth) {
  take();  // [
  op.kind = Operand::Kind::Memory;
  if (is_name(cur())) {
    op.name = std::string(take().text);
    op.has_offset = offset(op.offset);
  } else if (cur().is('-') || cur().kind == Token::Kind::Number) {
    const bool negative = accept('-');
    const long long value = integer("an address");
    op.offset = negative ? -value : value;
    op.has_offset = true;
  } else {
    fail("an address");
  }
  while (accept(',')) op.elements.push_back(operand(depth + 1));
  expect(']');
}

}  // namespace gpucmp::ptx
