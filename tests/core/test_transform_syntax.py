"""The --transforms syntax: TF's grammar, clear errors with columns, stable printing."""

import pytest

from inspector.core.transforms.syntax import (
    TransformSyntaxError,
    format_transforms,
    parse_transforms,
)

SEED = ('strip_unused_nodes(type=float, shape="1,299,299,3") remove_nodes(op=Identity, '
        'op=CheckNumerics) fold_constants(ignore_errors=true) fold_batch_norms '
        'fold_old_batch_norms quantize_weights')


def test_parse_seed_pipeline_with_repeated_and_quoted_parameters():
    specs = parse_transforms(SEED)
    assert [s.name for s in specs] == ["strip_unused_nodes", "remove_nodes", "fold_constants",
                                       "fold_batch_norms", "fold_old_batch_norms",
                                       "quantize_weights"]
    assert specs[0].params == {"type": ["float"], "shape": ["1,299,299,3"]}
    assert specs[1].params == {"op": ["Identity", "CheckNumerics"]}


@pytest.mark.parametrize("text", [SEED, "a(x=1)b", "a(x=1 y=2)", 'set_device(device="/cpu:0")',
                                  'a(x="q\\"z")', "\n a \t b(c=d/e.f-g)\n", 'a(x="")'])
def test_parse_print_parse_is_stable(text):
    once = format_transforms(parse_transforms(text))
    assert format_transforms(parse_transforms(once)) == once
    assert [(s.name, s.params) for s in parse_transforms(once)] == \
        [(s.name, s.params) for s in parse_transforms(text)]


def test_tf_lexical_quirks():
    assert [s.name for s in parse_transforms("a(x=1)b")] == ["a", "b"]
    assert parse_transforms('a(x="v"\')')[0].params == {"x": ["v"]}  # stray quotes swallowed
    assert parse_transforms('a(x="q\\"z")')[0].params == {"x": ['q\\"z']}  # escapes kept
    assert parse_transforms("   ") == []


@pytest.mark.parametrize("text,column,words", [
    ("fold_constants(ignore_errors=true", 34, "missing ')'"),
    ("a, b", 2, "comma between transforms"),
    ("a (x=1)", 2, "no space allowed"),
    ("a(x=1 ,y=2)", 7, "no space before a comma"),
    ("a(x=1,)", 7, "no trailing comma"),
    ("a(x)", 4, "expected '='"),
    ("set_device(device=/cpu:0)", 23, "must be quoted"),
    ('a(x="abc', 5, "unterminated"),
])
def test_errors_point_at_the_column(text, column, words):
    with pytest.raises(TransformSyntaxError) as info:
        parse_transforms(text)
    assert info.value.column == column and words in str(info.value)
