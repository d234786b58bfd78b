#!/usr/bin/env python3
"""SimGrid as an independent oracle of a binomial collective's exact model on a switched cluster
(docs/machine.md, "Checked against SimGrid"; issue 48): each processor runs a task of WORK, then
a binomial REDUCE or BROADCAST of VOLUME bytes, ITERATIONS times, on
examples/machines/switched-cluster.machine (one port per processor, M12), and in SimGrid on one
split-duplex link per host to a switch, which SimGrid shares max-min among the messages that
cross it at once.

    collective_oracle.py PDL_SCALE --collective reduce|broadcast --p 256,1024 [--work W]
                         [--volume V] [--iterations I] [--not-slower | --tolerance R]

--not-slower: the tool's first-come-first-served ports may be faster than SimGrid's fair sharing
but never slower (a port that serves one message whole and then the next ends the last of them
when fair sharing does, and the others earlier). --tolerance R: within R of SimGrid, relative.

The schedule, from docs/machine.md's table and docs/semantics.md Q3 alone (o = 0, eager): round
k of REDUCE: every r with r mod 2^(k+1) = 2^k sends VOLUME to r - 2^k; of BROADCAST: every
r < 2^k with r + 2^k < P sends to r + 2^k. Each processor does its part of each round in round
order: a send departs at once (the sender goes on), a receive waits for its message; the next
task starts after the processor's last send or receive. Every receive is posted at the start.
"""
import argparse
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from oracle import compare_deterministic, exact_figure, run, switched_platform_xml  # noqa: E402

TS, TW = 50.0, 0.01  # examples/machines/switched-cluster.machine
MACHINE = os.path.join(HERE, "..", "..", "examples", "machines", "switched-cluster.machine")
FAIR_MACHINE = os.path.join(HERE, "..", "..", "examples", "machines", "switched-cluster-fair.machine")
PROGRAM = """PROGRAM NAME IS 'collective';
VARIABLE work = 10;
VARIABLE volume = 65536;
VARIABLE iterations = 2;
EXECUTION PATTERN IS (w -> {collective}(volume)){{iterations}};
WORK PHASE w IS:
  PARALLELIZATION SCHEME IS INDEPENDENT;
  SUBTASK RUNTIME IS DETERMINISTIC(work);
  PROBLEM SIZE IS VECTOR a(P);
END;
"""


def rounds(collective, p):
    """Per round, the (sender, receiver) pairs in the listed order."""
    count = max(1, (p - 1).bit_length())
    out = []
    for k in range(count):
        if collective == "reduce":
            out.append([(r, r - (1 << k)) for r in range(p) if r % (1 << (k + 1)) == (1 << k)])
        else:
            out.append([(r, r + (1 << k)) for r in range(1 << k) if r + (1 << k) < p])
    return out


def simulate(collective, p, work, volume, iterations, fifo=False, latency_after=False):
    from simgrid import Actor, Comm, Engine, Mailbox, Semaphore, this_actor

    schedule = rounds(collective, p)
    pairs = sorted({pair for messages in schedule for pair in messages})
    with tempfile.NamedTemporaryFile("w", suffix=".xml", delete=False) as f:
        f.write(switched_platform_xml(p, pairs, 0.0 if latency_after else TS, 1.0 / TW))
        platform = f.name
    engine = Engine(["collective", "--cfg=network/model:CM02", "--cfg=network/latency-factor:1",
                     "--cfg=network/bandwidth-factor:1", "--cfg=network/crosstraffic:0",
                     "--log=root.thres:critical"])
    engine.load_platform(platform)
    os.unlink(platform)
    finish = [0.0]

    def box(sender, receiver, i, k):
        return Mailbox.by_name(f"{sender}>{receiver}@{i}.{k}")

    # With fifo: one actor per connection puts its messages one after another, in the order the
    # sender reaches them (a semaphore counts them; handing over takes no time). With
    # latency_after (M12's order: the port time, then the latency) the links have no latency and
    # an actor per message delivers it t_s after its last byte.
    ready, delivered = {}, {}

    def channel(keys):
        for key in keys:
            ready[key].acquire()
            Mailbox.by_name(key).put(0, int(volume))
        finish[0] = max(finish[0], engine.clock)

    def delivery(key):
        Mailbox.by_name(key).get()
        this_actor.sleep_for(TS)
        delivered[key].release()

    def processor(r):
        posted = {} if latency_after else {
            (i, k): box(s, d, i, k).get_async()
            for i in range(iterations) for k, messages in enumerate(schedule) for s, d in messages if d == r}
        sends = []
        for i in range(iterations):
            this_actor.sleep_for(work)
            for k, messages in enumerate(schedule):
                for s, d in messages:
                    if s == r and fifo:
                        ready[f"{s}>{d}@{i}.{k}"].release()
                    elif s == r:
                        sends.append(box(s, d, i, k).put_async(k, int(volume)))
                    elif d == r and latency_after:
                        delivered[f"{s}>{d}@{i}.{k}"].acquire()
                    elif d == r:
                        posted[(i, k)][0].wait()
        Comm.wait_all(sends)
        finish[0] = max(finish[0], engine.clock)

    keys = [(s, d, f"{s}>{d}@{i}.{k}") for i in range(iterations) for k, messages in enumerate(schedule)
            for s, d in messages]
    if fifo:
        for s, d, key in keys:
            ready[key] = Semaphore(0)
        for s, d in pairs:
            Actor.create(f"c{s}>{d}", engine.host_by_name(f"h{s}"), channel,
                         [key for a, b, key in keys if (a, b) == (s, d)])
    if latency_after:
        for s, d, key in keys:
            delivered[key] = Semaphore(0)
            Actor.create(f"r{key}", engine.host_by_name(f"h{d}"), delivery, key)
    for r in range(p):
        Actor.create(f"p{r}", engine.host_by_name(f"h{r}"), processor, r)
    engine.run()
    return finish[0]


def tool_figure(binary, collective, p, work, volume, iterations, machine):
    with tempfile.TemporaryDirectory() as directory:
        program = os.path.join(directory, "collective.pdl")
        with open(program, "w") as f:
            f.write(PROGRAM.format(collective=collective.upper()))
        return exact_figure([binary, program, "--machine", machine, "--p", str(p), "--method", "exact", "--format",
                             "csv", "--quiet", "--set", f"work={work!r}", "--set", f"volume={volume!r}", "--set",
                             f"iterations={iterations}"])


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--simulate":  # one p per process: SimGrid's engine is a singleton
        collective, p, work, volume, iterations = sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), float(
            sys.argv[5]), int(sys.argv[6])
        print(repr(simulate(collective, p, work, volume, iterations, "fifo" in sys.argv[7], "after" in sys.argv[7])))
        return
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--collective", choices=["reduce", "broadcast"], default="reduce")
    parser.add_argument("--p", default="4,16,256,1024")
    parser.add_argument("--work", type=float, default=10.0)
    parser.add_argument("--volume", type=float, default=65536.0)
    parser.add_argument("--iterations", type=int, default=2)
    parser.add_argument("--fair", action="store_true", help="the tool on switched-cluster-fair.machine (M13)")
    parser.add_argument("--fifo-per-connection", action="store_true",
                        help="in SimGrid, the messages of one (sender, receiver) pair one after another")
    parser.add_argument("--latency-after", action="store_true",
                        help="in SimGrid, each message's latency after its last byte, as M12 orders them")
    parser.add_argument("--not-slower", action="store_true")
    parser.add_argument("--tolerance", type=float, default=None)
    arguments = parser.parse_args()
    a = arguments
    compare_deterministic(
        [int(x) for x in a.p.split(",")],
        lambda p: tool_figure(a.binary, a.collective, p, a.work, a.volume, a.iterations,
                              FAIR_MACHINE if a.fair else MACHINE),
        lambda p: float(run([sys.executable, os.path.abspath(__file__), "--simulate", a.collective, str(p),
                             repr(a.work), repr(a.volume), str(a.iterations),
                             ("fifo" if a.fifo_per_connection else "shared") +
                             ("-after" if a.latency_after else "")]).split()[-1]),
        a.not_slower, a.tolerance)


if __name__ == "__main__":
    main()
