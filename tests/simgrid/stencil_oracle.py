#!/usr/bin/env python3
"""SimGrid as an independent oracle of the exact model: tests/simgrid/stencil.pdl (a 1-D stencil
of deterministic tasks) or stencil_erlang.pdl (Erlang tasks) on
tests/simgrid/private-links.machine, simulated in SimGrid from the rules of docs/semantics.md
and compared with `pdl-scale --method exact` (or `mc`) at each p (docs/machine.md, "Checked
against SimGrid").

    stencil_oracle.py PDL_SCALE [--p 1,2,...] [--columns N] [--iterations I]   the comparison
    stencil_oracle.py PDL_SCALE ... --phases K [--replications R] [--samples N]  Erlang tasks: the
        tool's Monte Carlo against R SimGrid replications, within 4 combined standard errors
    stencil_oracle.py --simulate P COLUMNS ITERATIONS WORK VOLUME TS TW PHASES REPLICATIONS

What SimGrid runs (one actor per processor, rules G6, N1, N2, N3, C4, M4-M7 with o = 0):
processor k holds the BLOCK columns lo_k..hi_k (the first r processors take q + 1) and runs them
left to right in every iteration, each column a sleep of WORK. Column lo_k of iteration i > 0
waits for column lo_k - 1 of iteration i - 1 (on processor k - 1), column hi_k for hi_k + 1 (on
k + 1): one message of VOLUME bytes, sent as soon as the sender's column is done (eager: every
receive is posted at the start, so a transfer never waits for its receiver), whose transfer
takes TS + TW * VOLUME on a link of its own (the machine's FULLY CONNECTED network shares
nothing). The last iteration's boundaries are exchanged too (N3), and the makespan is when the
last column or transfer ends. Time units are the tool's (microseconds as SimGrid seconds).

SimGrid's CM02 network model with its bandwidth and latency factors at 1 prices a transfer at
latency + size / bandwidth exactly; a private link per ordered pair of neighbours gives S = 1.
SimGrid runs once per process (its engine is a singleton): each p is a child process.
"""
import argparse
import csv
import io
import math
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
Z95 = 1.959963984540054


def blocks(columns, p):
    """docs/semantics.md G6: (lo, hi) of each processor with columns."""
    q, r = divmod(columns, p)
    result, lo = [], 0
    for k in range(min(p, columns)):
        size = q + 1 if k < r else q
        result.append((lo, lo + size - 1))
        lo += size
    return result


def platform_xml(processors, latency, bandwidth):
    """Hosts h0.. and a private link for each ordered pair of neighbouring processors."""
    lines = ['<?xml version="1.0"?>', '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">',
             '<platform version="4.1">', '<zone id="machine" routing="Full">']
    lines += [f'  <host id="h{k}" speed="1f"/>' for k in range(processors)]
    pairs = [(k, k + 1) for k in range(processors - 1)] + [(k + 1, k) for k in range(processors - 1)]
    for a, b in pairs:
        lines.append(f'  <link id="l{a}_{b}" bandwidth="{bandwidth!r}Bps" latency="{latency!r}s"/>')
    for a, b in pairs:
        lines.append(f'  <route src="h{a}" dst="h{b}" symmetrical="NO"><link_ctn id="l{a}_{b}"/></route>')
    lines += ['</zone>', '</platform>']
    return "\n".join(lines) + "\n"


def simulate(p, columns, iterations, work, volume, ts, tw, phases=0, replications=1, seed=1):
    """The makespans SimGrid gives, one per replication: tasks of WORK, or ERLANG(phases) of mean
    WORK drawn from each processor's own stream when phases > 0. The replications run one after
    the other, all processors starting each one together (a SimGrid barrier)."""
    import random

    from simgrid import Actor, Barrier, Comm, Engine, Mailbox, this_actor

    placed = blocks(columns, p)
    processors = len(placed)
    with tempfile.NamedTemporaryFile("w", suffix=".xml", delete=False) as f:
        f.write(platform_xml(processors, ts, 1.0 / tw))
        platform = f.name
    engine = Engine(["oracle", "--cfg=network/model:CM02", "--cfg=network/latency-factor:1",
                     "--cfg=network/bandwidth-factor:1", "--cfg=network/crosstraffic:0",
                     "--log=root.thres:critical"])
    engine.load_platform(platform)
    os.unlink(platform)
    barrier = Barrier(processors)
    starts = [0.0] * replications
    finishes = [0.0] * replications

    def box(sender, receiver, replication, iteration):
        return Mailbox.by_name(f"{sender}>{receiver}@{replication}.{iteration}")

    def one_run(k, replication, draw):
        lo, hi = placed[k]
        neighbours = [n for n in (k - 1, k + 1) if 0 <= n < processors]
        # Every boundary this processor will receive, posted at once (eager transfers); each
        # (comm, data) pair is kept whole: the data holder must outlive its comm.
        receives = {(n, i): box(n, k, replication, i).get_async() for n in neighbours for i in range(iterations)}
        sends = []
        for i in range(iterations):
            for column in range(lo, hi + 1):
                if i > 0 and column == lo and k > 0:
                    receives[(k - 1, i - 1)][0].wait()
                if i > 0 and column == hi and k + 1 < processors:
                    receives[(k + 1, i - 1)][0].wait()
                this_actor.sleep_for(draw())
                if column == lo and k > 0:
                    sends.append(box(k, k - 1, replication, i).put_async(column, int(volume)))
                if column == hi and k + 1 < processors:
                    sends.append(box(k, k + 1, replication, i).put_async(column, int(volume)))
        for neighbour in neighbours:  # the last iteration's boundaries (N3)
            receives[(neighbour, iterations - 1)][0].wait()
        Comm.wait_all(sends)

    def processor(k):
        stream = random.Random(seed * 1_000_003 + k)
        draw = (lambda: stream.gammavariate(phases, work / phases)) if phases > 0 else (lambda: work)
        for replication in range(replications):
            barrier.wait()
            starts[replication] = engine.clock
            one_run(k, replication, draw)
            finishes[replication] = max(finishes[replication], engine.clock)

    for k in range(processors):
        Actor.create(f"p{k}", engine.host_by_name(f"h{k}"), processor, k)
    engine.run()
    return [finish - start for start, finish in zip(starts, finishes)]


def tool_figure(binary, arguments, p):
    """The tool's mean and its standard error: the exact model's longest path (deterministic)
    or its Monte Carlo (Erlang tasks)."""
    stochastic = arguments.phases > 0
    program = "stencil_erlang.pdl" if stochastic else "stencil.pdl"
    command = [binary, os.path.join(HERE, program), "--machine", os.path.join(HERE, "private-links.machine"),
               "--p", str(p), "--format", "csv", "--quiet",
               "--set", f"columns={arguments.columns}", "--set", f"iterations={arguments.iterations}",
               "--set", f"work={arguments.work!r}", "--set", f"volume={arguments.volume!r}"]
    if stochastic:
        command += ["--set", f"phases={arguments.phases}", "--method", "mc", "--samples", str(arguments.samples),
                    "--seed", "7"]
    else:
        command += ["--method", "exact"]
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    for row in csv.DictReader(io.StringIO(out)):
        if row["method"] in ("exact", "mc") and int(row["p"]) == p:
            half_width = (float(row["upper_us"]) - float(row["lower_us"])) / 2.0
            return float(row["estimate_us"]), half_width / Z95
    raise SystemExit(f"no exact or mc row for p = {p} in:\n{out}")


def simgrid_figure(arguments, p, ts, tw):
    """SimGrid's mean over its replications and its standard error (0 when deterministic)."""
    replications = arguments.replications if arguments.phases > 0 else 1
    child = [sys.executable, os.path.abspath(__file__), "--simulate", str(p), str(arguments.columns),
             str(arguments.iterations), repr(arguments.work), repr(arguments.volume), repr(ts), repr(tw),
             str(arguments.phases), str(replications)]
    mean, error = subprocess.run(child, check=True, capture_output=True, text=True).stdout.split()[-2:]
    return float(mean), float(error)


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--simulate":
        p, columns, iterations = (int(x) for x in sys.argv[2:5])
        work, volume, ts, tw = (float(x) for x in sys.argv[5:9])
        phases, replications = int(sys.argv[9]), int(sys.argv[10])
        times = simulate(p, columns, iterations, work, volume, ts, tw, phases, replications)
        mean = statistics.fmean(times)
        error = statistics.stdev(times) / math.sqrt(len(times)) if len(times) > 1 else 0.0
        print(repr(mean), repr(error))
        return
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--p", default="1,2,3,4,8,16,64,256,1024")
    parser.add_argument("--columns", type=int, default=2048)
    parser.add_argument("--iterations", type=int, default=4)
    parser.add_argument("--work", type=float, default=10.0)
    parser.add_argument("--volume", type=float, default=800.0)
    parser.add_argument("--phases", type=int, default=0, help="0: deterministic tasks; k: ERLANG(k)")
    parser.add_argument("--replications", type=int, default=400, help="SimGrid's, with --phases")
    parser.add_argument("--samples", type=int, default=100000, help="the tool's Monte Carlo, with --phases")
    arguments = parser.parse_args()
    ts, tw = 50.0, 0.01  # tests/simgrid/private-links.machine
    failures = []
    print(f"{'p':>6} {'tool':>14} {'SimGrid':>14} {'difference':>12} {'in errors':>10}")
    for p in (int(x) for x in arguments.p.split(",")):
        tool, tool_error = tool_figure(arguments.binary, arguments, p)
        simgrid, simgrid_error = simgrid_figure(arguments, p, ts, tw)
        difference = (tool - simgrid) / simgrid
        error = math.hypot(tool_error, simgrid_error)
        in_errors = abs(tool - simgrid) / error if error > 0.0 else 0.0
        print(f"{p:>6} {tool:>14.6f} {simgrid:>14.6f} {difference:>12.2e} {in_errors:>10.2f}")
        # Deterministic: the same up to round-off; random: within 4 combined standard errors.
        if (error == 0.0 and abs(difference) > 1e-9) or (error > 0.0 and in_errors > 4.0):
            failures.append(p)
    if failures:
        raise SystemExit(f"the tool and SimGrid differ at p = {failures}")
    print("ok")


if __name__ == "__main__":
    main()
