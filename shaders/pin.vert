#version 330 core
// Pin markers: one point sprite per pinned vertex, sized as a sphere of
// uRadius metres (never under uMinPixels), and moved towards the eye by that
// radius so that the cloth around the pin does not cut the marker in half.

layout(location = 0) in vec3 aPosition;

uniform mat4 uViewProj;
uniform vec3 uEye;
uniform float uRadius;         // m
uniform float uPixelsPerUnit;  // framebuffer pixels per metre at depth 1
uniform float uMinPixels;

void main() {
  vec3 toEye = normalize(uEye - aPosition);
  gl_Position = uViewProj * vec4(aPosition + uRadius * toEye, 1.0);
  gl_PointSize = max(2.0 * uRadius * uPixelsPerUnit / gl_Position.w, uMinPixels);
}
