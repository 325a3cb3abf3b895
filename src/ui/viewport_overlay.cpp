#include "ui/viewport_overlay.hpp"

#include <algorithm>
#include <cstdio>

#include <imgui.h>

#include "render/cloth_view.hpp"
#include "render/strain.hpp"
#include "ui/theme.hpp"

namespace drape::ui {
namespace {

constexpr ImGuiWindowFlags kOverlayFlags =
    ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
    ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
    ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoMove;
constexpr float kMargin = 10.0f;       // between overlays and the view's edges
constexpr float kBadgeWidth = 110.0f;  // room kept for the recording badge

// Widths of the auto-sized toolbar, known only once it has been drawn: the
// last frame's decide where this frame's goes in a narrow view, and whether
// its two groups (tools; view and help) share one row.
float toolbarWidth = 0.0f;
float toolsRowWidth = 0.0f, viewRowWidth = 0.0f;

// Whether the toolbar, centred, would leave the view or run into the
// recording badge.
bool crowded(const ViewportInput& in) {
  if (toolbarWidth + 2.0f * kMargin > in.width) return true;
  return in.recording && 0.5f * (in.width + toolbarWidth) + 2.0f * kMargin + kBadgeWidth > in.width;
}

ImU32 toU32(const glm::vec3& c) {
  return ImGui::ColorConvertFloat4ToU32(ImVec4(c.x, c.y, c.z, 1.0f));
}

void tooltip(const char* text) {
  if (!ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) return;
  ImGui::BeginTooltip();
  ImGui::TextUnformatted(text);
  ImGui::EndTooltip();
}

// A button that shows whether it is on (the accent colour).
bool toggleButton(const char* label, bool on, bool enabled = true) {
  if (on) {
    ImGui::PushStyleColor(ImGuiCol_Button, theme::kAccent);
    ImGui::PushStyleColor(ImGuiCol_ButtonHovered, theme::kAccentHover);
    ImGui::PushStyleColor(ImGuiCol_ButtonActive, theme::kAccentHover);
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.08f, 0.06f, 0.05f, 1.0f));
  }
  ImGui::BeginDisabled(!enabled);
  const bool pressed = ImGui::Button(label);
  ImGui::EndDisabled();
  if (on) ImGui::PopStyleColor(4);
  return pressed;
}

// A thin vertical line between groups of the toolbar.
constexpr float kGroupGap = 21.0f;
void groupGap() {
  ImGui::SameLine(0.0f, 10.0f);
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float h = ImGui::GetFrameHeight();
  ImGui::GetWindowDrawList()->AddLine(ImVec2(p.x, p.y + 3.0f), ImVec2(p.x, p.y + h - 3.0f),
                                      ImGui::GetColorU32(ImGuiCol_Separator));
  ImGui::Dummy(ImVec2(1.0f, h));
  ImGui::SameLine(0.0f, 10.0f);
}

void beginOverlay(const char* name, ImVec2 pos, ImVec2 pivot, const ImVec4& bg) {
  ImGui::SetNextWindowPos(pos, ImGuiCond_Always, pivot);
  ImGui::PushStyleColor(ImGuiCol_WindowBg, bg);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 6.0f);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(8.0f, 6.0f));
  ImGui::Begin(name, nullptr, kOverlayFlags);
}

void endOverlay() {
  ImGui::End();
  ImGui::PopStyleVar(2);
  ImGui::PopStyleColor();
}

void toolbar(const ViewportInput& in, ViewportResult& out) {
  // Centred over the view; in one too narrow for that, from its left edge,
  // and in two rows if one does not fit.
  const bool left = crowded(in);
  const bool stacked = toolsRowWidth + kGroupGap + viewRowWidth + 2.0f * kMargin > in.width;
  beginOverlay("##toolbar", ImVec2(left ? in.left + kMargin : in.left + 0.5f * in.width, kMargin),
               ImVec2(left ? 0.0f : 0.5f, 0.0f), theme::kOverlayBg);
  const float rowStart = ImGui::GetCursorScreenPos().x;
  for (int i = 0; i < in.toolCount; ++i) {
    if (i > 0) ImGui::SameLine(0.0f, 4.0f);
    const ToolButton& t = in.tools[i];
    if (toggleButton(t.label, i == in.activeTool, t.enabled)) out.pickTool = i;
    tooltip(t.tooltip);
  }
  toolsRowWidth = ImGui::GetItemRectMax().x - rowStart;
  if (!stacked) groupGap();
  const float viewStart = ImGui::GetCursorScreenPos().x;
  render::ViewOptions view = in.view;
  const bool lit = view.shading == render::Shading::Lit;
  if (toggleButton("Shaded", lit)) view.shading = render::Shading::Lit;
  tooltip("Shaded cloth (1)");
  ImGui::SameLine(0.0f, 4.0f);
  if (toggleButton("Strain", !lit)) view.shading = render::Shading::Strain;
  tooltip("Strain heat map: how far each vertex's edges are from their rest length (3)");
  ImGui::SameLine(0.0f, 4.0f);
  if (toggleButton("Wire", view.wireframe)) view.wireframe = !view.wireframe;
  tooltip("Wireframe over the cloth (W; 2: shaded with wireframe)");
  if (view.shading != in.view.shading || view.wireframe != in.view.wireframe) out.view = view;
  ImGui::SameLine(0.0f, 12.0f);
  if (ImGui::Button("Frame")) out.frame = true;
  tooltip("Frame the cloth (F)");
  ImGui::SameLine(0.0f, 4.0f);
  if (toggleButton("?", in.showHelp)) out.toggleHelp = true;
  tooltip("Keyboard and mouse (H)");
  viewRowWidth = ImGui::GetItemRectMax().x - viewStart;
  toolbarWidth = ImGui::GetWindowWidth();
  endOverlay();
}

// Where the banners go: under the toolbar, in the middle of the view.
ImVec2 bannerPlace(const ViewportInput& in) {
  return ImVec2(in.left + 0.5f * in.width, 3.0f * kMargin + ImGui::GetFrameHeight() + 12.0f);
}

void noticeBanner(const ViewportInput& in) {
  if (!in.notice || in.notice->empty() || (in.error && !in.error->empty())) return;
  beginOverlay("##notice", bannerPlace(in), ImVec2(0.5f, 0.0f), theme::kNoticeBanner);
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.95f, 1.0f, 0.96f, 1.0f));
  ImGui::PushTextWrapPos(std::clamp(in.width - 140.0f, 160.0f, 560.0f));
  ImGui::TextUnformatted(in.notice->c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
  endOverlay();
}

void errorBanner(const ViewportInput& in, ViewportResult& out) {
  if (!in.error || in.error->empty()) return;
  const float wrap = std::clamp(in.width - 140.0f, 160.0f, 560.0f);
  beginOverlay("##error", bannerPlace(in), ImVec2(0.5f, 0.0f), theme::kErrorBanner);
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.97f, 0.95f, 1.0f));
  ImGui::PushTextWrapPos(wrap);
  ImGui::TextUnformatted(in.error->c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
  ImGui::SameLine(0.0f, 12.0f);
  ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(1.0f, 1.0f, 1.0f, 0.15f));
  if (ImGui::SmallButton("Dismiss")) out.dismissError = true;
  ImGui::PopStyleColor();
  endOverlay();
}

void strainLegend(const ViewportInput& in, ViewportResult& out) {
  if (in.view.shading != render::Shading::Strain) return;
  beginOverlay("##legend", ImVec2(in.left + in.width - kMargin, in.height - kMargin),
               ImVec2(1.0f, 1.0f), theme::kOverlayBg);
  ImGui::TextUnformatted("strain  |l - l0| / l0");
  constexpr float kBarWidth = 240.0f, kBarHeight = 14.0f;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float x0 = p.x + 14.0f;  // room for the first label's left half
  const int pieces = render::kStrainStops - 1;
  for (int i = 0; i < pieces; ++i) {
    const float a = x0 + kBarWidth * float(i) / float(pieces);
    const float b = x0 + kBarWidth * float(i + 1) / float(pieces);
    const ImU32 ca = toU32(render::strainStop(i)), cb = toU32(render::strainStop(i + 1));
    draw->AddRectFilledMultiColor(ImVec2(a, p.y), ImVec2(b, p.y + kBarHeight), ca, cb, cb, ca);
  }
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  const float labelY = p.y + kBarHeight + 3.0f;
  for (int i = 0; i <= pieces; ++i) {
    const float x = x0 + kBarWidth * float(i) / float(pieces);
    draw->AddLine(ImVec2(x, p.y + kBarHeight), ImVec2(x, p.y + kBarHeight + 3.0f), text);
    char label[16];
    const float value = 100.0f * in.view.strainMax * float(i) / float(pieces);
    std::snprintf(label, sizeof label, i == pieces ? "%.3g%%+" : "%.3g%%", double(value));
    const float w = ImGui::CalcTextSize(label).x;
    draw->AddText(ImVec2(x - 0.5f * w, labelY), text, label);
  }
  ImGui::Dummy(ImVec2(kBarWidth + 28.0f, kBarHeight + ImGui::GetTextLineHeight() + 6.0f));
  float percent = 100.0f * in.view.strainMax;
  ImGui::SetNextItemWidth(kBarWidth - 40.0f);
  if (ImGui::SliderFloat("scale", &percent, 0.5f, 50.0f, "%.1f %%",
                         ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp)) {
    render::ViewOptions view = in.view;
    view.strainMax = percent / 100.0f;
    out.view = view;
  }
  tooltip("The strain at the top of the colour scale; anything beyond shows red.");
  if (in.crossings > 0) {
    const glm::vec3 c = render::kCrossingColor;
    ImGui::TextColored(ImVec4(c.x, c.y, c.z, 1.0f), "magenta: %zu edges through the cloth",
                       in.crossings);
  }
  endOverlay();
}

void recordingBadge(const ViewportInput& in) {
  if (!in.recording) return;
  // Top right; below the toolbar when the view is too narrow for both.
  const float y = toolbarWidth + 3.0f * kMargin + kBadgeWidth > in.width
                      ? 2.0f * kMargin + ImGui::GetFrameHeight() + 12.0f
                      : kMargin;
  beginOverlay("##rec", ImVec2(in.left + in.width - kMargin, y), ImVec2(1.0f, 0.0f),
               theme::kOverlayBg);
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float r = 0.32f * ImGui::GetTextLineHeight();
  ImGui::GetWindowDrawList()->AddCircleFilled(
      ImVec2(p.x + r, p.y + 0.5f * ImGui::GetTextLineHeight()), r,
      ImGui::ColorConvertFloat4ToU32(theme::kRecord));
  ImGui::Dummy(ImVec2(2.0f * r, ImGui::GetTextLineHeight()));
  ImGui::SameLine();
  ImGui::Text("REC  %d", in.recordedFrames);
  endOverlay();
}

void statusLine(const ViewportInput& in) {
  beginOverlay("##status", ImVec2(in.left + kMargin, in.height - kMargin), ImVec2(0.0f, 1.0f),
               theme::kOverlayBg);
  if (!in.playing) {
    ImGui::TextColored(theme::kWarning, "paused");
    ImGui::SameLine();
  }
  // The frame rate in sight while it runs (the Stats section is far down the
  // panel); paused, the line holds still.
  if (in.playing && in.fps > 0.0f)
    ImGui::Text("t = %.2f s   %.0f fps", in.time, double(in.fps));
  else
    ImGui::Text("t = %.2f s", in.time);
  // The hint only where it fits beside the time.
  if (in.width > 40.0f * ImGui::GetFontSize()) {
    ImGui::SameLine(0.0f, 14.0f);
    ImGui::TextDisabled("%s   H: help", in.hint);
  }
  endOverlay();
}

void helpTable(const char* id, const HelpLine* lines, int count) {
  if (!ImGui::BeginTable(id, 2, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg)) return;
  for (int i = 0; i < count; ++i) {
    ImGui::TableNextColumn();
    ImGui::TextColored(theme::kAccentHover, "%s", lines[i].keys);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(lines[i].action);
  }
  ImGui::EndTable();
}

void helpWindow(const ViewportInput& in, ViewportResult& out) {
  if (!in.showHelp) return;
  ImGui::SetNextWindowPos(ImVec2(in.left + 0.5f * in.width, 0.5f * in.height), ImGuiCond_Always,
                          ImVec2(0.5f, 0.5f));
  ImGui::PushStyleColor(ImGuiCol_WindowBg, ImVec4(0.09f, 0.10f, 0.12f, 0.96f));
  bool open = true;
  ImGui::Begin("Keyboard and mouse", &open,
               ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoMove);
  ImGui::TextDisabled("Keys act when no text field has focus.");
  ImGui::Spacing();
  helpTable("##keys", in.keys, in.keyCount);
  ImGui::Spacing();
  ImGui::Separator();
  ImGui::Spacing();
  helpTable("##mouse", in.mouse, in.mouseCount);
  ImGui::End();
  ImGui::PopStyleColor();
  if (!open) out.toggleHelp = true;
}

// The Cut tool's stroke, as a line over the view while it is drawn.
void cutStroke(const ViewportInput& in) {
  if (!in.stroke || in.stroke->size() < 2) return;
  std::vector<ImVec2> points;
  points.reserve(in.stroke->size());
  for (const glm::vec2& p : *in.stroke) points.push_back(ImVec2(p.x, p.y));
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  draw->AddPolyline(points.data(), int(points.size()), IM_COL32(20, 20, 24, 200), 0, 4.0f);
  draw->AddPolyline(points.data(), int(points.size()), IM_COL32(255, 245, 200, 255), 0, 2.0f);
}

}  // namespace

ViewportResult drawViewportOverlay(const ViewportInput& in) {
  ViewportResult out;
  cutStroke(in);
  statusLine(in);
  strainLegend(in, out);
  recordingBadge(in);
  toolbar(in, out);
  errorBanner(in, out);
  noticeBanner(in);
  helpWindow(in, out);
  return out;
}

void drawSideBySideLabels(float left, float split, float height, const char* leftText,
                          const char* rightText) {
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  draw->AddLine(ImVec2(split, 0.0f), ImVec2(split, height), IM_COL32(20, 22, 28, 255), 3.0f);
  const ImU32 ink = IM_COL32(245, 245, 245, 255), shade = IM_COL32(0, 0, 0, 150);
  const float y = 58.0f;  // under the toolbar
  auto label = [&](float x, const char* text) {
    const ImVec2 size = ImGui::CalcTextSize(text);
    draw->AddRectFilled(ImVec2(x - 6.0f, y - 3.0f), ImVec2(x + size.x + 6.0f, y + size.y + 3.0f),
                        shade, 4.0f);
    draw->AddText(ImVec2(x, y), ink, text);
  };
  label(left + 12.0f, leftText);
  label(split + 12.0f, rightText);
}

}  // namespace drape::ui
