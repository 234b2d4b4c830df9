"""sort_by_execution_order: topological order, as TF's SortByExecutionOrder."""

from inspector.core.transforms.base import transform
from inspector.core.transforms.graph_utils import sort_by_execution_order as _sort


@transform("sort_by_execution_order", "clean up",
           "Orders the nodes so that every node comes after its inputs.")
def sort_by_execution_order(graph_def, ctx):
    return _sort(graph_def)
