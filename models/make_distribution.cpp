#include "models/make_distribution.hpp"
#include "distributions/errors.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/measurements.hpp"
#include "models/validate.hpp"

namespace models {

namespace {

namespace d = distributions;

d::Distribution numerical_distribution(const RuntimeSpec& spec, const Machine& machine) {
  // The data was read by pdl::check for one machine; $ARCH may name another file for this one.
  if (!spec.measurements) {
    throw distributions::InvalidDistribution("NUMERICAL('" + resolve_file(spec.file, machine.name) +
                                             "'): the measured data was not read (the program was checked "
                                             "without reading data files)");
  }
  if (spec.file.find("$ARCH") != std::string::npos && spec.measurements->machine != machine.name) {
    throw distributions::InvalidDistribution("NUMERICAL('" + spec.file + "'): the data was read for machine '" +
                                             spec.measurements->machine + "' (" + spec.measurements->file +
                                             "), not for machine '" + machine.name +
                                             "': check the program with this machine to read its file");
  }
  return measured_distribution(*spec.measurements, spec.smoothing);
}

// The values of the parameters, checked for the kind of distribution.
std::vector<double> parameter_values(const RuntimeSpec& spec, const Environment& environment) {
  std::vector<double> v;
  v.reserve(spec.params.size());
  for (std::size_t i = 0; i < spec.params.size(); ++i) {
    const Evaluation result = evaluate(spec.params[i], environment);
    if (!result.ok()) {
      throw distributions::InvalidDistribution(std::string{to_string(spec.kind)} + ": parameter " +
                                               std::to_string(i + 1) + ": " + result.error);
    }
    v.push_back(result.value);
  }
  if (const std::string problem = check_parameters(spec.kind, spec.order, v); !problem.empty()) {
    throw distributions::InvalidDistribution(problem);
  }
  return v;
}

// A law with an optional third parameter, its shift (LOGNORMAL, WEIBULL): X + shift.
d::Distribution shifted(const d::Distribution& law, const std::vector<double>& v) {
  return v.size() == 3 && v[2] > 0.0 ? d::shift(law, v[2]) : law;
}

// PHASETYPE's parameters are α (n values) and then S row by row.
d::Distribution phase_type_distribution(std::size_t n, const std::vector<double>& v) {
  std::vector<double> alpha(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(n));
  std::vector<std::vector<double>> subgenerator(n);
  for (std::size_t r = 0; r < n; ++r) {
    const auto row = v.begin() + static_cast<std::ptrdiff_t>(n + r * n);
    subgenerator[r].assign(row, row + static_cast<std::ptrdiff_t>(n));
  }
  return d::phase_type(std::move(alpha), std::move(subgenerator));
}

}  // namespace

distributions::Distribution make_distribution(const RuntimeSpec& spec, const Environment& environment,
                                              const Machine& machine) {
  if (spec.kind == DistKind::Numerical) return numerical_distribution(spec, machine);
  const std::vector<double> v = parameter_values(spec, environment);
  switch (spec.kind) {
    case DistKind::Deterministic: return d::deterministic(v[0]);
    case DistKind::Exponential: return d::exponential(1.0 / v[0]);
    case DistKind::Erlang: return d::erlang(static_cast<int>(v[0]), 1.0 / v[1]);
    case DistKind::GeneralErlang: {
      std::vector<double> rates;
      for (double mean : v) rates.push_back(1.0 / mean);
      return d::hypoexponential(std::move(rates));
    }
    case DistKind::HyperExponential: {
      std::vector<double> probabilities, rates;
      for (std::size_t i = 0; i < v.size(); i += 2) {
        probabilities.push_back(v[i]);
        rates.push_back(1.0 / v[i + 1]);
      }
      return d::hyperexponential(std::move(probabilities), std::move(rates));
    }
    case DistKind::Uniform: return d::uniform(v[0], v[1]);
    case DistKind::Normal: return d::truncated_normal(v[0], v[1]);
    case DistKind::LogNormal: return shifted(d::lognormal(std::log(v[0]), v[1]), v);
    case DistKind::Weibull: return shifted(d::weibull(v[0], v[1]), v);
    case DistKind::Pareto: return d::pareto(v[0], v[1]);
    case DistKind::PhaseType: return phase_type_distribution(spec.order, v);
    case DistKind::Mixture: {
      std::vector<d::Distribution> components;
      for (const RuntimeSpec& component : spec.components) {
        components.push_back(make_distribution(component, environment, machine));
      }
      return d::mixture(v, std::move(components));
    }
    case DistKind::Samples: return d::from_samples(v);
    case DistKind::Histogram: {
      std::vector<double> values, weights;
      for (std::size_t i = 0; i + 1 < v.size(); i += 2) {
        values.push_back(v[i]);
        weights.push_back(v[i + 1]);
      }
      return d::from_histogram(values, weights);
    }
    case DistKind::Numerical: break;
  }
  throw std::logic_error("make_distribution: unknown distribution kind");
}

}  // namespace models
