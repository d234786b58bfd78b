// _pdl_scale: the command's own library as a Python extension (docs/python.md). It runs a
// pdl-scale command line in this process, over the same app::run_command the executable runs,
// with program and machine texts given in memory, and the GIL released while it works; and it
// fits distributions to samples with the fitting library of `pdl-scale fit`. The Python package
// pdl_scale (pdl_scale/__init__.py) builds the command lines and turns the JSON into arrays.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <functional>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "app/commands.hpp"
#include "pdl/file_reader.hpp"
#include "tools/fit.hpp"

namespace py = pybind11;

namespace {

// The files of `texts` (name -> contents) are read from memory, every other from disk.
pdl::FileReader reader_with(std::map<std::string, std::string> texts) {
  return [texts = std::move(texts)](const std::string& path, std::size_t limit) {
    const auto given = texts.find(path);
    if (given == texts.end()) return pdl::read_file(path, limit);
    pdl::FileFacts facts;
    facts.exists = true;
    facts.regular = true;
    facts.size = given->second.size();
    facts.text = given->second.substr(0, limit + 1);
    return facts;
  };
}

// A study's progress told to `progress(done, total)` with the GIL held; a falsy answer other
// than None stops the study (its rows kept, status 130), and an exception stops it too and is
// raised again once the run is over.
std::function<bool(double, std::size_t)> progress_of(const py::object& progress,
                                                     std::optional<py::error_already_set>& raised) {
  if (progress.is_none()) return {};
  return [&progress, &raised](double done, std::size_t total) {
    py::gil_scoped_acquire locked;
    if (raised) return false;
    try {
      const py::object answer = progress(done, total);
      return answer.is_none() || PyObject_IsTrue(answer.ptr()) == 1;
    } catch (py::error_already_set& error) {
      raised.emplace(std::move(error));
      return false;
    }
  };
}

std::tuple<int, std::string, std::string> run(const std::vector<std::string>& arguments,
                                              std::map<std::string, std::string> texts, const py::object& progress) {
  std::vector<std::string> words{"pdl-scale"};
  words.insert(words.end(), arguments.begin(), arguments.end());
  std::vector<char*> argv;
  for (std::string& word : words) argv.push_back(word.data());
  argv.push_back(nullptr);
  std::ostringstream out, err;
  int status = 0;
  std::optional<py::error_already_set> raised;
  app::Options options;
  options.read_file = reader_with(std::move(texts));
  options.on_progress = progress_of(progress, raised);
  {
    py::gil_scoped_release unlocked;
    status = app::run_command(static_cast<int>(words.size()), argv.data(), std::move(options), out, err, false);
  }
  if (raised) throw std::move(*raised);
  return {status, out.str(), err.str()};
}

py::list fit(const std::vector<double>& samples, const std::vector<double>& weights) {
  fitting::Fits fits;
  {
    py::gil_scoped_release unlocked;
    fits = fitting::fit_all(samples, weights);
  }
  py::list found;
  for (const fitting::Fit& one : fits.fits) {
    py::dict entry;
    entry["family"] = one.family;
    entry["detail"] = one.detail;
    entry["pdl"] = one.pdl;
    entry["ks"] = one.ks;
    found.append(entry);
  }
  return found;
}

}  // namespace

PYBIND11_MODULE(_pdl_scale, m) {
  m.doc() = "pdl-scale's library in this process; use the pdl_scale package, not this module";
  m.def("run", &run, py::arg("arguments"), py::arg("texts") = std::map<std::string, std::string>{},
        py::arg("progress") = py::none(),
        "Runs `pdl-scale ARGUMENTS...`; files named in `texts` are read from it; a study tells `progress(done, "
        "total)` how many models it solved (a falsy answer stops it). Returns (status, stdout, stderr).");
  m.def("fit", &fit, py::arg("samples"), py::arg("weights") = std::vector<double>{},
        "Distributions fitted to samples (best first), as pdl-scale fit gives them: family, detail, pdl, ks.");
}
