// Scene files: every field read back exactly as written, and every way a
// file can be wrong refused with a message that names the field.

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "scene/scene_file.hpp"
#include "scene/scenes.hpp"
#include "sim/params.hpp"

namespace drape::scene {
namespace {

// The message of a refused text, or a failure when it was accepted.
std::string refusal(const std::string& text) {
  auto r = parseSceneFile(text, "s.json");
  EXPECT_FALSE(r) << "accepted: " << text;
  return r ? std::string() : r.error();
}

std::string withMesh(const std::string& rest) {
  return R"({"drape_scene": 1, "mesh": {"scene": "hang"})" + rest + "}";
}

TEST(SceneFile, MinimalFileNamesABuiltinScene) {
  auto f = parseSceneFile(withMesh(""), "s.json");
  ASSERT_TRUE(f) << f.error();
  EXPECT_EQ(f->builtin, "hang");
  EXPECT_TRUE(f->params.empty());
  EXPECT_FALSE(f->pins);
  EXPECT_FALSE(f->colliders);
  EXPECT_FALSE(f->camera);
}

TEST(SceneFile, ParametersOfEveryTypeAreRead) {
  auto f = parseSceneFile(withMesh(R"(, "params": {"k_stretch": 0.5, "iterations": 7,
      "solver": "xpbd", "gravity": [0, -3.5, 1]})"),
                          "s.json");
  ASSERT_TRUE(f) << f.error();
  sim::Params p;
  for (const sim::ParamSetting& s : f->params) ASSERT_TRUE(sim::applySetting(p, s)) << s.desc->name;
  EXPECT_EQ(p.k_stretch, 0.5f);
  EXPECT_EQ(p.iterations, 7);
  EXPECT_EQ(p.solver, sim::SolverKind::Xpbd);
  EXPECT_EQ(p.gravity, glm::vec3(0.0f, -3.5f, 1.0f));
}

TEST(SceneFile, SwitchesAreBooleansOrNumbers) {
  auto f =
      parseSceneFile(withMesh(R"(, "params": {"self_collision": true, "tethers": 0})"), "s.json");
  ASSERT_TRUE(f) << f.error();
  sim::Params p;
  p.tethers = 1;
  for (const sim::ParamSetting& s : f->params) ASSERT_TRUE(sim::applySetting(p, s)) << s.desc->name;
  EXPECT_EQ(p.self_collision, 1);
  EXPECT_EQ(p.tethers, 0);
  // Booleans only for switches.
  EXPECT_NE(refusal(withMesh(R"(, "params": {"iterations": true})")).find("params.iterations"),
            std::string::npos);
}

TEST(SceneFile, AFabricPresetComesFirstAndTheFilesValuesOverrideIt) {
  // JSON objects have no order: "density" sorts before "material".
  auto f =
      parseSceneFile(withMesh(R"(, "params": {"density": 0.5, "material": "silk"})"), "s.json");
  ASSERT_TRUE(f) << f.error();
  sim::Params p;
  for (const sim::ParamSetting& s : f->params) ASSERT_TRUE(sim::applySetting(p, s)) << s.desc->name;
  sim::Params silk;
  ASSERT_TRUE(sim::setParamAssignment(silk, "material=silk"));
  EXPECT_EQ(p.k_bend, silk.k_bend);
  EXPECT_EQ(p.friction, silk.friction);
  EXPECT_EQ(p.density, 0.5f);
  EXPECT_NE(refusal(withMesh(R"(, "params": {"material": "tweed"})")).find("params.material"),
            std::string::npos);
}

TEST(SceneFile, WrittenAndReadBackExactly) {
  sim::World world;
  world.params.k_stretch = 0.1f;  // not exact in binary: must come back as the same float
  world.params.dt = 1.0f / 60.0f;
  world.params.gravity = glm::vec3(0.1f, -9.81f, 1.0f / 3.0f);
  world.params.bending = sim::BendingModel::Isometric;
  world.state.x.assign(4, glm::vec3(0.0f));
  world.state.w.assign(4, 1.0f);
  world.state.v.assign(4, glm::vec3(0.0f));
  world.cloth.mass.assign(4, 1.0f);
  sim::Motion m;
  m.angularVelocity = glm::vec3(0.0f, 0.0f, 0.7f);
  m.pivot = glm::vec3(0.3f, 1.1f, 0.0f);
  m.amplitude = glm::vec3(0.0f, 0.2f, 0.0f);
  m.frequency = 0.35f;
  world.pins.push_back({2, glm::vec3(0.1f, 0.2f, 0.3f), m, 0.25});
  world.colliders.push_back(sim::Collider::plane({0.0f, -1.5f, 0.0f}, {0.1f, 1.0f, 0.0f}));
  world.colliders.push_back(sim::Collider::sphere({0.0f, 0.1f, 0.0f}, 0.45f));
  world.colliders.push_back(sim::Collider::box({1.0f, 0.0f, 0.0f}, {0.1f, 0.2f, 0.3f}));
  world.colliders.push_back(sim::Collider::capsule({0.0f, 0.0f, 2.0f}, 0.05f, 1.3f));
  world.colliders.back().motion = m;
  const CameraHint camera{{0.1f, 0.2f, 0.3f}, 4.4f, 0.61f, -0.2f};

  SceneFile f = describeScene(world, camera);
  f.builtin = "drape";
  auto back = parseSceneFile(sceneFileText(f), "s.json");
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(back->builtin, "drape");
  sim::Params p;
  for (const sim::ParamSetting& s : back->params)
    ASSERT_TRUE(sim::applySetting(p, s)) << s.desc->name;
  for (const sim::ParamDesc& d : sim::paramTable())
    EXPECT_EQ(sim::formatParam(p, d), sim::formatParam(world.params, d)) << d.name;
  ASSERT_TRUE(back->pins);
  ASSERT_EQ(back->pins->size(), 1u);
  const PinSpec& pin = back->pins->front();
  EXPECT_EQ(pin.vertex, 2u);
  EXPECT_EQ(*pin.anchor, world.pins[0].anchor);
  EXPECT_EQ(pin.start, 0.25);
  EXPECT_EQ(pin.motion.angularVelocity, m.angularVelocity);
  EXPECT_EQ(pin.motion.pivot, m.pivot);
  EXPECT_EQ(pin.motion.amplitude, m.amplitude);
  EXPECT_EQ(pin.motion.frequency, m.frequency);
  ASSERT_TRUE(back->colliders);
  ASSERT_EQ(back->colliders->size(), world.colliders.size());
  for (std::size_t i = 0; i < world.colliders.size(); ++i) {
    const sim::Collider &a = world.colliders[i], &b = (*back->colliders)[i];
    EXPECT_EQ(a.kind, b.kind) << i;
    EXPECT_EQ(a.center, b.center) << i;
    EXPECT_EQ(a.orientation, b.orientation) << i;
    EXPECT_EQ(a.size, b.size) << i;
    EXPECT_EQ(a.motion.angularVelocity, b.motion.angularVelocity) << i;
    EXPECT_EQ(a.motion.frequency, b.motion.frequency) << i;
  }
  ASSERT_TRUE(back->camera);
  EXPECT_EQ(back->camera->target, camera.target);
  EXPECT_EQ(back->camera->distance, camera.distance);
  EXPECT_EQ(back->camera->yaw, camera.yaw);
  EXPECT_EQ(back->camera->pitch, camera.pitch);
}

TEST(SceneFile, NumbersAreWrittenShort) {
  sim::World world;
  world.params.k_bend = 0.05f;
  SceneFile f = describeScene(world, {});
  f.builtin = "hang";
  const std::string text = sceneFileText(f);
  EXPECT_NE(text.find("\"k_bend\": 0.05,"), std::string::npos) << text;
}

TEST(SceneFile, SyntaxErrorsSayWhere) {
  const std::string e = refusal("{\"drape_scene\": 1,\n \"mesh\": {\"scene\": \"hang\"},,}");
  EXPECT_EQ(e.rfind("s.json: not valid JSON:", 0), 0u) << e;
  EXPECT_NE(e.find("line 2"), std::string::npos) << e;
  EXPECT_NE(refusal("").find("not valid JSON"), std::string::npos);
  EXPECT_NE(refusal("[1, 2]").find("expected an object"), std::string::npos);
}

TEST(SceneFile, MissingFieldsAreNamed) {
  EXPECT_EQ(refusal("{}"), "s.json: drape_scene: missing (required)");
  EXPECT_EQ(refusal(R"({"drape_scene": 1})"), "s.json: mesh: missing (required)");
  EXPECT_NE(refusal(R"({"drape_scene": 1, "mesh": {}})").find("mesh: expected either"),
            std::string::npos);
  EXPECT_EQ(refusal(withMesh(R"(, "pins": [{"anchor": [0, 0, 0]}])")),
            "s.json: pins[0].vertex: missing (required)");
  EXPECT_EQ(refusal(withMesh(R"(, "colliders": [{"center": [0, 0, 0]}])")),
            "s.json: colliders[0].shape: missing (required)");
  EXPECT_EQ(refusal(withMesh(R"(, "colliders": [{"shape": "sphere", "center": [0, 0, 0]}])")),
            "s.json: colliders[0].radius: missing (required)");
}

TEST(SceneFile, UnknownFieldsAreNamed) {
  EXPECT_NE(refusal(withMesh(R"(, "colour": "red")")).find("s.json: colour: unknown field"),
            std::string::npos);
  EXPECT_NE(refusal(withMesh(R"(, "params": {"k_strech": 1})"))
                .find("s.json: params.k_strech: unknown parameter"),
            std::string::npos);
  EXPECT_NE(refusal(withMesh(R"(, "camera": {"zoom": 2})")).find("camera.zoom: unknown field"),
            std::string::npos);
  EXPECT_NE(
      refusal(withMesh(R"(, "colliders": [{"shape": "plane", "center": [0,0,0], "radius": 1}])"))
          .find("colliders[0].radius: not used by a plane"),
      std::string::npos);
  EXPECT_NE(refusal(withMesh(R"(, "pins": [{"vertex": 1, "motion": {"speed": 1}}])"))
                .find("pins[0].motion.speed: unknown field"),
            std::string::npos);
}

TEST(SceneFile, WrongTypesAndRangesAreNamed) {
  EXPECT_EQ(refusal(withMesh(R"(, "params": {"k_stretch": "0.5"})")),
            "s.json: params.k_stretch: expected a number in [0, 1], got a string");
  EXPECT_EQ(refusal(withMesh(R"(, "params": {"k_stretch": 2})")),
            "s.json: params.k_stretch: expected a number in [0, 1], got 2");
  EXPECT_NE(refusal(withMesh(R"(, "params": {"iterations": 2.5})")).find("params.iterations"),
            std::string::npos);
  EXPECT_NE(refusal(withMesh(R"(, "params": {"solver": "euler"})"))
                .find("params.solver: expected one of pbd, xpbd"),
            std::string::npos);
  EXPECT_NE(refusal(withMesh(R"(, "params": {"gravity": [0, -9.81]})")).find("params.gravity"),
            std::string::npos);
  EXPECT_NE(refusal(withMesh(R"(, "params": [1])")).find("params: expected an object"),
            std::string::npos);
  EXPECT_NE(refusal(withMesh(R"(, "pins": [{"vertex": -1}])")).find("pins[0].vertex"),
            std::string::npos);
  EXPECT_NE(refusal(withMesh(R"(, "pins": [{"vertex": 1, "anchor": [0, "a", 0]}])"))
                .find("pins[0].anchor[1]: expected a number, got a string"),
            std::string::npos);
  EXPECT_NE(
      refusal(withMesh(R"(, "colliders": [{"shape": "sphere", "center": [0,0,0], "radius": -1}])"))
          .find("colliders[0].radius: expected a number > 0"),
      std::string::npos);
  EXPECT_NE(refusal(withMesh(R"(, "colliders": [{"shape": "cone", "center": [0,0,0]}])"))
                .find("colliders[0].shape: expected one of plane, sphere, box, capsule"),
            std::string::npos);
  EXPECT_NE(refusal(withMesh(R"(, "colliders": [{"shape": "box", "center": [0,0,0],
                "half_extents": [1,1,1], "orientation": [2, 0, 0, 0]}])"))
                .find("colliders[0].orientation: expected a unit quaternion"),
            std::string::npos);
  EXPECT_NE(refusal(withMesh(R"(, "camera": {"distance": 0})")).find("camera.distance"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"drape_scene": 2, "mesh": {"scene": "hang"}})").find("drape_scene"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"drape_scene": 1, "mesh": {"scene": "curtain"}})")
                .find("mesh.scene: expected a built-in scene"),
            std::string::npos);
  EXPECT_NE(
      refusal(R"({"drape_scene": 1, "mesh": {"obj": "a.obj", "as": "sail"}})").find("mesh.as"),
      std::string::npos);
  EXPECT_NE(refusal(withMesh(R"(, "pins": [{"vertex": 1, "start": 1e300}])")).find("pins[0].start"),
            std::string::npos);
}

TEST(SceneFile, SeamsAreWrittenAndReadBack) {
  auto f = parseSceneFile(
      R"({"drape_scene": 1, "mesh": {"obj": "a.obj", "seams": [[0, 9], [3, 12], [6, 15]]}})",
      "s.json");
  ASSERT_TRUE(f) << f.error();
  const std::vector<glm::uvec2> seams{{0, 9}, {3, 12}, {6, 15}};
  EXPECT_EQ(f->seams, seams);
  auto back = parseSceneFile(sceneFileText(f.value()), "s.json");
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(back->seams, seams);
  EXPECT_EQ(sceneFileText(back.value()), sceneFileText(f.value()));
  // None written where there are none.
  auto plain = parseSceneFile(withMesh(""), "s.json");
  ASSERT_TRUE(plain);
  EXPECT_EQ(sceneFileText(plain.value()).find("seams"), std::string::npos);
}

TEST(SceneFile, SeamsThatCannotBeAreRefused) {
  const std::string obj = R"({"drape_scene": 1, "mesh": {"obj": "a.obj", "seams": )";
  EXPECT_EQ(refusal(obj + "[[0, 1], [4, 4]]}}"), "s.json: mesh.seams[1]: joins vertex 4 to itself");
  EXPECT_EQ(refusal(obj + "[[0, -1]]}}"),
            "s.json: mesh.seams[0]: expected a vertex index (a whole number >= 0), got -1");
  EXPECT_EQ(refusal(obj + "[[0, 1, 2]]}}"),
            "s.json: mesh.seams[0]: expected [i, j], two vertex indices, got [0, 1, 2]");
  EXPECT_EQ(refusal(obj + "{}}}"),
            "s.json: mesh.seams: expected an array of [i, j], got an object");
  EXPECT_EQ(refusal(withMesh("").replace(withMesh("").find("}"), 1, R"(, "seams": [[0, 1]]})")),
            "s.json: mesh.seams: only used with \"obj\"");
}

TEST(SceneFile, PinsOutOfRangeAreRefusedWhenApplied) {
  auto f = parseSceneFile(withMesh(R"(, "pins": [{"vertex": 7}])"), "s.json");
  ASSERT_TRUE(f) << f.error();
  Scene scene;
  scene.world.state.x.assign(4, glm::vec3(0.0f));
  auto r = applySceneFile(f.value(), scene, "s.json");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error(), "s.json: pins[0].vertex: 7 is out of range (the cloth has 4 vertices)");
}

TEST(SceneFile, ErrorsQuoteAShortExcerptOfTheValue) {
  const std::string nest = std::string(5000, '[') + "1" + std::string(5000, ']');
  const std::string deep = refusal(withMesh(R"(, "params": {"dt": )" + nest + "}"));
  EXPECT_NE(deep.find("params.dt"), std::string::npos) << deep;
  const std::string wide = refusal(
      withMesh(R"(, "colliders": [{"shape": "plane", "center": [0, 0, 0], "orientation": [)" +
               std::string(1, '"') + std::string(3000, 'x') + "\", 1, 2, 3, 4, 5]}]"));
  EXPECT_NE(wide.find("colliders[0].orientation"), std::string::npos) << wide;
  for (const std::string& message : {deep, wide}) EXPECT_LT(message.size(), 250u) << message;
  const std::string pinNest = refusal(withMesh(R"(, "pins": [{"vertex": [[[[[[1]]]]]]}])"));
  EXPECT_NE(pinNest.find("got [[[...]]]"), std::string::npos) << pinNest;
}

TEST(SceneFile, ANumberBeyondADoubleIsNotValidJson) {
  EXPECT_NE(refusal(withMesh(R"(, "params": {"dt": 1e400})")).find("number overflow"),
            std::string::npos);
  const std::string long_ =
      refusal(withMesh(R"(, "params": {"dt": 1)" + std::string(5000, '0') + "}"));
  EXPECT_NE(long_.find("number overflow"), std::string::npos) << long_;
  EXPECT_LT(long_.size(), 200u) << long_;
}

TEST(SceneFile, ManyPinsApplyInLinearTime) {
  // 66,049 pins (every vertex of a 256² cloth): each pin once searched the
  // list of those before it.
  sim::Params params;
  params.resolution = 256;
  auto built = findScene("hang")->build(params);
  ASSERT_TRUE(built);
  std::string pins;
  for (std::size_t i = 0; i < built->world.vertexCount(); ++i)
    pins += (i ? ", " : "") + std::string(R"({"vertex": )") + std::to_string(i) + "}";
  auto f = parseSceneFile(withMesh(R"(, "pins": [)" + pins + "]"), "s.json");
  ASSERT_TRUE(f) << f.error();
  ASSERT_TRUE(applySceneFile(f.value(), built.value(), "s.json"));
  EXPECT_EQ(built->world.pins.size(), built->world.vertexCount());
  for (float w : built->world.state.w) ASSERT_EQ(w, 0.0f);
  sim::unpinAll(built->world);
  EXPECT_TRUE(built->world.pins.empty());
  for (float w : built->world.state.w) ASSERT_GT(w, 0.0f);
}

TEST(SceneFile, MissingFileAndFolderAreRefused) {
  auto missing = readSceneFile("/nonexistent/scene.json");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().find("/nonexistent/scene.json: cannot open"), std::string::npos);
  auto folder = readSceneFile("/tmp");
  ASSERT_FALSE(folder);
  EXPECT_NE(folder.error().find("is a folder"), std::string::npos);
}

}  // namespace
}  // namespace drape::scene
