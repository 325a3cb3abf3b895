#include "sim/solve/coloring.hpp"

#include <algorithm>

#include "sim/material.hpp"

namespace drape::sim {
namespace {

constexpr std::uint32_t kMaxIndependent = 63;

// Stable counting sort of constraint indices by colour.
std::vector<std::uint32_t> orderByColour(const std::vector<std::uint32_t>& colour,
                                         std::uint32_t colours, std::vector<std::uint32_t>& start) {
  start.assign(colours + 1, 0);
  for (std::uint32_t c : colour) ++start[c + 1];
  for (std::uint32_t c = 0; c < colours; ++c) start[c + 1] += start[c];
  std::vector<std::uint32_t> order(colour.size());
  std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
  for (std::uint32_t i = 0; i < colour.size(); ++i) order[fill[colour[i]]++] = i;
  return order;
}

}  // namespace

std::vector<std::uint32_t> colourConstraints(const std::uint32_t* vertices, int per,
                                             std::size_t count, std::size_t vertexCount,
                                             std::uint32_t& colours) {
  std::vector<std::uint64_t> used(vertexCount, 0);  // colours taken at each vertex
  std::vector<std::uint32_t> colour(count);
  colours = 0;
  for (std::size_t i = 0; i < count; ++i) {
    std::uint64_t taken = 0;
    for (int k = 0; k < per; ++k) taken |= used[vertices[i * std::size_t(per) + std::size_t(k)]];
    std::uint32_t c = 0;
    while (c < kMaxIndependent && (taken >> c) & 1u) ++c;
    colour[i] = c;  // c == kMaxIndependent: the serial colour
    if (c < kMaxIndependent)
      for (int k = 0; k < per; ++k)
        used[vertices[i * std::size_t(per) + std::size_t(k)]] |= 1ull << c;
    colours = std::max(colours, c + 1);
  }
  return colour;
}

std::vector<std::uint32_t> colourOrder(const std::uint32_t* vertices, int per, std::size_t count,
                                       std::size_t vertexCount,
                                       std::vector<std::uint32_t>& colourStart,
                                       std::uint32_t& serialColour) {
  std::uint32_t colours = 0;
  const auto colour = colourConstraints(vertices, per, count, vertexCount, colours);
  serialColour = colours > kMaxIndependent ? kMaxIndependent : UINT32_MAX;
  return orderByColour(colour, colours, colourStart);
}

namespace {

// colourOrder over the constraints `members` (indices into all of them),
// appended to `order`; `run` gets the colours' starts in the packed arrays,
// whose first `offset` places come before these.
void colourMembers(const std::vector<std::uint32_t>& verts, int per,
                   const std::vector<std::uint32_t>& members, std::size_t vertexCount,
                   std::uint32_t offset, ColourRun& run, std::vector<std::uint32_t>& order) {
  std::vector<std::uint32_t> subset;
  subset.reserve(members.size() * std::size_t(per));
  for (std::uint32_t i : members)
    subset.insert(subset.end(), verts.begin() + std::ptrdiff_t(i) * per,
                  verts.begin() + std::ptrdiff_t(i + 1) * per);
  for (std::uint32_t k :
       colourOrder(subset.data(), per, members.size(), vertexCount, run.start, run.serial))
    order.push_back(members[k]);
  for (std::uint32_t& start : run.start) start += offset;
}

// The constraints' order: in blocks and seams where few cross them, else
// by colour, or as given as one serial colour.
std::vector<std::uint32_t> packOrder(const std::vector<std::uint32_t>& verts, int per,
                                     std::size_t count, std::size_t vertexCount, bool coloured,
                                     std::vector<BlockRuns>& blocks,
                                     std::vector<std::uint32_t>& colourStart,
                                     std::uint32_t& serialColour) {
  std::vector<std::uint32_t> order;
  order.reserve(count);
  if (!coloured) {
    for (std::size_t i = 0; i < count; ++i) order.push_back(std::uint32_t(i));
    colourStart = {0, std::uint32_t(count)};
    serialColour = 0;
    return order;
  }
  // Block g holds vertices [g·V/K, (g + 1)·V/K). members[2g]: the seam
  // after block g, members[2g + 1]: block g, members[2K]: the rest.
  std::vector<std::vector<std::uint32_t>> members(2 * kSolveBlocks + 1);
  std::size_t across = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint32_t* v = verts.data() + i * std::size_t(per);
    std::size_t lo = kSolveBlocks, hi = 0;
    for (int k = 0; k < per; ++k) {
      lo = std::min(lo, solveBlockOf(v[k], vertexCount));
      hi = std::max(hi, solveBlockOf(v[k], vertexCount));
    }
    const std::size_t part = hi == lo ? 2 * lo + 1 : hi == lo + 1 ? 2 * lo : 2 * kSolveBlocks;
    members[part].push_back(std::uint32_t(i));
    across += hi == lo ? 0 : 1;
  }
  // The seams on either side of an odd block go to the even blocks beside
  // it, in one round: they must share no vertex (a block of a few rows
  // would join them). Else every seam goes to the rest.
  std::vector<std::uint8_t> onSeam(vertexCount, 0);
  bool apart = true;
  for (std::size_t g = 1; g + 1 < kSolveBlocks && apart; g += 2) {
    for (std::uint32_t i : members[2 * (g - 1)])
      for (int k = 0; k < per; ++k) onSeam[verts[i * std::size_t(per) + std::size_t(k)]] = 1;
    for (std::uint32_t i : members[2 * g])
      for (int k = 0; k < per; ++k)
        apart = apart && onSeam[verts[i * std::size_t(per) + std::size_t(k)]] == 0;
  }
  if (!apart)
    for (std::size_t g = 0; g + 1 < kSolveBlocks; ++g) {
      members[2 * kSolveBlocks].insert(members[2 * kSolveBlocks].end(), members[2 * g].begin(),
                                       members[2 * g].end());
      members[2 * g].clear();
    }
  ColourRun rest;
  if (count >= kMinBlocked && double(across) <= kMaxAcross * double(count)) {
    blocks.resize(kSolveBlocks);
    for (std::size_t g = 0; g < kSolveBlocks; ++g) {
      // An even block's seams: the one before it and the one after it.
      std::vector<std::uint32_t> seams;
      if (g % 2 == 0) {
        if (g > 0) seams = members[2 * (g - 1)];
        seams.insert(seams.end(), members[2 * g].begin(), members[2 * g].end());
      }
      colourMembers(verts, per, seams, vertexCount, std::uint32_t(order.size()), blocks[g].seams,
                    order);
      colourMembers(verts, per, members[2 * g + 1], vertexCount, std::uint32_t(order.size()),
                    blocks[g].inside, order);
    }
    std::vector<std::uint32_t>& others = members[2 * kSolveBlocks];
    std::sort(others.begin(), others.end());  // in the constraints' order
    colourMembers(verts, per, others, vertexCount, std::uint32_t(order.size()), rest, order);
  } else {
    blocks.clear();
    order = colourOrder(verts.data(), per, count, vertexCount, rest.start, rest.serial);
  }
  colourStart = std::move(rest.start);
  serialColour = rest.serial;
  return order;
}

}  // namespace

PackedStretch packStretch(const std::vector<StretchConstraint>& c, std::size_t vertexCount,
                          bool coloured) {
  std::vector<std::uint32_t> verts;
  verts.reserve(c.size() * 2);
  for (const StretchConstraint& s : c) {
    verts.push_back(s.a);
    verts.push_back(s.b);
  }
  PackedStretch out;
  out.coloured = coloured;
  for (std::uint32_t i : packOrder(verts, 2, c.size(), vertexCount, coloured, out.blocks,
                                   out.colourStart, out.serialColour)) {
    out.a.push_back(c[i].a);
    out.b.push_back(c[i].b);
    out.rest.push_back(c[i].rest);
    out.stiffness.push_back(c[i].stiffness);
    out.compliance.push_back(float(edgeCompliance(c[i].rest, c[i].area)));
    out.mostCompliance = std::max(out.mostCompliance, out.compliance.back());
    out.uniform = out.uniform && c[i].stiffness == 1.0f;
  }
  return out;
}

PackedBend packBend(const std::vector<BendConstraint>& c, std::size_t vertexCount, bool coloured) {
  std::vector<std::uint32_t> verts;
  verts.reserve(c.size() * 4);
  for (const BendConstraint& b : c) verts.insert(verts.end(), b.v, b.v + 4);
  PackedBend out;
  out.coloured = coloured;
  for (std::uint32_t i : packOrder(verts, 4, c.size(), vertexCount, coloured, out.blocks,
                                   out.colourStart, out.serialColour)) {
    out.v0.push_back(c[i].v[0]);
    out.v1.push_back(c[i].v[1]);
    out.v2.push_back(c[i].v[2]);
    out.v3.push_back(c[i].v[3]);
    out.restAngle.push_back(c[i].restAngle);
    out.restLength.push_back(c[i].restLength);
    out.restArea.push_back(c[i].restArea);
    out.stiffness.push_back(c[i].stiffness);
    out.compliance.push_back(float(hingeCompliance(c[i].restLength, c[i].restArea)));
    out.mostCompliance = std::max(out.mostCompliance, out.compliance.back());
    out.uniform = out.uniform && c[i].stiffness == 1.0f;
  }
  return out;
}

}  // namespace drape::sim
