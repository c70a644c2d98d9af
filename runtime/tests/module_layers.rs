//! The runtime's modules form layers: no module depends, directly or through
//! others, on a module that depends on it, except the one cycle that is the
//! design (a `Shape` names the broadcasting rules as supertraits, and those
//! rules are written over `Shape`; `shape.rs` says so).
//!
//! The test reads the sources: every `use` and every `crate::`/`super::` path
//! outside comments and unit tests, each resolved to the module that defines
//! the item it names (so a re-export such as `crate::Tensor` counts as a use
//! of `tensor`). A new cycle fails with the modules that form it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The only cycle allowed, sorted.
const DESIGNED_CYCLE: &[&str] = &["rules::broadcast", "rules::in_place", "shape"];

#[test]
fn runtime_modules_have_no_cycles_but_the_designed_one() {
    let modules = read_modules(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    let graph = dependencies(&modules);
    let cycles: Vec<Vec<&str>> = strongly_connected(&graph)
        .into_iter()
        .filter(|component| component.len() > 1)
        .collect();
    for cycle in &cycles {
        assert_eq!(
            cycle,
            DESIGNED_CYCLE,
            "module cycle {cycle:?}; edges: {:#?}",
            cycle.iter().map(|m| (m, &graph[m])).collect::<Vec<_>>()
        );
    }
    assert_eq!(
        cycles.len(),
        1,
        "the designed cycle is gone: update this test"
    );
    // The layering the module docs describe.
    for (low, high) in [
        ("access", "element"),
        ("element", "expr::leaf"),
        ("view", "heap"),
        ("aligned::boxed", "heap"),
    ] {
        assert!(graph[high].contains(low), "{high} should use {low}");
        assert!(!graph[low].contains(high), "{low} must not use {high}");
    }
}

/// The runtime's layers, lowest first, as `lib.rs` documents them: a module
/// may use modules of its own layer or a lower one, never a higher one
/// (within a layer only the designed cycle is allowed, checked above). A
/// module is placed by its whole path if listed (`rules::elements`, the
/// element-type rule, sits with the element types it is about), else by its
/// first segment.
const LAYERS: &[&[&str]] = &[
    &["dim", "error", "shape", "rules", "isa", "arrays", "scratch"],
    &["access"],
    &[
        "element",
        "fixed_point",
        "math",
        "fmt",
        "lanes",
        "rules::elements",
    ],
    &["expr", "ops", "kernel", "arg"],
    &[
        "aligned", "tensor", "view", "heap", "rows", "slice", "join", "linalg", "staged",
    ],
    &["placement", "program"],
    &["containers"],
    &["interop", "crate"],
];

#[test]
fn runtime_modules_use_only_their_own_or_lower_layers() {
    let modules = read_modules(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    let graph = dependencies(&modules);
    let layer_of = |module: &str| {
        let top = module.split("::").next().unwrap();
        let find = |name: &str| LAYERS.iter().position(|layer| layer.contains(&name));
        find(module)
            .or_else(|| find(top))
            .unwrap_or_else(|| panic!("module `{module}` is in no layer of LAYERS: add it"))
    };
    let mut violations = Vec::new();
    for (user, used) in &graph {
        for dependency in used {
            if layer_of(dependency) > layer_of(user) {
                violations.push(format!(
                    "{user} (layer {}) uses {dependency} (layer {})",
                    layer_of(user),
                    layer_of(dependency)
                ));
            }
        }
    }
    assert!(
        violations.is_empty(),
        "uses of a higher layer:\n{}",
        violations.join("\n")
    );
}

/// Module path (`expr::leaf`, `crate` for lib.rs) to its source, with line
/// comments and the unit tests removed.
fn read_modules(src: &Path) -> BTreeMap<String, String> {
    let mut modules = BTreeMap::new();
    let mut pending = vec![src.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
                continue;
            }
            let relative = path.strip_prefix(src).unwrap().with_extension("");
            let mut name = relative.to_str().unwrap().replace(['/', '\\'], "::");
            if let Some(parent) = name.strip_suffix("::mod") {
                name = parent.to_string();
            }
            if name == "lib" {
                name = "crate".to_string();
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let code = text.split("#[cfg(test)]\nmod tests").next().unwrap();
            let code: Vec<String> = code
                .lines()
                .filter(|line| !line.trim_start().starts_with("//"))
                .map(without_strings)
                .collect();
            modules.insert(name, code.join("\n"));
        }
    }
    modules
}

/// `line` with the contents of its string literals removed: a path in a
/// string (the operation table names constructors by path) is not a use.
fn without_strings(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let (mut in_string, mut escaped) = (false, false);
    for c in line.chars() {
        if in_string {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
                out.push(c);
            }
        } else {
            if c == '"' {
                in_string = true;
            }
            out.push(c);
        }
    }
    out
}

/// Each module's dependencies on other modules (not its own submodules).
fn dependencies(modules: &BTreeMap<String, String>) -> BTreeMap<&str, BTreeSet<&str>> {
    let definers = item_definers(modules);
    let mut graph = BTreeMap::new();
    for (module, code) in modules {
        let mut uses = BTreeSet::new();
        for path in paths(code) {
            let Some(segments) = absolute(module, &path, modules) else {
                continue;
            };
            if let Some(target) = resolve(&segments, modules, &definers) {
                let inside = target.starts_with(&format!("{module}::"));
                if target != module.as_str() && target != "crate" && !inside {
                    uses.insert(target);
                }
            }
        }
        graph.insert(module.as_str(), uses);
    }
    graph
}

/// Item name to the modules defining an item of that name.
fn item_definers(modules: &BTreeMap<String, String>) -> BTreeMap<String, BTreeSet<&str>> {
    let mut definers: BTreeMap<String, BTreeSet<&str>> = BTreeMap::new();
    for (module, code) in modules {
        let words: Vec<&str> = code
            .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '!'))
            .filter(|w| !w.is_empty())
            .collect();
        for pair in words.windows(2) {
            let kinds = ["struct", "trait", "fn", "type", "enum", "const", "static"];
            if kinds.contains(&pair[0]) || pair[0] == "macro_rules!" {
                let name = pair[1].trim_end_matches('!').to_string();
                definers.entry(name).or_default().insert(module.as_str());
            }
        }
    }
    definers
}

/// Every path the code names: `use` trees expanded, and `crate::..`,
/// `$crate::..` and `super::..` paths anywhere.
fn paths(code: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (at, _) in code.match_indices("use ") {
        let before = code[..at].chars().last();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let statement = &code[at + 4..];
        if let Some(end) = statement.find(';') {
            let tree: String = statement[..end]
                .chars()
                .filter(|c| !c.is_whitespace())
                .collect();
            expand_use_tree("", &tree, &mut found);
        }
    }
    let code = code.replace("$crate", "crate");
    for start in ["crate::", "super::"] {
        for (at, _) in code.match_indices(start) {
            let before = code[..at].chars().last();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let path: String = code[at..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            found.push(path);
        }
    }
    found
}

/// `a::{b, c::{d, e}}` as `a::b`, `a::c::d`, `a::c::e`.
fn expand_use_tree(prefix: &str, tree: &str, out: &mut Vec<String>) {
    let Some(open) = tree.find('{') else {
        let path = tree.split("as").next().unwrap_or(tree);
        out.push(format!("{prefix}{path}"));
        return;
    };
    let head = format!("{prefix}{}", &tree[..open]);
    let body = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let (mut depth, mut start) = (0, 0);
    for (i, c) in body.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                expand_use_tree(&head, &body[start..i], out);
                start = i + 1;
            }
            _ => {}
        }
    }
    if start < body.len() {
        expand_use_tree(&head, &body[start..], out);
    }
}

/// A path's segments from the crate root, or `None` for a path outside the
/// crate (`core::..`, a dependency).
fn absolute(module: &str, path: &str, modules: &BTreeMap<String, String>) -> Option<Vec<String>> {
    let mut segments: Vec<String> = path
        .split("::")
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect();
    let mut base: Vec<String> = if module == "crate" {
        Vec::new()
    } else {
        module.split("::").map(String::from).collect()
    };
    match segments.first().map(String::as_str) {
        Some("crate") => {
            segments.remove(0);
            Some(segments)
        }
        Some("super") => {
            while segments.first().map(String::as_str) == Some("super") {
                segments.remove(0);
                base.pop();
            }
            base.extend(segments);
            Some(base)
        }
        Some("self") => {
            segments.remove(0);
            base.extend(segments);
            Some(base)
        }
        Some(first) => {
            let mut child = base.clone();
            child.push(first.to_string());
            if !modules.contains_key(&child.join("::")) {
                return None;
            }
            base.extend(segments);
            Some(base)
        }
        None => None,
    }
}

/// The module defining the item a path names: the longest module prefix,
/// then the item after it, followed to where it is defined.
fn resolve<'m>(
    segments: &[String],
    modules: &'m BTreeMap<String, String>,
    definers: &BTreeMap<String, BTreeSet<&'m str>>,
) -> Option<&'m str> {
    for k in (1..=segments.len()).rev() {
        let prefix = segments[..k].join("::");
        let Some((module, _)) = modules.get_key_value(&prefix) else {
            continue;
        };
        let Some(candidates) = segments.get(k).and_then(|item| definers.get(item)) else {
            return Some(module.as_str());
        };
        let under: Vec<&str> = candidates
            .iter()
            .copied()
            .filter(|d| *d == prefix || d.starts_with(&format!("{prefix}::")))
            .collect();
        return Some(match (candidates.len(), under.as_slice()) {
            (1, _) => candidates.first().copied().unwrap(),
            (_, [only]) => only,
            _ => module.as_str(),
        });
    }
    let item = segments.first()?;
    let candidates = definers.get(item)?;
    (candidates.len() == 1).then(|| candidates.first().copied().unwrap())
}

/// Tarjan's strongly connected components, each sorted.
fn strongly_connected<'m>(graph: &BTreeMap<&'m str, BTreeSet<&'m str>>) -> Vec<Vec<&'m str>> {
    struct Walk<'g, 'm> {
        graph: &'g BTreeMap<&'m str, BTreeSet<&'m str>>,
        index: BTreeMap<&'m str, usize>,
        low: BTreeMap<&'m str, usize>,
        stack: Vec<&'m str>,
        components: Vec<Vec<&'m str>>,
    }
    impl<'m> Walk<'_, 'm> {
        fn visit(&mut self, v: &'m str) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            for &w in self.graph.get(v).into_iter().flatten() {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    self.low.insert(v, self.low[v].min(self.low[w]));
                } else if self.stack.contains(&w) {
                    self.low.insert(v, self.low[v].min(self.index[w]));
                }
            }
            if self.low[v] == self.index[v] {
                let at = self.stack.iter().position(|&x| x == v).unwrap();
                let mut component = self.stack.split_off(at);
                component.sort();
                self.components.push(component);
            }
        }
    }
    let mut walk = Walk {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        components: Vec::new(),
    };
    for &v in graph.keys() {
        if !walk.index.contains_key(v) {
            walk.visit(v);
        }
    }
    walk.components
}
