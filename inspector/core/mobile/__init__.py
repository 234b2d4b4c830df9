"""The mobile room: TFLite compatibility of every node, the TF<->TFLite mapping, conversion
variants measured and compared with TensorFlow, and ops_to_register.h for selective builds."""
