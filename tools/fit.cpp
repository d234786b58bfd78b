#include "tools/fit.hpp"
#include "distributions/errors.hpp"

#include "models/limits.hpp"
#include "models/measurements.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <numeric>
#include <optional>
#include <string>
#include <stdexcept>
#include <utility>

namespace fitting {

namespace d = distributions;

namespace {

std::pair<std::string, std::string> probabilities(double p);

// General Erlang stages are printed one by one: beyond this the text is unreadable, and the
// Erlang fit says the same.
constexpr int kMaxStages = 64;
// Phase counts of the Erlang and mixed-Erlang fits: beyond this the data is as good as
// deterministic (cv below 0.001).
constexpr double kMaxPhases = 1e6;

struct Data {
  std::vector<std::pair<double, double>> sorted;  // (value, weight), by value
  double total = 0.0;
  models::SampleSummary summary;
};

Data prepare(const std::vector<double>& values, const std::vector<double>& weights) {
  if (values.empty()) throw std::invalid_argument("fit: no data");
  if (!weights.empty() && weights.size() != values.size()) throw std::invalid_argument("fit: one weight per value");
  Data data;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double w = weights.empty() ? 1.0 : weights[i];
    if (!std::isfinite(values[i]) || values[i] < 0.0)
      throw std::invalid_argument("fit: values must be finite and >= 0");
    // The ranges a measured-data file's rows are held to (pdl/measurements.cpp), so that the
    // Python module refuses what `pdl-scale fit` refuses.
    if (values[i] != 0.0 && !(values[i] >= models::kSmallestTime && values[i] <= models::kLargestTime)) {
      throw std::invalid_argument(fmt::format("fit: a runtime must be 0 or lie in [{:g}, {:g}], got {:g}",
                                              models::kSmallestTime, models::kLargestTime, values[i]));
    }
    if (!std::isfinite(w) || w < 0.0) throw std::invalid_argument("fit: weights must be finite and >= 0");
    if (w > models::kLargestMagnitude) {
      throw std::invalid_argument(
          fmt::format("fit: a weight must be at most {:g}, got {:g}", models::kLargestMagnitude, w));
    }
    data.sorted.emplace_back(values[i], w);
    data.total += w;
  }
  if (!(data.total > 0.0)) throw std::invalid_argument("fit: the weights add up to 0");
  std::sort(data.sorted.begin(), data.sorted.end());
  data.summary = models::summarise(values, weights);
  return data;
}

double ks(const Data& data, const d::Distribution& distribution) {
  double distance = 0.0, below = 0.0;
  for (std::size_t i = 0; i < data.sorted.size();) {
    const double x = data.sorted[i].first;
    double here = 0.0;
    for (; i < data.sorted.size() && data.sorted[i].first == x; ++i) here += data.sorted[i].second;
    // Both cdfs may jump at x (ties in the data, an atom of the fit): compare the left limits
    // and the values at x.
    const double f_left = x > 0.0 ? d::cdf(distribution, std::nextafter(x, 0.0)) : 0.0;
    const double f = d::cdf(distribution, x);
    const double before = below / data.total;
    below += here;
    const double after = below / data.total;
    distance = std::max({distance, std::abs(after - f), std::abs(f_left - before)});
  }
  return distance;
}

// A fit whose cdf cannot be evaluated at the data (extreme parameters, e.g. a million phases
// of mean 1e70 evaluated at 12: Boost's incomplete gamma overflows) gets ks = NaN and is
// reported as not fitted by fit_all.
Fit make_fit(const Data& data, std::string family, std::string detail, std::string pdl, d::Distribution dist) {
  Fit fit{std::move(family), std::move(detail), std::move(pdl), std::move(dist), 0.0};
  try {
    fit.ks = ks(data, fit.distribution);
  } catch (const distributions::SupportOverflow& error) {
    fit.ks = std::numeric_limits<double>::quiet_NaN();
    fit.detail = error.what();
  } catch (const distributions::EvaluationError& error) {
    fit.ks = std::numeric_limits<double>::quiet_NaN();
    fit.detail = error.what();
  }
  return fit;
}

// Smaller distance first; a fit that could not be evaluated (NaN) last.
bool better(const Fit& a, const Fit& b) { return !std::isnan(a.ks) && (std::isnan(b.ks) || a.ks < b.ks); }

Fit erlang_fit(const Data& data) {
  const double m = data.summary.mean;
  const double cv2 = data.summary.cv * data.summary.cv;
  const double guess = cv2 > 0.0 ? std::min(1.0 / cv2, kMaxPhases) : kMaxPhases;
  const int center = std::max(1, static_cast<int>(std::lround(guess)));
  std::optional<Fit> best;
  for (int k = std::max(1, center - 2); k <= center + 2; ++k) {
    const double scale = m / k;
    Fit fit = make_fit(data, "Erlang",
                       fmt::format("k = {} phases of mean {} (k near 1/cv^2 = {})", k, number(scale), number(guess)),
                       fmt::format("ERLANG({}, {})", k, number(scale)), d::erlang(k, 1.0 / scale));
    if (!best || better(fit, *best)) best = std::move(fit);
  }
  return *best;
}

std::optional<Fit> general_erlang_fit(const Data& data, std::vector<Skipped>& skipped) {
  const double m = data.summary.mean, v = data.summary.variance;
  const double cv2 = data.summary.cv * data.summary.cv;
  if (cv2 > 1.0) {
    skipped.push_back({"general Erlang", fmt::format("cv^2 = {} > 1: stages in series have cv <= 1", number(cv2))});
    return std::nullopt;
  }
  const double stages = std::ceil(1.0 / cv2 - 1e-9);  // compared as a double: 1/cv^2 may exceed any int
  if (stages > kMaxStages) {
    skipped.push_back({"general Erlang", fmt::format("cv^2 = {} would need {} stages (at most {}): see the Erlang fit",
                                                     number(cv2), number(stages), kMaxStages)});
    return std::nullopt;
  }
  const int k = static_cast<int>(stages);
  if (k == 1) {
    return make_fit(data, "general Erlang", "one stage (cv = 1)", fmt::format("GERLANG({})", number(m)),
                    d::exponential(1.0 / m));
  }
  // k-1 stages of mean a and one of mean b: (k-1)a + b = m, (k-1)a^2 + b^2 = v.
  const double km1 = k - 1.0;
  const double root = std::sqrt(std::max(0.0, km1 * (k * v - m * m)));
  std::optional<Fit> best;
  for (double a : {(m * km1 + root) / (km1 * k), (m * km1 - root) / (km1 * k)}) {
    const double b = m - km1 * a;
    if (!(a > 0.0) || !(b > 0.0)) continue;
    std::vector<double> rates(static_cast<std::size_t>(k - 1), 1.0 / a);
    rates.push_back(1.0 / b);
    std::string text = "GERLANG(";
    for (int i = 0; i < k - 1; ++i) text += number(a) + ", ";
    text += number(b) + ")";
    Fit fit = make_fit(
        data, "general Erlang",
        fmt::format("{} stages of mean {} and one of mean {} (mean and variance matched)", k - 1, number(a), number(b)),
        std::move(text), d::hypoexponential(std::move(rates)));
    if (!best || better(fit, *best)) best = std::move(fit);
  }
  if (!best) skipped.push_back({"general Erlang", "no stage means match the mean and the variance"});
  return best;
}

// Two exponential branches by EM on the (weighted) data.
std::optional<Fit> hyperexponential_fit(const Data& data, std::vector<Skipped>& skipped) {
  const double m = data.summary.mean;
  const double cv2 = data.summary.cv * data.summary.cv;
  if (!(m > 0.0)) {
    skipped.push_back({"hyperexponential", "the mean is 0"});
    return std::nullopt;
  }
  // Start: balanced means when cv > 1, else two branches around the mean.
  double p = 0.5, m1 = 0.5 * m, m2 = 1.5 * m;
  if (cv2 > 1.0) {
    p = 0.5 * (1.0 + std::sqrt((cv2 - 1.0) / (cv2 + 1.0)));
    m1 = m / (2.0 * p);
    m2 = m / (2.0 * (1.0 - p));
  }
  double previous = -HUGE_VAL;
  for (int iteration = 0; iteration < 2000; ++iteration) {
    double r_total = 0.0, r_sum = 0.0, s_total = 0.0, s_sum = 0.0, log_likelihood = 0.0;
    for (const auto& [x, w] : data.sorted) {
      // Responsibilities in log space: a long tail must not underflow both densities.
      const double l1 = std::log(p) - std::log(m1) - x / m1;
      const double l2 = std::log1p(-p) - std::log(m2) - x / m2;
      const double top = std::max(l1, l2);
      const double norm = top + std::log(std::exp(l1 - top) + std::exp(l2 - top));
      const double r = std::exp(l1 - norm);
      r_total += w * r;
      r_sum += w * r * x;
      s_total += w * (1.0 - r);
      s_sum += w * (1.0 - r) * x;
      log_likelihood += w * norm;
    }
    if (!(r_total > 0.0) || !(s_total > 0.0) || !(r_sum > 0.0) || !(s_sum > 0.0)) break;  // one branch left
    p = r_total / data.total;
    m1 = r_sum / r_total;
    m2 = s_sum / s_total;
    if (std::abs(log_likelihood - previous) <= 1e-10 * std::abs(log_likelihood)) break;
    previous = log_likelihood;
  }
  if (!(p > 0.0 && p < 1.0) || !(m1 > 0.0) || !(m2 > 0.0) || !std::isfinite(m1 + m2)) {
    skipped.push_back({"hyperexponential", "expectation-maximisation found no two branches"});
    return std::nullopt;
  }
  if (m1 > m2) {
    std::swap(m1, m2);
    p = 1.0 - p;
  }
  // For cv <= 1 the likelihood is highest with both branches alike: an exponential, said so.
  const std::string degenerate = m2 - m1 <= 1e-3 * m2 ? " (the branches coincide: an exponential, cv <= 1)" : "";
  return make_fit(data, "hyperexponential",
                  fmt::format("two branches by maximum likelihood (EM): mean {} with probability {}, mean {} with {}{}",
                              number(m1), number(p), number(m2), number(1.0 - p), degenerate),
                  fmt::format("HYPEREXPONENTIAL({}, {}, {}, {})", probabilities(p).first, number(m1),
                              probabilities(p).second, number(m2)),
                  d::hyperexponential({p, 1.0 - p}, {1.0 / m1, 1.0 / m2}));
}

std::optional<Fit> phase_type_fit(const Data& data, std::vector<Skipped>& skipped) {
  const double m = data.summary.mean;
  const double cv2 = data.summary.cv * data.summary.cv;
  if (!(m > 0.0) || !(cv2 > 0.0)) {
    skipped.push_back({"phase-type", "no variation in the data"});
    return std::nullopt;
  }
  if (1.0 / cv2 > kMaxPhases) {
    skipped.push_back({"phase-type", fmt::format("cv^2 = {} would need more than {} phases: see the Erlang fit",
                                                 number(cv2), kMaxPhases)});
    return std::nullopt;
  }
  if (cv2 <= 1.0) {
    // Tijms: Erlang(k-1, mu) with probability q, Erlang(k, mu) otherwise, 1/k <= cv^2 <= 1/(k-1).
    const int k = std::max(2, static_cast<int>(std::ceil(1.0 / cv2 - 1e-9)));
    const double kd = k;  // k * k in int overflows from k = 46341
    const double q = (kd * cv2 - std::sqrt(kd * (1.0 + cv2) - kd * kd * cv2)) / (1.0 + cv2);
    const double phase_mean = m / (k - q);
    const double q_clamped = std::clamp(q, 0.0, 1.0);
    return make_fit(
        data, "phase-type (mixed Erlang)",
        fmt::format("Erlang {} with probability {}, Erlang {} otherwise, phases of mean {} (Tijms' "
                    "two-moment fit)",
                    k - 1, number(q_clamped), k, number(phase_mean)),
        fmt::format("MIXTURE({}, ERLANG({}, {}), {}, ERLANG({}, {}))", probabilities(q_clamped).first, k - 1,
                    number(phase_mean), probabilities(q_clamped).second, k, number(phase_mean)),
        d::mixture({q_clamped, 1.0 - q_clamped}, {d::erlang(k - 1, 1.0 / phase_mean), d::erlang(k, 1.0 / phase_mean)}));
  }
  // Coxian-2: phase 1 of mean m/2, then with probability 1/(2 cv^2) phase 2 of mean cv^2 m.
  const double rate1 = 2.0 / m;
  const double q = 1.0 / (2.0 * cv2);
  const double rate2 = q * rate1;
  return make_fit(
      data, "phase-type (Coxian-2)",
      fmt::format("phase 1 of mean {}, then with probability {} phase 2 of mean {} (two-moment fit)",
                  number(1.0 / rate1), number(q), number(1.0 / rate2)),
      fmt::format("PHASETYPE([1, 0], [[{}, {}], [0, {}]])", number(-rate1), number(q * rate1), number(-rate2)),
      d::phase_type({1.0, 0.0}, {{-rate1, q * rate1}, {0.0, -rate2}}));
}

// A probability and its complement as PDL text that adds up to 1: the complement of the
// printed (rounded) probability, printed exactly.
std::pair<std::string, std::string> probabilities(double p) {
  const std::string first = number(p);
  return {first, fmt::format("{:.12g}", 1.0 - std::stod(first))};
}

}  // namespace

std::string number(double value) { return fmt::format("{:.6g}", value); }

double ks_distance(const std::vector<double>& values, const std::vector<double>& weights,
                   const distributions::Distribution& distribution) {
  return ks(prepare(values, weights), distribution);
}

// ---- the skewed laws by maximum likelihood (their mean is the fitted law's, not the data's) ----

// ln X normal: mu and sigma the (weighted) mean and standard deviation of ln x.
std::optional<Fit> lognormal_fit(const Data& data, std::vector<Skipped>& skipped) {
  double mu = 0.0, second = 0.0;
  for (const auto& [x, w] : data.sorted) mu += w * std::log(x) / data.total;
  for (const auto& [x, w] : data.sorted) second += w * (std::log(x) - mu) * (std::log(x) - mu) / data.total;
  const double sigma = std::sqrt(second);
  if (!(sigma > 0.0 && sigma <= 4.0)) {
    skipped.push_back({"lognormal", fmt::format("sigma {} outside LOGNORMAL's (0, 4]", number(sigma))});
    return std::nullopt;
  }
  return make_fit(data, "lognormal",
                  fmt::format("maximum likelihood: ln x of mean {} and sd {}", number(mu), number(sigma)),
                  fmt::format("LOGNORMAL({}, {})", number(std::exp(mu)), number(sigma)), d::lognormal(mu, sigma));
}

// The shape k solves sum w x^k ln x / sum w x^k - 1/k = mean of ln x (increasing in k), the
// values divided by the largest so that x^k cannot overflow; the scale (sum w x^k / W)^(1/k).
std::optional<Fit> weibull_fit(const Data& data, std::vector<Skipped>& skipped) {
  const double largest = data.sorted.back().first;
  double mean_log = 0.0;
  for (const auto& [x, w] : data.sorted) mean_log += w * std::log(x / largest) / data.total;
  const auto moments = [&](double k) {
    double power = 0.0, weighted_log = 0.0;
    for (const auto& [x, w] : data.sorted) {
      const double y = std::pow(x / largest, k);
      power += w * y;
      weighted_log += w * y * std::log(x / largest);
    }
    return std::make_pair(power, weighted_log);
  };
  const auto score = [&](double k) {
    const auto [power, weighted_log] = moments(k);
    return weighted_log / power - 1.0 / k - mean_log;
  };
  if (score(0.1) > 0.0 || score(1000.0) < 0.0) {
    skipped.push_back({"Weibull", "the likelihood's shape lies outside WEIBULL's [0.1, 1000]"});
    return std::nullopt;
  }
  double low = 0.1, high = 1000.0;
  for (int i = 0; i < 200 && high - low > 1e-12 * high; ++i)
    (score(0.5 * (low + high)) < 0.0 ? low : high) = 0.5 * (low + high);
  const double k = 0.5 * (low + high);
  const double scale = largest * std::pow(moments(k).first / data.total, 1.0 / k);
  return make_fit(data, "Weibull", fmt::format("maximum likelihood: shape {}, scale {}", number(k), number(scale)),
                  fmt::format("WEIBULL({}, {})", number(k), number(scale)), d::weibull(k, scale));
}

// The least value as the scale, alpha = W / sum w ln(x / scale); alpha <= 2 has no finite
// variance and is not offered.
std::optional<Fit> pareto_fit(const Data& data, std::vector<Skipped>& skipped) {
  const double least = data.sorted.front().first;
  double logs = 0.0;
  for (const auto& [x, w] : data.sorted) logs += w * std::log(x / least);
  const double alpha = data.total / logs;
  if (!(alpha > 2.0 && alpha <= 1000.0)) {
    skipped.push_back({"Pareto", fmt::format("alpha {} outside PARETO's (2, 1000]", number(alpha))});
    return std::nullopt;
  }
  return make_fit(data, "Pareto",
                  fmt::format("maximum likelihood: scale {} (the least value), alpha {}", number(least), number(alpha)),
                  fmt::format("PARETO({}, {})", number(alpha), number(least)), d::pareto(alpha, least));
}

Fits fit_all(const std::vector<double>& values, const std::vector<double>& weights) {
  const Data data = prepare(values, weights);
  Fits out;
  if (data.summary.variance <= 0.0 || data.summary.mean <= 0.0) {
    out.fits.push_back(make_fit(data, "deterministic", "every value is the same",
                                fmt::format("DETERMINISTIC({})", number(data.summary.mean)),
                                d::deterministic(data.summary.mean)));
    out.skipped.push_back({"Erlang, general Erlang, hyperexponential, phase-type, lognormal, Weibull, Pareto",
                           "the data has no variation"});
    return out;
  }
  if (!std::isfinite(data.summary.mean) || !std::isfinite(data.summary.variance)) {
    out.skipped.push_back({"Erlang, general Erlang, hyperexponential, phase-type, lognormal, Weibull, Pareto",
                           "the values are so large that their mean or variance overflows a double"});
    return out;
  }
  out.fits.push_back(erlang_fit(data));
  if (auto fit = general_erlang_fit(data, out.skipped)) out.fits.push_back(std::move(*fit));
  if (auto fit = hyperexponential_fit(data, out.skipped)) out.fits.push_back(std::move(*fit));
  if (auto fit = phase_type_fit(data, out.skipped)) out.fits.push_back(std::move(*fit));
  // The skewed laws take the logarithm of every value: data with a 0 has none.
  if (data.sorted.front().first > 0.0) {
    for (const auto skewed : {lognormal_fit, weibull_fit, pareto_fit}) {
      if (auto fit = skewed(data, out.skipped)) out.fits.push_back(std::move(*fit));
    }
  } else {
    for (const char* family : {"lognormal", "Weibull", "Pareto"}) {
      out.skipped.push_back({family, "a runtime of 0 has no logarithm"});
    }
  }
  for (auto it = out.fits.begin(); it != out.fits.end();) {
    if (!std::isnan(it->ks)) {
      ++it;
      continue;
    }
    out.skipped.push_back({it->family, "its cdf cannot be evaluated at the data: " + it->detail});
    it = out.fits.erase(it);
  }
  std::stable_sort(out.fits.begin(), out.fits.end(), better);
  return out;
}

}  // namespace fitting
