# Sets up a still of a glTF export for Blender's command-line renderer: imports the file,
# plays one clip, frames the model with a camera and a sun, and leaves the rendering to the
# `-o` / `-f` options that follow on the command line (docs/export.md):
#
#   blender -b --factory-startup --python crates/gltf/blender/render.py \
#       -o /abs/docs/screenshots/blender_biped_ -F PNG -f 10 -- biped.glb walk
#
# Renders with Cycles on the CPU, so it needs no display or GPU.

import colorsys
import math
import sys

import bpy
from mathutils import Vector

args = sys.argv[sys.argv.index("--") + 1:]
glb, clip = args[0], args[1]

bpy.ops.wm.read_factory_settings(use_empty=True)
scene = bpy.context.scene
scene.render.fps = 25
bpy.ops.import_scene.gltf(filepath=glb, import_shading="FLAT")

# Every object plays the clip's action (`<clip>_<object>`; shape keys `<clip>_<mesh>`).
for o in scene.objects:
    a = bpy.data.actions.get(f"{clip}_{o.name}")
    if a is not None and a.id_root in ("OBJECT", "NONE"):
        o.animation_data_create()
        o.animation_data.action = a
    keys = o.data.shape_keys if o.type == "MESH" else None
    if keys is not None:
        a = bpy.data.actions.get(f"{clip}_{o.data.name}")
        if a is not None:
            keys.animation_data_create()
            keys.animation_data.action = a
scene.frame_set(scene.frame_current)
bpy.context.view_layer.update()

# Frame the meshes over the clip's whole range, seen from the front-left, a little above.
lo = Vector((math.inf,) * 3)
hi = Vector((-math.inf,) * 3)
start, end = scene.frame_start, scene.frame_end
for f in range(int(start), int(end) + 1):
    scene.frame_set(f)
    for o in scene.objects:
        if o.type != "MESH":
            continue
        for c in o.bound_box:
            p = o.matrix_world @ Vector(c)
            lo = Vector(map(min, lo, p))
            hi = Vector(map(max, hi, p))
centre = (lo + hi) / 2
size = max((hi - lo).length, 0.1)

cam_data = bpy.data.cameras.new("camera")
cam_data.lens = 50
cam = bpy.data.objects.new("camera", cam_data)
scene.collection.objects.link(cam)
direction = Vector((0.55, -1.0, 0.45)).normalized()
cam.location = centre + direction * size * 2.0
cam.rotation_euler = (centre - cam.location).to_track_quat("-Z", "Y").to_euler()
scene.camera = cam

sun_data = bpy.data.lights.new("sun", type="SUN")
sun_data.energy = 3.0
sun = bpy.data.objects.new("sun", sun_data)
sun.rotation_euler = (math.radians(40), math.radians(10), math.radians(30))
scene.collection.objects.link(sun)

world = bpy.data.worlds.new("world")
world.use_nodes = True
world.node_tree.nodes["Background"].inputs[0].default_value = (0.93, 0.93, 0.92, 1.0)
world.node_tree.nodes["Background"].inputs[1].default_value = 0.8
scene.world = world

# Meshes the file gives no colour (no material, or a white or grey one) get one colour each, so the
# parts are told apart, and a floor under the feet, darker than the parts, so the pose reads.
def material(name, rgb):
    m = bpy.data.materials.new(name)
    m.use_nodes = True
    m.node_tree.nodes["Principled BSDF"].inputs["Base Color"].default_value = (*rgb, 1.0)
    return m


def uncoloured(o):
    if not o.data.materials:
        return True
    m = o.data.materials[0]
    bsdf = m.node_tree.nodes.get("Principled BSDF") if m and m.use_nodes else None
    rgb = tuple(bsdf.inputs["Base Color"].default_value)[:3] if bsdf else (1, 1, 1)
    return max(rgb) - min(rgb) < 0.01  # white or grey: no colour of its own


plain = [o for o in scene.objects if o.type == "MESH" and uncoloured(o)]
for i, o in enumerate(sorted(plain, key=lambda o: o.name)):
    rgb = colorsys.hsv_to_rgb((i * 0.13) % 1.0, 0.35, 0.75)
    o.data.materials.clear()
    o.data.materials.append(material(f"part {i}", rgb))
bpy.ops.mesh.primitive_plane_add(size=size * 3, location=(centre.x, centre.y, lo.z))
bpy.context.active_object.data.materials.append(material("floor", (0.45, 0.45, 0.43)))

scene.render.engine = "CYCLES"
scene.cycles.device = "CPU"
scene.cycles.samples = 32
scene.cycles.use_denoising = False
for layer in scene.view_layers:
    layer.cycles.use_denoising = False
scene.render.resolution_x = 720
scene.render.resolution_y = 540
scene.render.resolution_percentage = 100
scene.render.image_settings.file_format = "PNG"
scene.render.image_settings.color_mode = "RGB"
scene.render.image_settings.compression = 100
scene.frame_set(scene.frame_start)
