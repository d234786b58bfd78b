// The rounds of docs/machine.md's "Collectives" table, listed by hand for a few P that are not
// powers of two (where the trees are incomplete), and the message counts the exact model
// checks its node limit with.
#include <gtest/gtest.h>

#include <tuple>
#include <vector>

#include "scaling/collective_schedule.hpp"

namespace {

using models::CollectiveAlgorithm;
using models::CollectiveOperation;
using scaling::CollectiveMessage;
using scaling::CollectiveSchedule;

// (from, to, bytes) of every round.
using Rounds = std::vector<std::vector<std::tuple<std::int64_t, std::int64_t, double>>>;

Rounds rounds_of(const CollectiveSchedule& schedule) {
  Rounds out;
  for (std::int64_t k = 0; k < scaling::round_count(schedule); ++k) {
    out.emplace_back();
    for (const CollectiveMessage& m : scaling::round_messages(schedule, k))
      out.back().emplace_back(m.from, m.to, m.bytes);
  }
  return out;
}

TEST(CollectiveSchedule, BinomialTreesOnSixProcessors) {
  EXPECT_EQ(rounds_of({CollectiveOperation::Broadcast, CollectiveAlgorithm::Binomial, 6, 8}),
            (Rounds{{{0, 1, 8}}, {{0, 2, 8}, {1, 3, 8}}, {{0, 4, 8}, {1, 5, 8}}}));
  EXPECT_EQ(rounds_of({CollectiveOperation::Reduce, CollectiveAlgorithm::Binomial, 6, 8}),
            (Rounds{{{1, 0, 8}, {3, 2, 8}, {5, 4, 8}}, {{2, 0, 8}}, {{4, 0, 8}}}));
  // Round k carries the sender's subtree: 4 holds 4 and 5, 2 holds 2 and 3.
  EXPECT_EQ(rounds_of({CollectiveOperation::Gather, CollectiveAlgorithm::Binomial, 6, 8}),
            (Rounds{{{1, 0, 8}, {3, 2, 8}, {5, 4, 8}}, {{2, 0, 16}}, {{4, 0, 16}}}));
  EXPECT_EQ(rounds_of({CollectiveOperation::Scatter, CollectiveAlgorithm::Binomial, 6, 8}),
            (Rounds{{{0, 4, 16}}, {{0, 2, 16}}, {{0, 1, 8}, {2, 3, 8}, {4, 5, 8}}}));
}

TEST(CollectiveSchedule, LinearRecursiveDoublingRingPairwiseAndDissemination) {
  EXPECT_EQ(rounds_of({CollectiveOperation::Broadcast, CollectiveAlgorithm::Linear, 4, 8}),
            (Rounds{{{0, 1, 8}, {0, 2, 8}, {0, 3, 8}}}));
  EXPECT_EQ(rounds_of({CollectiveOperation::Gather, CollectiveAlgorithm::Linear, 4, 8}),
            (Rounds{{{1, 0, 8}, {2, 0, 8}, {3, 0, 8}}}));
  // Six: q = 4; 4 and 5 hand their data to 0 and 1 first and get the result back last.
  EXPECT_EQ(rounds_of({CollectiveOperation::Allreduce, CollectiveAlgorithm::RecursiveDoubling, 6, 8}),
            (Rounds{{{4, 0, 8}, {5, 1, 8}},
                    {{0, 1, 8}, {1, 0, 8}, {2, 3, 8}, {3, 2, 8}},
                    {{0, 2, 8}, {1, 3, 8}, {2, 0, 8}, {3, 1, 8}},
                    {{0, 4, 8}, {1, 5, 8}}}));
  EXPECT_EQ(rounds_of({CollectiveOperation::Allreduce, CollectiveAlgorithm::Ring, 3, 12}),
            (Rounds(4, {{0, 1, 4}, {1, 2, 4}, {2, 0, 4}})));
  EXPECT_EQ(rounds_of({CollectiveOperation::Alltoall, CollectiveAlgorithm::Pairwise, 3, 8}),
            (Rounds{{{0, 1, 8}, {1, 2, 8}, {2, 0, 8}}, {{0, 2, 8}, {1, 0, 8}, {2, 1, 8}}}));
  EXPECT_EQ(rounds_of({CollectiveOperation::Barrier, CollectiveAlgorithm::Dissemination, 5, 0}),
            (Rounds{{{0, 1, 0}, {1, 2, 0}, {2, 3, 0}, {3, 4, 0}, {4, 0, 0}},
                    {{0, 2, 0}, {1, 3, 0}, {2, 4, 0}, {3, 0, 0}, {4, 1, 0}},
                    {{0, 4, 0}, {1, 0, 0}, {2, 1, 0}, {3, 2, 0}, {4, 3, 0}}}));
  EXPECT_TRUE(rounds_of({CollectiveOperation::Barrier, CollectiveAlgorithm::Formula, 8, 0}).empty());
  EXPECT_TRUE(rounds_of({CollectiveOperation::Alltoall, CollectiveAlgorithm::Pairwise, 1, 8}).empty());
}

// By hand: P - 1 for a tree or a linear pattern, 2(P - 1) for reduce-then-broadcast, P a round
// for the permutations, 2(P - q) + q log2 q for recursive doubling.
TEST(CollectiveSchedule, MessageCountsWithoutListingThem) {
  EXPECT_EQ(scaling::message_count({CollectiveOperation::Broadcast, CollectiveAlgorithm::Binomial, 6, 8}), 5);
  EXPECT_EQ(scaling::message_count({CollectiveOperation::Allreduce, CollectiveAlgorithm::ReduceBroadcast, 6, 8}), 10);
  EXPECT_EQ(scaling::message_count({CollectiveOperation::Allreduce, CollectiveAlgorithm::RecursiveDoubling, 6, 8}), 12);
  EXPECT_EQ(scaling::message_count({CollectiveOperation::Allreduce, CollectiveAlgorithm::RecursiveDoubling, 8, 8}), 24);
  EXPECT_EQ(scaling::message_count({CollectiveOperation::Allreduce, CollectiveAlgorithm::Ring, 5, 8}), 40);
  EXPECT_EQ(scaling::message_count({CollectiveOperation::Alltoall, CollectiveAlgorithm::Pairwise, 5, 8}), 20);
  EXPECT_EQ(scaling::message_count({CollectiveOperation::Barrier, CollectiveAlgorithm::Dissemination, 5, 0}), 15);
  EXPECT_DOUBLE_EQ(scaling::message_count({CollectiveOperation::Alltoall, CollectiveAlgorithm::Pairwise, 1 << 20, 8}),
                   1048576.0 * 1048575.0);
}

}  // namespace
