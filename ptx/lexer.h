// Splits PTX text into tokens with their line and column. Internal to the
// parser (and the printer's token joining); throws ParseError on bytes that
// start no token, unterminated strings and unterminated /* comments.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace gpucmp::ptx {

struct Token {
  enum class Kind {
    Word,     // .reg  ld.global.f32  %r1  %tid.x  $L__BB0_2  name  _
    Number,   // 42  0x1F  0f3F800000  1.5  7U
    String,   // "nounroll" (with the quotes)
    Punct,    // one of , ; : { } ( ) [ ] < > + - ! @ | = * / ~ & ^ ?
    Comment,  // // ... (to the end of the line) or /* ... */
    End,
  };
  Kind kind = Kind::End;
  std::string_view text;
  int line = 1;
  int column = 1;
  std::size_t offset = 0;      // byte offset of the first character
  bool first_on_line = false;  // nothing but blanks before it on its line

  bool is(char punct) const { return kind == Kind::Punct && text.size() == 1 && text[0] == punct; }
  bool is_directive() const { return kind == Kind::Word && text[0] == '.'; }
};

// The tokens of `text`, ending with one Kind::End token. `filename` is only used
// in error messages.
std::vector<Token> tokenize(std::string_view text, const std::string& filename);

// Joins token texts with canonical spacing: one space between tokens, none
// before , ; ) ] } > or after ( [ { < or a unary sign. Re-tokenizing the result
// gives the same tokens.
std::string join_tokens(const std::vector<std::string_view>& tokens);

// The token as shown in an error message: control and non-ASCII bytes escaped,
// cut to a readable length.
std::string describe_token(std::string_view text);

}  // namespace gpucmp::ptx
