// The run's memory budget shared by the solves that run side by side: each (case, p) reserves
// what it plans to hold before it holds it, and waits while the others' reservations leave too
// little. Whether a method runs depends only on its own plan against the whole budget, never on
// what else runs, so no figure and no refusal depends on the thread count: only when the
// solves run does.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace analysis {

class MemoryGate {
 public:
  explicit MemoryGate(double capacity) : capacity_(capacity) {}

  // Bytes held by one holder; released when it goes.
  class Reservation {
   public:
    Reservation() = default;
    Reservation(const Reservation&) = delete;
    Reservation& operator=(const Reservation&) = delete;
    Reservation(Reservation&& other) noexcept : gate_(other.gate_), bytes_(other.bytes_) { other.gate_ = nullptr; }
    Reservation& operator=(Reservation&& other) noexcept;
    ~Reservation() { release(); }

    double bytes() const { return bytes_; }
    // Grows to `bytes` if that fits now (never waits), or shrinks to it; false when it does not fit.
    bool try_resize(double bytes);
    void release();

   private:
    friend class MemoryGate;
    Reservation(MemoryGate* gate, double bytes) : gate_(gate), bytes_(bytes) {}
    MemoryGate* gate_ = nullptr;
    double bytes_ = 0.0;
  };

  // Waits until `bytes` (at most the capacity: more is taken as the capacity) fit beside the
  // other reservations. A caller must hold no other reservation while it waits, or two callers
  // could each wait for the other: grow a held one with try_resize instead.
  Reservation acquire(double bytes);

  double capacity() const { return capacity_; }

 private:
  void give_back(double bytes);

  const double capacity_;
  double held_ = 0.0;
  std::mutex lock_;
  std::condition_variable freed_;
};

}  // namespace analysis
