#version 330 core
// Lit meshes (cloth, colliders), their planar shadows and the cloth's
// wireframe: world position, normal and the cloth's per-vertex extras for
// the fragment shader. uModel places a collider; identity for the cloth.
// aColor is the strain heat map's colour, aUV the cloth's texture
// coordinates, aFold its fold depth; meshes without them read the defaults
// (0, 0, 0, 1), which the fragment shader's uniforms then ignore.

layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec3 aNormal;
layout(location = 2) in vec3 aColor;
layout(location = 3) in vec2 aUV;
layout(location = 4) in float aFold;

uniform mat4 uViewProj;
uniform mat4 uModel;

out vec3 vWorldPos;
out vec3 vNormal;
out vec3 vColor;
out vec2 vUV;
out float vFold;

void main() {
  vec4 world = uModel * vec4(aPosition, 1.0);
  vWorldPos = world.xyz;
  // Rigid models only (rotation + translation), so the upper 3×3 maps normals.
  vNormal = mat3(uModel) * aNormal;
  vColor = aColor;
  vUV = aUV;
  vFold = aFold;
  gl_Position = uViewProj * world;
}
