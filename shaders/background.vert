#version 330 core
// A triangle covering the screen, from gl_VertexID (3 vertices, empty vertex
// array), at the far plane: drawn last with depth test LEQUAL, it fills only
// the pixels that nothing else covered. It passes on the world direction of
// view through each corner; that direction is linear in screen position, so
// interpolating it gives every pixel its own.

uniform mat4 uInvViewProj;
uniform vec3 uEye;

out vec3 vDir;

void main() {
  vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2)) * 2.0 - 1.0;
  vec4 far = uInvViewProj * vec4(p, 1.0, 1.0);
  vDir = far.xyz / far.w - uEye;
  gl_Position = vec4(p, 1.0, 1.0);
}
