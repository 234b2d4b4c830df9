"""A big graph's name-scope tree as columns (TensorBoard's "hierarchy built once", with the
cost following what is on screen): every scope's path and parent, and one order array of
the node indexes, scope after scope, each scope's nodes a slice of it. Scope objects, their
`children` and `nodes` are made from these on first use (a picture asks for the few scopes
it draws; a 1M-node graph has 200k)."""

from __future__ import annotations

from inspector.core.model.inputs import child_key
from inspector.core.model.scopes import Scope
from inspector.core.runtime import pieces


class ScopeTree:
    """paths: every scope's path, the root "" first, each scope after its parent (number:
    {path: its place in paths}), in the order the old walk made them (first sight of a node's scope, missing parents first);
    parent: numpy int64 (-1 for the root); of_node: numpy int64, each node's scope; order:
    numpy int64, the node indexes scope after scope in graph order; starts: scope k's nodes
    are order[starts[k]:starts[k + 1]]. Children are in the order they were made."""

    def __init__(self, np, names: list, paths: list, ids, ahead: "EveryScope | None" = None):
        self._names = names
        every, parent, of_id, self.number = (ahead or EveryScope()).result(paths)
        self.paths = every
        self.parent = np.asarray(parent, np.int64)
        n_scopes = len(every)
        ids = np.frombuffer(ids, np.int32) if len(ids) else np.zeros(0, np.int32)
        self.of_node = np.asarray(of_id, np.int64)[ids] if len(ids) else \
            np.zeros(0, np.int64)
        self.order = np.argsort(self.of_node, kind="stable")
        self.starts = np.zeros(n_scopes + 1, np.int64)
        np.cumsum(np.bincount(self.of_node, minlength=n_scopes), out=self.starts[1:])
        below = self.parent[1:]
        self._kids = np.argsort(below, kind="stable") + 1
        self._kid_starts = np.zeros(n_scopes + 1, np.int64)
        np.cumsum(np.bincount(below, minlength=n_scopes), out=self._kid_starts[1:])
        self._made: dict = {}
        self.root = self.scope(0)

    @staticmethod
    def of(root) -> "ScopeTree | None":
        """The columns behind a scope tree's root, or None (a small graph's tree is made
        whole, of Scope objects only)."""
        maker = getattr(root, "_maker", None)
        return maker if isinstance(maker, ScopeTree) and maker.root is root else None

    def scope(self, k: int) -> Scope:
        """Scope k (made once: every thread gets the same object)."""
        found = self._made.get(k)
        if found is None:
            found = self._made.setdefault(k, Scope(self.paths[k], None, None, self, k))
        return found

    def children_of(self, k: int) -> dict:
        paths, scope = self.paths, self.scope
        kids = self._kids[self._kid_starts[k]:self._kid_starts[k + 1]].tolist()
        return {child_key(paths[j]): scope(j) for j in kids}

    def nodes_of(self, k: int) -> list:
        return pieces.names_at(self._names, self.order[self.starts[k]:self.starts[k + 1]])

    def counts(self):
        """How many nodes sit directly in each scope (numpy)."""
        return self.starts[1:] - self.starts[:-1]


def every_scope(paths: list) -> tuple:
    """(every scope's path, root first; each one's parent number; the number of each of
    `paths`; {path: number}): a scope's missing parents are made just before it, outermost
    first."""
    return EveryScope().result(paths)


class EveryScope:
    """every_scope's answer made a piece of `paths` at a time (a streamed graph's scopes
    while the window waits for the reader's next piece: the first picture does not walk
    200k paths). `paths` only grows; result() of another list starts over."""

    def __init__(self):
        self.number, self.every, self.parent, self.of_id = {"": 0}, [""], [-1], []
        self.source, self.done = None, 0

    def advance(self, paths: list, most: int = 0) -> None:
        """Take paths[self.done:] (at most `most` of them when given)."""
        if paths is not self.source:
            self.__init__()
            self.source = paths
        stop = len(paths) if not most else min(len(paths), self.done + most)
        number, every, parent = self.number, self.every, self.parent

        def add(path: str) -> int:
            up = path.rpartition("/")[0]
            p = number.get(up)
            if p is None:
                p = add(up)
            k = number[path] = len(every)
            every.append(path)
            parent.append(p)
            return k

        get, of_id = number.get, self.of_id
        for path in paths[self.done:stop]:
            k = get(path)          # None, unless made before as a parent (or the root)
            if k is None:
                p = get(path.rpartition("/")[0])
                if p is None:
                    k = add(path)
                else:               # add() inline: the common case, its parent made
                    k = number[path] = len(every)
                    every.append(path)
                    parent.append(p)
            of_id.append(k)
        self.done = stop

    def result(self, paths: list) -> tuple:
        self.advance(paths)
        return self.every, self.parent, self.of_id, self.number
