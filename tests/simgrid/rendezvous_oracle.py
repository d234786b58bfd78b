#!/usr/bin/env python3
"""SimGrid as an independent oracle of the exact model with rendezvous messages on a switched
cluster: examples/machines/switched-cluster-rendezvous.machine (t_s = 50 us of latency,
`PORT TIME IS tw*L`, t_w = 0.01 us/B, one port per processor, `EAGER LIMIT IS 0;`), in SimGrid
one split-duplex link per host to one switch (oracle.py's switched_platform_xml), CM02 with its
factors at 1 and no cross-traffic, so SimGrid shares each host's link max-min.

    rendezvous_oracle.py PDL_SCALE --program halo|transpose [--machine FILE] [--p 4,16,256]
        [--volume V] [--work W] [--task X] [--n N] [--iterations I] [--order increasing|skewed]
        [--links switched|private] [--fifo-per-connection] [--not-slower | --tolerance R]
V: bytes per edge point (halo, whole bytes) or per block (transpose).

--links private: a link of its own per ordered pair (oracle.py's platform_xml), for the tool's
tests/simgrid/rendezvous-links.machine: no message meets another anywhere, so the two agree to
round-off when the schedule below is read right. --fifo-per-connection: the messages of one
ordered pair go one after another (a put waits for the pair's previous one; the others share
max-min as before), the SimGrid side of `PORT SHARING IS FAIR;` (tests/simgrid/
switched-rendezvous-fair.machine). Here it changes no figure: a rendezvous transfer waits for
its receive, and a processor posts a pair's next receive only once the previous one is done.
--not-slower: the tool may be faster than SimGrid, never slower (first come first served need
not be: the halo at p = 24, N = 100, 3 iterations, V = 3000 is 14% slower than max-min);
--tolerance R: within R, relative (default 1e-9).

The schedule, from docs/semantics.md alone (o = 0; every message of 1 byte or more rendezvous):
- M11: a rendezvous transfer starts once its receive is posted; a processor posts a receive
  where its order reaches it (M7: right before the task that needs it) and the next one only
  once this one is done: a blocking receive, in the order M7 lists them. A send does not block
  (M6: the sends right after their task, in creation order): an asynchronous put.
- M12: a message holds its sender's sending port and its receiver's receiving port for t_w*L,
  then t_s of latency; in SimGrid a message from a to b crosses a's UP and b's DOWN (t_s/2
  each, bandwidth 1/t_w), which is t_s + t_w*L when it is alone. Where messages meet at a port
  the tool serves them first come first served on the mean schedule, SimGrid shares max-min.
- halo (N6-N8, G6, C1/C6, N2/N3): a NEIGHBOR phase over GRID g(N, N), DECOMPOSITION IS 2D, I
  iterations, NEIGHBOR joint. p = pr x pc, pr the largest divisor with pr^2 <= p; k at
  (k // pc, k mod pc); rows and columns split as G6. Per instance, k: first the receives of the
  previous instance's edges (the joint delivers them: senders in increasing k, i.e. north,
  west, east, south), then its h_i*w_j points of W, then one send per neighbour in the order
  north, west, east, south of (shared edge points)*V bytes. After the last instance the
  pending edges are received too (N2/N3 at the end; M11 makes each receive a node even when
  o = 0).
- transpose (A1, A2, M5-M7): one ARBITRARY phase the script writes for each p: task s_r
  (W, ON PROCESSOR r) and, for each d != r, task c_d_r (X, ON PROCESSOR d) with ARC s_r -> c_d_r
  VOLUME B. Level 0 holds the s tasks, level 1 the c tasks, declared receiver by receiver and,
  for receiver d, in its receive order (increasing: r = 0, 1, ..; skewed: r = d+1, d+2, ..
  mod p). So processor r runs s_r, sends to d = 0, 1, .. in turn (creation order), then
  receives each block and works on it (X) in its order, one after another. At p = 256 the
  program is 6.0 MB (the reader takes 8 MiB) and 65,536 tasks (--max-exact-tasks: 200,000); a
  GOAL import would need 3 p (p - 1) = 195,840 operations, past its 88,000.
The makespan is when the last task or transfer ends. Time units are the tool's (us as
SimGrid's seconds). One SimGrid run per child process (its engine is a singleton).
"""
import argparse
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from oracle import compare_deterministic, exact_figure, platform_xml, run, switched_platform_xml  # noqa: E402

TS, TW = 50.0, 0.01  # switched-cluster-rendezvous.machine, rendezvous-links.machine
MACHINE = os.path.join(HERE, "..", "..", "examples", "machines", "switched-cluster-rendezvous.machine")
HALO = """PROGRAM NAME IS 'halo-2d';
EXECUTION PATTERN IS step{{iterations}};
VARIABLE n = {n};
VARIABLE iterations = {iterations};
VARIABLE work = {work!r};     // one grid point's time
VARIABLE volume = {volume!r}; // bytes per grid point along a block's edge (N7)
WORK PHASE step IS:
  PARALLELIZATION SCHEME IS NEIGHBOR;
  DECOMPOSITION IS 2D;
  SUBTASK RUNTIME IS DETERMINISTIC(work);
  PROBLEM SIZE IS GRID g(n, n);
  COMMUNICATION VOLUME IS volume;
END;
CONCATENATION IS:
  step, step : NEIGHBOR;
END;
"""


def split(units, parts):
    """G6: the first units mod parts of the parts take one more."""
    q, r = divmod(units, parts)
    return [q + 1 if k < r else q for k in range(parts)]


def halo_schedule(p, n, volume):
    """N6: each processor's points, its sends (receiver, bytes) in the order north, west, east,
    south, and the senders it receives from in increasing k."""
    pr = max(d for d in range(1, p + 1) if p % d == 0 and d * d <= p)
    pc = p // pr
    heights, widths = split(n, pr), split(n, pc)
    points, sends, senders = [], [], [[] for _ in range(p)]
    for k in range(p):
        i, j = divmod(k, pc)
        points.append(heights[i] * widths[j])
        out = []
        if points[k] > 0:
            for di, dj, edge in ((-1, 0, widths[j]), (0, -1, heights[i]), (0, 1, heights[i]), (1, 0, widths[j])):
                a, b = i + di, j + dj
                if 0 <= a < pr and 0 <= b < pc and heights[a] * widths[b] > 0:
                    out.append((a * pc + b, edge * volume))
        sends.append(out)
        for d, _ in out:
            senders[d].append(k)
    return points, sends, [sorted(s) for s in senders]


def receive_order(d, p, order):
    """The senders processor d receives from, in its order (transpose)."""
    return [(d + m) % p for m in range(1, p)] if order == "skewed" else [r for r in range(p) if r != d]


def transpose_program(p, work, task, volume, order):
    lines = ["PROGRAM NAME IS 'transpose';", "EXECUTION PATTERN IS exchange;",
             f"VARIABLE w = {work!r};", f"VARIABLE x = {task!r};", f"VARIABLE b = {volume!r};",
             "WORK PHASE exchange IS:", "  PARALLELIZATION SCHEME IS ARBITRARY;"]
    lines += [f"  TASK s{r} RUNTIME IS DETERMINISTIC(w) ON PROCESSOR {r};" for r in range(p)]
    for d in range(p):
        lines += [f"  TASK c{d}_{r} RUNTIME IS DETERMINISTIC(x) ON PROCESSOR {d};" for r in receive_order(d, p, order)]
    for d in range(p):
        lines += [f"  ARC s{r} -> c{d}_{r} VOLUME b;" for r in receive_order(d, p, order)]
    return "\n".join(lines + ["END;"]) + "\n"


def simulate(a):
    from simgrid import Actor, Comm, Engine, Mailbox, this_actor

    p = a.p
    if a.program == "halo":
        points, sends, senders = halo_schedule(p, a.n, a.volume)
        pairs = sorted({(k, d) for k in range(p) for d, _ in sends[k]})
    else:
        pairs = [(r, d) for d in range(p) for r in range(p) if r != d]
    with tempfile.NamedTemporaryFile("w", suffix=".xml", delete=False) as f:
        f.write((switched_platform_xml if a.links == "switched" else platform_xml)(p, pairs, TS, 1.0 / TW))
        platform = f.name
    engine = Engine(["rendezvous", "--cfg=network/model:CM02", "--cfg=network/latency-factor:1",
                     "--cfg=network/bandwidth-factor:1", "--cfg=network/crosstraffic:0",
                     "--log=root.thres:critical"])
    engine.load_platform(platform)
    os.unlink(platform)
    finish = [0.0]
    connection = {pair: {"comm": None, "queue": [], "drainer": False} for pair in pairs}

    def box(sender, receiver, i):
        return Mailbox.by_name(f"{sender}>{receiver}@{i}")

    def drain(sender, receiver, previous):  # the pair's queued messages, each once the one before is done
        state = connection[(sender, receiver)]
        previous.wait()
        while state["queue"]:
            i, size = state["queue"].pop(0)
            box(sender, receiver, i).put(i, size)
        state["comm"], state["drainer"] = None, False
        finish[0] = max(finish[0], engine.clock)

    def send(k, d, i, size, out):
        state = connection[(k, d)]
        if not a.fifo_per_connection or not state["drainer"] and (state["comm"] is None or state["comm"].test()):
            state["comm"] = box(k, d, i).put_async(i, int(size))
            out.append(state["comm"])
            return
        state["queue"].append((i, int(size)))  # an earlier message of the pair is still on its way
        if not state["drainer"]:
            state["drainer"] = True
            Actor.create(f"c{k}>{d}", engine.host_by_name(f"h{k}"), drain, k, d, state["comm"])

    def halo(k):
        out = []
        for i in range(a.iterations):
            for s in senders[k] if i > 0 else []:  # the joint delivers instance i - 1's edges
                box(s, k, i - 1).get()
            this_actor.sleep_for(points[k] * a.work)
            for d, size in sends[k]:  # from the block's last point, north, west, east, south
                send(k, d, i, size, out)
        for s in senders[k]:  # the last instance's edges (N3 at the end)
            box(s, k, a.iterations - 1).get()
        Comm.wait_all(out)
        finish[0] = max(finish[0], engine.clock)

    def transpose(k):
        out = []
        this_actor.sleep_for(a.work)
        for d in range(p):  # s_k's sends in creation order: receivers' tasks in declaration order
            if d != k:
                send(k, d, 0, a.volume, out)
        for r in receive_order(k, p, a.order):  # M7/M11: each receive right before its task
            box(r, k, 0).get()
            this_actor.sleep_for(a.task)
        Comm.wait_all(out)
        finish[0] = max(finish[0], engine.clock)

    for k in range(p):
        Actor.create(f"p{k}", engine.host_by_name(f"h{k}"), halo if a.program == "halo" else transpose, k)
    engine.run()
    return max(finish[0], engine.clock)


def tool_figure(a, p):
    with tempfile.TemporaryDirectory() as directory:
        program = os.path.join(directory, f"{a.program}.pdl")
        with open(program, "w") as f:
            f.write(HALO.format(n=a.n, iterations=a.iterations, work=a.work, volume=a.volume) if a.program == "halo"
                    else transpose_program(p, a.work, a.task, a.volume, a.order))
        return exact_figure([a.binary, program, "--machine", a.machine, "--p", str(p), "--method", "exact",
                             "--format", "csv", "--quiet"])


def arguments_parser():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--program", choices=["halo", "transpose"], default="halo")
    parser.add_argument("--machine", default=MACHINE, help="the tool's machine (t_s = 50, t_w = 0.01, EAGER LIMIT 0)")
    parser.add_argument("--p", default="4,16,64,256")
    parser.add_argument("--volume", type=float, default=None,
                        help="halo: bytes per edge point (1000); transpose: bytes of a block (8000)")
    parser.add_argument("--work", type=float, default=None, help="halo: a point's time (1); transpose: s_r's (10)")
    parser.add_argument("--task", type=float, default=20.0, help="transpose: the work on one received block")
    parser.add_argument("--n", type=int, default=128, help="halo: the grid is N x N points")
    parser.add_argument("--iterations", type=int, default=4, help="halo: instances")
    parser.add_argument("--order", choices=["increasing", "skewed"], default="increasing",
                        help="transpose: each processor's receive order")
    parser.add_argument("--links", choices=["switched", "private"], default="switched")
    parser.add_argument("--fifo-per-connection", action="store_true")
    parser.add_argument("--not-slower", action="store_true")
    parser.add_argument("--tolerance", type=float, default=None)
    return parser


def defaults(a):
    if a.volume is None:
        a.volume = 1000.0 if a.program == "halo" else 8000.0
    if a.work is None:
        a.work = 1.0 if a.program == "halo" else 10.0
    return a


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--simulate":  # one p per process
        a = defaults(arguments_parser().parse_args(sys.argv[2:]))
        a.p = int(a.p)
        print(repr(simulate(a)))
        return
    a = defaults(arguments_parser().parse_args())
    tolerance = a.tolerance if a.tolerance is not None else (None if a.not_slower else 1e-9)
    compare_deterministic(
        [int(x) for x in a.p.split(",")], lambda p: tool_figure(a, p),
        lambda p: float(run([sys.executable, os.path.abspath(__file__), "--simulate"] + sys.argv[1:] +
                            ["--p", str(p)]).split()[-1]),
        a.not_slower, tolerance)


if __name__ == "__main__":
    main()
