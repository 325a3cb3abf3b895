#pragma once
// Colours the UI uses beyond ImGui's style (imgui_layer.cpp), in one place so
// that every panel speaks the same language: warm accent from the cloth,
// red for errors and recording, amber for warnings, green for what was done.

#include <imgui.h>

namespace drape::ui::theme {

inline const ImVec4 kAccent(0.86f, 0.48f, 0.32f, 1.0f);  // the cloth's terracotta
inline const ImVec4 kAccentHover(0.95f, 0.58f, 0.40f, 1.0f);
inline const ImVec4 kError(1.0f, 0.42f, 0.38f, 1.0f);           // text on the dark panel
inline const ImVec4 kErrorBanner(0.72f, 0.12f, 0.12f, 0.96f);   // banner over the view
inline const ImVec4 kNoticeBanner(0.10f, 0.46f, 0.24f, 0.96f);  // what was done (a file saved)
inline const ImVec4 kWarning(0.98f, 0.76f, 0.36f, 1.0f);
inline const ImVec4 kRecord(0.80f, 0.16f, 0.16f, 1.0f);
inline const ImVec4 kOverlayBg(0.11f, 0.12f, 0.14f, 0.88f);  // windows over the 3D view

}  // namespace drape::ui::theme
