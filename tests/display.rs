//! `Display` against NumPy's `str`: every case of `tests/vectors/display.txt`
//! (written by `tests/vectors/display.py` with NumPy) printed by the tensor of
//! the same shape and values, text for text.

use tensor_expr::prelude::*;

/// One case of the vector file: the element type, the dims, the values as
/// text and NumPy's output.
struct Case<'a> {
    dtype: &'a str,
    dims: Vec<usize>,
    values: Vec<&'a str>,
    expected: String,
}

fn cases() -> Vec<Case<'static>> {
    let text = include_str!("vectors/display.txt");
    let mut lines = text.lines();
    let mut cases = Vec::new();
    while let Some(header) = lines.next() {
        let mut words = header.split(' ');
        assert_eq!(words.next(), Some("case"), "{header}");
        let dtype = words.next().unwrap();
        let dims = match words.next().unwrap() {
            "-" => Vec::new(),
            dims => dims.split(',').map(|d| d.parse().unwrap()).collect(),
        };
        let values = lines.next().unwrap().split(' ').collect();
        let expected: Vec<&str> = lines.by_ref().take_while(|line| *line != "end").collect();
        cases.push(Case {
            dtype,
            dims,
            values,
            expected: expected.join("\n"),
        });
    }
    cases
}

/// The `Display` of a tensor of the case's element type and dims.
fn display(case: &Case) -> String {
    macro_rules! shaped {
        ($t:ty, $($shape:ty),*) => {{
            let values: Vec<$t> = case.values.iter().map(|v| v.parse().unwrap()).collect();
            $(
                if <$shape as tensor_expr::Shape>::DIMS == case.dims.as_slice() {
                    return Tensor::<$t, $shape>::try_from_slice(&values).unwrap().to_string();
                }
            )*
            panic!("no shape {:?} in the test's list", case.dims)
        }};
    }
    macro_rules! typed {
        ($t:ty) => {
            shaped!(
                $t,
                Shape![],
                Shape![2],
                Shape![3],
                Shape![30],
                Shape![40],
                Shape![100],
                Shape![3, 30],
                Shape![4, 13],
                Shape![5, 17],
                Shape![2, 2, 20],
                Shape![2, 3, 11],
                Shape![1, 2, 2, 9]
            )
        };
    }
    match case.dtype {
        "float32" => typed!(f32),
        "float64" => typed!(f64),
        "int32" => typed!(i32),
        "int64" => typed!(i64),
        other => panic!("dtype {other}"),
    }
}

#[test]
fn display_matches_numpy_str() {
    let cases = cases();
    assert!(cases.len() > 40, "the vector file holds the cases");
    let mut failures = Vec::new();
    for case in &cases {
        let actual = display(case);
        if actual != case.expected {
            failures.push(format!(
                "{} {:?}:\n--- NumPy\n{}\n--- tensor-expr\n{}",
                case.dtype, case.dims, case.expected, actual
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
}
