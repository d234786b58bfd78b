#!/usr/bin/env python3
"""SimGrid as an independent oracle of the exact model on multicore nodes (docs/machine.md,
"Nodes" and "Checked against SimGrid"; docs/semantics.md M15; issue 49): a program on a machine
of nodes of K processors, simulated in SimGrid on ceil(p/K) hosts of K cores each and compared
with `pdl-scale --method exact` at each p.

    node_oracle.py PDL_SCALE --program stencil|fork-join|allreduce --k K[,K...] [--p 1,8,...]
                   [--units N] [--steps I] [--work W] [--volume V] [--join D] [--cores C]
                   [--switched [--fair] [--fifo-per-connection] [--latency-after]]
                   [--not-slower | --tolerance R]
    node_oracle.py --simulate JSON
        one simulation (a child process: SimGrid's engine is a singleton): the makespan

The machines (tests/simgrid/nodes-*.machine, `--set k=K`; o = 0 everywhere, eager): between
nodes t_s + t_w*L (t_s = 50 us, t_w = 0.01 us a byte), inside a node t_sn + t_wn*L (0.5 us,
0.0005 us a byte), which holds no port (M15). Processor r is on node floor(r/K) (BLOCK).
- nodes-private-links.machine (the default): no PORT TIME, so no message shares anything
  (FULLY CONNECTED, S = 1). In SimGrid one FATPIPE link of latency t_s and bandwidth 1/t_w
  between every two hosts (a FATPIPE gives every flow its whole bandwidth: a private link
  per message) and a FATPIPE loopback per host of latency t_sn and bandwidth 1/t_wn.
- --switched: nodes-switched.machine (PORT TIME IS tw*L, first come, first served, M12), with
  --fair nodes-switched-fair.machine (PORT SHARING IS FAIR, M13): the node's one port shared by
  its K processors. In SimGrid a split-duplex link per host to one switch (bandwidth 1/t_w,
  t_s/2 each way), shared max-min by every message of the host's K processors, and the same
  loopbacks. --fifo-per-connection: the messages between two processors of different nodes
  one after another (M13's connection, one per pair of processors); --latency-after: those
  links without latency, the receiver having each such message t_s after its last byte
  (M12's order). With both, SimGrid follows M13 (as collective_oracle.py's --fair).
- --cores C: CORES IS C in the machine (`--set c=C`), core="C" in SimGrid; below K the two part
  by design (the tool slows every task of a node of m > C processors by m/C, SimGrid shares
  the C cores among the processes computing at the moment).

The programs (one actor per processor with work, on its host; o = 0 and eager: every receive
posted at the start, a send departs at once; a task of W is W flops on hosts of speed 1, one
core to an actor while the host has enough; SimGrid's CM02 with its factors at 1):
- stencil, fork-join: tests/simgrid/stencil.pdl and fork_join.pdl, the actors of oracle.py
  (oracle.Stencil, oracle.ForkJoin: rules G6, N1-N3, C4, F1-F4, M4-M7), unchanged.
- allreduce: tests/simgrid/node_allreduce.pdl, each processor a task of W, then ALLREDUCE of
  V bytes by RECURSIVE DOUBLING (the default; docs/machine.md's "Collectives" table lists its
  rounds for every P, and RING's 2(P - 1)P messages outgrow the exact model from p = 64 on):
  q the largest power of two <= p; when q < p a first round where every r >= q sends to
  r - q; rounds j = 0 .. log2(q) - 1 where every r < q sends to r XOR 2^j; when q < p a last
  round where every r - q sends to r. Per round a processor first sends (it goes on at once),
  then waits for what it receives (Q3); STEPS times.
The makespan is when the last processor ends (its last task, receive or send). Time units are
the tool's (microseconds as SimGrid seconds).
"""
import argparse
import json
import math
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from oracle import ForkJoin, Receives, Stencil, block_counts, compare_deterministic, exact_figure, run  # noqa: E402

TS, TW = 50.0, 0.01      # between nodes: tests/simgrid/nodes-*.machine
TSN, TWN = 0.5, 0.0005   # inside a node
MACHINES = {"private": "nodes-private-links.machine", "first-come": "nodes-switched.machine",
            "fair": "nodes-switched-fair.machine"}
# Per program: its file, the variables of its units and steps, and the sizes the tests use.
PROGRAMS = {"stencil": ("stencil.pdl", "columns", "iterations", dict(units=2048, steps=4, volume=800.0)),
            "fork-join": ("fork_join.pdl", "tasks", "jobs", dict(units=2048, steps=3, volume=100.0)),
            "allreduce": ("node_allreduce.pdl", None, "iterations", dict(units=0, steps=2, volume=8192.0))}


def allreduce_rounds(p):
    """RECURSIVE DOUBLING's rounds (docs/machine.md, "Collectives"): per round the (sender,
    receiver) pairs in the listed order."""
    q = 1 << (p.bit_length() - 1)
    rounds = [[(r, r - q) for r in range(q, p)]] if q < p else []
    rounds += [[(r, r ^ (1 << j)) for r in range(q)] for j in range(q.bit_length() - 1)]
    return rounds + ([[(r - q, r) for r in range(q, p)]] if q < p else [])


class Allreduce:
    """Each processor a task, then the rounds of allreduce_rounds, `steps` times (Q3, o = 0)."""

    def __init__(self, p, steps, volume):
        self.p, self.steps, self.volume = p, steps, volume
        self.rounds = allreduce_rounds(p)

    def pairs(self):
        return sorted({pair for messages in self.rounds for pair in messages})

    def run(self, r, box, draw, sleep, barrier, wait_all, rendezvous):
        """Processor r's part, with the arguments oracle.Stencil.run takes."""
        keys = [(s, d, f"{i}.{j}") for i in range(self.steps) for j, messages in enumerate(self.rounds)
                for s, d in messages if d == r]
        receives = Receives(box, keys, rendezvous)
        sends = []
        for i in range(self.steps):
            sleep(draw())
            for j, messages in enumerate(self.rounds):
                # Q3: a round's sends first (the sender goes on), then its receives.
                sends += [box(s, d, f"{i}.{j}").put_async(j, int(self.volume)) for s, d in messages if s == r]
                for s, d in messages:
                    if d == r:
                        receives.take(s, d, f"{i}.{j}")
        wait_all(sends)


def node_platform_xml(hosts, cores, host_pairs, switched, latency_after):
    """Hosts n0.. of `cores` cores, a FATPIPE loopback each (the node's law for every message
    inside it, shared with nothing), and between the hosts of `host_pairs` one FATPIPE link
    (private links) or each host's split-duplex link to one switch (`switched`)."""
    lines = ['<?xml version="1.0"?>', '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">',
             '<platform version="4.1">', '<zone id="machine" routing="Full">']
    lines += [f'  <host id="n{a}" speed="1f" core="{cores}"/>' for a in range(hosts)]
    lines += [f'  <link id="loop{a}" bandwidth="{1.0 / TWN!r}Bps" latency="{TSN!r}s" sharing_policy="FATPIPE"/>'
              for a in range(hosts)]
    if switched:
        latency = 0.0 if latency_after else TS / 2.0
        lines += [f'  <link id="l{a}" bandwidth="{1.0 / TW!r}Bps" latency="{latency!r}s" '
                  'sharing_policy="SPLITDUPLEX"/>' for a in range(hosts)]
    else:
        lines.append(f'  <link id="net" bandwidth="{1.0 / TW!r}Bps" latency="{TS!r}s" sharing_policy="FATPIPE"/>')
    lines += [f'  <route src="n{a}" dst="n{a}"><link_ctn id="loop{a}"/></route>' for a in range(hosts)]
    for a, b in host_pairs:
        way = (f'<link_ctn id="l{a}" direction="UP"/><link_ctn id="l{b}" direction="DOWN"/>' if switched
               else '<link_ctn id="net"/>')
        lines.append(f'  <route src="n{a}" dst="n{b}" symmetrical="NO">{way}</route>')
    lines += ['</zone>', '</platform>']
    return "\n".join(lines) + "\n"


class Cpu:
    """A processor's tasks, run as one execution until it next communicates, so that SimGrid
    switches between its actors (threads) once per message rather than once per task. The
    times are the same: an actor that computes tasks back to back holds its share of the
    host's cores throughout, as one execution or several."""

    def __init__(self, sg):
        self.sg, self.pending = sg, 0.0

    def compute(self, work):
        self.pending += work

    def flush(self):
        if self.pending > 0.0:
            self.sg.this_actor.execute(self.pending)
            self.pending = 0.0


class Receive:
    """A posted receive, waited for once the receiver's tasks before it are done. With
    --latency-after (links without latency, between nodes) its comm ends with its last byte and
    the receiver has the data t_s later (M12: port time, then latency), or at once if it comes
    for it later."""

    def __init__(self, sg, comm, cpu, latency):
        self.sg, self.comm, self.cpu, self.latency = sg, comm, cpu, latency

    def wait(self):
        self.cpu.flush()
        self.comm.wait()
        arrival = self.comm.finish_time + self.latency
        if self.latency > 0.0 and arrival > self.sg.Engine.clock:
            self.sg.this_actor.sleep_until(arrival)


class Flushed:
    """A barrier a processor reaches once its tasks so far are done."""

    def __init__(self, barrier, cpu):
        self.barrier, self.cpu = barrier, cpu

    def wait(self):
        self.cpu.flush()
        self.barrier.wait()


class Connection:
    """The messages from one processor to one on another node: the last one put, and while it
    is under way those waiting for it (M13: a connection's messages one after another)."""

    def __init__(self):
        self.last, self.waiting = None, None


class Network:
    """The mailboxes the actors of oracle.py write to, with a node's view of them: a message is a
    put into a mailbox of its own, which its loopback or the links between hosts carry. Between
    nodes, `fifo` makes a message wait for the previous one of its connection (an actor per
    connection drains them in order while one is under way: only there, so that the actors
    SimGrid runs as threads stay few), and `latency_after` (links without latency) hands it to
    its receiver t_s after its last byte."""

    def __init__(self, engine, k, processors, fifo, latency_after):
        import simgrid
        self.sg, self.engine, self.k = simgrid, engine, k
        self.fifo, self.latency_after = fifo, latency_after
        self.connections = {}
        self.cpus = [Cpu(simgrid) for _ in range(processors)]

    def host(self, processor):
        return self.engine.host_by_name(f"n{processor // self.k}")

    def box(self, sender, receiver, step):
        return Box(self, sender, receiver, f"{sender}>{receiver}@{step}")

    def wait_all(self, sends):
        self.sg.Comm.wait_all([send for send in sends if send is not None])

    def put_in_order(self, sender, receiver, key, size):
        """Put now if the connection is free, else behind its messages (None: the receiver waits)."""
        connection = self.connections.setdefault((sender, receiver), Connection())
        if connection.waiting is None and (connection.last is None or connection.last.test()):
            connection.last = self.sg.Mailbox.by_name(key).put_async(0, size)
            return connection.last
        if connection.waiting is None:
            connection.waiting = []
            self.sg.Actor.create(f"c{sender}>{receiver}", self.host(sender), self.drain, connection)
        connection.waiting.append((key, size))
        return None

    def drain(self, connection):
        connection.last.wait()
        while connection.waiting:
            key, size = connection.waiting.pop(0)
            connection.last = self.sg.Mailbox.by_name(key).put_async(0, size)
            connection.last.wait()
        connection.waiting = None


class Box:
    """One message's mailbox as oracle.py's actors use it (put_async, get_async)."""

    def __init__(self, network, sender, receiver, key):
        self.network, self.sender, self.receiver, self.key = network, sender, receiver, key
        self.between = sender // network.k != receiver // network.k

    def put_async(self, data, size):
        self.network.cpus[self.sender].flush()
        if self.between and self.network.fifo:
            return self.network.put_in_order(self.sender, self.receiver, self.key, size)
        return self.network.sg.Mailbox.by_name(self.key).put_async(data, size)

    def get_async(self):
        network = self.network
        posted = network.sg.Mailbox.by_name(self.key).get_async()  # kept: the data holder outlives its comm
        latency = TS if self.between and network.latency_after else 0.0
        return Receive(network.sg, posted[0], network.cpus[self.receiver], latency), posted


def shape_of(settings):
    """The program's actors (oracle.Stencil, oracle.ForkJoin, Allreduce) and their processors."""
    program, p = settings["program"], settings["p"]
    if program == "allreduce":
        return Allreduce(p, settings["steps"], settings["volume"]), p
    counts = block_counts(settings["units"], p)
    if program == "stencil":
        return Stencil(counts, settings["steps"], settings["volume"]), len(counts)
    return ForkJoin(counts, settings["steps"], settings["volume"], settings["join"]), len(counts)


def simulate(settings):
    """SimGrid's makespan of one configuration (the keys of main's `settings`)."""
    from simgrid import Actor, Barrier, Engine

    shape, processors = shape_of(settings)
    k, switched, work = settings["k"], settings["switched"], settings["work"]
    host_pairs = sorted({(a // k, b // k) for a, b in shape.pairs() if a // k != b // k})
    with tempfile.NamedTemporaryFile("w", suffix=".xml", delete=False) as f:
        f.write(node_platform_xml(math.ceil(processors / k), settings["cores"], host_pairs, switched,
                                  switched and settings["latency_after"]))
        platform = f.name
    engine = Engine(["node_oracle", "--cfg=network/model:CM02", "--cfg=network/latency-factor:1",
                     "--cfg=network/bandwidth-factor:1", "--cfg=network/crosstraffic:0",
                     "--log=root.thres:critical"])
    engine.load_platform(platform)
    os.unlink(platform)
    network = Network(engine, k, processors, switched and settings["fifo"], switched and settings["latency_after"])
    barrier = Barrier(processors)
    finish = [0.0]

    def processor(r):
        cpu = network.cpus[r]

        def wait_all(sends):
            cpu.flush()
            network.wait_all(sends)

        shape.run(r, network.box, lambda: work, cpu.compute, Flushed(barrier, cpu), wait_all, False)
        finish[0] = max(finish[0], engine.clock)

    for r in range(processors):
        Actor.create(f"p{r}", network.host(r), processor, r)
    engine.run()
    return finish[0]


def tool_figure(binary, settings):
    """The exact model's mean (`--method exact`) of the same program and machine."""
    name, units, steps, _ = PROGRAMS[settings["program"]]
    command = [binary, os.path.join(HERE, name), "--machine", os.path.join(HERE, MACHINES[settings["machine"]]),
               "--p", str(settings["p"]), "--method", "exact", "--format", "csv", "--quiet",
               "--set", f"k={settings['k']}", "--set", f"c={settings['cores']}",
               "--set", f"{steps}={settings['steps']}", "--set", f"work={settings['work']!r}",
               "--set", f"volume={settings['volume']!r}"]
    if units:
        command += ["--set", f"{units}={settings['units']}"]
    if settings["program"] == "fork-join":
        command += ["--set", f"join={settings['join']!r}"]
    return exact_figure(command)


def settings_of(arguments, k):
    """The configuration both sides read for K = k, p left to fill in."""
    a = arguments
    sizes = PROGRAMS[a.program][3]
    machine = ("fair" if a.fair else "first-come") if a.switched else "private"
    return {"program": a.program, "k": k, "cores": a.cores or k, "machine": machine, "switched": a.switched,
            "fifo": a.fifo_per_connection, "latency_after": a.latency_after,
            "units": a.units or sizes["units"], "steps": a.steps or sizes["steps"], "work": a.work,
            "volume": sizes["volume"] if a.volume is None else a.volume, "join": a.join}


def parse_arguments():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--program", choices=sorted(PROGRAMS), default="stencil")
    parser.add_argument("--k", default="8", help="processors a node, or a list of them: a table each")
    parser.add_argument("--cores", type=int, default=0, help="cores a node (default K)")
    parser.add_argument("--p", default="1,2,8,9,33,64,256,1024")
    parser.add_argument("--units", type=int, default=0, help="columns, or tasks per job (default 2048)")
    parser.add_argument("--steps", type=int, default=0, help="iterations, or jobs (default 4, 3, 2)")
    parser.add_argument("--work", type=float, default=10.0)
    parser.add_argument("--volume", type=float, default=None, help="bytes (default 800, 100, 8192)")
    parser.add_argument("--join", type=float, default=5.0, help="the fork-join's drain")
    parser.add_argument("--switched", action="store_true", help="a port per node: nodes-switched.machine")
    parser.add_argument("--fair", action="store_true", help="with --switched: nodes-switched-fair.machine (M13)")
    parser.add_argument("--fifo-per-connection", action="store_true",
                        help="in SimGrid, the messages of one pair of processors on two nodes one after another")
    parser.add_argument("--latency-after", action="store_true",
                        help="in SimGrid, a message between nodes takes its latency after its last byte (M12)")
    parser.add_argument("--not-slower", action="store_true")
    parser.add_argument("--tolerance", type=float, default=None)
    return parser.parse_args()


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--simulate":  # one p per process: SimGrid's engine is a singleton
        print(repr(simulate(json.loads(sys.argv[2]))))
        return
    arguments = parse_arguments()
    for k in (int(x) for x in arguments.k.split(",")):
        settings = settings_of(arguments, k)
        print(f"{arguments.program}, k = {k}, {settings['cores']} cores a node, {MACHINES[settings['machine']]}"
              + (", one FIFO per connection" if settings["fifo"] else "")
              + (", latency after" if settings["latency_after"] else ""))
        # A table and `ok` per k; the first k where the two part ends the run (exit 1).
        compare_deterministic(
            [int(x) for x in arguments.p.split(",")],
            lambda p: tool_figure(arguments.binary, dict(settings, p=p)),
            lambda p: float(run([sys.executable, os.path.abspath(__file__), "--simulate",
                                 json.dumps(dict(settings, p=p))]).split()[-1]),
            arguments.not_slower, arguments.tolerance)


if __name__ == "__main__":
    main()
