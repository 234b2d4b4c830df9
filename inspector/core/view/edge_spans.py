"""view_columns.edge_groups' answer on a big graph: the containers edges are drawn in (each
one's parts made when asked) and the groups of edges between them, spans of one positions
array."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from inspector.core.model.graph_index import numpy as _numpy
from inspector.core.model.inputs import path_parts
from inspector.core.model.lazy_numpy import distinct
from inspector.core.runtime import pieces as pieces_module


def _parts_of(path: str) -> tuple:
    return tuple(path_parts(path))


class Containers(Sequence):
    """edge_groups' containers, each one's parts made when asked for (100k at 1M nodes:
    a picture asks for the heads of their paths, heads())."""

    __slots__ = ("_keys", "_seen", "_places", "_heads", "_parent", "_levels_made")

    def __init__(self, keys: list, seen: list, places: int, parent=None):
        self._keys, self._seen, self._places = keys, seen, places
        self._heads: dict = {}       # depth -> head_codes(depth), made once
        # parent: the places' parent numbers (numpy int64, -1 for the root) when each
        # place's path is its parent's plus "/" and one part (a scope tree's, grouped):
        # heads are then found by walking up the numbers, no path read (cold, 30k of
        # them at 300k nodes: ~20 ms before the first picture)
        self._parent, self._levels_made = parent, None

    def __getitem__(self, j):
        if isinstance(j, slice):
            return [self[i] for i in range(*j.indices(len(self)))]
        k = self._seen[j]
        return _parts_of(self._keys[k]) if k < self._places else self._keys[k]

    def __len__(self) -> int:
        return len(self._seen)

    def heads(self, depth: int) -> list:
        """container[:depth] of every container (the parts a projection's expanded scopes
        can tell apart), with no whole split of each path."""
        keys, places = self._keys, self._places
        return [tuple(path_parts(keys[k], depth)[:depth]) if k < places else keys[k][:depth]
                for k in self._seen]

    def head_codes(self, depth: int) -> tuple:
        """(the number of each container's head, numpy int64; the distinct heads in order of
        first sight), made once per depth (each picture with scopes as deep open asks)."""
        found = self._heads.get(depth)
        if found is None and self._parent is not None:
            found = self._tree_codes(depth)
        if found is None:
            heads = self.heads(depth)
            number = dict.fromkeys(heads)
            distinct = list(number)
            number.update(zip(distinct, range(len(distinct))))
            codes = _numpy().fromiter(map(number.__getitem__, heads), _numpy().int64,
                                      len(heads))
            found = (codes, distinct)
        self._heads[depth] = found
        return found

    def _tree_codes(self, depth: int) -> tuple | None:
        """head_codes(depth) from the places' parent numbers: each place's head is its
        ancestor `depth` levels below the root (itself when not as deep); only the
        distinct ancestors' paths are split. Containers past the places (their parts
        kept whole) are few and taken one by one. (A path's parts are its levels, empty
        ones too: inputs.path_parts.) None where the places are not a scope tree's."""
        np, keys, places, parent = _numpy(), self._keys, self._places, self._parent
        level = self._levels(np, keys, parent)
        if level is None:
            return None
        seen = np.asarray(self._seen, np.int64)
        tree = seen < places
        anc = seen[tree]
        while True:
            deep = np.flatnonzero(level[anc] > depth)
            if not len(deep):
                break
            anc[deep] = parent[anc[deep]]
        ids = distinct(np, anc)
        same: dict = {}        # head -> its token (a head past the places may be one)
        canon = np.fromiter((same.setdefault(_parts_of(keys[k]), j)
                             for j, k in enumerate(ids.tolist())), np.int64, len(ids))
        token = np.empty(len(seen), np.int64)
        token[tree] = canon[np.searchsorted(ids, anc)]
        rest = np.flatnonzero(~tree)
        for j, k in zip(rest.tolist(), seen[rest].tolist()):
            token[j] = same.setdefault(keys[k][:depth], len(ids) + j)
        used, first = np.unique(token, return_index=True)
        used = used[np.argsort(first, kind="stable")]      # heads in order of first sight
        rank = np.zeros(len(ids) + len(seen), np.int64)
        rank[used] = np.arange(len(used))
        by_token = {t: head for head, t in same.items()}
        return rank[token], [by_token[t] for t in used.tolist()]

    def _levels(self, np, keys, parent):
        """Each place's level below the root (numpy, made once), or None (see _tree_codes)."""
        if self._levels_made is None:
            if len(parent) and keys[0] != "":
                self._levels_made = False
                return None
            level = np.zeros(len(parent), np.int64)
            up = parent.copy()
            live = np.flatnonzero(up >= 0)
            while len(live):
                level[live] += 1
                up[live] = parent[up[live]]
                live = live[up[live] >= 0]
            self._levels_made = level
        return None if self._levels_made is False else self._levels_made

    def __eq__(self, other) -> bool:
        return isinstance(other, (list, Sequence)) and list(self) == list(other)

    __hash__ = None


class EdgeGroups(Mapping):
    """{(container of src, container of dst, control): [edge positions]} in order of first
    sight, each list made when asked for: a group's edges are positions[lo:hi] of one list
    (spans() walks them with no list a group: 200k groups at 1M nodes). Made of numpy
    arrays (a big graph's), it keeps them (`arrays`: a projection works on them) and makes
    the lists on first use."""

    __slots__ = ("_ka", "_kb", "_control", "_positions", "_starts", "_stops", "_at",
                 "arrays")

    def __init__(self, ka, kb, control, positions, starts, stops):
        self.arrays = None
        if not isinstance(ka, list):
            self.arrays = (ka, kb, control, positions, starts, stops)
            ka = kb = control = positions = starts = stops = None
        self._ka, self._kb, self._control = ka, kb, control
        self._positions, self._starts, self._stops = positions, starts, stops
        self._at = None          # key -> group number, made on the first look-up

    def _listed(self) -> None:
        if self._ka is None:
            listed = pieces_module.listed
            (self._ka, self._kb, self._control, self._positions, self._starts,
             self._stops) = [listed(a) for a in self.arrays]

    @property
    def positions(self) -> list:
        self._listed()
        return self._positions

    def spans(self):
        """(container of src, container of dst, control, lo, hi) of each group."""
        self._listed()
        return zip(self._ka, self._kb, self._control, self._starts, self._stops)

    def __getitem__(self, key):
        if self._at is None:
            self._at = pieces_module.keyed(list(self), range(len(self._ka)))
        k = self._at[key]
        return self.positions[self._starts[k]:self._stops[k]]

    def __iter__(self):
        self._listed()
        return zip(self._ka, self._kb, self._control)

    def __len__(self) -> int:
        return len(self._ka if self.arrays is None else self.arrays[0])

    def items(self):
        positions = self.positions
        return [((a, b, c), positions[lo:hi]) for a, b, c, lo, hi in self.spans()]
