#!/usr/bin/env python3
"""SimGrid as an independent oracle of the exact model (docs/machine.md, "Checked against
SimGrid"): a program of tests/simgrid on tests/simgrid/private-links.machine, simulated in SimGrid
from the rules of docs/semantics.md alone and compared with `pdl-scale` at each p.

    oracle.py PDL_SCALE --program stencil|fork-join [--p 1,2,...] [--units N] [--steps I]
              [--work W] [--volume V] [--join D]
        deterministic tasks of W: the exact model's mean (`--method exact`) to 1e-9
    oracle.py PDL_SCALE ... --phases K [--replications R] [--samples N]
        ERLANG(K) tasks of mean W: the tool's Monte Carlo against R SimGrid replications, within
        4 combined standard errors
    oracle.py ... --rendezvous
        on rendezvous-links.machine (EAGER LIMIT IS 0): every transfer waits for its receive,
        which SimGrid posts where the program needs it (a blocking get), in the tool's order
    oracle.py ... --switched [--fair]
        on examples/machines/switched-cluster.machine (one port per processor, M12; with
        --rendezvous its rendezvous twin; with --fair switched-cluster-fair.machine, fair sharing,
        M13): in SimGrid a split-duplex link per host to one switch
    oracle.py --program fork-join ... --release BYTES
        the fork-join's release messages (F7): processor 0 sends BYTES to every other processor
        with tasks to start each job, in processor order
    oracle.py ... --tolerance R
        accept a relative difference up to R (where the tool and SimGrid differ by design)
    oracle.py --simulate PROGRAM P UNITS STEPS WORK VOLUME JOIN PHASES REPLICATIONS RENDEZVOUS
                         SWITCHED RELEASE
        one simulation: the mean makespan and its standard error

The programs (one SimGrid actor per processor with units; o = 0, so a receive only waits):
- **stencil** (stencil.pdl, stencil_erlang.pdl; rules G6, N1-N3, C4, M4-M7): UNITS columns,
  STEPS iterations. Processor k runs its BLOCK columns lo_k..hi_k left to right every iteration.
  Column lo_k of iteration i > 0 waits for column lo_k - 1 of iteration i - 1 (on k - 1), column
  hi_k for hi_k + 1 (on k + 1): a message of V bytes sent as soon as its column is done. The last
  iteration's boundaries are exchanged too (N3).
- **fork-join** (fork_join.pdl, fork_join_erlang.pdl; rules G6, F1, F2, F4, M4-M7): STEPS jobs
  of UNITS tasks, released back to back (no interarrival time). Processor k runs its BLOCK tasks
  of the job; each k >= 1 then sends c_k * V bytes to processor 0, which after its own tasks
  waits for every result and runs the drain (JOIN). The next job starts when the drain ends, on
  every processor, with no message (F4): a SimGrid barrier; with --release, processor 0 then
  sends each other processor its release, which it receives before its tasks (F7).

Every receive is posted at the start (eager: a transfer never waits for its receiver), and each
ordered pair of processors that exchange messages has a link of its own (latency t_s, bandwidth
1/t_w, SimGrid's CM02 model with its factors at 1: latency + size / bandwidth exactly), so that
no message shares anything, as the machine's FULLY CONNECTED S = 1 says. The makespan is when
the last task or transfer ends. Time units are the tool's (microseconds as SimGrid seconds).
Replications run one after the other, all processors starting each together (a barrier), each
processor drawing from its own stream. SimGrid runs once per process (its engine is a
singleton): each p is a child process.
"""
import argparse
import csv
import io
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
Z95 = 1.959963984540054
TS, TW = 50.0, 0.01  # tests/simgrid/private-links.machine


def block_counts(units, p):
    """docs/semantics.md G6: the units of each processor with any (the first r take q + 1)."""
    q, r = divmod(units, p)
    return [q + 1 if k < r else q for k in range(min(p, units))]


def platform_xml(processors, pairs, latency, bandwidth):
    """Hosts h0.. and a link of its own for each ordered pair (a, b) of `pairs`."""
    lines = ['<?xml version="1.0"?>', '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">',
             '<platform version="4.1">', '<zone id="machine" routing="Full">']
    lines += [f'  <host id="h{k}" speed="1f"/>' for k in range(processors)]
    for a, b in pairs:
        lines.append(f'  <link id="l{a}_{b}" bandwidth="{bandwidth!r}Bps" latency="{latency!r}s"/>')
    for a, b in pairs:
        lines.append(f'  <route src="h{a}" dst="h{b}" symmetrical="NO"><link_ctn id="l{a}_{b}"/></route>')
    lines += ['</zone>', '</platform>']
    return "\n".join(lines) + "\n"


def switched_platform_xml(processors, pairs, latency, bandwidth):
    """Hosts h0.. on one switch, each with one split-duplex link (UP out of it, DOWN into it) of
    half the latency each way: a message from a to b crosses a's UP and b's DOWN, sharing them
    max-min with the other messages in flight there."""
    lines = ['<?xml version="1.0"?>', '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">',
             '<platform version="4.1">', '<zone id="machine" routing="Full">']
    lines += [f'  <host id="h{k}" speed="1f"/>' for k in range(processors)]
    lines += [f'  <link id="l{k}" bandwidth="{bandwidth!r}Bps" latency="{latency / 2.0!r}s" '
              'sharing_policy="SPLITDUPLEX"/>' for k in range(processors)]
    for a, b in pairs:
        lines.append(f'  <route src="h{a}" dst="h{b}" symmetrical="NO"><link_ctn id="l{a}" direction="UP"/>'
                     f'<link_ctn id="l{b}" direction="DOWN"/></route>')
    lines += ['</zone>', '</platform>']
    return "\n".join(lines) + "\n"


class Receives:
    """A processor's receives: eager, all posted at the start (each (comm, data) pair kept whole:
    the data holder must outlive its comm) and waited for where needed; rendezvous, each posted
    where it is needed and waited for there (a blocking get)."""

    def __init__(self, box, keys, rendezvous):
        self.box, self.rendezvous = box, rendezvous
        self.posted = {} if rendezvous else {key: box(*key).get_async() for key in keys}

    def take(self, sender, receiver, step):
        if self.rendezvous:
            self.box(sender, receiver, step).get()
        else:
            self.posted[(sender, receiver, step)][0].wait()


class Stencil:
    def __init__(self, counts, steps, volume):
        self.counts, self.steps, self.volume = counts, steps, volume
        self.starts = [sum(counts[:k]) for k in range(len(counts))]

    def pairs(self):
        n = len(self.counts)
        return [(k, k + 1) for k in range(n - 1)] + [(k + 1, k) for k in range(n - 1)]

    def run(self, k, box, draw, sleep, barrier, wait_all, rendezvous):
        n = len(self.counts)
        lo, hi = self.starts[k], self.starts[k] + self.counts[k] - 1
        neighbours = [m for m in (k - 1, k + 1) if 0 <= m < n]
        receives = Receives(box, [(m, k, i) for m in neighbours for i in range(self.steps)], rendezvous)
        sends = []
        for i in range(self.steps):
            for column in range(lo, hi + 1):
                if i > 0 and column == lo and k > 0:
                    receives.take(k - 1, k, i - 1)
                if i > 0 and column == hi and k + 1 < n:
                    receives.take(k + 1, k, i - 1)
                sleep(draw())
                if column == lo and k > 0:
                    sends.append(box(k, k - 1, i).put_async(column, int(self.volume)))
                if column == hi and k + 1 < n:
                    sends.append(box(k, k + 1, i).put_async(column, int(self.volume)))
        for m in neighbours:  # the last iteration's boundaries (N3)
            receives.take(m, k, self.steps - 1)
        wait_all(sends)


class ForkJoin:
    def __init__(self, counts, steps, volume, join, release=0.0):
        self.counts, self.steps, self.volume, self.join, self.release = counts, steps, volume, join, release

    def pairs(self):
        n = len(self.counts)
        return [(k, 0) for k in range(1, n)] + ([(0, k) for k in range(1, n)] if self.release > 0 else [])

    def run(self, k, box, draw, sleep, barrier, wait_all, rendezvous):
        n = len(self.counts)
        keys = [(m, 0, j) for m in range(1, n) for j in range(self.steps)] if k == 0 else []
        if self.release > 0 and k > 0:
            keys += [(0, k, f"release{j}") for j in range(self.steps)]
        receives = Receives(box, keys, rendezvous)
        sends = []
        for j in range(self.steps):
            if j > 0:
                barrier.wait()  # job j starts when drain j - 1 ends (F1, F4)
            if self.release > 0 and k == 0:  # F7: the releases in processor order
                sends += [box(0, m, f"release{j}").put_async(j, int(self.release)) for m in range(1, n)]
            elif self.release > 0:
                receives.take(0, k, f"release{j}")
            for _ in range(self.counts[k]):
                sleep(draw())
            if k > 0:
                sends.append(box(k, 0, j).put_async(j, int(self.counts[k] * self.volume)))
                continue
            for m in range(1, n):  # F2: the results in processor order, then the drain
                receives.take(m, 0, j)
            sleep(self.join)
        wait_all(sends)


def simulate(program, p, units, steps, work, volume, join, phases=0, replications=1, rendezvous=False, switched=False,
             release=0.0, seed=1):
    """The makespans SimGrid gives, one per replication."""
    from simgrid import Actor, Barrier, Comm, Engine, Mailbox, this_actor

    counts = block_counts(units, p)
    shape = Stencil(counts, steps, volume) if program == "stencil" else ForkJoin(counts, steps, volume, join, release)
    processors = len(counts)
    with tempfile.NamedTemporaryFile("w", suffix=".xml", delete=False) as f:
        layout = switched_platform_xml if switched else platform_xml
        f.write(layout(processors, shape.pairs(), TS, 1.0 / TW))
        platform = f.name
    engine = Engine(["oracle", "--cfg=network/model:CM02", "--cfg=network/latency-factor:1",
                     "--cfg=network/bandwidth-factor:1", "--cfg=network/crosstraffic:0",
                     "--log=root.thres:critical"])
    engine.load_platform(platform)
    os.unlink(platform)
    barrier = Barrier(processors)
    starts = [0.0] * replications
    finishes = [0.0] * replications

    def processor(k):
        stream = random.Random(seed * 1_000_003 + k)
        draw = (lambda: stream.gammavariate(phases, work / phases)) if phases > 0 else (lambda: work)
        for replication in range(replications):
            barrier.wait()
            starts[replication] = engine.clock

            def box(sender, receiver, step):
                return Mailbox.by_name(f"{sender}>{receiver}@{replication}.{step}")

            shape.run(k, box, draw, this_actor.sleep_for, barrier, Comm.wait_all, rendezvous)
            finishes[replication] = max(finishes[replication], engine.clock)

    for k in range(processors):
        Actor.create(f"p{k}", engine.host_by_name(f"h{k}"), processor, k)
    engine.run()
    return [finish - start for start, finish in zip(starts, finishes)]


def run(command):
    """A command's standard output; its standard error on failure."""
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr}")
    return done.stdout


def exact_figure(command):
    """The exact model's mean that `pdl-scale ... --method exact --format csv` prints."""
    out = run(command)
    for row in csv.DictReader(io.StringIO(out)):
        if row["method"] == "exact" and row["estimate_us"] not in ("", "-"):
            return float(row["estimate_us"])
    raise SystemExit(f"no exact figure from {' '.join(command)} in:\n{out}")


def compare_deterministic(processors, tool_of, simgrid_of, not_slower=False, tolerance=None):
    """The tool against SimGrid at each p of `processors` (tool_of(p), simgrid_of(p)): a table,
    then `ok`, or an exit naming the p where the tool is slower (not_slower) or further than
    `tolerance`, relative, from SimGrid."""
    failures = []
    print(f"{'p':>6} {'tool':>14} {'SimGrid':>14} {'difference':>12}")
    for p in processors:
        tool, simgrid = tool_of(p), simgrid_of(p)
        difference = (tool - simgrid) / simgrid
        print(f"{p:>6} {tool:>14.6f} {simgrid:>14.6f} {difference:>12.2e}", flush=True)
        if (not_slower and tool > simgrid * (1 + 1e-9)) or (tolerance is not None and abs(difference) > tolerance):
            failures.append(p)
    if failures:
        raise SystemExit(f"the tool and SimGrid part at p = {failures}")
    print("ok")


def tool_figure(binary, arguments, p):
    """The tool's mean and its standard error: the exact model's (deterministic tasks) or its
    Monte Carlo's (Erlang tasks)."""
    stochastic = arguments.phases > 0
    name = {"stencil": "stencil", "fork-join": "fork_join"}[arguments.program]
    program = os.path.join(HERE, f"{name}_erlang.pdl" if stochastic else f"{name}.pdl")
    units, steps = ("columns", "iterations") if arguments.program == "stencil" else ("tasks", "jobs")
    if arguments.switched:
        machine = os.path.join(HERE, "..", "..", "examples", "machines",
                               "switched-cluster-rendezvous.machine" if arguments.rendezvous
                               else "switched-cluster-fair.machine" if arguments.fair
                               else "switched-cluster.machine")
    else:
        machine = os.path.join(HERE, "rendezvous-links.machine" if arguments.rendezvous else "private-links.machine")
    command = [binary, program, "--machine", machine,
               "--p", str(p), "--format", "csv", "--quiet",
               "--set", f"{units}={arguments.units}", "--set", f"{steps}={arguments.steps}",
               "--set", f"work={arguments.work!r}", "--set", f"volume={arguments.volume!r}"]
    if arguments.program == "fork-join":
        command += ["--set", f"join={arguments.join!r}", "--set", f"release={arguments.release!r}"]
    if stochastic:
        command += ["--set", f"phases={arguments.phases}", "--method", "mc", "--samples", str(arguments.samples),
                    "--seed", "7"]
    else:
        command += ["--method", "exact"]
    return csv_figure(subprocess.run(command, check=True, capture_output=True, text=True).stdout, p)


def csv_figure(out, p, methods=("exact", "mc")):
    """The first row of `methods` at p in `pdl-scale ... --format csv` output: its estimate and
    standard error (a 95% interval's half width over 1.96; 0 for an exact figure)."""
    for row in csv.DictReader(io.StringIO(out)):
        if row["method"] in methods and int(row["p"]) == p:
            half_width = (float(row["upper_us"]) - float(row["lower_us"])) / 2.0
            return float(row["estimate_us"]), half_width / Z95
    raise SystemExit(f"no {' or '.join(methods)} row for p = {p} in:\n{out}")


def simgrid_figure(arguments, p):
    """SimGrid's mean over its replications and its standard error (0 when deterministic)."""
    replications = arguments.replications if arguments.phases > 0 else 1
    child = [sys.executable, os.path.abspath(__file__), "--simulate", arguments.program, str(p), str(arguments.units),
             str(arguments.steps), repr(arguments.work), repr(arguments.volume), repr(arguments.join),
             str(arguments.phases), str(replications), str(int(arguments.rendezvous)), str(int(arguments.switched)),
             repr(arguments.release)]
    mean, error = subprocess.run(child, check=True, capture_output=True, text=True).stdout.split()[-2:]
    return float(mean), float(error)


def simulate_command(argv):
    program, (p, units, steps) = argv[0], (int(x) for x in argv[1:4])
    work, volume, join = (float(x) for x in argv[4:7])
    times = simulate(program, p, units, steps, work, volume, join, int(argv[7]), int(argv[8]), argv[9] == "1",
                     argv[10] == "1", float(argv[11]))
    error = statistics.stdev(times) / math.sqrt(len(times)) if len(times) > 1 else 0.0
    print(repr(statistics.fmean(times)), repr(error))


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--simulate":
        simulate_command(sys.argv[2:])
        return
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--program", choices=["stencil", "fork-join"], default="stencil")
    parser.add_argument("--p", default="1,2,3,4,8,16,64,256,1024")
    parser.add_argument("--units", type=int, default=2048, help="columns, or tasks per job")
    parser.add_argument("--steps", type=int, default=4, help="iterations, or jobs")
    parser.add_argument("--work", type=float, default=10.0)
    parser.add_argument("--volume", type=float, default=800.0)
    parser.add_argument("--join", type=float, default=5.0, help="the fork-join's drain")
    parser.add_argument("--phases", type=int, default=0, help="0: deterministic tasks; k: ERLANG(k)")
    parser.add_argument("--replications", type=int, default=400, help="SimGrid's, with --phases")
    parser.add_argument("--samples", type=int, default=100000, help="the tool's Monte Carlo, with --phases")
    parser.add_argument("--rendezvous", action="store_true",
                        help="every message waits for its receive: rendezvous-links.machine, receives posted where needed")
    parser.add_argument("--fair", action="store_true",
                        help="with --switched: the tool on switched-cluster-fair.machine (max-min sharing, M13)")
    parser.add_argument("--switched", action="store_true",
                        help="one port per processor: examples/machines/switched-cluster.machine, in SimGrid a "
                             "split-duplex link per host to one switch")
    parser.add_argument("--release", type=float, default=0.0,
                        help="the fork-join's RELEASE VOLUME: bytes processor 0 sends each other one to start a job")
    parser.add_argument("--tolerance", type=float, default=1e-9,
                        help="the relative difference allowed (random tasks: also any within 4 standard errors)")
    arguments = parser.parse_args()
    failures = []
    print(f"{'p':>6} {'tool':>14} {'SimGrid':>14} {'difference':>12} {'in errors':>10}")
    for p in (int(x) for x in arguments.p.split(",")):
        tool, tool_error = tool_figure(arguments.binary, arguments, p)
        simgrid, simgrid_error = simgrid_figure(arguments, p)
        difference = (tool - simgrid) / simgrid
        error = math.hypot(tool_error, simgrid_error)
        in_errors = abs(tool - simgrid) / error if error > 0.0 else 0.0
        print(f"{p:>6} {tool:>14.6f} {simgrid:>14.6f} {difference:>12.2e} {in_errors:>10.2f}")
        # Deterministic: the same up to round-off; random: within 4 combined standard errors.
        if abs(difference) > arguments.tolerance and (error == 0.0 or in_errors > 4.0):
            failures.append(p)
    if failures:
        raise SystemExit(f"the tool and SimGrid differ at p = {failures}")
    print("ok")


if __name__ == "__main__":
    main()
