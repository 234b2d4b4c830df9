"""Which subgraphs a .tflite's operators call (WHILE's cond and body, IF's branches,
CALL_ONCE's init, CALL, the StableHLO ops with bodies), read from the flatbuffer by the
checked reader, and the first call that LiteRT could not survive: a subgraph that calls
itself, directly or through others (LiteRT recurses while preparing it until its stack runs
out: a segmentation fault, seen with a WHILE whose body is the main subgraph), calls nested
deeper than MAX_DEPTH (the same recursion: 20,000 WHILEs each the next one's body crashed
it), or a subgraph that does not exist; and (check_scales) a tensor whose quantization scale
LiteRT aborts on. Checked before any interpreter is made (the TF layer's LiteRT, from the
bytes) and, the calls, when a .tflite is opened (loaders.tflite: a note); nothing here runs
the model."""

from __future__ import annotations

import math

from inspector.core.model.flatbuf import Buffer

# builtin op code -> (its name, the Operator's field holding its options table: 4
# builtin_options, 12 builtin_options_2; the options' fields that are subgraph indexes, or
# "vector" for a list of them)
CALLS = {119: ("WHILE", 4, (0, 1)), 118: ("IF", 4, (0, 1)), 129: ("CALL_ONCE", 4, (0,)),
         31: ("CALL", 4, (0,)), 200: ("STABLEHLO_WHILE", 12, (0, 1)),
         174: ("STABLEHLO_REDUCE", 12, (1,)), 199: ("STABLEHLO_SORT", 12, (2,)),
         190: ("STABLEHLO_SCATTER", 12, (6,)), 198: ("STABLEHLO_REDUCE_WINDOW", 12, (5,)),
         206: ("STABLEHLO_COMPOSITE", 12, (1,)), 209: ("STABLEHLO_CASE", 12, "vector")}
# deepest chain of subgraph calls handed to LiteRT: it recurses once a level while preparing
# (a chain of 20,000 crashed it, 10,000 did not, on an 8 MB stack); real models nest a few
MAX_DEPTH = 1000


def op_code(c) -> int:
    """An OperatorCode table's builtin code (the deprecated byte, or the int past 127)."""
    return max(c.scalar(0, "b"), c.scalar(3, "i"))


def called(code: int, o) -> list:
    """The subgraph indexes operator table `o` (of builtin op `code`) calls."""
    found = CALLS.get(code)
    if found is None:
        return []
    table = o.table(found[1])
    if table is None:
        return []
    if found[2] == "vector":
        return table.scalars(0, "i")
    return [table.scalar(k, "i", 0) for k in found[2]]


def check_calls(data) -> str:
    """'' or the first call of the .tflite in `data` that LiteRT could not survive, read
    from its operators alone (the checked reader: a damaged file raises ModelLoadError)."""
    buf = Buffer(data, "", "TensorFlow Lite file")
    model = buf.root()
    codes = [op_code(c) for c in model.tables(1)]
    subgraphs = []
    for g in model.tables(2):
        ops = []
        for k, o in enumerate(g.tables(3)):
            index = o.scalar(0, "I")
            code = codes[index] if index < len(codes) else -1
            if code in CALLS:
                ops.append((k, CALLS[code][0], called(code, o)))
        subgraphs.append(ops)
    return call_problem(subgraphs)


QUANTIZED = (3, 7, 9)     # UINT8, INT16, INT8: the types whose kernels compute with the scale


def check_scales(data) -> str:
    """'' or the first tensor an operator uses whose quantization scale is not a positive
    number (0, negative, infinite, NaN): LiteRT aborts the process on it while preparing a
    quantized ADD (a TFLITE_CHECK: SIGABRT, no exception), seen on `diff --numeric` and
    `targets`. Only a quantized tensor's (UINT8, INT16, INT8: a float tensor's scale is
    never read; LiteRT runs a float ADD whose tensors say scale 0), and a 0 among a
    per-channel weight's scales is no problem (an all-zero, pruned channel, as some
    converters write it: LiteRT runs an int8 Conv2D with one). Read by the checked reader,
    as check_calls."""
    model = Buffer(data, "", "TensorFlow Lite file").root()
    for i, g in enumerate(model.tables(2)):
        tensors = g.tables(0)
        used = set(g.scalars(1, "i")) | set(g.scalars(2, "i"))
        for o in g.tables(3):
            used.update(o.scalars(1, "i"))
            used.update(o.scalars(2, "i"))
        for k in sorted(t for t in used if 0 <= t < len(tensors)):
            q = tensors[k].table(4)
            if q is None or tensors[k].scalar(1, "b") not in QUANTIZED:
                continue
            scales = q.scalars(2, "f")
            for scale in scales:
                if not (math.isfinite(scale) and (scale > 0 or scale == 0 and len(scales) > 1)):
                    name = tensors[k].string(3)
                    return (f"subgraph {i}'s tensor {k} ('{name[:80]}') has a quantization "
                            f"scale of {scale:g}: LiteRT aborts on a scale that is not a "
                            "positive number")
    return ""


def call_problem(subgraphs: list) -> str:
    """'' or the first call LiteRT could not survive, in words. `subgraphs`: per subgraph,
    its calling operators as (index, op, [called subgraph indexes])."""
    n = len(subgraphs)
    for i, ops in enumerate(subgraphs):
        for k, op, targets in ops:
            bad = [t for t in targets if not 0 <= t < n]
            if bad:
                return (f"subgraph {i}'s operator {k} ({op}) calls subgraph {bad[0]}, which "
                        f"does not exist ({n} subgraphs)")
    state = [0] * n                  # 0 not seen, 1 on the current path, 2 done
    depth = [0] * n                  # subgraphs on the deepest call chain from each (done)
    for start in range(n):
        if state[start]:
            continue
        path, stack = [start], [(start, iter(_edges(subgraphs[start])))]
        state[start] = 1
        while stack:                 # depth first, without recursion (no stack to exhaust)
            node, edges = stack[-1]
            step = next(edges, None)
            if step is None:
                state[node] = 2
                deepest = max(_edges(subgraphs[node]), key=lambda e: depth[e[2]],
                              default=None)
                depth[node] = 1 + (depth[deepest[2]] if deepest else 0)
                if depth[node] > MAX_DEPTH:
                    k, op, _ = deepest
                    return (f"subgraph {node}'s operator {k} ({op}) calls subgraphs nested "
                            f"{depth[node]:,} deep (more than {MAX_DEPTH:,}): LiteRT would "
                            "recurse through them until its stack runs out")
                stack.pop()
                path.pop()
                continue
            k, op, target = step
            if state[target] == 1:
                loop = path[path.index(target):] + [target]
                how = "itself" if target == node else \
                    f"which calls it back ({' -> '.join(map(str, loop))})"
                return (f"subgraph {node}'s operator {k} ({op}) calls subgraph {target}, "
                        f"{how}: LiteRT would recurse into it without end")
            if state[target] == 0:
                state[target] = 1
                path.append(target)
                stack.append((target, iter(_edges(subgraphs[target]))))
    return ""


def _edges(ops: list):
    for k, op, targets in ops:
        for t in targets:
            yield k, op, t
