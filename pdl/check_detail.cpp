#include "pdl/check_detail.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace pdl::detail {

std::string lower(std::string text) {
  for (char& c : text) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  return text;
}

std::string upper(std::string text) {
  for (char& c : text) c = (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
  return text;
}

namespace {

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string suggestion(const std::string& name, const std::set<std::string>& names) {
  std::string best;
  // Only close misspellings: at most a third of the letters wrong (a 2-letter name, none).
  std::size_t best_distance = std::max<std::size_t>(1, name.size() / 3) + 1;
  for (const std::string& candidate : names) {
    const std::size_t d = edit_distance(lower(name), lower(candidate));
    if (d < best_distance) {
      best_distance = d;
      best = candidate;
    }
  }
  return best.empty() ? std::string() : fmt::format(" (did you mean '{}'?)", best);
}

class Converter {
 public:
  Converter(const Scope& scope, Reporter& reporter, const std::map<std::string, double>* sizes)
      : scope_(scope), reporter_(reporter), sizes_(sizes) {}

  models::Expr sum(const ast::Sum& node) {
    models::Expr result = product(node.first);
    for (const ast::SumOp& op : node.rest) {
      models::Expr operand = product(op.operand);
      result = op.op == '-' ? models::Expr::subtract(std::move(result), std::move(operand))
                            : models::Expr::add(std::move(result), std::move(operand));
    }
    return result;
  }

 private:
  models::Expr product(const ast::Product& node) {
    models::Expr result = unary(node.first);
    for (const ast::ProductOp& op : node.rest) {
      models::Expr operand = unary(op.operand);
      result = op.op == '/' ? models::Expr::divide(std::move(result), std::move(operand))
                            : models::Expr::multiply(std::move(result), std::move(operand));
    }
    return result;
  }

  static models::Expr apply_signs(const std::string& signs, models::Expr operand) {
    const auto minus = std::count(signs.begin(), signs.end(), '-');
    return minus % 2 == 1 ? models::Expr::negate(std::move(operand)) : operand;
  }

  models::Expr unary(const ast::Unary& node) { return apply_signs(node.signs, power(node.operand)); }

  models::Expr power(const ast::Power& node) {
    models::Expr base = primary(node.base);
    if (node.exponents.empty()) return base;
    models::Expr result;
    result.kind = models::Expr::Kind::Power;
    result.operands.push_back(std::move(base));
    result.ops.assign(1, '^');
    for (const ast::Signed& exponent : node.exponents) {
      result.operands.push_back(apply_signs(exponent.signs, primary(exponent.operand)));
      result.ops += '^';
    }
    return result;
  }

  models::Expr primary(const ast::Primary& node) {
    struct Visitor {
      Converter& self;
      models::Expr operator()(const ast::Number& n) const {
        if (!std::isfinite(n.value)) self.reporter_.error(n, "number out of range: it is not finite");
        return models::Expr::constant(n.value);
      }
      models::Expr operator()(const ast::SizeOf& s) const {
        const std::string type = upper(s.type);
        if (self.sizes_ != nullptr && self.sizes_->count(type) == 0) {
          std::string known;
          for (const auto& entry : *self.sizes_) {
            if (!known.empty()) known += ", ";
            known += entry.first;
          }
          self.reporter_.error(s, fmt::format("unknown type in SIZEOF({}): the machine defines {}", s.type, known));
        }
        return models::Expr::size_of(type);
      }
      models::Expr operator()(const ast::Identifier& id) const {
        const std::string name = canonical_name(id.name);
        if (self.scope_.names.count(name) == 0) {
          self.reporter_.error(
              id, fmt::format("unbound variable '{}'{}{}{}", id.name, self.scope_.context.empty() ? "" : " ",
                              self.scope_.context, suggestion(id.name, self.scope_.names)));
        }
        return models::Expr::identifier(name);
      }
      models::Expr operator()(const ast::Call& call) const {
        const std::string function = lower(call.function.name);
        const models::FunctionInfo* info = models::find_function(function);
        if (info == nullptr) {
          self.reporter_.error(call.function, fmt::format("unknown function '{}': the functions are {}",
                                                          call.function.name, models::function_names()));
        } else {
          const int n = static_cast<int>(call.args.size());
          if (n < info->min_arguments || (info->max_arguments >= 0 && n > info->max_arguments)) {
            self.reporter_.error(call.function,
                                 fmt::format("{} takes {} argument{}, got {}", function,
                                             info->max_arguments < 0 ? fmt::format("at least {}", info->min_arguments)
                                                                     : fmt::format("{}", info->min_arguments),
                                             info->min_arguments == 1 && info->max_arguments == 1 ? "" : "s", n));
          }
        }
        std::vector<models::Expr> args;
        for (const ast::Expression& arg : call.args) args.push_back(self.sum(arg));
        return models::Expr::call(function, std::move(args));
      }
      models::Expr operator()(const ast::Sum& inner) const { return self.sum(inner); }
    };
    return boost::apply_visitor(Visitor{*this}, node);
  }

  const Scope& scope_;
  Reporter& reporter_;
  const std::map<std::string, double>* sizes_;
};

}  // namespace

std::string canonical_name(const std::string& name) {
  return lower(name) == "rtfactor" ? std::string("RTFactor") : name;
}

models::Expr convert(const ast::Expression& expression, const Scope& scope, Reporter& reporter,
                     const std::map<std::string, double>* sizes) {
  return Converter(scope, reporter, sizes).sum(expression);
}

std::optional<double> constant_value(const models::Expr& expr, const models::Environment& environment,
                                     const boost::spirit::x3::position_tagged& node, Reporter& reporter) {
  const models::Evaluation value = models::evaluate(expr, environment);
  if (value.ok()) return value.value;
  if (value.unbound.empty()) reporter.error(node, value.error);
  return std::nullopt;
}

}  // namespace pdl::detail
