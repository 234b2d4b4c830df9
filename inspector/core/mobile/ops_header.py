"""ops_to_register.h for a TensorFlow build with SELECTIVE_REGISTRATION: only the ops and
kernel classes a graph uses are compiled into the mobile library. Kernel class names come
from the kernel registry of the TensorFlow that is installed (asked through the bridge), so
the header fits that TensorFlow's sources; the header says which version it was made with.
Same ops and kernels as TF's print_selective_registration_header (tests compare them)."""

from __future__ import annotations

import re

DEFAULT_OPS = (("NoOp", "NoOp"), ("_Recv", "RecvOp"), ("_Send", "SendOp"))
NO_KERNEL_NEEDED = frozenset({"AccumulateNV2"})   # rewritten away before kernels are chosen


def needed_ops(node_defs: list, kernels: list) -> tuple[list, list]:
    """(sorted (op, kernel class or None) pairs, ops with no kernel in this build) from the
    NodeDefs and their kernel classes (one per NodeDef, from the bridge's kernel_classes)."""
    pairs, missing = set(DEFAULT_OPS), set()
    for node, (op, kernel) in zip(node_defs, kernels):
        if kernel or op in NO_KERNEL_NEEDED:
            pairs.add((op, kernel or None))
        else:
            missing.add(op)
    return sorted(pairs, key=lambda p: (p[0], p[1] or "")), sorted(missing)


def all_node_defs(graph_def) -> list:
    """The graph's NodeDefs and those of its function library."""
    nodes = list(graph_def.node)
    for fdef in graph_def.library.function:
        nodes.extend(fdef.node_def)
    return nodes


_HELPERS = """namespace {
// Compile-time string comparison that ignores spaces (kernel class names are written by
// macros and may carry them).
constexpr const char* skip_spaces(const char* s) {
  return *s == ' ' ? skip_spaces(s + 1) : s;
}
constexpr bool same_name(const char* a, const char* b) {
  return (*skip_spaces(a) == '\\0' || *skip_spaces(b) == '\\0')
             ? (*skip_spaces(a) == '\\0' && *skip_spaces(b) == '\\0')
             : (*skip_spaces(a) == *skip_spaces(b) &&
                same_name(skip_spaces(a) + 1, skip_spaces(b) + 1));
}
template <int N>
struct listed {
  static constexpr bool in(const char* name, const char* const list[N]) {
    return same_name(name, list[0]) || listed<N - 1>::in(name, list + 1);
  }
};
template <>
struct listed<0> {
  static constexpr bool in(const char*, const char* const[]) { return false; }
};
}  // namespace
"""


def header_text(pairs: list, tf_version: str, source: str = "", missing=()) -> str:
    """The header for these (op, kernel class) pairs."""
    ops = sorted({op for op, _ in pairs})
    kernels = [k for _, k in pairs if k]
    lines = ["// ops_to_register.h: only what this graph needs, for a TensorFlow build with",
             "// SELECTIVE_REGISTRATION. Written by GraphDef Inspector"
             + (f" for {source}" if source else "") + ".",
             f"// Kernel class names come from the kernel registry of TensorFlow {tf_version}",
             "// (CPU kernels); build with the same TensorFlow version's sources.",
             f"// {len(ops)} ops, {len(kernels)} kernel classes."]
    if missing:
        lines.append(f"// No CPU kernel in this TensorFlow for: {', '.join(missing)}.")
    lines += ["#ifndef OPS_TO_REGISTER", "#define OPS_TO_REGISTER", "", _HELPERS,
              "constexpr const char* kNecessaryOpKernelClasses[] = {"]
    lines += [f'    "{k}",' for k in kernels]
    lines += ["};",
              "#define SHOULD_REGISTER_OP_KERNEL(clz)                                       \\",
              "  (listed<sizeof(kNecessaryOpKernelClasses) /                                \\",
              "          sizeof(*kNecessaryOpKernelClasses)>::in(clz, kNecessaryOpKernelClasses))",
              "", "constexpr inline bool ShouldRegisterOp(const char op[]) {", "  return false"]
    lines += [f'      || same_name(op, "{op}")' for op in ops]
    lines += ["      ;", "}", "#define SHOULD_REGISTER_OP(op) ShouldRegisterOp(op)", "",
              "#define SHOULD_REGISTER_OP_GRADIENT "
              + ("true" if "SymbolicGradient" in ops else "false"),
              "#endif  // OPS_TO_REGISTER", ""]
    return "\n".join(lines)


def parse_header(text: str) -> tuple[set, set]:
    """(ops, kernel classes) named in an ops_to_register.h (ours or TensorFlow's)."""
    kernels_block = text.split("kNecessaryOpKernelClasses[] = {", 1)[-1].split("};", 1)[0]
    kernels = set(re.findall(r'"([^"]+)"', kernels_block))
    ops_block = text.split("ShouldRegisterOp(const char op[])", 1)[-1].split("}", 1)[0]
    ops = set(re.findall(r'"([^"]+)"', ops_block))
    return ops, kernels
