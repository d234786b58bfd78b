// Random valid PDL programs and machines for the differential tests: every scheme, sequential
// phases, sequences, repetitions, SYNC and collectives, probabilistic alternatives, every concatenation kind,
// every scheduling, parametric distribution families, communication volumes and machines with
// message, barrier and contention costs, with sizes small enough for every method. The same
// seed gives the same programs.
#pragma once

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace test_support {

struct GeneratedProgram {
  std::string pdl;
  std::string machine;  // machine-file text; empty for the built-in ideal machine
  // The documentation promises the approximate model's mean as an upper bound of the exact
  // model's: no MACROPIPELINE and no PAIRED phase, no EAGER LIMIT, no fair port sharing
  // (docs/semantics.md U1, U2).
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
    if (out.machine.find("EAGER LIMIT") != std::string::npos) out.approx_is_upper_bound = false;
    if (out.machine.find("PORT SHARING IS FAIR") != std::string::npos) out.approx_is_upper_bound = false;  // U2
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
    switch (uniform_int(0, 9)) {
      case 0: return "EXPONENTIAL(" + number(mean) + "*RTFactor)";
      case 1: {
        const int k = uniform_int(1, 4);
        return "ERLANG(" + std::to_string(k) + ", " + number(mean / k) + "*RTFactor)";
      }
      case 2: return "DETERMINISTIC(" + number(mean) + "*RTFactor)";
      case 3: return "UNIFORM(" + number(0.5 * mean) + "*RTFactor, " + number(1.5 * mean) + "*RTFactor)";
      case 4:
        return "HYPEREXPONENTIAL(0.8, " + number(0.5 * mean) + "*RTFactor, 0.2, " + number(3 * mean) + "*RTFactor)";
      case 5: return "NORMAL(" + number(mean) + "*RTFactor, " + number(0.2 * mean) + "*RTFactor)";
      // Skewed and heavy-tailed laws (docs/pdl.md), each of about this mean.
      case 7: return "LOGNORMAL(" + number(mean / std::exp(0.32)) + "*RTFactor, 0.8)";
      case 8: return "WEIBULL(0.8, " + number(mean / std::tgamma(1.0 + 1.0 / 0.8)) + "*RTFactor)";
      case 9: return "PARETO(3, " + number(mean * 2.0 / 3.0) + "*RTFactor)";
      default: return "GERLANG(" + number(0.3 * mean) + "*RTFactor, " + number(0.7 * mean) + "*RTFactor)";
    }
  }

  // Half the time a master for a DYNAMIC pool (I6): its service and its dispatch messages.
  std::string master() {
    if (uniform_int(0, 1) == 0) return {};
    return "  MASTER SERVICE IS " + runtime() + ";\n  DISPATCH VOLUME IS " + volume() + ";\n";
  }

  std::string volume() { return uniform_int(0, 2) == 0 ? "0" : std::to_string(uniform_int(1, 64)) + "*SIZEOF(DOUBLE)"; }

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
    // The bytes each task moves to and from memory, in the schemes that take them (M16).
    if (scheme <= 4 && uniform_int(0, 3) == 0) {
      text += "  SUBTASK MEMORY VOLUME IS " + number(uniform_real(0.0, 100.0)) + ";\n";
    }
    switch (scheme) {
      case 0: {
        const std::string kind_and = "  PARALLELIZATION SCHEME IS INDEPENDENT;\n  SUBTASK RUNTIME IS " + runtime() +
                                     ";\n  PROBLEM SIZE IS VECTOR a(" + std::to_string(uniform_int(1, 8)) +
                                     ");\n  COMMUNICATION VOLUME IS " + volume() + ";\n";
        const std::string scheduling_kind = scheduling();
        text += kind_and + "  SCHEDULING IS " + scheduling_kind + ";\n";
        if (scheduling_kind == "DYNAMIC") text += master();
        break;
      }
      case 1:
      case 2:
        text += std::string("  PARALLELIZATION SCHEME IS ") + (scheme == 1 ? "NEIGHBOR" : "NEIGHBOR-TORUS") +
                ";\n  SUBTASK RUNTIME IS " + runtime() + ";\n  PROBLEM SIZE IS VECTOR a(" +
                std::to_string(uniform_int(1, 6)) + ");\n  COMMUNICATION VOLUME IS " + volume() + ";\n";
        break;
      case 3: {
        text += "  PARALLELIZATION SCHEME IS FORK-JOIN;\n  SUBTASK RUNTIME IS " + runtime() + ";\n  JOBS IS " +
                std::to_string(uniform_int(1, 3)) + ";\n  TASKS PER JOB IS " + std::to_string(uniform_int(1, 5)) +
                ";\n  INTERARRIVAL TIME IS " + (uniform_int(0, 1) ? runtime() : std::string("DETERMINISTIC(0)")) +
                ";\n  JOIN RUNTIME IS " + runtime() + ";\n";
        const std::string volume_clause = "  COMMUNICATION VOLUME IS " + volume() + ";\n";
        const std::string scheduling_kind = scheduling();
        // A DYNAMIC pool sends no results and gets no release: the checker refuses both there,
        // unless a master takes the results (I6).
        const std::string farm = scheduling_kind == "DYNAMIC" ? master() : std::string();
        if (scheduling_kind != "DYNAMIC" || !farm.empty()) text += volume_clause;
        text += "  SCHEDULING IS " + scheduling_kind + ";\n" + farm;
        // A release message to every worker before each job (F7).
        if (uniform_int(0, 2) == 0 && scheduling_kind != "DYNAMIC") text += "  RELEASE VOLUME IS " + volume() + ";\n";
        break;
      }
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
                std::to_string(uniform_int(1, 6)) + ");\n  SCHEDULING IS " + (uniform_int(0, 1) ? "BLOCK" : "CYCLIC") +
                ";\n";
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
      if (!sequence.empty()) sequence += uniform_int(0, 3) == 0 ? " -> " + synchronisation() + " -> " : " -> ";
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

  // SYNC, or a collective of all processors (docs/pdl.md, "Collectives").
  std::string synchronisation() {
    static const char* const kCollectives[] = {"BROADCAST", "REDUCE", "ALLREDUCE", "GATHER", "SCATTER", "ALLTOALL"};
    if (uniform_int(0, 1) == 0) return "sync";
    const std::string volume = uniform_int(0, 2) == 0 ? "8*P" : number(uniform_real(0, 64));
    return std::string(kCollectives[uniform_int(0, 5)]) + "(" + volume + ")";
  }

  std::string machine() {
    std::string text = "MACHINE NAME IS 'net';\nVARIABLE ts = " + number(uniform_real(0.1, 2.0)) +
                       ";\nVARIABLE tw = " + number(uniform_real(0.001, 0.05)) + ";\nRTFACTOR IS " +
                       number(uniform_real(0.5, 2.0)) +
                       ";\nCOMMUNICATION IS MESSAGE PASSING;\nSIZEOF DOUBLE IS 8;\nCOMMUNICATION TIME IS ts + tw*L;\n";
    if (uniform_int(0, 1)) text += "BARRIER TIME IS ts*ceil(log2(max(P, 2)));\n";
    if (uniform_int(0, 2) == 0) text += "CONTENTION IS 0.01*T*(P - 1);\n";
    if (uniform_int(0, 1)) text += "MESSAGE OVERHEAD IS " + number(uniform_real(0.05, 1.0)) + " + 0.002*L;\n";
    static const char* const kChoices[] = {"BROADCAST IS LINEAR",     "REDUCE IS LINEAR",
                                           "GATHER IS LINEAR",        "SCATTER IS LINEAR",
                                           "ALLREDUCE IS RING",       "ALLREDUCE IS REDUCE BROADCAST",
                                           "BARRIER IS DISSEMINATION"};
    if (uniform_int(0, 2) == 0) text += std::string("COLLECTIVE ") + kChoices[uniform_int(0, 6)] + ";\n";
    // Links shared by the messages of a step (docs/machine.md, "Topology and bandwidth sharing").
    static const char* const kTopologies[] = {"BUS", "RING", "MESH 2D", "TORUS 2D", "MESH 3D", "HYPERCUBE", "FAT TREE"};
    if (uniform_int(0, 2) == 0) {
      text += std::string("TOPOLOGY IS ") + kTopologies[uniform_int(0, 6)] + ";\n";
      const std::size_t at = text.find("COMMUNICATION TIME IS ts + tw*L;");
      text.replace(at, std::string("COMMUNICATION TIME IS ts + tw*L;").size(), "COMMUNICATION TIME IS ts + tw*S*L;");
    }
    // Rendezvous above a limit the programs' volumes (0 to 64 bytes a unit) straddle (M11).
    if (uniform_int(0, 2) == 0) text += "EAGER LIMIT IS " + number(uniform_real(0.0, 64.0)) + ";\n";
    // Nodes of 2 or 4 processors with a cheaper law inside, sometimes on fewer cores (M15).
    if (uniform_int(0, 3) == 0) {
      const int k = uniform_int(0, 1) == 0 ? 2 : 4;
      text += "NODE IS:\n  PROCESSORS IS " + std::to_string(k) + ";\n";
      if (uniform_int(0, 1) == 0) text += "  CORES IS " + std::to_string(uniform_int(1, k)) + ";\n";
      // Blocks, in turn, or a list of the four processors the tests run on at most.
      const int placement = uniform_int(0, 2);
      text += placement == 1   ? "  PLACEMENT IS CYCLIC;\n"
              : placement == 2 ? (k == 2 ? "  PLACEMENT IS (0, 3), (1, 2);\n" : "  PLACEMENT IS (3), (0, 2, 1);\n")
                               : "";
      text += "  COMMUNICATION TIME IS ts/10 + tw/4*L;\n";
      // A memory bandwidth the phases' memory volumes (0 to 100 bytes a task) can saturate (M16).
      if (uniform_int(0, 1) == 0) text += "  MEMORY BANDWIDTH IS " + number(uniform_real(5.0, 50.0)) + ";\n";
      text += "END;\n";
    }
    // One port per processor for a share of the per-byte time (M12), shared fairly in half the
    // cases (M13).
    if (uniform_int(0, 2) == 0) {
      text += "PORT TIME IS " + number(uniform_real(0.001, 0.05)) + "*L;\n";
      if (uniform_int(0, 1) == 0) text += "PORT SHARING IS FAIR;\n";
    }
    return text;
  }

  std::mt19937_64 random_;
};

// ---- transformations for the invariance tests ---------------------------------------------
// They rewrite the text of any program (not only generated ones) token by token, so that a
// name is never matched inside a longer name (w1 in w12), a number (e in 1e3), a string or a
// comment.

struct PdlToken {
  enum class Kind { Name, Number, String, Punctuation };
  Kind kind;
  std::size_t at;    // offset in the text
  std::string text;  // as written
};

// The tokens of PDL text (docs/pdl.md, "Lexical structure"); comments and white space dropped.
// Punctuation is one character a token ("->" is two).
inline std::vector<PdlToken> pdl_tokens(const std::string& pdl) {
  std::vector<PdlToken> tokens;
  const auto letter = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; };
  const auto digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
  std::size_t i = 0;
  while (i < pdl.size()) {
    const char c = pdl[i];
    const std::size_t start = i;
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == '/' && i + 1 < pdl.size() && pdl[i + 1] == '/') {
      i = pdl.find('\n', i);
      if (i == std::string::npos) i = pdl.size();
    } else if (c == '/' && i + 1 < pdl.size() && pdl[i + 1] == '*') {
      i = pdl.find("*/", i + 2);
      i = i == std::string::npos ? pdl.size() : i + 2;
    } else if (c == '\'') {
      for (++i; i < pdl.size(); ++i) {
        if (pdl[i] != '\'') continue;
        if (i + 1 < pdl.size() && pdl[i + 1] == '\'') {
          ++i;  // a doubled quote inside the string
        } else {
          ++i;
          break;
        }
      }
      tokens.push_back({PdlToken::Kind::String, start, pdl.substr(start, i - start)});
    } else if (letter(c)) {
      while (i < pdl.size() && (letter(pdl[i]) || digit(pdl[i]))) ++i;
      tokens.push_back({PdlToken::Kind::Name, start, pdl.substr(start, i - start)});
    } else if (digit(c) || (c == '.' && i + 1 < pdl.size() && digit(pdl[i + 1]))) {
      while (i < pdl.size() && (digit(pdl[i]) || pdl[i] == '.')) ++i;
      if (i < pdl.size() && (pdl[i] == 'e' || pdl[i] == 'E')) {
        std::size_t j = i + 1;
        if (j < pdl.size() && (pdl[j] == '+' || pdl[j] == '-')) ++j;
        if (j < pdl.size() && digit(pdl[j])) {
          i = j;
          while (i < pdl.size() && digit(pdl[i])) ++i;
        }
      }
      tokens.push_back({PdlToken::Kind::Number, start, pdl.substr(start, i - start)});
    } else {
      ++i;
      tokens.push_back({PdlToken::Kind::Punctuation, start, pdl.substr(start, 1)});
    }
  }
  return tokens;
}

inline bool is_keyword(const PdlToken& token, const char* keyword) {
  if (token.kind != PdlToken::Kind::Name) return false;
  std::string upper = token.text;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return upper == keyword;
}

// Every name token that is a key of `names` replaced by its value; nothing else changes.
inline std::string renamed(const std::string& pdl, const std::map<std::string, std::string>& names) {
  std::string out;
  std::size_t copied = 0;
  for (const PdlToken& token : pdl_tokens(pdl)) {
    if (token.kind != PdlToken::Kind::Name) continue;
    const auto found = names.find(token.text);
    if (found == names.end()) continue;
    out += pdl.substr(copied, token.at - copied) + found->second;
    copied = token.at + token.text.size();
  }
  return out + pdl.substr(copied);
}

// `stem`, with '_' appended until no name of the program begins with it: the name itself and
// every name made by appending to it are new.
inline std::string unused_name(const std::string& pdl, std::string stem) {
  std::set<std::string> used;
  for (const PdlToken& token : pdl_tokens(pdl)) {
    if (token.kind == PdlToken::Kind::Name) used.insert(token.text);
  }
  const auto clashes = [&](const std::string& name) {
    return std::any_of(used.begin(), used.end(), [&](const std::string& u) { return u.rfind(name, 0) == 0; });
  };
  while (clashes(stem)) stem += "_";
  return stem;
}

// Every name the program declares (phases, variables, ARBITRARY tasks, problem-size
// structures) mapped to a new one, so that the lexical order of the names is reversed: of n
// names sorted, the i-th becomes renamed_<n-1-i> (zero-padded). Phase names and task names
// share the mapping, which keeps it consistent when a task and a phase have the same name.
inline std::map<std::string, std::string> reversed_names(const std::string& pdl) {
  const std::vector<PdlToken> tokens = pdl_tokens(pdl);
  std::set<std::string> declared;
  for (std::size_t k = 0; k + 1 < tokens.size(); ++k) {
    const bool declares = is_keyword(tokens[k], "PHASE") || is_keyword(tokens[k], "VARIABLE") ||
                          is_keyword(tokens[k], "TASK") || is_keyword(tokens[k], "VECTOR") ||
                          is_keyword(tokens[k], "GRID");
    if (declares && tokens[k + 1].kind == PdlToken::Kind::Name) declared.insert(tokens[k + 1].text);
  }
  const std::string prefix = unused_name(pdl, "renamed_");
  const std::size_t width = std::to_string(declared.size()).size();
  std::map<std::string, std::string> names;
  std::size_t i = 0;
  for (const std::string& name : declared) {
    std::string number = std::to_string(declared.size() - 1 - i++);
    names[name] = prefix + std::string(width - number.size(), '0') + number;
  }
  return names;
}

// Where with_zero_phase inserts its phase into the execution pattern.
struct ZeroPhaseAt {
  bool start = true;       // zero -> (pattern)
  bool after_sync = true;  // every SYNC becomes (SYNC -> zero)
  bool end = false;        // (pattern) -> zero
};

// The program with a sequential phase of runtime DETERMINISTIC(0), named so that it clashes
// with no name of the program, inserted into the execution pattern where `at` says and defined
// at the end of the text. Returns the text unchanged if it has no execution pattern.
inline std::string with_zero_phase(const std::string& pdl, ZeroPhaseAt at = {}) {
  const std::vector<PdlToken> tokens = pdl_tokens(pdl);
  std::size_t begin = 0;
  while (begin + 2 < tokens.size() &&
         !(is_keyword(tokens[begin], "EXECUTION") && is_keyword(tokens[begin + 1], "PATTERN") &&
           is_keyword(tokens[begin + 2], "IS"))) {
    ++begin;
  }
  if (begin + 2 >= tokens.size()) return pdl;
  begin += 3;
  std::size_t end = begin;
  while (end < tokens.size() && tokens[end].text != ";") ++end;
  if (end == begin || end == tokens.size()) return pdl;
  const std::string zero = unused_name(pdl, "zero_cost");
  const std::size_t from = tokens[begin].at;
  std::string pattern = "(";
  std::size_t copied = from;
  for (std::size_t k = begin; k < end; ++k) {
    if (!at.after_sync || !is_keyword(tokens[k], "SYNC")) continue;
    pattern += pdl.substr(copied, tokens[k].at - copied) + "(" + tokens[k].text + " -> " + zero + ")";
    copied = tokens[k].at + tokens[k].text.size();
  }
  pattern += pdl.substr(copied, tokens[end].at - copied) + ")";
  if (at.start) pattern = zero + " -> " + pattern;
  if (at.end) pattern += " -> " + zero;
  return pdl.substr(0, from) + pattern + pdl.substr(tokens[end].at) + "\nSEQUENTIAL PHASE " + zero +
         " IS:\n  RUNTIME IS DETERMINISTIC(0);\nEND;\n";
}

}  // namespace test_support
