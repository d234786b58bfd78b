// Fuzzes the whole front end: any bytes, as a program and as a machine file, through the
// parser, the checker, binding and the dump. Nothing may crash, hang or read out of bounds.
#include "models/bind.hpp"
#include "models/dump.hpp"
#include "pdl/check.hpp"
#include "pdl/parse.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  const pdl::MachineParseResult machine_parsed = pdl::parse_machine(text, "fuzz.machine");
  models::Machine machine = models::ideal_machine();
  if (machine_parsed.ast) {
    const pdl::MachineCheckResult checked = pdl::check_machine(*machine_parsed.ast, machine_parsed.source);
    (void)pdl::format(checked.diagnostics);
    if (checked.machine) {
      machine = *checked.machine;
      (void)models::dump(machine);
    }
  }

  const pdl::ParseResult parsed = pdl::parse(text, "fuzz.pdl");
  (void)pdl::format(parsed.diagnostics);
  if (!parsed.ast) return 0;
  // NUMERICAL files are not read: a fuzzed name could be a FIFO or a device. The data-file
  // parser has its own target, measurements_fuzz.
  pdl::CheckOptions options;
  options.read_measurements = false;
  const pdl::CheckResult checked = pdl::check(*parsed.ast, parsed.source, options);
  (void)pdl::format(checked.diagnostics);
  if (!checked.program) return 0;
  const models::Binding binding = models::bind(*checked.program, machine, {});
  if (binding.ok()) (void)models::dump(*checked.program, machine, binding.environment, {});
  return 0;
}
