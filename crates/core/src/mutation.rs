//! Mutations for the engines' fuzz properties: byte edits (overwrite, 32-bit
//! overwrite, insert, delete, truncate) for binary and text inputs, and number
//! replacements inside a JSON document, which reach deeper than bytes because the
//! document stays well formed. Built with the `fuzzing` feature, which the engines
//! enable for their tests only.

use proptest::prelude::*;
use serde_json::Value;

#[derive(Clone, Debug)]
pub enum Edit {
    Set(usize, u8),
    SetU32(usize, u32),
    Insert(usize, u8),
    Delete(usize),
    Truncate(usize),
}

pub fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(a, v)| Edit::Set(a, v)),
        (
            any::<usize>(),
            prop_oneof![
                Just(0u32),
                Just(1),
                Just(u32::MAX),
                Just(0x8000_0000),
                any::<u32>()
            ]
        )
            .prop_map(|(a, v)| Edit::SetU32(a, v)),
        (any::<usize>(), any::<u8>()).prop_map(|(a, v)| Edit::Insert(a, v)),
        any::<usize>().prop_map(Edit::Delete),
        any::<usize>().prop_map(Edit::Truncate),
    ]
}

pub fn edits() -> impl Strategy<Value = Vec<Edit>> {
    prop::collection::vec(edit(), 1..6)
}

pub fn apply(bytes: &mut Vec<u8>, e: &Edit) {
    let n = bytes.len().max(1);
    match *e {
        Edit::Set(a, v) => {
            if let Some(b) = bytes.get_mut(a % n) {
                *b = v;
            }
        }
        Edit::SetU32(a, v) => {
            let a = (a % n) & !3;
            if a + 4 <= bytes.len() {
                bytes[a..a + 4].copy_from_slice(&v.to_le_bytes());
            }
        }
        Edit::Insert(a, v) => bytes.insert(a % (bytes.len() + 1), v),
        Edit::Delete(a) => {
            if !bytes.is_empty() {
                bytes.remove(a % n);
            }
        }
        Edit::Truncate(a) => bytes.truncate(a % n),
    }
}

pub fn mutated(bytes: &[u8], es: &[Edit]) -> Vec<u8> {
    let mut b = bytes.to_vec();
    for e in es {
        apply(&mut b, e);
    }
    b
}

/// Numbers at the edges of every integer and float type a loader narrows to.
pub fn edge_number() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::from(0)),
        Just(Value::from(-1)),
        Just(Value::from(1)),
        Just(Value::from(255)),
        Just(Value::from(256)),
        Just(Value::from(65_536)),
        Just(Value::from(1_048_576)),
        Just(Value::from(i64::from(i32::MAX) + 1)),
        Just(Value::from(i64::MIN)),
        Just(Value::from(u64::MAX)),
        Just(Value::from(0.5)),
        Just(Value::from(-2.5)),
        Just(Value::from(1e-300)),
        Just(Value::from(1.8e19)),
        Just(Value::from(3.5e38)),
        Just(Value::from(1e300)),
        Just(Value::from(-1e300)),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("JSON has no NaN or Infinity", |f| f.is_finite())
            .prop_map(Value::from),
    ]
}

/// Replace the `k`-th number of the document (counted modulo how many it has).
pub fn replace_number(doc: &mut Value, k: usize, with: &Value) {
    fn count(v: &Value) -> usize {
        match v {
            Value::Number(_) => 1,
            Value::Array(a) => a.iter().map(count).sum(),
            Value::Object(m) => m.values().map(count).sum(),
            _ => 0,
        }
    }
    fn nth<'a>(v: &'a mut Value, k: &mut usize) -> Option<&'a mut Value> {
        match v {
            Value::Number(_) => {
                if *k == 0 {
                    return Some(v);
                }
                *k -= 1;
                None
            }
            Value::Array(a) => a.iter_mut().find_map(|x| nth(x, k)),
            Value::Object(m) => m.values_mut().find_map(|x| nth(x, k)),
            _ => None,
        }
    }
    let n = count(doc);
    if n == 0 {
        return;
    }
    let mut k = k % n;
    if let Some(slot) = nth(doc, &mut k) {
        *slot = with.clone();
    }
}

/// The first NaN or ±Infinity a serialised trace line prints, if any.
pub fn non_finite_text(line: &Value) -> Option<String> {
    let text = line.to_string();
    ["\"NaN\"", "\"Infinity\"", "\"-Infinity\""]
        .iter()
        .find(|t| text.contains(*t))
        .map(|t| format!("{t} in {text}"))
}
