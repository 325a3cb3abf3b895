#include "app/timeline.hpp"

#include <utility>

#include "app/footprint.hpp"

namespace drape::app {

void Timeline::keep(sim::World& world, std::uint64_t run) {
  if (run != run_) clear();
  run_ = run;
  while (!frames_.empty() && frames_.back().world.frame >= world.frame) {
    const Frame& last = frames_.back();
    used_ -= last.bytes;
    frames_.pop_back();
  }
  // Kept frames follow each other one frame apart (the slider counts on it).
  if (!frames_.empty() && frames_.back().world.frame + 1 != world.frame) clear();
  // The copy without the cloth: its arrays are moved out of `world` and back
  // (the same buffers, so the world is as it was) rather than copied twice.
  sim::Cloth cloth = std::move(world.cloth);
  Frame frame{world, nullptr, 0};
  world.cloth = std::move(cloth);
  frame.bytes = worldBytesWithoutCloth(frame.world);
  if (!frames_.empty() && frames_.back().cloth->topologyVersion == world.cloth.topologyVersion) {
    frame.cloth = frames_.back().cloth;
  } else {
    frame.cloth = std::make_shared<const sim::Cloth>(world.cloth);
    frame.bytes += clothBytes(world.cloth);
  }
  used_ += frame.bytes;
  frames_.push_back(std::move(frame));
  while (used_ > budget_ && frames_.size() > 1) dropOldest();
}

void Timeline::dropOldest() {
  Frame& first = frames_.front();
  used_ -= first.bytes;
  // The next frame shares its cloth: the cloth's bytes go to it.
  if (frames_.size() > 1 && frames_[1].cloth == first.cloth) {
    const std::size_t cloth = clothBytes(*first.cloth);
    frames_[1].bytes += cloth;
    used_ += cloth;
  }
  frames_.pop_front();
}

sim::World Timeline::world(std::size_t index) const {
  const Frame& f = frames_[index];
  sim::World w = f.world;
  w.cloth = *f.cloth;
  return w;
}

std::size_t Timeline::indexOf(std::uint64_t frame) const {
  for (std::size_t i = 0; i < frames_.size(); ++i)
    if (frames_[i].world.frame == frame) return i;
  return frames_.size();
}

double Timeline::span() const {
  return frames_.empty() ? 0.0 : frames_.back().world.time - frames_.front().world.time;
}

void Timeline::clear() {
  frames_.clear();
  used_ = 0;
}

}  // namespace drape::app
