#include "models/machine.hpp"

#include <cmath>

#include <fmt/format.h>

#include "models/limits.hpp"

namespace models {

const char* to_string(Communication communication) {
  return communication == Communication::MessagePassing ? "MESSAGE PASSING" : "SHARED MEMORY";
}

const char* to_string(Topology topology) {
  switch (topology) {
    case Topology::FullyConnected: return "FULLY CONNECTED";
    case Topology::Bus: return "BUS";
    case Topology::Ring: return "RING";
    case Topology::Mesh2D: return "MESH 2D";
    case Topology::Torus2D: return "TORUS 2D";
    case Topology::Mesh3D: return "MESH 3D";
    case Topology::Torus3D: return "TORUS 3D";
    case Topology::Hypercube: return "HYPERCUBE";
    case Topology::FatTree: return "FAT TREE";
  }
  return "FULLY CONNECTED";
}

const char* to_string(PortSharing sharing) { return sharing == PortSharing::Fair ? "FAIR" : "FIRST COME FIRST SERVED"; }

const char* to_string(Placement placement) {
  switch (placement) {
    case Placement::Block: return "BLOCK";
    case Placement::Cyclic: return "CYCLIC";
    case Placement::List: return "LIST";
  }
  return "BLOCK";
}

const char* to_string(Protocol protocol) { return protocol == Protocol::Rendezvous ? "RENDEZVOUS" : "EAGER"; }

Machine ideal_machine() {
  Machine machine;
  machine.name = "ideal";
  machine.rt_factor = 1.0;
  machine.sizes = {{"BYTE", 1}, {"CHAR", 1}, {"SHORT", 2}, {"INT", 4}, {"LONG", 8}, {"FLOAT", 4}, {"DOUBLE", 8}};
  machine.communication = Communication::SharedMemory;
  machine.communication_time = Expr::constant(0.0);
  machine.message_overhead = Expr::constant(0.0);
  machine.barrier_time = Expr::constant(0.0);
  return machine;
}

CollectiveAlgorithm algorithm_of(const Machine& machine, CollectiveOperation operation) {
  const auto found = machine.collectives.find(operation);
  return found == machine.collectives.end() ? default_algorithm(operation) : found->second;
}

std::optional<std::string> invalid_ports(double ports) {
  if (ports >= 1 && ports <= kMostPorts && ports == std::floor(ports)) return std::nullopt;
  return fmt::format("PORTS must be a whole number from 1 to {:g}, got {}", kMostPorts, ports);
}

}  // namespace models
