#version 330 core
// The floor: one large quad at y = uHeight, made from gl_VertexID (drawn as a
// 4-vertex triangle strip with an empty vertex array).

uniform mat4 uViewProj;
uniform float uHeight;
uniform float uExtent;  // half side, m

out vec3 vWorldPos;

void main() {
  vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1)) * 2.0 - 1.0;
  vWorldPos = vec3(corner.x * uExtent, uHeight, corner.y * uExtent);
  gl_Position = uViewProj * vec4(vWorldPos, 1.0);
}
