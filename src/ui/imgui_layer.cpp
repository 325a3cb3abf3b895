#include "ui/imgui_layer.hpp"

#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <filesystem>

namespace drape::ui {
namespace {

constexpr float kFontPixels = 15.0f;

// A proportional font reads better than ImGui's built-in bitmap one; the
// first of these that is installed is used, else the built-in font stays.
void loadFont() {
  static const char* const kCandidates[] = {
      "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
      "/usr/share/fonts/TTF/DejaVuSans.ttf",
      "/usr/share/fonts/dejavu/DejaVuSans.ttf",
  };
  ImGuiIO& io = ImGui::GetIO();
  for (const char* path : kCandidates) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) continue;
    ImFontConfig config;
    config.OversampleH = 2;
    if (io.Fonts->AddFontFromFileTTF(path, kFontPixels, &config)) return;
  }
  io.Fonts->AddFontDefault();
}

void applyStyle() {
  ImGui::StyleColorsDark();
  ImGuiStyle& s = ImGui::GetStyle();
  s.WindowRounding = 0.0f;  // docked to the window's edge
  s.WindowBorderSize = 0.0f;
  s.FrameRounding = 3.0f;
  s.GrabRounding = 3.0f;
  s.WindowPadding = ImVec2(12.0f, 10.0f);
  s.FramePadding = ImVec2(6.0f, 3.0f);
  s.ItemSpacing = ImVec2(8.0f, 4.0f);
  s.PopupRounding = 4.0f;
  s.TabRounding = 3.0f;
  s.ScrollbarRounding = 3.0f;
  s.IndentSpacing = 14.0f;
  ImVec4* c = s.Colors;
  c[ImGuiCol_WindowBg] = ImVec4(0.11f, 0.12f, 0.14f, 0.94f);
  c[ImGuiCol_Header] = ImVec4(0.24f, 0.27f, 0.32f, 1.0f);
  c[ImGuiCol_HeaderHovered] = ImVec4(0.32f, 0.36f, 0.43f, 1.0f);
  c[ImGuiCol_HeaderActive] = ImVec4(0.38f, 0.43f, 0.51f, 1.0f);
  c[ImGuiCol_FrameBg] = ImVec4(0.19f, 0.21f, 0.25f, 1.0f);
  c[ImGuiCol_FrameBgHovered] = ImVec4(0.25f, 0.28f, 0.33f, 1.0f);
  c[ImGuiCol_FrameBgActive] = ImVec4(0.30f, 0.33f, 0.39f, 1.0f);
  c[ImGuiCol_Button] = ImVec4(0.25f, 0.29f, 0.35f, 1.0f);
  c[ImGuiCol_ButtonHovered] = ImVec4(0.33f, 0.38f, 0.46f, 1.0f);
  c[ImGuiCol_ButtonActive] = ImVec4(0.40f, 0.46f, 0.55f, 1.0f);
  // Accents in the cloth's warm colour, so the panel belongs to the picture.
  c[ImGuiCol_SliderGrab] = ImVec4(0.86f, 0.48f, 0.32f, 1.0f);
  c[ImGuiCol_SliderGrabActive] = ImVec4(0.95f, 0.58f, 0.40f, 1.0f);
  c[ImGuiCol_CheckMark] = ImVec4(0.95f, 0.58f, 0.40f, 1.0f);
  c[ImGuiCol_PlotLines] = ImVec4(0.95f, 0.58f, 0.40f, 1.0f);
  c[ImGuiCol_TitleBg] = ImVec4(0.16f, 0.18f, 0.21f, 1.0f);
  c[ImGuiCol_TitleBgActive] = ImVec4(0.22f, 0.25f, 0.30f, 1.0f);
  c[ImGuiCol_ModalWindowDimBg] = ImVec4(0.0f, 0.0f, 0.0f, 0.45f);
}

}  // namespace

ImGuiLayer::~ImGuiLayer() {
  if (!initialised_) return;
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
}

Result<void> ImGuiLayer::init(GLFWwindow* window) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // the panel's layout is fixed; write no imgui.ini into the cwd
  applyStyle();
  loadFont();
  if (!ImGui_ImplGlfw_InitForOpenGL(window, true)) {
    ImGui::DestroyContext();
    return fail("cannot set up the user interface on the window");
  }
  if (!ImGui_ImplOpenGL3_Init("#version 330 core")) {
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    return fail("cannot set up the user interface's OpenGL renderer");
  }
  initialised_ = true;
  return {};
}

void ImGuiLayer::beginFrame() {
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
}

void ImGuiLayer::endFrame() {
  ImGui::Render();
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

bool ImGuiLayer::wantsMouse() const {
  return initialised_ && ImGui::GetIO().WantCaptureMouse;
}
bool ImGuiLayer::wantsKeyboard() const {
  return initialised_ && ImGui::GetIO().WantCaptureKeyboard;
}

}  // namespace drape::ui
