#include "analysis/memory_gate.hpp"

#include <algorithm>

namespace analysis {

MemoryGate::Reservation& MemoryGate::Reservation::operator=(Reservation&& other) noexcept {
  if (this != &other) {
    release();
    gate_ = other.gate_;
    bytes_ = other.bytes_;
    other.gate_ = nullptr;
  }
  return *this;
}

bool MemoryGate::Reservation::try_resize(double bytes) {
  if (gate_ == nullptr) return false;
  bytes = std::min(bytes, gate_->capacity_);
  std::lock_guard<std::mutex> guard(gate_->lock_);
  if (bytes > bytes_ && gate_->held_ - bytes_ + bytes > gate_->capacity_) return false;
  gate_->held_ += bytes - bytes_;
  if (bytes < bytes_) gate_->freed_.notify_all();
  bytes_ = bytes;
  return true;
}

void MemoryGate::Reservation::release() {
  if (gate_ == nullptr) return;
  gate_->give_back(bytes_);
  gate_ = nullptr;
  bytes_ = 0.0;
}

MemoryGate::Reservation MemoryGate::acquire(double bytes) {
  bytes = std::clamp(bytes, 0.0, capacity_);
  std::unique_lock<std::mutex> guard(lock_);
  freed_.wait(guard, [&] { return held_ + bytes <= capacity_; });
  held_ += bytes;
  return Reservation(this, bytes);
}

void MemoryGate::give_back(double bytes) {
  {
    std::lock_guard<std::mutex> guard(lock_);
    held_ = std::max(0.0, held_ - bytes);
  }
  freed_.notify_all();
}

}  // namespace analysis
