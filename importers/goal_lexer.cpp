#include "importers/goal_lexer.hpp"

#include <fmt/format.h>

#include "pdl/diagnostic.hpp"

namespace importers::goal {

namespace {

bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_word_character(char c) { return is_letter(c) || is_digit(c) || c == '_'; }

}  // namespace

void Lexer::skip_blanks_and_comments() {
  while (at_ < text_.size()) {
    const char c = text_[at_];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++at_;
    } else if (text_.substr(at_, 2) == "//") {
      while (at_ < text_.size() && text_[at_] != '\n') ++at_;
    } else if (text_.substr(at_, 2) == "/*") {
      const Place opened{at_, line_};
      const std::size_t close = text_.find("*/", at_ + 2);
      const std::size_t end = close == std::string_view::npos ? text_.size() : close + 2;
      for (std::size_t i = at_; i < end; ++i) line_ += text_[i] == '\n' ? 1 : 0;
      at_ = end;
      if (close == std::string_view::npos) {
        unclosed_ = true;
        unclosed_place_ = opened;
      }
    } else {
      return;
    }
  }
}

// Digits with an optional sign, fraction and exponent, so that "-5" and "1.5" reach the parser
// whole and are refused as what they are, not as a stray '-' or '.'.
Token Lexer::number() {
  const std::size_t start = at_;
  if (text_[at_] == '-' || text_[at_] == '+') ++at_;
  while (at_ < text_.size() && is_digit(text_[at_])) ++at_;
  if (at_ < text_.size() && text_[at_] == '.') {
    ++at_;
    while (at_ < text_.size() && is_digit(text_[at_])) ++at_;
  }
  const bool exponent = at_ + 1 < text_.size() && (text_[at_] == 'e' || text_[at_] == 'E') &&
                        (is_digit(text_[at_ + 1]) || ((text_[at_ + 1] == '-' || text_[at_ + 1] == '+') &&
                                                      at_ + 2 < text_.size() && is_digit(text_[at_ + 2])));
  if (exponent) {
    at_ += 2;
    while (at_ < text_.size() && is_digit(text_[at_])) ++at_;
  }
  return {Token::Kind::Number, text_.substr(start, at_ - start), {start, line_}};
}

Token Lexer::next() {
  skip_blanks_and_comments();
  if (unclosed_) return {Token::Kind::Unclosed, text_.substr(unclosed_place_.offset, 2), unclosed_place_};
  if (at_ >= text_.size()) return {Token::Kind::End, {}, {text_.size(), line_}};
  const Place place{at_, line_};
  const char c = text_[at_];
  if (c == '\n') {
    ++at_;
    ++line_;
    return {Token::Kind::Newline, text_.substr(place.offset, 1), place};
  }
  const bool signed_number =
      (c == '-' || c == '+') && at_ + 1 < text_.size() && (is_digit(text_[at_ + 1]) || text_[at_ + 1] == '.');
  if (is_digit(c) || signed_number || (c == '.' && at_ + 1 < text_.size() && is_digit(text_[at_ + 1]))) {
    return number();
  }
  if (is_letter(c)) {
    while (at_ < text_.size() && is_word_character(text_[at_])) ++at_;
    return {Token::Kind::Word, text_.substr(place.offset, at_ - place.offset), place};
  }
  ++at_;
  return {Token::Kind::Symbol, text_.substr(place.offset, 1), place};
}

Token Lexer::peek() {
  const std::size_t at = at_, line = line_;
  const bool unclosed = unclosed_;
  const Token token = next();
  at_ = at;
  line_ = line;
  unclosed_ = unclosed;
  return token;
}

std::string describe(const Token& token) {
  switch (token.kind) {
    case Token::Kind::Newline: return "the end of the line";
    case Token::Kind::End: return "the end of the file";
    case Token::Kind::Unclosed: return "a comment that is not closed";
    default: break;
  }
  if (token.kind == Token::Kind::Symbol) {
    const auto byte = static_cast<unsigned char>(token.text[0]);
    if (byte < 0x20 || byte >= 0x7f) return fmt::format("the byte 0x{:02x}", byte);
  }
  return fmt::format("'{}'", pdl::excerpt(token.text));
}

}  // namespace importers::goal
