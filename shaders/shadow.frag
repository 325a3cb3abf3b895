#version 330 core
// Planar shadows: the mesh flattened onto the floor along the key light,
// blended once per pixel (the stencil keeps overlaps from darkening twice).

uniform vec4 uShadowColor;

out vec4 fragColor;

void main() { fragColor = uShadowColor; }
