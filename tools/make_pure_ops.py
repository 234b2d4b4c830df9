"""Regenerate inspector/core/model/pure_ops.txt from TensorFlow's op registry (dev tool).

The allowlist is ours: it starts from every op TF registers, keeps what computes on tensors in
memory (stateless math and array ops, plus the few stateful ones whose state is only memory:
variables, random generators, optimizers, TensorArrays, control flow), and drops everything
whose name says it may touch files, the network, Python, other processes or devices, or the
clock. The result is reviewed by hand and committed; run this after a TensorFlow upgrade and
read the diff before committing it.

Usage: python tools/make_pure_ops.py > inspector/core/model/pure_ops.txt
"""

from __future__ import annotations

import os
import re

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

# Any op whose name matches this may read or write files, talk to other processes or hosts,
# run Python, wait, or depends on infrastructure we cannot vouch for.
DENY = re.compile(
    r"File|Dataset|Reader|Summary|Save|Restore|Checkpoint|Iterator|Queue|Rpc|Send|Recv|"
    r"Collective|Nccl|TPU|Tpu|Xla|Py|Debug|Dump|Load|Sql|LMDB|Matching|Immutable|Infeed|"
    r"Outfeed|Session|Shard|RecordInput|Remote|Host(?!Const|Cast)|Barrier|Accumulator|Stage|"
    r"Sleep|Timestamp|Distributed|Event|FileSystem|Skipgram|Fixed.*Sampler|Stats|Risc|Mlir|"
    r"Cudnn|Device|Heartbeat|Configure|Initialize.*From|InitializeTableFrom|Boosted|Generator|"
    r"Snapshot.+|Rewrite|Register|Options|Unwrap|Wrap|Weighted|ThreadPool|Fake|Stub|Test|"
    r"_Scoped|_XlaCompile|_XlaRun|SymbolicGradient|Map(Clear|Incomplete|Peek|Size|Stage|Unstage)|"
    r"ImportEvent|GraphDefVersion|RequiresOlder|_Parallel|WorkerHeartbeat|^(Ordered)?Map\w|"
    r"DTensor|Relayout|CopyToMesh|Prelinearize|SparseCore|DedupData|^Batch$|Unbatch|"
    r"BatchFunction"
)

# Named one by one: harmful or meaningless despite an innocent name.
EXCLUDE = {
    "Abort",                       # kills the process
    "GenerateVocabRemapping",      # reads the vocabulary files named by its inputs
    "FixedUnigramCandidateSampler",  # reads `vocab_file`
    "CustomAggregator",            # calibration statistics collection (quantization tooling)
    "CheckPinned", "GetDeadline", "ConstructionFails", "KernelLabel", "KernelLabelRequired",
    "RandomShuffleQueue", "RandomShuffleQueueV2", "RandomDataset", "RandomDatasetV2",
}
# TensorFlow's own test ops (registered in every build, no kernels): not model ops.
TEST_OPS = re.compile(
    r"^(A|B|Attr\w*|Binary|Unary|Foo\d|Old|None|Simple|SimpleStruct|MixedStruct|ComplexStruct|"
    r"Polymorphic\w*|NPolymorphic\w*|N?InPolymorphicTwice|NInTwice|NInTwoTypeVariables|"
    r"NInts\w*|Int\w*(Input|Output)\w*|Float\w*(Input|Output)\w*|\w*FloatOutputs?|"
    r"Two(Float|Int|Refs)\w*|FiveFloatOutputs|Ref(In|Out|Input\w*|Output\w*)|Restrict|"
    r"ReservedAttr|ReservedInput|ListInput|ListOutput|OutT|OutTypeList\w*|TypeList\w*|"
    r"StringListAttr|IntAttr|FuncAttr|FuncListAttr|DefaultAttrs|OpWith\w*DefaultAttr|"
    r"WindowOp|DtypeWithDefaultOp|Int64Output|MakeUnique)$"
)

# Stateful ops whose state lives only in this process's memory: safe to run.
STATEFUL_MEMORY_ONLY = re.compile(
    r"^(Variable|VariableV2|TemporaryVariable|VarHandleOp|_VarHandlesOp|ReadVariableOp|"
    r"_ReadVariablesOp|AssignVariableOp|AssignAddVariableOp|AssignSubVariableOp|"
    r"VarIsInitializedOp|VariableShape|DestroyResourceOp|ResourceGather|ResourceGatherNd|"
    r"ResourceScatter\w+|ResourceStridedSliceAssign|ResourceApply\w+|ResourceSparseApply\w+|"
    r"ResourceCountUpTo|Random\w*|TruncatedNormal|ParameterizedTruncatedNormal|Multinomial|"
    r"Stateful(Standard|Truncated|Uniform|RandomBinomial)\w*|RngSkip|RngReadAndSkip|"
    r"NonDeterministicInts|\w*CandidateSampler|SampleDistortedBoundingBox\w*|"
    r"TensorArray\w*|Stack|StackV2|StackPushV2|StackPopV2|StackCloseV2|"
    r"HashTable|HashTableV2|MutableHashTable\w*|MutableDenseHashTable\w*|Anonymous\w*HashTable\w*|"
    r"LookupTable(Find|Insert|Remove|Size|Export|Import)V2|InitializeTableV2|"
    r"MutexV2|MutexLock|ConsumeMutexLock|"
    r"If|While|Case|StatefulPartitionedCall|_If|_While|"
    r"Assert|CheckNumerics|CheckNumericsV2|Print|PrintV2|"
    r"_Arg|_Retval|_DeviceArg|_DeviceRetval|GuaranteeConst|DisableCopyOnRead|IsTensorFloat32Enabled)$"
)


def main() -> None:
    from tensorflow.core.framework import op_def_pb2
    from tensorflow.python.client import pywrap_tf_session as c

    ops = op_def_pb2.OpList.FromString(c.TF_GetBuffer(c.TF_GetAllOpList()))
    keep = []
    for op in ops.op:
        name = op.name
        if op.is_stateful:
            ok = bool(STATEFUL_MEMORY_ONLY.match(name)) and "FromDataset" not in name
        else:
            ok = not DENY.search(name)
        if ok and name not in EXCLUDE and not TEST_OPS.match(name):
            keep.append(name)
    import tensorflow as tf

    print(f"# Ops that compute in memory only (TensorFlow {tf.__version__} registry, "
          "filtered by tools/make_pure_ops.py, reviewed by hand).")
    print("# Some still have attribute conditions checked in code (PrintV2's output_stream,")
    print("# DecodeProtoV2/EncodeProto's descriptor_source); call ops are allowed only when")
    print("# every function they reach is itself made of these ops.")
    for name in sorted(keep):
        print(name)


if __name__ == "__main__":
    main()
