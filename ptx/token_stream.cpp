#include "token_stream.h"

#include "literals.h"
#include "parse_error.h"

namespace gpucmp::ptx {

TokenStream::TokenStream(std::string_view text, const std::string& filename)
    : text_(text), filename_(filename), tokens_(tokenize(text, filename)) {}

// Comments are stepped over, never consumed by a look-ahead: the full-line
// comments after a statement must stay for take_comments().
std::size_t TokenStream::next_index() const {
  std::size_t i = pos_;
  while (tokens_[i].kind == Token::Kind::Comment) ++i;
  return i;
}

const Token& TokenStream::cur() const { return tokens_[next_index()]; }

const Token& TokenStream::peek(int n) const {
  std::size_t i = next_index();
  for (; n > 0 && tokens_[i].kind != Token::Kind::End; --n) {
    ++i;
    while (tokens_[i].kind == Token::Kind::Comment) ++i;
  }
  return tokens_[i];
}

const Token& TokenStream::take() {
  const std::size_t i = next_index();
  pos_ = tokens_[i].kind == Token::Kind::End ? i : i + 1;
  return tokens_[i];
}

bool TokenStream::accept(char punct) {
  if (!cur().is(punct)) return false;
  take();
  return true;
}

void TokenStream::expect(char punct) {
  if (!accept(punct)) fail(std::string("'") + punct + "'");
}

void TokenStream::fail(const std::string& expected) const {
  const Token& t = cur();
  throw ParseError(filename_, t.line, t.column, expected,
                   t.kind == Token::Kind::End ? "<end of file>" : describe_token(t.text));
}

std::string TokenStream::name(const char* what) {
  const Token& t = cur();
  if (t.kind != Token::Kind::Word || t.text[0] == '.') fail(what);
  return std::string(take().text);
}

long long TokenStream::integer(const char* what) {
  const Token& t = cur();
  long long value = 0;
  if (t.kind != Token::Kind::Number || !parse_integer(t.text, value)) fail(what);
  take();
  return value;
}

bool TokenStream::offset(std::int64_t& value) {
  if (!cur().is('+') && !cur().is('-')) return false;
  bool negative = take().is('-');
  if (cur().is('-') || cur().is('+')) negative = take().is('-') != negative;
  const long long magnitude = integer("an integer offset");
  value = negative ? -magnitude : magnitude;
  return true;
}

std::vector<const Token*> TokenStream::take_comments() {
  std::vector<const Token*> out;
  while (tokens_[pos_].kind == Token::Kind::Comment) {
    const Token& t = tokens_[pos_++];
    if (t.first_on_line && t.text.substr(0, 2) == "//") out.push_back(&t);
  }
  return out;
}

std::string TokenStream::text_since(std::size_t start) const {
  std::vector<std::string_view> parts;
  for (std::size_t i = start; i < pos_; ++i)
    if (tokens_[i].kind != Token::Kind::Comment) parts.push_back(tokens_[i].text);
  return join_tokens(parts);
}

std::string TokenStream::source_since(std::size_t start) const {
  while (start < pos_ && tokens_[start].kind == Token::Kind::Comment) ++start;
  std::size_t last = pos_;
  while (last > start && tokens_[last - 1].kind == Token::Kind::Comment) --last;
  if (last <= start) return "";
  const std::size_t begin = tokens_[start].offset;
  const std::size_t end = tokens_[last - 1].offset + tokens_[last - 1].text.size();
  return std::string(text_.substr(begin, end - begin));
}

std::string TokenStream::rest_of_line() {
  const Token& first = take();
  std::vector<std::string_view> parts{first.text};
  while (tokens_[pos_].kind != Token::Kind::End && tokens_[pos_].line == first.line) {
    if (tokens_[pos_].kind != Token::Kind::Comment) parts.push_back(tokens_[pos_].text);
    ++pos_;
  }
  return join_tokens(parts);
}

std::string TokenStream::through_semicolon(const std::string& what_if_missing) {
  const std::size_t start = pos_;
  take();
  while (!cur().is(';')) {
    if (cur().kind == Token::Kind::End) fail(what_if_missing);
    take();
  }
  take();
  return text_since(start);
}

std::string TokenStream::source_through_closing_brace(std::size_t start,
                                                      const std::string& what_if_missing) {
  int depth = 0;
  do {
    const Token& t = cur();
    if (t.kind == Token::Kind::End) fail(what_if_missing);
    if (t.is('{')) ++depth;
    if (t.is('}')) --depth;
    take();
  } while (depth > 0);
  return source_since(start);
}

}  // namespace gpucmp::ptx
