// The hostile-input suite's generator (issue 12): seeded programs and machines whose numbers
// are extreme — 0, subnormals (5e-324), 1e-300, 1e300, 1e308, negative values, huge counts
// (1e12 tasks or columns) — in every distribution family of docs/pdl.md and every machine term
// of docs/machine.md, around every scheme.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace hostile {

// One case: a program, a machine and, for NUMERICAL, the data file it reads.
struct Case {
  std::string name;     // e.g. "ERLANG/17", for the failure messages
  std::string program;  // the PDL text
  std::string machine;  // the machine text, empty for the built-in ideal machine
  std::string data;     // the text of 'data.txt', empty when unused
};

class Generator {
 public:
  explicit Generator(std::uint64_t seed) : rng_(seed) {}

  // A number as PDL text: an extreme one (a third of the time), a random power of ten anywhere
  // in the doubles' range (a tenth), else an ordinary one, so that a case has a few extreme
  // numbers among ordinary ones and gets past the checks often enough to reach the methods.
  std::string value() {
    static const char* const extremes[] = {"0",    "5e-324", "1e-300", "1e-101", "1e-100", "1e-12", "1e12",
                                           "1e99", "1e100",  "1e101",  "1e300",  "1e308",  "-1",    "-1e308"};
    const int kind = pick(30);
    if (kind < 10) return extremes[pick(std::size(extremes))];
    if (kind < 13) return "1e" + std::to_string(pick(617) - 308);  // 1e-308 .. 1e308
    static const char* const ordinary[] = {"0.5", "1", "2", "3", "8"};
    return ordinary[pick(std::size(ordinary))];
  }
  // A count: mostly tiny, sometimes huge, zero, negative or fractional.
  std::string count() {
    static const char* const counts[] = {"1", "2",    "3",    "1", "2",  "3",   "1",   "2",
                                         "3", "1e12", "1e12", "0", "-1", "2.5", "1e18"};
    return counts[pick(std::size(counts))];
  }
  // A probability: mostly valid, sometimes 0, 1, a subnormal or outside [0, 1].
  std::string probability() {
    static const char* const probabilities[] = {"0.5", "0.25", "0", "1", "5e-324", "1e-300", "1.5", "-0.5"};
    return probabilities[pick(std::size(probabilities))];
  }

  // One distribution of `family` (its PDL name) with extreme parameters.
  std::string distribution(const std::string& family) {
    if (family == "DETERMINISTIC") return "DETERMINISTIC(" + value() + ")";
    if (family == "EXPONENTIAL") return "EXPONENTIAL(" + value() + ")";
    if (family == "ERLANG") return "ERLANG(" + count() + ", " + value() + ")";
    if (family == "GERLANG") return "GERLANG(" + value() + ", " + value() + ")";
    if (family == "HYPEREXPONENTIAL") {
      const std::string p = probability();
      return "HYPEREXPONENTIAL(" + p + ", " + value() + ", 1 - " + p + ", " + value() + ")";
    }
    if (family == "UNIFORM") return "UNIFORM(" + value() + ", " + value() + ")";
    if (family == "NORMAL") return "NORMAL(" + value() + ", " + value() + ")";
    if (family == "PHASETYPE") {
      const std::string r = value();
      return "PHASETYPE([" + probability() + ", 0], [[-" + r + ", " + r + "], [0, -" + value() + "]])";
    }
    if (family == "MIXTURE") {
      const std::string w = probability();
      return "MIXTURE(" + w + ", EXPONENTIAL(" + value() + "), 1 - " + w + ", DETERMINISTIC(" + value() + "))";
    }
    if (family == "SAMPLES") return "SAMPLES(" + value() + ", " + value() + ", " + value() + ")";
    if (family == "HISTOGRAM") return "HISTOGRAM(" + value() + ", " + value() + ", " + value() + ", " + value() + ")";
    if (family == "NUMERICAL") return pick(2) == 0 ? "NUMERICAL('data.txt')" : "NUMERICAL('data.txt', SMOOTHED)";
    return "EXPONENTIAL(1)";
  }

  // Measured data: three runtimes, with or without weights and a unit.
  std::string data() {
    std::string text = pick(2) == 0 ? "" : "# unit: s\n";
    const bool weighted = pick(2) == 0;
    for (int i = 0; i < 3; ++i) {
      text += value();
      if (weighted) text.append(" ").append(value());  // not " " + value(): GCC 12 warns (-Wrestrict)
      text += "\n";
    }
    return text;
  }

  // A program of one scheme around `runtime` (every task), with an extreme size, repetition
  // count and volume; sometimes the runtime is scaled by RTFactor.
  std::string program(const std::string& runtime, int scheme) {
    const std::string d = pick(3) == 0 ? "MIXTURE(1, " + runtime + ")" : runtime;
    const std::string n = count();
    const std::string volume = pick(2) == 0 ? "0" : value() + "*SIZEOF(DOUBLE)";
    const std::string repeat = pick(4) == 0 ? count() : std::string(pick(2) == 0 ? "1" : "2");
    std::string head = "PROGRAM NAME IS 'hostile';\nVARIABLE n = " + n + ";\n";
    std::string phase;
    std::string pattern = "w{" + repeat + "}";
    std::string concatenation = "CONCATENATION IS w, w : SERIAL; END;\n";
    switch (scheme) {
      case 0:
        phase = "  PARALLELIZATION SCHEME IS INDEPENDENT;\n  SUBTASK RUNTIME IS " + d +
                ";\n  PROBLEM SIZE IS VECTOR a(n);\n  COMMUNICATION VOLUME IS " + volume + ";\n";
        break;
      case 1:
        phase = "  PARALLELIZATION SCHEME IS NEIGHBOR;\n  SUBTASK RUNTIME IS " + d +
                ";\n  PROBLEM SIZE IS VECTOR a(n);\n  COMMUNICATION VOLUME IS " + volume + ";\n";
        concatenation = "CONCATENATION IS w, w : NEIGHBOR; END;\n";
        break;
      case 2:
        phase = "  PARALLELIZATION SCHEME IS FORK-JOIN;\n  SUBTASK RUNTIME IS " + d + ";\n  JOBS IS " + count() +
                ";\n  TASKS PER JOB IS n;\n  INTERARRIVAL TIME IS DETERMINISTIC(" + value() + ");\n  JOIN RUNTIME IS " +
                d + ";\n  COMMUNICATION VOLUME IS " + volume + ";\n";
        break;
      case 3:
        phase = "  PARALLELIZATION SCHEME IS MACROPIPELINE;\n  SUBTASK RUNTIME IS " + d + ";\n  JOBS IS " + count() +
                ";\n  STAGES IS n;\n  INTERARRIVAL TIME IS EXPONENTIAL(" + value() + ");\n  COMMUNICATION VOLUME IS " +
                volume + ";\n";
        break;
      case 4:
        phase = "  PARALLELIZATION SCHEME IS PAIRED;\n  DEPENDENCY IS 1;\n  INDEPENDENT SUBTASK IS:\n    RUNTIME IS " +
                d + ";\n  END;\n  DEPENDENT SUBTASK IS:\n    RUNTIME IS " + d + ";\n    COMMUNICATION VOLUME IS " +
                volume + ";\n  END;\n  PROBLEM SIZE IS VECTOR a(n);\n  SCHEDULING IS CYCLIC;\n";
        break;
      case 5:
        phase = "  PARALLELIZATION SCHEME IS ARBITRARY;\n  TASK s RUNTIME IS " + d +
                " ON PROCESSOR 0;\n  TASK l RUNTIME IS " + d + ";\n  TASK r RUNTIME IS " + d +
                ";\n  TASK m RUNTIME IS " + d + ";\n  ARC s -> l -> m VOLUME " + volume + ";\n  ARC s -> r -> m;\n";
        break;
      default:
        phase =
            "  PARALLELIZATION SCHEME IS INDEPENDENT;\n  SUBTASK RUNTIME IS EXPONENTIAL(1);\n"
            "  PROBLEM SIZE IS VECTOR a(n);\n  SCHEDULING IS DYNAMIC;\n";
        head += "SEQUENTIAL PHASE s IS:\n  RUNTIME IS " + d + ";\nEND;\n";
        pattern = "s -> " + pattern + " -> SYNC";
        break;
    }
    return head + "EXECUTION PATTERN IS " + pattern + ";\nWORK PHASE w IS\n" + phase + "END;\n" + concatenation;
  }

  // A machine with every term given, one of them (or all, for `term` < 0) extreme.
  std::string machine(int term) {
    const auto at = [&](int which, const std::string& ordinary) {
      return term < 0 || term == which ? value() : ordinary;
    };
    return "MACHINE NAME IS 'hostile';\nRTFACTOR IS " + at(0, "1.5") + ";\nSIZEOF DOUBLE IS " + at(1, "8") +
           ";\nCOMMUNICATION TIME IS " + at(2, "50") + " + " + at(3, "0.01") + "*L;\nMESSAGE OVERHEAD IS " +
           at(4, "2") + ";\nBARRIER TIME IS " + at(5, "10") + "*ceil(log2(max(P, 2)));\nCONTENTION IS " +
           at(6, "0.001") + "*T*(P - 1);\n";
  }

  int pick(std::size_t n) { return static_cast<int>(std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_)); }

 private:
  std::mt19937_64 rng_;
};

// The distribution families of docs/pdl.md, "Distributions", and the machine terms of
// docs/machine.md that take a number (RTFACTOR, SIZEOF, the communication time's start-up and
// per-byte terms, the message overhead, the barrier time, the contention).
inline const std::vector<std::string> kFamilies{"DETERMINISTIC",    "EXPONENTIAL", "ERLANG",    "GERLANG",
                                                "HYPEREXPONENTIAL", "UNIFORM",     "NORMAL",    "PHASETYPE",
                                                "MIXTURE",          "SAMPLES",     "HISTOGRAM", "NUMERICAL"};
inline constexpr int kSchemes = 7;
inline constexpr int kMachineTerms = 7;

}  // namespace hostile
