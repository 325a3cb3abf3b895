#!/usr/bin/env python3
"""Writes a closed, outward-facing, bunny-like OBJ for the mesh-collider tests:
a lat-long sphere whose radius carries a body, a head, two ears, a tail and
small lumps, so that it has concave places (the neck, between the ears).
  make_lumpy.py OUT.obj [bunny|blob] [rows]
bunny: ~7,000 triangles, about 1.2 m long, its base near y = -0.5, as the
drape scene's sphere; blob: a smaller ball of lumps and dents."""

import math
import random
import sys


def bump(d, axis, width, height):
    c = d[0] * axis[0] + d[1] * axis[1] + d[2] * axis[2]
    n = math.sqrt(sum(a * a for a in axis))
    c /= n
    return height * math.exp((c - 1.0) / (width * width))


def unit(v):
    n = math.sqrt(sum(a * a for a in v))
    return tuple(a / n for a in v)


def bunny(d):
    x, y, z = d
    r = 0.45 * (1.0 + 0.25 * x * x - 0.15 * z * z)  # body, longer along x
    r += bump(d, (0.8, 0.6, 0.0), 0.35, 0.12)  # head
    for side in (-1.0, 1.0):  # ears: tall, narrow, leaning back
        r += bump(d, (0.35, 1.0, 0.28 * side), 0.13, 0.42)
    r += bump(d, (-1.0, 0.2, 0.0), 0.25, 0.07)  # tail
    for k in range(9):  # lumps and dents
        a = 2.4 * k
        r += 0.025 * math.sin(3.0 * a) * bump(d, (math.cos(a), math.sin(1.7 * a), math.sin(a)),
                                              0.4, 1.0)
    return r


def blob(d):
    x, y, z = d
    r = 0.3 + 0.05 * math.sin(5 * x) * math.cos(4 * z) + 0.04 * math.sin(6 * y + 1.0)
    r -= bump(d, (0.0, 1.0, 0.0), 0.3, 0.08)  # a dent on top
    return r


def main():
    out = sys.argv[1]
    kind = sys.argv[2] if len(sys.argv) > 2 else "bunny"
    rows = int(sys.argv[3]) if len(sys.argv) > 3 else 60
    jitter = float(sys.argv[4]) if len(sys.argv) > 4 else 0.0
    rng = random.Random(7)
    cols = rows
    radius = bunny if kind == "bunny" else blob
    shift = (0.0, -0.02, 0.0) if kind == "bunny" else (0.3, -0.55, 0.2)
    verts = []

    def put(d):
        r = radius(d) * (1.0 + jitter * (rng.random() - 0.5) / rows)
        verts.append(tuple(r * d[k] + shift[k] for k in range(3)))

    put((0.0, 1.0, 0.0))  # north pole
    for i in range(1, rows):
        th = math.pi * i / rows
        for j in range(cols):
            ph = 2.0 * math.pi * j / cols
            put(unit((math.sin(th) * math.cos(ph), math.cos(th), math.sin(th) * math.sin(ph))))
    put((0.0, -1.0, 0.0))  # south pole
    south = len(verts)

    def ring(i, j):
        return 2 + (i - 1) * cols + (j % cols)

    faces = []
    for j in range(cols):  # outward: counter-clockwise seen from outside
        faces.append((1, ring(1, j + 1), ring(1, j)))
        faces.append((south, ring(rows - 1, j), ring(rows - 1, j + 1)))
    for i in range(1, rows - 1):
        for j in range(cols):
            a, b = ring(i, j), ring(i, j + 1)
            c, d = ring(i + 1, j), ring(i + 1, j + 1)
            faces.append((a, b, d))
            faces.append((a, d, c))
    with open(out, "w", newline="\n") as f:
        f.write(f"# a closed {kind}, {len(faces)} triangles (tests/data/gen/make_lumpy.py)\n")
        for v in verts:
            f.write("v %.5f %.5f %.5f\n" % v)
        for t in faces:
            f.write("f %d %d %d\n" % t)


main()
