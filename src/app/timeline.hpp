#pragma once
// The last frames simulated, each kept whole enough to resume from exactly:
// a copy of the world without its cloth, and the cloth shared by the frames
// of one topology (it changes only with a new topologyVersion: tearing,
// cutting, a new scene). A world rebuilt from a kept frame steps bit for
// bit as the world did from that frame. Frames beyond the byte budget go,
// oldest first.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>

#include "sim/sim.hpp"

namespace drape::app {

class Timeline {
 public:
  explicit Timeline(std::size_t budget) : budget_(budget) {}

  // Keep `world` as the newest frame of run `run` (a number the caller
  // changes when the scene is built anew). A frame of another run starts
  // the timeline again; kept frames from `world.frame` on are dropped
  // first (the world went back: undo, or a frame taken up again); a frame
  // that does not follow the newest kept one starts again too. The
  // world's cloth is moved out for the copy and back: it ends as it was.
  void keep(sim::World& world, std::uint64_t run);
  // Kept frame `index` (0: the oldest) as a world to step on from.
  sim::World world(std::size_t index) const;
  std::uint64_t frameAt(std::size_t index) const { return frames_[index].world.frame; }
  // The index of the kept frame numbered `frame`, or size() when none.
  std::size_t indexOf(std::uint64_t frame) const;

  std::size_t size() const { return frames_.size(); }
  bool empty() const { return frames_.empty(); }
  // Simulated seconds from the oldest kept frame to the newest.
  double span() const;
  std::size_t bytes() const { return used_; }
  std::size_t budget() const { return budget_; }
  void clear();

 private:
  struct Frame {
    sim::World world;  // its cloth empty
    std::shared_ptr<const sim::Cloth> cloth;
    std::size_t bytes;  // the world's, and the cloth's when it brought it
  };
  void dropOldest();

  std::size_t budget_;
  std::size_t used_ = 0;
  std::uint64_t run_ = 0;
  std::deque<Frame> frames_;
};

}  // namespace drape::app
