#!/usr/bin/env python3
"""A Monte Carlo of the neighbour example's exact model in numpy, vectorised over processors and
samples: the peer of the command's Monte Carlo figure in docs/performance.md, and a check of its
mean written from docs/semantics.md alone (G6 BLOCK placement, N1 each processor runs its block
left to right, C4 column c waits for columns c-1, c, c+1 of the previous iteration; the ideal
machine's messages cost nothing).

    bench/numpy_peer.py [--columns 1000] [--iterations 100] [--p 64] [--samples 2000] [--seed 1]

Prints the mean with its 95% half-width, the seconds the simulation took and its rate in
task-samples per second.
"""
import argparse
import time

import numpy as np


def block_sizes(columns, p):
    """G6: the first r processors take q + 1 columns, the others q (none beyond the columns)."""
    q, r = divmod(columns, p)
    return np.array([q + 1] * r + [q] * (p - r))


def makespans(columns, iterations, p, samples, seed, phases=8):
    """One makespan per sample: every task ERLANG(phases, 1), mean `phases`."""
    rng = np.random.default_rng(seed)
    sizes = block_sizes(columns, p)
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    lasts = starts + sizes - 1
    busy = sizes > 0
    # previous[c + 1]: column c's finish in the previous iteration; 0 beyond the borders (every
    # finish is >= 0, so a 0 never decides a maximum).
    previous = np.zeros((columns + 2, samples))
    for _ in range(iterations):
        current = np.zeros_like(previous)
        # Each processor's last finish: its last column of the previous iteration.
        processor = previous[lasts[busy] + 1].copy()
        for j in range(sizes.max()):
            active = sizes[busy] > j
            columns_now = starts[busy][active] + j
            ready = np.maximum(processor[active], previous[columns_now + 1])
            ready = np.maximum(ready, previous[columns_now])
            ready = np.maximum(ready, previous[columns_now + 2])
            finish = ready + rng.standard_gamma(phases, size=ready.shape)
            current[columns_now + 1] = finish
            processor[active] = finish
        previous = current
    return previous.max(axis=0)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--columns", type=int, default=1000)
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--p", type=int, default=64)
    parser.add_argument("--samples", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args()
    begin = time.perf_counter()
    times = makespans(arguments.columns, arguments.iterations, arguments.p, arguments.samples, arguments.seed)
    seconds = time.perf_counter() - begin
    half_width = 1.959963984540054 * times.std(ddof=1) / np.sqrt(times.size)
    task_samples = arguments.columns * arguments.iterations * arguments.samples
    print(f"mean {times.mean():.3f} ± {half_width:.3f}  {seconds:.2f} s  {task_samples / seconds / 1e6:.1f} M task-samples/s")


if __name__ == "__main__":
    main()
