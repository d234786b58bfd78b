// Measured-data files: the format (docs/pdl.md, "Measured data files") and how pdl::check
// reads them for NUMERICAL('file'). Bad files through the real binary: tests/pdl/bad_data.
#include "pdl/measurements.hpp"
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>

namespace pdl {
namespace {

// "line:col: error: message" of the first diagnostic.
std::string first(const std::string& text) {
  const MeasurementsResult r = parse_measurements(text, "d.txt");
  if (r.diagnostics.empty()) return {};
  const std::string line = format(r.diagnostics.front());
  return line.substr(line.find(':') + 1, line.find('\n') - line.find(':') - 1);
}

TEST(Measurements, SamplesOnePerLineWithCommentsAndBlankLines) {
  const MeasurementsResult r = parse_measurements("# runtimes\n\n1.5\n  2 # the second\n+3e0\r\n", "d.txt");
  ASSERT_TRUE(r.measurements) << format(r.diagnostics);
  EXPECT_EQ(r.measurements->values, (std::vector<double>{1.5, 2, 3}));
  EXPECT_TRUE(r.measurements->weights.empty());
  EXPECT_EQ(r.measurements->unit, "");
  EXPECT_EQ(r.measurements->file, "d.txt");
}

TEST(Measurements, HistogramRowsHaveTwoColumns) {
  const MeasurementsResult r = parse_measurements("10 3\n20\t1\n30 0\n", "d.txt");
  ASSERT_TRUE(r.measurements) << format(r.diagnostics);
  EXPECT_EQ(r.measurements->values, (std::vector<double>{10, 20, 30}));
  EXPECT_EQ(r.measurements->weights, (std::vector<double>{3, 1, 0}));
}

TEST(Measurements, UnitsConvertToMicroseconds) {
  auto values = [](const std::string& text) {
    const MeasurementsResult r = parse_measurements(text, "d.txt");
    EXPECT_TRUE(r.measurements) << format(r.diagnostics);
    return r.measurements ? r.measurements->values : std::vector<double>{};
  };
  EXPECT_EQ(values("# unit: ms\n1.5\n2\n"), (std::vector<double>{1500, 2000}));
  EXPECT_EQ(values("# Unit: ms\n1.5 ms\n"), (std::vector<double>{1500}));  // the header's unit again is fine
  EXPECT_EQ(values("250ns\n500 ns\n"), (std::vector<double>{0.25, 0.5}));
  EXPECT_EQ(values("2 s 4\n1 s 1\n"), (std::vector<double>{2e6, 1e6}));  // histogram rows with units
  EXPECT_EQ(values("3 \xC2\xB5s\n"), (std::vector<double>{3}));
  EXPECT_EQ(parse_measurements("# unit: s\n1\n", "d.txt").measurements->unit, "s");
}

TEST(Measurements, ErrorsHaveLineAndColumn) {
  EXPECT_EQ(first(""), "1:1: error: the file is empty: expected one runtime per line, or 'value weight' rows");
  EXPECT_EQ(first("# nothing\n\n"), "1:1: error: no measurements: the file has only comments and blank lines");
  EXPECT_EQ(first("1\nfast\n"), "2:1: error: expected a runtime (a number), got 'fast'");
  EXPECT_EQ(first("1\n -2\n"), "2:2: error: a runtime must be >= 0, got -2");
  EXPECT_EQ(first("nan\n"), "1:1: error: the runtime 'nan' is not a finite number");
  EXPECT_EQ(first("1e999\n"), "1:1: error: the runtime '1e999' is not a finite number");
  EXPECT_EQ(first("1 x\n"), "1:3: error: unknown unit 'x': use ns, us (or \xC2\xB5s), ms or s");
  EXPECT_EQ(first("1 2\n3 -1\n"), "2:3: error: a weight must be >= 0, got -1");
  EXPECT_EQ(first("1 2\n3 many\n"), "2:3: error: unknown unit 'many': use ns, us (or \xC2\xB5s), ms or s");
  EXPECT_EQ(first("1 us 2\n3 us 1e\n"), "2:6: error: expected a weight (a number without a unit), got '1e'");
  EXPECT_EQ(first("1 0\n2 0\n"), "1:1: error: the weights add up to 0: a histogram needs a positive total weight");
  EXPECT_EQ(first("1 ms\n2 us\n"),
            "2:3: error: mixed units: 'us' here, but 'ms' at line 1 (give every value in one unit)");
  EXPECT_EQ(first("1 ms\n2\n"),
            "2:1: error: missing unit: the values before have one ('ms' at line 1); give every value a unit, or none");
  EXPECT_EQ(first("1\n2 ms\n"),
            "2:3: error: mixed units: 'ms' here, but the values before have none (first at "
            "line 1); give every value a unit, or none");
  EXPECT_EQ(first("1\n# unit: ms\n"), "2:1: error: '# unit:' must come before the first measurement");
  EXPECT_EQ(first("# unit: h\n1\n"), "1:9: error: unknown unit 'h': use ns, us (or \xC2\xB5s), ms or s");
  EXPECT_EQ(first("1 2 3\n"), "1:5: error: too many columns (3): a row is 'value [unit]' or 'value [unit] weight'");
  EXPECT_EQ(first("1,2\n"),
            "1:2: error: expected a runtime (a number), got '1,2' (separate the value and the "
            "weight by spaces)");
  EXPECT_EQ(first("1\n2\x01\n"),
            "2:2: error: the file is not text: byte 0x01 (a data file holds numbers, one "
            "row per line)");
  EXPECT_EQ(first("1\n" + std::string(5000, '1') + "\n"),
            "2:4097: error: the line is longer than 4096 characters: a row is 'value [unit] [weight]'");
}

TEST(Measurements, StopsAfterTwentyErrors) {
  std::string text;
  for (int i = 0; i < 100; ++i) text += "x\n";
  EXPECT_EQ(parse_measurements(text, "d.txt").diagnostics.size(), 20u);
}

// Random bytes and random mutations of a good file never crash, and a result is either data
// (finite values >= 0, no error) or errors with a position inside the file.
TEST(Measurements, RandomInputIsDataOrDiagnosed) {
  std::uint64_t state = 12345;
  const auto next = [&state] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<unsigned>(state >> 33);
  };
  static constexpr char kAlphabet[] = "0123456789.eE+-# \t\nnaifusm,\x00\xb5\xc2x";
  const std::string alphabet(kAlphabet, sizeof kAlphabet - 1);  // with its NUL byte
  for (int round = 0; round < 3000; ++round) {
    std::string text = round % 2 == 0 ? "# unit: us\n12.5\n13 us\n1e3\n" : "";
    const std::size_t length = next() % 40;
    for (std::size_t i = 0; i < length; ++i) {
      const char c = alphabet[next() % alphabet.size()];
      if (!text.empty() && next() % 3 == 0)
        text[next() % text.size()] = c;
      else
        text += c;
    }
    const MeasurementsResult r = parse_measurements(text, "fuzz.txt");
    if (r.measurements) {
      EXPECT_TRUE(r.diagnostics.empty()) << text;
      EXPECT_FALSE(r.measurements->values.empty()) << text;
      for (double v : r.measurements->values) EXPECT_TRUE(std::isfinite(v) && v >= 0.0) << text;
    } else {
      ASSERT_FALSE(r.diagnostics.empty()) << text;
      EXPECT_GE(r.diagnostics.front().line, 1u) << text;
    }
  }
}

TEST(Measurements, ReadErrorsHaveNoPosition) {
  EXPECT_EQ(read_measurements("tests/pdl/no/such/file").read_error, "no such file");
  EXPECT_EQ(read_measurements("tests/pdl").read_error, "it is a directory, not a file");
}

// NUMERICAL through pdl::check: $ARCH, the path relative to the program, smoothing, errors.
class NumericalCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("pdl_numerical_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  void write(const std::string& name, const std::string& text) const { std::ofstream(dir_ / name) << text; }
  test::Checked check(const std::string& runtime, const models::Machine* machine = nullptr) const {
    CheckOptions options;
    options.machine = machine;
    const std::string text = test::program_with("a",
                                                "WORK PHASE a IS:\n  PARALLELIZATION SCHEME IS INDEPENDENT;\n"
                                                "  SUBTASK RUNTIME IS " +
                                                    runtime +
                                                    ";\n"
                                                    "  PROBLEM SIZE IS VECTOR A(10);\nEND;\n");
    return test::parse_and_check(text, options, (dir_ / "p.pdl").string());
  }
  static const models::RuntimeSpec& runtime(const test::Checked& r) {
    return *models::find_work_phase(*r.checked.program, "a")->runtime;
  }
  std::filesystem::path dir_;
};

TEST_F(NumericalCheck, ReadsTheFileNextToTheProgramForTheMachine) {
  write("t.cluster", "# unit: ms\n1\n2\n");
  models::Machine cluster = models::ideal_machine();
  cluster.name = "cluster";
  const auto r = check("NUMERICAL('t.$ARCH')", &cluster);
  ASSERT_TRUE(r.ok()) << r.text();
  const models::RuntimeSpec& spec = runtime(r);
  ASSERT_TRUE(spec.measurements);
  EXPECT_EQ(spec.measurements->values, (std::vector<double>{1000, 2000}));
  EXPECT_EQ(spec.measurements->machine, "cluster");
  EXPECT_EQ(spec.measurements->file, (dir_ / "t.cluster").string());
  EXPECT_EQ(spec.smoothing, models::Smoothing::Empirical);
  EXPECT_EQ(models::to_string(spec), "NUMERICAL('t.$ARCH')");
  // On the ideal machine $ARCH names another file, which is missing.
  const auto ideal = check("NUMERICAL('t.$ARCH')");
  EXPECT_FALSE(ideal.ok());
  EXPECT_NE(ideal.first().find("error: NUMERICAL: cannot read '" + (dir_ / "t.ideal").string() +
                               "' ('t.$ARCH' on machine 'ideal'): no such file"),
            std::string::npos)
      << ideal.text();
}

TEST_F(NumericalCheck, SmoothingIsTheOptionalSecondArgument) {
  write("t.txt", "1\n2\n3\n");
  const auto smoothed = check("NUMERICAL('t.txt', smoothed)");
  ASSERT_TRUE(smoothed.ok()) << smoothed.text();
  EXPECT_EQ(runtime(smoothed).smoothing, models::Smoothing::Smoothed);
  EXPECT_EQ(models::to_string(runtime(smoothed)), "NUMERICAL('t.txt', SMOOTHED)");
  EXPECT_TRUE(check("NUMERICAL('t.txt', EMPIRICAL)").ok());
  EXPECT_NE(check("NUMERICAL('t.txt', ROUGH)").first().find("the second argument is EMPIRICAL"), std::string::npos);
  EXPECT_NE(check("NUMERICAL('t.txt', 2)").first().find("the second argument is EMPIRICAL"), std::string::npos);
}

TEST_F(NumericalCheck, DataFileErrorsComeWithANoteAtTheNumerical) {
  write("t.txt", "1\n-2\n");
  const auto r = check("NUMERICAL('t.txt')");
  ASSERT_FALSE(r.ok());
  const auto& d = r.checked.diagnostics;
  ASSERT_EQ(d.size(), 2u) << r.text();
  EXPECT_EQ(d[0].file, (dir_ / "t.txt").string());
  EXPECT_EQ(d[0].line, 2u);
  EXPECT_EQ(d[0].message, "a runtime must be >= 0, got -2");
  EXPECT_EQ(d[1].severity, Severity::Note);
  EXPECT_EQ(d[1].file, (dir_ / "p.pdl").string());
  EXPECT_EQ(d[1].line, 5u);
}

TEST_F(NumericalCheck, CanSkipReadingForASyntaxCheck) {
  CheckOptions options;
  options.read_measurements = false;
  const auto r = test::parse_and_check(
      test::program_with("a",
                         "WORK PHASE a IS:\n  PARALLELIZATION SCHEME IS INDEPENDENT;\n"
                         "  SUBTASK RUNTIME IS NUMERICAL('missing.txt');\n  PROBLEM SIZE IS VECTOR A(10);\nEND;\n"),
      options, (dir_ / "p.pdl").string());
  ASSERT_TRUE(r.ok()) << r.text();
  EXPECT_FALSE(runtime(r).measurements);
}

}  // namespace
}  // namespace pdl
