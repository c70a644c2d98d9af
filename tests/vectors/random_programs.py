"""Writes tests/planned_random_programs.rs: random programs of elementwise,
broadcast and reduction statements, each as a #[tensor_expr::program] and as
the same statements written separately. A checksum of every tensor, taken
right after its statement, goes into the result, so a tensor whose bytes a
later one overwrote while it was alive shows in it.

python3 tests/vectors/random_programs.py (no dependencies; seeded)."""

import random

SHAPES = {"m": "Shape![4, 16]", "v": "Shape![16]", "c": "Shape![3, 4, 16]"}
RANK = {"v": 1, "m": 2, "c": 3}
INPUTS = [("x", "m"), ("y", "v"), ("z", "c")]


def broadcast(a, b):
    return a if RANK[a] >= RANK[b] else b


def statement(rng, live):
    """One expression over live names: (text, shape)."""
    (a, sa), (b, sb) = rng.choice(live), rng.choice(live)
    kind = rng.randrange(6)
    if kind == 0:
        return f"{a} * 0.5 + {b}", broadcast(sa, sb)
    if kind == 1:
        return f"max({a}, {b}) - 0.25", broadcast(sa, sb)
    if kind == 2:
        return f"tanh({a} * {b})", broadcast(sa, sb)
    if kind == 3:
        return f"relu({a} - {b} * 0.75)", broadcast(sa, sb)
    if kind == 4 and sa != "v":
        return f"sum({a}, [0]) * 0.125", {"c": "m", "m": "v"}[sa]
    return f"{a} - 0.5", sa


def program(rng, index):
    live = list(INPUTS)
    lines = []
    for k in range(rng.randrange(4, 11)):
        text, shape = statement(rng, live)
        name = f"t{k}"
        lines.append((name, text))
        live.append((name, shape))
    params = ", ".join(f"{n}: &Tensor<f32, {SHAPES[s]}>" for n, s in INPUTS)
    body = []
    for name, text in lines:
        body.append(f"    let {name} = tensor_expr!({text});")
        body.append(f"    sums.push({name}.as_slice().iter().sum::<f32>());")
    body = "\n".join(body)
    return f"""
#[tensor_expr::program]
fn planned{index}({params}) -> Vec<f32> {{
    let mut sums = Vec::new();
{body}
    sums
}}

fn separate{index}({params}) -> Vec<f32> {{
    let mut sums = Vec::new();
{body}
    sums
}}
"""


def main():
    rng = random.Random(54)
    count = 40
    out = [
        "//! Random programs (written by `tests/vectors/random_programs.py`):",
        "//! each planned program gives the bytes of its statements written",
        "//! separately, so no tensor's bytes were taken while it was alive.",
        "",
        "#![allow(unused_variables)] // a program may not read every input",
        "",
        "use tensor_expr::prelude::*;",
    ]
    for index in range(count):
        out.append(program(rng, index))
    calls = "\n".join(
        f"    assert_eq!(planned{i}(&x, &y, &z), separate{i}(&x, &y, &z), \"program {i}\");"
        for i in range(count)
    )
    out.append(f"""#[test]
fn random_programs_compute_what_their_statements_compute() {{
    let x = Tensor::<f32, Shape![4, 16]>::from_fn(|[i, j]| (i as f32 - 1.5) * 0.3 + j as f32 * 0.01);
    let y = Tensor::<f32, Shape![16]>::from_fn(|[j]| 0.5 - j as f32 * 0.07);
    let z = Tensor::<f32, Shape![3, 4, 16]>::from_fn(|[a, i, j]| ((a * 64 + i * 16 + j) % 7) as f32 * 0.2 - 0.6);
{calls}
}}
""")
    with open("tests/planned_random_programs.rs", "w") as f:
        f.write("\n".join(out))


main()
