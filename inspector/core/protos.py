"""TensorFlow protobuf classes from tensorboard's copies, so no TensorFlow import is needed.

tensorboard ships every proto we need except SavedModel, which is two fields around
MetaGraphDef; it is declared here against tensorboard's meta_graph.proto.
"""

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from tensorboard.compat.proto import (  # noqa: F401
    attr_value_pb2,
    function_pb2,
    graph_pb2,
    meta_graph_pb2,
    node_def_pb2,
    saver_pb2,
    step_stats_pb2,
    tensor_pb2,
    tensor_shape_pb2,
    types_pb2,
    versions_pb2,
)


def _saved_model_class():
    meta_file = meta_graph_pb2.DESCRIPTOR
    fdp = descriptor_pb2.FileDescriptorProto(
        name="inspector/saved_model.proto",
        package=meta_file.package,
        syntax="proto3",
        dependency=[meta_file.name],
    )
    msg = fdp.message_type.add(name="SavedModel")
    F = descriptor_pb2.FieldDescriptorProto
    msg.field.add(name="saved_model_schema_version", number=1,
                  type=F.TYPE_INT64, label=F.LABEL_OPTIONAL)
    msg.field.add(name="meta_graphs", number=2, type=F.TYPE_MESSAGE, label=F.LABEL_REPEATED,
                  type_name=f".{meta_file.package}.MetaGraphDef")
    pool = descriptor_pool.Default()
    try:
        file_desc = pool.FindFileByName(fdp.name)
    except KeyError:
        pool.Add(fdp)
        file_desc = pool.FindFileByName(fdp.name)
    return message_factory.GetMessageClass(file_desc.message_types_by_name["SavedModel"])


SavedModel = _saved_model_class()
GraphDef = graph_pb2.GraphDef
MetaGraphDef = meta_graph_pb2.MetaGraphDef
NodeDef = node_def_pb2.NodeDef
