#include "app/suggest.hpp"

#include <algorithm>

namespace app {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // d[i][j]: the distance between the first i characters of a and the first j of b; three rows
  // suffice for the transposition.
  std::vector<std::size_t> before(b.size() + 1), previous(b.size() + 1), current(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        current[j] = std::min(current[j], before[j - 2] + 1);
      }
    }
    std::swap(before, previous);
    std::swap(previous, current);
  }
  return previous[b.size()];
}

std::vector<std::string> nearest(std::string_view given, const std::vector<std::string>& known) {
  const std::size_t limit = given.size() <= 3 ? 1 : 2;
  std::size_t best = limit + 1;
  std::vector<std::string> close;
  for (const std::string& name : known) {
    const std::size_t distance = edit_distance(given, name);
    if (distance > limit || distance > best) continue;
    if (distance < best) close.clear();
    best = distance;
    close.push_back(name);
  }
  if (!close.empty() || given.size() < 2) return close;
  for (const std::string& name : known) {
    if (name.size() > given.size() && name.starts_with(given)) close.push_back(name);
  }
  return close;
}

std::string quoted_alternatives(const std::vector<std::string>& names) {
  std::string text;
  for (std::size_t k = 0; k < names.size(); ++k) {
    text += k == 0 ? "" : k + 1 == names.size() ? " or " : ", ";
    text += "'" + names[k] + "'";
  }
  return text;
}

}  // namespace app
