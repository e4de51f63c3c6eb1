//! Generates, into OUT_DIR: `typify.rs` (typify's types for the schema in TOOLNEXUS_BUNDLE),
//! `quicktype.rs` (copied from TOOLNEXUS_QUICKTYPE_RS, quicktype's output for the same schema)
//! and `dispatch.rs` (one match arm per wire type for each of the two).
use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::PathBuf;

fn main() {
    let bundle = env::var("TOOLNEXUS_BUNDLE").expect("TOOLNEXUS_BUNDLE: the bundled schema");
    let quicktype =
        env::var("TOOLNEXUS_QUICKTYPE_RS").expect("TOOLNEXUS_QUICKTYPE_RS: quicktype's Rust");
    println!("cargo:rerun-if-env-changed=TOOLNEXUS_BUNDLE");
    println!("cargo:rerun-if-env-changed=TOOLNEXUS_QUICKTYPE_RS");
    println!("cargo:rerun-if-changed={bundle}");
    println!("cargo:rerun-if-changed={quicktype}");
    let out = PathBuf::from(env::var("OUT_DIR").unwrap());
    let text = fs::read_to_string(&bundle).unwrap();
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let names: Vec<String> = value["$defs"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();

    // typify: what `cargo typify` writes. An error or a panic is "typify does not accept the
    // schema": the module then says why, and has no types.
    let generated = std::panic::catch_unwind(|| -> Result<String, String> {
        let schema: schemars::schema::RootSchema =
            serde_json::from_str(&text).map_err(|e| e.to_string())?;
        let mut settings = typify::TypeSpaceSettings::default();
        settings.with_struct_builder(false);
        let mut space = typify::TypeSpace::new(&settings);
        space.add_root_schema(schema).map_err(|e| e.to_string())?;
        let file = syn::parse2::<syn::File>(space.to_stream()).map_err(|e| e.to_string())?;
        Ok(prettyplease::unparse(&file))
    });
    let has = |code: &str, name: &str| {
        code.contains(&format!("pub struct {name} ")) || code.contains(&format!("pub enum {name} "))
    };
    let mut typify_types = Vec::new();
    let refused = match generated {
        Ok(Ok(code)) => {
            typify_types = names.iter().filter(|n| has(&code, n)).cloned().collect();
            fs::write(
                out.join("typify.rs"),
                format!("pub const REFUSED: Option<&str> = None;\n{code}"),
            )
            .unwrap();
            false
        }
        Ok(Err(why)) => {
            fs::write(
                out.join("typify.rs"),
                format!("pub const REFUSED: Option<&str> = Some({why:?});\n"),
            )
            .unwrap();
            true
        }
        Err(panic) => {
            let why = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            let why: String = why.lines().next().unwrap_or("").chars().take(160).collect();
            fs::write(
                out.join("typify.rs"),
                format!(
                    "pub const REFUSED: Option<&str> = Some({:?});\n",
                    format!("panicked: {why}")
                ),
            )
            .unwrap();
            true
        }
    };
    let quicktype_code = fs::read_to_string(&quicktype).unwrap();
    let quicktype_types: Vec<String> = names
        .iter()
        .filter(|n| has(&quicktype_code, n))
        .cloned()
        .collect();
    fs::write(out.join("quicktype.rs"), &quicktype_code).unwrap();

    let mut arms = String::from("pub fn run(tool: &str, name: &str, raw: &str) -> Option<Result<String, String>> {\n    Some(match (tool, name) {\n");
    let _ = refused;
    for (tool, module, found) in [
        ("cargo-typify", "typify", &typify_types),
        ("quicktype-rust", "quicktype", &quicktype_types),
    ] {
        for name in found {
            writeln!(
                arms,
                "        ({tool:?}, {name:?}) => roundtrip::<crate::{module}::{name}>(raw),"
            )
            .unwrap();
        }
    }
    arms.push_str("        _ => return None,\n    })\n}\n");
    // The wire types each tool wrote no type for.
    let missing = |found: &Vec<String>| {
        names
            .iter()
            .filter(|n| !found.contains(n))
            .cloned()
            .collect::<Vec<_>>()
    };
    writeln!(
        arms,
        "pub const MISSING_TYPIFY: &[&str] = &{:?};",
        missing(&typify_types)
    )
    .unwrap();
    writeln!(
        arms,
        "pub const MISSING_QUICKTYPE: &[&str] = &{:?};",
        missing(&quicktype_types)
    )
    .unwrap();
    fs::write(out.join("dispatch.rs"), arms).unwrap();
}
