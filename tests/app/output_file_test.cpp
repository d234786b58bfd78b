// -o and --plot wherever they point (docs/cli.md, "Output files"): a FIFO or device written
// through, a symbolic link kept, an existing file's mode kept, a read-only file refused, an
// input of the run refused, an unwritable destination refused before the analysis.
#include "app/commands.hpp"
#include "app/options.hpp"
#include "app/output_file.hpp"
#include "tests/app/analysis_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <sstream>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

namespace {

using namespace analysis_support;
namespace fs = std::filesystem;

class OutputFile : public ::testing::Test {
 protected:
  void SetUp() override {
    directory_ = fs::temp_directory_path() / ("pdl-scale-output-" + std::to_string(::getpid()) + "-" +
                                              ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(directory_);
    fs::create_directories(directory_);
  }
  void TearDown() override {
    // A test of read-only files may leave one; remove_all needs the directory writable only.
    std::error_code ignored;
    fs::remove_all(directory_, ignored);
  }

  std::string path(const std::string& name) const { return (directory_ / name).string(); }

  // The names in the test directory: a leftover temporary file shows here.
  std::vector<std::string> names() const {
    std::vector<std::string> found;
    for (const auto& entry : fs::directory_iterator(directory_)) found.push_back(entry.path().filename().string());
    std::sort(found.begin(), found.end());
    return found;
  }

  // A copy of the repository file in the test directory: a test that fails must not destroy
  // the examples.
  std::string copy(const std::string& from) const {
    const std::string to = path(fs::path(from).filename().string());
    fs::copy_file(from, to, fs::copy_options::overwrite_existing);
    return to;
  }

  fs::path directory_;
};

void write(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

mode_t mode_of(const std::string& path) {
  struct stat status {};
  EXPECT_EQ(::stat(path.c_str(), &status), 0) << path;
  return status.st_mode & 07777;
}

// The report of `options` on standard output, to compare what a file received with.
std::string report_on_stdout(app::Options options) {
  options.output.reset();
  options.plot.reset();
  const Outcome run = analyse(options);
  EXPECT_EQ(run.status, app::kExitSuccess) << run.err;
  return run.out;
}

TEST_F(OutputFile, AFifoReceivesTheReportAndStaysAFifo) {
  const std::string fifo = path("report.fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
  // The test holds both ends open while the command runs, so that the reader ends even when
  // the command never opens the FIFO (as when it replaced it by a regular file): the reader
  // sees the end of its input when the last writer, the test's, closes.
  const int read_end = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(read_end, 0) << std::strerror(errno);
  const int held_write_end = ::open(fifo.c_str(), O_WRONLY);
  ASSERT_GE(held_write_end, 0) << std::strerror(errno);
  ::fcntl(read_end, F_SETFL, ::fcntl(read_end, F_GETFL) & ~O_NONBLOCK);
  std::string received;
  std::thread reader([&] {
    char buffer[4096];
    for (ssize_t n; (n = ::read(read_end, buffer, sizeof buffer)) > 0;)
      received.append(buffer, static_cast<std::size_t>(n));
  });
  app::Options options = neighbor("1,2,4");
  options.output = fifo;
  const Outcome run = analyse(options);
  ::close(held_write_end);
  reader.join();
  ::close(read_end);
  ASSERT_EQ(run.status, app::kExitSuccess) << run.err;
  EXPECT_EQ(received, report_on_stdout(options));
  struct stat status {};
  ASSERT_EQ(::lstat(fifo.c_str(), &status), 0);
  EXPECT_TRUE(S_ISFIFO(status.st_mode)) << "the FIFO was replaced by a regular file";
  EXPECT_EQ(names(), std::vector<std::string>{"report.fifo"});
}

// A device node of our own (the null device's numbers) rather than /dev/null itself: if the
// test fails, it breaks nothing but its directory. Needs the right to create device nodes and
// to open them (a container may refuse either): skipped otherwise; the command-line test
// app.output_dev_null_stays_a_device checks /dev/null itself when run as root.
TEST_F(OutputFile, ACharacterDeviceIsWrittenThroughAndStaysADevice) {
  const std::string device = path("null");
  if (::mknod(device.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0) GTEST_SKIP() << "mknod: " << std::strerror(errno);
  const int fd = ::open(device.c_str(), O_WRONLY);
  if (fd < 0) GTEST_SKIP() << "the device node does not open: " << std::strerror(errno);
  ::close(fd);
  app::Options options = neighbor("1,2");
  options.output = device;
  options.plot = device;  // one device may take the report and the chart
  const Outcome run = analyse(options);
  ASSERT_EQ(run.status, app::kExitSuccess) << run.err;
  struct stat status {};
  ASSERT_EQ(::lstat(device.c_str(), &status), 0);
  EXPECT_TRUE(S_ISCHR(status.st_mode)) << "the device was replaced by a regular file";
  EXPECT_EQ(names(), std::vector<std::string>{"null"});
}

TEST_F(OutputFile, ASymbolicLinkStaysAndItsTargetGetsTheReport) {
  fs::create_directories(directory_ / "results");
  fs::create_directories(directory_ / "links");
  write(path("results/report.txt"), "previous report\n");
  fs::create_symlink("../results/report.txt", directory_ / "links" / "latest.txt");
  app::Options options = neighbor("1,2");
  options.output = path("links/latest.txt");
  const Outcome run = analyse(options);
  ASSERT_EQ(run.status, app::kExitSuccess) << run.err;
  EXPECT_TRUE(fs::is_symlink(directory_ / "links" / "latest.txt"));
  EXPECT_EQ(fs::read_symlink(directory_ / "links" / "latest.txt"), "../results/report.txt");
  EXPECT_EQ(read(path("results/report.txt")), report_on_stdout(options));
  // The temporary file went beside the target (and was renamed): nothing left in either.
  EXPECT_EQ(names(), (std::vector<std::string>{"links", "results"}));
  EXPECT_EQ(fs::directory_iterator(directory_ / "results")->path().filename(), "report.txt");
  EXPECT_EQ(std::distance(fs::directory_iterator(directory_ / "results"), fs::directory_iterator()), 1);
}

TEST_F(OutputFile, ADanglingSymbolicLinkGetsItsTargetCreated) {
  fs::create_symlink("new-report.txt", directory_ / "latest.txt");
  app::Options options = neighbor("1,2");
  options.output = path("latest.txt");
  const Outcome run = analyse(options);
  ASSERT_EQ(run.status, app::kExitSuccess) << run.err;
  EXPECT_TRUE(fs::is_symlink(directory_ / "latest.txt"));
  EXPECT_EQ(read(path("new-report.txt")), report_on_stdout(options));
}

TEST_F(OutputFile, AnExistingFileKeepsItsMode) {
  const std::string report = path("report.txt");
  write(report, "previous report\n");
  fs::permissions(report, static_cast<fs::perms>(0640));
  app::Options options = neighbor("1,2");
  options.output = report;
  const Outcome run = analyse(options);
  ASSERT_EQ(run.status, app::kExitSuccess) << run.err;
  EXPECT_EQ(read(report), report_on_stdout(options));
  EXPECT_EQ(mode_of(report), 0640u);
}

TEST_F(OutputFile, ANewFileGetsTheUmasksMode) {
  const mode_t previous = ::umask(027);
  app::Options options = neighbor("1,2");
  options.output = path("report.txt");
  const Outcome run = analyse(options);
  ::umask(previous);
  ASSERT_EQ(run.status, app::kExitSuccess) << run.err;
  EXPECT_EQ(mode_of(path("report.txt")), 0640u);  // 0666 & ~027
}

// Decided in docs/cli.md: a file nobody may write was made read-only on purpose (also for
// root, who could write it); replacing it would undo that silently.
TEST_F(OutputFile, AReadOnlyFileIsRefusedAndKept) {
  const std::string report = path("report.txt");
  write(report, "a report kept on purpose\n");
  fs::permissions(report, static_cast<fs::perms>(0444));
  app::Options options = neighbor("1,2");
  options.output = report;
  const Outcome run = analyse(options);
  EXPECT_EQ(run.status, app::kExitInput);
  EXPECT_NE(run.err.find("pdl-scale: error: -o: cannot write '" + report + "': it is read-only (mode 0444)"),
            std::string::npos)
      << run.err;
  EXPECT_EQ(read(report), "a report kept on purpose\n");
  EXPECT_EQ(mode_of(report), 0444u);
  EXPECT_EQ(names(), std::vector<std::string>{"report.txt"});
}

struct Refusal {
  std::string output, plot;  // the destinations
  std::string message;       // in the error
};

// Every input of the run refused as a destination, whatever name reaches it, and the input
// unchanged byte for byte.
TEST_F(OutputFile, AnInputOfTheRunIsRefused) {
  const std::string program = copy("examples/paper/figures.pdl");
  const std::string data = copy("examples/paper/dur_b.dis.cluster");
  const std::string machine = copy("examples/machines/cluster.machine");
  fs::create_symlink("figures.pdl", directory_ / "link-to-program.pdl");
  fs::create_hard_link(machine, directory_ / "hard-link.machine");
  // --plot takes FILE.svg names only (issue 13): links so named reach the inputs.
  fs::create_symlink("figures.pdl", directory_ / "chart-is-the-program.svg");
  fs::create_symlink("dur_b.dis.cluster", directory_ / "chart-is-the-data.svg");
  const std::string dot_program = (fs::path(path("")) / "." / "figures.pdl").string();
  const std::vector<Refusal> refusals = {
      {program, "", "-o " + program + " would overwrite an input of this run (the program, '" + program + "')"},
      {dot_program, "", "-o " + dot_program + " would overwrite an input of this run (the program"},
      {path("link-to-program.pdl"), "", "would overwrite an input of this run (the program"},
      {machine, "", "-o " + machine + " would overwrite an input of this run (the machine file, '" + machine + "')"},
      {path("hard-link.machine"), "", "would overwrite an input of this run (the machine file"},
      {data, "", "would overwrite an input of this run (measured data of NUMERICAL('dur_b.dis.$ARCH'), '" + data},
      {"", program, "--plot " + program + ": the chart is an SVG drawing"},  // refused by its name
      {"", path("chart-is-the-program.svg"), "would overwrite an input of this run (the program"},
      {"", path("chart-is-the-data.svg"), "would overwrite an input of this run (measured data"},
  };
  const std::string program_text = read(program), data_text = read(data), machine_text = read(machine);
  for (const Refusal& refusal : refusals) {
    app::Options options = neighbor("1,2");
    options.file = program;
    options.machine_files = {machine};
    if (!refusal.output.empty()) options.output = refusal.output;
    if (!refusal.plot.empty()) options.plot = refusal.plot;
    const Outcome run = analyse(options);
    EXPECT_EQ(run.status, app::kExitInput) << refusal.message;
    EXPECT_NE(run.err.find("pdl-scale: error: "), std::string::npos) << run.err;
    EXPECT_NE(run.err.find(refusal.message), std::string::npos) << run.err;
    EXPECT_TRUE(run.out.empty()) << refusal.message;
    EXPECT_EQ(read(program), program_text);
    EXPECT_EQ(read(data), data_text);
    EXPECT_EQ(read(machine), machine_text);
    EXPECT_TRUE(fs::is_symlink(directory_ / "link-to-program.pdl"));
  }
}

TEST_F(OutputFile, TheReportAndTheChartIntoOneFileAreRefused) {
  write(path("both.svg"), "an older chart\n");
  fs::create_symlink("both.svg", directory_ / "alias.svg");
  for (const auto& [output, plot] :
       {std::pair{path("both.svg"), path("both.svg")}, std::pair{path("alias.svg"), path("both.svg")},
        std::pair{path("new.svg"), path("./new.svg")}}) {
    app::Options options = neighbor("1,2");
    options.output = output;
    options.plot = plot;
    const Outcome run = analyse(options);
    EXPECT_EQ(run.status, app::kExitInput) << output;
    EXPECT_NE(run.err.find("pdl-scale: error: -o " + output + " and --plot " + plot + " are the same file"),
              std::string::npos)
        << run.err;
  }
  EXPECT_EQ(read(path("both.svg")), "an older chart\n");
  EXPECT_EQ(names(), (std::vector<std::string>{"alias.svg", "both.svg"}));
}

// The destination is checked once the files are loaded, before any value is bound or solved:
// a variable without a value (found when the values are bound) is not what the run reports,
// the unwritable destination is. (app.output_unwritable_fails_before_the_analysis times a long
// run.)
TEST_F(OutputFile, AnUnwritableDestinationIsRefusedBeforeTheAnalysis) {
  struct Case {
    std::string output, plot;  // the same problem for -o and for --plot (whose names end in .svg)
    std::string why;
  };
  const std::vector<Case> cases = {
      {path("no/such/directory/report.txt"), path("no/such/directory/chart.svg"),
       "the directory '" + path("no/such/directory") + "' does not exist"},
      {path(""), path("directory.svg"), "it is a directory"},
      {path("file/report.txt"), path("file/chart.svg"), "'" + path("file") + "' is not a directory"},
  };
  write(path("file"), "a file, not a directory\n");
  fs::create_directory(directory_ / "directory.svg");
  for (const Case& one : cases) {
    for (const bool plot : {false, true}) {
      const std::string& output = plot ? one.plot : one.output;
      const std::string& why = one.why;
      app::Options options = neighbor("1,2");
      options.file = "tests/app/data/no_default.pdl";  // columns has no value: an error once bound
      (plot ? options.plot : options.output) = output;
      const Outcome run = analyse(options);
      EXPECT_EQ(run.status, app::kExitInput) << output;
      const std::string expected =
          std::string("pdl-scale: error: ") + (plot ? "--plot" : "-o") + ": cannot write '" + output + "': " + why;
      EXPECT_EQ(run.err, expected + "\n");
    }
  }
  if (::geteuid() != 0) {  // root may create files in any directory
    fs::create_directories(directory_ / "locked");
    fs::permissions(directory_ / "locked", static_cast<fs::perms>(0555));
    app::Options options = neighbor("1,2");
    options.output = path("locked/report.txt");
    const Outcome run = analyse(options);
    EXPECT_EQ(run.status, app::kExitInput);
    EXPECT_NE(run.err.find("cannot create a file in '" + path("locked") + "': Permission denied"), std::string::npos)
        << run.err;
    fs::permissions(directory_ / "locked", static_cast<fs::perms>(0755));
  }
}

TEST_F(OutputFile, TheGraphCommandChecksItsDestinationToo) {
  const std::string program = copy("examples/paper/neighbor.pdl");
  app::Options options = neighbor("");
  options.file = program;
  options.graph = 2;
  options.output = program;
  std::ostringstream out, err;
  EXPECT_EQ(analysis_support::run_options(options, out, err), app::kExitInput);
  EXPECT_NE(err.str().find("-o " + program + " would overwrite an input of this run (the program"), std::string::npos)
      << err.str();
  EXPECT_EQ(read(program), read("examples/paper/neighbor.pdl"));
}

TEST_F(OutputFile, LandingPathFollowsEveryLink) {
  fs::create_directories(directory_ / "a" / "b");
  fs::create_symlink("b/second", directory_ / "a" / "first");
  fs::create_symlink("../../target.txt", directory_ / "a" / "b" / "second");
  EXPECT_EQ(fs::path(app::landing_path(path("a/first"))).lexically_normal(), directory_ / "target.txt");
  EXPECT_EQ(app::landing_path(path("plain.txt")), path("plain.txt"));
  fs::create_symlink("loop", directory_ / "loop");
  EXPECT_EQ(app::landing_path(path("loop")), path("loop"));
  const app::Check problem = app::check_output_path({"-o", path("loop")});
  ASSERT_FALSE(problem.ok());
  const std::string& text = problem.failure->text;
  EXPECT_NE(text.find("-o: cannot write"), std::string::npos) << text;
  EXPECT_NE(text.find("symbolic links"), std::string::npos) << text;  // ELOOP's strerror
}

}  // namespace
