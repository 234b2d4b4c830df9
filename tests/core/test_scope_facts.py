"""A scope's border in core.view.scope_facts: tensors the canvas draws as edges apart from
constants read across it (drawn as badges on their readers, no edge), on a small graph and
on a big one (a FoldedSet of folded constants, by node index)."""

import pytest

from inspector.core.model import protos
from inspector.core.model.graph import Graph
from inspector.core.view import view_columns
from inspector.core.view.scope_facts import scope_facts
from inspector.core.view.view_graph import ViewModel


def chain(blocks: int) -> Graph:
    """x -> blk0/mul -> blk1/mul -> ...; each blk{i}/mul reads its own weight blk{i}/w and
    the shared top-level constant k."""
    g = protos.GraphDef()
    g.node.add(name="x", op="Placeholder").attr["dtype"].type = 1
    for name in ["k"] + [f"blk{i}/w" for i in range(blocks)]:
        const = g.node.add(name=name, op="Const")
        const.attr["dtype"].type = 1
        const.attr["value"].tensor.dtype = 1
        const.attr["value"].tensor.float_val.append(1.0)
    prev = "x"
    for i in range(blocks):
        g.node.add(name=f"blk{i}/mul", op="AddN", input=[prev, f"blk{i}/w", "k"])
        prev = f"blk{i}/mul"
    return Graph(g)


@pytest.mark.parametrize("blocks", [10, view_columns.NUMPY_FROM // 2 + 10])
def test_constants_read_across_the_border_are_apart_from_the_drawn_crossings(blocks):
    view = ViewModel(chain(blocks))
    assert isinstance(view.hierarchy.folded, view_columns.FoldedSet) == (blocks > 10)
    facts = scope_facts(view, "blk5/")
    assert [c.tensor for c in facts.inputs] == ["blk4/mul"] and facts.n_inputs == 1
    assert [c.tensor for c in facts.outputs] == ["blk5/mul"] and facts.n_outputs == 1
    assert [c.tensor for c in facts.const_inputs] == ["k"] and facts.n_const_inputs == 1
    assert facts.const_outputs == () and facts.n_const_outputs == 0
    assert [c.desc for c in facts.const_inputs] == ["float []"]
