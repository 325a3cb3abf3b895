#include "ui/param_widgets.hpp"

#include <cstdio>

#include <imgui.h>

namespace drape::ui {
namespace {

void tooltip(const sim::ParamDesc& desc) {
  if (!ImGui::IsItemHovered()) return;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 24.0f);
  ImGui::TextUnformatted(desc.help);
  ImGui::TextDisabled("%s", sim::describeRange(desc).c_str());
  if (desc.rebuild) ImGui::TextDisabled("changing it rebuilds the scene");
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

// printf format of a value with its unit; units hold no '%'.
void formatWithUnit(char* out, std::size_t size, const char* number, const char* unit) {
  std::snprintf(out, size, "%s%s%s", number, unit[0] ? " " : "", unit);
}

}  // namespace

bool drawParamWidget(const sim::ParamDesc& desc, sim::Params& params) {
  // Ctrl+click types a value; AlwaysClamp keeps typed values in range too.
  const ImGuiSliderFlags clamp = ImGuiSliderFlags_AlwaysClamp;
  char format[64];
  bool changed = false;
  switch (desc.type) {
    case sim::ParamType::Float: {
      float v = float(desc.get(params));
      formatWithUnit(format, sizeof format, "%.4g", desc.unit);
      const ImGuiSliderFlags flags = clamp | (desc.logScale ? ImGuiSliderFlags_Logarithmic : 0);
      changed = ImGui::SliderFloat(desc.name, &v, float(desc.min), float(desc.max), format, flags);
      if (changed) desc.set(params, double(v));
      break;
    }
    case sim::ParamType::Switch: {
      bool on = desc.get(params) != 0.0;
      changed = ImGui::Checkbox(desc.name, &on);
      if (changed) desc.set(params, on ? 1.0 : 0.0);
      break;
    }
    case sim::ParamType::Int: {
      int v = int(desc.get(params));
      formatWithUnit(format, sizeof format, "%d", desc.unit);
      changed = ImGui::SliderInt(desc.name, &v, int(desc.min), int(desc.max), format, clamp);
      if (changed) desc.set(params, double(v));
      break;
    }
    case sim::ParamType::Enum: {
      int v = int(desc.get(params));
      changed = ImGui::Combo(desc.name, &v, desc.choices.data(), int(desc.choices.size()));
      if (changed) desc.set(params, double(v));
      break;
    }
    case sim::ParamType::Vec3: {
      glm::vec3 v = desc.getVec(params);
      // Three fields leave no room for a unit in each: it goes after the
      // name, and the id stays the bare name.
      char label[96];
      if (desc.unit[0])
        std::snprintf(label, sizeof label, "%s %s###%s", desc.name, desc.unit, desc.name);
      else
        std::snprintf(label, sizeof label, "%s", desc.name);
      // A drag speed of 1/1000 of the range per pixel: fine, yet the whole
      // range is a few mouse sweeps away.
      const float speed = float(desc.max - desc.min) * 1e-3f;
      changed =
          ImGui::DragFloat3(label, &v.x, speed, float(desc.min), float(desc.max), "%.2f", clamp);
      if (changed) desc.setVec(params, v);
      break;
    }
  }
  tooltip(desc);
  return changed;
}

}  // namespace drape::ui
