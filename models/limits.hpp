// The ranges every number of a bound model lies in (docs/distributions.md, "Parameter ranges";
// docs/machine.md; docs/pdl.md). They keep every method's arithmetic finite and meaningful:
// a time of 1e100 summed over 9e15 tasks (kLargestCount, the largest count of one phase)
// stays below 1e116, its square (a variance) below 1e232, and a rate of 1/1e-100 times a time of
// 1e100 is 1e200; a time of 1e-100 squared is 1e-200, still a normal double (subnormals
// start at 2.2e-308 and lose precision). Outside them the tool refuses the input, at its place
// in the file, rather than print inf, NaN or a bound that is wrong.
#pragma once

namespace models {

// Every runtime value, mean, time parameter and machine cost, in the program's time unit
// (after RTFactor): 0 where a value may be 0, else in [kSmallestTime, kLargestTime].
inline constexpr double kLargestTime = 1e100;
inline constexpr double kSmallestTime = 1e-100;
// Every other magnitude that is not a probability: byte counts (SIZEOF, volumes, L), the
// RTFactor, histogram weights and phase-type rates lie in [kSmallestMagnitude,
// kLargestMagnitude] (or are 0 where 0 is allowed).
inline constexpr double kLargestMagnitude = 1e100;
inline constexpr double kSmallestMagnitude = 1e-100;
// The stage means of a GERLANG, and the diagonal rates of a PHASETYPE, differ by at most this
// factor: beyond about 1e16 the stages' cdf (uniformisation over rates that differ by more
// than the precision of a double) fails to bracket its quantiles.
inline constexpr double kLargestStageRatio = 1e12;
// NORMAL(mu, sigma): mu/sigma at most this (the spread must be above 1e-12 of the location:
// below, positions on any grid fine enough for the spread are beyond 2^53 steps) and at least
// kSmallestNormalRatio (the library's limit: further below 0, the truncated law's moments
// are asymptotic series).
inline constexpr double kLargestNormalRatio = 1e12;
inline constexpr double kSmallestNormalRatio = -1e6;
// The largest count (tasks, iterations, jobs, units, repetitions): exactly representable in a
// double with room (2^53 is 9.007e15).
inline constexpr double kLargestCount = 9e15;
// The most ports per processor and direction a machine may give (PORTS IS k;).
inline constexpr double kMostPorts = 1024;

}  // namespace models
