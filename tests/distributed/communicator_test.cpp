// The collectives of one process and of a job of threads, checked against what each must give
// by its definition (communicator.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "distributed/communicator.hpp"
#include "distributed/threaded_ranks.hpp"
#include "distributed/world.hpp"

namespace {

TEST(WriterReader, ValuesComeBackInOrder) {
  distributed::Writer writer;
  writer.put<int>(-7);
  writer.put<double>(0.1);
  const std::vector<std::uint32_t> numbers{3, 1, 4};
  writer.put_all(std::span<const std::uint32_t>(numbers));
  writer.put_text("exact");
  distributed::Reader reader(writer.bytes());
  EXPECT_EQ(reader.get<int>(), -7);
  EXPECT_EQ(reader.get<double>(), 0.1);
  EXPECT_EQ(reader.get_all<std::uint32_t>(), numbers);
  EXPECT_EQ(reader.get_text(), "exact");
  EXPECT_TRUE(reader.done());
  EXPECT_THROW(reader.get<char>(), std::runtime_error);
}

TEST(SingleProcess, CollectivesAreTheIdentity) {
  const distributed::SingleProcess alone;
  EXPECT_EQ(alone.rank(), 0);
  EXPECT_TRUE(alone.alone());
  EXPECT_EQ(alone.broadcast("abc", 0), "abc");
  EXPECT_EQ(alone.all_gather("x"), std::vector<std::string>{"x"});
  EXPECT_EQ(alone.all_to_all({"y"}), std::vector<std::string>{"y"});
  EXPECT_EQ(alone.sum(5), 5);
  auto queue = alone.share(3);
  EXPECT_EQ(queue->next(), 0u);
  EXPECT_EQ(queue->next(), 1u);
  EXPECT_EQ(queue->next(), 2u);
  EXPECT_EQ(queue->next(), std::nullopt);
}

TEST(ThreadedRanks, CollectivesMeanWhatTheySay) {
  constexpr int kRanks = 4;
  std::mutex lock;
  std::vector<std::vector<std::string>> gathered(kRanks), exchanged(kRanks);
  std::vector<std::string> broadcasts(kRanks);
  std::vector<std::int64_t> sums(kRanks), largest(kRanks);
  distributed::run_threaded_ranks(kRanks, [&](const distributed::Communicator& world) {
    const int r = world.rank();
    EXPECT_EQ(world.size(), kRanks);
    const std::string broadcast = world.broadcast(r == 2 ? "from two" : "", 2);
    const std::vector<std::string> gather = world.all_gather(std::string(static_cast<std::size_t>(r), 'a'));
    std::vector<std::string> parts;
    for (int to = 0; to < kRanks; ++to) parts.push_back(std::to_string(r) + ">" + std::to_string(to));
    const std::vector<std::string> exchange = world.all_to_all(parts);
    const std::int64_t sum = world.sum(r + 1);
    const std::int64_t most = world.largest(10 - r);
    std::lock_guard<std::mutex> guard(lock);
    broadcasts[static_cast<std::size_t>(r)] = broadcast;
    gathered[static_cast<std::size_t>(r)] = gather;
    exchanged[static_cast<std::size_t>(r)] = exchange;
    sums[static_cast<std::size_t>(r)] = sum;
    largest[static_cast<std::size_t>(r)] = most;
  });
  for (int r = 0; r < kRanks; ++r) {
    const auto i = static_cast<std::size_t>(r);
    EXPECT_EQ(broadcasts[i], "from two");
    EXPECT_EQ(gathered[i], (std::vector<std::string>{"", "a", "aa", "aaa"}));
    for (int from = 0; from < kRanks; ++from) {
      EXPECT_EQ(exchanged[i][static_cast<std::size_t>(from)], std::to_string(from) + ">" + std::to_string(r));
    }
    EXPECT_EQ(sums[i], 10);
    EXPECT_EQ(largest[i], 10);
  }
}

TEST(ThreadedRanks, AQueueHandsOutEveryItemOnce) {
  constexpr std::size_t kItems = 1000;
  std::mutex lock;
  std::multiset<std::size_t> taken;
  distributed::run_threaded_ranks(3, [&](const distributed::Communicator& world) {
    auto queue = world.share(kItems);
    while (const auto item = queue->next()) {
      std::lock_guard<std::mutex> guard(lock);
      taken.insert(*item);
    }
  });
  ASSERT_EQ(taken.size(), kItems);
  for (std::size_t k = 0; k < kItems; ++k) EXPECT_EQ(taken.count(k), 1u);
}

TEST(World, APlainRunIsOneProcess) {
  // ctest starts this program without a launcher.
  if (distributed::launched_ranks() != 0) GTEST_SKIP() << "started by an MPI launcher";
  int argc = 0;
  char** argv = nullptr;
  const distributed::World world = distributed::World::start(&argc, &argv);
  EXPECT_EQ(world.communicator().size(), 1);
}

}  // namespace
