#include "app/shared_input.hpp"

namespace app {

namespace {

std::string to_bytes(const pdl::FileFacts& facts) {
  distributed::Writer out;
  out.put(facts.exists);
  out.put(facts.directory);
  out.put(facts.regular);
  out.put(facts.size);
  out.put(facts.open_error);
  out.put(facts.read_error);
  out.put_text(facts.text);
  return std::move(out.bytes());
}

pdl::FileFacts from_bytes(const std::string& bytes) {
  distributed::Reader in(bytes);
  pdl::FileFacts facts;
  facts.exists = in.get<bool>();
  facts.directory = in.get<bool>();
  facts.regular = in.get<bool>();
  facts.size = in.get<std::uintmax_t>();
  facts.open_error = in.get<int>();
  facts.read_error = in.get<bool>();
  facts.text = in.get_text();
  return facts;
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

}  // namespace app
