"""Writes the small models of tests/errors.rs, each converted by the TFLite
converter: models the importer must refuse with a clear error; and one it
imports, run against TFLite Micro in tflite/models.

    python3 tflite/tests/models/make_models.py

- concatenation.tflite: int8 CONCATENATION of two halves (unsupported).
- float.tflite: a float32 dense layer (not int8).
- ../../models/tflite/padded_pools.tflite: int8 AVERAGE_POOL_2D and
  MAX_POOL_2D, 3x3 SAME at stride 1 and 2x3 SAME at stride 2, whose edge
  windows count only the taps inside the input.
- ../../models/tflite/activations.tflite: int8 dense layers through TANH
  and LOGISTIC (the converter writes each as an operator of its own).
- ../../models/tflite/float_edges.tflite: an int8 dense layer whose model
  keeps float input and output (the converter's default), so QUANTIZE and
  DEQUANTIZE at its ends.
"""
import os

import numpy as np
import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(55)
tf.keras.utils.set_random_seed(55)


def int8(model, shape, float_edges=False):
    converter = tf.lite.TFLiteConverter.from_keras_model(model)
    converter.optimizations = [tf.lite.Optimize.DEFAULT]
    converter.representative_dataset = lambda: (
        [rng.normal(size=(1,) + shape).astype(np.float32)] for _ in range(32)
    )
    converter.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
    if not float_edges:
        converter.inference_input_type = tf.int8
        converter.inference_output_type = tf.int8
    return converter.convert()


def save(name, content):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(content)


x = tf.keras.Input((8,), batch_size=1)
y = tf.keras.layers.Concatenate()([tf.keras.layers.Dense(4)(x), tf.keras.layers.Dense(4)(x)])
save("concatenation.tflite", int8(tf.keras.Model(x, y), (8,)))

x = tf.keras.Input((8,), batch_size=1)
save("float.tflite", tf.lite.TFLiteConverter.from_keras_model(
    tf.keras.Model(x, tf.keras.layers.Dense(4)(x))).convert())

x = tf.keras.Input((5, 7, 3), batch_size=1)
y = tf.keras.layers.AveragePooling2D(3, strides=1, padding="same")(x)
y = tf.keras.layers.MaxPooling2D((2, 3), strides=2, padding="same")(y)
y = tf.keras.layers.AveragePooling2D((2, 3), strides=2, padding="same")(y)
save(os.path.join("..", "..", "models", "tflite", "padded_pools.tflite"), int8(tf.keras.Model(x, y), (5, 7, 3)))

x = tf.keras.Input((16,), batch_size=1)
y = tf.keras.layers.Dense(12, activation="tanh")(x)
y = tf.keras.layers.Dense(6, activation="sigmoid")(y)
save(os.path.join("..", "..", "models", "tflite", "activations.tflite"), int8(tf.keras.Model(x, y), (16,)))

x = tf.keras.Input((16,), batch_size=1)
y = tf.keras.layers.Dense(6, activation="relu")(x)
save(os.path.join("..", "..", "models", "tflite", "float_edges.tflite"),
     int8(tf.keras.Model(x, y), (16,), float_edges=True))
