//! Random programs (written by `tests/vectors/random_programs.py`):
//! each planned program gives the bytes of its statements written
//! separately, so no tensor's bytes were taken while it was alive.

#![allow(unused_variables)] // a program may not read every input

use tensor_expr::prelude::*;

#[tensor_expr::program]
fn planned0(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(tanh(y * z));
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(relu(t0 - t0 * 0.75));
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(tanh(y * t0));
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(relu(t1 - t2 * 0.75));
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(max(y, t2) - 0.25);
    sums.push(t4.as_slice().iter().sum::<f32>());
    sums
}

fn separate0(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(tanh(y * z));
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(relu(t0 - t0 * 0.75));
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(tanh(y * t0));
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(relu(t1 - t2 * 0.75));
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(max(y, t2) - 0.25);
    sums.push(t4.as_slice().iter().sum::<f32>());
    sums
}

#[tensor_expr::program]
fn planned1(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(relu(y - z * 0.75));
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(sum(x, [0]) * 0.125);
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(tanh(z * t0));
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(t1 * 0.5 + y);
    sums.push(t3.as_slice().iter().sum::<f32>());
    sums
}

fn separate1(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(relu(y - z * 0.75));
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(sum(x, [0]) * 0.125);
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(tanh(z * t0));
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(t1 * 0.5 + y);
    sums.push(t3.as_slice().iter().sum::<f32>());
    sums
}

#[tensor_expr::program]
fn planned2(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(relu(y - y * 0.75));
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(x - 0.5);
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(tanh(x * z));
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(x - 0.5);
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(x - 0.5);
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(max(z, t3) - 0.25);
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(relu(x - t0 * 0.75));
    sums.push(t6.as_slice().iter().sum::<f32>());
    let t7 = tensor_expr!(max(t3, t6) - 0.25);
    sums.push(t7.as_slice().iter().sum::<f32>());
    let t8 = tensor_expr!(max(t4, t0) - 0.25);
    sums.push(t8.as_slice().iter().sum::<f32>());
    sums
}

fn separate2(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(relu(y - y * 0.75));
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(x - 0.5);
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(tanh(x * z));
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(x - 0.5);
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(x - 0.5);
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(max(z, t3) - 0.25);
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(relu(x - t0 * 0.75));
    sums.push(t6.as_slice().iter().sum::<f32>());
    let t7 = tensor_expr!(max(t3, t6) - 0.25);
    sums.push(t7.as_slice().iter().sum::<f32>());
    let t8 = tensor_expr!(max(t4, t0) - 0.25);
    sums.push(t8.as_slice().iter().sum::<f32>());
    sums
}

#[tensor_expr::program]
fn planned3(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(z - 0.5);
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(tanh(t0 * y));
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(relu(t0 - t0 * 0.75));
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(sum(t0, [0]) * 0.125);
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(relu(x - t3 * 0.75));
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(max(t4, t1) - 0.25);
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(tanh(t2 * t4));
    sums.push(t6.as_slice().iter().sum::<f32>());
    let t7 = tensor_expr!(y - 0.5);
    sums.push(t7.as_slice().iter().sum::<f32>());
    let t8 = tensor_expr!(max(t5, t4) - 0.25);
    sums.push(t8.as_slice().iter().sum::<f32>());
    sums
}

fn separate3(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(z - 0.5);
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(tanh(t0 * y));
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(relu(t0 - t0 * 0.75));
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(sum(t0, [0]) * 0.125);
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(relu(x - t3 * 0.75));
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(max(t4, t1) - 0.25);
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(tanh(t2 * t4));
    sums.push(t6.as_slice().iter().sum::<f32>());
    let t7 = tensor_expr!(y - 0.5);
    sums.push(t7.as_slice().iter().sum::<f32>());
    let t8 = tensor_expr!(max(t5, t4) - 0.25);
    sums.push(t8.as_slice().iter().sum::<f32>());
    sums
}

#[tensor_expr::program]
fn planned4(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(relu(y - x * 0.75));
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(tanh(z * z));
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(z * 0.5 + x);
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(relu(t1 - z * 0.75));
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(relu(t0 - t0 * 0.75));
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(tanh(z * t3));
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(relu(t2 - t4 * 0.75));
    sums.push(t6.as_slice().iter().sum::<f32>());
    let t7 = tensor_expr!(max(t6, y) - 0.25);
    sums.push(t7.as_slice().iter().sum::<f32>());
    sums
}

fn separate4(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(relu(y - x * 0.75));
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(tanh(z * z));
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(z * 0.5 + x);
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(relu(t1 - z * 0.75));
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(relu(t0 - t0 * 0.75));
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(tanh(z * t3));
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(relu(t2 - t4 * 0.75));
    sums.push(t6.as_slice().iter().sum::<f32>());
    let t7 = tensor_expr!(max(t6, y) - 0.25);
    sums.push(t7.as_slice().iter().sum::<f32>());
    sums
}

#[tensor_expr::program]
fn planned5(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(relu(z - y * 0.75));
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(relu(z - y * 0.75));
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(z - 0.5);
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(y - 0.5);
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(tanh(t2 * t3));
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(relu(t1 - y * 0.75));
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(y - 0.5);
    sums.push(t6.as_slice().iter().sum::<f32>());
    let t7 = tensor_expr!(max(y, z) - 0.25);
    sums.push(t7.as_slice().iter().sum::<f32>());
    sums
}

fn separate5(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(relu(z - y * 0.75));
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(relu(z - y * 0.75));
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(z - 0.5);
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(y - 0.5);
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(tanh(t2 * t3));
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(relu(t1 - y * 0.75));
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(y - 0.5);
    sums.push(t6.as_slice().iter().sum::<f32>());
    let t7 = tensor_expr!(max(y, z) - 0.25);
    sums.push(t7.as_slice().iter().sum::<f32>());
    sums
}

#[tensor_expr::program]
fn planned6(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(tanh(x * z));
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(max(y, y) - 0.25);
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(tanh(z * z));
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(relu(y - y * 0.75));
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(z * 0.5 + t1);
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(x * 0.5 + x);
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(relu(z - t1 * 0.75));
    sums.push(t6.as_slice().iter().sum::<f32>());
    let t7 = tensor_expr!(relu(t4 - t2 * 0.75));
    sums.push(t7.as_slice().iter().sum::<f32>());
    let t8 = tensor_expr!(max(t2, y) - 0.25);
    sums.push(t8.as_slice().iter().sum::<f32>());
    sums
}

fn separate6(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(tanh(x * z));
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(max(y, y) - 0.25);
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(tanh(z * z));
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(relu(y - y * 0.75));
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(z * 0.5 + t1);
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(x * 0.5 + x);
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(relu(z - t1 * 0.75));
    sums.push(t6.as_slice().iter().sum::<f32>());
    let t7 = tensor_expr!(relu(t4 - t2 * 0.75));
    sums.push(t7.as_slice().iter().sum::<f32>());
    let t8 = tensor_expr!(max(t2, y) - 0.25);
    sums.push(t8.as_slice().iter().sum::<f32>());
    sums
}

#[tensor_expr::program]
fn planned7(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(relu(z - y * 0.75));
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(y * 0.5 + y);
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(sum(t0, [0]) * 0.125);
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(x - 0.5);
    sums.push(t3.as_slice().iter().sum::<f32>());
    sums
}

fn separate7(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(relu(z - y * 0.75));
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(y * 0.5 + y);
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(sum(t0, [0]) * 0.125);
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(x - 0.5);
    sums.push(t3.as_slice().iter().sum::<f32>());
    sums
}

#[tensor_expr::program]
fn planned8(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(x - 0.5);
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(sum(z, [0]) * 0.125);
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(y * 0.5 + t0);
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(relu(t0 - y * 0.75));
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(t1 * 0.5 + t0);
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(y - 0.5);
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(tanh(t0 * t3));
    sums.push(t6.as_slice().iter().sum::<f32>());
    let t7 = tensor_expr!(max(x, y) - 0.25);
    sums.push(t7.as_slice().iter().sum::<f32>());
    sums
}

fn separate8(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(x - 0.5);
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(sum(z, [0]) * 0.125);
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(y * 0.5 + t0);
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(relu(t0 - y * 0.75));
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(t1 * 0.5 + t0);
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(y - 0.5);
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(tanh(t0 * t3));
    sums.push(t6.as_slice().iter().sum::<f32>());
    let t7 = tensor_expr!(max(x, y) - 0.25);
    sums.push(t7.as_slice().iter().sum::<f32>());
    sums
}

#[tensor_expr::program]
fn planned9(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(relu(y - x * 0.75));
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(tanh(z * x));
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(y - 0.5);
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(relu(t2 - y * 0.75));
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(tanh(x * t1));
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(t2 * 0.5 + t4);
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(t3 - 0.5);
    sums.push(t6.as_slice().iter().sum::<f32>());
    let t7 = tensor_expr!(relu(z - t2 * 0.75));
    sums.push(t7.as_slice().iter().sum::<f32>());
    let t8 = tensor_expr!(t2 - 0.5);
    sums.push(t8.as_slice().iter().sum::<f32>());
    let t9 = tensor_expr!(relu(t8 - t5 * 0.75));
    sums.push(t9.as_slice().iter().sum::<f32>());
    sums
}

fn separate9(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(relu(y - x * 0.75));
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(tanh(z * x));
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(y - 0.5);
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(relu(t2 - y * 0.75));
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(tanh(x * t1));
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(t2 * 0.5 + t4);
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(t3 - 0.5);
    sums.push(t6.as_slice().iter().sum::<f32>());
    let t7 = tensor_expr!(relu(z - t2 * 0.75));
    sums.push(t7.as_slice().iter().sum::<f32>());
    let t8 = tensor_expr!(t2 - 0.5);
    sums.push(t8.as_slice().iter().sum::<f32>());
    let t9 = tensor_expr!(relu(t8 - t5 * 0.75));
    sums.push(t9.as_slice().iter().sum::<f32>());
    sums
}

#[tensor_expr::program]
fn planned10(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(tanh(x * z));
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(x * 0.5 + t0);
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(tanh(t0 * t0));
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(tanh(y * y));
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(t1 * 0.5 + t0);
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(tanh(t3 * t1));
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(tanh(y * t1));
    sums.push(t6.as_slice().iter().sum::<f32>());
    sums
}

fn separate10(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(tanh(x * z));
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(x * 0.5 + t0);
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(tanh(t0 * t0));
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(tanh(y * y));
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(t1 * 0.5 + t0);
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(tanh(t3 * t1));
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(tanh(y * t1));
    sums.push(t6.as_slice().iter().sum::<f32>());
    sums
}

#[tensor_expr::program]
fn planned11(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(tanh(y * y));
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(tanh(t0 * z));
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(sum(z, [0]) * 0.125);
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(max(y, t0) - 0.25);
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(sum(z, [0]) * 0.125);
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(relu(z - y * 0.75));
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(y - 0.5);
    sums.push(t6.as_slice().iter().sum::<f32>());
    let t7 = tensor_expr!(y - 0.5);
    sums.push(t7.as_slice().iter().sum::<f32>());
    sums
}

fn separate11(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(tanh(y * y));
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(tanh(t0 * z));
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(sum(z, [0]) * 0.125);
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(max(y, t0) - 0.25);
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(sum(z, [0]) * 0.125);
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(relu(z - y * 0.75));
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(y - 0.5);
    sums.push(t6.as_slice().iter().sum::<f32>());
    let t7 = tensor_expr!(y - 0.5);
    sums.push(t7.as_slice().iter().sum::<f32>());
    sums
}

#[tensor_expr::program]
fn planned12(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(max(z, z) - 0.25);
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(x * 0.5 + x);
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(sum(t1, [0]) * 0.125);
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(x - 0.5);
    sums.push(t3.as_slice().iter().sum::<f32>());
    sums
}

fn separate12(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(max(z, z) - 0.25);
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(x * 0.5 + x);
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(sum(t1, [0]) * 0.125);
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(x - 0.5);
    sums.push(t3.as_slice().iter().sum::<f32>());
    sums
}

#[tensor_expr::program]
fn planned13(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(relu(z - x * 0.75));
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(tanh(z * x));
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(max(t1, y) - 0.25);
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(relu(z - x * 0.75));
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(x - 0.5);
    sums.push(t4.as_slice().iter().sum::<f32>());
    sums
}

fn separate13(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(relu(z - x * 0.75));
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(tanh(z * x));
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(max(t1, y) - 0.25);
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(relu(z - x * 0.75));
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(x - 0.5);
    sums.push(t4.as_slice().iter().sum::<f32>());
    sums
}

#[tensor_expr::program]
fn planned14(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(max(z, x) - 0.25);
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(y - 0.5);
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(relu(x - t0 * 0.75));
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(relu(t2 - y * 0.75));
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(t0 * 0.5 + t1);
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(max(t1, z) - 0.25);
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(max(t4, t0) - 0.25);
    sums.push(t6.as_slice().iter().sum::<f32>());
    let t7 = tensor_expr!(tanh(y * t0));
    sums.push(t7.as_slice().iter().sum::<f32>());
    sums
}

fn separate14(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(max(z, x) - 0.25);
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(y - 0.5);
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(relu(x - t0 * 0.75));
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(relu(t2 - y * 0.75));
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(t0 * 0.5 + t1);
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(max(t1, z) - 0.25);
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(max(t4, t0) - 0.25);
    sums.push(t6.as_slice().iter().sum::<f32>());
    let t7 = tensor_expr!(tanh(y * t0));
    sums.push(t7.as_slice().iter().sum::<f32>());
    sums
}

#[tensor_expr::program]
fn planned15(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(sum(z, [0]) * 0.125);
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(tanh(t0 * x));
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(sum(t0, [0]) * 0.125);
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(tanh(y * t0));
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(max(t0, y) - 0.25);
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(relu(z - t4 * 0.75));
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(tanh(t3 * t5));
    sums.push(t6.as_slice().iter().sum::<f32>());
    let t7 = tensor_expr!(tanh(t1 * t5));
    sums.push(t7.as_slice().iter().sum::<f32>());
    sums
}

fn separate15(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(sum(z, [0]) * 0.125);
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(tanh(t0 * x));
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(sum(t0, [0]) * 0.125);
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(tanh(y * t0));
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(max(t0, y) - 0.25);
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(relu(z - t4 * 0.75));
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(tanh(t3 * t5));
    sums.push(t6.as_slice().iter().sum::<f32>());
    let t7 = tensor_expr!(tanh(t1 * t5));
    sums.push(t7.as_slice().iter().sum::<f32>());
    sums
}

#[tensor_expr::program]
fn planned16(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(z * 0.5 + y);
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(sum(x, [0]) * 0.125);
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(max(t0, x) - 0.25);
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(tanh(t1 * t0));
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(tanh(z * t3));
    sums.push(t4.as_slice().iter().sum::<f32>());
    sums
}

fn separate16(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(z * 0.5 + y);
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(sum(x, [0]) * 0.125);
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(max(t0, x) - 0.25);
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(tanh(t1 * t0));
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(tanh(z * t3));
    sums.push(t4.as_slice().iter().sum::<f32>());
    sums
}

#[tensor_expr::program]
fn planned17(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(max(z, y) - 0.25);
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(t0 - 0.5);
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(relu(x - t0 * 0.75));
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(x * 0.5 + y);
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(relu(y - t1 * 0.75));
    sums.push(t4.as_slice().iter().sum::<f32>());
    sums
}

fn separate17(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(max(z, y) - 0.25);
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(t0 - 0.5);
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(relu(x - t0 * 0.75));
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(x * 0.5 + y);
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(relu(y - t1 * 0.75));
    sums.push(t4.as_slice().iter().sum::<f32>());
    sums
}

#[tensor_expr::program]
fn planned18(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(tanh(x * x));
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(tanh(x * t0));
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(max(x, x) - 0.25);
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(x * 0.5 + t0);
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(t2 * 0.5 + t3);
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(t2 - 0.5);
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(x * 0.5 + x);
    sums.push(t6.as_slice().iter().sum::<f32>());
    sums
}

fn separate18(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(tanh(x * x));
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(tanh(x * t0));
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(max(x, x) - 0.25);
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(x * 0.5 + t0);
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(t2 * 0.5 + t3);
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(t2 - 0.5);
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(x * 0.5 + x);
    sums.push(t6.as_slice().iter().sum::<f32>());
    sums
}

#[tensor_expr::program]
fn planned19(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(max(y, z) - 0.25);
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(y - 0.5);
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(tanh(z * t0));
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(t1 - 0.5);
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(tanh(z * x));
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(t0 - 0.5);
    sums.push(t5.as_slice().iter().sum::<f32>());
    sums
}

fn separate19(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(max(y, z) - 0.25);
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(y - 0.5);
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(tanh(z * t0));
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(t1 - 0.5);
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(tanh(z * x));
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(t0 - 0.5);
    sums.push(t5.as_slice().iter().sum::<f32>());
    sums
}

#[tensor_expr::program]
fn planned20(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(sum(z, [0]) * 0.125);
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(tanh(y * y));
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(x - 0.5);
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(max(t1, y) - 0.25);
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(tanh(t1 * t0));
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(t1 - 0.5);
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(x * 0.5 + t4);
    sums.push(t6.as_slice().iter().sum::<f32>());
    let t7 = tensor_expr!(t3 - 0.5);
    sums.push(t7.as_slice().iter().sum::<f32>());
    sums
}

fn separate20(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(sum(z, [0]) * 0.125);
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(tanh(y * y));
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(x - 0.5);
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(max(t1, y) - 0.25);
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(tanh(t1 * t0));
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(t1 - 0.5);
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(x * 0.5 + t4);
    sums.push(t6.as_slice().iter().sum::<f32>());
    let t7 = tensor_expr!(t3 - 0.5);
    sums.push(t7.as_slice().iter().sum::<f32>());
    sums
}

#[tensor_expr::program]
fn planned21(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(max(z, y) - 0.25);
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(y * 0.5 + t0);
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(sum(x, [0]) * 0.125);
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(t2 * 0.5 + z);
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(relu(t3 - t3 * 0.75));
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(sum(t1, [0]) * 0.125);
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(t5 * 0.5 + t5);
    sums.push(t6.as_slice().iter().sum::<f32>());
    let t7 = tensor_expr!(t2 - 0.5);
    sums.push(t7.as_slice().iter().sum::<f32>());
    let t8 = tensor_expr!(y - 0.5);
    sums.push(t8.as_slice().iter().sum::<f32>());
    let t9 = tensor_expr!(t6 - 0.5);
    sums.push(t9.as_slice().iter().sum::<f32>());
    sums
}

fn separate21(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(max(z, y) - 0.25);
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(y * 0.5 + t0);
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(sum(x, [0]) * 0.125);
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(t2 * 0.5 + z);
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(relu(t3 - t3 * 0.75));
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(sum(t1, [0]) * 0.125);
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(t5 * 0.5 + t5);
    sums.push(t6.as_slice().iter().sum::<f32>());
    let t7 = tensor_expr!(t2 - 0.5);
    sums.push(t7.as_slice().iter().sum::<f32>());
    let t8 = tensor_expr!(y - 0.5);
    sums.push(t8.as_slice().iter().sum::<f32>());
    let t9 = tensor_expr!(t6 - 0.5);
    sums.push(t9.as_slice().iter().sum::<f32>());
    sums
}

#[tensor_expr::program]
fn planned22(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(relu(y - y * 0.75));
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(sum(x, [0]) * 0.125);
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(relu(x - y * 0.75));
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(tanh(t0 * z));
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(t3 * 0.5 + x);
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(t2 * 0.5 + t1);
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(relu(z - t2 * 0.75));
    sums.push(t6.as_slice().iter().sum::<f32>());
    let t7 = tensor_expr!(tanh(t0 * t2));
    sums.push(t7.as_slice().iter().sum::<f32>());
    sums
}

fn separate22(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(relu(y - y * 0.75));
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(sum(x, [0]) * 0.125);
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(relu(x - y * 0.75));
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(tanh(t0 * z));
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(t3 * 0.5 + x);
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(t2 * 0.5 + t1);
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(relu(z - t2 * 0.75));
    sums.push(t6.as_slice().iter().sum::<f32>());
    let t7 = tensor_expr!(tanh(t0 * t2));
    sums.push(t7.as_slice().iter().sum::<f32>());
    sums
}

#[tensor_expr::program]
fn planned23(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(max(z, y) - 0.25);
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(y - 0.5);
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(tanh(y * z));
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(x - 0.5);
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(relu(t1 - t3 * 0.75));
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(sum(t0, [0]) * 0.125);
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(t2 - 0.5);
    sums.push(t6.as_slice().iter().sum::<f32>());
    let t7 = tensor_expr!(t1 - 0.5);
    sums.push(t7.as_slice().iter().sum::<f32>());
    let t8 = tensor_expr!(tanh(t4 * t2));
    sums.push(t8.as_slice().iter().sum::<f32>());
    sums
}

fn separate23(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(max(z, y) - 0.25);
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(y - 0.5);
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(tanh(y * z));
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(x - 0.5);
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(relu(t1 - t3 * 0.75));
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(sum(t0, [0]) * 0.125);
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(t2 - 0.5);
    sums.push(t6.as_slice().iter().sum::<f32>());
    let t7 = tensor_expr!(t1 - 0.5);
    sums.push(t7.as_slice().iter().sum::<f32>());
    let t8 = tensor_expr!(tanh(t4 * t2));
    sums.push(t8.as_slice().iter().sum::<f32>());
    sums
}

#[tensor_expr::program]
fn planned24(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(z * 0.5 + y);
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(t0 * 0.5 + x);
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(sum(x, [0]) * 0.125);
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(max(t1, z) - 0.25);
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(t3 - 0.5);
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(tanh(t1 * t2));
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(t3 - 0.5);
    sums.push(t6.as_slice().iter().sum::<f32>());
    sums
}

fn separate24(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(z * 0.5 + y);
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(t0 * 0.5 + x);
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(sum(x, [0]) * 0.125);
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(max(t1, z) - 0.25);
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(t3 - 0.5);
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(tanh(t1 * t2));
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(t3 - 0.5);
    sums.push(t6.as_slice().iter().sum::<f32>());
    sums
}

#[tensor_expr::program]
fn planned25(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(relu(x - y * 0.75));
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(relu(z - y * 0.75));
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(tanh(y * y));
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(relu(t0 - z * 0.75));
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(y * 0.5 + t3);
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(sum(t0, [0]) * 0.125);
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(tanh(t4 * t4));
    sums.push(t6.as_slice().iter().sum::<f32>());
    let t7 = tensor_expr!(tanh(z * t0));
    sums.push(t7.as_slice().iter().sum::<f32>());
    let t8 = tensor_expr!(relu(t0 - t0 * 0.75));
    sums.push(t8.as_slice().iter().sum::<f32>());
    let t9 = tensor_expr!(t6 - 0.5);
    sums.push(t9.as_slice().iter().sum::<f32>());
    sums
}

fn separate25(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(relu(x - y * 0.75));
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(relu(z - y * 0.75));
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(tanh(y * y));
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(relu(t0 - z * 0.75));
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(y * 0.5 + t3);
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(sum(t0, [0]) * 0.125);
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(tanh(t4 * t4));
    sums.push(t6.as_slice().iter().sum::<f32>());
    let t7 = tensor_expr!(tanh(z * t0));
    sums.push(t7.as_slice().iter().sum::<f32>());
    let t8 = tensor_expr!(relu(t0 - t0 * 0.75));
    sums.push(t8.as_slice().iter().sum::<f32>());
    let t9 = tensor_expr!(t6 - 0.5);
    sums.push(t9.as_slice().iter().sum::<f32>());
    sums
}

#[tensor_expr::program]
fn planned26(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(max(z, z) - 0.25);
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(tanh(t0 * y));
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(max(x, t1) - 0.25);
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(sum(t2, [0]) * 0.125);
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(z - 0.5);
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(t2 * 0.5 + x);
    sums.push(t5.as_slice().iter().sum::<f32>());
    sums
}

fn separate26(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(max(z, z) - 0.25);
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(tanh(t0 * y));
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(max(x, t1) - 0.25);
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(sum(t2, [0]) * 0.125);
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(z - 0.5);
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(t2 * 0.5 + x);
    sums.push(t5.as_slice().iter().sum::<f32>());
    sums
}

#[tensor_expr::program]
fn planned27(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(y - 0.5);
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(max(z, t0) - 0.25);
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(z - 0.5);
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(tanh(x * t1));
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(y - 0.5);
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(relu(t1 - x * 0.75));
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(tanh(y * x));
    sums.push(t6.as_slice().iter().sum::<f32>());
    let t7 = tensor_expr!(tanh(t1 * t2));
    sums.push(t7.as_slice().iter().sum::<f32>());
    let t8 = tensor_expr!(sum(t1, [0]) * 0.125);
    sums.push(t8.as_slice().iter().sum::<f32>());
    let t9 = tensor_expr!(sum(t7, [0]) * 0.125);
    sums.push(t9.as_slice().iter().sum::<f32>());
    sums
}

fn separate27(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(y - 0.5);
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(max(z, t0) - 0.25);
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(z - 0.5);
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(tanh(x * t1));
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(y - 0.5);
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(relu(t1 - x * 0.75));
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(tanh(y * x));
    sums.push(t6.as_slice().iter().sum::<f32>());
    let t7 = tensor_expr!(tanh(t1 * t2));
    sums.push(t7.as_slice().iter().sum::<f32>());
    let t8 = tensor_expr!(sum(t1, [0]) * 0.125);
    sums.push(t8.as_slice().iter().sum::<f32>());
    let t9 = tensor_expr!(sum(t7, [0]) * 0.125);
    sums.push(t9.as_slice().iter().sum::<f32>());
    sums
}

#[tensor_expr::program]
fn planned28(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(tanh(z * z));
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(relu(t0 - y * 0.75));
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(relu(t0 - t1 * 0.75));
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(relu(y - t1 * 0.75));
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(t3 * 0.5 + z);
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(relu(y - t0 * 0.75));
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(sum(t0, [0]) * 0.125);
    sums.push(t6.as_slice().iter().sum::<f32>());
    sums
}

fn separate28(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(tanh(z * z));
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(relu(t0 - y * 0.75));
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(relu(t0 - t1 * 0.75));
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(relu(y - t1 * 0.75));
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(t3 * 0.5 + z);
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(relu(y - t0 * 0.75));
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(sum(t0, [0]) * 0.125);
    sums.push(t6.as_slice().iter().sum::<f32>());
    sums
}

#[tensor_expr::program]
fn planned29(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(sum(z, [0]) * 0.125);
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(sum(t0, [0]) * 0.125);
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(tanh(z * t0));
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(t0 * 0.5 + t1);
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(x * 0.5 + t0);
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(tanh(y * y));
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(z * 0.5 + t2);
    sums.push(t6.as_slice().iter().sum::<f32>());
    let t7 = tensor_expr!(tanh(t0 * z));
    sums.push(t7.as_slice().iter().sum::<f32>());
    let t8 = tensor_expr!(max(t7, x) - 0.25);
    sums.push(t8.as_slice().iter().sum::<f32>());
    sums
}

fn separate29(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(sum(z, [0]) * 0.125);
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(sum(t0, [0]) * 0.125);
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(tanh(z * t0));
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(t0 * 0.5 + t1);
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(x * 0.5 + t0);
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(tanh(y * y));
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(z * 0.5 + t2);
    sums.push(t6.as_slice().iter().sum::<f32>());
    let t7 = tensor_expr!(tanh(t0 * z));
    sums.push(t7.as_slice().iter().sum::<f32>());
    let t8 = tensor_expr!(max(t7, x) - 0.25);
    sums.push(t8.as_slice().iter().sum::<f32>());
    sums
}

#[tensor_expr::program]
fn planned30(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(relu(y - z * 0.75));
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(sum(x, [0]) * 0.125);
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(max(t1, z) - 0.25);
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(t1 * 0.5 + t1);
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(max(z, t1) - 0.25);
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(max(t2, y) - 0.25);
    sums.push(t5.as_slice().iter().sum::<f32>());
    sums
}

fn separate30(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(relu(y - z * 0.75));
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(sum(x, [0]) * 0.125);
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(max(t1, z) - 0.25);
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(t1 * 0.5 + t1);
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(max(z, t1) - 0.25);
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(max(t2, y) - 0.25);
    sums.push(t5.as_slice().iter().sum::<f32>());
    sums
}

#[tensor_expr::program]
fn planned31(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(x - 0.5);
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(relu(x - x * 0.75));
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(tanh(t0 * y));
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(relu(t2 - y * 0.75));
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(sum(t2, [0]) * 0.125);
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(relu(y - t1 * 0.75));
    sums.push(t5.as_slice().iter().sum::<f32>());
    sums
}

fn separate31(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(x - 0.5);
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(relu(x - x * 0.75));
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(tanh(t0 * y));
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(relu(t2 - y * 0.75));
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(sum(t2, [0]) * 0.125);
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(relu(y - t1 * 0.75));
    sums.push(t5.as_slice().iter().sum::<f32>());
    sums
}

#[tensor_expr::program]
fn planned32(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(max(x, x) - 0.25);
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(t0 * 0.5 + t0);
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(t0 * 0.5 + x);
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(max(t2, t1) - 0.25);
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(max(z, t1) - 0.25);
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(tanh(t4 * x));
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(max(t2, t1) - 0.25);
    sums.push(t6.as_slice().iter().sum::<f32>());
    let t7 = tensor_expr!(relu(t3 - t0 * 0.75));
    sums.push(t7.as_slice().iter().sum::<f32>());
    let t8 = tensor_expr!(max(t3, t3) - 0.25);
    sums.push(t8.as_slice().iter().sum::<f32>());
    let t9 = tensor_expr!(t1 - 0.5);
    sums.push(t9.as_slice().iter().sum::<f32>());
    sums
}

fn separate32(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(max(x, x) - 0.25);
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(t0 * 0.5 + t0);
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(t0 * 0.5 + x);
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(max(t2, t1) - 0.25);
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(max(z, t1) - 0.25);
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(tanh(t4 * x));
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(max(t2, t1) - 0.25);
    sums.push(t6.as_slice().iter().sum::<f32>());
    let t7 = tensor_expr!(relu(t3 - t0 * 0.75));
    sums.push(t7.as_slice().iter().sum::<f32>());
    let t8 = tensor_expr!(max(t3, t3) - 0.25);
    sums.push(t8.as_slice().iter().sum::<f32>());
    let t9 = tensor_expr!(t1 - 0.5);
    sums.push(t9.as_slice().iter().sum::<f32>());
    sums
}

#[tensor_expr::program]
fn planned33(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(y * 0.5 + y);
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(tanh(z * y));
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(z * 0.5 + y);
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(relu(t0 - y * 0.75));
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(relu(z - x * 0.75));
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(sum(t2, [0]) * 0.125);
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(max(y, y) - 0.25);
    sums.push(t6.as_slice().iter().sum::<f32>());
    let t7 = tensor_expr!(relu(x - t5 * 0.75));
    sums.push(t7.as_slice().iter().sum::<f32>());
    let t8 = tensor_expr!(tanh(x * t5));
    sums.push(t8.as_slice().iter().sum::<f32>());
    sums
}

fn separate33(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(y * 0.5 + y);
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(tanh(z * y));
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(z * 0.5 + y);
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(relu(t0 - y * 0.75));
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(relu(z - x * 0.75));
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(sum(t2, [0]) * 0.125);
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(max(y, y) - 0.25);
    sums.push(t6.as_slice().iter().sum::<f32>());
    let t7 = tensor_expr!(relu(x - t5 * 0.75));
    sums.push(t7.as_slice().iter().sum::<f32>());
    let t8 = tensor_expr!(tanh(x * t5));
    sums.push(t8.as_slice().iter().sum::<f32>());
    sums
}

#[tensor_expr::program]
fn planned34(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(max(z, y) - 0.25);
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(tanh(z * t0));
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(max(x, y) - 0.25);
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(t2 - 0.5);
    sums.push(t3.as_slice().iter().sum::<f32>());
    sums
}

fn separate34(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(max(z, y) - 0.25);
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(tanh(z * t0));
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(max(x, y) - 0.25);
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(t2 - 0.5);
    sums.push(t3.as_slice().iter().sum::<f32>());
    sums
}

#[tensor_expr::program]
fn planned35(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(tanh(z * x));
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(max(y, y) - 0.25);
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(y * 0.5 + x);
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(t1 - 0.5);
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(tanh(x * z));
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(relu(t2 - t2 * 0.75));
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(t5 - 0.5);
    sums.push(t6.as_slice().iter().sum::<f32>());
    let t7 = tensor_expr!(sum(z, [0]) * 0.125);
    sums.push(t7.as_slice().iter().sum::<f32>());
    let t8 = tensor_expr!(sum(t2, [0]) * 0.125);
    sums.push(t8.as_slice().iter().sum::<f32>());
    let t9 = tensor_expr!(tanh(t0 * t0));
    sums.push(t9.as_slice().iter().sum::<f32>());
    sums
}

fn separate35(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(tanh(z * x));
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(max(y, y) - 0.25);
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(y * 0.5 + x);
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(t1 - 0.5);
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(tanh(x * z));
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(relu(t2 - t2 * 0.75));
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(t5 - 0.5);
    sums.push(t6.as_slice().iter().sum::<f32>());
    let t7 = tensor_expr!(sum(z, [0]) * 0.125);
    sums.push(t7.as_slice().iter().sum::<f32>());
    let t8 = tensor_expr!(sum(t2, [0]) * 0.125);
    sums.push(t8.as_slice().iter().sum::<f32>());
    let t9 = tensor_expr!(tanh(t0 * t0));
    sums.push(t9.as_slice().iter().sum::<f32>());
    sums
}

#[tensor_expr::program]
fn planned36(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(sum(z, [0]) * 0.125);
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(tanh(z * x));
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(tanh(t0 * z));
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(relu(y - x * 0.75));
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(t0 - 0.5);
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(t0 * 0.5 + t3);
    sums.push(t5.as_slice().iter().sum::<f32>());
    sums
}

fn separate36(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(sum(z, [0]) * 0.125);
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(tanh(z * x));
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(tanh(t0 * z));
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(relu(y - x * 0.75));
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(t0 - 0.5);
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(t0 * 0.5 + t3);
    sums.push(t5.as_slice().iter().sum::<f32>());
    sums
}

#[tensor_expr::program]
fn planned37(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(y - 0.5);
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(z * 0.5 + z);
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(tanh(t1 * z));
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(max(t0, t0) - 0.25);
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(relu(t2 - t1 * 0.75));
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(t3 - 0.5);
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(x - 0.5);
    sums.push(t6.as_slice().iter().sum::<f32>());
    sums
}

fn separate37(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(y - 0.5);
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(z * 0.5 + z);
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(tanh(t1 * z));
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(max(t0, t0) - 0.25);
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(relu(t2 - t1 * 0.75));
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(t3 - 0.5);
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(x - 0.5);
    sums.push(t6.as_slice().iter().sum::<f32>());
    sums
}

#[tensor_expr::program]
fn planned38(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(sum(x, [0]) * 0.125);
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(y - 0.5);
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(relu(t1 - t0 * 0.75));
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(x - 0.5);
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(t2 * 0.5 + y);
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(y * 0.5 + x);
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(relu(z - t3 * 0.75));
    sums.push(t6.as_slice().iter().sum::<f32>());
    let t7 = tensor_expr!(max(t2, t4) - 0.25);
    sums.push(t7.as_slice().iter().sum::<f32>());
    let t8 = tensor_expr!(relu(t2 - t6 * 0.75));
    sums.push(t8.as_slice().iter().sum::<f32>());
    let t9 = tensor_expr!(max(t4, t7) - 0.25);
    sums.push(t9.as_slice().iter().sum::<f32>());
    sums
}

fn separate38(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(sum(x, [0]) * 0.125);
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(y - 0.5);
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(relu(t1 - t0 * 0.75));
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(x - 0.5);
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(t2 * 0.5 + y);
    sums.push(t4.as_slice().iter().sum::<f32>());
    let t5 = tensor_expr!(y * 0.5 + x);
    sums.push(t5.as_slice().iter().sum::<f32>());
    let t6 = tensor_expr!(relu(z - t3 * 0.75));
    sums.push(t6.as_slice().iter().sum::<f32>());
    let t7 = tensor_expr!(max(t2, t4) - 0.25);
    sums.push(t7.as_slice().iter().sum::<f32>());
    let t8 = tensor_expr!(relu(t2 - t6 * 0.75));
    sums.push(t8.as_slice().iter().sum::<f32>());
    let t9 = tensor_expr!(max(t4, t7) - 0.25);
    sums.push(t9.as_slice().iter().sum::<f32>());
    sums
}

#[tensor_expr::program]
fn planned39(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(sum(z, [0]) * 0.125);
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(z - 0.5);
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(tanh(t1 * t1));
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(sum(x, [0]) * 0.125);
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(tanh(t0 * z));
    sums.push(t4.as_slice().iter().sum::<f32>());
    sums
}

fn separate39(
    x: &Tensor<f32, Shape![4, 16]>,
    y: &Tensor<f32, Shape![16]>,
    z: &Tensor<f32, Shape![3, 4, 16]>,
) -> Vec<f32> {
    let mut sums = Vec::new();
    let t0 = tensor_expr!(sum(z, [0]) * 0.125);
    sums.push(t0.as_slice().iter().sum::<f32>());
    let t1 = tensor_expr!(z - 0.5);
    sums.push(t1.as_slice().iter().sum::<f32>());
    let t2 = tensor_expr!(tanh(t1 * t1));
    sums.push(t2.as_slice().iter().sum::<f32>());
    let t3 = tensor_expr!(sum(x, [0]) * 0.125);
    sums.push(t3.as_slice().iter().sum::<f32>());
    let t4 = tensor_expr!(tanh(t0 * z));
    sums.push(t4.as_slice().iter().sum::<f32>());
    sums
}

#[test]
fn random_programs_compute_what_their_statements_compute() {
    let x =
        Tensor::<f32, Shape![4, 16]>::from_fn(|[i, j]| (i as f32 - 1.5) * 0.3 + j as f32 * 0.01);
    let y = Tensor::<f32, Shape![16]>::from_fn(|[j]| 0.5 - j as f32 * 0.07);
    let z = Tensor::<f32, Shape![3, 4, 16]>::from_fn(|[a, i, j]| {
        ((a * 64 + i * 16 + j) % 7) as f32 * 0.2 - 0.6
    });
    assert_eq!(planned0(&x, &y, &z), separate0(&x, &y, &z), "program 0");
    assert_eq!(planned1(&x, &y, &z), separate1(&x, &y, &z), "program 1");
    assert_eq!(planned2(&x, &y, &z), separate2(&x, &y, &z), "program 2");
    assert_eq!(planned3(&x, &y, &z), separate3(&x, &y, &z), "program 3");
    assert_eq!(planned4(&x, &y, &z), separate4(&x, &y, &z), "program 4");
    assert_eq!(planned5(&x, &y, &z), separate5(&x, &y, &z), "program 5");
    assert_eq!(planned6(&x, &y, &z), separate6(&x, &y, &z), "program 6");
    assert_eq!(planned7(&x, &y, &z), separate7(&x, &y, &z), "program 7");
    assert_eq!(planned8(&x, &y, &z), separate8(&x, &y, &z), "program 8");
    assert_eq!(planned9(&x, &y, &z), separate9(&x, &y, &z), "program 9");
    assert_eq!(planned10(&x, &y, &z), separate10(&x, &y, &z), "program 10");
    assert_eq!(planned11(&x, &y, &z), separate11(&x, &y, &z), "program 11");
    assert_eq!(planned12(&x, &y, &z), separate12(&x, &y, &z), "program 12");
    assert_eq!(planned13(&x, &y, &z), separate13(&x, &y, &z), "program 13");
    assert_eq!(planned14(&x, &y, &z), separate14(&x, &y, &z), "program 14");
    assert_eq!(planned15(&x, &y, &z), separate15(&x, &y, &z), "program 15");
    assert_eq!(planned16(&x, &y, &z), separate16(&x, &y, &z), "program 16");
    assert_eq!(planned17(&x, &y, &z), separate17(&x, &y, &z), "program 17");
    assert_eq!(planned18(&x, &y, &z), separate18(&x, &y, &z), "program 18");
    assert_eq!(planned19(&x, &y, &z), separate19(&x, &y, &z), "program 19");
    assert_eq!(planned20(&x, &y, &z), separate20(&x, &y, &z), "program 20");
    assert_eq!(planned21(&x, &y, &z), separate21(&x, &y, &z), "program 21");
    assert_eq!(planned22(&x, &y, &z), separate22(&x, &y, &z), "program 22");
    assert_eq!(planned23(&x, &y, &z), separate23(&x, &y, &z), "program 23");
    assert_eq!(planned24(&x, &y, &z), separate24(&x, &y, &z), "program 24");
    assert_eq!(planned25(&x, &y, &z), separate25(&x, &y, &z), "program 25");
    assert_eq!(planned26(&x, &y, &z), separate26(&x, &y, &z), "program 26");
    assert_eq!(planned27(&x, &y, &z), separate27(&x, &y, &z), "program 27");
    assert_eq!(planned28(&x, &y, &z), separate28(&x, &y, &z), "program 28");
    assert_eq!(planned29(&x, &y, &z), separate29(&x, &y, &z), "program 29");
    assert_eq!(planned30(&x, &y, &z), separate30(&x, &y, &z), "program 30");
    assert_eq!(planned31(&x, &y, &z), separate31(&x, &y, &z), "program 31");
    assert_eq!(planned32(&x, &y, &z), separate32(&x, &y, &z), "program 32");
    assert_eq!(planned33(&x, &y, &z), separate33(&x, &y, &z), "program 33");
    assert_eq!(planned34(&x, &y, &z), separate34(&x, &y, &z), "program 34");
    assert_eq!(planned35(&x, &y, &z), separate35(&x, &y, &z), "program 35");
    assert_eq!(planned36(&x, &y, &z), separate36(&x, &y, &z), "program 36");
    assert_eq!(planned37(&x, &y, &z), separate37(&x, &y, &z), "program 37");
    assert_eq!(planned38(&x, &y, &z), separate38(&x, &y, &z), "program 38");
    assert_eq!(planned39(&x, &y, &z), separate39(&x, &y, &z), "program 39");
}
