#include "models/machine.hpp"

namespace models {

const char* to_string(Communication communication) {
  return communication == Communication::MessagePassing ? "MESSAGE PASSING" : "SHARED MEMORY";
}

Machine ideal_machine() {
  Machine machine;
  machine.name = "ideal";
  machine.rt_factor = 1.0;
  machine.sizes = {{"BYTE", 1}, {"CHAR", 1}, {"SHORT", 2}, {"INT", 4},
                   {"LONG", 8}, {"FLOAT", 4}, {"DOUBLE", 8}};
  machine.communication = Communication::SharedMemory;
  machine.communication_time = Expr::constant(0.0);
  machine.message_overhead = Expr::constant(0.0);
  machine.barrier_time = Expr::constant(0.0);
  return machine;
}

}  // namespace models
