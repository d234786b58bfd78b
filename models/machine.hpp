// The machine model (docs/machine.md): what a task, a message and a barrier cost.
#pragma once

#include "models/collective.hpp"
#include "models/expr.hpp"
#include "models/program.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace models {

enum class Communication { MessagePassing, SharedMemory };

// How the processors are wired (TOPOLOGY IS ...;): decides the bandwidth-sharing factor S that
// the message costs may read (docs/machine.md, "Topology and bandwidth sharing").
enum class Topology { FullyConnected, Bus, Ring, Mesh2D, Torus2D, Mesh3D, Torus3D, Hypercube, FatTree };
const char* to_string(Topology topology);  // "MESH 2D"

// A constant of a machine file as written (VARIABLE ts = 50;): kept so that a value given on the
// command line (--set ts=10, --sweep ts=...) re-evaluates everything that depends on it
// (models/machine_constants.hpp).
struct MachineConstant {
  std::string name;
  Expr definition;  // of the constants declared before it
  SourceLocation location;
};
const char* to_string(Communication communication);  // "MESSAGE PASSING"

// How a port serves the messages that hold it at once (PORT SHARING IS ...;, docs/semantics.md
// M12, M13): one after another in the order they come, or fairly (max-min) among them.
enum class PortSharing { FirstComeFirstServed, Fair };
const char* to_string(PortSharing sharing);  // "FIRST COME FIRST SERVED"

// How a message's transfer starts: with its send (eager), or once its receiver has posted the
// receive (rendezvous; docs/semantics.md M11).
enum class Protocol { Eager, Rendezvous };
const char* to_string(Protocol protocol);  // "RENDEZVOUS"

// A protocol segment of the message law (SEGMENT FROM b IS: ... END;, docs/machine.md "Protocol
// segments", semantics M14): the law of messages of at least `from` bytes, up to the next
// segment's. A statement the segment does not give keeps the law of the sizes below it.
// How processes (ranks 0 .. P-1) are placed on nodes: in blocks of k (rank r on node r / k), in
// turn (rank r on node r mod N, N = ceil(P / k) nodes), or as a list of each node's ranks.
enum class Placement { Block, Cyclic, List };
const char* to_string(Placement placement);  // "CYCLIC"

// Processors grouped in nodes (NODE IS: ... END;, docs/machine.md "Nodes", semantics M15): k
// processes a node on c cores, and the law of a message between two processes of one node.
struct Nodes {
  Expr processors;            // k of the P processors a node: a whole number >= 1; constant
  std::optional<Expr> cores;  // c: a whole number >= 1; none: k (a core a processor)
  Placement placement = Placement::Block;
  // Placement::List: node i holds the ranks listed[i] (each rank 0 .. N-1 once, at most k a node).
  std::vector<std::vector<std::int64_t>> listed;
  std::optional<Expr> communication_time;  // inside a node (L, P, constants); none: the machine's
  std::optional<Expr> message_overhead;    // inside a node; none: the machine's
  // Bytes per unit of time the node's memory serves its tasks together (a roofline, M16); none:
  // no bound.
  std::optional<Expr> memory_bandwidth;
  SourceLocation location;
};

struct MessageSegment {
  Expr from;  // bytes, > 0; may use the constants
  Expr communication_time;
  Expr message_overhead;
  std::optional<Expr> port_time;     // none: the machine has no ports
  std::optional<Protocol> protocol;  // none: the EAGER LIMIT decides
  SourceLocation location;
};

struct Machine {
  std::string name;  // also replaces $ARCH in NUMERICAL file names
  std::string file;  // empty for the built-in ideal machine
  // Every task runtime that mentions RTFactor is scaled by it.
  double rt_factor = 1.0;
  // Named constants of the machine file (VARIABLE ts = 50;), usable in its expressions.
  std::map<std::string, double> constants;
  // The same constants as declared, in declaration order; empty for a machine built in code
  // (whose constants are then plain values).
  std::vector<MachineConstant> constant_definitions;
  // RTFACTOR and SIZEOF as written, when the file gives them (they may use the constants).
  std::optional<Expr> rt_factor_definition;
  std::map<std::string, Expr> size_definitions;
  // Constants given as a range (VARIABLE ts = 36.5 .. 57.4;): [lower, upper]. The constant's value
  // above is the lower end; the command analyses a lower and an upper machine
  // (docs/machine.md, "Interval-valued constants").
  std::map<std::string, std::pair<double, double>> constant_ranges;
  // Constants given a value from outside the file (models::with_constants), which a later
  // re-evaluation keeps instead of their definitions.
  std::map<std::string, double> given_constants;
  // Bytes per type, upper-case keys; SIZEOF(type) in a program reads this table.
  std::map<std::string, double> sizes;
  Communication communication = Communication::MessagePassing;
  Topology topology = Topology::FullyConnected;
  // The algorithm of each collective operation the file chooses (COLLECTIVE op IS alg;); an
  // operation not listed uses models::default_algorithm.
  std::map<CollectiveOperation, CollectiveAlgorithm> collectives;
  // Time of one transfer of L bytes; may use L, P and the constants. Default 0.
  Expr communication_time;
  // Processor time a send, and again a receive, of a message of L bytes occupies on its
  // processor (LogP's overhead o); the communication time only delays. May use L, P and the
  // constants. Default 0.
  Expr message_overhead = Expr::constant(0.0);
  // Time of one barrier among P processors; may use P and the constants. Default 0.
  Expr barrier_time;
  // Optional contention delay c(T, P) added once per parallel phase instance: T is its work,
  // the sum of the means of its tasks (docs/machine.md).
  std::optional<Expr> contention;
  // Messages of more bytes than this are rendezvous: the transfer starts no earlier than the
  // receiver posts its receive (docs/semantics.md M11). None: every message is eager, as
  // without the statement. May use the constants.
  std::optional<Expr> eager_limit;
  SourceLocation eager_limit_location;  // of the EAGER LIMIT statement's value
  // Time a message of L bytes occupies its sender's port and its receiver's port, one message
  // at a time on each (LogGP's G·L; docs/semantics.md M12). None: no ports, messages overlap
  // freely, as without the statement. May use L, P and the constants.
  std::optional<Expr> port_time;
  // Ports per processor and direction, each serving one message at a time (PORTS IS k;, a whole
  // number from 1 to kMostPorts; docs/semantics.md M12). None: one. May use the constants.
  std::optional<Expr> ports;
  SourceLocation ports_location;  // of the PORTS statement's value
  // How each port shares itself among the messages that hold it at once (PORT SHARING IS FAIR;):
  // first come, first served by default (M12), or max-min fair sharing (M13).
  PortSharing port_sharing = PortSharing::FirstComeFirstServed;
  // The message law's protocol segments in increasing `from`; the statements above are the law
  // below the first one. None: one law for every size.
  std::vector<MessageSegment> segments;
  // Nodes of several processes; none: every processor a node of its own, as before.
  std::optional<Nodes> nodes;
  SourceLocation location;
};

// RTFactor 1, free communication and barriers, no contention, the standard type sizes
// (CHAR 1, BYTE 1, SHORT 2, INT 4, LONG 8, FLOAT 4, DOUBLE 8). Its name is "ideal".
Machine ideal_machine();

// Why `ports` is no value of PORTS (a whole number from 1 to kMostPorts), or none when it is one;
// checked where the file is read and again where --set constants give it a new value.
std::optional<std::string> invalid_ports(double ports);

// The machine's algorithm for `operation`: its COLLECTIVE statement, else the default.
CollectiveAlgorithm algorithm_of(const Machine& machine, CollectiveOperation operation);

}  // namespace models
