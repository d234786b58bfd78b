// The words of a GOAL schedule (LogGOPSim's txt2bin.re): names and keywords, numbers, the
// symbols { } :, and the ends of lines, which end statements. Blanks and comments (`// ...` to the
// end of the line, `/* ... */` across lines) are skipped.
#pragma once

#include "importers/located.hpp"

#include <string_view>

namespace importers::goal {

struct Token {
  enum class Kind {
    Word,    // a letter, then letters, digits and '_': a keyword or a label
    Number,  // digits, possibly signed, with a fraction or an exponent (the parser refuses those)
    Symbol,  // any other single byte: { } : and whatever does not belong
    Newline,
    End,       // the end of the text
    Unclosed,  // a /* comment that the text ends inside
  };
  Kind kind = Kind::End;
  std::string_view text;
  Place place;

  bool is(std::string_view word) const { return kind == Kind::Word && text == word; }
  bool is_symbol(char symbol) const { return kind == Kind::Symbol && text.size() == 1 && text[0] == symbol; }
  bool ends_statement() const { return kind == Kind::Newline || kind == Kind::End || kind == Kind::Unclosed; }
};

class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) {}

  // The next token, consumed.
  Token next();
  // The next token, left in place.
  Token peek();

 private:
  void skip_blanks_and_comments();
  Token number();

  std::string_view text_;
  std::size_t at_ = 0;
  std::size_t line_ = 1;
  bool unclosed_ = false;  // a /* comment runs to the end: the next token says so
  Place unclosed_place_;
};

// A token as a message quotes it: 'word', "the end of the line", "the end of the file".
std::string describe(const Token& token);

}  // namespace importers::goal
