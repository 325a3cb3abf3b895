#pragma once
// One ImGui widget per parameter, chosen from its descriptor in the parameter
// table: the panel never names a parameter itself, so a parameter
// added to the table appears in the panel with no change here.

#include "sim/sim.hpp"

namespace drape::ui {

// Draw the widget of `desc` editing `params`, with the help text (and the
// allowed range) as a tooltip. Returns true when the value changed this frame.
//   Float → slider (logarithmic when desc.logScale), the unit in the format
//   Int   → integer slider (a checkbox when the range is [0, 1])
//   Enum  → combo of desc.choices
//   Vec3  → three drag fields, each clamped to [min, max]
bool drawParamWidget(const sim::ParamDesc& desc, sim::Params& params);

}  // namespace drape::ui
