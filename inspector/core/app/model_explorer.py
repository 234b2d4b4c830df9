"""Files for Model Explorer, in the node ids its own adapters give the models it opens
(formats/me_ids.py): the side-by-side mapping of a comparison. Node data is in
node_data_io.py."""

from __future__ import annotations

from inspector.core.compare.document import me_mapping
from inspector.core.errors import InspectorError
from inspector.core.formats.me_ids import Ids, for_model


def mapping_ids(model_a, model_b) -> tuple[Ids, Ids]:
    """Both sides' ids, or InspectorError naming the side ME cannot be given ids for (B
    made by a pipeline has no file ME could open)."""
    if model_b is None:
        raise InspectorError("the Model Explorer mapping needs B as a file Model Explorer can "
                             "open: write the pipeline's output with `transform --out_graph "
                             "B.pb` and compare A with B.pb")
    return for_model(model_a, "model A"), for_model(model_b, "model B")


def mapping(diff, ids: tuple[Ids, Ids]) -> dict:
    """The sync-navigation mapping file's content."""
    return me_mapping(diff, *ids)
