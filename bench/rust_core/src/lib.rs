//! A probe of issue 29's Rust core: JSON text read with the wire's rules (R1-R3, R6, R7) straight
//! into Python objects, as `toolnexus_wire._number.loads` reads it after orjson's verdict.

use std::fmt;

use pyo3::exceptions::PyValueError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString};
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

const MAX_DEPTH: usize = 100;
const NUMBER_TOKEN: &str = "$serde_json::private::Number";

struct Ctx<'py> {
    py: Python<'py>,
    json_number: Bound<'py, PyAny>,
}

#[derive(Clone, Copy)]
struct Seed<'a, 'py> {
    ctx: &'a Ctx<'py>,
    depth: usize,
}

fn err<E: de::Error>(e: PyErr) -> E {
    E::custom(format_args!("{e}"))
}

fn spelled(text: &str) -> String {
    match text.find(['e', 'E']) {
        None => text.to_owned(),
        Some(i) => {
            let rest = &text[i + 1..];
            let sign = if rest.starts_with(['+', '-']) {
                ""
            } else {
                "+"
            };
            format!("{}e{}{}", &text[..i], sign, rest)
        }
    }
}

fn python_repr(v: f64) -> String {
    unsafe {
        let p = ffi::PyOS_double_to_string(
            v,
            b'r' as _,
            0,
            ffi::Py_DTSF_ADD_DOT_0,
            std::ptr::null_mut(),
        );
        let s = std::ffi::CStr::from_ptr(p).to_string_lossy().into_owned();
        ffi::PyMem_Free(p as *mut _);
        s
    }
}

impl<'a, 'py> Seed<'a, 'py> {
    fn number<E: de::Error>(self, text: &str) -> Result<Bound<'py, PyAny>, E> {
        let py = self.ctx.py;
        let integer = !text.contains(['.', 'e', 'E']);
        if integer {
            if text == "-0" {
                return self.ctx.json_number.call1((text,)).map_err(err);
            }
            if let Ok(i) = text.parse::<i64>() {
                return Ok(i.into_pyobject(py).map_err(|e| err(e.into()))?.into_any());
            }
            if !text.parse::<f64>().is_ok_and(f64::is_finite) {
                return Err(E::custom("a number beyond the range of a double"));
            }
            return py.get_type::<PyInt>().call1((text,)).map_err(err);
        }
        let v: f64 = text.parse().map_err(E::custom)?;
        if !v.is_finite() {
            return Err(E::custom("a number beyond the range of a double"));
        }
        let spelled = spelled(text);
        if python_repr(v) == spelled {
            Ok(PyFloat::new(py, v).into_any())
        } else {
            // float.__new__(JsonNumber, v), then its `text` slot: no Python frame.
            unsafe {
                let ty = self.ctx.json_number.as_ptr() as *mut ffi::PyTypeObject;
                let args = ffi::PyTuple_New(1);
                ffi::PyTuple_SetItem(args, 0, ffi::PyFloat_FromDouble(v));
                let new = (*std::ptr::addr_of_mut!(ffi::PyFloat_Type)).tp_new.unwrap();
                let obj = new(ty, args, std::ptr::null_mut());
                ffi::Py_DecRef(args);
                if obj.is_null() {
                    return Err(err(PyErr::fetch(py)));
                }
                let obj = Bound::from_owned_ptr(py, obj);
                obj.setattr(pyo3::intern!(py, "text"), spelled)
                    .map_err(err)?;
                Ok(obj)
            }
        }
    }
}

impl<'de, 'a, 'py> DeserializeSeed<'de> for Seed<'a, 'py> {
    type Value = Bound<'py, PyAny>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

enum Key<'py> {
    Number,
    Key(Bound<'py, PyString>),
}

struct KeySeed<'py>(Python<'py>, bool);

impl<'de, 'py> DeserializeSeed<'de> for KeySeed<'py> {
    type Value = Key<'py>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de, 'py> Visitor<'de> for KeySeed<'py> {
    type Value = Key<'py>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Key<'py>, E> {
        if self.1 && v == NUMBER_TOKEN {
            return Ok(Key::Number);
        }
        Ok(Key::Key(PyString::new(self.0, v)))
    }
}

impl<'de, 'a, 'py> Visitor<'de> for Seed<'a, 'py> {
    type Value = Bound<'py, PyAny>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Self::Value, E> {
        Ok(PyBool::new(self.ctx.py, v).to_owned().into_any())
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(PyString::new(self.ctx.py, v).into_any())
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        Ok(v.into_pyobject(self.ctx.py)
            .map_err(|e| err(e.into()))?
            .into_any())
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        Ok(v.into_pyobject(self.ctx.py)
            .map_err(|e| err(e.into()))?
            .into_any())
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(self.ctx.py.None().into_bound(self.ctx.py))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        if self.depth > MAX_DEPTH {
            return Err(de::Error::custom("nested more than 100 levels"));
        }
        let inner = Seed {
            ctx: self.ctx,
            depth: self.depth + 1,
        };
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(inner)? {
            items.push(item);
        }
        PyList::new(self.ctx.py, items)
            .map(|l| l.into_any())
            .map_err(err)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Self::Value, A::Error> {
        let py = self.ctx.py;
        let dict = PyDict::new(py);
        let inner = Seed {
            ctx: self.ctx,
            depth: self.depth + 1,
        };
        let mut first = true;
        while let Some(key) = access.next_key_seed(KeySeed(py, first))? {
            match key {
                Key::Number => {
                    let text: String = access.next_value()?;
                    return self.number(&text);
                }
                Key::Key(key) => {
                    if first && self.depth > MAX_DEPTH {
                        return Err(de::Error::custom("nested more than 100 levels"));
                    }
                    first = false;
                    if dict.contains(&key).map_err(err)? {
                        return Err(de::Error::custom(format_args!(
                            "an object repeats the key {key}"
                        )));
                    }
                    let value = access.next_value_seed(inner)?;
                    dict.set_item(key, value).map_err(err)?;
                }
            }
        }
        if first && self.depth > MAX_DEPTH {
            return Err(de::Error::custom("nested more than 100 levels"));
        }
        Ok(dict.into_any())
    }
}

/// `data` (str or bytes) read with the wire's rules; `ValueError` saying why not.
#[pyfunction]
fn loads<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    json_number: Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let text: &str;
    let owned;
    if let Ok(b) = data.cast::<PyBytes>() {
        text = std::str::from_utf8(b.as_bytes())
            .map_err(|e| PyValueError::new_err(format!("not UTF-8: {e}")))?;
    } else {
        owned = data.cast::<PyString>()?.clone();
        text = owned
            .to_str()
            .map_err(|_| PyValueError::new_err("a lone surrogate"))?;
    }
    let ctx = Ctx { py, json_number };
    let mut de = serde_json::Deserializer::from_str(text);
    let value = Seed {
        ctx: &ctx,
        depth: 1,
    }
    .deserialize(&mut de)
    .and_then(|v| de.end().map(|()| v))
    .map_err(|e| {
        let m = e.to_string();
        if m.starts_with("recursion limit exceeded") {
            PyValueError::new_err("nested more than 100 levels")
        } else {
            PyValueError::new_err(m)
        }
    })?;
    Ok(value)
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(loads, m)?)
}
