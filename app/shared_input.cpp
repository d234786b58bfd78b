#include "app/shared_input.hpp"

#include <fmt/format.h>

#include <map>
#include <string>
#include <vector>

namespace app {

namespace {

// The facts in the order they travel, listed once for writing and reading.
template <class Facts, class Visit>
void facts_fields(Facts& facts, Visit&& visit) {
  visit(facts.exists);
  visit(facts.directory);
  visit(facts.regular);
  visit(facts.size);
  visit(facts.open_error);
  visit(facts.read_error);
  visit(facts.text);
}

std::string to_bytes(const pdl::FileFacts& facts) {
  distributed::Writer out;
  facts_fields(facts, [&](const auto& field) { out.field(field); });
  return std::move(out.bytes());
}

pdl::FileFacts from_bytes(const std::string& bytes) {
  distributed::Reader in(bytes);
  pdl::FileFacts facts;
  facts_fields(facts, [&](auto& field) { in.field(field); });
  return facts;
}

// "0, 2-5, 7": the ranks, in order, with runs of consecutive ranks as ranges.
std::string rank_list(const std::vector<int>& ranks) {
  std::string text;
  for (std::size_t i = 0; i < ranks.size();) {
    std::size_t last = i;
    while (last + 1 < ranks.size() && ranks[last + 1] == ranks[last] + 1) ++last;
    if (!text.empty()) text += ", ";
    text += last == i ? fmt::format("{}", ranks[i]) : fmt::format("{}-{}", ranks[i], ranks[last]);
    i = last + 1;
  }
  return text;
}

}  // namespace

pdl::FileReader rank_0_reads(const distributed::Communicator& ranks) {
  if (ranks.alone()) return pdl::read_file;
  return [&ranks](const std::string& path, std::size_t limit) {
    std::string bytes;
    if (ranks.rank() == 0) bytes = to_bytes(pdl::read_file(path, limit));
    return from_bytes(ranks.broadcast(std::move(bytes), 0));
  };
}

Check same_arguments_on_every_rank(int argc, char** argv, const distributed::Communicator& ranks) {
  std::string mine;
  for (int i = 1; i < argc; ++i) mine += fmt::format("{}{}", i > 1 ? " " : "", argv[i]);
  // Each argument with its length, so that "a b" and "a" "b" differ.
  distributed::Writer exact;
  for (int i = 1; i < argc; ++i) exact.put_text(argv[i]);
  const std::vector<std::string> all = ranks.all_gather(exact.bytes());
  bool same = true;
  for (const std::string& other : all) same = same && other == all.front();
  if (same) return passed();
  const std::vector<std::string> shown = ranks.all_gather(mine);
  std::map<std::string, std::vector<int>> ranks_of;  // the exact arguments -> the ranks that ran them
  std::vector<std::string> order;                    // in the order of their first rank
  for (std::size_t rank = 0; rank < all.size(); ++rank) {
    if (ranks_of[all[rank]].empty()) order.push_back(all[rank]);
    ranks_of[all[rank]].push_back(static_cast<int>(rank));
  }
  std::string text =
      "pdl-scale: error: the ranks of this job were started with different arguments; every rank must run the "
      "same command (docs/scale-out.md):\n";
  for (const std::string& arguments : order) {
    const std::vector<int>& ranks_here = ranks_of[arguments];
    text += fmt::format("  rank{} {}: pdl-scale {}\n", ranks_here.size() > 1 ? "s" : "", rank_list(ranks_here),
                        shown[ranks_here.front()]);
  }
  return refuse(UsageError{text});
}

}  // namespace app
