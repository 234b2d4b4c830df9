"""model.kahn: the one LIFO Kahn walk that execution order and data order share."""

from inspector.core.model.kahn import csr, lifo_kahn


def test_the_last_node_made_ready_goes_first_and_ready_nodes_start_in_index_order():
    # 0 -> 2, 1 -> 2, 0 -> 3: 0 and 1 start ready; 1 is popped first (LIFO), then 0 frees 2 and 3
    users = [[2, 3], [2], [], []]
    assert lifo_kahn([0, 0, 2, 1], *csr(users)) == [1, 0, 3, 2]


def test_nodes_in_a_cycle_are_left_out_for_the_caller_to_word():
    users = [[1], [2], [1]]          # 0 -> 1 -> 2 -> 1
    assert lifo_kahn([0, 2, 1], *csr(users)) == [0]


def test_csr_keeps_each_nodes_readers_in_order():
    assert csr([[3, 1], [], [0]]) == ([0, 2, 2, 3], [3, 1, 0])
