#!/usr/bin/env python3
"""SimGrid as an independent oracle of a PAIRED and a MACROPIPELINE phase's exact model on a
switched cluster (examples/machines/switched-cluster.machine: latency t_s = 50 us, port time
t_w*L with t_w = 0.01, one port per processor, eager, o = 0; docs/semantics.md M12), in the
style of collective_oracle.py: in SimGrid one split-duplex link per host to a switch
(oracle.switched_platform_xml), CM02 with its factors at 1, which shares each host's link
max-min among the messages on it.

    phase_oracle.py PDL_SCALE --program paired|macropipeline --machine FILE --p 2,4,64
                    [--volume V] [--units N|Kp] [--distances 1,2] [--jobs J] [--stages N|Kp]
                    [--fifo-per-connection] [--latency-after] [--private-links]
                    [--not-slower | --tolerance R]

--fifo-per-connection: the messages of one ordered (sender, receiver) pair go one after another
(the next put to that receiver starts once the previous one has completed); others share
max-min. --latency-after: the links have no latency and a message is delivered t_s after its
last byte (M12's order: port time, then the latency; otherwise SimGrid pays the latency first,
and a FIFO connection pays it again before each queued message). --private-links: a link of its
own per ordered pair (oracle.py's platform) that never shares (FATPIPE), for
tests/simgrid/private-links.machine, where every message takes t_s + t_w*L whatever else is in
flight (S = 1): a check of the schedule alone. --not-slower: the tool never above SimGrid;
--tolerance R: within R, relative.

The schedules, from docs/semantics.md alone (o = 0 and eager: a send departs at once and its
sender goes on, every receive is posted at the start and waited for where the order has it):
- paired (P1, G6, M4-M7): n iterations on BLOCK processors; each processor runs its
  independent subtasks in index order, then its dependent ones in index order. dependent(i)
  first takes, for each distance d in declaration order with i - d >= 0 on another processor,
  the message of V bytes from dependent(i - d), one per (sending iteration, receiving
  processor) (M5: a later dependence reuses it). The sends follow dependent(u) in the order
  the dependences were created (M6). The phase ends with sync(0).
- macropipeline (MP1, G6, F1): S stages on BLOCK processors; job by job, each processor runs
  its stages of job j in increasing s; a stage whose predecessor is on another processor first
  takes its message of V bytes, and a processor's last stage of a job sends V to the next one.
  Job j's first stage starts no earlier than j*A (A the interarrival time, 0: all at once).
The makespan is when the last task ends or the last message arrives (G1). Time units are the
tool's (microseconds as SimGrid seconds); SimGrid runs one p per child process.
"""
import argparse
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from oracle import (block_counts, compare_deterministic, exact_figure, platform_xml, run,  # noqa: E402
                    switched_platform_xml)

TS, TW = 50.0, 0.01  # examples/machines/switched-cluster.machine, tests/simgrid/private-links.machine
MACHINE = os.path.join(HERE, "..", "..", "examples", "machines", "switched-cluster.machine")
PROGRAMS = {"paired": """PROGRAM NAME IS 'paired-oracle';
VARIABLE n = 64;
VARIABLE independent = 10;
VARIABLE dependent = 20;
VARIABLE volume = 65536;
EXECUTION PATTERN IS loop;
WORK PHASE loop IS:
  PARALLELIZATION SCHEME IS PAIRED;
  DEPENDENCY IS {distances};
  INDEPENDENT SUBTASK IS:
    RUNTIME IS DETERMINISTIC(independent);
  END;
  DEPENDENT SUBTASK IS:
    RUNTIME IS DETERMINISTIC(dependent);
    COMMUNICATION VOLUME IS volume;
  END;
  PROBLEM SIZE IS VECTOR iterations(n);
  SCHEDULING IS BLOCK;
END;
""", "macropipeline": """PROGRAM NAME IS 'macropipeline-oracle';
VARIABLE jobs = 8;
VARIABLE stages = 64;
VARIABLE work = 10;
VARIABLE volume = 65536;
VARIABLE interarrival = 0;
EXECUTION PATTERN IS pipe;
WORK PHASE pipe IS:
  PARALLELIZATION SCHEME IS MACROPIPELINE;
  SUBTASK RUNTIME IS DETERMINISTIC(work);
  JOBS IS jobs;
  STAGES IS stages;
  INTERARRIVAL TIME IS DETERMINISTIC(interarrival);
  COMMUNICATION VOLUME IS volume;
END;
"""}


def owners(units, p):
    """G6 BLOCK: the processor of each unit."""
    return [k for k, count in enumerate(block_counts(units, p)) for _ in range(count)]


def paired_schedule(p, n, distances, independent, dependent):
    """Per processor its operations: ("work", t), ("send", receiver, key), ("recv", key)."""
    owner = owners(n, p)
    sends = [[] for _ in range(n)]  # M6: after dependent(u), in creation order
    receives = [[] for _ in range(n)]  # M7: right before dependent(i), in distance order
    messages = set()
    for i in range(n):
        for d in distances:
            u = i - d
            if u >= 0 and owner[u] != owner[i] and (u, owner[i]) not in messages:  # M5
                messages.add((u, owner[i]))
                sends[u].append((owner[u], owner[i]))
                receives[i].append((u, owner[i]))
    ops = [[] for _ in range(max(owner) + 1 if n else 0)]
    for i in range(n):
        ops[owner[i]].append(("work", independent))
    for i in range(n):
        ops[owner[i]] += [("recv", key) for key in receives[i]] + [("work", dependent)]
        ops[owner[i]] += [("send", b, (i, b)) for _, b in sends[i]]
    return ops


def macropipeline_schedule(p, jobs, stages, work, interarrival):
    owner = owners(stages, p)
    ops = [[] for _ in range(max(owner) + 1 if stages else 0)]
    for j in range(jobs):
        for s in range(stages):
            k = owner[s]
            if s > 0 and owner[s - 1] != k:
                ops[k].append(("recv", (j, s)))
            if s == 0 and j > 0 and interarrival > 0:
                ops[k].append(("until", j * interarrival))  # F1: job j released at j*A
            ops[k].append(("work", work))
            if s + 1 < stages and owner[s + 1] != k:
                ops[k].append(("send", owner[s + 1], (j, s + 1)))
    return ops


def simulate(config):
    from simgrid import Actor, Engine, Mailbox, Semaphore, this_actor

    p, c = config["p"], config
    if c["program"] == "paired":
        ops = paired_schedule(p, c["units"], c["distances"], c["independent"], c["dependent"])
    else:
        ops = macropipeline_schedule(p, c["jobs"], c["stages"], c["work"], c["interarrival"])
    # Channels: the messages a helper on the sender's host puts one after another, each once its
    # sender has reached the send: one channel per connection (FIFO) or per message (max-min).
    channels, sender = {}, {}
    for k, order in enumerate(ops):
        for op in order:
            if op[0] == "send":
                key = repr(op[2])
                sender[key] = (k, op[1])
                channels.setdefault((k, op[1]) if c["fifo"] else key, []).append(key)
    pairs = sorted(set(sender.values()))
    latency = 0.0 if c["latency_after"] else TS
    if c["private"]:  # a link per pair that never shares (FATPIPE): every message alone, as S = 1 says
        xml = platform_xml(max(1, len(ops)), pairs, latency, 1.0 / TW).replace('s"/>', 's" sharing_policy="FATPIPE"/>')
    else:
        xml = switched_platform_xml(max(1, len(ops)), pairs, latency, 1.0 / TW)
    with tempfile.NamedTemporaryFile("w", suffix=".xml", delete=False) as f:
        f.write(xml)
        platform = f.name
    engine = Engine(["phase", "--cfg=network/model:CM02", "--cfg=network/latency-factor:1",
                     "--cfg=network/bandwidth-factor:1", "--cfg=network/crosstraffic:0",
                     "--log=root.thres:critical"])
    engine.load_platform(platform)
    os.unlink(platform)
    ready = {key: Semaphore(0) for key in sender}
    delivered = {key: Semaphore(0) for key in sender}
    finish = [0.0]

    def channel(keys):
        for key in keys:
            ready[key].acquire()
            Mailbox.by_name(key).put(key, int(c["volume"]))

    def delivery(key):  # the receive, posted at the start (eager)
        Mailbox.by_name(key).get()
        if c["latency_after"]:
            this_actor.sleep_for(TS)
        delivered[key].release()
        finish[0] = max(finish[0], engine.clock)

    def processor(k):
        for op in ops[k]:
            if op[0] == "work":
                this_actor.sleep_for(op[1])
            elif op[0] == "until":
                this_actor.sleep_for(max(0.0, op[1] - engine.clock))
            elif op[0] == "send":
                ready[repr(op[2])].release()
            else:
                delivered[repr(op[1])].acquire()
        finish[0] = max(finish[0], engine.clock)

    for k in range(len(ops)):
        Actor.create(f"p{k}", engine.host_by_name(f"h{k}"), processor, k)
    for keys in channels.values():
        Actor.create("send", engine.host_by_name(f"h{sender[keys[0]][0]}"), channel, keys)
    for key, (_, b) in sender.items():
        Actor.create("receive", engine.host_by_name(f"h{b}"), delivery, key)
    engine.run()
    return finish[0]


def count(text, p):
    """N, or Kp: K times p."""
    return int(text[:-1] or 1) * p if text.endswith("p") else int(text)


def configuration(arguments, p):
    return {"program": arguments.program, "p": p, "units": count(arguments.units, p),
            "distances": [int(d) for d in arguments.distances.split(",")], "independent": arguments.independent,
            "dependent": arguments.dependent, "jobs": arguments.jobs, "stages": count(arguments.stages, p),
            "work": arguments.work, "interarrival": arguments.interarrival, "volume": arguments.volume,
            "fifo": arguments.fifo_per_connection, "latency_after": arguments.latency_after,
            "private": arguments.private_links}


def tool_figure(binary, machine, config):
    c = config
    if c["program"] == "paired":
        values = {"n": c["units"], "independent": c["independent"], "dependent": c["dependent"]}
    else:
        values = {"jobs": c["jobs"], "stages": c["stages"], "work": c["work"], "interarrival": c["interarrival"]}
    values["volume"] = c["volume"]
    with tempfile.TemporaryDirectory() as directory:
        program = os.path.join(directory, "phase.pdl")
        with open(program, "w") as f:
            f.write(PROGRAMS[c["program"]].format(distances=", ".join(str(d) for d in c["distances"])))
        command = [binary, program, "--machine", machine, "--p", str(c["p"]), "--method", "exact", "--format", "csv",
                   "--quiet"]
        for name, value in values.items():
            command += ["--set", f"{name}={value!r}"]
        return exact_figure(command)


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--simulate":  # one p per process: SimGrid's engine is a singleton
        print(repr(simulate(json.loads(sys.argv[2]))))
        return
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--program", choices=["paired", "macropipeline"], default="paired")
    parser.add_argument("--machine", default=MACHINE)
    parser.add_argument("--p", default="2,4,8,16,64")
    parser.add_argument("--volume", type=float, default=65536.0)
    parser.add_argument("--units", default="p", help="paired: iterations, N or Kp (K per processor)")
    parser.add_argument("--distances", default="1,2", help="paired: DEPENDENCY")
    parser.add_argument("--independent", type=float, default=10.0)
    parser.add_argument("--dependent", type=float, default=20.0)
    parser.add_argument("--jobs", type=int, default=8, help="macropipeline")
    parser.add_argument("--stages", default="p", help="macropipeline: N or Kp")
    parser.add_argument("--work", type=float, default=10.0, help="macropipeline: a stage's time")
    parser.add_argument("--interarrival", type=float, default=0.0)
    parser.add_argument("--fifo-per-connection", action="store_true")
    parser.add_argument("--latency-after", action="store_true")
    parser.add_argument("--private-links", action="store_true")
    parser.add_argument("--not-slower", action="store_true")
    parser.add_argument("--tolerance", type=float, default=None)
    arguments = parser.parse_args()
    compare_deterministic(
        [int(x) for x in arguments.p.split(",")],
        lambda p: tool_figure(arguments.binary, arguments.machine, configuration(arguments, p)),
        lambda p: float(run([sys.executable, os.path.abspath(__file__), "--simulate",
                             json.dumps(configuration(arguments, p))]).split()[-1]),
        arguments.not_slower, arguments.tolerance)


if __name__ == "__main__":
    main()
