//! The `serde` feature: nested sequences, one level per dim (NumPy's
//! `tolist()` layout), and a deserialiser that checks every level's length.

use serde::Deserialize;
use serde_json::{from_str, json, to_string, to_value};
use tensor_expr::prelude::*;
use tensor_expr::HeapTensor;

#[test]
fn tensors_serialise_as_nested_sequences() {
    let x = tensor![[1.5f32, 2., 3.], [4., 5., 6.]];
    assert_eq!(
        to_value(x).unwrap(),
        json!([[1.5, 2.0, 3.0], [4.0, 5.0, 6.0]])
    );
    assert_eq!(to_string(&x.view()).unwrap(), to_string(&x).unwrap());
    assert_eq!(to_string(&x.to_heap()).unwrap(), to_string(&x).unwrap());
    let scalar = Tensor::<i32, Shape![]>::new(5);
    assert_eq!(to_string(&scalar).unwrap(), "5");
    let cube = Tensor::<u8, Shape![2, 1, 2]>::from_fn(|[i, _, k]: [usize; 3]| (2 * i + k) as u8);
    assert_eq!(to_string(&cube).unwrap(), "[[[0,1]],[[2,3]]]");
    let empty = Tensor::<f32, Shape![2, 0]>::zeros();
    assert_eq!(to_string(&empty).unwrap(), "[[],[]]");
}

#[test]
fn round_trips_keep_every_element() {
    let x = Tensor::<f64, Shape![3, 2, 4]>::from_fn(|[i, j, k]: [usize; 3]| {
        (i as f64 - 1.0) * 0.1 + j as f64 * 1e-7 + k as f64 * 1e5
    });
    let back: Tensor<f64, Shape![3, 2, 4]> = from_str(&to_string(&x).unwrap()).unwrap();
    assert_eq!(back, x);
    let heap: HeapTensor<f64, Shape![3, 2, 4]> = from_str(&to_string(&x).unwrap()).unwrap();
    assert_eq!(heap.as_slice(), x.as_slice());
    let flags = tensor![[true, false], [false, true]];
    let back: Tensor<bool, Shape![2, 2]> = from_str(&to_string(&flags).unwrap()).unwrap();
    assert_eq!(back, flags);
    let empty: Tensor<f32, Shape![2, 0]> = from_str("[[], []]").unwrap();
    assert_eq!(empty.shape(), &[2, 0]);
}

fn error<T>(text: &str) -> String
where
    T: for<'de> Deserialize<'de>,
{
    match from_str::<T>(text) {
        Ok(_) => panic!("{text} was accepted"),
        // serde_json appends the position; the message is what is tested.
        Err(error) => error
            .to_string()
            .split(" at line")
            .next()
            .unwrap()
            .to_string(),
    }
}

#[test]
fn wrong_lengths_and_nesting_are_clear_errors() {
    type M = Tensor<i32, Shape![2, 3]>;
    let cases = [
        (
            "[[1, 2, 3], [4, 5]]",
            "invalid length 2, expected 3 elements along axis 1 of shape [2, 3]",
        ),
        (
            "[[1, 2, 3], [4, 5, 6, 7]]",
            "invalid length 4, expected 3 elements along axis 1 of shape [2, 3]",
        ),
        (
            "[[1, 2, 3]]",
            "invalid length 1, expected 2 elements along axis 0 of shape [2, 3]",
        ),
        (
            "[[1, 2, 3], [4, 5, 6], [7, 8, 9]]",
            "invalid length 3, expected 2 elements along axis 0 of shape [2, 3]",
        ),
        (
            "[1, 2, 3, 4, 5, 6]",
            "invalid type: integer `1`, expected 3 elements along axis 1 of shape [2, 3]",
        ),
        (
            "[[1, 2, 3], [4, 5, \"six\"]]",
            "invalid type: string \"six\", expected i32",
        ),
    ];
    for (text, message) in cases {
        assert_eq!(error::<M>(text), message, "for {text}");
    }
    assert_eq!(
        error::<Tensor<f32, Shape![2, 0]>>("[[], [1]]"),
        "invalid length 1, expected 0 elements along axis 1 of shape [2, 0]"
    );
}
