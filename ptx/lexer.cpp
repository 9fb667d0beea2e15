#include "lexer.h"

#include <cstdio>

#include "parse_error.h"

namespace gpucmp::ptx {
namespace {

bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_word_start(char c) { return is_alpha(c) || c == '_' || c == '$' || c == '%' || c == '.'; }
bool is_word_char(char c) { return is_word_start(c) || is_digit(c); }
bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

constexpr std::string_view kPunct = ",;:{}()[]<>+-!@|=*/~&^?";

class Lexer {
 public:
  Lexer(std::string_view text, const std::string& filename) : text_(text), filename_(filename) {}

  std::vector<Token> run() {
    std::vector<Token> tokens;
    tokens.reserve(text_.size() / 4 + 1);
    bool line_empty = true;
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == '\n') {
        advance(1);
        line_empty = true;
        continue;
      }
      if (is_blank(c)) {
        advance(1);
        continue;
      }
      Token tok;
      tok.line = line_;
      tok.column = column_;
      tok.offset = pos_;
      tok.first_on_line = line_empty;
      const std::size_t start = pos_;
      tok.kind = scan(c);
      tok.text = text_.substr(start, pos_ - start);
      tokens.push_back(tok);
      line_empty = false;
    }
    Token end;
    end.kind = Token::Kind::End;
    end.line = line_;
    end.column = column_;
    end.offset = pos_;
    end.first_on_line = line_empty;
    tokens.push_back(end);
    return tokens;
  }

 private:
  Token::Kind scan(char c) {
    if (c == '/' && peek(1) == '/') {
      while (pos_ < text_.size() && text_[pos_] != '\n') advance(1);
      return Token::Kind::Comment;
    }
    if (c == '/' && peek(1) == '*') return block_comment();
    if (c == '"') return string();
    if (is_digit(c)) return number();
    if (is_word_start(c)) return word();
    if (kPunct.find(c) != std::string_view::npos) {
      advance(1);
      return Token::Kind::Punct;
    }
    throw ParseError(filename_, line_, column_, "a token", describe_token(text_.substr(pos_, 1)));
  }

  Token::Kind block_comment() {
    const int line = line_, column = column_;
    advance(2);
    while (pos_ < text_.size()) {
      if (text_[pos_] == '*' && peek(1) == '/') {
        advance(2);
        return Token::Kind::Comment;
      }
      advance(1);
    }
    throw ParseError(filename_, line, column, "'*/' closing this comment", "<end of file>");
  }

  Token::Kind string() {
    const int line = line_, column = column_;
    advance(1);
    while (pos_ < text_.size() && text_[pos_] != '\n') {
      if (text_[pos_] == '\\' && pos_ + 1 < text_.size() && text_[pos_ + 1] != '\n') {
        advance(2);
        continue;
      }
      if (text_[pos_] == '"') {
        advance(1);
        return Token::Kind::String;
      }
      advance(1);
    }
    throw ParseError(filename_, line, column, "'\"' closing this string", "<end of line>");
  }

  // Digits and letters; a decimal float may carry an exponent sign (1.5e-3).
  Token::Kind number() {
    const std::size_t start = pos_;
    const bool prefixed =
        text_[pos_] == '0' && pos_ + 1 < text_.size() &&
        std::string_view("xXfFdDbB").find(text_[pos_ + 1]) != std::string_view::npos;
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (is_alpha(c) || is_digit(c) || c == '_' || c == '.') {
        advance(1);
        continue;
      }
      const char prev = text_[pos_ - 1];
      if (!prefixed && (c == '+' || c == '-') && (prev == 'e' || prev == 'E') && pos_ - 1 > start &&
          is_digit(peek(1))) {
        advance(1);
        continue;
      }
      break;
    }
    return Token::Kind::Number;
  }

  // Words include dots (ld.global.f32, %tid.x, .reg) and '::' (ld.shared::cta).
  Token::Kind word() {
    advance(1);
    while (pos_ < text_.size()) {
      if (is_word_char(text_[pos_])) {
        advance(1);
      } else if (text_[pos_] == ':' && peek(1) == ':' && is_word_char(peek(2))) {
        advance(2);
      } else {
        break;
      }
    }
    return Token::Kind::Word;
  }

  char peek(std::size_t ahead) const {
    return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
  }

  void advance(std::size_t n) {
    for (std::size_t i = 0; i < n && pos_ < text_.size(); ++i, ++pos_) {
      if (text_[pos_] == '\n') {
        ++line_;
        column_ = 1;
      } else {
        ++column_;
      }
    }
  }

  std::string_view text_;
  const std::string& filename_;
  std::size_t pos_ = 0;
  int line_ = 1;
  int column_ = 1;
};

bool opens(std::string_view t) { return t == "(" || t == "[" || t == "{" || t == "<"; }
bool closes_or_separates(std::string_view t) {
  return t == "," || t == ";" || t == ")" || t == "]" || t == "}" || t == ">";
}
bool is_sign(std::string_view t) { return t == "-" || t == "+" || t == "!" || t == "~"; }
bool is_operator(std::string_view t) {
  return t.size() == 1 &&
         std::string_view(",({[<=+-*/!~&|^?:").find(t[0]) != std::string_view::npos;
}

}  // namespace

std::vector<Token> tokenize(std::string_view text, const std::string& filename) {
  return Lexer(text, filename).run();
}

std::string join_tokens(const std::vector<std::string_view>& tokens) {
  std::string out;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const std::string_view t = tokens[i];
    if (i > 0) {
      const std::string_view prev = tokens[i - 1];
      const bool prev_unary = is_sign(prev) && (i < 2 || is_operator(tokens[i - 2]));
      if (!closes_or_separates(t) && !opens(prev) && !prev_unary) out += ' ';
    }
    out += t;
  }
  return out;
}

std::string describe_token(std::string_view text) {
  constexpr std::size_t kMax = 40;
  std::string out;
  for (std::size_t i = 0; i < text.size() && i < kMax; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f && c != '\'') {
      out += static_cast<char>(c);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    }
  }
  if (text.size() > kMax) out += "...";
  return out;
}

}  // namespace gpucmp::ptx
