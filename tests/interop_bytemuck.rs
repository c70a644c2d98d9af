//! The `bytemuck` feature: tensors as bytes, byte buffers as tensor views
//! (checked for length and alignment), and `Pod` tensors.

use tensor_expr::error::ConversionError;
use tensor_expr::prelude::*;

#[test]
fn bytes_are_the_elements_in_row_major_order() {
    let x = tensor![[1.0f32, -2.0], [0.5, 3.0]];
    let expected: Vec<u8> = x.iter().flat_map(|v| v.to_ne_bytes()).collect();
    assert_eq!(x.as_bytes(), expected);
    assert_eq!(x.view().as_bytes(), expected);
    assert_eq!(x.to_heap().as_bytes(), expected);
    assert_eq!(
        Tensor::<f32, Shape![2, 2]>::try_from_bytes(&expected),
        Ok(x)
    );
    // Unaligned bytes copy fine.
    let mut shifted = vec![0u8];
    shifted.extend_from_slice(&expected);
    assert_eq!(
        Tensor::<f32, Shape![2, 2]>::try_from_bytes(&shifted[1..]),
        Ok(x)
    );
}

#[test]
fn an_aligned_buffer_is_viewed_in_place_and_written_by_expressions() {
    let mut words = vec![0u32; 6];
    let bytes: &mut [u8] = bytemuck::cast_slice_mut(&mut words);
    let mut out = TensorViewMut::<u32, Shape![2, 3]>::try_from_bytes_mut(bytes).unwrap();
    let x = tensor![[1u32, 2, 3], [4, 5, 6]];
    tensor_expr!(out = x * 3 + 1);
    assert_eq!(words, [4, 7, 10, 13, 16, 19]);
    let view =
        TensorView::<u32, Shape![3, 2]>::try_from_bytes(bytemuck::cast_slice(&words)).unwrap();
    assert_eq!(view[[2, 1]], 19);
    let mut t = x;
    t.as_bytes_mut()[..4].copy_from_slice(&9u32.to_ne_bytes());
    assert_eq!(t[[0, 0]], 9);
}

#[test]
fn wrong_lengths_and_misaligned_buffers_are_errors() {
    let words = [0u64; 4];
    let bytes: &[u8] = bytemuck::cast_slice(&words);
    let error = TensorView::<u64, Shape![5]>::try_from_bytes(bytes).unwrap_err();
    assert_eq!(error.to_string(), "shape [5] needs 40 bytes, got 32 bytes");
    let error = Tensor::<u64, Shape![3]>::try_from_bytes(bytes).unwrap_err();
    assert_eq!(
        error,
        ConversionError::ByteLength {
            shape: &[3],
            expected: 24,
            actual: 32
        }
    );
    let error = TensorView::<u64, Shape![3]>::try_from_bytes(&bytes[3..27]).unwrap_err();
    assert_eq!(
        error,
        ConversionError::Misaligned {
            align: 8,
            offset: 3
        }
    );
    assert_eq!(
        error.to_string(),
        "the bytes start 3 bytes past a multiple of the element's alignment 8; \
         view an aligned buffer or copy the bytes"
    );
}

#[test]
fn tensors_are_pod() {
    let a = tensor![[1i16, 2], [3, 4]];
    let b = tensor![[5i16, 6], [7, 8]];
    let batch = [a, b];
    let bytes: &[u8] = bytemuck::cast_slice(&batch);
    assert_eq!(bytes.len(), 16);
    let back: &[Tensor<i16, Shape![2, 2]>] = bytemuck::cast_slice(bytes);
    assert_eq!(back, &batch);
    let zero: Tensor<f64, Shape![3]> = bytemuck::Zeroable::zeroed();
    assert_eq!(zero, Tensor::zeros());
}
