// Random valid PDL programs and machines for the differential tests: every scheme, sequential
// phases, sequences, repetitions, SYNC, probabilistic alternatives, every concatenation kind,
// every scheduling, parametric distribution families, communication volumes and machines with
// message, barrier and contention costs, with sizes small enough for every method. The same
// seed gives the same programs.
#pragma once

#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace test_support {

struct GeneratedProgram {
  std::string pdl;
  std::string machine;  // machine-file text; empty for the built-in ideal machine
  // The documentation promises the approximate model's mean as an upper bound of the exact
  // model's: no MACROPIPELINE and no PAIRED phase (docs/methods.md).
  bool approx_is_upper_bound = true;
};

class ProgramGenerator {
 public:
  explicit ProgramGenerator(std::uint64_t seed) : random_(seed) {}

  GeneratedProgram next() {
    GeneratedProgram out;
    const int phases = uniform_int(1, 3);
    std::vector<std::string> names, work;
    std::string body;
    for (int k = 1; k <= phases; ++k) {
      const std::string name = "w" + std::to_string(k);
      names.push_back(name);
      const int scheme = uniform_int(0, 7);
      if (scheme == 4 || scheme == 5) out.approx_is_upper_bound = false;
      if (scheme != 7) work.push_back(name);
      body += phase(name, scheme);
    }
    out.pdl = "PROGRAM NAME IS 'generated';\nEXECUTION PATTERN IS " + pattern(names) + ";\n\n" + body;
    if (!work.empty()) {
      out.pdl += "CONCATENATION IS:\n";
      for (const std::string& a : work) {
        for (const std::string& b : work) out.pdl += "  " + a + ", " + b + " : " + concatenation() + ";\n";
      }
      out.pdl += "END;\n";
    }
    if (uniform_int(0, 1) == 1) out.machine = machine();
    return out;
  }

  // The same program with every concatenation a BARRIER: the fallback when a random kind does
  // not fit two schemes.
  static std::string with_barriers(std::string pdl) {
    for (const char* kind : {" : NEIGHBOR-TORUS;", " : NEIGHBOR;", " : TORUS;", " : SERIAL;"}) {
      for (std::size_t at = pdl.find(kind); at != std::string::npos; at = pdl.find(kind)) {
        pdl.replace(at, std::string(kind).size(), " : BARRIER;");
      }
    }
    return pdl;
  }

 private:
  int uniform_int(int low, int high) { return std::uniform_int_distribution<int>(low, high)(random_); }
  double uniform_real(double low, double high) { return std::uniform_real_distribution<double>(low, high)(random_); }
  std::string number(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", value);
    return text;
  }

  std::string runtime() {
    const double mean = uniform_real(0.5, 4.0);
    switch (uniform_int(0, 6)) {
      case 0: return "EXPONENTIAL(" + number(mean) + "*RTFactor)";
      case 1: {
        const int k = uniform_int(1, 4);
        return "ERLANG(" + std::to_string(k) + ", " + number(mean / k) + "*RTFactor)";
      }
      case 2: return "DETERMINISTIC(" + number(mean) + "*RTFactor)";
      case 3: return "UNIFORM(" + number(0.5 * mean) + "*RTFactor, " + number(1.5 * mean) + "*RTFactor)";
      case 4: return "HYPEREXPONENTIAL(0.8, " + number(0.5 * mean) + "*RTFactor, 0.2, " + number(3 * mean) + "*RTFactor)";
      case 5: return "NORMAL(" + number(mean) + "*RTFactor, " + number(0.2 * mean) + "*RTFactor)";
      default: return "GERLANG(" + number(0.3 * mean) + "*RTFactor, " + number(0.7 * mean) + "*RTFactor)";
    }
  }

  std::string volume() {
    return uniform_int(0, 2) == 0 ? "0" : std::to_string(uniform_int(1, 64)) + "*SIZEOF(DOUBLE)";
  }

  std::string scheduling() {
    static const char* kinds[] = {"BLOCK", "CYCLIC", "DYNAMIC"};
    return kinds[uniform_int(0, 2)];
  }

  std::string concatenation() {
    static const char* kinds[] = {"NEIGHBOR", "NEIGHBOR-TORUS", "TORUS", "SERIAL", "BARRIER"};
    return kinds[uniform_int(0, 4)];
  }

  std::string phase(const std::string& name, int scheme) {
    std::string text = (scheme == 7 ? "SEQUENTIAL PHASE " : "WORK PHASE ") + name + " IS:\n";
    switch (scheme) {
      case 0:
        text += "  PARALLELIZATION SCHEME IS INDEPENDENT;\n  SUBTASK RUNTIME IS " + runtime() +
                ";\n  PROBLEM SIZE IS VECTOR a(" + std::to_string(uniform_int(1, 8)) +
                ");\n  COMMUNICATION VOLUME IS " + volume() + ";\n  SCHEDULING IS " + scheduling() + ";\n";
        break;
      case 1:
      case 2:
        text += std::string("  PARALLELIZATION SCHEME IS ") + (scheme == 1 ? "NEIGHBOR" : "NEIGHBOR-TORUS") +
                ";\n  SUBTASK RUNTIME IS " + runtime() + ";\n  PROBLEM SIZE IS VECTOR a(" +
                std::to_string(uniform_int(1, 6)) + ");\n  COMMUNICATION VOLUME IS " + volume() + ";\n";
        break;
      case 3:
        text += "  PARALLELIZATION SCHEME IS FORK-JOIN;\n  SUBTASK RUNTIME IS " + runtime() + ";\n  JOBS IS " +
                std::to_string(uniform_int(1, 3)) + ";\n  TASKS PER JOB IS " + std::to_string(uniform_int(1, 5)) +
                ";\n  INTERARRIVAL TIME IS " + (uniform_int(0, 1) ? runtime() : std::string("DETERMINISTIC(0)")) +
                ";\n  JOIN RUNTIME IS " + runtime() + ";\n  COMMUNICATION VOLUME IS " + volume() +
                ";\n  SCHEDULING IS " + scheduling() + ";\n";
        break;
      case 4:
        text += "  PARALLELIZATION SCHEME IS MACROPIPELINE;\n  SUBTASK RUNTIME IS " + runtime() + ";\n  JOBS IS " +
                std::to_string(uniform_int(1, 4)) + ";\n  STAGES IS " + std::to_string(uniform_int(1, 3)) +
                ";\n  INTERARRIVAL TIME IS " + runtime() + ";\n  COMMUNICATION VOLUME IS " + volume() + ";\n";
        break;
      case 5:
        text += "  PARALLELIZATION SCHEME IS PAIRED;\n  DEPENDENCY IS " +
                std::string(uniform_int(0, 1) ? "1" : "1, 2") + ";\n  INDEPENDENT SUBTASK IS:\n    RUNTIME IS " +
                runtime() + ";\n  END;\n  DEPENDENT SUBTASK IS:\n    RUNTIME IS " + runtime() +
                ";\n    COMMUNICATION VOLUME IS " + volume() + ";\n  END;\n  PROBLEM SIZE IS VECTOR a(" +
                std::to_string(uniform_int(1, 6)) + ");\n  SCHEDULING IS " +
                (uniform_int(0, 1) ? "BLOCK" : "CYCLIC") + ";\n";
        break;
      case 6: {
        text += "  PARALLELIZATION SCHEME IS ARBITRARY;\n";
        const int tasks = uniform_int(2, 5);
        for (int t = 0; t < tasks; ++t) {
          text += "  TASK t" + std::to_string(t) + " RUNTIME IS " + runtime() +
                  (uniform_int(0, 2) == 0 ? " ON PROCESSOR " + std::to_string(uniform_int(0, 2)) : std::string()) +
                  ";\n";
        }
        for (int a = 0; a < tasks; ++a) {
          for (int b = a + 1; b < tasks; ++b) {
            if (uniform_int(0, 2) != 0) continue;
            text += "  ARC t" + std::to_string(a) + " -> t" + std::to_string(b) +
                    (uniform_int(0, 1) ? " VOLUME " + volume() : std::string()) + ";\n";
          }
        }
        break;
      }
      default: text += "  RUNTIME IS " + runtime() + ";\n"; break;
    }
    return text + "END;\n\n";
  }

  std::string pattern(const std::vector<std::string>& names) {
    std::string sequence;
    for (const std::string& name : names) {
      if (!sequence.empty()) sequence += uniform_int(0, 3) == 0 ? " -> sync -> " : " -> ";
      sequence += name;
    }
    switch (uniform_int(0, 3)) {
      case 0: return sequence;
      case 1: return "(" + sequence + "){" + std::to_string(uniform_int(1, 3)) + "}";
      case 2:
        if (names.size() >= 2) {
          return names.front() + " -> (0.4: " + names[1] + " | 0.6: " + names.back() + ")";
        }
        return sequence + " -> sync";
      default: return sequence + " -> sync -> " + names.front();
    }
  }

  std::string machine() {
    std::string text = "MACHINE NAME IS 'net';\nVARIABLE ts = " + number(uniform_real(0.1, 2.0)) +
                       ";\nVARIABLE tw = " + number(uniform_real(0.001, 0.05)) + ";\nRTFACTOR IS " +
                       number(uniform_real(0.5, 2.0)) +
                       ";\nCOMMUNICATION IS MESSAGE PASSING;\nSIZEOF DOUBLE IS 8;\nCOMMUNICATION TIME IS ts + tw*L;\n";
    if (uniform_int(0, 1)) text += "BARRIER TIME IS ts*ceil(log2(max(P, 2)));\n";
    if (uniform_int(0, 2) == 0) text += "CONTENTION IS 0.01*T*(P - 1);\n";
    if (uniform_int(0, 1)) text += "MESSAGE OVERHEAD IS " + number(uniform_real(0.05, 1.0)) + " + 0.002*L;\n";
    return text;
  }

  std::mt19937_64 random_;
};

}  // namespace test_support
