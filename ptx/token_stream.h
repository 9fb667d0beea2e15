// A cursor over the tokens of one PTX text, for the parser: look-ahead that
// steps over comments (without consuming them), expectations that throw
// ParseError at the offending token, and the text of token ranges.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lexer.h"

namespace gpucmp::ptx {

class TokenStream {
 public:
  TokenStream(std::string_view text, const std::string& filename);

  const std::string& filename() const { return filename_; }

  const Token& cur() const;        // the next non-comment token
  const Token& peek(int n) const;  // the n-th non-comment token after cur()
  const Token& take();             // cur(), consumed
  bool accept(char punct);         // take() when cur() is `punct`
  void expect(char punct);         // take `punct` or fail
  [[noreturn]] void fail(const std::string& expected) const;  // at cur()

  std::string name(const char* what);   // a word not starting with '.'
  long long integer(const char* what);  // a non-negative integer literal
  bool offset(std::int64_t& value);     // "+4", "-4", "+-4"; false if no sign

  // Full-line // comments at a statement boundary (others are dropped).
  std::vector<const Token*> take_comments();

  // Index of the next token (comments included), for the *_since functions.
  std::size_t position() const { return pos_; }
  // Tokens from `start` to the current position: canonically spaced / as written.
  std::string text_since(std::size_t start) const;
  std::string source_since(std::size_t start) const;

  // Consume and return (canonically spaced) cur() and the rest of its line.
  std::string rest_of_line();
  // Consume and return cur() up to and including the next ';'.
  std::string through_semicolon(const std::string& what_if_missing);
  // Consume up to the '}' closing the '{' at cur(); return the source from
  // token `start` on, as written.
  std::string source_through_closing_brace(std::size_t start, const std::string& what_if_missing);

 private:
  std::size_t next_index() const;

  std::string_view text_;
  std::string filename_;
  std::vector<Token> tokens_;
  std::size_t pos_ = 0;
};

}  // namespace gpucmp::ptx
