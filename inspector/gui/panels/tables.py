"""A read-only results table: one row per result (chosen whole, one at a time), the
columns named, no row numbers (the Phone panel's conversion and quantization tables)."""

from __future__ import annotations

from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget


def results_table(columns, resize=QHeaderView.ResizeToContents) -> QTableWidget:
    table = QTableWidget(0, len(columns))
    table.setHorizontalHeaderLabels(columns)
    table.setEditTriggers(QAbstractItemView.NoEditTriggers)
    table.setSelectionBehavior(QAbstractItemView.SelectRows)
    table.setSelectionMode(QAbstractItemView.SingleSelection)
    rows = table.verticalHeader()
    rows.setVisible(False)
    line = table.fontMetrics().height() + 4      # a line of text a row (Qt's default is 30
    rows.setMinimumSectionSize(line)             # px: in a short dock at 1366x768 three of
    rows.setDefaultSectionSize(line)             # four variants were out of view)
    table.horizontalHeader().setSectionResizeMode(resize)
    return table


# The error measures, named the same in the Conversion preview and the Quantization tab.
MEASURES = {"Top-1": "share of the compared inputs whose first output's top class is the TF "
                     "graph's",
            "Max |err|": "largest absolute difference of the answers from the TF graph's, "
                         "on the compared inputs",
            "MSE": "mean squared error of the answers against the TF graph's, on the "
                   "compared inputs",
            "SNR dB": "signal (the TF graph's answers) over that error, in dB, run on "
                      "XNNPACK (LiteRT's default runtime)",
            "Builtin SNR": "the same SNR with LiteRT's builtin kernels without XNNPACK (the "
                           "kernels the per-layer errors are measured with)",
            "Cosine": "cosine similarity of the answers with the TF graph's",
            "Tool": "what made the file: TF's converter or ai-edge-quantizer"}


def name_measures(table) -> None:
    """Each error column's header says, as its tooltip, what it measures."""
    for c in range(table.columnCount()):
        item = table.horizontalHeaderItem(c)
        if item is not None and item.text() in MEASURES:
            item.setToolTip(MEASURES[item.text()])
