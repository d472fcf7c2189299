# Imports glTF exports into Blender (headless) and writes what Blender shows: the actions
# with their frame ranges, and every named node's world matrix (back in glTF axes) and
# shape-key values at the requested clip keys.
#
#   blender -b --factory-startup --python sample.py -- REQUEST.json OUTPUT.json
#
# REQUEST: {"files": [{"glb": "/abs/path.glb", "fps": 25, "nodes": ["root_motion", ...],
#           "samples": [{"clip": "walk", "frame": 3, "subframe": 0.5}]}]}
# OUTPUT:  {"blender": "3.4.1", "files": [{"glb", "seconds": import time, "actions":
#           {"walk_pelvis": [first, last], ...}, "interpolations": ["CONSTANT"],
#           "samples": [{"clip", "frame",
#           "nodes": [[16 numbers, column-major] | null per requested node],
#           "weights": [[...] | null per requested node]}]}]}
#
# The scene runs at the file's `fps` before its import, so that a key at t seconds lands on
# frame t·fps. Blender 3.4 makes one action per clip and node, named
# `<clip>_<node>` (shape keys: `<clip>_<mesh>`); a sample plays, on every object, that
# clip's action, and puts objects the clip does not animate back at their rest pose.
# Blender's importer turns glTF's +Y up into its +Z up, (x, y, z) -> (x, -z, y); the
# matrices written are turned back, so they compare with glTF's directly. The comparison
# is made by crates/gltf/tests/blender.rs, which wrote the request.

import json
import sys
import time

import bpy
from mathutils import Matrix

args = sys.argv[sys.argv.index("--") + 1:]
request = json.load(open(args[0]))

# glTF axes -> Blender axes, as the importer converts.
TO_BLENDER = Matrix(((1, 0, 0, 0), (0, 0, -1, 0), (0, 1, 0, 0), (0, 0, 0, 1)))
TO_GLTF = TO_BLENDER.inverted()


def column_major(m):
    return [m[r][c] for c in range(4) for r in range(4)]


result = {"blender": bpy.app.version_string, "files": []}
for f in request["files"]:
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    scene.render.fps = int(f.get("fps", 25))
    scene.render.fps_base = 1.0
    started = time.time()
    # Flat shading: the exports carry no normals (their faces are flat), and the importer's
    # default ("NORMALS") trips over numpy >= 1.24 in Blender 3.4.
    bpy.ops.import_scene.gltf(filepath=f["glb"], import_shading="FLAT")
    seconds = time.time() - started
    actions = {a.name: [a.frame_range[0], a.frame_range[1]] for a in bpy.data.actions}
    interpolations = sorted(
        {k.interpolation for a in bpy.data.actions for c in a.fcurves for k in c.keyframe_points}
    )
    objects = [bpy.data.objects.get(n) for n in f["nodes"]]
    rest = {o.name: o.matrix_basis.copy() for o in objects if o is not None}

    samples = []
    for s in f["samples"]:
        clip = s["clip"]
        for o in objects:
            if o is None:
                continue
            action = bpy.data.actions.get(f"{clip}_{o.name}")
            if action is not None and action.id_root not in ("OBJECT", "NONE"):
                action = None  # a shape-key action of the same name
            if o.animation_data is None:
                o.animation_data_create()
            o.animation_data.action = action
            if action is None:
                o.matrix_basis = rest[o.name]
            keys = o.data.shape_keys if o.type == "MESH" else None
            if keys is not None:
                sk = None
                for name in (f"{clip}_{o.data.name}", f"{clip}_{o.name}"):
                    a = bpy.data.actions.get(name)
                    if a is not None and a.id_root in ("KEY", "NONE") and sk is None:
                        sk = a
                if keys.animation_data is None:
                    keys.animation_data_create()
                keys.animation_data.action = sk
        scene.frame_set(int(s["frame"]), subframe=float(s.get("subframe", 0.0)))
        bpy.context.view_layer.update()
        nodes = []
        weights = []
        for o in objects:
            if o is None:
                nodes.append(None)
                weights.append(None)
                continue
            nodes.append(column_major(TO_GLTF @ o.matrix_world @ TO_BLENDER))
            keys = o.data.shape_keys if o.type == "MESH" else None
            if keys is None:
                weights.append(None)
            else:
                weights.append([k.value for k in keys.key_blocks[1:]])
        samples.append({"clip": clip, "frame": s["frame"], "nodes": nodes, "weights": weights})
    result["files"].append(
        {
            "glb": f["glb"],
            "seconds": seconds,
            "actions": actions,
            "interpolations": interpolations,
            "samples": samples,
        }
    )
    print(f"blender {bpy.app.version_string}: {f['glb']}: {len(actions)} actions, "
          f"{len(samples)} samples, imported in {seconds:.2f} s")

json.dump(result, open(args[1], "w"))
