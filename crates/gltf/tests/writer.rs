//! The writer's rules, checked on small scenes whose bytes are worked out by hand.

use retroanim_gltf::{
    chunks, write_glb, Channel, Clip, Error, Interpolation, Mesh, MorphTarget, Node, Property,
    Scene, WriteOptions,
};
use serde_json::{json, Value};

fn slide_scene() -> Scene {
    Scene {
        name: "slide".into(),
        nodes: vec![Node::new("box", None)],
        clips: vec![Clip {
            name: "Slide".into(),
            channels: vec![Channel {
                node: 0,
                property: Property::Translation,
                interpolation: Interpolation::Step,
                times: vec![0.0, 0.5, 1.0],
                values: vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 2.0, 0.0, 0.0],
            }],
        }],
        ..Default::default()
    }
}

fn read(glb: &[u8]) -> (Value, Vec<u8>) {
    let (json, bin) = chunks(glb).expect("a well-formed .glb");
    (
        serde_json::from_slice(json).expect("JSON chunk"),
        bin.to_vec(),
    )
}

fn floats(bin: &[u8]) -> Vec<f32> {
    bin.chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
}

#[test]
fn glb_header_and_chunks_of_a_one_node_step_translation_clip() {
    let glb = write_glb(&slide_scene(), &WriteOptions::default()).unwrap();
    assert_eq!(&glb[0..4], b"glTF");
    assert_eq!(&glb[4..8], &[2, 0, 0, 0], "version 2");
    assert_eq!(
        u32::from_le_bytes(glb[8..12].try_into().unwrap()) as usize,
        glb.len()
    );
    assert_eq!(&glb[16..20], b"JSON");
    let json_len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    assert_eq!(json_len % 4, 0, "chunks start on 4-byte boundaries");
    let bin_at = 20 + json_len;
    assert_eq!(&glb[bin_at + 4..bin_at + 8], b"BIN\0");
    // 3 key times then 3 VEC3 values: 12 floats, 48 bytes.
    assert_eq!(&glb[bin_at..bin_at + 4], &[48, 0, 0, 0]);
    let expected: [u8; 48] = [
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x3F, 0x00, 0x00, 0x80, 0x3F, // 0, 0.5, 1
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, // (0, 0, 0)
        0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, // (1, 0, 0)
        0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, // (2, 0, 0)
    ];
    assert_eq!(&glb[bin_at + 8..], &expected);

    let (doc, _) = read(&glb);
    assert_eq!(doc["asset"]["version"], "2.0");
    assert_eq!(doc["scene"], 0);
    assert_eq!(doc["scenes"][0]["nodes"], json!([0]));
    assert_eq!(doc["nodes"], json!([{ "name": "box" }]));
    assert_eq!(doc["buffers"], json!([{ "byteLength": 48 }]));
    assert_eq!(
        doc["bufferViews"],
        json!([
            { "buffer": 0, "byteLength": 12, "byteOffset": 0 },
            { "buffer": 0, "byteLength": 36, "byteOffset": 12 }
        ])
    );
    assert_eq!(
        doc["accessors"][0],
        json!({ "bufferView": 0, "count": 3, "componentType": 5126, "type": "SCALAR",
                "min": [0.0], "max": [1.0] })
    );
    assert_eq!(
        doc["accessors"][1],
        json!({ "bufferView": 1, "count": 3, "componentType": 5126, "type": "VEC3" })
    );
    assert_eq!(
        doc["animations"],
        json!([{
            "channels": [{ "sampler": 0, "target": { "node": 0, "path": "translation" } }],
            "name": "Slide",
            "samplers": [{ "input": 0, "interpolation": "STEP", "output": 1 }]
        }])
    );
}

#[test]
fn rotations_are_normalised_and_keep_the_sign_of_the_previous_key() {
    let mut scene = slide_scene();
    scene.clips[0].channels = vec![Channel {
        node: 0,
        property: Property::Rotation,
        interpolation: Interpolation::Linear,
        times: vec![0.0, 1.0, 2.0],
        // (0,0,0,2) is the identity at length 2; (0,0,0,-1) is the identity on the other
        // side; (0,0.6,0,-0.8) is a turn about Y whose other side is (0,-0.6,0,0.8).
        values: vec![0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.6, 0.0, -0.8],
    }];
    let (doc, bin) = read(&write_glb(&scene, &WriteOptions::default()).unwrap());
    assert_eq!(
        doc["animations"][0]["samplers"][0]["interpolation"],
        "LINEAR"
    );
    assert_eq!(doc["accessors"][1]["type"], "VEC4");
    assert_eq!(doc["accessors"][0]["max"], json!([2.0]));
    let values = floats(&bin[12..]);
    assert_eq!(
        values,
        [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, -0.6, 0.0, 0.8]
    );
}

#[test]
fn channels_keyed_at_the_same_times_share_one_input_accessor() {
    let mut scene = slide_scene();
    let mut scale = scene.clips[0].channels[0].clone();
    scale.property = Property::Scale;
    scene.clips[0].channels.push(scale);
    let (doc, _) = read(&write_glb(&scene, &WriteOptions::default()).unwrap());
    let samplers = &doc["animations"][0]["samplers"];
    assert_eq!(samplers[0]["input"], 0);
    assert_eq!(samplers[1]["input"], 0);
    assert_eq!(samplers[1]["output"], 2);
    assert_eq!(doc["accessors"].as_array().unwrap().len(), 3);
}

#[test]
fn the_sidecar_is_the_assets_extras() {
    let mut scene = slide_scene();
    scene.sidecar = json!({ "cycles": [{ "name": "Slide", "speed": 1.5 }] });
    let (doc, _) = read(&write_glb(&scene, &WriteOptions::default()).unwrap());
    assert_eq!(
        doc["extras"],
        json!({ "cycles": [{ "name": "Slide", "speed": 1.5 }] })
    );
}

fn triangle(name: &str) -> Mesh {
    Mesh {
        name: name.into(),
        positions: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 2.0, 0.0]],
        normals: vec![[0.0, 0.0, 3.0]; 3],
        indices: vec![0, 1, 2],
        base_color: [0.5, 0.5, 0.5, 1.0],
        ..Default::default()
    }
}

#[test]
fn a_mesh_has_position_bounds_unit_normals_and_a_material_of_its_colour() {
    let mut scene = slide_scene();
    scene.meshes = vec![triangle("tri")];
    scene.nodes[0].mesh = Some(0);
    let (doc, bin) = read(&write_glb(&scene, &WriteOptions::default()).unwrap());
    let primitive = &doc["meshes"][0]["primitives"][0];
    assert_eq!(
        primitive["attributes"],
        json!({ "NORMAL": 1, "POSITION": 0 })
    );
    assert_eq!(primitive["indices"], 2);
    assert_eq!(doc["accessors"][0]["min"], json!([0.0, 0.0, 0.0]));
    assert_eq!(doc["accessors"][0]["max"], json!([1.0, 2.0, 0.0]));
    assert_eq!(doc["accessors"][2]["componentType"], 5125);
    assert_eq!(doc["bufferViews"][0]["target"], 34962);
    assert_eq!(doc["bufferViews"][2]["target"], 34963);
    // Normals (0,0,3) are written as (0,0,1): bytes 36..72 of the buffer.
    assert_eq!(floats(&bin[36..72]), [0.0, 0.0, 1.0].repeat(3));
    assert_eq!(
        doc["materials"][0]["pbrMetallicRoughness"]["baseColorFactor"],
        json!([0.5, 0.5, 0.5, 1.0])
    );
    assert_eq!(doc["nodes"][0]["mesh"], 0);
}

#[test]
fn morph_targets_get_zero_default_weights_their_names_and_a_weights_channel() {
    let mut mesh = triangle("body");
    mesh.morph_targets = vec![
        MorphTarget {
            name: "frame0".into(),
            position_offsets: vec![[0.0; 3]; 3],
        },
        MorphTarget {
            name: "frame1".into(),
            position_offsets: vec![[0.0, 1.0, 0.0]; 3],
        },
    ];
    let scene = Scene {
        name: "actor".into(),
        nodes: vec![Node {
            mesh: Some(0),
            ..Node::new("body", None)
        }],
        meshes: vec![mesh],
        clips: vec![Clip {
            name: "Wave".into(),
            channels: vec![Channel {
                node: 0,
                property: Property::Weights,
                interpolation: Interpolation::Step,
                times: vec![0.0, 0.25],
                values: vec![1.0, 0.0, 0.0, 1.0],
            }],
        }],
        ..Default::default()
    };
    let (doc, _) = read(&write_glb(&scene, &WriteOptions::default()).unwrap());
    let m = &doc["meshes"][0];
    assert_eq!(m["weights"], json!([0.0, 0.0]));
    assert_eq!(m["extras"], json!({ "targetNames": ["frame0", "frame1"] }));
    assert_eq!(
        m["primitives"][0]["targets"],
        json!([{ "POSITION": 3 }, { "POSITION": 4 }])
    );
    assert_eq!(doc["accessors"][4]["max"], json!([0.0, 1.0, 0.0]));
    let animation = &doc["animations"][0];
    assert_eq!(animation["channels"][0]["target"]["path"], "weights");
    let output = animation["samplers"][0]["output"].as_u64().unwrap() as usize;
    assert_eq!(doc["accessors"][output]["count"], 4, "2 keys × 2 targets");
    assert_eq!(doc["accessors"][output]["type"], "SCALAR");
}

#[test]
fn skinned_puts_each_meshed_part_on_one_joint_with_weight_one_at_its_rest_place() {
    let scene = Scene {
        name: "rig".into(),
        nodes: vec![
            Node::new("root", None),
            Node {
                translation: [1.0, 0.0, 0.0],
                mesh: Some(0),
                ..Node::new("arm", Some(0))
            },
        ],
        meshes: vec![triangle("arm")],
        ..Default::default()
    };
    let glb = write_glb(&scene, &WriteOptions { skinned: true }).unwrap();
    let (doc, bin) = read(&glb);
    assert_eq!(
        doc["nodes"][1],
        json!({ "name": "arm", "translation": [1.0, 0.0, 0.0] })
    );
    assert_eq!(
        doc["nodes"][2],
        json!({ "mesh": 0, "name": "rig.skinned", "skin": 0 })
    );
    assert_eq!(doc["scenes"][0]["nodes"], json!([0, 2]));
    assert_eq!(doc["skins"][0]["joints"], json!([1]));
    let primitive = &doc["meshes"][0]["primitives"][0];
    let position = primitive["attributes"]["POSITION"].as_u64().unwrap() as usize;
    // The triangle moved by the arm's rest translation (1, 0, 0).
    assert_eq!(doc["accessors"][position]["min"], json!([1.0, 0.0, 0.0]));
    assert_eq!(doc["accessors"][position]["max"], json!([2.0, 2.0, 0.0]));
    let joints = primitive["attributes"]["JOINTS_0"].as_u64().unwrap() as usize;
    assert_eq!(doc["accessors"][joints]["componentType"], 5123);
    assert_eq!(doc["accessors"][joints]["type"], "VEC4");
    let weights = primitive["attributes"]["WEIGHTS_0"].as_u64().unwrap() as usize;
    let view = doc["accessors"][weights]["bufferView"].as_u64().unwrap() as usize;
    let at = doc["bufferViews"][view]["byteOffset"].as_u64().unwrap() as usize;
    assert_eq!(floats(&bin[at..at + 16]), [1.0, 0.0, 0.0, 0.0]);
    // The inverse bind matrix undoes the rest translation: column-major, last column -1,0,0,1.
    let ibm = doc["skins"][0]["inverseBindMatrices"].as_u64().unwrap() as usize;
    let view = doc["accessors"][ibm]["bufferView"].as_u64().unwrap() as usize;
    let at = doc["bufferViews"][view]["byteOffset"].as_u64().unwrap() as usize;
    assert_eq!(
        floats(&bin[at..at + 64]),
        [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, -1.0, 0.0, 0.0, 1.0]
    );
}

fn refused(scene: &Scene) -> String {
    write_glb(scene, &WriteOptions::default())
        .unwrap_err()
        .to_string()
}

#[test]
fn key_times_must_be_strictly_increasing() {
    let mut scene = slide_scene();
    scene.clips[0].channels[0].times = vec![0.0, 0.5, 0.5];
    assert_eq!(
        refused(&scene),
        "clip \"Slide\" channel 0 (node 0 \"box\" Translation): key times not strictly \
         increasing at key 2 (0.5 after 0.5)"
    );
}

#[test]
fn key_times_must_not_be_negative() {
    let mut scene = slide_scene();
    scene.clips[0].channels[0].times = vec![-0.25, 0.5, 1.0];
    assert_eq!(
        refused(&scene),
        "clip \"Slide\" channel 0 (node 0 \"box\" Translation): first key time -0.25 is negative"
    );
}

#[test]
fn value_count_must_match_keys_times_components() {
    let mut scene = slide_scene();
    scene.clips[0].channels[0].values.pop();
    assert_eq!(
        refused(&scene),
        "clip \"Slide\" channel 0 (node 0 \"box\" Translation): 8 values for 3 keys of 3 components"
    );
}

#[test]
fn one_channel_per_node_and_property_in_a_clip() {
    let mut scene = slide_scene();
    let again = scene.clips[0].channels[0].clone();
    scene.clips[0].channels.push(again);
    assert!(refused(&scene).ends_with(
        "channel 1 (node 0 \"box\" Translation): an earlier channel of this clip animates the \
         same node and property"
    ));
}

#[test]
fn clip_names_are_unique_and_not_empty() {
    let mut scene = slide_scene();
    scene.clips.push(scene.clips[0].clone());
    assert_eq!(
        refused(&scene),
        "clip \"Slide\": another clip has the same name (tools bind clips by name)"
    );
    scene.clips[1].name.clear();
    assert_eq!(refused(&scene), "a clip: has no name");
}

#[test]
fn parent_cycles_and_out_of_range_indices_are_refused() {
    let mut scene = slide_scene();
    scene.nodes.push(Node::new("b", Some(0)));
    scene.nodes[0].parent = Some(1);
    assert_eq!(refused(&scene), "node 0 \"box\": its parents form a cycle");
    scene.nodes[0].parent = Some(7);
    assert_eq!(
        refused(&scene),
        "node 0 \"box\": parent 7 out of range (2 nodes)"
    );
    scene.nodes[0].parent = None;
    scene.nodes[1].mesh = Some(0);
    assert_eq!(
        refused(&scene),
        "node 1 \"b\": mesh 0 out of range (0 meshes)"
    );
}

#[test]
fn mesh_indices_must_name_existing_vertices() {
    let mut scene = slide_scene();
    let mut mesh = triangle("tri");
    mesh.indices = vec![0, 1, 3];
    scene.meshes.push(mesh);
    assert_eq!(
        refused(&scene),
        "mesh 0 \"tri\": index 2 is 3 but there are 3 vertices"
    );
}

#[test]
fn weights_need_a_mesh_with_morph_targets() {
    let mut scene = slide_scene();
    scene.clips[0].channels[0].property = Property::Weights;
    assert_eq!(
        refused(&scene),
        "clip \"Slide\" channel 0 (node 0 \"box\" Weights): weights on a node whose mesh has \
         no morph targets"
    );
}

#[test]
fn non_finite_values_and_zero_rotations_are_refused() {
    let mut scene = slide_scene();
    scene.clips[0].channels[0].values[4] = f32::NAN;
    assert_eq!(
        refused(&scene),
        "clip \"Slide\" channel 0 (node 0 \"box\" Translation): output value 4 is not finite (NaN)"
    );
    let mut scene = slide_scene();
    scene.nodes[0].rotation = [0.0; 4];
    assert_eq!(
        refused(&scene),
        "node 0 \"box\": rest rotation is zero-length or not finite"
    );
    assert!(matches!(
        write_glb(&scene, &WriteOptions::default()),
        Err(Error::Invalid { .. })
    ));
}
