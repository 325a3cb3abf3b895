#pragma once
// The side panel's sections, each drawn inside the panel's window (panel.cpp
// lays them out). Internal to the UI library.

#include "ui/panel.hpp"

namespace drape::ui {

void drawSceneSection(const PanelInput& in, PanelState& state, PanelResult& out);
void drawParameterSection(const PanelInput& in, PanelState& state, PanelResult& out);
void drawRecordSection(const PanelInput& in, PanelState& state, PanelResult& out);
// Undo, redo and the timeline's slider, in a strip at the panel's foot.
void drawHistoryControls(const PanelInput& in, PanelResult& out);
void drawStatsSection(const PanelInput& in, PanelState& state);
// The Stats section's lines (inside its header, wrapped at the panel's edge).
void drawStats(const PanelInput& in);

}  // namespace drape::ui
