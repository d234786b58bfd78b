#include "importers/located_json.hpp"

#include "pdl/diagnostic.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <utility>

namespace importers::json {

const Value* Value::find(std::string_view key) const {
  for (const Member& member : members) {
    if (member.key == key) return &member.value;
  }
  return nullptr;
}

std::string_view kind_name(const Value& value) {
  switch (value.kind) {
    case Value::Kind::Null: return "null";
    case Value::Kind::Boolean: return "a boolean";
    case Value::Kind::Integer:
    case Value::Kind::Float: return "a number";
    case Value::Kind::String: return "a string";
    case Value::Kind::Array: return "an array";
    case Value::Kind::Object: return "an object";
  }
  return "a value";
}

namespace {

// The text, read by nlohmann-json one character at a time through this iterator, which leaves
// in `*cursor` how far the parser has read: a SAX event knows only its value, not its place.
class CountingIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  CountingIterator(const char* at, const char** cursor) : at_(at), cursor_(cursor) {}
  reference operator*() const { return *at_; }
  CountingIterator& operator++() {
    ++at_;
    *cursor_ = at_;
    return *this;
  }
  CountingIterator operator++(int) {
    CountingIterator before = *this;
    ++*this;
    return before;
  }
  friend bool operator==(const CountingIterator& a, const CountingIterator& b) { return a.at_ == b.at_; }

 private:
  const char* at_;
  const char** cursor_;
};

// What a value costs the tree beyond its text: the node, a member's key node, and twice that for
// the slack of a growing vector. An estimate, documented as one.
constexpr std::size_t kBytesPerValue = 2 * (sizeof(Value) + sizeof(Member));

std::string pointer_token(std::string_view key) {
  std::string token;
  for (char c : key) {
    if (c == '~')
      token += "~0";
    else if (c == '/')
      token += "~1";
    else
      token += c;
  }
  return token;
}

// nlohmann-json's message without its "[json.exception.parse_error.101] parse error at line 1,
// column 2: " prefix: the diagnostic gives the place itself.
std::string json_message(const nlohmann::json::exception& error) {
  std::string_view what = error.what();
  if (const std::size_t bracket = what.find("] "); bracket != std::string_view::npos) what.remove_prefix(bracket + 2);
  if (what.starts_with("parse error")) {
    if (const std::size_t colon = what.find(": "); colon != std::string_view::npos) what.remove_prefix(colon + 2);
  }
  return fmt::format("invalid JSON: {}", what);
}

// The SAX handler (nlohmann-json's interface, json_sax): builds the tree, with each value's
// offset: the first character after the previous event that is not white space or a separator.
class TreeBuilder {
 public:
  TreeBuilder(std::string_view text, const char* const& cursor, std::size_t budget, const ObjectCheck& check)
      : text_(text), cursor_(cursor), budget_(budget), check_(check) {}

  bool null() { return scalar(Value{}); }
  bool boolean(bool b) {
    Value value = of_kind(Value::Kind::Boolean);
    value.boolean = b;
    return scalar(std::move(value));
  }
  bool number_integer(std::int64_t n) {
    return number(Value::Kind::Integer, static_cast<double>(n), fmt::format("{}", n));
  }
  bool number_unsigned(std::uint64_t n) {
    return number(Value::Kind::Integer, static_cast<double>(n), fmt::format("{}", n));
  }
  bool number_float(double x, const std::string& token) { return number(Value::Kind::Float, x, token); }
  bool string(std::string& s) {
    Value value = of_kind(Value::Kind::String);
    value.text = std::move(s);
    return scalar(std::move(value));
  }
  bool binary(nlohmann::json::binary_t& /*bytes*/) { return scalar(Value{}); }  // not in JSON text
  bool start_object(std::size_t /*elements*/) { return open(Value::Kind::Object); }
  bool start_array(std::size_t /*elements*/) { return open(Value::Kind::Array); }
  bool end_array() { return close(); }
  bool key(std::string& k);
  bool end_object();
  bool parse_error(std::size_t byte, const std::string& /*token*/, const nlohmann::json::exception& error);

  ParseResult result() &&;

 private:
  std::size_t token_start();
  static Value of_kind(Value::Kind kind) {
    Value value;
    value.kind = kind;
    return value;
  }
  bool number(Value::Kind kind, double x, std::string token) {
    Value value = of_kind(kind);
    value.number = x;
    value.text = std::move(token);
    return scalar(std::move(value));
  }
  bool scalar(Value value) {
    value.offset = token_start();
    held_ += kBytesPerValue + value.text.size();
    place(std::move(value));
    return within_budget();
  }
  bool open(Value::Kind kind) {
    Value value = of_kind(kind);
    value.offset = token_start();
    held_ += kBytesPerValue;
    Value& placed = place(std::move(value));
    stack_.push_back(&placed);
    return within_budget();
  }
  bool close() {
    token_start();
    stack_.pop_back();
    return true;
  }
  Value& place(Value value);
  bool within_budget();
  bool stop(std::size_t offset, std::string message) {
    error_ = ParseError{offset, std::move(message)};
    return false;
  }
  std::string pointer() const;

  std::string_view text_;
  const char* const& cursor_;  // how far nlohmann-json has read
  std::size_t read_ = 0;       // where the previous event ended
  std::size_t budget_;
  const ObjectCheck& check_;
  std::size_t held_ = 0;
  Value root_;
  std::vector<Value*> stack_;  // the open objects and arrays, innermost last
  std::optional<ParseError> error_;
};

std::size_t TreeBuilder::token_start() {
  std::size_t at = read_;
  if (at == 0 && text_.starts_with("\xEF\xBB\xBF")) at = 3;  // a byte order mark, which nlohmann-json skips
  while (at < text_.size() && std::string_view(" \t\r\n,:").find(text_[at]) != std::string_view::npos) ++at;
  read_ = static_cast<std::size_t>(cursor_ - text_.data());
  return at;
}

Value& TreeBuilder::place(Value value) {
  if (stack_.empty()) {
    root_ = std::move(value);
    return root_;
  }
  Value& parent = *stack_.back();
  if (parent.kind == Value::Kind::Array) {
    parent.elements.push_back(std::move(value));
    return parent.elements.back();
  }
  parent.members.back().value = std::move(value);  // key() added the member
  return parent.members.back().value;
}

bool TreeBuilder::key(std::string& k) {
  const std::size_t offset = token_start();
  held_ += kBytesPerValue + k.size();
  Member member;
  member.key = std::move(k);
  member.key_offset = offset;
  stack_.back()->members.push_back(std::move(member));
  return within_budget();
}

bool TreeBuilder::end_object() {
  const Value& object = *stack_.back();
  // A key twice: sorted once the object is complete, so that a hostile object of many keys
  // costs n log n, not n^2.
  std::vector<const Member*> by_key;
  by_key.reserve(object.members.size());
  for (const Member& member : object.members) by_key.push_back(&member);
  std::stable_sort(by_key.begin(), by_key.end(), [](const Member* a, const Member* b) { return a->key < b->key; });
  for (std::size_t i = 1; i < by_key.size(); ++i) {
    if (by_key[i]->key == by_key[i - 1]->key) {
      const Member* later = by_key[i]->key_offset > by_key[i - 1]->key_offset ? by_key[i] : by_key[i - 1];
      return stop(later->key_offset,
                  fmt::format("the key '{}' appears twice in this object", pdl::excerpt(later->key)));
    }
  }
  const bool element = stack_.size() >= 2 && stack_[stack_.size() - 2]->kind == Value::Kind::Array;
  if (element && check_) {
    if (std::optional<std::string> refusal = check_(pointer(), object)) {
      return stop(object.offset, std::move(*refusal));
    }
  }
  return close();
}

bool TreeBuilder::within_budget() {
  if (budget_ == 0 || held_ <= budget_) return true;
  std::size_t where = stack_.empty() ? 0 : stack_.back()->offset;
  for (std::size_t level = stack_.size(); level >= 2; --level) {
    if (stack_[level - 1]->kind == Value::Kind::Object && stack_[level - 2]->kind == Value::Kind::Array) {
      where = stack_[level - 1]->offset;
      break;
    }
  }
  return stop(where, fmt::format("the instance needs more memory than the reader's budget of {} bytes (about {} "
                                 "bytes held when it reached this value); it is not read further",
                                 budget_, held_));
}

bool TreeBuilder::parse_error(std::size_t byte, const std::string& token, const nlohmann::json::exception& error) {
  // byte: how many characters were read, the last of the token that failed last. The caret goes
  // under that character, or under the first of a string, number or literal (nlohmann-json
  // restarts `token` at each of these; before a separator or bracket it holds what came before
  // too), as a compiler puts it under the unexpected word.
  std::size_t offset = byte > 0 ? byte - 1 : 0;
  const bool word = !token.empty() && token.find("<U+") == std::string::npos && token.size() <= byte &&
                    std::string_view("[]{},: \t\r\n").find(token.back()) == std::string_view::npos;
  if (word && byte <= text_.size()) offset = byte - token.size();
  if (error.id == 406) offset = token_start();  // a number too large for a double
  return stop(std::min(offset, text_.size()), json_message(error));
}

std::string TreeBuilder::pointer() const {
  // The closing object is stack_.back(); each enclosing level names the value it is building by
  // its last element's index or its last member's key.
  std::string out;
  for (std::size_t level = 0; level + 1 < stack_.size(); ++level) {
    const Value& container = *stack_[level];
    if (container.kind == Value::Kind::Array) {
      out += fmt::format("/{}", container.elements.size() - 1);
    } else {
      out += "/" + pointer_token(container.members.back().key);
    }
  }
  return out;
}

ParseResult TreeBuilder::result() && {
  ParseResult out;
  if (error_)
    out.error = std::move(error_);
  else
    out.root = std::move(root_);
  return out;
}

}  // namespace

ParseResult parse(std::string_view text, std::size_t memory_budget_bytes, const ObjectCheck& check) {
  const char* cursor = text.data();
  TreeBuilder builder(text, cursor, memory_budget_bytes, check);
  const CountingIterator first(text.data(), &cursor);
  const CountingIterator last(text.data() + text.size(), &cursor);
  const bool complete = nlohmann::json::sax_parse(first, last, &builder);
  ParseResult out = std::move(builder).result();
  if (!complete && !out.error) out.error = ParseError{0, "invalid JSON: the parser stopped without saying why"};
  return out;
}

}  // namespace importers::json
