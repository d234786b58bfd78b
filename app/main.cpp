// pdl-scale: predicts how a parallel program described in PDL scales with the processor count.
// This file only dispatches; the command line is read in cli.cpp, the commands are in the app
// library.
#include <fmt/core.h>

#include <fcntl.h>
#include <malloc.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <string>

#include "app/cli.hpp"
#include "app/commands.hpp"
#include "app/shared_input.hpp"
#include "distributed/world.hpp"

namespace {

int run(int argc, char** argv, const distributed::Communicator& ranks) {
  if (!ranks.alone()) {
    const app::Check same = app::same_arguments_on_every_rank(argc, argv, ranks);
    if (!same.ok()) {
      std::cerr << same.failure->text;
      return app::kExitInput;
    }
  }
  app::Options options;
  options.read_file = app::rank_0_reads(ranks);
  options.request.communicator = &ranks;
  options.output_rank = ranks.rank() == 0;
  options.catch_interrupts = ranks.alone();
  return app::run_command(argc, argv, std::move(options), std::cout, std::cerr, ::isatty(STDERR_FILENO) == 1);
}

// A report that did not reach standard output (a full disk, a closed descriptor) is a failure
// like a -o FILE that cannot be written: exit 2 with the reason, never a silent 0. Flushed
// here, while an error can still change the status, rather than by the exit handlers. The
// stream is not closed: the C++ runtime flushes std::cout once more at exit.
int finish_standard_output(int status) {
  errno = 0;
  std::cout.flush();
  const bool failed = std::fflush(stdout) != 0 || std::ferror(stdout) != 0 || !std::cout;
  if (!failed) return status;
  const int error = errno;
  fmt::print(stderr, "pdl-scale: error: cannot write the standard output{}{}\n", error != 0 ? ": " : "",
             error != 0 ? std::strerror(error) : "");
  return status == app::kExitSuccess ? app::kExitInput : status;
}

// The grids of the distributions are vectors of 100 KB to a few MB, made and freed by the
// thousand. Above glibc's default mmap threshold (128 KB) each one was mapped, zero-filled by
// page faults and unmapped again: a 1024-p sweep of 10^5 columns took 2.9 s instead of 1.5 s
// (perf: page faults and memset), and was fast before only because reading the program once
// allocated and freed an 8 MB buffer, which raised glibc's threshold as a side effect. Set it
// here, once, for the process: freed grids go back to the heap and are reused.
void keep_freed_grids_in_the_heap() {
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 64 << 20);
}

// In a job of several ranks every rank runs the same command over the same input and reaches
// the same figures (docs/scale-out.md); only rank 0 prints them. The others' output goes to
// /dev/null, at the descriptors, so that nothing printed anywhere doubles it.
// Returns a descriptor of the original standard error, for an internal error only this rank
// meets (the others cannot say it for it).
int silence_all_but_rank_0(const distributed::Communicator& ranks) {
  if (ranks.rank() == 0) return STDERR_FILENO;
  const int null = ::open("/dev/null", O_WRONLY);
  if (null < 0) return STDERR_FILENO;
  const int original = ::dup(STDERR_FILENO);
  ::dup2(null, STDOUT_FILENO);
  ::dup2(null, STDERR_FILENO);
  ::close(null);
  return original < 0 ? STDERR_FILENO : original;
}

}  // namespace

int main(int argc, char** argv) {
  keep_freed_grids_in_the_heap();
  int status = app::kExitInternal;
  try {
    const distributed::World world = distributed::World::start(&argc, &argv);
    const int errors = silence_all_but_rank_0(world.communicator());
    try {
      status = run(argc, argv, world.communicator());
    } catch (const std::exception& error) {
      const std::string rank =
          world.communicator().alone() ? "" : fmt::format(" (rank {})", world.communicator().rank());
      const std::string message = fmt::format("pdl-scale{}: internal error: {}\n", rank, error.what());
      if (::write(errors, message.data(), message.size()) < 0) std::fputs(message.c_str(), stderr);
      // The other ranks may be waiting for this one in a collective: end them all.
      std::fflush(stderr);
      world.abort_job(app::kExitInternal);
    }
    status = finish_standard_output(status);
  } catch (const std::exception& error) {
    fmt::print(stderr, "pdl-scale: error: {}\n", error.what());
  }
  return status;
}
