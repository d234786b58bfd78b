#include "importers/goal_parser.hpp"

#include <fmt/format.h>

#include <charconv>
#include <limits>
#include <optional>
#include <string>
#include <unordered_map>

#include "importers/goal_lexer.hpp"
#include "importers/goal_program.hpp"
#include "pdl/parse.hpp"

namespace importers::goal {

namespace {

constexpr std::uint64_t kMaxAmount = std::numeric_limits<std::uint64_t>::max();
// LogGOPSim keeps a tag in 32 bits and reads -1, all bits set, as MPI_ANY_TAG.
constexpr std::uint64_t kMaxTag = std::numeric_limits<std::uint32_t>::max() - 1;

// A dependency whose labels are looked up when its rank's block closes (a label may be defined
// below the line that names it).
struct PendingDependency {
  Token dependent;
  Token required;
  Place place;
  bool on_start = false;
};

// The block being read.
struct OpenRank {
  std::uint32_t rank = 0;
  Place place;
  std::uint32_t operations = 0;
  std::unordered_map<std::string_view, std::uint32_t> labels;  // label -> operation
  std::vector<PendingDependency> dependencies;
};

// The cpu and nic numbers other than 0, which the tool does not model: one note for them all.
struct IgnoredUnits {
  std::optional<Place> first;
  std::size_t count = 0;
};

class Parser {
 public:
  Parser(const ImportInput& input, const ImportLimits& limits, Holdings& holdings)
      : input_(input), limits_(limits), holdings_(holdings), lexer_(input.text) {}

  Parsed run() {
    while (!stopped_) {
      const Token token = lexer_.peek();
      if (token.kind == Token::Kind::End || token.kind == Token::Kind::Unclosed) break;
      if (open_) {
        statement_inside();
      } else {
        statement_outside();
      }
    }
    if (!stopped_) finish(lexer_.next());
    if (ignored_.first) note_ignored_units();
    return {std::move(schedule_), std::move(diagnostics_), std::move(notes_)};
  }

 private:
  void error(Place place, std::string message) {
    if (stopped_) return;
    diagnostics_.push_back(diagnose(input_, place, pdl::Severity::Error, std::move(message)));
    if (pdl::count(diagnostics_, pdl::Severity::Error) >= pdl::kMaxErrors) stopped_ = true;
  }

  // A bound crossed: the import cannot go on.
  void refuse(Place place, std::string message) {
    error(place, std::move(message));
    stopped_ = true;
  }

  // After an error, the rest of the statement is skipped: reading resumes on the next line.
  void skip_statement() {
    while (!lexer_.peek().ends_statement()) lexer_.next();
    if (lexer_.peek().kind == Token::Kind::Newline) lexer_.next();
  }

  void expected(const Token& token, std::string_view what) {
    error(token.place, fmt::format("expected {}, got {}", what, describe(token)));
    skip_statement();
  }

  // A statement ends at the end of its line (or of the file, which finish() then reports).
  bool end_of_statement() {
    const Token token = lexer_.peek();
    if (token.kind == Token::Kind::Newline) lexer_.next();
    if (token.ends_statement()) return true;
    expected(token, "the end of the line");
    return false;
  }

  std::optional<std::uint64_t> whole(const Token& token, std::string_view what, std::uint64_t max) {
    if (token.kind != Token::Kind::Number) {
      expected(token, what);
      return std::nullopt;
    }
    std::uint64_t value = 0;
    const char* end = token.text.data() + token.text.size();
    const auto [stop, code] = std::from_chars(token.text.data(), end, value);
    if (stop != end || code == std::errc::invalid_argument) {
      error(token.place, fmt::format("{} must be a whole number of at least 0, got '{}'", what, token.text));
    } else if (code == std::errc::result_out_of_range || value > max) {
      error(token.place, fmt::format("{} must be at most {}, got {}", what, max, pdl::excerpt(token.text)));
    } else {
      return value;
    }
    skip_statement();
    return std::nullopt;
  }

  // A rank a send names as its destination or a receive as its source; -1 (MPI_ANY_SOURCE) is
  // refused: which send a wildcard receive takes depends on the run's timing, and the import
  // matches each receive to its send before any time is known.
  std::optional<std::uint32_t> peer(const Token& token, OpKind kind) {
    if (token.kind == Token::Kind::Number && token.text == "-1" && kind == OpKind::Recv) {
      error(token.place,
            "a receive from any source (-1, MPI_ANY_SOURCE) cannot be imported: which send it takes "
            "depends on the times of the run, and the import matches every receive to its send in "
            "advance; write the source rank");
      skip_statement();
      return std::nullopt;
    }
    const auto rank = whole(token, kind == OpKind::Send ? "the destination rank" : "the source rank", kMaxAmount);
    if (rank && *rank >= schedule_.ranks) {
      error(token.place, fmt::format("rank {} is outside num_ranks {} (ranks 0 to {})", *rank, schedule_.ranks,
                                     schedule_.ranks - 1));
      skip_statement();
      return std::nullopt;
    }
    return rank ? std::optional<std::uint32_t>(static_cast<std::uint32_t>(*rank)) : std::nullopt;
  }

  std::optional<std::uint32_t> tag(const Token& token) {
    if (token.kind == Token::Kind::Number && token.text == "-1") {
      error(token.place,
            "a message of any tag (-1, MPI_ANY_TAG) cannot be imported: which message it matches "
            "depends on the times of the run, and the import matches messages in advance; write the tag");
      skip_statement();
      return std::nullopt;
    }
    const auto value = whole(token, "a tag", kMaxTag);
    return value ? std::optional<std::uint32_t>(static_cast<std::uint32_t>(*value)) : std::nullopt;
  }

  void statement_outside() {
    const Token token = lexer_.next();
    if (token.kind == Token::Kind::Newline) return;
    if (token.is("num_ranks")) return num_ranks_statement(token);
    if (token.is("rank")) return rank_statement(token);
    if (token.is_symbol('}')) {
      error(token.place, "'}' closes no rank block");
      return skip_statement();
    }
    if (token.kind == Token::Kind::Word) {
      error(token.place, "an operation or dependency outside a rank block: write it inside 'rank R { ... }'");
      return skip_statement();
    }
    error(token.place, fmt::format("expected 'num_ranks N' or 'rank R {{', got {}", describe(token)));
    skip_statement();
  }

  void num_ranks_statement(const Token& keyword) {
    if (num_ranks_place_) {
      error(keyword.place, fmt::format("num_ranks is given twice (first at line {})", num_ranks_place_->line));
      return skip_statement();
    }
    if (!blocks_.empty()) {
      error(keyword.place, "num_ranks must come before the first rank block");
      return skip_statement();
    }
    const Token value = lexer_.next();
    const auto ranks = whole(value, "num_ranks", kMaxAmount);
    if (!ranks) return;
    if (*ranks == 0 || *ranks > kMaxRanks) {
      error(value.place, fmt::format("num_ranks must lie in [1, {}] (the most processors the tool analyses), got {}",
                                     kMaxRanks, *ranks));
      return skip_statement();
    }
    num_ranks_place_ = keyword.place;
    schedule_.ranks = static_cast<std::uint32_t>(*ranks);
    end_of_statement();
  }

  void rank_statement(const Token& keyword) {
    if (!num_ranks_place_) {
      error(keyword.place, "a rank block before num_ranks: a GOAL schedule starts with 'num_ranks N'");
      return skip_statement();
    }
    const Token number = lexer_.next();
    const auto rank = whole(number, "a rank", kMaxAmount);
    if (!rank) return;
    if (*rank >= schedule_.ranks) {
      error(number.place, fmt::format("rank {} is outside num_ranks {} (ranks 0 to {})", *rank, schedule_.ranks,
                                      schedule_.ranks - 1));
      return skip_statement();
    }
    const auto [first, added] = blocks_.emplace(static_cast<std::uint32_t>(*rank), keyword.place);
    if (!added) {
      error(number.place, fmt::format("rank {} has a second block (the first at line {})", *rank, first->second.line));
      return skip_statement();
    }
    const Token brace = lexer_.next();
    if (!brace.is_symbol('{')) return expected(brace, "'{'");
    open_.emplace();
    open_->rank = static_cast<std::uint32_t>(*rank);
    open_->place = keyword.place;
  }

  void statement_inside() {
    const Token token = lexer_.next();
    if (token.kind == Token::Kind::Newline) return;
    if (token.is_symbol('}')) return close_rank();
    if (token.is("rank") || token.is("num_ranks")) {
      error(token.place, fmt::format("the block of rank {} (line {}) is not closed: a '}}' is missing before {}",
                                     open_->rank, open_->place.line, describe(token)));
      close_rank();
      return token.is("rank") ? rank_statement(token) : num_ranks_statement(token);
    }
    if (token.kind != Token::Kind::Word) return expected(token, "an operation (calc, send, recv), a label or '}'");
    if (token.is("calc") || token.is("send") || token.is("recv")) return operation(token, 0, token);
    const Token after = lexer_.next();
    if (after.is_symbol(':')) {
      const Token keyword = lexer_.next();
      if (keyword.is("calc") || keyword.is("send") || keyword.is("recv")) {
        return operation(token, static_cast<std::uint32_t>(token.text.size()), keyword);
      }
      return expected(keyword, "calc, send or recv after the label");
    }
    if (after.is("requires") || after.is("irequires")) return dependency(token, after);
    expected(after, fmt::format("':', 'requires' or 'irequires' after the label '{}'", pdl::excerpt(token.text)));
  }

  void operation(const Token& first, std::uint32_t label_length, const Token& keyword) {
    Operation op;
    op.place = first.place;
    op.label_length = label_length;
    op.rank = open_->rank;
    op.kind = keyword.is("calc") ? OpKind::Calc : keyword.is("send") ? OpKind::Send : OpKind::Recv;
    const Token amount = lexer_.next();
    const auto value =
        whole(amount, op.kind == OpKind::Calc ? "a calc time (nanoseconds)" : "a message size (bytes)", kMaxAmount);
    if (!value) return;
    op.amount = *value;
    if (op.kind != OpKind::Calc && !message_operands(op)) return;
    if (!suffixes(op)) return;
    add(op, first);
  }

  // "b to R" of a send, "b from R" of a receive.
  bool message_operands(Operation& op) {
    const Token bytes = lexer_.next();
    if (!bytes.is("b")) {
      expected(bytes, "'b' after the size (a size is written 8b)");
      return false;
    }
    const std::string_view preposition = op.kind == OpKind::Send ? "to" : "from";
    const Token word = lexer_.next();
    if (!word.is(preposition)) {
      expected(word, fmt::format("'{}'", preposition));
      return false;
    }
    const auto rank = peer(lexer_.next(), op.kind);
    if (!rank) return false;
    op.peer = *rank;
    return true;
  }

  // tag T, cpu C, nic N (each at most once; a calc takes only cpu), to the end of the statement.
  bool suffixes(Operation& op) {
    bool tag_given = false, cpu_given = false, nic_given = false;
    for (Token word = lexer_.peek(); !word.ends_statement() && !word.is_symbol('}'); word = lexer_.peek()) {
      lexer_.next();
      const bool is_tag = word.is("tag") && op.kind != OpKind::Calc && !tag_given;
      const bool is_unit = (word.is("cpu") && !cpu_given) || (word.is("nic") && op.kind != OpKind::Calc && !nic_given);
      if (!is_tag && !is_unit) {
        expected(word, op.kind == OpKind::Calc ? "'cpu' or the end of the line"
                                               : "'tag', 'cpu', 'nic' or the end of the line");
        return false;
      }
      tag_given |= is_tag;
      cpu_given |= word.is("cpu");
      nic_given |= word.is("nic");
      const Token value = lexer_.next();
      if (is_tag) {
        const auto t = tag(value);
        if (!t) return false;
        op.tag = *t;
        continue;
      }
      const auto unit = whole(value, word.is("cpu") ? "a cpu" : "a nic", kMaxAmount);
      if (!unit) return false;
      if (*unit != 0 && ignored_.count++ == 0) ignored_.first = word.place;
    }
    if (lexer_.peek().kind == Token::Kind::Newline) lexer_.next();
    return true;
  }

  void add(Operation op, const Token& first) {
    const auto index = static_cast<std::uint32_t>(schedule_.operations.size());
    op.position = ++open_->operations;
    if (op.label_length > 0) {
      const auto [previous, added] = open_->labels.emplace(first.text, index);
      if (!added) {
        const Operation& other = schedule_.operations[previous->second];
        return error(first.place, fmt::format("the label '{}' is already an operation of rank {} (line {})",
                                              pdl::excerpt(first.text), op.rank, other.place.line));
      }
    }
    schedule_.operations.push_back(op);
    if (const auto crossed = holdings_.add(kBytesPerOperation, task_bytes(op))) refuse(op.place, *crossed);
  }

  void dependency(const Token& dependent, const Token& keyword) {
    const Token required = lexer_.next();
    if (required.kind != Token::Kind::Word) return expected(required, "a label");
    open_->dependencies.push_back({dependent, required, dependent.place, keyword.is("irequires")});
    end_of_statement();
  }

  std::optional<std::uint32_t> label(const Token& token) {
    const auto found = open_->labels.find(token.text);
    if (found != open_->labels.end()) return found->second;
    error(token.place, fmt::format("'{}' names no operation of rank {}", pdl::excerpt(token.text), open_->rank));
    return std::nullopt;
  }

  // The end of a block: its dependencies find their operations.
  void close_rank() {
    for (const PendingDependency& pending : open_->dependencies) {
      const auto dependent = label(pending.dependent);
      const auto required = label(pending.required);
      if (!dependent || !required || stopped_) continue;
      schedule_.dependencies.push_back({pending.place, *dependent, *required, pending.on_start});
      const Operation& from = schedule_.operations[*required];
      const Operation& to = schedule_.operations[*dependent];
      if (const auto crossed = holdings_.add(kBytesPerDependency, arc_bytes(from, to))) refuse(pending.place, *crossed);
    }
    open_.reset();
  }

  void finish(const Token& end) {
    if (end.kind == Token::Kind::Unclosed) {
      return error(end.place, "this comment is not closed: the file ends inside it");
    }
    if (input_.cut()) return error(end.place, cut_input_reason(input_, limits_));
    if (open_) {
      return error(end.place, fmt::format("the file ends inside the block of rank {} (opened at line {}): a '}}' is "
                                          "missing; is the file cut short?",
                                          open_->rank, open_->place.line));
    }
    if (!num_ranks_place_) {
      return error({0, 1},
                   "no num_ranks: a GOAL schedule starts with 'num_ranks N', then a block 'rank R { ... }' "
                   "per rank");
    }
    if (schedule_.operations.empty()) error(end.place, "the schedule has no operations: nothing to import");
  }

  void note_ignored_units() {
    notes_.push_back(
        diagnose(input_, *ignored_.first, pdl::Severity::Note,
                 fmt::format("{} operation(s) name a cpu or nic other than 0: the tool runs every "
                             "operation of a rank on one processor with one network port each way, in "
                             "the order docs/import.md gives, where LogGOPSim keeps a clock per cpu and nic",
                             ignored_.count)));
  }

  const ImportInput& input_;
  const ImportLimits& limits_;
  Holdings& holdings_;
  Lexer lexer_;
  Schedule schedule_;
  std::vector<pdl::Diagnostic> diagnostics_;
  std::vector<pdl::Diagnostic> notes_;
  bool stopped_ = false;  // pdl::kMaxErrors errors, or a bound crossed
  std::optional<Place> num_ranks_place_;
  std::unordered_map<std::uint32_t, Place> blocks_;  // rank -> where its block opened
  std::optional<OpenRank> open_;
  IgnoredUnits ignored_;
};

}  // namespace

Parsed parse_schedule(const ImportInput& input, const ImportLimits& limits, Holdings& holdings) {
  return Parser(input, limits, holdings).run();
}

}  // namespace importers::goal
