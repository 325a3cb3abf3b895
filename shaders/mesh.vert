#version 330 core
// Lit meshes (cloth, colliders) and their planar shadows: world position and
// normal for the fragment shader. uModel places a collider; identity for the cloth.

layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec3 aNormal;

uniform mat4 uViewProj;
uniform mat4 uModel;

out vec3 vWorldPos;
out vec3 vNormal;

void main() {
  vec4 world = uModel * vec4(aPosition, 1.0);
  vWorldPos = world.xyz;
  // Rigid models only (rotation + translation), so the upper 3×3 maps normals.
  vNormal = mat3(uModel) * aNormal;
  gl_Position = uViewProj * world;
}
