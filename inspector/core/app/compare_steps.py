"""The change list of a comparison and its n / p stops: rows built once (interface, each
repeated change and its members, then the rest), stepping from stop to stop, a row or an
entry shown on both sides. A mixin of comparing.CompareSession (its select and _open_to)."""

from __future__ import annotations

SIDES = ("A", "B")


class ChangeSteps:
    """CompareSession's change list and its navigation."""

    def step(self, delta: int) -> int:
        """Go to the next (+1) or previous (-1) stop of the change list: an interface row,
        a repeated change (its group: "Const merged into Conv2D: 470 times" is one stop, at
        its first member) or a change listed alone. Returns the entry shown (-1: none, an
        interface row). O(1) a step: the stops are made once with the rows."""
        stops = self.stops()
        if not stops:
            return -1
        at = self.stop
        at = (at + delta) % len(stops) if at >= 0 else (0 if delta > 0 else len(stops) - 1)
        self.go_to_row(stops[at])
        return self.index

    def stops(self) -> list:
        """Rows n / p stop at, in order: interface rows, group rows, ungrouped entries."""
        self.change_rows()
        return self._stops

    def entry_order(self) -> list:
        """The entries n / p show, in order (a group's first member for the group)."""
        rows = self.change_rows()
        return [rows[r][1] for r in self.stops() if rows[r][1] >= 0]

    def go_to_row(self, row: int) -> None:
        """The change list's row chosen (a click, or n / p at a stop): a change or a group
        shows its (first) entry; an interface row selects the node it names."""
        rows = self.change_rows()
        if not 0 <= row < len(rows):
            return
        text, k, kind = rows[row]
        self.row = row
        self.stop = _at(self._stop_of, row, self.stop)
        if k >= 0:
            self._show_entry(k)
        elif kind == "interface":
            self.index = -1
            name = _quoted(text)
            for side in ("B", "A") if text.startswith("⚠ interface: new ") else SIDES:
                if name in self.graphs[side]:
                    self.select(side, name)
                    break

    def _show_entry(self, index: int) -> None:
        self.change_rows()
        self.index = index
        if self.row < 0 or self._rows[self.row][1] != index:     # go_to(k), not a row
            self.row = _at(self._row_of, index)
            self.stop = _at(self._stop_of, self.row, _at(self._stop_of, _at(self._group_row,
                                                                            index), self.stop))
        e = self.diff.entries[index]
        if e.a:
            self.select("A", e.a)
            if e.b and e.b not in self.selected["B"]:
                self.selected["B"].append(e.b)
                self._open_to("B", [e.b])
        else:
            self.select("B", e.b)

    def go_to(self, index: int) -> None:
        self.row = -1
        self._show_entry(index)

    def change_rows(self) -> list:
        """The change list, built once (in the task that made the session): (text, entry index
        or -1, kind) with kind "interface", "group" (its first member's index), "entry" or
        "equal"; the interface first, then each repeated change and its members, then the
        rest. An equal pair has one row that says so."""
        if getattr(self, "_rows", None) is None:
            d, rows = self.diff, []
            rows += [(f"⚠ interface: {c.text}", -1, "interface") for c in d.interface]
            rows += [(f"• size: {n.text}", -1, "note") for n in d.notes]
            stops = list(range(len(rows)))
            # by entry index and by row, lists, not dicts: a dict of 300k ints grows by
            # resizes, each one C call (~5 ms, ~25 ms on the slow class, in the task)
            n = len(d.entries)
            grouped, group_row = bytearray(n), [-1] * n
            for g in d.groups:
                stop = len(rows)
                stops.append(stop)
                rows.append((f"▸ {g.title}", g.members[0], "group"))
                for k in g.members:
                    if group_row[k] < 0:
                        group_row[k] = stop
                    grouped[k] = 1
                rows += [("      " + d.entries[k].describe(), k, "entry") for k in g.members]
            for k, e in enumerate(d.entries):
                if not grouped[k]:
                    stops.append(len(rows))
                    rows.append((e.describe(), k, "entry"))
            if not rows:
                unchanged = d.counts().get("unchanged", 0)
                rows.append((f"✓ Equal: {unchanged:,} nodes matched, nothing changed"
                             if d.equal else f"✓ No node changed ({unchanged:,} matched); "
                             "only scopes were renamed", -1, "equal"))
            stop_of, row_of = [-1] * len(rows), [-1] * n
            for i, r in enumerate(stops):
                stop_of[r] = i
            for r, (_, k, kind) in enumerate(rows):
                if kind == "entry" and row_of[k] < 0:
                    row_of[k] = r
            self._rows, self._stops, self._group_row = rows, stops, group_row
            self._stop_of, self._row_of = stop_of, row_of
        return self._rows

    def row_of(self, index: int) -> int:
        """The change list's row of entry `index` (-1 if none)."""
        self.change_rows()
        return _at(self._row_of, index)


def _quoted(text: str) -> str:
    """The first 'quoted' name in an interface row."""
    start = text.find("'")
    end = text.find("'", start + 1)
    return text[start + 1:end] if 0 <= start < end else ""


def _at(items: list, i: int, default: int = -1) -> int:
    """items[i] where i is in range and it is set (>= 0), else `default` (the change list's
    look-ups by entry index and by row)."""
    got = items[i] if 0 <= i < len(items) else -1
    return got if got >= 0 else default
