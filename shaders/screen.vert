#version 330 core
// A triangle covering the screen, from gl_VertexID (3 vertices, empty vertex
// array), for passes that filter a picture already drawn.

void main() {
  vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2)) * 2.0 - 1.0;
  gl_Position = vec4(p, 0.0, 1.0);
}
