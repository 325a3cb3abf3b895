#include "ui/imgui_layer.hpp"

#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#define GLFW_INCLUDE_NONE  // glad declares OpenGL
#include <GLFW/glfw3.h>

#include <filesystem>

#include "ui/input_queue.hpp"

namespace drape::ui {
namespace {

constexpr float kFontPixels = 15.0f;

static_assert(sizeof(ImWchar) == sizeof(unsigned short), "fontGlyphRanges is 16-bit");

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
    if (io.Fonts->AddFontFromFileTTF(path, kFontPixels, &config,
                                     reinterpret_cast<const ImWchar*>(fontGlyphRanges())))
      return;
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

// The events on their way to ImGui, and the app's callbacks they pass first.
struct Callbacks {
  InputQueue queue;
  GLFWkeyfun key = nullptr;
  GLFWcharfun character = nullptr;
  GLFWmousebuttonfun button = nullptr;
  GLFWscrollfun scroll = nullptr;
  GLFWwindowfocusfun focus = nullptr;
  GLFWcursorenterfun enter = nullptr;
};
Callbacks g_callbacks;

// Whether ImGui reads the key's state (its key map and the modifiers), as
// opposed to a key whose text arrives as a character.
bool stateRead(int key, int mods) {
  switch (key) {
    case GLFW_KEY_TAB:
    case GLFW_KEY_LEFT:
    case GLFW_KEY_RIGHT:
    case GLFW_KEY_UP:
    case GLFW_KEY_DOWN:
    case GLFW_KEY_PAGE_UP:
    case GLFW_KEY_PAGE_DOWN:
    case GLFW_KEY_HOME:
    case GLFW_KEY_END:
    case GLFW_KEY_INSERT:
    case GLFW_KEY_DELETE:
    case GLFW_KEY_BACKSPACE:
    case GLFW_KEY_ENTER:
    case GLFW_KEY_KP_ENTER:
    case GLFW_KEY_ESCAPE:
    case GLFW_KEY_LEFT_CONTROL:
    case GLFW_KEY_RIGHT_CONTROL:
    case GLFW_KEY_LEFT_SHIFT:
    case GLFW_KEY_RIGHT_SHIFT:
    case GLFW_KEY_LEFT_ALT:
    case GLFW_KEY_RIGHT_ALT:
    case GLFW_KEY_LEFT_SUPER:
    case GLFW_KEY_RIGHT_SUPER:
      return true;
    case GLFW_KEY_A:
    case GLFW_KEY_C:
    case GLFW_KEY_V:
    case GLFW_KEY_X:
    case GLFW_KEY_Y:
    case GLFW_KEY_Z:  // select all, copy, paste, cut, redo, undo
      return (mods & (GLFW_MOD_CONTROL | GLFW_MOD_SUPER)) != 0;
    default:
      return false;
  }
}

void onKey(GLFWwindow* w, int key, int scancode, int action, int mods) {
  if (g_callbacks.key) g_callbacks.key(w, key, scancode, action, mods);
  InputEvent e;
  e.kind = InputEvent::Kind::Key;
  e.code = key;
  e.scancode = scancode;
  e.action = action;
  e.mods = mods;
  e.time = glfwGetTime();
  e.stateRead = stateRead(key, mods);
  g_callbacks.queue.push(e);
}
void onChar(GLFWwindow* w, unsigned int c) {
  if (g_callbacks.character) g_callbacks.character(w, c);
  InputEvent e;
  e.kind = InputEvent::Kind::Char;
  e.code = int(c);
  e.time = glfwGetTime();
  g_callbacks.queue.push(e);
}
void onButton(GLFWwindow* w, int button, int action, int mods) {
  if (g_callbacks.button) g_callbacks.button(w, button, action, mods);
  InputEvent e;
  e.kind = InputEvent::Kind::Button;
  e.code = button;
  e.action = action;
  e.mods = mods;
  e.time = glfwGetTime();
  g_callbacks.queue.push(e);
}
void onScroll(GLFWwindow* w, double dx, double dy) {
  if (g_callbacks.scroll) g_callbacks.scroll(w, dx, dy);
  InputEvent e;
  e.kind = InputEvent::Kind::Scroll;
  e.dx = dx;
  e.dy = dy;
  e.time = glfwGetTime();
  g_callbacks.queue.push(e);
}
void onFocus(GLFWwindow* w, int focused) {
  if (g_callbacks.focus) g_callbacks.focus(w, focused);
  ImGui_ImplGlfw_WindowFocusCallback(w, focused);
}
void onEnter(GLFWwindow* w, int entered) {
  if (g_callbacks.enter) g_callbacks.enter(w, entered);
  ImGui_ImplGlfw_CursorEnterCallback(w, entered);
}

void installCallbacks(GLFWwindow* w) {
  g_callbacks = Callbacks{};
  g_callbacks.key = glfwSetKeyCallback(w, onKey);
  g_callbacks.character = glfwSetCharCallback(w, onChar);
  g_callbacks.button = glfwSetMouseButtonCallback(w, onButton);
  g_callbacks.scroll = glfwSetScrollCallback(w, onScroll);
  g_callbacks.focus = glfwSetWindowFocusCallback(w, onFocus);
  g_callbacks.enter = glfwSetCursorEnterCallback(w, onEnter);
}

void restoreCallbacks(GLFWwindow* w) {
  glfwSetKeyCallback(w, g_callbacks.key);
  glfwSetCharCallback(w, g_callbacks.character);
  glfwSetMouseButtonCallback(w, g_callbacks.button);
  glfwSetScrollCallback(w, g_callbacks.scroll);
  glfwSetWindowFocusCallback(w, g_callbacks.focus);
  glfwSetCursorEnterCallback(w, g_callbacks.enter);
}

// Hand ImGui one frame's events from the queue (after the backend's own
// NewFrame, which polls the buttons: their state here is the queue's).
void feedQueuedInput(GLFWwindow* w) {
  ImGuiIO& io = ImGui::GetIO();
  bool doubleClick = false;
  for (const InputEvent& e : g_callbacks.queue.nextFrame()) {
    switch (e.kind) {
      case InputEvent::Kind::Key:
        ImGui_ImplGlfw_KeyCallback(w, e.code, e.scancode, e.action, e.mods);
        break;
      case InputEvent::Kind::Char:
        io.AddInputCharacter(unsigned(e.code));
        break;
      case InputEvent::Kind::Scroll:
        io.MouseWheelH += float(e.dx);
        io.MouseWheel += float(e.dy);
        break;
      case InputEvent::Kind::Button:
        if (e.action == GLFW_PRESS && e.doubleClick) doubleClick = true;
        break;
    }
  }
  for (int i = 0; i < IM_ARRAYSIZE(io.MouseDown) && i < InputQueue::kButtons; ++i)
    io.MouseDown[i] = g_callbacks.queue.buttonDown(i);
  // ImGui would judge a double-click by its frame times, which at a few
  // frames per second are longer than any double-click: the events' times
  // decide instead (a press this frame is a double-click or it is not).
  io.MouseDoubleClickTime = doubleClick ? 1e6f : 0.0f;
}

}  // namespace

const unsigned short* fontGlyphRanges() {
  static const unsigned short kRanges[] = {
      0x0020, 0x00FF,  // Basic Latin, Latin-1 (² ³ ° · × ¹)
      0x0370, 0x03FF,  // Greek (ρ θ α)
      0x2000, 0x206F,  // punctuation (– — ′ … ‹ ›)
      0x2070, 0x209F,  // super- and subscripts (⁻ ⁴)
      0x2190, 0x21FF,  // arrows
      0x2200, 0x22FF,  // mathematical operators (− ≤ ≥ ≈ √ ∞)
      0x25A0, 0x25FF,  // geometric shapes (● ▶)
      0,
  };
  return kRanges;
}

void styleInterface() {
  applyStyle();
  loadFont();
}

ImGuiLayer::~ImGuiLayer() {
  if (!initialised_) return;
  ImGui_ImplOpenGL3_Shutdown();
  restoreCallbacks(window_);
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
}

Result<void> ImGuiLayer::init(GLFWwindow* window) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // the panel's layout is fixed; write no imgui.ini into the cwd
  styleInterface();
  if (!ImGui_ImplGlfw_InitForOpenGL(window, false)) {
    ImGui::DestroyContext();
    return fail("cannot set up the user interface on the window");
  }
  if (!ImGui_ImplOpenGL3_Init("#version 330 core")) {
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    return fail("cannot set up the user interface's OpenGL renderer");
  }
  installCallbacks(window);
  window_ = window;
  initialised_ = true;
  return {};
}

void ImGuiLayer::beginFrame() {
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  feedQueuedInput(window_);
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
