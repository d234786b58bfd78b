// The busy processor time of an exact model by what keeps the processors busy: the parts
// T_comp, T_comm and the synchronisation of the textbook model T = (T_comp + T_comm + T_idle) / P
// (analysis/breakdown.hpp splits a prediction with them).
#pragma once

#include "scaling/exact_model.hpp"

namespace analysis {

// An expected processor time: the sum of the laws' means, and an interval that holds the exact
// sum (a measured, numerical law's mean is known within its discretisation bracket, every other
// mean exactly: then lower == estimate == upper).
struct Total {
  double estimate = 0.0;
  double lower = 0.0;
  double upper = 0.0;
};

// The busy processor time of an exact model, by what keeps the processors busy, as expected
// values over its scenarios.
struct ProcessorTime {
  // Tasks on a processor, and every task of a dynamically scheduled pool.
  Total computation;
  // Messages on a processor: sends and receives (MESSAGE OVERHEAD), results sent out of the
  // processors. A message in flight (COMMUNICATION TIME in the exact model) keeps no processor
  // busy: waiting for it is idle time.
  Total communication;
  // Contention delays on a processor.
  Total contention;
  // Nodes every processor waits through (barriers, and the contention after a dynamically
  // scheduled pool): counted once per processor, whatever p.
  Total stall;
};

// Sums over every node of every scenario, weighted by the scenarios' probabilities. A task
// without a processor (a job's arrival in MACROPIPELINE and FORK-JOIN) is a delay, not work.
ProcessorTime processor_time(const scaling::ExactModel& model);

}  // namespace analysis
