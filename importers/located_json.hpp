// JSON read into a tree whose every value knows where it starts in the text, so that a reader
// can point a diagnostic at the value it refuses (nlohmann-json's own values carry no position).
// The text is read by nlohmann-json's SAX parser; the reader may stop it at any closed object
// (a limit crossed), and it stops by itself when the tree would pass a memory budget, so that a
// huge input is refused where it crosses the limit instead of being read whole.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace importers::json {

struct Member;

struct Value {
  enum class Kind : unsigned char { Null, Boolean, Integer, Float, String, Array, Object };
  Kind kind = Kind::Null;
  bool boolean = false;
  double number = 0.0;          // Integer and Float (an integer beyond 2^53 is rounded)
  std::string text;             // String: its value; Integer and Float: the number as written
  std::vector<Value> elements;  // Array
  std::vector<Member> members;  // Object, in the order of the text (no key twice)
  std::size_t offset = 0;       // where the value starts in the text (its '{', '[', '"', digit, ...)

  bool is_number() const { return kind == Kind::Integer || kind == Kind::Float; }
  // The member named `key`, or nullptr.
  const Value* find(std::string_view key) const;
};

struct Member {
  std::string key;
  std::size_t key_offset = 0;  // where the key's opening quote is
  Value value;
};

// "a string", "an object", ...: what a value is, for messages.
std::string_view kind_name(const Value& value);

// The error that stopped the parse: where, and why (without a file name: the caller locates it).
struct ParseError {
  std::size_t offset = 0;
  std::string message;
};

// Called when an object that is an element of an array closes, with its JSON pointer (RFC 6901,
// e.g. "/workflow/specification/tasks/12"): a message stops the parse with that error at the
// object's start.
using ObjectCheck = std::function<std::optional<std::string>(std::string_view pointer, const Value& object)>;

struct ParseResult {
  std::optional<Value> root;  // set exactly when `error` is not
  std::optional<ParseError> error;
};

// Parses `text` (strict JSON, a UTF-8 byte order mark allowed). The tree's estimated size (its
// values, keys and strings, allowing for the growth of its vectors) may not pass
// `memory_budget_bytes` (0: no budget): the parse stops at the value that crosses it, located at
// the innermost object that is an element of an array (a task, say) around it, else at the
// innermost object or array.
ParseResult parse(std::string_view text, std::size_t memory_budget_bytes, const ObjectCheck& check);

}  // namespace importers::json
