// Generated from idl/ (toolnexus schema 3.0.0, sha256 6b91a38d4bedd1b463e5362fbb43569b4861fdfffae602b08124cf547ca26429).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
// Source: support/rust/tests/float_parsing.rs (hand-written, copied verbatim).
// codegen: copy; requires ToolResult

//! Every float is read as the double its text denotes, in every feature set (the wire types
//! alone too): a run that passes through this crate keeps its numbers, so its seal still
//! holds where it was made. serde_json's own float parser, without its feature
//! `float_roundtrip`, reads about one float in six that Python writes an ulp off.

use toolnexus::{ToolResult, Wire};

/// Floats as Python writes them (`repr`), each of which serde_json reads an ulp off without
/// `float_roundtrip`.
const FLOATS: [&str; 6] = [
    "9.977421578902324e-10",
    "8.145664242013242e-10",
    "429455817.44877523",
    "6.502079276608593e-09",
    "2.7715077941825975e-163",
    "2.2790121708605243e+274",
];

#[test]
fn floats_are_read_as_the_doubles_their_text_denotes() {
    for text in FLOATS {
        let doc = format!(r#"{{"output":"","isError":false,"metadata":{{"x":{text}}}}}"#);
        let result = ToolResult::from_json(&doc).unwrap();
        let read = result.metadata.as_ref().unwrap()["x"].as_f64().unwrap();
        let exact: f64 = text.parse().unwrap();
        assert_eq!(read.to_bits(), exact.to_bits(), "{text} read as {read:e}");
        // And written so that it reads back as the same double.
        let again = ToolResult::from_json(&result.to_json()).unwrap();
        let reread = again.metadata.as_ref().unwrap()["x"].as_f64().unwrap();
        assert_eq!(
            reread.to_bits(),
            exact.to_bits(),
            "{text} came back as {reread:e}"
        );
    }
}
