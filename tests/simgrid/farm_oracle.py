#!/usr/bin/env python3
"""A farm (a DYNAMIC pool with a MASTER SERVICE, docs/semantics.md I6) against two references
written from the docs alone: a plain event simulation (heapq, numpy's generator) and SimGrid's
master-worker actors.

    farm_oracle.py PDL_SCALE --reference events|simgrid [--tasks N] [--service S] [--median M]
                   [--sigma SIGMA] [--workers 8,48,...] [--replications R] [--samples N]
    farm_oracle.py PDL_SCALE --no-master ...
        the same pool without a master (I3): every processor takes the next task from a shared
        queue when it is free, p = w (the events reference with S = 0 and w = p)

The farm: N tasks of LOGNORMAL(M, SIGMA) (ln X normal of mean ln M and deviation SIGMA), a
master that serves one request at a time, first come first served, S per task, w workers
(p = w + 1 processors, processor 0 the master), no message cost (ideal machine). Every worker
asks at time 0; the master's service of a request ends, the worker runs its task and asks again
at once (its result is its next request); the farm ends when the last result reaches the
master. The tool's Monte Carlo mean at each p against the reference's mean over R replications,
within 4 combined standard errors; the table shows the speedup over the tasks in series (N E[X])
and the asymptotic saturation w* = (E[X] + S) / S.
"""
import argparse
import heapq
import math
import os
import statistics
import subprocess
import sys
import tempfile

import numpy

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from oracle import csv_figure  # noqa: E402

PROGRAM = """PROGRAM NAME IS 'farm';
EXECUTION PATTERN IS farm;
WORK PHASE farm IS:
  PARALLELIZATION SCHEME IS INDEPENDENT;
  SUBTASK RUNTIME IS LOGNORMAL({median!r}, {sigma!r});
  PROBLEM SIZE IS VECTOR parameters({tasks});
  SCHEDULING IS DYNAMIC;
{master}END;
"""


def events(tasks, service, draws, workers):
    """One farm by its events: the workers' request times in a heap, the master's free time."""
    requests = [0.0] * workers
    master_free = last = 0.0
    for x in draws:
        asked = heapq.heappop(requests)
        master_free = max(master_free, asked) + service
        done = master_free + x
        last = max(last, done)
        heapq.heappush(requests, done)
    return last


def simgrid_farms(tasks, service, draws_of, workers, replications):
    """The farm in SimGrid: a master actor and `workers` worker actors on hosts of their own, a
    mailbox per worker for its task and one for the master's requests (messages of no size on
    links of no latency and endless bandwidth), replications one after another."""
    from simgrid import Actor, Engine, Mailbox, this_actor

    hosts = "\n".join(f'  <host id="h{k}" speed="1f"/>' for k in range(workers + 1))
    with tempfile.NamedTemporaryFile("w", suffix=".xml", delete=False) as f:
        f.write('<?xml version="1.0"?>\n<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">\n'
                f'<platform version="4.1">\n<zone id="farm" routing="Full">\n{hosts}\n'
                '  <link id="free" bandwidth="1e30Bps" latency="0s" sharing_policy="FATPIPE"/>\n'
                + "\n".join(f'  <route src="h{a}" dst="h{b}"><link_ctn id="free"/></route>'
                            for a in range(workers + 1) for b in range(workers + 1) if a < b)
                + '\n</zone>\n</platform>\n')
        platform = f.name
    engine = Engine(["farm", "--log=root.thres:critical"])
    engine.load_platform(platform)
    os.unlink(platform)
    makespans = []

    def master():
        for replication in range(replications):
            start, draws = engine.clock, draws_of(replication)
            requests = Mailbox.by_name(f"master{replication}")
            for x in draws:
                worker = requests.get()
                this_actor.sleep_for(service)
                Mailbox.by_name(f"w{worker}.{replication}").put(x, 0)
            for _ in range(workers):  # the last results; then each worker is told to stop
                worker = requests.get()
                Mailbox.by_name(f"w{worker}.{replication}").put(None, 0)
            makespans.append(engine.clock - start)

    def worker(k):
        for replication in range(replications):
            requests, mine = Mailbox.by_name(f"master{replication}"), Mailbox.by_name(f"w{k}.{replication}")
            requests.put(k, 0)
            while (x := mine.get()) is not None:
                this_actor.sleep_for(x)
                requests.put(k, 0)

    Actor.create("master", engine.host_by_name("h0"), master)
    for k in range(1, workers + 1):
        Actor.create(f"w{k}", engine.host_by_name(f"h{k}"), worker, k)
    engine.run()
    return makespans


def reference(arguments, workers):
    """The reference's mean makespan and its standard error over its replications. SimGrid runs
    once per process (its engine is a singleton): each number of workers is a child process."""
    if arguments.reference == "simgrid":
        child = [sys.executable, os.path.abspath(__file__), "--simgrid-child", str(arguments.tasks),
                 repr(arguments.service), repr(arguments.median), repr(arguments.sigma), str(workers),
                 str(arguments.replications)]
        mean, error = subprocess.run(child, check=True, capture_output=True, text=True).stdout.split()[-2:]
        return float(mean), float(error)
    times = [events(arguments.tasks, arguments.service, draws, workers) for draws in
             draws_of(arguments.tasks, arguments.median, arguments.sigma, workers, arguments.replications)]
    return statistics.fmean(times), statistics.stdev(times) / math.sqrt(len(times))


def draws_of(tasks, median, sigma, workers, replications):
    """Each replication's task times, from numpy's generator seeded by the number of workers."""
    generator = numpy.random.default_rng(2026 + workers)
    return [generator.lognormal(math.log(median), sigma, tasks) for _ in range(replications)]


def simgrid_child(argv):
    tasks, service, median, sigma = int(argv[0]), float(argv[1]), float(argv[2]), float(argv[3])
    workers, replications = int(argv[4]), int(argv[5])
    draws = draws_of(tasks, median, sigma, workers, replications)
    times = simgrid_farms(tasks, service, lambda r: draws[r], workers, replications)
    print(repr(statistics.fmean(times)), repr(statistics.stdev(times) / math.sqrt(len(times))))


def tool(arguments, p):
    """The tool's Monte Carlo mean at p and its standard error."""
    with tempfile.NamedTemporaryFile("w", suffix=".pdl", delete=False) as f:
        master = "" if arguments.no_master else f"  MASTER SERVICE IS DETERMINISTIC({arguments.service!r});\n"
        f.write(PROGRAM.format(median=arguments.median, sigma=arguments.sigma, tasks=arguments.tasks, master=master))
        program = f.name
    command = [arguments.binary, program, "--p", str(p), "--method", "mc", "--samples", str(arguments.samples),
               "--seed", "50", "--format", "csv", "--quiet"]
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    os.unlink(program)
    return csv_figure(out, p, ("mc",))


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--simgrid-child":
        simgrid_child(sys.argv[2:])
        return 0
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--reference", choices=["events", "simgrid"], default="events")
    parser.add_argument("--tasks", type=int, default=5000)
    parser.add_argument("--service", type=float, default=2.0)
    parser.add_argument("--median", type=float, default=50.0)
    parser.add_argument("--sigma", type=float, default=1.2)
    parser.add_argument("--workers", default="8,32,48,64,1023")
    parser.add_argument("--replications", type=int, default=200)
    parser.add_argument("--samples", type=int, default=2000)
    parser.add_argument("--no-master", action="store_true", help="a shared queue on p = w processors (I3)")
    arguments = parser.parse_args()
    if arguments.no_master:
        arguments.service = 0.0
    mean_task = arguments.median * math.exp(arguments.sigma ** 2 / 2.0)
    serial = arguments.tasks * mean_task
    print(f"E[X] = {mean_task:.4f}, tasks in series {serial:.1f}", end="")
    if arguments.service > 0.0:
        print(f", saturation w* = (E[X] + S) / S = {(mean_task + arguments.service) / arguments.service:.2f} "
              f"workers, floor N S = {arguments.tasks * arguments.service:.1f}", end="")
    print()
    print(f"{'workers':>8} {'tool':>12} {'reference':>12} {'speedup':>8} {'in errors':>10}")
    failures = []
    for workers in (int(w) for w in arguments.workers.split(",")):
        p = workers if arguments.no_master else workers + 1
        (mine, mine_error), (theirs, theirs_error) = tool(arguments, p), reference(arguments, workers)
        in_errors = abs(mine - theirs) / math.hypot(mine_error, theirs_error)
        print(f"{workers:>8} {mine:>12.2f} {theirs:>12.2f} {serial / mine:>8.2f} {in_errors:>10.2f}", flush=True)
        if in_errors > 4.0:
            failures.append(workers)
    if failures:
        raise SystemExit(f"the tool and the reference differ at {failures} workers")
    print("ok")


if __name__ == "__main__":
    sys.exit(main())
