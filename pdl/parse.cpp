// The parser driver: checks the text lexically, then parses it one statement at a time with
// the grammar's statement rules, so that after a syntax error it can skip to the next ';'
// or statement and go on reporting.
#include "pdl/parse.hpp"

#include "pdl/config.hpp"
#include "pdl/error_handler.hpp"
#include "pdl/grammar.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <optional>
#include <type_traits>

namespace pdl {

namespace {

using parser::iterator_type;
namespace x3 = boost::spirit::x3;

bool is_word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// The checks of the file as a whole: an empty or huge file, or a NUL byte anywhere.
bool whole_file_check(const Source& source, std::vector<Diagnostic>& out) {
  const std::string& text = source.text();
  if (text.empty()) {
    out.push_back(source.diagnose(Severity::Error, 0, "the file is empty"));
    return false;
  }
  if (text.size() > kMaxSourceBytes) {
    out.push_back(source.diagnose(
        Severity::Error, 0,
        fmt::format("the file is too large: {} bytes (the limit is {} bytes)", text.size(), kMaxSourceBytes)));
    return false;
  }
  if (const std::size_t nul = text.find('\0'); nul != std::string::npos) {
    out.push_back(source.diagnose(Severity::Error, nul, "the file is binary, not PDL text: it contains a NUL byte"));
    return false;
  }
  return true;
}

// The skip_* functions take the position where a token starts and return the position after
// it, or std::nullopt once they have reported why the text is refused.

std::optional<std::size_t> skip_line_comment(const Source& source, std::size_t i, std::vector<Diagnostic>& out) {
  const std::string& text = source.text();
  const std::size_t n = text.size();
  while (i < n && text[i] != '\n') {
    if (text[i] == '\0') {
      out.push_back(source.diagnose(Severity::Error, i, "the file is not text: it contains a NUL byte"));
      return std::nullopt;
    }
    ++i;
  }
  return i;
}

std::optional<std::size_t> skip_block_comment(const Source& source, std::size_t i, std::vector<Diagnostic>& out) {
  const std::string& text = source.text();
  const std::size_t close = text.find("*/", i + 2);
  if (close == std::string::npos) {
    out.push_back(source.diagnose(Severity::Error, i, "unterminated comment: '/*' without '*/'"));
    return std::nullopt;
  }
  const std::size_t nul = text.find('\0', i);
  if (nul < close) {
    out.push_back(source.diagnose(Severity::Error, nul, "the file is not text: it contains a NUL byte"));
    return std::nullopt;
  }
  return close + 2;
}

std::optional<std::size_t> skip_string(const Source& source, std::size_t i, std::vector<Diagnostic>& out) {
  const std::string& text = source.text();
  const std::size_t n = text.size();
  std::size_t j = i + 1;
  while (j < n && text[j] != '\'' && text[j] != '\n' && text[j] != '\0') ++j;
  if (j >= n || text[j] != '\'') {
    out.push_back(source.diagnose(Severity::Error, i, "unterminated string: a string ends with ' on the same line"));
    return std::nullopt;
  }
  return j + 1;
}

std::optional<std::size_t> skip_number(const Source& source, std::size_t i, std::vector<Diagnostic>& out) {
  const std::string& text = source.text();
  // A number the grammar would refuse only by not matching it: say why.
  const char* begin = text.c_str() + i;
  char* end = nullptr;
  const double value = std::strtod(begin, &end);
  if (end != begin && !std::isfinite(value)) {
    out.push_back(source.diagnose(
        Severity::Error, i,
        fmt::format("number out of range: {} is too large for a double",
                    std::string(begin, std::min<std::size_t>(static_cast<std::size_t>(end - begin), 40)))));
    return std::nullopt;
  }
  return i + static_cast<std::size_t>(std::max<std::ptrdiff_t>(end - begin, 1));
}

// Outside comments and strings: control bytes and non-ASCII. Reports the byte and returns
// true when it is refused.
bool refused_byte(const Source& source, std::size_t i, unsigned char c, std::vector<Diagnostic>& out) {
  if (c == '\0' || (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v') || c == 0x7f) {
    out.push_back(source.diagnose(Severity::Error, i,
                                  fmt::format("the file is not text: it contains the control byte 0x{:02x}", c)));
    return true;
  }
  if (c >= 0x80) {
    out.push_back(source.diagnose(
        Severity::Error, i,
        fmt::format("unexpected byte 0x{:02x}: non-ASCII characters may appear only in comments and strings", c)));
    return true;
  }
  return false;
}

// Refuses what the grammar should never see: an empty or huge file, binary data, non-ASCII
// outside comments and strings, unterminated comments or strings, and nesting deeper than
// kMaxNesting (the grammar and the checker recurse once per level). One error at most:
// the grammar would only add noise after it.
bool lexical_check(const Source& source, std::vector<Diagnostic>& out) {
  if (!whole_file_check(source, out)) return false;
  const std::string& text = source.text();
  std::size_t depth = 0;
  const std::size_t n = text.size();
  for (std::size_t i = 0; i < n;) {
    const auto c = static_cast<unsigned char>(text[i]);
    std::optional<std::size_t> next;
    if (c == '/' && i + 1 < n && text[i + 1] == '/') {
      next = skip_line_comment(source, i, out);
    } else if (c == '/' && i + 1 < n && text[i + 1] == '*') {
      next = skip_block_comment(source, i, out);
    } else if (c == '\'') {
      next = skip_string(source, i, out);
    } else if (refused_byte(source, i, c, out)) {
      return false;
    } else if (c >= '0' && c <= '9' && (i == 0 || !is_word_char(text[i - 1]))) {
      next = skip_number(source, i, out);
    } else {
      if (c == '(' || c == '[' || c == '{') {
        if (++depth > kMaxNesting) {
          out.push_back(source.diagnose(
              Severity::Error, i,
              fmt::format("nesting too deep: more than {} levels of parentheses, brackets or braces", kMaxNesting)));
          return false;
        }
      } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
        --depth;
      } else if (c == ';') {
        depth = 0;  // nesting never spans statements; keeps one bad statement from poisoning the rest
      }
      next = i + 1;
    }
    if (!next) return false;
    i = *next;
  }
  return true;
}

// Drives the statement rules over one text.
class Driver {
 public:
  Driver(Source& source, std::vector<Diagnostic>& diagnostics)
      : source_(source),
        diagnostics_(diagnostics),
        handler_(source, diagnostics),
        it_(handler_.begin()),
        end_(handler_.end()) {}

  ast::Program program() {
    ast::Program program;
    skip();
    if (at_end()) {
      error("the file holds no PDL program (only white space and comments)");
      return program;
    }
    bool have_header = false;
    if (peek_word() != "program") {
      error(fmt::format("expected PROGRAM NAME IS 'name'; at the start of a PDL program but found {}",
                        parser::describe_token(it_, end_)));
    }
    while (!stop()) {
      skip();
      if (at_end()) break;
      const std::string word = peek_word();
      if (word == "program") {
        ast::StringLit name;
        const iterator_type start = it_;
        if (call(parser::program_header(), name)) {
          if (have_header) {
            error_at(start, "duplicate PROGRAM NAME: a file describes one program");
          }
          program.name = name;
          have_header = true;
        } else {
          recover_statement();
        }
      } else if (word == "variable") {
        ast::VariableDecl decl;
        if (call(parser::variable_decl(), decl))
          program.variables.push_back(std::move(decl));
        else
          recover_statement();
      } else if (word == "execution") {
        ast::Alternatives pattern;
        if (call(parser::pattern_decl(), pattern))
          program.patterns.push_back(std::move(pattern));
        else
          recover_statement();
      } else if (word == "work" || word == "sequential") {
        phase(program);
      } else if (word == "concatenation") {
        concatenation(program);
      } else {
        error(
            fmt::format("expected a statement (VARIABLE, EXECUTION PATTERN, WORK PHASE, "
                        "SEQUENTIAL PHASE or CONCATENATION) but found {}",
                        parser::describe_token(it_, end_)));
        next_token();
        recover_top(kProgramKeywords);
      }
    }
    return program;
  }

  // One VARIABLE declaration filling the whole text (a --set NAME=EXPR value).
  std::optional<ast::VariableDecl> variable_statement() {
    skip();
    ast::VariableDecl decl;
    if (!call(parser::variable_decl(), decl)) return std::nullopt;
    skip();
    if (!at_end()) {
      error(fmt::format("expected the end of the value but found {}", parser::describe_token(it_, end_)));
      return std::nullopt;
    }
    return decl;
  }

  ast::Machine machine() {
    ast::Machine machine;
    skip();
    if (at_end()) {
      error("the file holds no machine description (only white space and comments)");
      return machine;
    }
    if (peek_word() != "machine") {
      error(fmt::format("expected MACHINE NAME IS 'name'; at the start of a machine file but found {}",
                        parser::describe_token(it_, end_)));
    }
    bool have_header = false;
    while (!stop()) {
      skip();
      if (at_end()) break;
      if (peek_word() == "machine") {
        const iterator_type start = it_;
        ast::StringLit name;
        if (call(parser::machine_header(), name)) {
          if (have_header) error_at(start, "duplicate MACHINE NAME: a file describes one machine");
          machine.name = name;
          have_header = true;
        } else {
          recover_statement();
        }
        continue;
      }
      ast::MachineStatement statement;
      const std::size_t before = diagnostics_.size();
      if (call(parser::machine_statement(), statement)) {
        machine.statements.push_back(std::move(statement));
      } else {
        if (diagnostics_.size() == before) {
          error(fmt::format(
              "expected a machine statement (RTFACTOR, SIZEOF, COMMUNICATION, "
              "COMMUNICATION TIME, MESSAGE OVERHEAD, BARRIER TIME, CONTENTION, EAGER LIMIT, PORT TIME, PORTS, PORT SHARING, "
              "TOPOLOGY, COLLECTIVE, SEGMENT or VARIABLE) "
              "but found {}",
              parser::describe_token(it_, end_)));
        }
        recover_statement();
      }
    }
    return machine;
  }

 private:
  static constexpr std::array<std::string_view, 6> kProgramKeywords{"program", "variable",   "execution",
                                                                    "work",    "sequential", "concatenation"};

  template <typename Rule, typename Attribute>
  bool call(Rule const& rule, Attribute& attribute) {
    handler_.clear_last_error();
    parser::skipper_type const skipper;
    auto const skipper_context = x3::make_context<x3::skipper_tag>(skipper);
    auto handler = std::ref(handler_);
    auto const context = x3::make_context<x3::error_handler_tag>(handler, skipper_context);
    static_assert(std::is_same_v<std::remove_cv_t<decltype(context)>, parser::context_type>);
    return rule.parse(it_, end_, context, x3::unused, attribute);
  }

  bool call(parser::end_statement_type const& rule) {
    x3::unused_type unused;
    return call(rule, unused);
  }
  bool call(parser::concat_head_type const& rule) {
    x3::unused_type unused;
    return call(rule, unused);
  }

  void skip() {
    parser::skipper_type const skipper;
    while (skipper.parse(it_, end_, x3::unused, x3::unused, x3::unused)) {}
  }

  bool at_end() const { return it_ == end_; }
  // True once kMaxErrors errors were reported (then says so, once).
  bool stop() {
    if (stopped_) return true;
    if (count(diagnostics_, Severity::Error) < kMaxErrors) return false;
    stopped_ = true;
    handler_.error(it_, fmt::format("too many errors ({}); stopping here", kMaxErrors));
    return true;
  }

  // The word at the current position, lower case ("" when it is not a word).
  std::string peek_word() const {
    std::string word;
    for (iterator_type it = it_; it != end_ && is_word_char(*it) && word.size() < 32; ++it) {
      word += (*it >= 'A' && *it <= 'Z') ? static_cast<char>(*it - 'A' + 'a') : *it;
    }
    return word;
  }

  // Advances over one token (after white space and comments).
  void next_token() {
    skip();
    if (at_end()) return;
    if (is_word_char(*it_)) {
      while (it_ != end_ && is_word_char(*it_)) ++it_;
    } else if (*it_ == '\'') {
      ++it_;
      while (it_ != end_ && *it_ != '\'' && *it_ != '\n') ++it_;
      if (it_ != end_ && *it_ == '\'') ++it_;
    } else {
      ++it_;
    }
  }

  void error(std::string message) { error_at(it_, std::move(message)); }
  void error_at(iterator_type where, std::string message) {
    if (stop()) return;
    handler_.error(where, std::move(message));
  }

  // After a failed statement: when the only problem was a missing ';', go on right where it
  // was expected; otherwise skip past the next ';'.
  void recover_statement() {
    const auto where = handler_.last_error();
    if (where && !diagnostics_.empty() && diagnostics_.back().message.rfind("expected ';'", 0) == 0 && *where > it_) {
      it_ = *where;
      return;
    }
    if (where && *where > it_) it_ = *where;
    while (!at_end()) {
      skip();
      if (at_end()) return;
      const bool semicolon = *it_ == ';';
      next_token();
      if (semicolon) return;
    }
  }

  // Skips to the next top-level keyword (after a statement that could not be identified).
  template <std::size_t N>
  void recover_top(const std::array<std::string_view, N>& keywords) {
    while (!at_end()) {
      skip();
      if (at_end()) return;
      const std::string word = peek_word();
      for (std::string_view keyword : keywords) {
        if (word == keyword) return;
      }
      next_token();
    }
  }

  bool is_top_keyword(const std::string& word) const {
    for (std::string_view keyword : kProgramKeywords) {
      if (word == keyword) return true;
    }
    return false;
  }

  void phase(ast::Program& program) {
    ast::Phase phase;
    if (!call(parser::phase_head(), phase.head)) {
      next_token();
      recover_top(kProgramKeywords);
      return;
    }
    const std::string& name = phase.head.name.name;
    for (;;) {
      if (stop()) return;
      skip();
      if (at_end()) {
        error(fmt::format("unexpected end of file: expected 'END;' to close phase '{}'", name));
        break;
      }
      const std::string word = peek_word();
      if (word == "end") {
        if (!call(parser::end_statement())) recover_statement();
        break;
      }
      if (is_top_keyword(word)) {
        error(fmt::format("expected 'END;' to close phase '{}' before {}", name, parser::describe_token(it_, end_)));
        break;
      }
      ast::Clause clause;
      const std::size_t before = diagnostics_.size();
      if (call(parser::clause(), clause)) {
        phase.clauses.push_back(std::move(clause));
        continue;
      }
      if (diagnostics_.size() == before) {
        error(
            fmt::format("expected a clause of phase '{}' (PARALLELIZATION SCHEME, SUBTASK RUNTIME, "
                        "PROBLEM SIZE, COMMUNICATION VOLUME, ...) or END; but found {}",
                        name, parser::describe_token(it_, end_)));
      }
      if (word == "independent" || word == "dependent") {
        skip_block();
      } else {
        recover_statement();
      }
    }
    program.phases.push_back(std::move(phase));
  }

  // After an error in a subtask block: skip past its END ; (or stop before the next
  // top-level statement).
  void skip_block() {
    next_token();
    while (!at_end()) {
      skip();
      const std::string word = peek_word();
      if (is_top_keyword(word)) return;
      next_token();
      if (word == "end") {
        skip();
        if (!at_end() && *it_ == ';') next_token();
        return;
      }
    }
  }

  void concatenation(ast::Program& program) {
    if (!call(parser::concat_head())) {
      recover_statement();
      return;
    }
    for (;;) {
      if (stop()) return;
      skip();
      if (at_end()) {
        error("unexpected end of file: expected 'END;' to close CONCATENATION");
        return;
      }
      const std::string word = peek_word();
      if (word == "end") {
        if (!call(parser::end_statement())) recover_statement();
        return;
      }
      if (is_top_keyword(word)) {
        error(fmt::format("expected 'END;' to close CONCATENATION before {}", parser::describe_token(it_, end_)));
        return;
      }
      ast::ConcatEntry entry;
      if (call(parser::concat_entry(), entry)) {
        program.concatenations.push_back(std::move(entry));
      } else {
        recover_statement();
      }
    }
  }

  Source& source_;
  std::vector<Diagnostic>& diagnostics_;
  parser::ErrorHandler handler_;
  iterator_type it_;
  iterator_type end_;
  bool stopped_ = false;
};

}  // namespace

ParseResult parse(std::string_view text, std::string filename) {
  ParseResult result;
  result.source = Source(std::move(filename), std::string(text));
  if (!lexical_check(result.source, result.diagnostics)) return result;
  Driver driver(result.source, result.diagnostics);
  ast::Program program = driver.program();
  if (!has_errors(result.diagnostics)) result.ast = std::move(program);
  return result;
}

SetParseResult parse_set_value(std::string_view name, std::string_view text) {
  SetParseResult result;
  result.source = Source("--set " + std::string(name), fmt::format("VARIABLE {} = {};", name, text));
  if (!lexical_check(result.source, result.diagnostics)) return result;
  Driver driver(result.source, result.diagnostics);
  std::optional<ast::VariableDecl> decl = driver.variable_statement();
  if (decl && decl->upper && !has_errors(result.diagnostics)) {
    result.diagnostics.push_back(result.source.diagnose(
        Severity::Error, decl->upper->value,
        "a --set value is one number or expression, not a range (a range is for a machine file's constant)"));
    return result;
  }
  if (decl && decl->value && !has_errors(result.diagnostics)) result.value = std::move(*decl);
  return result;
}

MachineParseResult parse_machine(std::string_view text, std::string filename) {
  MachineParseResult result;
  result.source = Source(std::move(filename), std::string(text));
  if (!lexical_check(result.source, result.diagnostics)) return result;
  Driver driver(result.source, result.diagnostics);
  ast::Machine machine = driver.machine();
  if (!has_errors(result.diagnostics)) result.ast = std::move(machine);
  return result;
}

}  // namespace pdl
